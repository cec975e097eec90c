//! The conventions hold for every operation of the generated document (issue 6).

use super::*;
use serde_json::Value;

fn operations(doc: &Value) -> Vec<(String, String, &Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            out.push((method.clone(), path.clone(), op));
        }
    }
    out
}

#[test]
fn the_document_is_openapi_3_1_of_every_public_operation_and_no_admin_one() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    let ops = operations(&doc);
    assert_eq!(ops.len(), 36, "every public operation (the route table in lib.rs)");
    assert!(ops.iter().all(|(_, p, _)| p.starts_with("/api/v1/")));
    let ids: std::collections::BTreeSet<_> = ops.iter().map(|(_, _, o)| o["operationId"].as_str()).collect();
    assert_eq!(ids.len(), 36, "operation ids are unique");
    assert_eq!(document_text(), document_text(), "deterministic");
}

#[test]
fn every_operation_has_security_errors_and_rate_limit_headers() {
    let doc = document();
    for (method, path, op) in operations(&doc) {
        assert!(op["security"][0]["bearerAuth"].is_array(), "{method} {path}: security");
        for status in ["401", "403", "429", "500"] {
            assert!(op["responses"].get(status).is_some(), "{method} {path}: {status}");
        }
        for (status, r) in op["responses"].as_object().into_iter().flatten() {
            let r = match r.get("$ref").and_then(Value::as_str) {
                Some(name) => &doc["components"]["responses"][name.rsplit('/').next().unwrap_or_default()],
                None => r,
            };
            for h in ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] {
                assert!(r["headers"].get(h).is_some(), "{method} {path} {status}: {h}");
            }
        }
    }
    assert!(doc["components"]["responses"]["RateLimited"]["headers"].get("Retry-After").is_some());
}

#[test]
fn idempotency_key_is_on_every_post_but_the_webhook_test_and_its_deprecated_alias() {
    let doc = document();
    for (method, path, op) in operations(&doc) {
        let has = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["$ref"] == "#/components/parameters/IdempotencyKey");
        let expected =
            method == "post" && !["testWebhook", "pingWebhook"].contains(&op["operationId"].as_str().unwrap_or(""));
        assert_eq!(has, expected, "{method} {path}");
        if expected {
            assert!(op["responses"].get("409").is_some(), "{method} {path}: 409 for D38");
        }
    }
}

#[test]
fn response_objects_are_strict_and_request_objects_keep_their_optional_fields() {
    let doc = document();
    for (name, s) in doc["components"]["schemas"].as_object().into_iter().flatten() {
        if s["type"] != "object" || name == "Error" {
            continue;
        }
        assert_eq!(s["additionalProperties"], false, "{name}");
        let props: Vec<&String> = s["properties"].as_object().map(|p| p.keys().collect()).unwrap_or_default();
        let required: Vec<&str> = s["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if name.ends_with("Request") {
            let all_required =
                ["NestedInvitationRequest", "PersonBatchRequest", "TestClockAdvanceRequest"].contains(&name.as_str());
            assert!(required.len() < props.len() || all_required, "{name}: {required:?}");
        } else {
            assert_eq!(required.len(), props.len(), "{name}: every member is always present");
        }
    }
    let imported = &doc["components"]["schemas"]["PersonImported"];
    assert!(imported.get("allOf").is_none(), "flattened into one object");
    assert!(imported["properties"].get("invitation").is_some() && imported["properties"].get("email").is_some());
    assert_eq!(doc["components"]["schemas"]["Error"]["required"], serde_json::json!(["error", "code"]));
}

/// The schema a local `$ref` names.
fn referenced<'a>(doc: &'a Value, r: &Value) -> &'a Value {
    &doc["components"]["schemas"][r.as_str().and_then(|r| r.rsplit('/').next()).unwrap_or_default()]
}

/// T171: the event types of the document (the `EventType` enumeration, the `webhooks`, their
/// envelopes and `data`) are the domain's one declaration, in its order.
#[test]
fn every_event_type_is_a_webhook_with_its_envelope() {
    use talent_domain::events::EventType;
    let doc = document();
    let declared: Vec<&str> = EventType::ALL.iter().map(|t| t.as_str()).collect();
    assert_eq!(doc["components"]["schemas"]["EventType"]["enum"], serde_json::json!(declared));
    let hooks: Vec<&String> = doc["webhooks"].as_object().map(|h| h.keys().collect()).unwrap_or_default();
    assert_eq!(hooks.len(), declared.len(), "one webhook per type: {hooks:?}");
    assert_eq!(EventType::ALL.len(), 13, "the spec's eight and D47's five");
    for t in EventType::ALL {
        let e = t.as_str();
        let hook = &doc["webhooks"][e]["post"];
        assert_eq!(hook["summary"], t.description(), "{e}");
        let envelope = referenced(&doc, &hook["requestBody"]["content"]["application/json"]["schema"]["$ref"]);
        assert_eq!(envelope["properties"]["type"]["const"], e);
        assert_eq!(envelope["properties"]["apiVersion"]["const"], "v1");
        let data = referenced(&doc, &envelope["properties"]["data"]["$ref"]);
        assert_eq!(data["type"], "object", "{e}: its data schema {} is in the document", t.data_schema());
        assert!(hook["parameters"].as_array().is_some_and(|p| p.iter().any(|p| p["name"] == "Talent-Signature")));
    }
}

