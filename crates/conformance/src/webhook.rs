//! Webhook endpoints and the delivery engine's store operations (`WebhookRepo`; D29, D31, T59-T61, T96, T104).

use super::*;

pub async fn hook<S: Store + Clone>(svc: &Svc<S>, org: OrgId, n: usize) -> Endpoint {
    let url = format!("https://hooks{n}.example.com/");
    svc.create_endpoint(org, NewEndpoint { url, events: Subscription::All, description: None }).await.unwrap()
}

/// An organization with one endpoint ([`hook`] 1) and `n` persons imported
/// (`{prefix}{i}@example.com`), each queuing a delivery.
pub async fn hooked<S: Store + Clone>(svc: &Svc<S>, n: usize, prefix: &str) -> (Organization, Endpoint) {
    let org = new_org(svc, "business", &[]).await;
    let e = hook(svc, org.id, 1).await;
    for i in 0..n {
        imported(svc, org.id, import(&format!("{prefix}{i}@example.com"))).await;
    }
    (org, e)
}

pub fn caps(limit: u32, per_endpoint: u32, per_org: u32) -> ClaimCaps {
    ClaimCaps { limit, per_endpoint, per_org, ..Default::default() }
}

pub fn ok200() -> AttemptOutcome {
    AttemptOutcome { status: Some(200), duration_ms: 2, error: None, response_body: Some("ok".into()) }
}

pub async fn claim_counts<S: Store + Clone>(
    svc: &Svc<S>,
    c: ClaimCaps,
) -> std::collections::BTreeMap<WebhookId, usize> {
    let mut m = std::collections::BTreeMap::new();
    for j in svc.claim_due(c).await.unwrap() {
        *m.entry(j.delivery.endpoint_id).or_insert(0) += 1;
    }
    m
}

/// The deliveries of an endpoint, newest first.
pub async fn deliveries_of<S: Store + Clone>(svc: &Svc<S>, org: OrgId, hook: WebhookId) -> Vec<Delivery> {
    svc.list_deliveries(org, hook, None, None, None, 100).await.unwrap().items
}

pub async fn delivery_claims_keep_the_per_endpoint_and_per_org_caps<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let (a1, a2, b1) = (hook(&svc, a.id, 1).await, hook(&svc, a.id, 2).await, hook(&svc, b.id, 3).await);
    for i in 0..6 {
        imported(&svc, a.id, import(&format!("a{i}@example.com"))).await;
    }
    imported(&svc, b.id, import("b@example.com")).await;
    // 12 due for organization a (6 per endpoint), 1 for b (created last).
    let mut c = caps(100, 4, 5);
    c.busy_endpoints = vec![(a1.id, 1)];
    let got = claim_counts(&svc, c).await;
    let a_total = got.get(&a1.id).unwrap_or(&0) + got.get(&a2.id).unwrap_or(&0);
    assert_eq!(a_total, 5, "at most 5 per organization: {got:?}");
    assert!(*got.get(&a1.id).unwrap_or(&0) <= 3, "a1 had one in flight: at most 3 more: {got:?}");
    assert_eq!(got.get(&b1.id), Some(&1), "the other organization is not starved: {got:?}");
    // An organization at its cap gets nothing; the limit counts across all; a cap is spent by the
    // rows claimed, not by an endpoint's allowance (a1 has 3 left, a2 4: one claim takes all 7).
    let mut c = caps(100, 4, 5);
    c.busy_orgs = vec![(a.id, 5)];
    assert!(claim_counts(&svc, c).await.is_empty());
    let got = claim_counts(&svc, caps(3, 10, 10)).await;
    assert_eq!(got.values().sum::<usize>(), 3, "the limit: {got:?}");
    let got = claim_counts(&svc, caps(100, 10, 10)).await;
    assert_eq!(got.values().sum::<usize>(), 12 - 5 - 3, "the rest: {got:?}");
}

