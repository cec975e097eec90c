-- Issue 18 (T122): the dashboard's one-time sign-in links and server-side sessions. Only the
-- SHA-256 of a link's or a session's token is stored.
CREATE TABLE sign_in_links (
    id uuid PRIMARY KEY,
    email text NOT NULL,
    token_hash bytea NOT NULL UNIQUE,
    used_at timestamptz,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX sign_in_links_email_idx ON sign_in_links (email, created_at);
CREATE INDEX sign_in_links_expiry_idx ON sign_in_links (expires_at);

CREATE TABLE dashboard_sessions (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash bytea NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id);
CREATE INDEX dashboard_sessions_expiry_idx ON dashboard_sessions (expires_at);

-- A sign-in link is asked for an address: its users are found by email across organizations.
CREATE INDEX users_email_idx ON users (email);
