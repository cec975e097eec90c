DROP TABLE event_sequence;
DROP INDEX outbox_events_unsequenced_idx;
DROP INDEX outbox_events_sequence_idx;
DROP INDEX outbox_events_feed_idx;
ALTER TABLE outbox_events DROP COLUMN sequence;
