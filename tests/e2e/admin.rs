//! The admin API (D39): its token, organizations, users, API keys (spec, Authentication 3-5;
//! D41) and person deactivation, all in the spec's error envelope.
use crate::auth::{keys, user};
use crate::errors::validation_fields;
use crate::support::TestApp;
use serde_json::{json, Value};
use std::collections::BTreeSet;

fn create_org(app: &TestApp, body: Value) -> crate::support::Resp {
    app.admin("POST", "/admin/v1/organizations", Some(&body))
}

fn new_key(app: &TestApp, user: &str, body: Value) -> crate::support::Resp {
    app.admin("POST", &format!("/admin/v1/users/{user}/api-keys"), Some(&body))
}

fn scope_set(v: &Value) -> BTreeSet<&str> {
    v.as_array().unwrap_or_else(|| panic!("{v}")).iter().map(|s| s.as_str().unwrap()).collect()
}

fn future(secs: i64) -> String {
    talent_domain::timefmt::format(time::OffsetDateTime::now_utc() + time::Duration::seconds(secs))
}

// D39: `Authorization: Bearer {TALENT_ADMIN_TOKEN}`; missing gives 401 unauthorized, anything else
// 401 invalid_token. API keys are not admin tokens.
crate::e2e!(the_admin_api_requires_the_admin_token, Default::default(), |app| {
    let org = app.org("business", "active");
    let body = json!({"companyName": "X", "email": "x@example.com", "plan": "business"}).to_string();
    let get = format!("/admin/v1/organizations/{}", org.id);
    let wrong_tail = format!("Bearer {}x", app.admin_token);
    let basic = format!("Basic {}", app.admin_token);
    let api_key = format!("Bearer {}", org.key);
    let bare = app.admin_token.clone();
    for (method, path) in [("POST", "/admin/v1/organizations"), ("GET", get.as_str())] {
        let b = if method == "POST" { Some(body.as_bytes()) } else { None };
        let r = app.request(method, path, &[("Content-Type", "application/json")], b);
        r.assert_error(401, "unauthorized");
        for auth in ["Bearer wrong", "Bearer ", wrong_tail.as_str(), basic.as_str(), api_key.as_str(), bare.as_str()] {
            let r = app.request(method, path, &[("Authorization", auth), ("Content-Type", "application/json")], b);
            r.assert_error(401, "invalid_token");
            assert!(!r.text.contains(&app.admin_token), "the token is never echoed");
        }
    }
    // Nothing was created by the refused requests; the right token works.
    let r = app.admin("GET", &get, None);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["companyName"], "Acme");
});

