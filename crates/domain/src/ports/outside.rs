//! Ports to the world outside: the rate limiter (D7, D8), the mailer (D22), the personality writer (D24), the report renderer (D27) and the webhook sender (D30-D35).

use super::*;
use crate::ids::*;
use crate::person::Person;
use crate::values::*;
use std::net::IpAddr;
use time::OffsetDateTime;

/// Who a rate budget belongs to (D7, D8).
#[derive(Clone, Debug)]
pub enum RateSubject<'a> {
    /// An authenticated request: the organization's budget and the key's budget (Set A), or the
    /// organization's alone (Set B).
    Key {
        /// Organization.
        org: OrgId,
        /// Key.
        key: ApiKeyId,
        /// The organization's plan (its budgets).
        plan: &'a Plan,
    },
    /// A request that failed authentication, limited per client IP (D8).
    Ip(IpAddr),
    /// A request to the admin API with a missing or wrong admin token, limited per client IP in
    /// a budget of its own (D53): it does not spend [`RateSubject::Ip`], and failed API keys do
    /// not spend it.
    AdminIp(IpAddr),
}

/// A rate-limit decision and the header values of the reported budget (D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateDecision {
    /// False: answer 429 `rate_limited`.
    pub allowed: bool,
    /// `X-RateLimit-Limit`: requests per minute of the reported budget.
    pub limit: u32,
    /// `X-RateLimit-Remaining`: whole requests left now.
    pub remaining: u32,
    /// `X-RateLimit-Reset`: Unix seconds at which the reported budget is full again.
    pub reset_unix: i64,
    /// `Retry-After` seconds (at least 1) when not allowed.
    pub retry_after_secs: Option<u64>,
}

/// The rate limiter (GCRA: governor in one process, or a shared store such as Redis across
/// instances, issue 17). `None` from [`RateLimiter::check`] means rate limiting is off
/// (`TALENT_RATE_LIMIT_MODE=off`): no headers. Asynchronous, as a shared store answers over the
/// network; an implementation that cannot reach its store decides locally rather than fail the
/// request (fail open).
pub trait RateLimiter: Send + Sync + 'static {
    /// Takes one request from the subject's budgets and reports the tightest one.
    fn check<'a>(&'a self, subject: RateSubject<'a>) -> BoxFuture<'a, Option<RateDecision>>;

    /// Whether the client IP `ip` is over its budget of requests failing authentication (D8)
    /// now, without taking a request: `Some` (not allowed, with the header values) from a refusal
    /// of [`RateSubject::Ip`] until the address's next request would conform. Checked before the
    /// key is looked up, so that an address over its budget learns nothing about keys and costs
    /// no database query (issue 13, T88). `None` also when limiting is off.
    fn blocked(&self, ip: std::net::IpAddr) -> BoxFuture<'_, Option<RateDecision>>;

    /// [`RateLimiter::blocked`] for the admin budget of `ip` ([`RateSubject::AdminIp`], D53):
    /// `Some` from a refusal of that budget until the address's next admin attempt would
    /// conform. Checked before the admin token is compared, so that guesses from an address over
    /// its budget are never checked (the right token waits too). `None` when limiting is off.
    fn admin_blocked(&self, ip: std::net::IpAddr) -> BoxFuture<'_, Option<RateDecision>>;
}

/// An email to send (D22; the mailer adapter records it or sends it by SMTP).
#[derive(Clone, Debug, PartialEq)]
pub struct OutgoingEmail {
    /// Recipient.
    pub to: Email,
    /// Subject line.
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// The invitation link the email carries, if any.
    pub invitation_url: Option<String>,
}

/// Sends email (D22). Implemented by the mailer adapter (invitations issue).
pub trait Mailer: Send + Sync + 'static {
    /// Sends one email. Errors: the transport's failure, as text.
    fn send<'a>(&'a self, email: &'a OutgoingEmail) -> BoxFuture<'a, Result<(), String>>;
}

/// Writes the `personality` text of a person's results (D24). The default adapter composes
/// markdown from the person's own results with templates; it never sees other persons.
pub trait PersonalityWriter: Send + Sync + 'static {
    /// Markdown describing `scores` of `model`, in `locale` (T222: the API's results in
    /// English, the report in its reader's language).
    fn describe(
        &self,
        model: &crate::assessment::AssessmentModel,
        scores: &crate::assessment::Scores,
        locale: Locale,
    ) -> String;
}

