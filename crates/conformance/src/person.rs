//! Persons, their lists, teams and tags (`PersonRepo`): round trips, filters and pages, patches, and what a failed use case leaves.

use super::*;

pub async fn person_round_trips_every_field<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let out = svc
        .import_person(
            org.id,
            ImportPerson {
                first_name: Some(name("Zoë")),
                last_name: Some(name("Núñez-O'Brien")),
                external_id: Some(ext("ATS/42?x=1&y=%_\\ \"q\"")),
                labels: Some(Labels { candidate: true, employee: false }),
                tags: tag_names(&["beta", "Alpha", "ALPHA", "gamma ray"]),
                ..ImportPerson::new(email("  Zoe.Nunez@ACME.com "))
            },
        )
        .await
        .unwrap();
    assert!(out.created);
    let p = out.person;
    assert_eq!(p.email.as_str(), "zoe.nunez@acme.com");
    assert_eq!(p.labels, Labels { candidate: true, employee: true }, "employee domain rule");
    assert_eq!(p.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["Alpha", "beta", "gamma ray"]);
    assert_ne!(p.member_since.microsecond(), 0);

    assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), p);
    let (o, e) = (org.id, p.email.clone());
    assert_eq!(
        read(&svc, move |tx| Box::pin(async move { tx.find_person_by_email(o, &e).await })).await,
        Some(p.clone())
    );
    let id = p.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_person_any(id).await })).await, Some(p.clone()));
    let listed = svc.list_persons(query(org.id)).await.unwrap();
    assert_eq!(listed.items, vec![p.clone()]);
    assert_eq!(count_active(&svc, org.id).await, 1);

    // The event carries the Person object, in the same transaction.
    let ev = events(&svc, org.id).await;
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].event_type, EventType::PersonCreated);
    assert_eq!(ev[0].data.value(), person_json(&p));
    assert_eq!(ev[0].created_at, p.member_since);

    // Another organization cannot read it by id; the human is shared by email.
    let other = new_org(&svc, "business", &[]).await;
    assert_eq!(code(svc.get_person(other.id, p.id).await), Code::NotFound);
    let q = imported(&svc, other.id, import("zoe.nunez@acme.com")).await;
    assert_eq!(q.human_id, p.human_id);
    assert_ne!(q.id, p.id);
    assert_eq!(q.labels, Labels::DEFAULT);

    // Every other field, through a direct update: None/Some both ways, archived, assessment.
    let mut changed = p.clone();
    changed.first_name = None;
    changed.external_id = None;
    changed.status = PersonStatus::Archived;
    changed.archive_reason = Some(ArchiveReason::Deactivated);
    changed.archived_at = Some(datetime!(2026-03-04 05:06:07.000001 UTC));
    changed.labels = Labels::default();
    changed.tags = vec![];
    changed.joined_via = JoinedVia::InvitationPersonal;
    changed.shared_existing_profile = true;
    changed.assessment = AssessmentSummary {
        status: AssessmentStatus::Completed,
        completed_at: Some(datetime!(2026-03-01 00:00:00.654321 UTC)),
        count: 3,
        // T85: the summed need counts round-trip with the summary.
        totals: Some(NeedCounts { model: "m@1".into(), responses: 7, exposure: vec![3, 0, 11], chosen: vec![1, 0, 6] }),
    };
    changed.updated_at = clock.now();
    let c = changed.clone();
    write(&svc, move |tx| Box::pin(async move { tx.update_person(&c).await })).await.unwrap();
    assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), changed);
    assert_eq!(count_active(&svc, org.id).await, 0);

    // And back, with new tags.
    let mut back = changed.clone();
    back.first_name = Some(name("Zoé"));
    back.external_id = Some(ext("X"));
    back.status = PersonStatus::Active;
    back.archive_reason = None;
    back.archived_at = None;
    back.labels = Labels { candidate: false, employee: true };
    back.joined_via = JoinedVia::InvitationLink;
    back.assessment =
        AssessmentSummary { status: AssessmentStatus::InProgress, completed_at: None, count: 0, totals: None };
    back.tags = p.tags[1..].to_vec();
    back.updated_at = clock.now();
    let b = back.clone();
    write(&svc, move |tx| Box::pin(async move { tx.update_person(&b).await })).await.unwrap();
    assert_eq!(svc.get_person(org.id, p.id).await.unwrap(), back);
    let mut qq = query(org.id);
    qq.tag_key = Some("alpha".into());
    assert!(emails(&svc, qq).await.is_empty(), "removed tags leave the tag filter");
    let mut qq = query(org.id);
    qq.tag_key = Some("beta".into());
    assert_eq!(emails(&svc, qq).await, set(&["zoe.nunez@acme.com"]));
}

