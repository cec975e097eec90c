-- An inserted active person is counted by the store's own statement after the insert (T299):
-- with this trigger the person's INSERT wrote twice, and SQLite kept a statement journal of every
-- page it changed. Deletes and status changes keep their triggers.
DROP TRIGGER persons_count_active_insert;
