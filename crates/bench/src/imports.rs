//! Imports measured against the same writes without the service (issue 38): pgbench on
//! PostgreSQL, a connection of the bench's own on SQLite; the rounds beside a live receiver, and
//! the small statistics both print.

use crate::{agent, call, endpoint, receiver, requests, CLIENTS};
use std::process::Command;
use std::time::{Duration, Instant};

/// Imports under wrk with one live endpoint subscribed instead of the disabled one `disabled`
/// (an import still writes the rows of the pgbench script: one delivery), its deliveries made
/// meanwhile to a local receiver, in [`requests::ROUNDS`] rounds of [`IMPORT_SECS`] s, each
/// followed, once the round's deliveries have arrived, by pgbench of the same writes for as long
/// into another organization `reference` = (org, its disabled endpoint), so nothing of pgbench's
/// is delivered (issue 38: five paired rounds, the spread reported). Prints each round's rate and
/// ratio, and the database's committed transactions per import over the rounds (imports, the
/// engine's claims and outcomes, the sequencer's numbering) from `url`'s statistics.
pub(crate) fn imports_beside_a_live_receiver(
    url: &str,
    base: &str,
    key: &str,
    disabled: &str,
    reference: (&str, &str),
) {
    let (rx_url, arrivals) = receiver();
    let (s, r) = call(&agent(), "DELETE", &format!("{base}/api/v1/webhooks/{disabled}"), key, None);
    assert!((200..300).contains(&s), "{r}");
    endpoint(base, key, &format!("{rx_url}/live"));
    let delivered = || arrivals.list.lock().unwrap().iter().filter(|(p, _, _)| p == "/live").count();
    let (mut rates, mut ratios, mut p99s, mut commits) = (vec![], vec![], vec![], vec![]);
    let mut non_2xx = 0;
    for round in 0..requests::ROUNDS {
        let before = pg_commits(url);
        let Some(w) = requests::wrk_imports(base, key, &format!("live{round}"), CLIENTS as u32, IMPORT_SECS) else {
            return;
        };
        // The round's deliveries still on their way land before pgbench starts (and count in
        // the round's transactions): at most 30 s, until none arrived for half a second.
        let started = Instant::now();
        let mut seen = delivered();
        while started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(500));
            let now = delivered();
            if now == seen {
                break;
            }
            seen = now;
        }
        // PostgreSQL publishes a backend's counts at most once a second.
        std::thread::sleep(Duration::from_millis(1000));
        let imports = w.rps * f64::from(IMPORT_SECS);
        if let (Some(a), Some(b)) = (before, pg_commits(url)) {
            commits.push((b - a) as f64 / imports.max(1.0));
        }
        let Some(tps) = pgbench_import(url, reference.0, reference.1, IMPORT_SECS) else { return };
        rates.push(w.rps);
        ratios.push(w.rps / tps.max(1.0));
        p99s.push(w.p99_ms);
        non_2xx += w.non_2xx;
    }
    let goal = 0.4;
    println!(
        "POST /api/v1/persons, one live endpoint, wrk {CLIENTS} connections, {} rounds of {IMPORT_SECS} s, each \
         followed by pgbench: median {:.0} imports/s (rounds {}), {} delivered, database transactions per import \
         {} (non-2xx {non_2xx}; answer p99 {} ms): ratio median {:.2} of pgbench (rounds {}; goal >= {goal})",
        rates.len(),
        median(&rates),
        list(&rates, 0),
        delivered(),
        list(&commits, 2),
        list(&p99s, 1),
        median(&ratios),
        list(&ratios, 2)
    );
    if !ratios.is_empty() {
        let what = "POST /api/v1/persons with a live receiver beside pgbench, median of 5 rounds";
        crate::goals::at_least("PostgreSQL", what, median(&ratios), goal, "");
    }
}

