-- The delivery engine (issue 10): each endpoint's circuit breaker (T59), the per-endpoint index of
-- pending deliveries that claims walk (T60), and indexes for the retention purge (T61).
ALTER TABLE webhook_endpoints ADD COLUMN breaker_failures BIGINT NOT NULL DEFAULT 0;
ALTER TABLE webhook_endpoints ADD COLUMN breaker_open_until TEXT;
CREATE INDEX deliveries_created_idx ON deliveries (created_at);
CREATE INDEX outbox_events_created_idx ON outbox_events (created_at);
-- Without `id` on SQLite, unlike PostgreSQL: measured, the third column halved the import rate (T60).
CREATE INDEX deliveries_pending_idx ON deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending';
