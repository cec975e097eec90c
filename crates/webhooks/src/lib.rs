//! Talent's webhook sender (D30-D35). Receivers verify with `talent_client::webhooks::verify`.
//!
//! - Signature (D30): `Talent-Signature: t=<unix>,v1=<hex>` where `v1` is the lowercase hex
//!   HMAC-SHA256, keyed with the whole secret string (`whsec_...`), of `"{t}.{raw body}"`. During a
//!   secret rotation the header carries one `v1=` per signing secret.
//! - Standard Webhooks (D58): `webhook-id` (the event's id), `webhook-timestamp` (the same `t`) and
//!   `webhook-signature: v1,<base64>` per secret of the form `whsec_<standard base64>` (every
//!   secret made since), the HMAC-SHA256 keyed with the decoded bytes over
//!   `"{webhook-id}.{t}.{raw body}"`: the Standard Webhooks and Svix libraries verify it. A secret
//!   of the older form (base64url) signs `Talent-Signature` only.
//! - Transport (D31): POST with `Talent-Event`, `Talent-Delivery-Id` and `Talent-Event-Id` (D57),
//!   10 s timeout in all, of
//!   which at most 2 s to connect (T60: a dead host frees its lane fast), redirects never followed
//!   (a 3xx is a failure), only 2xx succeeds. ureq is blocking: requests run on tokio's blocking
//!   pool behind a semaphore, never on the async workers.
//! - The delivery engine ([`engine`]): many attempts in flight, fair between endpoints and
//!   organizations, woken by commits (T60).
//! - SSRF (D35, D54): https only, and no address that `talent_domain::net` refuses (every entry of
//!   the IANA special-purpose registries that is not globally reachable, multicast, and the IPv6
//!   forms that carry such an IPv4 address), checked on a literal host at registration and on the
//!   *resolved* addresses inside ureq's resolver, i.e. at connect time (no DNS rebinding window).
//!   The `TALENT_WEBHOOKS_ALLOW_INSECURE=1` switch allows http and local addresses.

pub mod engine;

use base64::Engine as _;
use ring::hmac;
use std::io::Read;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use talent_domain::net;
use talent_domain::ports::{BoxFuture, Fetched, PushRequest, SendResult, WebhookMessage, WebhookSender};
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

/// The key of a secret in the Standard Webhooks form (D58): the bytes of the standard base64
/// after `whsec_`; `None` for a secret of the older base64url form, which signs
/// `Talent-Signature` only.
pub fn standard_key(secret: &str) -> Option<Vec<u8>> {
    let encoded = secret.strip_prefix("whsec_")?;
    base64::engine::general_purpose::STANDARD.decode(encoded).ok().filter(|k| !k.is_empty())
}

/// The `webhook-signature` header value (D58): `v1,<base64 HMAC-SHA256>` over
/// `"{id}.{t}.{body}"` for each secret in the Standard Webhooks form, separated by spaces; `None`
/// when no secret has that form.
pub fn standard_signature_header(secrets: &[&str], id: &str, t: i64, body: &[u8]) -> Option<String> {
    let signatures: Vec<String> = secrets
        .iter()
        .filter_map(|s| standard_key(s))
        .map(|k| {
            let key = hmac::Key::new(hmac::HMAC_SHA256, &k);
            let mut ctx = hmac::Context::with_key(&key);
            ctx.update(id.as_bytes());
            ctx.update(b".");
            ctx.update(t.to_string().as_bytes());
            ctx.update(b".");
            ctx.update(body);
            format!("v1,{}", base64::engine::general_purpose::STANDARD.encode(ctx.sign().as_ref()))
        })
        .collect();
    (!signatures.is_empty()).then(|| signatures.join(" "))
}

/// The signature headers of one webhook request: `Talent-Signature` and, when a secret has the
/// Standard Webhooks form, `webhook-signature` (D30, D58).
#[derive(Clone, Debug)]
struct Signed {
    t: i64,
    talent: String,
    standard: Option<String>,
}

