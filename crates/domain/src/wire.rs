//! The published JSON shapes that both the API and webhook events carry (spec, Resources; D34):
//! one type each, so an API response and an event's `data` can never drift apart.
//!
//! Each `*Out` type is what is serialized *and* what the OpenAPI document describes (T105): it
//! derives `Serialize`, and `utoipa::ToSchema` with the `openapi` feature, which only the HTTP
//! adapter turns on. Every member is always present (nullable ones as `null`) and no other member
//! exists (spec, "all fields are always present"). Timestamps print as
//! [`crate::timefmt::format`] (UTC, six fractional digits).
//!
//! The domain's enums that appear on the wire serialize as their `as_str()` (one spelling, the
//! same the parsers accept); [`wire_enum!`] gives each its `Serialize` and its schema.

use crate::api_key::KeyContext;
use crate::assessment::{Band, MatchCategory};
use crate::errors::Code;
use crate::events::EventType;
use crate::invitation::{Invitation, InvitationStatus, Variant};
use crate::organization::{Organization, Usage};
use crate::person::{ArchiveReason, JoinedVia, Person, PersonStatus};
use crate::results::AssessmentStatus;

use crate::values::{Label, Labels, OrgRole, Scope, SubscriptionStatus};
use crate::webhook::DeliveryStatus;
use serde::{Serialize, Serializer};
use serde_json::Value;
use time::OffsetDateTime;
use uuid::Uuid;

/// Gives a domain enum with `as_str(self) -> &'static str` its wire form: `Serialize` as that
/// string and, with the `openapi` feature, a string-enum schema named `$name` listing the values
/// in the given order: `[variants]` (checked to be exhaustive at compile time) or `all = ARRAY`
/// (a type's own list of every value).
macro_rules! wire_enum {
    ($ty:ty, $name:literal, $doc:literal, [$($variant:path),+ $(,)?]) => {
        wire_enum!($ty, $name, $doc, all = {
            let _exhaustive = |x: $ty| match x {
                $($variant)|+ => (),
            };
            [$($variant),+]
        });
    };
    ($ty:ty, $name:literal, $doc:literal, all = $all:expr) => {
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $ty {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .description(Some($doc))
                    .enum_values(Some($all.map(|x: $ty| x.as_str())))
                    .into()
            }
        }
        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $ty {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($name)
            }
        }
    };
}

wire_enum!(
    Label,
    "Label",
    "A person's label (spec, Person: items `candidate` or `employee`).",
    [Label::Candidate, Label::Employee]
);
wire_enum!(
    PersonStatus,
    "PersonStatus",
    "A person's status (spec, Person status).",
    [PersonStatus::Active, PersonStatus::Archived]
);
wire_enum!(
    AssessmentStatus,
    "AssessmentStatus",
    "A person's assessment status (spec, Assessment status of a person).",
    [AssessmentStatus::NotStarted, AssessmentStatus::InProgress, AssessmentStatus::Completed]
);
wire_enum!(
    JoinedVia,
    "JoinedVia",
    "How the person entered the pool (spec, Person `joinedVia`).",
    [JoinedVia::Api, JoinedVia::InvitationLink, JoinedVia::InvitationPersonal]
);
wire_enum!(
    InvitationStatus,
    "InvitationStatus",
    "An invitation's status (spec, Invitation status; D21: reads `expired` once `expiresAt` passed).",
    [InvitationStatus::Pending, InvitationStatus::Accepted, InvitationStatus::Expired, InvitationStatus::Revoked]
);
wire_enum!(
    Variant,
    "InvitationVariant",
    "An invitation's variant (spec, Invitation; D19).",
    [Variant::Assessment, Variant::AccessRequest]
);
wire_enum!(
    SubscriptionStatus,
    "SubscriptionStatus",
    "A subscription's status (spec, Subscription status; D4).",
    [
        SubscriptionStatus::Trialing,
        SubscriptionStatus::TrialExpired,
        SubscriptionStatus::NeedsPlan,
        SubscriptionStatus::Active,
        SubscriptionStatus::PastDue,
        SubscriptionStatus::Canceled
    ]
);
wire_enum!(OrgRole, "OrganizationRole", "A user's role in the organization.", [OrgRole::Admin, OrgRole::Member]);
wire_enum!(Scope, "ScopeName", "An API key scope (spec, Authentication).", all = Scope::ALL);
wire_enum!(
    Band,
    "Band",
    "A competency band (D2: half-open intervals on the unrounded score).",
    [Band::High, Band::Moderate, Band::Some, Band::Limited]
);
wire_enum!(
    MatchCategory,
    "MatchCategory",
    "A match category (D3: `high` >= 70, `moderate` 50..69, `low` < 50).",
    [MatchCategory::Low, MatchCategory::Moderate, MatchCategory::High]
);
wire_enum!(
    DeliveryStatus,
    "DeliveryStatus",
    "A delivery's status (D32).",
    [DeliveryStatus::Pending, DeliveryStatus::Succeeded, DeliveryStatus::Failed]
);
wire_enum!(EventType, "EventType", "A webhook event type (spec, Event types).", all = crate::webhook::EVENT_TYPES);
wire_enum!(Code, "ErrorCode", "Every error code (spec, Errors; D37).", all = Code::ALL);
wire_enum!(
    ArchiveReasonOut,
    "ArchiveReason",
    "Why a person was archived (D47): `api` (`DELETE /persons/{id}`), `withdrawn` (the person \
     withdrew their own participation), `deactivated` (an administrator), `erased` (D44, D45).",
    [ArchiveReasonOut::Api, ArchiveReasonOut::Withdrawn, ArchiveReasonOut::Deactivated, ArchiveReasonOut::Erased]
);

