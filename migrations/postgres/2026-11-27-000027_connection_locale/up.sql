-- The language of the invitations an ATS connection's orders send (none of the protocols carries
-- one): a BCP 47 tag of a shipped locale; NULL: the organization's.
ALTER TABLE ats_connections ADD COLUMN locale TEXT;
