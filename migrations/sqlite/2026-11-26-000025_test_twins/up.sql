-- Test mode: an organization's test twin names the live organization it belongs to; live
-- organizations have none. One twin per organization.
ALTER TABLE organizations ADD COLUMN test_of TEXT REFERENCES organizations (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX organizations_test_of_idx ON organizations (test_of);
