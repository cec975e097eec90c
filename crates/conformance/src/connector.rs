//! ATS connections and orders (`ConnectionRepo`, `OrderRepo`; D63, D67, D75).

use super::*;
use talent_domain::connector::*;

async fn admin_org<S: Store + Clone>(svc: &Svc<S>) -> Organization {
    let org = new_org(svc, "business", &[]).await;
    svc.create_user(org.id, email("admin@acme.com"), OrgRole::Admin).await.unwrap();
    org
}

fn ashby() -> NewConnection {
    NewConnection {
        ats: Ats::Ashby,
        name: "Ashby".into(),
        settings: ConnectionSettings { api_key: Some("ashby-key".into()), ..Default::default() },
        locale: None,
    }
}

fn kombo() -> NewConnection {
    NewConnection {
        ats: Ats::Kombo,
        name: "Kombo".into(),
        settings: ConnectionSettings {
            base_url: Some("https://kombo.example/v1".into()),
            api_key: Some("kombo-key-1".into()),
            integration_id: Some("acme-integration".into()),
            webhook_secret: Some("kombo-secret-2".into()),
        },
        locale: Some(Locale::De),
    }
}

fn new_order(test: TestRef, to: &str, key: &str) -> NewOrder {
    NewOrder {
        test,
        candidate: OrderCandidate { email: email(to), first_name: Some(name("Ada")), last_name: Some(name("L")) },
        ats_key: key.into(),
        refs: OrderRefs {
            candidate: Some("cand-1".into()),
            application: Some("app-1".into()),
            job: Some("job-1".into()),
            job_name: Some("Engineer".into()),
            profile_url: Some("https://ats.example/c/1".into()),
            ats_order: Some(key.into()),
        },
        callback_url: Some("https://ats.example/callback/1".into()),
    }
}