pub async fn list_filters_select_exactly_the_matching_persons<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let other = new_org(&svc, "business", &[]).await;
    let o = org.id;
    let with = |e: &str, first: &str, last: Option<&str>, labels: Option<Labels>, tags: &[&str]| ImportPerson {
        invitation: None,
        email: email(e),
        first_name: Some(name(first)),
        last_name: last.map(name),
        external_id: None,
        labels,
        tags: tag_names(tags),
    };
    let mut ada_in = with("ada@example.com", "Ada", Some("Lovelace"), None, &["VIP"]);
    ada_in.external_id = Some(ext("EXT-1"));
    let ada = imported(&svc, o, ada_in).await;
    let pct = imported(&svc, o, with("pct@example.com", "100%", Some("Sure"), None, &[])).await;
    imported(&svc, o, with("near@example.com", "1000", Some("Surely"), None, &[])).await;
    imported(&svc, o, with("x_y@example.com", "Under_score", None, None, &[])).await;
    imported(&svc, o, with("xzy@example.com", "Plain", None, None, &[])).await;
    imported(&svc, o, with("bs@example.com", "Back\\slash", None, None, &[])).await;
    imported(&svc, o, with("nobs@example.com", "Backslash", None, None, &[])).await;
    imported(&svc, o, with("zoe@example.com", "Zoë", Some("Ünal"), None, &[])).await;
    let eve = imported(
        &svc,
        o,
        with("eve@acme.com", "Eve", None, Some(Labels { candidate: false, employee: true }), &["Vip"]),
    )
    .await;
    let otto = imported(&svc, o, with("otto@example.com", "Otto", None, Some(Labels::default()), &["misc"])).await;
    let both = imported(&svc, o, with("both@acme.com", "Bo", None, None, &[])).await;
    let arch = imported(&svc, o, with("arch@example.com", "Archie", None, None, &["vIP"])).await;
    svc.archive_person(o, arch.id).await.unwrap();
    imported(&svc, other.id, with("ada@example.com", "Ada", Some("Lovelace"), None, &["VIP"])).await;
    assert_eq!(eve.labels, Labels { candidate: false, employee: true });
    assert_eq!(otto.labels, Labels::default());
    assert_eq!(both.labels, Labels { candidate: true, employee: true });

    // Assessment states (no use case sets them yet).
    for (p, status) in [(&ada, AssessmentStatus::InProgress), (&otto, AssessmentStatus::Completed)] {
        let mut p = p.clone();
        p.assessment.status = status;
        write(&svc, move |tx| Box::pin(async move { tx.update_person(&p).await })).await.unwrap();
    }

    let active = set(&[
        "ada@example.com",
        "pct@example.com",
        "near@example.com",
        "x_y@example.com",
        "xzy@example.com",
        "bs@example.com",
        "nobs@example.com",
        "zoe@example.com",
        "eve@acme.com",
        "otto@example.com",
        "both@acme.com",
    ]);
    assert_eq!(emails(&svc, query(o)).await, active, "default: active persons of the organization");
    let all = svc.list_persons(query(o)).await.unwrap().items;
    for p in &all {
        assert_eq!(svc.get_person(o, p.id).await.unwrap(), *p, "list rows are whole persons");
    }

    let q = |f: &dyn Fn(&mut PersonQuery)| {
        let mut q = query(o);
        f(&mut q);
        q
    };
    // status
    assert_eq!(emails(&svc, q(&|q| q.status = PersonStatusFilter::Archived)).await, set(&["arch@example.com"]));
    assert_eq!(emails(&svc, q(&|q| q.status = PersonStatusFilter::Active)).await, active);
    let mut everyone = active.clone();
    everyone.insert("arch@example.com".to_string());
    assert_eq!(emails(&svc, q(&|q| q.status = PersonStatusFilter::Any)).await, everyone);
    // q: substring of names and email; `%`, `_` and `\` are literal.
    let search = |s: &str| q(&|q| q.q = Some(s.to_string()));
    assert_eq!(emails(&svc, search("lovelace")).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, search("ada lovelace ada@")).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, search("100%")).await, set(&["pct@example.com"]));
    assert_eq!(emails(&svc, search("%")).await, set(&["pct@example.com"]));
    assert_eq!(emails(&svc, search("100")).await, set(&["pct@example.com", "near@example.com"]));
    assert_eq!(emails(&svc, search("x_y")).await, set(&["x_y@example.com"]));
    assert_eq!(emails(&svc, search("_")).await, set(&["x_y@example.com"]));
    assert_eq!(emails(&svc, search("k\\s")).await, set(&["bs@example.com"]));
    assert_eq!(emails(&svc, search("zoë ünal")).await, set(&["zoe@example.com"]));
    assert_eq!(emails(&svc, search("acme.com")).await, set(&["eve@acme.com", "both@acme.com"]));
    assert_eq!(emails(&svc, search("archie")).await, set(&[]), "archived persons are not listed by default");
    // email, externalId (exact, case-sensitive)
    assert_eq!(emails(&svc, q(&|q| q.email = Some(email("ada@example.com")))).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, q(&|q| q.email = Some(email("ada@example.co")))).await, set(&[]));
    assert_eq!(emails(&svc, q(&|q| q.external_id = Some("EXT-1".into()))).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, q(&|q| q.external_id = Some("ext-1".into()))).await, set(&[]));
    // assessmentStatus
    let assess = |s| q(&move |q| q.assessment_status = Some(s));
    assert_eq!(emails(&svc, assess(AssessmentStatus::InProgress)).await, set(&["ada@example.com"]));
    assert_eq!(emails(&svc, assess(AssessmentStatus::Completed)).await, set(&["otto@example.com"]));
    let not_started: BTreeSet<_> =
        active.iter().filter(|e| !["ada@example.com", "otto@example.com"].contains(&e.as_str())).cloned().collect();
    assert_eq!(emails(&svc, assess(AssessmentStatus::NotStarted)).await, not_started);
    // label
    let label = |l| q(&move |q| q.label = Some(l));
    assert_eq!(emails(&svc, label(LabelFilter::Employee)).await, set(&["eve@acme.com", "both@acme.com"]));
    assert_eq!(emails(&svc, label(LabelFilter::Other)).await, set(&["otto@example.com"]));
    let candidates: BTreeSet<_> =
        active.iter().filter(|e| !["eve@acme.com", "otto@example.com"].contains(&e.as_str())).cloned().collect();
    assert_eq!(emails(&svc, label(LabelFilter::Candidate)).await, candidates);
    // tag: case-insensitive, canonical spelling shown
    assert_eq!(emails(&svc, q(&|q| q.tag_key = Some("vip".into()))).await, set(&["ada@example.com", "eve@acme.com"]));
    assert_eq!(
        emails(
            &svc,
            q(&|q| {
                q.tag_key = Some("vip".into());
                q.status = PersonStatusFilter::Archived;
            })
        )
        .await,
        set(&["arch@example.com"])
    );
    assert_eq!(emails(&svc, q(&|q| q.tag_key = Some("nope".into()))).await, set(&[]));
    let e = svc.get_person(o, eve.id).await.unwrap();
    assert_eq!(e.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["VIP"]);
    // combined filters
    assert_eq!(
        emails(
            &svc,
            q(&|q| {
                q.tag_key = Some("vip".into());
                q.label = Some(LabelFilter::Candidate);
            })
        )
        .await,
        set(&["ada@example.com"])
    );
    // updatedAfter (exclusive)
    let t = clock.now();
    let patched = svc
        .patch_person(o, pct.id, PatchPerson { external_id: Some(Some(ext("P"))), ..Default::default() })
        .await
        .unwrap();
    assert!(patched.updated_at > t);
    let after = |u: OffsetDateTime| q(&move |q| q.updated_after = Some(u));
    assert_eq!(emails(&svc, after(t)).await, set(&["pct@example.com"]));
    assert_eq!(emails(&svc, after(patched.updated_at)).await, set(&[]));
    assert_eq!(emails(&svc, after(patched.updated_at - Duration::microseconds(1))).await, set(&["pct@example.com"]));
    // no organization (admin): every organization
    let mut admin = query(o);
    admin.org_id = None;
    admin.q = Some("lovelace".into());
    assert_eq!(svc.list_persons(admin).await.unwrap().items.len(), 2);
    // limit
    let mut small = query(o);
    small.limit = 3;
    let page = svc.list_persons(small).await.unwrap();
    assert_eq!((page.items.len(), page.has_more), (3, true));
    assert_eq!(page.items, all[..3].to_vec(), "the first page holds the newest persons");
}

