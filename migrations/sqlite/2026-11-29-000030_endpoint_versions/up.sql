-- The number of each organization's last change of its webhook endpoints that an event's fan-out
-- can see (T272; see the PostgreSQL migration), counted up by triggers.
CREATE TABLE webhook_endpoint_versions (
    org_id TEXT PRIMARY KEY,
    version BIGINT NOT NULL
);

CREATE TRIGGER webhook_endpoints_changed_insert AFTER INSERT ON webhook_endpoints
BEGIN
    INSERT INTO webhook_endpoint_versions (org_id, version) VALUES (NEW.org_id, 1)
        ON CONFLICT (org_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER webhook_endpoints_changed_delete AFTER DELETE ON webhook_endpoints
BEGIN
    INSERT INTO webhook_endpoint_versions (org_id, version) VALUES (OLD.org_id, 1)
        ON CONFLICT (org_id) DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER webhook_endpoints_changed_update AFTER UPDATE ON webhook_endpoints
    WHEN OLD.org_id IS NOT NEW.org_id OR OLD.url IS NOT NEW.url
        OR OLD.events IS NOT NEW.events OR OLD.description IS NOT NEW.description
        OR OLD.enabled IS NOT NEW.enabled OR OLD.kind IS NOT NEW.kind
        OR OLD.previous_secret_expires_at IS NOT NEW.previous_secret_expires_at
        OR OLD.created_at IS NOT NEW.created_at
BEGIN
    INSERT INTO webhook_endpoint_versions (org_id, version) VALUES (OLD.org_id, 1)
        ON CONFLICT (org_id) DO UPDATE SET version = version + 1;
    INSERT INTO webhook_endpoint_versions (org_id, version) SELECT NEW.org_id, 1 WHERE NEW.org_id IS NOT OLD.org_id
        ON CONFLICT (org_id) DO UPDATE SET version = version + 1;
END;
