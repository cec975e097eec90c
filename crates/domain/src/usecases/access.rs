//! Authentication and authorization (spec, Authentication; D4, D5, D41).

use super::Services;
use crate::api_key::KeyContext;
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ports::Store;
use crate::values::{OrgRole, Plan, PlanCatalogue, Scope, Scopes};

/// An authenticated API key with its organization and plan.
#[derive(Clone, Debug)]
pub struct Principal {
    /// Key, role and organization as read at authentication (shared with the adapter's cache).
    pub ctx: std::sync::Arc<KeyContext>,
    /// The organization's plan; `None` when the plan id is not in the catalogue (no API access).
    pub plan: Option<Plan>,
}

/// What an endpoint needs: a scope (or none for `/me`) and whether it writes (D4).
#[derive(Clone, Copy, Debug)]
pub struct Requirement {
    /// Required scope; `None` for `GET /me`.
    pub scope: Option<Scope>,
    /// A write is refused while the subscription is inactive.
    pub write: bool,
}

impl Principal {
    /// The plan whose request budgets (D7) apply to this key: the organization's, or, for a plan
    /// id missing from the catalogue (such a key only ever gets 403 `plan_upgrade_required`,
    /// D5), the `professional` budgets, or 60 requests a minute when the catalogue has no such
    /// plan either (issue 14, point 9: the rule lives here, not in the HTTP adapter).
    pub fn budget_plan<'a>(&'a self, plans: &'a PlanCatalogue) -> std::borrow::Cow<'a, Plan> {
        use std::borrow::Cow;
        match (&self.plan, plans.get("professional")) {
            (Some(p), _) => Cow::Borrowed(p),
            (None, Some(p)) => Cow::Borrowed(p),
            (None, None) => Cow::Owned(Plan {
                id: "unknown".into(),
                api_access: false,
                person_limit: 0,
                profile_limit: 0,
                org_rpm: 60,
                key_rpm: 60,
                org_only_rpm: 60,
            }),
        }
    }

    /// The scopes that act for this key now: its scopes, less those that need an administrator
    /// when its owner is not one (T123). What the events feed reads by (D48).
    pub fn acting_scopes(&self) -> Scopes {
        let admin = self.ctx.role == OrgRole::Admin;
        Scopes::new(self.ctx.key.scopes.iter().filter(|s| admin || !s.requires_admin()).collect())
    }

    /// Authorizes a request. Errors, in this order: 403 `plan_upgrade_required` (D5, `/me`
    /// included), 403 `insufficient_scope` (the key lacks the scope, or the scope needs an
    /// administrator and the key's owner is not one, T123), 403 `subscription_inactive` (writes
    /// only, D4).
    pub fn authorize(&self, req: Requirement) -> Result<(), ClientError> {
        if !self.plan.as_ref().is_some_and(|p| p.api_access) {
            return Err(ClientError::new(
                Code::PlanUpgradeRequired,
                "Your plan has no API access; upgrade to Professional or Business",
            )
            .with_details(serde_json::json!({"plan": self.ctx.org.plan})));
        }
        if let Some(s) = req.scope {
            if !self.ctx.key.scopes.grants(s) {
                return Err(ClientError::new(
                    Code::InsufficientScope,
                    format!("This API key lacks the '{}' scope", s.as_str()),
                )
                .with_details(serde_json::json!({"requiredScope": s.as_str()})));
            }
            // Spec, Authentication 5 (T123): the owner's role as of now (the role is part of the
            // key's context, which a role change invalidates), not as of the key's creation.
            if s.requires_admin() && self.ctx.role != OrgRole::Admin {
                return Err(ClientError::new(
                    Code::InsufficientScope,
                    format!("The '{}' scope acts only while the key's owner is an administrator", s.as_str()),
                )
                .with_details(serde_json::json!({"requiredScope": s.as_str()})));
            }
        }
        if req.write && !self.ctx.org.subscription_status.allows_writes() {
            return Err(ClientError::new(
                Code::SubscriptionInactive,
                "The subscription is inactive; reads keep working, writes are blocked",
            )
            .with_details(serde_json::json!({"status": self.ctx.org.subscription_status.as_str()})));
        }
        Ok(())
    }
}

/// How a test-mode key's value begins (D60); a live key's is `tk_` alone.
pub const TEST_KEY_PREFIX: &str = "tk_test_";