pub async fn keyset_pagination_walks_every_page_newest_first<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let mut created = Vec::new();
    for i in 0..23 {
        let mut input = import(&format!("page{i:02}@example.com"));
        if i % 3 == 0 {
            input.tags = tag_names(&["Third"]);
        }
        created.push(imported(&svc, org.id, input).await);
    }
    let newest_first: Vec<PersonId> = created.iter().rev().map(|p| p.id).collect();
    let mut sorted = newest_first.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(sorted, newest_first, "UUIDv7 ids follow creation order");

    for (size, tag) in
        [(1u32, None), (5, None), (7, None), (23, None), (100, None), (2, Some("third")), (4, Some("third"))]
    {
        let expected: Vec<PersonId> = created
            .iter()
            .rev()
            .filter(|p| tag.is_none() || p.tags.iter().any(|t| t.name.to_lowercase() == "third"))
            .map(|p| p.id)
            .collect();
        let mut seen = Vec::new();
        let mut before = None;
        let mut pages = 0;
        loop {
            let mut q = query(org.id);
            q.limit = size;
            q.before_id = before;
            q.tag_key = tag.map(str::to_string);
            let page = svc.list_persons(q).await.unwrap();
            pages += 1;
            assert!(page.items.len() <= size as usize);
            seen.extend(page.items.iter().map(|p| p.id));
            if !page.has_more {
                break;
            }
            assert_eq!(page.items.len(), size as usize, "a page with more after it is full");
            before = page.items.last().map(|p| p.id);
        }
        assert_eq!(seen, expected, "size {size}, tag {tag:?}: no duplicates, no gaps, newest first");
        assert_eq!(pages, expected.len().div_ceil(size as usize).max(1), "size {size}, tag {tag:?}");
    }

    // A cursor that is not itself in the result set (archived person) still works.
    let middle = created[11].id;
    svc.archive_person(org.id, middle).await.unwrap();
    let mut q = query(org.id);
    q.before_id = Some(middle);
    let ids: Vec<_> = svc.list_persons(q).await.unwrap().items.iter().map(|p| p.id).collect();
    assert_eq!(ids, created[..11].iter().rev().map(|p| p.id).collect::<Vec<_>>());
}

