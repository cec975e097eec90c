//! The delivery engine over the real binary (issue 10; decisions T59-T61): attempts run
//! concurrently within the per-endpoint and per-organization caps, a hanging tenant does not hold
//! up another, a commit wakes the engine in-process
//! and (PostgreSQL) on another instance, and the circuit breaker backs off a failing endpoint.
//!
//! None of these tests measures speed (that is `make bench`): each waits for an outcome with a
//! generous bound that the old one-lane worker could not meet (a poll of 60 s, hanging attempts of
//! 10 s each in one lane).

use super::webhook_resilience::{agent, call, db_for, drop_db, start_with, Instance, Receiver};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A receiver that holds every request until `hold` requests are open at once (or `most` passes),
/// then answers 200 to all; it records the most requests it saw open at once.
struct Holding {
    url: String,
    state: Arc<Mutex<(usize, usize, usize)>>, // (open now, most open at once, answered)
}

impl Holding {
    fn start(hold: usize) -> Holding {
        Holding::with(hold, Duration::from_secs(5))
    }

    /// Holds every request for `d`, whatever else is open.
    fn pausing(d: Duration) -> Holding {
        Holding::with(usize::MAX, d)
    }

    fn with(hold: usize, most: Duration) -> Holding {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state: Arc<Mutex<(usize, usize, usize)>> = Arc::default();
        let st = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let st = st.clone();
                std::thread::spawn(move || {
                    if read_request(&mut stream).is_none() {
                        return;
                    }
                    {
                        let mut s = st.lock().unwrap();
                        s.0 += 1;
                        s.1 = s.1.max(s.0);
                    }
                    let start = Instant::now();
                    while st.lock().unwrap().1 < hold && start.elapsed() < most {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    // Closed before the answer is written: the sender may start its next request
                    // as soon as it reads the answer, before this thread runs again.
                    st.lock().unwrap().0 -= 1;
                    let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
                    st.lock().unwrap().2 += 1;
                });
            }
        });
        Holding { url, state }
    }
    fn most_at_once(&self) -> usize {
        self.state.lock().unwrap().1
    }
    fn answered(&self) -> usize {
        self.state.lock().unwrap().2
    }
}

/// Reads one request (headers and a Content-Length body); `None` if the peer went away.
fn read_request(stream: &mut std::net::TcpStream) -> Option<Vec<u8>> {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut len = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                len = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0u8; len];
    reader.read_exact(&mut body).ok()?;
    Some(body)
}

/// A host that accepts connections and never answers (each attempt hangs until its timeout).
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

/// An organization with a key (persons:write, webhooks:manage) and endpoints on `urls`.
fn tenant(base: &str, admin: &str, name: &str, urls: &[String]) -> (String, Vec<String>) {
    let a = agent();
    let (s, o) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/organizations"),
        admin,
        Some(json!({"companyName": name, "email": format!("hr@{name}.example"), "plan": "business",
                    "subscriptionStatus": "active"})),
    );
    assert_eq!(s, 201, "{o}");
    let org = o["id"].as_str().unwrap();
    let (_, u) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/organizations/{org}/users"),
        admin,
        Some(json!({"email": format!("admin@{name}.example"), "role": "admin"})),
    );
    let uid = u["id"].as_str().unwrap();
    let (_, k) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/users/{uid}/api-keys"),
        admin,
        Some(json!({"scopes": ["persons:write", "webhooks:manage"]})),
    );
    let key = k["key"].as_str().unwrap().to_string();
    let hooks = urls
        .iter()
        .map(|url| {
            let (s, w) = call(
                &a,
                "POST",
                &format!("{base}/api/v1/webhooks"),
                &key,
                Some(json!({"url": url, "events": ["person.created"]})),
            );
            assert_eq!(s, 201, "{w}");
            w["id"].as_str().unwrap().to_string()
        })
        .collect();
    (key, hooks)
}

fn import(base: &str, key: &str, email: &str) {
    let (s, r) = call(&agent(), "POST", &format!("{base}/api/v1/persons"), key, Some(json!({ "email": email })));
    assert_eq!(s, 201, "{r}");
}

fn deliveries(base: &str, key: &str, hook: &str) -> Vec<Value> {
    let (s, r) = call(&agent(), "GET", &format!("{base}/api/v1/webhooks/{hook}/deliveries"), key, None);
    assert_eq!(s, 200, "{r}");
    r["data"].as_array().cloned().unwrap_or_default()
}

fn until(secs: u64, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    f()
}

const ADMIN: &str = "adm_engine_tests_e3f112ee24dd066f78ba322ed4439ea45a8e618ddadecc48";

/// Runs `body(instance)` on `kind` with the engine's settings in `env`.
fn with_instance(kind: &str, env: &[(&str, &str)], body: impl FnOnce(&Instance)) {
    let Some(db) = db_for(kind) else {
        eprintln!("skipped: TEST_DATABASE_URL unset");
        return;
    };
    let inst = start_with(&db.url, ADMIN, env);
    body(&inst);
    drop(inst);
    drop_db(db);
}

