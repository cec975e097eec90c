//! The Redis limiter against a real `redis-server` made slow with `DEBUG SLEEP` (T208): one slow
//! answer decides only the request it delayed, a run of them (or a dead server) lets the local
//! limiter decide for a while. Skipped, with a message, where `redis-server` is not installed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::zombie_processes)]

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use talent_domain::ports::{RateLimiter, RateSubject};
use talent_domain::values::Plan;
use talent_ratelimit::redis_store::{FAILURES_IN_A_ROW, RETRY_AFTER, TIMEOUT};
use talent_ratelimit::{GovernorRateLimiter, Mode, RedisRateLimiter};

struct Server {
    child: Child,
    port: u16,
}

impl Server {
    fn start() -> Option<Server> {
        let port = std::net::TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .args(["--enable-debug-command", "yes"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let t = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(t.elapsed() < Duration::from_secs(10), "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(Server { child, port })
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

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn plan() -> Plan {
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

async fn allowed(l: &RedisRateLimiter, plan: &Plan) -> bool {
    let org = "00000000-0000-0000-0000-000000000001".parse().unwrap();
    let key = "00000000-0000-0000-0001-000000000001".parse().unwrap();
    l.check(RateSubject::Key { org, key, plan }).await.expect("limiting is on").allowed
}

/// A limiter on `server` and a key whose budget of 10 per minute is spent in Redis.
async fn spent(server: &Server) -> (RedisRateLimiter, Plan) {
    let local = Arc::new(GovernorRateLimiter::new(Mode::PerKey, 60));
    let l = RedisRateLimiter::new(&format!("redis://127.0.0.1:{}", server.port), Mode::PerKey, 60, local).unwrap();
    let p = plan();
    for _ in 0..10 {
        assert!(allowed(&l, &p).await);
    }
    assert!(!allowed(&l, &p).await, "the shared budget is spent");
    (l, p)
}

#[tokio::test]
async fn one_slow_answer_decides_only_the_request_it_delayed() {
    let Some(server) = Server::start() else { return eprintln!("skipped: no redis-server") };
    let (l, p) = spent(&server).await;
    let mut sleeper = server.sleep(TIMEOUT * 2);
    // Redis does not answer in time: the local limiter, which has granted nothing, decides.
    assert!(allowed(&l, &p).await, "the delayed request is decided locally");
    sleeper.wait().unwrap();
    // Redis answers again: the next requests are its to decide, and the budget is spent.
    for _ in 0..5 {
        assert!(!allowed(&l, &p).await, "after one slow answer the shared budget decides again");
    }
}

#[tokio::test]
async fn slow_answers_in_a_row_let_the_local_limiter_decide_for_a_while() {
    let Some(server) = Server::start() else { return eprintln!("skipped: no redis-server") };
    let (l, p) = spent(&server).await;
    let mut sleeper = server.sleep(TIMEOUT * (FAILURES_IN_A_ROW + 1));
    for _ in 0..FAILURES_IN_A_ROW {
        assert!(allowed(&l, &p).await, "a delayed request is decided locally");
    }
    let opened = Instant::now();
    sleeper.wait().unwrap();
    assert!(opened.elapsed() < RETRY_AFTER / 2, "this machine was too slow for the test's timing");
    // Redis answers again, but counts as away until RETRY_AFTER has passed.
    assert!(allowed(&l, &p).await, "the local limiter still decides");
    tokio::time::sleep(RETRY_AFTER).await;
    assert!(!allowed(&l, &p).await, "then the shared budget decides again");
}

#[tokio::test]
async fn a_stopped_server_lets_the_local_limiter_decide_at_once() {
    let Some(server) = Server::start() else { return eprintln!("skipped: no redis-server") };
    let (l, p) = spent(&server).await;
    drop(server);
    for _ in 0..5 {
        assert!(allowed(&l, &p).await, "the local limiter decides while the server is gone");
    }
}
