-- Personal invitations (D17-D21) and the email outbox (D22).
CREATE TABLE invitations (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    email text NOT NULL,
    first_name text,
    last_name text,
    external_id text,
    person_id TEXT,
    status text NOT NULL,
    labels text,
    tags text,
    variant text NOT NULL,
    message text,
    send_email BOOLEAN NOT NULL,
    token_hash BLOB NOT NULL UNIQUE,
    email_sent_at TEXT,
    reminder_sent_at TEXT,
    expires_at TEXT NOT NULL,
    accepted_at TEXT,
    revoked_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX invitations_org_id_idx ON invitations (org_id, id DESC);
CREATE INDEX invitations_org_email_idx ON invitations (org_id, email);
CREATE INDEX invitations_org_person_idx ON invitations (org_id, person_id);
CREATE INDEX invitations_org_updated_idx ON invitations (org_id, updated_at);
CREATE INDEX invitations_due_idx ON invitations (status, expires_at);

CREATE TABLE emails (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    invitation_id TEXT,
    to_address text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    invitation_url text,
    sent_at TEXT,
    attempts BIGINT NOT NULL DEFAULT 0,
    last_error text,
    next_attempt_at TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX emails_due_idx ON emails (sent_at, next_attempt_at);
CREATE INDEX emails_to_idx ON emails (to_address, created_at);
