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
    let marker = app.get("/healthz", "x");
    let id = marker.header("x-request-id").unwrap().to_string();
    let log = app.log_text(&id);
    assert!(log.contains("request_id="), "{log}");
    let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
    assert_no_secrets(&log, &refs);
});
