//! Organizations, their users and API keys (`OrgRepo`).

use super::*;

pub async fn organizations_users_and_keys_round_trip<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);

    // Organizations: every field, Some and None timestamps with microseconds, domains.
    let (org, usage) = svc
        .create_organization(NewOrganization {
            subscription_status: Some(SubscriptionStatus::PastDue),
            trial_ends_at: Some(datetime!(2026-02-03 04:05:06.789012 UTC)),
            employee_domains: vec!["acme.com".into(), "acme.co.uk".into()],
            ..NewOrganization::new("Acme «Ünïcode» & Co", email("Billing@Acme.com"), "business")
        })
        .await
        .unwrap();
    assert_eq!(usage.persons_used, 0);
    assert_ne!(org.created_at.microsecond(), 0);
    assert_eq!(svc.organization(org.id).await.unwrap().0, org);

    clock.advance(Duration::seconds(1));
    let (twin, _) = svc
        .create_organization(NewOrganization {
            current_period_end: Some(datetime!(2027-12-31 23:59:59.999999 UTC)),
            ..NewOrganization::new("Acme «Ünïcode» & Co", email("other@example.org"), "starter")
        })
        .await
        .unwrap();
    assert_eq!(twin.subscription_status, SubscriptionStatus::Trialing);
    assert_eq!(svc.organization(twin.id).await.unwrap().0, twin);

    let oldest = read(&svc, |tx| Box::pin(async move { tx.find_org_by_name("Acme «Ünïcode» & Co").await })).await;
    assert_eq!(oldest, Some(org.clone()), "find_org_by_name returns the oldest");
    let none = read(&svc, |tx| Box::pin(async move { tx.find_org_by_name("Acme").await })).await;
    assert_eq!(none, None);
    let unknown = OrgId(Uuid::now_v7());
    assert_eq!(code(svc.organization(unknown).await), Code::NotFound);

    // update_org: Some -> None, None -> Some, domains replaced.
    let (org, _) = svc
        .patch_organization(
            org.id,
            OrganizationPatch {
                company_name: Some("Acme Renamed".into()),
                email: Some(email("new@acme.com")),
                plan: Some("professional".into()),
                subscription_status: Some(SubscriptionStatus::Canceled),
                trial_ends_at: Some(None),
                current_period_end: Some(Some(datetime!(2026-06-30 12:00:00.000001 UTC))),
                employee_domains: Some(vec!["acme.io".into()]),
                locale: Some(Locale::Ja),
                time_zone: Some(TimeZone::parse("Asia/Tokyo").unwrap()),
                redirect_hosts: Some(vec!["jobs.acme.io".into(), "xn--mnchen-3ya.de".into()]),
            },
        )
        .await
        .unwrap();
    assert_eq!(org.trial_ends_at, None);
    // T217, T219: the defaults of the organization's persons are kept as set.
    assert_eq!(org.candidate.locale, Locale::Ja);
    assert_eq!(org.candidate.time_zone.as_str(), "Asia/Tokyo");
    assert_eq!(org.candidate.redirect_hosts, vec!["jobs.acme.io".to_string(), "xn--mnchen-3ya.de".to_string()]);
    assert_eq!(svc.organization(org.id).await.unwrap().0, org);
    assert_eq!(svc.organization(twin.id).await.unwrap().0, twin, "the other organization is untouched");

    // Users.
    let admin = svc.create_user(org.id, email("Admin@Acme.com"), OrgRole::Admin).await.unwrap();
    let member = svc.create_user(org.id, email("member@acme.com"), OrgRole::Member).await.unwrap();
    assert_eq!(code(svc.create_user(org.id, email("ADMIN@acme.com"), OrgRole::Member).await), Code::Conflict);
    let (a, m, o) = (admin.id, member.id, org.id);
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_user(a).await })).await, Some(admin.clone()));
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_user(m).await })).await, Some(member.clone()));
    let all = read(&svc, move |tx| Box::pin(async move { tx.list_users_of_org(o).await })).await;
    assert_eq!(all, vec![admin.clone(), member.clone()], "oldest first");

    // API keys: every field.
    let k1 = svc
        .create_api_key(
            admin.id,
            Some("CI key ✓".into()),
            Scopes::new(vec![Scope::WebhooksManage, Scope::PersonsWrite, Scope::OrganizationRead]),
            Some(datetime!(2027-01-02 03:04:05.000001 UTC)),
        )
        .await
        .unwrap();
    let k2 = svc.create_api_key(member.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    let id1 = k1.key.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_api_key(id1).await })).await, Some(k1.key.clone()));
    let keys = read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_user(a).await })).await;
    assert_eq!(keys, vec![k1.key.clone()]);

    // A key written directly: binary hash, no name, no expiry.
    let raw = ApiKey {
        id: ApiKeyId(Uuid::now_v7()),
        user_id: admin.id,
        org_id: org.id,
        name: None,
        prefix: "rawprefix0000001".into(),
        hash: vec![0, 255, 128, 7, 0, 1],
        scopes: Scopes::new(Scope::ALL.to_vec()),
        expires_at: None,
        revoked_at: Some(datetime!(2026-01-05 06:07:08.090807 UTC)),
        created_at: datetime!(2026-01-04 00:00:00.000001 UTC),
    };
    let r = raw.clone();
    write(&svc, move |tx| Box::pin(async move { tx.insert_api_key(&r).await })).await.unwrap();
    let rid = raw.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_api_key(rid).await })).await, Some(raw.clone()));
    let keys = read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_user(a).await })).await;
    assert_eq!(keys, vec![raw.clone(), k1.key.clone()], "oldest first");
    // Every key of the organization's users, newest first; none of another organization's.
    let by_org = read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_org(o).await })).await;
    let mut want = vec![k1.key.clone(), k2.key.clone(), raw.clone()];
    want.sort_by_key(|k| std::cmp::Reverse((k.created_at, k.id.0)));
    assert_eq!(by_org, want);
    let t = twin.id;
    assert!(read(&svc, move |tx| Box::pin(async move { tx.list_api_keys_of_org(t).await })).await.is_empty());

    // key_context: key + owner's role + organization, by prefix.
    let p1 = k1.key.prefix.clone();
    let ctx = read(&svc, move |tx| Box::pin(async move { tx.find_key_context(&p1).await })).await.unwrap();
    assert_eq!(ctx, KeyContext { key: k1.key.clone(), role: OrgRole::Admin, org: org.clone() });
    let p2 = k2.key.prefix.clone();
    let ctx2 = read(&svc, move |tx| Box::pin(async move { tx.find_key_context(&p2).await })).await.unwrap();
    assert_eq!(ctx2, KeyContext { key: k2.key.clone(), role: OrgRole::Member, org: org.clone() });
    assert_eq!(read(&svc, |tx| Box::pin(async move { tx.find_key_context("0000000000000099").await })).await, None);
    let principal = svc.authenticate(Some(&format!("Bearer {}", k1.value))).await.unwrap();
    assert_eq!(*principal.ctx, ctx);

    // Revocation is visible to every reader.
    let revoked = svc.revoke_api_key(k2.key.id).await.unwrap();
    let at = revoked.revoked_at.expect("revoked_at set");
    let p2 = k2.key.prefix.clone();
    let ctx2 = read(&svc, move |tx| Box::pin(async move { tx.find_key_context(&p2).await })).await.unwrap();
    assert_eq!(ctx2.key.revoked_at, Some(at));
    assert_eq!(ctx2.key, revoked);
    assert_eq!(code(svc.authenticate(Some(&format!("Bearer {}", k2.value))).await), Code::KeyRevoked);
    clock.advance(Duration::minutes(1));
    assert_eq!(svc.revoke_api_key(k2.key.id).await.unwrap().revoked_at, Some(at), "revoking twice keeps the time");
    let id2 = k2.key.id;
    let stored = read(&svc, move |tx| Box::pin(async move { tx.get_api_key(id2).await })).await.unwrap();
    assert_eq!(stored.revoked_at, Some(at));
}

