//! Organizations, users and API keys: the admin API's use cases (D39) and `GET /organization`.

use super::{Page, Services};
use crate::api_key::ApiKey;
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::*;
use crate::organization::{Organization, Usage, User};
use crate::ports::{Store, Tx};
use crate::values::*;
use time::OffsetDateTime;

/// `POST /admin/v1/organizations` (D39), parsed.
#[derive(Clone, Debug)]
pub struct NewOrganization {
    /// `companyName` (1..200 characters).
    pub company_name: String,
    /// `email`.
    pub email: Email,
    /// `plan`: an id of the catalogue.
    pub plan: String,
    /// `subscriptionStatus`, default `trialing`.
    pub subscription_status: Option<SubscriptionStatus>,
    /// `trialEndsAt`.
    pub trial_ends_at: Option<OffsetDateTime>,
    /// `currentPeriodEnd`.
    pub current_period_end: Option<OffsetDateTime>,
    /// `employeeDomains` (lower-case).
    pub employee_domains: Vec<String>,
    /// `locale`, `timeZone`, `redirectHosts` (T217, T219).
    pub candidate: crate::organization::CandidateDefaults,
}

impl NewOrganization {
    /// An organization named `company_name` on `plan` with its contact `email`, nothing else set
    /// (subscription `trialing` by default, no dates, no employee domains). Set other fields with
    /// struct update syntax: `NewOrganization { subscription_status, ..NewOrganization::new(..) }`.
    pub fn new(company_name: impl Into<String>, email: Email, plan: impl Into<String>) -> Self {
        NewOrganization {
            company_name: company_name.into(),
            email,
            plan: plan.into(),
            subscription_status: None,
            trial_ends_at: None,
            current_period_end: None,
            employee_domains: vec![],
            candidate: Default::default(),
        }
    }
}

/// `PATCH /admin/v1/organizations/{id}` (D39), parsed; `None` = unchanged, `Some(None)` = null.
#[derive(Clone, Debug, Default)]
pub struct OrganizationPatch {
    /// `companyName`.
    pub company_name: Option<String>,
    /// `email`.
    pub email: Option<Email>,
    /// `plan`.
    pub plan: Option<String>,
    /// `subscriptionStatus`.
    pub subscription_status: Option<SubscriptionStatus>,
    /// `trialEndsAt`.
    pub trial_ends_at: Option<Option<OffsetDateTime>>,
    /// `currentPeriodEnd`.
    pub current_period_end: Option<Option<OffsetDateTime>>,
    /// `employeeDomains`.
    pub employee_domains: Option<Vec<String>>,
    /// `locale` (T217).
    pub locale: Option<Locale>,
    /// `timeZone` (T217).
    pub time_zone: Option<TimeZone>,
    /// `redirectHosts` (T219), lower-case host names.
    pub redirect_hosts: Option<Vec<String>>,
}

/// Parses a redirect host (T219): a host name as the URL standard writes it (the IDNA ASCII form,
/// lower case; the adapter normalizes it), no scheme, port or path. Errors: anything else.
pub fn parse_redirect_host(raw: &str) -> Result<String, String> {
    let h = raw.trim().to_ascii_lowercase();
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    if h.len() > 253 || h.split('.').count() < 2 || !h.split('.').all(label_ok) {
        return Err("must be a host name such as careers.example.com (no scheme, port or path)".into());
    }
    Ok(h)
}

/// Parses a company name: 1 to 200 characters after trimming, one line (T86).
pub fn parse_company_name(raw: &str) -> Result<String, String> {
    let s = raw.trim();
    crate::values::single_line(s)?;
    match s.chars().count() {
        1..=200 => Ok(s.to_string()),
        _ => Err("must be 1 to 200 characters".into()),
    }
}

