-- Report links of ATS orders (D68): the SHA-256 of each order's link token, and every opening of
-- a link (time, client address, user agent, page or PDF).
ALTER TABLE ats_orders ADD COLUMN report_token_hash bytea;
CREATE UNIQUE INDEX ats_orders_report_token_idx ON ats_orders (report_token_hash);

CREATE TABLE ats_report_openings (
    id uuid PRIMARY KEY,
    order_id uuid NOT NULL REFERENCES ats_orders (id) ON DELETE CASCADE,
    opened_at timestamptz NOT NULL,
    client_ip text NOT NULL,
    user_agent text,
    pdf boolean NOT NULL
);
CREATE INDEX ats_report_openings_order_idx ON ats_report_openings (order_id, id);
