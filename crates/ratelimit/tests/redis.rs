//! The Redis rate limiter (issue 17, T119) against a real `redis-server` started by each test on a
//! free port: the same decisions and header values as governor's, one budget shared by two
//! limiters (two instances), and fail-open while Redis is away, with recovery; one slow answer
//! (`DEBUG SLEEP`) decides only the request it delayed, a run of them or a stopped server lets the
//! local limiter decide for a while (T208).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::zombie_processes)]

use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use talent_domain::ids::{ApiKeyId, OrgId};
use talent_domain::ports::{RateLimiter, RateSubject};
use talent_domain::values::Plan;
use talent_ratelimit::{redis_store, GovernorRateLimiter, Mode, RedisRateLimiter};

/// A `redis-server` of the test's own; killed on drop.
struct Redis {
    child: Child,
    port: u16,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Whether the server answering on `port` is the process `pid` (not another test's server).
fn answers_as(port: u16, pid: u32) -> bool {
    Command::new("redis-cli")
        .args(["-p", &port.to_string(), "INFO", "server"])
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains(&format!("process_id:{pid}\r")))
}

impl Redis {
    /// Starts one on a free port; `None` when redis-server is not installed. Another test's server
    /// may take the port between `free_port` and the start: then it tries another.
    fn start() -> Option<Redis> {
        for _ in 0..5 {
            match Redis::spawn(free_port())? {
                Ok(redis) => return Some(redis),
                Err(port) => eprintln!("port {port} was taken; trying another"),
            }
        }
        panic!("redis-server found no free port in five tries")
    }

    /// Starts one on `port`; `None` when redis-server is not installed.
    fn start_on(port: u16) -> Option<Redis> {
        Some(Redis::spawn(port)?.unwrap_or_else(|port| panic!("port {port} is taken")))
    }

