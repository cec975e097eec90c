//! `GET /persons` (spec query parameters; D36) and organization usage (D6).

use super::*;
use talent_domain::ports::PersonStatusFilter;

// ---------------------------------------------------------------------------------------------
// GET /persons: spec query parameters; D36
// ---------------------------------------------------------------------------------------------

struct Pool {
    w: World,
    ada: Person,
    grace: Person,
    linus: Person,
    ken: Person,
    dennis: Person,
}

/// Five persons, created in this order; dennis is archived.
fn pool() -> Pool {
    let w = world();
    let ada = imported(
        &w,
        ImportPerson {
            first_name: Some(name("Ada")),
            last_name: Some(name("Lovelace")),
            external_id: Some(ext("ext-1")),
            tags: tags(&["Rust"]),
            ..import("ada@example.org")
        },
    );
    let grace = imported(
        &w,
        ImportPerson {
            first_name: Some(name("Grace")),
            last_name: Some(name("Hopper")),
            labels: Some(labels(&["employee"])),
            tags: tags(&["rust", "cobol"]),
            ..import("grace@navy.mil")
        },
    );
    let linus = imported(&w, ImportPerson { labels: Some(labels(&[])), ..import("linus@kernel.org") });
    let ken = imported(
        &w,
        ImportPerson {
            first_name: Some(name("Ken")),
            labels: Some(labels(&["candidate", "employee"])),
            ..import("ken@bell-labs.com")
        },
    );
    let dennis = imported(
        &w,
        ImportPerson { first_name: Some(name("Dennis")), tags: tags(&["C"]), ..import("dennis@bell-labs.com") },
    );
    let dennis = block_on(w.svc.archive_person(w.org, dennis.id)).unwrap();
    // Noise in another organization.
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    block_on(w.svc.import_person(other, ImportPerson { tags: tags(&["rust"]), ..import("ada@example.org") })).unwrap();
    Pool { w, ada, grace, linus, ken, dennis }
}

impl Pool {
    fn q(&self) -> PersonQuery {
        PersonQuery { org_id: Some(self.w.org), limit: 25, ..Default::default() }
    }
    fn ids(&self, q: PersonQuery) -> Vec<PersonId> {
        block_on(self.w.svc.list_persons(q)).unwrap().items.iter().map(|p| p.id).collect()
    }
}

#[test]
fn listing_returns_active_persons_of_the_organization_newest_first() {
    // Spec GET /persons: newest first, status default active; D36.
    let p = pool();
    let page = block_on(p.w.svc.list_persons(p.q())).unwrap();
    assert_eq!(page.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.ken.id, p.linus.id, p.grace.id, p.ada.id]);
    assert!(!page.has_more);
    assert_eq!(page.items[3], p.ada, "full persons are returned");
    assert!(page.items.iter().all(|x| x.org_id == p.w.org));
}

#[test]
fn listing_paginates_with_before_id_and_reports_has_more() {
    // D36 keyset pagination; spec pagination.hasMore.
    let p = pool();
    let page1 = block_on(p.w.svc.list_persons(PersonQuery { limit: 2, ..p.q() })).unwrap();
    assert_eq!(page1.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.ken.id, p.linus.id]);
    assert!(page1.has_more);
    let page2 = block_on(p.w.svc.list_persons(PersonQuery { limit: 2, before_id: Some(p.linus.id), ..p.q() })).unwrap();
    assert_eq!(page2.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.grace.id, p.ada.id]);
    assert!(!page2.has_more, "exactly the last two");
    let page3 = block_on(p.w.svc.list_persons(PersonQuery { limit: 1, before_id: Some(p.grace.id), ..p.q() })).unwrap();
    assert_eq!(page3.items.iter().map(|x| x.id).collect::<Vec<_>>(), vec![p.ada.id]);
    assert!(!page3.has_more);
    let exact = block_on(p.w.svc.list_persons(PersonQuery { limit: 4, ..p.q() })).unwrap();
    assert_eq!(exact.items.len(), 4);
    assert!(!exact.has_more);
    let short = block_on(p.w.svc.list_persons(PersonQuery { limit: 3, ..p.q() })).unwrap();
    assert_eq!(short.items.len(), 3);
    assert!(short.has_more);
}

