//! The rows of invitations and one-time consent codes, and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;
use talent_domain::consent::ConsentCode;
use talent_domain::invitation::{CandidateOptions, RedirectUrl, Variant};

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = invitations, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct InvitationRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) email: String,
    pub(crate) first_name: Option<String>,
    pub(crate) last_name: Option<String>,
    pub(crate) external_id: Option<String>,
    pub(crate) person_id: Option<DbUuid>,
    pub(crate) status: String,
    pub(crate) labels: Option<String>,
    pub(crate) tags: Option<String>,
    pub(crate) variant: String,
    pub(crate) message: Option<String>,
    pub(crate) send_email: bool,
    pub(crate) token_hash: Vec<u8>,
    pub(crate) email_sent_at: Option<DbTime>,
    pub(crate) reminder_sent_at: Option<DbTime>,
    pub(crate) expires_at: DbTime,
    pub(crate) accepted_at: Option<DbTime>,
    pub(crate) revoked_at: Option<DbTime>,
    pub(crate) created_at: DbTime,
    pub(crate) updated_at: DbTime,
    pub(crate) locale: Option<String>,
    pub(crate) time_zone: Option<String>,
    pub(crate) accommodations: Option<String>,
    pub(crate) redirect_url: Option<String>,
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
            locale: i.candidate.locale.map(|l| l.as_str().to_string()),
            time_zone: i.candidate.time_zone.as_ref().map(|z| z.as_str().to_string()),
            accommodations: i.candidate.accommodations.as_ref().map(|a| a.json().to_string()),
            redirect_url: i.candidate.redirect_url.as_ref().map(|r| r.as_str().to_string()),
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
            candidate: CandidateOptions {
                locale: r.locale.map(|l| Locale::parse(&l).map_err(|_| corrupt("invitations.locale"))).transpose()?,
                time_zone: r
                    .time_zone
                    .map(|z| TimeZone::parse(&z).map_err(|_| corrupt("invitations.time_zone")))
                    .transpose()?,
                accommodations: stored_accommodations(r.accommodations, "invitations.accommodations")?,
                redirect_url: r
                    .redirect_url
                    .map(|u| RedirectUrl::parse(&u).map_err(|_| corrupt("invitations.redirect_url")))
                    .transpose()?,
            },
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = consent_codes, treat_none_as_default_value = false)]
pub struct ConsentCodeRow {
    pub(crate) id: DbUuid,
    pub(crate) invitation_id: DbUuid,
    pub(crate) code_hash: Vec<u8>,
    pub(crate) tries: i64,
    pub(crate) used_at: Option<DbTime>,
    pub(crate) expires_at: DbTime,
    pub(crate) created_at: DbTime,
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
