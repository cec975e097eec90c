//! Invitations over HTTP on both backends (spec: Invitation resource and status table, the nested
//! `invitation` of `POST /persons`, `sharedExistingProfile`; D6, D11, D15, D17-D22, D38-D40): the
//! public endpoints, the person-facing pages `GET`/`POST /i/{token}`, the admin API's accept,
//! emails and sandbox clock, and a real SMTP round trip into a sink started by the test.
use crate::support::{Backend, Opts, Org, Resp, TestApp};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration as StdDuration;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The Invitation object's fields (spec: all always present, no others; the person's side of it,
/// T217-T219).
const INVITATION_FIELDS: [&str; 22] = [
    "id",
    "email",
    "firstName",
    "lastName",
    "externalId",
    "personId",
    "status",
    "labels",
    "tags",
    "variant",
    "message",
    "locale",
    "timeZone",
    "accommodations",
    "redirectUrl",
    "url",
    "emailSentAt",
    "expiresAt",
    "acceptedAt",
    "revokedAt",
    "createdAt",
    "updatedAt",
];

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap_or_else(|| panic!("not an object: {v}")).keys().cloned().collect()
}

fn assert_invitation_shape(v: &Value) {
    let expected: BTreeSet<String> = INVITATION_FIELDS.iter().map(|s| s.to_string()).collect();
    assert_eq!(keys(v), expected, "exactly the Invitation fields: {v}");
}

/// A timestamp of the API as invitation emails give it to people (T206):
/// `15 January 2026, 10:00 UTC`.
/// An instant as the English emails and pages write it in UTC (T217: CLDR's long date with the
/// time to the minute and the offset): `December 26, 2026 at 9:57 PM GMT+0`.
fn for_people(v: &Value) -> String {
    let t = ts(v);
    let (h, pm) = match t.hour() {
        0 => (12, "AM"),
        h @ 1..=11 => (h, "AM"),
        12 => (12, "PM"),
        h => (h - 12, "PM"),
    };
    format!("{} {}, {} at {h}:{:02}\u{202f}{pm} GMT+0", t.month(), t.day(), t.year(), t.minute())
}

pub(crate) fn ts(v: &Value) -> OffsetDateTime {
    let s = v.as_str().unwrap_or_else(|| panic!("a date-time, not {v}"));
    assert!(s.ends_with('Z'), "UTC with Z: {s}");
    OffsetDateTime::parse(s, &Rfc3339).unwrap_or_else(|e| panic!("{s}: {e}"))
}

pub(crate) fn id(v: &Value) -> String {
    v["id"].as_str().unwrap_or_else(|| panic!("id in {v}")).to_string()
}

/// An organization with its own company name (and optional employee domains).
pub(crate) fn org(app: &TestApp, company: &str, domains: &[&str]) -> Org {
    app.org_with(json!({
        "companyName": company, "email": "hr@acme.example", "plan": "business",
        "subscriptionStatus": "active", "employeeDomains": domains,
    }))
}

pub(crate) fn create(app: &TestApp, key: &str, body: Value) -> Resp {
    app.send("POST", "/api/v1/invitations", key, &body)
}

/// `POST /api/v1/invitations`; asserts 201; returns the Invitation.
pub(crate) fn invite(app: &TestApp, key: &str, body: Value) -> Value {
    let r = create(app, key, body);
    assert_eq!(r.status, 201, "{}", r.text);
    assert_invitation_shape(&r.json);
    r.json
}

fn get_invitation(app: &TestApp, key: &str, inv: &str) -> Value {
    let r = app.get(&format!("/api/v1/invitations/{inv}"), key);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_invitation_shape(&r.json);
    r.json
}

fn get_person(app: &TestApp, key: &str, person: &str) -> Value {
    let r = app.get(&format!("/api/v1/persons/{person}"), key);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json
}

fn action(app: &TestApp, key: &str, inv: &str, what: &str, body: Value) -> Resp {
    app.send("POST", &format!("/api/v1/invitations/{inv}/{what}"), key, &body)
}

/// The field paths of a 400 `validation_error` (D37).
pub(crate) fn fields(r: &Resp) -> Vec<String> {
    r.assert_error(400, "validation_error");
    r.json["details"]["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("details.fields in {}", r.text))
        .iter()
        .map(|f| f["field"].as_str().unwrap().to_string())
        .collect()
}

/// The path of an invitation `url` on this server; the url must point at it (D20, D40).
pub(crate) fn page_path(app: &TestApp, inv: &Value) -> String {
    let url = inv["url"].as_str().unwrap();
    let path = url.strip_prefix(&app.base).unwrap_or_else(|| panic!("url {url} is not on {}", app.base));
    assert!(path.starts_with("/i/"), "D20: {{public_url}}/i/{{token}}: {url}");
    let token = &path[3..];
    assert_eq!(token.len(), 43, "32 random bytes in base64url: {token}");
    assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "base64url: {token}");
    path.to_string()
}

/// `GET {url}` as the person (no Authorization).
pub(crate) fn open_page(app: &TestApp, inv: &Value) -> Resp {
    app.request("GET", &page_path(app, inv), &[], None)
}

/// `POST {url}` as the person, with a form body.
pub(crate) fn submit_page(app: &TestApp, inv: &Value, form: &str) -> Resp {
    app.request(
        "POST",
        &page_path(app, inv),
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(form.as_bytes()),
    )
}

pub(crate) fn assert_html(r: &Resp, status: u16) {
    assert_eq!(r.status, status, "{}", r.text);
    assert!(r.header("content-type").is_some_and(|c| c.starts_with("text/html")), "{:?}", r.headers);
    assert!(r.text.starts_with("<!doctype html>"), "{}", r.text);
    assert_eq!(r.header("cache-control"), Some("no-store"), "T34");
}

/// Imports a person into a fresh organization and completes an assessment there, so that the
/// human has results other organizations cannot see (D10, D11, D19).
fn completed_elsewhere(app: &TestApp, email: &str) {
    let other = org(app, &format!("Initech {}", uuid::Uuid::new_v4().simple()), &[]);
    let p = app.import(&other.key, json!({"email": email}));
    let r = app.admin("POST", &format!("/admin/v1/persons/{}/assessments", id(&p)), Some(&json!({"complete": true})));
    assert_eq!(r.status, 200, "{}", r.text);
}

/// The ids of one page of `GET /api/v1/invitations?{query}` (asserts 200 and the envelope).
fn list(app: &TestApp, key: &str, query: &str) -> Resp {
    let r = app.get(&format!("/api/v1/invitations?{query}"), key);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(keys(&r.json), ["data", "pagination"].iter().map(|s| s.to_string()).collect());
    for item in r.json["data"].as_array().unwrap() {
        assert_invitation_shape(item);
    }
    r
}

fn ids(r: &Resp) -> Vec<String> {
    r.json["data"].as_array().unwrap().iter().map(id).collect()
}

