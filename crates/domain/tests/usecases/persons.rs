//! Persons: the import state table (D6, D9, D12), the employee domain rule (D15), tags (D14), PATCH (D13, D16) and DELETE / admin archive (D28, D39).

use super::*;

// ---------------------------------------------------------------------------------------------
// Import (POST /persons): spec person state table; D6, D9, D12
// ---------------------------------------------------------------------------------------------

#[test]
fn importing_a_new_email_creates_an_active_candidate_and_emits_person_created() {
    // Spec state table row "(none) -> active": 201, `person.created`, labels default ["candidate"];
    // D34: the event's data is the Person object.
    let w = world();
    let out = block_on(
        w.svc.import_person(w.org, ImportPerson { first_name: Some(name("Ada")), ..import("ada@example.com") }),
    )
    .unwrap();
    assert!(out.created);
    let p = &out.person;
    assert_eq!(p.org_id, w.org);
    assert_eq!(p.email.as_str(), "ada@example.com");
    assert_eq!(p.first_name, Some(name("Ada")));
    assert_eq!(p.last_name, None);
    assert_eq!(p.external_id, None);
    assert_eq!(p.status, PersonStatus::Active);
    assert_eq!(p.labels.to_vec(), vec!["candidate"]);
    assert_eq!(p.joined_via, JoinedVia::Api);
    assert!(!p.shared_existing_profile);
    assert_eq!(p.assessment, AssessmentSummary::NONE);
    assert_eq!(p.member_since, p.updated_at);
    assert_eq!(p.archived_at, None);
    assert_eq!(get(&w, p.id), *p, "the person is stored as returned");

    let ev = events(&w);
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].event_type, EventType::PersonCreated);
    assert_eq!(ev[0].data.value(), person_json(p));
    assert_eq!(ev[0].data.value()["labels"], json!(["candidate"]));
    assert_eq!(ev[0].data.value()["joinedVia"], json!("api"));
    assert_eq!(ev[0].data.value()["status"], json!("active"));
}

#[test]
fn importing_a_known_email_in_other_case_and_whitespace_merges_into_the_person_and_emits_person_updated() {
    // D9 (trimmed, lower-cased identity) and D12 (200: tags added, names/externalId only where
    // empty, labels unchanged); D47 (a merge that changed the person: `person.updated` with the
    // old values of what changed; one that changed nothing: no event).
    let w = world();
    let first = imported(
        &w,
        ImportPerson { first_name: Some(name("Ada")), tags: tags(&["alpha"]), ..import("ada@example.com") },
    );
    let out = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            first_name: Some(name("Bob")),
            last_name: Some(name("Lovelace")),
            external_id: Some(ext("ext-1")),
            labels: Some(labels(&["employee"])),
            tags: tags(&["Beta"]),
            ..ImportPerson::new(email("  ADA@Example.COM "))
        },
    ))
    .unwrap();
    assert!(!out.created);
    let p = out.person;
    assert_eq!(p.id, first.id);
    assert_eq!(p.first_name, Some(name("Ada")), "a set name is kept");
    assert_eq!(p.last_name, Some(name("Lovelace")), "an empty name is filled");
    assert_eq!(p.external_id, Some(ext("ext-1")), "an empty externalId is filled");
    assert_eq!(p.labels.to_vec(), vec!["candidate"], "labels unchanged");
    assert_eq!(tag_names(&p), vec!["alpha", "Beta"], "tags added");
    assert_eq!(p.member_since, first.member_since);
    assert!(p.updated_at > first.updated_at);
    assert_eq!(get(&w, p.id), p);

    // externalId, once set, is not overwritten by an import either.
    let again = imported(&w, ImportPerson { external_id: Some(ext("ext-2")), ..import("ada@example.com") });
    assert_eq!(again.external_id, Some(ext("ext-1")));

    assert_eq!(w.store.snapshot().persons.len(), 1);
    assert_eq!(
        event_types(&w),
        vec![EventType::PersonCreated, EventType::PersonUpdated],
        "one person.updated for the merge that changed the person, none for the one that did not"
    );
    let ev = events(&w);
    let mut want = person_json(&p);
    want["previousAttributes"] = json!({"lastName": null, "externalId": null, "tags": ["alpha"]});
    assert_eq!(ev[1].data.value(), want);
}

