-- The event a delivery carries (D57): its id is the envelope's eventId and the webhook-id header.
-- Null for test pings and for deliveries made before this column (sent with their own id).
ALTER TABLE deliveries ADD COLUMN event_id TEXT;
