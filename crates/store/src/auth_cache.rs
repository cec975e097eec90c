//! The authentication cache (issue 11, decision T63): the [`KeyContext`] of recently used API
//! keys, so that an authenticated request costs no database query; and, under the same rules, the
//! [`Connection`] each ATS call speaks for (T254), so that a partner protocol's call costs none
//! either. Both are a [`TtlCache`].
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
//! - **No herd.** Under load every request of a key used to miss in the same instant once a
//!   second, each reading the database (64 connections: 64 reads queued on a pool of 16; on
//!   PostgreSQL `/me` had a p99 of 200–400 ms, fourteenth session). Now an entry past half its TTL
//!   is read again once, in the background, on behalf of the first request that sees it
//!   ([`Lookup::Refresh`]), while every request is served the entry, which is still within its
//!   TTL; and concurrent misses of one key (a cold key, or every key after an invalidation) share
//!   one read ([`AuthCache::flight`]).
//! - **Bounded.** Only keys that exist are stored (an unknown prefix is never cached, so guessing
//!   cannot fill it), at most [`MAX_ENTRIES`]; when full, expired entries are dropped and, if that
//!   is not enough, the cache starts over. Memory: about 1 KiB per entry, 10 MiB at most for
//!   each of the two caches.
//! - **Secrets.** The entry holds the key's *hash* (as the database does); the caller still
//!   hashes the presented token and compares in constant time, and checks expiry on every request.
//!   A cached connection holds its ATS credentials opened, in memory only, as every call that
//!   reads it from the database does for its duration.
//! - **Connections.** A committed connection insert, update or delete empties both caches (the
//!   flag that empties the key cache, and on PostgreSQL its `NOTIFY`); the activity stamp a call
//!   writes once a minute (`touch_connection`) forgets only that connection's entries
//!   ([`TtlCache::forget_where`]), so that the next call sees its new stamp and does not write it
//!   again.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use talent_domain::api_key::KeyContext;
use talent_domain::connector::{Ats, Connection};
use talent_domain::ids::{ApiKeyId, OrgId};

/// How long an entry is served after it was read from the database, by default
/// (`TALENT_AUTH_CACHE_MS`).
pub const TTL: Duration = Duration::from_secs(1);
/// The most entries kept.
pub const MAX_ENTRIES: usize = 10_000;

/// What [`TtlCache::lookup`] found.
#[derive(Debug)]
pub enum Lookup<V> {
    /// An entry younger than half the TTL: serve it.
    Fresh(Arc<V>),
    /// An entry between half the TTL and the TTL, which this caller is the first to see: serve
    /// it, and have the key read again (and [`TtlCache::put`] the result) without waiting;
    /// other callers are served the entry meanwhile.
    Refresh(Arc<V>),
    /// No entry, or an expired one: read the key (through [`TtlCache::flight`]).
    Miss,
}

/// The outcome of one database read of a key, shared by every caller of its flight.
pub type FlightResult<V> = Result<Option<Arc<V>>, talent_domain::errors::StoreError>;

/// One read of a key in progress that concurrent misses share ([`TtlCache::flight`]).
pub type Flight<V> = Arc<tokio::sync::OnceCell<FlightResult<V>>>;

/// The API keys' contexts by key lookup prefix.
pub type AuthCache = TtlCache<String, KeyContext>;

/// The connection an ATS's call speaks for, by the call's key, its organization and the ATS.
pub type ConnectionCache = TtlCache<(ApiKeyId, OrgId, Ats), Connection>;

struct Entry<V> {
    ctx: Arc<V>,
    read_at: Instant,
    /// A caller was told to refresh this entry ([`Lookup::Refresh`]).
    refreshing: bool,
}

/// See the module documentation: values `V` by key `K`, each served for at most the TTL.
pub struct TtlCache<K, V> {
    entries: Mutex<HashMap<K, Entry<V>>>,
    /// Reads in progress, by key; emptied by [`TtlCache::invalidate`].
    flights: Mutex<HashMap<K, Flight<V>>>,
    generation: AtomicU64,
    ttl: Duration,
}

impl<K: Hash + Eq + Clone, V> Default for TtlCache<K, V> {
    fn default() -> Self {
        TtlCache::new(TTL)
    }
}

impl<K: Hash + Eq + Clone, V> TtlCache<K, V> {
    /// A cache whose entries live `ttl` ([`Duration::ZERO`]: nothing is cached).
    pub fn new(ttl: Duration) -> Self {
        TtlCache { entries: Mutex::default(), flights: Mutex::default(), generation: AtomicU64::new(0), ttl }
    }

