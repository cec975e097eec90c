//! Test mode (D60): a `tk_test_` key acts on the organization's test twin only. Every list of the
//! API shows one mode's data and never the other's; the sandbox actions under `/api/v1/test/`
//! are the test keys' alone; a person of the same email in both modes is two humans, so a
//! completion in test mode never reaches live results.
use crate::support::*;
use serde_json::{json, Value};

fn test_key(app: &TestApp, user: &str) -> String {
    let k = app.admin(
        "POST",
        &format!("/admin/v1/users/{user}/api-keys"),
        Some(&json!({"scopes": ALL_SCOPES, "mode": "test"})),
    );
    assert_eq!(k.status, 201, "{}", k.text);
    assert_eq!(k.json["mode"], "test");
    let key = k.json["key"].as_str().unwrap().to_string();
    assert!(key.starts_with("tk_test_"), "{key}");
    key
}

fn ids(r: &Resp) -> Vec<String> {
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["data"].as_array().unwrap().iter().map(|i| i["id"].as_str().unwrap_or_default().to_string()).collect()
}

crate::e2e!(live_and_test_data_never_mix_on_any_list_d60, Default::default(), |app| {
    let org = app.org("business", "active");
    let live = org.key.clone();
    let test = test_key(app, &org.user_id);
    let me = app.get("/api/v1/me", &test);
    assert_eq!((me.json["mode"].as_str(), me.json["organizationId"].as_str()), (Some("test"), Some(org.id.as_str())));
    assert_eq!(app.get("/api/v1/me", &live).json["mode"], "live");
    let bad = app.admin(
        "POST",
        &format!("/admin/v1/users/{}/api-keys", org.user_id),
        Some(&json!({"scopes": ["persons:read"], "mode": "sandbox"})),
    );
    bad.assert_error(400, "validation_error");

    // The same email in both modes, an invitation, a webhook endpoint and their events in each.
    let mut made: Vec<(String, String, String, String)> = Vec::new(); // (key, person, invitation, webhook)
    for key in [&live, &test] {
        let p = app.import(key, json!({"email": "ada@example.com", "tags": ["both"]}));
        let i = app.send("POST", "/api/v1/invitations", key, &json!({"email": "ada@example.com", "sendEmail": true}));
        assert!(i.status == 201 || i.status == 200, "{}", i.text);
        let w =
            app.send("POST", "/api/v1/webhooks", key, &json!({"url": "https://hooks.example.com/t", "events": ["*"]}));
        assert_eq!(w.status, 201, "{}", w.text);
        let id = |v: &Value| v["id"].as_str().unwrap().to_string();
        made.push((key.to_string(), id(&p), id(&i.json), id(&w.json)));
    }
    let (l, t) = (&made[0], &made[1]);
    assert_ne!(l.1, t.1, "two persons");
    for (mine, other) in [(l, t), (t, l)] {
        let key = &mine.0;
        for (path, want, not) in [
            ("/api/v1/persons", &mine.1, &other.1),
            ("/api/v1/persons?updatedAfter=2000-01-01T00:00:00Z", &mine.1, &other.1),
            ("/api/v1/invitations", &mine.2, &other.2),
            ("/api/v1/webhooks", &mine.3, &other.3),
        ] {
            let found = ids(&app.get(path, key));
            assert!(found.contains(want) && !found.contains(not), "{path}: {found:?}");
        }
        let events = app.get("/api/v1/events", key);
        assert_eq!(events.status, 200, "{}", events.text);
        let text = events.text.clone();
        assert!(text.contains(mine.1.as_str()) && !text.contains(other.1.as_str()), "/api/v1/events: {text}");
        for path in [
            format!("/api/v1/persons/{}", other.1),
            format!("/api/v1/invitations/{}", other.2),
            format!("/api/v1/webhooks/{}", other.3),
        ] {
            app.get(&path, key).assert_error(404, "not_found");
        }
        let deliveries = app.get(&format!("/api/v1/webhooks/{}/deliveries", other.3), key);
        deliveries.assert_error(404, "not_found");
    }

    // Sandbox actions: a live key is refused; a test key completes its own person's assessment.
    let done = format!("/api/v1/test/persons/{}/complete-assessment", t.1);
    app.send("POST", &done, &live, &json!({})).assert_error(403, "test_key_required");
    app.get("/api/v1/test/emails", &live).assert_error(403, "test_key_required");
    app.send("POST", &format!("/api/v1/test/persons/{}/complete-assessment", l.1), &test, &json!({}))
        .assert_error(404, "not_found");
    let r = app.send("POST", &done, &test, &json!({"seed": 7}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["personId"], json!(t.1));
    let results = app.get(&format!("/api/v1/persons/{}/results", t.1), &test);
    assert_eq!(results.json["hasResults"], true, "{}", results.text);
    let live_results = app.get(&format!("/api/v1/persons/{}/results", l.1), &live);
    assert_eq!(
        live_results.json["hasResults"], false,
        "a test completion never reaches the live person: {}",
        live_results.text
    );
    let person = app.get(&format!("/api/v1/persons/{}", l.1), &live);
    assert_eq!(person.json["assessment"]["status"], "not_started", "{}", person.text);
    app.send("POST", &done, &test, &json!({"profileId": "x"})).assert_error(400, "validation_error");

    // Test emails are recorded, listed for the test key, and never reach the operator's outbox.
    let recorded = app.get("/api/v1/test/emails", &test);
    assert_eq!(recorded.status, 200, "{}", recorded.text);
    let list = recorded.json["data"].as_array().unwrap();
    assert!(list.iter().any(|m| m["to"] == "ada@example.com" && m["invitationId"] == json!(t.2)), "{}", recorded.text);
    assert!(list.iter().all(|m| m["invitationId"] != json!(l.2)), "only the test data's emails");
});

crate::e2e!(a_test_completion_reaches_the_asked_match_with_a_live_profile_d60, Default::default(), |app| {
    let org = app.org("business", "active");
    let test = test_key(app, &org.user_id);
    let person = |email: &str| app.import(&test, json!({"email": email}))["id"].as_str().unwrap().to_string();
    let first = person("first@example.com");
    let done = |id: &str, body: Value| {
        app.send("POST", &format!("/api/v1/test/persons/{id}/complete-assessment"), &test, &body)
    };
    let r = done(&first, json!({}));
    assert_eq!(r.status, 200, "{}", r.text);
    let results = app.get(&format!("/api/v1/persons/{first}/results"), &test);
    let competency = results.json["competencies"]["scores"][0]["competencyId"].clone();
    assert!(competency.is_string(), "{}", results.text);
    assert_eq!(app.get(&format!("/api/v1/persons/{first}/matches"), &test).json["data"], json!([]), "no profiles yet");

    // A profile of the live organization: the test data reads it, and matches against it.
    let made = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/profiles", org.id),
        Some(&json!({"name": "Analyst", "competencies": [{"competencyId": competency, "weight": 1.0}]})),
    );
    assert_eq!(made.status, 201, "{}", made.text);
    let profile = made.json["id"].as_str().unwrap().to_string();
    assert_eq!(ids(&app.get("/api/v1/profiles", &test)), vec![profile.clone()]);
    assert_eq!(app.get(&format!("/api/v1/profiles/{profile}"), &test).json["name"], "Analyst");

    let mut steered = Vec::new();
    for (email, category) in [("high@example.com", "high"), ("mid@example.com", "moderate"), ("low@example.com", "low")]
    {
        let id = person(email);
        let r = done(&id, json!({"seed": 3, "profileId": profile, "targetCategory": category}));
        assert_eq!(r.status, 200, "{}", r.text);
        let m = app.get(&format!("/api/v1/persons/{id}/matches"), &test);
        assert_eq!(m.status, 200, "{}", m.text);
        assert_eq!(m.json["data"][0]["profileId"], json!(profile), "{}", m.text);
        assert_eq!(m.json["data"][0]["category"], category, "{}", m.text);
        steered.push((id, category));
    }
    let listed = app.get(&format!("/api/v1/profiles/{profile}/matches"), &test);
    assert_eq!(listed.status, 200, "{}", listed.text);
    let data = listed.json["data"].as_array().unwrap();
    for (id, category) in &steered {
        assert!(data.iter().any(|m| m["personId"] == json!(id) && m["category"] == *category), "{}", listed.text);
    }
    assert!(
        app.get(&format!("/api/v1/profiles/{profile}/matches"), &org.key).json["data"].as_array().unwrap().is_empty(),
        "live matches never list test persons"
    );

    // Both or neither; an unknown profile; another organization's profile.
    let other = person("other@example.com");
    done(&other, json!({"targetCategory": "high"})).assert_error(400, "validation_error");
    done(&other, json!({"profileId": profile})).assert_error(400, "validation_error");
    let unknown = done(&other, json!({"profileId": uuid::Uuid::new_v4(), "targetCategory": "high"}));
    unknown.assert_error(400, "validation_error");
    assert_eq!(unknown.json["details"]["fields"][0]["field"], "profileId", "{}", unknown.text);
    done(&other, json!({"profileId": profile, "targetCategory": "best"})).assert_error(400, "validation_error");
});

