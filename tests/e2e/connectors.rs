//! ATS connections through the admin API (connectors.md D63): a connection mints the key the
//! administrator pastes into the ATS, shows its settings without its credentials, and deleting it
//! ends the key's access at once.
use crate::auth::keys;
use crate::errors::validation_fields;
use crate::support::TestApp;
use serde_json::{json, Value};

fn connect(app: &TestApp, org: &str, body: Value) -> crate::support::Resp {
    app.admin("POST", &format!("/admin/v1/organizations/{org}/connections"), Some(&body))
}

// D63: 201 with the connection and its key (shown once); the key has the four scopes and works on
// the public API; reads never show a credential; PATCH changes name, enabled and settings; DELETE
// revokes the key.
crate::e2e!(a_connection_mints_the_atss_key_and_deleting_it_ends_the_access_d63, Default::default(), |app| {
    let org = app.org("business", "active");
    let body = json!({
        "ats": "kombo",
        "name": "  Kombo  ",
        "settings": {"apiKey": "kombo-key-1", "integrationId": "acme", "webhookSecret": "kombo-secret-2"}
    });
    let r = connect(app, &org.id, body);
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(
        keys(&r.json),
        [
            "ats",
            "createdAt",
            "enabled",
            "failedPushes",
            "id",
            "key",
            "lastActivityAt",
            "locale",
            "name",
            "orders",
            "organizationId",
            "settings",
            "updatedAt"
        ]
    );
    assert_eq!((r.json["ats"].as_str(), r.json["name"].as_str()), (Some("kombo"), Some("Kombo")));
    assert_eq!(
        r.json["settings"],
        json!({"apiKeySet": true, "baseUrl": null, "integrationId": "acme", "webhookSecretSet": true})
    );
    assert!(!r.text.contains("kombo-key-1") && !r.text.contains("kombo-secret-2"), "credentials never shown");
    let id = r.json["id"].as_str().unwrap().to_string();
    let key = r.json["key"].as_str().unwrap().to_string();

    // The key works on the public API with exactly the four scopes.
    let k = app.get("/api/v1/persons?limit=1", &key);
    assert_eq!(k.status, 200, "persons:write implies persons:read: {}", k.text);
    app.get("/api/v1/webhooks", &key).assert_error(403, "insufficient_scope");
    let keys_of_admin = app.admin("GET", &format!("/admin/v1/users/{}/api-keys", org.user_id), None);
    let minted = keys_of_admin.json["data"].as_array().unwrap().iter().find(|k| k["name"] == "Kombo connection: Kombo");
    let minted = minted.unwrap_or_else(|| panic!("the minted key is the administrator's: {}", keys_of_admin.text));
    let mut scopes: Vec<&str> = minted["scopes"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    scopes.sort_unstable();
    assert_eq!(scopes, ["invitations:write", "persons:write", "profiles:read", "results:read"]);

    // Reads: the list and the connection, without `key`.
    let one = app.admin("GET", &format!("/admin/v1/connections/{id}"), None);
    assert_eq!(one.status, 200, "{}", one.text);
    assert!(one.json.get("key").is_none());
    let list = app.admin("GET", &format!("/admin/v1/organizations/{}/connections", org.id), None);
    assert_eq!(list.json["data"].as_array().unwrap().len(), 1, "{}", list.text);
    assert_eq!(list.json["data"][0], one.json);

    // PATCH: a credential cannot be cleared while the ATS needs it; a rename and a new key can.
    let clear =
        app.admin("PATCH", &format!("/admin/v1/connections/{id}"), Some(&json!({"settings": {"apiKey": null}})));
    assert_eq!(validation_fields(&clear), ["settings.apiKey"]);
    let p = app.admin(
        "PATCH",
        &format!("/admin/v1/connections/{id}"),
        Some(&json!({"name": "Kombo EU", "enabled": false, "settings": {"apiKey": "kombo-key-3"}})),
    );
    assert_eq!(p.status, 200, "{}", p.text);
    assert_eq!((p.json["name"].as_str(), p.json["enabled"].as_bool()), (Some("Kombo EU"), Some(false)));
    assert!(!p.text.contains("kombo-key-3"));

    // DELETE: 204, the key stops working at once, the connection is gone.
    let d = app.admin("DELETE", &format!("/admin/v1/connections/{id}"), None);
    assert_eq!(d.status, 204, "{}", d.text);
    app.get("/api/v1/persons?limit=1", &key).assert_error(401, "key_revoked");
    app.admin("GET", &format!("/admin/v1/connections/{id}"), None).assert_error(404, "not_found");
    let orders = app.admin("GET", &format!("/admin/v1/connections/{id}/orders"), None);
    orders.assert_error(404, "not_found");
});

// D63: bad bodies are field errors in the envelope and create nothing (no key either).
crate::e2e!(connection_bodies_are_checked_field_by_field_and_refusals_create_nothing_d63, Default::default(), |app| {
    let org = app.org("business", "active");
    let cases = [
        (json!({"ats": "lever", "name": "X"}), vec!["ats"]),
        (json!({"ats": "greenhouse", "name": " "}), vec!["name"]),
        (json!({"ats": "greenhouse", "name": "GH", "settings": {"apiKey": "k"}}), vec!["settings.apiKey"]),
        (json!({"ats": "ashby", "name": "A"}), vec!["settings.apiKey"]),
        (
            json!({"ats": "ashby", "name": "A", "settings": {"apiKey": "k", "baseUrl": "http://10.0.0.1"}}),
            vec!["settings.baseUrl"],
        ),
        (json!({"ats": "workable", "name": "W", "settings": {"token": "t"}}), vec![]),
    ];
    for (body, fields) in cases {
        let r = connect(app, &org.id, body.clone());
        if fields.is_empty() {
            r.assert_error(400, "validation_error");
        } else {
            assert_eq!(validation_fields(&r), fields, "{body}");
        }
    }
    let list = app.admin("GET", &format!("/admin/v1/organizations/{}/connections", org.id), None);
    assert_eq!(list.json["data"], json!([]), "{}", list.text);
    let keys_of_admin = app.admin("GET", &format!("/admin/v1/users/{}/api-keys", org.user_id), None);
    assert_eq!(keys_of_admin.json["data"].as_array().unwrap().len(), 1, "only the test's own key");
    let unknown = uuid::Uuid::now_v7();
    connect(app, &unknown.to_string(), json!({"ats": "greenhouse", "name": "GH"})).assert_error(404, "not_found");
    app.admin("GET", "/admin/v1/connections/not-a-uuid", None).assert_error(404, "not_found");
});

fn basic(key: &str) -> String {
    use base64::Engine;
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{key}:")))
}

/// A connection to `ats` of `org` through the admin API; returns its key.
fn connection(app: &TestApp, org: &str, ats: &str, settings: Value) -> String {
    let r = connect(app, org, json!({"ats": ats, "name": ats, "settings": settings}));
    assert_eq!(r.status, 201, "{}", r.text);
    r.json["key"].as_str().unwrap().to_string()
}

// D71-D73, D65-D67: Greenhouse lists the tests (the profiles and `talent-assessment`), sends one
// (its retry gets the same id and no second email), reads `sent` and then, after the person
// accepts and completes in the sandbox, `complete` with the match percentage as the score and flat
// metadata; another organization's key cannot read it.
crate::e2e!(greenhouse_sends_a_test_once_and_reads_its_status_and_score_d71_d73, Default::default(), |app| {
    let org = app.org("business", "active");
    let p = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/profiles", org.id),
        Some(&json!({"name": "Engineer", "competencies": [{"competencyId": "9b51d491-f098-59ce-a81a-e3eba994b8ad", "weight": 1.0}]})),
    );
    assert_eq!(p.status, 201, "{}", p.text);
    let profile = p.json["id"].as_str().unwrap().to_string();
    let key = connection(app, &org.id, "greenhouse", json!({}));
    let auth = basic(&key);
    let h = |extra: &'static str| [("Authorization", auth.as_str()), ("Content-Type", extra)];

    let tests = app.request("GET", "/partners/greenhouse/list_tests", &h("application/json"), None);
    assert_eq!(tests.status, 200, "{}", tests.text);
    let ids: Vec<&str> =
        tests.json.as_array().unwrap().iter().map(|t| t["partner_test_id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["talent-assessment", profile.as_str()]);
    assert_eq!(tests.json[1]["partner_test_name"], "Engineer");

    let body = json!({
        "partner_test_id": profile,
        "candidate": {"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com",
                      "greenhouse_profile_url": "https://app.greenhouse.io/people/7"},
        "url": "https://app.greenhouse.io/integrations/testing_partners/take_home_tests/7"
    })
    .to_string();
    let sent = app.request("POST", "/partners/greenhouse/send_test", &h("application/json"), Some(body.as_bytes()));
    assert_eq!(sent.status, 200, "{}", sent.text);
    let again = app.request("POST", "/partners/greenhouse/send_test", &h("application/json"), Some(body.as_bytes()));
    assert_eq!(again.json, sent.json, "the retry is the same order");
    let id = sent.json["partner_interview_id"].as_str().unwrap().to_string();
    assert_eq!(app.sent_emails("ada@example.com").len(), 1, "one invitation email");

    let status_path = format!("/partners/greenhouse/test_status?partner_interview_id={id}");
    let before = app.request("GET", &status_path, &h("application/json"), None);
    assert_eq!(
        before.json,
        json!({"partner_status": "sent", "partner_profile_url": null, "partner_score": null, "metadata": {"Profile": "Engineer"}})
    );

    // The person accepts and completes in the sandbox (D67).
    let persons = app.get("/api/v1/persons?limit=10", &org.key);
    let person = persons.json["data"][0]["id"].as_str().unwrap().to_string();
    let invitations = app.get("/api/v1/invitations?limit=10", &org.key);
    let invitation = invitations.json["data"][0]["id"].as_str().unwrap().to_string();
    let acc = app.admin("POST", &format!("/admin/v1/invitations/{invitation}/accept"), Some(&json!({})));
    assert_eq!(acc.status, 200, "{}", acc.text);
    let started = app.request("GET", &status_path, &h("application/json"), None);
    assert_eq!(started.json["partner_status"], "started");
    let done = app.admin("POST", &format!("/admin/v1/persons/{person}/assessments"), Some(&json!({"complete": true})));
    assert!(done.status == 201 || done.status == 200, "{}", done.text);

    let after = app.request("GET", &status_path, &h("application/json"), None);
    assert_eq!(after.json["partner_status"], "complete", "{}", after.text);
    let matches = app.get(&format!("/api/v1/persons/{person}/matches"), &org.key);
    assert_eq!(after.json["partner_score"], matches.json["data"][0]["percentage"], "the match percentage (D66)");
    let meta = after.json["metadata"].as_object().unwrap();
    assert_eq!(meta["Profile"], "Engineer");
    assert_eq!(meta["Category"], matches.json["data"][0]["category"]);
    assert!(meta.values().all(|v| v.is_string() || v.is_number()), "flat metadata: {}", after.text);
    assert!(!after.text.contains("competenc"), "never a competency score (D66)");

    // Another organization's connection cannot read it; without credentials, Basic is asked for.
    let other = app.org("business", "active");
    let other_key = connection(app, &other.id, "greenhouse", json!({}));
    let foreign = app.request("GET", &status_path, &[("Authorization", basic(&other_key).as_str())], None);
    foreign.assert_error(404, "not_found");
    let none = app.request("GET", &status_path, &[], None);
    none.assert_error(401, "unauthorized");
    assert_eq!(none.header("www-authenticate"), Some("Basic realm=\"talent\""));
});

// D68: once complete, test_status gives `partner_profile_url`, a `/r/{token}` link that shows the
// report without a key (security headers, never cached), downloads the PDF, records every opening
// (listed on the order), and answers 410 after 180 days; an unknown token is 404.
crate::e2e!(
    the_report_link_shows_the_report_records_openings_and_expires_d68,
    crate::support::Opts { sandbox: true, ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let r = connect(app, &org.id, json!({"ats": "greenhouse", "name": "GH"}));
        let (key, connection) =
            (r.json["key"].as_str().unwrap().to_string(), r.json["id"].as_str().unwrap().to_string());
        let auth = basic(&key);
        let body = json!({"partner_test_id": "talent-assessment", "candidate": {"first_name": "Ada", "email": "ada@example.com"},
                      "url": "https://app.greenhouse.io/integrations/testing_partners/take_home_tests/9"})
    .to_string();
        let h = [("Authorization", auth.as_str()), ("Content-Type", "application/json")];
        let sent = app.request("POST", "/partners/greenhouse/send_test", &h, Some(body.as_bytes()));
        let order = sent.json["partner_interview_id"].as_str().unwrap().to_string();
        let invitation =
            app.get("/api/v1/invitations?limit=1", &org.key).json["data"][0]["id"].as_str().unwrap().to_string();
        let person = app.get("/api/v1/persons?limit=1", &org.key).json["data"][0]["id"].as_str().unwrap().to_string();
        assert_eq!(
            app.admin("POST", &format!("/admin/v1/invitations/{invitation}/accept"), Some(&json!({}))).status,
            200
        );
        let done =
            app.admin("POST", &format!("/admin/v1/persons/{person}/assessments"), Some(&json!({"complete": true})));
        assert!(done.status < 300, "{}", done.text);
        let st =
            app.request("GET", &format!("/partners/greenhouse/test_status?partner_interview_id={order}"), &h, None);
        assert_eq!(st.json["partner_status"], "complete", "{}", st.text);
        assert_eq!(st.json["partner_score"], Value::Null, "talent-assessment reports no score (D66)");
        let link = st.json["partner_profile_url"].as_str().unwrap().to_string();
        let path = link.split_once("/r/").map(|(_, t)| format!("/r/{t}")).unwrap();

        let page = app.request("GET", &path, &[("User-Agent", "GreenhouseBot/1.0")], None);
        assert_eq!(page.status, 200, "{}", page.text);
        assert!(page.text.contains("Ada") && page.text.contains("Competencies"), "{}", page.text);
        for (h, v) in [("cache-control", "no-store"), ("x-frame-options", "DENY"), ("referrer-policy", "no-referrer")] {
            assert_eq!(page.header(h), Some(v), "{h}");
        }
        assert!(page.header("content-security-policy").is_some_and(|c| c.contains("default-src 'none'")));
        let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
        let mut pdf = agent.get(format!("{}{path}/report.pdf", app.base)).call().unwrap();
        assert_eq!(pdf.status().as_u16(), 200);
        assert_eq!(pdf.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("application/pdf"));
        let bytes = pdf.body_mut().read_to_vec().unwrap();
        let doc = lopdf::Document::load_mem(&bytes).expect("the report parses as a PDF");
        let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
        assert!(doc.extract_text(&pages).unwrap().contains("Ada"), "the person's report");
        let openings = app.admin("GET", &format!("/admin/v1/connections/{connection}/orders/{order}/openings"), None);
        assert_eq!(openings.status, 200, "{}", openings.text);
        let list = openings.json["data"].as_array().unwrap();
        assert_eq!(list.len(), 2, "{}", openings.text);
        assert_eq!((list[0]["pdf"].as_bool(), list[1]["pdf"].as_bool()), (Some(true), Some(false)));
        assert_eq!(list[1]["userAgent"], "GreenhouseBot/1.0");
        assert_eq!(app.request("GET", "/r/not-a-token", &[], None).status, 404);
        // T217: the page speaks the reader's language (a recruiter's browser), else the
        // organization's; a link that is not valid too.
        let de = app.request("GET", &path, &[("Accept-Language", "de-CH, en;q=0.5")], None);
        assert_eq!((de.status, de.header("content-language")), (200, Some("de")), "{}", de.text);
        assert!(de.text.contains("lang=\"de\"") && !de.text.contains("Download the PDF report"), "{}", de.text);
        assert!(page.text.contains("Download the PDF report"), "English without the header: {}", page.text);
        // T222: the competencies and the personality text in the reader's language too.
        let texts = talent_i18n::FluentTexts::new().unwrap();
        let model = talent_domain::assessment::AssessmentModel::builtin().unwrap();
        let words = talent_domain::assessment::ModelWords::new(&texts, talent_domain::values::Locale::De);
        for c in &model.competencies {
            assert!(de.text.contains(&words.competency(c)), "{} in German in {}", c.name, de.text);
            assert!(page.text.contains(&c.name), "{} in English in {}", c.name, page.text);
        }
        let drives =
            talent_domain::ports::Texts::message(&texts, talent_domain::values::Locale::De, "personality-drives", &[]);
        assert!(de.text.contains(&drives) && !de.text.contains("What drives this person"), "{}", de.text);
        let missing = app.request("GET", "/r/not-a-token", &[("Accept-Language", "ja")], None);
        assert!(missing.text.contains("lang=\"ja\""), "{}", missing.text);

        let moved = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 181 * 86400})));
        assert_eq!(moved.status, 200, "{}", moved.text);
        assert_eq!(app.request("GET", &path, &[], None).status, 410);
        assert_eq!(app.request("GET", &format!("{path}/report.pdf"), &[], None).status, 410);
    }
);

