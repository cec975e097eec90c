//! Value objects that parse (convention: "parse, don't validate"). Once constructed a value is valid
//! everywhere. Each constructor returns a human-readable message on failure; callers attach the
//! field path and report `validation_error` (D37).

use std::fmt;
use validator::ValidateEmail;

/// A validation failure of one field, reported as `{"field": ..., "message": ...}` (D37).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Path of the field, e.g. `tags[3]` or `invitation.expiresInDays`.
    pub field: String,
    /// English message.
    pub message: String,
}

impl FieldError {
    /// Builds a field error.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// A list of field errors; non-empty when returned as an error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors(pub Vec<FieldError>);

impl FieldErrors {
    /// Adds one error.
    pub fn push(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(field, message));
    }
    /// True when no error was collected.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// `Ok(())` when empty, else `Err(self)`.
    pub fn into_result(self) -> Result<(), FieldErrors> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }
    /// Runs a parser and records its error under `field`.
    pub fn take<T>(&mut self, field: &str, r: Result<T, String>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(m) => {
                self.push(field, m);
                None
            }
        }
    }
}

fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Error message of [`single_line`].
pub const NO_CONTROLS: &str = "must not contain control characters";
/// Error message of [`multi_line`].
pub const NO_CONTROLS_BUT_BREAKS: &str = "must not contain control characters other than tab and line breaks";

/// What a one-line text accepts (issue 13, T86): no control character at all (Unicode `Cc`: the
/// C0 controls U+0000–U+001F with tab and line breaks, DEL U+007F and the C1 controls
/// U+0080–U+009F). PostgreSQL refuses NUL in text and SQLite stores it, so both backends refuse
/// it here alike. Errors: [`NO_CONTROLS`].
pub fn single_line(s: &str) -> Result<(), String> {
    if s.chars().any(char::is_control) {
        return Err(NO_CONTROLS.into());
    }
    Ok(())
}

/// What a multi-line text accepts (an invitation's `message`, a description; T86): as
/// [`single_line`] but tab, line feed and carriage return are allowed. Every string of a JSON body
/// is held to this at least. Errors: [`NO_CONTROLS_BUT_BREAKS`].
pub fn multi_line(s: &str) -> Result<(), String> {
    if s.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) {
        return Err(NO_CONTROLS_BUT_BREAKS.into());
    }
    Ok(())
}

/// The message of an address that is not one ([`Email::parse`]).
const NOT_AN_ADDRESS: &str = "must be a valid email address";

/// A domain name in its IDNA ASCII form (D55, T145): UTS #46 ToASCII (nontransitional, as
/// browsers do) maps the name (lower-case, width and compatibility forms folded, `。` read as a
/// dot) and writes each label that is not ASCII in Punycode, under the STD3 rules (letters,
/// digits and hyphens, no hyphen first or last in a label) and the DNS lengths (labels of 1 to 63
/// characters, at most 253 in all): `München.DE` → `xn--mnchen-3ya.de`; an ASCII name comes back
/// lower-cased; a Punycode label must decode to a valid one. Errors: not a valid
/// (internationalized) domain name, with an English message.
pub fn ascii_domain(domain: &str) -> Result<String, String> {
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    Uts46::new()
        .to_ascii(domain.as_bytes(), AsciiDenyList::STD3, Hyphens::CheckFirstLast, DnsLength::Verify)
        .map(|d| d.into_owned())
        .map_err(|_| "is not a valid internationalized domain name".into())
}

/// An email address (D9, D55): trimmed and lower-cased, its domain in its IDNA (UTS #46) ASCII
/// form, so that `a@münchen.de` and `a@xn--mnchen-3ya.de` are one address; identity of a person
/// within an organization. The local part is kept as given, lower-cased, and must be ASCII.
/// Stored, compared and answered in this form.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Email(String);

