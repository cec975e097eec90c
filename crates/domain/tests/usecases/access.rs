//! Authentication and authorization (spec Authentication 1-7, Errors; D4, D5, D41) and API keys (D39).

use super::*;

// ---------------------------------------------------------------------------------------------
// Authentication and authorization: spec Authentication 1-7, Errors; D4, D5, D41
// ---------------------------------------------------------------------------------------------

fn user(w: &World, org: OrgId, mail: &str, role: OrgRole) -> User {
    block_on(w.svc.create_user(org, email(mail), role)).unwrap()
}

fn key(w: &World, u: &User, scopes: &[Scope], expires_at: Option<OffsetDateTime>) -> CreatedKey {
    block_on(w.svc.create_api_key(u.id, None, Scopes::new(scopes.to_vec()), expires_at)).unwrap()
}

fn auth(w: &World, header: Option<&str>) -> Result<Principal, UseCaseError> {
    block_on(w.svc.authenticate(header))
}

fn principal(w: &World, value: &str) -> Principal {
    auth(w, Some(&format!("Bearer {value}"))).unwrap()
}

const READ_PERSONS: Requirement = Requirement { scope: Some(Scope::PersonsRead), write: false };
const WRITE_PERSONS: Requirement = Requirement { scope: Some(Scope::PersonsWrite), write: true };
const ME: Requirement = Requirement { scope: None, write: false };

#[test]
fn a_missing_authorization_header_is_unauthorized() {
    // Spec Errors: `unauthorized` = key missing.
    let w = world();
    assert_eq!(code(auth(&w, None)), Code::Unauthorized);
}

#[test]
fn a_malformed_or_non_bearer_header_is_an_invalid_token() {
    // Spec Authentication 1 (Bearer only) and D41 key format; Errors: `invalid_token`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsRead], None);
    for h in [
        "Basic x".to_string(),
        format!("Basic {}", k.value),
        "Bearer".to_string(),
        "Bearer tk_short".to_string(),
        "Bearer not-a-key".to_string(),
        k.value.clone(),
        format!("Bearer {}+", &k.value[..k.value.len() - 1]),
    ] {
        assert_eq!(code(auth(&w, Some(&h))), Code::InvalidToken, "{h}");
    }
}

#[test]
fn an_unknown_key_or_a_wrong_secret_is_an_invalid_token() {
    // Spec Errors: `invalid_token` = key unknown; D41: lookup by prefix, then hash comparison.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsRead], None);
    let unknown = format!("Bearer tk_{}", "z".repeat(59));
    assert_eq!(code(auth(&w, Some(&unknown))), Code::InvalidToken);
    let wrong_secret = format!("Bearer {}x", &k.value[..k.value.len() - 1]);
    assert_ne!(wrong_secret, format!("Bearer {}", k.value));
    assert_eq!(code(auth(&w, Some(&wrong_secret))), Code::InvalidToken);
}

#[test]
fn a_revoked_key_is_refused_with_key_revoked() {
    // Spec Authentication 2 (revocation takes effect immediately); Errors: `key_revoked`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsRead], None);
    principal(&w, &k.value);
    let r = block_on(w.svc.revoke_api_key(k.key.id)).unwrap();
    assert!(r.revoked_at.is_some());
    assert_eq!(code(auth(&w, Some(&format!("Bearer {}", k.value)))), Code::KeyRevoked);
    // Revoking again changes nothing.
    assert_eq!(block_on(w.svc.revoke_api_key(k.key.id)).unwrap().revoked_at, r.revoked_at);
}

#[test]
fn an_expired_key_is_refused_with_key_expired() {
    // Spec Authentication 4 (optional expiry); Errors: `key_expired`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let expires = w.clock.now() + Duration::hours(1);
    let k = key(&w, &u, &[Scope::PersonsRead], Some(expires));
    assert_eq!(k.key.expires_at, Some(expires));
    principal(&w, &k.value);
    w.clock.advance(Duration::hours(2));
    assert_eq!(code(auth(&w, Some(&format!("Bearer {}", k.value)))), Code::KeyExpired);
}

#[test]
fn a_valid_key_authenticates_to_its_user_organization_and_plan() {
    // Spec Authentication 1; GET /me key identity fields.
    let w = world();
    let u = user(&w, w.org, "member@acme.test", OrgRole::Member);
    let k = key(&w, &u, &[Scope::PersonsWrite, Scope::OrganizationRead], None);
    assert!(k.value.starts_with("tk_"));
    assert!(k.value.len() >= 43, "D41: tk_ and at least 40 characters");
    let p = principal(&w, &k.value);
    assert_eq!(p.ctx.key.id, k.key.id);
    assert_eq!(p.ctx.key.user_id, u.id);
    assert_eq!(p.ctx.org.id, w.org);
    assert_eq!(p.ctx.role, OrgRole::Member);
    assert_eq!(p.plan.as_ref().map(|pl| pl.id.as_str()), Some("professional"));
    let me = talent_domain::wire::key_identity_json(&p.ctx);
    assert_eq!(me["scopes"], json!(["organization:read", "persons:write"]));
    assert_eq!(me["organizationRole"], json!("member"));
    assert_eq!(me["plan"], json!("professional"));
    // The scheme is case-insensitive; it ends at the first space, and the key's surrounding
    // whitespace is not part of it (T323 finds that space byte by byte).
    for h in [format!("bearer {}", k.value), format!("BEARER  {}\t", k.value), format!("Bearer {} ", k.value)] {
        assert_eq!(auth(&w, Some(&h)).unwrap().ctx.key.id, k.key.id, "{h:?}");
    }
    for h in [
        format!(" Bearer {}", k.value),
        format!("Bearer\t{}", k.value),
        format!("Bearerx {}", k.value),
        "Bearer ".into(),
    ] {
        assert_eq!(code(auth(&w, Some(&h))), Code::InvalidToken, "{h:?}");
    }
}