/// New key material (D41, D60): `tk_` + the lookup prefix + the secret, or `tk_test_` + the same
/// for a test-mode key. A live key's lookup prefix never begins `test_`, so the two forms never
/// read alike.
pub fn key_material(secrets: &dyn crate::ports::Secrets, test: bool) -> crate::ports::NewKeyMaterial {
    let mut m = secrets.new_api_key();
    while m.prefix.starts_with("test_") {
        m = secrets.new_api_key();
    }
    if test {
        let value = m.value.replacen("tk_", TEST_KEY_PREFIX, 1);
        m = crate::ports::NewKeyMaterial { hash: secrets.hash_api_key(&value), value, prefix: m.prefix };
    }
    m
}

/// The bytes of URL-safe base64 (`A-Z a-z 0-9 - _`), by value.
const URL_SAFE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'-' || c == b'_';
        b += 1;
    }
    t
};

/// Extracts the lookup prefix of a well-formed key (`tk_` or `tk_test_`, then at least 40
/// URL-safe base64 characters, D41, D60): the 16 characters that follow. `None` when malformed.
pub fn key_prefix(value: &str) -> Option<&str> {
    let rest = value.strip_prefix(TEST_KEY_PREFIX).or_else(|| value.strip_prefix("tk_"))?;
    if rest.len() < 40 || rest.len() > 200 {
        return None;
    }
    // One table lookup per character: the key is checked on every request (T319).
    if !rest.bytes().all(|b| URL_SAFE[usize::from(b)]) {
        return None;
    }
    rest.get(..16)
}

impl<S: Store> Services<S> {
    /// Authenticates the `Authorization` header value. One lookup by key prefix
    /// ([`Store::key_context`], cached by the adapter, T63), then a constant-time hash comparison;
    /// revocation and expiry are checked on every call. Errors: 401 `unauthorized` (missing), `invalid_token`
    /// (malformed or unknown), `key_revoked`, `key_expired`.
    pub async fn authenticate(&self, header: Option<&str>) -> Result<Principal, UseCaseError> {
        let Some(h) = header else {
            return Err(ClientError::new(
                Code::Unauthorized,
                "Missing Authorization header; send 'Authorization: Bearer <API_KEY>'",
            )
            .into());
        };
        let invalid = || ClientError::new(Code::InvalidToken, "The API key is malformed or unknown");
        // The scheme ends at the first space, found byte by byte (`split_once`'s searcher cost
        // three times as much, T323); an ASCII byte, so both sides are character boundaries.
        let token = match h.bytes().position(|b| b == b' ') {
            Some(i) if h[..i].eq_ignore_ascii_case("bearer") => h[i + 1..].trim(),
            _ => return Err(invalid().into()),
        };
        let prefix = key_prefix(token).ok_or_else(invalid)?;
        let mut ctx = self.store.key_context(prefix).await?.ok_or_else(invalid)?;
        if !self.secrets.verify_api_key(token, &ctx.key.hash) {
            return Err(invalid().into());
        }
        if ctx.key.revoked_at.is_some() {
            return Err(ClientError::new(Code::KeyRevoked, "The API key was revoked").into());
        }
        // The clock is read only when the answer depends on it: a key that expires, or an
        // organization whose trial ends (T323: reading it, as a date, was 1 % of a request).
        if ctx.key.expires_at.is_some() || ctx.org.trial_ends_at.is_some() {
            let now = self.clock.now();
            if ctx.key.expires_at.is_some_and(|e| e <= now) {
                return Err(ClientError::new(Code::KeyExpired, "The API key has expired").into());
            }
            // T90: a trial that has ended refuses writes (D4) from the moment it ends.
            let status = ctx.org.status_at(now);
            if status != ctx.org.subscription_status {
                std::sync::Arc::make_mut(&mut ctx).org.subscription_status = status;
            }
        }
        let plan = self.plans.get(&ctx.org.plan).cloned();
        Ok(Principal { ctx, plan })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn key_prefix_needs_tk_and_40_urlsafe_chars() {
        let good = format!("tk_{}", "a".repeat(59));
        assert_eq!(key_prefix(&good), Some("aaaaaaaaaaaaaaaa"));
        assert!(key_prefix(&format!("tk_{}", "a".repeat(39))).is_none());
        assert!(key_prefix(&format!("xx_{}", "a".repeat(59))).is_none());
        assert!(key_prefix(&format!("tk_{}+", "a".repeat(58))).is_none());
        assert!(key_prefix("tk_").is_none());
    }

    /// Every character, one at a time (T319's table): URL-safe base64 is accepted, nothing else.
    #[test]
    fn key_prefix_accepts_exactly_the_url_safe_alphabet() {
        for c in (0u8..128).map(char::from).chain(['é', '€', '\u{1F600}']) {
            let key = format!("tk_{}", c.to_string().repeat(40));
            let url_safe = c.is_ascii_alphanumeric() || c == '-' || c == '_';
            assert_eq!(key_prefix(&key).is_some(), url_safe, "{c:?}");
        }
    }
}