/// `lock_import_target` (T266) reads what an import decides on, in either lock mode: the
/// organization, its member with the email (any status; not another organization's member) and
/// its active persons; nothing for an organization that does not exist.
pub async fn the_import_target_is_the_organization_its_member_and_its_active_count<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let (o, x) = (new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id);
    let a = imported(&svc, o, import("a@example.com")).await;
    imported(&svc, o, import("b@example.com")).await;
    imported(&svc, x, import("c@example.com")).await;
    svc.archive_person(o, a.id).await.unwrap();
    for exclusive in [false, true] {
        let (member, new, elsewhere, unknown) = write(&svc, move |tx| {
            Box::pin(async move {
                let member = tx.lock_import_target(o, &email("a@example.com"), exclusive).await?;
                let new = tx.lock_import_target(o, &email("new@example.com"), exclusive).await?;
                let elsewhere = tx.lock_import_target(o, &email("c@example.com"), exclusive).await?;
                let unknown = tx.lock_import_target(OrgId(Uuid::now_v7()), &email("a@example.com"), exclusive).await?;
                Ok((member, new, elsewhere, unknown))
            })
        })
        .await
        .unwrap();
        let member = member.expect("the organization");
        assert_eq!(member.org.id, o);
        assert_eq!(member.person.map(|p| (p.id, p.status)), Some((a.id, PersonStatus::Archived)));
        assert_eq!(member.active, 1, "b only: a is archived");
        let new = new.expect("the organization");
        assert!(new.person.is_none());
        assert_eq!(new.active, 1);
        assert!(elsewhere.expect("the organization").person.is_none(), "c is a member of the other organization");
        assert!(unknown.is_none());
    }
}

