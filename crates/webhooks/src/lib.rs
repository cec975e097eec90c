//! Talent's webhook sender (D30-D35). Receivers verify with `talent_client::webhooks::verify`.
//!
//! - Signature (D30): `Talent-Signature: t=<unix>,v1=<hex>` where `v1` is the lowercase hex
//!   HMAC-SHA256, keyed with the whole secret string (`whsec_...`), of `"{t}.{raw body}"`. During a
//!   secret rotation the header carries one `v1=` per signing secret.
//! - Transport (D31): POST with `Talent-Event` and `Talent-Delivery-Id`, 10 s timeout in all, of
//!   which at most 2 s to connect (T60: a dead host frees its lane fast), redirects never followed
//!   (a 3xx is a failure), only 2xx succeeds. ureq is blocking: requests run on tokio's blocking
//!   pool behind a semaphore, never on the async workers.
//! - The delivery engine ([`engine`]): many attempts in flight, fair between endpoints and
//!   organizations, woken by commits (T60).
//! - SSRF (D35): https only, and no loopback, private, link-local, CGNAT, unique-local, multicast,
//!   unspecified, broadcast or IPv4-mapped/compatible forms of those, checked on the *resolved*
//!   addresses inside ureq's resolver, i.e. at connect time (no DNS rebinding window). The
//!   `TALENT_WEBHOOKS_ALLOW_INSECURE=1` switch allows http and local addresses.

pub mod engine;

use ring::hmac;
use std::io::Read;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use talent_domain::ports::{BoxFuture, SendResult, WebhookSender};
use talent_domain::webhook::AttemptOutcome;
use time::OffsetDateTime;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};

/// `v1` of one secret: hex HMAC-SHA256 of `"{t}.{body}"` (D30).
pub fn sign(secret: &str, t: i64, body: &[u8]) -> String {
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    let mut ctx = hmac::Context::with_key(&key);
    ctx.update(t.to_string().as_bytes());
    ctx.update(b".");
    ctx.update(body);
    hex::encode(ctx.sign().as_ref())
}

/// The `Talent-Signature` header value for every secret.
pub fn signature_header(secrets: &[&str], t: i64, body: &[u8]) -> String {
    let mut h = format!("t={t}");
    for s in secrets {
        h.push_str(",v1=");
        h.push_str(&sign(s, t, body));
    }
    h
}

/// D35: destinations a webhook may never reach (unless insecure mode).
pub fn is_forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1])) // CGNAT 100.64.0.0/10
                || (o[0] == 192 && o[1] == 0 && o[2] == 0) // IETF protocol assignments
                || o[0] >= 240 // reserved
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_forbidden(IpAddr::V4(v4));
            }
            let seg = v6.segments();
            if seg[0..6] == [0, 0, 0, 0, 0, 0] && !v6.is_loopback() && !v6.is_unspecified() {
                // IPv4-compatible ::a.b.c.d
                let o = v6.octets();
                return is_forbidden(IpAddr::V4(std::net::Ipv4Addr::new(o[12], o[13], o[14], o[15])));
            }
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (seg[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
                || (seg[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
                || (seg[0] == 0x2001 && seg[1] == 0x0db8) // documentation
                || (seg[0] == 0x0064 && seg[1] == 0xff9b) // NAT64 to anything: refuse
        }
    }
}

/// A resolver that drops forbidden addresses after resolving (connect-time check, D35).
#[derive(Debug)]
struct FilteringResolver {
    inner: DefaultResolver,
}

impl Resolver for FilteringResolver {
    fn resolve(&self, uri: &Uri, config: &Config, timeout: NextTimeout) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let all = self.inner.resolve(uri, config, timeout)?;
        let mut out = self.empty();
        out.truncate(0);
        for a in all.iter().filter(|a| !is_forbidden(a.ip())) {
            out.push(*a);
        }
        if out.is_empty() {
            return Err(ureq::Error::HostNotFound);
        }
        Ok(out)
    }
}