impl Signed {
    fn new(secrets: &[&str], message: &WebhookMessage, t: i64) -> Self {
        let body = message.body.as_bytes();
        Signed {
            t,
            talent: signature_header(secrets, t, body),
            standard: standard_signature_header(secrets, &message.event_id, t, body),
        }
    }
}

/// What an attempt's error says when a host name resolves to nothing, or only to addresses the
/// SSRF filter refuses (D54, D35). The two read alike on purpose, and the refused address is not
/// named: the caller of `POST /webhooks/{id}/test` must not learn what names resolve to inside
/// the service's network (T143). The log names the address and the registry entry.
pub const UNREACHABLE_HOST: &str = "host not found, or it resolves only to addresses that are not globally reachable";

/// The resolved addresses were all refused by the SSRF filter (D54, D35). Returned through ureq as
/// `Error::Other` so that the attempt counts as `blocked`; shown as [`UNREACHABLE_HOST`].
#[derive(Debug)]
struct Blocked;

impl std::fmt::Display for Blocked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(UNREACHABLE_HOST)
    }
}

impl std::error::Error for Blocked {}

/// A resolver that drops refused addresses after resolving (connect-time check, D54, D35): the
/// connection goes to the addresses left, and when none is left the request fails with
/// [`Blocked`] before any connection is made.
#[derive(Debug)]
struct FilteringResolver {
    inner: DefaultResolver,
}

impl Resolver for FilteringResolver {
    fn resolve(&self, uri: &Uri, config: &Config, timeout: NextTimeout) -> Result<ResolvedSocketAddrs, ureq::Error> {
        // A name that does not resolve reads as one that resolves only to refused addresses.
        let all = self.inner.resolve(uri, config, timeout).map_err(|e| match e {
            e @ ureq::Error::Timeout(_) => e,
            _ => ureq::Error::HostNotFound,
        })?;
        let mut out = self.empty();
        out.truncate(0);
        for a in all.iter() {
            match net::refusal(a.ip()) {
                None => out.push(*a),
                Some(r) => tracing::info!(host = uri.host().unwrap_or(""), refusal = %r, "webhook address refused"),
            }
        }
        if out.is_empty() {
            return Err(ureq::Error::Other(Box::new(Blocked)));
        }
        Ok(out)
    }
}

