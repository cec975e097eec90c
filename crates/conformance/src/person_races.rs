//! Persons under concurrent writers (`PersonRepo`, the organization lock, T65-T70): imports of one email, the person limit, tags, updates.

use super::*;

pub async fn concurrent_imports_of_one_email_create_one_person<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let o = org.id;
    let outcomes: Vec<ImportOutcome> = race(&svc, 8, |svc, i| {
        let mut input = import(if i % 2 == 0 { "race@example.com" } else { " Race@Example.COM " });
        input.tags = tag_names(&[&format!("t{i}")]);
        async move { svc.import_person(o, input).await.unwrap() }
    })
    .await;
    assert_eq!(outcomes.iter().filter(|o| o.created).count(), 1, "exactly one import creates");
    let id = outcomes[0].person.id;
    assert!(outcomes.iter().all(|o| o.person.id == id), "all imports return the same person");
    assert_eq!(count_active(&svc, org.id).await, 1);
    let created: Vec<_> =
        events(&svc, org.id).await.into_iter().filter(|e| e.event_type == EventType::PersonCreated).collect();
    assert_eq!(created.len(), 1, "exactly one person.created");
    assert_eq!(created[0].data.value()["id"], id.to_string());
    // Merges were serialized: every import's tag was added, none lost.
    let p = svc.get_person(org.id, id).await.unwrap();
    let names: BTreeSet<_> = p.tags.iter().map(|t| t.name.clone()).collect();
    assert_eq!(names, (0..8).map(|i| format!("t{i}")).collect::<BTreeSet<_>>());
}

pub async fn concurrent_imports_respect_the_person_limit<S: Store + Clone>(store: S) {
    let (svc, org) = limited(store, "tiny", 5).await;
    let o = org.id;
    let imports =
        race(&svc, 12, |svc, i| async move { svc.import_person(o, import(&format!("p{i}@example.com"))).await });
    let (mut ok, mut refused) = (0, 0);
    for outcome in imports.await {
        match outcome {
            Ok(o) => {
                assert!(o.created);
                ok += 1;
            }
            Err(e) => {
                let c = client_err::<()>(Err(e));
                assert_eq!(c.code, Code::PersonLimitReached);
                let d = c.details.expect("details");
                assert_eq!(
                    (d["used"].as_u64(), d["limit"].as_u64(), d["plan"].as_str()),
                    (Some(5), Some(5), Some("tiny"))
                );
                refused += 1;
            }
        }
    }
    assert_eq!((ok, refused), (5, 7));
    assert_eq!(count_active(&svc, org.id).await, 5);
    assert_eq!(events(&svc, org.id).await.len(), 5);
    assert_eq!(svc.list_persons(query(org.id)).await.unwrap().items.len(), 5);
    assert_eq!(svc.organization(org.id).await.unwrap().1.persons_used, 5);
}

/// T69: the count of active persons that the person limit reads is kept by triggers on both
/// backends. After imports, archives and reactivations, eight of each at once, it equals the
/// persons listed, and another organization's count is its own.
pub async fn active_person_count_follows_concurrent_imports_archives_and_reactivations<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    let other = new_org(&svc, "business", &[]).await.id;
    let mut first = vec![];
    for i in 0..12 {
        first.push(imported(&svc, o, import(&format!("c{i}@example.com"))).await.id);
    }
    imported(&svc, other, import("c0@example.com")).await;
    assert_eq!(count_active(&svc, o).await, 12);
    // Eight archives of the first (every other one imported again at once) and eight new imports.
    race(&svc, 16, |svc, i| {
        let archive = first[..8].get(i).copied();
        async move {
            if let Some(id) = archive {
                svc.archive_person(o, id).await.unwrap();
                if i % 2 == 0 {
                    assert!(svc.import_person(o, import(&format!("c{i}@example.com"))).await.unwrap().created);
                }
            } else {
                svc.import_person(o, import(&format!("c{}@example.com", i + 4))).await.unwrap();
            }
        }
    })
    .await;
    // 12 imported, 8 archived, 4 of them reactivated, 8 new.
    assert_eq!(count_active(&svc, o).await, 16);
    assert_eq!(emails(&svc, query(o)).await.len(), 16);
    assert_eq!(svc.organization(o).await.unwrap().1.persons_used, 16);
    assert_eq!(count_active(&svc, other).await, 1);
}

