//! Talent's rate limiter adapters (D7, D8): implement [`talent_domain::ports::RateLimiter`] with
//! governor's keyed GCRA limiters in one process ([`GovernorRateLimiter`], the default), or with
//! GCRA in Redis shared by every instance ([`RedisRateLimiter`], `TALENT_RATE_LIMIT_STORE`, issue
//! 17), which keeps the same budgets, check order and header values and falls back to governor
//! while Redis is away.
//!
//! # Budgets (D7)
//!
//! * [`Mode::PerKey`] (Set A, the default): every authenticated request takes one request from the
//!   organization's budget (`plan.org_rpm` requests per minute) **and** from the API key's budget
//!   (`plan.key_rpm` requests per minute). Both are enforced.
//! * [`Mode::OrgOnly`] (Set B): one budget per organization only (`plan.org_only_rpm` requests per
//!   minute); keys have no budget of their own.
//! * [`Mode::Off`]: no limiting; [`RateLimiter::check`] returns `None` (no headers).
//!
//! Requests that fail authentication are limited per client IP address ([`RateSubject::Ip`], D8)
//! with a configurable budget (default [`DEFAULT_IP_PER_MINUTE`] requests per minute), in
//! [`Mode::PerKey`] and [`Mode::OrgOnly`] alike. Failed admin-token attempts have a budget of
//! their own per address ([`RateSubject::AdminIp`], D53), of the same size: neither spends the
//! other.
//!
//! Every budget of `n` requests per minute is a GCRA cell with burst `n` (a full minute's budget is
//! available at once) refilling one request every *emission interval* `T = 60 s / n`. A budget of
//! 0 is treated as 1 (governor needs a non-zero burst).
//!
//! # Check order (D7)
//!
//! In [`Mode::PerKey`] the key budget is checked first, then the organization budget:
//!
//! * key refused: the request is refused and the organization budget is **not** touched (a runaway
//!   key cannot drain the budget of its organization's other keys with refused requests);
//! * key allowed, organization refused: the request is refused; the request taken from the key
//!   budget is not given back (accepted by D7).
//!
//! # Header values (D8)
//!
//! The reported budget is the one with the fewest whole requests remaining (a refused budget has
//! 0 remaining and is always the one reported; on a tie, the one that takes longer to be full
//! again). With `n` the reported budget's requests per minute and `T = 60 s / n`:
//!
//! * `limit` = `n`;
//! * `remaining` = whole requests left now (governor's `remaining_burst_capacity`);
//! * `reset_unix` = `now + full_in`, rounded **up** to whole Unix seconds (`now` from
//!   [`SystemTime`]), where `full_in` is the time until the budget is full again:
//!   * allowed: `full_in = (n - remaining) × T` (an upper bound within one interval, since
//!     `remaining` is rounded down);
//!   * refused: `full_in = wait + (n - 1) × T`, where `wait` is governor's `NotUntil` wait time
//!     (the next request conforms after `wait`; `n - 1` more intervals refill the rest);
//! * `retry_after_secs` (refused only) = `wait` rounded **up** to whole seconds, at least 1.
//!
//! Hence `now <= reset_unix <= now + 60 s` (rounded up).
//!
//! # Memory
//!
//! One keyed limiter exists per distinct budget value (requests per minute), created lazily; the
//! number of such values is bounded by the plan catalogue and the IP budget. Each keyed limiter
//! holds one entry per organization, key or IP address seen. The application must call
//! [`GovernorRateLimiter::retain_recent`] periodically (e.g. every minute) to drop the entries of
//! idle subjects, whose budgets are full again and therefore indistinguishable from fresh ones.

pub mod redis_store;
pub use redis_store::RedisRateLimiter;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::Quota;
use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::str::FromStr;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use talent_domain::ids::{ApiKeyId, OrgId};
use talent_domain::ports::{RateDecision, RateLimiter, RateSubject};

/// Default budget for requests that fail authentication: 60 requests per minute per client IP
/// address (D8).
pub const DEFAULT_IP_PER_MINUTE: u32 = 60;

/// Which budgets apply to authenticated requests (D7), chosen by `TALENT_RATE_LIMIT_MODE` (D40).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// `per-key` (Set A, default, D7): per organization `plan.org_rpm` requests per minute and per
    /// API key `plan.key_rpm` requests per minute, both enforced.
    #[default]
    PerKey,
    /// `org-only` (Set B, D7): per organization `plan.org_only_rpm` requests per minute only.
    OrgOnly,
    /// `off` (D7): no rate limiting, no rate-limit headers.
    Off,
}