/// Parses an employee email domain (D15): trimmed, a leading `@` dropped, in its IDNA ASCII form
/// as addresses' domains are (D55: `München.de` is `xn--mnchen-3ya.de`), at least two labels of
/// letters, digits and hyphens. Errors: anything else, with an English message.
pub fn parse_domain(raw: &str) -> Result<String, String> {
    const NOT_A_DOMAIN: &str = "must be a domain name such as example.com";
    let d = raw.trim().trim_start_matches('@').to_lowercase();
    if d.is_empty() {
        return Err(NOT_A_DOMAIN.into());
    }
    let d = crate::values::ascii_domain(&d).map_err(|_| NOT_A_DOMAIN.to_string())?;
    let ok = d.len() <= 253
        && d.contains('.')
        && d.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        });
    if ok {
        Ok(d)
    } else {
        Err(NOT_A_DOMAIN.into())
    }
}

/// A new API key: the record and the value shown once.
#[derive(Clone, Debug)]
pub struct CreatedKey {
    /// The stored record.
    pub key: ApiKey,
    /// `tk_...`, shown once (D41).
    pub value: String,
}

/// A key to create inside another use case's transaction ([`create_key_in_tx`]).
#[derive(Clone)]
pub(crate) struct KeyRequest {
    pub id: ApiKeyId,
    pub user_id: UserId,
    pub name: Option<String>,
    pub scopes: Scopes,
    pub expires_at: Option<OffsetDateTime>,
    pub prefix: String,
    pub hash: Vec<u8>,
    pub now: OffsetDateTime,
    /// For a test-mode key (D60), the id the organization's test twin gets if it is made now:
    /// the key acts on the twin. `None` for a live key.
    pub test: Option<OrgId>,
}

/// Creates an API key for a user in this transaction (spec, Authentication 3-5; D41). Errors:
/// 404 (user), 403 `insufficient_scope` (`webhooks:manage` for a member), 409 `conflict` (the
/// user already has 10 active keys).
pub(crate) async fn create_key_in_tx(tx: &mut dyn Tx, r: KeyRequest) -> Result<ApiKey, UseCaseError> {
    let user = tx.get_user(r.user_id).await?.ok_or_else(|| ClientError::not_found("User"))?;
    tx.lock_org(user.org_id).await?;
    if r.scopes.iter().any(|s| s.requires_admin()) && user.role != OrgRole::Admin {
        return Err(ClientError::new(
            Code::InsufficientScope,
            "A key with the 'webhooks:manage' scope requires an administrator",
        )
        .into());
    }
    let active = tx.list_api_keys_of_user(r.user_id).await?.iter().filter(|k| k.is_active(r.now)).count();
    if active >= 10 {
        return Err(ClientError::new(Code::Conflict, "A user can have at most 10 active API keys")
            .with_details(serde_json::json!({"active": active, "limit": 10}))
            .into());
    }
    let org_id = match r.test {
        Some(twin_id) => test_twin_in_tx(tx, user.org_id, twin_id, r.now).await?.id,
        None => user.org_id,
    };
    let key = ApiKey {
        id: r.id,
        user_id: r.user_id,
        org_id,
        name: r.name,
        prefix: r.prefix,
        hash: r.hash,
        scopes: r.scopes,
        expires_at: r.expires_at,
        revoked_at: None,
        created_at: r.now,
    };
    tx.insert_api_key(&key).await?;
    Ok(key)
}

/// The test twin of the live organization `live` (D60), made on first use in this transaction: a
/// copy of the organization (name, contact, plan, subscription, employee domains) with its own
/// id (`new_id`, used only when it is made) and `test_of` naming `live`. The caller holds the
/// organization's lock, so two callers never both make one (the store's unique index on
/// `test_of` would refuse the second). Errors: 404 when `live` does not exist.
pub(crate) async fn test_twin_in_tx(
    tx: &mut dyn Tx,
    live: OrgId,
    new_id: OrgId,
    now: OffsetDateTime,
) -> Result<Organization, UseCaseError> {
    if let Some(twin) = tx.find_test_twin(live).await? {
        return Ok(twin);
    }
    let org = tx.get_org(live).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
    let twin = Organization { id: new_id, test_of: Some(live), created_at: now, updated_at: now, ..org };
    tx.insert_org(&twin).await?;
    Ok(twin)
}

