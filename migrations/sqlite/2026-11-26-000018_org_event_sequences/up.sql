-- D56 (T130): event sequence numbers per organization (see the PostgreSQL migration).
DROP INDEX outbox_events_sequence_idx;
DROP INDEX outbox_events_feed_idx;
CREATE TEMP TABLE d56_numbers AS
SELECT id, row_number() OVER (PARTITION BY org_id ORDER BY sequence) AS rn
  FROM outbox_events WHERE sequence IS NOT NULL;
UPDATE outbox_events SET sequence = (SELECT n.rn FROM d56_numbers n WHERE n.id = outbox_events.id)
 WHERE sequence IS NOT NULL;
DROP TABLE d56_numbers;
CREATE UNIQUE INDEX outbox_events_feed_idx ON outbox_events (org_id, sequence) WHERE sequence IS NOT NULL;
CREATE TABLE org_event_sequences (
    org_id TEXT PRIMARY KEY,
    last bigint NOT NULL
);
INSERT INTO org_event_sequences (org_id, last)
SELECT org_id, MAX(sequence) FROM outbox_events WHERE sequence IS NOT NULL GROUP BY org_id;
