DROP TABLE org_event_sequences;
DROP INDEX outbox_events_feed_idx;
UPDATE outbox_events e SET sequence = n.rn
  FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM outbox_events WHERE sequence IS NOT NULL) n
 WHERE e.id = n.id;
CREATE UNIQUE INDEX outbox_events_feed_idx ON outbox_events (org_id, sequence) WHERE sequence IS NOT NULL;
CREATE UNIQUE INDEX outbox_events_sequence_idx ON outbox_events (sequence);
UPDATE event_sequence SET last = COALESCE((SELECT MAX(sequence) FROM outbox_events), 0);