pub async fn connections_and_orders_round_trip_every_field<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store.clone());
    let org = admin_org(&svc).await;
    let other = admin_org(&svc).await;
    let created = svc.create_connection(org.id, kombo(), None).await.unwrap();
    let c = created.view.connection.clone();
    // Every field, the credentials opened as they were given.
    assert_eq!(svc.get_connection(c.id).await.unwrap().connection, c);
    assert_eq!(svc.list_connections(org.id).await.unwrap(), vec![created.view.clone()]);
    assert!(svc.list_connections(other.id).await.unwrap().is_empty());
    let (key, o) = (c.api_key_id, org.id);
    let (by_key, enabled, none) = store
        .read(move |tx| {
            Box::pin(async move {
                let by_key = tx.find_connection_by_key(key).await?;
                let enabled = tx.find_enabled_connection(o, Ats::Kombo).await?;
                let none = tx.find_enabled_connection(o, Ats::Ashby).await?;
                Ok::<_, StoreError>((by_key, enabled, none))
            })
        })
        .await
        .unwrap();
    assert_eq!((by_key.as_ref(), enabled.as_ref(), none), (Some(&c), Some(&c), None));

    // An order with every reference, read back whole; then it follows its invitation.
    clock.advance(Duration::seconds(61));
    let (order, created_order) =
        svc.place_order(&c, new_order(TestRef::TalentAssessment, "ada@acme.com", "k-1")).await.unwrap();
    assert!(created_order);
    assert_eq!(svc.get_order(org.id, order.id).await.unwrap(), order);
    assert_eq!(code(svc.get_order(other.id, order.id).await), Code::NotFound);
    let activity = svc.get_connection(c.id).await.unwrap().connection.last_activity_at;
    assert_eq!(activity, Some(order.created_at), "an order is the connection's activity");
    svc.accept_invitation(order.invitation_id, false).await.unwrap();
    let started = svc.get_order(org.id, order.id).await.unwrap();
    assert_eq!(started.status, OrderStatus::Started);
    assert!(started.started_at.is_some_and(|t| t > order.created_at));
    let a = svc
        .admin_assessment(order.person_id, AssessmentCommand { complete: true, ..Default::default() })
        .await
        .unwrap();
    let done = svc.get_order(org.id, order.id).await.unwrap();
    assert_eq!(
        (done.status, done.assessment_id, done.completed_at),
        (OrderStatus::Completed, Some(a.id), a.completed_at)
    );

    // The report link (D68): found by its token's hash, in any organization; openings newest first.
    let hash = FakeSecrets::default().hash_token(&FakeSecrets::default().report_token(order.id));
    assert_eq!(done.report_token_hash, hash);
    let (found, missing) = store
        .read(move |tx| {
            Box::pin(async move {
                let found = tx.find_order_by_report_token(&hash).await?;
                let missing = tx.find_order_by_report_token(b"nope").await?;
                Ok::<_, StoreError>((found, missing))
            })
        })
        .await
        .unwrap();
    assert_eq!((found.as_ref(), missing), (Some(&done), None));
    let opening = |n: u128, pdf: bool| ReportOpening {
        id: Uuid::from_u128((1 << 120) + n),
        order_id: order.id,
        opened_at: clock.now(),
        client_ip: "203.0.113.7".into(),
        user_agent: if pdf { None } else { Some("Mozilla/5.0".into()) },
        pdf,
    };
    let (first, second) = (opening(1, false), opening(2, true));
    let (a, b) = (first.clone(), second.clone());
    store
        .write(move |tx| {
            Box::pin(async move {
                tx.insert_report_opening(&a).await?;
                tx.insert_report_opening(&b).await?;
                Ok::<_, StoreError>(())
            })
        })
        .await
        .unwrap();
    assert_eq!(svc.report_openings(org.id, order.id, 10).await.unwrap(), vec![second, first]);
    assert_eq!(code(svc.report_openings(other.id, order.id, 10).await), Code::NotFound);

    // Pages of a connection's orders, newest first; the count.
    let mut ids = vec![order.id];
    for i in 0..4 {
        let (o, _) = svc
            .place_order(&c, new_order(TestRef::TalentAssessment, &format!("p{i}@acme.com"), &format!("k{i}")))
            .await
            .unwrap();
        ids.push(o.id);
    }
    ids.reverse();
    let first = svc.list_orders(c.id, None, 3).await.unwrap();
    assert!(first.has_more);
    let second = svc.list_orders(c.id, first.items.last().map(|o| o.id), 3).await.unwrap();
    assert!(!second.has_more);
    let walked: Vec<OrderId> = first.items.iter().chain(second.items.iter()).map(|o| o.id).collect();
    assert_eq!(walked, ids);
    assert_eq!(svc.get_connection(c.id).await.unwrap().orders, 5);

    // Changes persist; reported errors list newest first.
    let patch = ConnectionPatch {
        name: Some("Kombo EU".into()),
        enabled: Some(false),
        settings: SettingsPatch { api_key: Some(Some("kombo-key-3".into())), ..Default::default() },
        // T221: the language of its orders' invitations.
        locale: Some(Some(Locale::Ja)),
    };
    let changed = svc.update_connection(c.id, patch).await.unwrap().connection;
    assert_eq!(changed.locale, Some(Locale::Ja));
    assert_eq!(svc.get_connection(c.id).await.unwrap().connection, changed);
    assert_eq!(changed.settings.api_key.as_deref(), Some("kombo-key-3"));
    let e1 = svc.record_connection_error(c.id, "send_test", "[\"first\"]", Some(order.id)).await.unwrap();
    let e2 = svc.record_connection_error(c.id, "test_status", "[\"second\"]", None).await.unwrap();
    assert_eq!(svc.list_connection_errors(c.id, 10).await.unwrap(), vec![e2, e1]);

    // Deleting removes its orders and errors and revokes its key.
    svc.delete_connection(c.id).await.unwrap();
    assert_eq!(code(svc.get_connection(c.id).await), Code::NotFound);
    let cid = c.id;
    let (orders, errors, key) = store
        .read(move |tx| {
            Box::pin(async move {
                let orders = tx.count_orders_of_connection(cid).await?;
                let errors = tx.list_connection_errors(cid, 10).await?;
                let key = tx.get_api_key(key).await?;
                Ok::<_, StoreError>((orders, errors, key))
            })
        })
        .await
        .unwrap();
    assert_eq!((orders, errors.len()), (0, 0));
    assert!(key.unwrap().revoked_at.is_some());
}

