//! Stored addresses in their IDNA ASCII form (D55, T146): rows written before domains were
//! normalized may hold `a@münchen.de` where the address is now `a@xn--mnchen-3ya.de`.
//! [`crate::DbStore::normalize_email_domains`] rewrites them in one transaction at every start
//! (`talent migrate` and `serve`, after the SQL migrations), one body for both backends.
//!
//! Only rows whose address column holds a character outside ASCII are read: a partial index of
//! each column holds exactly those (migration `2026-11-26-000019_email_idna`), so with nothing to
//! do the step reads eight empty indexes. A row is rewritten unless that would merge it into
//! another identity: two humans (one address), two persons or two users of one organization, two
//! pending invitations of one organization. Such rows are all left exactly as they are and
//! reported as one [`EmailCollision`]; nothing is merged silently. A stored address that does not
//! parse any more (a domain that is not a valid internationalized domain name) is left as well
//! and reported. Stored emails' recipients, sign-in links' addresses, organizations' contact
//! addresses and employee domains are no identities: they are always rewritten when they parse.

use super::*;
use diesel::dsl::sql;
use diesel::sql_types::Bool;
use std::collections::BTreeMap;
use talent_domain::usecases::orgs::parse_domain;
use uuid::Uuid;

/// Rows that would become one identity once their addresses are in ASCII form: all left as
/// they are (D55, T146).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmailCollision {
    /// The table: `humans`, `persons`, `users` or `invitations` (pending ones).
    pub table: &'static str,
    /// The ids of the rows, sorted: those with a Unicode domain and any row that already holds
    /// the address in ASCII form.
    pub ids: Vec<Uuid>,
    /// The domain they share, in ASCII form (the address itself is not reported: it is personal
    /// data, and the ids find it).
    pub domain: String,
}

/// What [`crate::DbStore::normalize_email_domains`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmailNormalization {
    /// Rows whose address (or employee domains) it rewrote in ASCII form.
    pub rewritten: u64,
    /// Rows it left because they would merge (one entry per address).
    pub collisions: Vec<EmailCollision>,
    /// Rows it left because their address does not parse any more: (table, id).
    pub invalid: Vec<(&'static str, Uuid)>,
}

impl EmailNormalization {
    /// Whether some rows were left with a Unicode domain.
    pub fn left_any(&self) -> bool {
        !self.collisions.is_empty() || !self.invalid.is_empty()
    }
}

/// A stored address with a Unicode domain.
struct Candidate {
    id: Uuid,
    /// Where the address is an identity (an organization; `None` for humans, a table-wide one).
    scope: Option<Uuid>,
    /// Whether it is an identity at all (an invitation only while pending).
    identity: bool,
    /// The address in ASCII form.
    ascii: String,
}

/// The candidates' addresses parsed: those that parse, and the ids of those that do not.
fn parse_all(rows: Vec<(Uuid, Option<Uuid>, bool, String)>) -> (Vec<Candidate>, Vec<Uuid>) {
    let (mut ok, mut bad) = (vec![], vec![]);
    for (id, scope, identity, stored) in rows {
        match Email::parse(&stored) {
            Ok(e) if e.as_str() != stored => ok.push(Candidate { id, scope, identity, ascii: e.as_str().to_string() }),
            Ok(_) => {}
            Err(_) => bad.push(id),
        }
    }
    (ok, bad)
}

/// The identity candidates grouped by (scope, address in ASCII form).
fn groups(cands: &[Candidate]) -> BTreeMap<(Option<Uuid>, String), Vec<Uuid>> {
    let mut g: BTreeMap<(Option<Uuid>, String), Vec<Uuid>> = BTreeMap::new();
    for c in cands.iter().filter(|c| c.identity) {
        g.entry((c.scope, c.ascii.clone())).or_default().push(c.id);
    }
    g
}

/// The domain part of an address.
fn domain_of(address: &str) -> String {
    address.rsplit_once('@').map(|(_, d)| d.to_string()).unwrap_or_default()
}

