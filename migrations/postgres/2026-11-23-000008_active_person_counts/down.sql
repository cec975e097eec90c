DROP TRIGGER persons_count_active_update ON persons;
DROP TRIGGER persons_count_active_insert_delete ON persons;
DROP FUNCTION persons_count_active();
DROP TABLE org_active_persons;
