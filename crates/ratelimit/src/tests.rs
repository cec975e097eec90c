//! Unit tests of the governor limiter: budgets, modes, headers and memory (D7, D8, D53).

use super::*;
use governor::clock::FakeRelativeClock;
use std::net::Ipv4Addr;
use talent_domain::values::Plan;

fn plan(org_rpm: u32, key_rpm: u32, org_only_rpm: u32) -> Plan {
    Plan { id: "test".into(), api_access: true, person_limit: 100, profile_limit: 100, org_rpm, key_rpm, org_only_rpm }
}

fn org(n: u128) -> OrgId {
    format!("00000000-0000-0000-0000-{n:012x}").parse().unwrap()
}

fn key(n: u128) -> ApiKeyId {
    format!("00000000-0000-0000-0001-{n:012x}").parse().unwrap()
}

fn fake(mode: Mode, ip: u32) -> (GovernorRateLimiter<FakeRelativeClock>, FakeRelativeClock) {
    let clock = FakeRelativeClock::default();
    (GovernorRateLimiter::with_clock(mode, ip, clock.clone()), clock)
}

fn check_key<C>(l: &GovernorRateLimiter<C>, o: OrgId, k: ApiKeyId, p: &Plan) -> RateDecision
where
    C: Clock + Clone + Send + Sync + 'static,
    C::Instant: Send + Sync,
{
    l.check_now(RateSubject::Key { org: o, key: k, plan: p }).unwrap()
}

#[test]
fn is_send_sync_static() {
    fn assert<T: Send + Sync + 'static>() {}
    assert::<GovernorRateLimiter>();
    assert::<GovernorRateLimiter<FakeRelativeClock>>();
    let _: Arc<dyn RateLimiter> = Arc::new(GovernorRateLimiter::default());
}

#[test]
fn mode_parses_env_values() {
    assert_eq!("per-key".parse::<Mode>(), Ok(Mode::PerKey));
    assert_eq!("org-only".parse::<Mode>(), Ok(Mode::OrgOnly));
    assert_eq!("off".parse::<Mode>(), Ok(Mode::Off));
    assert_eq!("perkey".parse::<Mode>(), Err(ParseModeError("perkey".into())));
    assert_eq!("".parse::<Mode>(), Err(ParseModeError(String::new())));
    assert_eq!(Mode::default(), Mode::PerKey);
    for m in [Mode::PerKey, Mode::OrgOnly, Mode::Off] {
        assert_eq!(m.to_string().parse::<Mode>(), Ok(m));
    }
}

#[test]
fn key_budget_exhausts_after_key_rpm_requests() {
    let (l, _clock) = fake(Mode::PerKey, 60);
    let p = plan(600, 60, 0);
    for i in 0..60u32 {
        let d = check_key(&l, org(1), key(1), &p);
        assert!(d.allowed, "request {}", i + 1);
        assert_eq!(d.limit, 60, "request {}", i + 1);
        assert_eq!(d.remaining, 59 - i, "request {}", i + 1);
        assert_eq!(d.retry_after_secs, None);
    }
    let d = check_key(&l, org(1), key(1), &p);
    assert!(!d.allowed);
    assert_eq!(d.limit, 60);
    assert_eq!(d.remaining, 0);
    // One request per second refills; the next conforms in exactly 1 s.
    assert_eq!(d.retry_after_secs, Some(1));
}

#[test]
fn refused_request_is_allowed_again_after_retry_after() {
    let (l, clock) = fake(Mode::PerKey, 60);
    let p = plan(600, 6, 0); // key: one request per 10 s
    for _ in 0..6 {
        assert!(check_key(&l, org(1), key(1), &p).allowed);
    }
    clock.advance(Duration::from_secs(4));
    let d = check_key(&l, org(1), key(1), &p);
    assert!(!d.allowed);
    assert_eq!(d.retry_after_secs, Some(6));
    clock.advance(Duration::from_secs(6));
    let d = check_key(&l, org(1), key(1), &p);
    assert!(d.allowed);
    assert_eq!(d.remaining, 0);
}

