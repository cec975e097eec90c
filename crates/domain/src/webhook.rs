//! Webhook endpoints and deliveries (spec, Events; D29-D35). The signing and the HTTP call are the
//! sender adapter's; this module holds the rules.

use crate::events::EventType;
use crate::ids::*;
use time::{Duration, OffsetDateTime};

/// At most this many endpoints per organization (spec, Limits; D29: the 11th is 409 `conflict`).
pub const MAX_ENDPOINTS: u32 = 10;
/// Retry delays after the first attempt (D31): 1 min, 5 min, 30 min, 2 h; then `failed`.
pub const RETRY_DELAYS: [Duration; 4] =
    [Duration::minutes(1), Duration::minutes(5), Duration::minutes(30), Duration::hours(2)];
/// A rotated-out secret keeps signing beside the new one this long.
pub const ROTATION_OVERLAP: Duration = Duration::hours(24);
/// An endpoint whose deliveries have failed for good (retries exhausted) continuously for this
/// long is disabled (D50): from its first failed delivery after the last success to the latest.
pub const DISABLE_AFTER_FAILING: Duration = Duration::days(3);
/// The circuit breaker opens after this many failed attempts in a row to one endpoint (T59).
pub const BREAKER_THRESHOLD: u32 = 5;
/// How long the breaker first stays open; each further failed attempt doubles it (T59).
pub const BREAKER_BASE: Duration = Duration::seconds(15);
/// The longest the breaker stays open at once (T59): short beside D31's 30 min and 2 h retries.
pub const BREAKER_MAX: Duration = Duration::minutes(5);

/// An endpoint's circuit breaker (decision T59): after [`BREAKER_THRESHOLD`] failed attempts in a
/// row (any non-2xx, timeout or connection error) the endpoint is *open*: none of its deliveries is
/// claimed until `open_until` (15 s, doubling with every further failure, at most 5 min; service
/// clock). Then its deliveries are claimed again (at most the per-endpoint cap in flight); one
/// success closes the breaker. Deliveries wait while it is open: no attempt is spent, so the D31
/// retry schedule is not used up by an outage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Breaker {
    /// Failed attempts in a row.
    pub failed_attempts: u32,
    /// While `now < open_until`, the endpoint's deliveries are not claimed.
    pub open_until: Option<OffsetDateTime>,
}

impl Breaker {
    /// Applies one attempt's result at `now` (T59).
    pub fn record(&mut self, succeeded: bool, now: OffsetDateTime) {
        if succeeded {
            *self = Breaker::default();
            return;
        }
        self.failed_attempts = self.failed_attempts.saturating_add(1);
        if self.failed_attempts >= BREAKER_THRESHOLD {
            let doublings = (self.failed_attempts - BREAKER_THRESHOLD).min(10);
            let open = (BREAKER_BASE * 2i32.pow(doublings)).min(BREAKER_MAX);
            self.open_until = Some(now + open);
        }
    }

    /// True while the breaker holds the endpoint's deliveries back.
    pub fn is_open(&self, now: OffsetDateTime) -> bool {
        self.open_until.is_some_and(|t| now < t)
    }
}

/// Every event type an endpoint can subscribe to: [`EventType::ALL`], the one declaration of
/// the event types (the spec's eight, then D47's additions).
pub const EVENT_TYPES: [EventType; EventType::ALL.len()] = EventType::ALL;

/// Parses an event type.
pub fn parse_event_type(s: &str) -> Option<EventType> {
    EVENT_TYPES.into_iter().find(|t| t.as_str() == s)
}

/// What an endpoint subscribes to.
#[derive(Clone, Debug, PartialEq)]
pub enum Subscription {
    /// `["*"]`
    All,
    /// Listed types.
    Types(Vec<EventType>),
}