/// T65: far from the limit imports hold the organization in shared mode and run side by side;
/// within `writers` (PostgreSQL: max_connections, 100 here) of it they go exclusive. 16 clients
/// import 160 persons into a limit of `writers + 30`: exactly the limit is created, the rest is
/// refused with 409, across the switch from shared to exclusive.
pub async fn concurrent_imports_crossing_into_the_exclusive_zone_stop_exactly_at_the_limit<S: Store + Clone>(store: S) {
    let writers = {
        let (svc, _) = services(store.clone());
        write(&svc, |tx| Box::pin(async move { tx.concurrent_writers().await })).await.unwrap()
    };
    let limit = writers + 30;
    let (svc, org) = limited(store, "edge", limit).await;
    // Fill up to `writers` below the limit plus 10 at once: the next 20 are shared, then exclusive.
    let pre = limit.saturating_sub(writers + 20);
    for i in 0..pre {
        svc.import_person(org.id, import(&format!("pre{i}@example.com"))).await.unwrap();
    }
    let org_id = org.id;
    let clients = race(&svc, 16, |svc, t| async move {
        let (mut ok, mut refused) = (0u32, 0u32);
        for i in 0..10 {
            match svc.import_person(org_id, import(&format!("c{t}x{i}@example.com"))).await {
                Ok(o) if o.created => ok += 1,
                Err(e) => {
                    assert_eq!(client_err::<()>(Err(e)).code, Code::PersonLimitReached);
                    refused += 1;
                }
                Ok(_) => panic!("a new email merged"),
            }
        }
        (ok, refused)
    });
    let (mut ok, mut refused) = (0, 0);
    for (o, r) in clients.await {
        ok += o;
        refused += r;
    }
    assert_eq!(pre + ok, limit, "exactly the limit is created");
    assert_eq!(ok + refused, 160);
    assert_eq!(count_active(&svc, org.id).await, limit);
}

pub async fn concurrent_imports_in_many_organizations_share_one_human<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let mut orgs = Vec::new();
    for _ in 0..8 {
        orgs.push(new_org(&svc, "business", &[]).await.id);
    }
    let imports = race(&svc, 8, |svc, i| {
        let org = orgs[i];
        async move { svc.import_person(org, import("shared@example.com")).await }
    });
    let mut persons = Vec::new();
    for o in imports.await {
        let o = o.unwrap();
        assert!(o.created);
        persons.push(o.person);
    }
    let human = persons[0].human_id;
    assert!(persons.iter().all(|p| p.human_id == human), "one human behind every membership");
    let ids: BTreeSet<_> = persons.iter().map(|p| p.id).collect();
    assert_eq!(ids.len(), 8, "one membership per organization");
}

pub async fn concurrent_tag_spellings_resolve_to_one_catalogue_entry<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    const VIP: [&str; 8] = ["VIP", "vip", "Vip", "vIP", "ViP", "VIp", "vIp", "viP"];
    let o = org.id;
    let persons: Vec<Person> = race(&svc, 8, |svc, i| {
        let mut input = import(&format!("tag{i}@example.com"));
        input.tags = tag_names(&[VIP[i]]);
        async move { svc.import_person(o, input).await.unwrap().person }
    })
    .await;
    let tag = persons[0].tags[0].clone();
    assert!(VIP.contains(&tag.name.as_str()));
    for p in &persons {
        assert_eq!(p.tags, vec![tag.clone()], "one canonical spelling for everyone");
        assert_eq!(svc.get_person(org.id, p.id).await.unwrap().tags, vec![tag.clone()]);
    }
    assert_eq!(probe_tag(&svc, org.id, "vIp").await, Some(tag.clone()), "the catalogue entry");
    assert_eq!(probe_tag(&svc, org.id, "vip2").await, None, "the probe itself writes nothing");
    assert_eq!(probe_tag(&svc, org.id, "vip2").await, None);
    let mut q = query(org.id);
    q.tag_key = Some("vip".into());
    assert_eq!(svc.list_persons(q).await.unwrap().items.len(), 8);

    // Patches do not lock the organization: concurrent first spellings race on the catalogue.
    const GOLD: [&str; 8] = ["gold", "GOLD", "Gold", "gOLD", "GoLd", "gOlD", "GOld", "goLD"];
    let patched: Vec<Person> = race(&svc, 8, |svc, i| {
        let (id, patch) =
            (persons[i].id, PatchPerson { tags: Some(tag_names(&[GOLD[i], "vip"])), ..Default::default() });
        async move { svc.patch_person(o, id, patch).await.unwrap() }
    })
    .await;
    let gold = probe_tag(&svc, org.id, "GOLD").await.expect("gold in the catalogue");
    assert!(GOLD.contains(&gold.name.as_str()));
    for p in &patched {
        assert_eq!(p.tags, vec![gold.clone(), tag.clone()]);
        assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), *p);
    }
}

