//! Fakes of the ports other than the store: a clock tests move by hand, sequential ids,
//! reversible secrets, a recording mailer and webhook sender, a personality writer and a report
//! renderer.

use crate::ids::*;
use crate::ports::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use time::OffsetDateTime;
use uuid::Uuid;

/// A clock that tests move by hand.
#[derive(Default)]
pub struct FakeClock {
    /// Microseconds since the Unix epoch.
    pub micros: AtomicU64,
}

impl FakeClock {
    /// Starts at 2026-01-01T00:00:00Z.
    pub fn new() -> Self {
        Self { micros: AtomicU64::new(1_767_225_600_000_000) }
    }
    /// Moves forward.
    pub fn advance(&self, d: time::Duration) {
        self.micros.fetch_add(d.whole_microseconds() as u64, Ordering::SeqCst);
    }
}

impl Clock for FakeClock {
    fn now(&self) -> OffsetDateTime {
        let m = self.micros.fetch_add(1, Ordering::SeqCst);
        OffsetDateTime::from_unix_timestamp_nanos(m as i128 * 1000).unwrap_or(OffsetDateTime::UNIX_EPOCH)
    }
}

/// Sequential ids (increasing, so newest-first ordering is deterministic).
#[derive(Default)]
pub struct FakeIds {
    n: AtomicU64,
}

impl Ids for FakeIds {
    fn new_uuid(&self) -> Uuid {
        let n = self.n.fetch_add(1, Ordering::SeqCst) + 1;
        Uuid::from_u128(((0x0190_0000_0000_7000u128) << 64) | n as u128)
    }
}

/// Deterministic "crypto": keys from a counter, hash = reversed bytes. Good enough to test the
/// use cases' logic, never for production.
#[derive(Default)]
pub struct FakeSecrets {
    n: AtomicU64,
}

impl Secrets for FakeSecrets {
    fn new_api_key(&self) -> NewKeyMaterial {
        let n = self.n.fetch_add(1, Ordering::SeqCst);
        let prefix = format!("{n:016}");
        let value = format!("tk_{prefix}{}", "s".repeat(43));
        NewKeyMaterial { hash: self.hash_api_key(&value), value, prefix }
    }
    fn hash_api_key(&self, value: &str) -> Vec<u8> {
        value.bytes().rev().collect()
    }
    fn constant_time_eq(&self, a: &[u8], b: &[u8]) -> bool {
        a == b
    }
    /// Distinct on every call (a counter after `bytes` letters), as random tokens are.
    fn random_token(&self, bytes: usize) -> String {
        format!("{}{}", "t".repeat(bytes), self.n.fetch_add(1, Ordering::SeqCst))
    }
    /// The real secret's shape (D58): 43 base64 characters then `=`, distinct on every call.
    fn webhook_secret(&self) -> String {
        format!("whsec_{:0>42}0=", self.n.fetch_add(1, Ordering::SeqCst))
    }
    /// The real token's shape: 43 base64url characters (D20).
    fn invitation_token(&self, id: InvitationId) -> String {
        format!("tok{}_fake-tk", id.0.simple())
    }
    fn report_token(&self, id: crate::ids::OrderId) -> String {
        format!("rep{}_fake-tk", id.0.simple())
    }
    fn hash_token(&self, token: &str) -> Vec<u8> {
        token.bytes().rev().collect()
    }
    fn one_time_code(&self) -> String {
        format!("{:06}", (self.n.fetch_add(1, Ordering::SeqCst) * 7919 + 100_003) % 1_000_000)
    }
    fn hash_code(&self, invitation: InvitationId, code: &str) -> Vec<u8> {
        format!("{}:{code}", invitation.0.simple()).bytes().rev().collect()
    }
}

/// Personality text that names the top competency, for tests.
#[derive(Default)]
pub struct FakePersonality;