fn listed(app: &TestApp, key: &str, query: &str) -> BTreeSet<String> {
    let r = list(app, key, query);
    assert_eq!(r.json["pagination"]["hasMore"], false, "{}", r.text);
    ids(&r).into_iter().collect()
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn enc(s: &str) -> String {
    s.replace('+', "%2B").replace(':', "%3A").replace('@', "%40")
}

pub(crate) fn emails_to(app: &TestApp, to: &str) -> Vec<Value> {
    let r = app.admin("GET", &format!("/admin/v1/emails?to={}", enc(to)), None);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["data"].as_array().unwrap().clone()
}

// ---------------------------------------------------------------------------------------------
// Create, read, validation, scopes (D17, D18)
// ---------------------------------------------------------------------------------------------

// D18: 201 with exactly the Invitation fields, expiry 14 days by default, a link on this server;
// the same email again gives the pending invitation with 200 and X-Existing-Resource.
crate::e2e!(creating_an_invitation_returns_201_with_exactly_the_invitation_fields, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let r = create(
        app,
        &o.key,
        json!({
            "email": "Ada@Example.com", "firstName": "Ada", "lastName": "Lovelace", "externalId": "ats-7",
            "labels": ["employee"], "tags": ["remote", "Backend"], "message": "Hello from Acme",
            "sendEmail": false,
        }),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.header("x-existing-resource"), None);
    let inv = &r.json;
    assert_invitation_shape(inv);
    assert!(uuid::Uuid::parse_str(&id(inv)).is_ok());
    assert_eq!(inv["email"], "ada@example.com", "D9: trimmed and lower-cased");
    assert_eq!(inv["firstName"], "Ada");
    assert_eq!(inv["lastName"], "Lovelace");
    assert_eq!(inv["externalId"], "ats-7");
    assert_eq!(inv["personId"], Value::Null, "not a member");
    assert_eq!(inv["status"], "pending");
    assert_eq!(inv["labels"], json!(["employee"]));
    let mut tags: Vec<String> =
        inv["tags"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_string()).collect();
    tags.sort();
    assert_eq!(tags, ["Backend", "remote"]);
    assert_eq!(inv["variant"], "assessment");
    assert_eq!(inv["message"], "Hello from Acme");
    assert_eq!(inv["emailSentAt"], Value::Null, "sendEmail false");
    assert_eq!(inv["acceptedAt"], Value::Null);
    assert_eq!(inv["revokedAt"], Value::Null);
    assert_eq!(ts(&inv["expiresAt"]) - ts(&inv["createdAt"]), Duration::days(14), "D18 default");
    assert!(ts(&inv["updatedAt"]) >= ts(&inv["createdAt"]));
    page_path(app, inv);

    let again = create(app, &o.key, json!({"email": " ADA@example.com", "sendEmail": true, "expiresInDays": 3}));
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.header("x-existing-resource"), Some("true"));
    assert_eq!(again.json, get_invitation(app, &o.key, &id(inv)), "the pending invitation, unchanged");
    assert_eq!(id(&again.json), id(inv));
    assert_eq!(again.json["expiresAt"], inv["expiresAt"]);
    assert!(emails_to(app, "ada@example.com").is_empty(), "no email for the returned invitation");

    let got = get_invitation(app, &o.key, &id(inv));
    assert_eq!(&got, inv, "GET by id shows the created invitation");

    // Defaults of the optional fields.
    let bare = invite(app, &o.key, json!({"email": "bare@example.com", "sendEmail": false}));
    for f in ["firstName", "lastName", "externalId", "personId", "labels", "tags", "message"] {
        assert_eq!(bare[f], Value::Null, "{f} of {bare}");
    }
    let long = invite(app, &o.key, json!({"email": "long@example.com", "sendEmail": false, "expiresInDays": 90}));
    assert_eq!(ts(&long["expiresAt"]) - ts(&long["createdAt"]), Duration::days(90));
    let short = invite(app, &o.key, json!({"email": "short@example.com", "sendEmail": false, "expiresInDays": 1}));
    assert_eq!(ts(&short["expiresAt"]) - ts(&short["createdAt"]), Duration::days(1));

    // Reads are scoped to the organization.
    app.get(&format!("/api/v1/invitations/{}", uuid::Uuid::new_v4()), &o.key).assert_error(404, "not_found");
    app.get("/api/v1/invitations/not-a-uuid", &o.key).assert_error(404, "not_found");
    let other = org(app, "Other Co", &[]);
    app.get(&format!("/api/v1/invitations/{}", id(inv)), &other.key).assert_error(404, "not_found");
    action(app, &other.key, &id(inv), "revoke", json!({})).assert_error(404, "not_found");
    assert!(ids(&list(app, &other.key, "")).is_empty());
});

// D18, D37: invalid bodies give 400 `validation_error` naming the field; nothing is created.
crate::e2e!(invalid_invitation_bodies_are_rejected_with_field_paths, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let ok = |extra: Value| {
        let mut b = json!({"email": "ada@example.com", "sendEmail": false});
        for (k, v) in extra.as_object().unwrap() {
            b[k] = v.clone();
        }
        b
    };
    let cases: Vec<(Value, &str)> = vec![
        (ok(json!({"message": "x".repeat(2001)})), "message"),
        (ok(json!({"message": ""})), "message"),
        (ok(json!({"expiresInDays": 0})), "expiresInDays"),
        (ok(json!({"expiresInDays": 91})), "expiresInDays"),
        (ok(json!({"email": "not-an-email"})), "email"),
        (ok(json!({"labels": ["boss"]})), "labels[0]"),
        (ok(json!({"tags": ["ok", ""]})), "tags[1]"),
        (ok(json!({"firstName": ""})), "firstName"),
        (ok(json!({"colour": "blue"})), "colour"),
        (json!({"email": "ada@example.com"}), "sendEmail"),
        (json!({"sendEmail": true}), "email"),
        (ok(json!({"sendEmail": "yes"})), "sendEmail"),
    ];
    for (body, field) in cases {
        let r = create(app, &o.key, body.clone());
        let f = fields(&r);
        assert!(f.iter().any(|x| x == field), "{field} expected in {f:?} for {body}");
    }
    let not_json = app.request(
        "POST",
        "/api/v1/invitations",
        &[("Authorization", &format!("Bearer {}", o.key)), ("Content-Type", "text/plain")],
        Some(b"email=ada@example.com"),
    );
    not_json.assert_error(400, "validation_error");
    assert!(ids(&list(app, &o.key, "")).is_empty(), "nothing was created");

    // The limits themselves are allowed (D18): a message of exactly 2,000 characters.
    let max = invite(app, &o.key, ok(json!({"message": "é".repeat(2000)})));
    assert_eq!(max["message"].as_str().unwrap().chars().count(), 2000);
});

// T257 (T172): a field over its limit is named once, as `POST /persons` names it; both bodies'
// person fields go through one parser, which skips a field `validator` already refused.
crate::e2e!(an_invitation_field_over_its_limit_is_named_once, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let tags: Vec<String> = (0..51).map(|i| format!("t{i}")).collect();
    let cases: Vec<(Value, &str)> = vec![
        (json!({"firstName": "x".repeat(101)}), "firstName"),
        (json!({"lastName": "x".repeat(101)}), "lastName"),
        (json!({"externalId": "x".repeat(256)}), "externalId"),
        (json!({"labels": ["candidate", "employee", "candidate"]}), "labels"),
        (json!({"tags": tags}), "tags"),
    ];
    for (extra, field) in cases {
        for path in ["/api/v1/invitations", "/api/v1/persons"] {
            let mut body = json!({"email": "ada@example.com", "sendEmail": false});
            if path == "/api/v1/persons" {
                body = json!({"email": "ada@example.com"});
            }
            for (k, v) in extra.as_object().unwrap() {
                body[k] = v.clone();
            }
            let r = app.send("POST", path, &o.key, &body);
            assert_eq!(fields(&r), [field], "{path} {field}: {}", r.text);
        }
    }
    assert!(ids(&list(app, &o.key, "")).is_empty(), "nothing was created");
});

// Spec scopes: `invitations:read` reads, `invitations:write` creates, resends and revokes (and
// implies read).
crate::e2e!(invitation_scopes_are_enforced, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let inv = invite(app, &o.key, json!({"email": "ada@example.com", "sendEmail": false}));
    let (reader, _) = app.key(&o.user_id, &["invitations:read"]);
    let (writer, _) = app.key(&o.user_id, &["invitations:write"]);
    let (persons, _) = app.key(&o.user_id, &["persons:read", "persons:write"]);

    create(app, &reader, json!({"email": "bob@example.com", "sendEmail": false}))
        .assert_error(403, "insufficient_scope");
    action(app, &reader, &id(&inv), "resend", json!({})).assert_error(403, "insufficient_scope");
    action(app, &reader, &id(&inv), "revoke", json!({})).assert_error(403, "insufficient_scope");
    assert_eq!(list(app, &reader, "").json["data"].as_array().unwrap().len(), 1);
    get_invitation(app, &reader, &id(&inv));

    app.get("/api/v1/invitations", &persons).assert_error(403, "insufficient_scope");
    app.get(&format!("/api/v1/invitations/{}", id(&inv)), &persons).assert_error(403, "insufficient_scope");
    create(app, &persons, json!({"email": "bob@example.com", "sendEmail": false}))
        .assert_error(403, "insufficient_scope");

    get_invitation(app, &writer, &id(&inv));
    invite(app, &writer, json!({"email": "bob@example.com", "sendEmail": false}));

    // D4: creating, resending and revoking are writes: refused while the subscription is inactive.
    let canceled = app.org_with(json!({
        "companyName": "Canceled Co", "email": "hr@canceled.example", "plan": "business",
        "subscriptionStatus": "active",
    }));
    let early = invite(app, &canceled.key, json!({"email": "ada@example.com", "sendEmail": false}));
    let patch = app.admin(
        "PATCH",
        &format!("/admin/v1/organizations/{}", canceled.id),
        Some(&json!({"subscriptionStatus": "canceled"})),
    );
    assert_eq!(patch.status, 200, "{}", patch.text);
    create(app, &canceled.key, json!({"email": "bob@example.com", "sendEmail": false}))
        .assert_error(403, "subscription_inactive");
    action(app, &canceled.key, &id(&early), "resend", json!({})).assert_error(403, "subscription_inactive");
    action(app, &canceled.key, &id(&early), "revoke", json!({})).assert_error(403, "subscription_inactive");
    assert_eq!(ids(&list(app, &canceled.key, "")), [id(&early)], "reads keep working");
    assert_eq!(get_invitation(app, &reader, &id(&inv))["status"], "pending", "refused writes changed nothing");
});