pub async fn concurrent_placements_of_one_order_make_one_order_and_one_email<S: Store + Clone>(store: S) {
    let (svc, _clock) = services(store);
    let org = admin_org(&svc).await;
    let c = svc.create_connection(org.id, kombo(), None).await.unwrap().view.connection;
    one_order_of_racers(&svc, &c, "ada@acme.com", "k-1").await;
    assert_eq!(svc.get_connection(c.id).await.unwrap().orders, 1);

    // An ATS whose key may name a new order later (Ashby) places without looking first: the
    // store's one open order per key and test is what turns the racers into one order (T203).
    let a = svc.create_connection(org.id, ashby(), None).await.unwrap().view.connection;
    one_order_of_racers(&svc, &a, "bob@acme.com", "app-1").await;
}

/// Eight concurrent placements of one order (`to`, ATS key `key`) on connection `c`: one order,
/// created once, and one email.
async fn one_order_of_racers<S: Store + Clone>(svc: &Svc<S>, c: &Connection, to: &'static str, key: &'static str) {
    let conn = c.clone();
    let placed = race(svc, 8, move |svc, _| {
        let c = conn.clone();
        async move { svc.place_order(&c, new_order(TestRef::TalentAssessment, to, key)).await }
    })
    .await;
    let ids: BTreeSet<OrderId> = placed.iter().map(|r| r.as_ref().unwrap().0.id).collect();
    assert_eq!(ids.len(), 1, "one order: {placed:?}");
    assert_eq!(placed.iter().filter(|r| r.as_ref().unwrap().1).count(), 1, "created once");
    assert_eq!(svc.emails(Some(email(to)), 10).await.unwrap().len(), 1, "one email");
}

pub async fn orders_end_with_their_invitations_expiry_and_revocation<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = admin_org(&svc).await;
    let c = svc.create_connection(org.id, kombo(), None).await.unwrap().view.connection;
    let (expiring, _) = svc.place_order(&c, new_order(TestRef::TalentAssessment, "a@acme.com", "k-1")).await.unwrap();
    let (revoked, _) = svc.place_order(&c, new_order(TestRef::TalentAssessment, "b@acme.com", "k-2")).await.unwrap();
    let (cancelled, _) = svc.place_order(&c, new_order(TestRef::TalentAssessment, "c@acme.com", "k-3")).await.unwrap();
    svc.revoke_invitation(org.id, revoked.invitation_id).await.unwrap();
    assert_eq!(svc.cancel_order(org.id, cancelled.id).await.unwrap().status, OrderStatus::Cancelled);
    clock.advance(Duration::days(15));
    svc.sweep_invitations().await.unwrap();
    let status = |o: OrderId| {
        let svc = svc.clone();
        async move { svc.get_order(org.id, o).await.unwrap().status }
    };
    assert_eq!(status(expiring.id).await, OrderStatus::Expired);
    assert_eq!(status(revoked.id).await, OrderStatus::Cancelled);
    assert_eq!(status(cancelled.id).await, OrderStatus::Cancelled);
    // Kombo's order id names its order for good (D82): the finished order is the answer.
    let (again, created) =
        svc.place_order(&c, new_order(TestRef::TalentAssessment, "a@acme.com", "k-1")).await.unwrap();
    assert!(!created && again.id == expiring.id);
    // Elsewhere a finished order frees its key: the ATS may order again.
    let a = svc.create_connection(org.id, ashby(), None).await.unwrap().view.connection;
    let (first, _) = svc.place_order(&a, new_order(TestRef::TalentAssessment, "d@acme.com", "app-1")).await.unwrap();
    svc.cancel_order(org.id, first.id).await.unwrap();
    let (again, created) =
        svc.place_order(&a, new_order(TestRef::TalentAssessment, "d@acme.com", "app-1")).await.unwrap();
    assert!(created && again.id != first.id);
    // Any number of finished orders of one key and test stand beside its one open order.
    svc.cancel_order(org.id, again.id).await.unwrap();
    let (third, created) =
        svc.place_order(&a, new_order(TestRef::TalentAssessment, "d@acme.com", "app-1")).await.unwrap();
    assert!(created && third.id != first.id && third.id != again.id);
    let (repeated, created) =
        svc.place_order(&a, new_order(TestRef::TalentAssessment, "d@acme.com", "app-1")).await.unwrap();
    assert!(!created && repeated.id == third.id, "the open one is the answer");
}

