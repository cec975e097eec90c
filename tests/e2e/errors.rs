//! Protocol errors (spec, Errors; D37): bodies that are not JSON, wrong content types, unknown
//! fields, wrong types, oversized bodies, wrong methods and unknown paths, on the public and the
//! admin API, always in the flat envelope.
use crate::support::{Opts, Resp, TestApp};
use serde_json::{json, Value};

/// Asserts a D37 `validation_error` (400, details exactly `{"fields":[{"field","message"}...]}`,
/// each entry exactly those two non-empty strings) and returns the field names.
pub(crate) fn validation_fields(r: &Resp) -> Vec<String> {
    r.assert_error(400, "validation_error");
    let details = r.json["details"].as_object().unwrap_or_else(|| panic!("details object in {}", r.text));
    assert_eq!(details.keys().collect::<Vec<_>>(), ["fields"], "{}", r.text);
    let fields = details["fields"].as_array().unwrap_or_else(|| panic!("fields array in {}", r.text));
    assert!(!fields.is_empty(), "{}", r.text);
    fields
        .iter()
        .map(|f| {
            let o = f.as_object().unwrap_or_else(|| panic!("field entry object in {}", r.text));
            let mut k: Vec<&str> = o.keys().map(|s| s.as_str()).collect();
            k.sort_unstable();
            assert_eq!(k, ["field", "message"], "{}", r.text);
            assert!(o["message"].as_str().is_some_and(|m| !m.is_empty()), "{}", r.text);
            o["field"].as_str().filter(|s| !s.is_empty()).unwrap_or_else(|| panic!("{}", r.text)).to_string()
        })
        .collect()
}

/// `POST /api/v1/persons` with a raw body and the given content type (`None`: no header).
fn post_raw(app: &TestApp, path: &str, auth: &str, content_type: Option<&str>, body: &[u8]) -> Resp {
    let mut h: Vec<(&str, &str)> = vec![("Authorization", auth)];
    if let Some(ct) = content_type {
        h.push(("Content-Type", ct));
    }
    app.request("POST", path, &h, Some(body))
}

fn bearer(key: &str) -> String {
    format!("Bearer {key}")
}

fn persons_count(app: &TestApp, key: &str) -> usize {
    let l = app.get("/api/v1/persons", key);
    assert_eq!(l.status, 200, "{}", l.text);
    l.json["data"].as_array().unwrap().len()
}

fn assert_json_content_type(r: &Resp) {
    let ct = r.header("content-type").unwrap_or("");
    assert!(ct.starts_with("application/json"), "content-type {ct:?} of {}", r.text);
}

// D37: a body that is not JSON is a 400 validation_error.
crate::e2e!(a_body_that_is_not_json_is_a_validation_error, Default::default(), |app| {
    let org = app.org("business", "active");
    let auth = bearer(&org.key);
    for body in [
        &b"{\"email\": "[..],
        b"not json",
        b"",
        b"{\"email\": \"a@example.com\"} trailing",
        b"{\"email\": \"a@example.com\",}",
    ] {
        let r = post_raw(app, "/api/v1/persons", &auth, Some("application/json"), body);
        let fields = validation_fields(&r);
        assert_eq!(fields, ["body"], "{}", String::from_utf8_lossy(body));
        assert_json_content_type(&r);
    }
    assert_eq!(persons_count(app, &org.key), 0);
});

// D37: a body without `Content-Type: application/json` is a 400 validation_error, even when it is
// valid JSON; `application/json; charset=utf-8` is accepted.
crate::e2e!(a_body_without_the_json_content_type_is_a_validation_error, Default::default(), |app| {
    let org = app.org("business", "active");
    let auth = bearer(&org.key);
    let body = br#"{"email": "a@example.com"}"#;
    for ct in [Some("text/plain"), None, Some("application/x-www-form-urlencoded"), Some("application/jsonx")] {
        let r = post_raw(app, "/api/v1/persons", &auth, ct, body);
        let fields = validation_fields(&r);
        assert_eq!(fields, ["body"], "{ct:?}: {}", r.text);
    }
    assert_eq!(persons_count(app, &org.key), 0, "nothing was imported");
    let r = post_raw(app, "/api/v1/persons", &auth, Some("application/json; charset=utf-8"), body);
    assert_eq!(r.status, 201, "{}", r.text);
});