// ---------------------------------------------------------------------------------------------
// Pushes to the ATS (D69), against mock ATSs on loopback
// ---------------------------------------------------------------------------------------------

fn insecure() -> crate::support::Opts {
    crate::support::Opts { insecure_webhooks: true, ..Default::default() }
}

/// The sandbox path of an order: the person accepts the invitation, then completes (D67).
fn accept_and_complete(app: &TestApp, org: &crate::support::Org, email: &str) {
    let invitations = app.get("/api/v1/invitations?limit=100", &org.key);
    let inv = invitations.json["data"].as_array().unwrap().iter().find(|i| i["email"] == email).unwrap().clone();
    let acc =
        app.admin("POST", &format!("/admin/v1/invitations/{}/accept", inv["id"].as_str().unwrap()), Some(&json!({})));
    assert_eq!(acc.status, 200, "{}", acc.text);
    let person = acc.json["person"]["id"].as_str().unwrap().to_string();
    let done = app.admin("POST", &format!("/admin/v1/persons/{person}/assessments"), Some(&json!({"complete": true})));
    assert!(done.status < 300, "{}", done.text);
}

// D74: on completion Greenhouse gets `PATCH {url}` without a body, HTTP Basic with the connection's
// key; then its test_status reads complete. The push log lists the push as succeeded.
crate::e2e!(greenhouse_is_patched_on_completion_with_the_connections_key_d74, insecure(), |app| {
    let ats = crate::webhooks::Receiver::start();
    let org = app.org("business", "active");
    let r = connect(app, &org.id, json!({"ats": "greenhouse", "name": "GH"}));
    let (key, connection) = (r.json["key"].as_str().unwrap().to_string(), r.json["id"].as_str().unwrap().to_string());
    let auth = basic(&key);
    let h = [("Authorization", auth.as_str()), ("Content-Type", "application/json")];
    let body =
        json!({"partner_test_id": "talent-assessment", "candidate": {"first_name": "Ada", "email": "ada@example.com"},
                      "url": format!("{}/take_home_tests/1", ats.url)})
        .to_string();
    let sent = app.request("POST", "/partners/greenhouse/send_test", &h, Some(body.as_bytes()));
    assert_eq!(sent.status, 200, "{}", sent.text);
    accept_and_complete(app, &org, "ada@example.com");
    let hits = ats.wait_for(1);
    assert_eq!((hits[0].method.as_str(), hits[0].path.as_str()), ("PATCH", "/hook/take_home_tests/1"));
    assert_eq!(hits[0].header("authorization"), auth, "the connection's key as Basic user (D74)");
    assert!(hits[0].body.is_empty(), "no body");
    assert!(hits[0].header("talent-signature").is_empty(), "not a webhook");
    let id = sent.json["partner_interview_id"].as_str().unwrap();
    let st = app.request("GET", &format!("/partners/greenhouse/test_status?partner_interview_id={id}"), &h, None);
    assert_eq!(st.json["partner_status"], "complete");
    let log = app.admin("GET", &format!("/admin/v1/connections/{connection}/pushes"), None);
    assert_eq!(log.status, 200, "{}", log.text);
    assert!(crate::support::eventually(std::time::Duration::from_secs(10), || {
        let log = app.admin("GET", &format!("/admin/v1/connections/{connection}/pushes"), None);
        log.json["data"][0]["status"] == "succeeded"
    }));
    let log = app.admin("GET", &format!("/admin/v1/connections/{connection}/pushes"), None);
    assert_eq!(log.json["data"][0]["event"], "assessment.completed");
    assert_eq!(log.json["data"][0]["orderId"], json!(id));
    let hooks = app.get("/api/v1/webhooks", &org.key);
    assert_eq!(hooks.json["data"], json!([]), "the connection's lane is not a webhook endpoint");
});

