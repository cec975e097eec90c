//! Idempotency records (`IdempotencyRepo`, D38).

use super::*;

pub fn idem_req(org: OrgId, path: &str, key: &str, hash: &str) -> IdempotentRequest {
    IdempotentRequest { org_id: org, path: path.into(), key: key.into(), request_hash: hash.into() }
}

pub async fn idem_get<S: Store + Clone>(svc: &Svc<S>, org: OrgId, path: &str, key: &str) -> Option<IdempotencyRecord> {
    let (path, key) = (path.to_string(), key.to_string());
    read(svc, move |tx| Box::pin(async move { tx.find_idempotency(org, &path, &key).await })).await
}

pub async fn concurrent_idempotency_begin_lets_exactly_one_proceed<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    assert_eq!(race_begin(&svc, org.id, "h1").await, 1, "one proceeds, seven get a conflict");
    let r = idem_get(&svc, org.id, "/v1/persons", "key-1").await.expect("record");
    assert_eq!(r.state, IdempotencyState::InFlight);
    assert_eq!(r.request_hash, "h1");

    // An abandoned in-flight record, then an expired stored one: exactly one request takes over.
    clock.advance(Duration::minutes(6));
    assert_eq!(race_begin(&svc, org.id, "h2").await, 1);
    let resp = StoredResponse { status: 201, body: "{}".into(), existing_resource: false };
    svc.idempotency_finish(idem_req(org.id, "/v1/persons", "key-1", "h2"), resp).await.unwrap();
    clock.advance(Duration::hours(25));
    assert_eq!(race_begin(&svc, org.id, "h3").await, 1);
}

/// Eight concurrent `idempotency_begin` of `key-1` with body hash `hash`: how many proceed (the
/// others must get `conflict`).
pub async fn race_begin<S: Store + Clone>(svc: &Svc<S>, org: OrgId, hash: &'static str) -> usize {
    let outcomes =
        race(svc, 8, |svc, _| async move { svc.idempotency_begin(idem_req(org, "/v1/persons", "key-1", hash)).await });
    let mut proceed = 0;
    for o in outcomes.await {
        match o {
            Ok(IdempotencyBegin::Proceed) => proceed += 1,
            other => assert_eq!(code(other), Code::Conflict),
        }
    }
    proceed
}

pub async fn idempotency_records_replay_reuse_takeover_and_expiry<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let req = |k: &str, h: &str| idem_req(org.id, "/v1/persons", k, h);

    assert_eq!(svc.idempotency_begin(req("k1", "h1")).await.unwrap(), IdempotencyBegin::Proceed);
    let body = r#"{"id":"x","note":"ünïcode"}"#.to_string();
    let resp = StoredResponse { status: 201, body: body.clone(), existing_resource: true };
    svc.idempotency_finish(req("k1", "h1"), resp).await.unwrap();
    let r = idem_get(&svc, org.id, "/v1/persons", "k1").await.unwrap();
    assert_eq!(r.state, IdempotencyState::Done { status: 201, body: body.clone(), existing_resource: true });
    assert_ne!(r.created_at.microsecond(), 0);
    assert_eq!(
        svc.idempotency_begin(req("k1", "h1")).await.unwrap(),
        IdempotencyBegin::Replay { status: 201, body: body.clone(), existing_resource: true }
    );
    assert_eq!(code(svc.idempotency_begin(req("k1", "h2")).await), Code::IdempotencyKeyReused);

    // Scope: organization + path.
    assert_eq!(
        svc.idempotency_begin(idem_req(org.id, "/v1/other", "k1", "h1")).await.unwrap(),
        IdempotencyBegin::Proceed
    );
    assert_eq!(
        svc.idempotency_begin(idem_req(other.id, "/v1/persons", "k1", "h1")).await.unwrap(),
        IdempotencyBegin::Proceed
    );

    // Responses that are not stored forget the key.
    assert_eq!(svc.idempotency_begin(req("k2", "h1")).await.unwrap(), IdempotencyBegin::Proceed);
    let resp = StoredResponse { status: 503, body: "{}".into(), existing_resource: false };
    svc.idempotency_finish(req("k2", "h1"), resp).await.unwrap();
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "k2").await, None);
    assert_eq!(svc.idempotency_begin(req("k2", "h1")).await.unwrap(), IdempotencyBegin::Proceed);

    // An abandoned in-flight record is taken over, once.
    assert_eq!(code(svc.idempotency_begin(req("k2", "h1")).await), Code::Conflict);
    clock.advance(Duration::minutes(6));
    assert_eq!(svc.idempotency_begin(req("k2", "h9")).await.unwrap(), IdempotencyBegin::Proceed);
    assert_eq!(code(svc.idempotency_begin(req("k2", "h9")).await), Code::Conflict);
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "k2").await.unwrap().request_hash, "h9");

    // After 24 h the key is fresh again.
    clock.advance(Duration::hours(24));
    assert_eq!(svc.idempotency_begin(req("k1", "h2")).await.unwrap(), IdempotencyBegin::Proceed);
    let r = idem_get(&svc, org.id, "/v1/persons", "k1").await.unwrap();
    assert_eq!((r.state, r.request_hash.as_str()), (IdempotencyState::InFlight, "h2"));
}

