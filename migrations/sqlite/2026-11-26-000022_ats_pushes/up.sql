-- Pushes to ATSs (D69) go through the delivery engine: each connection has a hidden endpoint
-- (`kind` 'ats'), never listed, counted or read by the webhooks API; the connection keeps its key's
-- value sealed (Greenhouse's completion PATCH presents it, D74).
ALTER TABLE webhook_endpoints ADD COLUMN kind TEXT NOT NULL DEFAULT 'webhook';
ALTER TABLE ats_connections ADD COLUMN endpoint_id TEXT;
ALTER TABLE ats_connections ADD COLUMN key_value TEXT;
CREATE INDEX ats_connections_endpoint_idx ON ats_connections (endpoint_id);
