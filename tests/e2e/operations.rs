//! Operations (issue 17): request ids on every answer and every log line of the request, JSON
//! logs, and no secret, token or personal data in either log format.
use crate::support::*;
use serde_json::{json, Value};

/// What a log must never hold, whatever its format: an API key, the admin token, a webhook
/// signing secret, an invitation token, a person's email or name.
fn assert_no_secrets(log: &str, secrets: &[&str]) {
    for s in secrets {
        assert!(!log.contains(s), "the log holds {s:?}");
    }
}

/// Requests that carry secrets and personal data in every place a request can: header, path,
/// query, body. Returns the strings the log must not hold.
fn traffic(app: &TestApp) -> Vec<String> {
    let org = app.org("business", "active");
    let p = app
        .import(&org.key, json!({"email": "secret.person@example.com", "firstName": "Zebediah", "lastName": "Quux"}));
    let id = p["id"].as_str().unwrap();
    app.get("/api/v1/persons?email=secret.person%40example.com&q=Zebediah", &org.key);
    app.get(&format!("/api/v1/persons/{id}"), &org.key);
    app.get("/api/v1/me", "tk_thisIsNotAKeyButLooksLikeOne0123456789abcdefXYZ");
    let hook =
        app.send("POST", "/api/v1/webhooks", &org.key, &json!({"url": "https://hooks.example.com/x", "events": ["*"]}));
    let inv = app.send(
        "POST",
        "/api/v1/invitations",
        &org.key,
        &json!({"email": "invitee.person@example.com", "sendEmail": false}),
    );
    let url = inv.json["url"].as_str().unwrap_or_default().to_string();
    let token = url.rsplit('/').next().unwrap_or_default().to_string();
    app.request("GET", &format!("/i/{token}"), &[], None);
    let mut secrets = vec![
        org.key.clone(),
        app.admin_token.clone(),
        "tk_thisIsNotAKeyButLooksLikeOne0123456789abcdefXYZ".to_string(),
        "secret.person@example.com".into(),
        "secret.person%40example.com".into(),
        "Zebediah".into(),
        "Quux".into(),
        "invitee.person@example.com".into(),
    ];
    if let Some(s) = hook.json["secret"].as_str() {
        secrets.push(s.to_string());
    }
    if !token.is_empty() {
        secrets.push(token);
    }
    secrets
}

// Issue 17: a request id sent by the client comes back and is on the log line of that request;
// one is made when none (or an invalid one) is sent; every line of the JSON log is an object.
crate::e2e!(
    request_ids_come_back_and_json_logs_parse_line_by_line_without_secrets,
    Opts { keep_log: true, env: vec![("TALENT_LOG_FORMAT", "json".into())], ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let sent = app.request_to(
            &app.base,
            "GET",
            "/api/v1/me",
            &[("Authorization", &format!("Bearer {}", org.key)), ("X-Request-Id", "support-ticket-4711")],
            None,
        );
        assert_eq!(sent.status, 200, "{}", sent.text);
        assert_eq!(sent.header("x-request-id"), Some("support-ticket-4711"));
        let made = app.get("/api/v1/me", &org.key);
        let made_id = made.header("x-request-id").expect("an id is made").to_string();
        assert!(uuid::Uuid::parse_str(&made_id).is_ok(), "{made_id}");
        let bad = app.request_to(
            &app.base,
            "GET",
            "/api/v1/me",
            &[("Authorization", &format!("Bearer {}", org.key)), ("X-Request-Id", &"x".repeat(200))],
            None,
        );
        assert!(bad.header("x-request-id").is_some_and(|h| h.len() == 36), "an invalid id is replaced");
        let error = app.get("/api/v1/persons/not-a-uuid", &org.key);
        assert_eq!(error.status, 404);
        assert!(error.header("x-request-id").is_some(), "errors carry it too");
        let secrets = traffic(app);

        let log = app.log_text(&made_id);
        let lines: Vec<Value> = log
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON object ({e}): {l}")))
            .collect();
        assert!(lines.len() > 10, "{log}");
        for l in &lines {
            assert!(l["timestamp"].is_string() && l["level"].is_string() && l["message"].is_string(), "{l}");
        }
        let of = |id: &str| {
            lines.iter().find(|l| l["span"]["request_id"] == json!(id) && l["message"] == "request").cloned()
        };
        let line = of("support-ticket-4711").unwrap_or_else(|| panic!("no line of the request: {log}"));
        assert_eq!(
            (line["method"].as_str(), line["path"].as_str(), line["status"].as_u64()),
            (Some("GET"), Some("/api/v1/me"), Some(200))
        );
        assert!(of(&made_id).is_some(), "{log}");
        let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
        assert_no_secrets(&log, &refs);
    }
);

