//! The outbox (`OutboxRepo`): events with the request that caused them, the events feed, its sequences and replay (D48, D56, T106, T121).

use super::*;

/// T121: an event written while a request is served carries its request id, and so do its
/// deliveries, in the store and after a redelivery; a background job's carry none.
pub async fn events_and_deliveries_record_the_request_that_caused_them<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let request = Arc::new(talent_domain::fakes::FakeCorrelation::default());
    let svc = Services { correlation: request.clone(), ..svc };
    let org = new_org(&svc, "business", &[]).await;
    let e = hook(&svc, org.id, 1).await;
    *request.0.lock().unwrap() = Some("req-import-1".into());
    imported(&svc, org.id, import("caused@example.com")).await;
    *request.0.lock().unwrap() = None;
    let ds = deliveries_of(&svc, org.id, e.id).await;
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].request_id.as_deref(), Some("req-import-1"), "the delivery names the request");
    let feed = svc.events_feed(org.id, &every_scope(), feed_req(0, 10)).await.unwrap();
    let created = feed.items.iter().find(|s| s.event.event_type == EventType::PersonCreated).unwrap();
    assert_eq!(created.event.request_id.as_deref(), Some("req-import-1"), "so does the stored event");
    // A redelivery (another request) keeps the cause of the event.
    *request.0.lock().unwrap() = Some("req-redeliver".into());
    svc.redeliver(org.id, e.id, ds[0].id).await.unwrap();
    *request.0.lock().unwrap() = None;
    let (d, _) = svc.get_delivery(org.id, e.id, ds[0].id).await.unwrap();
    assert_eq!(d.request_id.as_deref(), Some("req-import-1"));
    // A background job's events name no request: the expiry sweep.
    let mut late = emailed_invitation("late@example.com");
    late.send_email = false;
    late.expires_in_days = Some(1);
    let (inv, _) = svc.create_invitation(org.id, late).await.unwrap();
    clock.advance(Duration::days(2));
    svc.sweep_invitations().await.unwrap();
    let expired = deliveries_of(&svc, org.id, e.id)
        .await
        .into_iter()
        .find(|d| d.event_type == EventType::InvitationExpired && d.payload.contains(&inv.invitation.id.0.to_string()))
        .unwrap();
    assert_eq!(expired.request_id, None);
}

/// An event of `org` created at `at`, with its index in `data`.
pub fn feed_event(svc_ids: &dyn Ids, org: OrgId, t: EventType, at: OffsetDateTime, n: u64) -> OutboxEvent {
    OutboxEvent {
        id: EventId(svc_ids.new_uuid()),
        org_id: org,
        event_type: t,
        data: talent_domain::events::EventData::of(&serde_json::json!({"n": n})),
        created_at: at,
        request_id: None,
    }
}

pub fn every_scope() -> Scopes {
    Scopes::new(Scope::ALL.to_vec())
}

/// D48, T106: eight writers commit events in an order unrelated to when they began (random delays
/// before and after the insert, inside the transaction) while a reader follows the feed with
/// `after` and a second sequencer runs beside it (another instance). The reader sees every event
/// exactly once, in ascending sequence, and the numbers are 1, 2, 3, ... without a hole.
pub async fn a_feed_reader_sees_every_event_once_in_sequence_order_while_writers_commit_out_of_order<
    S: Store + Clone,