    /// The cached context of `prefix`, if it was read less than the TTL ago (whatever its age).
    /// The store uses [`AuthCache::lookup`]; this is the tests' view.
    #[cfg(test)]
    fn get<Q: ?Sized + Hash + Eq>(&self, prefix: &Q) -> Option<Arc<V>>
    where
        K: Borrow<Q>,
    {
        let map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        map.get(prefix).filter(|e| e.read_at.elapsed() < self.ttl).map(|e| e.ctx.clone())
    }

    /// The cached context of `prefix` and whether this caller must refresh it (see [`Lookup`]).
    pub fn lookup<Q: ?Sized + Hash + Eq>(&self, prefix: &Q) -> Lookup<V>
    where
        K: Borrow<Q>,
    {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let Some(e) = map.get_mut(prefix) else { return Lookup::Miss };
        let age = e.read_at.elapsed();
        if age >= self.ttl {
            Lookup::Miss
        } else if age < self.ttl / 2 || e.refreshing {
            Lookup::Fresh(e.ctx.clone())
        } else {
            e.refreshing = true;
            Lookup::Refresh(e.ctx.clone())
        }
    }

    /// The read of `prefix` that concurrent misses share: the first caller gets a new flight
    /// (and runs the read with `get_or_init`), later ones the same flight, until
    /// [`TtlCache::land`] or an invalidation removes it.
    pub fn flight<Q: ?Sized + Hash + Eq + ToOwned<Owned = K>>(&self, prefix: &Q) -> Flight<V>
    where
        K: Borrow<Q>,
    {
        let mut map = self.flights.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(f) = map.get(prefix) {
            return f.clone();
        }
        let f = Flight::<V>::default();
        map.insert(prefix.to_owned(), f.clone());
        f
    }

    /// Removes `flight` once its read is done (a later miss starts a new one), unless an
    /// invalidation or a newer flight replaced it already.
    pub fn land<Q: ?Sized + Hash + Eq>(&self, prefix: &Q, flight: &Flight<V>)
    where
        K: Borrow<Q>,
    {
        let mut map = self.flights.lock().unwrap_or_else(|p| p.into_inner());
        if map.get(prefix).is_some_and(|f| Arc::ptr_eq(f, flight)) {
            map.remove(prefix);
        }
    }

    /// The generation to pass to [`TtlCache::put`]: read it before the database read.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Stores what a database read started at generation `gen` returned, unless the cache was
    /// invalidated since (the read may have seen the old state).
    pub fn put<Q: ?Sized + Hash + Eq + ToOwned<Owned = K>>(&self, prefix: &Q, ctx: &Arc<V>, gen: u64, read_at: Instant)
    where
        K: Borrow<Q>,
    {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if self.ttl.is_zero() || self.generation.load(Ordering::Acquire) != gen {
            return;
        }
        if map.len() >= MAX_ENTRIES && !map.contains_key(prefix) {
            let ttl = self.ttl;
            map.retain(|_, e| e.read_at.elapsed() < ttl);
            if map.len() >= MAX_ENTRIES {
                map.clear();
            }
        }
        map.insert(prefix.to_owned(), Entry { ctx: ctx.clone(), read_at, refreshing: false });
    }

