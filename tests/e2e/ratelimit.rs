//! Rate limits (spec, Rate limits; D7, D8, D40): the `X-RateLimit-*` headers on every response,
//! the per-key and per-organization budgets of Set A, the shared budget of Set B, `off`, and the
//! per-IP budget of failed authentications. Loops are bounded; budgets refill one request per
//! `60 s / limit` while a loop runs, so counts are checked against the measured elapsed time.
use crate::support::{Opts, Resp, TestApp};
use serde_json::json;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn per_key() -> Opts {
    Opts { rate_limit_mode: "per-key", ..Default::default() }
}

fn org_only() -> Opts {
    Opts { rate_limit_mode: "org-only", ..Default::default() }
}

fn unix_now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs()
}

/// The three D8 headers as integers: (limit, remaining, reset).
type Rate = (u64, u64, u64);

/// Status and headers of the responses a loop saw before its first 429.
type Seen = Vec<(u16, Rate)>;

/// The D8 headers of a response.
fn rate(r: &Resp) -> Rate {
    let h = |n: &str| -> u64 {
        let v = r.header(n).unwrap_or_else(|| panic!("missing {n} on {} {}", r.status, r.text));
        v.parse().unwrap_or_else(|_| panic!("{n} is not a whole number: {v:?}"))
    };
    (h("x-ratelimit-limit"), h("x-ratelimit-remaining"), h("x-ratelimit-reset"))
}

/// Sends `f()` and checks the D8 headers; `X-RateLimit-Reset` is a Unix time in seconds within
/// [now, now + 60] (rounded up).
fn timed(f: impl FnOnce() -> Resp) -> (Resp, Rate) {
    let before = unix_now();
    let r = f();
    let after = unix_now();
    let h = rate(&r);
    assert!(h.2 >= before && h.2 <= after + 61, "reset {} outside [{before}, {after} + 60]", h.2);
    assert!(h.1 <= h.0, "remaining {} above limit {}", h.1, h.0);
    (r, h)
}

/// Asserts a 429 (D8): envelope `rate_limited`, `Retry-After` whole seconds >= 1, remaining 0.
/// Returns (limit, retry-after).
fn assert_rate_limited(r: &Resp) -> (u64, u64) {
    r.assert_error(429, "rate_limited");
    let ra = r.header("retry-after").unwrap_or_else(|| panic!("Retry-After on {}", r.text));
    let ra: u64 = ra.parse().unwrap_or_else(|_| panic!("Retry-After is whole seconds: {ra:?}"));
    assert!((1..=60).contains(&ra), "Retry-After {ra}");
    let (limit, remaining, _) = rate(r);
    assert_eq!(remaining, 0);
    (limit, ra)
}

/// Sends `f()` until the first 429, at most `max` times. Returns the non-429 responses' headers,
/// the 429 (if any) and the elapsed whole seconds (rounded up).
fn until_429(max: usize, mut f: impl FnMut() -> Resp) -> (Seen, Option<Resp>, u64) {
    let start = Instant::now();
    let mut ok = Vec::new();
    for _ in 0..max {
        let (r, h) = timed(&mut f);
        if r.status == 429 {
            return (ok, Some(r), start.elapsed().as_secs() + 1);
        }
        ok.push((r.status, h));
    }
    (ok, None, start.elapsed().as_secs() + 1)
}

/// Checks that `remaining` goes down by one per request from `first`, give or take what refilled
/// (`per_sec` requests per second over `secs`).
fn assert_counts_down(seen: &[(u16, Rate)], first: u64, per_sec: u64, secs: u64) {
    for (i, (_, (_, remaining, _))) in seen.iter().enumerate() {
        let expected = first - (i as u64).min(first);
        let slack = per_sec * secs;
        assert!(
            *remaining >= expected && *remaining <= expected + slack,
            "request {}: remaining {remaining}, expected {expected} (+{slack} refilled)",
            i + 1
        );
    }
}

