-- D50: an endpoint is disabled once its deliveries have failed for good continuously for 3 days;
-- this is when that run of failures began (null while the last delivery succeeded).
ALTER TABLE webhook_endpoints ADD COLUMN failing_since timestamptz;