/// T170: the error codes of the document are the domain's one table: the `ErrorCode`
/// enumeration and the table in `info.description` list every code in its order, with its status
/// and meaning; a code a response names is one of that response's status.
#[test]
fn the_error_codes_of_the_document_are_the_domain_s_table() {
    use talent_domain::errors::Code;
    let doc = document();
    let declared: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(doc["components"]["schemas"]["ErrorCode"]["enum"], serde_json::json!(declared));
    let info = doc["info"]["description"].as_str().unwrap_or_default();
    let rows: Vec<&str> = info.lines().filter(|l| l.starts_with("| `")).collect();
    let want: Vec<String> =
        Code::ALL.iter().map(|c| format!("| `{}` | {} | {} |", c.as_str(), c.status(), c.description())).collect();
    assert_eq!(rows, want);
    // Each response: the statuses whose codes it may name.
    let mut responses: Vec<(Vec<u16>, &Value)> = Vec::new();
    for (_, _, op) in operations(&doc) {
        for (status, r) in op["responses"].as_object().into_iter().flatten() {
            responses.push((status.parse::<u16>().into_iter().collect(), r));
        }
    }
    for (name, r) in doc["components"]["responses"].as_object().into_iter().flatten() {
        let statuses = match name.as_str() {
            "Unauthorized" => vec![401],
            "Forbidden" => vec![403],
            "RateLimited" => vec![429],
            // A 503 is a temporary `internal_error` (T87).
            "InternalError" | "ServiceUnavailable" => vec![500],
            "PayloadTooLarge" => vec![413],
            "ValidationError" => vec![400],
            "Conflict" => vec![409],
            other => panic!("a new shared response {other}: say which statuses it answers"),
        };
        responses.push((statuses, r));
    }
    let mut named = std::collections::BTreeSet::new();
    for (statuses, r) in responses {
        let text = r["description"].as_str().unwrap_or_default();
        for c in Code::ALL.iter().filter(|c| text.contains(&format!("`{}`", c.as_str()))) {
            let ok = statuses.is_empty() || statuses.contains(&c.status());
            assert!(ok, "{} under {statuses:?}: {text}", c.as_str());
            named.insert(c.as_str());
        }
    }
    let unnamed: Vec<&str> = declared.iter().copied().filter(|c| !named.contains(c)).collect();
    assert_eq!(unnamed, ["method_not_allowed"], "every code but 405 is named by a response that can give it");
    assert_eq!(
        doc["components"]["responses"]["Unauthorized"]["description"],
        "`unauthorized`, `invalid_token`, `key_revoked` or `key_expired`."
    );
}

/// D61: each deprecated operation is in the document, marked, with the successor's shape and the
/// three headers on its own responses; nothing else is deprecated.
#[test]
fn deprecated_operations_are_marked_and_name_their_successor() {
    let doc = document();
    let marked: Vec<(String, String)> = operations(&doc)
        .into_iter()
        .filter(|(_, _, op)| op["deprecated"] == true)
        .map(|(m, p, _)| (m.to_uppercase(), p))
        .collect();
    let table: Vec<(String, String)> =
        crate::deprecation::DEPRECATED.iter().map(|d| (d.method.to_string(), d.path.to_string())).collect();
    assert_eq!(marked, table);
    for d in crate::deprecation::DEPRECATED {
        let m = d.method.to_ascii_lowercase();
        let (op, successor) = (&doc["paths"][d.path][&m], &doc["paths"][d.successor][&m]);
        assert_eq!(op["operationId"], d.operation_id);
        assert!(op["description"].as_str().unwrap_or_default().contains(d.successor), "{op}");
        assert_eq!(op["requestBody"], successor["requestBody"]);
        assert_eq!(op["responses"]["200"]["content"], successor["responses"]["200"]["content"]);
        for h in ["Deprecation", "Sunset", "Link"] {
            assert!(op["responses"]["200"]["headers"].get(h).is_some(), "{h}");
        }
    }
}
