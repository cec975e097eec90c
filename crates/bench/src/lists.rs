//! Scenario `lists` (issue 11, point 4): `GET /api/v1/persons` with `q=`, `tag=` and
//! `updatedAfter=` on one organization of many persons (`BENCH_LIST_PERSONS`, default 1,000,000
//! on PostgreSQL and 100,000 on SQLite), pages of 25, p50/p99 over sequential requests, goals
//! p99 < 50 ms (PostgreSQL) and < 100 ms (SQLite). The persons are written straight into the
//! database in batches (rows built by the store's own `PersonRow`, so the format is the
//! service's); tags and the organization come through the API. On PostgreSQL each shape's plan is
//! printed (`EXPLAIN ANALYZE` of the SQL the store sends, kept here beside it).

use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl, SimpleAsyncConnection};
use std::time::{Duration, Instant};
use talent_domain::ids::{HumanId, OrgId, PersonId, TagId};
use talent_domain::person::{JoinedVia, Person, PersonStatus};
use talent_domain::ports::{PersonQuery, PersonStatusFilter};
use talent_domain::results::AssessmentSummary;
use talent_domain::values::{Email, Labels, PersonName, Tag};
use talent_store::schema::{humans, person_tags, persons, tags};
use talent_store::tx::person_rows::PersonRow;
use talent_store::types::{DbTime, DbUuid};
use time::OffsetDateTime;

const FIRST: [&str; 20] = [
    "ada",
    "alan",
    "grace",
    "linus",
    "barbara",
    "ken",
    "dennis",
    "margaret",
    "edsger",
    "donald",
    "frances",
    "john",
    "radia",
    "tim",
    "vint",
    "leslie",
    "niklaus",
    "hedy",
    "katherine",
    "guido",
];
const LAST: [&str; 50] = [
    "lovelace",
    "turing",
    "hopper",
    "torvalds",
    "liskov",
    "thompson",
    "ritchie",
    "hamilton",
    "dijkstra",
    "knuth",
    "allen",
    "backus",
    "perlman",
    "lee",
    "cerf",
    "lamport",
    "wirth",
    "lamarr",
    "johnson",
    "rossum",
    "stroustrup",
    "kay",
    "mccarthy",
    "minsky",
    "shannon",
    "neumann",
    "babbage",
    "boole",
    "church",
    "godel",
    "hoare",
    "milner",
    "floyd",
    "tarjan",
    "karp",
    "cook",
    "rivest",
    "shamir",
    "adleman",
    "diffie",
    "hellman",
    "merkle",
    "lampson",
    "engelbart",
    "sutherland",
    "bachman",
    "codd",
    "gray",
    "stonebraker",
    "hennessy",
];
/// Tags: `team-0` … `team-9` (every person has one: 10 % each) and `rare` (every 1,000th).
pub const TEAMS: usize = 10;

/// The persons of scenario `lists` on this backend.
pub fn persons(postgres: bool) -> usize {
    std::env::var("BENCH_LIST_PERSONS").ok().and_then(|v| v.parse().ok()).unwrap_or(if postgres {
        1_000_000
    } else {
        100_000
    })
}

/// The seeded persons of one organization.
pub struct Seed {
    /// Their organization.
    pub org: OrgId,
    /// Its tags `team-0` … `team-9`, `rare`, in that order.
    pub tags: Vec<Tag>,
    /// How many.
    pub n: usize,
    /// Their emails' domain.
    pub domain: String,
    /// Makes the ids unlike another organization's: person `i`'s ids use `salt + i` and
    /// `salt + n + i` (give each organization a range of `2 n` of its own).
    pub salt: usize,
    /// Seconds between one person's creation and the next's.
    pub spacing: i64,
}

impl Seed {
    /// Person `i`: created `(n - i) × spacing` seconds before an hour before `now` (so newest
    /// last), with every 100th updated within the last hour.
    pub fn person(&self, i: usize, now: OffsetDateTime) -> (Person, String) {
        let (n, org, tags, salt) = (self.n, self.org, &self.tags, self.salt);
        let email = format!("p{i}.{}@{}", LAST[i % LAST.len()], self.domain);
        let created = now - time::Duration::seconds((n - i) as i64 * self.spacing + 3600);
        let updated = if i.is_multiple_of(100) { now - time::Duration::seconds((i % 3600) as i64) } else { created };
        let mut t = vec![tags[i % TEAMS].clone()];
        if i.is_multiple_of(1000) {
            t.push(tags[TEAMS].clone());
        }
        let p = Person {
            id: PersonId(uuid_at(created, salt + i)),
            org_id: org,
            human_id: HumanId(uuid_at(created, salt + i + n)),
            email: Email::parse(&email).expect("a valid email"),
            first_name: PersonName::parse(FIRST[i % FIRST.len()]).ok(),
            last_name: PersonName::parse(LAST[(i / FIRST.len()) % LAST.len()]).ok(),
            external_id: None,
            status: PersonStatus::Active,
            archive_reason: None,
            labels: Labels { candidate: true, employee: false },
            tags: t,
            joined_via: JoinedVia::Api,
            shared_existing_profile: false,
            assessment: AssessmentSummary::NONE,
            member_since: created,
            updated_at: updated,
            archived_at: None,
            inactive_periods: vec![],
        };
        (p, email)
    }