/// Why a person was archived, as `person.archived` says it (D47). The stored
/// [`ArchiveReason`] has its own spelling; this is the published one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveReasonOut {
    /// `api`: archived by the organization (`DELETE /api/v1/persons/{id}`).
    Api,
    /// `withdrawn`: the person withdrew their own participation.
    Withdrawn,
    /// `deactivated`: an administrator deactivated the person.
    Deactivated,
    /// `erased`: the organization (D44) or the person (D45) erased the membership's data.
    Erased,
}

impl ArchiveReasonOut {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Api => "api",
            Self::Withdrawn => "withdrawn",
            Self::Deactivated => "deactivated",
            Self::Erased => "erased",
        }
    }
}

impl From<ArchiveReason> for ArchiveReasonOut {
    fn from(r: ArchiveReason) -> Self {
        match r {
            ArchiveReason::Archived => Self::Api,
            ArchiveReason::SelfRevoked => Self::Withdrawn,
            ArchiveReason::Deactivated => Self::Deactivated,
            ArchiveReason::Erased => Self::Erased,
        }
    }
}

impl Serialize for Labels {
    /// The labels as a list in the order `candidate`, `employee`; `[]` means "other".
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.to_vec())
    }
}

/// Schemas the derives below refer to by path (`schema_with`).
#[cfg(feature = "openapi")]
pub mod schema {
    use utoipa::openapi::{schema::Type, ArrayBuilder, ObjectBuilder, OneOfBuilder, Ref, Schema};

    /// A set of labels: at most 2 distinct `Label`s (spec, Limits).
    pub fn label_set() -> utoipa::openapi::Array {
        ArrayBuilder::new().items(Ref::from_schema_name("Label")).max_items(Some(2)).unique_items(true).build()
    }

    /// [`label_set`] or null (an invitation's labels, D15).
    pub fn label_set_or_null() -> Schema {
        Schema::OneOf(OneOfBuilder::new().item(label_set()).item(ObjectBuilder::new().schema_type(Type::Null)).build())
    }
}

/// The `assessment` summary of a Person: visible assessments only (D11).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PersonAssessment))]
#[serde(rename_all = "camelCase")]
pub struct PersonAssessmentOut {
    pub status: AssessmentStatus,
    #[serde(serialize_with = "crate::timefmt::serialize_opt")]
    pub completed_at: Option<OffsetDateTime>,
    /// Number of completed (visible) assessments.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub count: u32,
}

