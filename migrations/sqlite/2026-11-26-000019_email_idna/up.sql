-- D55: addresses are stored with their domain in IDNA ASCII form. Rows written before may hold a
-- Unicode domain; every start normalizes them (crates/store/src/tx/email_idna.rs) and first asks
-- for the rows whose address column holds a character outside ASCII. These partial indexes hold
-- exactly those rows (none once normalized), so that question reads an empty index instead of
-- every table. The predicate must stay the one the store's query writes (more bytes than
-- characters: `length(CAST(c AS BLOB)) <> length(c)`).
CREATE INDEX organizations_email_not_ascii_idx ON organizations (id) WHERE length(CAST(email AS BLOB)) <> length(email);
CREATE INDEX organizations_domains_not_ascii_idx ON organizations (id) WHERE length(CAST(employee_domains AS BLOB)) <> length(employee_domains);
CREATE INDEX users_email_not_ascii_idx ON users (id) WHERE length(CAST(email AS BLOB)) <> length(email);
CREATE INDEX humans_email_not_ascii_idx ON humans (id) WHERE length(CAST(email AS BLOB)) <> length(email);
CREATE INDEX persons_email_not_ascii_idx ON persons (id) WHERE length(CAST(email AS BLOB)) <> length(email);
CREATE INDEX invitations_email_not_ascii_idx ON invitations (id) WHERE length(CAST(email AS BLOB)) <> length(email);
CREATE INDEX emails_to_not_ascii_idx ON emails (id) WHERE length(CAST(to_address AS BLOB)) <> length(to_address);
CREATE INDEX sign_in_links_email_not_ascii_idx ON sign_in_links (id) WHERE length(CAST(email AS BLOB)) <> length(email);
