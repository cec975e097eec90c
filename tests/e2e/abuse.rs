//! Abuse limits follow the human, not the object (D53), over HTTP on both backends: one-time
//! codes are limited per organization and address across invitations; failed code entries spend
//! the client address's budget of failed requests (D8); failed admin tokens have a budget of their
//! own, and the right admin token is never refused for failed API keys; a weak
//! `TALENT_ADMIN_TOKEN` stops the start-up.
use crate::support::{Opts, Org, Resp, TestApp};
use serde_json::{json, Value};
use std::time::Duration;

fn sandbox() -> Opts {
    Opts { sandbox: true, ..Default::default() }
}

fn per_key() -> Opts {
    Opts { rate_limit_mode: "per-key", ..Default::default() }
}

/// Rate limits on with a budget of failed requests of 10 a minute per address: one request every
/// 6 s refills it, so once it is spent by requests sent in a quick row, the address waits about
/// 6 s, long enough to look at it.
fn small_budget(sandbox: bool) -> Opts {
    Opts { sandbox, env: vec![("TALENT_RATE_LIMIT_IP_PER_MINUTE", "10".into())], ..per_key() }
}

fn org(app: &TestApp, name: &str) -> Org {
    app.org_with(
        json!({"companyName": name, "email": format!("hr@{}.example", name.to_lowercase()), "plan": "business"}),
    )
}

fn created(r: Resp) -> Value {
    assert_eq!(r.status, 201, "{}", r.text);
    r.json
}

/// The page path of an invitation (`/i/{token}`).
fn page_of(app: &TestApp, inv: &Value) -> String {
    inv["url"].as_str().unwrap().strip_prefix(&app.base).unwrap().to_string()
}

/// An `access_request` of organization `b` to `email`, whose human completed an assessment in
/// organization `a`: giving consent on its page needs a one-time code (D43).
fn access_request(app: &TestApp, a: &Org, b: &Org, email: &str) -> Value {
    let p = app.import(&a.key, json!({ "email": email }));
    let done = app.admin(
        "POST",
        &format!("/admin/v1/persons/{}/assessments", p["id"].as_str().unwrap()),
        Some(&json!({"complete": true, "seed": 7})),
    );
    assert_eq!(done.status, 200, "{}", done.text);
    invite(app, b, email)
}

fn invite(app: &TestApp, b: &Org, email: &str) -> Value {
    let inv = created(app.send("POST", "/api/v1/invitations", &b.key, &json!({ "email": email, "sendEmail": false })));
    assert_eq!(inv["variant"], "access_request", "{inv}");
    inv
}

/// The code emails recorded for `to`.
fn code_emails(app: &TestApp, to: &str) -> usize {
    let r = app.admin("GET", &format!("/admin/v1/emails?to={}", to.replace('@', "%40")), None);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["subject"].as_str().unwrap().contains("confirmation code"))
        .count()
}

/// A header as a whole number.
fn num(r: &Resp, name: &str) -> u64 {
    r.header(name).unwrap_or_else(|| panic!("no {name} on {} {}", r.status, r.text)).parse().unwrap()
}

/// A 429 `rate_limited` envelope with the budget's headers; returns its `Retry-After`.
fn assert_refused(r: &Resp, limit: u64) -> u64 {
    r.assert_error(429, "rate_limited");
    assert_eq!((num(r, "x-ratelimit-limit"), num(r, "x-ratelimit-remaining")), (limit, 0), "{r:?}");
    let wait = num(r, "retry-after");
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    wait
}

/// Sends `f(n)` for n = 0, 1, … until the first 429 (at most `max`); returns the answers before it
/// and the 429.
fn until_429(max: usize, mut f: impl FnMut(usize) -> Resp) -> (Vec<Resp>, Resp) {
    let mut seen = Vec::new();
    for n in 0..max {
        let r = f(n);
        if r.status == 429 {
            return (seen, r);
        }
        seen.push(r);
    }
    panic!("no 429 within {max} requests: last {:?}", seen.last());
}

// D53: five codes on one invitation, then the organization revokes it and invites the same address
// again: asking a code on the new invitation is refused (429 on the page) and nothing is emailed.
// Another address of the organization still gets its code.
crate::e2e!(the_sixth_code_is_refused_across_a_new_invitation_to_the_same_address_d53, sandbox(), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    let first = access_request(app, &a, &b, "ada@example.com");
    let page = page_of(app, &first);
    for n in 1..=5 {
        let r = app.post_form(&page, "share=true", &[]);
        assert_eq!(r.status, 200, "code {n}: {}", r.text);
        assert!(r.text.contains("name=\"code\""), "{}", r.text);
        assert_eq!(code_emails(app, "ada@example.com"), n);
    }
    let revoked =
        app.send("POST", &format!("/api/v1/invitations/{}/revoke", first["id"].as_str().unwrap()), &b.key, &json!({}));
    assert_eq!(revoked.status, 200, "{}", revoked.text);
    let second = invite(app, &b, "ada@example.com");
    assert_ne!(second["id"], first["id"]);
    let r = app.post_form(&page_of(app, &second), "share=true", &[]);
    assert_eq!(r.status, 429, "{}", r.text);
    assert!(r.text.contains("Too many codes"), "{}", r.text);
    assert_eq!(code_emails(app, "ada@example.com"), 5, "nothing emailed");
    let now = app.get(&format!("/api/v1/invitations/{}", second["id"].as_str().unwrap()), &b.key);
    assert_eq!(now.json["status"], "pending", "{}", now.text);
    // Per address: bob's first code is sent.
    let bob = access_request(app, &a, &b, "bob@example.com");
    assert_eq!(app.post_form(&page_of(app, &bob), "share=true", &[]).status, 200);
    assert_eq!(code_emails(app, "bob@example.com"), 1);
});

