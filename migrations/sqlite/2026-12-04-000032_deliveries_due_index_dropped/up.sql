-- The delivery engine finds due deliveries through deliveries_pending_idx (per endpoint,
-- pending rows only); the backlog gauges count and order pending rows through it too. The
-- index on (status, next_attempt_at) only cost every delivery an entry more on insert and on
-- each update that moved it.
DROP INDEX deliveries_due_idx;