// D39: POST /admin/v1/organizations → 201 the Organization object (the public one, plus the
// `employeeDomains` an operator sets, issue 16), status `trialing` by default; GET returns the same.
crate::e2e!(creating_an_organization_returns_the_public_organization_object, Default::default(), |app| {
    let r =
        create_org(app, json!({"companyName": "  Globex  ", "email": "Jobs@Globex.example", "plan": "professional"}));
    assert_eq!(r.status, 201, "{}", r.text);
    let o = r.json.clone();
    assert_eq!(
        keys(&o),
        [
            "companyName",
            "createdAt",
            "email",
            "employeeDomains",
            "id",
            "locale",
            "redirectHosts",
            "subscription",
            "timeZone",
            "usage"
        ]
    );
    assert_eq!(o["employeeDomains"], json!([]));
    // T217, T219: what the organization's persons see by default.
    assert_eq!((&o["locale"], &o["timeZone"], &o["redirectHosts"]), (&json!("en"), &json!("UTC"), &json!([])));
    assert!(uuid::Uuid::parse_str(o["id"].as_str().unwrap()).is_ok());
    assert_eq!(o["companyName"], "Globex");
    assert_eq!(o["email"], "jobs@globex.example");
    assert_eq!(
        o["subscription"],
        json!({"plan": "professional", "status": "trialing", "trialEndsAt": null, "currentPeriodEnd": null})
    );
    assert_eq!(
        o["usage"],
        json!({"persons": {"used": 0, "limit": 500, "importBlocked": false}, "profiles": {"used": 0, "limit": 25}})
    );
    let id = o["id"].as_str().unwrap();
    let g = app.admin("GET", &format!("/admin/v1/organizations/{id}"), None);
    assert_eq!(g.status, 200, "{}", g.text);
    assert_eq!(g.json, o);
    // With every optional field; the public endpoint shows the same object.
    let r = create_org(
        app,
        json!({"companyName": "Initech", "email": "hr@initech.example", "plan": "business",
               "subscriptionStatus": "needs_plan", "trialEndsAt": "2030-01-01T00:00:00+01:00",
               "currentPeriodEnd": "2030-02-01T12:00:00.5Z", "employeeDomains": ["initech.example"]}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        r.json["subscription"],
        json!({"plan": "business", "status": "needs_plan", "trialEndsAt": "2029-12-31T23:00:00.000000Z",
               "currentPeriodEnd": "2030-02-01T12:00:00.500000Z"})
    );
    assert_eq!(r.json["usage"]["persons"], json!({"used": 0, "limit": 5000, "importBlocked": true}));
    let id = r.json["id"].as_str().unwrap().to_string();
    let uid = user(app, &id, "admin@initech.example", "admin");
    let (key, _) = app.key(&uid, &["organization:read"]);
    let p = app.get("/api/v1/organization", &key);
    assert_eq!(p.status, 200, "{}", p.text);
    assert_eq!(r.json["employeeDomains"], json!(["initech.example"]));
    let mut public = r.json.clone();
    for operators_only in ["employeeDomains", "locale", "timeZone", "redirectHosts"] {
        public.as_object_mut().unwrap().remove(operators_only);
    }
    assert_eq!(p.json, public, "the public object has the spec's members only");
});

// D39: organization bodies are validated: unknown plan, bad email, bad status, bad dates.
crate::e2e!(organization_creation_rejects_unknown_plans_and_bad_emails, Default::default(), |app| {
    let base = json!({"companyName": "Acme", "email": "hr@acme.example", "plan": "business"});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    for (body, field) in [
        (with("plan", json!("enterprise")), "plan"),
        (with("plan", json!("Business")), "plan"),
        (with("email", json!("not-an-email")), "email"),
        (with("email", json!("")), "email"),
        (with("companyName", json!("   ")), "companyName"),
        (with("subscriptionStatus", json!("paused")), "subscriptionStatus"),
        (with("trialEndsAt", json!("2030-01-01")), "trialEndsAt"),
        (with("employeeDomains", json!(["ok.example", "not a domain"])), "employeeDomains[1]"),
    ] {
        let r = create_org(app, body.clone());
        assert_eq!(validation_fields(&r), [field], "{body}");
    }
    let r = create_org(app, json!({"companyName": "Acme", "email": "hr@acme.example"}));
    assert_eq!(validation_fields(&r), ["plan"]);
    // Nothing was created: a valid body still works.
    assert_eq!(create_org(app, base).status, 201);
});

// D39: GET/PATCH /admin/v1/organizations/{id}; unknown ids are 404.
crate::e2e!(organizations_can_be_read_and_patched_and_unknown_ids_are_404, Default::default(), |app| {
    let unknown = uuid::Uuid::new_v4();
    app.admin("GET", &format!("/admin/v1/organizations/{unknown}"), None).assert_error(404, "not_found");
    app.admin("GET", "/admin/v1/organizations/not-a-uuid", None).assert_error(404, "not_found");
    app.admin("PATCH", &format!("/admin/v1/organizations/{unknown}"), Some(&json!({"plan": "business"})))
        .assert_error(404, "not_found");
    let org = app.org("professional", "trialing");
    let path = format!("/admin/v1/organizations/{}", org.id);
    let before = app.admin("GET", &path, None).json;
    let r = app.admin(
        "PATCH",
        &path,
        Some(&json!({"plan": "business", "subscriptionStatus": "past_due", "companyName": "Acme Corp",
                     "currentPeriodEnd": "2031-01-01T00:00:00Z"})),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["companyName"], "Acme Corp");
    assert_eq!(r.json["email"], before["email"]);
    assert_eq!(r.json["createdAt"], before["createdAt"]);
    assert_eq!(
        r.json["subscription"],
        json!({"plan": "business", "status": "past_due", "trialEndsAt": null,
               "currentPeriodEnd": "2031-01-01T00:00:00.000000Z"})
    );
    assert_eq!(r.json["usage"]["persons"]["limit"], 5000);
    assert_eq!(r.json["usage"]["profiles"]["limit"], 250);
    assert_eq!(app.admin("GET", &path, None).json, r.json, "the change is stored");
    // Null clears a date; an empty patch changes nothing.
    let r = app.admin("PATCH", &path, Some(&json!({"currentPeriodEnd": null})));
    assert_eq!(r.json["subscription"]["currentPeriodEnd"], Value::Null, "{}", r.text);
    let r2 = app.admin("PATCH", &path, Some(&json!({})));
    assert_eq!(r2.status, 200, "{}", r2.text);
    assert_eq!(r2.json, r.json);
    // Invalid patches are refused and change nothing.
    let r = app.admin("PATCH", &path, Some(&json!({"plan": "enterprise", "companyName": "Nope"})));
    assert_eq!(validation_fields(&r), ["plan"]);
    let r = app.admin("PATCH", &path, Some(&json!({"email": "nope"})));
    assert_eq!(validation_fields(&r), ["email"]);
    let r = app.admin("PATCH", &path, Some(&json!({"subscriptionStatus": "paused"})));
    assert_eq!(validation_fields(&r), ["subscriptionStatus"]);
    let g = app.admin("GET", &path, None);
    assert_eq!(
        (g.json["companyName"].as_str(), g.json["subscription"]["plan"].as_str()),
        (Some("Acme Corp"), Some("business"))
    );
});

// D39: POST /admin/v1/organizations/{id}/users → 201 {id, organizationId, email, role, createdAt}.
crate::e2e!(users_are_created_as_admin_or_member_and_emails_are_unique_per_organization, Default::default(), |app| {
    let org = app.org("business", "active");
    let path = format!("/admin/v1/organizations/{}/users", org.id);
    let r = app.admin("POST", &path, Some(&json!({"email": "member@acme.example", "role": "member"})));
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(keys(&r.json), ["createdAt", "email", "id", "organizationId", "role"]);
    assert_eq!(r.json["organizationId"], json!(org.id));
    assert_eq!(r.json["email"], "member@acme.example");
    assert_eq!(r.json["role"], "member");
    assert!(uuid::Uuid::parse_str(r.json["id"].as_str().unwrap()).is_ok());
    assert!(talent_domain::timefmt::parse(r.json["createdAt"].as_str().unwrap()).is_some());
    // Duplicate email (also spelled differently) → 409 conflict.
    let r = app.admin("POST", &path, Some(&json!({"email": "member@acme.example", "role": "admin"})));
    r.assert_error(409, "conflict");
    let r = app.admin("POST", &path, Some(&json!({"email": "Member@ACME.example", "role": "member"})));
    r.assert_error(409, "conflict");
    // Validation.
    let r = app.admin("POST", &path, Some(&json!({"email": "owner@acme.example", "role": "owner"})));
    assert_eq!(validation_fields(&r), ["role"]);
    let r = app.admin("POST", &path, Some(&json!({"email": "nope", "role": "member"})));
    assert_eq!(validation_fields(&r), ["email"]);
    let r = app.admin("POST", &path, Some(&json!({"email": "x@acme.example", "role": "member", "name": "X"})));
    assert_eq!(validation_fields(&r), ["name"]);
    // Unknown organization.
    let r = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/users", uuid::Uuid::new_v4()),
        Some(&json!({"email": "a@acme.example", "role": "member"})),
    );
    r.assert_error(404, "not_found");
    // The owner was not created by the refused request.
    let r = app.admin("POST", &path, Some(&json!({"email": "owner@acme.example", "role": "admin"})));
    assert_eq!(r.status, 201, "{}", r.text);
});

