//! The production sender against a receiver on loopback that counts the connections it accepts
//! (T324): an endpoint's lanes keep their connections between attempts.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use talent_domain::ports::{WebhookMessage, WebhookSender};
use talent_webhooks::UreqSender;
use time::OffsetDateTime;

/// A keep-alive HTTP/1.1 receiver: each connection on a thread of its own, every request answered
/// `200` after `delay` (so that a round's requests are in flight together). Returns its URL and
/// the number of connections accepted so far.
fn receiver(delay: Duration) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let count = accepted.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            count.fetch_add(1, Ordering::SeqCst);
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut stream = stream;
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if line == "\r\n" {
                            break;
                        }
                        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                            length = v.trim().parse().unwrap();
                        }
                    }
                    let mut body = vec![0; length];
                    reader.read_exact(&mut body).unwrap();
                    std::thread::sleep(delay);
                    if stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok").is_err() {
                        return;
                    }
                }
            });
        }
    });
    (url, accepted)
}

/// Eight requests at once to one receiver (an endpoint's lanes), in ten rounds: eight
/// connections in all, not the eight of the first round and five more in each later one (ureq
/// keeps three idle connections per host unless told otherwise).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoints_lanes_keep_their_connections_between_rounds_t324() {
    let (url, accepted) = receiver(Duration::from_millis(30));
    let sender = Arc::new(UreqSender::new(true, 8));
    let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    for round in 0..10 {
        let calls: Vec<_> = (0..8)
            .map(|i| {
                let (sender, url) = (sender.clone(), url.clone());
                tokio::spawn(async move {
                    let message = WebhookMessage {
                        delivery_id: format!("d{round}-{i}"),
                        event_id: format!("e{round}-{i}"),
                        body: r#"{"type":"ping"}"#.into(),
                    };
                    sender.send(&url, &[secret], "ping", &message, OffsetDateTime::now_utc()).await
                })
            })
            .collect();
        for c in calls {
            let outcome = c.await.unwrap();
            assert_eq!(outcome.status, Some(200), "{outcome:?}");
        }
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 8, "one connection per lane, kept for the next round");
}