pub async fn patch_archive_and_reactivate_persist<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let o = org.id;
    let mut input = import("pat@example.com");
    input.tags = tag_names(&["One", "Two"]);
    let p = imported(&svc, o, input).await;

    // Patch: fill names, set externalId, replace tags and labels.
    clock.advance(Duration::seconds(3));
    let patched = svc
        .patch_person(
            o,
            p.id,
            PatchPerson {
                external_id: Some(Some(ext("E-1"))),
                first_name: Some(name("Pat")),
                last_name: Some(name("Doe")),
                labels: Some(Labels { candidate: false, employee: true }),
                tags: Some(tag_names(&["two", "Three"])),
            },
        )
        .await
        .unwrap();
    assert!(patched.updated_at > p.updated_at);
    assert_eq!(patched.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["Three", "Two"]);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), patched);
    let mut q = query(o);
    q.q = Some("pat doe".into());
    assert_eq!(emails(&svc, q).await, set(&["pat@example.com"]), "search text follows the patch");
    let mut q = query(o);
    q.tag_key = Some("one".into());
    assert_eq!(emails(&svc, q).await, set(&[]), "replaced tags leave the tag filter");

    // Clearing externalId; a patch that changes nothing writes nothing.
    let cleared =
        svc.patch_person(o, p.id, PatchPerson { external_id: Some(None), ..Default::default() }).await.unwrap();
    assert_eq!(cleared.external_id, None);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), cleared);
    let same = svc.patch_person(o, p.id, PatchPerson::default()).await.unwrap();
    assert_eq!(same, cleared);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), cleared);

    // Archive.
    let archived = svc.archive_person(o, p.id).await.unwrap();
    assert_eq!((archived.status, archived.archive_reason), (PersonStatus::Archived, Some(ArchiveReason::Archived)));
    assert!(archived.archived_at.is_some());
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), archived);
    assert_eq!(count_active(&svc, o).await, 0);
    assert_eq!(code(svc.archive_person(o, p.id).await), Code::NotFound);

    // Reactivate by import: same membership, memberSince kept, new tag merged, the archived
    // period recorded (D42).
    clock.advance(Duration::seconds(5));
    let mut again = import("PAT@example.com");
    again.tags = tag_names(&["four"]);
    let out = svc.import_person(o, again).await.unwrap();
    assert!(out.created);
    let r = out.person;
    assert_eq!(r.id, p.id);
    assert_eq!(r.member_since, p.member_since);
    assert_eq!((r.status, r.archive_reason, r.archived_at), (PersonStatus::Active, None, None));
    let gap = Period { from: archived.archived_at.unwrap(), until: r.updated_at };
    assert_eq!(r.inactive_periods, vec![gap]);
    assert_eq!(r.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), vec!["four", "Three", "Two"]);
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), r);
    assert_eq!(count_active(&svc, o).await, 1);
    let types: Vec<_> = events(&svc, o).await.iter().map(|e| e.event_type).collect();
    // D47: a person.updated per patch that changed something, none for the empty one.
    assert_eq!(
        types,
        vec![
            EventType::PersonCreated,
            EventType::PersonUpdated,
            EventType::PersonUpdated,
            EventType::PersonArchived,
            EventType::PersonCreated
        ]
    );

    // Withdrawal and deactivation persist their reason; a later import is refused.
    let s = svc.admin_archive_person(p.id, ArchiveReason::SelfRevoked).await.unwrap();
    assert_eq!(s.archive_reason, Some(ArchiveReason::SelfRevoked));
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), s);
    assert_eq!(code(svc.import_person(o, import("pat@example.com")).await), Code::PersonSelfRevoked);
    let d = svc.admin_archive_person(p.id, ArchiveReason::Deactivated).await.unwrap();
    assert_eq!(d.archive_reason, Some(ArchiveReason::Deactivated));
    assert_eq!(svc.get_person(o, p.id).await.unwrap(), d);
    assert_eq!(code(svc.import_person(o, import("pat@example.com")).await), Code::PersonDeactivated);
    assert_eq!(events(&svc, o).await.len(), 6, "the withdrawal archives; no second person.archived");
}

