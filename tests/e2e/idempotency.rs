//! `Idempotency-Key` on `POST /api/v1/persons` (spec, POST /persons; D38): replay of the stored
//! status, body and `X-Existing-Resource`; reuse with another body; canonical JSON; what is not
//! stored; organization scope; key syntax; concurrent requests under one key.
use crate::persons::{create, enc, fields, id_of, ids, page, par_map, person_path, post};
use crate::support::{Resp, TestApp};
use serde_json::{json, Value};

fn post_key(app: &TestApp, key: &str, idem: &str, body: &Value) -> Resp {
    app.send_with("POST", "/api/v1/persons", key, body, &[("Idempotency-Key", idem)])
}

fn post_raw(app: &TestApp, key: &str, idem: &str, body: &str) -> Resp {
    let auth = format!("Bearer {key}");
    app.request(
        "POST",
        "/api/v1/persons",
        &[("Authorization", &auth), ("Content-Type", "application/json"), ("Idempotency-Key", idem)],
        Some(body.as_bytes()),
    )
}

fn by_email(app: &TestApp, key: &str, email: &str) -> Vec<String> {
    ids(&page(app, key, &format!("email={}", enc(email))))
}

fn assert_replay_of(replay: &Resp, original: &Resp) {
    assert_eq!(replay.status, original.status, "{}", replay.text);
    assert_eq!(replay.header("idempotency-replayed"), Some("true"), "{}", replay.text);
    assert_eq!(replay.text, original.text, "the stored body is replayed byte for byte");
    assert_eq!(replay.header("x-existing-resource"), original.header("x-existing-resource"));
}

// D38: the same key and body → the stored status and body with `Idempotency-Replayed: true`;
// no second person; the replay is the stored response, not a re-run (later changes don't show).
crate::e2e!(retrying_with_the_same_key_and_body_replays_the_stored_response, Default::default(), |app| {
    let org = app.org("business", "active");
    let body = json!({"email": "ann@example.com", "firstName": "Ann", "tags": ["ats"]});
    let first = post_key(app, &org.key, "import-ann-1", &body);
    assert_eq!(first.status, 201, "{}", first.text);
    assert_eq!(first.header("idempotency-replayed"), None, "the original is not a replay");
    assert_eq!(first.header("x-existing-resource"), None);

    let again = post_key(app, &org.key, "import-ann-1", &body);
    assert_replay_of(&again, &first);
    assert_eq!(by_email(app, &org.key, "ann@example.com"), [id_of(&first.json)]);

    // Changed since: the replay still shows the stored response.
    let id = id_of(&first.json);
    let p = app.send("PATCH", &person_path(&id), &org.key, &json!({"externalId": "changed"}));
    assert_eq!(p.status, 200, "{}", p.text);
    let third = post_key(app, &org.key, "import-ann-1", &body);
    assert_replay_of(&third, &first);
    assert_eq!(third.json["externalId"], Value::Null);

    // Another key with the same body runs: the person exists, so 200 with X-Existing-Resource.
    let other = post_key(app, &org.key, "import-ann-2", &body);
    assert_eq!(other.status, 200, "{}", other.text);
    assert_eq!(other.header("x-existing-resource"), Some("true"));
    assert_eq!(other.header("idempotency-replayed"), None);
    assert_eq!(other.json["externalId"], "changed");
    assert_eq!(ids(&page(app, &org.key, "")), [id]);
});

// D38: the replay of a 200 existing-resource response keeps `X-Existing-Resource: true`.
crate::e2e!(a_replayed_existing_resource_response_keeps_x_existing_resource, Default::default(), |app| {
    let org = app.org("business", "active");
    let p = create(app, &org.key, json!({"email": "bea@example.com"}));
    let body = json!({"email": "BEA@example.com", "lastName": "Baker"});
    let first = post_key(app, &org.key, "merge-bea", &body);
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(first.header("x-existing-resource"), Some("true"));
    assert_eq!(first.header("idempotency-replayed"), None);
    assert_eq!(id_of(&first.json), id_of(&p));
    let again = post_key(app, &org.key, "merge-bea", &body);
    assert_replay_of(&again, &first);
    assert_eq!(again.header("x-existing-resource"), Some("true"));
    assert_eq!(ids(&page(app, &org.key, "")), [id_of(&p)]);
});

