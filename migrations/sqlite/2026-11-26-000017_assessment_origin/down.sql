ALTER TABLE assessments DROP COLUMN origin_org_id;