impl Subscription {
    /// Parses `events`: `["*"]` or a non-empty list of known types. Errors per item.
    pub fn parse(items: &[String]) -> Result<Subscription, Vec<(Option<usize>, String)>> {
        if items.is_empty() {
            return Err(vec![(None, "must list at least one event type, or [\"*\"]".into())]);
        }
        if items.iter().any(|s| s == "*") {
            if items.len() == 1 {
                return Ok(Subscription::All);
            }
            return Err(vec![(None, "\"*\" must be the only item".into())]);
        }
        let mut errs = Vec::new();
        let mut v = Vec::new();
        for (i, s) in items.iter().enumerate() {
            match parse_event_type(s) {
                Some(t) if !v.contains(&t) => v.push(t),
                Some(_) => {}
                None => errs.push((Some(i), format!("unknown event type '{s}'"))),
            }
        }
        if errs.is_empty() {
            Ok(Subscription::Types(v))
        } else {
            Err(errs)
        }
    }
    /// True when the endpoint receives `t` (`ping` goes to the tested endpoint only).
    pub fn includes(&self, t: EventType) -> bool {
        match self {
            Subscription::All => true,
            Subscription::Types(v) => v.contains(&t),
        }
    }
    /// The wire list.
    pub fn to_strings(&self) -> Vec<String> {
        match self {
            Subscription::All => vec!["*".into()],
            Subscription::Types(v) => v.iter().map(|t| t.as_str().to_string()).collect(),
        }
    }
}

/// What an endpoint is (D69): an organization's webhook endpoint (D29), or the hidden endpoint of
/// an ATS connection through which its pushes go (the same delivery engine: claims, caps,
/// breaker, retries). Hidden endpoints are never listed, counted or read by the webhooks API.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EndpointKind {
    /// A webhook endpoint.
    #[default]
    Webhook,
    /// The pushes of an ATS connection.
    Ats,
}

impl EndpointKind {
    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            EndpointKind::Webhook => "webhook",
            EndpointKind::Ats => "ats",
        }
    }
    /// Parses the stored value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "webhook" => Ok(EndpointKind::Webhook),
            "ats" => Ok(EndpointKind::Ats),
            _ => Err("must be webhook or ats".into()),
        }
    }
    /// The delays between attempts of its deliveries: webhooks 1 min, 5 min, 30 min, 2 h (D31);
    /// pushes to an ATS 1 min, 5 min, 30 min, 2 h, then every 6 h for 3 days (D69).
    pub fn retry_delays(self) -> &'static [Duration] {
        match self {
            EndpointKind::Webhook => &RETRY_DELAYS,
            EndpointKind::Ats => &PUSH_RETRY_DELAYS,
        }
    }
}

/// Retry delays of a push to an ATS after the first attempt (D69): the webhooks' four, then
/// every 6 hours for three days.
pub const PUSH_RETRY_DELAYS: [Duration; 16] = {
    let mut d = [Duration::hours(6); 16];
    let mut i = 0;
    while i < RETRY_DELAYS.len() {
        d[i] = RETRY_DELAYS[i];
        i += 1;
    }
    d
};

/// A registered webhook endpoint (D29).
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoint {
    pub id: WebhookId,
    /// Organization.
    pub org_id: OrgId,
    /// Target URL.
    pub url: String,
    /// Subscribed events.
    pub events: Subscription,
    pub description: Option<String>,
    /// Deliveries are attempted only while enabled.
    pub enabled: bool,
    /// The signing secret `whsec_...` (D30).
    pub secret: String,
    /// The previous secret, signing alongside until `previous_secret_expires_at`.
    pub previous_secret: Option<String>,
    /// End of the rotation overlap.
    pub previous_secret_expires_at: Option<OffsetDateTime>,
    /// Deliveries failed in a row (all retries exhausted).
    pub consecutive_failures: u32,
    /// When the first of those deliveries failed for good; `None` since the last success (D50).
    pub failing_since: Option<OffsetDateTime>,
    /// The circuit breaker of its attempts (T59).
    pub breaker: Breaker,
    /// Creation.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
    /// A webhook endpoint, or an ATS connection's hidden one (D69).
    pub kind: EndpointKind,
}

