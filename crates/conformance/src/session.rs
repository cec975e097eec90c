//! The dashboard's sign-in links and sessions (`SessionRepo`, T122).

use super::*;

pub async fn sign_in_token<S: Store + Clone>(svc: &Svc<S>, to: &str) -> String {
    let sent = svc.emails(Some(email(to)), 1).await.unwrap();
    let url = sent[0].invitation_url.clone().unwrap();
    url.rsplit('/').next().unwrap().to_string()
}

pub async fn sign_in_links_work_once_within_fifteen_minutes_and_sessions_end<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let stranger = new_org(&svc, "business", &[]).await;
    svc.create_user(a.id, email("x@acme.com"), OrgRole::Admin).await.unwrap();
    svc.create_user(b.id, email("X@acme.com"), OrgRole::Member).await.unwrap();

    // An address that is no user's gets the same answer, a stored link and no email.
    assert!(!svc.request_sign_in(email("nobody@acme.com")).await.unwrap().known);
    assert!(svc.emails(Some(email("nobody@acme.com")), 10).await.unwrap().is_empty());

    assert!(svc.request_sign_in(email("x@acme.com")).await.unwrap().known);
    let token = sign_in_token(&svc, "x@acme.com").await;
    let mail = &svc.emails(Some(email("x@acme.com")), 1).await.unwrap()[0];
    assert!(mail.invitation_url.as_deref().unwrap().starts_with("http://talent.test/dashboard/sign-in/"));
    // The link's page offers both organizations and does not use the link.
    let choices = svc.sign_in_choices(&token).await.unwrap();
    assert_eq!(choices.organizations.iter().map(|(id, _)| *id).collect::<BTreeSet<_>>(), BTreeSet::from([a.id, b.id]));
    assert!(svc.sign_in_choices(&token).await.is_ok());
    assert!(matches!(
        svc.sign_in(&token, stranger.id).await,
        Err(talent_domain::usecases::dashboard::SignInError::NotOffered)
    ));

    // Eight concurrent uses of one link: one session.
    let (user, link) = (a.id, &token);
    let uses = race(&svc, 8, |svc, _| {
        let token = link.clone();
        async move { svc.sign_in(&token, user).await }
    });
    let mut started = Vec::new();
    for u in uses.await {
        match u {
            Ok(s) => started.push(s),
            Err(talent_domain::usecases::dashboard::SignInError::Link(talent_domain::dashboard::LinkProblem::Used)) => {
            }
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
    assert_eq!(started.len(), 1, "a link signs in once");
    let s = &started[0];
    let signed = svc.session(&s.token).await.unwrap().unwrap();
    assert_eq!((signed.org.id, signed.user.role), (a.id, OrgRole::Admin));
    assert!(svc.session("forged").await.unwrap().is_none());
    use talent_domain::dashboard::LinkProblem;
    use talent_domain::usecases::dashboard::SignInError;
    assert!(matches!(svc.sign_in("forged", a.id).await, Err(SignInError::Link(LinkProblem::Unknown))));

    // A link unused for 15 minutes has expired.
    svc.request_sign_in(email("x@acme.com")).await.unwrap();
    let late = sign_in_token(&svc, "x@acme.com").await;
    clock.advance(Duration::minutes(15));
    assert!(matches!(svc.sign_in_choices(&late).await, Err(SignInError::Link(LinkProblem::Expired))));
    assert!(matches!(svc.sign_in(&late, a.id).await, Err(SignInError::Link(LinkProblem::Expired))));

    // Sign-out ends the session; a session ends by itself after 12 hours.
    svc.sign_out(signed.session.id).await.unwrap();
    assert!(svc.session(&s.token).await.unwrap().is_none());
    svc.request_sign_in(email("x@acme.com")).await.unwrap();
    let again = svc.sign_in(&sign_in_token(&svc, "x@acme.com").await, b.id).await.unwrap();
    assert_eq!(svc.session(&again.token).await.unwrap().unwrap().org.id, b.id);
    clock.advance(talent_domain::dashboard::SESSION_TTL - Duration::seconds(1));
    assert!(svc.session(&again.token).await.unwrap().is_some());
    clock.advance(Duration::seconds(1));
    assert!(svc.session(&again.token).await.unwrap().is_none());
    // Retention keeps what expired for a day (T242): the expired link still says so.
    assert_eq!(svc.retention(30, 2).await.unwrap().sign_ins, 0);
    assert!(matches!(svc.sign_in_choices(&late).await, Err(SignInError::Link(LinkProblem::Expired))));
    // Then deletes it.
    clock.advance(talent_domain::dashboard::EXPIRED_KEPT);
    let r = svc.retention(30, 2).await.unwrap();
    assert!(r.sign_ins >= 4, "{r:?}");
    assert!(matches!(svc.sign_in_choices(&late).await, Err(SignInError::Link(LinkProblem::Unknown))));
    assert_eq!(svc.retention(30, 2).await.unwrap().sign_ins, 0);
}

pub async fn sign_in_links_per_address_are_limited<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    for _ in 0..talent_domain::dashboard::LINKS_PER_ADDRESS {
        svc.request_sign_in(email("who@acme.com")).await.unwrap();
    }
    let err = svc.request_sign_in(email("WHO@acme.com")).await.unwrap_err();
    let UseCaseError::Client(c) = err else { panic!("{err:?}") };
    assert_eq!((c.code, c.retry_after), (Code::RateLimited, Some(900)));
    assert!(svc.request_sign_in(email("other@acme.com")).await.is_ok(), "per address");
    clock.advance(talent_domain::dashboard::LINK_WINDOW);
    assert!(svc.request_sign_in(email("who@acme.com")).await.is_ok());
}