// ---------------------------------------------------------------------------------------------
// Listing (D17, D36)
// ---------------------------------------------------------------------------------------------

// D17: filters status, variant, email, externalId, personId, updatedAfter; newest first; keyset
// pagination across pages; 400 for bad filters, limits and cursors (D36).
crate::e2e!(listing_filters_invitations_and_paginates_newest_first, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let empty = list(app, &o.key, "");
    assert_eq!(empty.json, json!({"data": [], "pagination": {"hasMore": false, "nextCursor": null}}));

    let member = app.import(&o.key, json!({"email": "member@example.com"}));
    completed_elsewhere(app, "shared@example.com");
    let i1 = id(&invite(app, &o.key, json!({"email": "a1@example.com", "externalId": "ats-1", "sendEmail": false})));
    let i2 = invite(app, &o.key, json!({"email": "a2@example.com", "externalId": "ats-2", "sendEmail": false}));
    let i3 = id(&invite(app, &o.key, json!({"email": "member@example.com", "sendEmail": false})));
    let i4 = id(&invite(app, &o.key, json!({"email": "revoked@example.com", "sendEmail": false})));
    let i5 = id(&invite(app, &o.key, json!({"email": "accepted@example.com", "sendEmail": false})));
    let i6 = invite(app, &o.key, json!({"email": "shared@example.com", "sendEmail": false}));
    assert_eq!(i6["variant"], "access_request", "D19");
    let (i2, i6) = (id(&i2), id(&i6));
    let after_i2 = get_invitation(app, &o.key, &i2)["updatedAt"].as_str().unwrap().to_string();
    assert_eq!(action(app, &o.key, &i4, "revoke", json!({})).status, 200);
    let acc = app.admin("POST", &format!("/admin/v1/invitations/{i5}/accept"), Some(&json!({})));
    assert_eq!(acc.status, 200, "{}", acc.text);
    let accepted_person = acc.json["person"]["id"].as_str().unwrap().to_string();

    let all = list(app, &o.key, "");
    let expected: Vec<String> = [&i6, &i5, &i4, &i3, &i2, &i1].iter().map(|s| s.to_string()).collect();
    assert_eq!(ids(&all), expected, "newest first");

    assert_eq!(listed(app, &o.key, "status=pending"), set(&[&i1, &i2, &i3, &i6]));
    assert_eq!(listed(app, &o.key, "status=revoked"), set(&[&i4]));
    assert_eq!(listed(app, &o.key, "status=accepted"), set(&[&i5]));
    assert_eq!(listed(app, &o.key, "status=expired"), set(&[]));
    assert_eq!(listed(app, &o.key, "variant=access_request"), set(&[&i6]));
    assert_eq!(listed(app, &o.key, "variant=assessment"), set(&[&i1, &i2, &i3, &i4, &i5]));
    assert_eq!(listed(app, &o.key, "email=a1%40example.com"), set(&[&i1]));
    assert_eq!(listed(app, &o.key, "email=A1%40Example.com"), set(&[&i1]), "D9");
    assert_eq!(listed(app, &o.key, "externalId=ats-2"), set(&[&i2]));
    assert_eq!(listed(app, &o.key, &format!("personId={}", id(&member))), set(&[&i3]));
    assert_eq!(listed(app, &o.key, &format!("personId={accepted_person}")), set(&[&i5]), "set at acceptance");
    assert_eq!(listed(app, &o.key, &format!("updatedAfter={}", enc(&after_i2))), set(&[&i3, &i4, &i5, &i6]));
    assert_eq!(listed(app, &o.key, "status=pending&variant=assessment&externalId=ats-1"), set(&[&i1]));

    // Pagination: 6 items in pages of 4 and 2, then with a filter.
    let p1 = list(app, &o.key, "limit=4");
    assert_eq!(ids(&p1), expected[..4]);
    assert_eq!(p1.json["pagination"]["hasMore"], true);
    let cursor = p1.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
    let p2 = list(app, &o.key, &format!("limit=4&cursor={cursor}"));
    assert_eq!(ids(&p2), expected[4..]);
    assert_eq!(p2.json["pagination"], json!({"hasMore": false, "nextCursor": null}));
    let f1 = list(app, &o.key, "status=pending&limit=3");
    assert_eq!(ids(&f1), [i6.as_str(), i3.as_str(), i2.as_str()]);
    let fc = f1.json["pagination"]["nextCursor"].as_str().unwrap().to_string();
    let f2 = list(app, &o.key, &format!("status=pending&limit=3&cursor={fc}"));
    assert_eq!(ids(&f2), [i1.as_str()]);
    assert_eq!(f2.json["pagination"]["hasMore"], false);

    // D36: a cursor made for other filters, malformed cursors, limits and filters give 400.
    assert_eq!(fields(&app.get(&format!("/api/v1/invitations?limit=4&cursor={fc}"), &o.key)), ["cursor"]);
    assert_eq!(fields(&app.get("/api/v1/invitations?cursor=garbage", &o.key)), ["cursor"]);
    for (q, field) in [
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("status=open", "status"),
        ("variant=other", "variant"),
        ("personId=nope", "personId"),
        ("email=nope", "email"),
        ("updatedAfter=yesterday", "updatedAfter"),
        ("colour=blue", "colour"),
    ] {
        assert_eq!(fields(&app.get(&format!("/api/v1/invitations?{q}"), &o.key)), [field], "{q}");
    }
});

// ---------------------------------------------------------------------------------------------
// Resend and revoke (D21), idempotency (D38)
// ---------------------------------------------------------------------------------------------

