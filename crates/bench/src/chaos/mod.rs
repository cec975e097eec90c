//! `make chaos` (issue 38, T224): three `talent serve` instances on one PostgreSQL of the run's
//! own and one Redis of its own (the rate limiter's store) behind HAProxy on loopback, under a
//! load of imports from careful clients: each import has its own `Idempotency-Key`, and a failed
//! one (no answer, or a 5xx) is sent again with the same key, through HAProxy to whichever
//! instance is up, for up to 30 s. Meanwhile: `kill -9` of a random instance every 30 s (started
//! again a second later), PostgreSQL stopped for 5 s twice, Redis restarted once, one of the two
//! webhook receivers hanging for a minute. Beside the imports, a client of another organization,
//! whose key has a budget of [`BUDGET`] requests a minute, asks `GET /api/v1/me` five times its
//! budget's rate through all three instances, and ATS clients of a third place orders whose
//! candidates accept and complete.
//!
//! Afterwards it checks and prints: every import answered 2xx is stored exactly once, with the id
//! it was answered; no import is left without an answer; every stored person's `person.created`
//! reached both receivers at least once (duplicates are counted); every 5xx was a 503 with
//! `Retry-After`; every order an ATS placed (Workable's protocol, [`ATS_CLIENTS`] clients of a
//! third organization, an order repeated as Workable repeats one) is stored once, its candidate
//! accepted the invitation and completed the assessment, and its completion was pushed to the
//! ATS; the shared budget granted at most 1.1 × what it publishes across the three
//! instances while Redis was up; the answer times (first send to 2xx) p50/p99 in quiet periods
//! and during each kind of fault. `--quick` runs 2 minutes instead of 10 with the faults closer
//! together and shorter. The run fails (exit 1) when a check does not hold.

use crate::{endpoint, receiver, tenant_ids, Service};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use talent_store::testing::PgCluster;

mod orders;
use orders::{ats_client, check_orders, OrderOutcome};

/// Import clients.
const CLIENTS: usize = 12;
/// ATS clients (Workable's protocol) of another organization, each placing an order, then its
/// candidate accepting and completing, one after another.
const ATS_CLIENTS: usize = 2;
/// How long a client keeps sending one import again before it counts it unanswered.
const GIVE_UP: Duration = Duration::from_secs(30);
/// Requests a minute of the rate-limited key (GCRA: a full minute's budget at once, then one
/// every 60 s / BUDGET).
const BUDGET: u64 = 600;
/// The receivers' paths: the second one hangs for a while.
const RECEIVERS: [&str; 2] = ["/chaos", "/slow"];

/// The `GET /api/v1/me` of the rate-limited key, five times its budget's rate, until `stop`:
/// (when sent since `start`, status) of each.
fn budget_client(base: String, key: String, start: Instant, stop: Arc<AtomicBool>) -> Vec<(Duration, u16)> {
    let a = crate::agent();
    let mut out = vec![];
    let pace = Duration::from_secs(60) / (BUDGET as u32 * 5);
    while !stop.load(Ordering::Relaxed) {
        let at = start.elapsed();
        let req = ureq::http::Request::builder()
            .uri(format!("{base}/api/v1/me"))
            .header("Authorization", format!("Bearer {key}"))
            .body(Vec::new());
        let status = req.ok().and_then(|r| a.run(r).ok()).map(|r| r.status().as_u16()).unwrap_or(0);
        out.push((at, status));
        std::thread::sleep(pace.saturating_sub(start.elapsed() - at));
    }
    out
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(0)
}

