//! Row structs and their conversion to and from domain entities. A row that does not parse back
//! (corrupt data) is a [`StoreError::Internal`], never a panic.

use crate::schema::*;
use crate::types::{DbTime, DbUuid};
use diesel::prelude::*;
use talent_domain::api_key::ApiKey;
use talent_domain::consent::ConsentCode;
use talent_domain::dashboard::{Session, SignInLink};
use talent_domain::errors::StoreError;
use talent_domain::events::OutboxEvent;
use talent_domain::ids::*;
use talent_domain::invitation::{Invitation, InvitationStatus, Variant};
use talent_domain::organization::{Organization, User};
use talent_domain::person::{ArchiveReason, JoinedVia, Period, Person, PersonStatus, Team};
use talent_domain::ports::{EmailRecord, IdempotencyRecord, IdempotencyState};
use talent_domain::results::{
    Assessment, AssessmentState, AssessmentStatus, AssessmentSummary, Profile, ProfileCompetency,
};
use talent_domain::timefmt;
use talent_domain::values::*;
use talent_domain::webhook::{Breaker, Delivery, DeliveryStatus, Endpoint, Subscription};

pub(crate) fn corrupt(what: &str) -> StoreError {
    StoreError::Internal(format!("corrupt row: {what}"))
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = organizations, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct OrgRow {
    pub id: DbUuid,
    pub company_name: String,
    pub email: String,
    pub plan: String,
    pub subscription_status: String,
    pub trial_ends_at: Option<DbTime>,
    pub current_period_end: Option<DbTime>,
    pub employee_domains: String,
    pub created_at: DbTime,
    pub updated_at: DbTime,
}

impl From<&Organization> for OrgRow {
    fn from(o: &Organization) -> Self {
        OrgRow {
            id: DbUuid(o.id.0),
            company_name: o.company_name.clone(),
            email: o.email.as_str().to_string(),
            plan: o.plan.clone(),
            subscription_status: o.subscription_status.as_str().to_string(),
            trial_ends_at: o.trial_ends_at.map(DbTime),
            current_period_end: o.current_period_end.map(DbTime),
            employee_domains: serde_json::to_string(&o.employee_domains).unwrap_or_else(|_| "[]".into()),
            created_at: DbTime(o.created_at),
            updated_at: DbTime(o.updated_at),
        }
    }
}

impl TryFrom<OrgRow> for Organization {
    type Error = StoreError;
    fn try_from(r: OrgRow) -> Result<Self, StoreError> {
        Ok(Organization {
            id: OrgId(r.id.0),
            company_name: r.company_name,
            email: Email::from_stored(&r.email).map_err(|_| corrupt("organizations.email"))?,
            plan: r.plan,
            subscription_status: SubscriptionStatus::parse(&r.subscription_status)
                .map_err(|_| corrupt("organizations.subscription_status"))?,
            trial_ends_at: r.trial_ends_at.map(|t| t.0),
            current_period_end: r.current_period_end.map(|t| t.0),
            employee_domains: serde_json::from_str(&r.employee_domains)
                .map_err(|_| corrupt("organizations.employee_domains"))?,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = users, treat_none_as_default_value = false)]
pub struct UserRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub email: String,
    pub role: String,
    pub created_at: DbTime,
}

impl From<&User> for UserRow {
    fn from(u: &User) -> Self {
        UserRow {
            id: DbUuid(u.id.0),
            org_id: DbUuid(u.org_id.0),
            email: u.email.as_str().to_string(),
            role: u.role.as_str().to_string(),
            created_at: DbTime(u.created_at),
        }
    }
}

impl TryFrom<UserRow> for User {
    type Error = StoreError;
    fn try_from(r: UserRow) -> Result<Self, StoreError> {
        Ok(User {
            id: UserId(r.id.0),
            org_id: OrgId(r.org_id.0),
            email: Email::from_stored(&r.email).map_err(|_| corrupt("users.email"))?,
            role: OrgRole::parse(&r.role).map_err(|_| corrupt("users.role"))?,
            created_at: r.created_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = api_keys, treat_none_as_default_value = false)]
pub struct KeyRow {
    pub id: DbUuid,
    pub user_id: DbUuid,
    pub org_id: DbUuid,
    pub name: Option<String>,
    pub prefix: String,
    pub hash: Vec<u8>,
    pub scopes: String,
    pub expires_at: Option<DbTime>,
    pub revoked_at: Option<DbTime>,
    pub created_at: DbTime,
}

impl From<&ApiKey> for KeyRow {
    fn from(k: &ApiKey) -> Self {
        KeyRow {
            id: DbUuid(k.id.0),
            user_id: DbUuid(k.user_id.0),
            org_id: DbUuid(k.org_id.0),
            name: k.name.clone(),
            prefix: k.prefix.clone(),
            hash: k.hash.clone(),
            scopes: k.scopes.to_strings().join(" "),
            expires_at: k.expires_at.map(DbTime),
            revoked_at: k.revoked_at.map(DbTime),
            created_at: DbTime(k.created_at),
        }
    }
}

impl TryFrom<KeyRow> for ApiKey {
    type Error = StoreError;
    fn try_from(r: KeyRow) -> Result<Self, StoreError> {
        let items: Vec<String> = r.scopes.split_whitespace().map(str::to_string).collect();
        Ok(ApiKey {
            id: ApiKeyId(r.id.0),
            user_id: UserId(r.user_id.0),
            org_id: OrgId(r.org_id.0),
            name: r.name,
            prefix: r.prefix,
            hash: r.hash,
            scopes: Scopes::parse(&items).map_err(|_| corrupt("api_keys.scopes"))?,
            expires_at: r.expires_at.map(|t| t.0),
            revoked_at: r.revoked_at.map(|t| t.0),
            created_at: r.created_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = persons, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct PersonRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub human_id: DbUuid,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    pub status: String,
    pub archive_reason: Option<String>,
    pub label_candidate: bool,
    pub label_employee: bool,
    pub tags: String,
    pub joined_via: String,
    pub shared_existing_profile: bool,
    pub assessment_status: String,
    pub assessment_completed_at: Option<DbTime>,
    pub assessment_count: i64,
    pub member_since: DbTime,
    pub updated_at: DbTime,
    pub archived_at: Option<DbTime>,
    pub search_text: String,
    pub inactive_periods: String,
    pub need_totals: Option<String>,
}

/// `assessments.need_counts` and `persons.need_totals` (T85) as stored: `{"model", "responses", "exposure": [...], "chosen": [...]}`.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredCounts {
    model: String,
    responses: u32,
    exposure: Vec<u32>,
    chosen: Vec<u32>,
}

/// `assessments.need_counts` of `c` ([`StoredCounts`]).
pub(crate) fn need_counts_json(c: &talent_domain::assessment::NeedCounts) -> Result<String, StoreError> {
    let v = StoredCounts {
        model: c.model.clone(),
        responses: c.responses,
        exposure: c.exposure.clone(),
        chosen: c.chosen.clone(),
    };
    serde_json::to_string(&v).map_err(|e| StoreError::Internal(e.to_string()))
}

/// Parses [`need_counts_json`]. Errors: `Internal` for anything else.
pub(crate) fn parse_need_counts(s: &str) -> Result<talent_domain::assessment::NeedCounts, StoreError> {
    let v: StoredCounts = serde_json::from_str(s).map_err(|_| corrupt("need counts"))?;
    Ok(talent_domain::assessment::NeedCounts {
        model: v.model,
        responses: v.responses,
        exposure: v.exposure,
        chosen: v.chosen,
    })
}

/// `persons.inactive_periods` (D42): `[[from, until], ...]` in RFC 3339.
pub fn encode_periods(v: &[Period]) -> String {
    if v.is_empty() {
        return "[]".into();
    }
    let pairs: Vec<[String; 2]> = v.iter().map(|g| [timefmt::format(g.from), timefmt::format(g.until)]).collect();
    serde_json::to_string(&pairs).unwrap_or_else(|_| "[]".into())
}

/// Parses [`encode_periods`]' text.
pub fn decode_periods(s: &str) -> Result<Vec<Period>, StoreError> {
    if s == "[]" {
        return Ok(vec![]);
    }
    let pairs: Vec<[String; 2]> = serde_json::from_str(s).map_err(|_| corrupt("persons.inactive_periods"))?;
    pairs
        .iter()
        .map(|[a, b]| match (timefmt::parse(a), timefmt::parse(b)) {
            (Some(from), Some(until)) => Ok(Period { from, until }),
            _ => Err(corrupt("persons.inactive_periods")),
        })
        .collect()
}

/// The lower-cased text `q` searches (first name, last name, email).
pub fn search_text(p: &Person) -> String {
    search_text_of(
        p.first_name.as_ref().map(|n| n.as_str()),
        p.last_name.as_ref().map(|n| n.as_str()),
        p.email.as_str(),
    )
}

/// [`search_text`] of a person's stored values (names as stored, the address).
pub fn search_text_of(first_name: Option<&str>, last_name: Option<&str>, email: &str) -> String {
    format!("{} {} {}", first_name.unwrap_or(""), last_name.unwrap_or(""), email).to_lowercase()
}

impl From<&Person> for PersonRow {
    fn from(p: &Person) -> Self {
        let tags: Vec<(String, String)> = p.tags.iter().map(|t| (t.id.to_string(), t.name.clone())).collect();
        PersonRow {
            id: DbUuid(p.id.0),
            org_id: DbUuid(p.org_id.0),
            human_id: DbUuid(p.human_id.0),
            email: p.email.as_str().to_string(),
            first_name: p.first_name.as_ref().map(|n| n.as_str().to_string()),
            last_name: p.last_name.as_ref().map(|n| n.as_str().to_string()),
            external_id: p.external_id.as_ref().map(|n| n.as_str().to_string()),
            status: p.status.as_str().to_string(),
            archive_reason: p.archive_reason.map(|r| r.as_str().to_string()),
            label_candidate: p.labels.candidate,
            label_employee: p.labels.employee,
            tags: serde_json::to_string(&tags).unwrap_or_else(|_| "[]".into()),
            joined_via: p.joined_via.as_str().to_string(),
            shared_existing_profile: p.shared_existing_profile,
            assessment_status: p.assessment.status.as_str().to_string(),
            assessment_completed_at: p.assessment.completed_at.map(DbTime),
            assessment_count: i64::from(p.assessment.count),
            member_since: DbTime(p.member_since),
            updated_at: DbTime(p.updated_at),
            archived_at: p.archived_at.map(DbTime),
            search_text: search_text(p),
            inactive_periods: encode_periods(&p.inactive_periods),
            need_totals: p.assessment.totals.as_ref().and_then(|t| need_counts_json(t).ok()),
        }
    }
}

impl TryFrom<PersonRow> for Person {
    type Error = StoreError;
    fn try_from(r: PersonRow) -> Result<Self, StoreError> {
        let tags: Vec<(String, String)> = serde_json::from_str(&r.tags).map_err(|_| corrupt("persons.tags"))?;
        let tags = tags
            .into_iter()
            .map(|(id, name)| Ok(Tag { id: id.parse().map_err(|_| corrupt("persons.tags id"))?, name }))
            .collect::<Result<Vec<_>, StoreError>>()?;
        let name = |v: Option<String>, f: &str| -> Result<Option<PersonName>, StoreError> {
            v.map(|s| PersonName::parse(&s).map_err(|_| corrupt(f))).transpose()
        };
        Ok(Person {
            id: PersonId(r.id.0),
            org_id: OrgId(r.org_id.0),
            human_id: HumanId(r.human_id.0),
            email: Email::from_stored(&r.email).map_err(|_| corrupt("persons.email"))?,
            first_name: name(r.first_name, "persons.first_name")?,
            last_name: name(r.last_name, "persons.last_name")?,
            external_id: r
                .external_id
                .map(|s| ExternalId::parse(&s).map_err(|_| corrupt("persons.external_id")))
                .transpose()?,
            status: PersonStatus::parse(&r.status).map_err(|_| corrupt("persons.status"))?,
            archive_reason: match r.archive_reason {
                Some(s) => Some(ArchiveReason::parse(&s).ok_or_else(|| corrupt("persons.archive_reason"))?),
                None => None,
            },
            labels: Labels { candidate: r.label_candidate, employee: r.label_employee },
            tags,
            joined_via: JoinedVia::parse(&r.joined_via).ok_or_else(|| corrupt("persons.joined_via"))?,
            shared_existing_profile: r.shared_existing_profile,
            assessment: AssessmentSummary {
                status: AssessmentStatus::parse(&r.assessment_status)
                    .map_err(|_| corrupt("persons.assessment_status"))?,
                completed_at: r.assessment_completed_at.map(|t| t.0),
                count: u32::try_from(r.assessment_count).map_err(|_| corrupt("persons.assessment_count"))?,
                totals: r.need_totals.as_deref().map(parse_need_counts).transpose()?,
            },
            member_since: r.member_since.0,
            updated_at: r.updated_at.0,
            archived_at: r.archived_at.map(|t| t.0),
            inactive_periods: decode_periods(&r.inactive_periods)?,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = teams, treat_none_as_default_value = false)]
pub struct TeamRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub name: String,
    pub created_at: DbTime,
}

impl From<TeamRow> for Team {
    fn from(r: TeamRow) -> Team {
        Team { id: TeamId(r.id.0), org_id: OrgId(r.org_id.0), name: r.name, created_at: r.created_at.0 }
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = outbox_events, treat_none_as_default_value = false)]
pub struct EventRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub event_type: String,
    pub data: String,
    pub created_at: DbTime,
    pub request_id: Option<String>,
}

impl TryFrom<EventRow> for OutboxEvent {
    type Error = StoreError;
    fn try_from(r: EventRow) -> Result<Self, StoreError> {
        Ok(OutboxEvent {
            id: EventId(r.id.0),
            org_id: OrgId(r.org_id.0),
            event_type: talent_domain::webhook::parse_event_type(&r.event_type)
                .ok_or_else(|| corrupt("outbox_events.event_type"))?,
            data: serde_json::from_str(&r.data).map_err(|_| corrupt("outbox_events.data"))?,
            created_at: r.created_at.0,
            request_id: r.request_id,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = idempotency_keys, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct IdemRow {
    pub org_id: DbUuid,
    pub path: String,
    pub key: String,
    pub request_hash: String,
    pub response_status: Option<i32>,
    pub response_body: Option<String>,
    pub existing_resource: bool,
    pub created_at: DbTime,
}

impl From<&IdempotencyRecord> for IdemRow {
    fn from(r: &IdempotencyRecord) -> Self {
        let (status, body, existing) = match &r.state {
            IdempotencyState::InFlight => (None, None, false),
            IdempotencyState::Done { status, body, existing_resource } => {
                (Some(i32::from(*status)), Some(body.clone()), *existing_resource)
            }
        };
        IdemRow {
            org_id: DbUuid(r.org_id.0),
            path: r.path.clone(),
            key: r.key.clone(),
            request_hash: r.request_hash.clone(),
            response_status: status,
            response_body: body,
            existing_resource: existing,
            created_at: DbTime(r.created_at),
        }
    }
}

impl TryFrom<IdemRow> for IdempotencyRecord {
    type Error = StoreError;
    fn try_from(r: IdemRow) -> Result<Self, StoreError> {
        let state = match (r.response_status, r.response_body) {
            (Some(s), Some(body)) => IdempotencyState::Done {
                status: u16::try_from(s).map_err(|_| corrupt("idempotency_keys.response_status"))?,
                body,
                existing_resource: r.existing_resource,
            },
            _ => IdempotencyState::InFlight,
        };
        Ok(IdempotencyRecord {
            org_id: OrgId(r.org_id.0),
            path: r.path,
            key: r.key,
            request_hash: r.request_hash,
            state,
            created_at: r.created_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = assessments, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct AssessmentRow {
    pub id: DbUuid,
    pub human_id: DbUuid,
    pub state: String,
    pub started_at: DbTime,
    pub completed_at: Option<DbTime>,
    pub responses: String,
    pub origin_org_id: Option<DbUuid>,
}

impl From<&Assessment> for AssessmentRow {
    fn from(a: &Assessment) -> Self {
        AssessmentRow {
            id: DbUuid(a.id.0),
            human_id: DbUuid(a.human_id.0),
            state: a.state.as_str().to_string(),
            started_at: DbTime(a.started_at),
            completed_at: a.completed_at.map(DbTime),
            responses: serde_json::to_string(&a.responses).unwrap_or_else(|_| "[]".into()),
            origin_org_id: a.origin_org.map(|o| DbUuid(o.0)),
        }
    }
}

impl TryFrom<AssessmentRow> for Assessment {
    type Error = StoreError;
    fn try_from(r: AssessmentRow) -> Result<Self, StoreError> {
        Ok(Assessment {
            id: AssessmentId(r.id.0),
            human_id: HumanId(r.human_id.0),
            origin_org: r.origin_org_id.map(|o| OrgId(o.0)),
            state: AssessmentState::parse(&r.state).ok_or_else(|| corrupt("assessments.state"))?,
            started_at: r.started_at.0,
            completed_at: r.completed_at.map(|t| t.0),
            responses: serde_json::from_str(&r.responses).map_err(|_| corrupt("assessments.responses"))?,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = profiles, treat_none_as_default_value = false, treat_none_as_null = true)]
pub struct ProfileRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub name: String,
    pub description: Option<String>,
    pub competencies: String,
    pub created_at: DbTime,
    pub updated_at: DbTime,
}

impl From<&Profile> for ProfileRow {
    fn from(p: &Profile) -> Self {
        let comps: Vec<(String, f64)> =
            p.competencies.iter().map(|c| (c.competency_id.to_string(), c.weight)).collect();
        ProfileRow {
            id: DbUuid(p.id.0),
            org_id: DbUuid(p.org_id.0),
            name: p.name.clone(),
            description: p.description.clone(),
            competencies: serde_json::to_string(&comps).unwrap_or_else(|_| "[]".into()),
            created_at: DbTime(p.created_at),
            updated_at: DbTime(p.updated_at),
        }
    }
}

impl TryFrom<ProfileRow> for Profile {
    type Error = StoreError;
    fn try_from(r: ProfileRow) -> Result<Self, StoreError> {
        let comps: Vec<(String, f64)> =
            serde_json::from_str(&r.competencies).map_err(|_| corrupt("profiles.competencies"))?;
        let competencies = comps
            .into_iter()
            .map(|(id, weight)| {
                Ok(ProfileCompetency {
                    competency_id: id.parse().map_err(|_| corrupt("profiles.competencies id"))?,
                    weight,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Profile {
            id: ProfileId(r.id.0),
            org_id: OrgId(r.org_id.0),
            name: r.name,
            description: r.description,
            competencies,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = invitations, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct InvitationRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub email: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub external_id: Option<String>,
    pub person_id: Option<DbUuid>,
    pub status: String,
    pub labels: Option<String>,
    pub tags: Option<String>,
    pub variant: String,
    pub message: Option<String>,
    pub send_email: bool,
    pub token_hash: Vec<u8>,
    pub email_sent_at: Option<DbTime>,
    pub reminder_sent_at: Option<DbTime>,
    pub expires_at: DbTime,
    pub accepted_at: Option<DbTime>,
    pub revoked_at: Option<DbTime>,
    pub created_at: DbTime,
    pub updated_at: DbTime,
}

impl From<&Invitation> for InvitationRow {
    fn from(i: &Invitation) -> Self {
        InvitationRow {
            id: DbUuid(i.id.0),
            org_id: DbUuid(i.org_id.0),
            email: i.email.as_str().to_string(),
            first_name: i.first_name.as_ref().map(|n| n.as_str().to_string()),
            last_name: i.last_name.as_ref().map(|n| n.as_str().to_string()),
            external_id: i.external_id.as_ref().map(|n| n.as_str().to_string()),
            person_id: i.person_id.map(|p| DbUuid(p.0)),
            status: i.status.as_str().to_string(),
            labels: i.labels.map(|l| serde_json::to_string(&l.to_vec()).unwrap_or_else(|_| "[]".into())),
            tags: i.tags.as_ref().map(|t| serde_json::to_string(t).unwrap_or_else(|_| "[]".into())),
            variant: i.variant.as_str().to_string(),
            message: i.message.clone(),
            send_email: i.send_email,
            token_hash: i.token_hash.clone(),
            email_sent_at: i.email_sent_at.map(DbTime),
            reminder_sent_at: i.reminder_sent_at.map(DbTime),
            expires_at: DbTime(i.expires_at),
            accepted_at: i.accepted_at.map(DbTime),
            revoked_at: i.revoked_at.map(DbTime),
            created_at: DbTime(i.created_at),
            updated_at: DbTime(i.updated_at),
        }
    }
}

impl TryFrom<InvitationRow> for Invitation {
    type Error = StoreError;
    fn try_from(r: InvitationRow) -> Result<Self, StoreError> {
        let name = |v: Option<String>, f: &str| -> Result<Option<PersonName>, StoreError> {
            v.map(|s| PersonName::parse(&s).map_err(|_| corrupt(f))).transpose()
        };
        let labels = match r.labels {
            Some(s) => {
                let v: Vec<String> = serde_json::from_str(&s).map_err(|_| corrupt("invitations.labels"))?;
                Some(Labels::parse(&v).map_err(|_| corrupt("invitations.labels"))?)
            }
            None => None,
        };
        Ok(Invitation {
            id: InvitationId(r.id.0),
            org_id: OrgId(r.org_id.0),
            email: Email::from_stored(&r.email).map_err(|_| corrupt("invitations.email"))?,
            first_name: name(r.first_name, "invitations.first_name")?,
            last_name: name(r.last_name, "invitations.last_name")?,
            external_id: r
                .external_id
                .map(|s| ExternalId::parse(&s).map_err(|_| corrupt("invitations.external_id")))
                .transpose()?,
            person_id: r.person_id.map(|p| PersonId(p.0)),
            status: InvitationStatus::parse(&r.status).map_err(|_| corrupt("invitations.status"))?,
            labels,
            tags: r.tags.map(|t| serde_json::from_str(&t).map_err(|_| corrupt("invitations.tags"))).transpose()?,
            variant: Variant::parse(&r.variant).map_err(|_| corrupt("invitations.variant"))?,
            message: r.message,
            send_email: r.send_email,
            token_hash: r.token_hash,
            email_sent_at: r.email_sent_at.map(|t| t.0),
            reminder_sent_at: r.reminder_sent_at.map(|t| t.0),
            expires_at: r.expires_at.0,
            accepted_at: r.accepted_at.map(|t| t.0),
            revoked_at: r.revoked_at.map(|t| t.0),
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = consent_codes, treat_none_as_default_value = false)]
pub struct ConsentCodeRow {
    pub id: DbUuid,
    pub invitation_id: DbUuid,
    pub code_hash: Vec<u8>,
    pub tries: i64,
    pub used_at: Option<DbTime>,
    pub expires_at: DbTime,
    pub created_at: DbTime,
}

impl From<&ConsentCode> for ConsentCodeRow {
    fn from(c: &ConsentCode) -> Self {
        ConsentCodeRow {
            id: DbUuid(c.id.0),
            invitation_id: DbUuid(c.invitation_id.0),
            code_hash: c.code_hash.clone(),
            tries: i64::from(c.tries),
            used_at: c.used_at.map(DbTime),
            expires_at: DbTime(c.expires_at),
            created_at: DbTime(c.created_at),
        }
    }
}

impl TryFrom<ConsentCodeRow> for ConsentCode {
    type Error = StoreError;
    fn try_from(r: ConsentCodeRow) -> Result<Self, StoreError> {
        Ok(ConsentCode {
            id: ConsentCodeId(r.id.0),
            invitation_id: InvitationId(r.invitation_id.0),
            code_hash: r.code_hash,
            tries: u32::try_from(r.tries).map_err(|_| corrupt("consent_codes.tries"))?,
            used_at: r.used_at.map(|t| t.0),
            expires_at: r.expires_at.0,
            created_at: r.created_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = emails, treat_none_as_default_value = false)]
pub struct EmailRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub invitation_id: Option<DbUuid>,
    pub to_address: String,
    pub subject: String,
    pub body: String,
    pub invitation_url: Option<String>,
    pub sent_at: Option<DbTime>,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub next_attempt_at: DbTime,
    pub created_at: DbTime,
}

impl From<&EmailRecord> for EmailRow {
    fn from(e: &EmailRecord) -> Self {
        EmailRow {
            id: DbUuid(e.id.0),
            org_id: DbUuid(e.org_id.0),
            invitation_id: e.invitation_id.map(|i| DbUuid(i.0)),
            to_address: e.to.as_str().to_string(),
            subject: e.subject.clone(),
            body: e.body.clone(),
            invitation_url: e.invitation_url.clone(),
            sent_at: e.sent_at.map(DbTime),
            attempts: i64::from(e.attempts),
            last_error: e.last_error.clone(),
            next_attempt_at: DbTime(e.next_attempt_at),
            created_at: DbTime(e.created_at),
        }
    }
}

impl TryFrom<EmailRow> for EmailRecord {
    type Error = StoreError;
    fn try_from(r: EmailRow) -> Result<Self, StoreError> {
        Ok(EmailRecord {
            id: EmailId(r.id.0),
            org_id: OrgId(r.org_id.0),
            invitation_id: r.invitation_id.map(|i| InvitationId(i.0)),
            to: Email::from_stored(&r.to_address).map_err(|_| corrupt("emails.to_address"))?,
            subject: r.subject,
            body: r.body,
            invitation_url: r.invitation_url,
            sent_at: r.sent_at.map(|t| t.0),
            attempts: u32::try_from(r.attempts).unwrap_or(u32::MAX),
            last_error: r.last_error,
            next_attempt_at: r.next_attempt_at.0,
            created_at: r.created_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = webhook_endpoints, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct EndpointRow {
    pub id: DbUuid,
    pub org_id: DbUuid,
    pub url: String,
    pub events: String,
    pub description: Option<String>,
    pub enabled: bool,
    pub secret: String,
    pub previous_secret: Option<String>,
    pub previous_secret_expires_at: Option<DbTime>,
    pub consecutive_failures: i64,
    pub created_at: DbTime,
    pub updated_at: DbTime,
    pub breaker_failures: i64,
    pub breaker_open_until: Option<DbTime>,
    pub failing_since: Option<DbTime>,
}

impl From<&Endpoint> for EndpointRow {
    fn from(e: &Endpoint) -> Self {
        EndpointRow {
            id: DbUuid(e.id.0),
            org_id: DbUuid(e.org_id.0),
            url: e.url.clone(),
            events: serde_json::to_string(&e.events.to_strings()).unwrap_or_else(|_| "[]".into()),
            description: e.description.clone(),
            enabled: e.enabled,
            secret: e.secret.clone(),
            previous_secret: e.previous_secret.clone(),
            previous_secret_expires_at: e.previous_secret_expires_at.map(DbTime),
            consecutive_failures: i64::from(e.consecutive_failures),
            created_at: DbTime(e.created_at),
            updated_at: DbTime(e.updated_at),
            breaker_failures: i64::from(e.breaker.failed_attempts),
            breaker_open_until: e.breaker.open_until.map(DbTime),
            failing_since: e.failing_since.map(DbTime),
        }
    }
}

impl TryFrom<EndpointRow> for Endpoint {
    type Error = StoreError;
    fn try_from(r: EndpointRow) -> Result<Self, StoreError> {
        let ev: Vec<String> = serde_json::from_str(&r.events).map_err(|_| corrupt("webhook_endpoints.events"))?;
        Ok(Endpoint {
            id: WebhookId(r.id.0),
            org_id: OrgId(r.org_id.0),
            url: r.url,
            events: Subscription::parse(&ev).map_err(|_| corrupt("webhook_endpoints.events"))?,
            description: r.description,
            enabled: r.enabled,
            secret: r.secret,
            previous_secret: r.previous_secret,
            previous_secret_expires_at: r.previous_secret_expires_at.map(|t| t.0),
            consecutive_failures: u32::try_from(r.consecutive_failures).unwrap_or(u32::MAX),
            failing_since: r.failing_since.map(|t| t.0),
            breaker: Breaker {
                failed_attempts: u32::try_from(r.breaker_failures).unwrap_or(u32::MAX),
                open_until: r.breaker_open_until.map(|t| t.0),
            },
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug, diesel::QueryableByName)]
#[diesel(table_name = deliveries, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct DeliveryRow {
    pub id: DbUuid,
    pub endpoint_id: DbUuid,
    pub org_id: DbUuid,
    pub event_type: String,
    pub payload: String,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: Option<DbTime>,
    pub last_attempt_at: Option<DbTime>,
    pub last_response_status: Option<i32>,
    pub last_error: Option<String>,
    pub claimed_until: Option<DbTime>,
    pub created_at: DbTime,
    pub request_id: Option<String>,
}

impl From<&Delivery> for DeliveryRow {
    fn from(d: &Delivery) -> Self {
        DeliveryRow {
            id: DbUuid(d.id.0),
            endpoint_id: DbUuid(d.endpoint_id.0),
            org_id: DbUuid(d.org_id.0),
            event_type: d.event_type.as_str().to_string(),
            payload: d.payload.clone(),
            status: d.status.as_str().to_string(),
            attempts: i64::from(d.attempts),
            next_attempt_at: d.next_attempt_at.map(DbTime),
            last_attempt_at: d.last_attempt_at.map(DbTime),
            last_response_status: d.last_response_status.map(i32::from),
            last_error: d.last_error.clone(),
            claimed_until: None,
            created_at: DbTime(d.created_at),
            request_id: d.request_id.clone(),
        }
    }
}

impl TryFrom<DeliveryRow> for Delivery {
    type Error = StoreError;
    fn try_from(r: DeliveryRow) -> Result<Self, StoreError> {
        Ok(Delivery {
            id: DeliveryId(r.id.0),
            endpoint_id: WebhookId(r.endpoint_id.0),
            org_id: OrgId(r.org_id.0),
            event_type: talent_domain::webhook::parse_event_type(&r.event_type)
                .ok_or_else(|| corrupt("deliveries.event_type"))?,
            payload: r.payload,
            status: DeliveryStatus::parse(&r.status).map_err(|_| corrupt("deliveries.status"))?,
            attempts: u32::try_from(r.attempts).unwrap_or(u32::MAX),
            next_attempt_at: r.next_attempt_at.map(|t| t.0),
            last_attempt_at: r.last_attempt_at.map(|t| t.0),
            last_response_status: r.last_response_status.and_then(|s| u16::try_from(s).ok()),
            last_error: r.last_error,
            created_at: r.created_at.0,
            request_id: r.request_id,
        })
    }
}

/// One row of `delivery_attempts` (batch inserts; `None` is NULL, not DEFAULT, so SQLite can take
/// many rows in one statement).
#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = delivery_attempts, treat_none_as_default_value = false)]
pub struct AttemptRow {
    pub delivery_id: DbUuid,
    pub seq: i64,
    pub attempted_at: DbTime,
    pub response_status: Option<i32>,
    pub duration_ms: i64,
    pub error: Option<String>,
    pub response_body: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use diesel::query_builder::QueryFragment;

    /// Whether PostgreSQL keeps the prepared statement of `q` per connection (T71).
    fn cached<Q: QueryFragment<diesel::pg::Pg>>(q: Q) -> bool {
        q.is_safe_to_cache_prepared(&diesel::pg::Pg).expect("walks")
    }

    /// T71: the inserts of an import are prepared once per connection, with `None` fields as
    /// well (diesel never caches an insert whose values may be `DEFAULT`).
    #[test]
    fn the_inserts_of_an_import_are_prepared_statements_postgres_keeps() {
        let now = DbTime(time::OffsetDateTime::UNIX_EPOCH);
        let id = DbUuid(uuid::Uuid::nil());
        let person = PersonRow {
            id,
            org_id: id,
            human_id: id,
            email: "a@example.com".into(),
            first_name: None,
            last_name: Some("Doe".into()),
            external_id: None,
            status: "active".into(),
            archive_reason: None,
            label_candidate: true,
            label_employee: false,
            tags: "[]".into(),
            joined_via: "api".into(),
            shared_existing_profile: false,
            assessment_status: "not_started".into(),
            assessment_completed_at: None,
            assessment_count: 0,
            member_since: now,
            updated_at: now,
            archived_at: None,
            search_text: "a@example.com".into(),
            inactive_periods: "[]".into(),
            need_totals: None,
        };
        let event = EventRow {
            id,
            org_id: id,
            event_type: "person.created".into(),
            data: "{}".into(),
            created_at: now,
            request_id: None,
        };
        let delivery = DeliveryRow {
            id,
            endpoint_id: id,
            org_id: id,
            event_type: "person.created".into(),
            payload: "{}".into(),
            status: "pending".into(),
            attempts: 0,
            next_attempt_at: Some(now),
            last_attempt_at: None,
            last_response_status: None,
            last_error: None,
            claimed_until: None,
            created_at: now,
            request_id: None,
        };
        assert!(cached(diesel::insert_into(persons::table).values(person)));
        assert!(cached(diesel::insert_into(outbox_events::table).values(event)));
        assert!(cached(diesel::insert_into(deliveries::table).values(delivery)));
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = sign_in_links, treat_none_as_default_value = false)]
pub struct SignInLinkRow {
    pub id: DbUuid,
    pub email: String,
    pub token_hash: Vec<u8>,
    pub used_at: Option<DbTime>,
    pub expires_at: DbTime,
    pub created_at: DbTime,
}

impl From<&SignInLink> for SignInLinkRow {
    fn from(l: &SignInLink) -> Self {
        SignInLinkRow {
            id: DbUuid(l.id),
            email: l.email.as_str().to_string(),
            token_hash: l.token_hash.clone(),
            used_at: l.used_at.map(DbTime),
            expires_at: DbTime(l.expires_at),
            created_at: DbTime(l.created_at),
        }
    }
}

impl TryFrom<SignInLinkRow> for SignInLink {
    type Error = StoreError;
    fn try_from(r: SignInLinkRow) -> Result<Self, StoreError> {
        Ok(SignInLink {
            id: r.id.0,
            email: Email::from_stored(&r.email).map_err(|_| corrupt("sign_in_links.email"))?,
            token_hash: r.token_hash,
            used_at: r.used_at.map(|t| t.0),
            expires_at: r.expires_at.0,
            created_at: r.created_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = dashboard_sessions, treat_none_as_default_value = false)]
pub struct SessionRow {
    pub id: DbUuid,
    pub user_id: DbUuid,
    pub token_hash: Vec<u8>,
    pub expires_at: DbTime,
    pub created_at: DbTime,
}

impl From<&Session> for SessionRow {
    fn from(s: &Session) -> Self {
        SessionRow {
            id: DbUuid(s.id),
            user_id: DbUuid(s.user_id.0),
            token_hash: s.token_hash.clone(),
            expires_at: DbTime(s.expires_at),
            created_at: DbTime(s.created_at),
        }
    }
}

impl From<SessionRow> for Session {
    fn from(r: SessionRow) -> Self {
        Session {
            id: r.id.0,
            user_id: UserId(r.user_id.0),
            token_hash: r.token_hash,
            expires_at: r.expires_at.0,
            created_at: r.created_at.0,
        }
    }
}