// D53, D8: failed code entries spend the address's budget of failed requests, the one failed API
// keys spend: the page (422) carries its headers, counting on from the failed keys; once it is
// spent the answer is 429 `rate_limited`, and while the address is over it a live, right code is
// refused before anything is looked up (no try spent, nothing accepted). Once the address may try
// again, that code accepts.
crate::e2e!(wrong_codes_spend_the_address_budget_until_429_d53, small_budget(true), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    let ada = access_request(app, &a, &b, "ada@example.com");
    let bob = access_request(app, &a, &b, "bob@example.com");
    for inv in [&ada, &bob] {
        assert_eq!(app.post_form(&page_of(app, inv), "share=true", &[]).status, 200, "a code is sent");
    }
    let code = app.consent_code("ada@example.com");
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let bobs = app.consent_code("bob@example.com");
    // Three failed API keys first: the same budget.
    for n in 0..3 {
        let r = app.get("/api/v1/me", &format!("tk_{n:0>60}"));
        assert_eq!((r.status, num(&r, "x-ratelimit-remaining")), (401, 9 - n), "{r:?}");
    }
    let page = page_of(app, &ada);
    let (seen, refused) = until_429(20, |_| app.post_form(&page, &format!("share=true&code={wrong}"), &[]));
    assert!(seen.iter().all(|r| r.status == 422 && num(r, "x-ratelimit-limit") == 10), "{seen:?}");
    // 10 - 3 failed keys - this one (one more if a request refilled, 6 s after the first).
    assert!(
        (6..=7).contains(&num(&seen[0], "x-ratelimit-remaining")),
        "counted on from the failed keys: {:?}",
        seen[0]
    );
    assert!(seen[0].text.contains("4 more tries"), "{}", seen[0].text);
    assert!((7..=8).contains(&seen.len()), "{} wrong codes answered before the 429", seen.len());
    let wait = assert_refused(&refused, 10);
    // Over the budget: bob's right code (live, never tried) waits like anything else from there.
    let bob_page = page_of(app, &bob);
    assert_refused(&app.post_form(&bob_page, &format!("share=true&code={bobs}"), &[]), 10);
    assert_refused(&app.post_form(&page, "share=true", &[]), 10);
    std::thread::sleep(Duration::from_secs(wait));
    let now = app.get(&format!("/api/v1/invitations/{}", bob["id"].as_str().unwrap()), &b.key);
    assert_eq!(now.json["status"], "pending", "nothing was accepted: {}", now.text);
    let r = app.post_form(&bob_page, &format!("share=true&code={bobs}"), &[]);
    assert_eq!(r.status, 200, "the refused entry spent no try of the code: {}", r.text);
    assert!(r.text.contains("You accepted"), "{}", r.text);
});

// D53: 60 wrong API keys from one address, then more until 429; the right admin token from that
// address is answered 200 at once (before, it waited with the address), while a valid API key
// from it still waits (D8, T88). The key is asked right after the admin API: refused then, the
// address was over its budget when the admin API answered (a refusal blocks from its moment on);
// if the block had just ended, the round is tried again.
crate::e2e!(the_right_admin_token_is_accepted_after_60_wrong_api_keys_d53, per_key(), |app| {
    let o = app.org("professional", "active");
    let mut guesses = 0;
    let mut guess = || {
        guesses += 1;
        app.get("/api/v1/persons", &format!("tk_{guesses:0>60}"))
    };
    let (seen, refused) = until_429(100, |_| guess());
    assert!(seen.len() >= 60 && seen.iter().all(|r| r.status == 401), "{} answered", seen.len());
    assert_refused(&refused, 60);
    let mut proven = false;
    for _ in 0..20 {
        let admin = app.admin("GET", &format!("/admin/v1/organizations/{}", o.id), None);
        assert_eq!(admin.status, 200, "the right admin token is accepted: {}", admin.text);
        assert!(admin.header("x-ratelimit-limit").is_none(), "no budget of failed requests on it: {admin:?}");
        if app.get("/api/v1/me", &o.key).status == 429 {
            proven = true;
            break;
        }
        assert_eq!(until_429(5, |_| guess()).1.status, 429);
    }
    assert!(proven, "the address was never seen over its budget right after the admin API answered");
});

