//! The response shapes of the public API as Rust types, for the OpenAPI document only (issue 6).
//!
//! The JSON itself is built by `talent_domain::wire` (Person, Organization, Invitation, key
//! identity: shared with webhook event data, D34) and by the handlers of this crate. These types
//! describe it; `super::tests` validates the builders' real output against the schemas generated
//! from them, so the two cannot drift apart unnoticed (decision T51).
//!
//! Every property of a response object is required (nullable ones included) and no other property
//! is allowed: the spec's "all fields are always present; no additional fields" (`super::strict`).
#![allow(dead_code)]

use serde::Serialize;
use talent_domain::errors::Code;
use talent_domain::webhook::EVENT_TYPES;
use time::OffsetDateTime;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::ToSchema;
use uuid::Uuid;

/// A person's label (spec, Person: items `candidate` or `employee`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Label {
    Candidate,
    Employee,
}

/// A tag name in a request body: 1 to 50 characters, not only white space (spec, Limits; D14),
/// no control character but tab and line breaks around it, which are trimmed (T86). The length
/// is that of the trimmed text, so the pattern states it rather than `maxLength`.
#[derive(Serialize, ToSchema)]
#[schema(
    pattern = r"^[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000](?:[^\u0000-\u001f\u007f-\u009f]{0,48}[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])?[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
)]
pub struct Tag(pub String);

/// A tag name in a query filter: as [`Tag`] but no control character at all (T86).
#[derive(Serialize, ToSchema)]
#[schema(
    pattern = r"^[ \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000](?:[^\u0000-\u001f\u007f-\u009f]{0,48}[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])?[ \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
)]
pub struct TagFilter(pub String);

/// An external id (spec, Person `externalId`): 1 to 255 characters, kept as sent, one line (T86).
#[derive(Serialize, ToSchema)]
#[schema(min_length = 1, max_length = 255, pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$")]
pub struct ExternalId(pub String);

/// The `q` search of `GET /persons`: at most 100 characters, one line (T86).
#[derive(Serialize, ToSchema)]
#[schema(max_length = 100, pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$")]
pub struct SearchText(pub String);

/// One line of text in a query filter (`q`, `externalId`): no control character (T86).
#[derive(Serialize, ToSchema)]
#[schema(pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$")]
pub struct OneLine(pub String);

/// An email address in a request (D9: trimmed and lower-cased; at most 254 characters).
#[derive(Serialize, ToSchema)]
#[schema(format = Email, max_length = 254)]
pub struct EmailAddress(pub String);

/// A person's first or last name in a request: 1 to 100 characters, not only white space, no
/// control character but tab and line breaks around it, which are trimmed (T86). Both the text as
/// sent and the trimmed text have 1 to 100 characters.
#[derive(Serialize, ToSchema)]
#[schema(
    min_length = 1,
    max_length = 100,
    pattern = r"^[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000](?:[^\u0000-\u001f\u007f-\u009f]{0,98}[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])?[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
)]
pub struct Name(pub String);

/// A person's status (spec, Person status).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PersonStatus {
    Active,
    Archived,
}

/// A person's assessment status (spec, Assessment status of a person).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AssessmentStatus {
    NotStarted,
    InProgress,
    Completed,
}

/// How the person entered the pool (spec, Person `joinedVia`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JoinedVia {
    Api,
    InvitationLink,
    InvitationPersonal,
}

/// The `assessment` summary of a Person: visible assessments only (D11).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonAssessment {
    pub status: AssessmentStatus,
    pub completed_at: Option<OffsetDateTime>,
    /// Number of completed (visible) assessments.
    #[schema(minimum = 0)]
    pub count: u32,
}

/// A person of the organization's talent pool (spec, Person). `id` is the membership id (D10).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Person {
    pub id: Uuid,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// The client's own identifier.
    pub external_id: Option<String>,
    pub status: PersonStatus,
    /// `[]` means neither label ("other").
    #[schema(schema_with = label_set)]
    pub labels: Vec<Label>,
    /// Sorted case-insensitively (D14).
    pub tags: Vec<String>,
    pub joined_via: JoinedVia,
    /// Consent to share results from assessments taken before joining (D11).
    pub shared_existing_profile: bool,
    pub assessment: PersonAssessment,
    pub member_since: OffsetDateTime,
    pub updated_at: OffsetDateTime,
    pub archived_at: Option<OffsetDateTime>,
}

/// The pagination object of every list (spec, Pagination envelope; D36).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub has_more: bool,
    /// Opaque; pass as `cursor` (with the same filters) for the next page.
    pub next_cursor: Option<String>,
}

/// An invitation's status (spec, Invitation status; D21: reads `expired` once `expiresAt` passed).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvitationStatus {
    Pending,
    Accepted,
    Expired,
    Revoked,
}

