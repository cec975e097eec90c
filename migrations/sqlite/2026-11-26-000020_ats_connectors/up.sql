-- ATS connectors (D63, D67, D75): an organization's connections to ATSs, the orders the ATSs
-- place through them, and the errors the ATSs report. Credentials are stored sealed.
CREATE TABLE ats_connections (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    ats TEXT NOT NULL,
    name TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    base_url TEXT,
    api_key TEXT,
    integration_id TEXT,
    webhook_secret TEXT,
    api_key_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    last_activity_at TEXT
);
CREATE INDEX ats_connections_org_idx ON ats_connections (org_id, created_at);
CREATE INDEX ats_connections_key_idx ON ats_connections (api_key_id);

CREATE TABLE ats_orders (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    connection_id TEXT NOT NULL REFERENCES ats_connections (id) ON DELETE CASCADE,
    test_id TEXT NOT NULL,
    person_id TEXT NOT NULL REFERENCES persons (id) ON DELETE CASCADE,
    invitation_id TEXT NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    ats_key TEXT NOT NULL,
    candidate_ref TEXT,
    application_ref TEXT,
    job_ref TEXT,
    job_name TEXT,
    profile_url TEXT,
    ats_order_ref TEXT,
    callback_url TEXT,
    status TEXT NOT NULL,
    assessment_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    started_at TEXT,
    completed_at TEXT
);
-- One open order per connection, ATS key and test: an ATS's retry finds it (D67).
CREATE UNIQUE INDEX ats_orders_open_idx ON ats_orders (connection_id, ats_key, test_id)
    WHERE status IN ('sent', 'started');
CREATE INDEX ats_orders_connection_idx ON ats_orders (connection_id, id);
CREATE INDEX ats_orders_invitation_idx ON ats_orders (invitation_id);
CREATE INDEX ats_orders_person_idx ON ats_orders (person_id);

CREATE TABLE ats_errors (
    id TEXT PRIMARY KEY,
    connection_id TEXT NOT NULL REFERENCES ats_connections (id) ON DELETE CASCADE,
    api_call TEXT NOT NULL,
    errors TEXT NOT NULL,
    order_id TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX ats_errors_connection_idx ON ats_errors (connection_id, id);