impl Email {
    /// Parses: trims, lower-cases (D9), converts the domain to its ASCII form ([`ascii_domain`],
    /// D55; an address literal such as `[192.0.2.1]` is kept), then checks the address as
    /// `validator` does (the HTML form rule) and its length (at most 254 characters, in ASCII
    /// form). Errors (English messages): empty; a control character; a local part (before the
    /// last `@`) that is not ASCII; a domain that is not a valid internationalized domain name;
    /// anything else that is not an address.
    pub fn parse(raw: &str) -> Result<Email, String> {
        let s = raw.trim().to_lowercase();
        if s.is_empty() {
            return Err("must not be empty".into());
        }
        single_line(&s)?;
        let Some((local, domain)) = s.rsplit_once('@') else { return Err(NOT_AN_ADDRESS.into()) };
        if !local.is_ascii() {
            return Err(format!("{NOT_AN_ADDRESS}: the part before @ must be ASCII"));
        }
        let domain = if domain.starts_with('[') {
            domain.to_string()
        } else {
            match ascii_domain(domain) {
                Ok(d) => d,
                // An ASCII name without Punycode labels is simply not an address's domain.
                Err(_) if domain.is_ascii() && !domain.contains("xn--") => return Err(NOT_AN_ADDRESS.into()),
                Err(why) => return Err(format!("{NOT_AN_ADDRESS}: its domain {why}")),
            }
        };
        let s = format!("{local}@{domain}");
        if char_len(&s) > 254 || !s.validate_email() {
            return Err(NOT_AN_ADDRESS.into());
        }
        Ok(Email(s))
    }
    /// An address as the store holds it (D55): kept as it is when it is an address as
    /// [`Email::parse`] checked them before domains were stored in ASCII form (trimmed,
    /// lower-cased, valid; every address [`Email::parse`] makes is one), so that a row written
    /// before, which the start-up normalization left alone because it collides with another,
    /// reads and writes back unchanged instead of turning into the other's address; anything
    /// else is parsed. Errors: as [`Email::parse`].
    pub fn from_stored(s: &str) -> Result<Email, String> {
        let as_before = !s.is_empty()
            && s.trim() == s
            && s.to_lowercase() == s
            && single_line(s).is_ok()
            && char_len(s) <= 254
            && s.validate_email();
        if as_before {
            Ok(Email(s.to_string()))
        } else {
            Email::parse(s)
        }
    }
    /// The address an erased membership keeps (D44): `erased-{id}@invalid`.
    pub fn erased(id: crate::ids::PersonId) -> Email {
        Self::erased_record(id.0)
    }
    /// `erased-{id}@invalid` for any erased record (an invitation without a membership, D45).
    pub fn erased_record(id: uuid::Uuid) -> Email {
        Email(format!("erased-{id}@invalid"))
    }
    /// The normalized address.
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The part after the last `@`: lower-case, in ASCII form (D55).
    pub fn domain(&self) -> &str {
        self.0.rsplit_once('@').map(|(_, d)| d).unwrap_or("")
    }
    /// The address with its domain in Unicode (UTS #46 ToUnicode, D55): `a@xn--mnchen-3ya.de` is
    /// `a@münchen.de`. The address itself when its domain has no Punycode label. How data
    /// written before domains were stored in ASCII form spells the address (stored events,
    /// for erasure and export).
    pub fn unicode(&self) -> String {
        use idna::uts46::{AsciiDenyList, Hyphens, Uts46};
        let Some((local, domain)) = self.0.rsplit_once('@') else { return self.0.clone() };
        if !domain.contains("xn--") {
            return self.0.clone();
        }
        match Uts46::new().to_unicode(domain.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow) {
            (d, Ok(())) => format!("{local}@{d}"),
            (_, Err(_)) => self.0.clone(),
        }
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A first or last name: 1 to 100 characters after trimming (spec limits).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PersonName(String);

impl PersonName {
    /// Parses; errors when empty after trimming, longer than 100 characters, or holding a control
    /// character ([`single_line`]).
    pub fn parse(raw: &str) -> Result<PersonName, String> {
        let s = raw.trim();
        single_line(s)?;
        match char_len(s) {
            0 => Err("must be 1 to 100 characters".into()),
            n if n > 100 => Err("must be 1 to 100 characters".into()),
            _ => Ok(PersonName(s.to_string())),
        }
    }
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The client's own identifier of a person: 1 to 255 characters, kept exactly as sent.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ExternalId(String);

impl ExternalId {
    /// Parses; errors when empty, longer than 255 characters, or holding a control character
    /// ([`single_line`]).
    pub fn parse(raw: &str) -> Result<ExternalId, String> {
        single_line(raw)?;
        match char_len(raw) {
            0 => Err("must be 1 to 255 characters".into()),
            n if n > 255 => Err("must be 1 to 255 characters".into()),
            _ => Ok(ExternalId(raw.to_string())),
        }
    }
    /// The identifier.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A person label (spec: `candidate` or `employee`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Label {
    /// `candidate`
    Candidate,
    /// `employee`
    Employee,
}

impl Label {
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Label, String> {
        match s {
            "candidate" => Ok(Label::Candidate),
            "employee" => Ok(Label::Employee),
            _ => Err("must be one of: candidate, employee".into()),
        }
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::Candidate => "candidate",
            Label::Employee => "employee",
        }
    }
}

/// The set of labels of a person; empty means "other". Printed in the order candidate, employee.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Labels {
    /// Has `candidate`.
    pub candidate: bool,
    /// Has `employee`.
    pub employee: bool,
}

impl Labels {
    /// The default of a new person: `["candidate"]` (spec, Person.labels).
    pub const DEFAULT: Labels = Labels { candidate: true, employee: false };

