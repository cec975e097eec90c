//! Ports: what the domain needs from the outside world. Adapters implement them (store: diesel;
//! rate limiter: governor; clock, ids and secrets: the app's system adapters). Every port is
//! `Send + Sync + 'static`; async methods return boxed `Send` futures so the transaction port stays
//! object-safe and the domain needs no async runtime.

use crate::errors::StoreError;
use crate::ids::*;
use crate::model::*;
use crate::values::*;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use time::OffsetDateTime;
use uuid::Uuid;

/// A boxed, `Send` future borrowing for `'a`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Result of a store call.
pub type StoreResult<T> = Result<T, StoreError>;

/// The current time (UTC, microsecond precision). The sandbox clock (D39) can move it forward.
pub trait Clock: Send + Sync + 'static {
    /// Now.
    fn now(&self) -> OffsetDateTime;
}

/// Moves the sandbox clock (D39, `TALENT_SANDBOX=1` only).
pub trait ClockControl: Send + Sync + 'static {
    /// Moves the clock forward by `secs` seconds.
    fn advance(&self, secs: i64);
}

/// New identifiers.
pub trait Ids: Send + Sync + 'static {
    /// A new unique id, sortable by creation time (UUIDv7).
    fn new_uuid(&self) -> Uuid;
}

/// A freshly generated API key (D41). `value` is shown once and never stored.
#[derive(Clone, Debug)]
pub struct NewKeyMaterial {
    /// The key: `tk_` + 16 prefix characters + 43 secret characters (URL-safe base64).
    pub value: String,
    /// The 16 characters after `tk_` (stored, unique, used for lookup).
    pub prefix: String,
    /// SHA-256 of `value` (stored).
    pub hash: Vec<u8>,
}

/// Cryptographic primitives (ring in production).
pub trait Secrets: Send + Sync + 'static {
    /// Generates a new API key from at least 240 random bits (D41).
    fn new_api_key(&self) -> NewKeyMaterial;
    /// SHA-256 of a presented key value.
    fn hash_api_key(&self, value: &str) -> Vec<u8>;
    /// Compares two byte strings in constant time (for equal lengths).
    fn constant_time_eq(&self, a: &[u8], b: &[u8]) -> bool;
    /// A random URL-safe token of `bytes` random bytes (base64url, no padding).
    fn random_token(&self, bytes: usize) -> String;
    /// The URL token of an invitation (D20): 32 bytes, base64url, derived from the invitation id
    /// with a server secret (HMAC-SHA256), so it is unguessable, never stored, and the same on
    /// every read and every instance.
    fn invitation_token(&self, id: InvitationId) -> String;
    /// SHA-256 of a presented invitation token (stored for lookup).
    fn hash_token(&self, token: &str) -> Vec<u8>;
    /// A one-time code (D43): [`crate::consent::CODE_DIGITS`] decimal digits, uniformly random.
    fn one_time_code(&self) -> String;
    /// The stored form of a one-time code: a keyed hash (HMAC-SHA256 with a server secret) bound
    /// to the invitation, so a copy of the database alone cannot try the million codes offline.
    fn hash_code(&self, invitation: InvitationId, code: &str) -> Vec<u8>;
}

/// Encrypts secrets the service must be able to read back (webhook signing secrets, the server
/// secrets behind invitation links and cursors) before they are stored, so a copy of the
/// database alone neither signs webhooks nor forges links (issue 12). Implemented with an AEAD
/// keyed from `TALENT_SECRET_KEY` by the app; the store seals on write and opens on read.
pub trait SecretBox: Send + Sync + 'static {
    /// The stored form of `plaintext`: `sealed:v1:` followed by base64url of nonce and
    /// ciphertext (a fresh nonce each time).
    fn seal(&self, plaintext: &str) -> String;
    /// The plaintext of a stored value. A value without the `sealed:` prefix was stored before
    /// sealing existed and is returned as it is (the store re-seals such values at start-up).
    /// Errors: a sealed value that no configured key opens (wrong key, or tampered).
    fn open(&self, stored: &str) -> Result<String, String>;
    /// Whether a stored value should be sealed again: plaintext, or sealed under a key other
    /// than the current one (after a rotation).
    fn needs_reseal(&self, stored: &str) -> bool;
}

/// A [`SecretBox`] that stores plaintext: for tests of other behaviour only.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainBox;

impl SecretBox for PlainBox {
    fn seal(&self, plaintext: &str) -> String {
        plaintext.to_string()
    }
    fn open(&self, stored: &str) -> Result<String, String> {
        Ok(stored.to_string())
    }
    fn needs_reseal(&self, _stored: &str) -> bool {
        false
    }
}