impl Mode {
    /// The value of `TALENT_RATE_LIMIT_MODE` (D40) naming this mode: `per-key`, `org-only` or
    /// `off`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PerKey => "per-key",
            Self::OrgOnly => "org-only",
            Self::Off => "off",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A value of `TALENT_RATE_LIMIT_MODE` (D40) that is not `per-key`, `org-only` or `off` (D7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseModeError(pub String);

impl fmt::Display for ParseModeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid rate limit mode {:?}: must be one of: per-key, org-only, off", self.0)
    }
}

impl std::error::Error for ParseModeError {}

impl FromStr for Mode {
    type Err = ParseModeError;
    /// Parses `per-key`, `org-only` or `off` (exact, lower-case; D7, D40).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "per-key" => Ok(Self::PerKey),
            "org-only" => Ok(Self::OrgOnly),
            "off" => Ok(Self::Off),
            other => Err(ParseModeError(other.to_owned())),
        }
    }
}

/// Whose budget a keyed limiter entry is. Organizations, keys and IP addresses never share an
/// entry, even in a limiter with the same requests-per-minute value; an address's budget of
/// failed admin tokens is not its budget of failed API keys (D53).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Subject {
    Org(OrgId),
    Key(ApiKeyId),
    Ip(IpAddr),
    AdminIp(IpAddr),
}

/// A keyed GCRA limiter for one requests-per-minute value, reporting state snapshots.
type Keyed<C> = governor::RateLimiter<Subject, DefaultKeyedStateStore<Subject>, C, StateInformationMiddleware>;

/// The outcome of taking one request from one budget.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Requests per minute (effective: at least 1).
    limit: u32,
    /// Whole requests left now.
    remaining: u32,
    /// Time until the budget is full again.
    full_in: Duration,
    /// `Some(wait)` when refused: time until a request conforms.
    refused: Option<Duration>,
}

impl Budget {
    /// A refused budget of `n` requests per minute whose next request conforms after `wait`: full
    /// again `n - 1` emission intervals later (see the crate docs, header values).
    fn refusal(n: NonZeroU32, wait: Duration) -> Budget {
        let interval = Quota::per_minute(n).replenish_interval();
        Budget {
            limit: n.get(),
            remaining: 0,
            full_in: wait.saturating_add(interval.saturating_mul(n.get() - 1)),
            refused: Some(wait),
        }
    }

    /// Whether `self` should be reported rather than `other` (fewer remaining; a refusal has 0;
    /// tie: the one that takes longer to be full again).
    fn tighter_than(&self, other: &Budget) -> bool {
        (self.remaining, std::cmp::Reverse(self.full_in)) < (other.remaining, std::cmp::Reverse(other.full_in))
    }
}

/// The governor (GCRA) rate limiter of D7/D8: budgets per organization, per API key and per client
/// IP address, in requests per minute, each a keyed limiter with burst = one minute's budget.
///
/// Implements [`talent_domain::ports::RateLimiter`]; see the crate documentation for the modes,
/// the check order and how the header values (D8) are computed. `C` is governor's clock
/// (monotonic; [`DefaultClock`] in production, `FakeRelativeClock` in tests); Unix times in the
/// decision always come from [`SystemTime`]. The application must call
/// [`GovernorRateLimiter::retain_recent`] periodically to bound memory.
pub struct GovernorRateLimiter<C: Clock = DefaultClock> {
    mode: Mode,
    ip_per_minute: NonZeroU32,
    clock: C,
    /// One keyed limiter per requests-per-minute value, created lazily.
    limiters: RwLock<HashMap<NonZeroU32, Arc<Keyed<C>>>>,
    /// IP addresses whose budget ([`Subject::Ip`] or [`Subject::AdminIp`]) refused a request, with
    /// the instant their next request conforms ([`RateLimiter::blocked`], T88;
    /// [`RateLimiter::admin_blocked`], D53). Expired entries go in
    /// [`GovernorRateLimiter::retain_recent`].
    refused_ips: RwLock<HashMap<Subject, C::Instant>>,
}

impl GovernorRateLimiter<DefaultClock> {
    /// A limiter in `mode` (D7) on governor's default monotonic clock; requests that fail
    /// authentication get `ip_per_minute` requests per minute per client IP address (D8; 0 is
    /// treated as 1; the usual value is [`DEFAULT_IP_PER_MINUTE`]).
    pub fn new(mode: Mode, ip_per_minute: u32) -> Self {
        Self::with_clock(mode, ip_per_minute, DefaultClock::default())
    }
}