impl PersonalityWriter for FakePersonality {
    fn describe(
        &self,
        model: &crate::assessment::AssessmentModel,
        scores: &crate::assessment::Scores,
        locale: crate::values::Locale,
    ) -> String {
        let top = scores
            .competencies
            .iter()
            .max_by(|a, b| a.score.total_cmp(&b.score))
            .and_then(|c| model.competency(c.competency_id))
            .map(|c| c.name.as_str())
            .unwrap_or("none");
        match locale {
            crate::values::Locale::En => format!("Top: {top}"),
            other => format!("Top[{other}]: {top}"),
        }
    }
}

/// A "PDF" that is the person's email, for tests.
#[derive(Default)]
pub struct FakeReports;

impl ReportRenderer for FakeReports {
    fn render(&self, input: &ReportInput<'_>) -> Result<Vec<u8>, String> {
        Ok(format!("%PDF-fake {}", input.person.email).into_bytes())
    }
}

/// Texts that show what the domain asked for (T217): `key[locale](name=value; …)`, dates as
/// `{RFC 3339 in the zone} {zone}`; the wording itself is the texts adapter's and tested there.
#[derive(Default)]
pub struct FakeTexts;

impl Texts for FakeTexts {
    fn message(&self, locale: crate::values::Locale, key: &str, args: &[(&str, TextArg<'_>)]) -> String {
        let args: Vec<String> = args
            .iter()
            .map(|(k, v)| match v {
                TextArg::Text(t) => format!("{k}={t}"),
                TextArg::Number(n) => format!("{k}={n}"),
            })
            .collect();
        format!("{key}[{locale}]({})", args.join("; "))
    }
    fn date_time(&self, _: crate::values::Locale, zone: &crate::values::TimeZone, at: OffsetDateTime) -> String {
        let local = zone.local(at).format(&time::format_description::well_known::Rfc3339).unwrap_or_default();
        format!("{local} {zone}")
    }
    fn date(&self, locale: crate::values::Locale, zone: &crate::values::TimeZone, at: OffsetDateTime) -> String {
        self.date_time(locale, zone, at)
    }
    fn list(&self, _: crate::values::Locale, items: &[String]) -> String {
        items.join(", ")
    }
    /// `{key}[{locale}]` for every locale but English.
    fn model_word(&self, locale: crate::values::Locale, key: &str) -> Option<String> {
        (locale != crate::values::Locale::En).then(|| format!("{key}[{locale}]"))
    }
}

/// A mailer that records what it sent, or fails while `fail` is set.
#[derive(Default)]
pub struct FakeMailer {
    /// Sent emails.
    pub sent: Mutex<Vec<OutgoingEmail>>,
    /// Fail every send.
    pub fail: std::sync::atomic::AtomicBool,
}

impl Mailer for FakeMailer {
    fn send<'a>(&'a self, email: &'a OutgoingEmail) -> BoxFuture<'a, Result<(), String>> {
        let r = if self.fail.load(Ordering::SeqCst) {
            Err("smtp down".to_string())
        } else {
            if let Ok(mut v) = self.sent.lock() {
                v.push(email.clone());
            }
            Ok(())
        };
        Box::pin(std::future::ready(r))
    }
}

/// One recorded webhook request: (url, event type, delivery id, body, secrets).
pub type SentHook = (String, String, String, String, Vec<String>);

/// A webhook sender that records requests and answers with the queued statuses (default 200).
#[derive(Default)]
pub struct FakeSender {
    /// Sent (url, event type, delivery id, body, secrets).
    pub sent: Mutex<Vec<SentHook>>,
    /// Statuses to answer, front first; empty = 200.
    pub answers: Mutex<std::collections::VecDeque<u16>>,
    /// Pushes to ATSs sent (D69).
    pub pushes: Mutex<Vec<crate::ports::PushRequest>>,
    /// Answers to [`WebhookSender::fetch`], front first (D82's order poll): a status and body,
    /// or a transport error; empty = 200 with `{}`. Every fetched request is kept in `fetched`.
    pub fetches: Mutex<std::collections::VecDeque<Result<crate::ports::Fetched, String>>>,
    /// Requests fetched.
    pub fetched: Mutex<Vec<crate::ports::PushRequest>>,
}

impl FakeSender {
    /// The next queued status (200 when none), as an attempt's outcome.
    fn answer(&self) -> BoxFuture<'static, SendResult> {
        let status = self.answers.lock().ok().and_then(|mut q| q.pop_front()).unwrap_or(200);
        Box::pin(std::future::ready(crate::webhook::AttemptOutcome {
            status: Some(status),
            duration_ms: 1,
            error: None,
            response_body: Some("ok".into()),
        }))
    }
}

impl WebhookSender for FakeSender {
    fn send<'a>(
        &'a self,
        url: &'a str,
        secrets: &'a [&'a str],
        event_type: &'a str,
        message: &'a crate::ports::WebhookMessage,
        _now: OffsetDateTime,
    ) -> BoxFuture<'a, SendResult> {
        if let Ok(mut v) = self.sent.lock() {
            v.push((
                url.into(),
                event_type.into(),
                message.delivery_id.clone(),
                message.body.clone(),
                secrets.iter().map(|s| s.to_string()).collect(),
            ));
        }
        self.answer()
    }
    fn push<'a>(&'a self, req: &'a crate::ports::PushRequest) -> BoxFuture<'a, SendResult> {
        if let Ok(mut v) = self.pushes.lock() {
            v.push(req.clone());
        }
        self.answer()
    }
    fn fetch<'a>(
        &'a self,
        req: &'a crate::ports::PushRequest,
        limit: usize,
    ) -> BoxFuture<'a, Result<crate::ports::Fetched, String>> {
        if let Ok(mut v) = self.fetched.lock() {
            v.push(req.clone());
        }
        let next = self.fetches.lock().ok().and_then(|mut q| q.pop_front());
        let mut r = next.unwrap_or_else(|| Ok(crate::ports::Fetched { status: 200, body: b"{}".to_vec() }));
        if let Ok(f) = &mut r {
            f.body.truncate(limit);
        }
        Box::pin(std::future::ready(r))
    }
    fn check_url(&self, url: &str) -> Result<(), String> {
        if url.starts_with("https://") || url.starts_with("http://") {
            Ok(())
        } else {
            Err("must be an https URL".into())
        }
    }
}