// Spec state table and D21: resend and revoke for pending invitations only; 409 `conflict`
// otherwise; revoke sets `revokedAt`.
crate::e2e!(resend_and_revoke_work_on_pending_invitations_only, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let inv = invite(app, &o.key, json!({"email": "ada@example.com", "sendEmail": false}));
    let i = id(&inv);

    let r = action(app, &o.key, &i, "resend", json!({"expiresInDays": 30}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_invitation_shape(&r.json);
    assert_eq!(r.json["status"], "pending");
    app.sent_emails("ada@example.com");
    let sent = ts(&get_invitation(app, &o.key, &i)["emailSentAt"]);
    let left = ts(&r.json["expiresAt"]) - sent;
    assert!(left <= Duration::days(30) && left > Duration::days(30) - Duration::minutes(1), "new expiry: {left}");
    assert!(ts(&r.json["expiresAt"]) > ts(&inv["expiresAt"]));
    let mails = emails_to(app, "ada@example.com");
    assert_eq!(mails.len(), 1, "resend sends (D21)");
    assert_eq!(mails[0]["invitationUrl"], inv["url"]);
    let expiry = format!("valid until {}.", for_people(&r.json["expiresAt"]));
    assert!(mails[0]["body"].as_str().unwrap().contains(&expiry), "{expiry} in {}", mails[0]["body"]);

    // A second resend within a minute is refused (T93; the cooldown's own test is in
    // hardening.rs); another invitation shows the empty body.
    action(app, &o.key, &i, "resend", json!({})).assert_error(429, "rate_limited");
    let other = invite(app, &o.key, json!({"email": "ada2@example.com", "sendEmail": false}));
    let empty = app.request(
        "POST",
        &format!("/api/v1/invitations/{}/resend", id(&other)),
        &[("Authorization", &format!("Bearer {}", o.key))],
        None,
    );
    assert_eq!(empty.status, 200, "an empty body is allowed (T38): {}", empty.text);
    app.sent_emails("ada2@example.com");
    assert!(ts(&get_invitation(app, &o.key, &id(&other))["emailSentAt"]) > sent);
    assert_eq!(emails_to(app, "ada@example.com").len(), 1);
    assert_eq!(emails_to(app, "ada2@example.com").len(), 1);
    assert_eq!(fields(&action(app, &o.key, &i, "resend", json!({"expiresInDays": 0}))), ["expiresInDays"]);
    assert_eq!(fields(&action(app, &o.key, &i, "resend", json!({"expiresInDays": 91}))), ["expiresInDays"]);

    let rv = action(app, &o.key, &i, "revoke", json!({}));
    assert_eq!(rv.status, 200, "{}", rv.text);
    assert_invitation_shape(&rv.json);
    assert_eq!(rv.json["status"], "revoked");
    assert!(ts(&rv.json["revokedAt"]) >= ts(&rv.json["createdAt"]));
    assert_eq!(get_invitation(app, &o.key, &i)["status"], "revoked");
    action(app, &o.key, &i, "revoke", json!({})).assert_error(409, "conflict");
    action(app, &o.key, &i, "resend", json!({})).assert_error(409, "conflict");
    let adm = app.admin("POST", &format!("/admin/v1/invitations/{i}/accept"), Some(&json!({})));
    adm.assert_error(409, "conflict");
    assert_eq!(emails_to(app, "ada@example.com").len(), 1, "no email from a refused resend");
    assert_eq!(get_invitation(app, &o.key, &i)["revokedAt"], rv.json["revokedAt"], "unchanged");

    // An accepted invitation cannot be revoked or resent either.
    let acc = invite(app, &o.key, json!({"email": "bob@example.com", "sendEmail": false}));
    assert_eq!(app.admin("POST", &format!("/admin/v1/invitations/{}/accept", id(&acc)), None).status, 200);
    action(app, &o.key, &id(&acc), "revoke", json!({})).assert_error(409, "conflict");
    action(app, &o.key, &id(&acc), "resend", json!({})).assert_error(409, "conflict");
    assert_eq!(get_invitation(app, &o.key, &id(&acc))["status"], "accepted");

    let unknown = uuid::Uuid::new_v4();
    action(app, &o.key, &unknown.to_string(), "revoke", json!({})).assert_error(404, "not_found");
    action(app, &o.key, &unknown.to_string(), "resend", json!({})).assert_error(404, "not_found");

    // After a revoke, the email can be invited again (D18 returns pending invitations only).
    let fresh = invite(app, &o.key, json!({"email": "ada@example.com", "sendEmail": false}));
    assert_ne!(id(&fresh), i);
});

// D38: `Idempotency-Key` on POST /invitations and on revoke replays the stored response.
crate::e2e!(idempotency_keys_replay_invitation_writes, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let body = json!({"email": "ada@example.com", "sendEmail": false, "message": "hi"});
    let k = [("Idempotency-Key", "inv-create-1")];
    let first = app.send_with("POST", "/api/v1/invitations", &o.key, &body, &k);
    assert_eq!(first.status, 201, "{}", first.text);
    assert_eq!(first.header("idempotency-replayed"), None);
    let replay = app.send_with("POST", "/api/v1/invitations", &o.key, &body, &k);
    assert_eq!(replay.status, 201, "the stored status, not 200: {}", replay.text);
    assert_eq!(replay.header("idempotency-replayed"), Some("true"));
    assert_eq!(replay.json, first.json);
    let other = json!({"email": "bob@example.com", "sendEmail": false});
    app.send_with("POST", "/api/v1/invitations", &o.key, &other, &k).assert_error(409, "idempotency_key_reused");
    assert_eq!(ids(&list(app, &o.key, "")), [id(&first.json)], "one invitation");

    let path = format!("/api/v1/invitations/{}/revoke", id(&first.json));
    let rk = [("Idempotency-Key", "inv-revoke-1")];
    let rv = app.send_with("POST", &path, &o.key, &json!({}), &rk);
    assert_eq!(rv.status, 200, "{}", rv.text);
    let again = app.send_with("POST", &path, &o.key, &json!({}), &rk);
    assert_eq!(again.status, 200, "replayed, not 409: {}", again.text);
    assert_eq!(again.header("idempotency-replayed"), Some("true"));
    assert_eq!(again.json, rv.json);
    app.send("POST", &path, &o.key, &json!({})).assert_error(409, "conflict");
});

// ---------------------------------------------------------------------------------------------
// The person-facing pages (D20, T34)
// ---------------------------------------------------------------------------------------------

// D20: GET {url} shows the organization; POST accepts: the invitation reads accepted with
// `acceptedAt` and `personId`, the person exists with `joinedVia: invitation_personal`, labels
// null → default + domain rule (D15), tags applied; afterwards the link is gone (410).
crate::e2e!(the_invitation_page_accepts_once_and_then_reads_gone, Default::default(), |app| {
    let o = org(app, "Globex Recruiting", &["globex.example"]);
    let inv = invite(
        app,
        &o.key,
        json!({
            "email": "hank@globex.example", "firstName": "Hank", "externalId": "ats-9", "tags": ["night-shift"],
            "message": "Looking forward to <b>meeting</b> you", "sendEmail": false,
        }),
    );
    let page = open_page(app, &inv);
    assert_html(&page, 200);
    assert!(page.text.contains("Globex Recruiting"), "organization name: {}", page.text);
    assert!(page.text.contains("hank@globex.example"));
    assert!(page.text.contains("<form method=\"post\""));
    assert!(!page.text.contains("name=\"share\""), "no consent box on an assessment invitation");
    assert!(page.text.contains("Looking forward to &lt;b&gt;meeting&lt;/b&gt; you"), "escaped message");
    assert!(!page.text.contains("<b>meeting</b>"));
    assert_eq!(get_invitation(app, &o.key, &id(&inv))["status"], "pending", "viewing does not accept");

    let done = submit_page(app, &inv, "");
    assert_html(&done, 200);
    assert!(done.text.contains("accepted"), "{}", done.text);

    let after = get_invitation(app, &o.key, &id(&inv));
    assert_eq!(after["status"], "accepted");
    assert!(ts(&after["acceptedAt"]) >= ts(&after["createdAt"]));
    assert_eq!(after["updatedAt"], after["acceptedAt"]);
    let person_id = after["personId"].as_str().expect("personId set at acceptance").to_string();
    let p = get_person(app, &o.key, &person_id);
    assert_eq!(p["email"], "hank@globex.example");
    assert_eq!(p["status"], "active");
    assert_eq!(p["joinedVia"], "invitation_personal");
    assert_eq!(p["labels"], json!(["candidate", "employee"]), "D15");
    assert_eq!(p["tags"], json!(["night-shift"]));
    assert_eq!(p["firstName"], "Hank");
    assert_eq!(p["externalId"], "ats-9");
    assert_eq!(p["sharedExistingProfile"], false);
    let listed = app.get("/api/v1/persons?email=hank%40globex.example", &o.key);
    assert_eq!(listed.json["data"][0]["id"], person_id.as_str());

    let gone = open_page(app, &inv);
    assert_html(&gone, 410);
    assert!(gone.text.contains("Globex Recruiting"));
    assert_html(&submit_page(app, &inv, ""), 410);
    assert_eq!(get_invitation(app, &o.key, &id(&inv))["acceptedAt"], after["acceptedAt"], "accepted once");

    // Revoked: 410 for both methods, and POST does not accept it.
    let rev = invite(app, &o.key, json!({"email": "rita@example.com", "sendEmail": false}));
    assert_eq!(action(app, &o.key, &id(&rev), "revoke", json!({})).status, 200);
    assert_html(&open_page(app, &rev), 410);
    assert_html(&submit_page(app, &rev, ""), 410);
    assert_eq!(get_invitation(app, &o.key, &id(&rev))["status"], "revoked");
    assert_eq!(app.get("/api/v1/persons?email=rita%40example.com", &o.key).json["data"], json!([]));

    // Unknown tokens: 404 pages.
    let unknown = app.request("GET", "/i/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", &[], None);
    assert_html(&unknown, 404);
    assert_html(&app.request("POST", "/i/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", &[], Some(b"")), 404);
    assert_html(&app.request("GET", &format!("/i/{}", "x".repeat(500)), &[], None), 404);
});