/// What a PDF report shows: one person, never a comparison (D27).
#[derive(Clone, Debug)]
pub struct ReportInput<'a> {
    /// The person.
    pub person: &'a Person,
    /// The latest visible completion.
    pub completed_at: OffsetDateTime,
    /// The model.
    pub model: &'a crate::assessment::AssessmentModel,
    /// The person's cumulative scores.
    pub scores: &'a crate::assessment::Scores,
    /// The personality markdown.
    pub personality: &'a str,
    /// The language of the report's own words (T217): headings, dates, bands, the footer.
    pub locale: Locale,
    /// The time zone of its dates (T217).
    pub zone: TimeZone,
    /// What the person was granted for the latest completed assessment (T218), printed.
    pub accommodations: Option<&'a Accommodations>,
}

/// Renders a person's report (D27). Errors: the renderer's failure, as text (a 500).
pub trait ReportRenderer: Send + Sync + 'static {
    /// The report as `application/pdf` bytes.
    fn render(&self, input: &ReportInput<'_>) -> Result<Vec<u8>, String>;
}

/// One request to an ATS (D69), as its connector adapter renders it: method, URL, the
/// `Authorization` header, other headers, and a JSON body.
#[derive(Clone, PartialEq, Eq)]
pub struct PushRequest {
    /// `PATCH`, `POST` or `PUT` (`GET` for [`WebhookSender::fetch`]).
    pub method: &'static str,
    /// Where.
    pub url: String,
    /// The `Authorization` header's value (a credential: never logged or stored).
    pub authorization: Option<String>,
    /// Other headers the protocol needs (Kombo's `X-Integration-Id`, D81).
    pub headers: Vec<(&'static str, String)>,
    /// A JSON body, if any.
    pub body: Option<String>,
    /// A `200` whose JSON body says `"success": false` is a failure (Ashby, D79).
    pub success_member: bool,
}

impl std::fmt::Debug for PushRequest {
    /// The credential never prints.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PushRequest")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("authorization", &self.authorization.as_ref().map(|_| "(set)"))
            .field("headers", &self.headers)
            .field("body", &self.body)
            .field("success_member", &self.success_member)
            .finish()
    }
}

/// What a push is about (D69): the connection, the order as it is now, what the ATS may be told
/// of its result ([`crate::usecases::orders::OrderReport`]), and the report link.
#[derive(Clone, Debug)]
pub struct PushInput<'a> {
    /// The connection (its ATS, settings and credentials).
    pub connection: &'a crate::connector::Connection,
    /// The order report: the order, its profile, and the match once completed and visible.
    pub report: &'a crate::usecases::orders::OrderReport,
    /// The report link, once completed (D68).
    pub report_url: Option<&'a str>,
    /// When the push was written (its `timestamp` for Ashby).
    pub at: time::OffsetDateTime,
    /// The PDF report, for a completion where the ATS takes it
    /// ([`crate::connector::Ats::attaches_report`], Kombo's attachment, D83).
    pub pdf: Option<&'a [u8]>,
}

/// Renders pushes to ATSs in each ATS's protocol (D69, D74, D79, D80, D83): the connector
/// adapter implements it. `None` when the ATS takes no push for the order's state (then nothing
/// is sent, and the push succeeds as nothing to do).
pub trait PushRenderer: Send + Sync + 'static {
    /// The request for `input`.
    fn render(&self, input: &PushInput<'_>) -> Option<PushRequest>;
    /// The request that replaces the ATS's list of the vendor's tests with `tests` (Kombo's
    /// packages, D81), for a connection whose ATS [takes packages](crate::connector::Ats::takes_packages).
    fn packages(
        &self,
        connection: &crate::connector::Connection,
        tests: &[crate::connector::Test],
    ) -> Option<PushRequest>;
}

/// An ATS's answer to [`WebhookSender::fetch`]: its status and body (at most the limit asked).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    /// HTTP status.
    pub status: u16,
    /// The body, cut at the limit.
    pub body: Vec<u8>,
}