impl Default for GovernorRateLimiter<DefaultClock> {
    /// [`Mode::PerKey`] (Set A, D7) with [`DEFAULT_IP_PER_MINUTE`] requests per minute per IP (D8).
    fn default() -> Self {
        Self::new(Mode::PerKey, DEFAULT_IP_PER_MINUTE)
    }
}

impl<C: Clock + Clone> GovernorRateLimiter<C> {
    /// Like [`GovernorRateLimiter::new`] (D7, D8; `ip_per_minute` in requests per minute, 0 is
    /// treated as 1), measuring budgets with `clock` (e.g. governor's `FakeRelativeClock` in
    /// tests). The clock is cloned into every keyed limiter, so it must share its time between
    /// clones.
    pub fn with_clock(mode: Mode, ip_per_minute: u32, clock: C) -> Self {
        Self {
            mode,
            ip_per_minute: non_zero(ip_per_minute),
            clock,
            limiters: RwLock::new(HashMap::new()),
            refused_ips: RwLock::new(HashMap::new()),
        }
    }

    /// The mode (D7).
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The budget of requests that fail authentication, in requests per minute per client IP
    /// address (D8; at least 1).
    pub fn ip_per_minute(&self) -> u32 {
        self.ip_per_minute.get()
    }

    /// Drops the state of every organization, key and IP address whose budget is full again (idle
    /// for at least the time its budget takes to refill, at most one minute; D7, D8) and releases
    /// the freed memory. Such a subject's next request behaves exactly as if it had been kept.
    /// The application calls this periodically (e.g. once a minute) so memory does not grow
    /// without bound.
    pub fn retain_recent(&self) {
        for limiter in self.snapshot_limiters() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        let now = self.clock.now();
        let mut refused = self.refused_ips.write().unwrap_or_else(PoisonError::into_inner);
        refused.retain(|_, until| *until > now);
        refused.shrink_to_fit();
    }

    /// Number of subjects (organizations, keys and IP addresses, counted once per budget they are
    /// tracked in, and once more while an address is over its budget) currently held in memory
    /// (D7, D8). May be approximate under concurrent use.
    pub fn len(&self) -> usize {
        let refused = self.refused_ips.read().unwrap_or_else(PoisonError::into_inner).len();
        self.snapshot_limiters().iter().map(|l| l.len()).sum::<usize>() + refused
    }

    /// Whether no subject is held in memory (see [`GovernorRateLimiter::len`]; D7, D8).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn snapshot_limiters(&self) -> Vec<Arc<Keyed<C>>> {
        let map = self.limiters.read().unwrap_or_else(PoisonError::into_inner);
        map.values().cloned().collect()
    }

    /// The keyed limiter of `rpm` requests per minute, created on first use.
    fn limiter(&self, rpm: NonZeroU32) -> Arc<Keyed<C>> {
        {
            let map = self.limiters.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(l) = map.get(&rpm) {
                return Arc::clone(l);
            }
        }
        let mut map = self.limiters.write().unwrap_or_else(PoisonError::into_inner);
        let l = map.entry(rpm).or_insert_with(|| {
            let limiter =
                Keyed::<C>::new(Quota::per_minute(rpm), DefaultKeyedStateStore::default(), self.clock.clone());
            Arc::new(limiter)
        });
        Arc::clone(l)
    }

    /// Takes one request from `subject`'s budget of `rpm` requests per minute (0 treated as 1).
    fn take(&self, rpm: u32, subject: Subject) -> Budget {
        let n = non_zero(rpm);
        let limiter = self.limiter(n);
        let interval = Quota::per_minute(n).replenish_interval();
        match limiter.check_key(&subject) {
            Ok(snapshot) => {
                let remaining = snapshot.remaining_burst_capacity().min(n.get());
                Budget {
                    limit: n.get(),
                    remaining,
                    full_in: interval.saturating_mul(n.get() - remaining),
                    refused: None,
                }
            }
            Err(not_until) => Budget::refusal(n, not_until.wait_time_from(limiter.clock().now())),
        }
    }
}

impl<C> RateLimiter for GovernorRateLimiter<C>
where
    C: Clock + Clone + Send + Sync + 'static,
    C::Instant: Send + Sync,
{
    fn check<'a>(&'a self, subject: RateSubject<'a>) -> talent_domain::ports::BoxFuture<'a, Option<RateDecision>> {
        Box::pin(std::future::ready(self.check_now(subject)))
    }

    fn blocked(&self, ip: IpAddr) -> talent_domain::ports::BoxFuture<'_, Option<RateDecision>> {
        Box::pin(std::future::ready(self.blocked_now(ip)))
    }

    fn admin_blocked(&self, ip: IpAddr) -> talent_domain::ports::BoxFuture<'_, Option<RateDecision>> {
        Box::pin(std::future::ready(self.admin_blocked_now(ip)))
    }
}