    /// `Err(port)` when the server exited because the port was taken. Ready once the server that
    /// answers on the port is this one (`INFO server`'s `process_id`), not another test's.
    fn spawn(port: u16) -> Option<Result<Redis, u16>> {
        let mut child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            // DEBUG SLEEP makes the server answer late (the slow-answer tests below).
            .args(["--enable-debug-command", "yes"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let started = Instant::now();
        while !answers_as(port, child.id()) {
            if child.try_wait().unwrap().is_some() {
                return Some(Err(port));
            }
            assert!(started.elapsed() < Duration::from_secs(10), "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Ok(Redis { child, port }))
    }
    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Blocks the server for `d` (`DEBUG SLEEP`) and returns once it has stopped answering, with
    /// the `redis-cli` that waits for the sleep's end.
    fn sleep(&self, d: Duration) -> Child {
        use std::io::{Read, Write};
        let child = Command::new("redis-cli")
            .args(["-p", &self.port.to_string(), "DEBUG", "SLEEP", &format!("{:.3}", d.as_secs_f64())])
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-cli runs");
        let t = Instant::now();
        loop {
            assert!(t.elapsed() < Duration::from_secs(5), "redis-server did not go to sleep");
            let mut c = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
            c.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
            c.write_all(b"PING\r\n").unwrap();
            if c.read(&mut [0u8; 16]).is_err() {
                return child;
            }
        }
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn plan(org_rpm: u32, key_rpm: u32) -> Plan {
    Plan {
        id: "t".into(),
        api_access: true,
        person_limit: 1,
        profile_limit: 1,
        org_rpm,
        key_rpm,
        org_only_rpm: org_rpm,
    }
}

fn limiter(url: &str) -> RedisRateLimiter {
    RedisRateLimiter::new(url, Mode::PerKey, 60, Arc::new(GovernorRateLimiter::new(Mode::PerKey, 60))).unwrap()
}

fn ids() -> (OrgId, ApiKeyId) {
    (OrgId(uuid_v4()), ApiKeyId(uuid_v4()))
}

fn uuid_v4() -> uuid::Uuid {
    uuid::Uuid::new_v4()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_decisions_and_headers_are_governors() {
    let Some(redis) = Redis::start() else { return eprintln!("skipped: no redis-server") };
    let shared = limiter(&redis.url());
    let local = GovernorRateLimiter::new(Mode::PerKey, 60);
    let p = plan(100, 5);
    let (org, key) = ids();
    for i in 0..7 {
        let s = shared.check(RateSubject::Key { org, key, plan: &p }).await.unwrap();
        let g = local.check_now(RateSubject::Key { org, key, plan: &p }).unwrap();
        assert_eq!((s.allowed, s.limit, s.remaining), (g.allowed, g.limit, g.remaining), "request {i}");
        assert!((s.reset_unix - g.reset_unix).abs() <= 1, "request {i}: {} vs {}", s.reset_unix, g.reset_unix);
        assert_eq!(s.retry_after_secs.is_some(), g.retry_after_secs.is_some(), "request {i}");
        if let (Some(a), Some(b)) = (s.retry_after_secs, g.retry_after_secs) {
            assert!(a.abs_diff(b) <= 1, "request {i}: retry after {a} vs {b}");
        }
    }
    // The address budget, and `blocked` once it is spent.
    let ip = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));
    assert!(shared.blocked(ip).await.is_none());
    for _ in 0..60 {
        assert!(shared.check(RateSubject::Ip(ip)).await.unwrap().allowed);
    }
    let refused = shared.check(RateSubject::Ip(ip)).await.unwrap();
    assert!(!refused.allowed && refused.retry_after_secs == Some(1), "{refused:?}");
    assert!(shared.blocked(ip).await.is_some_and(|d| !d.allowed));
    // D53: the address's budget of failed admin tokens is its own.
    assert!(shared.admin_blocked(ip).await.is_none(), "failed keys do not block the admin API");
    for _ in 0..60 {
        assert!(shared.check(RateSubject::AdminIp(ip)).await.unwrap().allowed);
    }
    assert!(!shared.check(RateSubject::AdminIp(ip)).await.unwrap().allowed);
    assert!(shared.admin_blocked(ip).await.is_some_and(|d| !d.allowed && d.limit == 60));
    let other = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 8));
    assert!(shared.admin_blocked(other).await.is_none());
    assert!(shared.check(RateSubject::Ip(other)).await.unwrap().allowed);
    let d = shared.check(RateSubject::AdminIp(other)).await.unwrap();
    assert_eq!((d.allowed, d.remaining), (true, 59), "a failed key took nothing from the admin budget");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_share_one_budget_and_a_refused_key_spares_the_organization() {
    let Some(redis) = Redis::start() else { return eprintln!("skipped: no redis-server") };
    let (a, b) = (limiter(&redis.url()), limiter(&redis.url()));
    let p = plan(8, 5);
    let (org, key) = ids();
    let mut allowed = 0;
    for i in 0..10 {
        let l = if i % 2 == 0 { &a } else { &b };
        allowed += u32::from(l.check(RateSubject::Key { org, key, plan: &p }).await.unwrap().allowed);
    }
    assert_eq!(allowed, 5, "one key budget of 5 for both instances");
    // The organization's budget of 8 lost only the 5 allowed requests: another key gets 3.
    let other = ApiKeyId(uuid_v4());
    let mut more = 0;
    for _ in 0..5 {
        more += u32::from(a.check(RateSubject::Key { org, key: other, plan: &p }).await.unwrap().allowed);
    }
    assert_eq!(more, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_redis_the_local_limiter_decides_and_redis_is_used_again_once_back() {
    if Command::new("redis-server").arg("--version").output().is_err() {
        return eprintln!("skipped: no redis-server");
    }
    let port = free_port();
    let url = format!("redis://127.0.0.1:{port}");
    let (a, b) = (limiter(&url), limiter(&url));
    let p = plan(100, 3);
    let (org, key) = ids();
    let started = Instant::now();
    // Redis is away: each instance grants its own budget of 3, and answers at once.
    for l in [&a, &b] {
        for _ in 0..3 {
            assert!(l.check(RateSubject::Key { org, key, plan: &p }).await.unwrap().allowed);
        }
        assert!(!l.check(RateSubject::Key { org, key, plan: &p }).await.unwrap().allowed);
    }
    assert!(started.elapsed() < Duration::from_secs(2), "fail open is fast: {:?}", started.elapsed());
    // Redis comes (back): after the retry pause the budget is shared again.
    let _redis = Redis::start_on(port).unwrap();
    tokio::time::sleep(redis_store::RETRY_AFTER + Duration::from_millis(100)).await;
    let key2 = ApiKeyId(uuid_v4());
    let mut allowed = 0;
    for i in 0..6 {
        let l = if i % 2 == 0 { &a } else { &b };
        allowed += u32::from(l.check(RateSubject::Key { org, key: key2, plan: &p }).await.unwrap().allowed);
    }
    assert_eq!(allowed, 3, "shared again");
}

// One slow answer is not an outage (T208).

fn slow_plan() -> Plan {
    Plan {
        id: "t".into(),
        api_access: true,
        person_limit: 1,
        profile_limit: 1,
        org_rpm: 1_000,
        key_rpm: 10,
        org_only_rpm: 1_000,
    }
}

async fn allowed_key(l: &RedisRateLimiter, plan: &Plan) -> bool {
    let org = "00000000-0000-0000-0000-000000000001".parse().unwrap();
    let key = "00000000-0000-0000-0001-000000000001".parse().unwrap();
    l.check(RateSubject::Key { org, key, plan }).await.expect("limiting is on").allowed
}

/// A limiter on `server` and a key whose budget of 10 per minute is spent in Redis.
async fn spent(server: &Redis) -> (RedisRateLimiter, Plan) {
    let local = Arc::new(GovernorRateLimiter::new(Mode::PerKey, 60));
    let l = RedisRateLimiter::new(&format!("redis://127.0.0.1:{}", server.port), Mode::PerKey, 60, local).unwrap();
    let p = slow_plan();
    for _ in 0..10 {
        assert!(allowed_key(&l, &p).await);
    }
    assert!(!allowed_key(&l, &p).await, "the shared budget is spent");
    (l, p)
}

#[tokio::test]
async fn one_slow_answer_decides_only_the_request_it_delayed() {
    let Some(server) = Redis::start() else { return eprintln!("skipped: no redis-server") };
    let (l, p) = spent(&server).await;
    let mut sleeper = server.sleep(redis_store::TIMEOUT * 2);
    // Redis does not answer in time: the local limiter, which has granted nothing, decides.
    assert!(allowed_key(&l, &p).await, "the delayed request is decided locally");
    sleeper.wait().unwrap();
    // Redis answers again: the next requests are its to decide, and the budget is spent.
    for _ in 0..5 {
        assert!(!allowed_key(&l, &p).await, "after one slow answer the shared budget decides again");
    }
}

#[tokio::test]
async fn slow_answers_in_a_row_let_the_local_limiter_decide_for_a_while() {
    let Some(server) = Redis::start() else { return eprintln!("skipped: no redis-server") };
    let (l, p) = spent(&server).await;
    let mut sleeper = server.sleep(redis_store::TIMEOUT * (redis_store::FAILURES_IN_A_ROW + 1));
    for _ in 0..redis_store::FAILURES_IN_A_ROW {
        assert!(allowed_key(&l, &p).await, "a delayed request is decided locally");
    }
    let opened = Instant::now();
    sleeper.wait().unwrap();
    assert!(opened.elapsed() < redis_store::RETRY_AFTER / 2, "this machine was too slow for the test's timing");
    // Redis answers again, but counts as away until RETRY_AFTER has passed.
    assert!(allowed_key(&l, &p).await, "the local limiter still decides");
    tokio::time::sleep(redis_store::RETRY_AFTER).await;
    assert!(!allowed_key(&l, &p).await, "then the shared budget decides again");
}

#[tokio::test]
async fn a_stopped_server_lets_the_local_limiter_decide_at_once() {
    let Some(server) = Redis::start() else { return eprintln!("skipped: no redis-server") };
    let (l, p) = spent(&server).await;
    drop(server);
    for _ in 0..5 {
        assert!(allowed_key(&l, &p).await, "the local limiter decides while the server is gone");
    }
}
