ALTER TABLE assessments DROP COLUMN need_counts;
