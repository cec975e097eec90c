//! Retention (`PrivacyRepo`, D46).

use super::*;

/// D46: in batches of 2, the retention job deletes exactly the stored emails older than the
/// window (30 days), the one-time codes and idempotency records older than 24 hours, and keeps
/// the younger ones, whatever the batch boundaries.
pub async fn retention_purges_emails_codes_and_idempotency_records_exactly_past_their_windows_in_batches<
    S: Store + Clone,
>(
    store: S,
) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await.id;
    let invite = |e: &str| talent_domain::usecases::invitations::NewInvitation {
        expires_in_days: Some(90),
        ..emailed_invitation(e)
    };
    let idem = |k: String| idem_req(org, "/v1/persons", &k, "h");
    let mails = || async { svc.emails(None, 1000).await.unwrap() };
    // t0: five invitation emails and five idempotency records; an access request and its code.
    for i in 0..5 {
        svc.create_invitation(org, invite(&format!("old{i}@example.com"))).await.unwrap();
        svc.idempotency_begin(idem(format!("old-{i}"))).await.unwrap();
    }
    let other = new_org(&svc, "business", &[]).await.id;
    let pa = imported(&svc, other, import("coded@example.com")).await;
    svc.admin_assessment(pa.id, AssessmentCommand { complete: true, ..Default::default() }).await.unwrap();
    let (access, _) = svc.create_invitation(org, invite("coded@example.com")).await.unwrap();
    let token = access.url.rsplit('/').next().unwrap().to_string();
    let code = || async {
        let sent = svc.respond_by_token(&token, true, None, None).await.unwrap();
        assert!(matches!(sent, talent_domain::usecases::invitations::PageAnswer::CodeSent(_)), "{sent:?}");
    };
    code().await;
    assert_eq!(mails().await.len(), 7, "six invitations and one code");
    // t0 + 2 h: two more records and a second code (its email stays: 30 days are not over).
    clock.advance(Duration::hours(2));
    for i in 0..2 {
        svc.idempotency_begin(idem(format!("mid-{i}"))).await.unwrap();
    }
    code().await;
    // t0 + 29 d + 1 h: two emails, two records and a code inside every window.
    clock.advance(Duration::days(29) - Duration::hours(1));
    for i in 0..2 {
        svc.create_invitation(org, invite(&format!("new{i}@example.com"))).await.unwrap();
        svc.idempotency_begin(idem(format!("new-{i}"))).await.unwrap();
    }
    code().await;
    // t0 + 30 d + 1 s, batches of 2.
    clock.advance(Duration::hours(23) + Duration::seconds(1));
    let r = svc.retention(30, 2).await.unwrap();
    assert_eq!((r.emails, r.codes, r.idempotency), (7, 2, 7), "{r:?}");
    let left: Vec<String> = mails().await.iter().map(|e| e.to.to_string()).collect();
    assert_eq!(left.len(), 4, "{left:?}");
    assert_eq!(
        left.iter().cloned().collect::<BTreeSet<_>>(),
        set(&["coded@example.com", "new0@example.com", "new1@example.com"])
    );
    for k in ["new-0", "new-1"] {
        assert!(idem_get(&svc, org, "/v1/persons", k).await.is_some(), "{k} is younger than 24 h");
    }
    assert_eq!(idem_get(&svc, org, "/v1/persons", "mid-0").await, None);
    assert_eq!(svc.retention(30, 2).await.unwrap().total(), 0, "nothing else is past its window");
    // A day on, the third code and the two younger records go too.
    clock.advance(Duration::days(1));
    let r = svc.retention(30, 2).await.unwrap();
    assert_eq!((r.codes, r.idempotency), (1, 2), "{r:?}");
}
