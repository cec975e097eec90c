//! Scenarios 1-3 of `make bench`: import with a live endpoint, the backlog of one disabled
//! endpoint, and fairness beside a tenant whose endpoints hang (the delivery engine).

use super::*;

pub(crate) fn run(bin: &str, backend: &str, db: &TestDb) {
    #[allow(non_snake_case)]
    let PERSONS = persons();
    println!("\n== {backend} ==");
    let svc = Service::start(bin, &db.url);
    let (rx_url, arrivals) = receiver();
    let key = tenant(&svc.base, "bench");
    endpoint(&svc.base, &key, &format!("{rx_url}/live"));
    let backlog = endpoint(&svc.base, &key, &format!("{rx_url}/backlog"));
    enable(&svc.base, &key, &backlog, false);

    // 1. import at full speed, one live endpoint.
    let start = Instant::now();
    // (email, request sent, answer received) of every import.
    let answered: Arc<Mutex<Vec<(String, Instant, Instant)>>> = Arc::default();
    let threads = {
        let (base, key, answered) = (svc.base.clone(), key.clone(), answered.clone());
        spawn_clients(PERSONS, move |a, i| {
            let email = format!("p{i}@bench.example");
            let sent = Instant::now();
            let done = import(a, &base, &key, &email);
            answered.lock().unwrap().push((email, sent, done));
        })
    };
    let peak = Arc::new(AtomicU64::new(0));
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let (peak, sampling, pid) = (peak.clone(), sampling.clone(), svc.child.id());
        std::thread::spawn(move || {
            while sampling.load(Ordering::SeqCst) {
                let st = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
                let kib: u64 = st
                    .lines()
                    .find_map(|l| l.strip_prefix("VmRSS:"))
                    .and_then(|v| v.split_whitespace().next())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0);
                peak.fetch_max(kib, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    for t in threads {
        t.join().unwrap();
    }
    let import_secs = start.elapsed().as_secs_f64();
    assert!(wait_count(&arrivals, "/live", PERSONS, Duration::from_secs(300)), "every live delivery arrives");
    let (lat, last) = {
        let l = arrivals.list.lock().unwrap();
        let mut lat: Vec<Duration> = l.iter().filter(|(p, _, _)| p == "/live").map(|(_, d, _)| *d).collect();
        lat.sort();
        (lat, l.iter().filter(|(p, _, _)| p == "/live").map(|(_, _, t)| *t).max().unwrap())
    };
    let deliver_secs = (last - start).as_secs_f64();
    // Commit to arrival: from the import's answer (the commit is before it) to the delivery's
    // arrival; 0 when the delivery arrived before the client read its answer.
    let (mut commit_lat, mut req_lat) = (vec![], vec![]);
    {
        let by_email = arrivals.by_email.lock().unwrap();
        for (email, sent, done) in answered.lock().unwrap().iter() {
            req_lat.push(*done - *sent);
            if let Some(at) = by_email.get(email) {
                commit_lat.push(at.saturating_duration_since(*done));
            }
        }
    }
    commit_lat.sort();
    req_lat.sort();
    println!(
        "import: {PERSONS} persons, {CLIENTS} clients: {:.0} imports/s (answer p50 {} p99 {}); {:.0} deliveries/s",
        PERSONS as f64 / import_secs,
        ms(pct(&req_lat, 0.5)),
        ms(pct(&req_lat, 0.99)),
        PERSONS as f64 / deliver_secs,
    );
    println!(
        "  commit-to-arrival p50 {} p99 {} max {}; createdAt-to-arrival p50 {} p99 {}; RSS peak {} MiB",
        ms(pct(&commit_lat, 0.5)),
        ms(pct(&commit_lat, 0.99)),
        ms(pct(&commit_lat, 1.0)),
        ms(pct(&lat, 0.5)),
        ms(pct(&lat, 0.99)),
        peak.load(Ordering::SeqCst) / 1024
    );
    goals::below(
        backend,
        "import with a live endpoint, createdAt to arrival p99",
        millis(pct(&lat, 0.99)),
        250.0,
        " ms",
    );

    // 2. the backlog: PERSONS due deliveries to a fast receiver.
    peak.store(svc.rss_kib(), Ordering::SeqCst);
    let start = Instant::now();
    enable(&svc.base, &key, &backlog, true);
    assert!(wait_count(&arrivals, "/backlog", PERSONS, Duration::from_secs(300)), "the backlog drains");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "backlog: {PERSONS} due deliveries in {secs:.2} s: {:.0} deliveries/s; RSS peak {} MiB",
        PERSONS as f64 / secs,
        peak.load(Ordering::SeqCst) / 1024
    );
    goals::at_least(backend, "backlog of due deliveries drained", PERSONS as f64 / secs, 1000.0, " per s");
    goals::below(
        backend,
        "RSS peak over the import and the backlog",
        (peak.load(Ordering::SeqCst) / 1024) as f64,
        256.0,
        " MiB",
    );
    sampling.store(false, Ordering::SeqCst);
    let _ = sampler.join();

    // 3. fairness: a hanging tenant and another organization's event.
    let hang = hanging();
    let slow = tenant(&svc.base, "slow");
    for i in 0..10 {
        endpoint(&svc.base, &slow, &format!("{hang}/{i}"));
    }
    let a = agent();
    for i in 0..5 {
        import(&a, &svc.base, &slow, &format!("s{i}@slow.example"));
    }
    std::thread::sleep(Duration::from_secs(1));
    let other = tenant(&svc.base, "other");
    endpoint(&svc.base, &other, &format!("{rx_url}/other"));
    let mut worst = Duration::ZERO;
    for i in 0..5 {
        let t = Instant::now();
        import(&a, &svc.base, &other, &format!("o{i}@other.example"));
        assert!(wait_count(&arrivals, "/other", i + 1, Duration::from_secs(120)), "the other tenant's event arrives");
        worst = worst.max(t.elapsed());
    }
    println!("fairness: 50 hanging deliveries of another organization: the other's event arrived within {} (worst of 5, import included)", ms(worst));
    goals::below(backend, "fairness beside 50 hanging deliveries, worst of 5", millis(worst), 1000.0, " ms");
    println!("idle RSS after the runs: {} MiB", svc.rss_kib() / 1024);
}
