//! `POST /api/v1/persons/batch` (D49): up to 100 imports in one request, each answered as
//! `POST /persons` would (status, Person or error), each in its own transaction; one request
//! against the rate limit; an `Idempotency-Key` covers the whole batch.
use crate::persons::par_map;
use crate::support::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};

fn batch(app: &TestApp, key: &str, persons: Vec<Value>) -> Resp {
    app.send("POST", "/api/v1/persons/batch", key, &json!({ "persons": persons }))
}

fn results(r: &Resp) -> Vec<Value> {
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["results"].as_array().unwrap().clone()
}

fn statuses(items: &[Value]) -> Vec<u64> {
    items.iter().map(|i| i["status"].as_u64().unwrap()).collect()
}

crate::e2e!(each_item_of_a_batch_is_answered_as_its_single_import_would_be_d49, Default::default(), |app| {
    let org = app.org("business", "active");
    // What the single calls would meet: a member, an archived person, a deactivated one, one who
    // withdrew.
    app.import(&org.key, json!({"email": "member@example.com", "firstName": "Mem"}));
    let gone = app.import(&org.key, json!({"email": "gone@example.com"}))["id"].as_str().unwrap().to_string();
    assert_eq!(app.delete(&format!("/api/v1/persons/{gone}"), &org.key).status, 200);
    for (email, action) in [("deact@example.com", "deactivate"), ("left@example.com", "withdraw")] {
        let id = app.import(&org.key, json!({"email": email}))["id"].as_str().unwrap().to_string();
        assert_eq!(app.admin("POST", &format!("/admin/v1/persons/{id}/{action}"), None).status, 200);
    }
    let before =
        app.get("/api/v1/events?type=person.created&limit=100", &org.key).json["data"].as_array().unwrap().len();

    let r = batch(
        app,
        &org.key,
        vec![
            json!({"email": "new@example.com", "firstName": "New", "tags": ["b"]}),
            json!({"email": "member@example.com", "lastName": "Ber"}),
            json!({"email": "gone@example.com"}),
            json!({"email": "deact@example.com"}),
            json!({"email": "left@example.com"}),
            json!({"email": "not an address", "labels": ["boss"]}),
            json!({"email": "x@example.com", "bogus": 1}),
            json!({"email": "y@example.com", "tags": "not a list"}),
            json!({"email": "inv@example.com", "invitation": {"create": true, "sendEmail": false}}),
            json!({"email": "NEW@example.com"}),
            // A control character fails its own item only (T86 per item, as the single call).
            json!({"email": "ctl@example.com", "firstName": "Ada\u{0}", "tags": ["ok"]}),
        ],
    );
    let items = results(&r);
    assert_eq!(statuses(&items), [201, 200, 201, 409, 409, 400, 400, 400, 201, 200, 400]);
    assert_eq!(items[10]["error"]["details"]["fields"][0]["field"], "firstName", "{}", items[10]);
    let single =
        app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "ctl@example.com", "firstName": "Ada\u{0}"}));
    single.assert_error(400, "validation_error");
    assert_eq!(items[10]["error"], single.json, "the same error as the single call");
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item["index"], i);
        let keys: BTreeSet<&str> = item.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, BTreeSet::from(["error", "index", "person", "status"]));
        assert_eq!(item["person"].is_null(), item["status"].as_u64().unwrap() >= 400, "{item}");
        assert_eq!(item["error"].is_null(), item["status"].as_u64().unwrap() < 400, "{item}");
    }
    assert_eq!(items[0]["person"]["tags"], json!(["b"]));
    assert_eq!(items[0]["person"]["invitation"], Value::Null);
    assert_eq!(items[1]["person"]["lastName"], "Ber", "a merge fills the empty name (D12)");
    assert_eq!(items[2]["person"]["id"], json!(gone), "reactivated: the same membership");
    assert_eq!(items[3]["error"]["code"], "person_deactivated");
    assert_eq!(items[4]["error"]["code"], "person_self_revoked");
    assert_eq!(items[5]["error"]["code"], "validation_error");
    let fields: Vec<&str> = items[5]["error"]["details"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["email", "labels[0]"], "field paths as in the single call");
    assert_eq!(items[6]["error"]["details"]["fields"][0]["field"], "bogus");
    assert_eq!(items[7]["error"]["details"]["fields"][0]["field"], "tags");
    assert_eq!(items[8]["person"]["invitation"]["status"], "pending");
    assert_eq!(items[9]["person"]["id"], items[0]["person"]["id"], "the batch's own earlier item is merged into");

    // Each item is stored as the single call stores it, with its events.
    let single = app.get(&format!("/api/v1/persons/{}", items[0]["person"]["id"].as_str().unwrap()), &org.key);
    let mut want = items[0]["person"].clone();
    want.as_object_mut().unwrap().remove("invitation");
    assert_eq!(single.json, want);
    let created =
        app.get("/api/v1/events?type=person.created&limit=100", &org.key).json["data"].as_array().unwrap().len();
    assert_eq!(created - before, 3, "new, reactivated gone, inv");

    // The request as a whole: an object with 1 to 100 persons.
    for body in [
        json!({"persons": []}),
        json!({}),
        json!({"persons": [{}], "more": 1}),
        json!([1]),
        json!({"persons": [{}], "x\u{1b}": 1}),
    ] {
        app.send("POST", "/api/v1/persons/batch", &org.key, &body).assert_error(400, "validation_error");
    }
    let many: Vec<Value> = (0..101).map(|i| json!({"email": format!("m{i}@example.com")})).collect();
    let r = batch(app, &org.key, many);
    r.assert_error(400, "validation_error");
    assert_eq!(r.json["details"]["fields"][0]["field"], "persons");
    assert_eq!(app.get("/api/v1/persons?email=m0@example.com", &org.key).json["data"], json!([]), "nothing ran");
    assert_eq!(app.get("/api/v1/persons/batch", &org.key).status, 405);
    let (reader, _) = app.key(&org.user_id, &["persons:read"]);
    batch(app, &reader, vec![json!({"email": "r@example.com"})]).assert_error(403, "insufficient_scope");
});