/// The HTTP result of sending one webhook request (D31, D33).
pub type SendResult = crate::webhook::AttemptOutcome;

/// One webhook request's identity and body (D30, D57).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookMessage {
    /// `Talent-Delivery-Id`: the delivery's id (the envelope's `id`).
    pub delivery_id: String,
    /// `Talent-Event-Id` and `webhook-id`: the event's id (the envelope's `eventId`), the same
    /// on every retry, redelivery and replay (D57, D58).
    pub event_id: String,
    /// The envelope, exactly the bytes that are signed and sent.
    pub body: String,
}

/// Sends signed webhook requests (D30-D35, D58): the sender adapter signs the body with every
/// secret given (`Talent-Signature`, and `webhook-signature` for each secret in the Standard
/// Webhooks form), posts it with the `Talent-*` and `webhook-*` headers, never follows redirects,
/// times out after 10 s, and refuses every address [`crate::net::refusal`] refuses (D35, D54;
/// checked on the resolved address at connect time). It never fails: transport errors are in the
/// outcome.
pub trait WebhookSender: Send + Sync + 'static {
    /// Posts one delivery of an event of type `event_type` (`Talent-Event`).
    fn send<'a>(
        &'a self,
        url: &'a str,
        secrets: &'a [&'a str],
        event_type: &'a str,
        message: &'a WebhookMessage,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, SendResult>;
    /// Sends one push to an ATS (D69): `req` as it is, with the same transport rules as
    /// deliveries (no redirects, 10 s, the SSRF filter at connect time); a non-2xx, or a `200`
    /// with `"success": false` where `req.success_member`, is a failure in the outcome.
    fn push<'a>(&'a self, req: &'a PushRequest) -> BoxFuture<'a, SendResult>;
    /// Sends one request to an ATS and reads its answer (Kombo's order poll, D82), with the same
    /// transport rules as [`WebhookSender::push`]; at most `limit` bytes of the body are read.
    /// Errors: the transport's failure or the SSRF filter's refusal, as text (any status is an
    /// answer).
    fn fetch<'a>(&'a self, req: &'a PushRequest, limit: usize) -> BoxFuture<'a, Result<Fetched, String>>;
    /// Checks a URL at registration (D35, D54): scheme and literal addresses
    /// ([`crate::net::refusal`]). Errors: the reason, for the `url` field.
    fn check_url(&self, url: &str) -> Result<(), String>;
}

/// One argument of a [`Texts`] message: text, or a whole number (which chooses plural forms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TextArg<'a> {
    /// Text, inserted as written.
    Text(&'a str),
    /// A number, formatted for the locale; it selects the plural form where a message has them.
    Number(i64),
}

/// What persons read, in their language (issue 37, T217): messages by key, and dates and times
/// as the locale writes them in the person's time zone. The adapter (Project Fluent messages,
/// ICU4X formatting) ships every key in every [`Locale`]; a key a locale lacked would answer the
/// English text, and one English lacked the key itself (its tests forbid both).
pub trait Texts: Send + Sync + 'static {
    /// The message `key` in `locale` with its named `args`.
    fn message(&self, locale: Locale, key: &str, args: &[(&str, TextArg<'_>)]) -> String;
    /// `at` as a long date with the time to the minute, as the wall-clock time of `zone`,
    /// followed by the zone's offset from GMT (`9. Dezember 2026 um 23:16 GMT+1`).
    fn date_time(&self, locale: Locale, zone: &TimeZone, at: OffsetDateTime) -> String;
    /// `at` as a long date in `zone` (`9. Dezember 2026`).
    fn date(&self, locale: Locale, zone: &TimeZone, at: OffsetDateTime) -> String;
    /// `items` joined as `locale` writes a list that ends in "and" (`A, B and C`, `A、B、C`).
    fn list(&self, locale: Locale, items: &[String]) -> String;
    /// The assessment model's word `key` in `locale` (T222; the ids are
    /// [`crate::assessment::word_ids`]): `None` for English, whose words are the model's own, and
    /// for a word the locale does not translate (its tests forbid that). Read it through
    /// [`crate::assessment::ModelWords`].
    fn model_word(&self, locale: Locale, key: &str) -> Option<String>;
}
