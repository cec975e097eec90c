//! The request-path scenarios of issue 11: `GET /api/v1/me` and `GET /healthz` under `wrk`
//! (2 threads, 64 connections, [`ROUNDS`] rounds of [`ROUND_SECS`] s), each beside a **reference**: a bare actix-web server in
//! this process whose handlers return the same bodies and headers and do nothing else. The ratio
//! Talent / reference is the figure that matters (`docs/performance.md`); absolute numbers move
//! with the machine.
//!
//! The service logs at its default level (`info`, one access-log line per request) to a file, as
//! a deployment would, so the log's cost is measured too.

use crate::imports::median;
use actix_web::{web, App, HttpResponse, HttpServer};
use std::net::TcpListener;
use std::process::Command;

/// What `wrk` measured.
pub struct Wrk {
    /// Requests per second.
    pub rps: f64,
    /// Answers that were not 2xx or 3xx.
    pub non_2xx: u64,
    /// Median answer time, ms.
    pub p50_ms: f64,
    /// 99th percentile answer time, ms.
    pub p99_ms: f64,
    /// Requests completed in the run.
    pub requests: u64,
}

/// Runs `wrk -t2 -c64 -d{secs}s --latency` against `url` with `headers`; `None` when wrk is missing.
pub fn wrk(url: &str, headers: &[String], secs: u32) -> Option<Wrk> {
    let mut cmd = Command::new("wrk");
    cmd.args(["-t2", "-c64", &format!("-d{secs}s"), "--latency"]);
    for h in headers {
        cmd.args(["-H", h]);
    }
    let out = cmd.arg(url).output().ok()?;
    parse_wrk(&String::from_utf8_lossy(&out.stdout))
}

/// The rate, the non-2xx count and the latency percentiles (0 when not asked for) of wrk's report.
fn parse_wrk(text: &str) -> Option<Wrk> {
    let pct = |p: &str| text.lines().find_map(|l| l.trim().strip_prefix(p)).map(|v| to_ms(v.trim())).unwrap_or(0.0);
    let rps = text.lines().find_map(|l| l.strip_prefix("Requests/sec:")).and_then(|v| v.trim().parse().ok())?;
    let non_2xx = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Non-2xx or 3xx responses:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let requests = text
        .lines()
        .find_map(|l| l.trim().split_once(" requests in "))
        .and_then(|(n, _)| n.trim().parse().ok())
        .unwrap_or(0);
    Some(Wrk { rps, non_2xx, p50_ms: pct("50%"), p99_ms: pct("99%"), requests })
}

/// `POST /api/v1/persons` of new emails under `wrk -t2 -c{connections} -d{secs}s --latency`
/// (issue 11 measured imports with wrk too): a Lua script gives every request an email no other
/// request of the run has (`{prefix}.{thread}.{n}@bench.example`). `None` when wrk is missing.
pub fn wrk_imports(base: &str, key: &str, prefix: &str, connections: u32, secs: u32) -> Option<Wrk> {
    wrk_imports_keyed(base, key, prefix, connections, secs, false)
}

/// [`wrk_imports`], each import with an `Idempotency-Key` of its own when `keyed` (see
/// [`wrk_posts`] for how every email and key is new).
pub fn wrk_imports_keyed(base: &str, key: &str, prefix: &str, connections: u32, secs: u32, keyed: bool) -> Option<Wrk> {
    let headers = if keyed {
        "local h = {}\n  for k, v in pairs(wrk.headers) do h[k] = v end\n  h[\"Idempotency-Key\"] = \"k.\" .. tid .. \".\" .. n"
    } else {
        "local h = nil"
    };
    let request = format!(
        r#"{headers}
  return wrk.format(nil, "/api/v1/persons", h, '{{"email":"{prefix}.' .. tid .. '.' .. n .. '@bench.example"}}')"#
    );
    wrk_posts(base, key, prefix, &request, connections, secs)
}