    /// Parses a list of at most 2 labels; duplicates are folded. Errors are per item
    /// (`(index, message)`) or for the whole list (`None` index).
    pub fn parse(items: &[String]) -> Result<Labels, Vec<(Option<usize>, String)>> {
        let mut errs = Vec::new();
        if items.len() > 2 {
            errs.push((None, "must have at most 2 items".to_string()));
        }
        let mut l = Labels::default();
        for (i, it) in items.iter().enumerate() {
            match Label::parse(it) {
                Ok(Label::Candidate) => l.candidate = true,
                Ok(Label::Employee) => l.employee = true,
                Err(m) => errs.push((Some(i), m)),
            }
        }
        if errs.is_empty() {
            Ok(l)
        } else {
            Err(errs)
        }
    }
    /// The wire list.
    pub fn to_vec(self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.candidate {
            v.push("candidate");
        }
        if self.employee {
            v.push("employee");
        }
        v
    }
}

/// A tag name as sent: 1 to 50 characters after trimming (spec limits). The organization's tag
/// catalogue maps it onto its canonical spelling (D14).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TagName(String);

impl TagName {
    /// Parses; errors when empty after trimming, longer than 50 characters, or holding a control
    /// character ([`single_line`]).
    pub fn parse(raw: &str) -> Result<TagName, String> {
        let s = raw.trim();
        single_line(s)?;
        match char_len(s) {
            0 => Err("must be 1 to 50 characters".into()),
            n if n > 50 => Err("must be 1 to 50 characters".into()),
            _ => Ok(TagName(s.to_string())),
        }
    }
    /// The spelling as sent (trimmed).
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// The case-insensitive identity of the tag within an organization (D14).
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }
}

/// A tag of the organization's catalogue: the first spelling wins (D14).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tag {
    /// Catalogue entry id.
    pub id: crate::ids::TagId,
    /// Canonical spelling.
    pub name: String,
}

/// Sorts tags case-insensitively (D14), ties broken by spelling, and removes duplicate ids.
pub fn sort_tags(tags: &mut Vec<Tag>) {
    tags.sort_by(|a, b| a.name.to_lowercase().cmp(&b.name.to_lowercase()).then(a.name.cmp(&b.name)));
    tags.dedup_by(|a, b| a.id == b.id);
}

/// An API scope (spec, Authentication 7). `*:write` implies the matching `*:read`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// `organization:read`
    OrganizationRead,
    /// `persons:read`
    PersonsRead,
    /// `persons:write`
    PersonsWrite,
    /// `invitations:read`
    InvitationsRead,
    /// `invitations:write`
    InvitationsWrite,
    /// `results:read`
    ResultsRead,
    /// `profiles:read`
    ProfilesRead,
    /// `webhooks:manage`
    WebhooksManage,
}