/// The plan and subscription of `live` copied onto its test twin, if it has one (D60: test mode
/// runs under the organization's plan).
pub(crate) async fn follow_live_in_tx(tx: &mut dyn Tx, live: &Organization) -> Result<(), UseCaseError> {
    if let Some(mut twin) = tx.find_test_twin(live.id).await? {
        twin.plan = live.plan.clone();
        twin.subscription_status = live.subscription_status;
        twin.trial_ends_at = live.trial_ends_at;
        twin.current_period_end = live.current_period_end;
        twin.company_name = live.company_name.clone();
        twin.email = live.email.clone();
        twin.employee_domains = live.employee_domains.clone();
        twin.candidate = live.candidate.clone();
        twin.updated_at = live.updated_at;
        tx.update_org(&twin).await?;
    }
    Ok(())
}

impl<S: Store> Services<S> {
    fn check_plan(&self, plan: &str) -> Result<(), UseCaseError> {
        if self.plans.get(plan).is_none() {
            return Err(FieldErrors::one("plan", format!("must be one of: {}", self.plans.ids().join(", "))).into());
        }
        Ok(())
    }

    /// Usage of an organization (D6): active persons and profiles against the plan's limits.
    pub fn usage(&self, org: &Organization, persons_used: u32, profiles_used: u32) -> Usage {
        let (pl, prl) = self.plans.get(&org.plan).map(|p| (p.person_limit, p.profile_limit)).unwrap_or((0, 0));
        Usage {
            persons_used,
            persons_limit: pl,
            import_blocked: !org.subscription_status.allows_writes() || persons_used >= pl,
            profiles_used,
            profiles_limit: prl,
        }
    }