// D39, D41: POST /admin/v1/users/{id}/api-keys → 201 {id, key, scopes, expiresAt, createdAt, name};
// DELETE /admin/v1/api-keys/{id} → 200 with revokedAt.
crate::e2e!(api_keys_are_created_shown_once_and_revoked, Default::default(), |app| {
    let org = app.org("business", "active");
    let expires = future(86_400);
    let r = new_key(
        app,
        &org.user_id,
        json!({"name": "ATS sync", "scopes": ["persons:write", "organization:read"], "expiresAt": expires}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(keys(&r.json), ["createdAt", "expiresAt", "id", "key", "mode", "name", "scopes"]);
    assert_eq!(r.json["name"], "ATS sync");
    assert_eq!(r.json["mode"], "live", "D60: a live key unless asked");
    assert_eq!(scope_set(&r.json["scopes"]), BTreeSet::from(["organization:read", "persons:write"]));
    assert_eq!(r.json["expiresAt"], json!(expires));
    assert!(r.json["key"].as_str().unwrap().starts_with("tk_"));
    let key = r.json["key"].as_str().unwrap().to_string();
    let id = r.json["id"].as_str().unwrap().to_string();
    // Without the optional fields.
    let r2 = new_key(app, &org.user_id, json!({"scopes": ["persons:read"]}));
    assert_eq!(r2.status, 201, "{}", r2.text);
    assert_eq!((&r2.json["name"], &r2.json["expiresAt"]), (&Value::Null, &Value::Null));
    assert_ne!(r2.json["key"], r.json["key"]);
    // Revocation returns the record without the value.
    assert_eq!(app.get("/api/v1/me", &key).status, 200);
    let d = app.admin("DELETE", &format!("/admin/v1/api-keys/{id}"), None);
    assert_eq!(d.status, 200, "{}", d.text);
    assert_eq!(keys(&d.json), ["createdAt", "expiresAt", "id", "name", "revokedAt", "scopes"]);
    assert_eq!(d.json["id"], json!(id));
    assert_eq!(d.json["createdAt"], r.json["createdAt"]);
    let revoked_at = d.json["revokedAt"].as_str().unwrap().to_string();
    assert!(talent_domain::timefmt::parse(&revoked_at).is_some(), "{revoked_at}");
    assert!(!d.text.contains(&key), "the key value is shown once");
    app.get("/api/v1/me", &key).assert_error(401, "key_revoked");
    // Revoking again changes nothing; unknown ids are 404.
    let d2 = app.admin("DELETE", &format!("/admin/v1/api-keys/{id}"), None);
    assert_eq!(d2.status, 200, "{}", d2.text);
    assert_eq!(d2.json["revokedAt"], json!(revoked_at));
    app.admin("DELETE", &format!("/admin/v1/api-keys/{}", uuid::Uuid::new_v4()), None).assert_error(404, "not_found");
    // Unknown user.
    new_key(app, &uuid::Uuid::new_v4().to_string(), json!({"scopes": ["persons:read"]})).assert_error(404, "not_found");
});

// Spec, Authentication 3: at most 10 active keys per user; the 11th → 409 conflict; revoking one
// frees a place.
crate::e2e!(a_user_can_have_at_most_ten_active_keys, Default::default(), |app| {
    let org = app.org("business", "active");
    let member = user(app, &org.id, "member@acme.example", "member");
    let mut ids = Vec::new();
    for i in 0..10 {
        let r = new_key(app, &member, json!({"name": format!("k{i}"), "scopes": ["persons:read"]}));
        assert_eq!(r.status, 201, "key {}: {}", i + 1, r.text);
        ids.push(r.json["id"].as_str().unwrap().to_string());
    }
    new_key(app, &member, json!({"scopes": ["persons:read"]})).assert_error(409, "conflict");
    // The limit is per user: the organization's admin (one key so far) can still create keys.
    assert_eq!(new_key(app, &org.user_id, json!({"scopes": ["persons:read"]})).status, 201);
    let d = app.admin("DELETE", &format!("/admin/v1/api-keys/{}", ids[3]), None);
    assert_eq!(d.status, 200, "{}", d.text);
    let r = new_key(app, &member, json!({"scopes": ["persons:read"]}));
    assert_eq!(r.status, 201, "{}", r.text);
    new_key(app, &member, json!({"scopes": ["persons:read"]})).assert_error(409, "conflict");
});

// Spec, Authentication 5: a key with `webhooks:manage` requires an administrator.
crate::e2e!(webhooks_manage_keys_require_an_admin_user, Default::default(), |app| {
    let org = app.org("business", "active");
    let member = user(app, &org.id, "member@acme.example", "member");
    let r = new_key(app, &member, json!({"scopes": ["persons:read", "webhooks:manage"]}));
    r.assert_error(403, "insufficient_scope");
    let r = new_key(app, &org.user_id, json!({"scopes": ["webhooks:manage"]}));
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.json["scopes"], json!(["webhooks:manage"]));
    // Every other scope is open to members.
    let others: Vec<&str> = crate::support::ALL_SCOPES.iter().copied().filter(|s| *s != "webhooks:manage").collect();
    let r = new_key(app, &member, json!({"scopes": others}));
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(scope_set(&r.json["scopes"]), others.iter().copied().collect());
});

// D39: key bodies are validated: scopes and expiresAt.
crate::e2e!(api_key_creation_rejects_unknown_scopes_and_past_expiry, Default::default(), |app| {
    let org = app.org("business", "active");
    let u = &org.user_id;
    assert_eq!(validation_fields(&new_key(app, u, json!({"scopes": ["persons:delete"]}))), ["scopes[0]"]);
    assert_eq!(validation_fields(&new_key(app, u, json!({"scopes": ["persons:read", "admin"]}))), ["scopes[1]"]);
    assert_eq!(validation_fields(&new_key(app, u, json!({"scopes": []}))), ["scopes"]);
    assert_eq!(validation_fields(&new_key(app, u, json!({"scopes": "persons:read"}))), ["scopes"]);
    let past = json!({"scopes": ["persons:read"], "expiresAt": "2020-01-01T00:00:00Z"});
    assert_eq!(validation_fields(&new_key(app, u, past)), ["expiresAt"]);
    let bad = json!({"scopes": ["persons:read"], "expiresAt": "tomorrow"});
    assert_eq!(validation_fields(&new_key(app, u, bad)), ["expiresAt"]);
    assert_eq!(validation_fields(&new_key(app, u, json!({"scopes": ["persons:read"], "name": ""}))), ["name"]);
    assert_eq!(validation_fields(&new_key(app, u, json!({"scopes": ["persons:read"], "ttl": 5}))), ["ttl"]);
    // None of the refused requests created a key: 9 more fit beside the org's own one.
    for i in 0..9 {
        assert_eq!(new_key(app, u, json!({"scopes": ["persons:read"]})).status, 201, "key {}", i + 2);
    }
    new_key(app, u, json!({"scopes": ["persons:read"]})).assert_error(409, "conflict");
});

// D39: deactivate / withdraw archive a person; unknown persons are 404.
crate::e2e!(deactivating_or_withdrawing_an_unknown_person_is_404, Default::default(), |app| {
    for action in ["deactivate", "withdraw"] {
        let r = app.admin("POST", &format!("/admin/v1/persons/{}/{action}", uuid::Uuid::new_v4()), None);
        r.assert_error(404, "not_found");
        app.admin("POST", &format!("/admin/v1/persons/nope/{action}"), None).assert_error(404, "not_found");
    }
    let org = app.org("business", "active");
    for (action, email) in [("deactivate", "a@example.com"), ("withdraw", "b@example.com")] {
        let pid = app.import(&org.key, json!({"email": email}))["id"].as_str().unwrap().to_string();
        let r = app.admin("POST", &format!("/admin/v1/persons/{pid}/{action}"), None);
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["id"], json!(pid));
        assert_eq!(r.json["status"], "archived");
        assert!(r.json["archivedAt"].is_string(), "{}", r.text);
    }
    let o = app.get("/api/v1/organization", &org.key);
    assert_eq!(o.json["usage"]["persons"]["used"], 0, "{}", o.text);
});

