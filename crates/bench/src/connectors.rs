//! Scenario `connectors` of `make bench` (ATS connectors): an ATS (Workable's protocol) places
//! orders with 32 clients beside the same number of plain imports (five paired rounds), the
//! sandbox completes them,
//! and the stand-in ATS (this process's receiver) records each push; then an organization whose
//! ATS hangs, and another organization's completion timed to its push; last, imports and orders
//! at a steady rate under `wrk`.

use super::*;

/// Orders placed: `BENCH_ORDERS`, default 2,000.
fn orders() -> usize {
    std::env::var("BENCH_ORDERS").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
}

/// Paired rounds of imports and orders ([`run`]).
const ROUNDS: usize = 5;

/// A Workable connection of organization `org`; returns its key.
pub(crate) fn connection(base: &str, org: &str) -> String {
    let (s, c) = call(
        &agent(),
        "POST",
        &format!("{base}/admin/v1/organizations/{org}/connections"),
        ADMIN,
        Some(json!({"ats": "workable", "name": "Workable", "settings": {"apiKey": "workable-token"}})),
    );
    assert_eq!(s, 201, "{c}");
    c["key"].as_str().unwrap().to_string()
}

/// Places one order whose callback is `callback`; returns when the answer came.
fn order(a: &ureq::Agent, base: &str, key: &str, email: &str, callback: &str) -> Instant {
    let body = json!({"test_id": "talent-assessment", "callback_url": callback,
                      "candidate": {"first_name": "Bench", "email": email}});
    let (s, r) = call(a, "POST", &format!("{base}/partners/workable/assessments"), key, Some(body));
    assert_eq!(s, 201, "{r}");
    Instant::now()
}

/// The invitations of the organization by email (the sandbox accepts them by id).
fn invitations(base: &str, key: &str) -> std::collections::HashMap<String, String> {
    let a = agent();
    let mut out = std::collections::HashMap::new();
    let mut cursor: Option<String> = None;
    loop {
        let url = match &cursor {
            Some(c) => format!("{base}/api/v1/invitations?limit=100&cursor={c}"),
            None => format!("{base}/api/v1/invitations?limit=100"),
        };
        let (s, page) = call(&a, "GET", &url, key, None);
        assert_eq!(s, 200, "{page}");
        for i in page["data"].as_array().unwrap() {
            out.insert(i["email"].as_str().unwrap().to_string(), i["id"].as_str().unwrap().to_string());
        }
        match page["pagination"]["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => return out,
        }
    }
}

/// The sandbox's person accepts invitation `inv` and completes; returns when the completion's
/// answer (and so its commit, and its push's) came.
fn complete(a: &ureq::Agent, base: &str, inv: &str) -> Instant {
    let (s, acc) = call(a, "POST", &format!("{base}/admin/v1/invitations/{inv}/accept"), ADMIN, Some(json!({})));
    assert_eq!(s, 200, "{acc}");
    let person = acc["person"]["id"].as_str().unwrap();
    let (s, r) = call(
        a,
        "POST",
        &format!("{base}/admin/v1/persons/{person}/assessments"),
        ADMIN,
        Some(json!({"complete": true})),
    );
    assert!(s == 200 || s == 201, "{r}");
    Instant::now()
}