/// Checks a URL's shape at registration (D35): https (or http when insecure), a host, and no
/// forbidden literal address. Errors: the reason, for `details`.
pub fn check_url(url: &str, allow_insecure: bool) -> Result<(), String> {
    let uri: Uri = url.parse().map_err(|_| "must be an absolute URL".to_string())?;
    match uri.scheme_str() {
        Some("https") => {}
        Some("http") if allow_insecure => {}
        _ => return Err("must be an https URL".into()),
    }
    let host = uri.host().ok_or_else(|| "must have a host".to_string())?;
    if url.len() > 2048 {
        return Err("must be at most 2048 characters".into());
    }
    if !allow_insecure {
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        if let Ok(ip) = bare.parse::<IpAddr>() {
            if is_forbidden(ip) {
                return Err("must not point to a loopback, private, link-local or multicast address".into());
            }
        }
        if host.eq_ignore_ascii_case("localhost") || host.to_ascii_lowercase().ends_with(".localhost") {
            return Err("must not point to localhost".into());
        }
    }
    Ok(())
}

/// Longest wait for a TCP (and TLS) connection to a receiver (T60); the whole attempt has 10 s.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// Requests beyond the engine's lanes that may be in flight at once: the synchronous test pings
/// (D33), so a `POST /webhooks/{id}/test` never waits behind the delivery backlog (T60).
pub const PING_LANES: usize = 16;

/// The production sender.
#[derive(Clone)]
pub struct UreqSender {
    agent: ureq::Agent,
    allow_insecure: bool,
    permits: Arc<tokio::sync::Semaphore>,
}

impl std::fmt::Debug for UreqSender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UreqSender").field("allow_insecure", &self.allow_insecure).finish_non_exhaustive()
    }
}

impl UreqSender {
    /// A sender with at most `engine_lanes` + [`PING_LANES`] requests in flight: the engine never
    /// has more than its lanes in flight, so the rest is always free for test pings.
    pub fn new(allow_insecure: bool, engine_lanes: usize) -> Self {
        let concurrency = engine_lanes + PING_LANES;
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            // Never through a proxy from the environment: the SSRF filter must see the target.
            .proxy(None)
            .timeout_global(Some(Duration::from_secs(10)))
            .timeout_connect(Some(CONNECT_TIMEOUT))
            .user_agent("Talent-Webhooks/1")
            .build();
        let agent = if allow_insecure {
            ureq::Agent::new_with_config(config)
        } else {
            ureq::Agent::with_parts(
                config,
                DefaultConnector::new(),
                FilteringResolver { inner: DefaultResolver::default() },
            )
        };
        UreqSender { agent, allow_insecure, permits: Arc::new(tokio::sync::Semaphore::new(concurrency.max(1))) }
    }
}

/// Returns the outcome and its kind for `talent_webhook_attempts_total` (issue 17).
fn post(
    agent: &ureq::Agent,
    url: &str,
    sig: &str,
    delivery_id: &str,
    event: &str,
    body: &str,
) -> (AttemptOutcome, &'static str) {
    let start = Instant::now();
    let res = agent
        .post(url)
        .header("Content-Type", "application/json")
        .header("Talent-Signature", sig)
        .header("Talent-Event", event)
        .header("Talent-Delivery-Id", delivery_id)
        .send(body);
    let duration_ms = start.elapsed().as_millis() as u64;
    match res {
        Ok(mut r) => {
            let status = r.status().as_u16();
            let mut buf = Vec::new();
            let _ = r.body_mut().as_reader().take(1024).read_to_end(&mut buf);
            let text = String::from_utf8_lossy(&buf).into_owned();
            let ok = (200..300).contains(&status);
            let kind = match status {
                200..=299 => "2xx",
                300..=399 => "3xx",
                400..=499 => "4xx",
                _ => "5xx",
            };
            let outcome = AttemptOutcome {
                status: Some(status),
                duration_ms,
                error: if ok { None } else { Some(format!("non-2xx status {status}")) },
                response_body: Some(text),
            };
            (outcome, kind)
        }
        Err(e) => {
            let (msg, kind) = match e {
                ureq::Error::HostNotFound => {
                    ("host not found, or it resolves only to forbidden addresses (D35)".to_string(), "blocked")
                }
                ureq::Error::Timeout(ureq::Timeout::Connect) => {
                    ("could not connect within 2 s".to_string(), "connect_error")
                }
                ureq::Error::Timeout(_) => ("timed out after 10 s".to_string(), "timeout"),
                e @ (ureq::Error::ConnectionFailed | ureq::Error::Io(_)) => (e.to_string(), "connect_error"),
                other => (other.to_string(), "other"),
            };
            (AttemptOutcome { status: None, duration_ms, error: Some(msg), response_body: None }, kind)
        }
    }
}

