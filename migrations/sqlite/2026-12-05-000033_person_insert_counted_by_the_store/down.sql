CREATE TRIGGER persons_count_active_insert AFTER INSERT ON persons WHEN NEW.status = 'active'
BEGIN
    INSERT INTO org_active_persons (org_id, shard, n) VALUES (NEW.org_id, 0, 1)
        ON CONFLICT (org_id, shard) DO UPDATE SET n = n + 1;
END;