/// Checks a URL's shape at registration (D35, D54): https (or http when insecure), a host, and no
/// literal address the SSRF filter refuses (`talent_domain::net`), nor `localhost`. A host name is
/// checked on its resolved addresses at connect time instead. Errors: the reason, for `details`.
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
            if let Some(r) = net::refusal(ip) {
                return Err(format!("must not point to an address that is not globally reachable: {r}"));
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
    ///
    /// Every connection a request may use stays open for the next one (T324): up to
    /// `engine_lanes` plus [`PING_LANES`] idle connections, all of them to one host if that is
    /// where the requests go. ureq keeps 3 per host by default, so an endpoint's 8 lanes closed 5
    /// connections after each round and opened them again: a TCP connection (and a TLS
    /// handshake) for most attempts to a busy receiver.
    pub fn new(allow_insecure: bool, engine_lanes: usize) -> Self {
        let concurrency = engine_lanes + PING_LANES;
        let config = ureq::Agent::config_builder()
            .max_idle_connections(concurrency)
            .max_idle_connections_per_host(concurrency)
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
    sig: &Signed,
    event: &str,
    message: &WebhookMessage,
) -> (AttemptOutcome, &'static str) {
    let start = Instant::now();
    let mut req = agent
        .post(url)
        .header("Content-Type", "application/json")
        .header("Talent-Signature", &sig.talent)
        .header("Talent-Event", event)
        .header("Talent-Delivery-Id", &message.delivery_id)
        .header("Talent-Event-Id", &message.event_id)
        .header("webhook-id", &message.event_id)
        .header("webhook-timestamp", sig.t.to_string());
    if let Some(standard) = &sig.standard {
        req = req.header("webhook-signature", standard);
    }
    let res = req.send(&message.body);
    outcome_of(res, start, false)
}

/// The outcome of a sent request and its kind for `talent_webhook_attempts_total`: a non-2xx is a
/// failure, and with `success_member` so is a 2xx whose JSON body says `"success": false` (D79).
fn outcome_of(
    res: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    start: Instant,
    success_member: bool,
) -> (AttemptOutcome, &'static str) {
    let duration_ms = start.elapsed().as_millis() as u64;
    match res {
        Ok(mut r) => {
            let status = r.status().as_u16();
            let mut buf = Vec::new();
            let _ = r.body_mut().as_reader().take(1024).read_to_end(&mut buf);
            let text = String::from_utf8_lossy(&buf).into_owned();
            let refused = success_member
                && serde_json::from_str::<serde_json::Value>(&text)
                    .is_ok_and(|v| v.get("success") == Some(&serde_json::Value::Bool(false)));
            let ok = (200..300).contains(&status) && !refused;
            let kind = match status {
                200..=299 => "2xx",
                300..=399 => "3xx",
                400..=499 => "4xx",
                _ => "5xx",
            };
            let outcome = AttemptOutcome {
                status: Some(status),
                duration_ms,
                error: match (ok, refused) {
                    (true, _) => None,
                    (false, true) => Some("the ATS answered \"success\": false".to_string()),
                    (false, false) => Some(format!("non-2xx status {status}")),
                },
                response_body: Some(text),
            };
            (outcome, kind)
        }
        Err(e) => {
            let (msg, kind) = match e {
                ureq::Error::Other(e) if e.is::<Blocked>() => (UNREACHABLE_HOST.to_string(), "blocked"),
                ureq::Error::HostNotFound => (UNREACHABLE_HOST.to_string(), "connect_error"),
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

/// The HTTP request of `req`: its method, URL, `Authorization`, other headers and JSON body.
fn request_of(req: &PushRequest) -> Result<ureq::http::Request<String>, ureq::http::Error> {
    let mut b = ureq::http::Request::builder().method(req.method).uri(&req.url);
    if let Some(a) = &req.authorization {
        b = b.header("Authorization", a);
    }
    for (name, value) in &req.headers {
        b = b.header(*name, value);
    }
    if req.body.is_some() {
        b = b.header("Content-Type", "application/json");
    }
    b.body(req.body.clone().unwrap_or_default())
}

/// Sends `req` and reads at most `limit` bytes of the answer (Kombo's order poll, D82).
fn fetch_request(agent: &ureq::Agent, req: &PushRequest, limit: usize) -> Result<Fetched, String> {
    let r = request_of(req).map_err(|e| format!("bad request: {e}"))?;
    // A request without a body goes without one (a `GET` must not carry one).
    let sent = match req.body {
        Some(_) => agent.run(r),
        None => agent.run(r.map(|_| ())),
    };
    let mut res = sent.map_err(|e| match e {
        ureq::Error::Other(e) if e.is::<Blocked>() => UNREACHABLE_HOST.to_string(),
        ureq::Error::HostNotFound => UNREACHABLE_HOST.to_string(),
        ureq::Error::Timeout(_) => "timed out".to_string(),
        other => other.to_string(),
    })?;
    let status = res.status().as_u16();
    let mut body = Vec::new();
    res.body_mut().as_reader().take(limit as u64).read_to_end(&mut body).map_err(|e| e.to_string())?;
    Ok(Fetched { status, body })
}

/// Sends one push to an ATS (D69): `req` as rendered, the same transport as deliveries.
fn push_request(agent: &ureq::Agent, req: &PushRequest) -> (AttemptOutcome, &'static str) {
    let start = Instant::now();
    let res = match request_of(req) {
        Ok(r) => agent.run(r),
        Err(e) => {
            let o = AttemptOutcome {
                status: None,
                duration_ms: 0,
                error: Some(format!("bad request: {e}")),
                response_body: None,
            };
            return (o, "other");
        }
    };
    outcome_of(res, start, req.success_member)
}

impl UreqSender {
    /// Runs one request `call` with the sender's rules: a URL the SSRF filter refuses is an
    /// outcome without a request; otherwise one of the sender's permits, the blocking call on
    /// tokio's blocking pool, and the attempt counted in `talent_webhook_attempts_total`.
    fn guarded<'a, F>(&self, url: &str, call: F) -> BoxFuture<'a, SendResult>
    where
        F: FnOnce(&ureq::Agent) -> (AttemptOutcome, &'static str) + Send + 'static,
    {
        let agent = self.agent.clone();
        let permits = self.permits.clone();
        let refused = check_url(url, self.allow_insecure).err();
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
            let (outcome, kind) = tokio::task::spawn_blocking(move || call(&agent)).await.unwrap_or_else(|e| {
                let o =
                    AttemptOutcome { status: None, duration_ms: 0, error: Some(e.to_string()), response_body: None };
                (o, "other")
            });
            metrics::counter!("talent_webhook_attempts_total", "outcome" => kind).increment(1);
            metrics::histogram!("talent_webhook_attempt_duration_seconds").record(outcome.duration_ms as f64 / 1000.0);
            outcome
        })
    }
}

impl WebhookSender for UreqSender {
    fn send<'a>(
        &'a self,
        url: &'a str,
        secrets: &'a [&'a str],
        event_type: &'a str,
        message: &'a WebhookMessage,
        _now: OffsetDateTime,
    ) -> BoxFuture<'a, SendResult> {
        // `t` is stamped from the real clock, not the service clock: receivers check it against
        // their own time (spec, Signature step 3), and the sandbox clock (D39) may run days ahead.
        let sig = Signed::new(secrets, message, OffsetDateTime::now_utc().unix_timestamp());
        let (u, event_type, message) = (url.to_string(), event_type.to_string(), message.clone());
        self.guarded(url, move |agent| post(agent, &u, &sig, &event_type, &message))
    }

    fn push<'a>(&'a self, req: &'a PushRequest) -> BoxFuture<'a, SendResult> {
        let r = req.clone();
        self.guarded(&req.url, move |agent| push_request(agent, &r))
    }

    fn fetch<'a>(&'a self, req: &'a PushRequest, limit: usize) -> BoxFuture<'a, Result<Fetched, String>> {
        let agent = self.agent.clone();
        let permits = self.permits.clone();
        let refused = check_url(&req.url, self.allow_insecure).err();
        let r = req.clone();
        Box::pin(async move {
            if let Some(m) = refused {
                return Err(format!("URL refused: {m}"));
            }
            let _permit = permits.acquire_owned().await;
            tokio::task::spawn_blocking(move || fetch_request(&agent, &r, limit))
                .await
                .unwrap_or_else(|e| Err(e.to_string()))
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

    /// D58: a secret in the Standard Webhooks form signs `webhook-signature`, which the client's
    /// verifier (and so any Standard Webhooks library) accepts; the Standard Webhooks
    /// specification's example gives its published signature; a secret of the older base64url
    /// form signs nothing there, and during a rotation each new-form secret adds one entry.
    #[test]
    fn standard_webhooks_signatures_follow_the_specification() {
        use talent_client::webhooks::verify_standard;
        let example = standard_signature_header(
            &["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            br#"{"test": 2432232314}"#,
        );
        assert_eq!(example.as_deref(), Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
        let (new, old) =
            ("whsec_BpCKS6Kzw+rAL+ZqE43esYkxWpbYZSZa+ncViZgdJXg=", "whsec_3kTz8pQv0cXw1yF4bN7mR2sL9aD6eH5jK0uV8iO3gAe");
        assert_eq!(standard_key(old), None, "43 base64url characters are not standard base64");
        assert_eq!(standard_signature_header(&[old], "e", 1, b"{}"), None);
        let both = standard_signature_header(&[new, old], "evt", 1_000, b"{}").unwrap();
        assert_eq!(both.split(' ').count(), 1, "only the new-form secret signs: {both}");
        assert_eq!(verify_standard(new, "evt", "1000", &both, b"{}", 1_000), Ok(()));
        let rotated = standard_signature_header(&[new, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"], "evt", 1_000, b"{}");
        assert_eq!(rotated.unwrap().split(' ').count(), 2);
    }

    #[test]
    fn the_signature_is_hex_hmac_of_t_dot_body() {
        // HMAC-SHA256("key", "1.x") computed independently.
        let key = hmac::Key::new(hmac::HMAC_SHA256, b"key");
        let want = hex::encode(hmac::sign(&key, b"1.x").as_ref());
        assert_eq!(sign("key", 1, b"x"), want);
    }

    /// Registration refuses a literal address the SSRF filter refuses, naming its registry entry
    /// (D35, D54); host names pass, to be checked when they are resolved.
    #[test]
    fn d54_urls_with_a_refused_literal_address_are_refused_at_registration() {
        for (url, entry) in [
            ("https://127.0.0.1/x", "127.0.0.0/8 Loopback"),
            ("https://[::1]/x", "::1/128 Loopback Address"),
            ("https://10.1.2.3/", "10.0.0.0/8 Private-Use"),
            ("https://169.254.169.254/", "169.254.0.0/16 Link Local"),
            ("https://198.18.0.1/", "198.18.0.0/15 Benchmarking"),
            ("https://192.88.99.1/", "192.88.99.0/24 Deprecated (6to4 Relay Anycast)"),
            ("https://240.0.0.1/", "240.0.0.0/4 Reserved"),
            ("https://[2002:7f00:1::1]/", "127.0.0.0/8 Loopback"),
            ("https://[2001:0:7f00:1::1]/", "127.0.0.0/8 Loopback"),
            ("https://[64:ff9b:1::1]/", "64:ff9b:1::/48 IPv4-IPv6 Translat."),
            ("https://[::ffff:127.0.0.1]:8443/", "127.0.0.0/8 Loopback"),
        ] {
            let m = check_url(url, false).unwrap_err();
            assert!(m.starts_with("must not point to an address that is not globally reachable: "), "{url}: {m}");
            assert!(m.contains(entry), "{url}: {m}");
        }
        assert_eq!(check_url("https://localhost/x", false), Err("must not point to localhost".into()));
        assert_eq!(check_url("http://example.com/x", false), Err("must be an https URL".into()));
        for ok in
            ["https://hooks.example.com/x", "https://8.8.8.8/x", "https://[2606:4700::1111]/", "https://192.0.0.9/"]
        {
            assert_eq!(check_url(ok, false), Ok(()), "{ok}");
        }
        // The insecure switch (D35) allows http and local addresses, for development and tests.
        assert_eq!(check_url("http://127.0.0.1:9/x", true), Ok(()));
        assert_eq!(check_url("https://198.18.0.1/", true), Ok(()));
        assert!(check_url("ftp://example.com", true).is_err());
        assert!(check_url("not a url", true).is_err());
    }

    fn resolve(url: &str) -> Result<Vec<std::net::SocketAddr>, ureq::Error> {
        let r = FilteringResolver { inner: DefaultResolver::default() };
        let uri: Uri = url.parse().unwrap();
        r.resolve(&uri, &Config::default(), NextTimeout::default()).map(|a| a.to_vec())
    }

    /// At connect time the resolved addresses are filtered (D35, D54): a host that resolves only to
    /// refused addresses fails before any connection, whatever spelling reached the resolver.
    #[test]
    fn d54_the_resolver_refuses_hosts_that_resolve_only_to_refused_addresses() {
        // Spellings that are not IP literals at registration but resolve to refused addresses.
        for url in ["https://198.18.1/", "https://127.1:8443/", "https://2130706433/", "https://[::ffff:240.0.0.1]/"] {
            match resolve(url) {
                Err(ureq::Error::Other(e)) => {
                    assert!(e.is::<Blocked>(), "{url}: {e}");
                    assert_eq!(e.to_string(), UNREACHABLE_HOST);
                }
                other => panic!("{url}: {other:?}"),
            }
        }
        assert_eq!(resolve("https://8.8.8.8/").unwrap(), vec!["8.8.8.8:443".parse().unwrap()]);
        assert_eq!(
            resolve("https://[2002:808:808::1]:8443/").unwrap(),
            vec!["[2002:808:808::1]:8443".parse().unwrap()]
        );
    }
}
