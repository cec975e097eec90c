-- ATS connectors (D63, D67, D75): an organization's connections to ATSs, the orders the ATSs
-- place through them, and the errors the ATSs report. Credentials are stored sealed.
CREATE TABLE ats_connections (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    ats text NOT NULL,
    name text NOT NULL,
    enabled boolean NOT NULL,
    base_url text,
    api_key text,
    integration_id text,
    webhook_secret text,
    api_key_id uuid NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    last_activity_at timestamptz
);
CREATE INDEX ats_connections_org_idx ON ats_connections (org_id, created_at);
CREATE INDEX ats_connections_key_idx ON ats_connections (api_key_id);

CREATE TABLE ats_orders (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    connection_id uuid NOT NULL REFERENCES ats_connections (id) ON DELETE CASCADE,
    test_id text NOT NULL,
    person_id uuid NOT NULL REFERENCES persons (id) ON DELETE CASCADE,
    invitation_id uuid NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    ats_key text NOT NULL,
    candidate_ref text,
    application_ref text,
    job_ref text,
    job_name text,
    profile_url text,
    ats_order_ref text,
    callback_url text,
    status text NOT NULL,
    assessment_id uuid,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    started_at timestamptz,
    completed_at timestamptz
);
-- One open order per connection, ATS key and test: an ATS's retry finds it (D67).
CREATE UNIQUE INDEX ats_orders_open_idx ON ats_orders (connection_id, ats_key, test_id)
    WHERE status IN ('sent', 'started');
CREATE INDEX ats_orders_connection_idx ON ats_orders (connection_id, id);
CREATE INDEX ats_orders_invitation_idx ON ats_orders (invitation_id);
CREATE INDEX ats_orders_person_idx ON ats_orders (person_id);

CREATE TABLE ats_errors (
    id uuid PRIMARY KEY,
    connection_id uuid NOT NULL REFERENCES ats_connections (id) ON DELETE CASCADE,
    api_call text NOT NULL,
    errors text NOT NULL,
    order_id uuid,
    created_at timestamptz NOT NULL
);
CREATE INDEX ats_errors_connection_idx ON ats_errors (connection_id, id);