crate::e2e!(an_item_that_is_not_an_object_fails_the_whole_batch_d62, Default::default(), |app| {
    let org = app.org("business", "active");
    let r = batch(
        app,
        &org.key,
        vec![json!({"email": "first@example.com"}), Value::Null, json!({"email": "third@example.com"}), json!([1])],
    );
    r.assert_error(400, "validation_error");
    let fields: Vec<(&str, &str)> = r.json["details"]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["field"].as_str().unwrap(), f["message"].as_str().unwrap()))
        .collect();
    assert_eq!(fields, [("persons[1]", "must be an object"), ("persons[3]", "must be an object")], "{}", r.text);
    for email in ["first@example.com", "third@example.com"] {
        let found = app.get(&format!("/api/v1/persons?email={email}"), &org.key);
        assert_eq!(found.json["data"], json!([]), "nothing ran: {email}");
    }
    for persons in [vec![Value::Null, Value::Null], vec![json!("a@example.com")], vec![json!(1), json!(true)]] {
        batch(app, &org.key, persons).assert_error(400, "validation_error");
    }
    // Objects are still judged one by one (D49).
    let items = results(&batch(app, &org.key, vec![json!({"email": "ok@example.com"}), json!({})]));
    assert_eq!(statuses(&items), [201, 400]);
});

crate::e2e!(an_idempotency_key_covers_the_whole_batch_d38_d49, Default::default(), |app| {
    let org = app.org("business", "active");
    let persons: Vec<Value> = (0..20).map(|i| json!({"email": format!("i{i}@example.com")})).collect();
    let body = json!({ "persons": persons });
    let key = [("Idempotency-Key", "batch-1")];
    let first = app.send_with("POST", "/api/v1/persons/batch", &org.key, &body, &key);
    assert_eq!(statuses(&results(&first)), [201; 20]);
    let again = app.send_with("POST", "/api/v1/persons/batch", &org.key, &body, &key);
    assert_eq!(again.header("idempotency-replayed"), Some("true"));
    assert_eq!(again.text, first.text, "the stored answer, byte for byte: all 201 again, nothing imported twice");
    let other = json!({"persons": [{"email": "other@example.com"}]});
    app.send_with("POST", "/api/v1/persons/batch", &org.key, &other, &key).assert_error(409, "idempotency_key_reused");
    // Without the key the same batch runs again: every item is now an existing member.
    assert_eq!(statuses(&results(&app.send("POST", "/api/v1/persons/batch", &org.key, &body))), [200; 20]);
    assert_eq!(app.get("/api/v1/organization", &org.key).json["usage"]["persons"]["used"], 20);
});

