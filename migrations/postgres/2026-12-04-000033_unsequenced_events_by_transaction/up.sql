-- Events not numbered yet are found by the transaction that wrote them (xact, its top-level id),
-- from the oldest transaction that was still running when the sequencer last numbered every event
-- it saw: an index scan that starts there, instead of one that walks, from the oldest event, the
-- entries of every event numbered since the last VACUUM (they stay in the partial index until
-- then). Rows written from now on take the writer's id by default; events not numbered yet take
-- this migration's. Numbered events keep NULL (no rewrite of the table).
ALTER TABLE outbox_events ADD COLUMN xact xid8;
ALTER TABLE outbox_events ALTER COLUMN xact SET DEFAULT pg_current_xact_id();
UPDATE outbox_events SET xact = pg_current_xact_id() WHERE sequence IS NULL;
DROP INDEX outbox_events_unsequenced_idx;
CREATE INDEX outbox_events_unsequenced_idx ON outbox_events (xact) WHERE sequence IS NULL;