/// T60: attempts to different endpoints are in flight at once (the old worker sent one at a time).
fn attempts_for_different_endpoints_run_concurrently(kind: &str) {
    with_instance(kind, &[], |inst| {
        let rx = Holding::start(4);
        let urls: Vec<String> = (0..4).map(|i| format!("{}/e{i}", rx.url)).collect();
        let (key, _) = tenant(&inst.base, ADMIN, "conc", &urls);
        import(&inst.base, &key, "p@conc.example");
        assert!(until(30, || rx.answered() >= 4), "4 deliveries answered");
        assert_eq!(rx.most_at_once(), 4, "the receiver held 4 requests at once");
    });
}

#[test]
fn sqlite_attempts_for_different_endpoints_run_concurrently() {
    attempts_for_different_endpoints_run_concurrently("sqlite");
}

#[test]
fn postgres_attempts_for_different_endpoints_run_concurrently() {
    attempts_for_different_endpoints_run_concurrently("postgres");
}

/// T60: the caps bound what is in flight, though the engine holds a second round claimed. Every
/// delivery is due before the endpoints are enabled, so the engine could send them all at once:
/// one endpoint with `TALENT_WEBHOOK_PER_ENDPOINT=3` still never sees more than 3 requests at
/// once, and an organization with 4 endpoints and `TALENT_WEBHOOK_PER_ORG=2` never more than 2.
fn the_caps_bound_the_attempts_in_flight(kind: &str) {
    let cases = [(3, 8, 1, 12), (8, 2, 4, 3)]; // (per endpoint, per organization, endpoints, persons)
    for (per_endpoint, per_org, n_endpoints, persons) in cases {
        let (pe, po) = (per_endpoint.to_string(), per_org.to_string());
        let env = [("TALENT_WEBHOOK_PER_ENDPOINT", pe.as_str()), ("TALENT_WEBHOOK_PER_ORG", po.as_str())];
        with_instance(kind, &env, |inst| {
            let cap = per_endpoint.min(per_org);
            let rx = Holding::pausing(Duration::from_millis(300));
            let urls: Vec<String> = (0..n_endpoints).map(|i| format!("{}/e{i}", rx.url)).collect();
            let (key, hooks) = tenant(&inst.base, ADMIN, "caps", &urls);
            for h in &hooks {
                enable(&inst.base, &key, h, false);
            }
            for i in 0..persons {
                import(&inst.base, &key, &format!("p{i}@caps.example"));
            }
            for h in &hooks {
                enable(&inst.base, &key, h, true);
            }
            let total = n_endpoints * persons;
            assert!(until(60, || rx.answered() >= total), "{total} deliveries answered");
            assert_eq!(rx.most_at_once(), cap, "at most the cap ({cap}) in flight at once");
        });
    }
}

fn enable(base: &str, key: &str, hook: &str, on: bool) {
    let (s, r) =
        call(&agent(), "PATCH", &format!("{base}/api/v1/webhooks/{hook}"), key, Some(json!({ "enabled": on })));
    assert_eq!(s, 200, "{r}");
}

#[test]
fn sqlite_the_caps_bound_the_attempts_in_flight() {
    the_caps_bound_the_attempts_in_flight("sqlite");
}

#[test]
fn postgres_the_caps_bound_the_attempts_in_flight() {
    the_caps_bound_the_attempts_in_flight("postgres");
}

/// T60: an organization with 10 endpoints on a host that never answers and 50 deliveries for
/// them does not hold up another organization's delivery (issue 10: it took minutes before).
fn a_hanging_tenant_does_not_hold_up_another_organization(kind: &str) {
    with_instance(kind, &[], |inst| {
        let hang = hanging();
        let urls: Vec<String> = (0..10).map(|i| format!("{hang}/{i}")).collect();
        let (slow_key, _) = tenant(&inst.base, ADMIN, "slow", &urls);
        for i in 0..5 {
            import(&inst.base, &slow_key, &format!("p{i}@slow.example"));
        }
        std::thread::sleep(Duration::from_millis(500)); // its attempts now hold their lanes
        let fast = Receiver::start();
        let (key, _) = tenant(&inst.base, ADMIN, "fast", std::slice::from_ref(&fast.url));
        let t = Instant::now();
        import(&inst.base, &key, "x@fast.example");
        assert!(until(8, || fast.distinct() >= 1), "the other organization's event arrives while 16 attempts hang");
        eprintln!("delivered {:?} after the event, beside a hanging tenant", t.elapsed());
    });
}

#[test]
fn sqlite_a_hanging_tenant_does_not_hold_up_another_organization() {
    a_hanging_tenant_does_not_hold_up_another_organization("sqlite");
}

#[test]
fn postgres_a_hanging_tenant_does_not_hold_up_another_organization() {
    a_hanging_tenant_does_not_hold_up_another_organization("postgres");
}