>(
    store: S,
) {
    // D56: two organizations written to at once; each reader sees its own numbers 1, 2, 3, ...
    let (svc, clock) = services(store);
    let orgs = [new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id];
    let mut base = [0u64; 2];
    for (k, org) in orgs.iter().enumerate() {
        let start = svc.events_feed(*org, &every_scope(), feed_req(0, 100)).await.unwrap();
        base[k] = start.items.last().map(|e| e.sequence).unwrap_or(0);
        assert_eq!(start.items.iter().map(|e| e.sequence).collect::<Vec<_>>(), (1..=base[k]).collect::<Vec<_>>());
    }
    let done = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let writers: Vec<_> = (0..8u64)
        .map(|w| {
            let (svc, done, at) = (svc.clone(), done.clone(), clock.now());
            let org = orgs[(w % 2) as usize];
            tokio::spawn(async move {
                let mut x = w.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for i in 0..10u64 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let (before, after) = (x % 7, (x >> 8) % 11);
                    let e = feed_event(&*svc.ids, org, EventType::PersonCreated, at, w * 100 + i);
                    svc.store
                        .write(move |tx| {
                            Box::pin(async move {
                                tokio::time::sleep(std::time::Duration::from_millis(before)).await;
                                tx.insert_event(&e).await?;
                                tokio::time::sleep(std::time::Duration::from_millis(after)).await;
                                Ok::<_, StoreError>(())
                            })
                        })
                        .await
                        .unwrap();
                }
                done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            })
        })
        .collect();
    let (svc2, done2) = (svc.clone(), done.clone());
    let other_sequencer = tokio::spawn(async move {
        for _ in 0..2_000 {
            if done2.load(std::sync::atomic::Ordering::SeqCst) == 8 {
                break;
            }
            svc2.sequence_events().await.unwrap();
            tokio::time::sleep(std::time::Duration::from_millis(3)).await;
        }
    });
    let (mut after, mut seen) = (base, [Vec::new(), Vec::new()]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        // Finished, or failed: a writer that panicked ends too (and fails the test below).
        let finished = writers.iter().all(|w| w.is_finished());
        assert!(std::time::Instant::now() < deadline, "the writers did not finish within 60 s");
        let mut empty = true;
        for k in 0..2 {
            let page = svc.events_feed(orgs[k], &every_scope(), feed_req(after[k], 7)).await.unwrap();
            for e in &page.items {
                assert_eq!(e.event.org_id, orgs[k]);
                assert_eq!(e.sequence, after[k] + 1, "ascending with no hole in organization {k}'s numbers");
                after[k] = e.sequence;
                seen[k].push(e.event.data.value()["n"].as_u64().unwrap());
            }
            empty &= page.items.is_empty();
        }
        if finished && empty {
            break;
        }
        if empty {
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
    }
    for w in writers {
        w.await.unwrap();
    }
    other_sequencer.await.unwrap();
    for k in 0..2 {
        let unique: BTreeSet<u64> = seen[k].iter().copied().collect();
        assert_eq!(seen[k].len(), 40, "every event of organization {k} once");
        assert_eq!(unique.len(), 40, "none twice");
        assert_eq!(after[k], base[k] + 40, "numbered 1..n in the organization");
    }
}

pub fn feed_req(after: u64, limit: u32) -> talent_domain::usecases::feed::FeedRequest {
    talent_domain::usecases::feed::FeedRequest { after, types: vec![], limit }
}