/// A person of the organization's talent pool (spec, Person). `id` is the membership id (D10).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Person))]
#[serde(rename_all = "camelCase")]
pub struct PersonOut {
    pub id: Uuid,
    /// Lower-case; an internationalized domain in its ASCII form (`xn--…`, D55).
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    /// The client's own identifier.
    pub external_id: Option<String>,
    pub status: PersonStatus,
    /// `[]` means neither label ("other").
    #[cfg_attr(feature = "openapi", schema(schema_with = schema::label_set))]
    pub labels: Labels,
    /// Sorted case-insensitively (D14).
    pub tags: Vec<String>,
    pub joined_via: JoinedVia,
    /// Consent to share results from assessments taken before joining (D11).
    pub shared_existing_profile: bool,
    pub assessment: PersonAssessmentOut,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub member_since: OffsetDateTime,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub updated_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timefmt::serialize_opt")]
    pub archived_at: Option<OffsetDateTime>,
}

impl From<&Person> for PersonOut {
    fn from(p: &Person) -> Self {
        PersonOut {
            id: p.id.0,
            email: p.email.as_str().to_string(),
            first_name: p.first_name.as_ref().map(|n| n.as_str().to_string()),
            last_name: p.last_name.as_ref().map(|n| n.as_str().to_string()),
            external_id: p.external_id.as_ref().map(|n| n.as_str().to_string()),
            status: p.status,
            labels: p.labels,
            tags: p.tags.iter().map(|t| t.name.as_str().to_string()).collect(),
            joined_via: p.joined_via,
            shared_existing_profile: p.shared_existing_profile,
            assessment: PersonAssessmentOut {
                status: p.assessment.status,
                completed_at: p.assessment.completed_at,
                count: p.assessment.count,
            },
            member_since: p.member_since,
            updated_at: p.updated_at,
            archived_at: p.archived_at,
        }
    }
}

/// `subscription` of the Organization.
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Subscription))]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionOut {
    /// Plan id (D5), e.g. `professional`.
    pub plan: String,
    pub status: SubscriptionStatus,
    #[serde(serialize_with = "crate::timefmt::serialize_opt")]
    pub trial_ends_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timefmt::serialize_opt")]
    pub current_period_end: Option<OffsetDateTime>,
}

/// `usage.persons` of the Organization (D6).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PersonUsage))]
#[serde(rename_all = "camelCase")]
pub struct PersonUsageOut {
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub used: u32,
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub limit: u32,
    /// Imports and invitations are refused (limit reached or subscription inactive).
    pub import_blocked: bool,
}

/// `usage.profiles` of the Organization.
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = ProfileUsage))]
#[serde(rename_all = "camelCase")]
pub struct ProfileUsageOut {
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub used: u32,
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub limit: u32,
}

/// `usage` of the Organization.
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Usage))]
pub struct UsageOut {
    pub persons: PersonUsageOut,
    pub profiles: ProfileUsageOut,
}

/// The key's organization (spec, Organization).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Organization))]
#[serde(rename_all = "camelCase")]
pub struct OrganizationOut {
    pub id: Uuid,
    pub company_name: String,
    pub email: String,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub created_at: OffsetDateTime,
    pub subscription: SubscriptionOut,
    pub usage: UsageOut,
}

impl OrganizationOut {
    /// The organization with its usage.
    pub fn new(org: &Organization, usage: &Usage) -> Self {
        OrganizationOut {
            id: org.live_id().0,
            company_name: org.company_name.clone(),
            email: org.email.as_str().to_string(),
            created_at: org.created_at,
            subscription: SubscriptionOut {
                plan: org.plan.clone(),
                status: org.subscription_status,
                trial_ends_at: org.trial_ends_at,
                current_period_end: org.current_period_end,
            },
            usage: UsageOut {
                persons: PersonUsageOut {
                    used: usage.persons_used,
                    limit: usage.persons_limit,
                    import_blocked: usage.import_blocked,
                },
                profiles: ProfileUsageOut { used: usage.profiles_used, limit: usage.profiles_limit },
            },
        }
    }
}

