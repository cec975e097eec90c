//! The webhook endpoints of organizations as this instance last listed them, each under the
//! organization's endpoints version (T272).
//!
//! Every import fans its `person.created` or `person.updated` event out to its organization's
//! endpoints, which change a few times in an organization's life. A trigger counts up the
//! organization's version (`webhook_endpoint_versions`) in the transaction of every change of an
//! endpoint that the fan-out sees (the delivery engine's bookkeeping and the sealed secrets are
//! not such changes). An import reads the version with the organization's row (a subquery, no
//! statement of its own) and, when this cache holds the endpoints at that version, uses them
//! instead of reading the endpoints (a statement, its rows decoded and their secrets opened).
//!
//! Why the list is right: the writers of one organization's endpoints take turns on its version
//! row, so the version grows in the order the changes commit, and every snapshot in which it is
//! `n` shows the same endpoints. An entry is learned only from a read that the version did not
//! move around (`DbTx::endpoints_at`), and only once its transaction committed (a write group on
//! SQLite can roll back what its jobs saw). What an entry holds beside the ids, the subscriptions
//! and `enabled` (the delivery counters, the breaker, the secrets) may be older than the rows:
//! only imports' fan-outs read entries.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use talent_domain::ids::OrgId;
use talent_domain::webhook::Endpoint;

/// The number of an organization's last endpoint change (`None`: none since the table was made).
pub type EndpointsVersion = Option<i64>;

/// How many organizations the cache holds at most; a full cache starts again empty (an entry is
/// one read to learn again).
const MAX_ORGS: usize = 10_000;

/// An organization's endpoints at a version.
type Entry = (EndpointsVersion, Arc<Vec<Endpoint>>);

/// The cache (one per store, shared by its pools and transactions).
#[derive(Default)]
pub struct EndpointCache {
    entries: Mutex<HashMap<OrgId, Entry>>,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// How often imports found their organization's endpoints in the cache ([`EndpointCache::stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EndpointCacheStats {
    /// Lookups answered from the cache.
    pub hits: u64,
    /// Lookups that read the endpoints.
    pub misses: u64,
}

impl EndpointCache {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<OrgId, Entry>> {
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The endpoints of `org` at `version`, if this cache holds them (counted as a hit or a miss).
    pub fn get(&self, org: OrgId, version: EndpointsVersion) -> Option<Arc<Vec<Endpoint>>> {
        let found = self.entries().get(&org).filter(|(v, _)| *v == version).map(|(_, e)| e.clone());
        let counter = if found.is_some() { &self.hits } else { &self.misses };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Keeps `endpoints` as `org`'s at `version`, unless a later version is known already.
    /// Call only after the transaction that read them committed.
    pub fn learn(&self, org: OrgId, version: EndpointsVersion, endpoints: Arc<Vec<Endpoint>>) {
        let mut entries = self.entries();
        if entries.get(&org).is_some_and(|(v, _)| *v > version) {
            return;
        }
        if entries.len() >= MAX_ORGS && !entries.contains_key(&org) {
            entries.clear();
        }
        entries.insert(org, (version, endpoints));
    }

    /// Hits and misses since the store was built.
    pub fn stats(&self) -> EndpointCacheStats {
        EndpointCacheStats { hits: self.hits.load(Ordering::Relaxed), misses: self.misses.load(Ordering::Relaxed) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn org(n: u128) -> OrgId {
        OrgId(uuid::Uuid::from_u128(n))
    }

    #[test]
    fn an_entry_answers_only_at_its_version_and_an_older_one_never_replaces_a_newer_t272() {
        let cache = EndpointCache::default();
        assert!(cache.get(org(1), None).is_none());
        cache.learn(org(1), Some(5), Arc::new(Vec::new()));
        assert!(cache.get(org(1), Some(5)).is_some());
        assert!(cache.get(org(1), Some(6)).is_none(), "a later change: read again");
        assert!(cache.get(org(1), None).is_none());
        assert!(cache.get(org(2), Some(5)).is_none(), "another organization");
        cache.learn(org(1), Some(4), Arc::new(Vec::new()));
        assert!(cache.get(org(1), Some(5)).is_some(), "a slower reader's older list is not kept");
        cache.learn(org(1), Some(7), Arc::new(Vec::new()));
        assert!(cache.get(org(1), Some(7)).is_some());
        assert_eq!(cache.stats(), EndpointCacheStats { hits: 3, misses: 4 });
    }

    #[test]
    fn a_full_cache_starts_again_t272() {
        let cache = EndpointCache::default();
        for n in 0..MAX_ORGS as u128 {
            cache.learn(org(n), None, Arc::new(Vec::new()));
        }
        cache.learn(org(0), Some(1), Arc::new(Vec::new()));
        assert!(cache.get(org(1), None).is_some(), "replacing an entry keeps the others");
        cache.learn(org(u128::MAX), None, Arc::new(Vec::new()));
        assert!(cache.get(org(1), None).is_none());
        assert!(cache.get(org(u128::MAX), None).is_some());
    }
}