pub async fn idempotency_purge_deletes_old_records<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let req = |k: &str| idem_req(org.id, "/v1/persons", k, "h");
    svc.idempotency_begin(req("old-1")).await.unwrap();
    svc.idempotency_begin(req("old-2")).await.unwrap();
    let resp = StoredResponse { status: 200, body: "{}".into(), existing_resource: false };
    svc.idempotency_finish(req("old-2"), resp).await.unwrap();
    clock.advance(Duration::hours(24) + Duration::seconds(1));
    svc.idempotency_begin(req("new")).await.unwrap();
    assert_eq!(svc.idempotency_purge().await.unwrap(), 2);
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "old-1").await, None);
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "old-2").await, None);
    assert!(idem_get(&svc, org.id, "/v1/persons", "new").await.is_some());
    assert_eq!(svc.idempotency_purge().await.unwrap(), 0);

    // The boundary is exclusive: a record created exactly at `before` stays.
    let at = clock.now();
    let r = IdempotencyRecord {
        org_id: org.id,
        path: "/p".into(),
        key: "edge".into(),
        request_hash: "h".into(),
        state: IdempotencyState::InFlight,
        created_at: at,
    };
    let dup = r.clone();
    assert!(write(&svc, move |tx| Box::pin(async move { tx.idem_insert(&r).await })).await.unwrap());
    assert!(
        !write(&svc, move |tx| Box::pin(async move { tx.idem_insert(&dup).await })).await.unwrap(),
        "insert is once"
    );
    let purged = write(&svc, move |tx| Box::pin(async move { tx.idem_purge(at, 1000).await })).await.unwrap();
    assert_eq!(purged, 1, "only the older record ('new')");
    assert_eq!(idem_get(&svc, org.id, "/v1/persons", "new").await, None);
    assert!(idem_get(&svc, org.id, "/p", "edge").await.is_some());
    let after = at + Duration::microseconds(1);
    assert_eq!(write(&svc, move |tx| Box::pin(async move { tx.idem_purge(after, 1000).await })).await.unwrap(), 1);
    assert_eq!(idem_get(&svc, org.id, "/p", "edge").await, None);
}

/// T223: eight concurrent imports of new emails under one key, each claiming it in its own
/// transaction: exactly one runs (one person, one `person.created`, the record holding its
/// answer); the others replay that answer (PostgreSQL: after waiting for its commit) or, while it
/// shares their SQLite group, get 409 `conflict`. Then the key replays for good.
pub async fn concurrent_claims_of_one_key_run_the_work_once<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let o = org.id;
    let outcomes = race(&svc, 8, |svc, i| async move {
        let c = Claim::new(idem_req(o, "/v1/persons", "key-1", "h1"), |d: &ImportOutcome| StoredResponse {
            status: 201,
            body: d.person.email.as_str().to_string(),
            existing_resource: false,
        });
        // Each racer's own address: a second run would create a second person.
        svc.import_person_keyed(o, import(&format!("claim{i}@example.com")), c).await
    })
    .await;
    let mut ran = vec![];
    let mut replayed = vec![];
    for outcome in outcomes {
        match outcome {
            Ok(Keyed::Ran(d)) => ran.push(d.person.email.as_str().to_string()),
            Ok(Keyed::Replayed(r)) => replayed.push(r.body),
            other => assert_eq!(code(other), Code::Conflict),
        }
    }
    assert_eq!(ran.len(), 1, "exactly one runs");
    assert!(replayed.iter().all(|b| *b == ran[0]), "the others replay its answer: {replayed:?} vs {ran:?}");
    assert_eq!(count_active(&svc, o).await, 1, "one person");
    let created = events(&svc, o).await.into_iter().filter(|e| e.event_type == EventType::PersonCreated).count();
    assert_eq!(created, 1);
    let r = idem_get(&svc, o, "/v1/persons", "key-1").await.expect("record");
    assert_eq!(r.state, IdempotencyState::Done { status: 201, body: ran[0].clone(), existing_resource: false });
    let c = Claim::new(idem_req(o, "/v1/persons", "key-1", "h1"), |_: &ImportOutcome| StoredResponse {
        status: 500,
        body: String::new(),
        existing_resource: false,
    });
    let again = svc.import_person_keyed(o, import("late@example.com"), c).await.unwrap();
    assert!(matches!(again, Keyed::Replayed(r) if r.body == ran[0]));
}