/// Decides each identity group given the ids that already hold its address: a lone candidate
/// with no such row is rewritten (returned), anything else is a collision (recorded).
fn decide(
    table: &'static str,
    key: &(Option<Uuid>, String),
    ids: &[Uuid],
    existing: Vec<Uuid>,
    out: &mut EmailNormalization,
) -> Option<Uuid> {
    if ids.len() == 1 && existing.is_empty() {
        return Some(ids[0]);
    }
    let mut all: Vec<Uuid> = ids.iter().copied().chain(existing).collect();
    all.sort();
    all.dedup();
    out.collisions.push(EmailCollision { table, ids: all, domain: domain_of(&key.1) });
    None
}

/// Rewrites to their ASCII form the addresses of `$table.$column` that are no identity (nothing
/// unique to keep): every row with a Unicode domain, one UPDATE each; what does not parse is
/// reported in `$out.invalid`.
macro_rules! idna_plain_column {
    ($tx:expr, $out:expr, $table:ident, $column:ident) => {{
        let rows: Vec<(DbUuid, String)> = $table::table
            .filter(Self::not_ascii(stringify!($column)))
            .select(($table::id, $table::$column))
            .load($tx.conn)
            .await
            .map_err(db_err)?;
        let (cands, bad) = parse_all(rows.into_iter().map(|(id, e)| (id.0, None, false, e)).collect());
        $out.invalid.extend(bad.into_iter().map(|id| (stringify!($table), id)));
        for c in cands {
            $tx.run(diesel::update($table::table.find(DbUuid(c.id))).set($table::$column.eq(c.ascii))).await?;
            $out.rewritten += 1;
        }
    }};
}

