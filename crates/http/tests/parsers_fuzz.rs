//! Fuzzing the parsers that take a client's bytes (issue 13, "Also"), without a server: JSON
//! bodies into the request types, query strings, cursors, `Authorization` key prefixes,
//! `Idempotency-Key` values, the domain's value types and date-times. Each must return an error
//! a client can read (a 4xx [`ApiError`]) or a value, never panic.
use actix_web::test::TestRequest;
use actix_web::ResponseError;
use proptest::prelude::*;
use talent_domain::values::{Email, ExternalId, PersonName, TagName};
use talent_http::body::{control_characters, parse_json, parse_query};
use talent_http::cursor::CursorCodec;
use talent_http::error::ApiError;
use talent_http::invitations::InvitationCreateIn;
use talent_http::person_in::{PersonImportIn, PersonPatchIn};

fn client_error(e: &ApiError) -> Result<(), TestCaseError> {
    let status = e.status_code().as_u16();
    prop_assert!((400..500).contains(&status), "{status}: {e}");
    prop_assert!(e.body()["code"].is_string());
    Ok(())
}

/// Bytes that look like JSON often enough to get past the first character.
fn jsonish() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200),
        "[{}\\[\\]\",:0-9a-zA-Z\\\\u ]{0,120}".prop_map(String::into_bytes),
        "\\{\"(email|firstName|tags|labels|message|externalId|invitation)\": ?(\"[^\"]{0,20}\"|\\[\\]|null|[0-9]{1,30}|\\{\\}|true)\\}"
            .prop_map(String::into_bytes),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn json_bodies_parse_or_fail_with_a_client_error(body in jsonish()) {
        let req = TestRequest::default().insert_header(("content-type", "application/json")).to_http_request();
        if let Err(e) = control_characters(&body) { client_error(&e)?; }
        if let Err(e) = parse_json::<PersonImportIn>(&req, &body) { client_error(&e)?; }
        if let Err(e) = parse_json::<PersonPatchIn>(&req, &body) { client_error(&e)?; }
        if let Err(e) = parse_json::<InvitationCreateIn>(&req, &body) { client_error(&e)?; }
        if let Err(e) = parse_json::<serde_json::Value>(&req, &body) { client_error(&e)?; }
    }

    #[test]
    fn query_strings_parse_or_fail_with_a_client_error(q in "([A-Za-z0-9=&%._~+!$'()*,;:@/?-]|%[0-9A-Fa-f]{2}){0,120}") {
        // What HTTP cannot carry in a request target never reaches the parser.
        let uri = format!("/api/v1/persons?{}", q.replace(' ', "%20").replace('#', "%23"));
        prop_assume!(uri.parse::<actix_web::http::Uri>().is_ok());
        let req = TestRequest::with_uri(&uri).to_http_request();
        if let Err(e) = parse_query(&req, &["q", "email", "tag", "cursor", "limit"]) { client_error(&e)?; }
    }

    #[test]
    fn cursors_decode_or_are_refused(c in "\\PC{0,120}", f in "[a-z=&]{0,20}") {
        let codec = CursorCodec::new(b"secret");
        prop_assert!(codec.decode(&c, &f).is_none() || codec.decode_bytes(&c, &f).is_some());
        if let Err(e) = codec.position(Some(&c), &f) { client_error(&e)?; }
    }

    /// D55: an address parses to one value whichever way its domain is spelled (Unicode, its
    /// ASCII form, upper case): the domain is stored in ASCII form, parsing is idempotent, and
    /// the Unicode spelling of the result parses back to it. Any text that parses at all parses
    /// to an address with an ASCII domain that parses to itself.
    #[test]
    fn an_address_is_one_value_in_every_spelling_of_its_domain_d55(
        local in "[a-z0-9][a-z0-9._+-]{0,15}",
        labels in prop::collection::vec("[a-zäöüßéçñøåłžčřšдлинаяß中文例え]{1,12}", 1..3),
        tld in "(de|com|example|xn--p1ai)",
        upper in any::<bool>(),
        raw in "\\PC{0,60}",
    ) {
        let domain = format!("{}.{tld}", labels.join("."));
        let spelled = if upper { format!("{local}@{domain}").to_uppercase() } else { format!("{local}@{domain}") };
        if let Ok(e) = Email::parse(&spelled) {
            prop_assert!(e.domain().is_ascii(), "{e}");
            prop_assert_eq!(Email::parse(e.as_str()), Ok(e.clone()), "idempotent");
            prop_assert_eq!(Email::parse(&e.unicode()), Ok(e.clone()), "the Unicode spelling is the same address");
            prop_assert_eq!(Email::parse(&e.as_str().to_uppercase()), Ok(e.clone()), "case");
            prop_assert_eq!(Email::from_stored(e.as_str()), Ok(e.clone()), "stored as parsed");
        }
        if let Ok(e) = Email::parse(&raw) {
            prop_assert!(e.domain().is_ascii(), "{e}");
            prop_assert_eq!(Email::parse(e.as_str()), Ok(e.clone()));
        }
    }

    #[test]
    fn header_values_and_text_values_never_panic(s in "\\PC{0,300}", raw in any::<String>()) {
        for v in [&s, &raw] {
            let _ = talent_domain::usecases::access::key_prefix(v);
            let _ = talent_domain::usecases::idempotency::valid_key(v);
            let _ = Email::parse(v);
            let _ = PersonName::parse(v);
            let _ = ExternalId::parse(v);
            let _ = TagName::parse(v);
            let _ = talent_domain::timefmt::parse(v);
            let _ = talent_domain::values::single_line(v);
        }
    }
}