/// D48: the feed holds one organization's events, of the requested types, readable with the
/// scope of their resource; a sequence is never given twice, not even after retention deleted
/// every event (the counter is kept apart from the events).
pub async fn the_feed_filters_by_type_and_organization_and_numbers_are_never_reused<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let (a, b) = (new_org(&svc, "business", &[]).await, new_org(&svc, "business", &[]).await);
    let at = clock.now();
    let types = [EventType::PersonCreated, EventType::InvitationRevoked, EventType::AssessmentCompleted];
    for (n, t) in types.iter().enumerate() {
        for org in [a.id, b.id] {
            let e = feed_event(&*svc.ids, org, *t, at, n as u64);
            write(&svc, move |tx| Box::pin(async move { tx.insert_event(&e).await })).await.unwrap();
        }
    }
    let all = svc.events_feed(a.id, &every_scope(), feed_req(0, 100)).await.unwrap();
    assert_eq!(all.items.iter().map(|e| e.event.event_type).collect::<Vec<_>>(), types.to_vec());
    assert!(all.items.iter().all(|e| e.event.org_id == a.id), "only the organization's own");
    // D56: each organization counts its own events, 1, 2, 3, with no gap for the other's.
    for org in [a.id, b.id] {
        let mine = svc.events_feed(org, &every_scope(), feed_req(0, 100)).await.unwrap();
        assert_eq!(mine.items.iter().map(|e| e.sequence).collect::<Vec<_>>(), vec![1, 2, 3], "{org:?}");
    }
    let req =
        talent_domain::usecases::feed::FeedRequest { after: 0, types: vec![EventType::InvitationRevoked], limit: 100 };
    let only = svc.events_feed(a.id, &every_scope(), req.clone()).await.unwrap();
    assert_eq!(only.items.len(), 1);
    assert_eq!(only.items[0].event.event_type, EventType::InvitationRevoked);
    // The read scope of each resource (D48).
    let persons = Scopes::new(vec![Scope::PersonsRead]);
    let mine = svc.events_feed(a.id, &persons, feed_req(0, 100)).await.unwrap();
    assert_eq!(mine.items.iter().map(|e| e.event.event_type).collect::<Vec<_>>(), vec![EventType::PersonCreated]);
    assert_eq!(code(svc.events_feed(a.id, &persons, req).await), Code::InsufficientScope);
    let none = Scopes::new(vec![Scope::OrganizationRead]);
    assert_eq!(code(svc.events_feed(a.id, &none, feed_req(0, 100)).await), Code::InsufficientScope);
    // Paging: `hasMore` until the last one.
    let first = svc.events_feed(a.id, &every_scope(), feed_req(0, 2)).await.unwrap();
    assert!(first.has_more);
    let rest = svc.events_feed(a.id, &every_scope(), feed_req(first.items[1].sequence, 2)).await.unwrap();
    assert_eq!((rest.items.len(), rest.has_more), (1, false));
    // Retention deletes every event; the next one still gets the organization's next number.
    let top = all.items.iter().chain(&rest.items).map(|e| e.sequence).max().unwrap_or(0);
    clock.advance(Duration::days(31));
    svc.purge_webhook_history(30, 100).await.unwrap();
    assert!(svc.events_feed(a.id, &every_scope(), feed_req(0, 100)).await.unwrap().items.is_empty());
    let e = feed_event(&*svc.ids, a.id, EventType::PersonJoined, clock.now(), 9);
    write(&svc, move |tx| Box::pin(async move { tx.insert_event(&e).await })).await.unwrap();
    let after = svc.events_feed(a.id, &every_scope(), feed_req(0, 100)).await.unwrap();
    assert_eq!(after.items.len(), 1);
    assert_eq!(after.items[0].sequence, top + 1, "the next of A's own numbers, never one given before");
}

/// D56, T325: one sequencer run numbers the events of several organizations at once, each
/// continuing its own count from where an earlier run left it, in the order the events were
/// created, with no number given twice and no hole.
pub async fn one_sequencer_run_continues_each_organizations_own_count<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let (a, b) = (new_org(&svc, "business", &[]).await, new_org(&svc, "business", &[]).await);
    let t0 = clock.now();
    let put = |org: OrgId, secs: i64, n: u64| {
        let e = feed_event(&*svc.ids, org, EventType::PersonCreated, t0 + Duration::seconds(secs), n);
        let svc = svc.clone();
        async move { write(&svc, move |tx| Box::pin(async move { tx.insert_event(&e).await })).await.unwrap() }
    };
    // A first run: A's count at 2, B's at 1.
    put(a.id, 0, 0).await;
    put(a.id, 1, 1).await;
    put(b.id, 2, 0).await;
    svc.sequence_events().await.unwrap();
    // Five more, the two organizations interleaved, numbered by one run.
    for (k, org) in [a.id, b.id, a.id, b.id, a.id].into_iter().enumerate() {
        put(org, 10 + k as i64, 10 + k as u64).await;
    }
    svc.sequence_events().await.unwrap();
    let feed = |org: OrgId| {
        let svc = svc.clone();
        async move {
            let f = svc.events_feed(org, &every_scope(), feed_req(0, 100)).await.unwrap();
            f.items.iter().map(|e| (e.sequence, e.event.data.value()["n"].as_u64().unwrap())).collect::<Vec<_>>()
        }
    };
    assert_eq!(feed(a.id).await, vec![(1, 0), (2, 1), (3, 10), (4, 12), (5, 14)]);
    assert_eq!(feed(b.id).await, vec![(1, 0), (2, 11), (3, 13)]);
}