#[test]
fn importing_a_known_email_with_nothing_new_does_not_move_updated_at() {
    // D12: a merge that changes nothing writes nothing.
    let w = world();
    let first =
        imported(&w, ImportPerson { first_name: Some(name("Ada")), tags: tags(&["x"]), ..import("ada@example.com") });
    let before = rows(&w.store);
    w.clock.advance(Duration::minutes(1));
    let out = block_on(w.svc.import_person(
        w.org,
        ImportPerson { first_name: Some(name("Ada")), tags: tags(&["X"]), ..import("ada@example.com") },
    ))
    .unwrap();
    assert!(!out.created);
    assert_eq!(out.person, first);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn importing_an_archived_person_reactivates_keeping_member_since_and_emits_person_created_again() {
    // Spec state table row "archived -> active" (reactivation); D12: 201, `person.created`,
    // archivedAt null, memberSince kept, tags added.
    let w = world();
    let first = imported(&w, ImportPerson { tags: tags(&["old"]), ..import("ada@example.com") });
    let archived = block_on(w.svc.archive_person(w.org, first.id)).unwrap();
    assert!(archived.archived_at.is_some());
    w.clock.advance(Duration::days(1));

    let out = block_on(w.svc.import_person(w.org, ImportPerson { tags: tags(&["new"]), ..import("Ada@example.com") }))
        .unwrap();
    assert!(out.created);
    let p = out.person;
    assert_eq!(p.id, first.id, "same membership");
    assert_eq!(p.status, PersonStatus::Active);
    assert_eq!(p.archived_at, None);
    assert_eq!(p.archive_reason, None);
    assert_eq!(p.member_since, first.member_since);
    assert!(p.updated_at >= first.updated_at + Duration::days(1));
    assert_eq!(tag_names(&p), vec!["new", "old"]);
    assert_eq!(get(&w, p.id), p);
    assert_eq!(w.store.snapshot().persons.len(), 1);

    let ev = events(&w);
    assert_eq!(
        ev.iter().map(|e| e.event_type).collect::<Vec<_>>(),
        vec![EventType::PersonCreated, EventType::PersonArchived, EventType::PersonCreated]
    );
    assert_eq!(ev[2].data.value(), person_json(&p));
    assert_eq!(ev[2].data.value()["archivedAt"], serde_json::Value::Null);
}

#[test]
fn importing_a_person_who_withdrew_gives_person_self_revoked_and_changes_nothing() {
    // Spec state table row "archived, person withdrew": 409 `person_self_revoked`.
    let w = world();
    let p = imported(&w, import("ada@example.com"));
    block_on(w.svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked)).unwrap();
    let before = rows(&w.store);
    let r = block_on(w.svc.import_person(w.org, ImportPerson { tags: tags(&["fresh"]), ..import("ada@example.com") }));
    assert_eq!(code(r), Code::PersonSelfRevoked);
    assert_eq!(rows(&w.store), before);
    assert_eq!(get(&w, p.id).status, PersonStatus::Archived);
}

