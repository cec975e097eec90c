-- D43 (issue 12): one-time codes that prove control of an invitation's email address before the
-- person gives consent (access_request with share) or rejoins after their own withdrawal. Only an
-- HMAC of the code is stored.
CREATE TABLE consent_codes (
    id TEXT PRIMARY KEY,
    invitation_id TEXT NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    code_hash BLOB NOT NULL,
    tries BIGINT NOT NULL DEFAULT 0,
    used_at TEXT,
    expires_at TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX consent_codes_invitation_idx ON consent_codes (invitation_id, created_at);
