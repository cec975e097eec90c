//! Scenario `scale` (issue 38): PostgreSQL at ten million persons. Not in the default set
//! (`BENCH_SCENARIOS=scale make bench`, about half an hour and ~25 GB of disk).
//!
//! A PostgreSQL cluster of the run's own, with [`SETTINGS`] (the sizing `docs/deployment.md`
//! recommends), holds one organization of `BENCH_SCALE_PERSONS` persons (default 10,000,000) and
//! `BENCH_SCALE_ORGS` organizations (default 1,000) of `BENCH_SCALE_ORG_PERSONS` (default 10,000)
//! each, so twenty million persons in all by default. The organizations, their keys and tags come
//! through the API; the persons (rows built by the store's own `PersonRow`), their humans and
//! tags, and one `person.created` event per person of the large organization (the events feed)
//! are loaded with `COPY`, then the tables are vacuumed and analyzed as autovacuum would.
//!
//! Measured, in this order: imports into the nearly empty large organization (before the load),
//! every list shape of [`lists::shapes`] in the large organization and in one of the small ones
//! (p50/p99 of 200 sequential requests after 20 unmeasured ones, each shape's plan printed),
//! pages of the events feed (first, middle, last, a type the feed holds none of), the profile
//! matches of `BENCH_SCALE_RESULTS` persons with results (default 2,000) among the ten million,
//! imports into the large organization at its full size and into a small one, five paired
//! rounds of imports into the large organization and into an empty one, and the
//! service's resident set: now and its peak (`VmHWM`) since it started on the loaded database.

use crate::{agent, call, lists, ms, requests, tenant_ids, Service, ADMIN};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use serde_json::json;
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::Instant;
use talent_domain::events::{EventType, OutboxEvent};
use talent_domain::ids::{EventId, OrgId, TagId};
use talent_domain::values::Tag;
use talent_store::schema::tags;
use talent_store::testing::{PgCluster, TestDb};
use talent_store::tx::person_rows::PersonRow;
use talent_store::types::DbUuid;
use talent_store::DbStore;
use time::OffsetDateTime;

/// The run's PostgreSQL settings: what `docs/deployment.md` recommends for ten million persons on
/// a machine of 24 GiB (shared buffers a quarter of memory at most, a cache estimate of half,
/// room for bulk loads and index builds, checkpoints spread out, SSD page costs, autovacuum that
/// keeps up with large tables).
pub const SETTINGS: &[&str] = &[
    "shared_buffers=2GB",
    "effective_cache_size=12GB",
    "maintenance_work_mem=1GB",
    "work_mem=16MB",
    "max_wal_size=16GB",
    "checkpoint_timeout=30min",
    "random_page_cost=1.1",
    "autovacuum_vacuum_scale_factor=0.02",
    "autovacuum_analyze_scale_factor=0.01",
];

