//! `make bench`: the webhook delivery scenarios of issue 10 against the release `talent` binary,
//! on SQLite and on PostgreSQL, with a local receiver (actix-web, keep-alive) in this process.
//!
//! Usage: `talent-bench TALENT_BINARY [sqlite|postgres|both]`. PostgreSQL is the server of
//! `TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/test`); each run makes its own
//! database and drops it. Scenarios (figures in `docs/performance.md`):
//!
//! 1. **import**: 32 clients import persons as fast as they can, with one live endpoint; prints
//!    imports/s, deliveries/s and event-to-arrival p50/p99 (arrival time minus the envelope's
//!    `createdAt`).
//! 2. **backlog**: a second endpoint, disabled during the import, holds one delivery per person;
//!    it is enabled and the bench times the backlog's delivery and samples the service's RSS.
//! 3. **fairness**: one organization with 10 endpoints on a host that accepts and never answers,
//!    and 50 deliveries for them; another organization's event is timed from import to arrival.
//! 4. **requests** (issue 11, goals of issue 38, [`requests`]): `GET /api/v1/me` and `GET /healthz` under `wrk`,
//!    each beside a bare actix-web reference; prints the ratios and the idle RSS; then imports
//!    under wrk beside pgbench of the same writes (on SQLite, the same writes by a connection of
//!    this process, [`imports::sqlite_import_reference`]), with the endpoint disabled and
//!    (PostgreSQL) with it live.
//! 5. **limiter** (issue 17): `GET /api/v1/me` with the rate limiter off, with governor and with
//!    Redis (a `redis-server` of the run's own); prints the cost per request of each.
//! 6. **lists** and 7. **matches** (issue 11, [`lists`]): list shapes and profile matches over a
//!    large organization.
//!
//! 8. **connectors** ([`connectors`]): an ATS places orders (Workable's protocol) beside plain
//!    imports, the sandbox completes them, and each push is timed from the completion to its
//!    arrival; then pushes beside an organization whose ATS hangs.
//!
//! 9. **scale** ([`scale`], PostgreSQL only, not in the default set): ten million persons.
//! 10. **instances** ([`instances`], PostgreSQL only, not in the default set): one instance and
//!     three behind HAProxy.
//!
//! `BENCH_SCENARIOS` picks some of `webhooks` (1-3), `requests`, `imports` (the imports of 4
//! alone), `limiter`, `lists`, `matches`, `reports`,
//! `connectors`, `scale`, `instances` (comma-separated; the default: all but `scale` and
//! `instances`).
//!
//! The run ends with [`goals`]: every goal the scenarios checked, and whether it held.
//!
//! `talent-bench TALENT_BINARY chaos [--quick]` is `make chaos` instead ([`chaos`]).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use imports::{imports_beside_a_live_receiver, list, median, pgbench_import, sqlite_import_reference, IMPORT_SECS};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use talent_store::testing::TestDb;
use talent_store::DbStore;

mod chaos;
mod connectors;
mod goals;
mod imports;
mod instances;
mod lists;
mod requests;
mod results;
mod scale;
mod webhooks;

const ADMIN: &str = "adm_bench_d419c44894d7a7f1a1a973c33d02dfb2cf17648970a57485";
/// Persons imported (and so backlog deliveries): `BENCH_PERSONS`, default 10,000.
fn persons() -> usize {
    std::env::var("BENCH_PERSONS").ok().and_then(|v| v.parse().ok()).unwrap_or(10_000)
}
const CLIENTS: usize = 32;

/// Arrivals at the receiver: (endpoint path, time since the envelope's `createdAt`, arrival
/// instant), and the person's email of each arrival by email (to match the import's answer).
#[derive(Default)]
struct Arrivals {
    list: Mutex<Vec<(String, Duration, Instant)>>,
    by_email: Mutex<std::collections::HashMap<String, Instant>>,
    /// Deliveries of `person.created` per endpoint path and person id (`make chaos` counts
    /// duplicates).
    created: Mutex<std::collections::HashMap<(String, String), u32>>,
    /// Until then, requests to `/slow` hang (`make chaos`'s receiver that stops answering): they
    /// are answered 503 when it has passed, and not counted.
    hang_until: Mutex<Option<Instant>>,
    /// Pushes of a completed ATS order per callback path under `/ats/` (`make chaos` counts
    /// them and their duplicates).
    completed: Mutex<std::collections::HashMap<String, u32>>,
}