impl WebhookSender for UreqSender {
    fn send<'a>(
        &'a self,
        url: &'a str,
        secrets: &'a [&'a str],
        delivery_id: &'a str,
        event_type: &'a str,
        body: &'a str,
        _now: OffsetDateTime,
    ) -> BoxFuture<'a, SendResult> {
        // `t` is stamped from the real clock, not the service clock: receivers check it against
        // their own time (spec, Signature step 3), and the sandbox clock (D39) may run days ahead.
        let sig = signature_header(secrets, OffsetDateTime::now_utc().unix_timestamp(), body.as_bytes());
        let agent = self.agent.clone();
        let (url, delivery_id, event_type, body) =
            (url.to_string(), delivery_id.to_string(), event_type.to_string(), body.to_string());
        let permits = self.permits.clone();
        let refused = check_url(&url, self.allow_insecure).err();
        Box::pin(async move {
            if let Some(m) = refused {
                metrics::counter!("talent_webhook_attempts_total", "outcome" => "blocked").increment(1);
                return AttemptOutcome {
                    status: None,
                    duration_ms: 0,
                    error: Some(format!("URL refused: {m}")),
                    response_body: None,
                };
            }
            let _permit = permits.acquire_owned().await;
            let (outcome, kind) =
                tokio::task::spawn_blocking(move || post(&agent, &url, &sig, &delivery_id, &event_type, &body))
                    .await
                    .unwrap_or_else(|e| {
                        let o = AttemptOutcome {
                            status: None,
                            duration_ms: 0,
                            error: Some(e.to_string()),
                            response_body: None,
                        };
                        (o, "other")
                    });
            metrics::counter!("talent_webhook_attempts_total", "outcome" => kind).increment(1);
            metrics::histogram!("talent_webhook_attempt_duration_seconds").record(outcome.duration_ms as f64 / 1000.0);
            outcome
        })
    }

    fn check_url(&self, url: &str) -> Result<(), String> {
        check_url(url, self.allow_insecure)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// What the sender signs, the client's verifier (what integrators use) accepts.
    #[test]
    fn signatures_verify_and_expire() {
        use talent_client::webhooks::{verify, VerifyError};
        let body = br#"{"id":"x"}"#;
        let h = signature_header(&["whsec_a"], 1_000, body);
        assert!(h.starts_with("t=1000,v1="));
        assert_eq!(verify("whsec_a", &h, body, 1_100), Ok(()));
        assert_eq!(verify("whsec_b", &h, body, 1_100), Err(VerifyError::Mismatch));
        assert_eq!(verify("whsec_a", &h, b"{}", 1_100), Err(VerifyError::Mismatch));
        assert_eq!(verify("whsec_a", &h, body, 1_301), Err(VerifyError::OutsideTolerance));
        assert_eq!(verify("whsec_a", "garbage", body, 1_000), Err(VerifyError::Malformed));
        let two = signature_header(&["whsec_new", "whsec_old"], 1_000, body);
        assert_eq!(verify("whsec_old", &two, body, 1_000), Ok(()));
        assert_eq!(verify("whsec_new", &two, body, 1_000), Ok(()));
    }

    #[test]
    fn the_signature_is_hex_hmac_of_t_dot_body() {
        // HMAC-SHA256("key", "1.x") computed independently.
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"key");
        let want = hex::encode(hmac::sign(&key, b"1.x").as_ref());
        assert_eq!(sign("key", 1, b"x"), want);
    }

    #[test]
    fn the_ssrf_matrix_is_refused() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
        ] {
            assert!(is_forbidden(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["93.184.216.34", "8.8.8.8", "2606:4700::1111"] {
            assert!(!is_forbidden(ip.parse().unwrap()), "{ip}");
        }
        assert!(check_url("http://example.com/x", false).is_err());
        assert!(check_url("https://127.0.0.1/x", false).is_err());
        assert!(check_url("https://[::1]/x", false).is_err());
        assert!(check_url("https://localhost/x", false).is_err());
        assert!(check_url("https://hooks.example.com/x", false).is_ok());
        assert!(check_url("http://127.0.0.1:9/x", true).is_ok());
        assert!(check_url("ftp://example.com", true).is_err());
        assert!(check_url("not a url", true).is_err());
    }
}
