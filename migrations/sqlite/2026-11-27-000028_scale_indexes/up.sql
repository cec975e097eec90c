-- The events feed filtered by type (`GET /api/v1/events?type=...`): an organization's events of
-- the asked types in sequence order. Without it a type the organization has few events of was
-- found by walking every event of the organization (35 ms at 200,000 events, growing with them); with it the
-- planner reads only that type's events, and walks the feed's own index when the asked types are
-- most of the organization's events.
CREATE INDEX outbox_events_feed_type_idx ON outbox_events (org_id, event_type, sequence) WHERE sequence IS NOT NULL;