pub async fn concurrent_claims_never_take_one_delivery_twice<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    for n in 0..3 {
        hook(&svc, org.id, n).await;
    }
    for i in 0..40 {
        imported(&svc, org.id, import(&format!("p{i}@example.com"))).await;
    }
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let svc = svc.clone();
            tokio::spawn(async move {
                let mut ids = vec![];
                loop {
                    let jobs = svc.claim_due(caps(7, 100, 100)).await.unwrap();
                    if jobs.is_empty() {
                        return ids;
                    }
                    ids.extend(jobs.into_iter().map(|j| j.delivery.id));
                }
            })
        })
        .collect();
    let mut all = vec![];
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let distinct: BTreeSet<_> = all.iter().map(|d| d.0).collect();
    assert_eq!(all.len(), 120, "every delivery claimed");
    assert_eq!(distinct.len(), 120, "none twice");
}

pub async fn open_breakers_and_disabled_endpoints_are_not_claimed<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let (open, off, fine) = (hook(&svc, org.id, 1).await, hook(&svc, org.id, 2).await, hook(&svc, org.id, 3).await);
    let now = clock.now();
    let (mut o, mut f) = (open.clone(), off.clone());
    o.breaker = Breaker { failed_attempts: 5, open_until: Some(now + Duration::seconds(15)) };
    f.enabled = false;
    write(&svc, move |tx| {
        Box::pin(async move {
            tx.update_endpoint(&o).await?;
            tx.update_endpoint(&f).await
        })
    })
    .await
    .unwrap();
    imported(&svc, org.id, import("p@example.com")).await;
    let got = claim_counts(&svc, ClaimCaps::total(10)).await;
    assert_eq!(got.keys().copied().collect::<Vec<_>>(), vec![fine.id]);
    let stored = svc.get_endpoint(org.id, open.id).await.unwrap();
    assert_eq!(stored.breaker.failed_attempts, 5, "the breaker round-trips");
    clock.advance(Duration::seconds(15));
    let got = claim_counts(&svc, ClaimCaps::total(10)).await;
    assert_eq!(got.keys().copied().collect::<Vec<_>>(), vec![open.id], "claimable once open_until has passed");
}

pub async fn outcomes_of_a_batch_are_recorded_in_one_transaction<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let (org, e) = hooked(&svc, 3, "p").await;
    let fail =
        AttemptOutcome { status: None, duration_ms: 10_000, error: Some("timed out".into()), response_body: None };
    for round in 0..2 {
        let jobs = svc.claim_due(ClaimCaps::total(10)).await.unwrap();
        assert_eq!(jobs.len(), 3, "round {round}");
        let at = clock.now();
        let done = jobs
            .iter()
            .map(|j| FinishedAttempt {
                delivery: j.delivery.id,
                endpoint: j.delivery.endpoint_id,
                at,
                outcome: if round == 0 { fail.clone() } else { ok200() },
            })
            .collect();
        svc.record_attempts(done).await.unwrap();
        // T324: an outcome writes the delivery's state and leaves the rest of it as it was.
        for j in &jobs {
            let (d, _) = svc.get_delivery(org.id, e.id, j.delivery.id).await.unwrap();
            let (status, next, error) = if round == 0 {
                (DeliveryStatus::Pending, Some(at + Duration::minutes(1)), Some("timed out"))
            } else {
                (DeliveryStatus::Succeeded, None, None)
            };
            assert_eq!(
                (d.status, d.attempts, d.next_attempt_at, d.last_error.as_deref()),
                (status, round + 1, next, error)
            );
            assert_eq!(
                (d.last_attempt_at, d.last_response_status),
                (Some(at), if round == 0 { None } else { Some(200) })
            );
            assert_eq!(
                (&d.payload, d.event_id, d.created_at),
                (&j.delivery.payload, j.delivery.event_id, j.delivery.created_at)
            );
            assert_eq!(
                (d.event_type, &d.request_id, d.org_id),
                (j.delivery.event_type, &j.delivery.request_id, org.id)
            );
        }
        clock.advance(Duration::minutes(1) + Duration::seconds(1));
    }
    let page = svc.list_deliveries(org.id, e.id, None, None, None, 10).await.unwrap();
    assert_eq!(page.items.len(), 3);
    for d in page.items {
        assert_eq!((d.status, d.attempts), (DeliveryStatus::Succeeded, 2));
        let (_, attempts) = svc.get_delivery(org.id, e.id, d.id).await.unwrap();
        assert_eq!(attempts.len(), 2, "two attempts, numbered in order");
        assert_eq!(attempts[0].1.error.as_deref(), Some("timed out"));
        assert_eq!(attempts[1].1.status, Some(200));
    }
    let ep = svc.get_endpoint(org.id, e.id).await.unwrap();
    assert_eq!(ep.breaker, Breaker::default(), "closed by the successes");
    // A redelivered delivery keeps numbering after its earlier attempts.
    let d = svc.list_deliveries(org.id, e.id, None, None, None, 1).await.unwrap().items.remove(0);
    svc.redeliver(org.id, e.id, d.id).await.unwrap();
    assert_eq!(svc.run_deliveries(10).await.unwrap(), 1);
    assert_eq!(svc.get_delivery(org.id, e.id, d.id).await.unwrap().1.len(), 3);
}

