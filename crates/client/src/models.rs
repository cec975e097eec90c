//! The resources of the public API as Rust types (the API reference, Resources). Field names are the
//! wire's camelCase; timestamps are RFC 3339 (`time::OffsetDateTime`), ids UUIDs. Enumerated
//! values are strings (`status`, `band`, ...) so that a value added to the API later does not
//! break an older client.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;

/// `time` RFC 3339 for `Option<OffsetDateTime>`.
pub(crate) use time::serde::rfc3339::option as rfc3339_opt;

/// A page of a list (the API reference, Pagination envelope).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Page<T> {
    pub data: Vec<T>,
    pub pagination: Pagination,
}

/// `pagination` of a page.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub has_more: bool,
    /// Pass as `cursor`, with the same filters, for the next page.
    pub next_cursor: Option<String>,
}

/// `GET /me` (spec, Key identity).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyIdentity {
    pub user_id: Uuid,
    pub organization_id: Uuid,
    /// `admin` or `member`.
    pub organization_role: String,
    pub scopes: Vec<String>,
    pub plan: String,
}

/// `GET /organization` (spec, Organization).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Organization {
    pub id: Uuid,
    pub company_name: String,
    pub email: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    pub subscription: Subscription,
    pub usage: Usage,
}

/// The organization's subscription.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    pub plan: String,
    /// `trialing`, `trial_expired`, `needs_plan`, `active`, `past_due` or `canceled`.
    pub status: String,
    #[serde(with = "rfc3339_opt")]
    pub trial_ends_at: Option<OffsetDateTime>,
    #[serde(with = "rfc3339_opt")]
    pub current_period_end: Option<OffsetDateTime>,
}

/// Plan usage.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    pub persons: PersonUsage,
    pub profiles: ProfileUsage,
}

/// `usage.persons`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonUsage {
    pub used: u32,
    pub limit: u32,
    pub import_blocked: bool,
}

/// `usage.profiles`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ProfileUsage {
    pub used: u32,
    pub limit: u32,
}

/// A person of the talent pool (spec, Person).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    pub id: Uuid,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    /// `active` or `archived`.
    pub status: String,
    pub labels: Vec<String>,
    pub tags: Vec<String>,
    pub joined_via: String,
    pub shared_existing_profile: bool,
    pub assessment: PersonAssessment,
    #[serde(with = "time::serde::rfc3339")]
    pub member_since: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    #[serde(with = "rfc3339_opt")]
    pub archived_at: Option<OffsetDateTime>,
}

/// A person's assessment summary.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonAssessment {
    /// `not_started`, `in_progress` or `completed`.
    pub status: String,
    #[serde(with = "rfc3339_opt")]
    pub completed_at: Option<OffsetDateTime>,
    pub count: u32,
}

/// The answer of `POST /persons`: the person and the invitation created with it, if any.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PersonImported {
    #[serde(flatten)]
    pub person: Person,
    pub invitation: Option<Invitation>,
}

/// The answer of `POST /persons/batch`: one result per item, in order.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchResult {
    pub results: Vec<BatchItem>,
}

/// What `POST /persons` would have answered for one item of a batch.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchItem {
    /// Position in the batch, from 0.
    pub index: usize,
    /// 201 created or reactivated, 200 already a member, or the error's status.
    pub status: u16,
    /// On success.
    pub person: Option<PersonImported>,
    /// On failure.
    pub error: Option<ErrorBody>,
}

/// The error envelope (spec, Errors).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// Human-readable message.
    pub error: String,
    /// Stable machine-readable code, e.g. `person_limit_reached`.
    pub code: String,
    /// Structured context.
    #[serde(default)]
    pub details: Option<serde_json::Value>,
}

/// A personal invitation (spec, Invitation).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub id: Uuid,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    pub person_id: Option<Uuid>,
    /// `pending`, `accepted`, `expired` or `revoked`.
    pub status: String,
    pub labels: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
    /// `assessment` or `access_request`.
    pub variant: String,
    pub message: Option<String>,
    /// The language of the emails and pages (`en`, `de`, … `zh-Hans`); `None`: the reader's
    /// browser language on the pages, else the organization's.
    #[serde(default)]
    pub locale: Option<String>,
    /// The IANA time zone of the dates the person reads; `None`: the organization's.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// What the person is granted for the assessment.
    #[serde(default)]
    pub accommodations: Option<Accommodations>,
    /// Where the person goes after accepting.
    #[serde(default)]
    pub redirect_url: Option<String>,
    pub url: String,
    #[serde(with = "rfc3339_opt")]
    pub email_sent_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    #[serde(with = "rfc3339_opt")]
    pub accepted_at: Option<OffsetDateTime>,
    #[serde(with = "rfc3339_opt")]
    pub revoked_at: Option<OffsetDateTime>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

