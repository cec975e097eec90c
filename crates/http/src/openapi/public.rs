//! The document as integrators read it (issue 16 point 4), applied last:
//!
//! - public text: the code's doc comments cite our decision log (`D36`, `T13`) and the internal
//!   specification (`(spec, Person)`), which mean nothing to an integrator; those references are
//!   taken out of every `description` and `summary`;
//! - the rules every operation shares, once, in `info.description`: authentication, rate limits,
//!   idempotency, errors (with the table of every error code, from the domain's declaration),
//!   pagination, webhooks;
//! - `servers`, with the service's address as a variable;
//! - an example of each operation's request body and success response, built from the schemas
//!   with realistic values (and checked against them by a test).

use regex_lite::Regex;
use serde_json::{json, Map, Value};
use std::sync::OnceLock;
use talent_domain::errors::Code;

/// Applies every step of this module.
pub fn apply(doc: &mut Value) {
    doc["info"]["description"] = json!(format!("{INFO}\n\n{}\n\n{INFO_AFTER_ERRORS}", error_table()));
    // Talent runs where its operator installs it: the operator answers for the service.
    doc["info"]["contact"] = json!({"name": "The operator of your Talent service"});
    doc["servers"] = json!([{
        "url": "{baseUrl}",
        "description": "Your Talent service.",
        "variables": {"baseUrl": {"default": "http://127.0.0.1:8080", "description": "Scheme, host and port, without a path."}},
    }]);
    examples(doc);
    clean(doc);
}

const INFO: &str = "\
The integration API of Talent, a talent-assessment platform: an ATS or HR system syncs people into \
the talent pool, sends assessment invitations, reads results, profile matches and PDF reports, and \
receives signed webhooks.

**Authentication.** Every request carries `Authorization: Bearer <API key>`. Keys are created in the \
dashboard; a key has scopes, and each operation names the scope it needs (a `*:write` scope \
implies the matching `*:read`). A missing, malformed, unknown, revoked or expired key gives 401.

**Rate limits.** Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and \
`X-RateLimit-Reset` (Unix seconds) for the budget closest to running out: the organization's and \
the key's requests per minute, set by the plan. Over budget: 429 `rate_limited` with \
`Retry-After` (seconds). Requests that fail authentication count against the caller's address.

**Idempotency.** Every `POST` but `/webhooks/{id}/test` accepts `Idempotency-Key` (1 to 255 \
printable ASCII characters, kept 24 hours per organization and path). Retrying with the same key \
and body returns the stored answer with `Idempotency-Replayed: true`; the same key with another \
body is 409 `idempotency_key_reused`; while the first request is still running, 409 `conflict`. \
Answers with status 400, 401, 403, 429 or 5xx are not stored, so such a request can be retried \
with its key.

**Errors.** Every error has the body `{\"error\": message, \"code\": stable code, \"details\": \
optional object}`. Validation errors (400 `validation_error`) name every field at fault in \
`details.fields`, with its path (`tags[2]`, `invitation.expiresInDays`). A 503 with `Retry-After` \
means the service cannot reach its database for a moment; nothing of the request was kept. The \
codes each operation can return are listed with its responses; every code is in this table:";

/// [`INFO`]'s rest, after the table of error codes.
const INFO_AFTER_ERRORS: &str = "\
**Lists.** Lists are newest first and paginated with opaque cursors: pass \
`pagination.nextCursor` as `cursor`, with the same filters, until it is `null`. `limit` is 1 to \
100, 25 by default.

**Data.** Identifiers are UUIDs; timestamps are RFC 3339 in UTC with microseconds; every member \
of a response object is always present (`null` when empty), and no other member appears.

**Webhooks.** Registered endpoints receive the events listed under `webhooks`, signed with \
`Talent-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of \"{t}.{raw body}\">` and with the \
Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), at least \
once, retried after 1, 5, 30 minutes and 2 hours. Each delivery names its event (`eventId`, the \
same on every retry, redelivery and replay: deduplicate on it) and the event's `sequence`. The \
events feed (`GET /api/v1/events`) holds the same events in commit order, each with its `id` \
(the deliveries' `eventId`) and the `sequence` to resume from.";

/// Every error code with its status and meaning, as a Markdown table: the domain's one
/// declaration of the codes (T170).
pub fn error_table() -> String {
    let mut t = String::from("| code | status | meaning |\n|---|---|---|");
    for c in Code::ALL {
        t.push_str(&format!("\n| `{}` | {} | {} |", c.as_str(), c.status(), c.description()));
    }
    t
}

// ---------------------------------------------------------------------------------------------
// Public text
// ---------------------------------------------------------------------------------------------

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).unwrap_or_else(|e| panic!("a fixed pattern: {e}")))
}