impl Scope {
    /// Every scope, in the spec's order.
    pub const ALL: [Scope; 8] = [
        Scope::OrganizationRead,
        Scope::PersonsRead,
        Scope::PersonsWrite,
        Scope::InvitationsRead,
        Scope::InvitationsWrite,
        Scope::ResultsRead,
        Scope::ProfilesRead,
        Scope::WebhooksManage,
    ];

    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Scope, String> {
        Scope::ALL.into_iter().find(|sc| sc.as_str() == s).ok_or_else(|| format!("unknown scope '{s}'"))
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::OrganizationRead => "organization:read",
            Scope::PersonsRead => "persons:read",
            Scope::PersonsWrite => "persons:write",
            Scope::InvitationsRead => "invitations:read",
            Scope::InvitationsWrite => "invitations:write",
            Scope::ResultsRead => "results:read",
            Scope::ProfilesRead => "profiles:read",
            Scope::WebhooksManage => "webhooks:manage",
        }
    }
    /// Whether the scope acts only for a key whose owner is an administrator (spec,
    /// Authentication 5: `webhooks:manage`). Checked when a key is created and on every request,
    /// so a key keeps the scope but it stops acting when its owner is made a member (T123).
    pub fn requires_admin(self) -> bool {
        matches!(self, Scope::WebhooksManage)
    }
    /// The write scope that implies this read scope, if any.
    fn implied_by(self) -> Option<Scope> {
        match self {
            Scope::PersonsRead => Some(Scope::PersonsWrite),
            Scope::InvitationsRead => Some(Scope::InvitationsWrite),
            _ => None,
        }
    }
}

/// The scopes granted to a key, as granted (sorted, unique). [`Scopes::grants`] applies the
/// write-implies-read rule.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Builds a sorted, de-duplicated set.
    pub fn new(mut v: Vec<Scope>) -> Scopes {
        v.sort();
        v.dedup();
        Scopes(v)
    }
    /// Parses wire values; errors per item `(index, message)`; an empty list is an error.
    pub fn parse(items: &[String]) -> Result<Scopes, Vec<(Option<usize>, String)>> {
        let mut errs = Vec::new();
        let mut v = Vec::new();
        if items.is_empty() {
            errs.push((None, "must contain at least one scope".to_string()));
        }
        for (i, s) in items.iter().enumerate() {
            match Scope::parse(s) {
                Ok(sc) => v.push(sc),
                Err(m) => errs.push((Some(i), m)),
            }
        }
        if errs.is_empty() {
            Ok(Scopes::new(v))
        } else {
            Err(errs)
        }
    }
    /// True when `required` is granted directly or implied by its write scope.
    pub fn grants(&self, required: Scope) -> bool {
        self.0.contains(&required) || required.implied_by().is_some_and(|w| self.0.contains(&w))
    }
    /// True when the scope is granted directly (not implied).
    pub fn contains(&self, s: Scope) -> bool {
        self.0.contains(&s)
    }
    /// The granted scopes as wire values.
    pub fn to_strings(&self) -> Vec<String> {
        self.0.iter().map(|s| s.as_str().to_string()).collect()
    }
    /// The granted scopes.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }
}

/// Subscription status (spec, Organization.subscription.status).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SubscriptionStatus {
    /// `trialing`
    Trialing,
    /// `trial_expired`
    TrialExpired,
    /// `needs_plan`
    NeedsPlan,
    /// `active`
    Active,
    /// `past_due`
    PastDue,
    /// `canceled`
    Canceled,
}

impl SubscriptionStatus {
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        Ok(match s {
            "trialing" => Self::Trialing,
            "trial_expired" => Self::TrialExpired,
            "needs_plan" => Self::NeedsPlan,
            "active" => Self::Active,
            "past_due" => Self::PastDue,
            "canceled" => Self::Canceled,
            _ => return Err("must be one of: trialing, trial_expired, needs_plan, active, past_due, canceled".into()),
        })
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Trialing => "trialing",
            Self::TrialExpired => "trial_expired",
            Self::NeedsPlan => "needs_plan",
            Self::Active => "active",
            Self::PastDue => "past_due",
            Self::Canceled => "canceled",
        }
    }
    /// D4: writes are allowed while `trialing`, `active` or `past_due`.
    pub fn allows_writes(self) -> bool {
        matches!(self, Self::Trialing | Self::Active | Self::PastDue)
    }
}

