//! Persons over HTTP: every row of the spec's person state table (spec, States: Person status),
//! the Person object's exact shape, merge on import (D9, D12), archive and reactivation (D12, D28),
//! withdrawal and deactivation (D39), the person limit (D5, D6), the employee email-domain rule
//! (D15), PATCH (D13, D14, D16), body validation (D37), organization isolation (D10, D28) and the
//! concurrent import of one email.
//!
//! The helpers at the top are shared by `listing`, `idempotency` and `sync`.
use crate::support::{Resp, TestApp};
use serde_json::{json, Value};
use std::collections::BTreeSet;

/// The Person object's fields (spec, Resources: Person), sorted.
pub(crate) const PERSON_KEYS: [&str; 14] = [
    "archivedAt",
    "assessment",
    "email",
    "externalId",
    "firstName",
    "id",
    "joinedVia",
    "labels",
    "lastName",
    "memberSince",
    "sharedExistingProfile",
    "status",
    "tags",
    "updatedAt",
];

/// The sorted keys of a JSON object.
pub(crate) fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v.as_object().unwrap_or_else(|| panic!("object expected: {v}")).keys().cloned().collect();
    k.sort_unstable();
    k
}

/// Asserts exactly the Person fields, plus `invitation` when `import` (import responses only).
pub(crate) fn assert_person_shape(v: &Value, import: bool) {
    let mut want: Vec<String> = PERSON_KEYS.iter().map(|s| s.to_string()).collect();
    if import {
        want.push("invitation".into());
        want.sort_unstable();
    }
    assert_eq!(keys(v), want, "{v}");
    assert_eq!(keys(&v["assessment"]), ["completedAt", "count", "status"], "{v}");
}

/// Asserts a D37 `validation_error` and returns its field paths in order.
pub(crate) fn fields(r: &Resp) -> Vec<String> {
    r.assert_error(400, "validation_error");
    r.json["details"]["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("details.fields in {}", r.text))
        .iter()
        .map(|f| f["field"].as_str().unwrap_or_else(|| panic!("field in {}", r.text)).to_string())
        .collect()
}

/// True for the service's timestamp format: UTC, six fractional digits, `Z`.
pub(crate) fn is_timestamp(v: &Value) -> bool {
    let Some(s) = v.as_str() else { return false };
    let b = s.as_bytes();
    s.len() == 27
        && s.ends_with('Z')
        && b[19] == b'.'
        && time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).is_ok()
}

/// Percent-encodes a query value.
pub(crate) fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

pub(crate) fn person_path(id: &str) -> String {
    format!("/api/v1/persons/{id}")
}

/// The id of a Person body.
pub(crate) fn id_of(v: &Value) -> String {
    v["id"].as_str().unwrap_or_else(|| panic!("id in {v}")).to_string()
}

/// POST /api/v1/persons.
pub(crate) fn post(app: &TestApp, key: &str, body: &Value) -> Resp {
    app.send("POST", "/api/v1/persons", key, body)
}

/// Imports a new person and asserts 201.
pub(crate) fn create(app: &TestApp, key: &str, body: Value) -> Value {
    let r = post(app, key, &body);
    assert_eq!(r.status, 201, "{}", r.text);
    r.json
}

/// One page of GET /api/v1/persons?{query}; asserts 200 and the exact envelope.
pub(crate) fn page(app: &TestApp, key: &str, query: &str) -> Resp {
    let r = app.get(&format!("/api/v1/persons?{query}"), key);
    assert_eq!(r.status, 200, "GET /persons?{query}: {}", r.text);
    assert_eq!(keys(&r.json), ["data", "pagination"], "{}", r.text);
    assert_eq!(keys(&r.json["pagination"]), ["hasMore", "nextCursor"], "{}", r.text);
    let has_more = r.json["pagination"]["hasMore"].as_bool().expect("hasMore is a boolean");
    assert_eq!(r.json["pagination"]["nextCursor"].is_string(), has_more, "nextCursor iff hasMore: {}", r.text);
    r
}

/// The ids of one page.
pub(crate) fn ids(r: &Resp) -> Vec<String> {
    r.json["data"].as_array().unwrap_or_else(|| panic!("data in {}", r.text)).iter().map(id_of).collect()
}

