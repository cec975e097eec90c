CREATE INDEX deliveries_due_idx ON deliveries (status, next_attempt_at);
