//! T223 (issue 38): an `Idempotency-Key` survives a crash. The binary is stopped between the
//! commit of a request's work and its answer (the test-only fault point
//! `TALENT_TEST_CRASH_AFTER_COMMIT`); an instance started afterwards on the same database answers
//! the retry with the same key at once, replaying the committed answer, and the work is there
//! exactly once. For a batch stopped after its second item, the retry replays the two committed
//! items and runs the rest. Test mode's completion of an assessment (a test key's sandbox action)
//! likewise: replayed at once, one completed assessment; and its clock advance (T232): replayed at
//! once, the test data aged once. On SQLite and PostgreSQL.
use super::webhook_resilience::{agent, db_for, drop_db, setup, start_with, Instance, Receiver};
use serde_json::{json, Value};

const ADMIN: &str = "adm_crash_keys_4f1d0c9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a";

/// `POST {base}{path}` with `Idempotency-Key: idem`: the status, the replay header and the body;
/// `None` when the connection ended without an answer.
fn post(base: &str, key: &str, path: &str, idem: &str, body: &Value) -> Option<(u16, bool, Value)> {
    let req = ureq::http::Request::builder()
        .method("POST")
        .uri(format!("{base}{path}"))
        .header("Authorization", format!("Bearer {key}"))
        .header("Content-Type", "application/json")
        .header("Idempotency-Key", idem)
        .body(body.to_string().into_bytes())
        .unwrap();
    let mut r = agent().run(req).ok()?;
    let replayed = r.headers().get("idempotency-replayed").is_some_and(|v| v == "true");
    let text = r.body_mut().read_to_string().ok()?;
    Some((r.status().as_u16(), replayed, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// The ids of the persons with `email`.
fn ids_of(base: &str, key: &str, email: &str) -> Vec<String> {
    let (s, page) = super::webhook_resilience::call(
        &agent(),
        "GET",
        &format!("{base}/api/v1/persons?email={email}&status=any"),
        key,
        None,
    );
    assert_eq!(s, 200, "{page}");
    page["data"].as_array().unwrap().iter().map(|p| p["id"].as_str().unwrap().to_string()).collect()
}

/// A test-mode key (D60) of the organization of the live key `key`.
fn test_key_of(base: &str, key: &str) -> String {
    use super::webhook_resilience::call;
    let a = agent();
    let (_, me) = call(&a, "GET", &format!("{base}/api/v1/me"), key, None);
    let org = me["organizationId"].as_str().unwrap();
    let (_, users) = call(&a, "GET", &format!("{base}/admin/v1/organizations/{org}/users"), ADMIN, None);
    let user = users["data"][0]["id"].as_str().unwrap();
    let body =
        json!({"scopes": ["persons:write", "results:read", "invitations:read", "invitations:write"], "mode": "test"});
    let (s, k) = call(&a, "POST", &format!("{base}/admin/v1/users/{user}/api-keys"), ADMIN, Some(body));
    assert_eq!(s, 201, "{k}");
    k["key"].as_str().unwrap().to_string()
}

/// Starts an instance that stops after `point` commits, sends `run`'s request, and checks the
/// instance ended without answering; then starts one without the fault point.
fn crash_at(db: &str, point: &str, run: impl FnOnce(&str) -> Option<(u16, bool, Value)>) -> Instance {
    let mut crashing = start_with(db, ADMIN, &[("TALENT_TEST_CRASH_AFTER_COMMIT", point)]);
    assert_eq!(run(&crashing.base), None, "no answer from an instance that stopped after the commit");
    assert!(crashing.ended_within(10), "the instance stopped at {point}");
    start_with(db, ADMIN, &[])
}

fn a_crash_between_commit_and_answer_leaves_a_key_that_replays_at_once(kind: &str) {
    let Some(db) = db_for(kind) else { return eprintln!("skipped: TEST_DATABASE_URL unset") };
    let hook = Receiver::start();
    let key = {
        let first = start_with(&db.url, ADMIN, &[]);
        setup(&first.base, ADMIN, &hook.url)
    };

    // One import: committed, never answered; the retry replays it at once.
    let body = json!({"email": "crash@example.com", "tags": ["t223"]});
    let app = crash_at(&db.url, "/api/v1/persons", |base| post(base, &key, "/api/v1/persons", "crash-1", &body));
    let (status, replayed, person) = post(&app.base, &key, "/api/v1/persons", "crash-1", &body).unwrap();
    assert_eq!((status, replayed), (201, true), "the committed answer, replayed: {person}");
    let id = person["id"].as_str().unwrap().to_string();
    assert_eq!(ids_of(&app.base, &key, "crash@example.com"), [id], "stored exactly once");
    let again = post(&app.base, &key, "/api/v1/persons", "crash-1", &body).unwrap();
    assert_eq!(again, (201, true, person), "the same answer every time");
    let (status, _, refused) =
        post(&app.base, &key, "/api/v1/persons", "crash-1", &json!({"email": "x@example.com"})).unwrap();
    assert_eq!((status, refused["code"].as_str()), (409, Some("idempotency_key_reused")), "{refused}");

    // A batch stopped after its second item: those two replay, the third runs now.
    let batch =
        json!({"persons": [{"email": "b0@example.com"}, {"email": "b1@example.com"}, {"email": "b2@example.com"}]});
    drop(app);
    let app = crash_at(&db.url, "/api/v1/persons/batch#1", |base| {
        post(base, &key, "/api/v1/persons/batch", "crash-2", &batch)
    });
    let (status, replayed, out) = post(&app.base, &key, "/api/v1/persons/batch", "crash-2", &batch).unwrap();
    assert_eq!((status, replayed), (200, false), "the batch ran again: {out}");
    let results = out["results"].as_array().unwrap();
    assert_eq!(results.iter().map(|r| r["status"].as_u64().unwrap()).collect::<Vec<_>>(), [201, 201, 201], "{out}");
    for (i, r) in results.iter().enumerate() {
        let email = format!("b{i}@example.com");
        assert_eq!(r["index"], i, "{out}");
        assert_eq!(ids_of(&app.base, &key, &email), [r["person"]["id"].as_str().unwrap()], "{email} once");
    }
    let (status, replayed, whole) = post(&app.base, &key, "/api/v1/persons/batch", "crash-2", &batch).unwrap();
    assert_eq!((status, replayed, &whole), (200, true, &out), "then the whole answer replays");

    // Test mode: a completion committed and never answered replays at once; one assessment.
    let test = test_key_of(&app.base, &key);
    let (s, _, tp) =
        post(&app.base, &test, "/api/v1/persons", "test-person", &json!({"email": "t@example.com"})).unwrap();
    assert_eq!(s, 201, "{tp}");
    let path = format!("/api/v1/test/persons/{}/complete-assessment", tp["id"].as_str().unwrap());
    drop(app);
    let app = crash_at(&db.url, &path, |base| post(base, &test, &path, "crash-3", &json!({"seed": 3})));
    let (status, replayed, done) = post(&app.base, &test, &path, "crash-3", &json!({"seed": 3})).unwrap();
    assert_eq!((status, replayed), (200, true), "the committed completion, replayed: {done}");
    let (s, person) = super::webhook_resilience::call(
        &agent(),
        "GET",
        &format!("{}/api/v1/persons/{}", app.base, tp["id"].as_str().unwrap()),
        &test,
        None,
    );
    assert_eq!((s, &person["assessment"]["count"]), (200, &json!(1)), "completed once: {person}");

    // Test mode's clock advance: committed with the expiry it caused, never answered; the retry
    // replays it at once and the test data aged once.
    let (s, _, inv) = post(
        &app.base,
        &test,
        "/api/v1/invitations",
        "test-inv",
        &json!({"email": "i@example.com", "sendEmail": false}),
    )
    .unwrap();
    assert_eq!(s, 201, "{inv}");
    let created = |base: &str| {
        let (s, i) = super::webhook_resilience::call(
            &agent(),
            "GET",
            &format!("{base}/api/v1/invitations/{}", inv["id"].as_str().unwrap()),
            &test,
            None,
        );
        assert_eq!(s, 200, "{i}");
        (i["status"].as_str().unwrap().to_string(), i["createdAt"].as_str().unwrap().to_string())
    };
    let before = created(&app.base).1;
    let path = "/api/v1/test/clock/advance";
    let days = json!({"seconds": 40 * 86_400});
    drop(app);
    let app = crash_at(&db.url, path, |base| post(base, &test, path, "crash-4", &days));
    let (status, replayed, done) = post(&app.base, &test, path, "crash-4", &days).unwrap();
    assert_eq!((status, replayed), (200, true), "the committed advance, replayed: {done}");
    assert_eq!(done, json!({"advancedSeconds": 40 * 86_400, "expired": 1, "reminded": 0}), "{done}");
    let (status_now, after) = created(&app.base);
    assert_eq!(status_now, "expired");
    let moved = |t: &str| time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339).unwrap();
    assert_eq!((moved(&before) - moved(&after)).whole_seconds(), 40 * 86_400, "aged once: {before} -> {after}");
    drop(app);
    drop_db(db);
}

#[test]
fn sqlite_a_crash_between_commit_and_answer_leaves_a_key_that_replays_at_once_t223() {
    a_crash_between_commit_and_answer_leaves_a_key_that_replays_at_once("sqlite");
}

#[test]
fn postgres_a_crash_between_commit_and_answer_leaves_a_key_that_replays_at_once_t223() {
    a_crash_between_commit_and_answer_leaves_a_key_that_replays_at_once("postgres");
}
