DROP TABLE org_event_sequences;
DROP INDEX outbox_events_feed_idx;
CREATE TEMP TABLE d56_numbers AS
SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM outbox_events WHERE sequence IS NOT NULL;
UPDATE outbox_events SET sequence = (SELECT n.rn FROM d56_numbers n WHERE n.id = outbox_events.id)
 WHERE sequence IS NOT NULL;
DROP TABLE d56_numbers;
CREATE UNIQUE INDEX outbox_events_feed_idx ON outbox_events (org_id, sequence) WHERE sequence IS NOT NULL;
CREATE UNIQUE INDEX outbox_events_sequence_idx ON outbox_events (sequence);
UPDATE event_sequence SET last = COALESCE((SELECT MAX(sequence) FROM outbox_events), 0);
