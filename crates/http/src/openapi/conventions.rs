//! What every operation of the public API shares, applied once to the derived document instead of
//! being repeated on 28 handlers (decision T52):
//!
//! - the bearer security scheme (spec, Authentication);
//! - the responses any endpoint can give: 401, 403, 429 (with `Retry-After`), 500, 503 (with
//!   `Retry-After`, a database outage, T87); and 400 and 413
//!   on every operation with a body; 400 and 409 wherever `Idempotency-Key` is honoured (D37, D38);
//! - the rate-limit headers on every response (spec, Endpoints; D8);
//! - the `Idempotency-Key` header on every `POST` but `testWebhook`, and `Idempotency-Replayed` on
//!   its success responses (D38);
//! - strict objects: response objects list every property as required (nullable ones too) and all
//!   objects but the error envelope forbid other properties (spec: "all fields are always present;
//!   no additional fields"); `allOf` of objects (from `#[serde(flatten)]`) merged into one object;
//! - links between operations, for stateful clients and testers;
//! - the webhook events under `webhooks` (spec, Events; D31–D34), one per type of the domain's
//!   declaration (`EventType::ALL`, T171).

use serde_json::{json, Map, Value};
use talent_domain::errors::Code;
use talent_domain::events::EventType;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// Operations that do not honour `Idempotency-Key` among the `POST`s (D38).
const NOT_IDEMPOTENT: [&str; 1] = ["testWebhook"];

/// Operations whose body may be left out (an empty body; D21 resend).
const OPTIONAL_BODY: [&str; 2] = ["resendInvitation", "testCompleteAssessment"];

/// Request members that come together (JSON Schema's `dependentRequired`): `(schema, [(member,
/// the members it requires)])`.
type Dependencies = &'static [(&'static str, &'static [&'static str])];
const DEPENDENT_REQUIRED: [(&str, Dependencies); 1] =
    [("TestCompletionRequest", &[("profileId", &["targetCategory"]), ("targetCategory", &["profileId"])])];

/// Applies every convention of this module to a derived document.
pub fn apply(doc: &mut Value) {
    components(doc);
    if let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) {
        for item in paths.values_mut() {
            for m in METHODS {
                if let Some(op) = item.get_mut(m) {
                    operation(m, op);
                }
            }
        }
    }
    if let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) {
        let snapshot = schemas.clone();
        for (name, s) in schemas.iter_mut() {
            merge_all_of(s, &snapshot);
            strict(name, s);
        }
    }
    for (name, deps) in DEPENDENT_REQUIRED {
        if let Some(s) = doc.pointer_mut(&format!("/components/schemas/{name}")) {
            s["dependentRequired"] = deps.iter().map(|(m, r)| (m.to_string(), json!(r))).collect();
        }
    }
    deprecated(doc);
    links(doc);
    webhooks(doc);
    constants(doc);
}

/// A string schema with the one value `*` (an endpoint's subscription to every event type) as
/// `const`, which generators turn into a literal the caller writes as `"*"` (an `enum` of one
/// value became a one-member enumeration class).
fn constants(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.get("type") == Some(&json!("string")) && m.get("enum") == Some(&json!(["*"])) {
                m.remove("enum");
                m.insert("const".into(), json!("*"));
            }
            m.values_mut().for_each(constants);
        }
        Value::Array(a) => a.iter_mut().for_each(constants),
        _ => {}
    }
}