#[test]
fn reports_the_tighter_budget_and_org_becomes_tighter_with_two_keys() {
    let (l, _clock) = fake(Mode::PerKey, 60);
    let p = plan(10, 6, 0);
    // Key A: the key budget (6) is tighter than the org budget (10).
    for i in 0..6u32 {
        let d = check_key(&l, org(1), key(1), &p);
        assert!(d.allowed);
        assert_eq!((d.limit, d.remaining), (6, 5 - i));
    }
    // Key A refused by its own budget: the org budget is not touched.
    let d = check_key(&l, org(1), key(1), &p);
    assert!(!d.allowed);
    assert_eq!((d.limit, d.remaining, d.retry_after_secs), (6, 0, Some(10)));
    // Key B: org has 4 left before this request, key B 6: org is tighter.
    for expected in [3, 2, 1, 0] {
        let d = check_key(&l, org(1), key(2), &p);
        assert!(d.allowed);
        assert_eq!((d.limit, d.remaining), (10, expected));
    }
    // Key B still has budget, the org has none: refused, org reported, 6 s per request.
    let d = check_key(&l, org(1), key(2), &p);
    assert!(!d.allowed);
    assert_eq!((d.limit, d.remaining, d.retry_after_secs), (10, 0, Some(6)));
    // Another organization is unaffected.
    let d = check_key(&l, org(2), key(3), &p);
    assert!(d.allowed);
    assert_eq!((d.limit, d.remaining), (6, 5));
}

#[test]
fn org_only_ignores_key_budgets() {
    let (l, _clock) = fake(Mode::OrgOnly, 60);
    let p = plan(1000, 1, 5);
    for i in 0..5u32 {
        // Alternate keys; key_rpm = 1 would refuse the second request of a key in Set A.
        let d = check_key(&l, org(1), key(u128::from(i % 2)), &p);
        assert!(d.allowed, "request {}", i + 1);
        assert_eq!((d.limit, d.remaining), (5, 4 - i));
    }
    let d = check_key(&l, org(1), key(7), &p);
    assert!(!d.allowed);
    assert_eq!((d.limit, d.remaining, d.retry_after_secs), (5, 0, Some(12)));
}

/// T88: an address is blocked, without a request being taken, from its first refusal until
/// its next request would conform; other addresses are not; the entry is then dropped.
#[test]
fn an_address_over_its_budget_is_blocked_until_its_next_request_conforms_t88() {
    let (l, clock) = fake(Mode::PerKey, 3);
    let (ip, other) = (IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)), IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)));
    for _ in 0..3 {
        assert!(l.check_now(RateSubject::Ip(ip)).unwrap().allowed);
        assert_eq!(l.blocked_now(ip), None, "within its budget");
    }
    let refused = l.check_now(RateSubject::Ip(ip)).unwrap();
    assert!(!refused.allowed);
    for _ in 0..100 {
        let d = l.blocked_now(ip).unwrap();
        assert_eq!((d.allowed, d.limit, d.remaining, d.retry_after_secs), (false, 3, 0, Some(20)));
    }
    assert_eq!(l.blocked_now(other), None);
    clock.advance(Duration::from_secs(19));
    assert_eq!(l.blocked_now(ip).unwrap().retry_after_secs, Some(1));
    clock.advance(Duration::from_secs(1));
    assert_eq!(l.blocked_now(ip), None, "blocking took no request: the next one conforms");
    assert!(l.check_now(RateSubject::Ip(ip)).unwrap().allowed);
    clock.advance(Duration::from_secs(120));
    l.retain_recent();
    assert!(l.is_empty(), "expired refusals are dropped");
    let off = GovernorRateLimiter::new(Mode::Off, 1);
    assert_eq!(off.check_now(RateSubject::Ip(ip)), None);
    assert_eq!(off.blocked_now(ip), None);
}

