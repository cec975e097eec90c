//! The client's retry, idempotency and error handling against a scripted HTTP server on loopback.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use talent_client::models::ImportPerson;
use talent_client::{Client, Error, RetryPolicy};

/// One request as the server saw it: request line and lower-case headers.
#[derive(Debug, Clone)]
struct Seen {
    line: String,
    headers: Vec<(String, String)>,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Serves `replies` (status, extra headers, body) in order, one per connection.
fn server(replies: Vec<(u16, &'static str, &'static str)>) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for (status, extra, body) in replies {
            let Ok((mut s, _)) = l.accept() else { return };
            let mut r = BufReader::new(s.try_clone().unwrap());
            let mut line = String::new();
            r.read_line(&mut line).unwrap();
            let mut headers = Vec::new();
            let mut len = 0usize;
            loop {
                let mut h = String::new();
                r.read_line(&mut h).unwrap();
                let h = h.trim_end();
                if h.is_empty() {
                    break;
                }
                let (k, v) = h.split_once(':').unwrap();
                let (k, v) = (k.trim().to_ascii_lowercase(), v.trim().to_string());
                if k == "content-length" {
                    len = v.parse().unwrap();
                }
                headers.push((k, v));
            }
            let mut b = vec![0; len];
            r.read_exact(&mut b).unwrap();
            log.lock().unwrap().push(Seen { line: line.trim_end().to_string(), headers });
            let resp = format!(
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n{extra}\r\n{body}",
                body.len()
            );
            s.write_all(resp.as_bytes()).unwrap();
        }
    });
    (base, seen)
}

const PERSON: &str = r#"{"id":"01a20352-29a2-75c8-8d7c-3dfd8be16fc5","email":"a@example.com","firstName":null,"lastName":null,"externalId":null,"status":"active","labels":["candidate"],"tags":[],"joinedVia":"api","sharedExistingProfile":false,"assessment":{"status":"not_started","completedAt":null,"count":0},"memberSince":"2026-11-22T12:00:00Z","updatedAt":"2026-11-22T12:00:00Z","archivedAt":null,"invitation":null}"#;
const LIMITED: &str = r#"{"error":"Rate limit exceeded","code":"rate_limited"}"#;

fn body() -> ImportPerson {
    ImportPerson { email: "a@example.com".into(), ..Default::default() }
}

#[test]
fn a_429_is_retried_after_retry_after_with_the_same_idempotency_key() {
    let (base, seen) = server(vec![(429, "retry-after: 1\r\n", LIMITED), (503, "", "{}"), (201, "", PERSON)]);
    let api = Client::new(&base, "tk_test");
    let start = Instant::now();
    let p = api.import_person(&body(), None).unwrap();
    assert!(start.elapsed() >= Duration::from_secs(1), "waited for Retry-After");
    assert!(p.created && !p.replayed);
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 3);
    let key = seen[0].header("idempotency-key").expect("a generated key").to_string();
    assert!(seen.iter().all(|s| s.header("idempotency-key") == Some(key.as_str())), "one key for the call");
    assert_eq!(seen[0].header("authorization"), Some("Bearer tk_test"));
    assert_eq!(seen[0].line, "POST /api/v1/persons HTTP/1.1");
}

#[test]
fn retries_end_with_the_api_error_and_its_retry_after() {
    let (base, seen) = server(vec![(429, "retry-after: 7\r\n", LIMITED); 3]);
    let api =
        Client::new(&base, "tk_test").retry_policy(RetryPolicy { max_retries: 2, max_wait: Duration::from_millis(10) });
    let e = api.me().unwrap_err();
    match e {
        Error::Api { status, ref code, retry_after, .. } => {
            assert_eq!((status, code.as_str(), retry_after), (429, "rate_limited", Some(7)));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(seen.lock().unwrap().len(), 3, "the first attempt and two retries");
}

#[test]
fn a_callers_key_is_sent_and_existing_and_replayed_answers_are_told_apart() {
    let (base, seen) =
        server(vec![(200, "x-existing-resource: true\r\nidempotency-replayed: true\r\n", PERSON), (409, "", "{}")]);
    let api = Client::new(&base, "tk_test");
    let p = api.import_person(&body(), Some("sync-42")).unwrap();
    assert!(!p.created && p.replayed);
    assert_eq!(seen.lock().unwrap()[0].header("idempotency-key"), Some("sync-42"));
    // An answer that is not an envelope still becomes an Api error with its status.
    assert_eq!(api.me().unwrap_err().status(), Some(409));
}

#[test]
fn errors_carry_the_envelope_and_bad_bodies_are_decode_errors() {
    let (base, _) = server(vec![
        (409, "", r#"{"error":"Limit","code":"person_limit_reached","details":{"used":5,"limit":5,"plan":"starter"}}"#),
        (200, "", r#"{"unexpected":true}"#),
    ]);
    let api = Client::new(&base, "tk_test");
    let e = api.import_person(&body(), None).unwrap_err();
    assert_eq!(e.code(), Some("person_limit_reached"));
    let Error::Api { details, .. } = e else { panic!() };
    assert_eq!(details.unwrap()["limit"], 5);
    assert!(matches!(api.me().unwrap_err(), Error::Decode { status: 200, .. }));
}

#[test]
fn a_refused_connection_is_a_transport_error_after_the_retries() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", l.local_addr().unwrap());
    drop(l);
    let api =
        Client::new(&base, "tk_test").retry_policy(RetryPolicy { max_retries: 1, max_wait: Duration::from_millis(1) });
    assert!(matches!(api.me(), Err(Error::Transport(_))));
}

#[test]
fn the_key_never_appears_in_debug_output() {
    let api = Client::new("http://127.0.0.1:1", "tk_secret_value");
    assert!(!format!("{api:?}").contains("tk_secret_value"));
}
