-- Personal invitations (D17-D21) and the email outbox (D22).
CREATE TABLE invitations (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    email text NOT NULL,
    first_name text,
    last_name text,
    external_id text,
    person_id uuid,
    status text NOT NULL,
    labels text,
    tags text,
    variant text NOT NULL,
    message text,
    send_email boolean NOT NULL,
    token_hash bytea NOT NULL UNIQUE,
    email_sent_at timestamptz,
    reminder_sent_at timestamptz,
    expires_at timestamptz NOT NULL,
    accepted_at timestamptz,
    revoked_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE INDEX invitations_org_id_idx ON invitations (org_id, id DESC);
CREATE INDEX invitations_org_email_idx ON invitations (org_id, email);
CREATE INDEX invitations_org_person_idx ON invitations (org_id, person_id);
CREATE INDEX invitations_org_updated_idx ON invitations (org_id, updated_at);
CREATE INDEX invitations_due_idx ON invitations (status, expires_at);

CREATE TABLE emails (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    invitation_id uuid,
    to_address text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    invitation_url text,
    sent_at timestamptz,
    attempts bigint NOT NULL DEFAULT 0,
    last_error text,
    next_attempt_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX emails_due_idx ON emails (sent_at, next_attempt_at);
CREATE INDEX emails_to_idx ON emails (to_address, created_at);