/// `text` without references to the decision log (`D36`, `T13`, `D17–D21`, `D46's`) and the
/// internal specification (`spec, Person`): a parenthesis holding only such references goes
/// with the space before it; one holding other words too keeps those words.
pub fn public_text(text: &str) -> String {
    static REF: OnceLock<Regex> = OnceLock::new();
    static LEAD: OnceLock<Regex> = OnceLock::new();
    static SPEC: OnceLock<Regex> = OnceLock::new();
    static EMPTY: OnceLock<Regex> = OnceLock::new();
    static SEP: OnceLock<Regex> = OnceLock::new();
    let one = r"[DT]\d+(?:\s*[–-]\s*[DT]?\d+)?";
    // "D46's 30 days" → "30 days"; "D2: half-open" → "half-open".
    let lead = re(&LEAD, &format!(r"\b{one}(?:'s\s+|:\s*)"));
    let s = lead.replace_all(text, "");
    // A reference with the separator before it: "(spec; D13" → "(spec", "(its id, D10)" → "(its id)".
    let sep = re(&SEP, &format!(r"\s*[,;]\s*{one}\b"));
    let s = sep.replace_all(&s, "");
    // One left at the start of a parenthesis, or alone: "(D38, rest)" → "(rest)", "(D38)" → "()".
    let r = re(&REF, &format!(r"\b{one}\b(?:\s*[,;]\s*)?"));
    let s = r.replace_all(&s, "");
    // "(spec, Person)", "(spec)", "(spec; …)": the internal specification.
    let spec = re(&SPEC, r"\s*\(spec(?:[,;][^()]*)?\)");
    let s = spec.replace_all(&s, "");
    let s = s.replace("(spec, ", "(").replace("(spec; ", "(");
    // What the references leave: "()", "( )", " ." and double spaces.
    let empty = re(&EMPTY, r"\s*\(\s*[,;]?\s*\)");
    let s = empty.replace_all(&s, "");
    s.replace(" .", ".").replace(" ,", ",").replace(" ;", ";").replace("  ", " ").replace("( ", "(")
}

/// [`public_text`] on every `description`, `summary` and `bearerFormat` of the document.
fn clean(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match (k.as_str(), x) {
                    ("description" | "summary" | "bearerFormat", Value::String(s)) => *s = public_text(s),
                    (_, x) => clean(x),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(clean),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Examples
// ---------------------------------------------------------------------------------------------

/// Adds `example` to each operation's JSON request body and success responses, unless one is
/// written already.
fn examples(doc: &mut Value) {
    let schemas = doc.pointer("/components/schemas").and_then(Value::as_object).cloned().unwrap_or_default();
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (_, op) in item.iter_mut() {
            let mut pointers = vec!["/requestBody/content/application~1json".to_string()];
            if let Some(responses) = op.get("responses").and_then(Value::as_object) {
                for status in responses.keys().filter(|s| s.starts_with('2')) {
                    pointers.push(format!("/responses/{status}/content/application~1json"));
                }
            }
            for p in pointers {
                if let Some(b) = op.pointer_mut(&p) {
                    if b.get("example").is_none() {
                        b["example"] = example_of(&b["schema"], &schemas, "", 0);
                    }
                }
            }
        }
    }
}

/// A realistic value of `schema` for a member named `name` (the name picks the value where the
/// type alone would not: an email for `email`, a plausible tag for `tags`).
pub fn example_of(schema: &Value, schemas: &Map<String, Value>, name: &str, depth: usize) -> Value {
    if depth > 12 {
        return Value::Null;
    }
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let target = r.rsplit('/').next().unwrap_or_default();
        return match schemas.get(target) {
            Some(s) => example_of(s, schemas, name, depth + 1),
            None => Value::Null,
        };
    }
    if let Some(v) = schema.get("example").or_else(|| schema.get("const")) {
        return v.clone();
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    for key in ["oneOf", "anyOf", "allOf"] {
        if let Some(first) = schema
            .get(key)
            .and_then(Value::as_array)
            .and_then(|e| e.iter().find(|s| s.get("type") != Some(&json!("null"))).or(e.first()))
        {
            return example_of(first, schemas, name, depth + 1);
        }
    }
    // A nullable member is shown null (as a new resource has it), but for the ones whose value
    // says more than their absence.
    let nullable = matches!(schema.get("type"), Some(Value::Array(t)) if t.contains(&json!("null")));
    let telling = ["firstName", "lastName", "externalId", "description", "message", "tags", "labels", "emailSentAt"];
    if nullable && !telling.contains(&name) {
        return Value::Null;
    }
    let ty = match schema.get("type") {
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).find(|t| *t != "null").unwrap_or("null"),
        Some(Value::String(t)) => t.as_str(),
        _ if schema.get("properties").is_some() => "object",
        _ => "null",
    };
    match ty {
        "object" => {
            let mut out = Map::new();
            if let Some(props) = schema.get("properties").and_then(Value::as_object) {
                for (k, s) in props {
                    out.insert(k.clone(), example_of(s, schemas, k, depth + 1));
                }
            }
            Value::Object(out)
        }
        "array" => {
            let item = example_of(schema.get("items").unwrap_or(&Value::Null), schemas, name, depth + 1);
            if item.is_null() {
                json!([])
            } else {
                json!([item])
            }
        }
        "string" => json!(string_example(name, schema)),
        "integer" => json!(integer_example(name, schema)),
        "number" => json!(schema.get("minimum").and_then(Value::as_f64).map_or(0.5, |m| m.max(0.5))),
        "boolean" => json!(matches!(name, "success" | "hasResults" | "enabled" | "sendEmail" | "create")),
        _ => Value::Null,
    }
}

