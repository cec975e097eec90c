DROP INDEX deliveries_pending_idx;
DROP INDEX outbox_events_created_idx;
DROP INDEX deliveries_created_idx;
ALTER TABLE webhook_endpoints DROP COLUMN breaker_open_until;
ALTER TABLE webhook_endpoints DROP COLUMN breaker_failures;
