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
    assert_eq!(ops.len(), 32, "every public operation (the route table in lib.rs)");
    assert!(ops.iter().all(|(_, p, _)| p.starts_with("/api/v1/")));
    let ids: std::collections::BTreeSet<_> = ops.iter().map(|(_, _, o)| o["operationId"].as_str()).collect();
    assert_eq!(ids.len(), 32, "operation ids are unique");
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
fn idempotency_key_is_on_every_post_but_the_webhook_test() {
    let doc = document();
    for (method, path, op) in operations(&doc) {
        let has = op["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|p| p["$ref"] == "#/components/parameters/IdempotencyKey");
        let expected = method == "post" && op["operationId"] != "testWebhook";
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
            let all_required = ["NestedInvitationRequest", "PersonBatchRequest"].contains(&name.as_str());
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

#[test]
fn every_event_type_is_a_webhook_with_its_envelope() {
    let doc = document();
    let events = doc["components"]["schemas"]["EventType"]["enum"].as_array().cloned().unwrap_or_default();
    assert_eq!(events.len(), 13, "the spec's eight and D47's five");
    for e in events {
        let e = e.as_str().unwrap_or_default();
        let hook = &doc["webhooks"][e]["post"];
        let schema = hook["requestBody"]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap_or_default();
        let envelope = &doc["components"]["schemas"][schema.rsplit('/').next().unwrap_or_default()];
        assert_eq!(envelope["properties"]["type"]["const"], e);
        assert_eq!(envelope["properties"]["apiVersion"]["const"], "v1");
        assert!(hook["parameters"].as_array().is_some_and(|p| p.iter().any(|p| p["name"] == "Talent-Signature")));
    }
}
