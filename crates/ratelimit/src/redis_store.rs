//! The rate limiter across instances (issue 17, T119): the same budgets, check order and header
//! values as [`GovernorRateLimiter`] (see the crate documentation), kept in Redis, so that N
//! instances behind a load balancer grant a key its published budget, not N times it.
//!
//! # The algorithm
//!
//! GCRA, one Redis key per budget holding its *theoretical arrival time* (TAT) in microseconds of
//! Redis' own clock (`TIME`, so the instances' clocks do not matter). For a budget of `n`
//! requests per minute, `T = 60 s / n`; a request at `now` conforms when `max(TAT, now) - now <=
//! (n - 1) × T`, and then sets `TAT = max(TAT, now) + T`. One Lua script does the key budget and
//! then the organization budget of a request atomically (a refused key budget leaves the
//! organization's untouched, D7), so two instances can never both take the last request.
//! Keys expire once their budget is full again, so Redis holds only subjects seen in the last
//! minute.
//!
//! # When Redis cannot be reached (fail open)
//!
//! A call that errors or takes longer than [`TIMEOUT`] is decided by the local governor limiter
//! instead (each instance then grants its own budget: more than published, never less) and
//! `talent_rate_limit_store_errors_total` counts it. One slow answer is only that: the next
//! request asks Redis again (T208), so a busy moment of the machine grants at most the requests it
//! delayed. Redis counts as away once it refuses or drops the connection, or after
//! [`FAILURES_IN_A_ROW`] failed calls in a row: then a warning is logged once,
//! `talent_rate_limit_store_up` becomes 0, for [`RETRY_AFTER`] every call stays local, then Redis
//! is tried again, and the first success logs that it is back. Requests are never refused because
//! the store is away.

use crate::{decision, non_zero, unix_now, Budget, GovernorRateLimiter, Mode};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use talent_domain::ports::{BoxFuture, RateDecision, RateLimiter, RateSubject};

/// The longest a call to Redis may take before the local limiter decides.
pub const TIMEOUT: Duration = Duration::from_millis(250);
/// How long every call stays local once Redis counts as away.
pub const RETRY_AFTER: Duration = Duration::from_secs(1);
/// Failed calls in a row (errors or answers later than [`TIMEOUT`]) after which Redis counts as
/// away; a refused or dropped connection counts as away at once.
pub const FAILURES_IN_A_ROW: u32 = 3;

