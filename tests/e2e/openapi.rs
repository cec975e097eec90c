//! The OpenAPI document (issue 6): served without authentication, identical to the committed
//! `docs/openapi.json`, and describing what the binary really answers: real responses of every
//! kind are validated against their component schemas (JSON Schema 2020-12, formats included).

use serde_json::{json, Value};

fn committed() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    std::fs::read_to_string(path).expect("docs/openapi.json")
}

/// Validates `v` against `#/components/schemas/{name}` of `doc`; returns the errors.
fn violations(doc: &Value, name: &str, v: &Value) -> Vec<String> {
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$ref": format!("#/components/schemas/{name}"),
        "components": doc["components"],
    });
    let validator = jsonschema::options().should_validate_formats(true).build(&root).expect("a valid schema");
    validator.iter_errors(v).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

fn assert_valid(doc: &Value, name: &str, v: &Value) {
    let errs = violations(doc, name, v);
    assert!(errs.is_empty(), "{name} does not match its schema: {errs:?}\n{v:#}");
}

crate::e2e!(the_served_document_is_the_committed_one_and_needs_no_key, Opts::default(), |app| {
    let r = app.request("GET", "/api/v1/openapi.json", &[], None);
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(
        r.text == committed(),
        "docs/openapi.json differs from the document the binary serves: run `make openapi` and commit it"
    );
    assert_eq!(r.json["openapi"], "3.1.0");
    assert_eq!(r.json["info"]["version"], "1.0.0");
    assert!(r.json["paths"].get("/admin/v1/organizations").is_none(), "the admin API is not public");
});

crate::e2e!(real_responses_match_their_schemas, Opts::default(), |app| {
    let doc: Value = serde_json::from_str(&committed()).unwrap();
    let org = app.org("business", "active");
    let k = &org.key;

    assert_valid(&doc, "KeyIdentity", &app.get("/api/v1/me", k).json);
    assert_valid(&doc, "Organization", &app.get("/api/v1/organization", k).json);

    // A person with a nested invitation, one with every optional field, and their reads.
    let imported = app.send(
        "POST",
        "/api/v1/persons",
        k,
        &json!({"email": "ada@example.com", "invitation": {"create": true, "sendEmail": false}}),
    );
    assert_eq!(imported.status, 201, "{}", imported.text);
    assert_valid(&doc, "PersonImported", &imported.json);
    assert!(imported.json["invitation"].is_object());
    let full = app.import(
        k,
        json!({"email": "grace@example.com", "firstName": "Grace", "lastName": "Hopper", "externalId": "ats-1",
               "labels": ["candidate", "employee"], "tags": ["Rust", "cobol"]}),
    );
    assert_valid(&doc, "PersonImported", &full);
    let id = full["id"].as_str().unwrap().to_string();
    assert_valid(&doc, "Person", &app.get(&format!("/api/v1/persons/{id}"), k).json);
    assert_valid(&doc, "PersonPage", &app.get("/api/v1/persons?limit=1", k).json);
    assert_valid(&doc, "PersonResults", &app.get(&format!("/api/v1/persons/{id}/results"), k).json);

    // Results, a profile and matches.
    let done =
        app.admin("POST", &format!("/admin/v1/persons/{id}/assessments"), Some(&json!({"complete": true, "seed": 7})));
    assert_eq!(done.status, 200, "{}", done.text);
    let results = app.get(&format!("/api/v1/persons/{id}/results"), k).json;
    assert_valid(&doc, "PersonResults", &results);
    let comp = results["competencies"]["scores"][0]["competencyId"].clone();
    let profile = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/profiles", org.id),
        Some(&json!({"name": "Engineer", "description": "Builds things", "competencies": [{"competencyId": comp, "weight": 1.0}]})),
    );
    assert_eq!(profile.status, 201, "{}", profile.text);
    let pid = profile.json["id"].as_str().unwrap().to_string();
    assert_valid(&doc, "Profile", &app.get(&format!("/api/v1/profiles/{pid}"), k).json);
    assert_valid(&doc, "ProfilePage", &app.get("/api/v1/profiles", k).json);
    assert_valid(&doc, "MatchPage", &app.get(&format!("/api/v1/profiles/{pid}/matches"), k).json);
    assert_valid(&doc, "MatchPage", &app.get(&format!("/api/v1/persons/{id}/matches"), k).json);

    // Invitations.
    let inv = app.send(
        "POST",
        "/api/v1/invitations",
        k,
        &json!({"email": "linus@example.com", "sendEmail": false, "message": "Hello", "labels": ["employee"], "tags": ["x"]}),
    );
    assert_eq!(inv.status, 201, "{}", inv.text);
    assert_valid(&doc, "Invitation", &inv.json);
    assert_valid(&doc, "InvitationPage", &app.get("/api/v1/invitations", k).json);

    // Archive, and errors.
    assert_valid(&doc, "Person", &app.delete(&format!("/api/v1/persons/{id}"), k).json);
    let missing = app.get("/api/v1/persons/00000000-0000-7000-8000-000000000000", k);
    assert_valid(&doc, "Error", &missing.json);
    let invalid = app.send("POST", "/api/v1/persons", k, &json!({"email": "nope", "tags": [""]}));
    assert_eq!(invalid.status, 400);
    assert_valid(&doc, "Error", &invalid.json);

    // The schemas are strict: an extra member, a missing one, or a wrong enum value is caught.
    let mut extra = full.clone();
    extra["unexpected"] = json!(1);
    assert!(!violations(&doc, "PersonImported", &extra).is_empty());
    let mut missing_field = app.get(&format!("/api/v1/persons/{id}"), k).json;
    missing_field.as_object_mut().unwrap().remove("archivedAt");
    assert!(!violations(&doc, "Person", &missing_field).is_empty());
    let mut wrong = inv.json.clone();
    wrong["status"] = json!("lost");
    assert!(!violations(&doc, "Invitation", &wrong).is_empty());
});