/// T104: the outcomes of one endpoint's deliveries can be recorded by several recorders at once
/// (the engines of two instances, the sandbox clock's delivery pass); none loses another's count.
/// Eight recorders of one failed attempt each leave the breaker at eight failures (T59), and
/// none of them deadlocks.
pub async fn concurrent_recorders_of_one_endpoint_lose_no_count<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let (org, e) = hooked(&svc, 8, "r").await;
    let fail =
        AttemptOutcome { status: Some(500), duration_ms: 20, error: Some("HTTP 500".into()), response_body: None };
    // One recorder per claimed job, all released at once by `barrier` (sized one larger when the
    // caller races something else against them).
    let recorders =
        |jobs: &[DeliveryJob], barrier: &Arc<Barrier>| -> Vec<tokio::task::JoinHandle<Result<(), UseCaseError>>> {
            let at = clock.now();
            jobs.iter()
                .map(|j| {
                    let (svc, barrier) = (svc.clone(), barrier.clone());
                    let done = vec![FinishedAttempt {
                        delivery: j.delivery.id,
                        endpoint: j.delivery.endpoint_id,
                        at,
                        outcome: fail.clone(),
                    }];
                    tokio::spawn(async move {
                        barrier.wait().await;
                        svc.record_attempts(done).await
                    })
                })
                .collect()
        };

    let jobs = svc.claim_due(ClaimCaps::total(10)).await.unwrap();
    assert_eq!(jobs.len(), 8);
    for t in recorders(&jobs, &Arc::new(Barrier::new(jobs.len()))) {
        t.await.unwrap().unwrap();
    }
    let ep = svc.get_endpoint(org.id, e.id).await.unwrap();
    assert_eq!(ep.breaker.failed_attempts, 8, "every recorder's failure counts");
    let page = svc.list_deliveries(org.id, e.id, None, None, None, 10).await.unwrap();
    assert!(page.items.iter().all(|d| d.attempts == 1 && d.status == DeliveryStatus::Pending));

    // Recorders racing the deletion of their endpoint (which removes its deliveries) take the
    // locks in the same order, endpoint first: every one ends without an error (no deadlock),
    // and an outcome of a delivery deleted meanwhile is skipped.
    clock.advance(Duration::minutes(2));
    let jobs = svc.claim_due(ClaimCaps::total(10)).await.unwrap();
    assert_eq!(jobs.len(), 8, "due again after the first retry delay");
    let barrier = Arc::new(Barrier::new(jobs.len() + 1));
    let mut tasks = recorders(&jobs, &barrier);
    let (svc2, o, id) = (svc.clone(), org.id, e.id);
    tasks.push(tokio::spawn(async move {
        barrier.wait().await;
        svc2.delete_endpoint(o, id).await
    }));
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert_eq!(code(svc.get_endpoint(org.id, e.id).await), Code::NotFound);
}

