DROP INDEX outbox_events_unsequenced_idx;
CREATE INDEX outbox_events_unsequenced_idx ON outbox_events (created_at, id) WHERE sequence IS NULL;
ALTER TABLE outbox_events DROP COLUMN xact;
