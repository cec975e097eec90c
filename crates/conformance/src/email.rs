//! The email outbox (`EmailRepo`; D22, T58, T93).

use super::*;

/// T93: `list_emails_to_since` lists the emails queued to one address since a moment (any
/// organization, newest first, with their invitation), and the resend use case refuses within
/// the cooldown with nothing written.
pub async fn resends_are_limited_by_the_emails_stored_for_the_address<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let invite = emailed_invitation;
    let t0 = clock.now();
    let (a, _) = svc.create_invitation(org, invite("ada@example.com")).await.unwrap();
    svc.create_invitation(org, invite("bob@example.com")).await.unwrap();
    clock.advance(Duration::seconds(30));
    let (b, _) = svc.create_invitation(other, invite("ada@example.com")).await.unwrap();
    let e = client_err(svc.resend_invitation(org, a.invitation.id, Some(30)).await);
    assert_eq!((e.code, e.retry_after), (Code::RateLimited, Some(30)), "{e:?}");
    assert_eq!(svc.get_invitation(org, a.invitation.id).await.unwrap().invitation.expires_at, a.invitation.expires_at);
    clock.advance(Duration::seconds(31));
    svc.resend_invitation(org, a.invitation.id, None).await.unwrap();

    let ada = email("ada@example.com");
    let all = read(&svc, move |tx| Box::pin(async move { tx.list_emails_to_since(&ada, t0, 100).await })).await;
    let ids: Vec<Option<InvitationId>> = all.iter().map(|s| s.invitation_id).collect();
    assert_eq!(ids, [Some(a.invitation.id), Some(b.invitation.id), Some(a.invitation.id)], "newest first");
    // The fake clock ticks a microsecond per reading.
    for (s, at) in all.iter().zip([61, 30, 0]) {
        let off = s.created_at - (t0 + Duration::seconds(at));
        assert!(off >= Duration::ZERO && off < Duration::milliseconds(1), "{all:?}");
    }
    let ada = email("ada@example.com");
    let recent = read(&svc, move |tx| {
        Box::pin(async move { tx.list_emails_to_since(&ada, t0 + Duration::seconds(1), 1).await })
    })
    .await;
    assert_eq!(recent.len(), 1);
    assert_eq!(recent[0].created_at, all[0].created_at);
    let since_last = all[0].created_at + Duration::microseconds(1);
    let ada = email("ada@example.com");
    let none = read(&svc, move |tx| Box::pin(async move { tx.list_emails_to_since(&ada, since_last, 10).await })).await;
    assert!(none.is_empty());
}

/// D22, T58: an email whose first send failed is retried later; eight concurrent email runs then
/// send it exactly once (the claim decides) and record it as sent; a revoked invitation's queued
/// email is never sent.
/// T203: a pass of the email job claims its emails in one statement (only the unsent ones due
/// among the ids it names; a second claimer gets none of those, a crashed sender's are due again
/// after the lease) and reads their invitations by id in one statement, across organizations.
pub async fn a_pass_claims_due_emails_once_and_reads_their_invitations_by_id<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store.clone());
    let (a, b) = (new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id);
    let mut invs = vec![];
    for (o, to) in [(a, "ada@example.com"), (b, "bob@example.com"), (a, "cy@example.com")] {
        invs.push(svc.create_invitation(o, emailed_invitation(to)).await.unwrap().0.invitation.id);
    }
    let now = clock.now();
    let due = store.read(move |tx| Box::pin(async move { tx.list_due_emails(now, 100).await })).await.unwrap();
    let of = |i: InvitationId| due.iter().find(|e| e.invitation_id == Some(i)).unwrap().id;
    let (ea, eb, ec) = (of(invs[0]), of(invs[1]), of(invs[2]));
    let lease = Duration::minutes(5);
    let claim = |ids: Vec<EmailId>, at: OffsetDateTime| {
        let store = store.clone();
        async move {
            let mut got = store
                .write(move |tx| Box::pin(async move { tx.claim_emails(&ids, at, at + lease).await }))
                .await
                .unwrap();
            got.sort();
            got
        }
    };
    let sorted = |mut v: Vec<EmailId>| {
        v.sort();
        v
    };
    assert_eq!(claim(vec![ea, eb], now).await, sorted(vec![ea, eb]));
    assert_eq!(claim(vec![ea, eb, ec], now).await, vec![ec], "claimed ones are not due");
    assert_eq!(claim(vec![], now).await, vec![]);
    store.write(move |tx| Box::pin(async move { tx.record_emails_sent(&[ec], now).await })).await.unwrap();
    let later = now + lease;
    assert_eq!(claim(vec![ea, eb, ec], later).await, sorted(vec![ea, eb]), "due again after the lease; sent: never");

    let stranger = InvitationId(Uuid::now_v7());
    let asked = vec![invs[0], invs[1], stranger];
    let found = store.read(move |tx| Box::pin(async move { tx.list_invitations_by_ids(&asked).await })).await.unwrap();
    let mut ids: Vec<InvitationId> = found.iter().map(|i| i.id).collect();
    ids.sort();
    let mut want = vec![invs[0], invs[1]];
    want.sort();
    assert_eq!(ids, want, "both organizations' invitations, nothing for an unknown id");
    let none = store.read(move |tx| Box::pin(async move { tx.list_invitations_by_ids(&[]).await })).await.unwrap();
    assert!(none.is_empty());
}