/// Walks an admin list page by page with `limit`; returns the items and the page sizes.
fn admin_walk(app: &TestApp, path: &str, limit: u32) -> (Vec<Value>, Vec<usize>) {
    let (mut items, mut sizes, mut cursor) = (vec![], vec![], None::<String>);
    loop {
        let mut url = format!("{path}?limit={limit}");
        if let Some(c) = &cursor {
            url.push_str(&format!("&cursor={c}"));
        }
        let r = app.admin("GET", &url, None);
        assert_eq!(r.status, 200, "{url}: {}", r.text);
        let data = r.json["data"].as_array().unwrap().clone();
        sizes.push(data.len());
        items.extend(data);
        assert_eq!(r.json["pagination"]["hasMore"], json!(r.json["pagination"]["nextCursor"].is_string()));
        match r.json["pagination"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return (items, sizes),
        }
    }
}

// Issue 16 point 5: the operator lists organizations (with employeeDomains), users and API keys,
// newest first and paginated like the public API, and finds a key whose id was not kept.
crate::e2e!(the_admin_api_lists_organizations_users_and_keys_newest_first_in_pages, Default::default(), |app| {
    let ids: Vec<String> = (0..3)
        .map(|i| {
            let r = create_org(
                app,
                json!({"companyName": format!("List {i}"), "email": format!("hr@list{i}.example"), "plan": "business",
                       "employeeDomains": [format!("list{i}.example")]}),
            );
            assert_eq!(r.status, 201, "{}", r.text);
            r.json["id"].as_str().unwrap().to_string()
        })
        .collect();
    let (orgs, sizes) = admin_walk(app, "/admin/v1/organizations", 2);
    assert_eq!(sizes, [2, 1]);
    let listed: Vec<&str> = orgs.iter().map(|o| o["id"].as_str().unwrap()).collect();
    assert_eq!(listed, [ids[2].as_str(), ids[1].as_str(), ids[0].as_str()], "newest first");
    assert_eq!(orgs[0]["employeeDomains"], json!(["list2.example"]));
    assert_eq!(orgs[0], app.admin("GET", &format!("/admin/v1/organizations/{}", ids[2]), None).json);

    let org = &ids[0];
    let users: Vec<String> = (0..3).map(|i| user(app, org, &format!("u{i}@list0.example"), "admin")).collect();
    let (listed, sizes) = admin_walk(app, &format!("/admin/v1/organizations/{org}/users"), 2);
    assert_eq!(sizes, [2, 1]);
    let got: Vec<&str> = listed.iter().map(|u| u["id"].as_str().unwrap()).collect();
    assert_eq!(got, [users[2].as_str(), users[1].as_str(), users[0].as_str()]);
    let one = app.admin("GET", &format!("/admin/v1/users/{}", users[1]), None);
    assert_eq!(one.status, 200, "{}", one.text);
    assert_eq!(one.json, listed[1]);

    let keys_made: Vec<String> = (0..3).map(|_| app.key(&users[0], &["persons:read"]).1).collect();
    let revoked = app.admin("DELETE", &format!("/admin/v1/api-keys/{}", keys_made[1]), None);
    assert_eq!(revoked.status, 200, "{}", revoked.text);
    let (listed, sizes) = admin_walk(app, &format!("/admin/v1/users/{}/api-keys", users[0]), 2);
    assert_eq!(sizes, [2, 1]);
    let got: Vec<&str> = listed.iter().map(|k| k["id"].as_str().unwrap()).collect();
    assert_eq!(got, [keys_made[2].as_str(), keys_made[1].as_str(), keys_made[0].as_str()]);
    assert!(listed.iter().all(|k| k.get("key").is_none()), "never a key's value");
    assert!(listed[1]["revokedAt"].is_string() && listed[0]["revokedAt"].is_null());

    // Bad pages and unknown parents.
    for q in ["limit=0", "limit=101", "cursor=forged", "bogus=1"] {
        let r = app.admin("GET", &format!("/admin/v1/organizations?{q}"), None);
        r.assert_error(400, "validation_error");
    }
    let (_, org_cursor) = {
        let r = app.admin("GET", "/admin/v1/organizations?limit=1", None);
        (r.status, r.json["pagination"]["nextCursor"].as_str().unwrap().to_string())
    };
    app.admin("GET", &format!("/admin/v1/organizations/{org}/users?cursor={org_cursor}"), None)
        .assert_error(400, "validation_error");
    let nil = uuid::Uuid::nil();
    app.admin("GET", &format!("/admin/v1/organizations/{nil}/users"), None).assert_error(404, "not_found");
    app.admin("GET", &format!("/admin/v1/users/{nil}/api-keys"), None).assert_error(404, "not_found");
    app.admin("GET", &format!("/admin/v1/users/{nil}"), None).assert_error(404, "not_found");
});

