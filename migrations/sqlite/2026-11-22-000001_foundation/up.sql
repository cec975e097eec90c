-- Foundation (SQLite): same tables as PostgreSQL; uuids and times are TEXT (times fixed-width UTC, so text order is time order).
-- outbox, idempotency records, settings. Times are TEXT (UTC, microseconds).

CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    company_name text NOT NULL,
    email text NOT NULL,
    plan text NOT NULL,
    subscription_status text NOT NULL,
    trial_ends_at TEXT,
    current_period_end TEXT,
    employee_domains text NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX organizations_company_name_idx ON organizations (company_name, created_at);

CREATE TABLE users (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    email text NOT NULL,
    role text NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (org_id, email)
);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    org_id TEXT NOT NULL REFERENCES organizations (id),
    name text,
    prefix text NOT NULL UNIQUE,
    hash BLOB NOT NULL,
    scopes text NOT NULL,
    expires_at TEXT,
    revoked_at TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE humans (
    id TEXT PRIMARY KEY,
    email text NOT NULL UNIQUE,
    created_at TEXT NOT NULL
);

CREATE TABLE persons (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    human_id TEXT NOT NULL REFERENCES humans (id),
    email text NOT NULL,
    first_name text,
    last_name text,
    external_id text,
    status text NOT NULL,
    archive_reason text,
    label_candidate BOOLEAN NOT NULL,
    label_employee BOOLEAN NOT NULL,
    tags text NOT NULL DEFAULT '[]',
    joined_via text NOT NULL,
    shared_existing_profile BOOLEAN NOT NULL,
    assessment_status text NOT NULL,
    assessment_completed_at TEXT,
    assessment_count BIGINT NOT NULL,
    member_since TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    archived_at TEXT,
    search_text text NOT NULL,
    UNIQUE (org_id, email)
);
-- Keyset order (newest first = id descending, ids are UUIDv7) within organization and status.
CREATE INDEX persons_org_status_id_idx ON persons (org_id, status, id DESC);
CREATE INDEX persons_org_external_id_idx ON persons (org_id, external_id);
CREATE INDEX persons_org_updated_idx ON persons (org_id, status, updated_at);
CREATE INDEX persons_org_assessment_idx ON persons (org_id, status, assessment_status, id DESC);
CREATE INDEX persons_org_labels_idx ON persons (org_id, status, label_candidate, label_employee, id DESC);
CREATE INDEX persons_human_idx ON persons (human_id);

CREATE TABLE tags (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    name_key text NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (org_id, name_key)
);

CREATE TABLE person_tags (
    person_id TEXT NOT NULL REFERENCES persons (id),
    tag_id TEXT NOT NULL REFERENCES tags (id),
    PRIMARY KEY (person_id, tag_id)
);
CREATE INDEX person_tags_tag_idx ON person_tags (tag_id, person_id DESC);

CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE team_members (
    team_id TEXT NOT NULL REFERENCES teams (id),
    person_id TEXT NOT NULL REFERENCES persons (id),
    created_at TEXT NOT NULL,
    PRIMARY KEY (team_id, person_id)
);
CREATE INDEX team_members_person_idx ON team_members (person_id);

CREATE TABLE outbox_events (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    event_type text NOT NULL,
    data text NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX outbox_events_org_idx ON outbox_events (org_id, created_at);

CREATE TABLE idempotency_keys (
    org_id TEXT NOT NULL,
    path text NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    response_status integer,
    response_body text,
    existing_resource BOOLEAN NOT NULL DEFAULT false,
    created_at TEXT NOT NULL,
    PRIMARY KEY (org_id, path, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

CREATE TABLE settings (
    name text PRIMARY KEY,
    value text NOT NULL
);