/// An invitation's variant (spec, Invitation; D19).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum InvitationVariant {
    Assessment,
    AccessRequest,
}

/// A personal assessment invitation (spec, Invitation; D17–D21).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Invitation {
    pub id: Uuid,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    /// Set at creation when known, otherwise at acceptance.
    pub person_id: Option<Uuid>,
    pub status: InvitationStatus,
    /// Applied on acceptance; null: default `candidate` plus the employee domain rule (D15).
    #[schema(schema_with = label_set_or_null)]
    pub labels: Option<Vec<Label>>,
    pub tags: Option<Vec<String>>,
    pub variant: InvitationVariant,
    pub message: Option<String>,
    /// `{public_base_url}/i/{token}` (D20).
    pub url: String,
    pub email_sent_at: Option<OffsetDateTime>,
    pub expires_at: OffsetDateTime,
    pub accepted_at: Option<OffsetDateTime>,
    pub revoked_at: Option<OffsetDateTime>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// A subscription's status (spec, Subscription status; D4).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SubscriptionStatus {
    Trialing,
    TrialExpired,
    NeedsPlan,
    Active,
    PastDue,
    Canceled,
}

/// `subscription` of the Organization.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Subscription {
    /// Plan id (D5), e.g. `professional`.
    pub plan: String,
    pub status: SubscriptionStatus,
    pub trial_ends_at: Option<OffsetDateTime>,
    pub current_period_end: Option<OffsetDateTime>,
}

/// `usage.persons` of the Organization (D6).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonUsage {
    #[schema(minimum = 0)]
    pub used: u32,
    #[schema(minimum = 0)]
    pub limit: u32,
    /// Imports and invitations are refused (limit reached or subscription inactive).
    pub import_blocked: bool,
}

/// `usage.profiles` of the Organization.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileUsage {
    #[schema(minimum = 0)]
    pub used: u32,
    #[schema(minimum = 0)]
    pub limit: u32,
}

/// `usage` of the Organization.
#[derive(Serialize, ToSchema)]
pub struct Usage {
    pub persons: PersonUsage,
    pub profiles: ProfileUsage,
}

/// The key's organization (spec, Organization).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Organization {
    pub id: Uuid,
    pub company_name: String,
    pub email: String,
    pub created_at: OffsetDateTime,
    pub subscription: Subscription,
    pub usage: Usage,
}

/// A user's role in the organization.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OrganizationRole {
    Admin,
    Member,
}

/// An API key scope (spec, Authentication).
#[derive(Serialize, ToSchema)]
pub enum ScopeName {
    #[serde(rename = "organization:read")]
    OrganizationRead,
    #[serde(rename = "persons:read")]
    PersonsRead,
    #[serde(rename = "persons:write")]
    PersonsWrite,
    #[serde(rename = "invitations:read")]
    InvitationsRead,
    #[serde(rename = "invitations:write")]
    InvitationsWrite,
    #[serde(rename = "results:read")]
    ResultsRead,
    #[serde(rename = "profiles:read")]
    ProfilesRead,
    #[serde(rename = "webhooks:manage")]
    WebhooksManage,
}

/// The calling key's identity (spec, Key identity).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeyIdentity {
    pub user_id: Uuid,
    pub organization_id: Uuid,
    pub organization_role: OrganizationRole,
    pub scopes: Vec<ScopeName>,
    /// Current plan id (D5).
    pub plan: String,
}

/// `totals` of person results.
#[derive(Serialize, ToSchema)]
pub struct Totals {
    /// Completed visible assessments.
    #[schema(minimum = 0)]
    pub assessments: u32,
    /// Forced-choice responses over them.
    #[schema(minimum = 0)]
    pub responses: u32,
}

/// One need of a motivation axis (spec, Person results; D23).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Need {
    pub name: String,
    pub definition: String,
    pub is_anchor: bool,
    /// Smoothed share of choices, 0 to 1, cumulative over visible assessments.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub score: f64,
    /// How often the need was shown.
    #[schema(minimum = 0)]
    pub exposure: u32,
}

/// A motivation axis with its needs.
#[derive(Serialize, ToSchema)]
pub struct MotivationAxis {
    pub code: String,
    pub name: String,
    pub needs: Vec<Need>,
}

/// A competency band (D2: half-open intervals on the unrounded score).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    High,
    Moderate,
    Some,
    Limited,
}

/// One competency score: per-person only, never compared between persons (spec, concept 4).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompetencyScore {
    pub competency_id: Uuid,
    pub name: String,
    pub description: Option<String>,
    /// Aptitude 0 to 1, 0.5 neutral.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub score: f64,
    pub band: Band,
}

