-- Webhook endpoints (D29), deliveries (D31, D32) and their attempts.
CREATE TABLE webhook_endpoints (
    id uuid PRIMARY KEY,
    org_id uuid NOT NULL REFERENCES organizations (id),
    url text NOT NULL,
    events text NOT NULL,
    description text,
    enabled boolean NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_expires_at timestamptz,
    consecutive_failures bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_org_idx ON webhook_endpoints (org_id, created_at);

CREATE TABLE deliveries (
    id uuid PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    org_id uuid NOT NULL,
    event_type text NOT NULL,
    payload text NOT NULL,
    status text NOT NULL,
    attempts bigint NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    last_response_status integer,
    last_error text,
    claimed_until timestamptz,
    created_at timestamptz NOT NULL
);
CREATE INDEX deliveries_endpoint_idx ON deliveries (endpoint_id, id DESC);
CREATE INDEX deliveries_due_idx ON deliveries (status, next_attempt_at);

CREATE TABLE delivery_attempts (
    delivery_id uuid NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    seq bigint NOT NULL,
    attempted_at timestamptz NOT NULL,
    response_status integer,
    duration_ms bigint NOT NULL,
    error text,
    response_body text,
    PRIMARY KEY (delivery_id, seq)
);
