//! Organizations (tenants), their usage and their users (spec, Organization; D5, D6).

use crate::ids::*;
use crate::values::*;
use time::OffsetDateTime;

/// An organization (tenant) with its subscription (spec, Organization).
#[derive(Clone, Debug, PartialEq)]
pub struct Organization {
    pub id: OrgId,
    /// `companyName`.
    pub company_name: String,
    /// `email` (contact address).
    pub email: Email,
    /// Plan id of the catalogue (D5).
    pub plan: String,
    /// `subscription.status`.
    pub subscription_status: SubscriptionStatus,
    /// `subscription.trialEndsAt`.
    pub trial_ends_at: Option<OffsetDateTime>,
    /// `subscription.currentPeriodEnd`.
    pub current_period_end: Option<OffsetDateTime>,
    /// Employee email-domain rule (D15): lower-case domains in IDNA ASCII form (D55).
    pub employee_domains: Vec<String>,
    /// `createdAt`.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
    /// For an organization's test twin (D60): the live organization it belongs to. Keys
    /// `tk_test_…` act on the twin; it is never listed as an organization of its own.
    pub test_of: Option<OrgId>,
    /// What the organization's persons see when an invitation does not say (T217, T219).
    pub candidate: CandidateDefaults,
}

/// An organization's defaults for what its persons see (T217, T219): `locale` (default `en`),
/// `timeZone` (default `UTC`) and the hosts an invitation's `redirectUrl` may point to.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CandidateDefaults {
    /// `locale`: the language of emails and pages when the invitation names none (T217).
    pub locale: Locale,
    /// `timeZone`: the time zone of dates shown to persons when the invitation names none.
    pub time_zone: TimeZone,
    /// `redirectHosts`: lower-case host names an invitation's `redirectUrl` may point to (T219).
    pub redirect_hosts: Vec<String>,
}

/// The key a human is found by (D60): the email for the persons of live organizations, which
/// share a human across organizations; for a test twin's persons the email within the twin
/// (`{email}#test-{twin id}`, which no address can be), so nothing done in test mode reaches a
/// live person's human, or another twin's.
pub fn human_key(email: &Email, org: &Organization) -> String {
    if org.is_test() {
        format!("{}{}", test_human_prefix(email.as_str()), org.id.0)
    } else {
        email.as_str().to_string()
    }
}

/// What every test twin's human key of the address `email` begins with (D60): the data-subject
/// tools (D45) find those humans by it.
pub fn test_human_prefix(email: &str) -> String {
    format!("{email}#test-")
}

impl Organization {
    /// Whether this is a test twin (D60).
    pub fn is_test(&self) -> bool {
        self.test_of.is_some()
    }

    /// The live organization: itself, or the one this twin belongs to (D60).
    pub fn live_id(&self) -> OrgId {
        self.test_of.unwrap_or(self.id)
    }

    /// D15: true when the email's domain is one of the employee domains (exact; both in lower-case
    /// IDNA ASCII form, D55, so either spelling of an internationalized domain matches).
    pub fn is_employee_email(&self, email: &Email) -> bool {
        let d = email.domain();
        self.employee_domains.iter().any(|e| e == d)
    }

    /// The subscription status in force at `now` (issue 13, T90): a `trialing` organization whose
    /// `trialEndsAt` has passed is `trial_expired` (writes refused, D4), whatever was stored;
    /// every other status is as stored.
    pub fn status_at(&self, now: OffsetDateTime) -> SubscriptionStatus {
        match (self.subscription_status, self.trial_ends_at) {
            (SubscriptionStatus::Trialing, Some(end)) if end <= now => SubscriptionStatus::TrialExpired,
            (s, _) => s,
        }
    }

    /// This organization with [`Organization::status_at`] `now` as its status: what every answer
    /// and every D4 check sees (T90).
    pub fn as_of(mut self, now: OffsetDateTime) -> Organization {
        self.subscription_status = self.status_at(now);
        self
    }
}

/// Usage figures of an organization (spec, Organization.usage; D6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Usage {
    /// Active persons.
    pub persons_used: u32,
    /// Plan's person limit.
    pub persons_limit: u32,
    /// D6: writes refused by D4, or `used >= limit`.
    pub import_blocked: bool,
    /// Competency profiles.
    pub profiles_used: u32,
    /// Plan's profile limit.
    pub profiles_limit: u32,
}

/// A dashboard user (D39).
#[derive(Clone, Debug, PartialEq)]
pub struct User {
    pub id: UserId,
    /// Organization.
    pub org_id: OrgId,
    /// Login email.
    pub email: Email,
    pub role: OrgRole,
    /// Creation time.
    pub created_at: OffsetDateTime,
}