/// The transactions committed in `url`'s database so far (`pg_stat_database.xact_commit`, read
/// with `psql`), `None` when psql cannot tell.
pub(crate) fn pg_commits(url: &str) -> Option<i64> {
    let out = Command::new("psql")
        .args(["-XAtq", url, "-c", "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// Seconds of each round of plain imports (and of pgbench after it, on PostgreSQL).
pub(crate) const IMPORT_SECS: u32 = 6;

/// The median of `v` (the upper one of an even count; 0 when empty).
pub(crate) fn median(v: &[f64]) -> f64 {
    let mut sorted = v.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

/// `v` as a comma-separated list with `decimals` decimals.
pub(crate) fn list(v: &[f64], decimals: usize) -> String {
    v.iter().map(|x| format!("{x:.decimals$}")).collect::<Vec<_>>().join(", ")
}

/// The reference for imports on PostgreSQL: `pgbench` (16 clients, 2 threads, prepared, `secs` s)
/// running `sql/pgbench-import.sql`, the same rows an import writes, against the same database.
/// Returns its transactions per second, or `None` (with a line saying why) when pgbench is
/// missing or fails.
pub(crate) fn pgbench_import(url: &str, org: &str, endpoint: &str, secs: u32) -> Option<f64> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/sql/pgbench-import.sql");
    let secs = secs.to_string();
    let out = Command::new("pgbench")
        .args(["-n", "-c", "16", "-j", "2", "-M", "prepared", "-T", &secs, "-f", script])
        .args(["-D", &format!("org={org}"), "-D", &format!("ep={endpoint}"), url])
        .output();
    let out = match out {
        Ok(o) if o.status.success() => o,
        Ok(o) => {
            println!("pgbench failed: {}", String::from_utf8_lossy(&o.stderr).trim());
            return None;
        }
        Err(e) => {
            println!("pgbench not run ({e}); install postgresql-client");
            return None;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.strip_prefix("tps = "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse().ok())
}

/// The reference for imports on SQLite, as pgbench is PostgreSQL's: the rows of
/// `sql/pgbench-import.sql` (a human, a person, its `person.created` event numbered from the
/// organization's counter as the service numbers it on SQLite, and a delivery for `endpoint`,
/// into organization `org`), [`CLIENTS`] imports to a transaction (`BEGIN
/// IMMEDIATE`), as the service groups the writes of its clients' requests in flight, written for
/// `secs` s by one connection of this process into a copy of the database file at `path` (the
/// service's own, idle meanwhile; the copy, `VACUUM INTO` a file beside it, is removed
/// afterwards), with the service's settings (WAL, `synchronous = NORMAL`, foreign keys on, no
/// automatic checkpoint) and every statement prepared once. Nothing is read, and the active
/// persons' count the service keeps beside its insert is not written, as PostgreSQL's reference
/// leaves it to a trigger. Afterwards the WAL is checkpointed, untimed (the service's checkpoints
/// run beside its writer). Returns imports per second, or `None` (with a line saying why) when a
/// statement fails.
///
/// The copy starts at the service's size and the service's next round does not inherit the
/// reference's rows (T307): until T307 the reference wrote into the service's own file, about
/// 150,000 imports a round on a fast state, three times the service's, and each later round of the
/// service's imports ran on the larger tables (9,549 per s in the first round, 6,529-6,898 in the
/// four after it).
pub(crate) fn sqlite_import_reference(path: &str, org: &str, endpoint: &str, secs: u32) -> Option<f64> {
    let copy = format!("{path}.reference");
    let remove = || {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{copy}{suffix}"));
        }
    };
    remove();
    let rate = sqlite_reference_run(path, &copy, org, endpoint, secs);
    remove();
    match rate {
        Ok(rate) => Some(rate),
        Err(e) => {
            println!("the SQLite reference failed: {e}");
            None
        }
    }
}

fn sqlite_reference_run(path: &str, copy: &str, org: &str, endpoint: &str, secs: u32) -> Result<f64, String> {
    use diesel::connection::SimpleConnection;
    use diesel::prelude::*;
    use talent_store::schema::{deliveries, humans, org_event_sequences, outbox_events, persons};
    use talent_store::types::{DbTime, DbUuid};
    {
        let mut service = SqliteConnection::establish(path).map_err(|e| e.to_string())?;
        diesel::sql_query("VACUUM INTO ?")
            .bind::<diesel::sql_types::Text, _>(copy)
            .execute(&mut service)
            .map_err(|e| format!("copying the service's database: {e}"))?;
    }
    let mut c = SqliteConnection::establish(copy).map_err(|e| e.to_string())?;
    c.batch_execute(talent_store::SQLITE_PRAGMAS).map_err(|e| e.to_string())?;
    let org = DbUuid(uuid::Uuid::parse_str(org).map_err(|e| e.to_string())?);
    let endpoint = DbUuid(uuid::Uuid::parse_str(endpoint).map_err(|e| e.to_string())?);
    let (data, payload) = ("x".repeat(420), "x".repeat(560));
    let (started, mut n) = (Instant::now(), 0u64);
    let import = |c: &mut SqliteConnection, n: u64| -> QueryResult<usize> {
        let now = DbTime(time::OffsetDateTime::now_utc());
        let email = format!("sqlref.{}.{n}@bench.example", started.elapsed().as_nanos());
        let human = DbUuid(uuid::Uuid::now_v7());
        diesel::insert_into(humans::table)
            .values((humans::id.eq(human), humans::email.eq(&email), humans::created_at.eq(now)))
            .execute(c)?;
        diesel::insert_into(persons::table)
            .values((
                persons::id.eq(DbUuid(uuid::Uuid::now_v7())),
                persons::org_id.eq(org),
                persons::human_id.eq(human),
                persons::email.eq(&email),
                persons::status.eq("active"),
                persons::label_candidate.eq(true),
                persons::label_employee.eq(false),
                persons::tags.eq("[]"),
                persons::joined_via.eq("api"),
                persons::shared_existing_profile.eq(false),
                persons::assessment_status.eq("not_started"),
                persons::assessment_count.eq(0i64),
                persons::member_since.eq(now),
                persons::updated_at.eq(now),
                persons::search_text.eq(&email),
            ))
            .execute(c)?;
        // The service numbers each event as it writes it, from its organization's counter.
        let sequence: i64 = diesel::insert_into(org_event_sequences::table)
            .values((org_event_sequences::org_id.eq(org), org_event_sequences::last.eq(1i64)))
            .on_conflict(org_event_sequences::org_id)
            .do_update()
            .set(org_event_sequences::last.eq(org_event_sequences::last + 1i64))
            .returning(org_event_sequences::last)
            .get_result(c)?;
        diesel::insert_into(outbox_events::table)
            .values((
                outbox_events::id.eq(DbUuid(uuid::Uuid::now_v7())),
                outbox_events::org_id.eq(org),
                outbox_events::event_type.eq("person.created"),
                outbox_events::data.eq(&data),
                outbox_events::created_at.eq(now),
                outbox_events::sequence.eq(sequence),
            ))
            .execute(c)?;
        diesel::insert_into(deliveries::table)
            .values((
                deliveries::id.eq(DbUuid(uuid::Uuid::now_v7())),
                deliveries::endpoint_id.eq(endpoint),
                deliveries::org_id.eq(org),
                deliveries::event_type.eq("person.created"),
                deliveries::payload.eq(&payload),
                deliveries::status.eq("pending"),
                deliveries::attempts.eq(0i64),
                deliveries::next_attempt_at.eq(Some(now)),
                deliveries::created_at.eq(now),
            ))
            .execute(c)
    };
    while started.elapsed() < Duration::from_secs(secs.into()) {
        c.immediate_transaction(|c| {
            for _ in 0..CLIENTS {
                n += 1;
                import(c, n)?;
            }
            QueryResult::Ok(())
        })
        .map_err(|e| e.to_string())?;
    }
    let rate = n as f64 / started.elapsed().as_secs_f64();
    c.batch_execute("PRAGMA wal_checkpoint(TRUNCATE)").map_err(|e| e.to_string())?;
    Ok(rate)
}