/// Every string of the document an integrator reads.
fn texts(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(s) if k == "description" || k == "summary" => out.push(s.clone()),
                    _ => texts(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        _ => {}
    }
}

// Issue 16 point 4: the document is written for integrators: no references to our decision log
// ("(D36)", "T13") or internal specification, the shared rules once in `info`, servers.
#[test]
fn the_documents_text_is_for_integrators() {
    let doc: Value = serde_json::from_str(&committed()).unwrap();
    let mut all = vec![];
    texts(&doc, &mut all);
    assert!(all.len() > 300, "{} texts", all.len());
    let reference = regex_lite::Regex::new(r"\b[DT]\d{1,3}\b|\(spec\b").unwrap();
    let internal: Vec<&String> = all.iter().filter(|t| reference.is_match(t)).collect();
    assert!(internal.is_empty(), "internal references: {internal:#?}");
    let info = doc["info"]["description"].as_str().unwrap();
    for rule in ["**Rate limits.**", "**Idempotency.**", "**Errors.**", "**Lists.**", "Retry-After"] {
        assert!(info.contains(rule), "{rule}");
    }
    assert_eq!(doc["servers"][0]["variables"]["baseUrl"]["default"], "http://127.0.0.1:8080");
}

// Issue 16 point 4: every operation shows an example of its JSON request body and of each JSON
// success response, and each example is valid against its schema.
#[test]
fn every_operation_has_examples_that_match_their_schemas() {
    let doc: Value = serde_json::from_str(&committed()).unwrap();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let mut bodies = vec![];
            if let Some(b) = op.pointer("/requestBody/content/application~1json") {
                bodies.push(("request".to_string(), b));
            }
            let mut success = 0;
            for (status, r) in op["responses"].as_object().unwrap() {
                if status.starts_with('2') {
                    success += 1;
                    if let Some(b) = r.pointer("/content/application~1json") {
                        bodies.push((status.clone(), b));
                    }
                }
            }
            assert!(success > 0, "{method} {path}");
            for (what, b) in bodies {
                let example = b.get("example").unwrap_or_else(|| panic!("{method} {path} {what}: no example"));
                let root = json!({
                    "$schema": "https://json-schema.org/draft/2020-12/schema",
                    "components": doc["components"],
                    "allOf": [b["schema"]],
                });
                let validator = jsonschema::options().should_validate_formats(true).build(&root).unwrap();
                let errs: Vec<String> =
                    validator.iter_errors(example).map(|e| format!("{}: {e}", e.instance_path())).collect();
                assert!(errs.is_empty(), "{method} {path} {what}: {errs:?}\n{example:#}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "{checked} examples");
}