    /// `updatedAfter=` of the newer half.
    fn half(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc() - time::Duration::seconds(self.n as i64 * self.spacing / 2 + 3600)
    }
}

/// A UUIDv7 of time `t` whose random part is `i` (distinct, ordered by `t` like the service's).
fn uuid_at(t: OffsetDateTime, i: usize) -> uuid::Uuid {
    let ms = (t.unix_timestamp_nanos() / 1_000_000) as u64;
    uuid::Builder::from_unix_timestamp_millis(ms, &(i as u128).to_be_bytes()[6..16].try_into().unwrap()).into_uuid()
}

/// Inserts `rows` into `table`: one multi-row INSERT (`batch`), or one INSERT per row (SQLite
/// through diesel-async has no multi-row INSERT; in-process statements cost no round trip).
macro_rules! insert_rows {
    (batch, $c:expr, $table:expr, $rows:expr) => {
        diesel::insert_into($table).values($rows).execute($c).await?;
    };
    (per_row, $c:expr, $table:expr, $rows:expr) => {
        for r in $rows {
            diesel::insert_into($table).values(r).execute($c).await?;
        }
    };
}

macro_rules! seed_on {
    ($batch:ident, $conn:expr, $org:expr, $n:expr, $tags:expr) => {{
        let (conn, org, n, tags) = ($conn, $org, $n, $tags);
        let seed = Seed { org, tags: tags.to_vec(), n, domain: "seed.example".into(), salt: 0, spacing: 1 };
        let now = OffsetDateTime::now_utc();
        let started = Instant::now();
        const CHUNK: usize = 1000;
        for start in (0..n).step_by(CHUNK) {
            let end = (start + CHUNK).min(n);
            let rows: Vec<(Person, String)> = (start..end).map(|i| seed.person(i, now)).collect();
            let hs: Vec<_> = rows
                .iter()
                .map(|(p, e)| {
                    (
                        humans::id.eq(DbUuid(p.human_id.0)),
                        humans::email.eq(e.clone()),
                        humans::created_at.eq(DbTime(p.member_since)),
                    )
                })
                .collect();
            let ps: Vec<PersonRow> = rows.iter().map(|(p, _)| PersonRow::from(p)).collect();
            let pts: Vec<_> = rows
                .iter()
                .flat_map(|(p, _)| {
                    p.tags
                        .iter()
                        .map(|t| (person_tags::person_id.eq(DbUuid(p.id.0)), person_tags::tag_id.eq(DbUuid(t.id.0))))
                })
                .collect();
            conn.transaction(async |c| {
                insert_rows!($batch, c, humans::table, hs);
                insert_rows!($batch, c, persons::table, ps);
                insert_rows!($batch, c, person_tags::table, pts);
                Ok::<_, diesel::result::Error>(())
            })
            .await?;
            if end % 100_000 == 0 {
                println!("  seeded {end} persons in {:.0} s", started.elapsed().as_secs_f64());
            }
        }
        conn.batch_execute("ANALYZE").await?;
        println!("seeded {n} persons in {:.0} s", started.elapsed().as_secs_f64());
        anyhow::Ok(())
    }};
}

/// The organization's tags `team-0` … `team-9`, `rare` (created through the API beforehand).
macro_rules! tags_on {
    ($conn:expr, $org:expr) => {{
        let rows: Vec<(DbUuid, String)> =
            tags::table.filter(tags::org_id.eq(DbUuid($org.0))).select((tags::id, tags::name)).load($conn).await?;
        let mut out: Vec<Tag> = (0..TEAMS)
            .map(|k| format!("team-{k}"))
            .chain(std::iter::once("rare".to_string()))
            .filter_map(|name| {
                rows.iter().find(|(_, n)| *n == name).map(|(id, n)| Tag { id: TagId(id.0), name: n.clone() })
            })
            .collect();
        out.truncate(TEAMS + 1);
        anyhow::ensure!(out.len() == TEAMS + 1, "the seed tags exist");
        anyhow::Ok(out)
    }};
}

