-- Report links of ATS orders (D68): the SHA-256 of each order's link token, and every opening of
-- a link (time, client address, user agent, page or PDF).
ALTER TABLE ats_orders ADD COLUMN report_token_hash BLOB;
CREATE UNIQUE INDEX ats_orders_report_token_idx ON ats_orders (report_token_hash);

CREATE TABLE ats_report_openings (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES ats_orders (id) ON DELETE CASCADE,
    opened_at TEXT NOT NULL,
    client_ip TEXT NOT NULL,
    user_agent TEXT,
    pdf BOOLEAN NOT NULL
);
CREATE INDEX ats_report_openings_order_idx ON ats_report_openings (order_id, id);
