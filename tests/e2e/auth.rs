//! Authentication and authorization of `/api/v1` (spec, Authentication and Errors; D4, D5, D6, D41):
//! the 401 codes, `plan_upgrade_required`, `subscription_inactive`, `insufficient_scope`, and the
//! exact shapes of `GET /me` and `GET /organization`.
use crate::support::{Resp, TestApp, ALL_SCOPES};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::Duration;

/// A UUID that names nothing.
fn unknown_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The sorted key names of a JSON object.
pub(crate) fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> =
        v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().map(|s| s.as_str()).collect();
    k.sort_unstable();
    k
}

fn string_set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Adds a user of `role` to `org`; returns its id.
pub(crate) fn user(app: &TestApp, org: &str, email: &str, role: &str) -> String {
    let u = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{org}/users"),
        Some(&json!({"email": email, "role": role})),
    );
    assert_eq!(u.status, 201, "{}", u.text);
    u.json["id"].as_str().unwrap().to_string()
}

/// A request with a raw `Authorization` header value.
fn with_auth(app: &TestApp, path: &str, auth: &str) -> Resp {
    app.request("GET", path, &[("Authorization", auth)], None)
}

/// Every endpoint of `/api/v1`, with a person id for the item endpoints: (method, path, body).
fn every_endpoint(person: &str) -> Vec<(&'static str, String, Option<Value>)> {
    vec![
        ("GET", "/api/v1/me".into(), None),
        ("GET", "/api/v1/organization".into(), None),
        ("GET", "/api/v1/persons".into(), None),
        ("POST", "/api/v1/persons".into(), Some(json!({"email": "new@example.com"}))),
        ("GET", format!("/api/v1/persons/{person}"), None),
        ("PATCH", format!("/api/v1/persons/{person}"), Some(json!({"externalId": "x-1"}))),
        ("DELETE", format!("/api/v1/persons/{person}"), None),
    ]
}

fn call(app: &TestApp, method: &str, path: &str, key: &str, body: &Option<Value>) -> Resp {
    match body {
        Some(b) => app.send(method, path, key, b),
        None if method == "DELETE" => app.delete(path, key),
        None => app.request(method, path, &[("Authorization", &format!("Bearer {key}"))], None),
    }
}

// Spec, Errors: `unauthorized` = key missing.
crate::e2e!(a_request_without_authorization_header_is_401_unauthorized, Default::default(), |app| {
    app.org("business", "active");
    for (method, path, body) in every_endpoint(&unknown_id()) {
        let b = body.map(|b| b.to_string());
        let headers: &[(&str, &str)] = if b.is_some() { &[("Content-Type", "application/json")] } else { &[] };
        let r = app.request(method, &path, headers, b.as_deref().map(str::as_bytes));
        r.assert_error(401, "unauthorized");
    }
});

// Spec, Authentication 1 and Errors: `invalid_token` = key unknown or malformed (D41 format).
crate::e2e!(malformed_and_unknown_keys_are_401_invalid_token, Default::default(), |app| {
    let org = app.org("business", "active");
    assert_eq!(app.get("/api/v1/me", &org.key).status, 200);
    // Same lookup prefix (the 16 characters after `tk_`), different secret.
    let mut wrong_secret = org.key[..19].to_string();
    wrong_secret.push_str(&"A".repeat(org.key.len() - 19));
    assert_ne!(wrong_secret, org.key);
    let unknown = format!("tk_{}", "Zq9-_x".repeat(10));
    for auth in [
        format!("Basic {}", org.key),
        "Basic x".to_string(),
        "Bearer abc".to_string(),
        "Bearer".to_string(),
        "Bearer ".to_string(),
        org.key.clone(),
        format!("Bearer tk_{}", "a".repeat(39)),
        format!("Bearer {}+", &org.key[..org.key.len() - 1]),
        format!("Bearer {wrong_secret}"),
        format!("Bearer {unknown}"),
    ] {
        let r = with_auth(app, "/api/v1/me", &auth);
        r.assert_error(401, "invalid_token");
        assert!(!r.text.contains(&org.key), "the key is never echoed: {}", r.text);
    }
    // The genuine key still works after all that.
    assert_eq!(app.get("/api/v1/me", &org.key).status, 200);
});