/// `competencies` of person results.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Competencies {
    pub model_name: String,
    pub mapping_name: String,
    pub scores: Vec<CompetencyScore>,
}

/// The personality description (D24).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Personality {
    pub markdown: String,
    pub generated_at: OffsetDateTime,
}

/// A person's cumulative results (spec, Person results). Without a completed visible assessment:
/// `hasResults: false` and every other member null.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PersonResults {
    pub person_id: Uuid,
    pub has_results: bool,
    pub totals: Option<Totals>,
    pub motivation_axes: Option<Vec<MotivationAxis>>,
    pub competencies: Option<Competencies>,
    pub personality: Option<Personality>,
}

/// A weighted competency of a profile (D25).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileCompetency {
    pub competency_id: Uuid,
    pub name: String,
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub weight: f64,
}

/// A competency profile (D25).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub id: Uuid,
    pub name: String,
    pub description: Option<String>,
    pub competencies: Vec<ProfileCompetency>,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// A match category (D3: `high` >= 70, `moderate` 50..69, `low` < 50).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchCategory {
    Low,
    Moderate,
    High,
}

/// A profile match: only the aggregate, never a competency score (spec, concept 4; D3, D26).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    pub person_id: Uuid,
    pub profile_id: Uuid,
    #[schema(minimum = 0, maximum = 100)]
    pub percentage: u8,
    pub category: MatchCategory,
}

/// A webhook endpoint (D29). The signing secret is only in [`WebhookEndpointWithSecret`].
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpoint {
    pub id: Uuid,
    pub url: String,
    #[schema(schema_with = event_subscriptions)]
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    pub created_at: OffsetDateTime,
    pub updated_at: OffsetDateTime,
}

/// A delivery's status (D32).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    Pending,
    Succeeded,
    Failed,
}

/// A webhook delivery record (D32); its `id` is the event's `Talent-Delivery-Id` (D31).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: Uuid,
    #[serde(rename = "type")]
    #[schema(value_type = EventType)]
    pub event_type: String,
    pub status: DeliveryStatus,
    #[schema(minimum = 0)]
    pub attempts: u32,
    pub created_at: OffsetDateTime,
    pub last_attempt_at: Option<OffsetDateTime>,
    pub next_attempt_at: Option<OffsetDateTime>,
    #[schema(minimum = 100, maximum = 599)]
    pub last_response_status: Option<u16>,
    pub last_error: Option<String>,
}

/// One attempt of a delivery (`attemptLog` of `GET .../deliveries/{deliveryId}`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    pub attempted_at: OffsetDateTime,
    /// The receiver's status; null when no response arrived.
    #[schema(minimum = 100, maximum = 599)]
    pub response_status: Option<u16>,
    /// Milliseconds.
    #[schema(minimum = 0)]
    pub duration_ms: u64,
    pub error: Option<String>,
    /// First 1 KiB of the receiver's body.
    pub response_body: Option<String>,
}

/// The answer of `POST /webhooks/{id}/test` (D33).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookTestResult {
    pub delivery_id: Uuid,
    pub success: bool,
    #[schema(minimum = 100, maximum = 599)]
    pub response_status: Option<u16>,
    /// First 1 KiB.
    pub response_body: Option<String>,
    /// Milliseconds.
    #[schema(minimum = 0)]
    pub duration_ms: u64,
    pub error: Option<String>,
}

/// `data` of `assessment.completed` (spec, Delivery envelope).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AssessmentCompletedData {
    pub person_id: Uuid,
    pub email: String,
    pub external_id: Option<String>,
    pub assessment_id: Uuid,
    pub completed_at: OffsetDateTime,
}

/// `data` of `ping` (D33).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PingData {
    pub webhook_id: Uuid,
}

/// The error envelope (spec, Errors): `error`, `code`, optional `details`, nothing else.
/// `validation_error` details: `{"fields":[{"field","message"}]}` (D37); `person_limit_reached`:
/// `{used, limit, plan}`.
#[derive(Serialize, ToSchema)]
pub struct Error {
    /// Human-readable English message.
    pub error: String,
    #[schema(value_type = ErrorCode)]
    pub code: String,
    /// Structured context; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub details: Option<serde_json::Value>,
}

macro_rules! page {
    ($name:ident, $item:ty, $doc:literal) => {
        #[doc = $doc]
        #[derive(Serialize, ToSchema)]
        pub struct $name {
            pub data: Vec<$item>,
            pub pagination: Pagination,
        }
    };
}