// D11, D19, D20, D43: an access request asks for consent; `share=true` with the code from the
// email sets `sharedExistingProfile` and shows the earlier results; without it they stay hidden.
crate::e2e!(
    an_access_request_page_asks_for_consent_and_sharing_reveals_earlier_results,
    Opts { sandbox: true, ..Default::default() },
    |app| {
        let o = org(app, "Acme", &[]);
        completed_elsewhere(app, "shared@example.com");
        completed_elsewhere(app, "private@example.com");
        let yes = invite(app, &o.key, json!({"email": "shared@example.com", "sendEmail": false}));
        let no = invite(app, &o.key, json!({"email": "private@example.com", "sendEmail": false}));
        assert_eq!(yes["variant"], "access_request");
        assert_eq!(no["variant"], "access_request");

        let page = open_page(app, &yes);
        assert_html(&page, 200);
        assert!(page.text.contains("name=\"share\""), "consent checkbox: {}", page.text);
        assert!(page.text.contains("Acme"));

        let ask = submit_page(app, &yes, "share=true");
        assert_html(&ask, 200);
        assert!(ask.text.contains("name=\"code\""), "D43: the page asks for the code: {}", ask.text);
        assert_eq!(get_invitation(app, &o.key, &id(&yes))["status"], "pending", "nothing changes without the code");
        let code = app.consent_code("shared@example.com");
        assert_html(&submit_page(app, &yes, &format!("share=true&code={code}")), 200);
        let a = get_invitation(app, &o.key, &id(&yes));
        assert_eq!(a["status"], "accepted");
        let pid = a["personId"].as_str().unwrap();
        let p = get_person(app, &o.key, pid);
        assert_eq!(p["sharedExistingProfile"], true);
        assert_eq!(p["assessment"]["count"], 1);
        assert_eq!(p["assessment"]["status"], "completed");
        let r = app.get(&format!("/api/v1/persons/{pid}/results"), &o.key);
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["hasResults"], true);
        assert_eq!(r.json["totals"]["assessments"], 1);

        assert_html(&submit_page(app, &no, ""), 200);
        let b = get_invitation(app, &o.key, &id(&no));
        assert_eq!(b["status"], "accepted");
        let pid = b["personId"].as_str().unwrap();
        let p = get_person(app, &o.key, pid);
        assert_eq!(p["sharedExistingProfile"], false);
        assert_eq!(p["assessment"]["count"], 0);
        assert_eq!(p["assessment"]["status"], "not_started");
        let r = app.get(&format!("/api/v1/persons/{pid}/results"), &o.key);
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["hasResults"], false, "D11: hidden without consent");
    }
);

// D20, D43: a self-revoked person rejoins through an invitation with the code from the email; a
// deactivated one cannot (409 page, 409 `person_deactivated` on the admin accept).
crate::e2e!(
    acceptance_readmits_a_self_revoked_person_but_not_a_deactivated_one,
    Opts { sandbox: true, ..Default::default() },
    |app| {
        let o = org(app, "Acme", &[]);
        let s = app.import(&o.key, json!({"email": "sam@example.com"}));
        let w = app.admin("POST", &format!("/admin/v1/persons/{}/withdraw", id(&s)), None);
        assert_eq!(w.status, 200, "{}", w.text);
        app.send("POST", "/api/v1/persons", &o.key, &json!({"email": "sam@example.com"}))
            .assert_error(409, "person_self_revoked");
        let inv = invite(app, &o.key, json!({"email": "sam@example.com", "sendEmail": false}));
        assert_eq!(inv["personId"], s["id"], "known person linked at creation");
        assert_html(&submit_page(app, &inv, ""), 200);
        assert_eq!(get_person(app, &o.key, &id(&s))["status"], "archived", "D43: rejoining needs the code");
        let code = app.consent_code("sam@example.com");
        assert_html(&submit_page(app, &inv, &format!("code={code}")), 200);
        let p = get_person(app, &o.key, &id(&s));
        assert_eq!(p["status"], "active");
        assert_eq!(p["archivedAt"], Value::Null);
        assert_eq!(p["joinedVia"], "invitation_personal");
        assert_eq!(p["memberSince"], s["memberSince"], "the same membership");

        let d = app.import(&o.key, json!({"email": "dora@example.com"}));
        let inv = invite(app, &o.key, json!({"email": "dora@example.com", "sendEmail": false}));
        assert_eq!(app.admin("POST", &format!("/admin/v1/persons/{}/deactivate", id(&d)), None).status, 200);
        assert_html(&submit_page(app, &inv, ""), 409);
        app.admin("POST", &format!("/admin/v1/invitations/{}/accept", id(&inv)), None)
            .assert_error(409, "person_deactivated");
        assert_eq!(get_invitation(app, &o.key, &id(&inv))["status"], "pending");
        assert_eq!(get_person(app, &o.key, &id(&d))["status"], "archived");
    }
);

// ---------------------------------------------------------------------------------------------
// The nested invitation of POST /persons (spec)
// ---------------------------------------------------------------------------------------------

// Spec POST /persons: `invitation` creates an invitation in the same call (201: Invitation with
// `personId` = the person); the 200 path returns the same pending invitation; without it `null`.
crate::e2e!(an_import_with_a_nested_invitation_creates_it_and_returns_it_again, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let body = json!({
        "email": "ada@example.com", "firstName": "Ada", "externalId": "ats-1",
        "invitation": {"create": true, "sendEmail": false, "expiresInDays": 7},
    });
    let r = app.send("POST", "/api/v1/persons", &o.key, &body);
    assert_eq!(r.status, 201, "{}", r.text);
    let inv = &r.json["invitation"];
    assert_invitation_shape(inv);
    assert_eq!(inv["personId"], r.json["id"]);
    assert_eq!(inv["email"], "ada@example.com");
    assert_eq!(inv["firstName"], "Ada");
    assert_eq!(inv["externalId"], "ats-1");
    assert_eq!(inv["status"], "pending");
    assert_eq!(inv["emailSentAt"], Value::Null);
    assert_eq!(ts(&inv["expiresAt"]) - ts(&inv["createdAt"]), Duration::days(7));
    assert_eq!(&get_invitation(app, &o.key, &id(inv)), inv);
    page_path(app, inv);

    let again = app.send("POST", "/api/v1/persons", &o.key, &body);
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.header("x-existing-resource"), Some("true"));
    assert_eq!(again.json["id"], r.json["id"]);
    assert_eq!(id(&again.json["invitation"]), id(inv), "the same pending invitation");
    assert_eq!(ids(&list(app, &o.key, "")).len(), 1);

    let plain = app.send("POST", "/api/v1/persons", &o.key, &json!({"email": "ada@example.com"}));
    assert_eq!(plain.status, 200);
    assert_eq!(plain.json["invitation"], Value::Null);
    let fresh = app.send("POST", "/api/v1/persons", &o.key, &json!({"email": "bob@example.com"}));
    assert_eq!(fresh.status, 201);
    assert_eq!(fresh.json["invitation"], Value::Null);

    // With sendEmail the service sends it.
    let mailed = app.send(
        "POST",
        "/api/v1/persons",
        &o.key,
        &json!({"email": "cy@example.com", "invitation": {"create": true, "sendEmail": true}}),
    );
    assert_eq!(mailed.status, 201, "{}", mailed.text);
    app.sent_emails("cy@example.com");
    assert!(get_invitation(app, &o.key, &id(&mailed.json["invitation"]))["emailSentAt"].is_string());
    assert_eq!(
        ts(&mailed.json["invitation"]["expiresAt"]) - ts(&mailed.json["invitation"]["createdAt"]),
        Duration::days(14)
    );
    let m = emails_to(app, "cy@example.com");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["invitationUrl"], mailed.json["invitation"]["url"]);

    // Validation of the nested object.
    for (inv, field) in [
        (json!({"create": false, "sendEmail": false}), "invitation.create"),
        (json!({"create": true}), "invitation.sendEmail"),
        (json!({"create": true, "sendEmail": false, "expiresInDays": 0}), "invitation.expiresInDays"),
        (json!({"create": true, "sendEmail": false, "expiresInDays": 91}), "invitation.expiresInDays"),
    ] {
        let r = app.send("POST", "/api/v1/persons", &o.key, &json!({"email": "dee@example.com", "invitation": inv}));
        assert!(fields(&r).iter().any(|f| f == field), "{field} in {}", r.text);
    }
    assert_eq!(app.get("/api/v1/persons?email=dee%40example.com", &o.key).json["data"], json!([]));
});