    /// Forgets the entries whose value `gone` picks (one connection's after its activity stamp
    /// was written), and the reads in progress, which may have read the value before the change;
    /// other entries stay.
    pub fn forget_where(&self, gone: impl Fn(&V) -> bool) {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        map.retain(|_, e| !gone(&e.ctx));
        self.generation.fetch_add(1, Ordering::AcqRel);
        drop(map);
        self.flights.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// Forgets every entry and every read in progress (a commit changed keys or organizations,
    /// here or on another instance): a request that arrives after this reads the database.
    pub fn invalidate(&self) {
        let mut map = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, Ordering::AcqRel);
        map.clear();
        drop(map);
        self.flights.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

/// The two caches of a store, emptied together when authentication's data changes.
pub struct Caches {
    /// API key contexts by lookup prefix (T63).
    pub keys: AuthCache,
    /// The connection of each ATS call's key and ATS (T254).
    pub connections: ConnectionCache,
}

impl Caches {
    /// Both caches with entries living `ttl` ([`Duration::ZERO`]: nothing is cached).
    pub fn new(ttl: Duration) -> Self {
        Caches { keys: TtlCache::new(ttl), connections: TtlCache::new(ttl) }
    }

    /// Empties both ([`TtlCache::invalidate`]): keys, organizations or connections changed.
    pub fn invalidate(&self) {
        self.keys.invalidate();
        self.connections.invalidate();
    }

    /// What a committed transaction asks of the caches: everything forgotten when it changed
    /// authentication's data, else the entries of the connections whose activity it stamped.
    pub fn committed(&self, auth_changed: bool, touched: &[talent_domain::ids::ConnectionId]) {
        if auth_changed {
            self.invalidate();
        } else if !touched.is_empty() {
            self.connections.forget_where(|c| touched.contains(&c.id));
        }
    }
}

impl Default for Caches {
    fn default() -> Self {
        Caches::new(TTL)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn ctx() -> Arc<KeyContext> {
        Arc::new(talent_domain::fakes::key_context("business"))
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
    fn past_half_its_ttl_an_entry_is_refreshed_by_one_caller_and_served_to_the_others() {
        let c = AuthCache::new(Duration::from_millis(200));
        c.put("k", &ctx(), c.generation(), Instant::now());
        assert!(matches!(c.lookup("k"), Lookup::Fresh(_)));
        std::thread::sleep(Duration::from_millis(110));
        assert!(matches!(c.lookup("k"), Lookup::Refresh(_)), "the first caller past half the TTL refreshes");
        assert!(matches!(c.lookup("k"), Lookup::Fresh(_)), "the others are served meanwhile");
        c.put("k", &ctx(), c.generation(), Instant::now());
        assert!(matches!(c.lookup("k"), Lookup::Fresh(_)));
        std::thread::sleep(Duration::from_millis(210));
        assert!(matches!(c.lookup("k"), Lookup::Miss), "never served past the TTL");
    }

    #[test]
    fn concurrent_misses_share_one_flight_until_it_lands_or_an_invalidation() {
        let c = AuthCache::default();
        let (a, b) = (c.flight("k"), c.flight("k"));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(!Arc::ptr_eq(&a, &c.flight("other")));
        c.land("k", &a);
        let next = c.flight("k");
        assert!(!Arc::ptr_eq(&a, &next), "a landed flight is not joined");
        c.invalidate();
        assert!(!Arc::ptr_eq(&next, &c.flight("k")), "a read begun before an invalidation is not joined");
        c.land("k", &next); // a replaced flight's landing leaves the newer one
        let newest = c.flight("k");
        assert!(Arc::ptr_eq(&newest, &c.flight("k")));
    }

    fn connection(id: u128, name: &str) -> Arc<Connection> {
        use talent_domain::connector::ConnectionSettings;
        use talent_domain::ids::{ConnectionId, WebhookId};
        let (now, nil) = (time::OffsetDateTime::UNIX_EPOCH, uuid::Uuid::nil());
        Arc::new(Connection {
            id: ConnectionId(uuid::Uuid::from_u128(id)),
            org_id: OrgId(nil),
            ats: Ats::Workable,
            name: name.into(),
            enabled: true,
            settings: ConnectionSettings::default(),
            api_key_id: ApiKeyId(nil),
            key: "tk_x".into(),
            endpoint_id: WebhookId(nil),
            created_at: now,
            updated_at: now,
            last_activity_at: None,
            locale: None,
        })
    }

    /// T254: a stamped connection is forgotten alone; a change of authentication's data empties
    /// both caches; a read begun before either is not stored.
    #[test]
    fn a_touch_forgets_its_connection_alone_and_a_change_empties_both_caches() {
        let c = Caches::default();
        let (nil, ats) = (uuid::Uuid::nil(), Ats::Workable);
        let (k1, k2) = ((ApiKeyId(nil), OrgId(nil), ats), (ApiKeyId(uuid::Uuid::from_u128(9)), OrgId(nil), ats));
        let (one, two) = (connection(1, "one"), connection(2, "two"));
        c.connections.put(&k1, &one, c.connections.generation(), Instant::now());
        c.connections.put(&k2, &two, c.connections.generation(), Instant::now());
        c.keys.put("k", &ctx(), c.keys.generation(), Instant::now());
        let gen = c.connections.generation();
        c.committed(false, &[]);
        assert!(c.connections.get(&k1).is_some() && c.keys.get("k").is_some(), "nothing asked, nothing forgotten");

        c.committed(false, &[one.id]);
        assert!(c.connections.get(&k1).is_none(), "the stamped connection is read again");
        assert!(c.connections.get(&k2).is_some() && c.keys.get("k").is_some(), "the others stay");
        c.connections.put(&k1, &one, gen, Instant::now());
        assert!(c.connections.get(&k1).is_none(), "a read begun before the stamp is not stored");

        c.committed(true, &[]);
        assert!(c.connections.get(&k2).is_none() && c.keys.get("k").is_none(), "both caches emptied");
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