/// Returns once something listens on `port` (or 10 s have passed).
fn wait_for_port(port: u16) {
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() && t.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A `redis-server` of the run's own on `port`.
pub(crate) fn redis(port: u16) -> Option<Child> {
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    wait_for_port(port);
    Some(child)
}

/// HAProxy on `port` in front of `backends`, from Debian's package (installed when missing).
/// Its own 502, 503 and 504 (no instance up, an instance killed mid-request) are answered as 503
/// with `Retry-After: 1`, as Talent answers an outage.
pub(crate) fn haproxy(port: u16, backends: &[u16], dir: &std::path::Path) -> Option<Child> {
    crate::install_missing(&[("haproxy", "haproxy")]);
    let unavailable = dir.join("503.http");
    let body = r#"{"error":"The service is unavailable; retry shortly","code":"service_unavailable"}"#;
    let file = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nRetry-After: 1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    std::fs::write(&unavailable, file).ok()?;
    let servers: String = backends
        .iter()
        .enumerate()
        .map(|(i, p)| format!("  server t{i} 127.0.0.1:{p} check inter 500ms fall 2 rise 1\n"))
        .collect();
    let e = unavailable.display();
    let cfg = format!(
        "global\n  maxconn 2048\ndefaults\n  mode http\n  timeout connect 1s\n  timeout client 60s\n  timeout server 30s\n  \
         retries 2\n  option redispatch\n  errorfile 502 {e}\n  errorfile 503 {e}\n  errorfile 504 {e}\n\
         frontend api\n  bind 127.0.0.1:{port}\n  default_backend talent\n\
         backend talent\n  balance roundrobin\n  option httpchk GET /healthz\n{servers}"
    );
    let path = dir.join("haproxy.cfg");
    std::fs::write(&path, cfg).ok()?;
    // `-q`: its notes of servers going down and up would drown the report.
    let child = Command::new("haproxy")
        .arg("-q")
        .arg("-f")
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    wait_for_port(port);
    Some(child)
}

/// How one import ended.
struct Outcome {
    email: String,
    /// The answered person id; `None`: no 2xx within [`GIVE_UP`].
    id: Option<String>,
    /// From the first send to the 2xx.
    took: Duration,
    /// When it was first sent, from the run's start.
    at: Duration,
}

/// What the clients counted besides the outcomes.
#[derive(Default)]
struct Tally {
    /// 5xx that were not a 503 with `Retry-After`: (status, retry-after present).
    bad_5xx: Vec<(u16, bool)>,
    unavailable: u64,
    /// Batches sent again because an item failed for a server-side reason.
    items_again: u64,
    conflicts: u64,
    transport_errors: u64,
    /// Other answers no import should get.
    unexpected: Vec<(u16, String)>,
}

/// One request: (status, `Retry-After` present, body), or `Err` when no answer came.
fn send(
    base: &str,
    token: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    idem: Option<&str>,
) -> Result<(u16, bool, Value), ()> {
    let mut req = ureq::http::Request::builder()
        .method(method)
        .uri(format!("{base}{path}"))
        .header("Authorization", format!("Bearer {token}"));
    if body.is_some() {
        req = req.header("Content-Type", "application/json");
    }
    if let Some(k) = idem {
        req = req.header("Idempotency-Key", k);
    }
    let req = req.body(body.map(|b| b.to_string().into_bytes()).unwrap_or_default()).map_err(|_| ())?;
    let a: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(10)))
        .build()
        .into();
    let mut r = a.run(req).map_err(|_| ())?;
    let retry_after = r.headers().contains_key("retry-after");
    let text = r.body_mut().read_to_string().unwrap_or_default();
    Ok((r.status().as_u16(), retry_after, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// What a client makes of an answer that is neither a 5xx nor a failed connection.
enum Flow<T> {
    /// The answer it wanted.
    Take(T),
    /// Send the same request again after this pause.
    Again(Duration),
    /// An answer no request of the run should get: recorded, the request given up.
    Refused,
}

/// Sends one request (`once`: the same body and key each time) again until `judge` takes an
/// answer, for up to [`GIVE_UP`] from the first send, as a careful client does: a 503 with
/// `Retry-After` and a failed connection are counted and sent again; any other 5xx is recorded
/// as bad and sent again. `None`: no answer taken.
fn send_until<T>(
    tally: &Mutex<Tally>,
    once: impl Fn() -> Result<(u16, bool, Value), ()>,
    mut judge: impl FnMut(u16, &Value, &mut Tally) -> Flow<T>,
) -> Option<T> {
    let first = Instant::now();
    while first.elapsed() < GIVE_UP {
        let answer = once();
        let Ok(mut t) = tally.lock() else { return None };
        let pause = match answer {
            Ok((503, true, _)) => {
                t.unavailable += 1;
                Duration::from_millis(500)
            }
            Ok((s, ra, _)) if s >= 500 => {
                t.bad_5xx.push((s, ra));
                Duration::from_millis(200)
            }
            Ok((s, _, v)) => match judge(s, &v, &mut t) {
                Flow::Take(x) => return Some(x),
                Flow::Again(p) => p,
                Flow::Refused => {
                    t.unexpected.push((s, v.to_string()));
                    return None;
                }
            },
            Err(()) => {
                t.transport_errors += 1;
                Duration::from_millis(100)
            }
        };
        drop(t);
        std::thread::sleep(pause);
    }
    None
}

/// The person ids a 2xx answer names, in the order of `emails`: one import's `id`, or each item
/// of a batch's `results`; `None` when an item failed for a server-side reason (the batch is then
/// sent again with its key: the items that committed replay, the others run).
fn answered_ids(v: &Value, batch: bool) -> Option<Vec<String>> {
    if !batch {
        return v["id"].as_str().map(|id| vec![id.to_string()]);
    }
    v["results"].as_array()?.iter().map(|r| r["person"]["id"].as_str().map(str::to_string)).collect()
}

/// One client: imports until `stop`, each with its own key, each sent again until it is answered;
/// every fifth is a batch of three.
fn client(
    t: usize,
    base: String,
    key: String,
    start: Instant,
    stop: Arc<AtomicBool>,
    tally: Arc<Mutex<Tally>>,
) -> Vec<Outcome> {
    let mut out = vec![];
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let batch = i % 5 == 0;
        let emails: Vec<String> = match batch {
            true => (0..3).map(|k| format!("c{t}.{i}.{k}@chaos.example")).collect(),
            false => vec![format!("c{t}.{i}@chaos.example")],
        };
        let (path, body) = match batch {
            true => (
                "/api/v1/persons/batch",
                json!({ "persons": emails.iter().map(|e| json!({ "email": e })).collect::<Vec<_>>() }),
            ),
            false => ("/api/v1/persons", json!({ "email": emails[0] })),
        };
        let idem = format!("chaos-{t}-{i}");
        let first = Instant::now();
        let ids = send_until(
            &tally,
            || send(&base, &key, "POST", path, Some(&body), Some(&idem)),
            |s, v, tally| match s {
                200 | 201 => match answered_ids(v, batch) {
                    Some(found) => Flow::Take(found),
                    None => {
                        tally.items_again += 1;
                        Flow::Again(Duration::from_millis(500))
                    }
                },
                409 if v["code"] == "conflict" => {
                    tally.conflicts += 1;
                    Flow::Again(Duration::from_millis(200))
                }
                _ => Flow::Refused,
            },
        );
        for (k, email) in emails.into_iter().enumerate() {
            let id = ids.as_ref().and_then(|v| v.get(k).cloned());
            out.push(Outcome { email, id, took: first.elapsed(), at: first - start });
        }
    }
    out
}

/// The rows of `sql` in the cluster's database, one `|`-separated line each.
fn psql(pg: &PgCluster, sql: &str) -> Vec<String> {
    crate::scale::psql(&pg.url(), sql).lines().map(str::to_string).collect()
}

/// "p50 …, p99 … (n `what`)" of `v`.
fn p50_p99(mut v: Vec<Duration>, what: &str) -> String {
    if v.is_empty() {
        return "no answers".into();
    }
    v.sort();
    let ms = |p: f64| crate::pct(&v, p).as_secs_f64() * 1e3;
    format!("p50 {:.0} ms, p99 {:.0} ms ({} {what})", ms(0.5), ms(0.99), v.len())
}

/// Runs the chaos run; `true` when every check held.
pub fn run(bin: &str, quick: bool) -> bool {
    let (length, kill_every) = if quick { (Duration::from_secs(120), 20) } else { (Duration::from_secs(600), 30) };
    println!("talent chaos: {} s, 3 instances behind HAProxy, {CLIENTS} import clients", length.as_secs());
    // Without PostgreSQL's server binaries or redis-server there is nothing to run it on: skipped,
    // as the PostgreSQL suites are without a database.
    let Some(pg) = PgCluster::start_sized(100) else {
        println!("chaos: skipped (no PostgreSQL server binaries under /usr/lib/postgresql)");
        return true;
    };
    let dir = std::env::temp_dir().join(format!("talent-chaos-{}", uuid::Uuid::new_v4().simple()));
    let _ = std::fs::create_dir_all(&dir);
    let redis_port = free_port();
    let Some(mut redis_child) = redis(redis_port) else {
        println!("chaos: skipped (redis-server is not installed: apt-get install redis-server)");
        return true;
    };
    let redis_url = format!("redis://127.0.0.1:{redis_port}");
    let db = pg.url();
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let plans = &format!(
        r#"[{{"id":"bench","apiAccess":true,"personLimit":10000000,"profileLimit":100,
            "orgPerMinute":1000000,"keyPerMinute":1000000,"orgOnlyPerMinute":1000000}},
           {{"id":"tight","apiAccess":true,"personLimit":1000,"profileLimit":10,
            "orgPerMinute":1000000,"keyPerMinute":{BUDGET},"orgOnlyPerMinute":1000000}}]"#
    );
    let start_instance = |port: u16| {
        let listen = format!("127.0.0.1:{port}");
        let env = [
            ("TALENT_PLANS", plans.as_str()),
            ("TALENT_LISTEN", listen.as_str()),
            ("TALENT_RATE_LIMIT_MODE", "per-key"),
            ("TALENT_RATE_LIMIT_STORE", redis_url.as_str()),
            ("TALENT_DB_POOL_SIZE", "12"),
        ];
        Service::start_env(bin, &db, None, &env)
    };
    let instances: Arc<Mutex<Vec<Option<Service>>>> =
        Arc::new(Mutex::new(ports.iter().map(|p| Some(start_instance(*p))).collect()));
    let proxy_port = free_port();
    let Some(mut proxy) = haproxy(proxy_port, &ports, &dir) else {
        println!("haproxy did not start");
        return false;
    };
    let base = format!("http://127.0.0.1:{proxy_port}");
    let (key, org) = tenant_ids(&base, "chaos");
    let (hook, arrivals) = receiver();
    for path in RECEIVERS {
        endpoint(&base, &key, &format!("{hook}{path}"));
    }
    let (limited, _) = crate::tenant_on(&base, "chaos-budget", "tight");
    let (_, ats_org) = tenant_ids(&base, "chaos-ats");
    let ats_key = crate::connectors::connection(&base, &ats_org);

    let start = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let tally = Arc::new(Mutex::new(Tally::default()));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|t| {
            let (base, key, stop, tally) = (base.clone(), key.clone(), stop.clone(), tally.clone());
            std::thread::spawn(move || client(t, base, key, start, stop, tally))
        })
        .collect();
    let ats: Vec<_> = (0..ATS_CLIENTS)
        .map(|t| {
            let (base, key, hook, stop, tally) =
                (base.clone(), ats_key.clone(), hook.clone(), stop.clone(), tally.clone());
            std::thread::spawn(move || ats_client(t, base, key, hook, stop, tally))
        })
        .collect();
    let budget = {
        let (base, stop) = (base.clone(), stop.clone());
        std::thread::spawn(move || budget_client(base, limited, start, stop))
    };

    // The faults, on a schedule; each window (from its start to 3 s after its end) is "faulty".
    let mut windows: Vec<(Duration, Duration, &str, String)> = vec![];
    let secs = length.as_secs();
    let pg_stops: Vec<u64> = if quick { vec![secs / 2] } else { vec![secs * 3 / 10, secs * 7 / 10] };
    let redis_restart = secs * 2 / 5;
    let (hang_at, hang_for) = if quick { (secs / 4, 20) } else { (secs * 9 / 20, 60) };
    let mut next_kill = kill_every;
    let mut victim = 0usize;
    let mut last = 0;
    while start.elapsed() < length {
        let now = start.elapsed().as_secs();
        if now == last {
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        last = now;
        let from = start.elapsed();
        if now >= next_kill {
            next_kill += kill_every;
            victim = (victim + 1 + (now as usize % 2)) % 3;
            if let Ok(mut list) = instances.lock() {
                list[victim] = None; // SIGKILL (Service's drop kills and reaps)
            }
            std::thread::sleep(Duration::from_secs(1));
            let fresh = start_instance(ports[victim]);
            if let Ok(mut list) = instances.lock() {
                list[victim] = Some(fresh);
            }
            let label = format!("kill -9 of instance {victim}");
            windows.push((from, start.elapsed() + Duration::from_secs(3), "kill -9 of an instance", label));
        }
        if pg_stops.contains(&now) {
            pg.stop();
            std::thread::sleep(Duration::from_secs(5));
            pg.start_again();
            let label = "PostgreSQL stopped 5 s".to_string();
            windows.push((from, start.elapsed() + Duration::from_secs(3), "PostgreSQL stopped", label));
        }
        if now == redis_restart {
            let _ = redis_child.kill();
            let _ = redis_child.wait();
            std::thread::sleep(Duration::from_millis(500));
            match redis(redis_port) {
                Some(c) => redis_child = c,
                None => println!("redis-server did not start again"),
            }
            windows.push((from, start.elapsed() + Duration::from_secs(3), "Redis restarted", "Redis restarted".into()));
        }
        if now == hang_at {
            let until = Instant::now() + Duration::from_secs(hang_for);
            if let Ok(mut h) = arrivals.hang_until.lock() {
                *h = Some(until);
            }
            let label = format!("receiver /slow hanging {hang_for} s");
            windows.push((from, from + Duration::from_secs(hang_for + 3), "a receiver hanging", label));
        }
    }
    stop.store(true, Ordering::Relaxed);
    let outcomes: Vec<Outcome> = clients.into_iter().flat_map(|c| c.join().unwrap_or_default()).collect();
    let orders: Vec<OrderOutcome> = ats.into_iter().flat_map(|c| c.join().unwrap_or_default()).collect();
    let asked = budget.join().unwrap_or_default();
    let end = start.elapsed();
    let tally = tally.lock().map(|mut t| std::mem::take(&mut *t)).unwrap_or_default();

    // Checks.
    let mut ok = true;
    let answered: Vec<&Outcome> = outcomes.iter().filter(|o| o.id.is_some()).collect();
    let unanswered = outcomes.len() - answered.len();
    let rows = psql(&pg, &format!("SELECT email, id FROM persons WHERE org_id = '{org}'"));
    let mut stored: HashMap<String, Vec<String>> = HashMap::new();
    for r in &rows {
        if let Some((email, id)) = r.split_once('|') {
            stored.entry(email.to_string()).or_default().push(id.to_string());
        }
    }
    let mut wrong = 0;
    for o in &answered {
        match stored.get(&o.email) {
            Some(ids) if ids.len() == 1 && Some(&ids[0]) == o.id.as_ref() => {}
            _ => wrong += 1,
        }
    }
    let acked: std::collections::HashSet<&str> = answered.iter().map(|o| o.email.as_str()).collect();
    let stored_unacked = stored.keys().filter(|e| !acked.contains(e.as_str())).count();
    println!(
        "\nimports (every fifth request a batch of three): {} sent, {} answered 2xx, {} without an answer after {} s of retries",
        outcomes.len(),
        answered.len(),
        unanswered,
        GIVE_UP.as_secs()
    );
    println!(
        "  answers on the way: {} 503 with Retry-After, {} 409 conflict (key in flight), {} connections failed or cut, \
         {} batches with an item that failed on the server (sent again)",
        tally.unavailable, tally.conflicts, tally.transport_errors, tally.items_again
    );
    println!(
        "  stored: {} persons; answered and stored exactly once with the answered id: {}",
        rows.len(),
        answered.len() - wrong
    );
    check(&mut ok, unanswered == 0, "every import was answered 2xx within 30 s of retries with its key");
    check(&mut ok, wrong == 0, &format!("every answered import is stored exactly once, with its id ({wrong} not)"));
    check(&mut ok, stored_unacked == 0, &format!("nothing stored that no one was answered ({stored_unacked})"));
    check(
        &mut ok,
        tally.bad_5xx.is_empty(),
        &format!("every 5xx was a 503 with Retry-After (others: {:?})", tally.bad_5xx),
    );
    check(
        &mut ok,
        tally.unexpected.is_empty(),
        &format!("no other refusal ({:?})", tally.unexpected.iter().take(3).collect::<Vec<_>>()),
    );

    // Every stored person's person.created reaches the receiver: wait for the engine to drain (up
    // to 5 minutes: a delivery whose attempt died with its instance is tried again after its
    // claim's lease and the retry schedule's first step).
    let ids: Vec<String> = stored.values().flatten().cloned().collect();
    let missing = |seen: &HashMap<(String, String), u32>| {
        RECEIVERS
            .iter()
            .flat_map(|p| ids.iter().map(move |id| (p.to_string(), id.clone())))
            .filter(|k| !seen.contains_key(k))
            .count()
    };
    let all = ids.len() * RECEIVERS.len();
    let (lost, duplicates, drained) = drain(&arrivals.created, Duration::from_secs(300), all, missing);
    println!(
        "webhooks: person.created of {} persons to {} receivers: {} deliveries arrived, {duplicates} duplicates, \
         drained {:.0} s after the load",
        ids.len(),
        RECEIVERS.len(),
        all - lost,
        drained.as_secs_f64()
    );
    check(&mut ok, lost == 0, &format!("every stored person's person.created reached both receivers ({lost} did not)"));
    ok &= check_orders(&pg, &ats_org, &hook, &orders, &arrivals);

    // The shared budget: what the three instances granted, against what GCRA allows a key that
    // starts full (a minute's budget, then BUDGET a minute), in the spans Redis was up; the state
    // lives in Redis, so a restart starts the key full again.
    let restart = windows.iter().find(|w| w.2 == "Redis restarted").map(|w| (w.0, w.1));
    let spans = match restart {
        Some((down, up)) => vec![(Duration::ZERO, down, Duration::ZERO), (up, end, down)],
        None => vec![(Duration::ZERO, end, Duration::ZERO)],
    };
    let (granted, refused) =
        (asked.iter().filter(|(_, s)| *s == 200).count(), asked.iter().filter(|(_, s)| *s == 429).count());
    println!(
        "rate limit: {} requests of a key of {BUDGET} a minute, {granted} granted, {refused} refused (429)",
        asked.len()
    );
    for (from, to, full_since) in spans {
        let got = asked.iter().filter(|(at, s)| *s == 200 && *at >= from && *at < to).count() as f64;
        let allowed = BUDGET as f64 * (1.0 + (to - full_since).as_secs_f64() / 60.0);
        check(
            &mut ok,
            got <= 1.1 * allowed,
            &format!(
                "from {} s to {} s: {got:.0} granted across the instances, {:.2} of the {allowed:.0} the budget allows (at most 1.1)",
                from.as_secs(),
                to.as_secs(),
                got / allowed
            ),
        );
    }

    let overlaps = |o: &Outcome, w: &(Duration, Duration, &str, String)| o.at + o.took >= w.0 && o.at <= w.1;
    let quiet: Vec<Duration> =
        answered.iter().filter(|o| !windows.iter().any(|w| overlaps(o, w))).map(|o| o.took).collect();
    println!("answer times, first send to 2xx:\n  quiet: {}", p50_p99(quiet, "imports"));
    let mut kinds: Vec<&str> = windows.iter().map(|w| w.2).collect();
    kinds.sort();
    kinds.dedup();
    for kind in kinds {
        let during: Vec<Duration> =
            answered.iter().filter(|o| windows.iter().any(|w| w.2 == kind && overlaps(o, w))).map(|o| o.took).collect();
        println!("  during {kind}: {}", p50_p99(during, "imports"));
    }
    println!(
        "faults: {}",
        windows.iter().map(|(a, _, _, w)| format!("{w} at {} s", a.as_secs())).collect::<Vec<_>>().join("; ")
    );
    println!("chaos: {}", if ok { "every check held" } else { "FAILED" });

    let _ = proxy.kill();
    let _ = proxy.wait();
    if let Ok(mut list) = instances.lock() {
        list.clear();
    }
    let _ = redis_child.kill();
    let _ = redis_child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    ok
}

/// Waits up to `limit` until nothing is `missing` from the arrivals `seen` counts; then what is
/// still missing (`all` when the counts cannot be read), the duplicates (every arrival beyond the
/// first of its key) and how long it waited.
fn drain<K: Eq + std::hash::Hash>(
    seen: &Mutex<HashMap<K, u32>>,
    limit: Duration,
    all: usize,
    missing: impl Fn(&HashMap<K, u32>) -> usize,
) -> (usize, u32, Duration) {
    let start = Instant::now();
    while start.elapsed() < limit && seen.lock().map(|s| missing(&s)).unwrap_or(1) > 0 {
        std::thread::sleep(Duration::from_millis(250));
    }
    let (lost, duplicates) =
        seen.lock().map(|s| (missing(&s), s.values().map(|n| n.saturating_sub(1)).sum::<u32>())).unwrap_or((all, 0));
    (lost, duplicates, start.elapsed())
}

fn check(ok: &mut bool, holds: bool, what: &str) {
    println!("  [{}] {what}", if holds { "ok" } else { "FAIL" });
    *ok &= holds;
}