/// GCRA over the budgets `KEYS` in order; `ARGV[1]` is `take` or `peek`, `ARGV[i + 1]` the
/// requests per minute of `KEYS[i]`. Returns five integers per budget looked at: allowed (1/0),
/// requests per minute, whole requests remaining, microseconds until full again, microseconds
/// until a request conforms (refused only). A refusal ends the list: later budgets are not
/// touched. `peek` takes nothing.
const SCRIPT: &str = r#"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local out = {}
for i, key in ipairs(KEYS) do
  local n = tonumber(ARGV[i + 1])
  local interval = 60000000 / n
  local tat = tonumber(redis.call('GET', key) or now)
  if tat < now then tat = now end
  local owed = tat - now
  local window = (n - 1) * interval
  if owed > window then
    local wait = owed - window
    for _, v in ipairs({0, n, 0, math.ceil(owed), math.ceil(wait)}) do out[#out + 1] = v end
    return out
  end
  local full_in = owed
  if ARGV[1] == 'take' then
    tat = tat + interval
    full_in = tat - now
    redis.call('SET', key, string.format('%.0f', tat), 'PX', math.ceil(full_in / 1000) + 1000)
  end
  local remaining = math.floor((n * interval - full_in) / interval + 1e-9)
  for _, v in ipairs({1, n, remaining, math.ceil(full_in), 0}) do out[#out + 1] = v end
end
return out
"#;

/// GCRA budgets in Redis, shared by every instance that uses the same Redis (see the module
/// documentation). Implements [`RateLimiter`]; falls back to `local` while Redis is away.
pub struct RedisRateLimiter {
    mode: Mode,
    ip_per_minute: NonZeroU32,
    client: redis::Client,
    conn: tokio::sync::Mutex<Option<redis::aio::ConnectionManager>>,
    script: redis::Script,
    /// While `down_until` is `Some(t)` with `t` in the future, Redis is not tried; `failures`
    /// counts the failed calls since the last success.
    health: Mutex<Health>,
    local: Arc<GovernorRateLimiter>,
}

impl RedisRateLimiter {
    /// A limiter in `mode` on the Redis at `url` (`redis://host:port[/db]`, `rediss://` for TLS is
    /// not built in), deciding with `local` while Redis is away; `ip_per_minute` as
    /// [`GovernorRateLimiter::new`]. Connects lazily. Errors: a URL that is not a Redis URL.
    pub fn new(url: &str, mode: Mode, ip_per_minute: u32, local: Arc<GovernorRateLimiter>) -> Result<Self, String> {
        let client = redis::Client::open(url).map_err(|e| format!("TALENT_RATE_LIMIT_STORE: {e}"))?;
        metrics::gauge!("talent_rate_limit_store_up").set(1.0);
        Ok(RedisRateLimiter {
            mode,
            ip_per_minute: non_zero(ip_per_minute),
            client,
            conn: tokio::sync::Mutex::new(None),
            script: redis::Script::new(SCRIPT),
            health: Mutex::new(Health::default()),
            local,
        })
    }

    /// Runs the script on `keys` (key, requests per minute) in order; `None` when Redis cannot
    /// answer within [`TIMEOUT`] or counts as away (see the module documentation).
    async fn run(&self, take: bool, keys: &[(String, u32)]) -> Option<Vec<Budget>> {
        if self.health().down_until.is_some_and(|t| Instant::now() < t) {
            return None;
        }
        let answer = tokio::time::timeout(TIMEOUT, self.invoke(take, keys)).await;
        match answer {
            Ok(Ok(values)) => {
                let mut health = self.health();
                health.failures = 0;
                if health.down_until.take().is_some() {
                    tracing::info!("rate limit store available again: budgets are shared across instances");
                    metrics::gauge!("talent_rate_limit_store_up").set(1.0);
                }
                Some(budgets(&values))
            }
            failed => {
                metrics::counter!("talent_rate_limit_store_errors_total").increment(1);
                let (why, gone) = match failed {
                    // Any I/O failure but a timeout means the connection is gone.
                    Ok(Err(e)) => (e.to_string(), e.is_io_error() && !e.is_timeout()),
                    _ => (format!("no answer within {} ms", TIMEOUT.as_millis()), false),
                };
                let mut health = self.health();
                health.failures = health.failures.saturating_add(1);
                if !gone && health.failures < FAILURES_IN_A_ROW && health.down_until.is_none() {
                    tracing::debug!(error = %why, "rate limit store: one request decided locally");
                    return None;
                }
                if health.down_until.is_none() {
                    tracing::warn!(error = %why, "rate limit store unavailable: each instance limits on its own until it is back");
                    metrics::gauge!("talent_rate_limit_store_up").set(0.0);
                }
                health.down_until = Some(Instant::now() + RETRY_AFTER);
                drop(health);
                // A broken connection is rebuilt on the next try.
                if let Ok(mut c) = self.conn.try_lock() {
                    *c = None;
                }
                None
            }
        }
    }

    fn health(&self) -> std::sync::MutexGuard<'_, Health> {
        self.health.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn invoke(&self, take: bool, keys: &[(String, u32)]) -> redis::RedisResult<Vec<i64>> {
        let mut conn = {
            let mut slot = self.conn.lock().await;
            match slot.as_ref() {
                Some(c) => c.clone(),
                None => {
                    let config = redis::aio::ConnectionManagerConfig::new()
                        .set_connection_timeout(TIMEOUT)
                        .set_response_timeout(TIMEOUT)
                        .set_number_of_retries(0);
                    let c = redis::aio::ConnectionManager::new_with_config(self.client.clone(), config).await?;
                    *slot = Some(c.clone());
                    c
                }
            }
        };
        let mut call = self.script.prepare_invoke();
        for (k, _) in keys {
            call.key(k);
        }
        call.arg(if take { "take" } else { "peek" });
        for (_, n) in keys {
            call.arg(*n);
        }
        call.invoke_async(&mut conn).await
    }
}

/// What the limiter knows of Redis' health (see [`RedisRateLimiter::run`]).
#[derive(Debug, Default)]
struct Health {
    failures: u32,
    down_until: Option<Instant>,
}

impl RedisRateLimiter {
    /// Whether the per-address budget of failures at `key` refuses now, taking nothing
    /// ([`RateLimiter::blocked`], [`RateLimiter::admin_blocked`]); `local` decides while Redis is
    /// away.
    async fn peek_failures(&self, key: String, local: impl FnOnce() -> Option<RateDecision>) -> Option<RateDecision> {
        if self.mode == Mode::Off {
            return None;
        }
        let n = self.ip_per_minute.get();
        match self.run(false, &[(key, n)]).await.and_then(reported) {
            Some(b) if b.refused.is_some() => Some(decision(b, unix_now())),
            Some(_) => None,
            None => local(),
        }
    }
}

/// The budgets of the script's answer.
fn budgets(values: &[i64]) -> Vec<Budget> {
    let us = |v: i64| Duration::from_micros(u64::try_from(v).unwrap_or(0));
    values
        .chunks_exact(5)
        .map(|c| Budget {
            limit: u32::try_from(c[1]).unwrap_or(1),
            remaining: u32::try_from(c[2].max(0)).unwrap_or(0),
            full_in: us(c[3]),
            refused: (c[0] == 0).then(|| us(c[4])),
        })
        .collect()
}

/// The budget reported of those looked at: a refusal (always the last), else the tightest.
fn reported(list: Vec<Budget>) -> Option<Budget> {
    list.into_iter().reduce(|a, b| if b.refused.is_some() || b.tighter_than(&a) { b } else { a })
}

impl RateLimiter for RedisRateLimiter {
    fn check<'a>(&'a self, subject: RateSubject<'a>) -> BoxFuture<'a, Option<RateDecision>> {
        Box::pin(async move {
            let keys: Vec<(String, u32)> = match (self.mode, &subject) {
                (Mode::Off, _) => return None,
                (_, RateSubject::Ip(ip)) => {
                    let n = self.ip_per_minute.get();
                    vec![(format!("talent:rl:{n}:ip:{ip}"), n)]
                }
                (_, RateSubject::AdminIp(ip)) => {
                    let n = self.ip_per_minute.get();
                    vec![(format!("talent:rl:{n}:admin:{ip}"), n)]
                }
                (Mode::OrgOnly, RateSubject::Key { org, plan, .. }) => {
                    let n = non_zero(plan.org_only_rpm).get();
                    vec![(format!("talent:rl:{n}:org:{}", org.0), n)]
                }
                (Mode::PerKey, RateSubject::Key { org, key, plan }) => {
                    let (k, o) = (non_zero(plan.key_rpm).get(), non_zero(plan.org_rpm).get());
                    vec![(format!("talent:rl:{k}:key:{}", key.0), k), (format!("talent:rl:{o}:org:{}", org.0), o)]
                }
            };
            match self.run(true, &keys).await.and_then(reported) {
                Some(b) => Some(decision(b, unix_now())),
                None => self.local.check_now(subject),
            }
        })
    }

    fn blocked(&self, ip: IpAddr) -> BoxFuture<'_, Option<RateDecision>> {
        Box::pin(async move {
            let local = || self.local.blocked_now(ip);
            self.peek_failures(format!("talent:rl:{}:ip:{ip}", self.ip_per_minute), local).await
        })
    }

    fn admin_blocked(&self, ip: IpAddr) -> BoxFuture<'_, Option<RateDecision>> {
        Box::pin(async move {
            let local = || self.local.admin_blocked_now(ip);
            self.peek_failures(format!("talent:rl:{}:admin:{ip}", self.ip_per_minute), local).await
        })
    }
}

impl std::fmt::Debug for RedisRateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisRateLimiter").field("mode", &self.mode).finish_non_exhaustive()
    }
}
