-- Kombo's webhook names its integration (D82): its connections are found by it, not by reading
-- every enabled Kombo connection.
CREATE INDEX ats_connections_integration_idx ON ats_connections (ats, integration_id);
