-- Webhook endpoints (D29), deliveries (D31, D32) and their attempts.
CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    org_id TEXT NOT NULL REFERENCES organizations (id),
    url text NOT NULL,
    events text NOT NULL,
    description text,
    enabled BOOLEAN NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_expires_at TEXT,
    consecutive_failures BIGINT NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX webhook_endpoints_org_idx ON webhook_endpoints (org_id, created_at);

CREATE TABLE deliveries (
    id TEXT PRIMARY KEY,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    org_id TEXT NOT NULL,
    event_type text NOT NULL,
    payload text NOT NULL,
    status text NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    last_attempt_at TEXT,
    last_response_status integer,
    last_error text,
    claimed_until TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX deliveries_endpoint_idx ON deliveries (endpoint_id, id DESC);
CREATE INDEX deliveries_due_idx ON deliveries (status, next_attempt_at);

CREATE TABLE delivery_attempts (
    delivery_id TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    attempted_at TEXT NOT NULL,
    response_status integer,
    duration_ms BIGINT NOT NULL,
    error text,
    response_body text,
    PRIMARY KEY (delivery_id, seq)
);