/// After a 429 to a request sent at `since` that spent a shared budget refilling one request per `interval_ms`:
/// sends 10 requests alternating over `keys`; at most `1 + elapsed / interval` may pass, so each
/// key is refused at least once unless the machine is very slow.
fn assert_budget_spent(app: &TestApp, since: Instant, keys: &[&str], interval_ms: u128) {
    let start = since;
    let mut allowed = 0;
    let mut refused = vec![0; keys.len()];
    for i in 0..10 {
        let r = app.get("/api/v1/me", keys[i % keys.len()]);
        match r.status {
            200 => allowed += 1,
            _ => {
                assert_rate_limited(&r);
                refused[i % keys.len()] += 1;
            }
        }
    }
    let max = 1 + start.elapsed().as_millis().div_ceil(interval_ms);
    assert!(allowed <= max, "{allowed} of 10 passed a spent budget in {:?}", start.elapsed());
    if max < (10 / keys.len()) as u128 {
        assert!(refused.iter().all(|n| *n > 0), "every key is refused: {refused:?}");
    }
}

// Spec, Endpoints ("Every response carries ..."); D8: successes, 4xx errors and 401s (the per-IP
// budget of 60) all carry the three headers.
crate::e2e!(every_response_carries_the_rate_limit_headers, per_key(), |app| {
    let org = app.org("professional", "active");
    let (read_only, _) = app.key(&org.user_id, &["persons:read"]);
    let pid = uuid::Uuid::new_v4();
    let (r, (limit, remaining, _)) = timed(|| app.get("/api/v1/me", &org.key));
    assert_eq!(r.status, 200);
    assert_eq!((limit, remaining), (60, 59), "D7: the key budget (60) is the tighter one");
    let start = Instant::now();
    let calls: [(u16, Box<dyn Fn() -> Resp>); 6] = [
        (404, Box::new(|| app.get(&format!("/api/v1/persons/{pid}"), &org.key))),
        (400, Box::new(|| app.get("/api/v1/persons?limit=1000", &org.key))),
        (400, Box::new(|| app.send("POST", "/api/v1/persons", &org.key, &json!({"email": 1})))),
        (
            405,
            Box::new(|| {
                app.request("PUT", "/api/v1/persons", &[("Authorization", &format!("Bearer {}", org.key))], None)
            }),
        ),
        (404, Box::new(|| app.get("/api/v1/nope", &org.key))),
        (201, Box::new(|| app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "a@example.com"})))),
    ];
    for (i, (status, f)) in calls.iter().enumerate() {
        let (r, (limit, remaining, _)) = timed(f);
        assert_eq!(r.status, *status, "{}", r.text);
        assert_eq!(limit, 60, "{}", r.text);
        let expected = 58 - i as u64;
        let slack = start.elapsed().as_secs() + 1;
        assert!((expected..=expected + slack).contains(&remaining), "remaining {remaining}, expected {expected}");
    }
    // A different key of the same organization has its own key budget.
    let (r, (limit, remaining, _)) =
        timed(|| app.send("POST", "/api/v1/persons", &read_only, &json!({"email": "b@x.io"})));
    r.assert_error(403, "insufficient_scope");
    assert_eq!((limit, remaining), (60, 59));
    // Failed authentication: the per-IP budget of 60 (D8).
    let (r, (limit, remaining, _)) = timed(|| app.request("GET", "/api/v1/me", &[], None));
    r.assert_error(401, "unauthorized");
    assert_eq!((limit, remaining), (60, 59));
    let (r, (limit, remaining, _)) = timed(|| app.get("/api/v1/persons", "tk_not_a_key"));
    r.assert_error(401, "invalid_token");
    assert_eq!(limit, 60);
    assert!((58..=59).contains(&remaining), "{remaining}");
});

