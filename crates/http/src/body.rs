//! Request bodies and query strings: strict parsing with field paths (D37). A body must carry
//! `Content-Type: application/json`, be at most 1 MiB (else 413 `payload_too_large`), parse as
//! JSON, and have no unknown fields; every failure is a `validation_error` naming the field.

use crate::error::ApiError;
use actix_web::{web, HttpRequest};
use serde::de::DeserializeOwned;
use talent_domain::errors::Code;
use talent_domain::values::FieldErrors;
use utoipa::IntoParams;
use validator::{ValidationErrors, ValidationErrorsKind};

/// Largest accepted body (D37).
pub const MAX_BODY: usize = 1 << 20;

/// Reads the raw body, at most [`MAX_BODY`] bytes. Errors: 413 `payload_too_large`.
pub async fn read_body(req: &HttpRequest, payload: web::Payload) -> Result<web::Bytes, ApiError> {
    let too_large = || ApiError::new(Code::PayloadTooLarge, "The request body exceeds 1 MiB");
    if let Some(len) = req
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
    {
        if len > MAX_BODY as u64 {
            return Err(too_large());
        }
    }
    // The outer error is the limit (a chunked body has no Content-Length to check first, T91),
    // the inner one the stream's.
    match payload.to_bytes_limited(MAX_BODY).await {
        Ok(Ok(b)) => Ok(b),
        Err(_) => Err(too_large()),
        Ok(Err(e)) => Err(ApiError::field(
            "body",
            match e.as_error::<actix_web::error::PayloadError>() {
                Some(actix_web::error::PayloadError::Io(io)) if io.kind() == std::io::ErrorKind::TimedOut => {
                    "was not received in time"
                }
                _ => "could not be read",
            },
        )),
    }
}

/// Converts `snake_case` to `camelCase` (validator reports Rust field names).
pub fn camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut up = false;
    for c in s.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `validator`'s errors of a whole body `v` into `errs`, each under its field's JSON name (D37).
pub fn check<T: validator::Validate>(v: &T, errs: &mut FieldErrors) {
    if let Err(e) = v.validate() {
        validation_fields(&e, "", errs);
    }
}

/// Flattens validator's errors into D37 field errors with camelCase paths.
pub fn validation_fields(errs: &ValidationErrors, prefix: &str, out: &mut FieldErrors) {
    for (field, kind) in errs.errors() {
        let path = if prefix.is_empty() { camel(field) } else { format!("{prefix}.{}", camel(field)) };
        match kind {
            ValidationErrorsKind::Field(list) => {
                for e in list {
                    let msg = e.message.as_ref().map(|m| m.to_string()).unwrap_or_else(|| describe(e));
                    out.push(path.clone(), msg);
                }
            }
            ValidationErrorsKind::Struct(inner) => validation_fields(inner, &path, out),
            ValidationErrorsKind::List(items) => {
                for (i, inner) in items {
                    validation_fields(inner, &format!("{path}[{i}]"), out);
                }
            }
        }
    }
}

fn describe(e: &validator::ValidationError) -> String {
    let p = |k: &str| e.params.get(k).map(|v| v.to_string());
    match e.code.as_ref() {
        "length" => match (p("min"), p("max")) {
            (Some(a), Some(b)) => format!("length must be {a} to {b}"),
            (None, Some(b)) => format!("must have at most {b} items"),
            (Some(a), None) => format!("length must be at least {a}"),
            _ => "invalid length".into(),
        },
        "range" => match (p("min"), p("max")) {
            (Some(a), Some(b)) => format!("must be between {a} and {b}"),
            _ => "out of range".into(),
        },
        other => format!("invalid ({other})"),
    }
}