#[test]
fn listing_filters_by_status_email_and_external_id() {
    // Spec GET /persons: status, email (exact), externalId (exact).
    let p = pool();
    assert_eq!(p.ids(PersonQuery { status: PersonStatusFilter::Archived, ..p.q() }), vec![p.dennis.id]);
    assert_eq!(p.ids(PersonQuery { status: PersonStatusFilter::Active, ..p.q() }).len(), 4);
    assert_eq!(p.ids(PersonQuery { status: PersonStatusFilter::Any, ..p.q() }).len(), 5, "issue 15: both at once");
    assert_eq!(p.ids(PersonQuery { email: Some(email(" Grace@Navy.MIL")), ..p.q() }), vec![p.grace.id]);
    assert_eq!(p.ids(PersonQuery { email: Some(email("dennis@bell-labs.com")), ..p.q() }), Vec::<PersonId>::new());
    assert_eq!(
        p.ids(PersonQuery {
            email: Some(email("dennis@bell-labs.com")),
            status: PersonStatusFilter::Archived,
            ..p.q()
        }),
        vec![p.dennis.id]
    );
    assert_eq!(p.ids(PersonQuery { external_id: Some("ext-1".into()), ..p.q() }), vec![p.ada.id]);
    assert_eq!(p.ids(PersonQuery { external_id: Some("EXT-1".into()), ..p.q() }), Vec::<PersonId>::new());
}

#[test]
fn listing_filters_by_label_including_other() {
    // Spec GET /persons label: `other` matches persons without any label.
    let p = pool();
    assert_eq!(p.ids(PersonQuery { label: Some(LabelFilter::Candidate), ..p.q() }), vec![p.ken.id, p.ada.id]);
    assert_eq!(p.ids(PersonQuery { label: Some(LabelFilter::Employee), ..p.q() }), vec![p.ken.id, p.grace.id]);
    assert_eq!(p.ids(PersonQuery { label: Some(LabelFilter::Other), ..p.q() }), vec![p.linus.id]);
}

#[test]
fn listing_filters_by_tag_case_insensitively() {
    // Spec GET /persons tag: case-insensitive exact match (the caller lower-cases); D14.
    let p = pool();
    assert_eq!(p.ids(PersonQuery { tag_key: Some("rust".into()), ..p.q() }), vec![p.grace.id, p.ada.id]);
    assert_eq!(p.ids(PersonQuery { tag_key: Some("cobol".into()), ..p.q() }), vec![p.grace.id]);
    assert_eq!(p.ids(PersonQuery { tag_key: Some("rus".into()), ..p.q() }), Vec::<PersonId>::new());
    assert_eq!(p.ids(PersonQuery { tag_key: Some("c".into()), ..p.q() }), Vec::<PersonId>::new(), "archived dennis");
}

#[test]
fn listing_searches_q_as_a_substring_of_names_and_email() {
    // Spec GET /persons q: case-insensitive substring across first name, last name and email.
    let p = pool();
    assert_eq!(p.ids(PersonQuery { q: Some("ada".into()), ..p.q() }), vec![p.ada.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("hopp".into()), ..p.q() }), vec![p.grace.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("bell-labs".into()), ..p.q() }), vec![p.ken.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("kernel".into()), ..p.q() }), vec![p.linus.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("e".into()), ..p.q() }), vec![p.ken.id, p.linus.id, p.grace.id, p.ada.id]);
    assert_eq!(p.ids(PersonQuery { q: Some("zzz".into()), ..p.q() }), Vec::<PersonId>::new());
    assert_eq!(
        p.ids(PersonQuery { q: Some("e".into()), label: Some(LabelFilter::Employee), limit: 1, ..p.q() }),
        vec![p.ken.id],
        "filters combine"
    );
}

