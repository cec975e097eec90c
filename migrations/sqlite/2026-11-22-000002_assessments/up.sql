-- Assessments belong to the human (D10); profiles to the organization (D25).
CREATE TABLE assessments (
    id TEXT PRIMARY KEY,
    human_id TEXT NOT NULL REFERENCES humans (id),
    state text NOT NULL,
    started_at TEXT NOT NULL,
    completed_at TEXT,
    responses text NOT NULL DEFAULT '[]'
);
CREATE INDEX assessments_human_idx ON assessments (human_id, started_at);

CREATE TABLE profiles (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    description text,
    competencies text NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX profiles_org_idx ON profiles (org_id, id DESC);
-- persons_with_results: active persons of an organization with a visible completed assessment.
CREATE INDEX persons_org_results_idx ON persons (org_id, status, assessment_count);