/// Parses a JSON body into `T` (which should be `deny_unknown_fields`). Errors: 400
/// `validation_error` with the failing field's path.
pub fn parse_json<T: DeserializeOwned>(req: &HttpRequest, body: &[u8]) -> Result<T, ApiError> {
    let ct = req.headers().get(actix_web::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let essence = ct.split(';').next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("application/json") {
        return Err(ApiError::field("body", "Content-Type must be application/json"));
    }
    // First: an unknown field's error would echo its name, control characters included.
    control_characters(body)?;
    parse_object(body)
}

/// [`parse_json`] for a batch (D49): control characters inside the elements of the top-level
/// array `items` are left to each element's own parse (with [`control_characters`] and
/// [`parse_object`]), so they fail that element, not the request; everywhere else they fail the
/// request as in [`parse_json`].
pub fn parse_json_batch<T: DeserializeOwned>(req: &HttpRequest, body: &[u8], items: &str) -> Result<T, ApiError> {
    let ct = req.headers().get(actix_web::http::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let essence = ct.split(';').next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("application/json") {
        return Err(ApiError::field("body", "Content-Type must be application/json"));
    }
    control_characters_outside(body, Some(items))?;
    parse_object(body)
}

/// [`parse_json`] without the `Content-Type` check: one JSON object into `T`, strictly, with
/// the same field errors (D37). For the items of a batch (D49), each parsed as its own body.
pub fn parse_object<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(body);
    let parsed: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    let value = match parsed {
        Ok(v) => v,
        Err(e) => {
            let path = e.path().to_string();
            let inner = e.into_inner();
            if inner.is_syntax() || inner.is_eof() {
                return Err(ApiError::field("body", format!("Malformed JSON: {inner}")));
            }
            let msg = inner.to_string();
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            let named = msg.strip_prefix("unknown field `").or_else(|| msg.strip_prefix("missing field `"));
            let field = if let Some(rest) = named {
                let name = rest.split('`').next().unwrap_or("");
                if path == "." || path.is_empty() {
                    name.to_string()
                } else if path == name || path.ends_with(&format!(".{name}")) {
                    path
                } else {
                    format!("{path}.{name}")
                }
            } else if path == "." || path.is_empty() {
                "body".to_string()
            } else {
                path
            };
            let msg = if msg.starts_with("unknown field") {
                "unknown field".to_string()
            } else if msg.starts_with("missing field") {
                "is required".to_string()
            } else {
                msg
            };
            return Err(ApiError::field(&field, msg));
        }
    };
    // Trailing garbage after the JSON value.
    de.end().map_err(|e| ApiError::field("body", format!("Malformed JSON: {e}")))?;
    // serde also fills a struct from a JSON array, by position: a body must be an object.
    if body.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::field("body", "must be a JSON object"));
    }
    Ok(value)
}

/// T86: no string of a body (value or key) holds a control character other than tab and line
/// breaks ([`talent_domain::values::multi_line`]); one-line fields are held to more by their value
/// types. Errors: 400 `validation_error` naming the first such field (`tags[2]`, `body` for a key).
///
/// A JSON text can carry such a character only as an escape (`\u0000`–`\u001f`,
/// `\u007f`–`\u009f`, `\b`, `\f`), as a raw DEL (0x7F) or as a raw C1 control (UTF-8 `C2 80`–`C2 9F`),
/// so the body is scanned for those first and parsed again only when one is there.
pub fn control_characters(body: &[u8]) -> Result<(), ApiError> {
    control_characters_outside(body, None)
}

/// [`control_characters`], skipping the elements of the top-level array `items` when given.
fn control_characters_outside(body: &[u8], items: Option<&str>) -> Result<(), ApiError> {
    let suspicious = body.iter().enumerate().any(|(i, &b)| match b {
        b'\\' => match body.get(i + 1) {
            Some(b'b' | b'f') => true,
            // `\u00` followed by 0, 1 (C0), 7 (DEL among others), 8 or 9 (C1).
            Some(b'u') => body.get(i + 2..i + 5).is_some_and(|h| h[..2] == *b"00" && b"01789".contains(&h[2])),
            _ => false,
        },
        0x7F => true,
        0xC2 => body.get(i + 1).is_some_and(|n| (0x80..=0x9F).contains(n)),
        _ => false,
    });
    if !suspicious {
        return Ok(());
    }
    let Ok(mut v) = serde_json::from_slice::<serde_json::Value>(body) else { return Ok(()) };
    if let Some(serde_json::Value::Array(elements)) = items.and_then(|name| v.get_mut(name)) {
        elements.clear();
    }
    match first_control(&v, String::new()) {
        Some(path) => Err(ApiError::field(&path, talent_domain::values::NO_CONTROLS_BUT_BREAKS)),
        None => Ok(()),
    }
}

/// The path of the first string in `v` that [`talent_domain::values::multi_line`] refuses.
fn first_control(v: &serde_json::Value, path: String) -> Option<String> {
    use serde_json::Value;
    let bad = |s: &str| talent_domain::values::multi_line(s).is_err();
    match v {
        Value::String(s) if bad(s) => Some(if path.is_empty() { "body".into() } else { path }),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, x)| first_control(x, format!("{path}[{i}]"))),
        Value::Object(m) => m.iter().find_map(|(k, x)| {
            if bad(k) {
                return Some("body".to_string());
            }
            first_control(x, if path.is_empty() { k.clone() } else { format!("{path}.{k}") })
        }),
        _ => None,
    }
}

