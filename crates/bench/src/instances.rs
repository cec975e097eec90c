//! Scenario `instances` (issue 38, `docs/deployment.md`): what one instance and three instances
//! behind HAProxy serve on one PostgreSQL (the server of `TEST_DATABASE_URL`, as the requests
//! scenario) with the rate limiter's budgets kept in one Redis of the run's own, budgets far
//! above the load. For each of one instance reached directly, one behind HAProxy and three
//! behind HAProxy: `GET /api/v1/me` under `wrk -t2 -c64` for 10 s and imports under `wrk -t2
//! -c32` for 10 s. Everything shares this machine's cores, so three instances cannot serve more
//! than the cores allow: the figures show what the proxy and the shared stores cost, and where
//! the limit is.

use crate::chaos::{free_port, haproxy, redis};
use crate::{requests, tenant, Service};
use talent_store::testing::TestDb;

/// Runs the scenario against the release binary `bin` and the database `db`.
pub fn run(bin: &str, db: &TestDb) {
    println!("\n== PostgreSQL: one instance and three, behind HAProxy, one Redis ==");
    let redis_port = free_port();
    let Some(mut redis_child) = redis(redis_port) else {
        println!("skipped: redis-server is not installed (apt-get install redis-server)");
        return;
    };
    let store = format!("redis://127.0.0.1:{redis_port}");
    let dir = std::env::temp_dir().join(format!("talent-instances-{}", uuid::Uuid::new_v4().simple()));
    let _ = std::fs::create_dir_all(&dir);
    for n in [1usize, 3] {
        let ports: Vec<u16> = (0..n).map(|_| free_port()).collect();
        let instances: Vec<Service> = ports
            .iter()
            .map(|p| {
                let listen = format!("127.0.0.1:{p}");
                let env = [
                    ("TALENT_LISTEN", listen.as_str()),
                    ("TALENT_RATE_LIMIT_MODE", "per-key"),
                    ("TALENT_RATE_LIMIT_STORE", store.as_str()),
                ];
                Service::start_env(bin, &db.url, None, &env)
            })
            .collect();
        let proxy_port = free_port();
        let Some(mut proxy) = haproxy(proxy_port, &ports, &dir) else {
            println!("skipped: haproxy did not start");
            break;
        };
        let proxied = format!("http://127.0.0.1:{proxy_port}");
        let key = tenant(&proxied, &format!("instances-{n}"));
        let mut targets = vec![(format!("{n} behind HAProxy"), proxied.clone())];
        if n == 1 {
            targets.insert(0, ("1, direct".to_string(), instances[0].base.clone()));
        }
        for (name, base) in targets {
            let me = requests::wrk(&format!("{base}/api/v1/me"), &[format!("Authorization: Bearer {key}")], 10);
            let imports = requests::wrk_imports(&base, &key, &format!("i{n}{}", name.len()), 32, 10);
            match (me, imports) {
                (Some(m), Some(i)) => println!(
                    "instances {name:<18} GET /me {:>6.0} req/s (p99 {:.1} ms, non-2xx {}); imports {:>5.0}/s (p99 {:.1} ms, non-2xx {})",
                    m.rps, m.p99_ms, m.non_2xx, i.rps, i.p99_ms, i.non_2xx
                ),
                _ => println!("skipped: wrk is not installed (apt-get install wrk)"),
            }
        }
        let _ = proxy.kill();
        let _ = proxy.wait();
    }
    let _ = redis_child.kill();
    let _ = redis_child.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
