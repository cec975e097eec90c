//! API keys and what authenticating one yields (spec, Authentication; D41).

use crate::ids::*;
use crate::organization::Organization;
use crate::values::*;
use time::OffsetDateTime;

/// An API key record. The key value itself is never stored: only its public prefix (lookup) and
/// its SHA-256 hash (D41).
#[derive(Clone, Debug, PartialEq)]
pub struct ApiKey {
    pub id: ApiKeyId,
    /// Owner.
    pub user_id: UserId,
    /// Organization of the owner.
    pub org_id: OrgId,
    /// Optional display name.
    pub name: Option<String>,
    /// Public lookup prefix: the 16 characters after `tk_`.
    pub prefix: String,
    /// SHA-256 of the whole key value.
    pub hash: Vec<u8>,
    /// Granted scopes.
    pub scopes: Scopes,
    /// Optional expiry.
    pub expires_at: Option<OffsetDateTime>,
    /// Set when revoked.
    pub revoked_at: Option<OffsetDateTime>,
    /// Creation time.
    pub created_at: OffsetDateTime,
}

impl ApiKey {
    /// Active = not revoked and not expired at `now` (spec, Authentication 3: 10 active per user).
    pub fn is_active(&self, now: OffsetDateTime) -> bool {
        self.revoked_at.is_none() && self.expires_at.is_none_or(|e| e > now)
    }
}

/// Everything authentication needs, read in one indexed lookup by key prefix.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyContext {
    /// The key record.
    pub key: ApiKey,
    /// Role of the key's owner.
    pub role: OrgRole,
    /// The owner's organization.
    pub org: Organization,
}