/// Each deprecated operation ([`crate::deprecation::DEPRECATED`], D61): a copy of its
/// successor's operation under its own path and `operationId`, marked `deprecated`, its text
/// naming the successor and the sunset, and every response with the `Deprecation`, `Sunset`
/// and `Link` headers.
fn deprecated(doc: &mut Value) {
    let day = |secs: u64| {
        time::OffsetDateTime::from_unix_timestamp(i64::try_from(secs).unwrap_or(0))
            .map(|t| format!("{} {} {}", t.day(), t.month(), t.year()))
            .unwrap_or_default()
    };
    for d in crate::deprecation::DEPRECATED {
        let method = d.method.to_ascii_lowercase();
        let Some(successor) = doc.pointer(&format!("/paths/{}/{method}", pointer_escape(d.successor))) else {
            continue;
        };
        let mut op = successor.clone();
        let was = match op["description"].as_str() {
            Some(text) if !text.is_empty() => format!("\n\n{text}"),
            _ => String::new(),
        };
        op["operationId"] = json!(d.operation_id);
        op["deprecated"] = json!(true);
        op["summary"] = json!(format!("{} (deprecated)", op["summary"].as_str().unwrap_or_default()));
        op["description"] = json!(format!(
            "Deprecated since {} and removed after {}: use `{} {}`, which this operation answers exactly like. \
Every answer carries `Deprecation`, `Sunset` and `Link: <successor>; rel=\"successor-version\"` (D61).{was}",
            day(d.since),
            day(d.sunset),
            d.method,
            d.successor,
        ));
        for r in op["responses"].as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
            let Some(r) = r.as_object_mut() else { continue };
            if r.contains_key("$ref") {
                continue;
            }
            let headers = r.entry("headers").or_insert_with(|| json!({}));
            headers["Deprecation"] = json!({"description": "`@<unix seconds>`: since when the operation is deprecated (RFC 9745).", "schema": {"type": "string"}});
            headers["Sunset"] = json!({"description": "The HTTP date after which the operation may be removed (RFC 8594).", "schema": {"type": "string"}});
            headers["Link"] = json!({"description": "`<path of the successor>; rel=\"successor-version\"`.", "schema": {"type": "string"}});
        }
        doc["paths"][d.path][method.as_str()] = op;
    }
}

/// `path` as one JSON pointer token (RFC 6901: `~` as `~0`, `/` as `~1`).
fn pointer_escape(path: &str) -> String {
    path.replace('~', "~0").replace('/', "~1")
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    })
}

/// The error codes of an HTTP status, from the domain's one table (T170), as a sentence:
/// "`a`, `b` or `c`".
pub fn codes_of(status: u16) -> String {
    let codes: Vec<String> =
        Code::ALL.into_iter().filter(|c| c.status() == status).map(|c| format!("`{}`", c.as_str())).collect();
    match codes.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn components(doc: &mut Value) {
    let Some(c) = doc.as_object_mut().map(|d| d.entry("components").or_insert_with(|| json!({}))) else {
        return;
    };
    c["securitySchemes"] = json!({
        "bearerAuth": {
            "type": "http",
            "scheme": "bearer",
            "bearerFormat": "tk_ followed by at least 40 URL-safe base64 characters (D41)",
            "description": "An API key created in the dashboard. A missing, malformed, unknown, revoked or \
    expired key gives 401; a key lacking the operation's scope (named at the end of its description and in `x-scopes`) gives \
    403 `insufficient_scope`; a `*:write` scope implies the matching `*:read`.",
        }
    });
    let int_header = |d: &str| json!({"description": d, "required": true, "schema": {"type": "integer", "minimum": 0}});
    c["headers"] = json!({
        "X-RateLimit-Limit": int_header("Requests per minute of the reported budget (D7, D8)."),
        "X-RateLimit-Remaining": int_header("Whole requests left now in the reported budget."),
        "X-RateLimit-Reset": int_header("Unix time in seconds at which the reported budget is full again."),
        "Retry-After": {
            "description": "Whole seconds to wait before retrying, at least 1 (D8).",
            "required": true,
            "schema": {"type": "integer", "minimum": 1},
        },
        "Idempotency-Replayed": {
            "description": "`true` when this is the stored response of an earlier request with the same \
    Idempotency-Key and body (D38).",
            "schema": {"type": "string", "enum": ["true"]},
        },
        "X-Existing-Resource": {
            "description": "`true` when the resource already existed and no new one was created.",
            "schema": {"type": "string", "enum": ["true"]},
        },
    });
    c["parameters"] = json!({
        "IdempotencyKey": {
            "name": "Idempotency-Key",
            "in": "header",
            "required": false,
            "description": "1 to 255 printable ASCII characters. Scope: organization and path; kept 24 h. The \
    same key with the same body replays the stored response; with another body: 409 `idempotency_key_reused`; \
    while the first is still running: 409 `conflict`.",
            "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x20-\\x7E]+$"},
        }
    });
    let mut rate_limited = error_response(
        "`rate_limited`: the organization's or the key's budget is spent, or, on a resend, an email limit \
    of the invitation or its address; retry after `Retry-After`.",
    );
    rate_limited["headers"] = json!({"Retry-After": {"$ref": "#/components/headers/Retry-After"}});
    let mut unavailable = error_response(
        "`internal_error` while the database cannot be reached (an outage or a restart): temporary; retry \
    after `Retry-After`. Nothing of the request was committed.",
    );
    unavailable["headers"] = json!({"Retry-After": {"$ref": "#/components/headers/Retry-After"}});
    c["responses"] = json!({
        "Unauthorized": error_response(&format!("{}.", codes_of(401))),
        "Forbidden": error_response(
            "`plan_upgrade_required` (D5), `insufficient_scope`, or `subscription_inactive` on a write (D4).",
        ),
        "RateLimited": rate_limited,
        "InternalError": error_response("`internal_error`: a server-side failure; retry."),
        "ServiceUnavailable": unavailable,
        "PayloadTooLarge": error_response("`payload_too_large`: the body exceeds 1 MiB (D37)."),
        "ValidationError": error_response(
            "`validation_error`: invalid body, query parameter or header; `details.fields` names each (D37).",
        ),
        "Conflict": error_response(
            "`idempotency_key_reused` (another body under this Idempotency-Key) or `conflict` (the first request \
    with this key is still running) (D38).",
        ),
    });
    for r in c["responses"].as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
        rate_headers(r);
    }
}

