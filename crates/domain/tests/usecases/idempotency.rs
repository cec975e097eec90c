//! Idempotency keys (D38).

use super::*;

// ---------------------------------------------------------------------------------------------
// Idempotency: D38
// ---------------------------------------------------------------------------------------------

const PATH: &str = "/api/v1/persons";

fn req(org: OrgId, path: &str, key: &str, hash: &str) -> IdempotentRequest {
    IdempotentRequest { org_id: org, path: path.into(), key: key.into(), request_hash: hash.into() }
}

fn begin(w: &World, org: OrgId, path: &str, key: &str, hash: &str) -> Result<IdempotencyBegin, UseCaseError> {
    block_on(w.svc.idempotency_begin(req(org, path, key, hash)))
}

fn finish(w: &World, key: &str, hash: &str, status: u16, body: &str, existing: bool) {
    let resp = StoredResponse { status, body: body.into(), existing_resource: existing };
    block_on(w.svc.idempotency_finish(req(w.org, PATH, key, hash), resp)).unwrap();
}

#[test]
fn a_new_idempotency_key_proceeds() {
    // D38.
    let w = world();
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(w.store.snapshot().idem.len(), 1);
}

#[test]
fn the_same_key_while_the_first_request_runs_is_a_conflict() {
    // D38: same key while the first request is still running: 409 `conflict`.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h1")), Code::Conflict);
}

#[test]
fn the_same_key_with_a_different_body_is_idempotency_key_reused() {
    // D38: different body: 409 `idempotency_key_reused` (in flight or done).
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h2")), Code::IdempotencyKeyReused);
    finish(&w, "k1", "h1", 201, "{}", false);
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h2")), Code::IdempotencyKeyReused);
}