pub async fn concurrent_new_tags_in_any_order_do_not_deadlock<S: Store + Clone>(store: S) {
    // Transactions that insert the same new catalogue entries in different orders must not
    // deadlock (PostgreSQL aborts one with "deadlock detected" after deadlock_timeout).
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let mut ids = Vec::new();
    for i in 0..8 {
        ids.push(imported(&svc, org.id, import(&format!("order{i}@example.com"))).await.id);
    }
    const ORDERS: [[usize; 4]; 8] = [
        [0, 1, 2, 3],
        [3, 2, 1, 0],
        [1, 0, 3, 2],
        [2, 3, 0, 1],
        [0, 2, 1, 3],
        [3, 1, 2, 0],
        [1, 3, 0, 2],
        [2, 0, 3, 1],
    ];
    for round in 0..3 {
        let names: Vec<String> = (0..4).map(|i| format!("r{round}-t{i}")).collect();
        let patched: Vec<Person> = race(&svc, 8, |svc, k| {
            let tags: Vec<&str> = ORDERS[k].iter().map(|&i| names[i].as_str()).collect();
            let (o, id, patch) = (org.id, ids[k], PatchPerson { tags: Some(tag_names(&tags)), ..Default::default() });
            async move { svc.patch_person(o, id, patch).await.expect("no deadlock") }
        })
        .await;
        let mut catalogue = Vec::new();
        for n in &names {
            catalogue.push(probe_tag(&svc, org.id, n).await.expect("tag in the catalogue"));
        }
        for p in &patched {
            assert_eq!(p.tags, catalogue, "round {round}");
        }
    }
}

/// `patch` of person `id` of `org`, for [`race`].
async fn svc_patch<S: Store + Clone>(
    svc: Svc<S>,
    org: OrgId,
    id: PersonId,
    patch: PatchPerson,
) -> Result<Person, UseCaseError> {
    svc.patch_person(org, id, patch).await
}

pub async fn concurrent_updates_of_one_person_are_serialized<S: Store + Clone>(store: S) {
    // Read-modify-write use cases of one person must not lose each other's changes.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let o = org.id;

    // D13: of eight concurrent patches filling the first name, exactly one wins.
    let p = imported(&svc, o, import("names@example.com")).await;
    let patches = race(&svc, 8, |svc, i| {
        svc_patch(svc, o, p.id, PatchPerson { first_name: Some(name(&format!("N{i}"))), ..Default::default() })
    });
    let mut winners = Vec::new();
    for outcome in patches.await {
        match outcome {
            Ok(p) => winners.push(p),
            other => assert_eq!(code(other), Code::Conflict),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one first name is set");
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), winners[0]);

    // Patches of different fields all persist.
    let p = imported(&svc, o, import("fields@acme.com")).await;
    let patches = [
        PatchPerson { first_name: Some(name("First")), ..Default::default() },
        PatchPerson { last_name: Some(name("Last")), ..Default::default() },
        PatchPerson { external_id: Some(Some(ext("EXT"))), ..Default::default() },
        PatchPerson { tags: Some(tag_names(&["Tagged"])), ..Default::default() },
    ];
    for outcome in race(&svc, patches.len(), |svc, i| svc_patch(svc, o, p.id, patches[i].clone())).await {
        outcome.unwrap();
    }
    let got = svc.get_person(o, p.id).await.unwrap();
    assert_eq!(got.first_name, Some(name("First")));
    assert_eq!(got.last_name, Some(name("Last")));
    assert_eq!(got.external_id, Some(ext("EXT")));
    assert_eq!(got.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["Tagged"]);

    // Archive (by the organization or an administrator) racing a patch: the person stays archived.
    for round in 0..6 {
        let p = imported(&svc, o, import(&format!("race{round}@example.com"))).await;
        let barrier = Arc::new(Barrier::new(2));
        let (s1, b1) = (svc.clone(), barrier.clone());
        let archive = tokio::spawn(async move {
            b1.wait().await;
            if round % 2 == 0 {
                s1.archive_person(o, p.id).await
            } else {
                s1.admin_archive_person(p.id, ArchiveReason::Deactivated).await
            }
        });
        let (s2, b2) = (svc.clone(), barrier.clone());
        let patch = tokio::spawn(async move {
            b2.wait().await;
            let patch = PatchPerson { last_name: Some(name("Late")), ..Default::default() };
            s2.patch_person(o, p.id, patch).await
        });
        let archived = archive.await.unwrap().unwrap();
        patch.await.unwrap().unwrap();
        let got = svc.get_person(o, p.id).await.unwrap();
        assert_eq!(got.status, PersonStatus::Archived, "round {round}: the patch must not undo the archive");
        assert_eq!(got.archive_reason, archived.archive_reason);
        assert_eq!(got.archived_at, archived.archived_at);
        assert_eq!(got.last_name, Some(name("Late")), "round {round}: the archive must not undo the patch");
    }
    let archived_events = events(&svc, o).await.iter().filter(|e| e.event_type == EventType::PersonArchived).count();
    assert_eq!(archived_events, 6);
    assert_eq!(count_active(&svc, o).await, 2);
}