// D53: wrong admin tokens spend the address's admin budget only: 401 with that budget's headers,
// then 429; the public API from the address is unaffected (a valid key 200, a wrong key 401 with a
// full budget of failed requests). While the address is over its admin budget the right token
// waits too, so that no guess from it is checked (T150); once its next attempt conforms, it is
// accepted. (Budgets of 10 a minute: the address waits about 6 s once it is over.)
crate::e2e!(wrong_admin_tokens_spend_only_the_admin_budget_of_the_address_d53, small_budget(false), |app| {
    let o = app.org("professional", "active");
    let (seen, refused) = until_429(30, |n| {
        if n % 5 == 4 {
            app.request_to(&app.admin_base, "GET", "/admin/v1/emails", &[], None)
        } else {
            let auth = format!("Bearer adm_guess_{n}_{}", "x".repeat(40));
            app.request_to(&app.admin_base, "GET", "/admin/v1/emails", &[("Authorization", &auth)], None)
        }
    });
    assert!(seen.iter().all(|r| r.status == 401 && num(r, "x-ratelimit-limit") == 10), "{seen:?}");
    assert_eq!(num(&seen[0], "x-ratelimit-remaining"), 9);
    assert!((10..=11).contains(&seen.len()), "{} guesses answered before the 429", seen.len());
    assert_refused(&refused, 10);
    let right = app.admin("GET", "/admin/v1/emails", None);
    let wait = assert_refused(&right, 10);
    let me = app.get("/api/v1/me", &o.key);
    assert_eq!(me.status, 200, "a key from the address still works: {}", me.text);
    let failed = app.get("/api/v1/me", "tk_not_a_key");
    assert_eq!(failed.status, 401);
    assert_eq!(num(&failed, "x-ratelimit-remaining"), 9, "the address's budget of failed keys is untouched");
    std::thread::sleep(Duration::from_secs(wait));
    let r = app.admin("GET", "/admin/v1/emails", None);
    assert_eq!(r.status, 200, "{}", r.text);
});

/// Starts the binary with `args` and `TALENT_ADMIN_TOKEN` (when given) and returns whether it
/// listened, with what it printed (stdout, stderr) until then or until it exited.
fn start(args: &[&str], token: Option<&str>) -> (bool, String, String) {
    use std::io::{BufRead, Read};
    let dir = std::env::temp_dir().join(format!("talent-e2e-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_talent"));
    cmd.args(args)
        .env_remove("TALENT_ADMIN_TOKEN")
        .env("DATABASE_URL", format!("sqlite://{}/t.db", dir.display()))
        .env("TALENT_LISTEN", "127.0.0.1:0")
        .env("TALENT_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    if let Some(t) = token {
        cmd.env("TALENT_ADMIN_TOKEN", t);
    }
    let mut child = cmd.spawn().expect("start talent");
    let stdout = child.stdout.take().expect("stdout");
    let mut out = String::new();
    let mut listening = false;
    for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
        out.push_str(&line);
        out.push('\n');
        if line.starts_with("Listening on ") {
            listening = true;
            break;
        }
    }
    if listening {
        let _ = child.kill();
    }
    let status = child.wait().expect("wait");
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).unwrap();
    assert!(listening || !status.success(), "a refused start-up exits non-zero");
    let _ = std::fs::remove_dir_all(&dir);
    (listening, out, err)
}

/// D53: `talent serve` and `talent demo` refuse a `TALENT_ADMIN_TOKEN` under 128 bits of estimated
/// entropy (a repeated character, a short or sequential token) with a message that names the
/// variable and how to make one, never the token; a token of 32 random bytes starts; `talent
/// demo` without a token makes one that passes the same rule.
#[test]
fn a_weak_admin_token_is_refused_at_start_up_d53() {
    let repeated = "a".repeat(36);
    let sequence = "0123456789abcdef".repeat(2);
    for (args, token) in [
        (&["serve"][..], repeated.as_str()),
        (&["serve"], "x"),
        (&["serve"], sequence.as_str()),
        (&["demo"], &repeated),
    ] {
        let (listening, _, err) = start(args, Some(token));
        assert!(!listening, "{args:?} with a weak token must not start");
        assert!(err.contains("TALENT_ADMIN_TOKEN is too weak"), "{err}");
        assert!(err.contains("openssl rand -hex 32"), "{err}");
        assert!(!err.contains(token) || token.len() == 1, "the token is not echoed: {err}");
    }
    let strong = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    assert!(start(&["serve"], Some(&strong)).0, "64 random hexadecimal digits start");
    let (listening, out, err) = start(&["demo"], None);
    assert!(listening, "{out}\n{err}");
    let token = out.lines().find_map(|l| l.strip_prefix("Admin token: ")).unwrap_or_else(|| panic!("{out}"));
    assert!(talent_app::admin_token::check(token).is_ok(), "the demo's token passes: {token}");
}
