//! The invitation aggregate and its state machine (spec, Invitation status; D18-D21).

use crate::errors::{ClientError, Code};
use crate::ids::*;
use crate::values::*;
use time::OffsetDateTime;

/// Stored and shown status (spec). A pending invitation past `expiresAt` reads as `expired` at
/// once (D21) even before the sweep persists it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InvitationStatus {
    /// `pending`
    Pending,
    /// `accepted`
    Accepted,
    /// `expired`
    Expired,
    /// `revoked`
    Revoked,
}

impl InvitationStatus {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Accepted => "accepted",
            Self::Expired => "expired",
            Self::Revoked => "revoked",
        }
    }
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "pending" => Ok(Self::Pending),
            "accepted" => Ok(Self::Accepted),
            "expired" => Ok(Self::Expired),
            "revoked" => Ok(Self::Revoked),
            _ => Err("must be one of: pending, accepted, expired, revoked".into()),
        }
    }
}

/// Variant (D19).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    /// Invitation to take the assessment.
    Assessment,
    /// The human already completed an assessment the organization cannot see: asks to share it.
    AccessRequest,
}

impl Variant {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Assessment => "assessment",
            Self::AccessRequest => "access_request",
        }
    }
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "assessment" => Ok(Self::Assessment),
            "access_request" => Ok(Self::AccessRequest),
            _ => Err("must be one of: assessment, access_request".into()),
        }
    }
}

/// A personal invitation (spec, Invitation).
#[derive(Clone, Debug, PartialEq)]
pub struct Invitation {
    pub id: InvitationId,
    /// Organization.
    pub org_id: OrgId,
    /// Invitee.
    pub email: Email,
    /// `firstName`.
    pub first_name: Option<PersonName>,
    /// `lastName`.
    pub last_name: Option<PersonName>,
    /// `externalId`.
    pub external_id: Option<ExternalId>,
    /// Linked person: at creation when known, else at acceptance.
    pub person_id: Option<PersonId>,
    /// Stored status (see [`Invitation::status_at`]).
    pub status: InvitationStatus,
    /// Labels applied on acceptance; `None` = default plus the employee domain rule (D15).
    pub labels: Option<Labels>,
    /// Tags applied on acceptance (names; mapped onto the catalogue then).
    pub tags: Option<Vec<String>>,
    /// Variant (D19).
    pub variant: Variant,
    /// Personal message (1..2,000).
    pub message: Option<String>,
    /// Whether the service sends the emails.
    pub send_email: bool,
    /// SHA-256 of the URL token (the token is derived, never stored, D20).
    pub token_hash: Vec<u8>,
    /// Last successful send.
    pub email_sent_at: Option<OffsetDateTime>,
    /// When the reminder went out (D21: one reminder 3 days after sending).
    pub reminder_sent_at: Option<OffsetDateTime>,
    /// Expiry.
    pub expires_at: OffsetDateTime,
    /// Acceptance.
    pub accepted_at: Option<OffsetDateTime>,
    /// Revocation.
    pub revoked_at: Option<OffsetDateTime>,
    /// Creation.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
    /// The person's language, time zone, accommodations and where to go afterwards (T217-T219).
    pub candidate: CandidateOptions,
}

/// What an invitation says about the person's side of it (issue 37; T217-T219). Every member is
/// optional; the organization's [`crate::organization::CandidateDefaults`] fill the gaps.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CandidateOptions {
    /// `locale` (T217): the language of the emails, pages and report.
    pub locale: Option<Locale>,
    /// `timeZone` (T217): the time zone of the dates shown to the person.
    pub time_zone: Option<TimeZone>,
    /// `accommodations` (T218): what the person is granted for the assessment.
    pub accommodations: Option<Accommodations>,
    /// `redirectUrl` (T219): an https URL on one of the organization's redirect hosts, where
    /// the person page sends the person when they are done.
    pub redirect_url: Option<RedirectUrl>,
}

/// An invitation's `redirectUrl` (T219): an absolute `https` URL without user information, in
/// the normalized form of the URL standard (the HTTP adapter parses it). The host is what the
/// organization's redirect hosts are checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedirectUrl(String);

impl RedirectUrl {
    /// Takes a URL the adapter parsed and normalized. Errors: not `https://`, user information,
    /// no host, longer than 2,048 characters.
    pub fn parse(normalized: &str) -> Result<RedirectUrl, String> {
        let rest = normalized.strip_prefix("https://").ok_or("must be an https URL")?;
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        if authority.contains('@') {
            return Err("must not contain user information".into());
        }
        if normalized.len() > 2048 {
            return Err("must be at most 2048 characters".into());
        }
        let r = RedirectUrl(normalized.to_string());
        if r.host().is_empty() {
            return Err("must name a host".into());
        }
        Ok(r)
    }
    /// The URL.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The host, lower case, without port.
    pub fn host(&self) -> String {
        let rest = self.0.strip_prefix("https://").unwrap_or("");
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => authority.split(':').next().unwrap_or(""),
        };
        host.to_ascii_lowercase()
    }
    /// Whether the host is one of `hosts` (exact, lower case; T219).
    pub fn allowed_by(&self, hosts: &[String]) -> bool {
        let h = self.host();
        hosts.contains(&h)
    }
}