/// A validator rule for one-line text fields (T86): [`talent_domain::values::single_line`].
pub fn one_line(s: &str) -> Result<(), validator::ValidationError> {
    talent_domain::values::single_line(s).map_err(|m| {
        let mut e = validator::ValidationError::new("control_characters");
        e.message = Some(m.into());
        e
    })
}

/// Query parameters as ordered pairs. Errors: 400 for an unknown or repeated parameter (D36/D37),
/// or a value with a control character (T86).
pub fn parse_query(req: &HttpRequest, allowed: &[&str]) -> Result<Vec<(String, String)>, ApiError> {
    parse_query_repeating(req, allowed, &[])
}

/// The query pairs of an operation whose parameters are `T` (an `IntoParams` struct), the names in
/// `repeatable` allowed more than once (the events feed's `type`, D48). Errors: as [`parse_query`].
pub fn parse_query_of<T: IntoParams>(
    req: &HttpRequest,
    repeatable: &[&str],
) -> Result<Vec<(String, String)>, ApiError> {
    let names: Vec<String> = T::into_params(|| None).into_iter().map(|p| p.name).collect();
    let allowed: Vec<&str> = names.iter().map(String::as_str).collect();
    parse_query_repeating(req, &allowed, repeatable)
}

/// [`parse_query`] with the names in `repeatable` allowed more than once.
fn parse_query_repeating(
    req: &HttpRequest,
    allowed: &[&str],
    repeatable: &[&str],
) -> Result<Vec<(String, String)>, ApiError> {
    let pairs = web::Query::<Vec<(String, String)>>::from_query(req.query_string())
        .map_err(|_| ApiError::field("query", "malformed query string"))?
        .into_inner();
    let mut errs = FieldErrors::default();
    for (i, (k, v)) in pairs.iter().enumerate() {
        if !allowed.contains(&k.as_str()) {
            errs.push(k.clone(), format!("unknown query parameter; allowed: {}", allowed.join(", ")));
        } else if !repeatable.contains(&k.as_str()) && pairs[..i].iter().any(|(k2, _)| k2 == k) {
            errs.push(k.clone(), "must not be repeated");
        } else if let Err(m) = talent_domain::values::single_line(v) {
            // T86: `%00` in a filter would reach the database (PostgreSQL refuses NUL).
            errs.push(k.clone(), m);
        }
    }
    errs.into_result()?;
    Ok(pairs)
}

/// The query string parsed into `T`, the operation's documented query parameters (an
/// `IntoParams` struct whose fields are `Option<String>`, so every value is validated by the
/// handler with a field error of its own, D37; T105), and the pairs as sent (for a cursor's filter
/// key). Errors: as [`parse_query`], with `T`'s parameter names as the allowed ones.
pub fn parse_params<T: DeserializeOwned + IntoParams>(
    req: &HttpRequest,
) -> Result<(T, Vec<(String, String)>), ApiError> {
    let pairs = parse_query_of::<T>(req, &[])?;
    let params = web::Query::<T>::from_query(req.query_string())
        .map_err(|_| ApiError::field("query", "malformed query string"))?
        .into_inner();
    Ok((params, pairs))
}

/// `limit` of a list (D36): an integer from 1 to 100, default 25; out of range is a
/// `validation_error` on `limit` (never clamped).
pub fn page_limit(v: Option<&str>, errs: &mut FieldErrors) -> u32 {
    match v {
        None => 25,
        Some(v) => match v.parse::<u32>() {
            Ok(n) if (1..=100).contains(&n) => n,
            _ => {
                errs.push("limit", "must be an integer from 1 to 100");
                25
            }
        },
    }
}

/// Deserializes an optional JSON integer from 0 to `i64::MAX` the way JSON Schema counts integers:
/// `504` and `504.0` alike (a number with a zero fraction is an integer there); anything else is
/// an error naming the expected shape.
pub fn optional_count<'de, D: serde::Deserializer<'de>>(de: D) -> Result<Option<u64>, D::Error> {
    use serde::Deserialize;
    let Some(n) = Option::<serde_json::Number>::deserialize(de)? else { return Ok(None) };
    let v = match (n.as_u64(), n.as_f64()) {
        (Some(v), _) => Some(v),
        (None, Some(f)) if f.fract() == 0.0 && (0.0..=i64::MAX as f64).contains(&f) => Some(f as u64),
        _ => None,
    };
    match v {
        Some(v) if v <= i64::MAX as u64 => Ok(Some(v)),
        _ => Err(serde::de::Error::custom("must be an integer from 0")),
    }
}

/// Deserializes a field that may be absent (`None`), null (`Some(None)`) or a value.
pub fn double_option<'de, T, D>(de: D) -> Result<Option<Option<T>>, D::Error>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de>,
{
    use serde::Deserialize;
    Option::<T>::deserialize(de).map(Some)
}

