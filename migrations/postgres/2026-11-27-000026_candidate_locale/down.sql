ALTER TABLE assessments DROP COLUMN accommodations;
ALTER TABLE organizations DROP COLUMN redirect_hosts;
ALTER TABLE organizations DROP COLUMN time_zone;
ALTER TABLE organizations DROP COLUMN locale;
ALTER TABLE invitations DROP COLUMN redirect_url;
ALTER TABLE invitations DROP COLUMN accommodations;
ALTER TABLE invitations DROP COLUMN time_zone;
ALTER TABLE invitations DROP COLUMN locale;
