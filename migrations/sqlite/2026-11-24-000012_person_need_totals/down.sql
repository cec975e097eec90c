ALTER TABLE persons DROP COLUMN need_totals;