// Spec, Authentication 2 and D39: revocation takes effect immediately.
crate::e2e!(a_revoked_key_is_refused_on_the_very_next_request, Default::default(), |app| {
    let org = app.org("business", "active");
    let (other, _) = app.key(&org.user_id, &["persons:read"]);
    assert_eq!(app.get("/api/v1/me", &org.key).status, 200);
    assert_eq!(app.get("/api/v1/persons", &org.key).status, 200);
    let d = app.admin("DELETE", &format!("/admin/v1/api-keys/{}", org.key_id), None);
    assert_eq!(d.status, 200, "{}", d.text);
    for path in ["/api/v1/me", "/api/v1/persons", "/api/v1/organization"] {
        app.get(path, &org.key).assert_error(401, "key_revoked");
    }
    app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "a@example.com"})).assert_error(401, "key_revoked");
    // Other keys of the same user are unaffected.
    assert_eq!(app.get("/api/v1/persons", &other).status, 200);
});

// Spec, Authentication 4: a key may expire; after `expiresAt` it gives 401 `key_expired`.
crate::e2e!(an_expired_key_is_refused_with_key_expired, Default::default(), |app| {
    let org = app.org("business", "active");
    let expires = time::OffsetDateTime::now_utc() + time::Duration::seconds(2);
    let k = app.admin(
        "POST",
        &format!("/admin/v1/users/{}/api-keys", org.user_id),
        Some(&json!({"scopes": ["persons:read"], "expiresAt": talent_domain::timefmt::format(expires)})),
    );
    assert_eq!(k.status, 201, "{}", k.text);
    let key = k.json["key"].as_str().unwrap().to_string();
    assert_eq!(k.json["expiresAt"], json!(talent_domain::timefmt::format(expires)));
    let r = app.get("/api/v1/persons", &key);
    assert_eq!(r.status, 200, "a key is valid before its expiry: {}", r.text);
    let left = expires - time::OffsetDateTime::now_utc();
    std::thread::sleep(Duration::from_millis(left.whole_milliseconds().max(0) as u64 + 300));
    app.get("/api/v1/persons", &key).assert_error(401, "key_expired");
    app.get("/api/v1/me", &key).assert_error(401, "key_expired");
    // The organization's other key is unaffected.
    assert_eq!(app.get("/api/v1/me", &org.key).status, 200);
});

// D5: a plan without API access gets 403 `plan_upgrade_required` on every endpoint, `/me` included;
// a plan change through the admin API takes effect on the next request.
crate::e2e!(a_starter_plan_key_gets_plan_upgrade_required_on_every_endpoint, Default::default(), |app| {
    let org = app.org("starter", "active");
    for (method, path, body) in every_endpoint(&unknown_id()) {
        let r = call(app, method, &path, &org.key, &body);
        r.assert_error(403, "plan_upgrade_required");
    }
    // With an inactive subscription too, the missing API access is what is reported.
    let p = app.admin(
        "PATCH",
        &format!("/admin/v1/organizations/{}", org.id),
        Some(&json!({"subscriptionStatus": "canceled"})),
    );
    assert_eq!(p.status, 200, "{}", p.text);
    app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "x@example.com"}))
        .assert_error(403, "plan_upgrade_required");
    app.get("/api/v1/me", &org.key).assert_error(403, "plan_upgrade_required");
    // An upgrade takes effect on the next request.
    let p = app.admin(
        "PATCH",
        &format!("/admin/v1/organizations/{}", org.id),
        Some(&json!({"plan": "professional", "subscriptionStatus": "active"})),
    );
    assert_eq!(p.status, 200, "{}", p.text);
    let me = app.get("/api/v1/me", &org.key);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json["plan"], "professional");
    let p = app.admin("PATCH", &format!("/admin/v1/organizations/{}", org.id), Some(&json!({"plan": "starter"})));
    assert_eq!(p.status, 200, "{}", p.text);
    app.get("/api/v1/me", &org.key).assert_error(403, "plan_upgrade_required");
});

