//! Privacy and abuse, second pass (issue 33), over the real service on both backends: results are
//! not harvested by importing an address (D51), a person's withdrawal hides at once what only her
//! consent showed (D51), no live link sits in the database in clear (D52), and each organization
//! numbers its own events (D56).
use crate::dashboard::{sign_in_link, Http};
use crate::support::{eventually, Opts, Org, Resp, TestApp};
use crate::webhooks::Receiver;
use serde_json::{json, Value};
use std::time::Duration;

const DRIVE: &str = "9b51d491-f098-59ce-a81a-e3eba994b8ad";

fn sandbox() -> Opts {
    Opts { sandbox: true, insecure_webhooks: true, ..Default::default() }
}

fn org(app: &TestApp, name: &str) -> Org {
    app.org_with(
        json!({"companyName": name, "email": format!("hr@{}.example", name.to_lowercase()), "plan": "business"}),
    )
}

fn ok(r: Resp) -> Value {
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn created(r: Resp) -> Value {
    assert_eq!(r.status, 201, "{}", r.text);
    r.json
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap_or_else(|| panic!("no id in {v}")).to_string()
}

fn path_of(app: &TestApp, url: &Value) -> String {
    url.as_str().unwrap().strip_prefix(&app.base).unwrap().to_string()
}

/// The event types of organization `o`'s feed, oldest first.
fn feed_types(app: &TestApp, o: &Org) -> Vec<String> {
    let feed = ok(app.get("/api/v1/events?limit=100", &o.key));
    feed["data"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap().to_string()).collect()
}

/// Everything organization `o` can read about its person `p`: the person, results, matches,
/// report, and the dashboard's person page.
struct Seen {
    person: Value,
    results: Value,
    matches: Resp,
    report: Resp,
    page: String,
}

fn seen(app: &TestApp, o: &Org, dashboard: &mut Http, p: &str) -> Seen {
    Seen {
        person: ok(app.get(&format!("/api/v1/persons/{p}"), &o.key)),
        results: ok(app.get(&format!("/api/v1/persons/{p}/results"), &o.key)),
        matches: app.get(&format!("/api/v1/persons/{p}/matches"), &o.key),
        report: app.get(&format!("/api/v1/persons/{p}/report"), &o.key),
        page: dashboard.get(&format!("/dashboard/persons/{p}")).text,
    }
}

fn assert_sees_nothing(s: &Seen, who: &str) {
    assert_eq!(s.results["hasResults"], false, "{who}: results {}", s.results);
    assert_eq!(s.person["assessment"], json!({"status": "not_started", "completedAt": null, "count": 0}), "{who}");
    s.matches.assert_error(404, "not_found");
    assert_eq!(s.matches.json["details"], json!({"reason": "no_results"}), "{who}");
    s.report.assert_error(404, "not_found");
    assert!(s.page.contains("id=\"no-results\""), "{who}: the dashboard shows no results: {}", s.page);
}

// Finding 1, exactly as reported (D51): B imports alice@example.com (no act of hers). Later A
// invites her, she accepts on the invitation page and completes A's assessment. B's results,
// person, matches, profile matches, report, dashboard page, events feed and webhooks see nothing
// of it; A sees it.
crate::e2e!(d51_importing_an_address_harvests_no_results_of_another_organizations_assessment, sandbox(), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    let receiver = Receiver::start();
    created(app.send("POST", "/api/v1/webhooks", &b.key, &json!({"url": receiver.url, "events": ["*"]})));
    let profile = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/profiles", b.id),
        Some(&json!({"name": "Sales", "competencies": [{"competencyId": DRIVE, "weight": 1.0}]})),
    );
    let profile = id(&created(profile));
    let pb = id(&app.import(&b.key, json!({"email": "alice@example.com"})));

    let inv = created(app.send(
        "POST",
        "/api/v1/invitations",
        &a.key,
        &json!({"email": "alice@example.com", "sendEmail": true}),
    ));
    assert_eq!(inv["variant"], "assessment");
    let r = app.post_form(&path_of(app, &inv["url"]), "", &[]);
    assert_eq!(r.status, 200, "she accepts on the page: {}", r.text);
    let pa =
        ok(app.get(&format!("/api/v1/invitations/{}", id(&inv)), &a.key))["personId"].as_str().unwrap().to_string();
    assert_eq!(ok(app.get(&format!("/api/v1/persons/{pa}"), &a.key))["joinedVia"], "invitation_personal");
    let started = app.admin("POST", &format!("/admin/v1/persons/{pa}/assessments"), Some(&json!({"complete": false})));
    assert_eq!(started.status, 200, "{}", started.text);
    let done =
        app.admin("POST", &format!("/admin/v1/persons/{pa}/assessments"), Some(&json!({"complete": true, "seed": 4})));
    assert_eq!(done.status, 200, "{}", done.text);

    let mut dashboard = Http::new(app);
    dashboard.sign_in_to(app, "admin@acme.example", Some(&b.id));
    assert_sees_nothing(&seen(app, &b, &mut dashboard, &pb), "B");
    let matches = ok(app.get(&format!("/api/v1/profiles/{profile}/matches"), &b.key));
    assert_eq!(matches["data"], json!([]), "B's profile matches");
    let listed = ok(app.get("/api/v1/persons?assessmentStatus=completed", &b.key));
    assert_eq!(listed["data"], json!([]), "B's list filter");
    let b_feed = feed_types(app, &b);
    assert!(b_feed.iter().all(|t| !t.starts_with("assessment.")), "B's feed: {b_feed:?}");
    // A webhook of B received its person.created but nothing of the assessment.
    assert!(eventually(Duration::from_secs(10), || !receiver.hits.lock().unwrap().is_empty()));
    std::thread::sleep(Duration::from_millis(300));
    let types: Vec<String> = receiver
        .hits
        .lock()
        .unwrap()
        .iter()
        .filter_map(|h| serde_json::from_str::<Value>(&h.body).ok())
        .filter_map(|b| b["type"].as_str().map(str::to_string))
        .collect();
    assert!(types.contains(&"person.created".to_string()), "{types:?}");
    assert!(types.iter().all(|t| !t.starts_with("assessment.")), "B's webhook: {types:?}");

    // A, whose invitation she answered, sees it everywhere.
    let ra = ok(app.get(&format!("/api/v1/persons/{pa}/results"), &a.key));
    assert_eq!(ra["hasResults"], true);
    assert_eq!(app.get(&format!("/api/v1/persons/{pa}/report"), &a.key).status, 200);
    let a_feed = feed_types(app, &a);
    assert!(a_feed.contains(&"assessment.started".into()) && a_feed.contains(&"assessment.completed".into()));
});