crate::e2e!(the_person_limit_reached_mid_batch_refuses_the_rest_d6_d49, Default::default(), |app| {
    let org = app.org("professional", "active");
    for b in 0..5 {
        let persons: Vec<Value> = (0..90).map(|i| json!({"email": format!("pre{b}-{i}@example.com")})).collect();
        assert!(statuses(&results(&batch(app, &org.key, persons))).iter().all(|&s| s == 201));
    }
    // 450 of 500: the 51st new person of this batch is refused, and every one after it, while a
    // member's import still answers 200.
    let mut persons: Vec<Value> = (0..100).map(|i| json!({"email": format!("late{i}@example.com")})).collect();
    persons[70] = json!({"email": "pre0-0@example.com"});
    let items = results(&batch(app, &org.key, persons));
    let s = statuses(&items);
    assert!(s[..50].iter().all(|&x| x == 201), "{s:?}");
    assert!(s[50..].iter().enumerate().all(|(i, &x)| x == if i + 50 == 70 { 200 } else { 409 }), "{s:?}");
    assert_eq!(items[99]["error"]["code"], "person_limit_reached");
    assert_eq!(items[99]["error"]["details"], json!({"used": 500, "limit": 500, "plan": "professional"}));
    assert_eq!(app.get("/api/v1/organization", &org.key).json["usage"]["persons"]["used"], 500);
});

crate::e2e!(eight_concurrent_batches_with_overlapping_emails_create_each_person_once_d49, Default::default(), |app| {
    let org = app.org("business", "active");
    // Batch b holds emails b*10 .. b*10+59 of 0..129: each email is in up to six batches.
    let answers: Vec<Vec<Value>> = par_map(8, 8, |b| {
        let persons: Vec<Value> =
            (b * 10..b * 10 + 60).map(|i| json!({"email": format!("o{i}@example.com")})).collect();
        results(&batch(app, &org.key, persons))
    });
    let mut created: BTreeMap<String, usize> = BTreeMap::new();
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for items in &answers {
        for item in items {
            let status = item["status"].as_u64().unwrap();
            assert!(status == 201 || status == 200, "{item}");
            let email = item["person"]["email"].as_str().unwrap().to_string();
            ids.entry(email.clone()).or_default().insert(item["person"]["id"].as_str().unwrap().to_string());
            if status == 201 {
                *created.entry(email).or_default() += 1;
            }
        }
    }
    assert_eq!(ids.len(), 130);
    assert!(ids.values().all(|s| s.len() == 1), "one person per email");
    assert_eq!(created.len(), 130, "each email created once");
    assert!(created.values().all(|&n| n == 1));
    assert_eq!(app.get("/api/v1/organization", &org.key).json["usage"]["persons"]["used"], 130);
    let (mut after, mut events) = (0, 0);
    loop {
        let page = app.get(&format!("/api/v1/events?type=person.created&limit=100&after={after}"), &org.key).json;
        let data = page["data"].as_array().unwrap();
        events += data.len();
        after = data.last().map_or(after, |e| e["sequence"].as_u64().unwrap());
        if page["pagination"]["hasMore"] != json!(true) {
            break;
        }
    }
    assert_eq!(events, 130, "one person.created per person");
});

crate::e2e!(
    a_batch_is_one_request_against_the_rate_limit_d49,
    Opts { rate_limit_mode: "per-key", ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let header = |r: &Resp, h: &str| r.header(h).unwrap().parse::<u64>().unwrap();
        let persons: Vec<Value> = (0..100).map(|i| json!({"email": format!("rl{i}@example.com")})).collect();
        let a = batch(app, &org.key, persons.clone());
        assert_eq!(statuses(&results(&a)), [201; 100]);
        let b = app.get("/api/v1/me", &org.key);
        // The budget refills while the batch runs, so compare with the whole budget: the batch
        // and this request took two of it, not 101.
        let (limit, left) = (header(&b, "x-ratelimit-limit"), header(&b, "x-ratelimit-remaining"));
        assert!(left + 2 >= limit, "the batch of 100 took one request of the budget: {left} of {limit} left");
    }
);