async fn receive(req: HttpRequest, body: web::Bytes, arrivals: web::Data<Arrivals>) -> HttpResponse {
    let hang = *arrivals.hang_until.lock().unwrap();
    if let Some(until) = hang.filter(|u| req.path() == "/slow" && Instant::now() < *u) {
        tokio::time::sleep(until - Instant::now()).await;
        return HttpResponse::ServiceUnavailable().finish();
    }
    let now = time::OffsetDateTime::now_utc();
    let at = Instant::now();
    let v = serde_json::from_slice::<Value>(&body).unwrap_or(Value::Null);
    if req.path() == "/live" {
        if let Some(e) = v["data"]["email"].as_str() {
            arrivals.by_email.lock().unwrap().entry(e.to_string()).or_insert(at);
        }
    }
    if let (Some("person.created"), Some(id)) = (v["type"].as_str(), v["data"]["id"].as_str()) {
        *arrivals.created.lock().unwrap().entry((req.path().to_string(), id.to_string())).or_insert(0) += 1;
    }
    if req.path().starts_with("/ats/") && v["status"] == "completed" {
        *arrivals.completed.lock().unwrap().entry(req.path().to_string()).or_insert(0) += 1;
    }
    let created = v["createdAt"]
        .as_str()
        .and_then(|s| time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok());
    let lat = created.map(|c| (now - c).max(time::Duration::ZERO)).unwrap_or_default();
    let lat = Duration::from_micros(lat.whole_microseconds() as u64);
    arrivals.list.lock().unwrap().push((req.path().to_string(), lat, at));
    HttpResponse::Ok().body("ok")
}

/// Starts the receiver on its own thread; returns its base URL and the arrivals.
fn receiver() -> (String, Arc<Arrivals>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let arrivals = web::Data::new(Arrivals::default());
    let a = arrivals.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async move {
            HttpServer::new(move || App::new().app_data(a.clone()).default_service(web::to(receive)))
                .workers(1)
                .listen(listener)
                .unwrap()
                .run()
                .await
                .unwrap();
        });
    });
    (url, arrivals.into_inner())
}

/// A host that accepts connections and never answers.
fn hanging() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hang", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let mut held = vec![];
        for s in listener.incoming().flatten() {
            held.push(s);
        }
    });
    url
}

struct Service {
    child: Child,
    base: String,
}

impl Drop for Service {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Service {
    fn start(bin: &str, db: &str) -> Service {
        Service::start_logging(bin, db, None)
    }

    /// As [`Service::start`]; with `log`, at the default level (`info`: the access log) into that
    /// file.
    fn start_logging(bin: &str, db: &str, log: Option<std::fs::File>) -> Service {
        Service::start_env(bin, db, log, &[])
    }