/// Walks every page of GET /persons?{filters}&limit={limit}; returns the items and page sizes.
pub(crate) fn walk(app: &TestApp, key: &str, filters: &str, limit: u32) -> (Vec<Value>, Vec<usize>) {
    let sep = if filters.is_empty() { "" } else { "&" };
    let mut cursor: Option<String> = None;
    let mut items = Vec::new();
    let mut sizes = Vec::new();
    for _ in 0..1000 {
        let mut q = format!("{filters}{sep}limit={limit}");
        if let Some(c) = &cursor {
            q.push_str(&format!("&cursor={}", enc(c)));
        }
        let r = page(app, key, &q);
        let data = r.json["data"].as_array().unwrap().clone();
        assert!(data.len() <= limit as usize, "page larger than limit: {}", data.len());
        sizes.push(data.len());
        items.extend(data);
        match r.json["pagination"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return (items, sizes),
        }
    }
    panic!("more than 1000 pages");
}

/// `f(0..n)` on `threads` threads; results in index order.
pub(crate) fn par_map<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let f = &f;
    let mut out: Vec<(usize, T)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| s.spawn(move || (t..n).step_by(threads).map(|i| (i, f(i))).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("worker thread")).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, v)| v).collect()
}

fn usage(app: &TestApp, key: &str) -> Value {
    let o = app.get("/api/v1/organization", key);
    assert_eq!(o.status, 200, "{}", o.text);
    o.json["usage"]["persons"].clone()
}

fn team_members(app: &TestApp, team: &str) -> Vec<String> {
    let r = app.admin("GET", &format!("/admin/v1/teams/{team}/members"), None);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(keys(&r.json), ["personIds", "teamId"], "{}", r.text);
    assert_eq!(r.json["teamId"], team);
    let mut v: Vec<String> =
        r.json["personIds"].as_array().unwrap().iter().map(|x| x.as_str().unwrap().into()).collect();
    v.sort_unstable();
    v
}

// Spec state table row 1: (none) → active, 201, labels default ["candidate"]; the Person object
// has exactly the spec's fields plus `invitation: null` on import; GET returns the same person
// without `invitation`; the email is normalized (D9).
crate::e2e!(importing_a_new_email_creates_an_active_person_with_exactly_the_spec_fields, Default::default(), |app| {
    let org = app.org("business", "active");
    let r = post(
        app,
        &org.key,
        &json!({"email": "  Ada.Lovelace@Example.COM ", "firstName": "Ada", "lastName": "Lovelace", "externalId": "ats-1"}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.header("x-existing-resource"), None, "a new person is not an existing resource");
    assert_eq!(r.header("idempotency-replayed"), None);
    let p = r.json.clone();
    assert_person_shape(&p, true);
    assert!(uuid::Uuid::parse_str(&id_of(&p)).is_ok(), "{p}");
    assert_eq!(p["email"], "ada.lovelace@example.com");
    assert_eq!(p["firstName"], "Ada");
    assert_eq!(p["lastName"], "Lovelace");
    assert_eq!(p["externalId"], "ats-1");
    assert_eq!(p["status"], "active");
    assert_eq!(p["labels"], json!(["candidate"]));
    assert_eq!(p["tags"], json!([]));
    assert_eq!(p["joinedVia"], "api");
    assert_eq!(p["sharedExistingProfile"], false);
    assert_eq!(p["assessment"], json!({"status": "not_started", "completedAt": null, "count": 0}));
    assert!(is_timestamp(&p["memberSince"]), "{p}");
    assert_eq!(p["updatedAt"], p["memberSince"]);
    assert_eq!(p["archivedAt"], Value::Null);
    assert_eq!(p["invitation"], Value::Null);

    // Optional fields omitted: null, not absent.
    let bare = create(app, &org.key, json!({"email": "bare@example.com"}));
    assert_person_shape(&bare, true);
    assert_eq!(bare["firstName"], Value::Null);
    assert_eq!(bare["lastName"], Value::Null);
    assert_eq!(bare["externalId"], Value::Null);
    assert_eq!(bare["labels"], json!(["candidate"]));

    // GET: the same person, without `invitation`.
    let g = app.get(&person_path(&id_of(&p)), &org.key);
    assert_eq!(g.status, 200, "{}", g.text);
    assert_person_shape(&g.json, false);
    let mut expected = p.clone();
    expected.as_object_mut().unwrap().remove("invitation");
    assert_eq!(g.json, expected);
    // The person counts toward the limit at once.
    assert_eq!(usage(app, &org.key), json!({"used": 2, "limit": 5000, "importBlocked": false}));
});

// Spec state table row 2 and D12: the same email (D9: other case, surrounding whitespace) while
// active → 200 with `X-Existing-Resource: true`, the same id, tags added, names and externalId
// filled only where empty, labels unchanged, no new person.
crate::e2e!(importing_a_known_email_merges_into_the_active_person, Default::default(), |app| {
    let org = app.org("business", "active");
    let first = create(app, &org.key, json!({"email": "ada@example.com", "firstName": "Ada", "tags": ["Zeta"]}));
    let id = id_of(&first);

    let r = post(
        app,
        &org.key,
        &json!({"email": "  ADA@Example.com\t", "firstName": "Augusta", "lastName": "Lovelace", "externalId": "ats-7",
                "labels": ["employee"], "tags": ["alpha", "ZETA"]}),
    );
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.header("x-existing-resource"), Some("true"));
    let p = r.json.clone();
    assert_person_shape(&p, true);
    assert_eq!(p["invitation"], Value::Null);
    assert_eq!(id_of(&p), id);
    assert_eq!(p["email"], "ada@example.com");
    assert_eq!(p["firstName"], "Ada", "a set name is kept");
    assert_eq!(p["lastName"], "Lovelace", "an empty name is filled");
    assert_eq!(p["externalId"], "ats-7", "an empty externalId is filled");
    assert_eq!(p["labels"], json!(["candidate"]), "labels are unchanged");
    assert_eq!(p["tags"], json!(["alpha", "Zeta"]), "tags are added, the first spelling wins");
    assert_eq!(p["memberSince"], first["memberSince"]);
    assert!(p["updatedAt"].as_str() > first["updatedAt"].as_str(), "a merge that changed something moves updatedAt");

    // A set externalId is not overwritten either; an import that changes nothing keeps updatedAt.
    let again = post(app, &org.key, &json!({"email": "ada@example.com", "externalId": "ats-8", "lastName": "Byron"}));
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.header("x-existing-resource"), Some("true"));
    assert_eq!(again.json["externalId"], "ats-7");
    assert_eq!(again.json["lastName"], "Lovelace");
    assert_eq!(again.json["updatedAt"], p["updatedAt"]);

    let list = page(app, &org.key, "");
    assert_eq!(ids(&list), [id.as_str()], "no second person");
    assert_eq!(usage(app, &org.key)["used"], 1);
});