/// Whether a stored value is sealed ([`SecretBox::seal`]'s prefix).
pub fn is_sealed(stored: &str) -> bool {
    stored.starts_with("sealed:")
}

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

/// The rate limiter (GCRA; governor in production). `None` from [`RateLimiter::check`] means rate
/// limiting is off (`TALENT_RATE_LIMIT_MODE=off`): no headers.
pub trait RateLimiter: Send + Sync + 'static {
    /// Takes one request from the subject's budgets and reports the tightest one.
    fn check(&self, subject: RateSubject<'_>) -> Option<RateDecision>;

    /// Whether the client IP `ip` is over its budget of requests failing authentication (D8)
    /// now, without taking a request: `Some` (not allowed, with the header values) from a refusal
    /// of [`RateSubject::Ip`] until the address's next request would conform. Checked before the
    /// key is looked up, so that an address over its budget learns nothing about keys and costs
    /// no database query (issue 13, T88). `None` also when limiting is off.
    fn blocked(&self, ip: std::net::IpAddr) -> Option<RateDecision>;
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
    /// Markdown describing `scores` of `model`.
    fn describe(&self, model: &crate::assessment::AssessmentModel, scores: &crate::assessment::Scores) -> String;
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
}

/// Renders a person's report (D27). Errors: the renderer's failure, as text (a 500).
pub trait ReportRenderer: Send + Sync + 'static {
    /// The report as `application/pdf` bytes.
    fn render(&self, input: &ReportInput<'_>) -> Result<Vec<u8>, String>;
}

/// A page request of `GET /invitations` (D17).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InvitationQuery {
    /// Organization.
    pub org_id: Option<OrgId>,
    /// `status`, as read at `now` (D21: pending past expiry counts as expired).
    pub status: Option<crate::invitation::InvitationStatus>,
    /// The time `status` is evaluated at.
    pub now: Option<OffsetDateTime>,
    /// `variant`.
    pub variant: Option<crate::invitation::Variant>,
    /// `email`.
    pub email: Option<Email>,
    /// `externalId`.
    pub external_id: Option<String>,
    /// `personId`.
    pub person_id: Option<PersonId>,
    /// `updatedAfter` (exclusive).
    pub updated_after: Option<OffsetDateTime>,
    /// Keyset: ids lower than this.
    pub before_id: Option<InvitationId>,
    /// Rows.
    pub limit: u32,
}

/// When an email to an address was queued, and for which invitation ([`Tx::emails_to_since`],
/// issue 13, T93).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmailStamp {
    /// The invitation the email belongs to, if any.
    pub invitation_id: Option<InvitationId>,
    /// When it was queued.
    pub created_at: OffsetDateTime,
}

/// An email in the outbox (D22): sent by the mailer with retries; listed by the admin API.
#[derive(Clone, Debug, PartialEq)]
pub struct EmailRecord {
    pub id: EmailId,
    /// Organization.
    pub org_id: OrgId,
    /// Invitation the email belongs to.
    pub invitation_id: Option<InvitationId>,
    /// Recipient.
    pub to: Email,
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// The link it carries.
    pub invitation_url: Option<String>,
    /// Set after a successful send.
    pub sent_at: Option<OffsetDateTime>,
    /// Attempts so far.
    pub attempts: u32,
    /// Last failure.
    pub last_error: Option<String>,
    /// Next attempt (unsent only).
    pub next_attempt_at: OffsetDateTime,
    /// Creation.
    pub created_at: OffsetDateTime,
}

/// Where a stored JSON text lives ([`Tx::texts_mentioning`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextRef {
    /// An outbox event's `data`.
    Event(EventId),
    /// A delivery's payload (the signed body).
    Delivery(DeliveryId),
    /// A stored idempotent response body.
    Idempotency {
        /// Organization.
        org: OrgId,
        /// Request path.
        path: String,
        /// `Idempotency-Key`.
        key: String,
    },
}

/// A stored JSON text and where it lives (D44, D45 scrubbing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredText {
    /// Where.
    pub at: TextRef,
    /// The text.
    pub text: String,
}

/// One attempt to record ([`Tx::insert_attempts`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRecord {
    /// The delivery.
    pub delivery: DeliveryId,
    /// When the attempt started (service clock).
    pub at: OffsetDateTime,
    /// Its outcome.
    pub outcome: crate::webhook::AttemptOutcome,
}