/// Writes `n` persons of `org` into the database at `url`.
pub async fn seed(url: &str, org: OrgId, n: usize) -> anyhow::Result<()> {
    if url.starts_with("postgres") {
        let mut c = diesel_async::AsyncPgConnection::establish(url).await?;
        let tags = tags_on!(&mut c, org)?;
        seed_on!(batch, &mut c, org, n, &tags)
    } else {
        let path = url.strip_prefix("sqlite://").unwrap_or(url);
        let mut c = talent_store::SqliteConn::establish(path).await?;
        c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON").await?;
        let tags = tags_on!(&mut c, org)?;
        seed_on!(per_row, &mut c, org, n, &tags)
    }
}

/// One measured request shape: a name, its query string (after `?`) and the store query the
/// service makes of it (for `EXPLAIN`).
pub struct Shape {
    pub name: &'static str,
    pub query: String,
    pub store: PersonQuery,
}

/// The shapes measured: the list, `q=` (a last name, a common letter, one email), `email=`,
/// `tag=` (10 %, 0.1 %), `updatedAfter=` (the last hour, the newer half), `status=any` (alone and
/// with `updatedAfter=`, a one-pass sync) and `q=` with `tag=`, over the persons of `seed`.
pub fn shapes(seed: &Seed) -> Vec<Shape> {
    let (org, n, domain) = (seed.org, seed.n, &seed.domain);
    let hour_ago = OffsetDateTime::now_utc() - time::Duration::hours(1);
    let half = seed.half();
    let fmt = talent_domain::timefmt::format;
    let base = PersonQuery { org_id: Some(org), limit: 26, ..PersonQuery::default() };
    let q = |s: &str| PersonQuery { q: Some(s.to_string()), ..base.clone() };
    let tag = |s: &str| PersonQuery { tag_key: Some(s.to_string()), ..base.clone() };
    let after = |t: OffsetDateTime| PersonQuery { updated_after: Some(t), ..base.clone() };
    let one = format!("p{}.", n / 3);
    let email = format!("p{}.{}@{domain}", n / 3, LAST[(n / 3) % LAST.len()]);
    vec![
        Shape { name: "list", query: "limit=25".into(), store: base.clone() },
        Shape { name: "q= a last name (2 %)", query: "limit=25&q=stroustrup".into(), store: q("stroustrup") },
        Shape { name: "q= a common letter", query: "limit=25&q=a".into(), store: q("a") },
        Shape { name: "q= one email", query: format!("limit=25&q={one}"), store: q(&one) },
        Shape {
            name: "email= one person",
            query: format!("limit=25&email={email}"),
            store: PersonQuery { email: Email::parse(&email).ok(), ..base.clone() },
        },
        Shape {
            name: "status=any",
            query: "limit=25&status=any".into(),
            store: PersonQuery { status: PersonStatusFilter::Any, ..base.clone() },
        },
        Shape {
            name: "status=any + updatedAfter= hour",
            query: format!("limit=25&status=any&updatedAfter={}", fmt(hour_ago)),
            store: PersonQuery { status: PersonStatusFilter::Any, ..after(hour_ago) },
        },
        Shape { name: "tag= 10 %", query: "limit=25&tag=team-3".into(), store: tag("team-3") },
        Shape { name: "tag= 0.1 %", query: "limit=25&tag=rare".into(), store: tag("rare") },
        Shape {
            name: "updatedAfter= last hour (1 %)",
            query: format!("limit=25&updatedAfter={}", fmt(hour_ago)),
            store: after(hour_ago),
        },
        Shape {
            name: "updatedAfter= newer half",
            query: format!("limit=25&updatedAfter={}", fmt(half)),
            store: after(half),
        },
        Shape {
            name: "q= + tag=",
            query: "limit=25&q=hopper&tag=team-7".into(),
            store: PersonQuery { q: Some("hopper".into()), tag_key: Some("team-7".into()), ..base.clone() },
        },
    ]
}

/// p50 and p99 of `n` sequential GETs of `url` (after 20 unmeasured ones), and the last page's
/// item count.
pub fn time_gets(url: &str, key: &str, n: usize) -> (Duration, Duration, usize) {
    let a = crate::agent();
    let (mut times, mut items) = (vec![], 0);
    for i in 0..n + 20 {
        let t = Instant::now();
        let (s, page) = crate::call(&a, "GET", url, key, None);
        let took = t.elapsed();
        assert_eq!(s, 200, "{url}: {page}");
        if i >= 20 {
            times.push(took);
        }
        items = page["data"].as_array().map(Vec::len).unwrap_or(0);
    }
    let (p50, p99) = p50_p99(times);
    (p50, p99, items)
}

/// p50 and p99 of `times`.
pub fn p50_p99(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    let at = |p: f64| times[((times.len() as f64 * p).ceil() as usize).saturating_sub(1).min(times.len() - 1)];
    (at(0.5), at(0.99))
}
