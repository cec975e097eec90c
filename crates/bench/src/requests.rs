//! The request-path scenarios of issue 11: `GET /api/v1/me` and `GET /healthz` under `wrk`
//! (2 threads, 64 connections, 10 s), each beside a **reference**: a bare actix-web server in
//! this process whose handlers return the same bodies and headers and do nothing else. The ratio
//! Talent / reference is the figure that matters (`docs/performance.md`); absolute numbers move
//! with the machine.
//!
//! The service logs at its default level (`info`, one access-log line per request) to a file, as
//! a deployment would, so the log's cost is measured too.

use actix_web::{web, App, HttpResponse, HttpServer};
use std::net::TcpListener;
use std::process::Command;

/// What `wrk` measured.
pub struct Wrk {
    /// Requests per second.
    pub rps: f64,
    /// Answers that were not 2xx or 3xx.
    pub non_2xx: u64,
}

/// Runs `wrk -t2 -c64 -d{secs}s` against `url` with `headers`; `None` when wrk is missing.
pub fn wrk(url: &str, headers: &[String], secs: u32) -> Option<Wrk> {
    let mut cmd = Command::new("wrk");
    cmd.args(["-t2", "-c64", &format!("-d{secs}s")]);
    for h in headers {
        cmd.args(["-H", h]);
    }
    let out = cmd.arg(url).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let rps = text.lines().find_map(|l| l.strip_prefix("Requests/sec:")).and_then(|v| v.trim().parse().ok())?;
    let non_2xx = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Non-2xx or 3xx responses:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    Some(Wrk { rps, non_2xx })
}

/// Starts the reference server (2 workers, as Talent on this machine) serving `me` at
/// `/api/v1/me` and `health` at `/healthz` as JSON; returns its base URL.
pub fn reference(me: String, health: String) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        rt.block_on(async move {
            HttpServer::new(move || {
                let (me, health) = (me.clone(), health.clone());
                App::new()
                    .route(
                        "/api/v1/me",
                        web::get().to(move || {
                            let me = me.clone();
                            async move { HttpResponse::Ok().content_type("application/json").body(me) }
                        }),
                    )
                    .route(
                        "/healthz",
                        web::get().to(move || {
                            let h = health.clone();
                            async move { HttpResponse::Ok().content_type("application/json").body(h) }
                        }),
                    )
            })
            .workers(2)
            .listen(listener)
            .unwrap()
            .run()
            .await
            .unwrap();
        });
    });
    base
}

/// Prints one comparison line: Talent, the reference, the ratio and the goal.
pub fn compare(what: &str, talent: &Option<Wrk>, reference: &Option<Wrk>, goal: f64) {
    match (talent, reference) {
        (Some(t), Some(r)) => println!(
            "{what}: {:.0} req/s (non-2xx {}), reference {:.0} req/s: ratio {:.2} (goal >= {goal})",
            t.rps,
            t.non_2xx,
            r.rps,
            t.rps / r.rps.max(1.0)
        ),
        _ => println!("{what}: skipped (wrk is not installed: apt-get install wrk)"),
    }
}
