//! Invitations and their one-time consent codes (`InvitationRepo`; D18, D19, D21, D53).

use super::*;

/// D18, D19, D21: an invitation round-trips; inviting the same email again answers the pending
/// invitation; acceptance makes one active member and answers 409 `conflict` the second time.
pub async fn invitations_round_trip_and_acceptance_makes_one_member<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let hosts = talent_domain::usecases::orgs::OrganizationPatch {
        redirect_hosts: Some(vec!["jobs.example.com".into()]),
        ..Default::default()
    };
    svc.patch_organization(o, hosts).await.unwrap();
    let mut input = emailed_invitation("Invitee@Example.com");
    input.first_name = Some(name("Ida"));
    input.external_id = Some(ext("ats-77"));
    // T217-T219: the person's side of the invitation is stored and read back as given.
    input.candidate = talent_domain::invitation::CandidateOptions {
        locale: Some(Locale::PtBr),
        time_zone: Some(TimeZone::parse("America/Sao_Paulo").unwrap()),
        accommodations: Some(Accommodations::new(100, false, true, Some("Pausas a cada 20 min".into())).unwrap()),
        redirect_url: Some(talent_domain::invitation::RedirectUrl::parse("https://jobs.example.com/obrigado").unwrap()),
    };
    let (made, created) = svc.create_invitation(o, input.clone()).await.unwrap();
    assert_eq!(made.invitation.candidate, input.candidate);
    assert!(created);
    let inv = made.invitation;
    assert_eq!(inv.email.as_str(), "invitee@example.com");
    assert_eq!(inv.status, InvitationStatus::Pending);
    assert_eq!(svc.get_invitation(o, inv.id).await.unwrap().invitation, inv, "round trip");
    let (again, created) = svc.create_invitation(o, input).await.unwrap();
    assert!(!created, "D18: the pending invitation of that email");
    assert_eq!(again.invitation.id, inv.id);
    let other = new_org(&svc, "business", &[]).await.id;
    assert_eq!(code(svc.get_invitation(other, inv.id).await), Code::NotFound, "another organization's");

    let (accepted, person) = svc.accept_invitation(inv.id, false).await.unwrap();
    assert_eq!(accepted.invitation.status, InvitationStatus::Accepted);
    assert_eq!(accepted.invitation.person_id, Some(person.id));
    assert_eq!(person.email.as_str(), "invitee@example.com");
    assert_eq!(person.external_id, Some(ext("ats-77")));
    assert_eq!(count_active(&svc, o).await, 1);
    assert_eq!(code(svc.accept_invitation(inv.id, false).await), Code::Conflict, "not pending any more");
    assert_eq!(count_active(&svc, o).await, 1);
    let types: Vec<EventType> = events(&svc, o).await.iter().map(|e| e.event_type).collect();
    assert_eq!(types.iter().filter(|t| **t == EventType::InvitationAccepted).count(), 1, "{types:?}");
    assert_eq!(types.iter().filter(|t| **t == EventType::PersonJoined).count(), 1, "{types:?}");
}

/// D21: four concurrent sweeps expire a due invitation exactly once, with one
/// `invitation.expired` event; an invitation not yet due stays pending.
pub async fn concurrent_expiry_sweeps_expire_each_invitation_once<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let mut short = emailed_invitation("short@example.com");
    short.send_email = false;
    short.expires_in_days = Some(1);
    let (due, _) = svc.create_invitation(o, short).await.unwrap();
    let mut long = emailed_invitation("long@example.com");
    long.send_email = false;
    long.expires_in_days = Some(30);
    let (later, _) = svc.create_invitation(o, long).await.unwrap();
    clock.advance(Duration::days(2));
    let sweeps: Vec<_> = (0..4)
        .map(|_| {
            let svc = svc.clone();
            tokio::spawn(async move { svc.sweep_invitations().await.unwrap().0 })
        })
        .collect();
    let mut expired = 0;
    for s in sweeps {
        expired += s.await.unwrap();
    }
    assert_eq!(expired, 1, "exactly one sweep expired it");
    assert_eq!(svc.sweep_invitations().await.unwrap().0, 0, "nothing left to expire");
    let stored = |id| read(&svc, move |tx| Box::pin(async move { tx.get_invitation_any(id).await }));
    assert_eq!(stored(due.invitation.id).await.unwrap().status, InvitationStatus::Expired);
    assert_eq!(stored(later.invitation.id).await.unwrap().status, InvitationStatus::Pending);
    let n = events(&svc, o).await.iter().filter(|e| e.event_type == EventType::InvitationExpired).count();
    assert_eq!(n, 1);
}

/// D53: `list_consent_codes_of_address_since` returns the codes sent after `since` for every
/// invitation of the organization to the address (a revoked one too), and none of another
/// address, of the same address in another organization, or sent at or before `since`.
pub async fn codes_of_an_address_span_its_invitations_in_one_organization_d53<S: Store + Clone>(store: S) {
    use talent_domain::consent::ConsentCode;
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let invite =
        |e: &str| talent_domain::usecases::invitations::NewInvitation { send_email: false, ..emailed_invitation(e) };
    let (first, _) = svc.create_invitation(org, invite("ada@example.com")).await.unwrap();
    svc.revoke_invitation(org, first.invitation.id).await.unwrap();
    let (second, _) = svc.create_invitation(org, invite("ada@example.com")).await.unwrap();
    let (bob, _) = svc.create_invitation(org, invite("bob@example.com")).await.unwrap();
    let (elsewhere, _) = svc.create_invitation(other, invite("ada@example.com")).await.unwrap();
    let since = clock.now();
    let mut codes = Vec::new();
    // (invitation, seconds after `since`): the one at 0 is not after `since`.
    for (inv, at) in [
        (first.invitation.id, 0),
        (first.invitation.id, 1),
        (second.invitation.id, 2),
        (second.invitation.id, 3),
        (bob.invitation.id, 4),
        (elsewhere.invitation.id, 5),
    ] {
        let created = since + Duration::seconds(at);
        codes.push(ConsentCode {
            id: ConsentCodeId(Uuid::now_v7()),
            invitation_id: inv,
            code_hash: vec![at as u8; 32],
            tries: 0,
            used_at: None,
            expires_at: created + talent_domain::consent::CODE_VALIDITY,
            created_at: created,
        });
    }
    let stored = codes.clone();
    write(&svc, move |tx| {
        Box::pin(async move {
            for c in &stored {
                tx.insert_consent_code(c).await?;
            }
            Ok(())
        })
    })
    .await
    .unwrap();
    let of = |o: OrgId, e: &'static str| {
        let svc = svc.clone();
        async move {
            let mut got = read(&svc, move |tx| {
                Box::pin(async move { tx.list_consent_codes_of_address_since(o, &email(e), since).await })
            })
            .await;
            got.sort_by_key(|c| c.created_at);
            got
        }
    };
    assert_eq!(of(org, "ada@example.com").await, codes[1..4].to_vec(), "both invitations, after `since` only");
    assert_eq!(of(org, "bob@example.com").await, codes[4..5].to_vec());
    assert_eq!(of(other, "ada@example.com").await, codes[5..6].to_vec(), "per organization");
    assert!(of(org, "nobody@example.com").await.is_empty());
}