    /// The organization with its usage. Errors: 404 `not_found`.
    pub async fn organization(&self, id: OrgId) -> Result<(Organization, Usage), UseCaseError> {
        let (org, used, profiles) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let Some(org) = tx.get_org(id).await? else { return Ok::<_, UseCaseError>(None) };
                    let used = tx.count_active_persons(id).await?;
                    let profiles = tx.count_profiles(id).await?;
                    Ok(Some((org, used, profiles)))
                })
            })
            .await?
            .ok_or_else(|| ClientError::not_found("Organization"))?;
        let org = org.as_of(self.clock.now());
        let usage = self.usage(&org, used, profiles);
        Ok((org, usage))
    }

    /// Creates an organization (D39). Errors: 400 for an unknown plan.
    pub async fn create_organization(&self, n: NewOrganization) -> Result<(Organization, Usage), UseCaseError> {
        self.check_plan(&n.plan)?;
        let now = self.clock.now();
        let org = Organization {
            id: OrgId(self.ids.new_uuid()),
            company_name: n.company_name,
            email: n.email,
            plan: n.plan,
            subscription_status: n.subscription_status.unwrap_or(SubscriptionStatus::Trialing),
            trial_ends_at: n.trial_ends_at,
            current_period_end: n.current_period_end,
            employee_domains: n.employee_domains,
            created_at: now,
            updated_at: now,
            test_of: None,
            candidate: n.candidate,
        };
        let o = org.clone();
        self.store
            .write(move |tx| Box::pin(async move { tx.insert_org(&o).await.map_err(UseCaseError::from) }))
            .await?;
        let org = org.as_of(now);
        let usage = self.usage(&org, 0, 0);
        Ok((org, usage))
    }

    /// Changes an organization (D39). Errors: 404, 400 for an unknown plan.
    pub async fn patch_organization(
        &self,
        id: OrgId,
        p: OrganizationPatch,
    ) -> Result<(Organization, Usage), UseCaseError> {
        if let Some(plan) = &p.plan {
            self.check_plan(plan)?;
        }
        let now = self.clock.now();
        let (org, used, profiles) = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let mut org = tx.lock_org(id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    if let Some(v) = p.company_name {
                        org.company_name = v;
                    }
                    if let Some(v) = p.email {
                        org.email = v;
                    }
                    if let Some(v) = p.plan {
                        org.plan = v;
                    }
                    if let Some(v) = p.subscription_status {
                        org.subscription_status = v;
                    }
                    if let Some(v) = p.trial_ends_at {
                        org.trial_ends_at = v;
                    }
                    if let Some(v) = p.current_period_end {
                        org.current_period_end = v;
                    }
                    if let Some(v) = p.employee_domains {
                        org.employee_domains = v;
                    }
                    if let Some(v) = p.locale {
                        org.candidate.locale = v;
                    }
                    if let Some(v) = p.time_zone {
                        org.candidate.time_zone = v;
                    }
                    if let Some(v) = p.redirect_hosts {
                        org.candidate.redirect_hosts = v;
                    }
                    org.updated_at = now;
                    tx.update_org(&org).await?;
                    follow_live_in_tx(tx, &org).await?;
                    let used = tx.count_active_persons(id).await?;
                    let profiles = tx.count_profiles(id).await?;
                    Ok::<_, UseCaseError>((org, used, profiles))
                })
            })
            .await?;
        let org = org.as_of(now);
        let usage = self.usage(&org, used, profiles);
        Ok((org, usage))
    }

    /// Adds a user to an organization (D39). Errors: 404 (organization), 409 `conflict` (email
    /// already a user of the organization).
    pub async fn create_user(&self, org_id: OrgId, email: Email, role: OrgRole) -> Result<User, UseCaseError> {
        let user = User { id: UserId(self.ids.new_uuid()), org_id, email, role, created_at: self.clock.now() };
        let u = user.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.lock_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let existing = tx.list_users_of_org(org_id).await?;
                    if existing.iter().any(|x| x.email == u.email) {
                        return Err(ClientError::new(
                            Code::Conflict,
                            "A user with this email already exists in the organization",
                        )
                        .into());
                    }
                    tx.insert_user(&u).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        Ok(user)
    }

    /// Creates an API key for a user (spec, Authentication 3-5; D39, D41). Errors: 404 (user),
    /// 400 (expiry not in the future), 403 `insufficient_scope` (`webhooks:manage` for a member),
    /// 409 `conflict` (the user already has 10 active keys).
    pub async fn create_api_key(
        &self,
        user_id: UserId,
        name: Option<String>,
        scopes: Scopes,
        expires_at: Option<OffsetDateTime>,
    ) -> Result<CreatedKey, UseCaseError> {
        self.create_key(user_id, name, scopes, expires_at, false).await
    }

    /// Creates a test-mode API key for a user (D60): its value starts `tk_test_`, and it acts on
    /// the test twin of the user's organization (made on first use). Errors: as
    /// [`Services::create_api_key`].
    pub async fn create_test_api_key(
        &self,
        user_id: UserId,
        name: Option<String>,
        scopes: Scopes,
        expires_at: Option<OffsetDateTime>,
    ) -> Result<CreatedKey, UseCaseError> {
        self.create_key(user_id, name, scopes, expires_at, true).await
    }

    async fn create_key(
        &self,
        user_id: UserId,
        name: Option<String>,
        scopes: Scopes,
        expires_at: Option<OffsetDateTime>,
        test: bool,
    ) -> Result<CreatedKey, UseCaseError> {
        let now = self.clock.now();
        if expires_at.is_some_and(|e| e <= now) {
            return Err(FieldErrors::one("expiresAt", "must be in the future").into());
        }
        let material = crate::usecases::access::key_material(&*self.secrets, test);
        let req = KeyRequest {
            id: ApiKeyId(self.ids.new_uuid()),
            user_id,
            name,
            scopes,
            expires_at,
            prefix: material.prefix,
            hash: material.hash,
            now,
            test: test.then(|| OrgId(self.ids.new_uuid())),
        };
        let key = self.store.write(move |tx| Box::pin(async move { create_key_in_tx(tx, req).await })).await?;
        Ok(CreatedKey { key, value: material.value })
    }

    /// Organizations with their usage, newest first, keyset-paginated by id (the admin API's
    /// list, issue 16; `limit` 1..100, checked by the caller).
    pub async fn list_organizations(
        &self,
        before: Option<OrgId>,
        limit: u32,
    ) -> Result<Page<(Organization, Usage)>, UseCaseError> {
        let now = self.clock.now();
        let rows = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let orgs = tx.list_orgs(before, limit + 1).await?;
                    let mut out = Vec::with_capacity(orgs.len());
                    for o in orgs {
                        let used = tx.count_active_persons(o.id).await?;
                        let profiles = tx.count_profiles(o.id).await?;
                        out.push((o, used, profiles));
                    }
                    Ok::<_, UseCaseError>(out)
                })
            })
            .await?;
        let mut items: Vec<(Organization, Usage)> = rows
            .into_iter()
            .map(|(o, used, profiles)| {
                let o = o.as_of(now);
                let usage = self.usage(&o, used, profiles);
                (o, usage)
            })
            .collect();
        let has_more = items.len() > limit as usize;
        items.truncate(limit as usize);
        Ok(Page { items, has_more })
    }

    /// One user (admin API, issue 16). Errors: 404.
    pub async fn get_user(&self, id: UserId) -> Result<User, UseCaseError> {
        self.store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_user(id).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("User").into())
    }

    /// Users of an organization, newest first, keyset-paginated by id (admin API, issue 16).
    /// Errors: 404 (organization).
    pub async fn list_users(&self, org: OrgId, before: Option<UserId>, limit: u32) -> Result<Page<User>, UseCaseError> {
        let users = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_org(org).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    Ok::<_, UseCaseError>(tx.list_users_of_org(org).await?)
                })
            })
            .await?;
        Ok(page_by_id(users, |u| u.id.0, before.map(|b| b.0), limit))
    }

    /// API keys of a user, active or not, newest first, keyset-paginated by id (admin API, issue
    /// 16): never the key value, which is not stored. Errors: 404 (user).
    pub async fn list_api_keys(
        &self,
        user: UserId,
        before: Option<ApiKeyId>,
        limit: u32,
    ) -> Result<Page<ApiKey>, UseCaseError> {
        let keys = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_user(user).await?.ok_or_else(|| ClientError::not_found("User"))?;
                    Ok::<_, UseCaseError>(tx.list_api_keys_of_user(user).await?)
                })
            })
            .await?;
        Ok(page_by_id(keys, |k| k.id.0, before.map(|b| b.0), limit))
    }

    /// Revokes a key at once (D39); revoking a revoked key changes nothing. Errors: 404.
    pub async fn revoke_api_key(&self, id: ApiKeyId) -> Result<ApiKey, UseCaseError> {
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut key = tx.get_api_key(id).await?.ok_or_else(|| ClientError::not_found("API key"))?;
                    if key.revoked_at.is_none() {
                        tx.revoke_api_key(id, now).await?;
                        key.revoked_at = Some(now);
                    }
                    Ok::<_, UseCaseError>(key)
                })
            })
            .await
    }
}

/// One page of `items`, newest (highest UUIDv7 id) first, after the cursor position `before`.
fn page_by_id<T>(mut items: Vec<T>, id: impl Fn(&T) -> uuid::Uuid, before: Option<uuid::Uuid>, limit: u32) -> Page<T> {
    items.retain(|x| before.is_none_or(|b| id(x) < b));
    items.sort_by_key(|x| std::cmp::Reverse(id(x)));
    let has_more = items.len() > limit as usize;
    items.truncate(limit as usize);
    Page { items, has_more }
}
