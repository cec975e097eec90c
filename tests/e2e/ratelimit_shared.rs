//! Rate limits across instances (issue 17, T119): two instances on one PostgreSQL database sharing
//! one Redis grant a key its published budget, within 2 %; without Redis each grants its own (about
//! twice); Redis killed and started again during traffic never fails a request.
use super::webhook_resilience::{agent, call, db_for, drop_db, start_with, Instance};
use serde_json::json;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

const ADMIN: &str = "adm_shared_limits_7c13165e16a37ed48902deadb48055c042bb1335325555eb";
/// The key's budget: requests per minute (the organization's is far above it).
const BUDGET: u32 = 600;

struct Redis {
    child: Child,
    port: u16,
}

impl Redis {
    fn start(port: u16) -> Option<Redis> {
        let mut child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let t = Instant::now();
        // Ready once the server answering on the port is this one, not another test's.
        let pid = format!("process_id:{}\r", child.id());
        let answers = || {
            Command::new("redis-cli")
                .args(["-p", &port.to_string(), "INFO", "server"])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(&pid))
        };
        while !answers() {
            assert!(child.try_wait().unwrap().is_none(), "redis-server exited: port {port} is taken");
            assert!(t.elapsed() < Duration::from_secs(10), "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Redis { child, port })
    }
    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn instances(db: &str, store: Option<&str>) -> (Instance, Instance) {
    let plans = format!(
        r#"[{{"id":"shared","apiAccess":true,"personLimit":100,"profileLimit":5,"orgPerMinute":1000000,"keyPerMinute":{BUDGET},"orgOnlyPerMinute":1000000}}]"#
    );
    let mut env = vec![("TALENT_RATE_LIMIT_MODE", "per-key"), ("TALENT_PLANS", plans.as_str())];
    if let Some(url) = store {
        env.push(("TALENT_RATE_LIMIT_STORE", url));
    }
    (start_with(db, ADMIN, &env), start_with(db, ADMIN, &env))
}

/// A key of a new organization on the plan `shared`.
fn key(base: &str) -> String {
    let a = agent();
    let (s, o) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/organizations"),
        ADMIN,
        Some(
            json!({"companyName": "Shared", "email": "hr@shared.example", "plan": "shared", "subscriptionStatus": "active"}),
        ),
    );
    assert_eq!(s, 201, "{o}");
    let org = o["id"].as_str().unwrap();
    let (_, u) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/organizations/{org}/users"),
        ADMIN,
        Some(json!({"email": "a@shared.example", "role": "admin"})),
    );
    let (_, k) = call(
        &a,
        "POST",
        &format!("{base}/admin/v1/users/{}/api-keys", u["id"].as_str().unwrap()),
        ADMIN,
        Some(json!({"scopes": ["persons:read"]})),
    );
    k["key"].as_str().unwrap().to_string()
}

/// `n` requests of `GET /api/v1/me` with `key`, spread over both instances by 8 threads; returns
/// (accepted, the time they took). Every answer must be 200 or 429.
fn burst(a: &Instance, b: &Instance, key: &str, n: u32) -> (u32, Duration) {
    let accepted = AtomicU32::new(0);
    let sent = AtomicU32::new(0);
    let start = Instant::now();
    std::thread::scope(|s| {
        for t in 0..8 {
            let (accepted, sent) = (&accepted, &sent);
            let base = if t % 2 == 0 { a.base.clone() } else { b.base.clone() };
            s.spawn(move || {
                let ag = agent();
                while sent.fetch_add(1, Ordering::SeqCst) < n {
                    let (status, body) = call(&ag, "GET", &format!("{base}/api/v1/me"), key, None);
                    assert!(status == 200 || status == 429, "{status} {body}");
                    if status == 200 {
                        accepted.fetch_add(1, Ordering::SeqCst);
                    }
                }
            });
        }
    });
    (accepted.into_inner(), start.elapsed())
}

/// The budget published for a run of `took`: the burst and what refills meanwhile.
fn published(took: Duration) -> f64 {
    f64::from(BUDGET) * (1.0 + took.as_secs_f64() / 60.0)
}

/// `talent_rate_limit_store_up` and `talent_rate_limit_store_errors_total` from `GET /metrics` of
/// `instance` (0 for a series not yet recorded).
fn store_metrics(instance: &Instance) -> (u64, u64) {
    let text = agent()
        .get(&format!("{}/metrics", instance.base))
        .header("Authorization", &format!("Bearer {ADMIN}"))
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    let value = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
            .map_or(0, |v| v.trim().parse::<f64>().unwrap() as u64)
    };
    (value("talent_rate_limit_store_up"), value("talent_rate_limit_store_errors_total"))
}

#[test]
fn postgres_two_instances_sharing_redis_grant_the_published_budget_and_survive_its_restart() {
    let Some(db) = db_for("postgres") else { return eprintln!("skipped: TEST_DATABASE_URL unset") };
    let port = free_port();
    let Some(redis) = Redis::start(port) else { return eprintln!("skipped: no redis-server") };
    let url = format!("redis://127.0.0.1:{}", redis.port);

    // Shared: the two instances together grant one budget.
    let (a, b) = instances(&db.url, Some(&url));
    let k = key(&a.base);
    assert_eq!(store_metrics(&a), (1, 0), "Redis answers: up, no errors");
    let (accepted, took) = burst(&a, &b, &k, 3 * BUDGET);
    let budget = published(took);
    eprintln!("shared: {accepted} accepted in {took:?}, published {budget:.1}");
    assert!((f64::from(accepted) - budget).abs() <= 0.02 * budget, "{accepted} accepted, published {budget:.1}");

    // Redis killed during traffic: every request is still answered (each instance decides on its
    // own meanwhile); started again, the budget is shared again.
    let k2 = key(&a.base);
    let killer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        redis.stop();
    });
    let (_, _) = burst(&a, &b, &k2, 2 * BUDGET);
    killer.join().unwrap();
    let (during, _) = burst(&a, &b, &key(&a.base), 200);
    assert_eq!(during, 200, "Redis away: the local budgets answer");
    let (up, errors) = store_metrics(&a);
    assert!(up == 0 && errors > 0, "Redis away: down and counted ({up}, {errors})");
    let _again = Redis::start(port).unwrap();
    std::thread::sleep(Duration::from_millis(1_200));
    let k3 = key(&a.base);
    let (accepted, took) = burst(&a, &b, &k3, 3 * BUDGET);
    let budget = published(took);
    eprintln!("after the restart: {accepted} accepted in {took:?}, published {budget:.1}");
    assert_eq!(store_metrics(&a).0, 1, "Redis back: up again");
    assert!((f64::from(accepted) - budget).abs() <= 0.02 * budget, "{accepted} accepted, published {budget:.1}");
    drop((a, b));

    // Without Redis each instance grants its own budget: about twice.
    let (c, d) = instances(&db.url, None);
    let k4 = key(&c.base);
    let (accepted, took) = burst(&c, &d, &k4, 4 * BUDGET);
    let budget = published(took);
    eprintln!("not shared: {accepted} accepted in {took:?}, published {budget:.1}");
    assert!(
        f64::from(accepted) > 1.8 * budget && f64::from(accepted) < 2.2 * budget,
        "{accepted} accepted, published {budget:.1}"
    );
    drop((c, d));
    drop_db(db);
}