/// 400 `validation_error` when the body gives `null` to one of `fields`, which are optional but not
/// nullable (PATCH bodies: absent means unchanged, and null would mean nothing; D37).
pub fn reject_nulls(body: &[u8], fields: &[&str]) -> Result<(), ApiError> {
    if let Ok(serde_json::Value::Object(m)) = serde_json::from_slice::<serde_json::Value>(body) {
        for f in fields {
            if m.get(*f).is_some_and(|v| v.is_null()) {
                return Err(ApiError::field(f, "must not be null"));
            }
        }
    }
    Ok(())
}

/// Deserializes an optional integer the way JSON Schema defines one: any number without a
/// fractional part, so `28.0` is 28 (the OpenAPI document says `integer`; issue 6). Other numbers
/// and non-numbers are errors.
pub fn whole_number<'de, D>(de: D) -> Result<Option<i64>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    use serde::Deserialize;
    let Some(n) = Option::<serde_json::Number>::deserialize(de)? else { return Ok(None) };
    if let Some(i) = n.as_i64() {
        return Ok(Some(i));
    }
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(Some(f as i64)),
        // Out of every valid range: the range check names the limits.
        Some(f) if f.fract() == 0.0 => Ok(Some(if f > 0.0 { i64::MAX } else { i64::MIN })),
        _ => Err(D::Error::custom(format!("invalid type: {n}, expected an integer"))),
    }
}

/// Deserializes a member that may be left out but, when given, is never `null` (the OpenAPI
/// document does not allow `null` for it): `null` is an error, as any other value of the wrong
/// type.
pub fn non_null<'de, D, T>(de: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(de).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// T86: the first string with a control character is named; escapes that only look like one,
    /// tabs and line breaks pass.
    #[test]
    fn control_characters_in_a_batchs_items_are_left_to_each_item() {
        let field = |body: &str| match control_characters_outside(body.as_bytes(), Some("persons")) {
            Ok(()) => None,
            Err(e) => Some(e.0.details.as_ref().map(|d| d["fields"][0]["field"].to_string()).unwrap_or_default()),
        };
        assert_eq!(field(r#"{"persons":[{"email":"a@b.c"},{"firstName":"x\u0000"}]}"#), None);
        assert_eq!(field(r#"{"persons":[],"x\u001b":1}"#), Some(r#""body""#.into()), "a top-level key");
        assert_eq!(field(r#"{"persons":"\u0000"}"#), Some(r#""persons""#.into()), "not an array: the request's");
    }

    #[test]
    fn control_characters_in_a_body_are_named_by_path() {
        let field = |body: &str| match control_characters(body.as_bytes()) {
            Ok(()) => None,
            Err(e) => Some(e.0.details.as_ref().map(|d| d["fields"][0]["field"].to_string()).unwrap_or_default()),
        };
        assert_eq!(field(r#"{"a":"x\u0000"}"#), Some(r#""a""#.into()));
        assert_eq!(field(r#"{"a":{"b":["ok","\u001b"]}}"#), Some(r#""a.b[1]""#.into()));
        assert_eq!(field(r#"{"a":"\b"}"#), Some(r#""a""#.into()));
        assert_eq!(field("{\"a\":\"\u{7f}\"}"), Some(r#""a""#.into()));
        assert_eq!(field("{\"a\":\"\u{85}\"}"), Some(r#""a""#.into()));
        assert_eq!(field(r#"{"k\u0001":1}"#), Some(r#""body""#.into()));
        assert_eq!(field(r#"{"a":"\\u0000 \u00e9 \t\n\r"}"#), None);
        assert_eq!(field(r#"{"a":"C:\\bin"}"#), None);
        assert_eq!(field("not json \\u0000"), None, "malformed JSON is reported by the parser");
    }

    #[test]
    fn a_body_must_be_an_object_naming_missing_fields() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct In {
            email: String,
            name: Option<String>,
        }
        let req = actix_web::test::TestRequest::default()
            .insert_header(("content-type", "application/json"))
            .to_http_request();
        let err = |b: &str| parse_json::<In>(&req, b.as_bytes()).unwrap_err().body()["details"]["fields"][0].clone();
        assert_eq!(err(r#"["a@b.co", null]"#)["field"], "body");
        assert_eq!(err(r#"{"name": "x"}"#), serde_json::json!({"field": "email", "message": "is required"}));
        assert!(parse_json::<In>(&req, br#" {"email": "a@b.co"}"#).is_ok());
    }

    #[test]
    fn camel_cases_field_names() {
        assert_eq!(camel("expires_in_days"), "expiresInDays");
        assert_eq!(camel("email"), "email");
    }
}