/// The operation's scopes: OpenAPI tools read the names in a security requirement as OAuth2
/// scopes only, so an HTTP bearer requirement carries none; the names written in the handler's
/// annotation move to `x-scopes` and to the end of the operation's description ("Scope: …";
/// several are alternatives, as on the events feed; none: any valid key).
fn scopes(op: &mut Value) {
    let Some(names) = op.pointer("/security/0/bearerAuth").and_then(Value::as_array).cloned() else { return };
    let quoted: Vec<String> = names.iter().filter_map(Value::as_str).map(|s| format!("`{s}`")).collect();
    let line = match quoted.as_slice() {
        [] => "Scope: none; any valid key may call it.".to_string(),
        [one] => format!("Scope: {one}."),
        many => format!("Scopes: any one of {}.", many.join(", ")),
    };
    let text = match op.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d}\n\n{line}"),
        _ => line,
    };
    op["description"] = json!(text);
    op["x-scopes"] = Value::Array(names);
    op["security"] = json!([{"bearerAuth": []}]);
}

fn rate_headers(response: &mut Value) {
    if response.get("$ref").is_some() {
        return;
    }
    let Some(r) = response.as_object_mut() else { return };
    let headers = r.entry("headers").or_insert_with(|| json!({}));
    for h in ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] {
        headers[h] = json!({"$ref": format!("#/components/headers/{h}")});
    }
}

fn operation(method: &str, op: &mut Value) {
    scopes(op);
    let id = op.get("operationId").and_then(Value::as_str).unwrap_or_default().to_string();
    let idempotent = method == "post" && !NOT_IDEMPOTENT.contains(&id.as_str());
    let has_body = op.get("requestBody").is_some() || idempotent;
    if OPTIONAL_BODY.contains(&id.as_str()) {
        if let Some(b) = op.get_mut("requestBody") {
            b["required"] = json!(false);
        }
    }
    let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else { return };
    for r in responses.values_mut() {
        rate_headers(r);
    }
    let mut add = |status: &str, name: &str| {
        responses
            .entry(status.to_string())
            .or_insert_with(|| json!({"$ref": format!("#/components/responses/{name}")}));
    };
    if has_body {
        add("400", "ValidationError");
        add("413", "PayloadTooLarge");
    }
    if idempotent {
        add("400", "ValidationError");
        add("409", "Conflict");
    }
    add("401", "Unauthorized");
    add("403", "Forbidden");
    add("429", "RateLimited");
    add("500", "InternalError");
    add("503", "ServiceUnavailable");
    // A response that declares `X-Existing-Resource` points at the one component of it.
    for r in responses.values_mut() {
        if let Some(h) = r.get_mut("headers").and_then(Value::as_object_mut) {
            if let Some(existing) = h.get_mut("X-Existing-Resource") {
                *existing = json!({"$ref": "#/components/headers/X-Existing-Resource"});
            }
        }
    }
    if idempotent {
        for (status, r) in responses.iter_mut() {
            if status.starts_with('2') {
                if let Some(h) = r.get_mut("headers").and_then(Value::as_object_mut) {
                    h.insert(
                        "Idempotency-Replayed".into(),
                        json!({"$ref": "#/components/headers/Idempotency-Replayed"}),
                    );
                }
            }
        }
        if let Some(o) = op.as_object_mut() {
            let params = o.entry("parameters").or_insert_with(|| json!([]));
            if let Some(p) = params.as_array_mut() {
                p.push(json!({"$ref": "#/components/parameters/IdempotencyKey"}));
            }
        }
    }
    sort_responses(op);
}

