-- D43 (issue 12): one-time codes that prove control of an invitation's email address before the
-- person gives consent (access_request with share) or rejoins after their own withdrawal. Only an
-- HMAC of the code is stored.
CREATE TABLE consent_codes (
    id uuid PRIMARY KEY,
    invitation_id uuid NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    code_hash bytea NOT NULL,
    tries bigint NOT NULL DEFAULT 0,
    used_at timestamptz,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX consent_codes_invitation_idx ON consent_codes (invitation_id, created_at);