impl Endpoint {
    /// Secrets that sign at `now`: the current one, and the previous one during the overlap.
    pub fn signing_secrets(&self, now: OffsetDateTime) -> Vec<&str> {
        let mut v = vec![self.secret.as_str()];
        if let (Some(p), Some(until)) = (&self.previous_secret, self.previous_secret_expires_at) {
            if now < until {
                v.push(p.as_str());
            }
        }
        v
    }
}

/// Delivery status (D32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryStatus {
    /// Waiting for its next attempt.
    Pending,
    /// A 2xx was received.
    Succeeded,
    /// Every attempt failed.
    Failed,
}

impl DeliveryStatus {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Succeeded => "succeeded",
            Self::Failed => "failed",
        }
    }
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "pending" => Ok(Self::Pending),
            "succeeded" => Ok(Self::Succeeded),
            "failed" => Ok(Self::Failed),
            _ => Err("must be one of: pending, succeeded, failed".into()),
        }
    }
}

/// One delivery of one event to one endpoint; its id stays the same across retries (D31).
#[derive(Clone, Debug, PartialEq)]
pub struct Delivery {
    /// Delivery id (`Talent-Delivery-Id`, envelope `id`).
    pub id: DeliveryId,
    /// Endpoint.
    pub endpoint_id: WebhookId,
    /// Organization.
    pub org_id: OrgId,
    /// Event type.
    pub event_type: EventType,
    /// The event it delivers (D57: the feed item's `id`, the envelope's `eventId`, the
    /// `Talent-Event-Id` and `webhook-id` headers); `None` for a `POST /webhooks/{id}/test` ping,
    /// which is no event of the feed, and for deliveries made before events had an identity
    /// (both are sent with the delivery's id as their event id).
    pub event_id: Option<EventId>,
    /// The envelope JSON as stored: [`sent_body`] adds the event's `sequence` when it is sent.
    pub payload: String,
    pub status: DeliveryStatus,
    /// Attempts made.
    pub attempts: u32,
    /// Next attempt (pending only).
    pub next_attempt_at: Option<OffsetDateTime>,
    /// Last attempt.
    pub last_attempt_at: Option<OffsetDateTime>,
    /// HTTP status of the last attempt.
    pub last_response_status: Option<u16>,
    /// Error of the last attempt.
    pub last_error: Option<String>,
    /// Creation.
    pub created_at: OffsetDateTime,
    /// The request that caused its event (`X-Request-Id`, T121); `None` for background jobs,
    /// a ping has the `/test` request's, a redelivery keeps the original's.
    pub request_id: Option<String>,
}

/// The outcome of one attempt.
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptOutcome {
    /// HTTP status, if a response came.
    pub status: Option<u16>,
    /// Time taken.
    pub duration_ms: u64,
    /// Transport error, or `non-2xx status N`.
    pub error: Option<String>,
    /// First 1 KiB of the response body.
    pub response_body: Option<String>,
}