// D4: trial_expired, needs_plan and canceled refuse writes with 403 `subscription_inactive`; reads
// keep working; D6: importBlocked is true while writes are refused. The status is read on every
// request, so an admin change takes effect at once.
crate::e2e!(inactive_subscriptions_block_writes_but_reads_keep_working, Default::default(), |app| {
    let org = app.org("professional", "active");
    let person = app.import(&org.key, json!({"email": "ada@example.com"}));
    let pid = person["id"].as_str().unwrap().to_string();
    for status in ["trial_expired", "needs_plan", "canceled"] {
        let p = app.admin(
            "PATCH",
            &format!("/admin/v1/organizations/{}", org.id),
            Some(&json!({"subscriptionStatus": status})),
        );
        assert_eq!(p.status, 200, "{}", p.text);
        assert_eq!(p.json["subscription"]["status"], status);
        // Writes.
        let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "new@example.com"}));
        r.assert_error(403, "subscription_inactive");
        let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "ada@example.com"}));
        r.assert_error(403, "subscription_inactive");
        let r = app.send("PATCH", &format!("/api/v1/persons/{pid}"), &org.key, &json!({"externalId": "x"}));
        r.assert_error(403, "subscription_inactive");
        app.delete(&format!("/api/v1/persons/{pid}"), &org.key).assert_error(403, "subscription_inactive");
        // Reads.
        let l = app.get("/api/v1/persons", &org.key);
        assert_eq!(l.status, 200, "{status}: {}", l.text);
        assert_eq!(l.json["data"].as_array().unwrap().len(), 1, "nothing was written: {}", l.text);
        assert_eq!(l.json["data"][0]["id"], json!(pid));
        assert_eq!(l.json["data"][0]["externalId"], Value::Null);
        assert_eq!(l.json["data"][0]["status"], "active");
        let g = app.get(&format!("/api/v1/persons/{pid}"), &org.key);
        assert_eq!(g.status, 200, "{}", g.text);
        let o = app.get("/api/v1/organization", &org.key);
        assert_eq!(o.status, 200, "{}", o.text);
        assert_eq!(o.json["subscription"]["status"], status);
        assert_eq!(o.json["usage"]["persons"]["importBlocked"], true, "D6: {}", o.text);
        assert_eq!(o.json["usage"]["persons"]["used"], 1);
        let me = app.get("/api/v1/me", &org.key);
        assert_eq!(me.status, 200, "{}", me.text);
    }
    // Back to active: writes work again on the next request.
    let p = app.admin(
        "PATCH",
        &format!("/admin/v1/organizations/{}", org.id),
        Some(&json!({"subscriptionStatus": "active"})),
    );
    assert_eq!(p.status, 200, "{}", p.text);
    let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "new@example.com"}));
    assert_eq!(r.status, 201, "{}", r.text);
    let o = app.get("/api/v1/organization", &org.key);
    assert_eq!(o.json["usage"]["persons"]["importBlocked"], false, "{}", o.text);
    assert_eq!(o.json["usage"]["persons"]["used"], 2);
});