/// Renders every push as `POST` to the order's callback URL (or the connection's base URL) with
/// `{"order", "status", "score", "link"}`: enough for the domain's tests to see what would go out.
#[derive(Default)]
pub struct FakePushRenderer;

impl crate::ports::PushRenderer for FakePushRenderer {
    fn render(&self, input: &crate::ports::PushInput<'_>) -> Option<crate::ports::PushRequest> {
        let o = &input.report.order;
        let url = o.callback_url.clone().or_else(|| input.connection.base_url().map(str::to_string))?;
        let body = serde_json::json!({
            "order": o.id.to_string(),
            "status": o.status.as_str(),
            "score": input.report.result.as_ref().map(|m| m.percentage),
            "link": input.report_url,
            "pdf": input.pdf.map(|b| String::from_utf8_lossy(b).into_owned()),
        });
        Some(crate::ports::PushRequest {
            method: "POST",
            url,
            authorization: input.connection.settings.api_key.as_ref().map(|k| format!("Bearer {k}")),
            headers: vec![],
            body: Some(body.to_string()),
            success_member: false,
        })
    }

    /// `PUT {baseUrl}/packages` with `{"packages": [test ids]}`.
    fn packages(
        &self,
        connection: &crate::connector::Connection,
        tests: &[crate::connector::Test],
    ) -> Option<crate::ports::PushRequest> {
        let ids: Vec<String> = tests.iter().map(|t| t.test.id()).collect();
        Some(crate::ports::PushRequest {
            method: "PUT",
            url: format!("{}/packages", connection.base_url()?),
            authorization: None,
            headers: vec![],
            body: Some(serde_json::json!({ "packages": ids }).to_string()),
            success_member: false,
        })
    }
}