impl AttemptOutcome {
    /// Only a 2xx succeeds (D31).
    pub fn succeeded(&self) -> bool {
        self.error.is_none() && self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// D31: applies an attempt to a delivery: succeeded, or the next retry time, or failed after
/// the last retry. Returns true when the delivery just failed for good.
pub fn apply_attempt(d: &mut Delivery, out: &AttemptOutcome, now: OffsetDateTime) -> bool {
    apply_attempt_with(d, out, now, &RETRY_DELAYS)
}

/// [`apply_attempt`] with the retry delays of the delivery's endpoint kind
/// ([`EndpointKind::retry_delays`]).
pub fn apply_attempt_with(d: &mut Delivery, out: &AttemptOutcome, now: OffsetDateTime, delays: &[Duration]) -> bool {
    d.attempts += 1;
    d.last_attempt_at = Some(now);
    d.last_response_status = out.status;
    d.last_error = if out.succeeded() {
        None
    } else {
        Some(out.error.clone().unwrap_or_else(|| format!("non-2xx status {}", out.status.unwrap_or(0))))
    };
    if out.succeeded() {
        d.status = DeliveryStatus::Succeeded;
        d.next_attempt_at = None;
        return false;
    }
    match delays.get(d.attempts as usize - 1) {
        Some(delay) => {
            d.status = DeliveryStatus::Pending;
            d.next_attempt_at = Some(now + *delay);
            false
        }
        None => {
            d.status = DeliveryStatus::Failed;
            d.next_attempt_at = None;
            true
        }
    }
}

/// The delivery envelope as stored (spec; D34, D57): `id` (the delivery's), `eventId`, `type`,
/// `createdAt`, `apiVersion`, `data`. [`sent_body`] adds `sequence` when it goes out.
///
/// The text is a JSON object with its members in key order, as serde_json writes an object
/// (`apiVersion`, `createdAt`, `data`, `eventId`, `id`, `type`), written straight from `data`:
/// an import builds one per subscribed endpoint inside SQLite's single write turn, where building
/// an object that holds a copy of `data` first cost 6 % of the import's instructions.
pub fn envelope(
    id: DeliveryId,
    event_id: EventId,
    t: EventType,
    created_at: OffsetDateTime,
    data: &crate::events::EventData,
) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(256);
    // Ids and times are ASCII letters, digits and `-:.`; the type names are the enumeration's:
    // none needs escaping. Writing to a String does not fail.
    let _ = write!(
        out,
        r#"{{"apiVersion":"v1","createdAt":"{}","data":{},"eventId":"{event_id}","id":"{id}","type":"{}"}}"#,
        crate::timefmt::format(created_at),
        data.as_str(),
        t.as_str(),
    );
    out
}

/// The event id a delivery is sent with (D57): its event's, else its own (a test ping, or a
/// delivery stored before events had an identity).
pub fn sent_event_id(d: &Delivery) -> String {
    d.event_id.map_or_else(|| d.id.to_string(), |e| e.to_string())
}

/// The body of an attempt of `d` (D57): its stored envelope with `eventId` ([`sent_event_id`])
/// and `sequence`, the event's number in its organization's feed (D56; `null` for a test ping
/// and for an event the feed no longer holds). A payload that is not a JSON object (never
/// written by Talent) is sent as stored.
///
/// An envelope as [`envelope`] writes it ends with its `eventId`, `id` and `type` in key order;
/// `sequence` goes between the last two, which gives the bytes serde_json writes for the object
/// with it, without reading the payload (T324: the read and the rewrite were a tenth of an
/// attempt's instructions). Any other payload is read and written again as an object.
pub fn sent_body(d: &Delivery, sequence: Option<u64>) -> String {
    let event_id = sent_event_id(d);
    // The envelope's last members as stored, split where `sequence` goes.
    let ids = format!(r#""eventId":"{event_id}","id":"{}","#, d.id);
    let kind = format!(r#""type":"{}"}}"#, d.event_type.as_str());
    let head = d.payload.strip_suffix(kind.as_str()).and_then(|h| h.strip_suffix(ids.as_str()));
    if let Some(head) = head.filter(|h| h.ends_with(',')) {
        return match sequence {
            Some(n) => format!(r#"{head}{ids}"sequence":{n},{kind}"#),
            None => format!(r#"{head}{ids}"sequence":null,{kind}"#),
        };
    }
    match serde_json::from_str::<serde_json::Value>(&d.payload) {
        Ok(serde_json::Value::Object(mut m)) => {
            m.insert("eventId".into(), serde_json::Value::String(event_id));
            m.insert("sequence".into(), sequence.map_or(serde_json::Value::Null, serde_json::Value::from));
            serde_json::Value::Object(m).to_string()
        }
        _ => d.payload.clone(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    /// The envelope is the JSON object serde_json writes for the same members (its keys in order),
    /// byte for byte, whatever the data holds: what was stored before reads the same.
    #[test]
    fn the_envelope_is_the_object_serde_json_writes() {
        let data = serde_json::json!({
            "zeta": [1, 2.5, null, true, "a\"b\\c\n\u{1}é漢"],
            "alpha": {"nested": {"b": 1, "a": -2}, "empty": {}},
            "email": "erased-x@invalid",
        });
        for t in [EventType::PersonCreated, EventType::InvitationCreated, EventType::WebhookDisabled] {
            let (id, ev) = (DeliveryId(uuid::Uuid::now_v7()), EventId(uuid::Uuid::now_v7()));
            let at = time::macros::datetime!(2026-12-04 10:11:12.345678 UTC);
            let expected = serde_json::json!({
                "id": id.to_string(),
                "eventId": ev.to_string(),
                "type": t.as_str(),
                "createdAt": crate::timefmt::format(at),
                "apiVersion": "v1",
                "data": data,
            })
            .to_string();
            assert_eq!(envelope(id, ev, t, at, &crate::events::EventData::of(&data)), expected);
        }
    }

    use super::*;

    fn d() -> Delivery {
        Delivery {
            id: DeliveryId(uuid::Uuid::nil()),
            endpoint_id: WebhookId(uuid::Uuid::nil()),
            org_id: OrgId(uuid::Uuid::nil()),
            event_type: EventType::Ping,
            event_id: None,
            payload: "{}".into(),
            status: DeliveryStatus::Pending,
            attempts: 0,
            next_attempt_at: None,
            last_attempt_at: None,
            last_response_status: None,
            last_error: None,
            created_at: OffsetDateTime::UNIX_EPOCH,
            request_id: None,
        }
    }

    #[test]
    fn retries_follow_d31_then_fail() {
        let fail = AttemptOutcome { status: Some(500), duration_ms: 1, error: None, response_body: None };
        let mut x = d();
        let t = OffsetDateTime::UNIX_EPOCH;
        let mut delays = vec![];
        for _ in 0..4 {
            assert!(!apply_attempt(&mut x, &fail, t));
            delays.push(x.next_attempt_at.unwrap() - t);
        }
        assert_eq!(delays, RETRY_DELAYS.to_vec());
        assert!(apply_attempt(&mut x, &fail, t));
        assert_eq!(x.status, DeliveryStatus::Failed);
        assert_eq!(x.attempts, 5);
    }

    #[test]
    fn the_breaker_opens_after_five_failed_attempts_doubles_and_closes_on_success_t59() {
        let t = OffsetDateTime::UNIX_EPOCH;
        let mut b = Breaker::default();
        for _ in 0..4 {
            b.record(false, t);
            assert!(!b.is_open(t), "closed below the threshold");
        }
        b.record(false, t);
        assert_eq!(b.open_until, Some(t + BREAKER_BASE));
        assert!(b.is_open(t + BREAKER_BASE - Duration::seconds(1)));
        assert!(!b.is_open(t + BREAKER_BASE));
        b.record(false, t);
        assert_eq!(b.open_until, Some(t + BREAKER_BASE * 2), "each further failure doubles");
        for _ in 0..20 {
            b.record(false, t);
        }
        assert_eq!(b.open_until, Some(t + BREAKER_MAX), "capped");
        b.record(true, t);
        assert_eq!(b, Breaker::default(), "one success closes it");
    }

    #[test]
    fn only_2xx_succeeds() {
        for (s, ok) in [(200, true), (204, true), (299, true), (308, false), (404, false), (500, false)] {
            let o = AttemptOutcome { status: Some(s), duration_ms: 1, error: None, response_body: None };
            assert_eq!(o.succeeded(), ok, "{s}");
        }
        let t = AttemptOutcome { status: None, duration_ms: 1, error: Some("timeout".into()), response_body: None };
        assert!(!t.succeeded());
    }

    #[test]
    fn subscriptions_parse() {
        assert_eq!(Subscription::parse(&["*".into()]).unwrap(), Subscription::All);
        assert!(Subscription::parse(&[]).is_err());
        assert!(Subscription::parse(&["*".into(), "ping".into()]).is_err());
        assert_eq!(Subscription::parse(&["x".into()]).unwrap_err()[0].0, Some(0));
        let s = Subscription::parse(&["person.created".into(), "person.created".into()]).unwrap();
        assert_eq!(s.to_strings(), vec!["person.created"]);
        assert!(s.includes(EventType::PersonCreated));
        assert!(!s.includes(EventType::PersonArchived));
    }

    #[test]
    fn the_sent_envelope_has_the_spec_members_and_the_events_identity_d57() {
        let event = EventId(uuid::Uuid::from_u128(7));
        let mut x = d();
        x.event_id = Some(event);
        x.payload = envelope(
            x.id,
            event,
            EventType::Ping,
            OffsetDateTime::UNIX_EPOCH,
            &crate::events::EventData::of(&serde_json::json!({"webhookId": "x"})),
        );
        let e: serde_json::Value = serde_json::from_str(&sent_body(&x, Some(12))).unwrap();
        let mut keys: Vec<_> = e.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(keys, vec!["apiVersion", "createdAt", "data", "eventId", "id", "sequence", "type"]);
        assert_eq!(e["apiVersion"], "v1");
        assert_eq!((e["eventId"].as_str(), e["sequence"].as_u64()), (Some(event.to_string().as_str()), Some(12)));
        assert_eq!(e["id"], x.id.to_string());
    }

    #[test]
    fn a_delivery_without_an_event_is_sent_with_its_own_id_and_no_sequence_d57() {
        let mut x = d();
        x.payload = r#"{"id":"00000000-0000-0000-0000-000000000000","type":"ping","data":{}}"#.into();
        let e: serde_json::Value = serde_json::from_str(&sent_body(&x, None)).unwrap();
        assert_eq!(e["eventId"], x.id.to_string());
        assert!(e["sequence"].is_null());
        x.payload = "not json".into();
        assert_eq!(sent_body(&x, Some(1)), "not json");
    }

    /// The body as serde_json writes the stored object with `eventId` and `sequence` set: what
    /// `sent_body` sent before it spliced `sequence` in (T324).
    fn rewritten(d: &Delivery, sequence: Option<u64>) -> String {
        let mut m: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&d.payload).unwrap();
        m.insert("eventId".into(), sent_event_id(d).into());
        m.insert("sequence".into(), sequence.map_or(serde_json::Value::Null, serde_json::Value::from));
        serde_json::Value::Object(m).to_string()
    }

    /// T324: the body spliced from a stored envelope is byte for byte the object serde_json
    /// writes, for every event type, data of any shape (strings that end like an envelope
    /// included), with and without a sequence; an envelope whose members do not end as an
    /// envelope's do (another delivery's id, another event, another type) is rewritten as before.
    #[test]
    fn the_sent_body_is_the_rewritten_object_byte_for_byte() {
        let tricky = r#"","eventId":"x","id":"y","type":"person.created"}"#;
        let datas = [
            serde_json::json!({}),
            serde_json::json!({"webhookId": "x"}),
            serde_json::json!({"z": [1, 2.5, -0.0, 1e300, null, true, "a\"b\\c\n\u{1}é漢"], "a": {"b": {}}}),
            serde_json::json!({"type": tricky, "id": tricky, "eventId": tricky, "sequence": 9}),
        ];
        for t in [EventType::PersonCreated, EventType::InvitationCreated, EventType::Ping] {
            for data in &datas {
                for seq in [None, Some(0), Some(1), Some(u64::MAX)] {
                    let mut x = d();
                    x.event_type = t;
                    let event = EventId(uuid::Uuid::now_v7());
                    x.event_id = Some(event);
                    let at = time::macros::datetime!(2026-12-07 08:00:00.5 UTC);
                    x.payload = envelope(x.id, event, t, at, &crate::events::EventData::of(data));
                    assert_eq!(sent_body(&x, seq), rewritten(&x, seq), "{t:?} {data} {seq:?}");
                    // Not this delivery's envelope: the same bytes through the object.
                    let mut other = x.clone();
                    other.id = DeliveryId(uuid::Uuid::now_v7());
                    assert_eq!(sent_body(&other, seq), rewritten(&other, seq));
                    other = x.clone();
                    other.event_id = Some(EventId(uuid::Uuid::now_v7()));
                    assert_eq!(sent_body(&other, seq), rewritten(&other, seq));
                    other = x.clone();
                    other.event_type = EventType::PersonArchived;
                    assert_eq!(sent_body(&other, seq), rewritten(&other, seq));
                }
            }
        }
    }
}