// D77, D79: Ashby's start is pushed as `Started`, the completion with the documented objects; an
// answer of `"success": false` is a failure in the push log, redelivered from the admin API.
crate::e2e!(ashby_gets_started_and_completed_updates_and_a_refusal_is_a_failure_d79, insecure(), |app| {
    let ats = crate::webhooks::Receiver::start();
    let org = app.org("business", "active");
    let base = ats.url.trim_end_matches("/hook").to_string();
    let r = connect(
        app,
        &org.id,
        json!({"ats": "ashby", "name": "Ashby", "settings": {"apiKey": "ashby-key", "baseUrl": base}}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let (key, connection) = (r.json["key"].as_str().unwrap().to_string(), r.json["id"].as_str().unwrap().to_string());
    let auth = basic(&key);
    let h = [("Authorization", auth.as_str()), ("Content-Type", "application/json")];
    let start = json!({
        "assessment_type_id": "talent-assessment",
        "candidate": {"ashby_id": "c1", "first_name": "Ada", "last_name": "L", "email": "ada@example.com",
                      "ashby_profile_url": "https://app.ashbyhq.com/c/1"},
        "application": {"ashby_id": "a1", "status": "Active"},
        "job": {"ashby_id": "j1", "name": "Engineer", "ashby_job_url": "https://app.ashbyhq.com/j/1"}
    })
    .to_string();
    let s = app.request("POST", "/partners/ashby/assessment.start", &h, Some(start.as_bytes()));
    assert_eq!(s.status, 200, "{}", s.text);
    let id = s.json["results"]["assessment_id"].as_str().unwrap().to_string();
    assert_eq!(app.request("POST", "/partners/ashby/assessment.start", &h, Some(start.as_bytes())).status, 409);
    ats.answer_json(200, &json!({"success": true}));
    ats.answer_json(200, &json!({"success": false, "errors": ["not allowed"]}));
    accept_and_complete(app, &org, "ada@example.com");
    let hits = ats.wait_for(2);
    let ashby_auth = format!("Basic {}", {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode("ashby-key:")
    });
    for h in &hits {
        assert_eq!((h.method.as_str(), h.path.as_str()), ("POST", "/assessment.update"));
        assert_eq!(h.header("authorization"), ashby_auth, "the customer's Ashby key");
        assert_eq!(h.json()["assessment_id"], json!(id));
        assert!(h.json()["timestamp"].as_i64().is_some_and(|t| t > 1_700_000_000_000), "milliseconds");
    }
    // Pushes to one connection are sent concurrently, so the two may arrive in either order;
    // Ashby orders an assessment's updates by their `timestamp` (when each push was made).
    let status = |h: &crate::webhooks::Hit| h.json()["assessment_status"]["value"].as_str().map(str::to_string);
    let of = |s: &str| hits.iter().find(|h| status(h).as_deref() == Some(s)).unwrap_or_else(|| panic!("no {s} push"));
    let (started, done) = (of("Started").json(), of("Completed").json());
    assert!(started["timestamp"].as_i64() <= done["timestamp"].as_i64(), "{started} {done}");
    assert_eq!(done["assessment_result"]["type"], "boolean_success");
    assert!(done["assessment_profile_url"]["value"].as_str().unwrap().contains("/r/"));
    // The refusal is a failure, retried later; the admin redelivers it now.
    let failing = |app: &TestApp| {
        let log = app.admin("GET", &format!("/admin/v1/connections/{connection}/pushes"), None);
        log.json["data"].as_array().unwrap().iter().find(|p| p["lastError"].is_string()).cloned()
    };
    assert!(crate::support::eventually(std::time::Duration::from_secs(10), || failing(app).is_some()));
    let push = failing(app).unwrap();
    assert_eq!(push["status"], "pending", "retried later (D69)");
    let detail =
        app.admin("GET", &format!("/admin/v1/connections/{connection}/pushes/{}", push["id"].as_str().unwrap()), None);
    assert!(detail.json["attemptLog"][0]["responseBody"].as_str().unwrap().contains("not allowed"), "{}", detail.text);
    let again = app.admin(
        "POST",
        &format!("/admin/v1/connections/{connection}/pushes/{}/redeliver", push["id"].as_str().unwrap()),
        None,
    );
    assert_eq!(again.status, 202, "{}", again.text);
    ats.wait_for(3);
});

// D80: Workable's callback gets `PUT` with its own token as Bearer and the completed body.
crate::e2e!(workable_gets_a_put_on_completion_with_its_token_d80, insecure(), |app| {
    let ats = crate::webhooks::Receiver::start();
    let org = app.org("business", "active");
    let key = connection(app, &org.id, "workable", json!({"apiKey": "workable-token"}));
    let body = json!({"test_id": "talent-assessment", "callback_url": format!("{}/assessments/7", ats.url),
                      "candidate": {"first_name": "Ada", "last_name": "L", "email": "ada@example.com"}})
    .to_string();
    let h = [("Authorization", format!("Bearer {key}")), ("Content-Type", "application/json".to_string())];
    let h: Vec<(&str, &str)> = h.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let r = app.request("POST", "/partners/workable/assessments", &h, Some(body.as_bytes()));
    assert_eq!(r.status, 201, "{}", r.text);
    accept_and_complete(app, &org, "ada@example.com");
    let hits = ats.wait_for(1);
    assert_eq!((hits[0].method.as_str(), hits[0].path.as_str()), ("PUT", "/hook/assessments/7"));
    assert_eq!(hits[0].header("authorization"), "Bearer workable-token");
    let b = hits[0].json();
    assert_eq!(b["status"], "completed");
    assert!(b["results_url"].as_str().unwrap().contains("/r/"));
});

// T221: a connection's language travels with its orders: the invitation a Workable order sends
// is German, email and page; the admin API answers the connection's `locale` and clears it.
crate::e2e!(a_connections_orders_invite_in_its_language_t221, insecure(), |app| {
    let org = app.org("business", "active");
    let r = connect(
        app,
        &org.id,
        json!({"ats": "workable", "name": "Workable DE", "locale": "de-DE",
                                         "settings": {"apiKey": "workable-token"}}),
    );
    assert_eq!(r.json["locale"], "de", "{}", r.text);
    let key = r.json["key"].as_str().unwrap().to_string();
    let body = json!({"test_id": "talent-assessment", "callback_url": "https://ats.example.com/assessments/8",
                      "candidate": {"first_name": "Jonas", "last_name": "K", "email": "jonas@example.com"}})
    .to_string();
    let h = [("Authorization", format!("Bearer {key}")), ("Content-Type", "application/json".to_string())];
    let h: Vec<(&str, &str)> = h.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let placed = app.request("POST", "/partners/workable/assessments", &h, Some(body.as_bytes()));
    assert_eq!(placed.status, 201, "{}", placed.text);
    let inv = &app.get("/api/v1/invitations?email=jonas%40example.com", &org.key).json["data"][0];
    assert_eq!(inv["locale"], "de", "{inv}");
    let mails = app.admin("GET", "/admin/v1/emails?to=jonas%40example.com", None);
    let mail = &mails.json["data"][0];
    assert!(mail["body"].as_str().unwrap().contains("Über diesen Link können Sie antworten"), "{mail}");
    let page = app.request("GET", inv["url"].as_str().unwrap().trim_start_matches(&app.base), &[], None);
    assert!(page.text.contains("Einladung annehmen"), "{}", page.text);
    let id = r.json["id"].as_str().unwrap();
    let cleared = app.admin("PATCH", &format!("/admin/v1/connections/{id}"), Some(&json!({"locale": null})));
    assert_eq!((cleared.status, &cleared.json["locale"]), (200, &Value::Null), "{}", cleared.text);
    let bad = app.admin("PATCH", &format!("/admin/v1/connections/{id}"), Some(&json!({"locale": "tlh"})));
    bad.assert_error(400, "validation_error");
});

// Consent holds through connectors (D67 with D19): an order for an address whose results the
// organization cannot see sends an access request; the order completes, and Greenhouse hears of
// it, only when the person shares; without sharing nothing is pushed. response_error is recorded
// on the connection (D75).
crate::e2e!(consent_holds_through_a_connector_and_an_ats_error_report_is_recorded_d67_d19_d75, insecure(), |app| {
    let ats = crate::webhooks::Receiver::start();
    // Two people already completed an assessment for another organization.
    let elsewhere = app.org("business", "active");
    for e in ["ada@example.com", "bob@example.com"] {
        let p = app.import(&elsewhere.key, json!({"email": e}));
        let done = app.admin(
            "POST",
            &format!("/admin/v1/persons/{}/assessments", p["id"].as_str().unwrap()),
            Some(&json!({"complete": true})),
        );
        assert!(done.status < 300, "{}", done.text);
    }
    let org = app.org("business", "active");
    let r = connect(app, &org.id, json!({"ats": "greenhouse", "name": "GH"}));
    let (key, connection) = (r.json["key"].as_str().unwrap().to_string(), r.json["id"].as_str().unwrap().to_string());
    let auth = basic(&key);
    let h = [("Authorization", auth.as_str()), ("Content-Type", "application/json")];
    let mut orders = vec![];
    for (e, n) in [("ada@example.com", 1), ("bob@example.com", 2)] {
        let body = json!({"partner_test_id": "talent-assessment", "candidate": {"email": e},
                          "url": format!("{}/take_home_tests/{n}", ats.url)})
        .to_string();
        let sent = app.request("POST", "/partners/greenhouse/send_test", &h, Some(body.as_bytes()));
        assert_eq!(sent.status, 200, "{}", sent.text);
        orders.push(sent.json["partner_interview_id"].as_str().unwrap().to_string());
    }
    let invitations = app.get("/api/v1/invitations?limit=10", &org.key);
    let inv = |e: &str| invitations.json["data"].as_array().unwrap().iter().find(|i| i["email"] == e).unwrap().clone();
    for e in ["ada@example.com", "bob@example.com"] {
        assert_eq!(inv(e)["variant"], "access_request", "{e}: results the organization cannot see");
    }
    // Bob joins without sharing: started, nothing pushed. Ada shares: complete, pushed.
    let bob = app.admin(
        "POST",
        &format!("/admin/v1/invitations/{}/accept", inv("bob@example.com")["id"].as_str().unwrap()),
        Some(&json!({"share": false})),
    );
    assert_eq!(bob.status, 200, "{}", bob.text);
    let ada = app.admin(
        "POST",
        &format!("/admin/v1/invitations/{}/accept", inv("ada@example.com")["id"].as_str().unwrap()),
        Some(&json!({"share": true})),
    );
    assert_eq!(ada.status, 200, "{}", ada.text);
    let hits = ats.wait_for(1);
    assert_eq!(hits[0].path, "/hook/take_home_tests/1", "only Ada's order is reported");
    let status = |o: &str| {
        app.request("GET", &format!("/partners/greenhouse/test_status?partner_interview_id={o}"), &h, None).json
    };
    assert_eq!(status(&orders[0])["partner_status"], "complete");
    assert!(status(&orders[0])["partner_profile_url"].is_string());
    assert_eq!(status(&orders[1])["partner_status"], "started");
    assert_eq!(status(&orders[1])["partner_profile_url"], Value::Null, "no link without consent");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(ats.hits().len(), 1, "nothing about Bob");

    let report =
        json!({"api_call": "test_status", "errors": ["unexpected partner_status"], "partner_interview_id": orders[1]})
            .to_string();
    let r = app.request("POST", "/partners/greenhouse/response_error", &h, Some(report.as_bytes()));
    assert_eq!((r.status, &r.json), (200, &json!({"status": 200})));
    let errors = app.admin("GET", &format!("/admin/v1/connections/{connection}/errors"), None);
    assert_eq!(errors.json["data"][0]["apiCall"], "test_status", "{}", errors.text);
    assert_eq!(errors.json["data"][0]["orderId"], json!(orders[1]));
});

// ---------------------------------------------------------------------------------------------
// Kombo (D81-D83), against a mock of Kombo's API on loopback
// ---------------------------------------------------------------------------------------------

/// An order as Kombo's documentation shows it (the webhook's `data`, the poll's `results`).
fn kombo_order(id: &str, package: &str, email: &str) -> Value {
    json!({
        "id": id,
        "integration_id": "acme:kombo",
        "package_id": package,
        "status": "OPEN",
        "candidate": {"remote_id": "c-1", "email": email, "first_name": "Ada", "last_name": "L", "phone": "+1 1"},
        "application": {"remote_id": "a-1"},
        "job": {"remote_id": "j-1", "name": "Engineer", "job_code": "E-1", "hiring_team": []}
    })
}

/// Kombo's `X-Kombo-Signature`: HMAC-SHA256 of the body under the webhook secret, base64url
/// without padding (Kombo's webhook documentation).
fn kombo_signature(secret: &str, body: &[u8]) -> String {
    use base64::Engine;
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret.as_bytes());
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(ring::hmac::sign(&key, body).as_ref())
}

fn kombo_hits(kombo: &crate::webhooks::Receiver, method: &str, prefix: &str) -> Vec<crate::webhooks::Hit> {
    kombo.hits().into_iter().filter(|h| h.method == method && h.path.starts_with(prefix)).collect()
}

fn kombo_opts() -> crate::support::Opts {
    crate::support::Opts { env: vec![("TALENT_KOMBO_POLL_SECONDS", "1".into())], ..insecure() }
}

// D81-D83 end to end: the connection sends Kombo its packages at once and again when a profile is
// added; an order comes by the signed webhook (a retry is the same order) and another by the poll
// (taken once although Kombo lists it every second); completing the profile order sends its
// result with the match percentage and the PDF report; revoking the other order's invitation
// sends CANCELLED. Kombo's calls carry its key and integration id.
crate::e2e!(kombo_takes_orders_by_webhook_and_poll_and_gets_packages_and_results_d81_d83, kombo_opts(), |app| {
    let kombo = crate::webhooks::Receiver::start();
    let base = kombo.url.trim_end_matches("/hook").to_string();
    let no_orders = json!({"status": "success", "data": {"next": null, "results": []}});
    kombo.route("GET", "/assessment/orders", 200, &no_orders);
    let org = app.org("business", "active");
    let settings =
        json!({"baseUrl": base, "apiKey": "kombo-key", "integrationId": "acme:kombo", "webhookSecret": "kombo-secret"});
    let r = connect(app, &org.id, json!({"ats": "kombo", "name": "Kombo", "settings": settings}));
    assert_eq!(r.status, 201, "{}", r.text);
    let connection = r.json["id"].as_str().unwrap().to_string();
    // Packages at creation: the talent-assessment test alone.
    assert!(crate::support::eventually(std::time::Duration::from_secs(15), || {
        !kombo_hits(&kombo, "PUT", "/assessment/packages").is_empty()
    }));
    let first = kombo_hits(&kombo, "PUT", "/assessment/packages")[0].clone();
    assert_eq!(first.header("authorization"), "Bearer kombo-key");
    assert_eq!(first.header("x-integration-id"), "acme:kombo");
    assert_eq!(
        first.json()["packages"],
        json!([{"id": "talent-assessment", "type": "BEHAVIORAL", "name": "Talent assessment",
                "description": first.json()["packages"][0]["description"]}])
    );
    // A profile: Kombo gets the list again, with it.
    let body = json!({"name": "Engineer", "description": "Builds things",
                      "competencies": [{"competencyId": "9b51d491-f098-59ce-a81a-e3eba994b8ad", "weight": 1.0}]});
    let p = app.admin("POST", &format!("/admin/v1/organizations/{}/profiles", org.id), Some(&body));
    assert_eq!(p.status, 201, "{}", p.text);
    let profile = p.json["id"].as_str().unwrap().to_string();
    assert!(crate::support::eventually(std::time::Duration::from_secs(15), || {
        kombo_hits(&kombo, "PUT", "/assessment/packages").len() >= 2
    }));
    let second = kombo_hits(&kombo, "PUT", "/assessment/packages")[1].json();
    assert_eq!(
        second["packages"][1],
        json!({"id": profile, "type": "BEHAVIORAL", "name": "Engineer", "description": "Builds things"})
    );
    // The webhook: signed, taken once.
    let hook = json!({"id": "evt-1", "type": "assessment:order-received",
                      "data": kombo_order("k-hook-1", &profile, "ada@example.com")})
    .to_string();
    let sig = kombo_signature("kombo-secret", hook.as_bytes());
    let h = [("X-Kombo-Signature", sig.as_str()), ("Content-Type", "application/json")];
    let taken = app.request("POST", "/partners/kombo/webhook", &h, Some(hook.as_bytes()));
    assert_eq!(taken.status, 200, "{}", taken.text);
    let again = app.request("POST", "/partners/kombo/webhook", &h, Some(hook.as_bytes()));
    assert_eq!(again.json["id"], taken.json["id"], "Kombo's retry is the same order");
    let bad = [("X-Kombo-Signature", "c2lnbmVkIGJ5IHNvbWVvbmUgZWxzZQ"), ("Content-Type", "application/json")];
    let refused = app.request("POST", "/partners/kombo/webhook", &bad, Some(hook.as_bytes()));
    assert_eq!(refused.status, 401, "{}", refused.text);
    assert!(refused.json["message"].is_string());
    // The poll: Kombo lists an open order (and the webhook's) every second; each is taken once.
    let listed = json!({"status": "success", "data": {"next": null, "results": [
        kombo_order("k-poll-1", "talent-assessment", "bob@example.com"),
        kombo_order("k-hook-1", &profile, "ada@example.com"),
    ]}});
    kombo.route("GET", "/assessment/orders", 200, &listed);
    let orders = |app: &TestApp| app.admin("GET", &format!("/admin/v1/connections/{connection}/orders"), None);
    assert!(crate::support::eventually(std::time::Duration::from_secs(15), || {
        orders(app).json["data"].as_array().is_some_and(|d| d.len() == 2)
    }));
    let polls_before = kombo_hits(&kombo, "GET", "/assessment/orders").len();
    assert!(crate::support::eventually(std::time::Duration::from_secs(15), || {
        kombo_hits(&kombo, "GET", "/assessment/orders").len() >= polls_before + 2
    }));
    assert_eq!(orders(app).json["data"].as_array().unwrap().len(), 2, "polled again, taken once");
    let poll = &kombo_hits(&kombo, "GET", "/assessment/orders")[0];
    assert_eq!(poll.path, "/assessment/orders?statuses=OPEN");
    assert_eq!((poll.header("authorization"), poll.header("x-integration-id")), ("Bearer kombo-key", "acme:kombo"));
    let invitations = app.get("/api/v1/invitations?limit=100", &org.key);
    assert_eq!(invitations.json["data"].as_array().unwrap().len(), 2, "one email each: {}", invitations.text);
    // Completion: the result with the percentage, the category and the PDF.
    accept_and_complete(app, &org, "ada@example.com");
    assert!(crate::support::eventually(std::time::Duration::from_secs(15), || {
        !kombo_hits(&kombo, "PUT", "/assessment/orders/k-hook-1/result").is_empty()
    }));
    let result = kombo_hits(&kombo, "PUT", "/assessment/orders/k-hook-1/result")[0].clone();
    assert_eq!(result.header("authorization"), "Bearer kombo-key");
    let b = result.json();
    assert_eq!((b["status"].as_str(), b["max_score"].as_i64()), (Some("COMPLETED"), Some(100)));
    let matches = app.get(&format!("/api/v1/profiles/{profile}/matches?limit=10"), &org.key);
    assert_eq!(b["score"], matches.json["data"][0]["percentage"], "the match percentage (D66): {}", matches.text);
    assert_eq!(b["attributes"][0]["label"], "Category");
    assert!(b["result_url"].as_str().unwrap().contains("/r/"));
    assert!(!b.to_string().contains("competenc"), "never a competency score (D66)");
    let pdf = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.decode(b["attachments"][0]["data"].as_str().unwrap()).unwrap()
    };
    assert!(pdf.starts_with(b"%PDF"), "the PDF report");
    assert_eq!(b["attachments"][0]["content_type"], "application/pdf");
    // Revoking the polled order's invitation: CANCELLED.
    let inv =
        invitations.json["data"].as_array().unwrap().iter().find(|i| i["email"] == "bob@example.com").unwrap().clone();
    let revoked =
        app.send("POST", &format!("/api/v1/invitations/{}/revoke", inv["id"].as_str().unwrap()), &org.key, &json!({}));
    assert_eq!(revoked.status, 200, "{}", revoked.text);
    assert!(crate::support::eventually(std::time::Duration::from_secs(15), || {
        !kombo_hits(&kombo, "PUT", "/assessment/orders/k-poll-1/result").is_empty()
    }));
    let cancelled = kombo_hits(&kombo, "PUT", "/assessment/orders/k-poll-1/result")[0].json();
    assert_eq!(cancelled["status"], "CANCELLED");
    assert!(cancelled["completed_at"].is_string() && cancelled["result_url"].is_string());
    // The push log tells packages from results.
    let log = app.admin("GET", &format!("/admin/v1/connections/{connection}/pushes"), None);
    let events: Vec<&str> = log.json["data"].as_array().unwrap().iter().map(|p| p["event"].as_str().unwrap()).collect();
    assert!(events.contains(&"packages") && events.contains(&"assessment.completed"), "{events:?}");
});