impl CandidateOptions {
    /// The locale emails are written in (T217): the invitation's, else the organization's.
    pub fn email_locale(&self, org: &crate::organization::Organization) -> Locale {
        self.locale.unwrap_or(org.candidate.locale)
    }
    /// The locale of a person page (T217): the invitation's, else the reader's
    /// `Accept-Language` (`reader`, negotiated by [`Locale::negotiate`]), else the organization's
    /// default (`en` unless set).
    pub fn page_locale(&self, reader: Option<Locale>, org_default: Locale) -> Locale {
        self.locale.or(reader).unwrap_or(org_default)
    }
    /// The time zone of dates shown to the person: the invitation's, else the organization's.
    pub fn zone(&self, org: &crate::organization::Organization) -> TimeZone {
        self.time_zone.clone().unwrap_or_else(|| org.candidate.time_zone.clone())
    }
}

impl Invitation {
    /// D21: the status as read at `now`: a pending invitation past `expiresAt` is `expired`.
    pub fn status_at(&self, now: OffsetDateTime) -> InvitationStatus {
        if self.status == InvitationStatus::Pending && self.expires_at <= now {
            InvitationStatus::Expired
        } else {
            self.status
        }
    }

    /// Revoke (spec state table). Errors: 409 `conflict` when not pending (expired included).
    pub fn revoke(&mut self, now: OffsetDateTime) -> Result<(), ClientError> {
        self.require_pending(now, "revoked")?;
        self.status = InvitationStatus::Revoked;
        self.revoked_at = Some(now);
        self.updated_at = now;
        Ok(())
    }

    /// Accept (spec state table). Errors: 409 `conflict` when not pending (expired included).
    pub fn accept(&mut self, person: PersonId, now: OffsetDateTime) -> Result<(), ClientError> {
        self.require_pending(now, "accepted")?;
        self.status = InvitationStatus::Accepted;
        self.accepted_at = Some(now);
        self.person_id = Some(person);
        self.updated_at = now;
        Ok(())
    }

    /// Expire (the sweep, D21): true when it changed a pending, past-due invitation.
    pub fn expire(&mut self, now: OffsetDateTime) -> bool {
        if self.status == InvitationStatus::Pending && self.expires_at <= now {
            self.status = InvitationStatus::Expired;
            self.updated_at = now;
            true
        } else {
            false
        }
    }

    /// Resend (D21): pending only; optionally a new expiry. Errors: 409 `conflict`.
    pub fn resend(&mut self, new_expiry: Option<OffsetDateTime>, now: OffsetDateTime) -> Result<(), ClientError> {
        self.require_pending(now, "resent")?;
        if let Some(e) = new_expiry {
            self.expires_at = e;
        }
        self.send_email = true;
        self.reminder_sent_at = None;
        self.updated_at = now;
        Ok(())
    }

    fn require_pending(&self, now: OffsetDateTime, what: &str) -> Result<(), ClientError> {
        let st = self.status_at(now);
        if st != InvitationStatus::Pending {
            return Err(ClientError::new(
                Code::Conflict,
                format!("The invitation is {} and cannot be {what}", st.as_str()),
            )
            .with_details(serde_json::json!({"status": st.as_str()})));
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn inv(status: InvitationStatus) -> Invitation {
        let t = crate::timefmt::parse("2026-01-01T00:00:00Z").unwrap();
        Invitation {
            id: InvitationId(uuid::Uuid::from_u128(1)),
            org_id: OrgId(uuid::Uuid::from_u128(2)),
            email: Email::parse("a@b.co").unwrap(),
            first_name: None,
            last_name: None,
            external_id: None,
            person_id: None,
            status,
            labels: None,
            tags: None,
            variant: Variant::Assessment,
            message: None,
            send_email: false,
            token_hash: vec![],
            email_sent_at: None,
            reminder_sent_at: None,
            expires_at: t + time::Duration::days(14),
            accepted_at: None,
            revoked_at: None,
            created_at: t,
            updated_at: t,
            candidate: CandidateOptions::default(),
        }
    }

    #[test]
    fn pending_past_expiry_reads_expired() {
        let i = inv(InvitationStatus::Pending);
        assert_eq!(i.status_at(i.expires_at - time::Duration::seconds(1)), InvitationStatus::Pending);
        assert_eq!(i.status_at(i.expires_at), InvitationStatus::Expired);
    }

    #[test]
    fn only_pending_invitations_can_be_revoked_or_accepted() {
        let now = inv(InvitationStatus::Pending).created_at;
        for st in [InvitationStatus::Accepted, InvitationStatus::Expired, InvitationStatus::Revoked] {
            let mut i = inv(st);
            assert_eq!(i.revoke(now).unwrap_err().code, Code::Conflict);
            assert_eq!(i.accept(PersonId(uuid::Uuid::nil()), now).unwrap_err().code, Code::Conflict);
            assert_eq!(i.resend(None, now).unwrap_err().code, Code::Conflict);
        }
        let mut i = inv(InvitationStatus::Pending);
        let late = i.expires_at;
        assert_eq!(i.revoke(late).unwrap_err().code, Code::Conflict, "expired by time");
        i.revoke(now).unwrap();
        assert_eq!(i.status, InvitationStatus::Revoked);
        assert_eq!(i.revoked_at, Some(now));
    }

    #[test]
    fn the_sweep_expires_once() {
        let mut i = inv(InvitationStatus::Pending);
        let late = i.expires_at;
        assert!(i.expire(late));
        assert!(!i.expire(late));
    }
}
