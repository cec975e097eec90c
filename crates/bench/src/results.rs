//! Scenarios `matches` and `reports` of `make bench`: persons with completed assessments (admin
//! API, seeded responses), then a profile's matches page, and PDF reports.

use super::*;

/// The profile's competencies in scenario `matches`: Drive (weight 1) and Coaching (0.5), ids of the
/// built-in model.
pub(crate) const MATCH_FIRST_COMPETENCY: &str = "9b51d491-f098-59ce-a81a-e3eba994b8ad";
pub(crate) const MATCH_SECOND_COMPETENCY: &str = "daa80362-13b3-5739-b3d0-cc71f296243c";

/// Persons with a completed assessment in scenario `matches` (`BENCH_MATCH_PERSONS`, default 5,000).
fn match_persons() -> usize {
    std::env::var("BENCH_MATCH_PERSONS").ok().and_then(|v| v.parse().ok()).unwrap_or(5_000)
}

/// Scenario `matches` on `db` (issue 11, point 4): an organization of [`match_persons`] persons,
/// each with a completed assessment (admin API, seeded responses), and a profile of two
/// competencies; then 200 sequential `GET /api/v1/profiles/{id}/matches?limit=25` after 10
/// unmeasured ones. Goal: p99 < 50 ms (stated for one page of 25 at 5,000 persons).
pub(crate) fn run_matches(bin: &str, backend: &str, db: &TestDb) {
    let n = match_persons();
    println!("\n== {backend}: matches at {n} persons with results ==");
    let svc = Service::start(bin, &db.url);
    let (key, org) = tenant_ids(&svc.base, "matches");
    let started = Instant::now();
    with_results(&svc.base, &key, n, "bench.example");
    println!("seeded {n} persons with results in {:.0} s", started.elapsed().as_secs_f64());
    if db.url.starts_with("postgres") {
        // What autovacuum does within a minute of such a burst of writes: the planner's
        // statistics describe the seeded tables, as they do in a database in use.
        let analyzed = Command::new("psql").args(["-qc", "ANALYZE", &db.url]).status();
        if !analyzed.is_ok_and(|s| s.success()) {
            println!("psql ANALYZE failed; the plans below may be made on empty statistics");
        }
    }
    let a = agent();
    let body = json!({"name": "bench", "competencies": [
        {"competencyId": MATCH_FIRST_COMPETENCY, "weight": 1.0},
        {"competencyId": MATCH_SECOND_COMPETENCY, "weight": 0.5}]});
    let (s, profile) =
        call(&a, "POST", &format!("{}/admin/v1/organizations/{org}/profiles", svc.base), ADMIN, Some(body));
    assert_eq!(s, 201, "{profile}");
    let url = format!("{}/api/v1/profiles/{}/matches?limit=25", svc.base, profile["id"].as_str().unwrap());
    let mut times = vec![];
    for i in 0..210 {
        let t = Instant::now();
        let (s, page) = call(&a, "GET", &url, &key, None);
        let took = t.elapsed();
        assert_eq!(s, 200, "{page}");
        assert_eq!(page["data"].as_array().map(Vec::len), Some(25), "{page}");
        if i >= 10 {
            times.push(took);
        }
    }
    let (p50, p99) = lists::p50_p99(times);
    let goal_ms = 50.0;
    println!("GET /profiles/{{id}}/matches, page of 25: p50 {} p99 {} (goal < {goal_ms} ms)", ms(p50), ms(p99));
    goals::below(backend, "GET /profiles/{id}/matches, page of 25, p99", millis(p99), goal_ms, " ms");
    println!("RSS after the matches: {} MiB", svc.rss_kib() / 1024);
}

