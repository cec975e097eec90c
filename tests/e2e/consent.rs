//! Consent and visibility across organizations over HTTP on both backends (issue 12, holes 1 and
//! 2; D42, D43): the organization cannot give the person's consent by posting the invitation
//! link itself, with any key; a person's later results stay invisible to an organization they
//! withdrew from, on every read path and in webhooks; rejoining after a withdrawal needs the code.
use crate::support::{Opts, Org, Resp, TestApp};
use serde_json::{json, Value};

const DRIVE: &str = "9b51d491-f098-59ce-a81a-e3eba994b8ad";

fn sandbox() -> Opts {
    Opts { sandbox: true, insecure_webhooks: true, ..Default::default() }
}

fn org(app: &TestApp, name: &str) -> Org {
    app.org_with(
        json!({"companyName": name, "email": format!("hr@{}.example", name.to_lowercase()), "plan": "business"}),
    )
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap_or_else(|| panic!("no id in {v}")).to_string()
}

fn path_of(app: &TestApp, url: &Value) -> String {
    url.as_str().unwrap().strip_prefix(&app.base).unwrap().to_string()
}

fn complete(app: &TestApp, person: &str, seed: u64) {
    let r = app.admin(
        "POST",
        &format!("/admin/v1/persons/{person}/assessments"),
        Some(&json!({"complete": true, "seed": seed})),
    );
    assert_eq!(r.status, 200, "{}", r.text);
}

fn ok(r: Resp) -> Value {
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn created(r: Resp) -> Value {
    assert_eq!(r.status, 201, "{}", r.text);
    r.json
}

/// Everything organization `o` can read about person `p` through the API.
fn readable(app: &TestApp, o: &Org, p: &str) -> (Value, Value, Value, Resp) {
    let person = ok(app.get(&format!("/api/v1/persons/{p}"), &o.key));
    let results = ok(app.get(&format!("/api/v1/persons/{p}/results"), &o.key));
    let matches = app.get(&format!("/api/v1/persons/{p}/matches"), &o.key).json;
    let report = app.get(&format!("/api/v1/persons/{p}/report"), &o.key);
    (person, results, matches, report)
}

/// The `assessment.completed` deliveries of organization `o`'s endpoint `hook`.
fn completed_deliveries(app: &TestApp, o: &Org, hook: &str) -> usize {
    let r = ok(app.get(&format!("/api/v1/webhooks/{hook}/deliveries?limit=100"), &o.key));
    r["data"].as_array().unwrap().iter().filter(|d| d["type"] == "assessment.completed").count()
}

// Issue 12, hole 1; D43: B invites a human with results in A (access_request, sendEmail) and
// posts the url itself with share=true, with a full key and with an invitations:read key. Nothing
// changes; the person, with the code from the email, gives consent.
crate::e2e!(the_organization_cannot_give_the_persons_consent_by_posting_the_link, sandbox(), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    let pa = app.import(&a.key, json!({"email": "ada@example.com"}));
    complete(app, &id(&pa), 1);
    let inv = created(app.send(
        "POST",
        "/api/v1/invitations",
        &b.key,
        &json!({"email": "ada@example.com", "sendEmail": true}),
    ));
    assert_eq!(inv["variant"], "access_request");
    let (read_only, _) = app.key(&b.user_id, &["invitations:read"]);
    let url = ok(app.get(&format!("/api/v1/invitations/{}", id(&inv)), &read_only))["url"].clone();
    let path = path_of(app, &url);
    for key in [&b.key, &read_only] {
        let auth = format!("Bearer {key}");
        let r = app.post_form(&path, "share=true", &[("Authorization", auth.as_str())]);
        assert_eq!(r.status, 200, "{}", r.text);
        assert!(r.text.contains("name=\"code\""), "the page asks for the code: {}", r.text);
        let r = app.post_form(&path, "share=true&code=123456", &[("Authorization", auth.as_str())]);
        assert!(r.status == 422 || r.status == 200, "{}", r.text);
        let now = ok(app.get(&format!("/api/v1/invitations/{}", id(&inv)), &b.key));
        assert_eq!(now["status"], "pending", "a key never accepts");
        assert_eq!(now["personId"], Value::Null);
    }
    let listed = ok(app.get("/api/v1/persons?status=active", &b.key));
    assert_eq!(listed["data"].as_array().unwrap().len(), 0, "B has no person");
    // The person reads the code from their email and gives consent.
    let code = app.consent_code("ada@example.com");
    let r = app.post_form(&path, &format!("share=true&code={code}"), &[]);
    assert_eq!(r.status, 200, "{}", r.text);
    let inv = ok(app.get(&format!("/api/v1/invitations/{}", id(&inv)), &b.key));
    assert_eq!(inv["status"], "accepted");
    let pb = inv["personId"].as_str().unwrap();
    let (person, results, _, _) = readable(app, &b, pb);
    assert_eq!(person["sharedExistingProfile"], true);
    assert_eq!(results["hasResults"], true);
    // The code was used: posting it again is a used invitation (410), not a second acceptance.
    assert_eq!(app.post_form(&path, &format!("share=true&code={code}"), &[]).status, 410);
});