pub async fn removing_employee_removes_the_person_from_every_team<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let o = org.id;
    let p1 = imported(&svc, o, import("one@acme.com")).await;
    let p2 = imported(&svc, o, import("two@acme.com")).await;
    let p3 = imported(&svc, o, import("three@acme.com")).await;
    assert!(p1.labels.employee && p2.labels.employee);
    let blue = svc.create_team(o, "Blue".into()).await.unwrap();
    let red = svc.create_team(o, "Red".into()).await.unwrap();
    let tid = blue.id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.get_team(tid).await })).await;
    assert_eq!(got, Some(blue.clone()));

    svc.add_team_member(blue.id, p1.id).await.unwrap();
    svc.add_team_member(blue.id, p2.id).await.unwrap();
    assert_eq!(svc.add_team_member(blue.id, p1.id).await.unwrap(), vec![p1.id, p2.id], "adding twice is a no-op");
    svc.add_team_member(red.id, p1.id).await.unwrap();
    svc.add_team_member(red.id, p3.id).await.unwrap();
    let foreign_org = new_org(&svc, "business", &[]).await;
    let foreign = imported(&svc, foreign_org.id, import("x@example.com")).await;
    assert_eq!(code(svc.add_team_member(blue.id, foreign.id).await), Code::NotFound);

    // Keeping employee keeps membership.
    let kept = svc
        .patch_person(
            o,
            p2.id,
            PatchPerson { labels: Some(Labels { candidate: false, employee: true }), ..Default::default() },
        )
        .await
        .unwrap();
    assert!(kept.labels.employee);
    assert_eq!(team_members(&svc, blue.id).await, vec![p1.id, p2.id]);

    // Removing employee removes p1 from both teams, nobody else.
    svc.patch_person(o, p1.id, PatchPerson { labels: Some(Labels::DEFAULT), ..Default::default() }).await.unwrap();
    assert_eq!(svc.get_person(o, p1.id).await.unwrap().labels, Labels::DEFAULT);
    assert_eq!(team_members(&svc, blue.id).await, vec![p2.id]);
    assert_eq!(team_members(&svc, red.id).await, vec![p3.id]);

    // The port directly: returns how many memberships it removed.
    svc.add_team_member(red.id, p2.id).await.unwrap();
    let id = p2.id;
    let n = write(&svc, move |tx| Box::pin(async move { tx.remove_person_from_teams(id).await })).await.unwrap();
    assert_eq!(n, 2);
    let n = write(&svc, move |tx| Box::pin(async move { tx.remove_person_from_teams(id).await })).await.unwrap();
    assert_eq!(n, 0);
    assert_eq!(team_members(&svc, blue.id).await, Vec::<PersonId>::new());
    assert_eq!(team_members(&svc, red.id).await, vec![p3.id]);
}

pub async fn teams_list_by_name_with_member_counts_within_the_organization<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let b = svc.create_team(org.id, "Backend".into()).await.unwrap();
    let a = svc.create_team(org.id, "Analytics".into()).await.unwrap();
    svc.create_team(other.id, "Elsewhere".into()).await.unwrap();
    let p1 = imported(&svc, org.id, import("t1@acme.com")).await;
    let p2 = imported(&svc, org.id, import("t2@acme.com")).await;
    svc.add_team_member(b.id, p1.id).await.unwrap();
    svc.add_team_member(b.id, p2.id).await.unwrap();
    svc.add_team_member(b.id, p2.id).await.unwrap();
    let teams = svc.list_teams(org.id).await.unwrap();
    let got: Vec<(String, u64)> = teams.iter().map(|(t, n)| (t.name.clone(), *n)).collect();
    assert_eq!(got, vec![("Analytics".to_string(), 0), ("Backend".to_string(), 2)]);
    assert_eq!(teams[0].0.id, a.id);
    assert!(svc.list_teams(OrgId(Uuid::now_v7())).await.unwrap().is_empty());
}