#[test]
fn a_starter_plan_key_gets_plan_upgrade_required_even_on_me() {
    // D5: every endpoint, `/me` included.
    let w = world_with(PlanCatalogue::default(), "starter", SubscriptionStatus::Active, &[]);
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &Scope::ALL, None);
    let p = principal(&w, &k.value);
    assert_eq!(p.authorize(ME).unwrap_err().code, Code::PlanUpgradeRequired);
    assert_eq!(p.authorize(READ_PERSONS).unwrap_err().code, Code::PlanUpgradeRequired);
    assert_eq!(p.authorize(WRITE_PERSONS).unwrap_err().code, Code::PlanUpgradeRequired);
}

#[test]
fn a_key_without_the_required_scope_gets_insufficient_scope() {
    // Spec Authentication 7; Errors: `insufficient_scope`. `/me` requires no scope.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::OrganizationRead, Scope::PersonsRead], None);
    let p = principal(&w, &k.value);
    assert_eq!(p.authorize(ME), Ok(()));
    assert_eq!(p.authorize(READ_PERSONS), Ok(()));
    let e = p.authorize(WRITE_PERSONS).unwrap_err();
    assert_eq!(e.code, Code::InsufficientScope);
    assert_eq!(e.details, Some(json!({"requiredScope": "persons:write"})));
    let e = p.authorize(Requirement { scope: Some(Scope::ResultsRead), write: false }).unwrap_err();
    assert_eq!(e.code, Code::InsufficientScope);
}

#[test]
fn webhooks_manage_acts_only_while_the_keys_owner_is_an_administrator() {
    // Spec Authentication 5, T123: checked at creation and on every request, so a key made by an
    // administrator who is then made a member stops managing webhooks (its other scopes act).
    const MANAGE: Requirement = Requirement { scope: Some(Scope::WebhooksManage), write: true };
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::WebhooksManage, Scope::PersonsRead], None);
    assert_eq!(principal(&w, &k.value).authorize(MANAGE), Ok(()));
    let id = u.id;
    use talent_domain::ports::Store;
    block_on(w.svc.store.write(move |tx| Box::pin(async move { tx.update_user_role(id, OrgRole::Member).await })))
        .unwrap();
    let p = principal(&w, &k.value);
    let e = p.authorize(MANAGE).unwrap_err();
    assert_eq!(e.code, Code::InsufficientScope);
    assert_eq!(e.details, Some(json!({"requiredScope": "webhooks:manage"})));
    assert_eq!(p.authorize(READ_PERSONS), Ok(()), "the key's other scopes still act");
    assert_eq!(p.acting_scopes(), Scopes::new(vec![Scope::PersonsRead]), "what the events feed reads by");
    assert!(p.ctx.key.scopes.contains(Scope::WebhooksManage), "the key keeps the scope");
    let member = user(&w, w.org, "member@acme.test", OrgRole::Member);
    let refused = block_on(w.svc.create_api_key(member.id, None, Scopes::new(vec![Scope::WebhooksManage]), None));
    assert_eq!(code(refused), Code::InsufficientScope);
}

#[test]
fn persons_write_implies_persons_read() {
    // Spec Authentication 7: a `*:write` scope implies the matching `*:read`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let p = principal(&w, &key(&w, &u, &[Scope::PersonsWrite], None).value);
    assert_eq!(p.authorize(READ_PERSONS), Ok(()));
    assert_eq!(p.authorize(WRITE_PERSONS), Ok(()));
    assert_eq!(
        p.authorize(Requirement { scope: Some(Scope::OrganizationRead), write: false }).unwrap_err().code,
        Code::InsufficientScope
    );
}

#[test]
fn writes_with_an_inactive_subscription_get_subscription_inactive_while_reads_pass() {
    // D4: `trial_expired`, `needs_plan`, `canceled` refuse writes; reads always work.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsWrite], None);
    for status in [SubscriptionStatus::Canceled, SubscriptionStatus::TrialExpired, SubscriptionStatus::NeedsPlan] {
        set_subscription(&w, status);
        let p = principal(&w, &k.value);
        let e = p.authorize(WRITE_PERSONS).unwrap_err();
        assert_eq!(e.code, Code::SubscriptionInactive, "{status:?}");
        assert_eq!(e.details, Some(json!({"status": status.as_str()})));
        assert_eq!(p.authorize(READ_PERSONS), Ok(()), "{status:?}");
        assert_eq!(p.authorize(ME), Ok(()), "{status:?}");
    }
}