// D37: unknown body fields are rejected, naming the field (also inside nested objects).
crate::e2e!(an_unknown_body_field_is_rejected_and_named, Default::default(), |app| {
    let org = app.org("business", "active");
    let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"email": "a@example.com", "nickname": "Ada"}));
    assert_eq!(validation_fields(&r), ["nickname"]);
    let r = app.send(
        "POST",
        "/api/v1/persons",
        &org.key,
        &json!({"email": "a@example.com", "invitation": {"create": true, "sendEmail": false, "bogus": 1}}),
    );
    assert_eq!(validation_fields(&r), ["invitation.bogus"]);
    // PATCH too.
    let pid = app.import(&org.key, json!({"email": "a@example.com"}))["id"].as_str().unwrap().to_string();
    let r = app.send("PATCH", &format!("/api/v1/persons/{pid}"), &org.key, &json!({"email": "b@example.com"}));
    assert_eq!(validation_fields(&r), ["email"]);
    assert_eq!(persons_count(app, &org.key), 1);
});

// D37: a value of the wrong JSON type is a validation_error naming the field.
crate::e2e!(a_wrong_json_type_is_rejected_and_named, Default::default(), |app| {
    let org = app.org("business", "active");
    for (body, field) in [
        (json!({"email": 5}), "email"),
        (json!({"email": "a@example.com", "firstName": true}), "firstName"),
        (json!({"email": "a@example.com", "labels": "candidate"}), "labels"),
        (json!({"email": "a@example.com", "tags": ["ok", 7]}), "tags[1]"),
        (json!({"email": "a@example.com", "invitation": {"create": "yes", "sendEmail": false}}), "invitation.create"),
    ] {
        let r = app.send("POST", "/api/v1/persons", &org.key, &body);
        assert_eq!(validation_fields(&r), [field], "{body}");
    }
    assert_eq!(persons_count(app, &org.key), 0);
});

// D37: a missing required field is a validation_error naming it.
crate::e2e!(a_missing_required_field_is_rejected_and_named, Default::default(), |app| {
    let org = app.org("business", "active");
    let r = app.send("POST", "/api/v1/persons", &org.key, &json!({"firstName": "Ada"}));
    assert_eq!(validation_fields(&r), ["email"]);
    assert_eq!(r.json["details"]["fields"][0]["message"], "is required");
    let r = app.send(
        "POST",
        "/api/v1/persons",
        &org.key,
        &json!({"email": "a@example.com", "invitation": {"sendEmail": false}}),
    );
    assert_eq!(validation_fields(&r), ["invitation.create"]);
    let r = app.admin("POST", "/admin/v1/organizations", Some(&json!({"companyName": "A", "email": "a@example.com"})));
    assert_eq!(validation_fields(&r), ["plan"]);
    assert_eq!(persons_count(app, &org.key), 0);
});

