ALTER TABLE deliveries DROP COLUMN event_id;