/// D29, D31, T96: an event is delivered once to each endpoint of its organization subscribed to
/// its type, and to no endpoint of another organization.
pub async fn fan_out_makes_one_delivery_per_subscribed_endpoint_of_the_organization<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let all = hook(&svc, o, 1).await;
    let typed = |url: &str, t: EventType| NewEndpoint {
        url: url.into(),
        events: Subscription::Types(vec![t]),
        description: None,
    };
    let created =
        svc.create_endpoint(o, typed("https://created.example.com/", EventType::PersonCreated)).await.unwrap();
    let archived =
        svc.create_endpoint(o, typed("https://archived.example.com/", EventType::PersonArchived)).await.unwrap();
    let elsewhere = hook(&svc, other, 2).await;
    imported(&svc, o, import("fan@example.com")).await;
    for (h, n) in [(&all, 1), (&created, 1), (&archived, 0)] {
        let ds = deliveries_of(&svc, o, h.id).await;
        assert_eq!(ds.len(), n, "{}: {ds:?}", h.url);
        for d in &ds {
            assert_eq!((d.event_type, d.org_id, d.endpoint_id), (EventType::PersonCreated, o, h.id));
            assert_eq!(d.status, DeliveryStatus::Pending);
            assert_eq!(d.attempts, 0);
            let env: serde_json::Value = serde_json::from_str(&d.payload).unwrap();
            assert_eq!(env["type"], "person.created", "{}", d.payload);
            assert_eq!(env["id"], serde_json::json!(d.id.0.to_string()), "the envelope id is the delivery id");
        }
    }
    assert!(deliveries_of(&svc, other, elsewhere.id).await.is_empty(), "another organization's endpoint");
    let a = deliveries_of(&svc, o, all.id).await;
    let c = deliveries_of(&svc, o, created.id).await;
    assert_ne!(a[0].id, c[0].id, "one delivery per endpoint");
}

/// One transaction lists an organization's endpoints again after writing one of them: a fan-out
/// that follows an endpoint's creation, change or removal in the same transaction sees it (the
/// store may keep the list it read for the transaction's next fan-out, T203).
pub async fn a_transaction_lists_the_endpoints_it_wrote<S: Store + Clone>(store: S) {
    let (svc, _) = services(store.clone());
    let o = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let first = hook(&svc, o, 1).await;
    let elsewhere = hook(&svc, other, 2).await;
    let added = Endpoint { id: WebhookId(Uuid::now_v7()), url: "https://added.example.com/".into(), ..first.clone() };
    let urls = |es: &[Endpoint]| es.iter().map(|e| (e.url.clone(), e.enabled)).collect::<Vec<_>>();
    let seen = store
        .write(move |tx| {
            Box::pin(async move {
                let mut seen = vec![urls(&tx.list_endpoints_of_org(o).await?)];
                seen.push(urls(&tx.list_endpoints_of_org(other).await?));
                tx.insert_endpoint(&added).await?;
                seen.push(urls(&tx.list_endpoints_of_org(o).await?));
                tx.update_endpoint(&Endpoint { enabled: false, ..added.clone() }).await?;
                seen.push(urls(&tx.list_endpoints_of_org(o).await?));
                tx.delete_endpoint(o, first.id).await?;
                seen.push(urls(&tx.list_endpoints_of_org(o).await?));
                seen.push(urls(&tx.list_endpoints_of_org(o).await?));
                Ok::<_, StoreError>(seen)
            })
        })
        .await
        .unwrap();
    let (one, added) = (("https://hooks1.example.com/".to_string(), true), "https://added.example.com/".to_string());
    assert_eq!(seen[0], vec![one.clone()]);
    assert_eq!(seen[1], vec![(elsewhere.url, true)], "another organization's list");
    assert_eq!(seen[2], vec![one.clone(), (added.clone(), true)], "after an insert");
    assert_eq!(seen[3], vec![one, (added.clone(), false)], "after an update");
    assert_eq!(seen[4], vec![(added.clone(), false)], "after a delete");
    assert_eq!(seen[5], seen[4], "listed again");
}