macro_rules! impl_email_idna {
    ($conn:ty, $not_ascii:expr) => {
        impl<'c> DbTx<'c, $conn> {
            /// The SQL condition "column `c` holds a character outside ASCII", as the partial
            /// indexes of migration `000019_email_idna` write it (so that the query reads them).
            fn not_ascii(c: &str) -> diesel::expression::SqlLiteral<Bool> {
                let f: fn(&str) -> String = $not_ascii;
                sql::<Bool>(&f(c))
            }

            /// Rewrites the stored addresses whose domain is not in ASCII form (see the module
            /// doc). Call inside a write transaction. Errors: the database's.
            pub async fn normalize_email_domains(&mut self) -> StoreResult<EmailNormalization> {
                let mut out = EmailNormalization::default();
                self.idna_humans(&mut out).await?;
                self.idna_persons(&mut out).await?;
                self.idna_users(&mut out).await?;
                self.idna_invitations(&mut out).await?;
                self.idna_plain(&mut out).await?;
                Ok(out)
            }

            async fn idna_humans(&mut self, out: &mut EmailNormalization) -> StoreResult<()> {
                let rows: Vec<(DbUuid, String)> = humans::table
                    .filter(Self::not_ascii("email"))
                    .select((humans::id, humans::email))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                let (cands, bad) = parse_all(rows.into_iter().map(|(id, e)| (id.0, None, true, e)).collect());
                out.invalid.extend(bad.into_iter().map(|id| ("humans", id)));
                for (key, ids) in groups(&cands) {
                    let existing = self
                        .load_all(
                            humans::table.filter(humans::email.eq(key.1.as_str())).select(humans::id),
                            |_, i: DbUuid| Ok(i.0),
                        )
                        .await?;
                    if let Some(id) = decide("humans", &key, &ids, existing, out) {
                        self.exec(diesel::update(humans::table.find(DbUuid(id))).set(humans::email.eq(key.1.as_str())))
                            .await?;
                        out.rewritten += 1;
                    }
                }
                Ok(())
            }

            async fn idna_persons(&mut self, out: &mut EmailNormalization) -> StoreResult<()> {
                let rows: Vec<(DbUuid, DbUuid, String, Option<String>, Option<String>)> = persons::table
                    .filter(Self::not_ascii("email"))
                    .select((persons::id, persons::org_id, persons::email, persons::first_name, persons::last_name))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                let names: BTreeMap<Uuid, (Option<String>, Option<String>)> =
                    rows.iter().map(|r| (r.0 .0, (r.3.clone(), r.4.clone()))).collect();
                let (cands, bad) = parse_all(rows.into_iter().map(|r| (r.0 .0, Some(r.1 .0), true, r.2)).collect());
                out.invalid.extend(bad.into_iter().map(|id| ("persons", id)));
                for (key, ids) in groups(&cands) {
                    let org = DbUuid(key.0.unwrap_or_default());
                    let existing = self
                        .load_all(
                            persons::table
                                .filter(persons::org_id.eq(org))
                                .filter(persons::email.eq(key.1.as_str()))
                                .select(persons::id),
                            |_, i: DbUuid| Ok(i.0),
                        )
                        .await?;
                    if let Some(id) = decide("persons", &key, &ids, existing, out) {
                        let (first, last) = names.get(&id).cloned().unwrap_or_default();
                        let text = search_text_of(first.as_deref(), last.as_deref(), &key.1);
                        self.exec(
                            diesel::update(persons::table.find(DbUuid(id)))
                                .set((persons::email.eq(key.1.as_str()), persons::search_text.eq(text))),
                        )
                        .await?;
                        out.rewritten += 1;
                    }
                }
                Ok(())
            }

            async fn idna_users(&mut self, out: &mut EmailNormalization) -> StoreResult<()> {
                let rows: Vec<(DbUuid, DbUuid, String)> = users::table
                    .filter(Self::not_ascii("email"))
                    .select((users::id, users::org_id, users::email))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                let (cands, bad) = parse_all(rows.into_iter().map(|(id, o, e)| (id.0, Some(o.0), true, e)).collect());
                out.invalid.extend(bad.into_iter().map(|id| ("users", id)));
                for (key, ids) in groups(&cands) {
                    let org = DbUuid(key.0.unwrap_or_default());
                    let existing = self
                        .load_all(
                            users::table
                                .filter(users::org_id.eq(org))
                                .filter(users::email.eq(key.1.as_str()))
                                .select(users::id),
                            |_, i: DbUuid| Ok(i.0),
                        )
                        .await?;
                    if let Some(id) = decide("users", &key, &ids, existing, out) {
                        self.exec(diesel::update(users::table.find(DbUuid(id))).set(users::email.eq(key.1.as_str())))
                            .await?;
                        out.rewritten += 1;
                    }
                }
                Ok(())
            }

            /// Invitations: a pending one is the organization's open invitation to the address
            /// (one per address); the others are history and always rewritten.
            async fn idna_invitations(&mut self, out: &mut EmailNormalization) -> StoreResult<()> {
                let pending = InvitationStatus::Pending.as_str();
                let rows: Vec<(DbUuid, DbUuid, String, String)> = invitations::table
                    .filter(Self::not_ascii("email"))
                    .select((invitations::id, invitations::org_id, invitations::status, invitations::email))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                let (cands, bad) =
                    parse_all(rows.into_iter().map(|(id, o, s, e)| (id.0, Some(o.0), s == pending, e)).collect());
                out.invalid.extend(bad.into_iter().map(|id| ("invitations", id)));
                let mut rewrite: Vec<(Uuid, String)> =
                    cands.iter().filter(|c| !c.identity).map(|c| (c.id, c.ascii.clone())).collect();
                for (key, ids) in groups(&cands) {
                    let org = DbUuid(key.0.unwrap_or_default());
                    let existing = self
                        .load_all(
                            invitations::table
                                .filter(invitations::org_id.eq(org))
                                .filter(invitations::email.eq(key.1.as_str()))
                                .filter(invitations::status.eq(pending))
                                .select(invitations::id),
                            |_, i: DbUuid| Ok(i.0),
                        )
                        .await?;
                    if let Some(id) = decide("invitations", &key, &ids, existing, out) {
                        rewrite.push((id, key.1.clone()));
                    }
                }
                for (id, ascii) in rewrite {
                    self.exec(diesel::update(invitations::table.find(DbUuid(id))).set(invitations::email.eq(ascii)))
                        .await?;
                    out.rewritten += 1;
                }
                Ok(())
            }

            /// The addresses that are no identity: stored emails' recipients, sign-in links',
            /// organizations' contact addresses, and organizations' employee domains (D15).
            async fn idna_plain(&mut self, out: &mut EmailNormalization) -> StoreResult<()> {
                idna_plain_column!(self, out, emails, to_address);
                idna_plain_column!(self, out, sign_in_links, email);
                idna_plain_column!(self, out, organizations, email);
                let rows: Vec<(DbUuid, String)> = organizations::table
                    .filter(Self::not_ascii("employee_domains"))
                    .select((organizations::id, organizations::employee_domains))
                    .load(self.conn)
                    .await
                    .map_err(db_err)?;
                for (id, stored) in rows {
                    let parsed = serde_json::from_str::<Vec<String>>(&stored)
                        .ok()
                        .and_then(|v| v.iter().map(|d| parse_domain(d).ok()).collect::<Option<Vec<String>>>());
                    let Some(domains) = parsed else {
                        out.invalid.push(("organizations", id.0));
                        continue;
                    };
                    let mut unique: Vec<String> = vec![];
                    for d in domains {
                        if !unique.contains(&d) {
                            unique.push(d);
                        }
                    }
                    let text = serde_json::to_string(&unique).map_err(|e| StoreError::Internal(e.to_string()))?;
                    self.exec(
                        diesel::update(organizations::table.find(id)).set(organizations::employee_domains.eq(text)),
                    )
                    .await?;
                    // Read on every authentication (T63): the caches are emptied on commit.
                    self.auth_changed = true;
                    out.rewritten += 1;
                }
                Ok(())
            }
        }
    };
}