pub(crate) fn run(bin: &str, backend: &str, db: &TestDb) {
    let n = orders();
    println!("\n== {backend}: connectors ==");
    let svc = Service::start(bin, &db.url);
    let (rx_url, arrivals) = receiver();
    let (key, org) = tenant_ids(&svc.base, "ats");
    let ats_key = connection(&svc.base, &org);

    // The reference, plain imports by the same clients, and the orders, in paired rounds: the
    // ratio of each round, the median reported (this machine's disk and CPU move both rates by
    // tens of percent within seconds, as for the request ratios).
    let (mut ratios, mut imports_took, mut orders_took) = (vec![], Duration::ZERO, Duration::ZERO);
    for r in 0..ROUNDS {
        let (lo, hi) = (r * n / ROUNDS, (r + 1) * n / ROUNDS);
        let start = Instant::now();
        for t in {
            let (base, key) = (svc.base.clone(), key.clone());
            spawn_clients(hi - lo, move |a, i| {
                import(a, &base, &key, &format!("ref{}@bench.example", lo + i));
            })
        } {
            t.join().unwrap();
        }
        let imports = start.elapsed();
        let start = Instant::now();
        for t in {
            let (base, ats_key, rx) = (svc.base.clone(), ats_key.clone(), rx_url.clone());
            spawn_clients(hi - lo, move |a, i| {
                let i = lo + i;
                order(a, &base, &ats_key, &format!("c{i}@bench.example"), &format!("{rx}/ats/{i}"));
            })
        } {
            t.join().unwrap();
        }
        let orders = start.elapsed();
        ratios.push(imports.as_secs_f64() / orders.as_secs_f64());
        (imports_took, orders_took) = (imports_took + imports, orders_took + orders);
    }
    let shown: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
    ratios.sort_by(f64::total_cmp);
    let goal = 0.5;
    println!(
        "orders: {n} by {CLIENTS} clients in {ROUNDS} rounds: {:.0} orders/s beside {:.0} imports/s; median of the rounds' ratios {:.2}x ({}; goal >= {goal})",
        n as f64 / orders_took.as_secs_f64(),
        n as f64 / imports_took.as_secs_f64(),
        ratios[ROUNDS / 2],
        shown.join(", "),
    );
    goals::at_least(backend, "ATS orders beside imports, median of 5 rounds", ratios[ROUNDS / 2], goal, "");

    // The sandbox completes them; each completion's push is timed from its answer to its arrival.
    let invs = invitations(&svc.base, &ats_key);
    let done: Arc<Mutex<Vec<(usize, Instant)>>> = Arc::default();
    for t in {
        let (base, invs, done) = (svc.base.clone(), Arc::new(invs), done.clone());
        spawn_clients(n, move |a, i| {
            let inv = invs.get(&format!("c{i}@bench.example")).expect("the order's invitation");
            let at = complete(a, &base, inv);
            done.lock().unwrap().push((i, at));
        })
    } {
        t.join().unwrap();
    }
    let all_arrived = wait_prefix(&arrivals, "/ats/", n, Duration::from_secs(300));
    let arrived: std::collections::HashMap<String, Instant> =
        arrivals.list.lock().unwrap().iter().map(|(p, _, at)| (p.clone(), *at)).collect();
    let mut lat: Vec<Duration> = done
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(i, at)| arrived.get(&format!("/ats/{i}")).map(|a| a.saturating_duration_since(*at)))
        .collect();
    lat.sort();
    println!(
        "pushes: {} of {n} arrived; completion-to-arrival p50 {} p99 {} max {} (goal p99 < 250 ms)",
        lat.len(),
        ms(pct(&lat, 0.5)),
        ms(pct(&lat, 0.99)),
        ms(pct(&lat, 1.0)),
    );
    goals::below(backend, "ATS pushes, completion to arrival p99", millis(pct(&lat, 0.99)), 250.0, " ms");
    assert!(all_arrived, "every push arrives");

    // Fairness: an organization whose ATS hangs has 50 pushes in flight; another organization's
    // completions are timed to their pushes.
    let hang = hanging();
    let (_, slow_org) = tenant_ids(&svc.base, "slowats");
    let slow_ats = connection(&svc.base, &slow_org);
    let a = agent();
    for i in 0..50 {
        order(&a, &svc.base, &slow_ats, &format!("h{i}@slow.example"), &format!("{hang}/{i}"));
    }
    let slow_invs = invitations(&svc.base, &slow_ats);
    for i in 0..50 {
        complete(&a, &svc.base, &slow_invs[&format!("h{i}@slow.example")]);
    }
    std::thread::sleep(Duration::from_secs(1));
    let mut worst = Duration::ZERO;
    for i in 0..5 {
        order(&a, &svc.base, &ats_key, &format!("f{i}@bench.example"), &format!("{rx_url}/fair/{i}"));
        let inv = invitations(&svc.base, &ats_key)[&format!("f{i}@bench.example")].clone();
        let at = complete(&a, &svc.base, &inv);
        assert!(wait_prefix(&arrivals, &format!("/fair/{i}"), 1, Duration::from_secs(60)), "the other push arrives");
        let got = arrivals.list.lock().unwrap().iter().find(|(p, _, _)| p == &format!("/fair/{i}")).map(|(_, _, t)| *t);
        worst = worst.max(got.map(|g| g.saturating_duration_since(at)).unwrap_or_default());
    }
    let goal_ms = 1000.0;
    println!(
        "fairness: 50 pushes to a hanging ATS of another organization: completion-to-arrival worst of 5 {} (goal < {goal_ms} ms)",
        ms(worst)
    );
    goals::below(backend, "ATS pushes beside a hanging ATS, worst of 5", millis(worst), goal_ms, " ms");
    steady(&svc.base, &key, &ats_key);
}

/// Seconds of each wrk run of [`steady`].
const STEADY_SECS: u32 = 3;

/// The same ratio at a steady rate: imports and orders each under `wrk` (32 connections,
/// [`STEADY_SECS`] s) in [`ROUNDS`] paired rounds, so that neither the bench's own clients (32
/// threads building JSON beside the service on the same cores) nor the start and end of short
/// bursts weigh on either rate. These orders never complete: their callbacks are never called.
fn steady(base: &str, key: &str, ats_key: &str) {
    let (mut ratios, mut imports, mut orders) = (vec![], 0.0, 0.0);
    for r in 0..ROUNDS {
        let Some(i) = requests::wrk_imports(base, key, &format!("steady-i{r}"), CLIENTS as u32, STEADY_SECS) else {
            println!("orders at a steady rate: skipped (wrk is not installed: apt-get install wrk)");
            return;
        };
        let callback = "http://127.0.0.1:9/steady";
        let Some(o) =
            requests::wrk_orders(base, ats_key, &format!("steady-o{r}"), callback, CLIENTS as u32, STEADY_SECS)
        else {
            return;
        };
        assert_eq!(i.non_2xx + o.non_2xx, 0, "every import and order is answered 2xx");
        ratios.push(o.rps / i.rps);
        (imports, orders) = (imports + i.rps / ROUNDS as f64, orders + o.rps / ROUNDS as f64);
    }
    let shown: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
    ratios.sort_by(f64::total_cmp);
    println!(
        "orders at a steady rate: wrk {CLIENTS} connections, {STEADY_SECS} s each, {ROUNDS} rounds: {orders:.0} orders/s beside {imports:.0} imports/s; median of the rounds' ratios {:.2}x ({})",
        ratios[ROUNDS / 2],
        shown.join(", "),
    );
}

/// Waits until `n` arrivals whose path starts with `prefix` came, or `limit` passed.
fn wait_prefix(arr: &Arrivals, prefix: &str, n: usize, limit: Duration) -> bool {
    let start = Instant::now();
    let count = || arr.list.lock().unwrap().iter().filter(|(p, _, _)| p.starts_with(prefix)).count();
    while start.elapsed() < limit {
        if count() >= n {
            return true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    eprintln!("{prefix}: {} of {n} arrived within {limit:?}", count());
    false
}
