//! The authentication cache (issue 11, decision T63): the [`KeyContext`] of recently used API
//! keys, so that an authenticated request costs no database query.
//!
//! - **Freshness.** An entry is served for at most [`TTL`] (1 s) after it was read. A write
//!   transaction on this instance that changes what authentication reads (an organization's plan
//!   or subscription, a key's revocation: `OrgRepo::update_org`, `OrgRepo::revoke_api_key`) empties the cache
//!   when it commits, so the very next request reads again; on PostgreSQL the same transaction
//!   sends `NOTIFY talent_auth`, which empties the cache of every other instance within
//!   milliseconds. The TTL bounds the staleness when that signal is lost (a listener reconnecting)
//!   or cannot exist (another process on the same SQLite file): 1 s.
//! - **No stale refill.** A read that started before an invalidation does not store its result
//!   (a generation counter is compared before inserting).
//! - **Bounded.** Only keys that exist are stored (an unknown prefix is never cached, so guessing
//!   cannot fill it), at most [`MAX_ENTRIES`]; when full, expired entries are dropped and, if that
//!   is not enough, the cache starts over. Memory: about 1 KiB per entry, 10 MiB at most.
//! - **Secrets.** The entry holds the key's *hash* (as the database does); the caller still
//!   hashes the presented token and compares in constant time, and checks expiry on every request.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use talent_domain::model::KeyContext;

/// How long an entry is served after it was read from the database, by default
/// (`TALENT_AUTH_CACHE_MS`).
pub const TTL: Duration = Duration::from_secs(1);
/// The most entries kept.
pub const MAX_ENTRIES: usize = 10_000;

/// See the module documentation.
pub struct AuthCache {
    entries: Mutex<HashMap<String, (KeyContext, Instant)>>,
    generation: AtomicU64,
    ttl: Duration,
}

impl Default for AuthCache {
    fn default() -> Self {
        AuthCache::new(TTL)
    }
}

impl AuthCache {
    /// A cache whose entries live `ttl` ([`Duration::ZERO`]: nothing is cached).
    pub fn new(ttl: Duration) -> Self {
        AuthCache { entries: Mutex::default(), generation: AtomicU64::new(0), ttl }
    }

    /// The cached context of `prefix`, if it was read less than the TTL ago.
    pub fn get(&self, prefix: &str) -> Option<KeyContext> {
        let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        map.get(prefix).filter(|(_, at)| at.elapsed() < self.ttl).map(|(ctx, _)| ctx.clone())
    }

    /// The generation to pass to [`AuthCache::put`]: read it before the database read.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Stores what a database read started at generation `gen` returned, unless the cache was
    /// invalidated since (the read may have seen the old state).
    pub fn put(&self, prefix: &str, ctx: &KeyContext, gen: u64, read_at: Instant) {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if self.ttl.is_zero() || self.generation.load(Ordering::Acquire) != gen {
            return;
        }
        if map.len() >= MAX_ENTRIES && !map.contains_key(prefix) {
            let ttl = self.ttl;
            map.retain(|_, (_, at)| at.elapsed() < ttl);
            if map.len() >= MAX_ENTRIES {
                map.clear();
            }
        }
        map.insert(prefix.to_string(), (ctx.clone(), read_at));
    }

    /// Forgets every entry (a commit changed keys or organizations, here or on another instance).
    pub fn invalidate(&self) {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, Ordering::AcqRel);
        map.clear();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use talent_domain::ids::{ApiKeyId, OrgId, UserId};
    use talent_domain::model::{ApiKey, Organization};
    use talent_domain::values::{Email, OrgRole, Scopes, SubscriptionStatus};

    fn ctx() -> KeyContext {
        let now = time::OffsetDateTime::UNIX_EPOCH;
        let nil = uuid::Uuid::nil();
        KeyContext {
            key: ApiKey {
                id: ApiKeyId(nil),
                user_id: UserId(nil),
                org_id: OrgId(nil),
                name: None,
                prefix: "p".repeat(16),
                hash: vec![0; 32],
                scopes: Scopes::default(),
                expires_at: None,
                revoked_at: None,
                created_at: now,
            },
            role: OrgRole::Admin,
            org: Organization {
                id: OrgId(nil),
                company_name: "Acme".into(),
                email: Email::parse("hr@acme.example").unwrap(),
                plan: "business".into(),
                subscription_status: SubscriptionStatus::Active,
                trial_ends_at: None,
                current_period_end: None,
                employee_domains: vec![],
                created_at: now,
                updated_at: now,
            },
        }
    }

    #[test]
    fn an_entry_is_served_until_invalidated() {
        let c = AuthCache::default();
        assert!(c.get("k").is_none());
        c.put("k", &ctx(), c.generation(), Instant::now());
        assert!(c.get("k").is_some());
        c.invalidate();
        assert!(c.get("k").is_none());
    }

    #[test]
    fn a_read_that_began_before_an_invalidation_is_not_stored() {
        let c = AuthCache::default();
        let gen = c.generation();
        c.invalidate(); // a revocation commits while the read runs
        c.put("k", &ctx(), gen, Instant::now());
        assert!(c.get("k").is_none());
    }

    #[test]
    fn an_entry_expires_after_the_ttl() {
        let c = AuthCache::new(Duration::from_millis(30));
        c.put("k", &ctx(), c.generation(), Instant::now());
        assert!(c.get("k").is_some());
        std::thread::sleep(Duration::from_millis(40));
        assert!(c.get("k").is_none());
        let off = AuthCache::new(Duration::ZERO);
        off.put("k", &ctx(), off.generation(), Instant::now());
        assert!(off.get("k").is_none(), "a TTL of 0 caches nothing");
    }

    #[test]
    fn the_cache_never_holds_more_than_its_bound() {
        let c = AuthCache::default();
        for i in 0..MAX_ENTRIES + 5 {
            c.put(&i.to_string(), &ctx(), c.generation(), Instant::now());
        }
        let n = c.entries.lock().unwrap().len();
        assert!(n <= MAX_ENTRIES, "{n}");
        assert!(c.get(&(MAX_ENTRIES + 4).to_string()).is_some(), "the newest entry is kept");
    }
}