fn sort_responses(op: &mut Value) {
    if let Some(r) = op.get_mut("responses").and_then(Value::as_object_mut) {
        let mut items: Vec<(String, Value)> = std::mem::take(r).into_iter().collect();
        items.sort_by(|a, b| a.0.cmp(&b.0));
        r.extend(items);
    }
}

/// Resolves a local `$ref` among `schemas`, or returns the schema itself.
fn resolve<'a>(s: &'a Value, schemas: &'a Map<String, Value>) -> &'a Value {
    s.get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/components/schemas/"))
        .and_then(|n| schemas.get(n))
        .unwrap_or(s)
}

/// `allOf` whose members are all objects (what `#[serde(flatten)]` derives) becomes one object,
/// so that `additionalProperties: false` keeps its meaning.
fn merge_all_of(s: &mut Value, schemas: &Map<String, Value>) {
    let Some(parts) = s.get("allOf").and_then(Value::as_array) else { return };
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    for p in parts {
        let p = resolve(p, schemas);
        if p.get("type").and_then(Value::as_str) != Some("object") {
            return;
        }
        if let Some(props) = p.get("properties").and_then(Value::as_object) {
            properties.extend(props.clone());
        }
        for r in p.get("required").and_then(Value::as_array).into_iter().flatten() {
            if !required.contains(r) {
                required.push(r.clone());
            }
        }
    }
    let mut merged = json!({"type": "object", "required": required, "properties": properties});
    if let Some(d) = s.get("description") {
        merged["description"] = d.clone();
    }
    *s = merged;
}

/// Response objects (every schema but the error envelope and the `*Request` bodies) require every
/// property; every object but the error envelope forbids unknown properties.
fn strict(name: &str, s: &mut Value) {
    if name == "Error" || s.get("type").and_then(Value::as_str) != Some("object") {
        return;
    }
    s["additionalProperties"] = json!(false);
    if !name.ends_with("Request") {
        let keys: Vec<Value> = s
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().map(|k| json!(k)).collect())
            .unwrap_or_default();
        s["required"] = Value::Array(keys);
    }
}