// D4: trialing, active and past_due allow writes.
crate::e2e!(trialing_active_and_past_due_subscriptions_allow_writes, Default::default(), |app| {
    for status in ["trialing", "active", "past_due"] {
        let org = app.org_with(json!({
            "companyName": format!("Org {status}"), "email": "hr@acme.example",
            "plan": "professional", "subscriptionStatus": status,
        }));
        let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "ada@example.com"}));
        assert_eq!(r.status, 201, "{status}: {}", r.text);
        let id = r.json["id"].as_str().unwrap().to_string();
        let r = app.send("PATCH", &format!("/api/v1/persons/{id}"), &org.key, &json!({"externalId": "ext-1"}));
        assert_eq!(r.status, 200, "{status}: {}", r.text);
        assert_eq!(r.json["externalId"], "ext-1");
        let r = app.delete(&format!("/api/v1/persons/{id}"), &org.key);
        assert_eq!(r.status, 200, "{status}: {}", r.text);
        assert_eq!(r.json["status"], "archived");
        let o = app.get("/api/v1/organization", &org.key);
        assert_eq!(o.json["subscription"]["status"], status);
        assert_eq!(o.json["usage"]["persons"]["importBlocked"], false, "{status}: {}", o.text);
    }
});

// Spec, Authentication 7 and Errors: `insufficient_scope`; `/me` requires no scope.
crate::e2e!(a_persons_read_key_cannot_write_persons_or_read_the_organization, Default::default(), |app| {
    let org = app.org("business", "active");
    let pid = app.import(&org.key, json!({"email": "ada@example.com"}))["id"].as_str().unwrap().to_string();
    let (key, _) = app.key(&org.user_id, &["persons:read"]);
    app.send("POST", "/api/v1/persons", &key, &json!({"email": "new@example.com"}))
        .assert_error(403, "insufficient_scope");
    app.send("PATCH", &format!("/api/v1/persons/{pid}"), &key, &json!({"externalId": "x"}))
        .assert_error(403, "insufficient_scope");
    app.delete(&format!("/api/v1/persons/{pid}"), &key).assert_error(403, "insufficient_scope");
    app.get("/api/v1/organization", &key).assert_error(403, "insufficient_scope");
    let l = app.get("/api/v1/persons", &key);
    assert_eq!(l.status, 200, "{}", l.text);
    assert_eq!(l.json["data"].as_array().unwrap().len(), 1);
    assert_eq!(app.get(&format!("/api/v1/persons/{pid}"), &key).status, 200);
    let me = app.get("/api/v1/me", &key);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json["scopes"], json!(["persons:read"]));
    // Nothing was written by the refused requests.
    let g = app.get(&format!("/api/v1/persons/{pid}"), &org.key);
    assert_eq!((g.json["status"].as_str(), g.json["externalId"].as_str()), (Some("active"), None), "{}", g.text);
});

// Spec, Authentication 7: a `*:write` scope implies the matching `*:read` scope (only that one).
crate::e2e!(persons_write_implies_persons_read, Default::default(), |app| {
    let org = app.org("business", "active");
    let (key, _) = app.key(&org.user_id, &["persons:write"]);
    let r = app.send("POST", "/api/v1/persons", &key, &json!({"email": "ada@example.com"}));
    assert_eq!(r.status, 201, "{}", r.text);
    let pid = r.json["id"].as_str().unwrap().to_string();
    let l = app.get("/api/v1/persons", &key);
    assert_eq!(l.status, 200, "{}", l.text);
    assert_eq!(l.json["data"][0]["id"], json!(pid));
    assert_eq!(app.get(&format!("/api/v1/persons/{pid}"), &key).status, 200);
    app.get("/api/v1/organization", &key).assert_error(403, "insufficient_scope");
    // The key shows the scopes as granted, not the implied ones.
    assert_eq!(app.get("/api/v1/me", &key).json["scopes"], json!(["persons:write"]));
});

