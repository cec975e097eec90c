-- D50: see the PostgreSQL migration.
ALTER TABLE webhook_endpoints ADD COLUMN failing_since TEXT;
