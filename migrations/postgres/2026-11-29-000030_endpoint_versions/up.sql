-- The number of each organization's last change of its webhook endpoints that an event's fan-out
-- can see (T272), counted up by a trigger in the transaction of the change. An import reads its
-- organization's number with the organization's row; an instance that already listed that
-- organization's endpoints at that number fans the import's event out without reading them
-- again. Writers of one organization's endpoints take turns on its row, so the number grows in
-- the order the changes commit (a sequence would not: a number taken first may commit last).
-- Imports only read the row; it has no foreign key, so a writer takes no lock on the
-- organization here. The delivery engine's bookkeeping (failure counts, the breaker) and the
-- sealed secrets (sealed anew, with a new nonce, on every write of the row) are not changes the
-- fan-out sees. An organization without a row has not changed its endpoints since this table
-- was made: that, too, is a version ("none") at which an instance may keep them.
CREATE TABLE webhook_endpoint_versions (
    org_id uuid PRIMARY KEY,
    version bigint NOT NULL
);

CREATE FUNCTION webhook_endpoints_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO webhook_endpoint_versions (org_id, version) VALUES (OLD.org_id, 1)
            ON CONFLICT (org_id) DO UPDATE SET version = webhook_endpoint_versions.version + 1;
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.org_id IS DISTINCT FROM OLD.org_id) THEN
        INSERT INTO webhook_endpoint_versions (org_id, version) VALUES (NEW.org_id, 1)
            ON CONFLICT (org_id) DO UPDATE SET version = webhook_endpoint_versions.version + 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER webhook_endpoints_changed_insert_delete AFTER INSERT OR DELETE ON webhook_endpoints
    FOR EACH ROW EXECUTE FUNCTION webhook_endpoints_changed();
CREATE TRIGGER webhook_endpoints_changed_update AFTER UPDATE ON webhook_endpoints
    FOR EACH ROW WHEN (
        OLD.org_id IS DISTINCT FROM NEW.org_id OR OLD.url IS DISTINCT FROM NEW.url
        OR OLD.events IS DISTINCT FROM NEW.events OR OLD.description IS DISTINCT FROM NEW.description
        OR OLD.enabled IS DISTINCT FROM NEW.enabled OR OLD.kind IS DISTINCT FROM NEW.kind
        OR OLD.previous_secret_expires_at IS DISTINCT FROM NEW.previous_secret_expires_at
        OR OLD.created_at IS DISTINCT FROM NEW.created_at
    ) EXECUTE FUNCTION webhook_endpoints_changed();
