//! Hardening (issue 13): what a hostile or careless client sends gets a clear 4xx, never a 5xx, on
//! both backends alike. Decisions T86 onwards (docs/decisions.md).
use crate::errors::validation_fields;
use crate::support::{eventually, spawn, Backend, Opts, PgCluster, TestApp};
use serde_json::json;
use std::time::Duration;

// T86: NUL and other control characters in text fields are a 400 naming the field on both
// backends (PostgreSQL refused NUL with a 500 before; SQLite stored it).
crate::e2e!(control_characters_in_text_fields_and_filters_are_validation_errors_t86, Default::default(), |app| {
    let org = app.org("professional", "active");
    let k = &org.key;
    for (body, field) in [
        (json!({"email": "a@example.com", "firstName": "Ad\u{0}a"}), "firstName"),
        (json!({"email": "a@example.com", "lastName": "Love\nlace"}), "lastName"),
        (json!({"email": "a@example.com", "externalId": "x\u{0}"}), "externalId"),
        (json!({"email": "a@example.com", "externalId": "x\ty"}), "externalId"),
        (json!({"email": "a@example.com", "tags": ["ok", "b\u{0}d"]}), "tags[1]"),
        (json!({"email": "a@exa\u{0}mple.com"}), "email"),
        (json!({"email": "a@example.com", "firstName": "Ada\u{7f}"}), "firstName"),
        (json!({"email": "a@example.com", "firstName": "Ada\u{85}"}), "firstName"),
    ] {
        let r = app.send("POST", "/api/v1/persons", k, &body);
        assert_eq!(validation_fields(&r), [field], "{body}");
    }
    // A body key with a control character is refused as the body.
    let r = app.request(
        "POST",
        "/api/v1/persons",
        &[("Authorization", &format!("Bearer {k}")), ("Content-Type", "application/json")],
        Some(br#"{"email":"a@example.com","x\u0000":1}"#),
    );
    assert_eq!(validation_fields(&r), ["body"]);
    // An invitation's message may hold line breaks and tabs, nothing else.
    let inv = |message: &str| {
        app.send(
            "POST",
            "/api/v1/invitations",
            k,
            &json!({"email": "m@example.com", "sendEmail": false, "message": message}),
        )
    };
    assert_eq!(validation_fields(&inv("Hello\u{0}")), ["message"]);
    assert_eq!(validation_fields(&inv("Hello\u{1b}[31m")), ["message"]);
    let ok = inv("Hello,\r\n\tsee you");
    assert_eq!(ok.status, 201, "{}", ok.text);
    assert_eq!(ok.json["message"], "Hello,\r\n\tsee you");
    // Filters: `%00` and other controls in a query value.
    for q in ["q=%00", "externalId=x%00", "tag=%00", "email=a%00%40example.com", "q=a%0Ab"] {
        let r = app.get(&format!("/api/v1/persons?{q}"), k);
        let name = q.split('=').next().unwrap_or("");
        assert_eq!(validation_fields(&r), [name], "{q}");
    }
    let r = app.get("/api/v1/invitations?externalId=%00", k);
    assert_eq!(validation_fields(&r), ["externalId"]);
    // Nothing was written, and text that only looks like an escape is kept as sent.
    let p = app.send("POST", "/api/v1/persons", k, &json!({"email": "b@example.com", "firstName": "back\\u0000slash"}));
    assert_eq!(p.status, 201, "{}", p.text);
    assert_eq!(p.json["firstName"], "back\\u0000slash");
    let all = app.get("/api/v1/persons", k);
    assert_eq!(all.json["data"].as_array().map(|v| v.len()), Some(1), "{}", all.text);
    // The admin API alike.
    let team =
        app.admin("POST", &format!("/admin/v1/organizations/{}/teams", org.id), Some(&json!({"name": "A\u{0}"})));
    assert_eq!(validation_fields(&team), ["name"]);
    let o = app.admin(
        "POST",
        "/admin/v1/organizations",
        Some(&json!({"companyName": "Acme\u{0}", "email": "o@example.com", "plan": "professional"})),
    );
    assert_eq!(validation_fields(&o), ["companyName"]);
});

/// T87: with the database stopped, every request that needs it is 503 `internal_error` with
/// `Retry-After`, `/readyz` is 503, the outage is logged once; once the database is back the
/// service answers again without a restart, a retried request with the same Idempotency-Key runs
/// once, and nothing was half-written. On a PostgreSQL cluster of the test's own.
#[test]
fn a_database_outage_is_503_with_retry_after_and_recovers_t87() {
    if std::env::var("TEST_DATABASE_URL").map_or(true, |u| u.is_empty()) {
        eprintln!("skipped: TEST_DATABASE_URL unset (the PostgreSQL tests are off)");
        return;
    }
    let Some(cluster) = PgCluster::start() else { return };
    let opts = Opts { pg_admin_url: Some(cluster.url()), keep_log: true, ..Default::default() };
    let app = spawn(Backend::Postgres, opts).expect("start talent");
    let org = app.org("professional", "active");
    let k = &org.key;
    for i in 0..3 {
        let r = app.send("POST", "/api/v1/persons", k, &json!({"email": format!("before{i}@example.com")}));
        assert_eq!(r.status, 201, "{}", r.text);
    }

    cluster.stop();
    let body = json!({"email": "during@example.com", "firstName": "Dora"});
    let key_header = [("Idempotency-Key", "outage-1")];
    // Eight clients at once, imports (one retried under its Idempotency-Key) and reads.
    let answers: Vec<_> = std::thread::scope(|s| {
        let clients: Vec<_> = (0..8)
            .map(|c| {
                let (app, body) = (&app, &body);
                s.spawn(move || {
                    (0..10)
                        .map(|i| match (c, i % 2) {
                            (0, _) => app.send_with("POST", "/api/v1/persons", k, body, &key_header),
                            (_, 0) => app.send(
                                "POST",
                                "/api/v1/persons",
                                k,
                                &json!({"email": format!("lost{c}-{i}@example.com")}),
                            ),
                            _ => app.get("/api/v1/persons", k),
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        clients.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    assert_eq!(answers.len(), 80);
    for r in &answers {
        r.assert_error(503, "internal_error");
        assert_eq!(r.header("Retry-After"), Some("2"), "{r:?}");
        assert!(!r.text.contains("connect") && !r.text.contains("refused"), "no cause shown: {}", r.text);
    }
    let ready = app.request("GET", "/readyz", &[], None);
    assert_eq!(ready.status, 503, "{}", ready.text);
    assert_eq!(ready.header("Retry-After"), Some("2"));

    cluster.start_again();
    assert!(
        eventually(Duration::from_secs(30), || app.request("GET", "/readyz", &[], None).status == 200),
        "ready again once the database is back"
    );
    // The retried request runs now, once: the outage left no in-flight record behind its key.
    let r = app.send_with("POST", "/api/v1/persons", k, &body, &key_header);
    assert_eq!(r.status, 201, "{}", r.text);
    let again = app.send_with("POST", "/api/v1/persons", k, &body, &key_header);
    assert_eq!(again.status, 201);
    assert_eq!(again.header("Idempotency-Replayed"), Some("true"));
    let all = app.get("/api/v1/persons?limit=100", k);
    assert_eq!(all.status, 200, "{}", all.text);
    let mut emails: Vec<&str> =
        all.json["data"].as_array().unwrap().iter().filter_map(|p| p["email"].as_str()).collect();
    emails.sort();
    assert_eq!(emails, ["before0@example.com", "before1@example.com", "before2@example.com", "during@example.com"]);

    let log = app.log_text("database available again");
    assert_eq!(log.matches("database unavailable; answering 503").count(), 1, "one warning per outage:\n{log}");
    assert_eq!(log.matches("database available again").count(), 1, "{log}");
    assert!(!log.contains("store failure"), "no request logged as an internal error:\n{log}");
}

// T89's start-up refusal of a weak admin token and its limit on admin-token guesses are in
// abuse.rs, as D53 made them (an entropy estimate; a budget of their own per address).

// T89: with TALENT_ADMIN_LISTEN the admin API is served there only; the public listener answers
// 404 for it, and the admin listener serves nothing of the public API.
mod the_admin_api_can_have_a_listener_of_its_own_t89 {
    use crate::support::{spawn, Backend, Opts};

    fn run(backend: Backend) {
        let opts = Opts { admin_listen: true, ..Default::default() };
        let Some(app) = spawn(backend, opts) else { return };
        assert_ne!(app.admin_base, app.base);
        let org = app.org("professional", "active");
        assert_eq!(app.get("/api/v1/me", &org.key).status, 200);
        let auth = format!("Bearer {}", app.admin_token);
        let public = app.request("GET", "/admin/v1/emails", &[("Authorization", &auth)], None);
        public.assert_error(404, "not_found");
        let on_admin =
            |path: &str, auth: &str| app.request_to(&app.admin_base, "GET", path, &[("Authorization", auth)], None);
        assert_eq!(on_admin("/admin/v1/emails", &auth).status, 200);
        on_admin("/api/v1/me", &format!("Bearer {}", org.key)).assert_error(404, "not_found");
        assert_eq!(on_admin("/healthz", "").status, 200);
        assert_eq!(on_admin("/readyz", "").status, 200);
        assert_eq!(app.request("GET", "/healthz", &[], None).status, 200);
    }

    #[test]
    fn sqlite() {
        run(Backend::Sqlite);
    }

    #[test]
    fn postgres() {
        run(Backend::Postgres);
    }
}

// T90 (D4, D39 sandbox clock): a trial ends at `trialEndsAt`. Before, the organization writes;
// from then on writes are 403 `subscription_inactive`, the organization reads as `trial_expired`
// with `importBlocked`, and reads keep working, without anyone changing the stored status.
crate::e2e!(
    a_trial_ends_at_trial_ends_at_on_the_service_clock_t90,
    Opts { sandbox: true, ..Default::default() },
    |app| {
        let ends = time::OffsetDateTime::now_utc() + time::Duration::days(14);
        let ends = ends.format(&time::format_description::well_known::Rfc3339).unwrap_or_default();
        let org = app.org_with(json!({
            "companyName": "Trial Co", "email": "owner@trial.example", "plan": "professional",
            "subscriptionStatus": "trialing", "trialEndsAt": ends,
        }));
        let k = &org.key;
        let o = app.get("/api/v1/organization", k);
        assert_eq!(o.json["subscription"]["status"], "trialing", "{}", o.text);
        assert_eq!(o.json["usage"]["persons"]["importBlocked"], false);
        let p = app.send("POST", "/api/v1/persons", k, &json!({"email": "during@example.com"}));
        assert_eq!(p.status, 201, "{}", p.text);

        let c = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 14 * 86400 + 60})));
        assert_eq!(c.status, 200, "{}", c.text);
        let r = app.send("POST", "/api/v1/persons", k, &json!({"email": "after@example.com"}));
        r.assert_error(403, "subscription_inactive");
        assert_eq!(r.json["details"]["status"], "trial_expired", "{}", r.text);
        let inv = app.send("POST", "/api/v1/invitations", k, &json!({"email": "x@example.com", "sendEmail": false}));
        inv.assert_error(403, "subscription_inactive");
        let o = app.get("/api/v1/organization", k);
        assert_eq!(o.json["subscription"]["status"], "trial_expired", "{}", o.text);
        assert_eq!(o.json["usage"]["persons"]["importBlocked"], true);
        let admin_view = app.admin("GET", &format!("/admin/v1/organizations/{}", org.id), None);
        assert_eq!(admin_view.json["subscription"]["status"], "trial_expired", "{}", admin_view.text);
        let list = app.get("/api/v1/persons", k);
        assert_eq!(list.status, 200, "reads keep working: {}", list.text);
        assert_eq!(list.json["data"].as_array().map(Vec::len), Some(1));
        // Activating the subscription lifts it at once.
        let a = app.admin(
            "PATCH",
            &format!("/admin/v1/organizations/{}", org.id),
            Some(&json!({"subscriptionStatus": "active"})),
        );
        assert_eq!(a.json["subscription"]["status"], "active", "{}", a.text);
        let again = app.send("POST", "/api/v1/persons", k, &json!({"email": "after@example.com"}));
        assert_eq!(again.status, 201, "{}", again.text);
    }
);

/// Sends `POST {path}` with a chunked body of `chunks` and returns the raw response head and body.
fn chunked_post(app: &TestApp, path: &str, key: &str, chunks: &[Vec<u8>]) -> String {
    use std::io::{Read, Write};
    let addr = app.base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {key}\r\nContent-Type: application/json\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    let _ = s.write_all(head.as_bytes());
    for c in chunks {
        // The service may answer and close before the whole body is sent: later writes may fail.
        let _ = s.write_all(format!("{:x}\r\n", c.len()).as_bytes());
        let _ = s.write_all(c);
        let _ = s.write_all(b"\r\n");
    }
    let _ = s.write_all(b"0\r\n\r\n");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

// T91 (issue 13, point 8): errors echo what a client sent within bounds, and a chunked body over
// 1 MiB is 413 like one with a Content-Length (it was 400).
crate::e2e!(errors_echo_within_bounds_and_chunked_bodies_are_limited_t91, Default::default(), |app| {
    let org = app.org("professional", "active");
    let k = &org.key;
    let query: Vec<String> = (0..3000).map(|i| format!("x{i}=1")).collect();
    let r = app.get(&format!("/api/v1/persons?{}", query.join("&")), k);
    r.assert_error(400, "validation_error");
    assert!(r.text.len() < 16 * 1024, "a 35 KB query gave a {} byte error", r.text.len());
    assert_eq!(r.json["details"]["fields"].as_array().map(Vec::len), Some(20));
    assert_eq!(r.json["error"], "3000 fields are invalid");
    let long = "p".repeat(20_000);
    let r = app.get(&format!("/api/v1/{long}"), k);
    r.assert_error(404, "not_found");
    assert!(r.text.len() < 1024, "{} bytes", r.text.len());
    assert!(r.json["error"].as_str().is_some_and(|e| e.ends_with('…')), "{}", r.text);
    let r = app.send("POST", "/api/v1/persons", k, &json!({"email": "a@example.com", "x".repeat(10_000): 1}));
    r.assert_error(400, "validation_error");
    assert!(r.text.len() < 2048, "{} bytes", r.text.len());

    // Chunked: a small body is read as usual; over 1 MiB is 413 without reading on.
    let small =
        chunked_post(app, "/api/v1/persons", k, &[br#"{"email":"#.to_vec(), br#""chunked@example.com"}"#.to_vec()]);
    assert!(small.starts_with("HTTP/1.1 201"), "{small}");
    let big: Vec<Vec<u8>> = std::iter::once(br#"{"email":"big@example.com","firstName":""#.to_vec())
        .chain(std::iter::repeat_n(vec![b'a'; 64 * 1024], 20))
        .collect();
    let answer = chunked_post(app, "/api/v1/persons", k, &big);
    assert!(answer.starts_with("HTTP/1.1 413"), "{}", &answer[..answer.len().min(400)]);
    assert!(answer.contains(r#""code":"payload_too_large""#), "{answer}");
    let list = app.get("/api/v1/persons?q=big", k);
    assert_eq!(list.json["data"].as_array().map(Vec::len), Some(0), "{}", list.text);
});

/// Sends a request head announcing a 100-byte body, then one byte a second; returns what the
/// service answered and after how long it answered or closed the connection (at most `give_up`).
fn dribble(app: &TestApp, path: &str, key: Option<&str>, give_up: Duration) -> (String, Duration) {
    use std::io::{Read, Write};
    let addr = app.base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let auth = key.map(|k| format!("Authorization: Bearer {k}\r\n")).unwrap_or_default();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
    );
    let _ = s.write_all(head.as_bytes());
    s.set_read_timeout(Some(Duration::from_millis(1000))).ok();
    let start = std::time::Instant::now();
    let mut got = Vec::new();
    while start.elapsed() < give_up {
        if s.write_all(b"x").is_err() {
            break;
        }
        let mut buf = [0u8; 4096];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
        if !got.is_empty() {
            break;
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), start.elapsed())
}

// T92 (issue 13, point 5): a body sent a byte a second no longer holds its connection for minutes:
// past the body deadline (here 1 s, TALENT_BODY_TIMEOUT_MS) the request is answered 400 and the
// connection closed, on every route, authenticated or not; other clients are served meanwhile.
crate::e2e!(
    a_slow_body_is_cut_off_at_the_body_deadline_t92,
    Opts { env: vec![("TALENT_BODY_TIMEOUT_MS", "1000".into())], ..Default::default() },
    |app| {
        let org = app.org("professional", "active");
        let give_up = Duration::from_secs(15);
        std::thread::scope(|s| {
            let page = s.spawn(|| dribble(app, "/i/not-a-token", None, give_up));
            let api = s.spawn(|| dribble(app, "/api/v1/persons", Some(&org.key), give_up));
            let nowhere = s.spawn(|| dribble(app, "/api/v1/no-such-endpoint", Some(&org.key), give_up));
            // Served while three connections dribble.
            assert_eq!(app.get("/api/v1/me", &org.key).status, 200);
            for (name, h) in [("page", page), ("api", api), ("404", nowhere)] {
                let (answer, took) = h.join().unwrap_or_default();
                assert!(took < Duration::from_secs(8), "{name}: held for {took:?}: {answer}");
                assert!(!answer.is_empty(), "{name}: an answer, not a silent close");
                if name == "api" {
                    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
                    assert!(answer.contains("was not received in time"), "{answer}");
                }
            }
        });
        let list = app.get("/api/v1/persons", &org.key);
        assert_eq!(list.json["data"].as_array().map(Vec::len), Some(0), "{}", list.text);
    }
);

// T93 (issue 13, point 6): a resend within a minute of the invitation's last email, or after 10
// emails of it in 24 hours, is 429 `rate_limited` with `Retry-After` and sends nothing; the
// service clock (D39 sandbox) moves both windows.
crate::e2e!(resends_have_a_cooldown_and_a_daily_cap_t93, Opts { sandbox: true, ..Default::default() }, |app| {
    let org = app.org("professional", "active");
    let k = &org.key;
    let inv = app.send("POST", "/api/v1/invitations", k, &json!({"email": "often@example.com", "sendEmail": true}));
    assert_eq!(inv.status, 201, "{}", inv.text);
    let resend = || {
        app.send(
            "POST",
            &format!("/api/v1/invitations/{}/resend", inv.json["id"].as_str().unwrap_or("")),
            k,
            &json!({}),
        )
    };
    let mails = || {
        let r = app.admin("GET", "/admin/v1/emails?to=often%40example.com", None);
        r.json["data"].as_array().map(Vec::len).unwrap_or(0)
    };
    let advance = |secs: u64| {
        let c = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": secs})));
        assert_eq!(c.status, 200, "{}", c.text);
    };
    let r = resend();
    r.assert_error(429, "rate_limited");
    let wait: u64 = r.header("Retry-After").and_then(|v| v.parse().ok()).unwrap_or(0);
    assert!((1..=60).contains(&wait), "{r:?}");
    assert_eq!(r.json["details"]["reason"], "cooldown");
    assert_eq!(r.json["details"]["retryAfter"], wait);
    assert_eq!(mails(), 1, "nothing sent");
    advance(61);
    for n in 2..=10 {
        let r = resend();
        assert_eq!(r.status, 200, "email {n}: {}", r.text);
        advance(61);
    }
    assert_eq!(mails(), 10);
    let r = resend();
    r.assert_error(429, "rate_limited");
    assert_eq!(r.json["details"]["reason"], "invitation_daily_cap", "{}", r.text);
    let wait: u64 = r.header("Retry-After").and_then(|v| v.parse().ok()).unwrap_or(0);
    assert!(wait > 20 * 3600 && wait <= 86_400, "until the first email is 24 h old: {wait}");
    assert_eq!(mails(), 10);
    advance(wait);
    assert_eq!(resend().status, 200, "the first email left the window");
});

// T98: behind a trusted proxy (TALENT_TRUSTED_PROXIES), the per-address budget of failed
// authentications (D8) is the forwarded client's: one client guessing keys waits alone; without
// the setting, X-Forwarded-For is ignored, so a guesser cannot escape its budget by sending one.
crate::e2e!(
    behind_a_trusted_proxy_each_client_has_its_own_budget_t98,
    Opts {
        env: vec![("TALENT_RATE_LIMIT_MODE", "per-key".into()), ("TALENT_TRUSTED_PROXIES", "127.0.0.1/32".into())],
        ..Default::default()
    },
    |app| {
        let org = app.org("professional", "active");
        let from = |client: &str, key: &str| {
            app.request(
                "GET",
                "/api/v1/me",
                &[("Authorization", &format!("Bearer {key}")), ("X-Forwarded-For", client)],
                None,
            )
        };
        let mut refused = None;
        for i in 0..70 {
            let r = from("198.51.100.1, 203.0.113.7", &format!("tk_guess_{i}"));
            if r.status == 429 {
                refused = Some(i);
                break;
            }
            assert_eq!(r.status, 401, "{}", r.text);
        }
        assert!(refused.is_some_and(|i| i >= 60), "the guessing client is limited after its 60: {refused:?}");
        from("203.0.113.7", &org.key).assert_error(429, "rate_limited");
        let other = from("203.0.113.8", &org.key);
        assert_eq!(other.status, 200, "another client behind the same proxy: {}", other.text);
        assert_eq!(app.get("/api/v1/me", &org.key).status, 200, "the proxy's own address is not blocked");
    }
);

// T98: without TALENT_TRUSTED_PROXIES the header does not name the client.
crate::e2e!(
    x_forwarded_for_is_ignored_unless_the_proxy_is_trusted_t98,
    Opts { env: vec![("TALENT_RATE_LIMIT_MODE", "per-key".into())], ..Default::default() },
    |app| {
        let mut refused = None;
        for i in 0..70 {
            let xff = format!("203.0.113.{}", i % 250);
            let r = app.request(
                "GET",
                "/api/v1/me",
                &[("Authorization", "Bearer tk_nope"), ("X-Forwarded-For", &xff)],
                None,
            );
            if r.status == 429 {
                refused = Some(i);
                break;
            }
        }
        assert!(refused.is_some_and(|i| (60..70).contains(&i)), "{refused:?}");
    }
);
