DROP INDEX users_email_idx;
DROP TABLE dashboard_sessions;
DROP TABLE sign_in_links;
