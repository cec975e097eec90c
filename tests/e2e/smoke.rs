//! The service starts, answers health checks, and a key made through the admin API works.
use serde_json::json;

crate::e2e!(health_and_me_work, Default::default(), |app| {
    let h = app.request("GET", "/healthz", &[], None);
    assert_eq!(h.status, 200);
    let r = app.request("GET", "/readyz", &[], None);
    assert_eq!(r.status, 200, "{}", r.text);
    let org = app.org("business", "active");
    let me = app.get("/api/v1/me", &org.key);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json["organizationId"], json!(org.id));
    assert_eq!(me.json["plan"], "business");
});

/// D40: SIGTERM drains in-flight requests and exits cleanly (exit status 0).
#[test]
fn sigterm_stops_the_service_cleanly() {
    use crate::support::{spawn, Backend, Opts};
    let Some(mut app) = spawn(Backend::Sqlite, Opts { process: true, ..Default::default() }) else {
        return;
    };
    let org = app.org("business", "active");
    // Requests in flight while the signal arrives still get complete answers.
    let base = app.base.clone();
    let key = org.key.clone();
    let worker = std::thread::spawn(move || {
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut ok = 0;
        for _ in 0..50 {
            match agent.get(format!("{base}/api/v1/me")).header("Authorization", format!("Bearer {key}")).call() {
                Ok(r) if r.status() == 200 => ok += 1,
                // After the signal new requests may be refused or answered 503: stop there.
                _ => break,
            }
        }
        ok
    });
    std::thread::sleep(std::time::Duration::from_millis(30));
    let status = app.terminate().expect("talent exits within 40 s of SIGTERM");
    assert!(status.success(), "exit status {status:?}");
    assert!(worker.join().unwrap() >= 1);
}