// D7 Set A: a professional key has 60 requests/minute of its own; the 61st is refused with 429,
// Retry-After and Remaining 0. Other keys of the organization keep working on their own budgets
// until the organization's 120 are spent; then every key is refused, and the headers describe
// the organization budget (the one with the least remaining).
crate::e2e!(per_key_mode_limits_each_key_to_60_and_the_organization_to_120, per_key(), |app| {
    let org = app.org("professional", "active");
    let (second, _) = app.key(&org.user_id, &["persons:read"]);
    let (third, _) = app.key(&org.user_id, &["persons:read"]);

    let (seen, refused, secs) = until_429(100, || app.get("/api/v1/me", &org.key));
    assert!(seen.iter().all(|(s, (l, _, _))| *s == 200 && *l == 60), "{seen:?}");
    assert_eq!(seen[0].1 .1, 59, "first request leaves 59");
    assert_counts_down(&seen, 59, 1, secs);
    let refused = refused.unwrap_or_else(|| panic!("no 429 within 100 requests ({secs} s)"));
    assert!(seen.len() >= 60 && seen.len() as u64 <= 60 + secs, "{} requests allowed in {secs} s", seen.len());
    let (limit, _) = assert_rate_limited(&refused);
    assert_eq!(limit, 60, "the key budget is the one refused");
    assert_eq!(refused.json["details"]["limit"], 60, "{}", refused.text);

    // The other keys: each has 60 of its own, but the organization has only about 60 left.
    let others = [second.as_str(), third.as_str()];
    let mut i = 0;
    // When the refused request was sent: the budget was spent no later (a loaded machine may
    // take long to answer, and the budget refills meanwhile).
    let mut spent_at = Instant::now();
    let (seen2, refused2, secs2) = until_429(100, || {
        i += 1;
        spent_at = Instant::now();
        app.get("/api/v1/persons?limit=1", others[i % 2])
    });
    assert!(seen2.iter().all(|(s, (l, _, _))| *s == 200 && (*l == 60 || *l == 120)), "{seen2:?}");
    assert!(seen2.len() >= 50, "the other keys kept working: {} requests", seen2.len());
    let last = seen2.last().unwrap().1;
    assert_eq!((last.0, last.1), (120, 0), "the organization budget is reported once it is the tightest");
    let refused2 = refused2.unwrap_or_else(|| panic!("no 429 for the other keys within 100 requests"));
    let total = seen.len() + seen2.len();
    let secs_total = secs + secs2;
    assert!(
        total >= 120 && total as u64 <= 120 + 2 * secs_total,
        "{total} requests allowed in {secs_total} s (organization budget 120, 2 per second refill)"
    );
    let (limit, _) = assert_rate_limited(&refused2);
    assert_eq!(limit, 120, "the organization budget is the one refused (the keys have budget left)");
    // The organization budget is spent: every key is refused (it refills one request per 0.5 s).
    assert_budget_spent(app, spent_at, &[&org.key, &second, &third], 500);
});

// D7 Set B (`org-only`): one budget per organization (professional 60, business 300) shared by
// all its keys.
crate::e2e!(org_only_mode_shares_one_budget_among_all_keys_of_an_organization, org_only(), |app| {
    let org = app.org("professional", "active");
    let (second, _) = app.key(&org.user_id, &["persons:read"]);
    let keys = [org.key.clone(), second.clone()];
    let mut i = 0;
    let mut spent_at = Instant::now();
    let (seen, refused, secs) = until_429(100, || {
        i += 1;
        spent_at = Instant::now();
        app.get("/api/v1/persons?limit=1", &keys[i % 2])
    });
    assert!(seen.iter().all(|(s, (l, _, _))| *s == 200 && *l == 60), "{seen:?}");
    assert_eq!(seen[0].1 .1, 59);
    assert_eq!(seen[1].1 .1, 58, "the second key draws from the same budget");
    assert_counts_down(&seen, 59, 1, secs);
    assert!(seen.len() >= 60 && seen.len() as u64 <= 60 + secs, "{} requests allowed in {secs} s", seen.len());
    let refused = refused.unwrap_or_else(|| panic!("no 429 within 100 requests"));
    assert_eq!(assert_rate_limited(&refused).0, 60);
    // A third key of the organization is refused too; another organization is not.
    let (third, _) = app.key(&org.user_id, &["organization:read"]);
    assert_budget_spent(app, spent_at, &[&org.key, &second, &third], 1000);
    let biz = app.org_with(json!({"companyName": "Big", "email": "b@big.example", "plan": "business",
                                  "subscriptionStatus": "active"}));
    let (r, (limit, remaining, _)) = timed(|| app.get("/api/v1/me", &biz.key));
    assert_eq!(r.status, 200);
    assert_eq!((limit, remaining), (300, 299));
});

