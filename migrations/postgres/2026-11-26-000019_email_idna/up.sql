-- D55: addresses are stored with their domain in IDNA ASCII form. Rows written before may hold a
-- Unicode domain; every start normalizes them (crates/store/src/tx/email_idna.rs) and first asks
-- for the rows whose address column holds a character outside ASCII. These partial indexes hold
-- exactly those rows (none once normalized), so that question reads an empty index instead of
-- every table. The predicate must stay the one the store's query writes (`~ '[^\x01-\x7f]'`).
CREATE INDEX organizations_email_not_ascii_idx ON organizations (id) WHERE email ~ '[^\x01-\x7f]';
CREATE INDEX organizations_domains_not_ascii_idx ON organizations (id) WHERE employee_domains ~ '[^\x01-\x7f]';
CREATE INDEX users_email_not_ascii_idx ON users (id) WHERE email ~ '[^\x01-\x7f]';
CREATE INDEX humans_email_not_ascii_idx ON humans (id) WHERE email ~ '[^\x01-\x7f]';
CREATE INDEX persons_email_not_ascii_idx ON persons (id) WHERE email ~ '[^\x01-\x7f]';
CREATE INDEX invitations_email_not_ascii_idx ON invitations (id) WHERE email ~ '[^\x01-\x7f]';
CREATE INDEX emails_to_not_ascii_idx ON emails (id) WHERE to_address ~ '[^\x01-\x7f]';
CREATE INDEX sign_in_links_email_not_ascii_idx ON sign_in_links (id) WHERE email ~ '[^\x01-\x7f]';
