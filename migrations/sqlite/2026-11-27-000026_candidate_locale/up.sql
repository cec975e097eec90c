-- The person's side of an invitation: its language (a BCP 47 tag of a shipped locale), time zone
-- (an IANA name), accommodations (a JSON object) and where the person goes afterwards (an https
-- URL); each optional. The organization's defaults: language, time zone and the hosts redirect
-- URLs may point to (a JSON array). An assessment keeps the accommodations it was taken with.
ALTER TABLE invitations ADD COLUMN locale TEXT;
ALTER TABLE invitations ADD COLUMN time_zone TEXT;
ALTER TABLE invitations ADD COLUMN accommodations TEXT;
ALTER TABLE invitations ADD COLUMN redirect_url TEXT;
ALTER TABLE organizations ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
ALTER TABLE organizations ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
ALTER TABLE organizations ADD COLUMN redirect_hosts TEXT NOT NULL DEFAULT '[]';
ALTER TABLE assessments ADD COLUMN accommodations TEXT;
