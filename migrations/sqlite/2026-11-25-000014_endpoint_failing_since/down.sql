ALTER TABLE webhook_endpoints DROP COLUMN failing_since;
