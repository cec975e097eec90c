-- D48, T106: the events feed. `sequence` is assigned after commit by the sequencer (one
-- transaction at a time, serialized on the `event_sequence` row), so ascending sequence is commit
-- order and a reader never sees a later number before an earlier one.
ALTER TABLE outbox_events ADD COLUMN sequence bigint;
CREATE UNIQUE INDEX outbox_events_feed_idx ON outbox_events (org_id, sequence) WHERE sequence IS NOT NULL;
CREATE UNIQUE INDEX outbox_events_sequence_idx ON outbox_events (sequence);
CREATE INDEX outbox_events_unsequenced_idx ON outbox_events (created_at, id) WHERE sequence IS NULL;
CREATE TABLE event_sequence (
    id integer PRIMARY KEY CHECK (id = 1),
    last bigint NOT NULL
);
-- Events written before the feed existed are numbered now, oldest first.
UPDATE outbox_events e SET sequence = n.rn
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM outbox_events) n
 WHERE e.id = n.id;
INSERT INTO event_sequence (id, last) SELECT 1, COALESCE(MAX(sequence), 0) FROM outbox_events;