/// What a delivery engine asks of [`Tx::claim_deliveries`] (T60).
#[derive(Clone, Debug)]
pub struct ClaimRequest {
    /// Now (service clock): deliveries due at or before it are claimable.
    pub now: OffsetDateTime,
    /// The claim's lease: another worker may claim the delivery again after it.
    pub lease_until: OffsetDateTime,
    /// Most deliveries to claim.
    pub limit: u32,
    /// Most attempts in flight per endpoint (this worker's, counting `busy_endpoints`).
    pub per_endpoint: u32,
    /// Most attempts in flight per organization (counting `busy_orgs`).
    pub per_org: u32,
    /// Attempts this worker has in flight per endpoint.
    pub busy_endpoints: Vec<(WebhookId, u32)>,
    /// Attempts this worker has in flight per organization.
    pub busy_orgs: Vec<(OrgId, u32)>,
}

/// The HTTP result of sending one webhook request (D31, D33).
pub type SendResult = crate::webhook::AttemptOutcome;

/// Sends signed webhook requests (D30-D35): the sender adapter signs `body` with every secret
/// given, posts it with the `Talent-*` headers, never follows redirects, times out after 10 s, and
/// refuses destinations D35 forbids (checked on the resolved address at connect time). It never
/// fails: transport errors are in the outcome.
pub trait WebhookSender: Send + Sync + 'static {
    /// Posts one delivery.
    fn send<'a>(
        &'a self,
        url: &'a str,
        secrets: &'a [&'a str],
        delivery_id: &'a str,
        event_type: &'a str,
        body: &'a str,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, SendResult>;
    /// Checks a URL at registration (D35): scheme and literal addresses. Errors: the reason.
    fn check_url(&self, url: &str) -> Result<(), String>;
}

/// Filter of `GET /persons` on labels (`other` = no label).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelFilter {
    /// Has `candidate`.
    Candidate,
    /// Has `employee`.
    Employee,
    /// Has no label.
    Other,
}

/// A completed assessment without its responses and its stored need counts (`None`: completed
/// before counts were stored), as [`Tx::completed_counts_of_result_holders`] returns them.
pub type CountedAssessment = (Assessment, Option<crate::assessment::NeedCounts>);

/// A page request of `GET /persons`: filters, keyset position and size (spec; D36).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PersonQuery {
    /// Organization.
    pub org_id: Option<OrgId>,
    /// `status` (default active).
    pub status: Option<PersonStatus>,
    /// `q`, lower-cased: substring of first name, last name or email.
    pub q: Option<String>,
    /// `email` exact.
    pub email: Option<Email>,
    /// `externalId` exact.
    pub external_id: Option<String>,
    /// `assessmentStatus`.
    pub assessment_status: Option<AssessmentStatus>,
    /// `label`.
    pub label: Option<LabelFilter>,
    /// `tag`, lower-cased (case-insensitive exact).
    pub tag_key: Option<String>,
    /// `updatedAfter` (exclusive).
    pub updated_after: Option<OffsetDateTime>,
    /// Keyset: return persons with an id lower than this (newest first = id descending).
    pub before_id: Option<PersonId>,
    /// Rows to return (the use case asks for one more than the page size to learn `hasMore`).
    pub limit: u32,
}

/// State of an idempotency record (D38).
#[derive(Clone, Debug, PartialEq)]
pub enum IdempotencyState {
    /// The first request is still running (since `started_at`).
    InFlight,
    /// The stored response.
    Done {
        /// HTTP status.
        status: u16,
        /// Response body (JSON text).
        body: String,
        /// Whether `X-Existing-Resource: true` was sent.
        existing_resource: bool,
    },
}

/// An idempotency record, scoped by organization and path, kept 24 h (D38).
#[derive(Clone, Debug, PartialEq)]
pub struct IdempotencyRecord {
    /// Organization.
    pub org_id: OrgId,
    /// Request path.
    pub path: String,
    /// The client's key.
    pub key: String,
    /// Hex SHA-256 of the canonical JSON body.
    pub request_hash: String,
    /// In flight or done.
    pub state: IdempotencyState,
    /// When the first request began.
    pub created_at: OffsetDateTime,
}