impl_email_idna!(PgPipe<'_>, |c| format!("{c} ~ '[^\\x01-\\x7f]'"));
impl_email_idna!(crate::SqliteConn, |c| format!("length(CAST({c} AS BLOB)) <> length({c})"));

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(id: u128, scope: u128, identity: bool, ascii: &str) -> Candidate {
        Candidate { id: Uuid::from_u128(id), scope: Some(Uuid::from_u128(scope)), identity, ascii: ascii.into() }
    }

    #[test]
    fn candidates_that_parse_alike_in_one_scope_are_one_group_d55() {
        let (cands, bad) = parse_all(vec![
            (Uuid::from_u128(1), None, true, "a@münchen.de".into()),
            (Uuid::from_u128(2), None, true, "a@mu\u{308}nchen.de".into()),
            (Uuid::from_u128(3), None, true, "a@-münchen.de".into()),
        ]);
        assert_eq!(bad, vec![Uuid::from_u128(3)], "not a valid internationalized domain");
        let g = groups(&cands);
        assert_eq!(g.len(), 1);
        assert_eq!(g[&(None, "a@xn--mnchen-3ya.de".to_string())], vec![Uuid::from_u128(1), Uuid::from_u128(2)]);
        let split = groups(&[cand(1, 7, true, "a@x.de"), cand(2, 8, true, "a@x.de"), cand(3, 7, false, "a@x.de")]);
        assert_eq!(split.len(), 2, "two organizations; a non-identity row is no member");
    }

    #[test]
    fn a_lone_candidate_is_rewritten_and_anything_more_is_a_collision_d55() {
        let mut out = EmailNormalization::default();
        let key = (None, "a@xn--mnchen-3ya.de".to_string());
        let (one, two) = (Uuid::from_u128(1), Uuid::from_u128(2));
        assert_eq!(decide("humans", &key, &[one], vec![], &mut out), Some(one));
        assert_eq!(decide("humans", &key, &[two], vec![one], &mut out), None);
        assert_eq!(decide("humans", &key, &[two, one], vec![], &mut out), None);
        let want = EmailCollision { table: "humans", ids: vec![one, two], domain: "xn--mnchen-3ya.de".into() };
        assert_eq!(out.collisions, vec![want.clone(), want]);
        assert!(out.left_any());
    }
}