// Finding 2 (D51 (c)): B imports alice, who has results from A; B asks for access and she gives
// her consent with the code. B sees her profile. She withdraws from B: at once B's results,
// summary, matches, report, dashboard page and events feed lose what only her consent showed.
crate::e2e!(d51_withdrawal_hides_at_once_what_only_consent_showed, sandbox(), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/profiles", b.id),
        Some(&json!({"name": "Sales", "competencies": [{"competencyId": DRIVE, "weight": 1.0}]})),
    );
    let pa = id(&app.import(&a.key, json!({"email": "alice@example.com"})));
    let pb = id(&app.import(&b.key, json!({"email": "alice@example.com"})));
    let done = app.admin("POST", &format!("/admin/v1/persons/{pa}/assessments"), Some(&json!({"complete": true})));
    assert_eq!(done.status, 200, "{}", done.text);
    assert_eq!(ok(app.get(&format!("/api/v1/persons/{pb}/results"), &b.key))["hasResults"], false);

    let inv = created(app.send(
        "POST",
        "/api/v1/invitations",
        &b.key,
        &json!({"email": "alice@example.com", "sendEmail": true}),
    ));
    assert_eq!(inv["variant"], "access_request");
    let path = path_of(app, &inv["url"]);
    let r = app.post_form(&path, "share=true", &[]);
    assert!(r.text.contains("name=\"code\""), "{}", r.text);
    let code = app.consent_code("alice@example.com");
    assert_eq!(app.post_form(&path, &format!("share=true&code={code}"), &[]).status, 200);
    let mut dashboard = Http::new(app);
    dashboard.sign_in_to(app, "admin@acme.example", Some(&b.id));
    let before = seen(app, &b, &mut dashboard, &pb);
    assert_eq!(before.person["sharedExistingProfile"], true);
    assert_eq!(before.results["hasResults"], true);
    assert_eq!(before.matches.status, 200);
    assert_eq!(before.report.status, 200);
    assert!(!before.page.contains("id=\"no-results\""));

    ok(app.admin("POST", &format!("/admin/v1/persons/{pb}/withdraw"), None));
    let after = seen(app, &b, &mut dashboard, &pb);
    assert_eq!(after.person["sharedExistingProfile"], false);
    assert_eq!(after.person["status"], "archived");
    assert_sees_nothing(&after, "B after the withdrawal");
    // A keeps what was taken for it.
    assert_eq!(ok(app.get(&format!("/api/v1/persons/{pa}/results"), &a.key))["hasResults"], true);
});

/// The token at the end of a link.
fn token_of(link: &str) -> String {
    link.rsplit('/').next().unwrap().to_string()
}