/// Organizations, their users and API keys (spec, Organization, Authentication; D5, D39, D41). Part of [`Tx`].
pub trait OrgRepo: Send {
    /// Inserts an organization.
    fn insert_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an organization's fields.
    fn update_org<'a>(&'a mut self, org: &'a Organization) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads an organization.
    fn get_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>>;
    /// Reads an organization and locks it until the transaction ends (serializes person-limit
    /// checks per organization).
    fn lock_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>>;
    /// Reads an organization and locks it in *shared* mode until the transaction ends (T65): shared
    /// holders do not wait for each other; [`Tx::lock_org`] waits for all of them and blocks new
    /// ones. A backend whose write transactions never overlap (SQLite) may treat it as
    /// `lock_org`, the default.
    fn lock_org_shared(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
        self.lock_org(id)
    }
    /// The most write transactions the database can have in flight at once, this one included
    /// (T65): PostgreSQL's `max_connections`; 1 where write transactions never overlap (SQLite,
    /// the default).
    fn concurrent_writers(&mut self) -> BoxFuture<'_, StoreResult<u32>> {
        Box::pin(async { Ok(1) })
    }
    /// The oldest organization whose company name is `name` (used by `talent demo`).
    fn find_org_by_name<'a>(&'a mut self, name: &'a str) -> BoxFuture<'a, StoreResult<Option<Organization>>>;
    /// Number of active persons of the organization: those committed, plus this transaction's
    /// own changes. Errors: `Internal`. # Locking: none; a use case that enforces the person
    /// limit holds the organization lock first (shared or exclusive, T65), and adapters may keep
    /// the count as counters updated with every change of persons (T69) rather than count rows.
    fn count_active_persons(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>>;

    /// Inserts a user. Errors: `UniqueViolation` when the email is already a user of the organization.
    fn insert_user<'a>(&'a mut self, user: &'a User) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads a user.
    fn get_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<Option<User>>>;
    /// Users of an organization, oldest first.
    fn users_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<User>>>;
    /// Inserts an API key record.
    fn insert_api_key<'a>(&'a mut self, key: &'a ApiKey) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads an API key record.
    fn get_api_key(&mut self, id: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<ApiKey>>>;
    /// Keys of a user (active or not), oldest first.
    fn api_keys_of_user(&mut self, user: UserId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>>;
    /// Sets `revoked_at` of a key.
    fn revoke_api_key(&mut self, id: ApiKeyId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>>;
    /// Key, owner role and organization by key prefix: one indexed lookup (authentication).
    fn key_context<'a>(&'a mut self, prefix: &'a str) -> BoxFuture<'a, StoreResult<Option<KeyContext>>>;
}

/// Persons (memberships), the humans behind them, tags and teams (D9-D16). Part of [`Tx`].
pub trait PersonRepo: Send {
    /// The human with this email, created with `new_id` when absent (race-safe).
    fn ensure_human<'a>(
        &'a mut self,
        new_id: HumanId,
        email: &'a Email,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<HumanId>>;
    /// The human with this email, if any (read only).
    fn human_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Option<HumanId>>>;
    /// The person of the organization with this email (any status). Errors: `Internal`.
    /// # Locking: in a write transaction the person's row, when there is one, until commit.
    /// Nothing is locked when there is none: two imports of one new email both find none, and
    /// the second's [`Tx::insert_person`] then fails with `UniqueViolation` (T70).
    fn person_by_email<'a>(&'a mut self, org: OrgId, email: &'a Email) -> BoxFuture<'a, StoreResult<Option<Person>>>;
    /// The person of the organization with this id (any status).
    fn person_by_id(&mut self, org: OrgId, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>>;
    /// The person with this id in any organization (admin API).
    fn person_by_id_any(&mut self, id: PersonId) -> BoxFuture<'_, StoreResult<Option<Person>>>;
    /// Inserts a person with its tags. Errors: `UniqueViolation` when the organization already has
    /// a person with this email.
    fn insert_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a person's fields and tag set.
    fn update_person<'a>(&'a mut self, p: &'a Person) -> BoxFuture<'a, StoreResult<()>>;
    /// Maps tag names onto the organization's catalogue, creating missing entries with the given
    /// ids (first spelling wins, D14). Returns one tag per input, in input order.
    fn resolve_tags<'a>(
        &'a mut self,
        org: OrgId,
        names: &'a [(TagName, TagId)],
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Vec<Tag>>>;
    /// One page of persons (at most `q.limit` rows), newest first.
    fn list_persons<'a>(&'a mut self, q: &'a PersonQuery) -> BoxFuture<'a, StoreResult<Vec<Person>>>;

    /// Inserts a team.
    fn insert_team<'a>(&'a mut self, team: &'a Team) -> BoxFuture<'a, StoreResult<()>>;
    /// Reads a team.
    fn get_team(&mut self, id: TeamId) -> BoxFuture<'_, StoreResult<Option<Team>>>;
    /// Adds a person to a team (no-op when already a member).
    fn add_team_member(&mut self, team: TeamId, person: PersonId, at: OffsetDateTime)
        -> BoxFuture<'_, StoreResult<()>>;
    /// Members of a team, in the order they were added.
    fn team_members(&mut self, team: TeamId) -> BoxFuture<'_, StoreResult<Vec<PersonId>>>;
    /// Removes a person from every team; returns how many memberships were removed.
    fn remove_person_from_teams(&mut self, person: PersonId) -> BoxFuture<'_, StoreResult<u64>>;
}

/// Invitations and the one-time codes of consent (D17-D21, D43). Part of [`Tx`].
pub trait InvitationRepo: Send {
    /// Inserts an invitation.
    fn insert_invitation<'a>(&'a mut self, i: &'a crate::invitation::Invitation) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an invitation.
    fn update_invitation<'a>(&'a mut self, i: &'a crate::invitation::Invitation) -> BoxFuture<'a, StoreResult<()>>;
    /// An invitation of the organization (locked for update in a write transaction).
    fn get_invitation(
        &mut self,
        org: OrgId,
        id: InvitationId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::invitation::Invitation>>>;
    /// An invitation in any organization (admin API, sweeps).
    fn get_invitation_any(
        &mut self,
        id: InvitationId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::invitation::Invitation>>>;
    /// The invitation whose token hashes to `hash`.
    fn invitation_by_token_hash<'a>(
        &'a mut self,
        hash: &'a [u8],
    ) -> BoxFuture<'a, StoreResult<Option<crate::invitation::Invitation>>>;
    /// The newest invitation of the organization for `email` stored as pending and not past
    /// `now`.
    fn pending_invitation_by_email<'a>(
        &'a mut self,
        org: OrgId,
        email: &'a Email,
        now: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<Option<crate::invitation::Invitation>>>;
    /// One page of invitations, newest first.
    fn list_invitations<'a>(
        &'a mut self,
        q: &'a InvitationQuery,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::invitation::Invitation>>>;
    /// Ids of invitations stored as pending whose `expiresAt` is at or before `now`.
    fn due_invitations(&mut self, now: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>>;
    /// Pending, unexpired invitations sent at or before `sent_before` without a reminder yet.
    fn reminders_due(
        &mut self,
        sent_before: OffsetDateTime,
        now: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<InvitationId>>>;
    /// Sets the status to expired if (and only if) it is still stored as pending and due: the
    /// conditional update makes the sweep exactly-once across instances. Returns whether it did.
    fn expire_invitation_if_pending(
        &mut self,
        id: InvitationId,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>>;
    /// Sets `reminder_sent_at` if still unset; returns whether it did (exactly-once reminders).
    fn mark_reminder_if_unset(&mut self, id: InvitationId, now: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>>;

    /// Inserts a code.
    fn insert_consent_code<'a>(&'a mut self, c: &'a crate::consent::ConsentCode) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a code's `tries` and `used_at`.
    fn update_consent_code<'a>(&'a mut self, c: &'a crate::consent::ConsentCode) -> BoxFuture<'a, StoreResult<()>>;
    /// The invitation's codes created after `since`, in any order. The caller serializes issuing
    /// and checking by locking the invitation first ([`Tx::get_invitation`]).
    fn consent_codes_since(
        &mut self,
        invitation: InvitationId,
        since: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<Vec<crate::consent::ConsentCode>>>;
}

/// Assessments, their need counts, and competency profiles (D10, D11, D23, D25). Part of [`Tx`].
pub trait AssessmentRepo: Send {
    /// Inserts an assessment.
    fn insert_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an assessment's state, completion time and responses.
    fn update_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>>;
    /// Assessments of a human, oldest first.
    fn assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Assessment>>>;
    /// Assessments of several humans, oldest first.
    fn assessments_of_humans<'a>(&'a mut self, humans: &'a [HumanId]) -> BoxFuture<'a, StoreResult<Vec<Assessment>>>;
    /// Stores the [`NeedCounts`] of a completed assessment, so matching reads them instead of its
    /// responses (issue 11). Errors: `Internal`.
    ///
    /// [`NeedCounts`]: crate::assessment::NeedCounts
    fn set_need_counts<'a>(
        &'a mut self,
        id: AssessmentId,
        counts: &'a crate::assessment::NeedCounts,
    ) -> BoxFuture<'a, StoreResult<()>>;
    /// The completed assessments of the humans of the organization's [`Tx::result_holders`], in
    /// one query (no list of humans sent), in no particular order, *without* their responses (`responses`
    /// empty), each with its stored counts: `None` for one completed before counts were stored
    /// (the caller scores its responses instead). Visibility per membership (D11) is the caller's.
    /// Errors: `Internal`, also for counts that do not parse.
    fn completed_counts_of_result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<CountedAssessment>>>;
    /// Every membership of a human, in any organization and status.
    fn persons_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Person>>>;
    /// Active persons of an organization with at least one visible completed assessment, newest
    /// first (id descending).
    fn persons_with_results(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Person>>>;
    /// [`Tx::persons_with_results`], only what matching needs of each ([`ResultHolder`]), newest
    /// first. Errors: `Internal`.
    fn result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ResultHolder>>>;

    /// Inserts a profile.
    fn insert_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>>;
    /// A profile of the organization.
    fn get_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<Option<Profile>>>;
    /// Profiles of the organization, newest first (id descending), with an id lower than `before`.
    fn list_profiles(
        &mut self,
        org: OrgId,
        before: Option<ProfileId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Profile>>>;
    /// Number of profiles of the organization.
    fn count_profiles(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>>;
}

/// The event outbox (D31): events are written in the use case's transaction. Part of [`Tx`].
pub trait OutboxRepo: Send {
    /// Inserts an event into the outbox, nothing more: use cases append events with
    /// [`crate::outbox::append`], which also fans them out (D31, T96).
    fn insert_event<'a>(&'a mut self, e: &'a OutboxEvent) -> BoxFuture<'a, StoreResult<()>>;
    /// Events of an organization, oldest first (diagnostics and tests).
    fn events_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<OutboxEvent>>>;
}

/// Webhook endpoints, deliveries and attempts (D29-D35, T60). Part of [`Tx`].
pub trait WebhookRepo: Send {
    /// Inserts an endpoint.
    fn insert_endpoint<'a>(&'a mut self, e: &'a crate::webhook::Endpoint) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an endpoint.
    fn update_endpoint<'a>(&'a mut self, e: &'a crate::webhook::Endpoint) -> BoxFuture<'a, StoreResult<()>>;
    /// An endpoint of the organization.
    fn get_endpoint(
        &mut self,
        org: OrgId,
        id: WebhookId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::webhook::Endpoint>>>;
    /// Endpoints of the organization, oldest first.
    fn endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<crate::webhook::Endpoint>>>;
    /// Deletes an endpoint and its deliveries.
    fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>>;
    /// Inserts a delivery (test pings).
    fn insert_delivery<'a>(&'a mut self, d: &'a crate::webhook::Delivery) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a delivery's state and releases its claim.
    fn update_delivery<'a>(&'a mut self, d: &'a crate::webhook::Delivery) -> BoxFuture<'a, StoreResult<()>>;
    /// [`Tx::update_delivery`] for many deliveries: their state (status, attempts, next and last
    /// attempt, last response status and error), claims released. An adapter may do it in one
    /// statement (the engine's outcome batches, T60). Default: one `update_delivery` each.
    fn update_deliveries<'a>(&'a mut self, ds: &'a [crate::webhook::Delivery]) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            for d in ds {
                self.update_delivery(d).await?;
            }
            Ok(())
        })
    }
    /// Records attempts of deliveries (one statement for the batch where the backend allows),
    /// numbering each after the attempts its delivery already has.
    ///
    /// # Errors
    /// `Internal` when a delivery does not exist (callers pass ids read in the same transaction).
    fn insert_attempts<'a>(&'a mut self, attempts: &'a [AttemptRecord]) -> BoxFuture<'a, StoreResult<()>>;
    /// Endpoints by id, in any organization (the delivery engine's batch read); missing ids are
    /// left out.
    fn endpoints_by_ids<'a>(
        &'a mut self,
        ids: &'a [WebhookId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Endpoint>>>;
    /// Deliveries by id, as stored now; missing ids (deleted with their endpoint) are left out.
    ///
    /// # Locking
    /// In a write transaction on PostgreSQL the rows are locked (`FOR UPDATE`), so recording
    /// outcomes does not race a concurrent redeliver.
    fn deliveries_by_ids<'a>(
        &'a mut self,
        ids: &'a [DeliveryId],
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Delivery>>>;
    /// A delivery of an endpoint.
    fn get_delivery(
        &mut self,
        endpoint: WebhookId,
        id: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Option<crate::webhook::Delivery>>>;
    /// Attempts of a delivery, oldest first.
    fn attempts_of(
        &mut self,
        delivery: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Vec<(OffsetDateTime, crate::webhook::AttemptOutcome)>>>;
    /// Deliveries of an endpoint, newest first, keyset by id, optional status.
    fn list_deliveries(
        &mut self,
        endpoint: WebhookId,
        status: Option<crate::webhook::DeliveryStatus>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<crate::webhook::Delivery>>>;
    /// Claims pending deliveries due at `now` of enabled endpoints whose breaker is not open, each
    /// until `c.lease_until` (a claim whose worker died expires and is claimed again), oldest due
    /// first, at most `c.limit` in all, and per endpoint and per organization at most the cap less
    /// what the caller already has in flight there ([`ClaimRequest`], T60).
    ///
    /// # Locking
    /// Safe with several instances: on PostgreSQL rows are claimed with `FOR UPDATE SKIP LOCKED`;
    /// on SQLite the claim is one `UPDATE ... RETURNING` under the write lock.
    fn claim_deliveries<'a>(
        &'a mut self,
        c: &'a ClaimRequest,
    ) -> BoxFuture<'a, StoreResult<Vec<crate::webhook::Delivery>>>;
    /// Deletes up to `limit` deliveries (with their attempts) created before `before` that no
    /// worker holds, and up to `limit` outbox events created before `before` (retention, T61).
    /// Returns how many rows of each were deleted: (deliveries, events).
    fn purge_webhook_history(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<(u64, u64)>>;
    /// Asks the store to wake the delivery engines once this transaction commits (in-process, and
    /// on PostgreSQL every instance through `NOTIFY`): call it when the transaction made a
    /// delivery due now (fan-out, redeliver, re-enabling an endpoint). A rolled-back transaction
    /// wakes nobody.
    fn wake_deliveries(&mut self);
}

/// The email outbox (D22, T58, T93). Part of [`Tx`].
pub trait EmailRepo: Send {
    /// Inserts an email.
    fn insert_email<'a>(&'a mut self, e: &'a EmailRecord) -> BoxFuture<'a, StoreResult<()>>;
    /// Unsent emails due at `now`, oldest first.
    fn due_emails(&mut self, now: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<Vec<EmailRecord>>>;
    /// Claims an unsent email due at `now` for one sender: moves `next_attempt_at` to
    /// `lease_until`; true for the one caller that claimed it (concurrent deliverers skip it, so
    /// each email is sent once; a crashed sender's email is retried after the lease).
    fn claim_email(
        &mut self,
        id: EmailId,
        now: OffsetDateTime,
        lease_until: OffsetDateTime,
    ) -> BoxFuture<'_, StoreResult<bool>>;
    /// Records a send attempt: `Ok` sets `sent_at`; `Err` records the error and the next attempt.
    fn record_email_attempt<'a>(
        &'a mut self,
        id: EmailId,
        result: Result<OffsetDateTime, (&'a str, OffsetDateTime)>,
    ) -> BoxFuture<'a, StoreResult<()>>;
    /// Emails, newest first, optionally to one address (admin API).
    fn list_emails<'a>(&'a mut self, to: Option<&'a Email>, limit: u32)
        -> BoxFuture<'a, StoreResult<Vec<EmailRecord>>>;
}

/// Idempotency records (D38). Part of [`Tx`].
pub trait IdempotencyRepo: Send {
    /// Reads a record.
    fn idem_get<'a>(
        &'a mut self,
        org: OrgId,
        path: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>>;
    /// Inserts a record unless (org, path, key) exists (race-safe); returns whether it inserted.
    fn idem_insert<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<bool>>;
    /// Overwrites a record's state.
    fn idem_update<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes a record.
    fn idem_delete<'a>(&'a mut self, org: OrgId, path: &'a str, key: &'a str) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes the oldest records created before `before`, about `limit` of them (records created
    /// at the same instant as the `limit`-th go together); returns how many (D46).
    fn idem_purge(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
}

/// Export and erasure of a human's data (D44, D45) and retention (D46). Part of [`Tx`].
pub trait PrivacyRepo: Send {
    /// Stored JSON texts that may carry a person's data and contain one of `needles` (plain
    /// substrings, matched case-insensitively or not as the backend's `LIKE` does; the caller
    /// checks): outbox events' `data`, deliveries' payloads and stored idempotent responses, of
    /// `org` or of every organization.
    fn texts_mentioning<'a>(
        &'a mut self,
        org: Option<OrgId>,
        needles: &'a [String],
    ) -> BoxFuture<'a, StoreResult<Vec<StoredText>>>;
    /// Overwrites one stored text found by [`Tx::texts_mentioning`].
    fn rewrite_text<'a>(&'a mut self, t: &'a StoredText) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes the stored emails of an invitation; returns how many.
    fn delete_emails_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<u64>>;
    /// Outbox events (any organization) whose `data` contains `needle` (as
    /// [`Tx::texts_mentioning`] matches), oldest first (D45 export).
    fn events_mentioning<'a>(&'a mut self, needle: &'a str) -> BoxFuture<'a, StoreResult<Vec<OutboxEvent>>>;
    /// Deletes up to `limit` stored emails created before `before`, oldest first; returns how
    /// many (D46).
    fn purge_emails(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
    /// Deletes up to `limit` one-time codes created before `before`; returns how many (D46).
    fn purge_consent_codes(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
    /// The emails queued to `to` (any organization) at or after `since`, newest first, at most
    /// `limit`: what the email limits of T93 count.
    fn emails_to_since<'a>(
        &'a mut self,
        to: &'a Email,
        since: OffsetDateTime,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<EmailStamp>>>;
    /// Deletes every stored email to `to`; returns how many (D45).
    fn delete_emails_to<'a>(&'a mut self, to: &'a Email) -> BoxFuture<'a, StoreResult<u64>>;
    /// Deletes a human's assessments with their responses and counts; returns how many (D45).
    fn delete_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<u64>>;
    /// Deletes a human that no membership and no assessment refers to any more (D45).
    fn delete_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<()>>;
}

/// Server settings and secrets at rest (T84), and the transaction's durability. Part of [`Tx`].
pub trait SettingsRepo: Send {
    /// Lets this transaction's commit return before it is durable (PostgreSQL: `SET LOCAL
    /// synchronous_commit = off`; SQLite in WAL with `synchronous=NORMAL` already is). For the
    /// delivery engine's claims and outcomes only (T60): a crash may lose the last few of them,
    /// which at-least-once delivery absorbs (a lost claim is claimed again; a lost outcome means
    /// the delivery is sent again after its lease). Never for a use case whose answer a client
    /// receives.
    fn relax_durability(&mut self) -> BoxFuture<'_, StoreResult<()>>;

    /// Seals again, with the store's current [`SecretBox`] key, every stored secret that needs it
    /// ([`SecretBox::needs_reseal`]): webhook signing secrets and settings. Run at start-up, so a
    /// database from before sealing, or from before a key rotation, is sealed under the current
    /// key. Returns how many values were rewritten. Errors: a value no configured key opens.
    fn reseal_secrets(&mut self) -> BoxFuture<'_, StoreResult<u64>>;

    /// The value of a setting, inserting `value` first when absent (race-safe); returns the stored
    /// value. Values are secrets: the store seals them ([`SecretBox`]).
    fn setting_get_or_insert<'a>(&'a mut self, name: &'a str, value: &'a str) -> BoxFuture<'a, StoreResult<String>>;
}

/// The store's operations inside one transaction. Every method runs on the transaction's
/// connection; nothing is visible to others before commit. Errors: [`StoreError::Internal`] for
/// infrastructure failures; [`StoreError::UniqueViolation`] only where a method says so.
///
/// It is the sum of the aggregate ports ([`OrgRepo`], [`PersonRepo`], [`InvitationRepo`], [`AssessmentRepo`], [`OutboxRepo`], [`WebhookRepo`], [`EmailRepo`], [`IdempotencyRepo`], [`PrivacyRepo`], [`SettingsRepo`]); a backend implements each of them
/// and gets `Tx` from the blanket implementation.
pub trait Tx:
    OrgRepo
    + PersonRepo
    + InvitationRepo
    + AssessmentRepo
    + OutboxRepo
    + WebhookRepo
    + EmailRepo
    + IdempotencyRepo
    + PrivacyRepo
    + SettingsRepo
{
}

impl<
        T: OrgRepo
            + PersonRepo
            + InvitationRepo
            + AssessmentRepo
            + OutboxRepo
            + WebhookRepo
            + EmailRepo
            + IdempotencyRepo
            + PrivacyRepo
            + SettingsRepo
            + ?Sized,
    > Tx for T
{
}

/// The store: runs one use case in one transaction. The closure and its results are `'static` so
/// an adapter may run the transaction in its own task: a caller that goes away (a client that
/// disconnects) cannot cancel a transaction half-way.
pub trait Store: Send + Sync + 'static {
    /// Runs `f` in a read-write transaction: commit when it returns `Ok`, roll back on `Err`.
    /// On SQLite the transaction takes the write lock at once (`BEGIN IMMEDIATE`).
    fn write<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static;

    /// Runs `f` for reads only (a consistent snapshot where the backend offers one); `f` must not write.
    fn read<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static;

    /// Checks that the database answers and migrations are applied (`/readyz`).
    fn ready(&self) -> BoxFuture<'_, StoreResult<()>>;

    /// The key, its owner's role and its organization for the key lookup `prefix` (D41), for
    /// authentication; `None` when no key has that prefix. An adapter may serve it from a cache
    /// (issue 11, T63) provided that a committed `Tx::update_org` or `Tx::revoke_api_key` is seen
    /// by the next call on the same instance and within 1 s on any other; unknown prefixes must not
    /// be cached. Default: one read.
    ///
    /// # Errors
    /// `StoreError::Internal` when the database fails.
    fn key_context<'s>(&'s self, prefix: &'s str) -> BoxFuture<'s, StoreResult<Option<KeyContext>>> {
        let owned = prefix.to_string();
        self.read(move |tx| Box::pin(async move { tx.key_context(&owned).await }))
    }
}