// Issue 17: the text log holds no secret, token or personal data either.
crate::e2e!(the_text_log_holds_no_secrets_or_personal_data, Opts { keep_log: true, ..Default::default() }, |app| {
    let secrets = traffic(app);
    let marker = app.get("/api/v1/me", "x");
    let id = marker.header("x-request-id").unwrap().to_string();
    let log = app.log_text(&id);
    assert!(log.contains("request_id="), "{log}");
    let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
    assert_no_secrets(&log, &refs);
});

/// A webhook receiver on loopback that answers every delivery 500; returns its URL.
fn failing_receiver() -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hooks", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0u8; len];
            let _ = reader.read_exact(&mut body);
            let _ = reader
                .get_mut()
                .write_all(b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 4\r\nconnection: close\r\n\r\nnope");
        }
    });
    url
}

/// The value of the series `name{labels}` (labels as written by the exporter, `""` for none).
fn series(text: &str, name: &str, labels: &str) -> Option<f64> {
    let key = if labels.is_empty() { format!("{name} ") } else { format!("{name}{{{labels}}} ") };
    text.lines().find_map(|l| l.strip_prefix(&key)).and_then(|v| v.trim().parse().ok())
}

// Issue 17: after real traffic, /metrics has the named series with plausible values: requests by
// route template, auth failures, the database's pool and transactions, webhook attempts to a
// failing endpoint by outcome, the outbox backlog of a disabled endpoint, build information and
// process metrics. The token guards it on the public listener.
crate::e2e!(
    metrics_show_requests_auth_failures_the_database_and_webhooks_after_real_traffic,
    Opts { process: true, insecure_webhooks: true, sandbox: true, ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let failing = failing_receiver();
        let hook =
            app.send("POST", "/api/v1/webhooks", &org.key, &json!({"url": failing, "events": ["person.created"]}));
        assert_eq!(hook.status, 201, "{}", hook.text);
        let held = app.send(
            "POST",
            "/api/v1/webhooks",
            &org.key,
            &json!({"url": "http://127.0.0.1:9/held", "events": ["person.created"]}),
        );
        let held_id = held.json["id"].as_str().unwrap().to_string();
        let off = app.send("PATCH", &format!("/api/v1/webhooks/{held_id}"), &org.key, &json!({"enabled": false}));
        assert_eq!(off.status, 200, "{}", off.text);
        for i in 0..3 {
            app.import(&org.key, json!({"email": format!("m{i}@example.com")}));
        }
        let p = app.get("/api/v1/persons?limit=1", &org.key);
        let id = p.json["data"][0]["id"].as_str().unwrap().to_string();
        app.get(&format!("/api/v1/persons/{id}"), &org.key);
        app.get("/api/v1/me", "tk_unknownunknownunknownunknownunknownunknown0");
        // A method HTTP does not define is counted as `other` (T236): a client's tokens never
        // become series.
        let (odd, _, _) =
            crate::errors::raw(app, b"FROBNICATE /api/v1/me HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assert!((400..500).contains(&odd), "{odd}");
        // The first attempts to the failing endpoint.
        let made = || {
            let r = app.get(&format!("/api/v1/webhooks/{}/deliveries", hook.json["id"].as_str().unwrap()), &org.key);
            r.json["data"].as_array().is_some_and(|d| d.len() == 3 && d.iter().all(|x| x["attempts"] == 1))
        };
        assert!(eventually(std::time::Duration::from_secs(20), made), "three attempts made");

        let scrape =
            |token: &str| app.request("GET", "/metrics", &[("Authorization", &format!("Bearer {token}"))], None);
        assert_eq!(app.request("GET", "/metrics", &[], None).status, 401, "the token guards it");
        assert_eq!(scrape("wrong").status, 401);
        let m = scrape(&app.admin_token);
        assert_eq!(m.status, 200);
        assert!(m.header("content-type").is_some_and(|c| c.starts_with("text/plain")));
        let t = &m.text;
        let value =
            |name: &str, labels: &str| series(t, name, labels).unwrap_or_else(|| panic!("{name}{{{labels}}} in\n{t}"));
        assert_eq!(value("talent_http_requests_total", r#"method="POST",route="/api/v1/persons",status="201""#), 3.0);
        assert_eq!(
            value("talent_http_requests_total", r#"method="GET",route="/api/v1/persons/{id}",status="200""#),
            1.0
        );
        assert!(!t.contains(&id), "ids never become labels");
        assert!(!t.contains("FROBNICATE"), "nor methods of a client's own");
        assert!(t.contains(r#"talent_http_requests_total{method="other""#), "{t}");
        assert!(value("talent_http_request_duration_seconds_count", r#"method="POST",route="/api/v1/persons""#) >= 3.0);
        assert_eq!(value("talent_http_requests_in_flight", ""), 0.0);
        assert_eq!(value("talent_auth_failures_total", r#"reason="invalid_token""#), 1.0);
        assert!(value("talent_db_pool_max", "") >= 1.0);
        assert!(value("talent_db_pool_open", "") >= 1.0);
        assert!(value("talent_db_transaction_duration_seconds_count", r#"kind="write""#) >= 3.0);
        // T238: SQLite's single writer, its queue and how busy it was; PostgreSQL has none.
        if app.backend == Backend::Sqlite {
            assert!(value("talent_db_write_transactions_total", "") >= 3.0);
            assert!(value("talent_db_write_groups_total", "") >= 1.0);
            // T297: exported, and zero when no write failed after writing.
            assert_eq!(value("talent_db_write_groups_rerun_total", ""), 0.0);
            assert!(value("talent_db_write_busy_seconds", "") > 0.0);
            assert_eq!(value("talent_db_write_queue", ""), 0.0);
        } else {
            assert!(series(t, "talent_db_write_transactions_total", "").is_none(), "{t}");
        }
        assert_eq!(value("talent_webhook_attempts_total", r#"outcome="5xx""#), 3.0);
        assert!(value("talent_webhook_attempt_duration_seconds_count", "") >= 3.0);
        assert_eq!(value("talent_webhook_deliveries_pending", ""), 6.0, "3 retrying, 3 held for the disabled endpoint");
        assert_eq!(value("talent_webhook_deliveries_due", ""), 0.0, "retries wait a minute; held ones are not due");
        assert_eq!(value("talent_webhook_endpoints_disabled", ""), 1.0);
        assert_eq!(value("talent_webhook_oldest_due_delivery_age_seconds", ""), 0.0, "nothing is due");
        assert_eq!(value("talent_emails_pending", ""), 0.0);
        assert!(t.contains("talent_build_info{version=\"0.1.0\",commit=\""), "{t}");
        assert!(value("process_resident_memory_bytes", "") > 1_000_000.0);
        assert!(value("process_open_fds", "") > 0.0);
    }
);

// Issue 17: with an admin listener, /metrics is served there without a token (a private
// interface, T89) and not on the public listener.
crate::e2e!(
    with_an_admin_listener_metrics_are_served_there_only,
    Opts { process: true, admin_listen: true, ..Default::default() },
    |app| {
        let public = app.request("GET", "/metrics", &[], None);
        assert_eq!(public.status, 404, "{}", public.text);
        let private = app.request_to(&app.admin_base, "GET", "/metrics", &[], None);
        assert_eq!(private.status, 200, "{}", private.text);
        assert!(private.text.contains("talent_build_info"), "{}", private.text);
    }
);

// Issue 17, T121: the request id of the call that caused an event is on its deliveries (list and
// detail, with the attempt log) and on every log line of their attempts; a ping's is the /test
// request's.
crate::e2e!(
    deliveries_and_their_attempt_log_name_the_request_that_caused_the_event,
    Opts {
        keep_log: true,
        insecure_webhooks: true,
        env: vec![("TALENT_LOG_FORMAT", "json".into()), ("TALENT_LOG", "info,talent_webhooks=debug".into())],
        ..Default::default()
    },
    |app| {
        let org = app.org("business", "active");
        let failing = failing_receiver();
        let hook =
            app.send("POST", "/api/v1/webhooks", &org.key, &json!({"url": failing, "events": ["person.created"]}));
        assert_eq!(hook.status, 201, "{}", hook.text);
        let hook_id = hook.json["id"].as_str().unwrap().to_string();
        let auth = format!("Bearer {}", org.key);
        let imported = app.request_to(
            &app.base,
            "POST",
            "/api/v1/persons",
            &[("Authorization", &auth), ("X-Request-Id", "ats-sync-42"), ("Content-Type", "application/json")],
            Some(json!({"email": "caused@example.com"}).to_string().as_bytes()),
        );
        assert_eq!(imported.status, 201, "{}", imported.text);
        let attempted = || {
            let r = app.get(&format!("/api/v1/webhooks/{hook_id}/deliveries"), &org.key);
            r.json["data"].as_array().is_some_and(|d| d.len() == 1 && d[0]["attempts"] == 1)
        };
        assert!(eventually(std::time::Duration::from_secs(20), attempted), "the first attempt was made");
        let list = app.get(&format!("/api/v1/webhooks/{hook_id}/deliveries"), &org.key);
        let d = &list.json["data"][0];
        assert_eq!(d["requestId"], "ats-sync-42", "{d}");
        let did = d["id"].as_str().unwrap();
        let one = app.get(&format!("/api/v1/webhooks/{hook_id}/deliveries/{did}"), &org.key);
        assert_eq!(one.json["requestId"], "ats-sync-42", "{}", one.text);
        assert_eq!(one.json["attemptLog"].as_array().map(Vec::len), Some(1), "{}", one.text);

        let ping = app.request_to(
            &app.base,
            "POST",
            &format!("/api/v1/webhooks/{hook_id}/test"),
            &[("Authorization", &auth), ("X-Request-Id", "ping-check-7")],
            None,
        );
        assert_eq!(ping.status, 200, "{}", ping.text);
        let pid = ping.json["deliveryId"].as_str().unwrap();
        let p = app.get(&format!("/api/v1/webhooks/{hook_id}/deliveries/{pid}"), &org.key);
        assert_eq!(p.json["requestId"], "ping-check-7", "{}", p.text);

        let log = app.log_text("webhook attempt");
        let attempt = log
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|l| l["message"] == "webhook attempt")
            .unwrap_or_else(|| panic!("no attempt line: {log}"));
        assert_eq!(attempt["span"]["request_id"], "ats-sync-42", "{attempt}");
        assert_eq!(attempt["span"]["delivery_id"], json!(did), "{attempt}");
        assert_eq!(attempt["status"], 500, "{attempt}");
    }
);

/// Sends `method path` with `X-Request-Id: id` and returns the status.
fn probe(app: &TestApp, method: &str, path: &str, id: &str) -> u16 {
    app.request_to(&app.base, method, path, &[("X-Request-Id", id)], None).status
}

// T278: a health probe that succeeds is written at `debug`, so the default log (`info`) holds no
// line per load-balancer check; a probe that fails is written like any other request.
crate::e2e!(
    probes_that_succeed_stay_out_of_the_default_access_log_and_failed_ones_are_in_it,
    Opts { keep_log: true, ..Default::default() },
    |app| {
        assert_eq!(probe(app, "GET", "/healthz", "probe-healthz-ok"), 200);
        assert_eq!(probe(app, "GET", "/readyz", "probe-readyz-ok"), 200);
        assert_eq!(probe(app, "POST", "/healthz", "probe-healthz-refused"), 405);
        assert_eq!(probe(app, "GET", "/api/v1/me", "probe-marker"), 401);
        let log = app.log_text("probe-marker");
        assert!(log.contains("request_id=probe-healthz-refused"), "a failed probe is logged: {log}");
        assert!(log.contains("path=/healthz status=405"), "{log}");
        assert!(!log.contains("probe-healthz-ok") && !log.contains("probe-readyz-ok"), "{log}");
    }
);

// T278: with the access log's target at `debug`, the probes that succeed are written too.
crate::e2e!(
    probes_that_succeed_are_logged_when_the_access_target_is_at_debug,
    Opts { keep_log: true, env: vec![("TALENT_LOG", "info,talent::access=debug".into())], ..Default::default() },
    |app| {
        assert_eq!(probe(app, "GET", "/healthz", "probe-healthz-ok"), 200);
        assert_eq!(probe(app, "GET", "/readyz", "probe-readyz-ok"), 200);
        assert_eq!(probe(app, "GET", "/api/v1/me", "probe-marker"), 401);
        let log = app.log_text("probe-marker");
        for id in ["probe-healthz-ok", "probe-readyz-ok"] {
            let line = log.lines().find(|l| l.contains(id)).unwrap_or_else(|| panic!("no line of {id}: {log}"));
            assert!(line.contains("DEBUG") && line.contains("status=200"), "{line}");
        }
    }
);