// Finding 3 (D52): after a dashboard sign-in and an invitation (emailed, with a webhook that
// receives it, created under an Idempotency-Key), no text column of any table holds the sign-in
// link's token, the invitation link's token or the session cookie. The sandbox still shows the
// emails as sent, the feed and the webhook still carry the link, and a replay answers it.
crate::e2e!(d52_no_live_link_or_token_is_stored_in_clear, sandbox(), |app| {
    let o = org(app, "Alpha");
    let receiver = Receiver::start();
    created(app.send("POST", "/api/v1/webhooks", &o.key, &json!({"url": receiver.url, "events": ["*"]})));
    let mut dashboard = Http::new(app);
    dashboard.sign_in(app, "admin@acme.example");
    let link = sign_in_link(app, "admin@acme.example");
    let body = json!({"email": "ada@example.com", "sendEmail": true, "firstName": "Ada"});
    let inv = created(app.send_with("POST", "/api/v1/invitations", &o.key, &body, &[("Idempotency-Key", "inv-1")]));
    let url = inv["url"].as_str().unwrap().to_string();
    let again = app.send_with("POST", "/api/v1/invitations", &o.key, &body, &[("Idempotency-Key", "inv-1")]);
    assert_eq!(again.header("idempotency-replayed"), Some("true"));
    assert_eq!(again.json["url"], json!(url), "the replay answers the link");
    assert!(eventually(Duration::from_secs(10), || {
        receiver.hits.lock().unwrap().iter().any(|h| h.body.contains("invitation.created"))
    }));
    let delivered =
        receiver.hits.lock().unwrap().iter().find(|h| h.body.contains("invitation.created")).unwrap().body.clone();
    assert!(delivered.contains(&url), "the webhook carries the link: {delivered}");
    let feed = ok(app.get("/api/v1/events?type=invitation.created", &o.key));
    assert_eq!(feed["data"][0]["data"]["url"], json!(url), "the feed carries the link");
    let mails = ok(app.admin("GET", "/admin/v1/emails?to=ada%40example.com", None));
    assert_eq!(mails["data"][0]["invitationUrl"], json!(url), "the sandbox shows the email as sent");
    assert!(mails["data"][0]["body"].as_str().unwrap().contains(&url));
    let session = dashboard.cookie(talent_web::SESSION_COOKIE).expect("signed in");

    let db = app.db_url();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    for (what, secret) in
        [("sign-in token", token_of(&link)), ("invitation token", token_of(&url)), ("session", session)]
    {
        assert_eq!(secret.len(), 43, "{what}: {secret}");
        let hits = rt.block_on(talent_store::testing::tables_containing(&db, &secret)).unwrap();
        assert_eq!(hits, vec![], "the {what} is stored in clear");
    }
    let names = rt.block_on(talent_store::testing::tables_containing(&db, "ada@example.com")).unwrap();
    assert!(
        names.contains(&("outbox_events".to_string(), "data".to_string())),
        "only the token is sealed in events: erasure still finds the address ({names:?})"
    );
});

// Finding 7 (D56): two new organizations written to in turn each see their own sequence numbers
// 1, 2, 3 with no gaps, so neither learns of the other's activity; the feed's `after` and
// replay work on those numbers.
crate::e2e!(d56_each_organization_numbers_its_own_events_from_one_without_gaps, sandbox(), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    for i in 0..3 {
        app.import(&a.key, json!({"email": format!("a{i}@example.com")}));
        app.import(&b.key, json!({"email": format!("b{i}@example.com")}));
    }
    for o in [&a, &b] {
        let feed = ok(app.get("/api/v1/events", &o.key));
        let seqs: Vec<u64> = feed["data"].as_array().unwrap().iter().map(|e| e["sequence"].as_u64().unwrap()).collect();
        assert_eq!(seqs, vec![1, 2, 3], "{feed}");
        let after = ok(app.get("/api/v1/events?after=2", &o.key));
        assert_eq!(after["data"].as_array().unwrap().len(), 1);
        assert_eq!(after["data"][0]["sequence"], 3);
    }
    let hook = created(app.send(
        "POST",
        "/api/v1/webhooks",
        &a.key,
        &json!({"url": "http://127.0.0.1:9/in", "events": ["*"]}),
    ));
    let replayed = app.send("POST", &format!("/api/v1/webhooks/{}/replay", id(&hook)), &a.key, &json!({"after": 1}));
    assert_eq!(replayed.status, 202, "{}", replayed.text);
    let replayed = replayed.json;
    assert_eq!((replayed["queued"].clone(), replayed["lastSequence"].clone()), (json!(2), json!(3)), "{replayed}");
});