pub async fn a_connections_pushes_go_through_its_hidden_endpoint_never_listed_as_a_webhook<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store.clone());
    let sender = Arc::new(talent_domain::fakes::FakeSender::default());
    let svc = Services { webhooks: sender.clone(), ..svc };
    let org = admin_org(&svc).await;
    let c = svc.create_connection(org.id, ashby(), None).await.unwrap().view.connection;
    assert!(svc.list_endpoints(org.id).await.unwrap().is_empty(), "not listed");
    assert_eq!(code(svc.get_endpoint(org.id, c.endpoint_id).await), Code::NotFound, "not read");
    let e = c.endpoint_id;
    let found = store.read(move |tx| Box::pin(async move { tx.find_connection_by_endpoint(e).await })).await.unwrap();
    assert_eq!(found.as_ref(), Some(&c), "the key and the endpoint read back");

    let (o, _) = svc.place_order(&c, new_order(TestRef::TalentAssessment, "ada@acme.com", "app-1")).await.unwrap();
    svc.accept_invitation(o.invitation_id, false).await.unwrap();
    clock.advance(Duration::seconds(1));
    assert_eq!(svc.run_deliveries(10).await.unwrap(), 1, "the start is pushed (D79)");
    let sent = sender.pushes.lock().unwrap().clone();
    assert_eq!(sent.len(), 1);
    assert!(sender.sent.lock().unwrap().is_empty(), "no signed webhook");
    let log = svc.push_log(c.id, None, None, 10).await.unwrap().items;
    assert_eq!((log.len(), log[0].status), (1, DeliveryStatus::Succeeded));
    assert_eq!(talent_domain::connector::pushed_order(&log[0].payload), Some(o.id));
}

/// Kombo's webhook and poll (D82): the enabled connections to an ATS across organizations,
/// oldest first and bounded; an order found by its ATS key in any state, the newest.
pub async fn kombo_connections_are_found_across_organizations_and_orders_by_key_in_any_state<S: Store + Clone>(
    store: S,
) {
    let (svc, clock) = services(store.clone());
    let (a, b) = (admin_org(&svc).await, admin_org(&svc).await);
    let first = svc.create_connection(a.id, kombo(), None).await.unwrap().view.connection;
    clock.advance(Duration::seconds(1));
    let second = svc.create_connection(b.id, kombo(), None).await.unwrap().view.connection;
    clock.advance(Duration::seconds(1));
    let off = svc.create_connection(b.id, kombo(), None).await.unwrap().view.connection;
    svc.update_connection(off.id, ConnectionPatch { enabled: Some(false), ..Default::default() }).await.unwrap();
    let ids = |v: Vec<Connection>| v.into_iter().map(|c| c.id).collect::<Vec<_>>();
    assert_eq!(ids(svc.enabled_connections(Ats::Kombo, None).await.unwrap()), vec![first.id, second.id]);
    assert!(svc.enabled_connections(Ats::Ashby, None).await.unwrap().is_empty());
    let one =
        store.read(|tx| Box::pin(async move { tx.list_enabled_connections(Ats::Kombo, None, 1).await })).await.unwrap();
    assert_eq!(ids(one), vec![first.id], "bounded");
    // Kombo's webhook names its integration: only the enabled connections that have it.
    let mut beta = kombo();
    beta.settings.integration_id = Some("beta-integration".into());
    let third = svc.create_connection(a.id, beta, None).await.unwrap().view.connection;
    let of = |integration: &'static str, limit: u32| {
        store.read(move |tx| {
            Box::pin(async move { tx.list_enabled_connections(Ats::Kombo, Some(integration), limit).await })
        })
    };
    assert_eq!(ids(of("acme-integration", 10).await.unwrap()), vec![first.id, second.id], "not the disabled one");
    assert_eq!(ids(of("acme-integration", 1).await.unwrap()), vec![first.id], "bounded");
    assert_eq!(ids(of("beta-integration", 10).await.unwrap()), vec![third.id]);
    assert!(of("Beta-Integration", 10).await.unwrap().is_empty(), "exactly as given");
    let beta_of = svc.enabled_connections(Ats::Kombo, Some("beta-integration".into())).await.unwrap();
    assert_eq!(ids(beta_of), vec![third.id]);
    let ashby_of = store
        .read(|tx| Box::pin(async move { tx.list_enabled_connections(Ats::Ashby, Some("acme-integration"), 10).await }))
        .await
        .unwrap();
    assert!(ashby_of.is_empty(), "another ATS");

    let (o, _) = svc.place_order(&first, new_order(TestRef::TalentAssessment, "ada@acme.com", "k-1")).await.unwrap();
    assert_eq!(svc.order_by_key(first.id, "k-1".into()).await.unwrap(), Some(o.clone()));
    assert_eq!(svc.order_by_key(second.id, "k-1".into()).await.unwrap(), None, "another connection's key");
    svc.cancel_order(a.id, o.id).await.unwrap();
    let found = svc.order_by_key(first.id, "k-1".into()).await.unwrap().unwrap();
    assert_eq!((found.id, found.status), (o.id, OrderStatus::Cancelled), "in any state");
    let (again, created) =
        svc.place_order(&first, new_order(TestRef::TalentAssessment, "ada@acme.com", "k-1")).await.unwrap();
    assert_eq!((again.id, created), (o.id, false), "a Kombo order is taken once");
}