// D18, D20: concurrent creation for one email makes one invitation; concurrent acceptance
// accepts once and makes one person.
crate::e2e!(concurrent_creation_and_acceptance_happen_once, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let n = 8;
    let created: Vec<Resp> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..n)
            .map(|_| s.spawn(|| create(app, &o.key, json!({"email": "ada@example.com", "sendEmail": false}))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let statuses: Vec<u16> = created.iter().map(|r| r.status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 1, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), n - 1, "{statuses:?}");
    let ids_seen: BTreeSet<String> = created.iter().map(|r| id(&r.json)).collect();
    assert_eq!(ids_seen.len(), 1, "one invitation: {ids_seen:?}");
    let inv = get_invitation(app, &o.key, ids_seen.iter().next().unwrap());

    let pages: Vec<Resp> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..n).map(|_| s.spawn(|| submit_page(app, &inv, ""))).collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let statuses: Vec<u16> = pages.iter().map(|r| r.status).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "accepted once: {statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 410).count(), n - 1, "{statuses:?}");
    assert_eq!(get_invitation(app, &o.key, &id(&inv))["status"], "accepted");
    let persons = app.get("/api/v1/persons?email=ada%40example.com", &o.key);
    assert_eq!(persons.json["data"].as_array().unwrap().len(), 1, "{}", persons.text);
});

// D6: the person limit (500 on professional, D5) is enforced at invitation creation and at
// acceptance; an active member needs no seat; archiving frees one.
crate::e2e!(the_person_limit_is_enforced_at_invitation_creation_and_acceptance, Default::default(), |app| {
    let o = app.org("professional", "active");
    let threads = 4;
    let made: Vec<String> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let key = o.key.clone();
                s.spawn(move || {
                    (t..499)
                        .step_by(threads)
                        .map(|i| id(&app.import(&key, json!({"email": format!("p{i}@example.com")}))))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(made.len(), 499);
    let inv = invite(app, &o.key, json!({"email": "new@example.com", "sendEmail": false}));
    app.import(&o.key, json!({"email": "p499@example.com"}));

    let r = create(app, &o.key, json!({"email": "later@example.com", "sendEmail": false}));
    r.assert_error(409, "person_limit_reached");
    assert_eq!(r.json["details"], json!({"used": 500, "limit": 500, "plan": "professional"}));
    invite(app, &o.key, json!({"email": "p1@example.com", "sendEmail": false}));

    let full = submit_page(app, &inv, "");
    assert_html(&full, 409);
    let adm = app.admin("POST", &format!("/admin/v1/invitations/{}/accept", id(&inv)), None);
    adm.assert_error(409, "person_limit_reached");
    assert_eq!(adm.json["details"], json!({"used": 500, "limit": 500, "plan": "professional"}));
    assert_eq!(get_invitation(app, &o.key, &id(&inv))["status"], "pending");
    assert_eq!(app.get("/api/v1/persons?email=new%40example.com", &o.key).json["data"], json!([]));

    assert_eq!(app.delete(&format!("/api/v1/persons/{}", made[0]), &o.key).status, 200);
    assert_html(&submit_page(app, &inv, ""), 200);
    let after = get_invitation(app, &o.key, &id(&inv));
    assert_eq!(after["status"], "accepted");
    assert_eq!(get_person(app, &o.key, after["personId"].as_str().unwrap())["status"], "active");
    let usage = app.get("/api/v1/organization", &o.key);
    assert_eq!(usage.json["usage"]["persons"]["used"], 500, "{}", usage.text);
});

// ---------------------------------------------------------------------------------------------
// Emails, admin accept and the sandbox clock (D21, D22, D39)
// ---------------------------------------------------------------------------------------------

// D22, D39: sent emails are recorded and listed with their link; the admin accept does what the
// page does; the clock cannot move outside sandbox mode.
crate::e2e!(recorded_emails_carry_the_link_and_the_admin_can_accept, Default::default(), |app| {
    let o = org(app, "Acme", &[]);
    let inv = invite(
        app,
        &o.key,
        json!({"email": "ada@example.com", "firstName": "Ada", "message": "Welcome aboard, Ada", "sendEmail": true}),
    );
    let mails = app.sent_emails("ada@example.com");
    let sent = ts(&get_invitation(app, &o.key, &id(&inv))["emailSentAt"]);
    assert!(sent >= ts(&inv["createdAt"]), "emailSentAt set once sent (T33)");
    assert_eq!(mails.len(), 1, "{mails:?}");
    let m = &mails[0];
    assert_eq!(keys(m), set(&["to", "subject", "body", "invitationUrl", "sentAt"]));
    assert_eq!(m["to"], "ada@example.com");
    assert_eq!(m["invitationUrl"], inv["url"]);
    assert!(m["sentAt"].is_string());
    assert!(m["subject"].as_str().unwrap().contains("Acme"));
    let body = m["body"].as_str().unwrap();
    assert!(body.contains("Welcome aboard, Ada"), "{body}");
    assert!(body.contains(inv["url"].as_str().unwrap()), "{body}");
    assert!(body.contains(&format!("valid until {}.", for_people(&inv["expiresAt"]))), "expiry in {body}");
    assert!(emails_to(app, "nobody@example.com").is_empty());
    app.admin("GET", "/admin/v1/emails?to=nope", None).assert_error(400, "validation_error");

    let acc = app.admin("POST", &format!("/admin/v1/invitations/{}/accept", id(&inv)), Some(&json!({"share": true})));
    assert_eq!(acc.status, 200, "{}", acc.text);
    assert_eq!(keys(&acc.json), set(&["invitation", "person"]));
    assert_invitation_shape(&acc.json["invitation"]);
    assert_eq!(acc.json["invitation"]["status"], "accepted");
    assert_eq!(acc.json["invitation"]["personId"], acc.json["person"]["id"]);
    assert_eq!(acc.json["person"]["joinedVia"], "invitation_personal");
    assert_eq!(acc.json["person"]["sharedExistingProfile"], false, "nothing to share on an assessment invitation");
    assert_eq!(&get_person(app, &o.key, acc.json["person"]["id"].as_str().unwrap()), &acc.json["person"]);
    app.admin("POST", &format!("/admin/v1/invitations/{}/accept", id(&inv)), None).assert_error(409, "conflict");
    app.admin("POST", &format!("/admin/v1/invitations/{}/accept", uuid::Uuid::new_v4()), None)
        .assert_error(404, "not_found");

    // D39: no clock outside sandbox mode.
    app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 86400}))).assert_error(404, "not_found");
    assert_eq!(get_invitation(app, &o.key, &id(&inv))["status"], "accepted");
});