    /// As [`Service::start_logging`], with `env` set last (over the bench's defaults).
    fn start_env(bin: &str, db: &str, log: Option<std::fs::File>, env: &[(&str, &str)]) -> Service {
        let plans = r#"[{"id":"bench","apiAccess":true,"personLimit":10000000,"profileLimit":100,
            "orgPerMinute":100000000,"keyPerMinute":100000000,"orgOnlyPerMinute":100000000}]"#;
        let mut child = Command::new(bin)
            .arg("serve")
            .env("DATABASE_URL", db)
            .env("TALENT_LISTEN", "127.0.0.1:0")
            .env("TALENT_ADMIN_TOKEN", ADMIN)
            .env("TALENT_SECRET_KEY", "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2")
            .env("TALENT_RATE_LIMIT_MODE", "off")
            .env("TALENT_WEBHOOKS_ALLOW_INSECURE", "1")
            .env("TALENT_PLANS", plans)
            // The service's default pool unless BENCH_DB_POOL_SIZE names one.
            .env_remove("TALENT_DB_POOL_SIZE")
            .envs(std::env::var("BENCH_DB_POOL_SIZE").ok().map(|n| ("TALENT_DB_POOL_SIZE", n)))
            .env(
                "TALENT_LOG",
                match &log {
                    Some(_) => "info".into(),
                    None => std::env::var("BENCH_TALENT_LOG").unwrap_or_else(|_| "warn".into()),
                },
            )
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(log.map(Stdio::from).unwrap_or_else(Stdio::inherit))
            .spawn()
            .expect("start talent");
        let out = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if let Some(a) = line.strip_prefix("Listening on ") {
                    let _ = tx.send(a.trim().to_string());
                }
            }
        });
        let base = rx.recv_timeout(Duration::from_secs(60)).expect("talent starts");
        Service { child, base }
    }

    /// Resident set size now, in KiB.
    fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into()
}

fn call(a: &ureq::Agent, method: &str, url: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let mut b =
        ureq::http::Request::builder().method(method).uri(url).header("Authorization", format!("Bearer {token}"));
    let payload = match body {
        Some(v) => {
            b = b.header("Content-Type", "application/json");
            v.to_string().into_bytes()
        }
        None => vec![],
    };
    let mut r = a.run(b.body(payload).unwrap()).unwrap();
    let status = r.status().as_u16();
    let text = r.body_mut().read_to_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// An organization on the bench plan with a key; returns the key.
fn tenant(base: &str, name: &str) -> String {
    tenant_ids(base, name).0
}

/// As [`tenant`]: the API key and the organization's id.
fn tenant_ids(base: &str, name: &str) -> (String, String) {
    tenant_on(base, name, "bench")
}

/// As [`tenant_ids`], on plan `plan` (of `TALENT_PLANS`).
fn tenant_on(base: &str, name: &str, plan: &str) -> (String, String) {
    let a = agent();
    let (s, o) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/organizations"),
        ADMIN,
        Some(json!({"companyName": name, "email": format!("hr@{name}.example"), "plan": plan,
                    "subscriptionStatus": "active"})),
    );
    assert_eq!(s, 201, "{o}");
    let org = o["id"].as_str().unwrap();
    let (_, u) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/organizations/{org}/users"),
        ADMIN,
        Some(json!({"email": format!("admin@{name}.example"), "role": "admin"})),
    );
    let (_, k) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/users/{}/api-keys", u["id"].as_str().unwrap()),
        ADMIN,
        Some(json!({"scopes": ["persons:write", "webhooks:manage", "results:read", "profiles:read"]})),
    );
    (k["key"].as_str().unwrap().to_string(), org.to_string())
}

fn endpoint(base: &str, key: &str, url: &str) -> String {
    let (s, w) = call(
        &agent(),
        "POST",
        &format!("{base}/api/v1/webhooks"),
        key,
        Some(json!({"url": url, "events": ["person.created"]})),
    );
    assert_eq!(s, 201, "{w}");
    w["id"].as_str().unwrap().to_string()
}

fn enable(base: &str, key: &str, id: &str, on: bool) {
    let (s, r) = call(&agent(), "PATCH", &format!("{base}/api/v1/webhooks/{id}"), key, Some(json!({ "enabled": on })));
    assert_eq!(s, 200, "{r}");
}

/// Runs `each(agent, i)` for every `i` in `0..n`, spread over [`CLIENTS`] threads that take the
/// next `i` as they finish one (each thread with its own keep-alive agent). Returns the threads
/// (join them to wait).
fn spawn_clients<F>(n: usize, each: F) -> Vec<std::thread::JoinHandle<()>>
where
    F: Fn(&ureq::Agent, usize) + Send + Sync + 'static,
{
    let (next, each) = (Arc::new(AtomicU64::new(0)), Arc::new(each));
    (0..CLIENTS)
        .map(|_| {
            let (next, each) = (next.clone(), each.clone());
            std::thread::spawn(move || {
                let a = agent();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst) as usize;
                    if i >= n {
                        return;
                    }
                    each(&a, i);
                }
            })
        })
        .collect()
}

