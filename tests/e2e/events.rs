//! The events feed, `GET /api/v1/events` (D48, T106): every event in commit order with its
//! sequence, paging with `after`, the `type` filter (repeatable), the read scope of each
//! resource, and the 400s of bad parameters.
use crate::persons::{create, id_of, keys};
use serde_json::{json, Value};

fn feed(app: &crate::support::TestApp, key: &str, query: &str) -> Value {
    let r = app.get(&format!("/api/v1/events{query}"), key);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn types(page: &Value) -> Vec<&str> {
    page["data"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap()).collect()
}

crate::e2e!(the_feed_lists_every_event_in_sequence_order_and_pages_with_after_d48, Default::default(), |app| {
    let org = app.org("business", "active");
    let empty = feed(app, &org.key, "");
    assert_eq!(empty, json!({"data": [], "pagination": {"hasMore": false, "nextCursor": null}}));
    let ids: Vec<String> =
        (0..3).map(|i| id_of(&create(app, &org.key, json!({"email": format!("f{i}@example.com")})))).collect();
    let archived = app.delete(&format!("/api/v1/persons/{}", ids[1]), &org.key);
    assert_eq!(archived.status, 200, "{}", archived.text);

    let all = feed(app, &org.key, "");
    assert_eq!(types(&all), ["person.created", "person.created", "person.created", "person.archived"]);
    let data = all["data"].as_array().unwrap();
    for (i, e) in data.iter().enumerate() {
        assert_eq!(keys(e), ["apiVersion", "createdAt", "data", "id", "sequence", "type"]);
        assert_eq!(e["apiVersion"], "v1");
        if i > 0 {
            assert!(e["sequence"].as_u64() > data[i - 1]["sequence"].as_u64(), "ascending");
        }
    }
    assert_eq!(data[0]["data"]["email"], "f0@example.com", "the Person object, as webhooks carry it (D34)");
    assert_eq!(data[3]["data"]["id"], json!(ids[1]));
    assert_eq!(data[3]["data"]["status"], "archived");

    // Paging: `nextCursor` is the last sequence; pass it as `after`.
    let first = feed(app, &org.key, "?limit=3");
    assert_eq!(first["pagination"]["hasMore"], true);
    let cursor = first["pagination"]["nextCursor"].as_str().unwrap().to_string();
    assert_eq!(cursor, data[2]["sequence"].to_string());
    let rest = feed(app, &org.key, &format!("?after={cursor}"));
    assert_eq!(rest["data"], json!([data[3].clone()]));
    assert_eq!(rest["pagination"], json!({"hasMore": false, "nextCursor": null}));

    // `type` repeats; another organization's events never show.
    let only = feed(app, &org.key, "?type=person.archived&type=invitation.revoked");
    assert_eq!(types(&only), ["person.archived"]);
    let other = app.org("business", "active");
    create(app, &other.key, json!({"email": "x@example.com"}));
    assert_eq!(feed(app, &org.key, "").as_object().unwrap()["data"].as_array().unwrap().len(), 4);
    assert_eq!(types(&feed(app, &other.key, "")), ["person.created"]);
});

crate::e2e!(the_feed_refuses_bad_parameters_and_keys_without_a_read_scope_d48, Default::default(), |app| {
    let org = app.org("business", "active");
    for q in [
        "?after=-1",
        "?after=x",
        "?type=person.nope",
        "?limit=0",
        "?limit=101",
        "?after=9223372036854775808",
        "?cursor=1",
        "?after=1&after=2",
    ] {
        let r = app.get(&format!("/api/v1/events{q}"), &org.key);
        assert_eq!(r.status, 400, "{q}: {}", r.text);
        assert_eq!(r.json["code"], "validation_error", "{q}");
    }
    assert_eq!(feed(app, &org.key, "?type=ping")["data"], json!([]), "pings are never in the feed");
    let (org_only, _) = app.key(&org.user_id, &["organization:read"]);
    let r = app.get("/api/v1/events", &org_only);
    assert_eq!((r.status, r.json["code"].as_str()), (403, Some("insufficient_scope")), "{}", r.text);
    let (persons, _) = app.key(&org.user_id, &["persons:read"]);
    create(app, &org.key, json!({"email": "p@example.com"}));
    let r = app.get("/api/v1/events", &persons);
    assert_eq!(types(&r.json), ["person.created"], "{}", r.text);
    let r = app.get("/api/v1/events?type=invitation.revoked", &persons);
    assert_eq!((r.status, r.json["details"]["requiredScope"].as_str()), (403, Some("invitations:read")), "{}", r.text);
});