// D21, D39: in sandbox mode the clock moves expiry and reminders; the sweep persists the expiry
// and emits `invitation.expired` once (a second clock call expires nothing more).
crate::e2e!(invitations_expire_and_remind_on_the_sandbox_clock, Opts { sandbox: true, ..Default::default() }, |app| {
    let o = org(app, "Acme", &[]);
    let soon = invite(app, &o.key, json!({"email": "soon@example.com", "sendEmail": true}));
    let later = invite(app, &o.key, json!({"email": "later@example.com", "sendEmail": true, "expiresInDays": 30}));
    let quiet = invite(app, &o.key, json!({"email": "quiet@example.com", "sendEmail": false, "expiresInDays": 30}));
    app.sent_emails("later@example.com");

    let c = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 15 * 86400})));
    assert_eq!(c.status, 200, "{}", c.text);
    assert_eq!(c.json["expired"], 1, "{}", c.text);
    assert_eq!(c.json["reminded"], 1, "one reminder for the 30-day invitation that was emailed: {}", c.text);
    assert!(ts(&c.json["now"]) - ts(&soon["createdAt"]) >= Duration::days(15));

    let s = get_invitation(app, &o.key, &id(&soon));
    assert_eq!(s["status"], "expired");
    assert_eq!(s["acceptedAt"], Value::Null);
    assert_eq!(get_invitation(app, &o.key, &id(&later))["status"], "pending");
    assert_eq!(get_invitation(app, &o.key, &id(&quiet))["status"], "pending");
    assert_eq!(listed(app, &o.key, "status=expired"), set(&[&id(&soon)]));
    assert_eq!(listed(app, &o.key, "status=pending"), set(&[&id(&later), &id(&quiet)]));

    let again = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 0})));
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json["expired"], 0, "invitation.expired only once: {}", again.text);
    assert_eq!(again.json["reminded"], 0, "one reminder only: {}", again.text);

    let reminders = emails_to(app, "later@example.com");
    assert_eq!(reminders.len(), 2, "invitation and reminder: {reminders:?}");
    assert!(reminders.iter().any(|m| m["subject"].as_str().unwrap().starts_with("Reminder")), "{reminders:?}");
    assert!(reminders.iter().all(|m| m["invitationUrl"] == later["url"]));
    assert_eq!(emails_to(app, "soon@example.com").len(), 1, "no reminder after expiry");
    assert!(emails_to(app, "quiet@example.com").is_empty());

    // An expired invitation: 410 pages, 409 for revoke, resend and accept.
    assert_html(&open_page(app, &soon), 410);
    assert_html(&submit_page(app, &soon, ""), 410);
    action(app, &o.key, &id(&soon), "revoke", json!({})).assert_error(409, "conflict");
    action(app, &o.key, &id(&soon), "resend", json!({})).assert_error(409, "conflict");
    app.admin("POST", &format!("/admin/v1/invitations/{}/accept", id(&soon)), None).assert_error(409, "conflict");
    assert_eq!(get_invitation(app, &o.key, &id(&soon))["status"], "expired");
    // A new invitation for that email can be created (D18: only pending ones are returned).
    let fresh = invite(app, &o.key, json!({"email": "soon@example.com", "sendEmail": false}));
    assert_ne!(id(&fresh), id(&soon));

    // Past the 30 days the others (and the fresh 14-day one) expire too, each once.
    let c = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 16 * 86400})));
    assert_eq!(c.json["expired"], 3, "{}", c.text);
    assert_eq!(listed(app, &o.key, "status=pending"), set(&[]));
    assert_eq!(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 1}))).json["expired"], 0);
    app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": -1}))).assert_error(400, "validation_error");
});

// ---------------------------------------------------------------------------------------------
// A real SMTP round trip (D22, D40 TALENT_SMTP_URL)
// ---------------------------------------------------------------------------------------------

/// One message received by the sink.
#[derive(Clone, Debug)]
struct Received {
    rcpt: Vec<String>,
    data: String,
}

/// A tiny SMTP server on 127.0.0.1: enough of RFC 5321 for lettre. While `refuse` is set it
/// answers `MAIL FROM` with 451 (a transient failure) and counts it in `refused`; while `stall`
/// is set it accepts connections and says nothing (a relay that hangs).
struct SmtpSink {
    port: u16,
    received: Arc<Mutex<Vec<Received>>>,
    refuse: Arc<AtomicBool>,
    refused: Arc<AtomicUsize>,
    stall: Arc<AtomicBool>,
}

impl SmtpSink {
    fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let sink = SmtpSink {
            port,
            received: Arc::default(),
            refuse: Arc::default(),
            refused: Arc::default(),
            stall: Arc::default(),
        };
        let shared = sink.clone_handles();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(stream) = conn else { continue };
                let sink = shared.clone_handles();
                std::thread::spawn(move || {
                    while sink.stall.load(Ordering::SeqCst) {
                        std::thread::sleep(StdDuration::from_millis(20));
                    }
                    let _ = smtp_session(stream, &sink);
                });
            }
        });
        sink
    }

    fn clone_handles(&self) -> SmtpSink {
        SmtpSink {
            port: self.port,
            received: self.received.clone(),
            refuse: self.refuse.clone(),
            refused: self.refused.clone(),
            stall: self.stall.clone(),
        }
    }

    /// Waits until the sink has refused `n` sends in all.
    fn wait_refused(&self, n: usize) {
        assert!(crate::support::eventually(StdDuration::from_secs(10), || self.refused.load(Ordering::SeqCst) >= n));
    }

    fn messages(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

fn smtp_session(stream: TcpStream, sink: &SmtpSink) -> std::io::Result<()> {
    stream.set_read_timeout(Some(StdDuration::from_secs(30)))?;
    let mut out = stream.try_clone()?;
    let mut input = BufReader::new(stream);
    out.write_all(b"220 sink.test ESMTP ready\r\n")?;
    let mut rcpt = Vec::new();
    loop {
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let line = line.trim_end_matches(['\r', '\n']);
        let upper = line.to_ascii_uppercase();
        if upper.starts_with("EHLO") || upper.starts_with("HELO") {
            out.write_all(b"250 sink.test\r\n")?;
        } else if upper.starts_with("MAIL FROM") {
            rcpt.clear();
            if sink.refuse.load(Ordering::SeqCst) {
                sink.refused.fetch_add(1, Ordering::SeqCst);
                out.write_all(b"451 4.3.0 try again later\r\n")?;
            } else {
                out.write_all(b"250 2.1.0 ok\r\n")?;
            }
        } else if upper.starts_with("RCPT TO") {
            rcpt.push(line[8..].trim().to_string());
            out.write_all(b"250 2.1.5 ok\r\n")?;
        } else if upper == "DATA" {
            out.write_all(b"354 end with <CRLF>.<CRLF>\r\n")?;
            let mut data = String::new();
            loop {
                let mut l = String::new();
                if input.read_line(&mut l)? == 0 {
                    return Ok(());
                }
                let t = l.trim_end_matches(['\r', '\n']);
                if t == "." {
                    break;
                }
                data.push_str(t.strip_prefix('.').filter(|_| t.starts_with("..")).unwrap_or(t));
                data.push('\n');
            }
            sink.received.lock().unwrap().push(Received { rcpt: std::mem::take(&mut rcpt), data });
            out.write_all(b"250 2.0.0 queued\r\n")?;
        } else if upper == "QUIT" {
            out.write_all(b"221 2.0.0 bye\r\n")?;
            return Ok(());
        } else {
            out.write_all(b"250 2.0.0 ok\r\n")?;
        }
    }
}

/// Sandbox mode (to move the clock past the retry delay) and SMTP to the sink.
fn sink_opts(sink: &SmtpSink) -> Opts {
    Opts { sandbox: true, smtp_url: Some(format!("smtp://127.0.0.1:{}", sink.port)), ..Default::default() }
}

fn smtp_round_trip(backend: Backend) {
    let sink = SmtpSink::start();
    let Some(app) = crate::support::spawn(backend, sink_opts(&sink)) else { return };
    let o = org(&app, "Acme", &[]);
    let inv = invite(
        &app,
        &o.key,
        json!({"email": "ada@example.com", "firstName": "Ada", "message": "See you on Monday", "sendEmail": true}),
    );
    assert!(crate::support::eventually(StdDuration::from_secs(10), || !sink.messages().is_empty()));
    app.sent_emails("ada@example.com");
    assert!(get_invitation(&app, &o.key, &id(&inv))["emailSentAt"].is_string(), "sent through SMTP");
    let got = sink.messages();
    assert_eq!(got.len(), 1, "{got:?}");
    let m = &got[0];
    assert_eq!(m.rcpt, ["<ada@example.com>"], "envelope recipient");
    let url = inv["url"].as_str().unwrap();
    assert!(m.data.contains(url), "url {url} in {}", m.data);
    assert!(m.data.contains("ada@example.com"), "To header in {}", m.data);
    assert!(m.data.contains("See you on Monday"), "message in {}", m.data);
    assert!(m.data.contains("Subject: Acme invites you"), "subject in {}", m.data);
    assert!(emails_to(&app, "ada@example.com")[0]["sentAt"].is_string(), "the outbox row is marked sent");

    // A failing relay: the invitation exists, emailSentAt stays null, the retry sends it (T33).
    sink.refuse.store(true, Ordering::SeqCst);
    let bob = invite(&app, &o.key, json!({"email": "bob@example.com", "sendEmail": true}));
    assert_eq!(bob["emailSentAt"], Value::Null, "{bob}");
    sink.wait_refused(1);
    assert_eq!(get_invitation(&app, &o.key, &id(&bob))["emailSentAt"], Value::Null);
    assert_eq!(get_invitation(&app, &o.key, &id(&bob))["status"], "pending");
    assert_eq!(emails_to(&app, "bob@example.com")[0]["sentAt"], Value::Null);
    assert_eq!(sink.messages().len(), 1);
    sink.refuse.store(false, Ordering::SeqCst);
    let c = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 61})));
    assert_eq!(c.status, 200, "{}", c.text);
    assert!(crate::support::eventually(StdDuration::from_secs(10), || sink.messages().len() >= 2));
    assert!(get_invitation(&app, &o.key, &id(&bob))["emailSentAt"].is_string());
    std::thread::sleep(StdDuration::from_millis(300));
    let got = sink.messages();
    assert_eq!(got.len(), 2, "each email once: {got:?}");
    assert_eq!(got[1].rcpt, ["<bob@example.com>"]);
    assert!(got[1].data.contains(bob["url"].as_str().unwrap()));

    // T58: a refused email whose invitation is revoked before the retry is never sent.
    sink.refuse.store(true, Ordering::SeqCst);
    let cy = invite(&app, &o.key, json!({"email": "cy@example.com", "sendEmail": true}));
    sink.wait_refused(2);
    let r = app.send("POST", &format!("/api/v1/invitations/{}/revoke", id(&cy)), &o.key, &json!({}));
    assert_eq!(r.status, 200, "{}", r.text);
    sink.refuse.store(false, Ordering::SeqCst);
    let c = app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 7200})));
    assert_eq!(c.status, 200, "{}", c.text);
    std::thread::sleep(StdDuration::from_millis(500));
    assert_eq!(sink.messages().len(), 2, "nothing for the revoked invitation");
    assert_eq!(emails_to(&app, "cy@example.com")[0]["sentAt"], Value::Null);
    assert_eq!(get_invitation(&app, &o.key, &id(&cy))["emailSentAt"], Value::Null);
}

