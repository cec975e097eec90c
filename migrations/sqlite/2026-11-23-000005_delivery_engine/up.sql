-- The delivery engine (issue 10): each endpoint's circuit breaker (T59), and indexes for the
-- retention purge of deliveries and outbox events (T61).
ALTER TABLE webhook_endpoints ADD COLUMN breaker_failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE webhook_endpoints ADD COLUMN breaker_open_until TEXT;
CREATE INDEX deliveries_created_idx ON deliveries (created_at);
CREATE INDEX outbox_events_created_idx ON outbox_events (created_at);