/// The calling key's identity (spec, Key identity).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = KeyIdentity))]
#[serde(rename_all = "camelCase")]
pub struct KeyIdentityOut {
    pub user_id: Uuid,
    pub organization_id: Uuid,
    pub organization_role: OrgRole,
    pub scopes: Vec<Scope>,
    /// Current plan id (D5).
    pub plan: String,
    /// `live`, or `test` for a `tk_test_` key, which acts on the organization's test data only
    /// (D60).
    #[cfg_attr(feature = "openapi", schema(pattern = "^(live|test)$"))]
    pub mode: &'static str,
}

impl From<&KeyContext> for KeyIdentityOut {
    fn from(ctx: &KeyContext) -> Self {
        KeyIdentityOut {
            user_id: ctx.key.user_id.0,
            // The organization's own id in both modes (its test twin is not an organization of
            // its own to the integrator).
            organization_id: ctx.org.live_id().0,
            organization_role: ctx.role,
            scopes: ctx.key.scopes.iter().collect(),
            plan: ctx.org.plan.clone(),
            mode: if ctx.org.is_test() { "test" } else { "live" },
        }
    }
}

/// What an invitation grants the person for the assessment (T218). Never part of scoring.
#[derive(Serialize, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Accommodations))]
#[serde(rename_all = "camelCase")]
pub struct AccommodationsOut {
    /// Extra time in percent of the standard time: 0, 25, 50 or 100.
    pub extra_time_percent: u8,
    /// The person may pause between parts.
    pub breaks: bool,
    /// The person uses a screen reader.
    pub screen_reader: bool,
    /// What else was agreed (1..500 characters).
    pub notes: Option<String>,
}

impl AccommodationsOut {
    /// The wire form of `a`.
    pub fn new(a: &crate::values::Accommodations) -> Self {
        AccommodationsOut {
            extra_time_percent: a.extra_time_percent(),
            breaks: a.breaks(),
            screen_reader: a.screen_reader(),
            notes: a.notes().map(str::to_string),
        }
    }
}

/// A personal assessment invitation (spec, Invitation; D17–D21).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = Invitation))]
#[serde(rename_all = "camelCase")]
pub struct InvitationOut {
    pub id: Uuid,
    /// Lower-case; an internationalized domain in its ASCII form (`xn--…`, D55).
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    /// Set at creation when known, otherwise at acceptance.
    pub person_id: Option<Uuid>,
    pub status: InvitationStatus,
    /// Applied on acceptance; null: default `candidate` plus the employee domain rule (D15).
    #[cfg_attr(feature = "openapi", schema(schema_with = schema::label_set_or_null))]
    pub labels: Option<Labels>,
    pub tags: Option<Vec<String>>,
    pub variant: Variant,
    pub message: Option<String>,
    /// The language of the emails and pages (a shipped locale); null: the reader's browser
    /// language on the pages, else the organization's `locale` (T217).
    pub locale: Option<&'static str>,
    /// The IANA time zone of the dates shown to the person; null: the organization's (T217).
    pub time_zone: Option<&'static str>,
    /// What the person is granted for the assessment (T218); null: nothing.
    pub accommodations: Option<AccommodationsOut>,
    /// Where the person goes after accepting (T219); null: a thank-you page.
    pub redirect_url: Option<String>,
    /// `{public_base_url}/i/{token}` (D20).
    pub url: String,
    #[serde(serialize_with = "crate::timefmt::serialize_opt")]
    pub email_sent_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub expires_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timefmt::serialize_opt")]
    pub accepted_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timefmt::serialize_opt")]
    pub revoked_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub updated_at: OffsetDateTime,
}

