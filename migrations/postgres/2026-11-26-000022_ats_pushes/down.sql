DROP INDEX ats_connections_endpoint_idx;
ALTER TABLE ats_connections DROP COLUMN key_value;
ALTER TABLE ats_connections DROP COLUMN endpoint_id;
ALTER TABLE webhook_endpoints DROP COLUMN kind;
