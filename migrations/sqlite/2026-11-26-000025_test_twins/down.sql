DROP INDEX organizations_test_of_idx;
ALTER TABLE organizations DROP COLUMN test_of;