pub async fn a_persons_teams_list_by_name_and_one_membership_is_removed_within_the_organization<S: Store + Clone>(
    store: S,
) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let ops = svc.create_team(org.id, "Ops".into()).await.unwrap();
    let design = svc.create_team(org.id, "Design".into()).await.unwrap();
    let elsewhere = svc.create_team(other.id, "Elsewhere".into()).await.unwrap();
    let p = imported(&svc, org.id, import("pt1@acme.com")).await;
    let q = imported(&svc, org.id, import("pt2@acme.com")).await;
    let stranger = imported(&svc, other.id, import("pt3@acme.com")).await;
    svc.add_team_member(ops.id, p.id).await.unwrap();
    svc.add_team_member(design.id, p.id).await.unwrap();
    svc.add_team_member(ops.id, q.id).await.unwrap();
    svc.add_team_member(elsewhere.id, stranger.id).await.unwrap();
    let names = |v: Vec<Team>| v.into_iter().map(|t| t.name).collect::<Vec<_>>();
    assert_eq!(names(svc.person_teams(org.id, p.id).await.unwrap()), ["Design", "Ops"]);
    assert_eq!(names(svc.person_teams(org.id, q.id).await.unwrap()), ["Ops"]);
    assert_eq!(code(svc.person_teams(org.id, stranger.id).await), Code::NotFound, "a person of another organization");

    assert_eq!(svc.remove_team_member(org.id, ops.id, p.id).await.unwrap(), vec![q.id]);
    assert_eq!(names(svc.person_teams(org.id, p.id).await.unwrap()), ["Design"]);
    assert_eq!(svc.remove_team_member(org.id, ops.id, p.id).await.unwrap(), vec![q.id], "removing twice is a no-op");
    // Another organization's team or person is not found, and nothing changes.
    assert_eq!(code(svc.remove_team_member(org.id, elsewhere.id, stranger.id).await), Code::NotFound);
    assert_eq!(code(svc.remove_team_member(other.id, ops.id, q.id).await), Code::NotFound);
    assert_eq!(code(svc.remove_team_member(org.id, ops.id, stranger.id).await), Code::NotFound);
    assert_eq!(team_members(&svc, elsewhere.id).await, vec![stranger.id]);
    assert_eq!(team_members(&svc, ops.id).await, vec![q.id]);
    // The port directly: whether a membership was removed.
    let (t, person) = (design.id, p.id);
    let removed = write(&svc, move |tx| Box::pin(async move { tx.remove_team_member(t, person).await })).await.unwrap();
    assert!(removed);
    let removed = write(&svc, move |tx| Box::pin(async move { tx.remove_team_member(t, person).await })).await.unwrap();
    assert!(!removed);
    assert!(svc.person_teams(org.id, p.id).await.unwrap().is_empty());
}

pub async fn failed_use_cases_write_nothing<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &["acme.com"]).await;
    let o = org.id;

    // Import of a person who withdrew: refused, nothing written.
    let gone = imported(&svc, o, import("gone@example.com")).await;
    let gone = svc.admin_archive_person(gone.id, ArchiveReason::SelfRevoked).await.unwrap();
    let before_events = events(&svc, o).await;
    let r = svc
        .import_person(
            o,
            ImportPerson {
                first_name: Some(name("G")),
                last_name: Some(name("One")),
                external_id: Some(ext("G-1")),
                tags: tag_names(&["Brand New"]),
                ..ImportPerson::new(email("gone@example.com"))
            },
        )
        .await;
    assert_eq!(code(r), Code::PersonSelfRevoked);
    assert_eq!(svc.get_person(o, gone.id).await.unwrap(), gone);
    assert_eq!(events(&svc, o).await, before_events);
    assert_eq!(probe_tag(&svc, o, "brand new").await, None);

    // A patch that fails after it resolved (inserted) new tags: the whole transaction rolls back.
    let mut input = import("named@acme.com");
    input.first_name = Some(name("Named"));
    let named = imported(&svc, o, input).await;
    let team = svc.create_team(o, "T".into()).await.unwrap();
    svc.add_team_member(team.id, named.id).await.unwrap();
    let before_events = events(&svc, o).await;
    let r = svc
        .patch_person(
            o,
            named.id,
            PatchPerson {
                first_name: Some(name("Other")),
                labels: Some(Labels::DEFAULT),
                tags: Some(tag_names(&["Fresh"])),
                ..Default::default()
            },
        )
        .await;
    assert_eq!(code(r), Code::Conflict);
    assert_eq!(probe_tag(&svc, o, "fresh").await, None, "the tag inserted before the failure is rolled back");
    assert_eq!(svc.get_person(o, named.id).await.unwrap(), named);
    assert_eq!(team_members(&svc, team.id).await, vec![named.id]);
    assert_eq!(events(&svc, o).await, before_events);
    assert_eq!(count_active(&svc, o).await, 1);

    // The store's contract directly: an `Err` from the body rolls back every write before it.
    let ghost = Organization { id: OrgId(Uuid::now_v7()), ..org.clone() };
    let g = ghost.clone();
    let r: Result<(), Probe<()>> = svc
        .store
        .write(move |tx| {
            Box::pin(async move {
                tx.insert_org(&g).await?;
                assert!(tx.get_org(g.id).await?.is_some(), "visible inside the transaction");
                Err(Probe::Found(()))
            })
        })
        .await;
    assert!(matches!(r, Err(Probe::Found(()))));
    let gid = ghost.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.get_org(gid).await })).await, None);
}