impl<C> GovernorRateLimiter<C>
where
    C: Clock + Clone + Send + Sync + 'static,
    C::Instant: Send + Sync,
{
    /// [`RateLimiter::check`], at once: takes one request from the subject's budgets and reports
    /// the tightest one (D7, D8); `None` in [`Mode::Off`]. Key budget first, then organization
    /// budget (see the crate docs).
    pub fn check_now(&self, subject: RateSubject<'_>) -> Option<RateDecision> {
        let budget = match (self.mode, subject) {
            (Mode::Off, _) => return None,
            (_, RateSubject::Ip(ip)) => self.take_failure(Subject::Ip(ip)),
            (_, RateSubject::AdminIp(ip)) => self.take_failure(Subject::AdminIp(ip)),
            (Mode::OrgOnly, RateSubject::Key { org, plan, .. }) => self.take(plan.org_only_rpm, Subject::Org(org)),
            (Mode::PerKey, RateSubject::Key { org, key, plan }) => {
                let key_budget = self.take(plan.key_rpm, Subject::Key(key));
                if key_budget.refused.is_some() {
                    key_budget
                } else {
                    let org_budget = self.take(plan.org_rpm, Subject::Org(org));
                    if org_budget.tighter_than(&key_budget) {
                        org_budget
                    } else {
                        key_budget
                    }
                }
            }
        };
        Some(decision(budget, unix_now()))
    }

    /// [`RateLimiter::blocked`], at once: the refusal of `ip`'s budget while it lasts, without
    /// taking a request (T88): from the moment a request failing authentication from `ip` is
    /// refused (D8) until its next request would conform again. `None` in [`Mode::Off`] or when
    /// `ip` is within its budget. One read lock and, in the common case of no refused address, no
    /// lookup.
    pub fn blocked_now(&self, ip: IpAddr) -> Option<RateDecision> {
        self.blocked_subject(Subject::Ip(ip))
    }

    /// [`RateLimiter::admin_blocked`], at once: as [`GovernorRateLimiter::blocked_now`] for the
    /// address's budget of failed admin tokens (D53).
    pub fn admin_blocked_now(&self, ip: IpAddr) -> Option<RateDecision> {
        self.blocked_subject(Subject::AdminIp(ip))
    }

    /// Takes one request from a per-address budget of failures (`Ip` or `AdminIp`) and remembers
    /// a refusal until the address's next request would conform.
    fn take_failure(&self, subject: Subject) -> Budget {
        let budget = self.take(self.ip_per_minute.get(), subject);
        if let Some(wait) = budget.refused {
            let until = self.clock.now() + governor::nanos::Nanos::from(wait);
            self.refused_ips.write().unwrap_or_else(PoisonError::into_inner).insert(subject, until);
        }
        budget
    }

    fn blocked_subject(&self, subject: Subject) -> Option<RateDecision> {
        if self.mode == Mode::Off {
            return None;
        }
        let until = {
            let refused = self.refused_ips.read().unwrap_or_else(PoisonError::into_inner);
            if refused.is_empty() {
                return None;
            }
            *refused.get(&subject)?
        };
        let now = self.clock.now();
        if until <= now {
            return None;
        }
        let wait: Duration = governor::clock::Reference::duration_since(&until, now).into();
        Some(decision(Budget::refusal(self.ip_per_minute, wait), unix_now()))
    }
}

impl<C: Clock> fmt::Debug for GovernorRateLimiter<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GovernorRateLimiter")
            .field("mode", &self.mode)
            .field("ip_per_minute", &self.ip_per_minute)
            .finish_non_exhaustive()
    }
}

/// `n`, or 1 when `n` is 0.
fn non_zero(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

/// Time since the Unix epoch (0 if the system clock is before it).
fn unix_now() -> Duration {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default()
}

/// Whole seconds, rounded up.
fn ceil_secs(d: Duration) -> u64 {
    d.as_secs().saturating_add(u64::from(d.subsec_nanos() > 0))
}

/// The header values of `budget` at Unix time `now` (D8).
fn decision(budget: Budget, now: Duration) -> RateDecision {
    let reset = ceil_secs(now.saturating_add(budget.full_in));
    RateDecision {
        allowed: budget.refused.is_none(),
        limit: budget.limit,
        remaining: budget.remaining,
        reset_unix: i64::try_from(reset).unwrap_or(i64::MAX),
        retry_after_secs: budget.refused.map(|wait| ceil_secs(wait).max(1)),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests;
