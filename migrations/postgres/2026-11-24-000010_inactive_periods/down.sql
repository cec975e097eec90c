ALTER TABLE persons DROP COLUMN inactive_periods;