#[test]
fn writes_are_allowed_while_trialing_active_or_past_due() {
    // D4: `trialing`, `active`, `past_due` allow writes.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let k = key(&w, &u, &[Scope::PersonsWrite], None);
    for status in [SubscriptionStatus::PastDue, SubscriptionStatus::Trialing, SubscriptionStatus::Active] {
        set_subscription(&w, status);
        assert_eq!(principal(&w, &k.value).authorize(WRITE_PERSONS), Ok(()), "{status:?}");
    }
}

#[test]
fn a_missing_scope_is_reported_before_an_inactive_subscription() {
    // Principal::authorize order: plan, scope, subscription.
    let w = world_with(PlanCatalogue::default(), "professional", SubscriptionStatus::Canceled, &[]);
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let p = principal(&w, &key(&w, &u, &[Scope::PersonsRead], None).value);
    assert_eq!(p.authorize(WRITE_PERSONS).unwrap_err().code, Code::InsufficientScope);
}

// ---------------------------------------------------------------------------------------------
// API keys: spec Authentication 3-5; D39
// ---------------------------------------------------------------------------------------------

#[test]
fn the_eleventh_active_key_of_a_user_is_a_conflict_and_a_revoked_key_frees_a_slot() {
    // Spec Authentication 3 (at most 10 active keys per user); D39: the 11th gives 409 `conflict`.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let keys: Vec<CreatedKey> = (0..10).map(|_| key(&w, &u, &[Scope::PersonsRead], None)).collect();
    let create = || block_on(w.svc.create_api_key(u.id, None, Scopes::new(vec![Scope::PersonsRead]), None));
    let e = client_err(create());
    assert_eq!(e.code, Code::Conflict);
    assert_eq!(e.details, Some(json!({"active": 10, "limit": 10})));
    assert_eq!(w.store.snapshot().keys.len(), 10);

    // Another user has their own 10.
    let v = user(&w, w.org, "member@acme.test", OrgRole::Member);
    key(&w, &v, &[Scope::PersonsRead], None);

    block_on(w.svc.revoke_api_key(keys[3].key.id)).unwrap();
    let eleventh = create().unwrap();
    principal(&w, &eleventh.value);
    assert_eq!(code(create()), Code::Conflict);
}

#[test]
fn an_expired_key_frees_a_slot() {
    // Spec Authentication 3: only active keys count; an expired key is not active.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    key(&w, &u, &[Scope::PersonsRead], Some(w.clock.now() + Duration::minutes(10)));
    for _ in 0..9 {
        key(&w, &u, &[Scope::PersonsRead], None);
    }
    let create = || block_on(w.svc.create_api_key(u.id, None, Scopes::new(vec![Scope::PersonsRead]), None));
    assert_eq!(code(create()), Code::Conflict);
    w.clock.advance(Duration::minutes(11));
    assert!(create().is_ok());
}

#[test]
fn a_webhooks_manage_key_requires_an_administrator() {
    // Spec Authentication 5; D39: `webhooks:manage` for a member gives 403 `insufficient_scope`.
    let w = world();
    let m = user(&w, w.org, "member@acme.test", OrgRole::Member);
    let a = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let r =
        block_on(w.svc.create_api_key(m.id, None, Scopes::new(vec![Scope::PersonsRead, Scope::WebhooksManage]), None));
    assert_eq!(code(r), Code::InsufficientScope);
    assert!(w.store.snapshot().keys.is_empty());
    let k = block_on(w.svc.create_api_key(a.id, Some("hooks".into()), Scopes::new(vec![Scope::WebhooksManage]), None))
        .unwrap();
    assert_eq!(k.key.scopes.to_strings(), vec!["webhooks:manage"]);
    assert_eq!(k.key.name.as_deref(), Some("hooks"));
    // A member may create keys with any other scope.
    let all_but: Vec<Scope> = Scope::ALL.into_iter().filter(|s| *s != Scope::WebhooksManage).collect();
    key(&w, &m, &all_but, None);
}

#[test]
fn a_key_expiry_in_the_past_is_a_validation_error() {
    // Spec Authentication 4; D37 details shape.
    let w = world();
    let u = user(&w, w.org, "admin@acme.test", OrgRole::Admin);
    let past = w.clock.now() - Duration::seconds(1);
    let e = client_err(block_on(w.svc.create_api_key(u.id, None, Scopes::new(vec![Scope::PersonsRead]), Some(past))));
    assert_eq!(e.code, Code::ValidationError);
    assert_eq!(e.details, Some(json!({"fields": [{"field": "expiresAt", "message": "must be in the future"}]})));
    assert!(w.store.snapshot().keys.is_empty());
}

#[test]
fn a_key_for_an_unknown_user_is_not_found() {
    let w = world();
    let r = block_on(w.svc.create_api_key(
        UserId(uuid::Uuid::from_u128(5)),
        None,
        Scopes::new(vec![Scope::PersonsRead]),
        None,
    ));
    assert_eq!(code(r), Code::NotFound);
}