impl InvitationOut {
    /// The invitation with its `url`; `status` as read at `now` (D21).
    pub fn new(i: &Invitation, url: &str, now: OffsetDateTime) -> Self {
        InvitationOut {
            id: i.id.0,
            email: i.email.as_str().to_string(),
            first_name: i.first_name.as_ref().map(|n| n.as_str().to_string()),
            last_name: i.last_name.as_ref().map(|n| n.as_str().to_string()),
            external_id: i.external_id.as_ref().map(|n| n.as_str().to_string()),
            person_id: i.person_id.map(|p| p.0),
            status: i.status_at(now),
            labels: i.labels,
            tags: i.tags.clone(),
            variant: i.variant,
            message: i.message.clone(),
            locale: i.candidate.locale.map(|l| l.as_str()),
            time_zone: i.candidate.time_zone.as_ref().map(|z| z.as_str()),
            accommodations: i.candidate.accommodations.as_ref().map(AccommodationsOut::new),
            redirect_url: i.candidate.redirect_url.as_ref().map(|r| r.as_str().to_string()),
            url: url.to_string(),
            email_sent_at: i.email_sent_at,
            expires_at: i.expires_at,
            accepted_at: i.accepted_at,
            revoked_at: i.revoked_at,
            created_at: i.created_at,
            updated_at: i.updated_at,
        }
    }
}

/// `data` of `assessment.completed` (spec, Delivery envelope).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = AssessmentCompletedData))]
#[serde(rename_all = "camelCase")]
pub struct AssessmentCompletedData {
    pub person_id: Uuid,
    pub email: String,
    pub external_id: Option<String>,
    pub assessment_id: Uuid,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub completed_at: OffsetDateTime,
    /// What the person was granted for this assessment (T218); null: nothing.
    pub accommodations: Option<AccommodationsOut>,
}

/// `data` of `assessment.started` (D47): the shape of `assessment.completed` with `startedAt`.
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = AssessmentStartedData))]
#[serde(rename_all = "camelCase")]
pub struct AssessmentStartedData {
    pub person_id: Uuid,
    pub email: String,
    pub external_id: Option<String>,
    pub assessment_id: Uuid,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub started_at: OffsetDateTime,
    /// What the person was granted for this assessment (T218); null: nothing.
    pub accommodations: Option<AccommodationsOut>,
}

/// `data` of `person.archived` (D47): the Person as archived, and why.
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PersonArchivedData))]
#[serde(rename_all = "camelCase")]
pub struct PersonArchivedData {
    #[serde(flatten)]
    pub person: PersonOut,
    pub archive_reason: ArchiveReasonOut,
}

/// `data` of `person.updated` (D47): the Person after the change and, in `previousAttributes`,
/// the value before the change of every Person member that changed (`updatedAt` aside, which
/// changes with every update). Never empty: a write that changes nothing emits nothing.
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PersonUpdatedData))]
#[serde(rename_all = "camelCase")]
pub struct PersonUpdatedData {
    #[serde(flatten)]
    pub person: PersonOut,
    /// Changed members of the Person with their previous values, e.g.
    /// `{"firstName": null, "tags": ["a"]}`.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub previous_attributes: serde_json::Map<String, Value>,
}

/// `data` of `webhook.disabled` (D47, D50), sent to the organization's other enabled endpoints.
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = WebhookDisabledData))]
#[serde(rename_all = "camelCase")]
pub struct WebhookDisabledData {
    /// The endpoint that was disabled.
    pub webhook_id: Uuid,
    pub url: String,
    /// When the first of its deliveries that failed for good without a success since failed.
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub failing_since: OffsetDateTime,
    /// Deliveries that failed for good in that run.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub failed_deliveries: u32,
    #[serde(serialize_with = "crate::timefmt::serialize")]
    pub disabled_at: OffsetDateTime,
}

/// `data` of `ping` (D33).
#[derive(Serialize, Debug)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PingData))]
#[serde(rename_all = "camelCase")]
pub struct PingData {
    pub webhook_id: Uuid,
}