/// Imports one person; returns when the answer (and so the commit) came.
fn import(a: &ureq::Agent, base: &str, key: &str, email: &str) -> Instant {
    let (s, r) = call(a, "POST", &format!("{base}/api/v1/persons"), key, Some(json!({ "email": email })));
    assert_eq!(s, 201, "{r}");
    Instant::now()
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", millis(d))
}

/// `d` in milliseconds, as [`ms`] prints it and [`goals`] compares it.
fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn wait_count(arr: &Arrivals, path: &str, n: usize, limit: Duration) -> bool {
    let start = Instant::now();
    let count = || arr.list.lock().unwrap().iter().filter(|(p, _, _)| p == path).count();
    while start.elapsed() < limit {
        if count() >= n {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    eprintln!("{path}: {} of {n} arrived within {limit:?}", count());
    false
}
/// Writes out what the build and the scenarios before left in the page cache, before a scenario
/// is timed: the kernel would otherwise write it back during the next one, and every commit's
/// `fsync` there waits behind it (PostgreSQL's live deliveries, 1.2 GB left to write: `createdAt`
/// to arrival p99 160 → 220 ms, the slowest 186 → 438 ms).
fn settle() {
    let _ = Command::new("sync").status();
}

/// Scenario 4 on `db`: `/me` and `/healthz` beside the reference (unless `imports_only`), then
/// the imports.
fn run_requests(bin: &str, backend: &str, db: &TestDb, imports_only: bool) {
    println!("\n== {backend}: requests ==");
    let log_path = std::env::temp_dir().join("talent-bench-access.log");
    let log = std::fs::File::create(&log_path).expect("log file");
    let svc = Service::start_logging(bin, &db.url, Some(log));
    let (key, org) = tenant_ids(&svc.base, "requests");
    let a = agent();
    let (s, me) = call(&a, "GET", &format!("{}/api/v1/me", svc.base), &key, None);
    assert_eq!(s, 200, "{me}");
    let (s, health) = call(&a, "GET", &format!("{}/healthz", svc.base), &key, None);
    assert_eq!(s, 200, "{health}");
    let reference = requests::reference(me.to_string(), health.to_string());
    std::thread::sleep(Duration::from_millis(300));
    let idle = svc.rss_kib() / 1024;
    println!("idle RSS: {idle} MiB");
    goals::below(backend, "idle RSS", idle as f64, 64.0, " MiB");
    let auth = vec![format!("Authorization: Bearer {key}")];
    if !imports_only {
        let mut peak = 0;
        // Issue 38's goals: ratios to the reference.
        let (me_goal, health_goal) = (0.7, 0.9);
        let me = requests::paired(
            "GET /api/v1/me",
            (&svc.base, svc.child.id()),
            &reference,
            "/api/v1/me",
            &auth,
            me_goal,
            || peak = peak.max(svc.rss_kib() / 1024),
        );
        if let Some(r) = me {
            goals::at_least(backend, "GET /api/v1/me beside the reference, median of 5 rounds", r, me_goal, "");
        }
        let healthz = requests::paired(
            "GET /healthz",
            (&svc.base, svc.child.id()),
            &reference,
            "/healthz",
            &[],
            health_goal,
            || {},
        );
        if let Some(r) = healthz {
            goals::at_least(backend, "GET /healthz beside the reference, median of 5 rounds", r, health_goal, "");
        }
        let lines = std::fs::read_to_string(&log_path).map(|t| t.lines().count()).unwrap_or(0);
        println!("RSS after /me: {peak} MiB; access-log lines written: {lines}");
    }
    let ep = endpoint(&svc.base, &key, "http://127.0.0.1:9/never");
    enable(&svc.base, &key, &ep, false);
    // Imports under wrk (issue 11 measured with wrk), in rounds; on PostgreSQL each round is
    // followed by pgbench of the same writes for as long (issue 38: five paired rounds, the
    // spread reported).
    let pg = db.url.starts_with("postgres");
    let (mut rounds, mut references) = (Vec::new(), Vec::new());
    for round in 0..requests::ROUNDS {
        let Some(w) = requests::wrk_imports(&svc.base, &key, &format!("plain{round}"), CLIENTS as u32, IMPORT_SECS)
        else {
            println!("POST /api/v1/persons: skipped (wrk is not installed: apt-get install wrk)");
            return;
        };
        if references.len() == round {
            // A failed reference says why once; the rounds go on without it.
            references.extend(match db.url.strip_prefix("sqlite://") {
                Some(path) => sqlite_import_reference(path, &org, &ep, IMPORT_SECS),
                None => pgbench_import(&db.url, &org, &ep, IMPORT_SECS),
            });
        }
        rounds.push(w);
    }
    let rates: Vec<f64> = rounds.iter().map(|w| w.rps).collect();
    let imports = median(&rates);
    let mid = rounds.iter().min_by(|a, b| (a.rps - imports).abs().total_cmp(&(b.rps - imports).abs()));
    let (p50, p99) = mid.map(|w| (w.p50_ms, w.p99_ms)).unwrap_or_default();
    println!(
        "POST /api/v1/persons, one disabled endpoint, wrk {CLIENTS} connections, {} rounds of {IMPORT_SECS} s: \
         median {imports:.0} imports/s (rounds {}; non-2xx {}; answer p50 {p50:.1} ms p99 {p99:.1} ms)",
        rounds.len(),
        list(&rates, 0),
        rounds.iter().map(|w| w.non_2xx).sum::<u64>(),
    );
    read_by_id(&svc, &key, &auth);
    if let Some(k) = requests::wrk_imports_keyed(&svc.base, &key, "keyed", CLIENTS as u32, 10, true) {
        println!(
            "POST /api/v1/persons with an Idempotency-Key each, 10 s: {:.0} imports/s, {:.2} of the plain ones \
             (non-2xx {}; answer p50 {:.1} ms p99 {:.1} ms)",
            k.rps,
            k.rps / imports.max(1.0),
            k.non_2xx,
            k.p50_ms,
            k.p99_ms
        );
    }
    let rss = svc.rss_kib() / 1024;
    println!("RSS after the import: {rss} MiB");
    goals::below(backend, "RSS after the imports", rss as f64, 256.0, " MiB");
    let (pg_goal, sqlite_goal) = (0.6, 10_000.0);
    // Each round's rate over its reference's, where every round has one.
    let ratios: Vec<f64> = rates.iter().zip(&references).map(|(i, t)| i / t.max(1.0)).collect();
    if pg && references.len() == rates.len() {
        println!(
            "  reference: pgbench of the same writes, 16 clients, after each round: {} tps: ratio median {:.2} \
             (rounds {}; goal >= {pg_goal})",
            list(&references, 0),
            median(&ratios),
            list(&ratios, 2)
        );
        goals::at_least(
            backend,
            "POST /api/v1/persons beside pgbench, median of 5 rounds",
            median(&ratios),
            pg_goal,
            "",
        );
        let (ref_key, ref_org) = tenant_ids(&svc.base, "requests-reference");
        let ref_ep = endpoint(&svc.base, &ref_key, "http://127.0.0.1:9/never");
        enable(&svc.base, &ref_key, &ref_ep, false);
        imports_beside_a_live_receiver(&db.url, &svc.base, &key, &ep, (&ref_org, &ref_ep));
    } else if pg {
        // pgbench said why it failed: without its reference there is no ratio to judge.
        println!("  no pgbench reference: PostgreSQL's import goals are not judged in this run");
    } else {
        if references.len() == rates.len() {
            // A figure beside the goal, not a goal: SQLite's own rate for the same writes on
            // this machine now (T306).
            println!(
                "  reference: the same writes by one SQLite connection, {CLIENTS} imports to a transaction, after each \
                 round: {} per s: ratio median {:.2} (rounds {}; a figure, not a goal)",
                list(&references, 0),
                median(&ratios),
                list(&ratios, 2)
            );
        }
        println!("  goal on SQLite: >= {sqlite_goal} imports/s");
        goals::at_least(backend, "POST /api/v1/persons, median of 5 rounds", imports, sqlite_goal, " per s");
    }
    let _ = std::fs::remove_file(&log_path);
}

/// A figure, not a goal: `GET /api/v1/persons/{id}` of one person (imported now) under wrk for
/// 5 s, its rate and the service's CPU time per request: a read by key (on SQLite on the request's
/// thread) behind a route with a path parameter.
fn read_by_id(svc: &Service, key: &str, auth: &[String]) {
    let (s, p) = call(
        &agent(),
        "POST",
        &format!("{}/api/v1/persons", svc.base),
        key,
        Some(json!({"email": "read.by.id@bench.example", "firstName": "Ada", "tags": ["bench"]})),
    );
    let Some(id) = p["id"].as_str().filter(|_| s == 201 || s == 200) else {
        println!("GET /api/v1/persons/{{id}}: skipped (the import answered {s}: {p})");
        return;
    };
    let url = format!("{}/api/v1/persons/{id}", svc.base);
    let before = requests::cpu_ticks(svc.child.id());
    let Some(w) = requests::wrk(&url, auth, 5) else { return };
    let ticks = requests::cpu_ticks(svc.child.id()).zip(before).map(|(a, b)| a.saturating_sub(b));
    // Ticks of 10 ms; µs per request.
    let cpu = ticks.map(|t| t as f64 * 10_000.0 / w.requests.max(1) as f64);
    println!(
        "GET /api/v1/persons/{{id}}, wrk 64 connections, 5 s: {:.0} per s (non-2xx {}; p99 {:.1} ms; CPU {} per \
         request; a figure, not a goal)",
        w.rps,
        w.non_2xx,
        w.p99_ms,
        cpu.map_or("unknown".to_string(), |c| format!("{c:.1} µs"))
    );
}

/// Scenario `limiter` on `db` (issue 17): `GET /api/v1/me` under wrk with the rate limiter off,
/// with governor (one process) and with Redis (`TALENT_RATE_LIMIT_STORE`, a `redis-server` this
/// run starts on a free port), budgets far above the load so every answer is 200; prints each
/// rate and latency and the limiter's cost per request against "off".
fn run_limiter(bin: &str, backend: &str, db: &TestDb) {
    println!("\n== {backend}: rate limiter ==");
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or(16379);
    let redis = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .spawn();
    let Ok(mut redis) = redis else {
        println!("skipped: redis-server is not installed (apt-get install redis-server)");
        return;
    };
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let url = format!("redis://127.0.0.1:{port}");
    let runs: [(&str, Vec<(&str, &str)>); 3] = [
        ("off", vec![("TALENT_RATE_LIMIT_MODE", "off")]),
        ("governor (this process)", vec![("TALENT_RATE_LIMIT_MODE", "per-key")]),
        ("Redis (shared)", vec![("TALENT_RATE_LIMIT_MODE", "per-key"), ("TALENT_RATE_LIMIT_STORE", url.as_str())]),
    ];
    let mut off: Option<f64> = None;
    for (name, env) in runs {
        let svc = Service::start_env(bin, &db.url, None, &env);
        let key = tenant(&svc.base, &format!("limiter-{}", name.split(' ').next().unwrap_or(name)));
        let Some(w) = requests::wrk(&format!("{}/api/v1/me", svc.base), &[format!("Authorization: Bearer {key}")], 10)
        else {
            println!("skipped: wrk is not installed (apt-get install wrk)");
            break;
        };
        let per_request = 1e6 / w.rps.max(1.0);
        let cost = off.map(|o| format!("; {:+.1} µs per request against off", per_request - o)).unwrap_or_default();
        println!(
            "GET /api/v1/me, limiter {name}: {:.0} req/s (non-2xx {}), p50 {:.2} ms p99 {:.2} ms{cost}",
            w.rps, w.non_2xx, w.p50_ms, w.p99_ms
        );
        off = off.or(Some(per_request));
    }
    // redis-server shares this machine's 2 cores: its own CPU time is part of the cost above.
    if let Some(ticks) = requests::cpu_ticks(redis.id()) {
        println!(
            "  redis-server CPU over the Redis run: {:.1} s (on another host in a deployment)",
            ticks as f64 / 100.0
        );
    }
    let _ = redis.kill();
    let _ = redis.wait();
}

/// Scenario `lists` on `db` (issue 11, point 4): seeds one organization of
/// [`lists::persons`] persons, then times 200 sequential requests of each [`lists::shapes`] after
/// 20 unmeasured ones, and prints each shape's plan ([`DbStore::explain_persons`]).
fn run_lists(bin: &str, backend: &str, db: &TestDb, rt: &tokio::runtime::Runtime) {
    let postgres = db.url.starts_with("postgres");
    let n = lists::persons(postgres);
    println!("\n== {backend}: lists at {n} persons ==");
    let svc = Service::start(bin, &db.url);
    let (key, org) = tenant_ids(&svc.base, "lists");
    let a = agent();
    let tags: Vec<String> = (0..10).map(|k| format!("team-{k}")).chain(["rare".to_string()]).collect();
    let (s, r) = call(
        &a,
        "POST",
        &format!("{}/api/v1/persons", svc.base),
        &key,
        Some(json!({"email": "tags@seed.example", "tags": tags})),
    );
    assert_eq!(s, 201, "{r}");
    let org = talent_domain::ids::OrgId(org.parse().expect("an organization id"));
    rt.block_on(lists::seed(&db.url, org, n)).expect("seed the persons");
    let store = DbStore::connect(&db.url, 1).expect("connect");
    let goal = if postgres { 50 } else { 100 };
    let seed = lists::Seed { org, tags: vec![], n, domain: "seed.example".into(), salt: 0, spacing: 1 };
    let mut slowest = Duration::ZERO;
    for shape in lists::shapes(&seed) {
        let url = format!("{}/api/v1/persons?{}", svc.base, shape.query);
        let (p50, p99, items) = lists::time_gets(&url, &key, 200);
        println!("{:<30} {items:>2} items: p50 {} p99 {} (goal p99 < {goal} ms)", shape.name, ms(p50), ms(p99));
        slowest = slowest.max(p99);
        match rt.block_on(store.explain_persons(shape.store)) {
            Ok(plan) => plan.iter().take(16).for_each(|l| println!("      {l}")),
            Err(e) => println!("      (explain failed: {e})"),
        }
    }
    let what = format!("lists at {n} persons, the slowest shape's p99");
    goals::below(backend, &what, millis(slowest), f64::from(goal), " ms");
    println!("RSS after the lists: {} MiB", svc.rss_kib() / 1024);
}

/// Installs, with Debian's `apt-get`, each `(program, package)` whose program is not on `PATH`
/// (or, for an absolute path, whose file does not exist), when it can (root, `apt-get`
/// present); otherwise the scenario that needs the program says it is skipped and what to
/// install.
pub(crate) fn install_missing(tools: &[(&str, &str)]) {
    let on_path = |p: &str| {
        if p.starts_with('/') {
            return std::path::Path::new(p).is_file();
        }
        std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
    };
    let missing: Vec<&str> = tools.iter().filter(|(p, _)| !on_path(p)).map(|(_, pkg)| *pkg).collect();
    if missing.is_empty() || !on_path("apt-get") {
        return;
    }
    println!("installing {} (apt-get)", missing.join(" "));
    let install = || {
        Command::new("apt-get")
            .args(["install", "-y", "-qq"])
            .args(&missing)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !install() {
        let _ = Command::new("apt-get").args(["update", "-qq"]).stdout(Stdio::null()).stderr(Stdio::null()).status();
        install();
    }
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let bin = args.next().ok_or_else(|| anyhow::anyhow!("usage: talent-bench TALENT_BINARY [sqlite|postgres|both]"))?;
    if bin == "reference" {
        // `talent-bench reference BASE KEY`: the requests scenario's bare handler alone, serving
        // the `/api/v1/me` and `/healthz` bodies of the Talent at BASE, until interrupted; for
        // paired runs by hand (docs/performance.md).
        let (Some(base), Some(key)) = (args.next(), args.next()) else {
            anyhow::bail!("usage: talent-bench reference TALENT_BASE_URL API_KEY");
        };
        let a = agent();
        let body = |path: &str| -> anyhow::Result<String> {
            let mut r = a.get(format!("{base}{path}")).header("Authorization", format!("Bearer {key}")).call()?;
            let text = r.body_mut().read_to_string()?;
            anyhow::ensure!(r.status() == 200, "GET {base}{path} answered {}: {text}", r.status());
            Ok(text)
        };
        let (me, health) = (body("/api/v1/me")?, body("/healthz")?);
        println!("Listening on {}", requests::reference(me, health));
        loop {
            std::thread::park();
        }
    }
    let which = args.next().unwrap_or_else(|| "both".into());
    if which == "chaos" {
        let quick = args.next().as_deref() == Some("--quick");
        if !chaos::run(&bin, quick) {
            std::process::exit(1);
        }
        return Ok(());
    }
    let scenarios = std::env::var("BENCH_SCENARIOS")
        .unwrap_or_else(|_| "webhooks,requests,limiter,lists,matches,connectors,reports".into());
    install_missing(&[("wrk", "wrk"), ("redis-server", "redis-server")]);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    println!("talent-bench: {} persons, {CLIENTS} clients, release binary {bin}", persons());
    let on = |name: &str| scenarios.contains(name);
    type Fresh<'r> = Box<dyn Fn() -> anyhow::Result<TestDb> + 'r>;
    let mut backends: Vec<(&str, Fresh<'_>)> = Vec::new();
    if which == "sqlite" || which == "both" {
        let dir = std::env::temp_dir().join("talent-bench");
        std::fs::create_dir_all(&dir)?;
        backends.push(("SQLite", Box::new(move || Ok(TestDb::sqlite(&dir)))));
    }
    if which == "postgres" || which == "both" {
        let admin = std::env::var("TEST_DATABASE_URL")
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".into());
        let rt = &rt;
        backends.push((
            "PostgreSQL",
            Box::new(move || rt.block_on(TestDb::postgres(&admin)).map_err(|e| anyhow::anyhow!("{e}"))),
        ));
    }
    for (backend, fresh) in &backends {
        // The webhook, request and limiter scenarios share one database; lists and matches each
        // seed a fresh one.
        let db = fresh()?;
        if on("webhooks") {
            settle();
            webhooks::run(&bin, backend, &db);
        }
        if on("requests") || on("imports") {
            settle();
            run_requests(&bin, backend, &db, !on("requests"));
        }
        if on("limiter") {
            settle();
            run_limiter(&bin, backend, &db);
        }
        if on("connectors") {
            settle();
            connectors::run(&bin, backend, &db);
        }
        if on("reports") {
            settle();
            results::run_reports(&bin, backend, &db);
        }
        rt.block_on(db.drop_db()).map_err(|e| anyhow::anyhow!("{e}"))?;
        if on("lists") {
            let db = fresh()?;
            settle();
            run_lists(&bin, backend, &db, &rt);
            rt.block_on(db.drop_db()).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        if on("matches") {
            let db = fresh()?;
            settle();
            results::run_matches(&bin, backend, &db);
            rt.block_on(db.drop_db()).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
    }
    if which == "postgres" || which == "both" {
        if on("instances") {
            let admin = std::env::var("TEST_DATABASE_URL")
                .ok()
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".into());
            let db = rt.block_on(TestDb::postgres(&admin)).map_err(|e| anyhow::anyhow!("{e}"))?;
            settle();
            instances::run(&bin, &db);
            rt.block_on(db.drop_db()).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        if on("scale") {
            settle();
            scale::run(&bin, &rt);
        }
    }
    goals::print();
    Ok(())
}