// Issue 12, hole 2; D42, D51: the person withdraws from B, later completes an assessment for A. B's
// person, results, matches, report and webhooks stay as they were at the withdrawal. Rejoining B
// afterwards needs the code (D43), and the assessment taken while withdrawn stays hidden.
crate::e2e!(results_taken_after_the_persons_withdrawal_reach_no_read_path_and_no_webhook, sandbox(), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    let hook = created(app.send(
        "POST",
        "/api/v1/webhooks",
        &b.key,
        &json!({"url": "http://127.0.0.1:9/hook", "events": ["assessment.completed"]}),
    ));
    let hook = id(&hook);
    let r = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/profiles", b.id),
        Some(&json!({"name": "Sales", "competencies": [{"competencyId": DRIVE, "weight": 1.0}]})),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let pa = app.import(&a.key, json!({"email": "ada@example.com"}));
    // She joins B herself, by B's invitation (D51 (b): B sees what she takes while a member).
    let inv = created(app.send(
        "POST",
        "/api/v1/invitations",
        &b.key,
        &json!({"email": "ada@example.com", "sendEmail": false}),
    ));
    let joined = ok(app.admin("POST", &format!("/admin/v1/invitations/{}/accept", id(&inv)), Some(&json!({}))));
    let pb = joined["person"]["id"].as_str().unwrap_or_else(|| panic!("{joined}")).to_string();
    complete(app, &id(&pa), 1);
    let before = readable(app, &b, &pb);
    assert_eq!(before.1["hasResults"], true);
    assert_eq!(before.1["totals"]["assessments"], 1);
    assert_eq!(before.3.status, 200);
    assert_eq!(completed_deliveries(app, &b, &hook), 1);

    ok(app.admin("POST", &format!("/admin/v1/persons/{pb}/withdraw"), None));
    complete(app, &id(&pa), 2);
    let after = readable(app, &b, &pb);
    assert_eq!(after.1["totals"], before.1["totals"], "results as at the withdrawal");
    assert_eq!(after.1["competencies"], before.1["competencies"]);
    assert_eq!(after.0["assessment"]["count"], 1);
    assert_eq!(after.2, before.2, "matches as before");
    assert_eq!(after.3.status, 200);
    assert_eq!(after.3.text, before.3.text, "the same report");
    assert_eq!(completed_deliveries(app, &b, &hook), 1, "no event for what B cannot see");
    let a_results = ok(app.get(&format!("/api/v1/persons/{}/results", id(&pa)), &a.key));
    assert_eq!(a_results["totals"]["assessments"], 2, "A sees both");

    // Rejoining needs the code; what was taken while withdrawn stays hidden afterwards.
    let inv = created(app.send(
        "POST",
        "/api/v1/invitations",
        &b.key,
        &json!({"email": "ada@example.com", "sendEmail": false}),
    ));
    let path = path_of(app, &inv["url"]);
    let r = app.post_form(&path, "", &[]);
    assert!(r.text.contains("name=\"code\""), "{}", r.text);
    assert_eq!(ok(app.get(&format!("/api/v1/persons/{pb}"), &b.key))["status"], "archived");
    let code = app.consent_code("ada@example.com");
    assert_eq!(app.post_form(&path, &format!("code={code}"), &[]).status, 200);
    let back = readable(app, &b, &pb);
    assert_eq!(back.0["status"], "active");
    assert_eq!(back.1["totals"]["assessments"], 1, "the assessment taken while withdrawn stays hidden");
    complete(app, &id(&pa), 3);
    assert_eq!(ok(app.get(&format!("/api/v1/persons/{pb}/results"), &b.key))["totals"]["assessments"], 2);
    assert_eq!(completed_deliveries(app, &b, &hook), 2);
});