// Issue 16 point 5: profiles are listed, changed and deleted by the operator; a deletion frees a
// place of the plan's profile limit (D5, D25).
crate::e2e!(the_admin_api_lists_changes_and_deletes_profiles, Default::default(), |app| {
    let org = app.org("business", "active");
    let competency = {
        let me = app.get("/api/v1/me", &org.key);
        assert_eq!(me.status, 200);
        // A competency id of the model: from a profile the admin creates with a known one.
        let p = app.import(&org.key, json!({"email": "c@example.com"}));
        let id = p["id"].as_str().unwrap();
        assert_eq!(
            app.admin("POST", &format!("/admin/v1/persons/{id}/assessments"), Some(&json!({"complete": true}))).status,
            200
        );
        app.get(&format!("/api/v1/persons/{id}/results"), &org.key).json["competencies"]["scores"][0]["competencyId"]
            .clone()
    };
    let body = |name: &str| json!({"name": name, "description": "d", "competencies": [{"competencyId": competency, "weight": 0.5}]});
    let made: Vec<String> = (0..3)
        .map(|i| {
            let r = app.admin(
                "POST",
                &format!("/admin/v1/organizations/{}/profiles", org.id),
                Some(&body(&format!("P{i}"))),
            );
            assert_eq!(r.status, 201, "{}", r.text);
            r.json["id"].as_str().unwrap().to_string()
        })
        .collect();
    let (listed, sizes) = admin_walk(app, &format!("/admin/v1/organizations/{}/profiles", org.id), 2);
    assert_eq!(sizes, [2, 1]);
    assert_eq!(listed[0]["id"], json!(made[2]));

    let path = format!("/admin/v1/organizations/{}/profiles/{}", org.id, made[0]);
    let r = app.admin("PATCH", &path, Some(&json!({"name": "Renamed", "description": null})));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!((r.json["name"].as_str(), &r.json["description"]), (Some("Renamed"), &Value::Null));
    assert_eq!(r.json["competencies"], listed[2]["competencies"], "competencies kept");
    let public = app.get(&format!("/api/v1/profiles/{}", made[0]), &org.key);
    assert_eq!(public.json["name"], "Renamed");
    let bad = app.admin("PATCH", &path, Some(&json!({"competencies": [{"competencyId": competency, "weight": 2}]})));
    bad.assert_error(400, "validation_error");
    assert_eq!(bad.json["details"]["fields"][0]["field"], "competencies[0].weight");
    app.admin("PATCH", &path, Some(&json!({"bogus": 1}))).assert_error(400, "validation_error");

    let d = app.admin("DELETE", &path, None);
    assert_eq!(d.status, 204, "{}", d.text);
    app.get(&format!("/api/v1/profiles/{}", made[0]), &org.key).assert_error(404, "not_found");
    app.admin("DELETE", &path, None).assert_error(404, "not_found");
    app.admin("PATCH", &path, Some(&json!({"name": "x"}))).assert_error(404, "not_found");
    let used = app.get("/api/v1/organization", &org.key).json["usage"]["profiles"]["used"].clone();
    assert_eq!(used, 2, "the deleted profile no longer counts");
    let other = app.org("business", "active");
    let foreign = format!("/admin/v1/organizations/{}/profiles/{}", other.id, made[1]);
    app.admin("DELETE", &foreign, None).assert_error(404, "not_found");
});
