-- Foundation: organizations, users, API keys, humans, persons (memberships), tags, teams,
-- outbox, idempotency records, settings. Times are timestamptz (UTC, microseconds).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE organizations (
    id uuid PRIMARY KEY,
    company_name text NOT NULL,
    email text NOT NULL,
    plan text NOT NULL,
    subscription_status text NOT NULL,
    trial_ends_at timestamptz,
    current_period_end timestamptz,
    employee_domains text NOT NULL DEFAULT '[]',
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE INDEX organizations_company_name_idx ON organizations (company_name, created_at);

CREATE TABLE users (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    email text NOT NULL,
    role text NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (org_id, email)
);

CREATE TABLE api_keys (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id),
    org_id uuid NOT NULL REFERENCES organizations (id),
    name text,
    prefix text NOT NULL UNIQUE,
    hash bytea NOT NULL,
    scopes text NOT NULL,
    expires_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL
);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

CREATE TABLE humans (
    id uuid PRIMARY KEY,
    email text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
);

CREATE TABLE persons (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    human_id uuid NOT NULL REFERENCES humans (id),
    email text NOT NULL,
    first_name text,
    last_name text,
    external_id text,
    status text NOT NULL,
    archive_reason text,
    label_candidate boolean NOT NULL,
    label_employee boolean NOT NULL,
    tags text NOT NULL DEFAULT '[]',
    joined_via text NOT NULL,
    shared_existing_profile boolean NOT NULL,
    assessment_status text NOT NULL,
    assessment_completed_at timestamptz,
    assessment_count bigint NOT NULL,
    member_since timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    archived_at timestamptz,
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
-- q: case-insensitive substring search across names and email.
CREATE INDEX persons_search_trgm_idx ON persons USING gin (search_text gin_trgm_ops);

CREATE TABLE tags (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    name_key text NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (org_id, name_key)
);

CREATE TABLE person_tags (
    person_id uuid NOT NULL REFERENCES persons (id),
    tag_id uuid NOT NULL REFERENCES tags (id),
    PRIMARY KEY (person_id, tag_id)
);
CREATE INDEX person_tags_tag_idx ON person_tags (tag_id, person_id DESC);

CREATE TABLE teams (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    name text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE team_members (
    team_id uuid NOT NULL REFERENCES teams (id),
    person_id uuid NOT NULL REFERENCES persons (id),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (team_id, person_id)
);
CREATE INDEX team_members_person_idx ON team_members (person_id);

CREATE TABLE outbox_events (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    event_type text NOT NULL,
    data text NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX outbox_events_org_idx ON outbox_events (org_id, created_at);

CREATE TABLE idempotency_keys (
    org_id uuid NOT NULL,
    path text NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    response_status integer,
    response_body text,
    existing_resource boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (org_id, path, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

CREATE TABLE settings (
    name text PRIMARY KEY,
    value text NOT NULL
);