/// Workable's `POST /partners/workable/assessments` (an ATS placing orders, connector `key`) of
/// new candidates under `wrk -t2 -c{connections} -d{secs}s --latency`: every order has an email
/// and an application no other request of the run has; its callback (`{callback}/{n}`) is only
/// called if the order completes. `None` when wrk is missing.
pub fn wrk_orders(base: &str, key: &str, prefix: &str, callback: &str, connections: u32, secs: u32) -> Option<Wrk> {
    let request = format!(
        r#"local e = "{prefix}." .. tid .. "." .. n
  return wrk.format(nil, "/partners/workable/assessments", nil,
    '{{"test_id":"talent-assessment","callback_url":"{callback}/' .. e .. '","candidate":{{"first_name":"Bench","email":"' .. e .. '@bench.example"}}}}')"#
    );
    wrk_posts(base, key, prefix, &request, connections, secs)
}

/// Runs wrk with a Lua script whose `request` is `request` (a JSON `POST` with `key` as the
/// bearer token; `n`, the thread's request number, and `tid`, the thread's number, in scope).
///
/// Every request can be new: wrk runs `setup` in its main Lua state and each thread's `request`
/// in the thread's own, so the thread number must reach `request` as the global `tid` that
/// `thread:set` writes there, not as a local of the script, which stays 0 in every thread
/// (until 2026-11-27 both threads sent the same emails, and half the "imports" merged into a
/// person the other thread had just created, T234).
fn wrk_posts(base: &str, key: &str, prefix: &str, request: &str, connections: u32, secs: u32) -> Option<Wrk> {
    let script = std::env::temp_dir().join(format!("talent-bench-{prefix}.lua"));
    let lua = format!(
        r#"local n, threads = 0, 0
setup = function(thread) threads = threads + 1; thread:set("tid", threads) end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n + 1
  {request}
end
"#
    );
    std::fs::write(&script, lua).ok()?;
    let out = Command::new("wrk")
        .args(["-t2", &format!("-c{connections}"), &format!("-d{secs}s"), "--latency", "-s"])
        .arg(&script)
        .args(["-H", &format!("Authorization: Bearer {key}")])
        .arg(base)
        .output()
        .ok()?;
    let _ = std::fs::remove_file(&script);
    parse_wrk(&String::from_utf8_lossy(&out.stdout))
}

/// wrk's latency text (`812.00us`, `21.30ms`, `1.02s`) in milliseconds.
fn to_ms(v: &str) -> f64 {
    let (num, scale) = if let Some(x) = v.strip_suffix("us") {
        (x, 0.001)
    } else if let Some(x) = v.strip_suffix("ms") {
        (x, 1.0)
    } else if let Some(x) = v.strip_suffix('s') {
        (x, 1000.0)
    } else {
        (v, 1.0)
    };
    num.parse::<f64>().map(|n| n * scale).unwrap_or(0.0)
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
            // The process's signals stay the process's: `kill` or Ctrl-C ends the bench (and
            // `talent-bench reference`), not only this server.
            .disable_signals()
            .listen(listener)
            .unwrap()
            .run()
            .await
            .unwrap();
        });
    });
    base
}

/// Rounds of [`paired`]: each runs Talent then the reference for [`ROUND_SECS`].
pub const ROUNDS: usize = 5;
/// Seconds of each wrk run of [`paired`].
pub const ROUND_SECS: u32 = 5;