#[test]
fn listing_filters_by_updated_after_exclusively() {
    // Spec GET /persons updatedAfter: only persons changed after this moment (incremental sync).
    let p = pool();
    let mark = p.ken.updated_at;
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark), ..p.q() }), Vec::<PersonId>::new(), "exclusive");
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark - Duration::microseconds(1)), ..p.q() }), vec![p.ken.id]);
    p.w.clock.advance(Duration::seconds(1));
    patch(&p.w, p.ada.id, PatchPerson { external_id: Some(None), ..Default::default() }).unwrap();
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark), ..p.q() }), vec![p.ada.id]);
    // A no-op patch does not make a person show up.
    patch(&p.w, p.grace.id, PatchPerson { labels: Some(labels(&["employee"])), ..Default::default() }).unwrap();
    assert_eq!(p.ids(PersonQuery { updated_after: Some(mark), ..p.q() }), vec![p.ada.id]);
}

// ---------------------------------------------------------------------------------------------
// Organization usage: D6
// ---------------------------------------------------------------------------------------------

fn usage(w: &World) -> Usage {
    block_on(w.svc.organization(w.org)).unwrap().1
}

#[test]
fn usage_counts_active_persons_and_blocks_imports_at_the_limit() {
    // D6: importBlocked when used >= limit; an archived person frees a seat.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    assert_eq!(
        usage(&w),
        Usage { persons_used: 0, persons_limit: 3, import_blocked: false, profiles_used: 0, profiles_limit: 25 }
    );
    let a = imported(&w, import("a@example.com"));
    imported(&w, import("b@example.com"));
    assert_eq!((usage(&w).persons_used, usage(&w).import_blocked), (2, false));
    imported(&w, import("c@example.com"));
    assert_eq!((usage(&w).persons_used, usage(&w).import_blocked), (3, true));
    block_on(w.svc.archive_person(w.org, a.id)).unwrap();
    assert_eq!((usage(&w).persons_used, usage(&w).import_blocked), (2, false));

    let (org, u) = block_on(w.svc.organization(w.org)).unwrap();
    let j = organization_json(&org, &u);
    assert_eq!(j["usage"]["persons"], json!({"used": 2, "limit": 3, "importBlocked": false}));
    assert_eq!(j["subscription"]["plan"], json!("professional"));
}

#[test]
fn usage_blocks_imports_while_the_subscription_is_inactive() {
    // D6 with D4: importBlocked when writes are refused.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    imported(&w, import("a@example.com"));
    for (status, blocked) in [
        (SubscriptionStatus::Canceled, true),
        (SubscriptionStatus::TrialExpired, true),
        (SubscriptionStatus::NeedsPlan, true),
        (SubscriptionStatus::PastDue, false),
        (SubscriptionStatus::Trialing, false),
        (SubscriptionStatus::Active, false),
    ] {
        set_subscription(&w, status);
        let u = usage(&w);
        assert_eq!(u.import_blocked, blocked, "{status:?}");
        assert_eq!(u.persons_used, 1);
    }
}

#[test]
fn the_usage_of_an_unknown_organization_is_not_found() {
    let w = world();
    assert_eq!(code(block_on(w.svc.organization(OrgId(uuid::Uuid::from_u128(3))))), Code::NotFound);
}

#[test]
fn an_imported_persons_timestamps_are_read_once_the_transaction_begins_not_before_it_waits_t66() {
    let mut w = world();
    let mut store = w.store.clone();
    let clock = w.clock.clone();
    // Every write waits 5 s for its connection before it begins.
    store.on_begin = Some(Arc::new(move || clock.advance(Duration::seconds(5))));
    w.svc.store = Arc::new(store);
    let asked = w.clock.now();
    let p = imported(&w, import("late@example.com"));
    assert!(p.member_since >= asked + Duration::seconds(5), "{} vs {asked}", p.member_since);
    assert_eq!(p.updated_at, p.member_since);
    let events = w.store.snapshot().events;
    let created = events.iter().find(|e| e.data.value()["id"] == json!(p.id.0.to_string())).unwrap();
    assert_eq!(created.created_at, p.member_since, "the event's createdAt is the person's");
}