fn env_or(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Runs `COPY table (columns) FROM STDIN` through `psql`, the rows written by `write` as CSV.
fn copy(url: &str, table: &str, columns: &str, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
    let started = Instant::now();
    let sql = format!("COPY {table} ({columns}) FROM STDIN WITH (FORMAT csv)");
    // As pg_restore loads: foreign keys are not checked row by row (the rows are made
    // consistent), and the secondary indexes are built afterwards ([`load`]).
    let mut psql = Command::new("psql")
        .args([
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            url,
            "-c",
            "SET session_replication_role = replica",
            "-c",
            &sql,
        ])
        .stdin(Stdio::piped())
        .spawn()
        .expect("psql runs");
    {
        let stdin = psql.stdin.take().expect("psql's stdin");
        let mut w = std::io::BufWriter::with_capacity(1 << 20, stdin);
        write(&mut w).expect("write the rows to psql");
        w.flush().expect("flush the rows");
    }
    assert!(psql.wait().is_ok_and(|s| s.success()), "COPY {table} failed");
    println!("  COPY {table}: {:.0} s", started.elapsed().as_secs_f64());
}

/// One CSV line of `fields` (`None`: NULL, an unquoted empty field).
fn csv(w: &mut dyn Write, fields: &[Option<&str>]) -> std::io::Result<()> {
    for (k, f) in fields.iter().enumerate() {
        if k > 0 {
            w.write_all(b",")?;
        }
        if let Some(v) = f {
            w.write_all(b"\"")?;
            w.write_all(v.replace('"', "\"\"").as_bytes())?;
            w.write_all(b"\"")?;
        }
    }
    w.write_all(b"\n")
}

/// `psql` of the database at `url`: the output of `sql` (unaligned, tuples only), trimmed;
/// panics when it fails.
pub(crate) fn psql(url: &str, sql: &str) -> String {
    let out = Command::new("psql").args(["-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql]).output();
    let out = out.expect("psql runs");
    assert!(out.status.success(), "{sql}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// An organization's persons to load, and its key.
struct Org {
    seed: lists::Seed,
    key: String,
}

/// Writes the persons of `orgs` (and their humans, tags and, for `events_of`, one
/// `person.created` event each) into the database at `url` with COPY.
fn load(url: &str, orgs: &[Org], events_of: OrgId, first_sequence: i64) {
    let now = OffsetDateTime::now_utc();
    // The secondary indexes of the loaded tables (not those of constraints), dropped during the
    // load and built again from their own definitions after it, as pg_restore does.
    let tables = "'humans', 'persons', 'person_tags', 'outbox_events'";
    let defs = psql(
        url,
        &format!(
            "SELECT i.indexname || E'\\t' || i.indexdef FROM pg_indexes i \
             WHERE i.schemaname = 'public' AND i.tablename IN ({tables}) \
               AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = to_regclass(i.indexname))"
        ),
    );
    let defs: Vec<(String, String)> =
        defs.lines().filter_map(|l| l.split_once('\t')).map(|(n, d)| (n.to_string(), d.to_string())).collect();
    for (name, _) in &defs {
        psql(url, &format!("DROP INDEX {name}"));
    }
    let each = |f: &mut dyn FnMut(&lists::Seed, usize) -> std::io::Result<()>| -> std::io::Result<()> {
        for o in orgs {
            for i in 0..o.seed.n {
                f(&o.seed, i)?;
            }
        }
        Ok(())
    };
    copy(url, "humans", "id, email, created_at", |w| {
        each(&mut |o, i| {
            let (p, email) = o.person(i, now);
            let at = p.member_since.format(&time::format_description::well_known::Rfc3339).unwrap();
            csv(w, &[Some(&p.human_id.0.to_string()), Some(&email), Some(&at)])
        })
    });
    copy(url, "persons", PersonRow::COPY_COLUMNS, |w| {
        each(&mut |o, i| {
            let (p, _) = o.person(i, now);
            let f = PersonRow::from(&p).copy_fields();
            let refs: Vec<Option<&str>> = f.iter().map(|v| v.as_deref()).collect();
            csv(w, &refs)
        })
    });
    copy(url, "person_tags", "person_id, tag_id", |w| {
        each(&mut |o, i| {
            let (p, _) = o.person(i, now);
            let id = p.id.0.to_string();
            p.tags.iter().try_for_each(|t| csv(w, &[Some(&id), Some(&t.id.0.to_string())]))
        })
    });
    // The feed keeps 30 days: the events are spread over the last 29, oldest first.
    let span = 29 * 86_400_000_000i64;
    let big = orgs.iter().map(|o| &o.seed).find(|o| o.org == events_of);
    let big = big.expect("the organization of the events is loaded");
    copy(url, "outbox_events", "id, org_id, event_type, data, created_at, sequence, request_id", |w| {
        (0..big.n).try_for_each(|i| {
            let (p, _) = big.person(i, now);
            let at = now - time::Duration::microseconds(span - span / big.n as i64 * i as i64);
            let e = OutboxEvent {
                id: EventId(uuid::Uuid::now_v7()),
                org_id: big.org,
                event_type: EventType::PersonCreated,
                data: talent_domain::wire::person_data(&p),
                created_at: at,
                request_id: None,
            };
            let at = at.format(&time::format_description::well_known::Rfc3339).unwrap();
            let seq = (first_sequence + i as i64).to_string();
            csv(
                w,
                &[
                    Some(&e.id.0.to_string()),
                    Some(&e.org_id.0.to_string()),
                    Some(e.event_type.as_str()),
                    Some(e.data.as_str()),
                    Some(&at),
                    Some(&seq),
                    None,
                ],
            )
        })
    });
    for (name, def) in &defs {
        let t = Instant::now();
        psql(url, def);
        println!("  CREATE INDEX {name}: {:.0} s", t.elapsed().as_secs_f64());
    }
}

/// Peak resident set of process `pid` so far, in MiB.
fn peak_mib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0)
        / 1024
}

fn tags_by_org(url: &str, rt: &tokio::runtime::Runtime) -> HashMap<uuid::Uuid, Vec<Tag>> {
    rt.block_on(async {
        let mut c = diesel_async::AsyncPgConnection::establish(url).await.expect("connect");
        let rows: Vec<(DbUuid, DbUuid, String)> =
            tags::table.select((tags::org_id, tags::id, tags::name)).load(&mut c).await.expect("tags");
        let mut by: HashMap<uuid::Uuid, Vec<Tag>> = HashMap::new();
        for (org, id, name) in rows {
            by.entry(org.0).or_default().push(Tag { id: TagId(id.0), name });
        }
        // The order lists::person expects: team-0 … team-9, rare.
        for v in by.values_mut() {
            v.sort_by_key(|t| t.name.strip_prefix("team-").and_then(|k| k.parse::<usize>().ok()).unwrap_or(usize::MAX));
        }
        by
    })
}

/// An organization with a key and the tags `team-0` … `team-9`, `rare`.
fn org_with_tags(base: &str, name: &str) -> (String, OrgId) {
    let (key, org) = tenant_ids(base, name);
    let tags: Vec<String> = (0..lists::TEAMS).map(|k| format!("team-{k}")).chain(["rare".to_string()]).collect();
    let body = json!({"email": format!("tags@{name}.example"), "tags": tags});
    let (s, r) = call(&agent(), "POST", &format!("{base}/api/v1/persons"), &key, Some(body));
    assert_eq!(s, 201, "{r}");
    (key, OrgId(org.parse().expect("an organization id")))
}

fn imports(svc: &Service, key: &str, prefix: &str, what: &str, secs: u32) -> Option<f64> {
    let w = requests::wrk_imports(&svc.base, key, prefix, 32, secs)?;
    println!(
        "POST /api/v1/persons {what}, wrk 32 connections, {secs} s: {:.0}/s (non-2xx {}; p50 {:.1} ms p99 {:.1} ms)",
        w.rps, w.non_2xx, w.p50_ms, w.p99_ms
    );
    Some(w.rps)
}

/// Scenario `scale` against the release binary `bin` (see the module's documentation).
pub fn run(bin: &str, rt: &tokio::runtime::Runtime) {
    let (big_n, orgs, per_org) = (
        env_or("BENCH_SCALE_PERSONS", 10_000_000),
        env_or("BENCH_SCALE_ORGS", 1_000),
        env_or("BENCH_SCALE_ORG_PERSONS", 10_000),
    );
    println!("\n== PostgreSQL: scale, one organization of {big_n} persons and {orgs} of {per_org} ==");
    let Some(pg) = PgCluster::start_with(100, SETTINGS) else { return };
    let db = rt.block_on(TestDb::postgres_migrated(&pg.url())).expect("a database");
    let plans = r#"[{"id":"bench","apiAccess":true,"personLimit":100000000,"profileLimit":100,
        "orgPerMinute":1000000,"keyPerMinute":1000000,"orgOnlyPerMinute":1000000}]"#;
    let svc = Service::start_env(bin, &db.url, None, &[("TALENT_PLANS", plans)]);
    let (big_key, big) = org_with_tags(&svc.base, "scale-big");
    let empty = imports(&svc, &big_key, "empty", "into the large organization, nearly empty", 10);
    let started = Instant::now();
    let mut small = Vec::with_capacity(orgs);
    for k in 0..orgs {
        small.push(org_with_tags(&svc.base, &format!("scale-{k}")));
    }
    println!("{orgs} organizations with keys and tags through the API in {:.0} s", started.elapsed().as_secs_f64());

    let started = Instant::now();
    let mut tags = tags_by_org(&db.url, rt);
    // Every organization's persons spread over the same months (a person a second in the large
    // one), so that the newest persons of the table are of all organizations, as in a service in use.
    let big_seed = lists::Seed {
        org: big,
        tags: tags.remove(&big.0).unwrap_or_default(),
        n: big_n,
        domain: "big.seed.example".into(),
        salt: 0,
        spacing: 1,
    };
    let mut layout = vec![Org { seed: big_seed, key: big_key.clone() }];
    let spacing = (big_n / per_org.max(1)).max(1) as i64;
    for (k, (key, org)) in small.iter().enumerate() {
        let tags = tags.remove(&org.0).unwrap_or_default();
        let salt = 2 * big_n + 2 * per_org * k;
        let seed = lists::Seed { org: *org, tags, n: per_org, domain: format!("o{k}.seed.example"), salt, spacing };
        layout.push(Org { seed, key: key.clone() });
    }
    assert!(layout.iter().all(|o| o.seed.tags.len() == lists::TEAMS + 1), "every organization has its tags");
    // The service is stopped during the load (its background jobs would scan the tables whose
    // indexes are being rebuilt) and started again after it.
    drop(svc);
    // Events numbered until the service stopped come before the loaded ones; those it had not
    // numbered yet are numbered after them by the next start.
    let first_sequence: i64 = psql(
        &db.url,
        &format!("SELECT COALESCE(MAX(last), 0) + 1 FROM org_event_sequences WHERE org_id = '{}'", big.0),
    )
    .parse()
    .expect("a sequence");
    load(&db.url, &layout, big, first_sequence);
    psql(
        &db.url,
        &format!(
            "INSERT INTO org_event_sequences (org_id, last) VALUES ('{1}', {0}) \
               ON CONFLICT (org_id) DO UPDATE SET last = EXCLUDED.last; \
             DELETE FROM org_active_persons; \
             INSERT INTO org_active_persons (org_id, shard, n) \
               SELECT org_id, 0, count(*) FROM persons WHERE status = 'active' GROUP BY org_id",
            first_sequence + big_n as i64 - 1,
            big.0
        ),
    );
    println!("loaded {} persons in {:.0} s", big_n + orgs * per_org, started.elapsed().as_secs_f64());
    let started = Instant::now();
    psql(&db.url, "VACUUM ANALYZE");
    println!("VACUUM ANALYZE in {:.0} s", started.elapsed().as_secs_f64());
    let svc = Service::start_env(bin, &db.url, None, &[("TALENT_PLANS", plans)]);
    let pid = svc.child.id();
    println!(
        "sizes: database {}, persons with indexes {}, humans {}, person_tags {}, outbox_events {}",
        psql(&db.url, "SELECT pg_size_pretty(pg_database_size(current_database()))"),
        psql(&db.url, "SELECT pg_size_pretty(pg_total_relation_size('persons'))"),
        psql(&db.url, "SELECT pg_size_pretty(pg_total_relation_size('humans'))"),
        psql(&db.url, "SELECT pg_size_pretty(pg_total_relation_size('person_tags'))"),
        psql(&db.url, "SELECT pg_size_pretty(pg_total_relation_size('outbox_events'))"),
    );
    for line in psql(
        &db.url,
        "SELECT indexrelname || ' ' || pg_size_pretty(pg_relation_size(indexrelid)) FROM pg_stat_user_indexes \
         WHERE relname = 'persons' ORDER BY pg_relation_size(indexrelid) DESC",
    )
    .lines()
    {
        println!("  index {line}");
    }

    let store = DbStore::connect(&db.url, 1).expect("connect");
    let middle = &layout[1 + orgs / 2];
    for o in [&layout[0], middle] {
        println!("-- lists in an organization of {} persons (p99 goal < 50 ms)", o.seed.n);
        for shape in lists::shapes(&o.seed) {
            let url = format!("{}/api/v1/persons?{}", svc.base, shape.query);
            let (p50, p99, items) = lists::time_gets(&url, &o.key, 200);
            println!("{:<32} {items:>2} items: p50 {} p99 {}", shape.name, ms(p50), ms(p99));
            match rt.block_on(store.explain_persons(shape.store)) {
                Ok(plan) => plan.iter().take(14).for_each(|l| println!("      {l}")),
                Err(e) => println!("      (explain failed: {e})"),
            }
        }
    }

    println!("-- the events feed of the large organization ({big_n} events)");
    let mid = first_sequence + big_n as i64 / 2;
    let last = first_sequence + big_n as i64 - 30;
    for (name, query) in [
        ("first page of 100", "limit=100".to_string()),
        ("a page from the middle", format!("after={mid}&limit=100")),
        ("the newest page", format!("after={last}&limit=100")),
        ("type=person.created from the middle", format!("after={mid}&limit=100&type=person.created")),
        ("type=assessment.completed, none held", "limit=100&type=assessment.completed".to_string()),
    ] {
        let (p50, p99, items) = lists::time_gets(&format!("{}/api/v1/events?{query}", svc.base), &big_key, 100);
        println!("{name:<38} {items:>3} items: p50 {} p99 {} (goal p99 < 50 ms)", ms(p50), ms(p99));
    }

    let results = env_or("BENCH_SCALE_RESULTS", 2_000);
    println!("-- matches: {results} persons with results among the large organization's");
    let started = Instant::now();
    crate::results::with_results(&svc.base, &big_key, results, "scale.example");
    println!("  {results} persons with results in {:.0} s", started.elapsed().as_secs_f64());
    psql(&db.url, "ANALYZE persons");
    let body = json!({"name": "scale", "competencies": [
        {"competencyId": crate::results::MATCH_FIRST_COMPETENCY, "weight": 1.0},
        {"competencyId": crate::results::MATCH_SECOND_COMPETENCY, "weight": 0.5}]});
    let (s, profile) =
        call(&agent(), "POST", &format!("{}/admin/v1/organizations/{}/profiles", svc.base, big.0), ADMIN, Some(body));
    assert_eq!(s, 201, "{profile}");
    let url = format!("{}/api/v1/profiles/{}/matches?limit=25", svc.base, profile["id"].as_str().unwrap());
    let (p50, p99, items) = lists::time_gets(&url, &big_key, 200);
    println!("GET /profiles/{{id}}/matches, page of 25: {items} items, p50 {} p99 {} (goal < 50 ms)", ms(p50), ms(p99));

    println!("-- imports at full size");
    let full = imports(&svc, &big_key, "full", &format!("into the organization of {big_n}"), 10);
    if let (Some(e), Some(f)) = (empty, full) {
        println!("  imports at {big_n} / into the nearly empty database: {:.2}", f / e.max(1.0));
    }
    imports(&svc, &middle.key, "small", &format!("into an organization of {per_org} beside them"), 10);
    // Five paired rounds (the machine moves by 20 % between runs): the large organization, then
    // an empty one of the same database, 5 s each.
    let mut ratios = vec![];
    for round in 0..5 {
        let (empty_key, _) = org_with_tags(&svc.base, &format!("scale-empty-{round}"));
        let f = imports(
            &svc,
            &big_key,
            &format!("full{round}"),
            &format!("round {round}, into the organization of {big_n}"),
            5,
        );
        let e = imports(
            &svc,
            &empty_key,
            &format!("empty{round}"),
            &format!("round {round}, into an empty organization"),
            5,
        );
        if let (Some(f), Some(e)) = (f, e) {
            ratios.push(f / e.max(1.0));
        }
    }
    ratios.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (<[f64]>::first(&ratios), <[f64]>::last(&ratios)) {
        println!(
            "  imports at {big_n} / into an empty organization: median {:.2} of 5 paired rounds ({lo:.2}-{hi:.2}; goal >= 0.8)",
            ratios[ratios.len() / 2]
        );
    }
    println!(
        "RSS of the service: {} MiB now, {} MiB at its peak since it started on the loaded database (goal < 256 MiB)",
        svc.rss_kib() / 1024,
        peak_mib(pid)
    );
    drop(svc);
    let _ = rt.block_on(db.drop_db());
}