pub async fn documented_unique_violations_are_reported<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let p = imported(&svc, org.id, import("dup@example.com")).await;

    // insert_person: same organization and email.
    let dup = Person { id: PersonId(Uuid::now_v7()), tags: vec![], ..p.clone() };
    let r = write(&svc, move |tx| Box::pin(async move { tx.insert_person(&dup).await })).await;
    assert_eq!(r, Err(StoreError::UniqueViolation));
    assert_eq!(count_active(&svc, org.id).await, 1);

    // insert_user: same organization and email.
    let u = svc.create_user(org.id, email("u@example.com"), OrgRole::Member).await.unwrap();
    let dup = User { id: UserId(Uuid::now_v7()), ..u.clone() };
    let r = write(&svc, move |tx| Box::pin(async move { tx.insert_user(&dup).await })).await;
    assert_eq!(r, Err(StoreError::UniqueViolation));
    let o = org.id;
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.list_users_of_org(o).await })).await, vec![u]);
}

/// A caller that stops waiting for its write (a client gone mid-request: the request's future is
/// dropped) does not cancel it: the transaction runs to its end and commits (the port's contract;
/// T301, where SQLite's writes are queued to the writer thread without a task of their own).
pub async fn a_write_whose_caller_stops_waiting_still_commits<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    for i in 0..8 {
        let email = format!("gone{i}@example.com");
        let w = write(&svc, move |tx| {
            Box::pin(async move {
                tx.ensure_human(HumanId(uuid::Uuid::now_v7()), &email, OffsetDateTime::UNIX_EPOCH).await?;
                Ok(())
            })
        });
        // Polled once (the write starts), then dropped.
        let mut w = std::pin::pin!(w);
        std::future::poll_fn(|cx| {
            let _ = std::future::Future::poll(w.as_mut(), cx);
            std::task::Poll::Ready(())
        })
        .await;
    }
    for i in 0..8 {
        let email = format!("gone{i}@example.com");
        let mut found = None;
        for _ in 0..200 {
            let e = email.clone();
            found = read(&svc, move |tx| Box::pin(async move { tx.find_human(&e).await })).await;
            if found.is_some() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
        assert!(found.is_some(), "the write of {email} committed although its caller stopped waiting");
    }
}

/// T74: a use case that panics inside its transaction is rolled back and reported as an error,
/// and the connection it held serves the transactions that follow (SQLite's transactions are
/// written out by the store; PostgreSQL's are diesel's).
pub async fn a_panicking_transaction_writes_nothing_and_the_pool_stays_usable<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let o = new_org(&svc, "business", &[]).await.id;
    for _ in 0..3 {
        let r: StoreResult<()> = write(&svc, move |tx| {
            Box::pin(async move {
                let now = OffsetDateTime::UNIX_EPOCH;
                tx.ensure_human(HumanId(uuid::Uuid::now_v7()), "ghost@example.com", now).await?;
                panic!("a use case that panics half-way");
            })
        })
        .await;
        assert!(matches!(r, Err(StoreError::Internal(_))), "{r:?}");
    }
    let ghost = read(&svc, move |tx| Box::pin(async move { tx.find_human("ghost@example.com").await })).await;
    assert_eq!(ghost, None, "the panicking transaction's insert was rolled back");
    for i in 0..6 {
        imported(&svc, o, import(&format!("after{i}@example.com"))).await;
    }
    assert_eq!(count_active(&svc, o).await, 6);
}