/// Issue 16 point 5 (admin API): organizations page newest first, each once, whatever the page
/// size.
pub async fn organizations_list_newest_first_in_pages<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let mut made = Vec::new();
    for _ in 0..5 {
        made.push(new_org(&svc, "business", &["x.example"]).await.id);
    }
    let newest_first: Vec<OrgId> = made.iter().rev().copied().collect();
    for size in [1u32, 2, 5, 100] {
        let (mut seen, mut before) = (Vec::new(), None);
        loop {
            let page = svc.list_organizations(before, size).await.unwrap();
            assert!(page.items.len() <= size as usize);
            seen.extend(page.items.iter().map(|(o, _)| o.id));
            if !page.has_more {
                break;
            }
            before = page.items.last().map(|(o, _)| o.id);
        }
        assert_eq!(seen, newest_first, "page size {size}");
    }
    let first = svc.list_organizations(None, 1).await.unwrap();
    assert_eq!(first.items[0].0.employee_domains, vec!["x.example".to_string()]);
    assert_eq!(first.items[0].1.persons_limit, 5_000);
}

pub async fn removing_a_user_deletes_their_keys_and_sessions_and_keeps_an_administrator<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let admin = svc.create_user(org.id, email("admin@acme.com"), OrgRole::Admin).await.unwrap();
    let member = svc.create_user(org.id, email("member@acme.com"), OrgRole::Member).await.unwrap();
    let outsider = svc.create_user(other.id, email("out@acme.com"), OrgRole::Admin).await.unwrap();
    let sign = |who: &str, org: OrgId| {
        let (svc, who) = (svc.clone(), who.to_string());
        async move {
            svc.request_sign_in(email(&who)).await.unwrap();
            let t = sign_in_token(&svc, &who).await;
            let s = svc.sign_in(&t, org).await.unwrap();
            (svc.session(&s.token).await.unwrap().unwrap(), s.token)
        }
    };
    let (as_admin, _) = sign("admin@acme.com", org.id).await;
    let (as_member, member_token) = sign("member@acme.com", org.id).await;
    let key = svc.create_api_key(member.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    let admin_key = svc.create_api_key(admin.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    svc.create_api_key(outsider.id, None, Scopes::new(vec![Scope::PersonsRead]), None).await.unwrap();
    // Members see their own keys, administrators every key of the organization.
    assert_eq!(svc.dashboard_keys(&as_member).await.unwrap().len(), 1);
    assert_eq!(svc.dashboard_keys(&as_admin).await.unwrap().len(), 2);
    assert_eq!(code(svc.dashboard_revoke_key(&as_member, admin_key.key.id).await), Code::NotFound);
    // Members cannot manage users; the last administrator stays one.
    assert_eq!(code(svc.change_role(&as_member, member.id, OrgRole::Admin).await), Code::InsufficientScope);
    assert_eq!(code(svc.change_role(&as_admin, admin.id, OrgRole::Member).await), Code::Conflict);
    assert_eq!(code(svc.remove_user(&as_admin, admin.id).await), Code::Conflict);
    assert_eq!(code(svc.remove_user(&as_admin, outsider.id).await), Code::NotFound);
    assert_eq!(svc.change_role(&as_admin, member.id, OrgRole::Admin).await.unwrap().role, OrgRole::Admin);
    assert_eq!(svc.get_user(member.id).await.unwrap().role, OrgRole::Admin);
    svc.remove_user(&as_admin, member.id).await.unwrap();
    assert_eq!(code(svc.get_user(member.id).await), Code::NotFound);
    assert!(svc.authenticate(Some(&format!("Bearer {}", key.value))).await.is_err(), "its keys stop working");
    assert!(svc.session(&member_token).await.unwrap().is_none(), "its sessions end");
    assert_eq!(svc.dashboard_keys(&as_admin).await.unwrap().len(), 1);
}

/// D60: aging a test twin's data moves every time a rule reads (invitations, emails, events,
/// deliveries, idempotency records) back by exactly the step, microseconds kept, and touches
/// nothing of its live organization; a sweep of the twin then expires and reminds by the aged
/// times.
pub async fn aging_a_test_twin_moves_its_times_back_and_nothing_of_the_live_organization_d60<S: Store + Clone>(
    store: S,
) {
    let (svc, _clock) = services(store);
    let live = new_org(&svc, "business", &[]).await;
    let admin = svc.create_user(live.id, email("admin@acme.com"), OrgRole::Admin).await.unwrap();
    svc.create_test_api_key(admin.id, None, Scopes::new(vec![Scope::InvitationsWrite]), None).await.unwrap();
    let lid = live.id;
    let twin = read(&svc, move |tx| Box::pin(async move { tx.find_test_twin(lid).await })).await.unwrap().id;

    // The same things in both: an endpoint, an emailed invitation (its event and delivery) and an
    // idempotency record.
    let mut made = Vec::new();
    for org in [live.id, twin] {
        crate::webhook::hook(&svc, org, 1).await;
        let (inv, _) = svc.create_invitation(org, emailed_invitation("ida@example.com")).await.unwrap();
        svc.idempotency_begin(crate::idempotency::idem_req(org, "/v1/persons", "k", "h")).await.unwrap();
        let done = StoredResponse { status: 201, body: "{}".into(), existing_resource: false };
        svc.idempotency_finish(crate::idempotency::idem_req(org, "/v1/persons", "k", "h"), done).await.unwrap();
        // One in flight, which keeps its time.
        svc.idempotency_begin(crate::idempotency::idem_req(org, "/v1/persons", "running", "h")).await.unwrap();
        made.push(inv.invitation.id);
    }
    let snapshot = |org: OrgId, inv: InvitationId| {
        let svc = svc.clone();
        async move {
            read(&svc, move |tx| {
                Box::pin(async move {
                    let i = tx.get_invitation_any(inv).await?.unwrap();
                    let emails = tx.list_emails_of_org(org, 10).await?;
                    let events = tx.list_events_of_org(org).await?;
                    let idem = tx.find_idempotency(org, "/v1/persons", "k").await?.unwrap();
                    let endpoints = tx.list_endpoints_of_org(org).await?;
                    let deliveries = tx.list_deliveries(endpoints[0].id, None, None, None, 10).await?;
                    let mut times = vec![i.created_at, i.updated_at, i.expires_at, idem.created_at];
                    times.extend(emails.iter().map(|m| m.created_at));
                    times.extend(emails.iter().map(|m| m.next_attempt_at));
                    times.extend(events.iter().map(|e| e.created_at));
                    times.extend(deliveries.iter().map(|d| d.created_at));
                    times.extend(deliveries.iter().filter_map(|d| d.next_attempt_at));
                    Ok::<_, StoreError>((times, emails.len(), events.len(), deliveries.len()))
                })
            })
            .await
        }
    };
    let live_before = snapshot(live.id, made[0]).await;
    let twin_before = snapshot(twin, made[1]).await;
    assert!(twin_before.1 >= 1 && twin_before.2 >= 1 && twin_before.3 >= 1, "{twin_before:?}");
    assert!(twin_before.0.iter().any(|t| t.microsecond() != 0), "a fraction to keep");

    let running = |org: OrgId| {
        let svc = svc.clone();
        async move { crate::idempotency::idem_get(&svc, org, "/v1/persons", "running").await.unwrap().created_at }
    };
    let running_before = running(twin).await;
    let step = 15 * 86_400 + 17;
    write(&svc, move |tx| Box::pin(async move { tx.age_test_data(twin, step).await })).await.unwrap();
    let twin_after = snapshot(twin, made[1]).await;
    let moved: Vec<OffsetDateTime> = twin_before.0.iter().map(|t| *t - Duration::seconds(step)).collect();
    assert_eq!(twin_after.0, moved, "every time moved back by exactly the step");
    assert_eq!(running(twin).await, running_before, "a request in flight keeps its record's time");
    assert_eq!(snapshot(live.id, made[0]).await, live_before, "the live organization untouched");

    // The twin's invitation is due now (by the aged times), the live one is not.
    assert_eq!(svc.sweep_invitations_of(Some(live.id)).await.unwrap(), (0, 0));
    assert_eq!(svc.sweep_invitations_of(Some(twin)).await.unwrap().0, 1, "expired");
    let (l, t) = (made[0], made[1]);
    let statuses = read(&svc, move |tx| {
        Box::pin(async move {
            Ok::<_, StoreError>((
                tx.get_invitation_any(l).await?.unwrap().status,
                tx.get_invitation_any(t).await?.unwrap().status,
            ))
        })
    })
    .await;
    assert_eq!(statuses, (InvitationStatus::Pending, InvitationStatus::Expired));
}

/// D60: eight concurrent advances of one test twin's clock, each with invitations, emails,
/// events and deliveries to age, all succeed (none fails on a lock cycle) and add up: the
/// invitation's expiry moved back by exactly eight steps.
pub async fn concurrent_advances_of_one_test_clock_all_apply_d60<S: Store + Clone>(store: S) {
    let (svc, _clock) = services(store);
    let live = new_org(&svc, "business", &[]).await;
    let admin = svc.create_user(live.id, email("admin@acme.com"), OrgRole::Admin).await.unwrap();
    svc.create_test_api_key(admin.id, None, Scopes::new(vec![Scope::InvitationsWrite]), None).await.unwrap();
    let lid = live.id;
    let twin = read(&svc, move |tx| Box::pin(async move { tx.find_test_twin(lid).await })).await.unwrap();
    crate::webhook::hook(&svc, twin.id, 1).await;
    let mut first = None;
    for i in 0..20 {
        let (inv, _) = svc.create_invitation(twin.id, emailed_invitation(&format!("p{i}@example.com"))).await.unwrap();
        first.get_or_insert(inv.invitation);
    }
    let first = first.unwrap();
    let outcomes = race(&svc, 8, |svc, _| {
        let twin = twin.clone();
        async move { svc.test_advance_clock(&twin, 60).await.map(|_| ()) }
    })
    .await;
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    let id = first.id;
    let now = read(&svc, move |tx| Box::pin(async move { tx.get_invitation_any(id).await })).await.unwrap();
    assert_eq!(now.expires_at, first.expires_at - Duration::seconds(8 * 60));
}