fn string_example(name: &str, schema: &Value) -> String {
    let format = schema.get("format").and_then(Value::as_str).unwrap_or_default();
    match (name, format) {
        (_, "uuid") => "0193a5f2-7c41-7d3e-9a2b-5c6d7e8f9a0b".into(),
        ("expiresAt", "date-time") => "2026-12-09T09:30:00.000000Z".into(),
        (_, "date-time") => "2026-11-25T09:30:00.000000Z".into(),
        (_, "uri") | ("url", _) => "https://ats.example.com/talent-hooks".into(),
        ("email", _) | (_, "email") => "ada@example.com".into(),
        ("firstName", _) => "Ada".into(),
        ("lastName", _) => "Lovelace".into(),
        ("externalId", _) => "ats-42".into(),
        ("companyName", _) => "Acme".into(),
        ("tags" | "tag", _) => "engineering".into(),
        ("message", _) => "Welcome to the assessment!".into(),
        ("description", _) => "Engineers who lead projects".into(),
        ("name", _) => "Senior engineer".into(),
        ("plan", _) => "business".into(),
        ("mode", _) => "live".into(),
        ("secret", _) => "whsec_BpCKS6Kzw+rAL+ZqE43esYkxWpbYZSZa+ncViZgdJXg=".into(),
        ("nextCursor" | "cursor", _) => "AZOl8nxBfT6aK1xcbX6PmgZiLx4h9G1Vb8nFLqM0z1E".into(),
        ("error", _) => "Invalid value for 'email': must be a valid email address".into(),
        ("responseBody", _) => "ok".into(),
        ("apiVersion", _) => "v1".into(),
        ("locale", _) => "de".into(),
        ("timeZone", _) => "Europe/Berlin".into(),
        ("redirectUrl", _) => "https://careers.example.com/thanks".into(),
        ("redirectHosts", _) => "careers.example.com".into(),
        ("notes", _) => "Large print, please".into(),
        _ => "text".into(),
    }
}

fn integer_example(name: &str, schema: &Value) -> i64 {
    let min = schema.get("minimum").and_then(Value::as_i64).unwrap_or(0);
    let value = match name {
        "status" | "responseStatus" | "lastResponseStatus" => 200,
        "percentage" => 76,
        "limit" => 5000,
        "used" => 42,
        "attempts" => 1,
        "count" => 0,
        "durationMs" => 87,
        "sequence" | "lastSequence" => 1042,
        "index" => 0,
        "expiresInDays" => 14,
        _ => min.max(1),
    };
    value.max(min)
}

#[cfg(test)]
mod tests {
    use super::public_text;

    #[test]
    fn decision_and_spec_references_leave_the_text_and_the_words_stay() {
        for (internal, public) in [
            ("the same on every retry (D31).", "the same on every retry."),
            ("deduplicate on the delivery id (D30, D31).", "deduplicate on the delivery id."),
            (
                "its id (its membership id, D10). A non-UUID is 404 (T13).",
                "its id (its membership id). A non-UUID is 404.",
            ),
            ("A competency band (D2: half-open intervals).", "A competency band (half-open intervals)."),
            ("every event kept (D46's 30 days).", "every event kept (30 days)."),
            ("Every error code (spec, Errors; D37).", "Every error code."),
            ("`POST /persons` body (spec). Omitted", "`POST /persons` body. Omitted"),
            ("assessment invitations (D17–D21).", "assessment invitations."),
            ("An event of the feed (D48, T106): the", "An event of the feed: the"),
            ("(created or reactivated, D12); `invitation`", "(created or reactivated); `invitation`"),
            ("no reference here, 2026-11-25T09:30:00Z", "no reference here, 2026-11-25T09:30:00Z"),
        ] {
            assert_eq!(public_text(internal), public, "{internal}");
        }
    }
}