page!(PersonPage, Person, "A page of persons, newest first (spec, `GET /persons`; D36).");
page!(InvitationPage, Invitation, "A page of invitations, newest first (D17, D36).");
page!(ProfilePage, Profile, "A page of profiles, newest first (D25, D36).");
page!(MatchPage, Match, "A page of matches (D26): highest percentage first for a profile.");
page!(WebhookEndpointPage, WebhookEndpoint, "The organization's webhook endpoints (at most 10, one page; D29).");
page!(DeliveryPage, Delivery, "A page of deliveries, newest first (D29, D32).");

/// The `label` filter of `GET /persons`: `other` matches persons without any label.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LabelFilter {
    Candidate,
    Employee,
    Other,
}

/// The answer of `POST /persons`: the Person plus `invitation` (spec, Person).
#[derive(Serialize, ToSchema)]
pub struct PersonImported {
    #[serde(flatten)]
    pub person: Person,
    /// The invitation created with the nested `invitation` object, otherwise null.
    pub invitation: Option<Invitation>,
}

/// A webhook endpoint with its signing secret: only in the answers of `POST /webhooks` and
/// `POST /webhooks/{id}/rotate-secret` (spec, Subscription; D29, D30).
#[derive(Serialize, ToSchema)]
pub struct WebhookEndpointWithSecret {
    #[serde(flatten)]
    pub endpoint: WebhookEndpoint,
    /// `whsec_` + 32 random bytes in base64url; the whole string is the HMAC key (D30).
    #[schema(pattern = "^whsec_[A-Za-z0-9_-]{43}$")]
    pub secret: String,
}

/// A delivery record with its attempts (`GET /webhooks/{id}/deliveries/{deliveryId}`; D32).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryDetail {
    #[serde(flatten)]
    pub delivery: Delivery,
    /// Oldest first.
    pub attempt_log: Vec<Attempt>,
}

/// A set of labels: at most 2 distinct [`Label`]s (spec, Limits).
pub fn label_set() -> utoipa::openapi::Array {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("Label"))
        .max_items(Some(2))
        .unique_items(true)
        .build()
}

/// [`label_set`] or null (an invitation's labels, D15).
pub fn label_set_or_null() -> utoipa::openapi::Schema {
    utoipa::openapi::Schema::OneOf(
        utoipa::openapi::OneOfBuilder::new()
            .item(label_set())
            .item(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::Null))
            .build(),
    )
}

/// The boolean `true` and nothing else (`invitation.create` of `POST /persons`).
pub fn always_true() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Boolean)
        .enum_values(Some([true]))
        .build()
}

/// A PDF document (`GET /persons/{id}/report`, D27).
#[derive(Serialize, ToSchema)]
#[schema(value_type = String, content_media_type = "application/pdf")]
pub struct Pdf(pub Vec<u8>);

/// Labels in a request: at most 2 items; a repeated label counts once (T53).
pub fn label_list() -> utoipa::openapi::Array {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("Label"))
        .max_items(Some(2))
        .description(Some("At most 2 items; a repeated label counts once."))
        .build()
}

/// [`label_list`] or null (absent: the default, D12, D15).
pub fn label_list_or_null() -> utoipa::openapi::Schema {
    utoipa::openapi::Schema::OneOf(
        utoipa::openapi::OneOfBuilder::new()
            .item(label_list())
            .item(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::Null))
            .build(),
    )
}

/// A string schema whose values are `values`.
fn string_enum(description: &str, values: impl IntoIterator<Item = &'static str>) -> utoipa::openapi::RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .enum_values(Some(values.into_iter().collect::<Vec<_>>()))
        .into()
}

/// A webhook event type (spec, Event types), listed from `talent_domain::webhook::EVENT_TYPES`.
pub struct EventType;

impl utoipa::PartialSchema for EventType {
    fn schema() -> utoipa::openapi::RefOr<Schema> {
        string_enum("A webhook event type (spec, Event types).", EVENT_TYPES.map(|t| t.as_str()))
    }
}
impl ToSchema for EventType {}

/// Every error code (spec, Errors; D37), listed from `talent_domain::errors::Code::ALL`; the
/// status of each is in `crates/http/src/error.rs`.
pub struct ErrorCode;

impl utoipa::PartialSchema for ErrorCode {
    fn schema() -> utoipa::openapi::RefOr<Schema> {
        string_enum("Every error code (spec, Errors; D37).", Code::ALL.map(|c| c.as_str()))
    }
}
impl ToSchema for ErrorCode {}

/// What an endpoint subscribes to: at least one [`EventType`], or `["*"]` for all (spec,
/// Subscription).
pub fn event_subscriptions() -> utoipa::openapi::Array {
    let item = utoipa::openapi::OneOfBuilder::new()
        .item(utoipa::openapi::Ref::from_schema_name("EventType"))
        .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["*"])));
    utoipa::openapi::ArrayBuilder::new().items(item).min_items(Some(1)).build()
}
