DROP TRIGGER persons_count_active_update;
DROP TRIGGER persons_count_active_delete;
DROP TRIGGER persons_count_active_insert;
DROP TABLE org_active_persons;