mod an_smtp_relay_receives_the_invitation_email_with_its_link {
    use super::*;

    #[test]
    fn sqlite() {
        smtp_round_trip(Backend::Sqlite);
    }

    #[test]
    fn postgres() {
        smtp_round_trip(Backend::Postgres);
    }
}

// D22, T33, T175: every email of the outbox goes out once, also when several requests queue
// emails at the same time (each wakes the email job after its commit).
fn concurrent_sends(backend: Backend) {
    let sink = SmtpSink::start();
    let Some(app) = crate::support::spawn(backend, sink_opts(&sink)) else { return };
    let o = org(&app, "Acme", &[]);
    let n = 8;
    let results: Vec<Resp> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let (app, key) = (&app, o.key.clone());
                s.spawn(move || create(app, &key, json!({"email": format!("p{i}@example.com"), "sendEmail": true})))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in &results {
        assert_eq!(r.status, 201, "{}", r.text);
    }
    assert!(crate::support::eventually(StdDuration::from_secs(10), || sink.messages().len() >= n));
    std::thread::sleep(StdDuration::from_millis(300));
    let got = sink.messages();
    let mut to: Vec<String> = got.iter().flat_map(|m| m.rcpt.clone()).collect();
    to.sort();
    let expected: Vec<String> = (0..n).map(|i| format!("<p{i}@example.com>")).collect();
    assert_eq!(to, expected, "each invitation email exactly once");
}

mod concurrent_invitations_send_each_email_exactly_once {
    use super::*;

    #[test]
    fn sqlite() {
        concurrent_sends(Backend::Sqlite);
    }

    #[test]
    fn postgres() {
        concurrent_sends(Backend::Postgres);
    }
}

// T175: a request never waits for the mailer. The relay accepts the connection and hangs: the
// invitation is answered (201, `emailSentAt: null`) while the email job is stuck on the relay;
// once the relay answers, the email goes out and `emailSentAt` is set.
fn hanging_relay(backend: Backend) {
    let sink = SmtpSink::start();
    let Some(app) = crate::support::spawn(backend, sink_opts(&sink)) else { return };
    let o = org(&app, "Acme", &[]);
    sink.stall.store(true, Ordering::SeqCst);
    let answered = std::thread::scope(|s| {
        let request = s.spawn(|| create(&app, &o.key, json!({"email": "ada@example.com", "sendEmail": true})));
        // Far below the mailer's own 60 s timeout: an answer that waited for the relay comes late.
        let done = crate::support::eventually(StdDuration::from_secs(20), || request.is_finished());
        let stalled = sink.stall.load(Ordering::SeqCst) && sink.messages().is_empty();
        sink.stall.store(false, Ordering::SeqCst);
        assert!(done && stalled, "the request is answered while the relay hangs");
        request.join().unwrap()
    });
    assert_eq!(answered.status, 201, "{}", answered.text);
    assert_eq!(answered.json["emailSentAt"], Value::Null, "not sent yet: {}", answered.text);
    app.sent_emails("ada@example.com");
    let got = sink.messages();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].rcpt, ["<ada@example.com>"]);
    assert!(get_invitation(&app, &o.key, &id(&answered.json))["emailSentAt"].is_string());
}

mod a_request_is_answered_while_the_smtp_relay_hangs {
    use super::*;

    #[test]
    fn sqlite() {
        hanging_relay(Backend::Sqlite);
    }

    #[test]
    fn postgres() {
        hanging_relay(Backend::Postgres);
    }
}

// Issue 12: the person pages are a credential in a URL. Every answer under `/i/{token}` (the page,
// the unknown-token page, the accepted page, a 405) forbids scripts, framing, sniffing, referrers
// and caching; the access log writes the path as `/i/…`, never the token.
crate::e2e!(
    person_pages_send_security_headers_and_the_log_never_holds_their_token,
    Opts { keep_log: true, ..Default::default() },
    |app| {
        let o = org(app, "Acme", &[]);
        let inv = invite(app, &o.key, json!({"email": "ada@example.com", "sendEmail": false}));
        let path = page_path(app, &inv);
        let token = path.trim_start_matches("/i/").to_string();
        let answers = [
            ("shown", open_page(app, &inv), 200),
            ("unknown token", app.request("GET", "/i/not-a-token", &[], None), 404),
            ("wrong method", app.request("PUT", &path, &[], Some(b"x")), 405),
            ("accepted", submit_page(app, &inv, ""), 200),
            ("used again", open_page(app, &inv), 410),
        ];
        for (what, r, status) in &answers {
            assert_eq!(r.status, *status, "{what}: {}", r.text);
            let csp = r.header("content-security-policy").unwrap_or_else(|| panic!("{what}: CSP in {:?}", r.headers));
            for part in ["default-src 'none'", "frame-ancestors 'none'", "form-action 'self'"] {
                assert!(csp.contains(part), "{what}: {part} in {csp}");
            }
            assert!(!csp.contains("script-src"), "{what}: no script source is allowed: {csp}");
            assert_eq!(r.header("x-frame-options"), Some("DENY"), "{what}");
            assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{what}");
            assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{what}");
            assert_eq!(r.header("cache-control"), Some("no-store"), "{what}");
        }
        // T239: the pages are routed in a scope of their own; what is not a page under it is
        // still the API's 404 envelope, as before.
        for p in ["/i", "/i/", "/i/a/b"] {
            let r = app.request("GET", p, &[], None);
            assert_eq!(r.status, 404, "{p}: {}", r.text);
            assert!(r.text.contains("\"not_found\""), "{p}: {}", r.text);
        }
        let log = app.log_text("status=410");
        assert!(log.contains("/i/…"), "the page requests are logged: {log}");
        assert!(!log.contains(&token), "the token is never logged: {log}");
        assert!(!log.contains("not-a-token"), "nor any other path under /i/: {log}");
    }
);