/// What an invitation grants the person for the assessment; never part of scoring.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Accommodations {
    /// 0, 25, 50 or 100.
    pub extra_time_percent: u8,
    pub breaks: bool,
    pub screen_reader: bool,
    /// 1..500 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// A person's cumulative results (spec, Person results).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PersonResults {
    pub person_id: Uuid,
    pub has_results: bool,
    pub totals: Option<Totals>,
    pub motivation_axes: Option<Vec<MotivationAxis>>,
    pub competencies: Option<Competencies>,
    pub personality: Option<Personality>,
    /// What the person was granted for the latest completed assessment.
    #[serde(default)]
    pub accommodations: Option<Accommodations>,
}

/// `totals` of results.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Totals {
    pub assessments: u32,
    pub responses: u32,
}

/// A motivation axis and its needs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct MotivationAxis {
    pub code: String,
    pub name: String,
    pub needs: Vec<Need>,
}

/// A need's score (0..1) and exposure.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Need {
    pub name: String,
    pub definition: String,
    pub is_anchor: bool,
    pub score: f64,
    pub exposure: u32,
}

/// Competency scores through the named mapping.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Competencies {
    pub model_name: String,
    pub mapping_name: String,
    pub scores: Vec<CompetencyScore>,
}

/// One competency score (0..1, 0.5 neutral) and its band. Never compare between persons.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompetencyScore {
    pub competency_id: Uuid,
    pub name: String,
    pub description: Option<String>,
    pub score: f64,
    /// `high`, `moderate`, `some` or `limited`.
    pub band: String,
}

/// The personality description.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Personality {
    pub markdown: String,
    #[serde(with = "time::serde::rfc3339")]
    pub generated_at: OffsetDateTime,
}

/// A competency profile.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub id: Uuid,
    pub name: String,
    pub description: Option<String>,
    pub competencies: Vec<ProfileCompetency>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

/// A weighted competency of a profile.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileCompetency {
    pub competency_id: Uuid,
    pub name: String,
    pub weight: f64,
}

/// A profile match: the aggregate only.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    pub person_id: Uuid,
    pub profile_id: Uuid,
    /// 0..100.
    pub percentage: u8,
    /// `low`, `moderate` or `high`.
    pub category: String,
}

/// A webhook endpoint.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpoint {
    pub id: Uuid,
    pub url: String,
    /// Event types, or `["*"]`.
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

/// An endpoint with its signing secret: only from `create_webhook` and `rotate_webhook_secret`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WebhookEndpointWithSecret {
    #[serde(flatten)]
    pub endpoint: WebhookEndpoint,
    /// `whsec_…`: keep it; it is never shown again.
    pub secret: String,
}

/// A delivery record.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub event_type: String,
    /// `pending`, `succeeded` or `failed`.
    pub status: String,
    pub attempts: u32,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "rfc3339_opt")]
    pub last_attempt_at: Option<OffsetDateTime>,
    #[serde(with = "rfc3339_opt")]
    pub next_attempt_at: Option<OffsetDateTime>,
    pub last_response_status: Option<u16>,
    pub last_error: Option<String>,
    /// The `X-Request-Id` of the API call that caused the event; `None` when Talent did.
    #[serde(default)]
    pub request_id: Option<String>,
}

/// A delivery with its attempts.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryDetail {
    #[serde(flatten)]
    pub delivery: Delivery,
    pub attempt_log: Vec<Attempt>,
}

/// One delivery attempt.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    #[serde(with = "time::serde::rfc3339")]
    pub attempted_at: OffsetDateTime,
    pub response_status: Option<u16>,
    /// Milliseconds.
    pub duration_ms: u64,
    pub error: Option<String>,
    pub response_body: Option<String>,
}

/// The answer of `test_webhook`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookTestResult {
    pub delivery_id: Uuid,
    pub success: bool,
    pub response_status: Option<u16>,
    pub response_body: Option<String>,
    /// Milliseconds.
    pub duration_ms: u64,
    pub error: Option<String>,
}

/// `POST /persons` body (spec). `labels`: `candidate`/`employee`, at most 2; `tags` at most 50.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportPerson {
    pub email: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Creates an invitation in the same call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invitation: Option<NestedInvitation>,
}

