ALTER TABLE deliveries DROP COLUMN request_id;
ALTER TABLE outbox_events DROP COLUMN request_id;