// Spec, GET /api/v1/me: no scope required; Key identity has exactly its fields (the spec's five
// and D60's `mode`).
crate::e2e!(me_needs_no_scope_and_returns_exactly_the_key_identity, Default::default(), |app| {
    let org = app.org("professional", "trialing");
    let me = app.get("/api/v1/me", &org.key);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(keys(&me.json), ["mode", "organizationId", "organizationRole", "plan", "scopes", "userId"]);
    assert_eq!(me.json["mode"], "live");
    assert_eq!(me.json["userId"], json!(org.user_id));
    assert_eq!(me.json["organizationId"], json!(org.id));
    assert_eq!(me.json["organizationRole"], "admin");
    assert_eq!(me.json["plan"], "professional");
    assert_eq!(string_set(&me.json["scopes"]), ALL_SCOPES.iter().map(|s| s.to_string()).collect());
    // A member with an unrelated scope only.
    let member = user(app, &org.id, "member@acme.example", "member");
    let (key, _) = app.key(&member, &["profiles:read"]);
    let me = app.get("/api/v1/me", &key);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(
        me.json,
        json!({"userId": member, "organizationId": org.id, "organizationRole": "member",
               "scopes": ["profiles:read"], "plan": "professional", "mode": "live"})
    );
    app.get("/api/v1/persons", &key).assert_error(403, "insufficient_scope");
});

// Spec, Organization (all fields, no others); D5 limits; D6 importBlocked.
crate::e2e!(organization_returns_exactly_the_spec_fields_with_the_plan_limits, Default::default(), |app| {
    for (plan, persons, profiles) in [("business", 5000, 250), ("professional", 500, 25)] {
        let org = app.org_with(json!({
            "companyName": format!("Acme {plan}"), "email": "HR@Acme.example", "plan": plan,
            "subscriptionStatus": "active", "currentPeriodEnd": "2031-02-03T04:05:06Z",
        }));
        app.import(&org.key, json!({"email": "a@example.com"}));
        app.import(&org.key, json!({"email": "b@example.com"}));
        let o = app.get("/api/v1/organization", &org.key);
        assert_eq!(o.status, 200, "{}", o.text);
        let v = &o.json;
        assert_eq!(keys(v), ["companyName", "createdAt", "email", "id", "subscription", "usage"]);
        assert_eq!(keys(&v["subscription"]), ["currentPeriodEnd", "plan", "status", "trialEndsAt"]);
        assert_eq!(keys(&v["usage"]), ["persons", "profiles"]);
        assert_eq!(keys(&v["usage"]["persons"]), ["importBlocked", "limit", "used"]);
        assert_eq!(keys(&v["usage"]["profiles"]), ["limit", "used"]);
        assert_eq!(v["id"], json!(org.id));
        assert_eq!(v["companyName"], json!(format!("Acme {plan}")));
        assert_eq!(v["email"], "hr@acme.example");
        let created = v["createdAt"].as_str().unwrap();
        assert!(created.ends_with('Z') && talent_domain::timefmt::parse(created).is_some(), "{created}");
        assert_eq!(
            v["subscription"],
            json!({"plan": plan, "status": "active", "trialEndsAt": null,
                   "currentPeriodEnd": "2031-02-03T04:05:06.000000Z"})
        );
        assert_eq!(
            v["usage"],
            json!({"persons": {"used": 2, "limit": persons, "importBlocked": false},
                   "profiles": {"used": 0, "limit": profiles}})
        );
        // An archived person frees a seat (D6).
        let list = app.get("/api/v1/persons", &org.key);
        let id = list.json["data"][0]["id"].as_str().unwrap().to_string();
        assert_eq!(app.delete(&format!("/api/v1/persons/{id}"), &org.key).status, 200);
        assert_eq!(app.get("/api/v1/organization", &org.key).json["usage"]["persons"]["used"], 1);
    }
});

// D41: keys are `tk_` + at least 40 URL-safe base64 characters, different every time.
crate::e2e!(keys_printed_by_the_admin_api_have_the_d41_format, Default::default(), |app| {
    let org = app.org("business", "active");
    let mut seen = BTreeSet::new();
    for k in [org.key.clone(), app.key(&org.user_id, &["persons:read"]).0, app.key(&org.user_id, &["persons:read"]).0] {
        let rest = k.strip_prefix("tk_").unwrap_or_else(|| panic!("{k}"));
        assert!(rest.len() >= 40, "{k}");
        assert!(rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{k}");
        assert!(seen.insert(k.clone()), "keys are unique");
        assert_eq!(app.get("/api/v1/me", &k).status, 200);
    }
});