/// A user's role in the organization (`admin` or `member`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OrgRole {
    /// `admin`
    Admin,
    /// `member`
    Member,
}

impl OrgRole {
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "admin" => Ok(Self::Admin),
            "member" => Ok(Self::Member),
            _ => Err("must be one of: admin, member".into()),
        }
    }
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::Member => "member",
        }
    }
}

/// A plan of the catalogue (D5) with its limits and rate budgets (D7).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Plan {
    /// Plan id as shown in `subscription.plan`, e.g. `business`.
    pub id: String,
    /// Whether keys of this plan may use the API at all (else 403 `plan_upgrade_required`).
    pub api_access: bool,
    /// Person limit (active persons).
    pub person_limit: u32,
    /// Profile limit.
    pub profile_limit: u32,
    /// Requests per minute per organization under D7 (Set A).
    pub org_rpm: u32,
    /// Requests per minute per key under D7 (Set A).
    pub key_rpm: u32,
    /// Requests per minute per organization under Set B (`TALENT_RATE_LIMIT_MODE=org-only`).
    pub org_only_rpm: u32,
}

/// The plan catalogue (configuration; D5 gives the defaults).
#[derive(Clone, Debug)]
pub struct PlanCatalogue {
    plans: Vec<Plan>,
}

impl Default for PlanCatalogue {
    /// D5 and D7: `starter` (no API; 50 persons, 3 profiles), `professional` (500, 25; 120/60 rpm,
    /// Set B 60), `business` (5,000, 250; 600/300 rpm, Set B 300). Starter keys are refused before
    /// any work; they are rate-limited with the professional figures.
    fn default() -> Self {
        let p = |id: &str, api: bool, persons, profiles, org, key, org_only| Plan {
            id: id.into(),
            api_access: api,
            person_limit: persons,
            profile_limit: profiles,
            org_rpm: org,
            key_rpm: key,
            org_only_rpm: org_only,
        };
        PlanCatalogue {
            plans: vec![
                p("starter", false, 50, 3, 120, 60, 60),
                p("professional", true, 500, 25, 120, 60, 60),
                p("business", true, 5_000, 250, 600, 300, 300),
            ],
        }
    }
}

impl Plan {
    /// D6: the seats (active persons) of an organization on `plan`; a plan missing from the
    /// catalogue has none.
    pub fn seats(plan: Option<&Plan>) -> u32 {
        plan.map_or(0, |p| p.person_limit)
    }

    /// D6: one more active person fits while `used` is below [`Plan::seats`]. The one place the
    /// person limit is decided (import, invitation creation, acceptance; issue 14, point 4).
    /// Errors: 409 `person_limit_reached` with `details {used, limit, plan}` (`plan_id`: the
    /// organization's plan id as stored).
    pub fn require_seat(plan: Option<&Plan>, plan_id: &str, used: u32) -> Result<(), crate::errors::ClientError> {
        let limit = Plan::seats(plan);
        if used < limit {
            return Ok(());
        }
        Err(crate::errors::ClientError::new(
            crate::errors::Code::PersonLimitReached,
            format!("The plan's person limit of {limit} is reached; archive persons or upgrade"),
        )
        .with_details(serde_json::json!({"used": used, "limit": limit, "plan": plan_id})))
    }
}