pub async fn concurrent_email_deliveries_send_each_email_once<S: Store + Clone>(store: S) {
    use std::sync::atomic::Ordering::SeqCst;
    let (mut svc, clock) = services(store);
    let mailer = Arc::new(talent_domain::fakes::FakeMailer::default());
    svc.invites = Arc::new(talent_domain::usecases::invitations::InvitationKit {
        mailer: mailer.clone(),
        public_url: "http://talent.test".into(),
        sandbox: true,
        wake_emails: talent_domain::usecases::invitations::no_wakeup(),
        texts: Arc::new(talent_domain::fakes::FakeTexts),
    });
    let o = new_org(&svc, "business", &[]).await.id;
    // The relay is down while the invitations are made: their emails stay queued.
    mailer.fail.store(true, SeqCst);
    let (once, _) = svc.create_invitation(o, emailed_invitation("once@example.com")).await.unwrap();
    let (revoked, _) = svc.create_invitation(o, emailed_invitation("never@example.com")).await.unwrap();
    svc.revoke_invitation(o, revoked.invitation.id).await.unwrap();
    assert_eq!(svc.deliver_emails().await.unwrap(), 0, "the relay is down");
    mailer.fail.store(false, SeqCst);
    assert_eq!(svc.deliver_emails().await.unwrap(), 0, "not due before the retry delay");
    clock.advance(Duration::minutes(2));
    let runs: Vec<_> = (0..8)
        .map(|_| {
            let svc = svc.clone();
            tokio::spawn(async move { svc.deliver_emails().await.unwrap() })
        })
        .collect();
    let mut sent = 0;
    for r in runs {
        sent += r.await.unwrap();
    }
    assert_eq!(sent, 1, "one run sent it");
    let to: Vec<String> = mailer.sent.lock().unwrap().iter().map(|m| m.to.as_str().to_string()).collect();
    assert_eq!(to, ["once@example.com"], "the revoked invitation's email is never sent");
    assert_eq!(svc.deliver_emails().await.unwrap(), 0, "nothing is due any more");
    let stored = svc.emails(Some(email("once@example.com")), 10).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert!(stored[0].sent_at.is_some(), "{:?}", stored[0]);
    let never = svc.emails(Some(email("never@example.com")), 10).await.unwrap();
    assert!(never[0].sent_at.is_none(), "{:?}", never[0]);
    // The invitation shows when its email went (T202: two columns stamped), and nothing else
    // of it changed.
    let after = svc.get_invitation(o, once.invitation.id).await.unwrap().invitation;
    assert_eq!(after.email_sent_at, stored[0].sent_at);
    assert_eq!(after.updated_at, stored[0].sent_at.unwrap());
    let unchanged = talent_domain::invitation::Invitation {
        email_sent_at: once.invitation.email_sent_at,
        updated_at: once.invitation.updated_at,
        ..after.clone()
    };
    assert_eq!(unchanged, once.invitation);
    let untouched = svc.get_invitation(o, revoked.invitation.id).await.unwrap().invitation;
    assert_eq!(untouched.email_sent_at, None);
}