/// D53: failed admin tokens and failed API keys from one address spend two budgets; a
/// refusal of one blocks that one only.
#[test]
fn the_admin_budget_of_an_address_is_not_its_budget_of_failed_keys_d53() {
    let (l, clock) = fake(Mode::PerKey, 3);
    let ip = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1));
    for expected in [2, 1, 0] {
        let d = l.check_now(RateSubject::AdminIp(ip)).unwrap();
        assert_eq!((d.allowed, d.limit, d.remaining), (true, 3, expected));
    }
    assert!(!l.check_now(RateSubject::AdminIp(ip)).unwrap().allowed);
    assert_eq!(l.admin_blocked_now(ip).map(|d| d.retry_after_secs), Some(Some(20)));
    assert_eq!(l.blocked_now(ip), None, "failed keys are not blocked by admin guesses");
    let d = l.check_now(RateSubject::Ip(ip)).unwrap();
    assert_eq!((d.allowed, d.remaining), (true, 2), "the key budget is untouched");
    for _ in 0..3 {
        l.check_now(RateSubject::Ip(ip));
    }
    assert!(l.blocked_now(ip).is_some());
    clock.advance(Duration::from_secs(20));
    assert_eq!(l.admin_blocked_now(ip), None);
    assert!(l.check_now(RateSubject::AdminIp(ip)).unwrap().allowed, "failed keys took nothing from it");
    let off = GovernorRateLimiter::new(Mode::Off, 1);
    assert_eq!(off.check_now(RateSubject::AdminIp(ip)), None);
    assert_eq!(off.admin_blocked_now(ip), None);
}

#[test]
fn off_returns_none() {
    let l = GovernorRateLimiter::new(Mode::Off, 60);
    let p = plan(1, 1, 1);
    for _ in 0..5 {
        assert_eq!(l.check_now(RateSubject::Key { org: org(1), key: key(1), plan: &p }), None);
        assert_eq!(l.check_now(RateSubject::Ip(IpAddr::V4(Ipv4Addr::LOCALHOST))), None);
    }
    assert_eq!(l.len(), 0);
}

#[test]
fn ip_budget() {
    let (l, _clock) = fake(Mode::PerKey, 3);
    let ip1 = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1));
    let ip2 = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 2));
    for expected in [2, 1, 0] {
        let d = l.check_now(RateSubject::Ip(ip1)).unwrap();
        assert!(d.allowed);
        assert_eq!((d.limit, d.remaining), (3, expected));
    }
    let d = l.check_now(RateSubject::Ip(ip1)).unwrap();
    assert!(!d.allowed);
    assert_eq!((d.limit, d.remaining, d.retry_after_secs), (3, 0, Some(20)));
    let d = l.check_now(RateSubject::Ip(ip2)).unwrap();
    assert!(d.allowed);
    assert_eq!((d.limit, d.remaining), (3, 2));
    // An organization whose org budget has the same value does not share the IP's state.
    let p = plan(3, 3, 3);
    let d = check_key(&l, org(1), key(1), &p);
    assert_eq!((d.allowed, d.remaining), (true, 2));
}

#[test]
fn default_ip_budget_is_60_per_minute() {
    let l = GovernorRateLimiter::default();
    assert_eq!(l.mode(), Mode::PerKey);
    assert_eq!(l.ip_per_minute(), 60);
    let d = l.check_now(RateSubject::Ip(IpAddr::V4(Ipv4Addr::LOCALHOST))).unwrap();
    assert_eq!((d.allowed, d.limit, d.remaining), (true, 60, 59));
}

#[test]
fn zero_budget_is_treated_as_one() {
    let (l, _clock) = fake(Mode::PerKey, 0);
    assert_eq!(l.ip_per_minute(), 1);
    let p = plan(0, 0, 0);
    let d = check_key(&l, org(1), key(1), &p);
    assert_eq!((d.allowed, d.limit, d.remaining), (true, 1, 0));
    let d = check_key(&l, org(1), key(1), &p);
    assert_eq!((d.allowed, d.limit, d.remaining, d.retry_after_secs), (false, 1, 0, Some(60)));
}