// Spec state table rows "active → DELETE → archived" and "archived → DELETE → 404": archivedAt is
// set, the person leaves the pool (frees a seat, D6) and stays readable by GET (D28); a second
// DELETE is 404 not_found.
crate::e2e!(archiving_sets_archived_at_and_a_second_archive_is_404, Default::default(), |app| {
    let org = app.org("business", "active");
    let p = create(app, &org.key, json!({"email": "bob@example.com", "firstName": "Bob"}));
    let id = id_of(&p);
    let path = person_path(&id);

    let d = app.delete(&path, &org.key);
    assert_eq!(d.status, 200, "{}", d.text);
    assert_person_shape(&d.json, false);
    assert_eq!(id_of(&d.json), id);
    assert_eq!(d.json["status"], "archived");
    assert!(is_timestamp(&d.json["archivedAt"]), "{}", d.text);
    assert_eq!(d.json["updatedAt"], d.json["archivedAt"]);
    assert_eq!(d.json["memberSince"], p["memberSince"]);
    assert_eq!(d.json["firstName"], "Bob", "data is retained");

    app.delete(&path, &org.key).assert_error(404, "not_found");

    // D28: GET works for the archived person.
    let g = app.get(&path, &org.key);
    assert_eq!(g.status, 200, "{}", g.text);
    assert_eq!(g.json, d.json);
    // Out of the pool: not listed by default, listed as archived, seat freed.
    assert_eq!(ids(&page(app, &org.key, "")), Vec::<String>::new());
    assert_eq!(ids(&page(app, &org.key, "status=archived")), [id]);
    assert_eq!(usage(app, &org.key)["used"], 0);
});

// Spec state table row "archived → POST → active" and D12: reactivation is 201 with the same id,
// memberSince kept, archivedAt null, tags added, and no X-Existing-Resource header.
crate::e2e!(importing_an_archived_person_reactivates_the_same_id, Default::default(), |app| {
    let org = app.org("business", "active");
    let p = create(app, &org.key, json!({"email": "carol@example.com", "tags": ["old"]}));
    let id = id_of(&p);
    let d = app.delete(&person_path(&id), &org.key);
    assert_eq!(d.status, 200, "{}", d.text);

    let r = post(app, &org.key, &json!({"email": "Carol@Example.com", "firstName": "Carol", "tags": ["new"]}));
    assert_eq!(r.status, 201, "{}", r.text);
    assert_eq!(r.header("x-existing-resource"), None);
    assert_person_shape(&r.json, true);
    assert_eq!(id_of(&r.json), id, "the same person comes back");
    assert_eq!(r.json["status"], "active");
    assert_eq!(r.json["archivedAt"], Value::Null);
    assert_eq!(r.json["memberSince"], p["memberSince"]);
    assert_eq!(r.json["firstName"], "Carol");
    assert_eq!(r.json["tags"], json!(["new", "old"]));
    assert!(r.json["updatedAt"].as_str() > d.json["updatedAt"].as_str());
    assert_eq!(ids(&page(app, &org.key, "")), [id]);
    assert_eq!(ids(&page(app, &org.key, "status=archived")), Vec::<String>::new());
    assert_eq!(usage(app, &org.key)["used"], 1);
});