pub async fn retention_purges_only_history_older_than_the_window<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let (org, e) = hooked(&svc, 5, "old").await;
    assert_eq!(svc.run_deliveries(10).await.unwrap(), 5);
    clock.advance(Duration::days(10));
    imported(&svc, org.id, import("new@example.com")).await;
    assert_eq!(svc.run_deliveries(10).await.unwrap(), 1);
    clock.advance(Duration::days(20) + Duration::seconds(1));
    let before = events(&svc, org.id).await.len();
    // 30 days and 1 s after the first five, 20 days after the last: batches of 2.
    assert_eq!(svc.purge_webhook_history(30, 2).await.unwrap(), (5, 5));
    let left = svc.list_deliveries(org.id, e.id, None, None, None, 100).await.unwrap().items;
    assert_eq!(left.len(), 1);
    assert_eq!(svc.get_delivery(org.id, e.id, left[0].id).await.unwrap().1.len(), 1, "its attempt stays");
    assert_eq!(events(&svc, org.id).await.len(), before - 5);
    assert_eq!(svc.purge_webhook_history(30, 2).await.unwrap(), (0, 0));
}

/// T277 (D56, D57): claims that number their events race the sequencer and the imports that make
/// new events: nothing deadlocks, and every claimed delivery is sent with the number the feed
/// gives its event, each number once, without a hole.
pub async fn claims_numbering_events_beside_the_sequencer_and_imports_agree_with_the_feed<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    hook(&svc, org.id, 1).await;
    let importing = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let importers: Vec<_> = (0..2)
        .map(|k| {
            let svc = svc.clone();
            tokio::spawn(async move {
                for i in 0..20 {
                    imported(&svc, org.id, import(&format!("race{k}.{i}@example.com"))).await;
                }
            })
        })
        .collect();
    let (svc2, busy) = (svc.clone(), importing.clone());
    let sequencer = tokio::spawn(async move {
        while busy.load(std::sync::atomic::Ordering::SeqCst) {
            svc2.sequence_events().await.unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    });
    let claimers: Vec<_> = (0..3)
        .map(|_| {
            let (svc, busy) = (svc.clone(), importing.clone());
            tokio::spawn(async move {
                let mut got = vec![];
                loop {
                    // Read before the claim: an import that commits while an empty claim runs
                    // is then still claimed by the next round.
                    let done = !busy.load(std::sync::atomic::Ordering::SeqCst);
                    let jobs = svc.claim_due(caps(5, 100, 100)).await.unwrap();
                    if jobs.is_empty() && done {
                        return got;
                    }
                    got.extend(jobs.into_iter().map(|j| (j.delivery.event_id, j.sequence)));
                    tokio::task::yield_now().await;
                }
            })
        })
        .collect();
    for t in importers {
        t.await.unwrap();
    }
    importing.store(false, std::sync::atomic::Ordering::SeqCst);
    sequencer.await.unwrap();
    let mut sent = vec![];
    for t in claimers {
        sent.extend(t.await.unwrap());
    }
    assert_eq!(sent.len(), 40, "every delivery claimed once");
    let feed = svc.events_feed(org.id, &every_scope(), feed_req(0, 100)).await.unwrap();
    let numbers: Vec<u64> = feed.items.iter().map(|i| i.sequence).collect();
    assert_eq!(numbers, (1..=feed.items.len() as u64).collect::<Vec<_>>(), "each number once, no hole");
    for (event, sequence) in sent {
        let item = feed.items.iter().find(|i| Some(i.event.id) == event).expect("the delivery's event is in the feed");
        assert_eq!(sequence, Some(item.sequence), "sent with the feed's number");
    }
}
