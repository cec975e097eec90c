-- D48, T106: the events feed (see the PostgreSQL migration). SQLite writers are serialized, so
-- the sequencer's numbers are commit order here too.
ALTER TABLE outbox_events ADD COLUMN sequence bigint;
CREATE UNIQUE INDEX outbox_events_feed_idx ON outbox_events (org_id, sequence) WHERE sequence IS NOT NULL;
CREATE UNIQUE INDEX outbox_events_sequence_idx ON outbox_events (sequence);
CREATE INDEX outbox_events_unsequenced_idx ON outbox_events (created_at, id) WHERE sequence IS NULL;
CREATE TABLE event_sequence (
    id integer PRIMARY KEY CHECK (id = 1),
    last bigint NOT NULL
);
UPDATE outbox_events SET sequence = (
    SELECT n.rn FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM outbox_events) n
     WHERE n.id = outbox_events.id
);
INSERT INTO event_sequence (id, last) SELECT 1, COALESCE(MAX(sequence), 0) FROM outbox_events;