#[test]
fn reset_is_within_a_minute() {
    let l = GovernorRateLimiter::new(Mode::PerKey, 60);
    let p = plan(600, 60, 0);
    let before = unix_now().as_secs() as i64;
    let first = check_key(&l, org(1), key(1), &p);
    let after = ceil_secs(unix_now()) as i64;
    // One request of 60/min taken: full again in 1 s (rounded up).
    assert!(first.reset_unix > before, "{first:?} before {before}");
    assert!(first.reset_unix <= after + 1, "{first:?} after {after}");
    for _ in 0..59 {
        check_key(&l, org(1), key(1), &p);
    }
    let before = unix_now().as_secs() as i64;
    let refused = check_key(&l, org(1), key(1), &p);
    let after = ceil_secs(unix_now()) as i64;
    assert!(!refused.allowed);
    assert!(refused.reset_unix >= before, "{refused:?} before {before}");
    assert!(refused.reset_unix <= after + 60, "{refused:?} after {after}");
    // The whole budget was just used: full again in almost a minute.
    assert!(refused.reset_unix >= before + 58, "{refused:?} before {before}");
}

#[test]
fn reset_with_fake_clock_is_exact() {
    let (l, clock) = fake(Mode::PerKey, 60);
    let p = plan(600, 6, 0); // key: one request per 10 s
    let now = || unix_now().as_secs() as i64;
    let b = now();
    let d = check_key(&l, org(1), key(1), &p);
    // (6 - 5) × 10 s
    assert!((b + 10..=now() + 11).contains(&d.reset_unix), "{d:?} at {b}");
    for _ in 0..5 {
        check_key(&l, org(1), key(1), &p);
    }
    clock.advance(Duration::from_secs(3));
    let b = now();
    let d = check_key(&l, org(1), key(1), &p);
    // Budget full at 60 s on the fake clock, now at 3 s: wait 7 s, full in 7 + 5 × 10 = 57 s.
    assert_eq!(d.retry_after_secs, Some(7));
    assert!((b + 57..=now() + 58).contains(&d.reset_unix), "{d:?} at {b}");
}

#[test]
fn reset_and_retry_after_formulas() {
    let (l, _clock) = fake(Mode::PerKey, 60);
    let p = plan(600, 60, 0);
    let d = check_key(&l, org(1), key(1), &p);
    // remaining 59 of 60: full in (60 - 59) × 1 s.
    let b = Budget { limit: 60, remaining: d.remaining, full_in: Duration::from_secs(1), refused: None };
    assert_eq!(decision(b, Duration::from_millis(1_000_500)).reset_unix, 1_002);
    assert_eq!(decision(b, Duration::from_secs(1_000)).reset_unix, 1_001);
    let refused = Budget {
        limit: 60,
        remaining: 0,
        full_in: Duration::from_millis(59_200),
        refused: Some(Duration::from_millis(200)),
    };
    let r = decision(refused, Duration::from_secs(1_000));
    assert_eq!((r.allowed, r.reset_unix, r.retry_after_secs), (false, 1_060, Some(1)));
    let tiny = Budget { refused: Some(Duration::ZERO), ..refused };
    assert_eq!(decision(tiny, Duration::ZERO).retry_after_secs, Some(1));
}

#[test]
fn retain_recent_drops_idle_keys() {
    let (l, clock) = fake(Mode::PerKey, 60);
    let p = plan(600, 60, 0);
    for k in 0..5 {
        assert!(check_key(&l, org(1), key(k), &p).allowed);
    }
    assert!(l.check_now(RateSubject::Ip(IpAddr::V4(Ipv4Addr::LOCALHOST))).unwrap().allowed);
    // 5 keys + 1 org + 1 IP.
    assert_eq!(l.len(), 7);
    l.retain_recent();
    assert_eq!(l.len(), 7, "recently used subjects are kept");

    clock.advance(Duration::from_secs(61));
    assert!(check_key(&l, org(2), key(100), &p).allowed);
    l.retain_recent();
    assert_eq!(l.len(), 2, "only org 2 and key 100 remain");
    assert!(!l.is_empty());

    clock.advance(Duration::from_secs(61));
    l.retain_recent();
    assert_eq!(l.len(), 0);
    assert!(l.is_empty());
    // A dropped key starts again with a full budget.
    let d = check_key(&l, org(1), key(0), &p);
    assert_eq!((d.allowed, d.remaining), (true, 59));
}