impl PlanCatalogue {
    /// Builds a catalogue from plans.
    pub fn new(plans: Vec<Plan>) -> Self {
        Self { plans }
    }
    /// Looks a plan up by id.
    pub fn get(&self, id: &str) -> Option<&Plan> {
        self.plans.iter().find(|p| p.id == id)
    }
    /// The plan ids, for messages.
    pub fn ids(&self) -> Vec<&str> {
        self.plans.iter().map(|p| p.id.as_str()).collect()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// D6: a seat is free while fewer than the plan's persons are active; a plan missing from the
    /// catalogue has no seats; the error names used, limit and plan.
    #[test]
    fn a_seat_is_free_below_the_person_limit() {
        let plan = PlanCatalogue::default().get("professional").cloned().unwrap();
        assert_eq!(Plan::require_seat(Some(&plan), "professional", plan.person_limit - 1), Ok(()));
        let e = Plan::require_seat(Some(&plan), "professional", plan.person_limit).unwrap_err();
        assert_eq!(e.code, crate::errors::Code::PersonLimitReached);
        assert_eq!(e.details.unwrap()["limit"], plan.person_limit);
        assert_eq!(Plan::seats(None), 0);
        assert!(Plan::require_seat(None, "gone", 0).is_err());
    }

    /// T86: one-line values refuse every control character; multi-line text keeps tab and breaks.
    #[test]
    fn text_refuses_control_characters_t86() {
        for bad in ["\u{0}", "a\u{1}b", "\t", "a\nb", "\r", "\u{1b}[0m", "\u{7f}", "\u{85}", "\u{9f}"] {
            assert!(single_line(bad).is_err(), "{bad:?}");
            assert!(PersonName::parse(&format!("x{bad}y")).is_err(), "{bad:?}");
            assert!(ExternalId::parse(&format!("x{bad}y")).is_err(), "{bad:?}");
            assert!(TagName::parse(&format!("x{bad}y")).is_err(), "{bad:?}");
        }
        for ok in ["Łukasz Nguyễn", "a\u{a0}b", "\u{200b}", "emoji 🎉"] {
            assert_eq!(single_line(ok), Ok(()), "{ok:?}");
        }
        assert_eq!(multi_line("line\r\n\tindented"), Ok(()));
        assert!(multi_line("nul\u{0}").is_err());
        assert!(multi_line("bell\u{7}").is_err());
    }

    #[test]
    fn email_is_trimmed_and_lowercased() {
        assert_eq!(Email::parse("  Ada@Example.COM ").unwrap().as_str(), "ada@example.com");
        assert_eq!(Email::parse("a@b.co").unwrap().domain(), "b.co");
        // D44: the erased address is a valid address (stored and read back like any other).
        let erased = Email::erased(crate::ids::PersonId(uuid::Uuid::from_u128(5)));
        assert_eq!(Email::parse(erased.as_str()).unwrap(), erased);
    }

    /// D55: the domain is stored in its IDNA (UTS #46) ASCII form, so every spelling of an
    /// internationalized domain is one address; the local part is kept, lower-cased (D9).
    #[test]
    fn email_domains_take_their_idna_ascii_form_d55() {
        let want = "a@xn--mnchen-3ya.de";
        for spelling in [
            "a@münchen.de",
            "a@xn--mnchen-3ya.de",
            " A@MÜNCHEN.DE ",
            "A@XN--MNCHEN-3YA.DE",
            "a@mu\u{308}nchen.de",
            "a@münchen\u{3002}de",
            "a@\u{ff4d}\u{fc}\u{ff4e}\u{ff43}\u{ff48}\u{ff45}\u{ff4e}.de",
        ] {
            let e = Email::parse(spelling).unwrap();
            assert_eq!(e.as_str(), want, "{spelling:?}");
            assert_eq!(e.domain(), "xn--mnchen-3ya.de");
            assert_eq!(e.unicode(), "a@münchen.de");
            assert_eq!(Email::parse(&e.unicode()).unwrap(), e, "the Unicode form parses back");
        }
        assert_eq!(Email::parse("Jo.Doe+X@Bücher.example").unwrap().as_str(), "jo.doe+x@xn--bcher-kva.example");
        assert_eq!(Email::parse("a@faß.de").unwrap().as_str(), "a@xn--fa-hia.de", "nontransitional: ß is kept");
        assert_eq!(Email::parse("ada@example.com").unwrap().unicode(), "ada@example.com");
        assert_eq!(Email::parse("a@[192.0.2.1]").unwrap().as_str(), "a@[192.0.2.1]", "an address literal is kept");
    }

    #[test]
    fn email_refuses_what_is_not_an_internationalized_address_d55() {
        let idna = |raw: &str| Email::parse(raw).unwrap_err();
        for bad in ["a@xn--zz-.de", "a@-münchen.de", "a@münchen-.de", "a@mün chen.de", "a@mün_chen.de", "a@münchen..de"]
        {
            assert_eq!(
                idna(bad),
                "must be a valid email address: its domain is not a valid internationalized domain name",
                "{bad:?}"
            );
        }
        assert_eq!(idna("jürgen@example.de"), "must be a valid email address: the part before @ must be ASCII");
        for plain in ["a@b..com", "a@-b.com", "a@", "a@b_c.com"] {
            assert_eq!(idna(plain), "must be a valid email address", "{plain:?}");
        }
        // 254 characters at most, counted in ASCII form: 10 Unicode characters take more there.
        let label = "ü".repeat(10);
        let long = format!("{}@{label}.de", "x".repeat(254 - 14));
        assert!(char_len(&long) <= 254 && Email::parse(&long).is_err());
    }

    /// D55: what the store holds is read as it is, also an address written before domains were
    /// stored in ASCII form, so that a row left alone (a collision) writes back unchanged.
    #[test]
    fn stored_addresses_read_as_they_are_d55() {
        assert_eq!(Email::from_stored("a@münchen.de").unwrap().as_str(), "a@münchen.de");
        assert_eq!(Email::from_stored("a@xn--mnchen-3ya.de").unwrap().as_str(), "a@xn--mnchen-3ya.de");
        assert_eq!(Email::from_stored(" A@Example.com").unwrap().as_str(), "a@example.com", "parsed otherwise");
        assert!(Email::from_stored("not an address").is_err());
    }

    #[test]
    fn email_rejects_garbage() {
        for bad in ["", "  ", "no-at", "@x.com", "a@", "a b@c.com", "a@@b.com"] {
            assert!(Email::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_are_1_to_100_chars() {
        assert!(PersonName::parse("").is_err());
        assert!(PersonName::parse("   ").is_err());
        assert!(PersonName::parse(&"é".repeat(100)).is_ok());
        assert!(PersonName::parse(&"é".repeat(101)).is_err());
    }

    #[test]
    fn external_id_is_1_to_255_chars() {
        assert!(ExternalId::parse("").is_err());
        assert!(ExternalId::parse(&"x".repeat(255)).is_ok());
        assert!(ExternalId::parse(&"x".repeat(256)).is_err());
    }

    #[test]
    fn labels_parse_at_most_two() {
        let l = Labels::parse(&["employee".into(), "candidate".into()]).unwrap();
        assert_eq!(l.to_vec(), vec!["candidate", "employee"]);
        assert!(Labels::parse(&["x".into()]).is_err());
        assert!(Labels::parse(&["candidate".into(), "candidate".into(), "employee".into()]).is_err());
        assert_eq!(Labels::parse(&[]).unwrap().to_vec(), Vec::<&str>::new());
    }

    #[test]
    fn write_scope_implies_read_scope() {
        let s = Scopes::new(vec![Scope::PersonsWrite]);
        assert!(s.grants(Scope::PersonsRead));
        assert!(s.grants(Scope::PersonsWrite));
        assert!(!s.grants(Scope::OrganizationRead));
        let r = Scopes::new(vec![Scope::PersonsRead]);
        assert!(!r.grants(Scope::PersonsWrite));
    }

    #[test]
    fn subscription_write_rule_is_d4() {
        use SubscriptionStatus::*;
        for s in [Trialing, Active, PastDue] {
            assert!(s.allows_writes());
        }
        for s in [TrialExpired, NeedsPlan, Canceled] {
            assert!(!s.allows_writes());
        }
    }

    #[test]
    fn tags_sort_case_insensitively() {
        let t = |n: &str, i: u128| Tag { id: crate::ids::TagId(uuid::Uuid::from_u128(i)), name: n.into() };
        let mut v = vec![t("beta", 1), t("Alpha", 2), t("gamma", 3), t("alpha2", 4)];
        sort_tags(&mut v);
        let names: Vec<_> = v.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, vec!["Alpha", "alpha2", "beta", "gamma"]);
    }
}