/// T60: with the safety-net poll at 60 s, an event still goes out at once: the commit wakes the
/// engine of its own instance.
fn a_commit_wakes_the_engine_in_process(kind: &str) {
    with_instance(kind, &[("TALENT_WEBHOOK_POLL_MS", "60000")], |inst| {
        let rx = Receiver::start();
        let (key, _) = tenant(&inst.base, ADMIN, "wake", std::slice::from_ref(&rx.url));
        std::thread::sleep(Duration::from_millis(300));
        import(&inst.base, &key, "p@wake.example");
        assert!(until(10, || rx.distinct() >= 1), "delivered long before the next poll");
    });
}

#[test]
fn sqlite_a_commit_wakes_the_engine_in_process() {
    a_commit_wakes_the_engine_in_process("sqlite");
}

#[test]
fn postgres_a_commit_wakes_the_engine_in_process() {
    a_commit_wakes_the_engine_in_process("postgres");
}

/// T60: on PostgreSQL a commit on one instance wakes the engine of another (`LISTEN/NOTIFY`):
/// instance A has no engine, B polls only every 60 s, and A's event still arrives at once.
#[test]
fn a_wake_up_reaches_a_second_instance_on_postgres() {
    let Some(db) = db_for("postgres") else {
        eprintln!("skipped: TEST_DATABASE_URL unset");
        return;
    };
    let a = start_with(&db.url, ADMIN, &[("TALENT_WEBHOOK_CONCURRENCY", "0")]);
    let b = start_with(&db.url, ADMIN, &[("TALENT_WEBHOOK_POLL_MS", "60000")]);
    let rx = Receiver::start();
    let (key, _) = tenant(&a.base, ADMIN, "notify", std::slice::from_ref(&rx.url));
    std::thread::sleep(Duration::from_millis(500)); // B's start-up claim is long done
    for i in 0..3 {
        import(&a.base, &key, &format!("p{i}@notify.example"));
    }
    assert!(until(10, || rx.distinct() >= 3), "B delivered A's events: {} of 3", rx.distinct());
    drop(a);
    drop(b);
    drop_db(db);
}

/// T59: an endpoint whose attempts keep failing is backed off: after 5 failed attempts in a row
/// its next delivery waits (no attempt is spent) until the breaker's 15 s (service clock) pass.
fn the_breaker_backs_off_a_failing_endpoint(kind: &str) {
    with_instance(kind, &[("TALENT_SANDBOX", "1")], |inst| {
        // A receiver that answers 503 at once, and counts.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/down", listener.local_addr().unwrap());
        let hits = Arc::new(Mutex::new(0usize));
        let h = hits.clone();
        std::thread::spawn(move || {
            for mut s in listener.incoming().flatten() {
                if read_request(&mut s).is_some() {
                    *h.lock().unwrap() += 1;
                    let _ = s.write_all(
                        b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                    );
                }
            }
        });
        let (key, hooks) = tenant(&inst.base, ADMIN, "breaker", std::slice::from_ref(&url));
        for i in 0..5 {
            import(&inst.base, &key, &format!("p{i}@breaker.example"));
        }
        assert!(until(20, || *hits.lock().unwrap() >= 5), "5 failed attempts");
        // Recorded (the breaker opens with the 5th outcome).
        assert!(until(20, || deliveries(&inst.base, &key, &hooks[0]).iter().all(|d| d["attempts"] == 1)));
        import(&inst.base, &key, "held@breaker.example");
        // A whole delivery pass (the engine's claim, run by the clock call before it answers)
        // leaves it alone.
        let (s, r) =
            call(&agent(), "POST", &format!("{}/admin/v1/clock", inst.base), ADMIN, Some(json!({"advanceSeconds": 0})));
        assert_eq!(s, 200, "{r}");
        assert_eq!(r["deliveryAttempts"], 0, "{r}");
        let held = deliveries(&inst.base, &key, &hooks[0]);
        let newest = &held[0];
        assert_eq!(newest["attempts"], 0, "held while the breaker is open: {newest}");
        assert_eq!(*hits.lock().unwrap(), 5, "no attempt reached the endpoint");
        // 15 s later (sandbox clock) the held delivery is tried (and fails again).
        let (s, r) = call(
            &agent(),
            "POST",
            &format!("{}/admin/v1/clock", inst.base),
            ADMIN,
            Some(json!({"advanceSeconds": 16})),
        );
        assert_eq!(s, 200, "{r}");
        assert!(until(20, || *hits.lock().unwrap() >= 6), "tried again once the breaker let it through");
    });
}

#[test]
fn sqlite_the_breaker_backs_off_a_failing_endpoint() {
    the_breaker_backs_off_a_failing_endpoint("sqlite");
}

#[test]
fn postgres_the_breaker_backs_off_a_failing_endpoint() {
    the_breaker_backs_off_a_failing_endpoint("postgres");
}