// Spec ("Request bodies use Content-Type: application/json", field tables); D37: a body is a JSON
// object. Other JSON values are refused, including an array that lists the fields by position.
crate::e2e!(a_json_body_that_is_not_an_object_is_a_validation_error, Default::default(), |app| {
    let org = app.org("business", "active");
    let auth = bearer(&org.key);
    for body in
        [r#"["a@example.com", null, null, null, null, null, null]"#, r#"["a@example.com"]"#, "null", "5", r#""a""#]
    {
        let r = post_raw(app, "/api/v1/persons", &auth, Some("application/json"), body.as_bytes());
        assert_eq!(validation_fields(&r), ["body"], "{body}");
    }
    assert_eq!(persons_count(app, &org.key), 0, "nothing was imported");
    let admin = bearer(&app.admin_token);
    let r = post_raw(
        app,
        "/admin/v1/organizations",
        &admin,
        Some("application/json"),
        br#"["Acme", "a@example.com", "business", null, null, null, null]"#,
    );
    assert_eq!(validation_fields(&r), ["body"]);
});

// D37: `details` is {"fields":[{"field","message"}]} with paths such as `tags[3]`, one entry per
// invalid value.
crate::e2e!(validation_error_details_list_every_invalid_field_with_its_path, Default::default(), |app| {
    let org = app.org("business", "active");
    let r = app.send(
        "POST",
        "/api/v1/persons",
        &org.key,
        &json!({"email": "not-an-email", "tags": ["a", "b", "c", ""], "labels": ["candidate", "boss"]}),
    );
    let mut fields = validation_fields(&r);
    fields.sort();
    assert_eq!(fields, ["email", "labels[1]", "tags[3]"], "{}", r.text);
    let r = app.get("/api/v1/persons?limit=0", &org.key);
    assert_eq!(validation_fields(&r), ["limit"]);
});

// D37: bodies over 1 MiB give 413 payload_too_large; exactly 1 MiB is read (and validated).
crate::e2e!(a_body_over_one_mebibyte_is_413_payload_too_large, Default::default(), |app| {
    let org = app.org("business", "active");
    let auth = bearer(&org.key);
    let body_of = |len: usize| {
        let head = r#"{"email": "a@example.com", "externalId": ""#;
        let tail = r#""}"#;
        let mut b = head.as_bytes().to_vec();
        b.resize(len - tail.len(), b'x');
        b.extend_from_slice(tail.as_bytes());
        assert_eq!(b.len(), len);
        assert!(serde_json::from_slice::<Value>(&b).is_ok());
        b
    };
    let mib = 1 << 20;
    let r = post_raw(app, "/api/v1/persons", &auth, Some("application/json"), &body_of(mib + 1));
    r.assert_error(413, "payload_too_large");
    let r = post_raw(app, "/api/v1/persons", &auth, Some("application/json"), &body_of(4 * mib));
    r.assert_error(413, "payload_too_large");
    // Exactly 1 MiB is accepted as a body and fails validation instead (externalId is too long).
    let r = post_raw(app, "/api/v1/persons", &auth, Some("application/json"), &body_of(mib));
    assert_eq!(validation_fields(&r), ["externalId"]);
    // PATCH and the admin API have the same limit.
    let pid = app.import(&org.key, json!({"email": "b@example.com"}))["id"].as_str().unwrap().to_string();
    let r = app.request(
        "PATCH",
        &format!("/api/v1/persons/{pid}"),
        &[("Authorization", &auth), ("Content-Type", "application/json")],
        Some(&body_of(mib + 1)),
    );
    r.assert_error(413, "payload_too_large");
    let admin = bearer(&app.admin_token);
    let r = post_raw(app, "/admin/v1/organizations", &admin, Some("application/json"), &body_of(mib + 1));
    r.assert_error(413, "payload_too_large");
    assert_eq!(persons_count(app, &org.key), 1);
});

// D37: a known path with a wrong method gives 405 method_not_allowed, with the `Allow` header
// RFC 9110 requires (found by schemathesis, issue 6).
crate::e2e!(a_wrong_method_on_a_known_path_is_405_method_not_allowed, Default::default(), |app| {
    let org = app.org("business", "active");
    let auth = bearer(&org.key);
    let pid = uuid::Uuid::new_v4();
    for (method, path, allow) in [
        ("PUT", "/api/v1/persons".to_string(), "GET, POST"),
        ("DELETE", "/api/v1/persons".to_string(), "GET, POST"),
        ("PATCH", "/api/v1/persons".to_string(), "GET, POST"),
        ("POST", "/api/v1/me".to_string(), "GET"),
        ("DELETE", "/api/v1/organization".to_string(), "GET"),
        ("PUT", format!("/api/v1/persons/{pid}"), "GET, PATCH, DELETE"),
        ("POST", format!("/api/v1/persons/{pid}"), "GET, PATCH, DELETE"),
        ("TRACE", format!("/api/v1/invitations/{pid}/revoke"), "POST"),
        ("GET", format!("/api/v1/webhooks/{pid}/test"), "POST"),
    ] {
        let r =
            app.request(method, &path, &[("Authorization", &auth), ("Content-Type", "application/json")], Some(b"{}"));
        r.assert_error(405, "method_not_allowed");
        assert_json_content_type(&r);
        assert_eq!(r.header("allow"), Some(allow), "{method} {path}");
    }
    let r = app.request("POST", "/healthz", &[], None);
    r.assert_error(405, "method_not_allowed");
    assert_eq!(r.header("allow"), Some("GET"));
});

// An integer field takes any JSON number without a fractional part, as JSON Schema and the
// OpenAPI document define `integer` (issue 6; found by schemathesis): 28.0 is 28, 28.5 is a 400.
crate::e2e!(integer_fields_accept_whole_numbers_written_with_a_fraction, Default::default(), |app| {
    let org = app.org("business", "active");
    let r = app.send(
        "POST",
        "/api/v1/invitations",
        &org.key,
        &json!({"email": "a@example.com", "sendEmail": false, "expiresInDays": 28.0}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
    let r = app.send(
        "POST",
        "/api/v1/invitations",
        &org.key,
        &json!({"email": "b@example.com", "sendEmail": false, "expiresInDays": 28.5}),
    );
    r.assert_error(400, "validation_error");
    assert_eq!(r.json["details"]["fields"][0]["field"], "expiresInDays");
    let r = app.send(
        "POST",
        "/api/v1/invitations",
        &org.key,
        &json!({"email": "c@example.com", "sendEmail": false, "expiresInDays": 1e300}),
    );
    r.assert_error(400, "validation_error");
    let r = app.send(
        "POST",
        "/api/v1/persons",
        &org.key,
        &json!({"email": "d@example.com", "invitation": {"create": true, "sendEmail": false, "expiresInDays": 3.0}}),
    );
    assert_eq!(r.status, 201, "{}", r.text);
});

// PATCH /webhooks/{id}: `url`, `events` and `enabled` are optional but not nullable (issue 6).
crate::e2e!(null_for_a_non_nullable_webhook_patch_field_is_400, Default::default(), |app| {
    let org = app.org("business", "active");
    let missing = format!("/api/v1/webhooks/{}", uuid::Uuid::new_v4());
    for field in ["url", "events", "enabled"] {
        let r = app.send("PATCH", &missing, &org.key, &json!({ field: null }));
        r.assert_error(400, "validation_error");
        assert_eq!(r.json["details"]["fields"][0]["field"], field);
    }
});

// D37: an unknown path gives 404 not_found, inside and outside `/api/v1`.
crate::e2e!(an_unknown_path_is_404_not_found, Default::default(), |app| {
    let org = app.org("business", "active");
    for path in ["/api/v1/nope", "/api/v1/persons/a/b/c", "/api/v2/persons", "/nope", "/"] {
        let r = app.get(path, &org.key);
        r.assert_error(404, "not_found");
        assert_json_content_type(&r);
    }
    let r = app.request("GET", "/nope", &[], None);
    r.assert_error(404, "not_found");
    // A person id that is not a UUID cannot name a person.
    app.get("/api/v1/persons/not-a-uuid", &org.key).assert_error(404, "not_found");
    app.get(&format!("/api/v1/persons/{}", uuid::Uuid::new_v4()), &org.key).assert_error(404, "not_found");
});

// D39: the admin API uses the same envelope and the same D37 rules.
crate::e2e!(the_admin_api_uses_the_same_error_envelope, Default::default(), |app| {
    let admin = bearer(&app.admin_token);
    let r = post_raw(app, "/admin/v1/organizations", &admin, Some("application/json"), b"{oops");
    assert_eq!(validation_fields(&r), ["body"]);
    let r = post_raw(
        app,
        "/admin/v1/organizations",
        &admin,
        Some("text/plain"),
        br#"{"companyName": "A", "email": "a@example.com", "plan": "business"}"#,
    );
    assert_eq!(validation_fields(&r), ["body"]);
    let r = app.admin(
        "POST",
        "/admin/v1/organizations",
        Some(&json!({"companyName": "A", "email": "a@example.com", "plan": "business", "color": "red"})),
    );
    assert_eq!(validation_fields(&r), ["color"]);
    let r = app.admin(
        "POST",
        "/admin/v1/organizations",
        Some(&json!({"companyName": 1, "email": "a@example.com", "plan": "business"})),
    );
    assert_eq!(validation_fields(&r), ["companyName"]);
    let r = app.admin("GET", "/admin/v1/nope", None);
    r.assert_error(404, "not_found");
    let r = app.admin("PUT", "/admin/v1/organizations", Some(&json!({})));
    r.assert_error(405, "method_not_allowed");
    let r = app.admin("GET", &format!("/admin/v1/organizations/{}", uuid::Uuid::new_v4()), None);
    r.assert_error(404, "not_found");
    app.request("GET", "/admin/v1/nope", &[], None).assert_error(401, "unauthorized");
});

/// Sends `bytes` on a new connection and reads the answer until the service closes it or 3 s
/// pass: (status, lower-cased headers, body).
pub(crate) fn raw(app: &TestApp, bytes: &[u8]) -> (u16, Vec<(String, String)>, Value) {
    use std::io::{Read, Write};
    let addr = app.base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(std::time::Duration::from_secs(3))).unwrap();
    let _ = s.write_all(bytes);
    let mut data = Vec::new();
    let _ = s.read_to_end(&mut data);
    let text = String::from_utf8_lossy(&data).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no answer to {:?}: {text:?}", &bytes[..bytes.len().min(60)]));
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|c| c.parse().ok()).unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    (status, headers, serde_json::from_str(body).unwrap_or(Value::Null))
}

// Issue 16: every 4xx, a request that is not even valid HTTP/1.1 included, has the error envelope
// and the rate-limit headers of the client address's budget (D8): a URL with characters it must
// percent-encode (as `cursor=<pagination.nextCursor>` pasted from a text), a garbage request line,
// a header without a colon, an unknown version, a bad Content-Length, a control character in the
// path, a head over the size limit, an unknown path, a method a resource does not have.
crate::e2e!(
    every_4xx_even_of_a_malformed_request_has_the_envelope_and_the_rate_limit_headers_t116,
    Opts { rate_limit_mode: "per-key", ..Default::default() },
    |app| {
        let big = format!("GET /api/v1/me HTTP/1.1\r\nHost: a\r\nX-Big: {}\r\n\r\n", "a".repeat(200_000));
        let cases: Vec<(Vec<u8>, u16, &str)> = vec![
            (
                b"GET /api/v1/persons?limit=5&cursor=<pagination.nextCursor> HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(),
                400,
                "validation_error",
            ),
            (b"GARBAGE\r\n\r\n".to_vec(), 400, "validation_error"),
            (b"GET /api/v1/me HTTP/1.1\r\nHost: a\r\nNoColonHere\r\n\r\n".to_vec(), 400, "validation_error"),
            (b"GET /api/v1/me HTTP/9.9\r\nHost: a\r\n\r\n".to_vec(), 400, "validation_error"),
            (
                b"POST /api/v1/persons HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n".to_vec(),
                400,
                "validation_error",
            ),
            (b"GET /api\x01/v1/me HTTP/1.1\r\nHost: a\r\n\r\n".to_vec(), 400, "validation_error"),
            (big.into_bytes(), 400, "validation_error"),
            (b"GET /no/such/path HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".to_vec(), 404, "not_found"),
            (b"DELETE /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".to_vec(), 405, "method_not_allowed"),
            (
                b"PUT /api/v1/persons HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
                401,
                "unauthorized",
            ),
        ];
        for (bytes, status, code) in cases {
            let what = String::from_utf8_lossy(&bytes[..bytes.len().min(50)]).to_string();
            let (got, headers, body) = raw(app, &bytes);
            assert_eq!(got, status, "{what}: {body}");
            assert_eq!(body["code"], code, "{what}: {body}");
            assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{what}: {body}");
            let header = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
            assert_eq!(header("content-type"), Some("application/json"), "{what}");
            for h in ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"] {
                assert!(header(h).is_some_and(|v| v.parse::<u64>().is_ok()), "{what}: {h} in {headers:?}");
            }
            if status == 400 {
                assert_eq!(body["details"]["fields"][0]["field"], "request", "{what}: {body}");
            }
        }
        // A valid request on a connection still gets its ordinary answer.
        let (status, _, body) = raw(app, b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
        assert_eq!((status, body["status"].as_str()), (200, Some("ok")), "{body}");
    }
);