/// The connection of an ATS's call (D64) as the store serves it, perhaps from a cache (T254):
/// a change of the connection or its key is seen by the very next call, its activity is written
/// at most once a minute, and the stamp a call wrote is seen by the next call (which therefore
/// writes nothing).
pub async fn a_calls_connection_follows_every_committed_change_and_stamps_activity_once_a_minute<S: Store + Clone>(
    store: S,
) {
    let (svc, clock) = services(store.clone());
    let org = admin_org(&svc).await;
    let c = svc.create_connection(org.id, ashby(), None).await.unwrap().view.connection;
    let (key, id) = (c.api_key_id, c.id);
    let stamp = || async { svc.get_connection(id).await.unwrap().connection.last_activity_at };
    let call = || svc.connection_for_call(org.id, key, Ats::Ashby);

    let before = clock.now();
    let t0 = call().await.unwrap().last_activity_at.expect("the first call is activity");
    assert!(t0 >= before);
    assert_eq!(stamp().await, Some(t0));
    clock.advance(Duration::seconds(30));
    assert_eq!(call().await.unwrap().last_activity_at, Some(t0), "within the minute nothing is written");
    assert_eq!(stamp().await, Some(t0));
    clock.advance(Duration::seconds(31));
    let t1 = call().await.unwrap().last_activity_at.expect("stamped");
    assert!(t1 - t0 >= Duration::seconds(60), "a minute on, the call is written again");
    assert_eq!(stamp().await, Some(t1));
    clock.advance(Duration::seconds(1));
    assert_eq!(call().await.unwrap().last_activity_at, Some(t1), "the call sees the stamp the last one wrote");
    assert_eq!(stamp().await, Some(t1), "and writes none");

    // Changes through the administrator's use cases: seen at once.
    let patch = |p: ConnectionPatch| svc.update_connection(id, p);
    patch(ConnectionPatch { enabled: Some(false), ..Default::default() }).await.unwrap();
    assert_eq!(code(call().await), Code::Unauthorized, "a disabled connection ends the ATS's access at once");
    patch(ConnectionPatch { enabled: Some(true), name: Some("Ashby EU".into()), ..Default::default() }).await.unwrap();
    assert_eq!(call().await.unwrap().name, "Ashby EU", "enabled again, renamed");
    let settings = SettingsPatch { api_key: Some(Some("ashby-key-2".into())), ..Default::default() };
    patch(ConnectionPatch { settings, ..Default::default() }).await.unwrap();
    assert_eq!(call().await.unwrap().settings.api_key.as_deref(), Some("ashby-key-2"), "new credentials");
    assert_eq!(stamp().await, Some(t1), "an update keeps the activity");

    // A plain key of the organization speaks for its enabled connection; deleting that ends it.
    let plain = ApiKeyId(Uuid::from_u128(0x5eed));
    assert_eq!(svc.connection_for_call(org.id, plain, Ats::Ashby).await.unwrap().id, id);
    svc.delete_connection(id).await.unwrap();
    assert_eq!(code(call().await), Code::Unauthorized);
    assert_eq!(code(svc.connection_for_call(org.id, plain, Ats::Ashby).await), Code::Unauthorized);
}
