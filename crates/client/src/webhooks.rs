//! Receiving webhooks (the API reference, Events): verify `Talent-Signature` ([`verify`])
//! or the Standard Webhooks headers ([`verify_standard`]), then parse the envelope and deduplicate
//! on its `eventId`.
//!
//! ```
//! # let (secret, header, body) = ("whsec_x", "t=1,v1=00", b"{}".as_slice());
//! use talent_client::webhooks::{verify, VerifyError};
//! let now = 1;
//! assert_eq!(verify(secret, header, body, now), Err(VerifyError::Mismatch));
//! ```

use ring::hmac;
use serde::Deserialize;
use time::OffsetDateTime;
use uuid::Uuid;

/// Largest accepted difference between `t` and the receiver's clock, in seconds (spec, Signature 3).
pub const TOLERANCE_SECS: i64 = 300;

/// Why a delivery's signature is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The header is not `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`.
    #[error("the Talent-Signature header is malformed")]
    Malformed,
    /// `t` is more than 300 s away from the receiver's clock (replay protection).
    #[error("the signature time is more than 300 seconds from now")]
    OutsideTolerance,
    /// No `v1` is the HMAC of this body under this secret.
    #[error("no signature matches")]
    Mismatch,
}

/// Verifies a delivery: parses `t=<unix>,v1=<hex>[,v1=...]` (one `v1` per valid secret during a
/// rotation), refuses a `t` more than [`TOLERANCE_SECS`] from `now_unix`, and accepts when any
/// `v1` is the lowercase hex HMAC-SHA256, keyed with the whole signing secret, of `"{t}.{raw body}"`
///. Compared in constant time (ring).
pub fn verify(secret: &str, header: &str, raw_body: &[u8], now_unix: i64) -> Result<(), VerifyError> {
    let mut t: Option<i64> = None;
    let mut sigs = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = Some(v.parse().map_err(|_| VerifyError::Malformed)?),
            Some(("v1", v)) => sigs.push(hex::decode(v).map_err(|_| VerifyError::Malformed)?),
            _ => {}
        }
    }
    let t = t.ok_or(VerifyError::Malformed)?;
    if sigs.is_empty() {
        return Err(VerifyError::Malformed);
    }
    if now_unix.checked_sub(t).is_none_or(|d| d.abs() > TOLERANCE_SECS) {
        return Err(VerifyError::OutsideTolerance);
    }
    let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
    let mut msg = format!("{t}.").into_bytes();
    msg.extend_from_slice(raw_body);
    if sigs.iter().any(|s| hmac::verify(&key, &msg, s).is_ok()) {
        Ok(())
    } else {
        Err(VerifyError::Mismatch)
    }
}

/// Verifies a delivery by its Standard Webhooks headers: `webhook_id`, `webhook_timestamp`
/// (Unix seconds) and `webhook_signature` (`v1,<base64>` entries separated by spaces, one per
/// signing secret during a rotation). Refuses a timestamp more than [`TOLERANCE_SECS`] from
/// `now_unix`, and accepts when any `v1` entry is the HMAC-SHA256, keyed with the standard-base64
/// bytes after `whsec_` in `secret`, of `"{webhook_id}.{webhook_timestamp}.{raw body}"`. Compared
/// in constant time (ring). Errors: [`VerifyError::Malformed`] for a header or a secret not of
/// that form (a secret made before Standard Webhooks signing: verify `Talent-Signature` with
/// [`verify`], or rotate it).
pub fn verify_standard(
    secret: &str,
    webhook_id: &str,
    webhook_timestamp: &str,
    webhook_signature: &str,
    raw_body: &[u8],
    now_unix: i64,
) -> Result<(), VerifyError> {
    use base64::Engine as _;
    let engine = base64::engine::general_purpose::STANDARD;
    let key = secret.strip_prefix("whsec_").and_then(|k| engine.decode(k).ok()).ok_or(VerifyError::Malformed)?;
    let t: i64 = webhook_timestamp.trim().parse().map_err(|_| VerifyError::Malformed)?;
    let sigs: Vec<Vec<u8>> = webhook_signature
        .split(' ')
        .filter_map(|part| part.strip_prefix("v1,"))
        .filter_map(|s| engine.decode(s).ok())
        .collect();
    if sigs.is_empty() {
        return Err(VerifyError::Malformed);
    }
    if now_unix.checked_sub(t).is_none_or(|d| d.abs() > TOLERANCE_SECS) {
        return Err(VerifyError::OutsideTolerance);
    }
    let key = hmac::Key::new(hmac::HMAC_SHA256, &key);
    let mut msg = format!("{webhook_id}.{t}.").into_bytes();
    msg.extend_from_slice(raw_body);
    if sigs.iter().any(|s| hmac::verify(&key, &msg, s).is_ok()) {
        Ok(())
    } else {
        Err(VerifyError::Mismatch)
    }
}

