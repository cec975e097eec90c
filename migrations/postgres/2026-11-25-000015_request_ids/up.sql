-- T121: the X-Request-Id of the request whose transaction wrote the event (null for background
-- jobs), copied onto its deliveries, so that a delivery can be traced to the call that caused it.
ALTER TABLE outbox_events ADD COLUMN request_id TEXT;
ALTER TABLE deliveries ADD COLUMN request_id TEXT;
