-- D56 (T130): event sequence numbers per organization, 1, 2, 3, ... in commit order with no gaps
-- within an organization, so no organization learns another's activity from them. Existing events
-- are renumbered in their old (commit) order. `event_sequence` stays: its one row is the lock the
-- sequencers take turns on.
DROP INDEX outbox_events_sequence_idx;
DROP INDEX outbox_events_feed_idx;
UPDATE outbox_events e SET sequence = n.rn
  FROM (SELECT id, row_number() OVER (PARTITION BY org_id ORDER BY sequence) AS rn
          FROM outbox_events WHERE sequence IS NOT NULL) n
 WHERE e.id = n.id;
CREATE UNIQUE INDEX outbox_events_feed_idx ON outbox_events (org_id, sequence) WHERE sequence IS NOT NULL;
CREATE TABLE org_event_sequences (
    org_id uuid PRIMARY KEY,
    last bigint NOT NULL
);
INSERT INTO org_event_sequences (org_id, last)
SELECT org_id, MAX(sequence) FROM outbox_events WHERE sequence IS NOT NULL GROUP BY org_id;