/// [`verify`] against the system clock.
pub fn verify_now(secret: &str, header: &str, raw_body: &[u8]) -> Result<(), VerifyError> {
    verify(secret, header, raw_body, OffsetDateTime::now_utc().unix_timestamp())
}

/// The delivery envelope (the API reference, Delivery envelope). Members added later are ignored, as the
/// API's versioning allows. `data` is the event's
/// payload: the Person (`person.*`; `person.updated` adds `previousAttributes`, `person.archived`
/// `archiveReason`), the Invitation (`invitation.*`), `assessment.*`'s
/// `{personId, email, externalId, assessmentId, startedAt | completedAt}`, `webhook.disabled`'s
/// endpoint or `ping`'s `{webhookId}`; [`Event::typed`] reads it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// The delivery id, the same on every retry of this delivery (`Talent-Delivery-Id`).
    pub id: Uuid,
    /// The event's id (`Talent-Event-Id`, `webhook-id`): the `id` of its item in the events feed,
    /// the same on every retry, redelivery and replay. Deduplicate on it.
    pub event_id: Uuid,
    /// The event's number in the organization's events feed (1, 2, 3, …); `None` for a test ping.
    #[serde(default)]
    pub sequence: Option<u64>,
    /// The event type, e.g. `person.created`.
    #[serde(rename = "type")]
    pub event_type: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// Always `v1`.
    pub api_version: String,
    pub data: serde_json::Value,
}

impl Event {
    /// Verifies the signature (see [`verify`]) and then parses the body. Errors: the signature's,
    /// or [`VerifyError::Malformed`] for a body that is not an envelope.
    pub fn from_delivery(secret: &str, header: &str, raw_body: &[u8], now_unix: i64) -> Result<Event, VerifyError> {
        verify(secret, header, raw_body, now_unix)?;
        serde_json::from_slice(raw_body).map_err(|_| VerifyError::Malformed)
    }

