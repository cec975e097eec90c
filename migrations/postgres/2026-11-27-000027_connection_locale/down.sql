ALTER TABLE ats_connections DROP COLUMN locale;