/// The nested invitation of [`ImportPerson`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NestedInvitation {
    /// Always `true` (use [`NestedInvitation::new`]).
    pub create: bool,
    pub send_email: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in_days: Option<u32>,
    /// BCP 47 language tag of the emails and pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// IANA time zone of the dates the person reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accommodations: Option<Accommodations>,
    /// An https URL on one of the organization's redirect hosts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
}

impl NestedInvitation {
    /// An invitation created with the import; `send_email: false` means the client sends `url`.
    pub fn new(send_email: bool) -> Self {
        NestedInvitation {
            create: true,
            send_email,
            expires_in_days: None,
            locale: None,
            time_zone: None,
            accommodations: None,
            redirect_url: None,
        }
    }
}

/// `PATCH /persons/{id}` body: only the fields set are sent. `external_id: Some(None)` clears it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchPerson {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_id: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
}

/// `POST /invitations` body.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateInvitation {
    pub email: String,
    pub send_email: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// 1..2,000 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// 1..90; default 14.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in_days: Option<u32>,
    /// BCP 47 language tag of the emails and pages (`de`, `ja`, `pt-BR`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// IANA time zone of the dates the person reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// What the person is granted for the assessment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accommodations: Option<Accommodations>,
    /// An https URL on one of the organization's redirect hosts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
}

/// `POST /webhooks` body.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CreateWebhook {
    /// `https`, resolving to a public address.
    pub url: String,
    /// Event types, or `["*"]`.
    pub events: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// `PATCH /webhooks/{id}` body: only the fields set are sent; `description: Some(None)` clears it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PatchWebhook {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

/// Filters of `GET /persons` (spec); `None` is not sent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PersonQuery {
    pub q: Option<String>,
    /// `active` (default), `archived`, or `any` (both in one pass, for a full sync).
    pub status: Option<String>,
    pub email: Option<String>,
    pub external_id: Option<String>,
    pub assessment_status: Option<String>,
    /// `candidate`, `employee` or `other`.
    pub label: Option<String>,
    pub tag: Option<String>,
    pub updated_after: Option<OffsetDateTime>,
    /// 1..100; default 25.
    pub limit: Option<u32>,
}

/// Filters of `GET /invitations`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InvitationQuery {
    pub status: Option<String>,
    pub variant: Option<String>,
    pub email: Option<String>,
    pub external_id: Option<String>,
    pub person_id: Option<Uuid>,
    pub updated_after: Option<OffsetDateTime>,
    pub limit: Option<u32>,
}

/// Filters of `GET /webhooks/{id}/deliveries`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeliveryQuery {
    /// `pending`, `succeeded` or `failed`.
    pub status: Option<String>,
    pub limit: Option<u32>,
}

/// Filters of `GET /profiles/{id}/matches`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MatchQuery {
    pub person_id: Option<Uuid>,
    pub limit: Option<u32>,
}

fn rfc3339(t: &OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// Query parameters of a list, `None`s left out.
pub(crate) trait ToQuery {
    fn to_query(&self) -> Vec<(&'static str, String)>;
}

fn push<T: ToString>(out: &mut Vec<(&'static str, String)>, name: &'static str, v: &Option<T>) {
    if let Some(v) = v {
        out.push((name, v.to_string()));
    }
}

impl ToQuery for PersonQuery {
    fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        push(&mut q, "q", &self.q);
        push(&mut q, "status", &self.status);
        push(&mut q, "email", &self.email);
        push(&mut q, "externalId", &self.external_id);
        push(&mut q, "assessmentStatus", &self.assessment_status);
        push(&mut q, "label", &self.label);
        push(&mut q, "tag", &self.tag);
        push(&mut q, "updatedAfter", &self.updated_after.as_ref().map(rfc3339));
        push(&mut q, "limit", &self.limit);
        q
    }
}

impl ToQuery for InvitationQuery {
    fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        push(&mut q, "status", &self.status);
        push(&mut q, "variant", &self.variant);
        push(&mut q, "email", &self.email);
        push(&mut q, "externalId", &self.external_id);
        push(&mut q, "personId", &self.person_id);
        push(&mut q, "updatedAfter", &self.updated_after.as_ref().map(rfc3339));
        push(&mut q, "limit", &self.limit);
        q
    }
}

impl ToQuery for DeliveryQuery {
    fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        push(&mut q, "status", &self.status);
        push(&mut q, "limit", &self.limit);
        q
    }
}

impl ToQuery for MatchQuery {
    fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        push(&mut q, "personId", &self.person_id);
        push(&mut q, "limit", &self.limit);
        q
    }
}

/// Only a page size (`GET /profiles`).
impl ToQuery for Option<u32> {
    fn to_query(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        push(&mut q, "limit", self);
        q
    }
}