    /// The typed `data` ([`crate::events::EventData::parse`]): unknown types are `Other`.
    pub fn typed(&self) -> crate::events::EventData {
        crate::events::EventData::parse(&self.event_type, &self.data)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn sign(secret: &str, t: i64, body: &[u8]) -> String {
        let key = hmac::Key::new(hmac::HMAC_SHA256, secret.as_bytes());
        let mut msg = format!("{t}.").into_bytes();
        msg.extend_from_slice(body);
        hex::encode(hmac::sign(&key, &msg).as_ref())
    }

    /// The Standard Webhooks specification's own example: its secret, id, timestamp, body
    /// and signature.
    #[test]
    fn the_standard_webhooks_example_verifies_and_nothing_else_does() {
        let (secret, id, t, body) = (
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            "1614265330",
            br#"{"test": 2432232314}"#,
        );
        let sig = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
        let now = 1_614_265_330;
        assert_eq!(verify_standard(secret, id, t, sig, body, now), Ok(()));
        let rotated = format!("v1,AAAA {sig}");
        assert_eq!(verify_standard(secret, id, t, &rotated, body, now), Ok(()), "any entry may match");
        assert_eq!(verify_standard(secret, "msg_other", t, sig, body, now), Err(VerifyError::Mismatch));
        assert_eq!(verify_standard(secret, id, t, sig, b"{}", now), Err(VerifyError::Mismatch));
        assert_eq!(verify_standard(secret, id, t, sig, body, now + 301), Err(VerifyError::OutsideTolerance));
        assert_eq!(verify_standard(secret, id, "soon", sig, body, now), Err(VerifyError::Malformed));
        assert_eq!(verify_standard(secret, id, t, "v2,abc", body, now), Err(VerifyError::Malformed));
        assert_eq!(verify_standard("whsec_not-base64_", id, t, sig, body, now), Err(VerifyError::Malformed));
    }

    #[test]
    fn a_signature_is_accepted_only_for_its_secret_body_and_time() {
        let body = br#"{"id":"x"}"#;
        let h = format!("t=1000,v1={}", sign("whsec_a", 1000, body));
        assert_eq!(verify("whsec_a", &h, body, 1_100), Ok(()));
        assert_eq!(verify("whsec_a", &h, body, 1_300), Ok(()));
        assert_eq!(verify("whsec_a", &h, body, 700), Ok(()));
        assert_eq!(verify("whsec_b", &h, body, 1_100), Err(VerifyError::Mismatch));
        assert_eq!(verify("whsec_a", &h, b"{}", 1_100), Err(VerifyError::Mismatch));
        assert_eq!(verify("whsec_a", &h, body, 1_301), Err(VerifyError::OutsideTolerance));
        assert_eq!(verify("whsec_a", &h, body, 699), Err(VerifyError::OutsideTolerance));
        assert_eq!(verify("whsec_a", &h, body, i64::MIN), Err(VerifyError::OutsideTolerance));
        for bad in ["garbage", "t=1000", "v1=00", "t=x,v1=00", "t=1000,v1=zz", ""] {
            assert_eq!(verify("whsec_a", bad, body, 1_000), Err(VerifyError::Malformed), "{bad}");
        }
    }

    #[test]
    fn during_a_rotation_either_secret_verifies() {
        let body = b"{}";
        let two = format!("t=1000,v1={},v1={}", sign("whsec_new", 1000, body), sign("whsec_old", 1000, body));
        assert_eq!(verify("whsec_old", &two, body, 1_000), Ok(()));
        assert_eq!(verify("whsec_new", &two, body, 1_000), Ok(()));
        assert_eq!(verify("whsec_other", &two, body, 1_000), Err(VerifyError::Mismatch));
    }

    #[test]
    fn an_event_is_parsed_only_after_its_signature_is_checked() {
        let body = br#"{"id":"01a20352-29a2-75c8-8d7c-3dfd8be16fc5","eventId":"01a20352-29a2-75c8-8d7c-3dfd8be16fc6","sequence":7,"type":"ping","createdAt":"2026-11-22T12:00:00Z","apiVersion":"v1","data":{"webhookId":"w"},"addedLater":true}"#;
        let h = format!("t=1000,v1={}", sign("whsec_a", 1000, body));
        let e = Event::from_delivery("whsec_a", &h, body, 1_000).unwrap();
        assert_eq!((e.event_type.as_str(), e.api_version.as_str(), e.sequence), ("ping", "v1", Some(7)));
        assert_eq!(e.event_id.to_string(), "01a20352-29a2-75c8-8d7c-3dfd8be16fc6");
        assert_eq!(Event::from_delivery("whsec_b", &h, body, 1_000), Err(VerifyError::Mismatch));
        let h = format!("t=1000,v1={}", sign("whsec_a", 1000, b"[]"));
        assert_eq!(Event::from_delivery("whsec_a", &h, b"[]", 1_000), Err(VerifyError::Malformed));
    }
}