#[test]
fn a_stored_response_is_replayed_for_the_same_key_and_body() {
    // D38: the stored status, body and X-Existing-Resource are replayed.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    finish(&w, "k1", "h1", 201, r#"{"id":"p1"}"#, false);
    let expected = IdempotencyBegin::Replay { status: 201, body: r#"{"id":"p1"}"#.into(), existing_resource: false };
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), expected);
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), expected, "replays again");

    begin(&w, w.org, PATH, "k2", "h9").unwrap();
    finish(&w, "k2", "h9", 200, r#"{"id":"p2"}"#, true);
    assert_eq!(
        begin(&w, w.org, PATH, "k2", "h9").unwrap(),
        IdempotencyBegin::Replay { status: 200, body: r#"{"id":"p2"}"#.into(), existing_resource: true }
    );

    // A business 409 (e.g. person_limit_reached) began executing: it is stored.
    begin(&w, w.org, PATH, "k3", "h3").unwrap();
    finish(&w, "k3", "h3", 409, r#"{"code":"person_limit_reached"}"#, false);
    assert!(matches!(begin(&w, w.org, PATH, "k3", "h3").unwrap(), IdempotencyBegin::Replay { status: 409, .. }));
}

#[test]
fn responses_that_are_not_stored_let_a_retry_proceed() {
    // D38: 400, 401, 403, 429 and 5xx are not stored.
    let w = world();
    for (i, status) in [400u16, 401, 403, 429, 500, 503].into_iter().enumerate() {
        let k = format!("k{i}");
        assert_eq!(begin(&w, w.org, PATH, &k, "h1").unwrap(), IdempotencyBegin::Proceed);
        finish(&w, &k, "h1", status, "{}", false);
        assert_eq!(begin(&w, w.org, PATH, &k, "h1").unwrap(), IdempotencyBegin::Proceed, "{status}");
        // A retry may even carry a different body.
        finish(&w, &k, "h1", status, "{}", false);
        assert_eq!(begin(&w, w.org, PATH, &k, "h2").unwrap(), IdempotencyBegin::Proceed, "{status}");
    }
}

#[test]
fn an_idempotency_key_is_scoped_by_organization_and_path() {
    // D38: scope organization and path.
    let w = world();
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    finish(&w, "k1", "h1", 201, "{}", false);
    assert_eq!(begin(&w, other, PATH, "k1", "h2").unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(begin(&w, w.org, "/api/v1/invitations", "k1", "h2").unwrap(), IdempotencyBegin::Proceed);
}

#[test]
fn a_stored_response_is_forgotten_after_24_hours() {
    // D38: kept 24 h.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    finish(&w, "k1", "h1", 201, "{}", false);
    w.clock.advance(Duration::hours(23) + Duration::minutes(59));
    assert!(matches!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), IdempotencyBegin::Replay { .. }));
    w.clock.advance(Duration::minutes(2));
    assert_eq!(begin(&w, w.org, PATH, "k1", "h2").unwrap(), IdempotencyBegin::Proceed);
    // The new request is now in flight under that key.
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h2")), Code::Conflict);
}

#[test]
fn an_in_flight_record_older_than_the_lease_is_taken_over() {
    // D38 with the in-flight lease: a request that died does not block its key for 24 h.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    w.clock.advance(Duration::minutes(4));
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h1")), Code::Conflict);
    w.clock.advance(Duration::minutes(2));
    assert_eq!(begin(&w, w.org, PATH, "k1", "h1").unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(code(begin(&w, w.org, PATH, "k1", "h1")), Code::Conflict);
}

#[test]
fn purging_removes_only_records_older_than_24_hours() {
    // D38: kept 24 h (background purge).
    let w = world();
    begin(&w, w.org, PATH, "old", "h").unwrap();
    w.clock.advance(Duration::hours(25));
    begin(&w, w.org, PATH, "new", "h").unwrap();
    assert_eq!(block_on(w.svc.idempotency_purge()).unwrap(), 1);
    let keys: Vec<String> = w.store.snapshot().idem.into_iter().map(|r| r.key).collect();
    assert_eq!(keys, vec!["new"]);
}

// ---------------------------------------------------------------------------------------------
// Claims in the work's transaction: T223
// ---------------------------------------------------------------------------------------------

/// A claim of `key` on `POST /api/v1/persons` whose answer is 201/200 with the person's id.
fn claim(w: &World, key: &str, hash: &str) -> Claim<ImportOutcome> {
    Claim::new(req(w.org, PATH, key, hash), |o: &ImportOutcome| StoredResponse {
        status: if o.created { 201 } else { 200 },
        body: format!(r#"{{"id":"{}"}}"#, o.person.id.0),
        existing_resource: !o.created,
    })
}

fn keyed_import(w: &World, c: Claim<ImportOutcome>, e: &str) -> Result<Keyed<ImportOutcome>, UseCaseError> {
    block_on(w.svc.import_person_keyed(w.org, import(e), c))
}

#[test]
fn a_claim_commits_its_answer_with_the_work_and_replays_it_t223() {
    let w = world();
    let first = claim(&w, "k1", "h1");
    let Keyed::Ran(done) = keyed_import(&w, first.clone(), "ann@example.com").unwrap() else { panic!("ran") };
    let answered = first.answered().expect("answered in the transaction");
    assert_eq!(
        answered,
        StoredResponse { status: 201, body: format!(r#"{{"id":"{}"}}"#, done.person.id.0), existing_resource: false }
    );
    let records = w.store.snapshot().idem;
    assert_eq!(records.len(), 1);
    assert_eq!(
        records[0].state,
        IdempotencyState::Done { status: 201, body: answered.body.clone(), existing_resource: false }
    );
    // The retry replays without running: no second person.created.
    let events = w.store.snapshot().events.len();
    let replay = keyed_import(&w, claim(&w, "k1", "h1"), "ann@example.com").unwrap();
    assert!(matches!(&replay, Keyed::Replayed(r) if *r == answered), "{replay:?}");
    assert_eq!(w.store.snapshot().events.len(), events);
    assert_eq!(block_on(w.svc.idempotency_peek(&req(w.org, PATH, "k1", "h1"))).unwrap(), Some(answered));
    // Another body under the key: refused in the transaction too.
    assert_eq!(code(keyed_import(&w, claim(&w, "k1", "h2"), "bob@example.com")), Code::IdempotencyKeyReused);
    assert_eq!(code(block_on(w.svc.idempotency_peek(&req(w.org, PATH, "k1", "h2")))), Code::IdempotencyKeyReused);
}

#[test]
fn work_that_fails_leaves_no_claim_so_a_retry_runs_anew_t223() {
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    for e in ["a@example.com", "b@example.com", "c@example.com"] {
        imported(&w, import(e));
    }
    let c = claim(&w, "full", "h1");
    assert_eq!(code(keyed_import(&w, c.clone(), "d@example.com")), Code::PersonLimitReached);
    assert_eq!(c.answered(), None);
    assert!(w.store.snapshot().idem.is_empty(), "rolled back with the work");
    // A seat is freed: the same key runs anew.
    let p = imported(&w, import("a@example.com"));
    block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    assert!(matches!(keyed_import(&w, claim(&w, "full", "h1"), "d@example.com").unwrap(), Keyed::Ran(o) if o.created));
}

#[test]
fn an_in_flight_record_is_a_conflict_until_its_lease_ends_t223() {
    // What a claim meets when the first request's transaction shares the commit of a group
    // (SQLite) or ran outside a transaction of work: 409 conflict, then taken over.
    let w = world();
    begin(&w, w.org, PATH, "k1", "h1").unwrap();
    assert_eq!(code(keyed_import(&w, claim(&w, "k1", "h1"), "ann@example.com")), Code::Conflict);
    w.clock.advance(Duration::minutes(6));
    assert!(matches!(keyed_import(&w, claim(&w, "k1", "h1"), "ann@example.com").unwrap(), Keyed::Ran(_)));
}

#[test]
fn a_refusal_is_recorded_once_and_only_with_a_stored_status_t223() {
    let w = world();
    let r = req(w.org, PATH, "k1", "h1");
    let not_found = StoredResponse { status: 404, body: r#"{"code":"not_found"}"#.into(), existing_resource: false };
    block_on(w.svc.idempotency_record(r.clone(), not_found.clone())).unwrap();
    let other = StoredResponse { status: 409, body: "{}".into(), existing_resource: false };
    block_on(w.svc.idempotency_record(r.clone(), other)).unwrap();
    assert_eq!(block_on(w.svc.idempotency_peek(&r)).unwrap(), Some(not_found), "the first answer stays");
    let r2 = req(w.org, PATH, "k2", "h1");
    block_on(
        w.svc.idempotency_record(
            r2.clone(),
            StoredResponse { status: 503, body: "{}".into(), existing_resource: false },
        ),
    )
    .unwrap();
    assert_eq!(block_on(w.svc.idempotency_peek(&r2)).unwrap(), None, "a 503 is not stored");
}