// Spec state table rows "archived → POST → 409 person_self_revoked / person_deactivated" (D39:
// withdraw and deactivate archive the person): the import is refused and the person stays
// archived.
crate::e2e!(withdrawn_or_deactivated_persons_cannot_be_imported_again, Default::default(), |app| {
    let org = app.org("business", "active");
    let w = id_of(&create(app, &org.key, json!({"email": "withdrew@example.com"})));
    let d = id_of(&create(app, &org.key, json!({"email": "deactivated@example.com"})));

    let r = app.admin("POST", &format!("/admin/v1/persons/{w}/withdraw"), None);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["status"], "archived");
    assert!(is_timestamp(&r.json["archivedAt"]));
    let r = app.admin("POST", &format!("/admin/v1/persons/{d}/deactivate"), None);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["status"], "archived");

    post(app, &org.key, &json!({"email": "Withdrew@example.com"})).assert_error(409, "person_self_revoked");
    post(app, &org.key, &json!({"email": "deactivated@example.com", "tags": ["x"]}))
        .assert_error(409, "person_deactivated");
    // Refused twice in a row: nothing changed in between.
    post(app, &org.key, &json!({"email": "withdrew@example.com"})).assert_error(409, "person_self_revoked");

    for id in [&w, &d] {
        let g = app.get(&person_path(id), &org.key);
        assert_eq!(g.status, 200, "{}", g.text);
        assert_eq!(g.json["status"], "archived");
        assert_eq!(g.json["tags"], json!([]));
        // Already archived: DELETE is 404 (no active person with this id).
        app.delete(&person_path(id), &org.key).assert_error(404, "not_found");
    }
    assert_eq!(ids(&page(app, &org.key, "")), Vec::<String>::new());
});

// D5/D6 and spec Errors: the professional plan holds 500 persons; the 501st import is 409
// person_limit_reached with details {used, limit, plan}; a merge needs no seat; archiving frees a
// seat; reactivation needs a seat like a creation; usage.persons and importBlocked follow.
crate::e2e!(the_person_limit_is_enforced_and_archiving_frees_a_seat, Default::default(), |app| {
    let org = app.org("professional", "active");
    let made = par_map(500, 4, |i| {
        let r = post(app, &org.key, &json!({"email": format!("p{i}@example.com")}));
        assert_eq!(r.status, 201, "import {i}: {}", r.text);
        id_of(&r.json)
    });
    assert_eq!(made.iter().collect::<BTreeSet<_>>().len(), 500);
    assert_eq!(usage(app, &org.key), json!({"used": 500, "limit": 500, "importBlocked": true}));

    let r = post(app, &org.key, &json!({"email": "one-too-many@example.com"}));
    r.assert_error(409, "person_limit_reached");
    assert_eq!(r.json["details"], json!({"used": 500, "limit": 500, "plan": "professional"}));
    assert_eq!(ids(&page(app, &org.key, "email=one-too-many%40example.com")), Vec::<String>::new());

    // An active member is merged without a seat.
    let m = post(app, &org.key, &json!({"email": "p7@example.com", "firstName": "Seven"}));
    assert_eq!(m.status, 200, "{}", m.text);
    assert_eq!(m.header("x-existing-resource"), Some("true"));

    // Archiving frees a seat; the next import succeeds and fills it again.
    let a = app.delete(&person_path(&made[0]), &org.key);
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(usage(app, &org.key), json!({"used": 499, "limit": 500, "importBlocked": false}));
    let n = post(app, &org.key, &json!({"email": "one-too-many@example.com"}));
    assert_eq!(n.status, 201, "{}", n.text);
    assert_eq!(usage(app, &org.key), json!({"used": 500, "limit": 500, "importBlocked": true}));

    // Reactivating the archived person now needs a seat that is not there.
    let r = post(app, &org.key, &json!({"email": "p0@example.com"}));
    r.assert_error(409, "person_limit_reached");
    assert_eq!(r.json["details"], json!({"used": 500, "limit": 500, "plan": "professional"}));
    assert_eq!(app.get(&person_path(&made[0]), &org.key).json["status"], "archived");
});