/// Imports `n` persons (`m{i}@{domain}`) with `key` and completes an assessment of each (admin
/// API, seeded responses), from [`CLIENTS`] threads; returns when all are done.
pub(crate) fn with_results(base: &str, key: &str, n: usize, domain: &str) {
    let (base, key, domain) = (base.to_string(), key.to_string(), domain.to_string());
    let threads = spawn_clients(n, move |a, i| {
        let url = format!("{base}/api/v1/persons");
        let (s, p) = call(a, "POST", &url, &key, Some(json!({ "email": format!("m{i}@{domain}") })));
        assert_eq!(s, 201, "{p}");
        let url = format!("{base}/admin/v1/persons/{}/assessments", p["id"].as_str().unwrap());
        let (s, r) = call(a, "POST", &url, ADMIN, Some(json!({"complete": true, "seed": i})));
        assert_eq!(s, 200, "{r}");
    });
    for t in threads {
        t.join().unwrap();
    }
}

/// Scenario `reports` (issue 37, T220): the PDF report of one person named 山田太郎 whose
/// invitation is in Japanese, so every run embeds and subsets the CJK font beside DejaVu Sans;
/// 200 timed renders after 10 warm-up ones, one at a time (goals: p99 < 50 ms, < 300 KB).
pub(crate) fn run_reports(bin: &str, backend: &str, db: &TestDb) {
    println!("\n== {backend}: the PDF report with the CJK font ==");
    // Without the font the service prints CJK text as empty boxes, and the report measured would
    // be neither the size nor the work of one that embeds the font's subset.
    // The service's default `TALENT_REPORT_CJK_FONT` (Debian's `fonts-noto-cjk`).
    let font = talent_report::DEBIAN_NOTO_SANS_CJK;
    crate::install_missing(&[(font, "fonts-noto-cjk")]);
    if !std::path::Path::new(font).is_file() {
        println!("skipped: no CJK font at {font} (apt-get install fonts-noto-cjk)");
        return;
    }
    let svc = Service::start(bin, &db.url);
    let (key, _) = tenant_ids(&svc.base, "reports");
    let a = agent();
    let person = json!({"email": "taro@bench.example", "firstName": "太郎", "lastName": "山田",
        "invitation": {"create": true, "sendEmail": false, "locale": "ja", "timeZone": "Asia/Tokyo"}});
    let (s, p) = call(&a, "POST", &format!("{}/api/v1/persons", svc.base), &key, Some(person));
    assert_eq!(s, 201, "{p}");
    let id = p["id"].as_str().unwrap().to_string();
    let url = format!("{}/admin/v1/persons/{id}/assessments", svc.base);
    let (s, r) = call(&a, "POST", &url, ADMIN, Some(json!({"complete": true, "seed": 7})));
    assert_eq!(s, 200, "{r}");
    let url = format!("{}/api/v1/persons/{id}/report", svc.base);
    let (mut times, mut size) = (vec![], 0);
    for i in 0..210 {
        let t = Instant::now();
        let mut resp = a.get(&url).header("Authorization", format!("Bearer {key}")).call().unwrap();
        let bytes = resp.body_mut().with_config().limit(10 << 20).read_to_vec().unwrap();
        let took = t.elapsed();
        assert_eq!(resp.status().as_u16(), 200);
        assert!(bytes.starts_with(b"%PDF"));
        size = bytes.len();
        if i >= 10 {
            times.push(took);
        }
    }
    let (p50, p99) = lists::p50_p99(times);
    let (goal_ms, goal_kb) = (50.0, 300.0);
    println!(
        "GET /persons/{{id}}/report (ja, 山田太郎, CJK subset): p50 {} p99 {} (goal < {goal_ms} ms), {} KB (goal < {goal_kb} KB)",
        ms(p50),
        ms(p99),
        size / 1024
    );
    goals::below(backend, "the PDF report in Japanese, p99", millis(p99), goal_ms, " ms");
    goals::below(backend, "the PDF report in Japanese, size", (size / 1024) as f64, goal_kb, " KB");
    println!("RSS after the reports: {} MiB", svc.rss_kib() / 1024);
}
