-- The events feed filtered by type (`GET /api/v1/events?type=...`): an organization's events of
-- the asked types in sequence order. Without it a type the organization has few events of was
-- found by walking every event of the organization (35 ms at 200,000 events, growing with them); with it the
-- planner reads only that type's events, and walks the feed's own index when the asked types are
-- most of the organization's events.
CREATE INDEX outbox_events_feed_type_idx ON outbox_events (org_id, event_type, sequence) WHERE sequence IS NOT NULL;
-- `GET /persons?q=` in an organization among many (ten million persons in a thousand
-- organizations): the keyset index carries `search_text`, as SQLite's does, so the page's ids are
-- found by testing each of the organization's index entries (the list reads ids first, then the
-- page's rows) instead of reading every match of the trigram index across all organizations
-- (80,000 entries for a last name at four million persons, growing with the table). The trigram index still serves a
-- search that matches few persons of a large organization.
DROP INDEX persons_org_status_id_idx;
CREATE INDEX persons_org_status_id_idx ON persons (org_id, status, id DESC) INCLUDE (search_text);
