//! The event catalogue (D47): every write operation of the public API and of the admin API, one
//! after another, and exactly the events each one emits, read from the feed (D48) after the
//! previous operation's last sequence: types, data, `previousAttributes` and `archiveReason`.
//! Operations that change no person, invitation or assessment (organizations, users, keys,
//! teams, profiles, webhook endpoints) emit nothing; a write that changes nothing emits nothing.
use crate::support::*;
use serde_json::{json, Value};

/// Follows the feed of one key: `next()` is every event since the last call.
struct Feed<'a> {
    app: &'a TestApp,
    key: String,
    after: u64,
}

impl Feed<'_> {
    fn next(&mut self) -> Vec<Value> {
        let mut out = vec![];
        loop {
            let r = self.app.get(&format!("/api/v1/events?after={}&limit=100", self.after), &self.key);
            assert_eq!(r.status, 200, "{}", r.text);
            let page = r.json["data"].as_array().unwrap().clone();
            for e in &page {
                let seq = e["sequence"].as_u64().unwrap();
                assert!(seq > self.after, "ascending sequence");
                self.after = seq;
            }
            out.extend(page);
            if r.json["pagination"]["hasMore"] != json!(true) {
                return out;
            }
        }
    }

    /// The next events, asserted to be of these types in this order.
    fn expect(&mut self, what: &str, types: &[&str]) -> Vec<Value> {
        let got = self.next();
        let t: Vec<&str> = got.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(t, types, "{what}: {got:#?}");
        got
    }
}

fn ok(r: Resp) -> Value {
    assert!((200..300).contains(&r.status), "{} {}", r.status, r.text);
    r.json
}

fn id(v: &Value) -> String {
    v["id"].as_str().unwrap().to_string()
}

/// Every member of `data` but `previousAttributes` is the Person `p` as the API reads it now.
fn is_person(data: &Value, p: &Value) {
    let mut d = data.clone();
    let m = d.as_object_mut().unwrap();
    m.remove("previousAttributes");
    m.remove("archiveReason");
    let mut p = p.clone();
    p.as_object_mut().unwrap().remove("invitation");
    assert_eq!(d, p, "the event carries the Person as the API answered");
}