/// Measures `path` on Talent (`talent` base URL, process `talent_pid`) and on the reference
/// (`reference`, served by this process) in [`ROUNDS`] rounds, each Talent then the reference
/// back to back, and prints every round and the **median of the rounds' ratios** against `goal`.
/// A ratio of two runs seconds apart is what the machine's drift (another tenant of the host,
/// frequency changes) disturbs least; the median drops one disturbed round. `each_talent` runs
/// after every Talent run (the caller reads the RSS there). Returns the median ratio, `None`
/// when wrk is missing.
///
/// It also prints each server's **CPU time per request** (user and system, from `/proc`), with
/// the median of the rounds' reference / Talent: what a request costs the server itself,
/// whatever share of the two cores `wrk` and the kernel's loopback path take in that state of
/// the machine.
pub fn paired(
    what: &str,
    (talent, talent_pid): (&str, u32),
    reference: &str,
    path: &str,
    headers: &[String],
    goal: f64,
    mut each_talent: impl FnMut(),
) -> Option<f64> {
    let mut ratios = Vec::new();
    let mut rounds = Vec::new();
    let mut cpu = Vec::new();
    // The CPU ticks process `pid` spent while `wrk` ran on `url`.
    let measured = |pid: u32, url: String| {
        let before = cpu_ticks(pid);
        let w = wrk(&url, headers, ROUND_SECS);
        (w, cpu_ticks(pid).zip(before).map(|(a, b)| a.saturating_sub(b)))
    };
    for _ in 0..ROUNDS {
        let (t, talent_ticks) = measured(talent_pid, format!("{talent}{path}"));
        each_talent();
        let (r, reference_ticks) = measured(std::process::id(), format!("{reference}{path}"));
        let (Some(t), Some(r)) = (t, r) else {
            println!("{what}: skipped (wrk is not installed: apt-get install wrk)");
            return None;
        };
        ratios.push(t.rps / r.rps.max(1.0));
        rounds.push(format!("{:.0}/{:.0} (non-2xx {})", t.rps, r.rps, t.non_2xx));
        if let (Some(a), Some(b)) =
            (per_request_us(talent_ticks, t.requests), per_request_us(reference_ticks, r.requests))
        {
            cpu.push((a, b));
        }
    }
    let ratio = median(&ratios);
    println!(
        "{what}: req/s Talent/reference by round {}: ratio {:.2} (median of {}; goal >= {goal})",
        rounds.join(", "),
        ratio,
        ratios.iter().map(|r| format!("{r:.2}")).collect::<Vec<_>>().join(" ")
    );
    if !cpu.is_empty() {
        let per_core: Vec<f64> = cpu.iter().map(|(t, r)| r / t).collect();
        println!(
            "  CPU per request, Talent/reference by round {}: reference / Talent median {:.2}",
            cpu.iter().map(|(t, r)| format!("{t:.1}/{r:.1} µs")).collect::<Vec<_>>().join(", "),
            median(&per_core)
        );
    }
    Some(ratio)
}

/// The user and system CPU time of process `pid` so far, in clock ticks of `/proc/<pid>/stat`
/// (fields 14 and 15; Linux's `USER_HZ`, 100 per s); `None` off Linux or once it has exited.
pub(crate) fn cpu_ticks(pid: u32) -> Option<u64> {
    stat_ticks(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// Fields 14 and 15 of a `/proc/<pid>/stat` line, added.
fn stat_ticks(stat: &str) -> Option<u64> {
    // The command name, field 2, is in parentheses and may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// `ticks` of CPU time (100 per s) over `requests`, in µs per request.
fn per_request_us(ticks: Option<u64>, requests: u64) -> Option<f64> {
    let ticks = ticks.filter(|&t| t > 0)?;
    (requests > 0).then(|| ticks as f64 * 10_000.0 / requests as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrk_report_gives_rate_count_and_percentiles() {
        let text = "Running 5s test @ http://127.0.0.1:1/api/v1/me\n  2 threads and 64 connections\n\
  Latency Distribution\n     50%  283.00us\n     99%    1.20ms\n\
  567178 requests in 5.01s, 215.28MB read\n  Non-2xx or 3xx responses: 3\nRequests/sec: 113319.79\n";
        let w = parse_wrk(text).unwrap();
        assert_eq!((w.requests, w.non_2xx), (567_178, 3));
        assert!((w.rps - 113_319.79).abs() < 1e-6 && (w.p50_ms - 0.283).abs() < 1e-9 && (w.p99_ms - 1.2).abs() < 1e-9);
    }

    #[test]
    fn cpu_time_is_read_after_a_command_name_with_spaces_and_parentheses() {
        let stat = "4242 (actix (server) wo) S 1 4242 4242 0 -1 4194560 2263 0 0 0 351 42 0 0 20 0 9 0";
        assert_eq!(stat_ticks(stat), Some(393));
        assert_eq!(stat_ticks("4242 no parentheses"), None);
        assert_eq!(per_request_us(Some(393), 393_000), Some(10.0));
        assert_eq!(per_request_us(Some(0), 10), None, "no tick counted: no figure");
    }
}
