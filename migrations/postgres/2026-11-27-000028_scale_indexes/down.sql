DROP INDEX outbox_events_feed_type_idx;
DROP INDEX persons_org_status_id_idx;
CREATE INDEX persons_org_status_id_idx ON persons (org_id, status, id DESC);