crate::e2e!(the_data_subject_tools_reach_test_data_too_d60, Default::default(), |app| {
    // An address's test data is that person's data as much as its live data: the operator's
    // export lists it and erasure removes it.
    let org = app.org("business", "active");
    let test = test_key(app, &org.user_id);
    let live_person = app.import(&org.key, json!({"email": "hedda@example.com"}))["id"].as_str().unwrap().to_string();
    let test_person = app.import(&test, json!({"email": "hedda@example.com"}))["id"].as_str().unwrap().to_string();
    let r = app.send("POST", &format!("/api/v1/test/persons/{test_person}/complete-assessment"), &test, &json!({}));
    assert_eq!(r.status, 200, "{}", r.text);

    let x = app.admin("GET", "/admin/v1/humans/export?email=hedda%40example.com", None);
    assert_eq!(x.status, 200, "{}", x.text);
    let members: Vec<&str> =
        x.json["memberships"].as_array().unwrap().iter().filter_map(|m| m["person"]["id"].as_str()).collect();
    assert!(members.contains(&live_person.as_str()) && members.contains(&test_person.as_str()), "{}", x.text);
    assert_eq!(x.json["assessments"].as_array().unwrap().len(), 1, "{}", x.text);

    let e = app.admin("POST", "/admin/v1/humans/erase", Some(&json!({"email": "hedda@example.com"})));
    assert_eq!(e.status, 200, "{}", e.text);
    assert_eq!((e.json["memberships"].as_u64(), e.json["assessments"].as_u64()), (Some(2), Some(1)), "{}", e.text);
    for (key, id) in [(&org.key, &live_person), (&test, &test_person)] {
        let p = app.get(&format!("/api/v1/persons/{id}"), key);
        assert_eq!(p.json["email"], json!(format!("erased-{id}@invalid")), "{}", p.text);
    }
    app.get(&format!("/api/v1/persons/{test_person}/results"), &test).json["hasResults"]
        .as_bool()
        .filter(|has| !has)
        .expect("the test assessment is gone");
    app.admin("GET", "/admin/v1/humans/export?email=hedda%40example.com", None).assert_error(404, "not_found");
});