// D38: the same key with a different body → 409 idempotency_key_reused; nothing is executed;
// the original still replays.
crate::e2e!(the_same_key_with_a_different_body_is_409_idempotency_key_reused, Default::default(), |app| {
    let org = app.org("business", "active");
    let first = post_key(app, &org.key, "k-1", &json!({"email": "cat@example.com"}));
    assert_eq!(first.status, 201, "{}", first.text);
    for other in [
        json!({"email": "dog@example.com"}),
        json!({"email": "cat@example.com", "firstName": "Cat"}),
        json!({"email": "CAT@example.com"}),
    ] {
        let r = post_key(app, &org.key, "k-1", &other);
        r.assert_error(409, "idempotency_key_reused");
        assert_eq!(r.header("idempotency-replayed"), None);
    }
    assert_eq!(by_email(app, &org.key, "dog@example.com"), Vec::<String>::new());
    assert_eq!(app.get(&person_path(&id_of(&first.json)), &org.key).json["firstName"], Value::Null);
    assert_replay_of(&post_key(app, &org.key, "k-1", &json!({"email": "cat@example.com"})), &first);
});

// D38 "same JSON body": key order and whitespace do not matter; values and array order do.
crate::e2e!(the_same_json_in_another_key_order_or_whitespace_is_the_same_body, Default::default(), |app| {
    let org = app.org("business", "active");
    let first = post_raw(app, &org.key, "json-1", r#"{"email":"kim@example.com","firstName":"Kim","tags":["a","b"]}"#);
    assert_eq!(first.status, 201, "{}", first.text);
    let same = post_raw(
        app,
        &org.key,
        "json-1",
        "{\n  \"tags\" : [ \"a\" ,\"b\" ],\r\n\t\"firstName\": \"Kim\",   \"email\" : \"kim@example.com\"\n}\n",
    );
    assert_replay_of(&same, &first);
    post_raw(app, &org.key, "json-1", r#"{"email":"kim@example.com","firstName":"Kim","tags":["b","a"]}"#)
        .assert_error(409, "idempotency_key_reused");
    post_raw(app, &org.key, "json-1", r#"{"email":"kim@example.com","firstName":"Kim ","tags":["a","b"]}"#)
        .assert_error(409, "idempotency_key_reused");
    assert_eq!(ids(&page(app, &org.key, "")), [id_of(&first.json)]);
});

// D38: a 400 response is not stored, so a retry with a fixed body under the same key runs
// (201) and is stored from then on; a 409 of a request that ran (person_self_revoked) is stored.
crate::e2e!(a_400_is_not_stored_so_a_fixed_retry_under_the_same_key_succeeds, Default::default(), |app| {
    let org = app.org("business", "active");
    for _ in 0..2 {
        let bad = post_key(app, &org.key, "fix-me", &json!({"email": "not-an-email"}));
        assert_eq!(fields(&bad), ["email"]);
        assert_eq!(bad.header("idempotency-replayed"), None, "a 400 is never replayed");
    }
    let fixed = post_key(app, &org.key, "fix-me", &json!({"email": "fixed@example.com"}));
    assert_eq!(fixed.status, 201, "{}", fixed.text);
    assert_eq!(fixed.header("idempotency-replayed"), None);
    assert_replay_of(&post_key(app, &org.key, "fix-me", &json!({"email": "fixed@example.com"})), &fixed);
    post_key(app, &org.key, "fix-me", &json!({"email": "not-an-email"})).assert_error(409, "idempotency_key_reused");

    // A refusal by the state table began executing: stored and replayed.
    let w = create(app, &org.key, json!({"email": "gone@example.com"}));
    let r = app.admin("POST", &format!("/admin/v1/persons/{}/withdraw", id_of(&w)), None);
    assert_eq!(r.status, 200, "{}", r.text);
    let refused = post_key(app, &org.key, "rejoin", &json!({"email": "gone@example.com"}));
    refused.assert_error(409, "person_self_revoked");
    assert_eq!(refused.header("idempotency-replayed"), None);
    let replayed = post_key(app, &org.key, "rejoin", &json!({"email": "gone@example.com"}));
    replayed.assert_error(409, "person_self_revoked");
    assert_replay_of(&replayed, &refused);
});

// D38 scope: organization (and path). The same key and body in two organizations run in each.
crate::e2e!(idempotency_keys_are_scoped_per_organization, Default::default(), |app| {
    let a = app.org("business", "active");
    let b = app.org("business", "active");
    let body = json!({"email": "dee@example.com"});
    let ra = post_key(app, &a.key, "shared-key", &body);
    let rb = post_key(app, &b.key, "shared-key", &body);
    for r in [&ra, &rb] {
        assert_eq!(r.status, 201, "{}", r.text);
        assert_eq!(r.header("idempotency-replayed"), None);
    }
    assert_ne!(id_of(&ra.json), id_of(&rb.json));
    assert_replay_of(&post_key(app, &a.key, "shared-key", &body), &ra);
    assert_replay_of(&post_key(app, &b.key, "shared-key", &body), &rb);
    // A different body under the same key in B is judged against B's record only.
    post_key(app, &b.key, "shared-key", &json!({"email": "eve@example.com"}))
        .assert_error(409, "idempotency_key_reused");
    assert_eq!(by_email(app, &a.key, "dee@example.com"), [id_of(&ra.json)]);
    assert_eq!(by_email(app, &b.key, "dee@example.com"), [id_of(&rb.json)]);
});

// D38: a key is 1 to 255 printable ASCII characters; anything else → 400 validation_error on
// `Idempotency-Key`, before anything runs.
crate::e2e!(malformed_idempotency_keys_are_400, Default::default(), |app| {
    let org = app.org("business", "active");
    let too_long = "k".repeat(256);
    for (i, bad) in ["", too_long.as_str(), "tab\there", "schlüssel", "key-\u{1f511}"].into_iter().enumerate() {
        let r = post_key(app, &org.key, bad, &json!({"email": format!("bad{i}@example.com")}));
        assert_eq!(fields(&r), ["Idempotency-Key"], "key {bad:?}: {}", r.text);
    }
    assert_eq!(ids(&page(app, &org.key, "")), Vec::<String>::new(), "nothing ran");

    let longest = "k".repeat(255);
    for (i, good) in [longest.as_str(), "order 42/#!~\"{}", "x"].into_iter().enumerate() {
        let body = json!({"email": format!("good{i}@example.com")});
        let r = post_key(app, &org.key, good, &body);
        assert_eq!(r.status, 201, "key {good:?}: {}", r.text);
        assert_replay_of(&post_key(app, &org.key, good, &body), &r);
    }
});

// D38 in-flight: 8 concurrent identical requests under one key create exactly one person; each
// answer is either 201 (the original, or a replay with the same id) or 409 conflict (the first
// request was still running); exactly one answer is the original.
crate::e2e!(concurrent_requests_under_one_key_create_exactly_one_person, Default::default(), |app| {
    let org = app.org("business", "active");
    for round in 0..3 {
        let email = format!("burst{round}@example.com");
        let idem = format!("burst-{round}");
        let body = json!({"email": email, "tags": ["burst"]});
        let barrier = std::sync::Barrier::new(8);
        let results = par_map(8, 8, |_| {
            barrier.wait();
            post_key(app, &org.key, &idem, &body)
        });
        let summary: Vec<_> = results.iter().map(|r| (r.status, r.header("idempotency-replayed"), r.code())).collect();
        let originals: Vec<&Resp> =
            results.iter().filter(|r| r.status == 201 && r.header("idempotency-replayed").is_none()).collect();
        assert_eq!(originals.len(), 1, "{summary:?}");
        let id = id_of(&originals[0].json);
        for r in &results {
            match r.status {
                201 => assert_eq!(id_of(&r.json), id, "{summary:?}"),
                409 => {
                    r.assert_error(409, "conflict");
                    assert_eq!(r.header("idempotency-replayed"), None);
                }
                s => panic!("unexpected status {s}: {}", r.text),
            }
        }
        assert_eq!(by_email(app, &org.key, &email), [id.as_str()]);
        // Once finished, the key replays.
        assert_replay_of(&post_key(app, &org.key, &idem, &body), originals[0]);
    }
    assert_eq!(ids(&page(app, &org.key, "")).len(), 3);
    // Without a key the same burst would merge, not conflict: the key is what makes 409 possible.
    let r = post(app, &org.key, &json!({"email": "burst0@example.com"}));
    assert_eq!(r.status, 200, "{}", r.text);
});