// D7 Set A figures for the business plan: key 300, organization 600; the key budget is reported.
crate::e2e!(per_key_mode_gives_a_business_key_300_per_minute, per_key(), |app| {
    let org = app.org("business", "active");
    let (r, (limit, remaining, _)) = timed(|| app.get("/api/v1/me", &org.key));
    assert_eq!(r.status, 200);
    assert_eq!((limit, remaining), (300, 299));
});

// D40: `off` never refuses.
crate::e2e!(off_mode_never_refuses_requests, Default::default(), |app| {
    let org = app.org("professional", "active");
    for i in 0..200 {
        let r = app.get("/api/v1/me", &org.key);
        assert_eq!(r.status, 200, "request {}: {}", i + 1, r.text);
    }
});

// D8: requests that fail authentication are limited per client IP (60 per minute); a valid key from
// the same address keeps working.
crate::e2e!(failed_authentication_is_limited_per_ip_after_60_attempts_then_checked_first_t88, per_key(), |app| {
    let org = app.org("professional", "active");
    // Revoked before the guessing.
    let (revoked, revoked_id) = app.key(&org.user_id, &["persons:read"]);
    assert_eq!(app.admin("DELETE", &format!("/admin/v1/api-keys/{revoked_id}"), None).status, 200);
    let mut n = 0;
    let (seen, refused, secs) = until_429(100, || {
        n += 1;
        if n % 3 == 0 {
            app.request("GET", "/api/v1/me", &[], None)
        } else {
            app.get("/api/v1/persons", &format!("tk_{:0>60}", n))
        }
    });
    assert!(seen.iter().all(|(s, (l, _, _))| *s == 401 && *l == 60), "{seen:?}");
    assert_counts_down(&seen, 59, 1, secs);
    assert!(seen.len() >= 60 && seen.len() as u64 <= 60 + secs, "{} failures answered in {secs} s", seen.len());
    let refused = refused.unwrap_or_else(|| panic!("no 429 within 100 failed authentications"));
    assert_eq!(assert_rate_limited(&refused).0, 60);
    // T88: while the address is over its budget, its requests are refused before any key is
    // looked up: a valid key, a revoked one and a made-up one get the same 429 (no oracle).
    let mut waits = Vec::new();
    for key in [org.key.as_str(), revoked.as_str(), "tk_made_up"] {
        let r = app.get("/api/v1/me", key);
        let (limit, _) = assert_rate_limited(&r);
        assert_eq!(limit, 60, "the address's budget is reported: {r:?}");
        waits.push(r.header("retry-after").and_then(|v| v.parse::<u64>().ok()).unwrap_or(60));
    }
    // Once its next request conforms, the genuine key's own budget answers, untouched.
    std::thread::sleep(Duration::from_secs(waits.into_iter().max().unwrap_or(1)));
    let (r, (limit, remaining, _)) = timed(|| app.get("/api/v1/me", &org.key));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!((limit, remaining), (60, 59));
    assert_eq!(app.get("/api/v1/me", &revoked).code(), "key_revoked");
});
