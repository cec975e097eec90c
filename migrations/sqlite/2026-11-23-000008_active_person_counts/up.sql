-- Active persons per organization, kept by triggers on persons (issue 11, T69): the person-limit
-- check of an import reads one row instead of counting every active person of the organization.
-- PostgreSQL spreads the count over 16 rows per organization for concurrent writers; SQLite has
-- one writer at a time, so every count lives in shard 0 (the same table shape on both).
CREATE TABLE org_active_persons (
    org_id TEXT NOT NULL,
    shard INTEGER NOT NULL,
    n BIGINT NOT NULL,
    PRIMARY KEY (org_id, shard)
);

CREATE TRIGGER persons_count_active_insert AFTER INSERT ON persons WHEN NEW.status = 'active'
BEGIN
    INSERT INTO org_active_persons (org_id, shard, n) VALUES (NEW.org_id, 0, 1)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER persons_count_active_delete AFTER DELETE ON persons WHEN OLD.status = 'active'
BEGIN
    INSERT INTO org_active_persons (org_id, shard, n) VALUES (OLD.org_id, 0, -1)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n - 1;
END;

CREATE TRIGGER persons_count_active_update AFTER UPDATE OF status ON persons
    WHEN (OLD.status = 'active') <> (NEW.status = 'active')
BEGIN
    INSERT INTO org_active_persons (org_id, shard, n)
        VALUES (NEW.org_id, 0, CASE WHEN NEW.status = 'active' THEN 1 ELSE -1 END)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n + excluded.n;
END;

INSERT INTO org_active_persons (org_id, shard, n)
    SELECT org_id, 0, count(*) FROM persons WHERE status = 'active' GROUP BY org_id;