/// `(operation, statuses, [(link name, target operation, [(parameter, runtime expression)])])`:
/// what a client can do next with the ids of a response. (A new person has no report or matches
/// yet, D27, T26.)
type Link = (&'static str, &'static str, &'static [(&'static str, &'static str)]);
const BODY_ID: &[(&str, &str)] = &[("id", "$response.body#/id")];
const LINKS: [(&str, &[&str], &[Link]); 4] = [
    (
        "importPerson",
        &["200", "201"],
        &[
            ("GetPerson", "getPerson", BODY_ID),
            ("PatchPerson", "patchPerson", BODY_ID),
            ("ArchivePerson", "archivePerson", BODY_ID),
            ("GetPersonResults", "getPersonResults", BODY_ID),
        ],
    ),
    (
        "createInvitation",
        &["200", "201"],
        &[
            ("GetInvitation", "getInvitation", BODY_ID),
            ("ResendInvitation", "resendInvitation", BODY_ID),
            ("RevokeInvitation", "revokeInvitation", BODY_ID),
        ],
    ),
    (
        "createWebhook",
        &["201"],
        &[
            ("GetWebhook", "getWebhook", BODY_ID),
            ("PatchWebhook", "patchWebhook", BODY_ID),
            ("DeleteWebhook", "deleteWebhook", BODY_ID),
            ("RotateWebhookSecret", "rotateWebhookSecret", BODY_ID),
            ("TestWebhook", "testWebhook", BODY_ID),
            ("ListWebhookDeliveries", "listWebhookDeliveries", BODY_ID),
        ],
    ),
    (
        "testWebhook",
        &["200"],
        &[
            (
                "GetWebhookDelivery",
                "getWebhookDelivery",
                &[("id", "$request.path.id"), ("deliveryId", "$response.body#/deliveryId")],
            ),
            (
                "RedeliverWebhookDelivery",
                "redeliverWebhookDelivery",
                &[("id", "$request.path.id"), ("deliveryId", "$response.body#/deliveryId")],
            ),
        ],
    ),
];

fn links(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for item in paths.values_mut() {
        for m in METHODS {
            let Some(op) = item.get_mut(m) else { continue };
            let id = op.get("operationId").and_then(Value::as_str).unwrap_or_default().to_string();
            for (from, statuses, targets) in LINKS {
                if from != id {
                    continue;
                }
                for status in statuses.iter() {
                    if let Some(r) = op.pointer_mut(&format!("/responses/{status}")).and_then(Value::as_object_mut) {
                        let links: Map<String, Value> = targets
                            .iter()
                            .map(|(name, target, params)| {
                                let params: Map<String, Value> =
                                    params.iter().map(|(p, e)| (p.to_string(), json!(e))).collect();
                                (name.to_string(), json!({"operationId": target, "parameters": params}))
                            })
                            .collect();
                        r.insert("links".into(), Value::Object(links));
                    }
                }
            }
        }
    }
}

fn webhooks(doc: &mut Value) {
    let header = |name: &str, d: &str| json!({"name": name, "in": "header", "required": true, "description": d, "schema": {"type": "string"}});
    let mut hooks = Map::new();
    // The event types and their `data` schemas are the domain's one declaration (T171).
    for t in EventType::ALL {
        let (event, schema, data, description) = (t.as_str(), t.envelope_schema(), t.data_schema(), t.description());
        doc["components"]["schemas"][schema] = json!({
            "type": "object",
            "description": format!("The delivery envelope of `{event}` (spec, Delivery envelope)."),
            "required": ["id", "eventId", "sequence", "type", "createdAt", "apiVersion", "data"],
            "additionalProperties": false,
            "properties": {
                "id": {"type": "string", "format": "uuid", "description": "The delivery id; the same on every retry of this delivery (D31)."},
                "eventId": {"type": "string", "format": "uuid", "description": "The event's id: the `id` of its item in `GET /api/v1/events`, the same on every retry, redelivery and replay. Deduplicate on it (D57)."},
                "sequence": {"type": ["integer", "null"], "format": "int64", "minimum": 1, "description": "The event's number in the organization's events feed (1, 2, 3, ...); null for the ping of `POST /api/v1/webhooks/{id}/test`, which is no event of the feed (D56, D57)."},
                "type": {"type": "string", "const": event},
                "createdAt": {"type": "string", "format": "date-time"},
                "apiVersion": {"type": "string", "const": "v1"},
                "data": {"$ref": format!("#/components/schemas/{data}")},
            },
        });
        hooks.insert(
            event.to_string(),
            json!({"post": {
                "operationId": format!("on{schema}"),
                // Talent calls the receiver: no API key; the receiver checks the signature.
                "security": [],
                "summary": description,
                "description": "Sent to every enabled endpoint subscribed to this type or to `*`. Verify \
the signature before trusting the body, in either of two ways. `Talent-Signature`: `v1` is the lowercase hex \
HMAC-SHA256, keyed with the endpoint's whole signing secret, of `{t}.{raw body}`; reject a `t` more than 300 \
seconds from your clock; during a secret rotation the header carries one `v1` per valid secret. Or the Standard \
Webhooks headers, which the Standard Webhooks and Svix libraries verify: `webhook-signature` is `v1,` and the \
base64 HMAC-SHA256, keyed with the base64-decoded part of the secret after `whsec_`, of \
`{webhook-id}.{webhook-timestamp}.{raw body}` (one entry per valid secret, separated by spaces). Delivery is at \
least once: deduplicate on `eventId` (D30, D31, D57, D58).",
                "parameters": [
                    header("Talent-Signature", "`t=<unix seconds>,v1=<hex>[,v1=<hex>]` (D30)."),
                    header("Talent-Event", "The event type."),
                    header("Talent-Delivery-Id", "The delivery id (uuid); the same on every retry of this delivery."),
                    header("Talent-Event-Id", "The event's id (uuid), the envelope's `eventId` (D57)."),
                    header("webhook-id", "Standard Webhooks: the event's id, the envelope's `eventId` (D58)."),
                    header("webhook-timestamp", "Standard Webhooks: the Unix seconds of the signature, the `t` of `Talent-Signature` (D58)."),
                    json!({"name": "webhook-signature", "in": "header", "required": false, "schema": {"type": "string"},
                        "description": "Standard Webhooks: `v1,<base64>` per signing secret, separated by spaces; absent only \
while the endpoint still has a secret made before Standard Webhooks signing: rotate it to get this header (D58)."}),
                ],
                "requestBody": {
                    "required": true,
                    "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{schema}")}}},
                },
                "responses": {
                    "2XX": {"description": "Received. Any other status, a redirect, or no answer within 10 s is \
a failed attempt, retried after 1 min, 5 min, 30 min and 2 h, then the delivery is failed (D31)."},
                },
            }}),
        );
    }
    doc["webhooks"] = Value::Object(hooks);
}