/// D48: replay queues, for one endpoint, a new delivery of every kept event after `after` that
/// it subscribes to, oldest first, in pages of `REPLAY_BATCH`; each delivery carries the event's
/// envelope (its time and data) under a new delivery id.
pub async fn replay_queues_the_subscribed_events_after_a_sequence_in_pages<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    for i in 0..5 {
        imported(&svc, org.id, import(&format!("early{i}@example.com"))).await;
    }
    clock.advance(Duration::minutes(1));
    let only_created = svc
        .create_endpoint(
            org.id,
            NewEndpoint {
                url: "https://late.example.com/".into(),
                events: Subscription::parse(&["person.created".to_string()]).unwrap(),
                description: None,
            },
        )
        .await
        .unwrap();
    assert!(svc.list_deliveries(org.id, only_created.id, None, None, None, 10).await.unwrap().items.is_empty());
    let feed = svc.events_feed(org.id, &every_scope(), feed_req(0, 100)).await.unwrap();
    let created: Vec<&SequencedEvent> =
        feed.items.iter().filter(|e| e.event.event_type == EventType::PersonCreated).collect();
    assert_eq!(created.len(), 5);
    let r = svc.replay(org.id, only_created.id, created[1].sequence).await.unwrap();
    assert_eq!((r.queued, r.last_sequence, r.has_more), (3, Some(created[4].sequence), false));
    let ds = svc.list_deliveries(org.id, only_created.id, None, None, None, 10).await.unwrap().items;
    assert_eq!(ds.len(), 3);
    for (d, e) in ds.iter().rev().zip(&created[2..]) {
        assert_eq!((d.status, d.event_type, d.attempts), (DeliveryStatus::Pending, EventType::PersonCreated, 0));
        let env: serde_json::Value = serde_json::from_str(&d.payload).unwrap();
        assert_eq!(env["data"], e.event.data.value(), "the event's own data");
        assert_eq!(env["createdAt"], talent_domain::timefmt::format(e.event.created_at), "the event's own time");
        assert_eq!(env["id"], d.id.0.to_string(), "a new delivery id");
        assert_eq!(d.event_id, Some(e.event.id), "D57: the replayed event's identity");
        assert_eq!(env["eventId"], e.event.id.0.to_string());
    }
    let nothing = svc.replay(org.id, only_created.id, created[4].sequence).await.unwrap();
    assert_eq!((nothing.queued, nothing.last_sequence, nothing.has_more), (0, None, false));
    let other = new_org(&svc, "business", &[]).await;
    assert_eq!(code(svc.replay(other.id, only_created.id, 0).await), Code::NotFound);
}

/// D57: a claimed delivery carries its event's id and feed sequence, numbered by the claim when
/// the sequencer has not run yet; an event the feed no longer keeps has no sequence, and
/// `event_sequences` leaves out unknown ids.
pub async fn a_claimed_delivery_carries_its_events_id_and_sequence<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let e = hook(&svc, org.id, 1).await;
    imported(&svc, org.id, import("first@example.com")).await;
    imported(&svc, org.id, import("second@example.com")).await;
    // No feed read and no sequencer run: the claim numbers the events itself.
    let mut jobs = svc.claim_due(ClaimCaps::total(10)).await.unwrap();
    assert_eq!(jobs.len(), 2);
    jobs.sort_by_key(|j| j.sequence);
    let feed = svc.events_feed(org.id, &every_scope(), feed_req(0, 10)).await.unwrap();
    let created: Vec<&SequencedEvent> =
        feed.items.iter().filter(|i| i.event.event_type == EventType::PersonCreated).collect();
    for (job, item) in jobs.iter().zip(&created) {
        assert_eq!(job.delivery.endpoint_id, e.id);
        assert_eq!(job.delivery.event_id, Some(item.event.id), "the delivery names its event");
        assert_eq!(job.sequence, Some(item.sequence), "and is sent with the event's number");
    }
    let ids = vec![created[0].event.id, EventId(svc.ids.new_uuid())];
    let found = read(&svc, move |tx| Box::pin(async move { tx.event_sequences(&ids).await })).await;
    assert_eq!(found, vec![(created[0].event.id, created[0].sequence)], "unknown ids are left out");
    // Retention deletes the events; a delivery of one still goes out, without a sequence.
    clock.advance(Duration::days(31));
    svc.purge_webhook_history(30, 100).await.unwrap();
    let gone = vec![created[0].event.id];
    let found = read(&svc, move |tx| Box::pin(async move { tx.event_sequences(&gone).await })).await;
    assert!(found.is_empty(), "an event no longer kept has no sequence");
}