/// `value` as a JSON value (an event's `data`, a stored idempotent reply). The shapes of this
/// module have string keys and finite numbers only, so this cannot fail; `Null` if it ever did.
pub fn to_value(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The Person object as a JSON value ([`PersonOut`]).
pub fn person_json(p: &Person) -> Value {
    to_value(&PersonOut::from(p))
}

/// The Person object as an event's `data` (`person.created`, `person.joined`; T290).
pub fn person_data(p: &Person) -> crate::events::EventData {
    crate::events::EventData::of(&PersonOut::from(p))
}

/// `data` of `person.archived` (D47), as an event's data (T290).
pub fn person_archived_data(p: &Person) -> crate::events::EventData {
    crate::events::EventData::of(&person_archived(p))
}

/// `data` of `person.archived` (D47): the Person and its archive reason (`api` when the stored
/// person has none, which an archived person always has).
fn person_archived(p: &Person) -> PersonArchivedData {
    let reason = p.archive_reason.unwrap_or(ArchiveReason::Archived).into();
    PersonArchivedData { person: PersonOut::from(p), archive_reason: reason }
}

/// [`person_archived_data`] as a JSON value.
pub fn person_archived_json(p: &Person) -> Value {
    to_value(&person_archived(p))
}

/// `data` of `person.updated` (D47) for a person changed from `before` to `after`, or `None` when
/// no member of the published Person changed (`updatedAt` aside): then there is no event.
pub fn person_updated_json(before: &Person, after: &Person) -> Option<Value> {
    let (old, new) = (person_json(before), person_json(after));
    let (Value::Object(old), Value::Object(new)) = (old, new) else { return None };
    let previous: serde_json::Map<String, Value> =
        old.into_iter().filter(|(k, v)| k != "updatedAt" && new.get(k) != Some(v)).collect();
    if previous.is_empty() {
        return None;
    }
    Some(to_value(&PersonUpdatedData { person: PersonOut::from(after), previous_attributes: previous }))
}

/// The Organization object as a JSON value ([`OrganizationOut`]).
pub fn organization_json(org: &Organization, usage: &Usage) -> Value {
    to_value(&OrganizationOut::new(org, usage))
}

/// The key identity object of `GET /me` as a JSON value ([`KeyIdentityOut`]).
pub fn key_identity_json(ctx: &KeyContext) -> Value {
    to_value(&KeyIdentityOut::from(ctx))
}

/// The Invitation object as a JSON value ([`InvitationOut`]); `status` as read at `now` (D21).
pub fn invitation_json(i: &Invitation, url: &str, now: OffsetDateTime) -> Value {
    to_value(&InvitationOut::new(i, url, now))
}

/// The Invitation object as an event's `data` (`invitation.*`; T290).
pub fn invitation_data(i: &Invitation, url: &str, now: OffsetDateTime) -> crate::events::EventData {
    crate::events::EventData::of(&InvitationOut::new(i, url, now))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wire_enum_serializes_as_the_spelling_its_parser_reads() {
        let cases: Vec<(Value, &str)> = vec![
            (to_value(&Label::Employee), "employee"),
            (to_value(&PersonStatus::Archived), "archived"),
            (to_value(&AssessmentStatus::NotStarted), "not_started"),
            (to_value(&JoinedVia::InvitationPersonal), "invitation_personal"),
            (to_value(&InvitationStatus::Expired), "expired"),
            (to_value(&Variant::AccessRequest), "access_request"),
            (to_value(&SubscriptionStatus::TrialExpired), "trial_expired"),
            (to_value(&OrgRole::Member), "member"),
            (to_value(&Scope::WebhooksManage), "webhooks:manage"),
            (to_value(&Band::Some), "some"),
            (to_value(&MatchCategory::Moderate), "moderate"),
            (to_value(&DeliveryStatus::Succeeded), "succeeded"),
            (to_value(&EventType::InvitationAccepted), "invitation.accepted"),
            (to_value(&Code::PersonLimitReached), "person_limit_reached"),
            (to_value(&EventType::PersonUpdated), "person.updated"),
            (to_value(&ArchiveReasonOut::from(ArchiveReason::SelfRevoked)), "withdrawn"),
            (to_value(&ArchiveReasonOut::from(ArchiveReason::Archived)), "api"),
        ];
        for (got, want) in cases {
            assert_eq!(got, Value::from(want));
        }
        assert_eq!(to_value(&Labels { candidate: true, employee: true }), serde_json::json!(["candidate", "employee"]));
        assert_eq!(to_value(&Labels::default()), serde_json::json!([]));
    }
}