// D15: the organization's employee email-domain rule adds `employee` to persons created by
// import; exact domain match only (no subdomains); explicit labels are kept and extended.
crate::e2e!(the_employee_domain_rule_adds_the_employee_label_on_import, Default::default(), |app| {
    let org = app.org_with(json!({"companyName": "Acme", "email": "hr@acme.example", "plan": "business",
                                  "subscriptionStatus": "active", "employeeDomains": ["acme.example"]}));
    let cases = [
        (json!({"email": "x@acme.example"}), json!(["candidate", "employee"])),
        (json!({"email": "Y@ACME.Example"}), json!(["candidate", "employee"])),
        (json!({"email": "z@acme.example", "labels": []}), json!(["employee"])),
        (json!({"email": "w@acme.example", "labels": ["employee"]}), json!(["employee"])),
        (json!({"email": "x@other.example"}), json!(["candidate"])),
        (json!({"email": "x@sub.acme.example"}), json!(["candidate"])),
        (json!({"email": "y@other.example", "labels": []}), json!([])),
        (json!({"email": "z@other.example", "labels": ["employee", "candidate"]}), json!(["candidate", "employee"])),
    ];
    for (body, labels) in cases {
        let p = create(app, &org.key, body.clone());
        assert_eq!(p["labels"], labels, "{body}");
    }
    // Without the rule, the same address stays a candidate.
    let plain = app.org("business", "active");
    assert_eq!(create(app, &plain.key, json!({"email": "x@acme.example"}))["labels"], json!(["candidate"]));
});

