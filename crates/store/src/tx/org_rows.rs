//! The rows of organizations, their users and API keys, and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = organizations, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct OrgRow {
    pub(crate) id: DbUuid,
    pub(crate) company_name: String,
    pub(crate) email: String,
    pub(crate) plan: String,
    pub(crate) subscription_status: String,
    pub(crate) trial_ends_at: Option<DbTime>,
    pub(crate) current_period_end: Option<DbTime>,
    pub(crate) employee_domains: String,
    pub(crate) created_at: DbTime,
    pub(crate) updated_at: DbTime,
    pub(crate) test_of: Option<DbUuid>,
    pub(crate) locale: String,
    pub(crate) time_zone: String,
    pub(crate) redirect_hosts: String,
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
            test_of: o.test_of.map(|t| DbUuid(t.0)),
            locale: o.candidate.locale.as_str().to_string(),
            time_zone: o.candidate.time_zone.as_str().to_string(),
            redirect_hosts: serde_json::to_string(&o.candidate.redirect_hosts).unwrap_or_else(|_| "[]".into()),
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
            test_of: r.test_of.map(|t| OrgId(t.0)),
            candidate: talent_domain::organization::CandidateDefaults {
                locale: Locale::parse(&r.locale).map_err(|_| corrupt("organizations.locale"))?,
                time_zone: TimeZone::parse(&r.time_zone).map_err(|_| corrupt("organizations.time_zone"))?,
                redirect_hosts: serde_json::from_str(&r.redirect_hosts)
                    .map_err(|_| corrupt("organizations.redirect_hosts"))?,
            },
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = users, treat_none_as_default_value = false)]
pub struct UserRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) email: String,
    pub(crate) role: String,
    pub(crate) created_at: DbTime,
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
    pub(crate) id: DbUuid,
    pub(crate) user_id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) name: Option<String>,
    pub(crate) prefix: String,
    pub(crate) hash: Vec<u8>,
    pub(crate) scopes: String,
    pub(crate) expires_at: Option<DbTime>,
    pub(crate) revoked_at: Option<DbTime>,
    pub(crate) created_at: DbTime,
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