#[test]
fn importing_a_person_deactivated_by_an_administrator_gives_person_deactivated() {
    // Spec state table row "archived, deactivated by an administrator": 409 `person_deactivated`.
    let w = world();
    let p = imported(&w, import("ada@example.com"));
    block_on(w.svc.admin_archive_person(p.id, ArchiveReason::Deactivated)).unwrap();
    let before = rows(&w.store);
    assert_eq!(code(block_on(w.svc.import_person(w.org, import("ada@example.com")))), Code::PersonDeactivated);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn importing_beyond_the_person_limit_gives_person_limit_reached_and_archiving_frees_a_seat() {
    // Spec Errors: `person_limit_reached` details {used, limit, plan}; D6: enforced at import, an
    // archived person frees a seat; a merge of an active member needs no seat.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    let a = imported(&w, import("a@example.com"));
    let b = imported(&w, import("b@example.com"));
    imported(&w, import("c@example.com"));

    let e = client_err(block_on(w.svc.import_person(w.org, import("d@example.com"))));
    assert_eq!(e.code, Code::PersonLimitReached);
    assert_eq!(e.details, Some(json!({"used": 3, "limit": 3, "plan": "professional"})));

    // An active member is merged even at the limit.
    let merged =
        block_on(w.svc.import_person(w.org, ImportPerson { last_name: Some(name("A")), ..import("a@example.com") }))
            .unwrap();
    assert!(!merged.created);
    assert_eq!(merged.person.id, a.id);

    block_on(w.svc.archive_person(w.org, b.id)).unwrap();
    let d = block_on(w.svc.import_person(w.org, import("d@example.com"))).unwrap();
    assert!(d.created);

    // Reactivating b needs a seat too.
    let e = client_err(block_on(w.svc.import_person(w.org, import("b@example.com"))));
    assert_eq!(e.code, Code::PersonLimitReached);
    assert_eq!(e.details, Some(json!({"used": 3, "limit": 3, "plan": "professional"})));
    assert_eq!(get(&w, b.id).status, PersonStatus::Archived);
}

#[test]
fn a_failed_import_writes_nothing_at_all() {
    // D31 atomicity: no person, no human, no catalogue tag and no event is left behind.
    let w = world_with(small_catalogue(), "professional", SubscriptionStatus::Active, &[]);
    for e in ["a@example.com", "b@example.com", "c@example.com"] {
        imported(&w, ImportPerson { tags: tags(&["known"]), ..import(e) });
    }
    let before = rows(&w.store);
    let r = block_on(w.svc.import_person(
        w.org,
        ImportPerson {
            first_name: Some(name("Dora")),
            external_id: Some(ext("x-4")),
            tags: tags(&["brand-new", "Known"]),
            ..import("d@example.com")
        },
    ));
    assert_eq!(code(r), Code::PersonLimitReached);
    assert_eq!(rows(&w.store), before);
    assert_eq!(before.events.len(), 3);
}

#[test]
fn importing_into_an_unknown_organization_is_not_found() {
    let w = world();
    let r = block_on(w.svc.import_person(OrgId(uuid::Uuid::from_u128(42)), import("a@example.com")));
    assert_eq!(code(r), Code::NotFound);
    assert!(w.store.snapshot().persons.is_empty());
}

#[test]
fn an_address_is_one_person_whichever_spelling_of_its_internationalized_domain_is_imported_d55() {
    // D55 (domains compared and stored in IDNA ASCII form) with D9 and D12: the second spelling
    // merges into the first person; the address is stored and answered in ASCII form.
    let w = world();
    let first = block_on(w.svc.import_person(w.org, import("Jo@München.de"))).unwrap();
    assert!(first.created);
    assert_eq!(first.person.email.as_str(), "jo@xn--mnchen-3ya.de");
    for again in ["jo@xn--mnchen-3ya.de", "JO@XN--MNCHEN-3YA.DE", "jo@mu\u{308}nchen.de"] {
        let out = block_on(w.svc.import_person(w.org, import(again))).unwrap();
        assert!(!out.created, "{again:?}");
        assert_eq!(out.person.id, first.person.id);
    }
    assert_eq!(w.store.snapshot().persons.len(), 1);
    for filter in ["jo@münchen.de", "jo@xn--mnchen-3ya.de"] {
        let q = PersonQuery { org_id: Some(w.org), email: Some(email(filter)), limit: 25, ..Default::default() };
        let found = block_on(w.svc.list_persons(q)).unwrap();
        assert_eq!(found.items.iter().map(|p| p.id).collect::<Vec<_>>(), vec![first.person.id], "{filter}");
    }
    assert_eq!(person_json(&first.person)["email"], json!("jo@xn--mnchen-3ya.de"));
}

// ---------------------------------------------------------------------------------------------
// Employee email-domain rule: D15
// ---------------------------------------------------------------------------------------------

#[test]
fn an_internationalized_employee_domain_matches_either_spelling_of_an_address_d15_d55() {
    // D15 compared as D55 stores: the domain set as `München.de` is kept in ASCII form and
    // matches addresses imported in Unicode or in ASCII.
    let domain = talent_domain::usecases::orgs::parse_domain("@München.de").unwrap();
    assert_eq!(domain, "xn--mnchen-3ya.de");
    assert_eq!(talent_domain::usecases::orgs::parse_domain("xn--mnchen-3ya.de").unwrap(), domain);
    assert!(talent_domain::usecases::orgs::parse_domain("-münchen.de").is_err());
    let w = world_with(PlanCatalogue::default(), "professional", SubscriptionStatus::Active, &[&domain]);
    for address in ["ann@münchen.de", "ben@xn--mnchen-3ya.de"] {
        assert_eq!(imported(&w, import(address)).labels.to_vec(), vec!["candidate", "employee"], "{address}");
    }
    assert_eq!(imported(&w, import("cid@munchen.de")).labels.to_vec(), vec!["candidate"], "another domain");
}

#[test]
fn the_employee_domain_rule_adds_employee_to_imported_persons_of_that_domain_only() {
    // D15; spec Person.labels: an empty array means neither ("other"), the rule may add employee.
    let w = world_with(PlanCatalogue::default(), "professional", SubscriptionStatus::Active, &["acme.com"]);
    let ann = imported(&w, import("Ann@ACME.com"));
    assert_eq!(ann.labels.to_vec(), vec!["candidate", "employee"]);
    let ben = imported(&w, ImportPerson { labels: Some(labels(&[])), ..import("ben@acme.com") });
    assert_eq!(ben.labels.to_vec(), vec!["employee"]);
    let cid = imported(&w, ImportPerson { labels: Some(labels(&[])), ..import("cid@other.com") });
    assert_eq!(cid.labels.to_vec(), Vec::<&str>::new());
    assert_eq!(person_json(&cid)["labels"], json!([]));
    let dan = imported(&w, import("dan@sub.acme.com"));
    assert_eq!(dan.labels.to_vec(), vec!["candidate"], "exact domain match only");
    let eve = imported(&w, ImportPerson { labels: Some(labels(&["employee"])), ..import("eve@other.com") });
    assert_eq!(eve.labels.to_vec(), vec!["employee"]);
}

#[test]
fn the_employee_domain_rule_does_not_change_labels_of_an_existing_member() {
    // D12 (labels unchanged on merge) over D15 (rule applies to persons created by import).
    let w = world();
    let p = imported(&w, import("fay@acme.com"));
    block_on(w.svc.patch_organization(
        w.org,
        OrganizationPatch { employee_domains: Some(vec!["acme.com".into()]), ..Default::default() },
    ))
    .unwrap();
    let out = block_on(w.svc.import_person(w.org, import("fay@acme.com"))).unwrap();
    assert!(!out.created);
    assert_eq!(out.person.labels.to_vec(), vec!["candidate"]);
    assert_eq!(get(&w, p.id).labels.to_vec(), vec!["candidate"]);
}

// ---------------------------------------------------------------------------------------------
// Tags: D14
// ---------------------------------------------------------------------------------------------

#[test]
fn tags_are_an_org_catalogue_where_the_first_spelling_wins_case_insensitively() {
    // D14: unique case-insensitively per organization, first spelling wins across persons.
    let w = world();
    let a = imported(&w, ImportPerson { tags: tags(&["Rust", "go"]), ..import("a@example.com") });
    assert_eq!(tag_names(&a), vec!["go", "Rust"]);
    let b = imported(&w, ImportPerson { tags: tags(&["rust", " GO ", "Zig", "zig"]), ..import("b@example.com") });
    assert_eq!(tag_names(&b), vec!["go", "Rust", "Zig"]);
    let rust_a = a.tags.iter().find(|t| t.name == "Rust").unwrap();
    let rust_b = b.tags.iter().find(|t| t.name == "Rust").unwrap();
    assert_eq!(rust_a.id, rust_b.id, "one catalogue entry");
    let catalogue: Vec<String> =
        w.store.snapshot().tags.iter().filter(|(o, _)| *o == w.org).map(|(_, t)| t.name.clone()).collect();
    assert_eq!(catalogue, vec!["Rust", "go", "Zig"]);

    // Another organization has its own catalogue.
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    let c = block_on(w.svc.import_person(other, ImportPerson { tags: tags(&["RUST"]), ..import("a@example.com") }))
        .unwrap()
        .person;
    assert_eq!(tag_names(&c), vec!["RUST"]);
    assert_ne!(c.id, a.id, "D10: a different membership id per organization");
}

#[test]
fn a_persons_tags_are_sorted_case_insensitively() {
    // D14 and spec Person.tags: sorted alphabetically, case-insensitively.
    let w = world();
    let p = imported(&w, ImportPerson { tags: tags(&["gamma", "Beta", "alpha", "Delta"]), ..import("a@example.com") });
    assert_eq!(tag_names(&p), vec!["alpha", "Beta", "Delta", "gamma"]);
    assert_eq!(person_json(&p)["tags"], json!(["alpha", "Beta", "Delta", "gamma"]));
    let p = imported(&w, ImportPerson { tags: tags(&["Charlie", "ALPHA"]), ..import("a@example.com") });
    assert_eq!(tag_names(&p), vec!["alpha", "Beta", "Charlie", "Delta", "gamma"]);
}

#[test]
fn import_adds_tags_while_patch_replaces_the_whole_set() {
    // Spec POST /persons tags: "existing tags of the person are kept"; PATCH tags: "replaces the
    // full tag set"; D14 spelling.
    let w = world();
    let p = imported(&w, ImportPerson { tags: tags(&["one", "two"]), ..import("a@example.com") });
    let p2 = imported(&w, ImportPerson { tags: tags(&["three"]), ..import("a@example.com") });
    assert_eq!(tag_names(&p2), vec!["one", "three", "two"]);

    let patched = patch(&w, p.id, PatchPerson { tags: Some(tags(&["TWO", "four"])), ..Default::default() }).unwrap();
    assert_eq!(tag_names(&patched), vec!["four", "two"]);
    assert_eq!(get(&w, p.id), patched);

    let cleared = patch(&w, p.id, PatchPerson { tags: Some(vec![]), ..Default::default() }).unwrap();
    assert!(cleared.tags.is_empty());
    assert!(get(&w, p.id).tags.is_empty());
}

// ---------------------------------------------------------------------------------------------
// PATCH /persons/{id}: D13, D16
// ---------------------------------------------------------------------------------------------

#[test]
fn patching_a_name_that_is_already_set_is_a_conflict_whatever_the_value() {
    // D13: 409 `conflict`, even for the same value; nothing is applied.
    let w = world();
    let p = imported(
        &w,
        ImportPerson { first_name: Some(name("Ada")), last_name: Some(name("L")), ..import("a@example.com") },
    );
    for v in ["Ada", "Other"] {
        let e = client_err(patch(
            &w,
            p.id,
            PatchPerson { first_name: Some(name(v)), external_id: Some(Some(ext("x"))), ..Default::default() },
        ));
        assert_eq!(e.code, Code::Conflict);
        assert_eq!(e.details, Some(json!({"field": "firstName"})));
    }
    let e = client_err(patch(&w, p.id, PatchPerson { last_name: Some(name("L")), ..Default::default() }));
    assert_eq!(e.code, Code::Conflict);
    assert_eq!(e.details, Some(json!({"field": "lastName"})));
    assert_eq!(get(&w, p.id), p, "nothing applied");
}

#[test]
fn patching_a_name_fills_it_while_empty() {
    // Spec PATCH firstName/lastName: "may only be filled in while empty".
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let q = patch(&w, p.id, PatchPerson { first_name: Some(name("Ada")), ..Default::default() }).unwrap();
    assert_eq!(q.first_name, Some(name("Ada")));
    assert!(q.updated_at > p.updated_at);
    let r = patch(&w, p.id, PatchPerson { last_name: Some(name("Lovelace")), ..Default::default() }).unwrap();
    assert_eq!((r.first_name.clone(), r.last_name.clone()), (Some(name("Ada")), Some(name("Lovelace"))));
    assert_eq!(get(&w, p.id), r);
    assert_eq!(
        code(patch(&w, p.id, PatchPerson { first_name: Some(name("Bob")), ..Default::default() })),
        Code::Conflict
    );
}

#[test]
fn patching_external_id_sets_replaces_and_clears_it() {
    // Spec PATCH externalId: string or null, always updatable.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let q = patch(&w, p.id, PatchPerson { external_id: Some(Some(ext("ats-1"))), ..Default::default() }).unwrap();
    assert_eq!(q.external_id, Some(ext("ats-1")));
    let q = patch(&w, p.id, PatchPerson { external_id: Some(Some(ext("ats-2"))), ..Default::default() }).unwrap();
    assert_eq!(q.external_id, Some(ext("ats-2")));
    let q = patch(&w, p.id, PatchPerson { external_id: Some(None), ..Default::default() }).unwrap();
    assert_eq!(q.external_id, None);
    assert_eq!(get(&w, p.id).external_id, None);
    assert_eq!(person_json(&q)["externalId"], serde_json::Value::Null);
}

#[test]
fn removing_the_employee_label_removes_the_person_from_every_team() {
    // D16; spec PATCH labels: "removing `employee` also removes the person from all teams".
    let w = world();
    let p = imported(&w, ImportPerson { labels: Some(labels(&["candidate", "employee"])), ..import("a@example.com") });
    let other = imported(&w, ImportPerson { labels: Some(labels(&["employee"])), ..import("b@example.com") });
    let t1 = block_on(w.svc.create_team(w.org, "Platform".into())).unwrap();
    let t2 = block_on(w.svc.create_team(w.org, "Data".into())).unwrap();
    block_on(w.svc.add_team_member(t1.id, p.id)).unwrap();
    block_on(w.svc.add_team_member(t1.id, other.id)).unwrap();
    assert_eq!(block_on(w.svc.add_team_member(t2.id, p.id)).unwrap(), vec![p.id]);

    let q = patch(&w, p.id, PatchPerson { labels: Some(labels(&["candidate"])), ..Default::default() }).unwrap();
    assert_eq!(q.labels.to_vec(), vec!["candidate"]);
    assert_eq!(block_on(w.svc.team_members(t1.id)).unwrap(), vec![other.id]);
    assert_eq!(block_on(w.svc.team_members(t2.id)).unwrap(), Vec::<PersonId>::new());
    assert_eq!(get(&w, p.id).labels.to_vec(), vec!["candidate"]);
}

#[test]
fn keeping_the_employee_label_keeps_team_membership() {
    // D16 applies only when `employee` is removed.
    let w = world();
    let p = imported(&w, ImportPerson { labels: Some(labels(&["candidate", "employee"])), ..import("a@example.com") });
    let t = block_on(w.svc.create_team(w.org, "Platform".into())).unwrap();
    block_on(w.svc.add_team_member(t.id, p.id)).unwrap();
    let q = patch(&w, p.id, PatchPerson { labels: Some(labels(&["employee"])), ..Default::default() }).unwrap();
    assert_eq!(q.labels.to_vec(), vec!["employee"]);
    let q = patch(&w, p.id, PatchPerson { tags: Some(tags(&["x"])), ..Default::default() }).unwrap();
    assert_eq!(q.labels.to_vec(), vec!["employee"]);
    assert_eq!(block_on(w.svc.team_members(t.id)).unwrap(), vec![p.id]);
}

#[test]
fn a_failed_patch_keeps_team_membership_and_the_tag_catalogue() {
    // D13 409 with a D16 label removal and new tags in the same body: the transaction rolls back.
    let w = world();
    let p = imported(
        &w,
        ImportPerson { first_name: Some(name("Ada")), labels: Some(labels(&["employee"])), ..import("a@example.com") },
    );
    let t = block_on(w.svc.create_team(w.org, "Platform".into())).unwrap();
    block_on(w.svc.add_team_member(t.id, p.id)).unwrap();
    let before = rows(&w.store);
    let r = patch(
        &w,
        p.id,
        PatchPerson {
            first_name: Some(name("Bob")),
            labels: Some(labels(&[])),
            tags: Some(tags(&["brand-new"])),
            ..Default::default()
        },
    );
    assert_eq!(code(r), Code::Conflict);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn a_patch_that_changes_nothing_does_not_move_updated_at() {
    // Spec Person.updatedAt and `updatedAfter` (incremental sync): only real changes count.
    let w = world();
    let p = imported(
        &w,
        ImportPerson {
            external_id: Some(ext("ats-1")),
            labels: Some(labels(&["candidate"])),
            tags: tags(&["Rust", "go"]),
            ..import("a@example.com")
        },
    );
    w.clock.advance(Duration::hours(1));
    let before = rows(&w.store);
    let same = patch(
        &w,
        p.id,
        PatchPerson {
            external_id: Some(Some(ext("ats-1"))),
            labels: Some(labels(&["candidate"])),
            tags: Some(tags(&["GO", "rust"])),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(same, p);
    assert_eq!(same.updated_at, p.updated_at);
    assert_eq!(patch(&w, p.id, PatchPerson::default()).unwrap(), p);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn patching_a_person_of_another_organization_is_not_found() {
    // Spec PATCH/GET/DELETE 404 "not a member of the organization"; D28.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let other = new_org(&w.svc, "professional", SubscriptionStatus::Active, &[]);
    let r = block_on(w.svc.patch_person(
        other,
        p.id,
        PatchPerson { external_id: Some(Some(ext("x"))), ..Default::default() },
    ));
    assert_eq!(code(r), Code::NotFound);
    assert_eq!(code(block_on(w.svc.get_person(other, p.id))), Code::NotFound);
    assert_eq!(code(block_on(w.svc.archive_person(other, p.id))), Code::NotFound);
    assert_eq!(code(patch(&w, PersonId(uuid::Uuid::from_u128(7)), PatchPerson::default())), Code::NotFound);
    assert_eq!(get(&w, p.id), p);
}

// ---------------------------------------------------------------------------------------------
// DELETE /persons/{id} and admin archive: spec state table; D28, D39
// ---------------------------------------------------------------------------------------------

#[test]
fn archiving_an_active_person_sets_archived_at_and_emits_person_archived() {
    // Spec state table row "active -> archived": archivedAt set, `person.archived` event.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let a = block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    assert_eq!(a.status, PersonStatus::Archived);
    assert_eq!(a.archive_reason, Some(ArchiveReason::Archived));
    let at = a.archived_at.expect("archivedAt set");
    assert!(at > p.updated_at);
    assert_eq!(a.updated_at, at);
    assert_eq!(a.member_since, p.member_since);
    assert_eq!(get(&w, p.id), a);

    let ev = events(&w);
    assert_eq!(ev.len(), 2);
    assert_eq!(ev[1].event_type, EventType::PersonArchived);
    let mut want = person_json(&a);
    want["archiveReason"] = json!("api");
    assert_eq!(ev[1].data.value(), want, "the Person and why it was archived (D47)");
    assert_eq!(ev[1].data.value()["status"], json!("archived"));
}

#[test]
fn archiving_an_archived_person_is_not_found_and_emits_nothing() {
    // Spec state table row "archived -> archived": 404 (no active person with this id).
    let w = world();
    let p = imported(&w, import("a@example.com"));
    block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    let before = rows(&w.store);
    assert_eq!(code(block_on(w.svc.archive_person(w.org, p.id))), Code::NotFound);
    assert_eq!(rows(&w.store), before);
}

#[test]
fn an_archived_person_can_still_be_read() {
    // D28: GET /persons/{id} works for archived persons.
    let w = world();
    let p = imported(&w, ImportPerson { first_name: Some(name("Ada")), ..import("a@example.com") });
    let a = block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    let read = get(&w, p.id);
    assert_eq!(read, a);
    assert_eq!(read.first_name, Some(name("Ada")));
    assert_eq!(person_json(&read)["status"], json!("archived"));
}

#[test]
fn admin_deactivation_of_an_archived_person_records_the_reason_without_a_second_event() {
    // D39 deactivate/withdraw: on an archived person the reason is recorded, no second
    // `person.archived`; a later import then gives `person_deactivated`.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let a = block_on(w.svc.archive_person(w.org, p.id)).unwrap();
    let d = block_on(w.svc.admin_archive_person(p.id, ArchiveReason::Deactivated)).unwrap();
    assert_eq!(d.status, PersonStatus::Archived);
    assert_eq!(d.archive_reason, Some(ArchiveReason::Deactivated));
    assert_eq!(d.archived_at, a.archived_at, "archivedAt kept");
    assert_eq!(get(&w, p.id).archive_reason, Some(ArchiveReason::Deactivated));
    assert_eq!(event_types(&w), vec![EventType::PersonCreated, EventType::PersonArchived]);
    assert_eq!(code(block_on(w.svc.import_person(w.org, import("a@example.com")))), Code::PersonDeactivated);
}

#[test]
fn admin_withdrawal_of_an_active_person_archives_and_emits_person_archived() {
    // D39: withdraw archives the person and emits `person.archived`.
    let w = world();
    let p = imported(&w, import("a@example.com"));
    let s = block_on(w.svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked)).unwrap();
    assert_eq!(s.status, PersonStatus::Archived);
    assert_eq!(s.archive_reason, Some(ArchiveReason::SelfRevoked));
    assert!(s.archived_at.is_some());
    assert_eq!(event_types(&w), vec![EventType::PersonCreated, EventType::PersonArchived]);
    assert_eq!(
        code(block_on(w.svc.admin_archive_person(PersonId(uuid::Uuid::from_u128(9)), ArchiveReason::Deactivated))),
        Code::NotFound
    );
}