// D13: a name may only be filled in while empty; sending it when set is 409 conflict, even with
// the same value, and nothing of that PATCH is applied.
crate::e2e!(patching_a_name_that_is_already_set_is_409_conflict_even_with_the_same_value, Default::default(), |app| {
    let org = app.org("business", "active");
    let p = create(app, &org.key, json!({"email": "dan@example.com", "firstName": "Dan"}));
    let path = person_path(&id_of(&p));

    app.send("PATCH", &path, &org.key, &json!({"firstName": "Dan"})).assert_error(409, "conflict");
    app.send("PATCH", &path, &org.key, &json!({"firstName": "Daniel", "externalId": "e-1"}))
        .assert_error(409, "conflict");
    let g = app.get(&path, &org.key);
    assert_eq!(g.json["firstName"], "Dan");
    assert_eq!(g.json["externalId"], Value::Null, "a refused PATCH applies nothing");
    assert_eq!(g.json["updatedAt"], p["updatedAt"]);

    // lastName is empty: it can be filled once, then it is set too.
    let r = app.send("PATCH", &path, &org.key, &json!({"lastName": "Brown"}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_person_shape(&r.json, false);
    assert_eq!(r.json["lastName"], "Brown");
    assert_eq!(r.json["firstName"], "Dan");
    assert!(r.json["updatedAt"].as_str() > p["updatedAt"].as_str());
    app.send("PATCH", &path, &org.key, &json!({"lastName": "Brown"})).assert_error(409, "conflict");

    // Both names of a person without names in one PATCH.
    let q = create(app, &org.key, json!({"email": "eve@example.com"}));
    let r = app.send("PATCH", &person_path(&id_of(&q)), &org.key, &json!({"firstName": "Eve", "lastName": "Adams"}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!((r.json["firstName"].as_str(), r.json["lastName"].as_str()), (Some("Eve"), Some("Adams")));
});

// Spec PATCH: externalId is always updatable, and null clears it; an empty PATCH changes nothing.
crate::e2e!(patching_external_id_sets_replaces_and_clears_it, Default::default(), |app| {
    let org = app.org("business", "active");
    let p = create(app, &org.key, json!({"email": "fay@example.com"}));
    let path = person_path(&id_of(&p));
    let r = app.send("PATCH", &path, &org.key, &json!({"externalId": "ats-1"}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["externalId"], "ats-1");
    let r2 = app.send("PATCH", &path, &org.key, &json!({"externalId": "ats-2"}));
    assert_eq!(r2.json["externalId"], "ats-2", "{}", r2.text);
    assert!(r2.json["updatedAt"].as_str() > r.json["updatedAt"].as_str());
    let r3 = app.send("PATCH", &path, &org.key, &json!({"externalId": null}));
    assert_eq!(r3.status, 200, "{}", r3.text);
    assert_eq!(r3.json["externalId"], Value::Null);
    assert_eq!(app.get(&path, &org.key).json["externalId"], Value::Null);
    let r4 = app.send("PATCH", &path, &org.key, &json!({}));
    assert_eq!(r4.status, 200, "{}", r4.text);
    assert_eq!(r4.json, r3.json, "an empty PATCH changes nothing, not even updatedAt");
});

// Spec PATCH labels (replace the set) and D16: removing `employee` removes the person from every
// team; keeping it keeps the memberships; other members are untouched.
crate::e2e!(patching_labels_replaces_them_and_removing_employee_leaves_every_team, Default::default(), |app| {
    let org = app.org("business", "active");
    let e = id_of(&create(app, &org.key, json!({"email": "e@example.com", "labels": ["candidate", "employee"]})));
    let f = id_of(&create(app, &org.key, json!({"email": "f@example.com", "labels": ["employee"]})));
    let team = |name: &str| {
        let r = app.admin("POST", &format!("/admin/v1/organizations/{}/teams", org.id), Some(&json!({"name": name})));
        assert_eq!(r.status, 201, "{}", r.text);
        r.json["id"].as_str().unwrap().to_string()
    };
    let (t1, t2) = (team("Sales"), team("Ops"));
    for (t, p) in [(&t1, &e), (&t2, &e), (&t1, &f)] {
        let r = app.admin("POST", &format!("/admin/v1/teams/{t}/members"), Some(&json!({"personId": p})));
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let mut both = vec![e.clone(), f.clone()];
    both.sort_unstable();
    assert_eq!(team_members(app, &t1), both);
    assert_eq!(team_members(app, &t2), [e.as_str()]);

    // Keeping employee (in another order) keeps the teams; printed order is candidate, employee.
    let r = app.send("PATCH", &person_path(&f), &org.key, &json!({"labels": ["employee", "candidate"]}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["labels"], json!(["candidate", "employee"]));
    assert_eq!(team_members(app, &t1), both);

    // Removing employee from e: out of both teams; f stays.
    let r = app.send("PATCH", &person_path(&e), &org.key, &json!({"labels": ["candidate"]}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["labels"], json!(["candidate"]));
    assert_eq!(team_members(app, &t1), [f.as_str()]);
    assert_eq!(team_members(app, &t2), Vec::<String>::new());

    // An empty set means "other"; f leaves too.
    let r = app.send("PATCH", &person_path(&f), &org.key, &json!({"labels": []}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["labels"], json!([]));
    assert_eq!(team_members(app, &t1), Vec::<String>::new());
});

// Spec PATCH tags (replace) and D14: tags form an organization catalogue, unique
// case-insensitively, the first spelling wins across persons; a person's tags are sorted
// case-insensitively (so "alpha" before "Zeta", unlike a byte sort).
crate::e2e!(tags_are_sorted_case_insensitively_and_the_first_spelling_wins, Default::default(), |app| {
    let org = app.org("business", "active");
    let a = create(app, &org.key, json!({"email": "a@example.com", "tags": ["Zeta", "alpha", " ALPHA "]}));
    assert_eq!(a["tags"], json!(["alpha", "Zeta"]));
    let b = create(app, &org.key, json!({"email": "b@example.com", "tags": ["ALPHA"]}));
    assert_eq!(b["tags"], json!(["alpha"]), "the first spelling wins across persons");
    let bp = person_path(&id_of(&b));

    let r = app.send("PATCH", &bp, &org.key, &json!({"tags": ["zeta", "Beta", "gamma"]}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["tags"], json!(["Beta", "gamma", "Zeta"]), "replaced, sorted, catalogue spelling");

    // Import adds to the replaced set; PATCH of the other person uses b's new spelling.
    let r = post(app, &org.key, &json!({"email": "b@example.com", "tags": ["Alpha"]}));
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["tags"], json!(["alpha", "Beta", "gamma", "Zeta"]));
    let ap = person_path(&id_of(&a));
    let r = app.send("PATCH", &ap, &org.key, &json!({"tags": ["BETA", "Delta"]}));
    assert_eq!(r.json["tags"], json!(["Beta", "Delta"]), "{}", r.text);
    assert_eq!(app.get(&ap, &org.key).json["tags"], json!(["Beta", "Delta"]));

    let r = app.send("PATCH", &ap, &org.key, &json!({"tags": []}));
    assert_eq!(r.json["tags"], json!([]), "{}", r.text);

    // The catalogue is per organization: another organization keeps its own first spelling.
    let other = app.org("business", "active");
    assert_eq!(create(app, &other.key, json!({"email": "a@example.com", "tags": ["ZETA"]}))["tags"], json!(["ZETA"]));
});

// Spec request rules and D37: every invalid field of POST and PATCH is a 400 validation_error
// naming the field; nothing is created or changed.
crate::e2e!(invalid_person_bodies_are_400_and_name_the_failing_field, Default::default(), |app| {
    let org = app.org("business", "active");
    let long = |n: usize| "x".repeat(n);
    let tags3: Vec<String> = vec!["a".into(), "b".into(), "c".into(), long(51)];
    let tags51: Vec<String> = (0..51).map(|i| format!("t{i}")).collect();
    let cases = [
        (json!({"email": "a@example.com", "firstName": ""}), "firstName"),
        (json!({"email": "a@example.com", "firstName": "   "}), "firstName"),
        (json!({"email": "a@example.com", "firstName": long(101)}), "firstName"),
        (json!({"email": "a@example.com", "lastName": long(101)}), "lastName"),
        (json!({"email": "a@example.com", "externalId": ""}), "externalId"),
        (json!({"email": "a@example.com", "externalId": long(256)}), "externalId"),
        (json!({"email": "a@example.com", "tags": tags3}), "tags[3]"),
        (json!({"email": "a@example.com", "tags": ["ok", " "]}), "tags[1]"),
        (json!({"email": "a@example.com", "tags": tags51}), "tags"),
        (json!({"email": "a@example.com", "labels": ["x"]}), "labels[0]"),
        (json!({"email": "a@example.com", "labels": ["candidate", "Employee"]}), "labels[1]"),
        (json!({"email": "a@example.com", "labels": ["candidate", "employee", "candidate"]}), "labels"),
        (json!({"email": "not-an-email"}), "email"),
        (json!({"email": "a@"}), "email"),
        (json!({"email": ""}), "email"),
        (json!({"email": "a@example.com", "invitation": {"create": false, "sendEmail": true}}), "invitation.create"),
        (
            json!({"email": "a@example.com", "invitation": {"create": true, "sendEmail": false, "expiresInDays": 91}}),
            "invitation.expiresInDays",
        ),
        (
            json!({"email": "a@example.com", "invitation": {"create": true, "sendEmail": false, "expiresInDays": 0}}),
            "invitation.expiresInDays",
        ),
    ];
    for (body, field) in &cases {
        let r = post(app, &org.key, body);
        assert_eq!(fields(&r), [*field], "POST {body}: {}", r.text);
    }
    // Boundaries are accepted.
    let ok = create(
        app,
        &org.key,
        json!({"email": "edge@example.com", "firstName": long(100), "externalId": long(255), "tags": [long(50)]}),
    );
    assert_eq!(ok["firstName"].as_str().map(str::len), Some(100));
    assert_eq!(ids(&page(app, &org.key, "")), [id_of(&ok)], "no invalid body created a person");

    let path = person_path(&id_of(&create(app, &org.key, json!({"email": "p@example.com"}))));
    let before = app.get(&path, &org.key).json;
    let tags3: Vec<String> = vec!["a".into(), "b".into(), "c".into(), long(51)];
    let tags51: Vec<String> = (0..51).map(|i| format!("t{i}")).collect();
    let patches = [
        (json!({"firstName": ""}), "firstName"),
        (json!({"firstName": long(101)}), "firstName"),
        (json!({"firstName": null}), "firstName"),
        (json!({"lastName": "  "}), "lastName"),
        (json!({"externalId": ""}), "externalId"),
        (json!({"externalId": long(256)}), "externalId"),
        (json!({"tags": tags3}), "tags[3]"),
        (json!({"tags": tags51}), "tags"),
        (json!({"tags": null}), "tags"),
        (json!({"labels": ["x"]}), "labels[0]"),
        (json!({"labels": null}), "labels"),
        (json!({"email": "new@example.com"}), "email"),
    ];
    for (body, field) in &patches {
        let r = app.send("PATCH", &path, &org.key, body);
        assert_eq!(fields(&r), [*field], "PATCH {body}: {}", r.text);
    }
    assert_eq!(app.get(&path, &org.key).json, before, "no invalid PATCH changed the person");
});

/// The Invitation object's fields (spec, Resources: Invitation; the person's side, T217-T219),
/// sorted.
const INVITATION_KEYS: [&str; 22] = [
    "acceptedAt",
    "accommodations",
    "createdAt",
    "email",
    "emailSentAt",
    "expiresAt",
    "externalId",
    "firstName",
    "id",
    "labels",
    "lastName",
    "locale",
    "message",
    "personId",
    "redirectUrl",
    "revokedAt",
    "status",
    "tags",
    "timeZone",
    "updatedAt",
    "url",
    "variant",
];

// Spec POST /persons: a valid nested `invitation` object is accepted (201). The response carries
// `invitation`: null while invitations are not built (the state of this slice), else a pending
// Invitation object for this person (D17-D20); anything else fails.
crate::e2e!(a_valid_invitation_object_is_accepted_on_import, Default::default(), |app| {
    let org = app.org("business", "active");
    for (i, inv) in [
        json!({"create": true, "sendEmail": false}),
        json!({"create": true, "sendEmail": true, "expiresInDays": 1}),
        json!({"create": true, "sendEmail": false, "expiresInDays": 90}),
    ]
    .into_iter()
    .enumerate()
    {
        let email = format!("inv{i}@example.com");
        let r = post(app, &org.key, &json!({"email": email, "invitation": inv.clone()}));
        assert_eq!(r.status, 201, "{}", r.text);
        assert_person_shape(&r.json, true);
        assert_eq!(r.json["email"], email);
        let invitation = &r.json["invitation"];
        if !invitation.is_null() {
            assert_eq!(keys(invitation), INVITATION_KEYS, "{}", r.text);
            assert_eq!(invitation["email"], email);
            assert_eq!(invitation["personId"], r.json["id"]);
            assert_eq!(invitation["status"], "pending");
            assert_eq!(invitation["variant"], "assessment");
            assert!(invitation["url"].as_str().is_some_and(|u| !u.is_empty()), "{}", r.text);
            // D18: expiresInDays, default 14.
            let days = inv["expiresInDays"].as_i64().unwrap_or(14);
            let at = |k: &str| {
                let s = invitation[k].as_str().unwrap_or_else(|| panic!("{k} in {}", r.text));
                time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).unwrap()
            };
            assert_eq!(at("expiresAt") - at("createdAt"), time::Duration::days(days), "{}", r.text);
        }
    }
    // Without `invitation` the field is always null.
    assert_eq!(create(app, &org.key, json!({"email": "plain@example.com"}))["invitation"], Value::Null);
});

// D10/D28 and spec GET/PATCH/DELETE 404: a person of another organization does not exist for
// this one, and a non-UUID id names nothing; the same email in another organization is another
// person with another id.
crate::e2e!(persons_of_another_organization_and_non_uuid_ids_are_404, Default::default(), |app| {
    let a = app.org("business", "active");
    let b = app.org("business", "active");
    let pa = create(app, &a.key, json!({"email": "shared@example.com"}));
    let path = person_path(&id_of(&pa));

    app.get(&path, &b.key).assert_error(404, "not_found");
    app.send("PATCH", &path, &b.key, &json!({"externalId": "stolen"})).assert_error(404, "not_found");
    app.delete(&path, &b.key).assert_error(404, "not_found");
    let g = app.get(&path, &a.key);
    assert_eq!(g.status, 200, "{}", g.text);
    assert_eq!(g.json["status"], "active");
    assert_eq!(g.json["externalId"], Value::Null);

    let unknown = person_path(&uuid::Uuid::new_v4().to_string());
    for p in [unknown.as_str(), "/api/v1/persons/not-a-uuid", "/api/v1/persons/123"] {
        app.get(p, &a.key).assert_error(404, "not_found");
        app.send("PATCH", p, &a.key, &json!({"externalId": "x"})).assert_error(404, "not_found");
        app.delete(p, &a.key).assert_error(404, "not_found");
    }

    // D10: the same human in another organization has another id there.
    let pb = create(app, &b.key, json!({"email": "SHARED@example.com"}));
    assert_ne!(id_of(&pb), id_of(&pa));
    assert_eq!(ids(&page(app, &b.key, "")), [id_of(&pb)]);
    assert_eq!(ids(&page(app, &a.key, "")), [id_of(&pa)]);
});

// Issue requirement (spec state table rows 1-2, D9, D12): 8 concurrent imports of one email
// (no Idempotency-Key) create exactly one person: one 201, seven 200 with X-Existing-Resource,
// all with the same id.
crate::e2e!(eight_concurrent_imports_of_one_email_create_exactly_one_person, Default::default(), |app| {
    let org = app.org("business", "active");
    for round in 0..3 {
        let email = format!("race{round}@example.com");
        let barrier = std::sync::Barrier::new(8);
        let results = par_map(8, 8, |i| {
            let body = json!({"email": if i % 2 == 0 { email.clone() } else { email.to_uppercase() }});
            barrier.wait();
            let r = post(app, &org.key, &body);
            (r.status, r.header("x-existing-resource").map(str::to_string), r.json["id"].clone(), r.text)
        });
        let created: Vec<_> = results.iter().filter(|r| r.0 == 201).collect();
        let merged: Vec<_> = results.iter().filter(|r| r.0 == 200).collect();
        assert_eq!(created.len(), 1, "{results:?}");
        assert_eq!(merged.len(), 7, "{results:?}");
        assert_eq!(created[0].1, None, "{results:?}");
        assert!(merged.iter().all(|r| r.1.as_deref() == Some("true")), "{results:?}");
        let id = created[0].2.clone();
        assert!(results.iter().all(|r| r.2 == id), "{results:?}");
        let list = page(app, &org.key, &format!("email={}", enc(&email)));
        assert_eq!(ids(&list), [id.as_str().unwrap().to_string()]);
    }
    assert_eq!(usage(app, &org.key)["used"], 3);
});