// D45 over HTTP: the operator's export and erasure of one address, with two organizations. The
// database side (no table holds the address afterwards) is the conformance test
// `the_humans_export_holds_every_record_and_the_admin_erasure_leaves_no_trace`.
crate::e2e!(the_operator_exports_and_erases_a_humans_data, sandbox(), |app| {
    let (a, b) = (org(app, "Alpha"), org(app, "Beta"));
    let pa = app.import(&a.key, json!({"email": "hedda@example.com", "firstName": "Hedda"}));
    let pb = app.import(&b.key, json!({"email": "hedda@example.com", "externalId": "ats-h"}));
    complete(app, &id(&pa), 4);
    created(app.send("POST", "/api/v1/invitations", &b.key, &json!({"email": "hedda@example.com", "sendEmail": true})));

    app.admin("GET", "/admin/v1/humans/export", None).assert_error(400, "validation_error");
    app.admin("GET", "/admin/v1/humans/export?email=nobody%40example.com", None).assert_error(404, "not_found");
    let x = ok(app.admin("GET", "/admin/v1/humans/export?email=hedda%40example.com", None));
    let orgs: Vec<&str> = x["memberships"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["organization"]["companyName"].as_str().unwrap())
        .collect();
    assert_eq!(orgs.len(), 2, "{x}");
    assert!(orgs.contains(&"Alpha") && orgs.contains(&"Beta"));
    let people: Vec<&Value> = x["memberships"].as_array().unwrap().iter().map(|m| &m["person"]).collect();
    assert!(people.iter().any(|p| p["id"] == pa["id"]) && people.iter().any(|p| p["id"] == pb["id"]));
    assert_eq!(x["assessments"].as_array().unwrap().len(), 1);
    assert!(!x["assessments"][0]["responses"].as_array().unwrap().is_empty());
    assert!(x["memberships"][0]["results"]["hasResults"] == true, "{x}");
    assert_eq!(x["invitations"].as_array().unwrap().len(), 1);
    assert!(!x["emails"].as_array().unwrap().is_empty());
    assert!(x["events"].as_array().unwrap().iter().any(|e| e["type"] == "assessment.completed"));

    app.admin("POST", "/admin/v1/humans/erase", Some(&json!({"email": "not an address"})))
        .assert_error(400, "validation_error");
    let r = ok(app.admin("POST", "/admin/v1/humans/erase", Some(&json!({"email": "Hedda@Example.com"}))));
    assert_eq!(
        (r["memberships"].as_u64(), r["assessments"].as_u64(), r["invitations"].as_u64()),
        (Some(2), Some(1), Some(0))
    );
    app.admin("GET", "/admin/v1/humans/export?email=hedda%40example.com", None).assert_error(404, "not_found");
    for (o, p) in [(&a, &pa), (&b, &pb)] {
        let got = ok(app.get(&format!("/api/v1/persons/{}", id(p)), &o.key));
        assert_eq!(got["email"], json!(format!("erased-{}@invalid", id(p))));
        assert_eq!(got["status"], "archived");
        // D44, T80: a sync job's routine PATCH cannot write personal data back onto the tombstone.
        let path = format!("/api/v1/persons/{}", id(p));
        for patch in [json!({"externalId": "ats-h"}), json!({"firstName": "Hedda", "tags": ["x"]}), json!({})] {
            let r = app.send("PATCH", &path, &o.key, &patch);
            r.assert_error(409, "conflict");
            assert_eq!(r.json["details"]["reason"], "erased", "{}", r.text);
        }
        assert_eq!(ok(app.get(&path, &o.key)), got, "nothing changed");
    }
    let again = ok(app.admin("POST", "/admin/v1/humans/erase", Some(&json!({"email": "hedda@example.com"}))));
    assert_eq!(again["memberships"], 0, "repeatable");
});

// Issue 12, T84: secrets at rest. A copy of the database alone holds neither a webhook signing
// secret nor the secret behind invitation links: every stored secret is sealed. With SQLite and
// no TALENT_SECRET_KEY the key sits next to the database, readable by its owner only.
crate::e2e!(the_database_holds_no_secret_in_clear, sandbox(), |app| {
    let o = org(app, "Alpha");
    let body = json!({"url": "http://127.0.0.1:9/in", "events": ["*"]});
    let hook = created(app.send_with("POST", "/api/v1/webhooks", &o.key, &body, &[("Idempotency-Key", "h-1")]));
    let replay = created(app.send_with("POST", "/api/v1/webhooks", &o.key, &body, &[("Idempotency-Key", "h-1")]));
    assert_eq!(replay, hook, "T83: the replay still answers the secret (the stored copy is sealed)");
    let secret = hook["secret"].as_str().unwrap().to_string();
    let rotated = ok(app.send("POST", &format!("/api/v1/webhooks/{}/rotate-secret", id(&hook)), &o.key, &json!({})));
    let fresh = rotated["secret"].as_str().unwrap().to_string();
    let url = app.db_url();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    for s in [&secret, &fresh] {
        let body = s.strip_prefix("whsec_").unwrap();
        let hits = rt.block_on(talent_store::testing::tables_containing(&url, body)).unwrap();
        assert_eq!(hits, vec![], "{s} in clear");
    }
    let sealed = rt.block_on(talent_store::testing::tables_containing(&url, "sealed:v1:")).unwrap();
    assert!(sealed.contains(&("webhook_endpoints".to_string(), "secret".to_string())), "{sealed:?}");
    assert!(sealed.contains(&("settings".to_string(), "value".to_string())), "{sealed:?}");
    assert!(sealed.contains(&("idempotency_keys".to_string(), "response_body".to_string())), "{sealed:?}");
    // The signing still works: a test ping is signed with the new secret (the engine opened it).
    let ping = app.send("POST", &format!("/api/v1/webhooks/{}/test", id(&hook)), &o.key, &json!({}));
    assert!(ping.status < 500, "{}", ping.text);
    if let Some(path) = url.strip_prefix("sqlite://") {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(format!("{path}.key")).expect("the generated key file");
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
});
