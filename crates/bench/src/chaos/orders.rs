//! The ATS side of `make chaos`: clients placing Workable orders whose candidates accept and
//! complete, and the check that every order was stored once and its completion pushed.

use super::*;

/// How one ATS order ended.
pub(super) struct OrderOutcome {
    /// The callback's path at the receiver (`/ats/{client}/{n}`), one per order.
    callback: String,
    /// The order id answered (Workable's `assessment_id`); `None`: no 201 within [`GIVE_UP`].
    order: Option<String>,
    /// Its candidate accepted the invitation (the admin API's acceptance answered, or said it
    /// was accepted already by an earlier try).
    accepted: bool,
    /// The candidate's assessment was completed (answered 200).
    completed: bool,
    /// From the order's first send to the completion's answer.
    took: Duration,
}

/// One ATS (Workable's protocol, connection key `ats_key`) until `stop`: places an order for a
/// new candidate with a callback of its own, and the candidate accepts the invitation and
/// completes the assessment (the admin API's sandbox, `ADMIN`); each step is sent again until
/// answered, an order as Workable repeats one (the same body, no `Idempotency-Key`).
pub(super) fn ats_client(
    t: usize,
    base: String,
    ats_key: String,
    hook: String,
    stop: Arc<AtomicBool>,
    tally: Arc<Mutex<Tally>>,
) -> Vec<OrderOutcome> {
    let admin = crate::ADMIN;
    let mut out = vec![];
    let mut i = 0;
    while !stop.load(Ordering::Relaxed) {
        i += 1;
        let first = Instant::now();
        let email = format!("a{t}.{i}@ats.example");
        let callback = format!("/ats/{t}/{i}");
        let body = json!({"test_id": "talent-assessment", "callback_url": format!("{hook}{callback}"),
                          "candidate": {"first_name": "Chaos", "email": email}});
        let order = send_until(
            &tally,
            || send(&base, &ats_key, "POST", "/partners/workable/assessments", Some(&body), None),
            |s, v, _| match (s, v["assessment_id"].as_str()) {
                (201, Some(id)) => Flow::Take(id.to_string()),
                _ => Flow::Refused,
            },
        );
        let by_email = format!("/api/v1/invitations?email={}", email.replace('@', "%40"));
        let invitation = || {
            send_until(
                &tally,
                || send(&base, &ats_key, "GET", &by_email, None, None),
                |s, v, _| match (s, v["data"][0]["id"].as_str()) {
                    (200, Some(_)) => Flow::Take(v["data"][0].clone()),
                    (200, None) => Flow::Again(Duration::from_millis(200)),
                    _ => Flow::Refused,
                },
            )
        };
        let inv = order.as_ref().and_then(|_| invitation());
        let accepted = inv.as_ref().and_then(|inv| {
            let path = format!("/admin/v1/invitations/{}/accept", inv["id"].as_str().unwrap_or_default());
            send_until(
                &tally,
                || send(&base, admin, "POST", &path, Some(&json!({})), None),
                // A conflict that says "accepted": an earlier try committed and lost its answer.
                |s, v, _| match s {
                    200 => Flow::Take(()),
                    409 if v["details"]["status"] == "accepted" => Flow::Take(()),
                    _ => Flow::Refused,
                },
            )
        });
        let person = accepted.and_then(|()| invitation()).and_then(|inv| inv["personId"].as_str().map(str::to_string));
        let completed = person.and_then(|p| {
            let path = format!("/admin/v1/persons/{p}/assessments");
            send_until(
                &tally,
                || send(&base, admin, "POST", &path, Some(&json!({"complete": true})), None),
                |s, _, _| match s {
                    200 => Flow::Take(()),
                    _ => Flow::Refused,
                },
            )
        });
        out.push(OrderOutcome {
            callback,
            order,
            accepted: accepted.is_some(),
            completed: completed.is_some(),
            took: first.elapsed(),
        });
    }
    out
}

/// The ATS's orders: every order answered is stored once with its id, and nothing else is; every
/// order went through acceptance and completion; every completed order's push reached its
/// callback (waiting up to 2 minutes for the last ones). `true` when all held.
pub(super) fn check_orders(
    pg: &PgCluster,
    org: &str,
    hook: &str,
    orders: &[OrderOutcome],
    arrivals: &crate::Arrivals,
) -> bool {
    let mut ok = true;
    let rows = psql(pg, &format!("SELECT callback_url, id, status FROM ats_orders WHERE org_id = '{org}'"));
    let mut stored: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for r in &rows {
        let mut f = r.split('|');
        if let (Some(url), Some(id), Some(status)) = (f.next(), f.next(), f.next()) {
            let path = url.strip_prefix(hook).unwrap_or(url).to_string();
            stored.entry(path).or_default().push((id.to_string(), status.to_string()));
        }
    }
    let placed: Vec<&OrderOutcome> = orders.iter().filter(|o| o.order.is_some()).collect();
    let wrong = placed
        .iter()
        .filter(
            |o| !matches!(stored.get(&o.callback).map(Vec::as_slice), Some([(id, _)]) if Some(id) == o.order.as_ref()),
        )
        .count();
    let unacked = stored.keys().filter(|p| !placed.iter().any(|o| &o.callback == *p)).count();
    let completed: Vec<&OrderOutcome> = orders.iter().filter(|o| o.completed).collect();
    let not_completed_in_store = completed
        .iter()
        .filter(|o| !matches!(stored.get(&o.callback).map(Vec::as_slice), Some([(_, st)]) if st == "completed"))
        .count();
    println!(
        "ATS (Workable's protocol, {ATS_CLIENTS} clients): {} orders placed, {} accepted by their candidates, {} completed; \
         order to completion {}",
        placed.len(),
        orders.iter().filter(|o| o.accepted).count(),
        completed.len(),
        p50_p99(completed.iter().map(|o| o.took).collect(), "orders")
    );
    check(
        &mut ok,
        placed.len() == orders.len(),
        &format!("every order was answered 201 within 30 s of retries ({} not)", orders.len() - placed.len()),
    );
    check(&mut ok, wrong == 0, &format!("every answered order is stored exactly once, with its id ({wrong} not)"));
    check(&mut ok, unacked == 0, &format!("no order stored that no one was answered ({unacked})"));
    check(
        &mut ok,
        completed.len() == orders.len(),
        &format!("every order's candidate accepted and completed ({} did not)", orders.len() - completed.len()),
    );
    check(
        &mut ok,
        not_completed_in_store == 0,
        &format!("every completed order is stored completed ({not_completed_in_store} not)"),
    );
    let missing = |seen: &HashMap<String, u32>| completed.iter().filter(|o| !seen.contains_key(&o.callback)).count();
    let (lost, duplicates, _) = drain(&arrivals.completed, Duration::from_secs(120), completed.len(), missing);
    println!("  pushes of completion: {} arrived, {duplicates} duplicates", completed.len() - lost);
    check(&mut ok, lost == 0, &format!("every completed order's push reached the ATS ({lost} did not)"));
    ok
}