crate::e2e!(
    every_write_of_the_api_and_the_admin_api_emits_its_event_with_its_data_d47,
    Opts { sandbox: true, insecure_webhooks: true, ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let mut feed = Feed { app, key: org.key.clone(), after: 0 };
        feed.expect("organization, user and key created", &[]);

        // Persons: create, merge, patch, archive, reactivate.
        let ada = app.import(&org.key, json!({"email": "ada@example.com", "firstName": "Ada", "tags": ["x"]}));
        let e = feed.expect("import of a new email", &["person.created"]);
        is_person(&e[0]["data"], &ada);
        let ada_id = id(&ada);
        let path = format!("/api/v1/persons/{ada_id}");

        app.import(&org.key, json!({"email": "ada@example.com", "firstName": "Other"}));
        feed.expect("import that changes nothing (a set name is kept)", &[]);

        let merged = app.import(&org.key, json!({"email": "ADA@example.com", "lastName": "Lovelace", "tags": ["y"]}));
        let e = feed.expect("import that fills in a name and adds a tag", &["person.updated"]);
        is_person(&e[0]["data"], &merged);
        assert_eq!(e[0]["data"]["previousAttributes"], json!({"lastName": null, "tags": ["x"]}));

        let patched = ok(app.send(
            "PATCH",
            &path,
            &org.key,
            &json!({"externalId": "ext-1", "labels": ["candidate", "employee"]}),
        ));
        let e = feed.expect("PATCH", &["person.updated"]);
        is_person(&e[0]["data"], &patched);
        assert_eq!(e[0]["data"]["previousAttributes"], json!({"externalId": null, "labels": ["candidate"]}));

        ok(app.send("PATCH", &path, &org.key, &json!({"externalId": "ext-1", "tags": ["x", "y"]})));
        feed.expect("PATCH to the values it has", &[]);

        let archived = ok(app.delete(&path, &org.key));
        let e = feed.expect("DELETE", &["person.archived"]);
        is_person(&e[0]["data"], &archived);
        assert_eq!(e[0]["data"]["archiveReason"], "api");
        assert_eq!(e[0]["data"]["status"], "archived");

        let back = app.import(&org.key, json!({"email": "ada@example.com"}));
        let e = feed.expect("import of an archived person (reactivation)", &["person.created"]);
        is_person(&e[0]["data"], &back);

        // Invitations: nested in an import, created, resent, revoked, reminded, expired, accepted.
        let bea = app
            .import(&org.key, json!({"email": "bea@example.com", "invitation": {"create": true, "sendEmail": false}}));
        let e = feed.expect("import with a nested invitation", &["person.created", "invitation.created"]);
        assert_eq!(e[1]["data"]["id"], bea["invitation"]["id"]);
        assert_eq!(e[1]["data"]["personId"], bea["id"]);

        let cid = id(&ok(app.send(
            "POST",
            "/api/v1/invitations",
            &org.key,
            &json!({"email": "cid@example.com", "sendEmail": true}),
        )));
        let e = feed.expect("POST /invitations", &["invitation.created"]);
        assert_eq!(
            (e[0]["data"]["id"].as_str(), e[0]["data"]["status"].as_str()),
            (Some(cid.as_str()), Some("pending"))
        );
        // A resend waits a minute after the last email (T93).
        ok(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 61}))));
        feed.expect("a minute passes", &[]);
        ok(app.send("POST", &format!("/api/v1/invitations/{cid}/resend"), &org.key, &json!({})));
        let e = feed.expect("resend", &["invitation.reminded"]);
        assert_eq!(e[0]["data"]["id"], json!(cid));
        let revoked = ok(app.send("POST", &format!("/api/v1/invitations/{cid}/revoke"), &org.key, &json!({})));
        let e = feed.expect("revoke", &["invitation.revoked"]);
        assert_eq!(e[0]["data"], revoked);

        let dan = id(&ok(app.send(
            "POST",
            "/api/v1/invitations",
            &org.key,
            &json!({"email": "dan@example.com", "sendEmail": true, "expiresInDays": 5}),
        )));
        feed.expect("POST /invitations", &["invitation.created"]);
        ok(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 3 * 86_400 + 60}))));
        let e = feed.expect("3 days after sending, still pending", &["invitation.reminded"]);
        assert_eq!(e[0]["data"]["id"], json!(dan));
        ok(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 2 * 86_400}))));
        let e = feed.expect("past expiresAt", &["invitation.expired"]);
        assert_eq!(
            (e[0]["data"]["id"].as_str(), e[0]["data"]["status"].as_str()),
            (Some(dan.as_str()), Some("expired"))
        );

        let eve = id(&ok(app.send(
            "POST",
            "/api/v1/invitations",
            &org.key,
            &json!({"email": "eve@example.com", "sendEmail": false}),
        )));
        feed.expect("POST /invitations", &["invitation.created"]);
        ok(app.admin("POST", &format!("/admin/v1/invitations/{eve}/accept"), Some(&json!({}))));
        let e = feed.expect("a new person accepts", &["person.joined", "invitation.accepted"]);
        assert_eq!(e[0]["data"]["email"], "eve@example.com");
        assert_eq!(e[0]["data"]["joinedVia"], "invitation_personal");
        assert_eq!(e[1]["data"]["status"], "accepted");
        assert_eq!(e[1]["data"]["personId"], e[0]["data"]["id"]);

        let to_ada = id(&ok(app.send(
            "POST",
            "/api/v1/invitations",
            &org.key,
            &json!({"email": "ada@example.com", "sendEmail": false, "tags": ["z"]}),
        )));
        feed.expect("POST /invitations to a member", &["invitation.created"]);
        ok(app.admin("POST", &format!("/admin/v1/invitations/{to_ada}/accept"), Some(&json!({}))));
        let e = feed.expect("a member accepts (the invitation's tags)", &["person.updated", "invitation.accepted"]);
        assert_eq!(e[0]["data"]["id"], json!(ada_id));
        assert_eq!(e[0]["data"]["previousAttributes"]["tags"], json!(["x", "y"]));
        assert_eq!(e[0]["data"]["tags"], json!(["x", "y", "z"]));

        // Assessments: started, completed (admin API, the sandbox).
        let start = ok(app.admin(
            "POST",
            &format!("/admin/v1/persons/{ada_id}/assessments"),
            Some(&json!({"complete": false})),
        ));
        let e = feed.expect("an assessment starts", &["assessment.started", "person.updated"]);
        assert_eq!(e[1]["data"]["assessment"]["status"], "in_progress");
        assert_eq!(
            e[1]["data"]["previousAttributes"],
            json!({"assessment": {"status": "not_started", "completedAt": null, "count": 0}})
        );
        assert_eq!(
            e[0]["data"],
            json!({"personId": ada_id, "email": "ada@example.com", "externalId": "ext-1",
                   "assessmentId": start["id"], "startedAt": e[0]["data"]["startedAt"], "accommodations": null})
        );
        assert!(e[0]["data"]["startedAt"].is_string());
        ok(app.admin("POST", &format!("/admin/v1/persons/{ada_id}/assessments"), Some(&json!({"complete": true}))));
        let e = feed.expect("the assessment completes", &["assessment.completed", "person.updated"]);
        assert_eq!(e[1]["data"]["assessment"]["count"], 1);
        assert_eq!(e[0]["data"]["assessmentId"], start["id"]);

        // Archive reasons: withdrawn, deactivated, erased (by the organization and by the human).
        ok(app.admin("POST", &format!("/admin/v1/persons/{ada_id}/withdraw"), None));
        let e = feed.expect("the person withdraws", &["person.archived"]);
        assert_eq!(e[0]["data"]["archiveReason"], "withdrawn");
        assert_eq!(e[0]["data"]["sharedExistingProfile"], false);

        let fay = id(&app.import(&org.key, json!({"email": "fay@example.com"})));
        feed.expect("import", &["person.created"]);
        ok(app.admin("POST", &format!("/admin/v1/persons/{fay}/deactivate"), None));
        let e = feed.expect("an administrator deactivates", &["person.archived"]);
        assert_eq!(e[0]["data"]["archiveReason"], "deactivated");

        let gus = id(&app
            .import(&org.key, json!({"email": "gus@example.com", "invitation": {"create": true, "sendEmail": false}})));
        feed.expect("import with a nested invitation", &["person.created", "invitation.created"]);
        let erased = ok(app.send("POST", &format!("/api/v1/persons/{gus}/erase"), &org.key, &json!({})));
        let e = feed.expect("the organization erases", &["invitation.revoked", "person.archived"]);
        assert_eq!(e[1]["data"]["archiveReason"], "erased");
        is_person(&e[1]["data"], &erased);
        assert_ne!(e[0]["data"]["email"], "gus@example.com", "the revoked invitation carries no address");

        app.import(&org.key, json!({"email": "hal@example.com"}));
        feed.expect("import", &["person.created"]);
        ok(app.admin("POST", "/admin/v1/humans/erase", Some(&json!({"email": "hal@example.com"}))));
        let e = feed.expect("the human erases their data", &["person.archived"]);
        assert_eq!(e[0]["data"]["archiveReason"], "erased");

        // Configuration writes emit nothing.
        let team =
            ok(app.admin("POST", &format!("/admin/v1/organizations/{}/teams", org.id), Some(&json!({"name": "T"}))));
        let ivy = id(&app.import(&org.key, json!({"email": "ivy@example.com", "labels": ["employee"]})));
        feed.expect("import", &["person.created"]);
        ok(app.admin("POST", &format!("/admin/v1/teams/{}/members", id(&team)), Some(&json!({"personId": ivy}))));
        ok(app.admin(
            "PATCH",
            &format!("/admin/v1/organizations/{}", org.id),
            Some(&json!({"employeeDomains": ["acme.example"]})),
        ));
        let (_, key_id) = app.key(&org.user_id, &["persons:read"]);
        ok(app.admin("DELETE", &format!("/admin/v1/api-keys/{key_id}"), None));
        let results = ok(app.get(&format!("/api/v1/persons/{ada_id}/results"), &org.key));
        let competency = results["competencies"]["scores"][0]["competencyId"].clone();
        ok(app.admin(
            "POST",
            &format!("/admin/v1/organizations/{}/profiles", org.id),
            Some(&json!({"name": "P", "description": "x", "competencies": [{"competencyId": competency, "weight": 1.0}]})),
        ));
        feed.expect("teams, members, the organization, keys, profiles", &[]);

        // Webhook endpoints: configuration emits nothing; one that fails for 3 days is disabled
        // and says so (D50) to the feed and to the other enabled endpoints.
        let dead = ok(app.send(
            "POST",
            "/api/v1/webhooks",
            &org.key,
            &json!({"url": "http://127.0.0.1:9/", "events": ["person.created"]}),
        ));
        let watcher = ok(app.send(
            "POST",
            "/api/v1/webhooks",
            &org.key,
            &json!({"url": "http://127.0.0.1:9/watch", "events": ["webhook.disabled"]}),
        ));
        ok(app.send("PATCH", &format!("/api/v1/webhooks/{}", id(&watcher)), &org.key, &json!({"description": "w"})));
        ok(app.send("POST", &format!("/api/v1/webhooks/{}/rotate-secret", id(&watcher)), &org.key, &json!({})));
        app.send("POST", &format!("/api/v1/webhooks/{}/test", id(&watcher)), &org.key, &json!({}));
        feed.expect("webhook endpoints created, patched, rotated, tested", &[]);
        // Every attempt is recorded before the clock moves on (the engine may be the one that
        // makes it, in its own time).
        let dead_path = format!("/api/v1/webhooks/{}/deliveries?limit=100", id(&dead));
        let attempts = |n: u64| {
            let made = || {
                let d = ok(app.get(&dead_path, &org.key));
                d["data"].as_array().unwrap().iter().map(|x| x["attempts"].as_u64().unwrap()).sum::<u64>() == n
            };
            assert!(eventually(std::time::Duration::from_secs(20), made), "{n} attempts");
        };
        app.import(&org.key, json!({"email": "jon@example.com"}));
        feed.expect("import", &["person.created"]);
        attempts(1);
        for (n, secs) in [(2, 61), (3, 301), (4, 1_801), (5, 7_201)] {
            ok(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": secs}))));
            attempts(n);
        }
        ok(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 3 * 86_400}))));
        app.import(&org.key, json!({"email": "kim@example.com"}));
        feed.expect("import", &["person.created"]);
        attempts(6);
        // After so many failures the breaker (T59) stays open 5 minutes: each retry waits it out.
        for (n, secs) in [(7, 301), (8, 301), (9, 1_801), (10, 7_201)] {
            ok(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": secs}))));
            attempts(n);
        }
        let e = feed.expect("3 days of failed deliveries", &["webhook.disabled"]);
        assert_eq!(e[0]["data"]["webhookId"], dead["id"]);
        assert_eq!(e[0]["data"]["url"], "http://127.0.0.1:9/");
        assert_eq!(e[0]["data"]["failedDeliveries"], 2);
        let d = ok(app.get(&format!("/api/v1/webhooks/{}/deliveries?status=pending", id(&watcher)), &org.key));
        let told: Vec<&Value> =
            d["data"].as_array().unwrap().iter().filter(|x| x["type"] == "webhook.disabled").collect();
        assert_eq!(told.len(), 1, "the watcher has the event: {d}");
        assert_eq!(app.delete(&format!("/api/v1/webhooks/{}", id(&dead)), &org.key).status, 204);
        feed.expect("an endpoint deleted", &[]);
    }
);
