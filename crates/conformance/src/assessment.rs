//! Assessments and profiles (`AssessmentRepo`; D10, D11, D23, D25, D26, D51).

use super::*;

pub fn forced(a: &str, b: &str, chosen: &str) -> Response {
    Response { shown: [a.into(), b.into()], chosen: chosen.into() }
}

pub fn seeded(seed: u64) -> AssessmentCommand {
    AssessmentCommand { complete: true, responses: None, seed: Some(seed) }
}

pub async fn assessments_of<S: Store + Clone>(svc: &Svc<S>, human: HumanId) -> Vec<Assessment> {
    read(svc, move |tx| Box::pin(async move { tx.list_assessments_of_human(human).await })).await
}

pub async fn assessment_round_trips_responses_and_timestamps<S: Store + Clone>(store: S) {
    // D10: assessments belong to the human; responses stored as JSON, times to the microsecond.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let p = imported(&svc, org.id, import("ada@example.com")).await;
    let other = imported(&svc, org.id, import("bob@example.com")).await;
    let started = Assessment {
        id: AssessmentId(Uuid::now_v7()),
        human_id: p.human_id,
        origin_org: Some(org.id),
        state: AssessmentState::InProgress,
        started_at: datetime!(2026-02-03 04:05:06.789012 UTC),
        completed_at: None,
        responses: vec![],
        // T218: what the invitation granted round-trips with the assessment.
        accommodations: Some(Accommodations::new(25, true, true, Some("Bildschirmleser: NVDA".into())).unwrap()),
    };
    let s = started.clone();
    write(&svc, move |tx| Box::pin(async move { tx.insert_assessment(&s).await })).await.unwrap();
    assert_eq!(assessments_of(&svc, p.human_id).await, vec![started.clone()]);
    assert!(assessments_of(&svc, other.human_id).await.is_empty(), "another human has none");

    let mut done = started.clone();
    done.state = AssessmentState::Completed;
    done.completed_at = Some(datetime!(2026-02-03 04:35:00.000001 UTC));
    done.responses = vec![
        forced("mastery", "results", "mastery"),
        forced("helping", "influence", "influence"),
        forced("stability", "variety", "stability"),
    ];
    let d = done.clone();
    write(&svc, move |tx| Box::pin(async move { tx.update_assessment(&d).await })).await.unwrap();
    assert_eq!(assessments_of(&svc, p.human_id).await, vec![done.clone()]);

    // A second one, started earlier: the list is ordered by start time.
    let earlier = Assessment {
        id: AssessmentId(Uuid::now_v7()),
        human_id: p.human_id,
        // D51: an origin that is not known round-trips as such.
        origin_org: None,
        state: AssessmentState::Completed,
        started_at: datetime!(2026-01-01 00:00:00.5 UTC),
        completed_at: Some(datetime!(2026-01-01 00:10:00.25 UTC)),
        responses: seed_responses(&svc.assessment.model, 3),
        accommodations: None,
    };
    let e = earlier.clone();
    write(&svc, move |tx| Box::pin(async move { tx.insert_assessment(&e).await })).await.unwrap();
    assert_eq!(assessments_of(&svc, p.human_id).await, vec![earlier, done]);

    // A failed transaction leaves no assessment behind.
    let ghost = Assessment { id: AssessmentId(Uuid::now_v7()), ..started };
    let r: Result<(), Probe<()>> = svc
        .store
        .write(move |tx| {
            Box::pin(async move {
                tx.insert_assessment(&ghost).await?;
                Err(Probe::Found(()))
            })
        })
        .await;
    assert!(matches!(r, Err(Probe::Found(()))));
    assert_eq!(assessments_of(&svc, p.human_id).await.len(), 2);
}

pub async fn assessments_of_humans_returns_those_of_every_listed_human<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let mut persons = Vec::new();
    for (i, n) in [2usize, 1, 3, 1].iter().enumerate() {
        let p = imported(&svc, org.id, import(&format!("h{i}@example.com"))).await;
        for k in 0..*n {
            svc.admin_assessment(p.id, seeded(k as u64)).await.unwrap();
        }
        persons.push(p);
    }
    let listed: Vec<HumanId> = persons[..3].iter().map(|p| p.human_id).collect();
    let l = listed.clone();
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_assessments_of_humans(&l).await })).await;
    assert_eq!(got.len(), 6, "2 + 1 + 3, not the unlisted human's");
    for h in &listed {
        let mine: Vec<_> = got.iter().filter(|a| a.human_id == *h).cloned().collect();
        assert_eq!(mine, assessments_of(&svc, *h).await, "same rows, same order as one by one");
    }
    assert!(got.iter().all(|a| a.human_id != persons[3].human_id));
    let none = read(&svc, move |tx| Box::pin(async move { tx.list_assessments_of_humans(&[]).await })).await;
    assert!(none.is_empty());
}

pub async fn completion_stores_need_counts_that_score_like_the_responses<S: Store + Clone>(store: S) {
    // Issue 11: matches read the counts stored at completion; they must round-trip and equal the
    // counts of the stored responses. Running and never-completed assessments are not listed.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let ada = imported(&svc, org.id, import("ada@example.com")).await;
    let bob = imported(&svc, org.id, import("bob@example.com")).await;
    svc.admin_assessment(ada.id, seeded(1)).await.unwrap();
    svc.admin_assessment(ada.id, seeded(2)).await.unwrap();
    svc.admin_assessment(bob.id, AssessmentCommand { complete: false, responses: None, seed: None }).await.unwrap();
    let o = org.id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_completed_counts_of_result_holders(o).await })).await;
    let full = assessments_of(&svc, ada.human_id).await;
    assert_eq!(got.len(), 2, "Ada's two completions, not Bob's running assessment");
    let model = talent_domain::assessment::AssessmentModel::builtin().unwrap();
    let mut ids: Vec<_> = got.iter().map(|(a, _)| a.id).collect();
    ids.sort_by_key(|id| full.iter().position(|f| f.id == *id));
    assert_eq!(ids, full.iter().map(|f| f.id).collect::<Vec<_>>(), "both completions, in no particular order");
    for (a, counts) in &got {
        let f = full.iter().find(|f| f.id == a.id).unwrap();
        assert!(a.responses.is_empty(), "responses are not read");
        let want = talent_domain::assessment::need_counts(&model, &f.responses);
        let have = counts.clone().expect("counts stored at completion");
        assert_eq!(have, want);
        assert!(have.responses > 0 && have.fits(&model));
    }
    // Setting counts again overwrites them (here with counts of no model).
    let id = got[0].0.id;
    write(&svc, move |tx| {
        Box::pin(async move { tx.set_need_counts(id, &talent_domain::assessment::NeedCounts::default()).await })
    })
    .await
    .unwrap();
    let again =
        read(&svc, move |tx| Box::pin(async move { tx.list_completed_counts_of_result_holders(o).await })).await;
    let overwritten = again.iter().find(|(a, _)| a.id == id).unwrap();
    assert_eq!(overwritten.1, Some(talent_domain::assessment::NeedCounts::default()), "overwritten");
}

pub async fn persons_of_human_spans_organizations<S: Store + Clone>(store: S) {
    // D10: one human, one membership (person id) per organization, archived ones included.
    let (svc, _) = services(store);
    let mut memberships = Vec::new();
    for _ in 0..3 {
        let org = new_org(&svc, "business", &[]).await;
        memberships.push(imported(&svc, org.id, import("ada@example.com")).await);
    }
    let lone = new_org(&svc, "business", &[]).await;
    let bob = imported(&svc, lone.id, import("bob@example.com")).await;
    svc.archive_person(memberships[1].org_id, memberships[1].id).await.unwrap();
    let human = memberships[0].human_id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_persons_of_human(human).await })).await;
    let mut want: Vec<Person> = Vec::new();
    for m in &memberships {
        want.push(svc.get_person(m.org_id, m.id).await.unwrap());
    }
    want.sort_by_key(|p| p.id);
    assert_eq!(got, want, "every membership, by id");
    assert_eq!(got.iter().filter(|p| p.status == PersonStatus::Archived).count(), 1);
    let bh = bob.human_id;
    let got = write(&svc, move |tx| Box::pin(async move { tx.list_persons_of_human(bh).await })).await.unwrap();
    assert_eq!(got, vec![bob], "also in a write transaction (locks the rows on PostgreSQL)");
}

pub async fn persons_with_results_lists_active_members_with_visible_completions<S: Store + Clone>(store: S) {
    // D26: profile matches list active persons with results only; D11: visible ones.
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let done1 = imported(&svc, org.id, import("done1@example.com")).await;
    let running = imported(&svc, org.id, import("running@example.com")).await;
    let _never = imported(&svc, org.id, import("never@example.com")).await;
    let gone = imported(&svc, org.id, import("gone@example.com")).await;
    let elsewhere = imported(&svc, other.id, import("else@example.com")).await;
    // Completed in `other` before joining `org`: not visible to `org`.
    let early = imported(&svc, other.id, import("early@example.com")).await;
    svc.admin_assessment(early.id, seeded(1)).await.unwrap();
    clock.advance(Duration::minutes(1));
    let early_here = imported(&svc, org.id, import("early@example.com")).await;
    clock.advance(Duration::minutes(1));
    let done2 = imported(&svc, org.id, import("done2@example.com")).await;
    for p in [&done1, &gone, &elsewhere, &done2] {
        svc.admin_assessment(p.id, seeded(2)).await.unwrap();
    }
    svc.admin_assessment(done2.id, seeded(3)).await.unwrap();
    svc.admin_assessment(running.id, AssessmentCommand::default()).await.unwrap();
    svc.archive_person(org.id, gone.id).await.unwrap();

    let o = org.id;
    let got = read(&svc, move |tx| Box::pin(async move { tx.list_persons_with_results(o).await })).await;
    let ids: Vec<PersonId> = got.iter().map(|p| p.id).collect();
    let mut want = vec![done1.id, done2.id];
    want.sort_by(|a, b| b.cmp(a));
    assert_eq!(ids, want, "active, visible completions, newest first");
    assert!(!ids.contains(&early_here.id));
    assert_eq!(got.iter().map(|p| p.assessment.count).sum::<u32>(), 3, "summaries persisted");
    for p in &got {
        assert_eq!(*p, svc.get_person(org.id, p.id).await.unwrap(), "whole rows");
    }
    // The light read of matching (issue 11): the same memberships, in the same order.
    let holders = read(&svc, move |tx| Box::pin(async move { tx.list_result_holders(o).await })).await;
    let projected: Vec<ResultHolder> = got.iter().map(ResultHolder::from).collect();
    assert_eq!(holders, projected);
    let ot = other.id;
    let there = read(&svc, move |tx| Box::pin(async move { tx.list_persons_with_results(ot).await })).await;
    let mut want: Vec<PersonId> = vec![elsewhere.id, early.id];
    want.sort_by(|a, b| b.cmp(a));
    assert_eq!(there.iter().map(|p| p.id).collect::<Vec<_>>(), want);
}

pub async fn completion_persists_summaries_and_one_event_per_visible_membership<S: Store + Clone>(store: S) {
    // D11, D51 (b) on stored rows (microsecond timestamps compared with memberSince, the
    // membership's origin of the assessment), D31 outbox.
    let (svc, clock) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let pa = joined(&svc, a.id, "ada@example.com").await;
    clock.advance(Duration::minutes(1));
    let first = svc.admin_assessment(pa.id, seeded(1)).await.unwrap();
    clock.advance(Duration::minutes(1));
    let pb = joined(&svc, b.id, "ada@example.com").await;
    clock.advance(Duration::minutes(1));
    let second = svc.admin_assessment(pb.id, seeded(2)).await.unwrap();

    let (sa, sb) = (svc.get_person(a.id, pa.id).await.unwrap(), svc.get_person(b.id, pb.id).await.unwrap());
    let summary = |s: &AssessmentSummary| (s.status, s.completed_at, s.count);
    assert_eq!(summary(&sa.assessment), (AssessmentStatus::Completed, second.completed_at, 2));
    assert_eq!(summary(&sb.assessment), (AssessmentStatus::Completed, second.completed_at, 1));
    let ra = svc.results(a.id, pa.id).await.unwrap().scores.unwrap();
    let rb = svc.results(b.id, pb.id).await.unwrap().scores.unwrap();
    assert_eq!((ra.assessments, rb.assessments), (2, 1));
    // T85: each membership's stored totals are its visible assessments summed: they score the same.
    let model = &svc.assessment.model;
    let scored = |s: &AssessmentSummary| {
        let x = score_counts(model, &[s.totals.as_ref().expect("totals stored")]);
        (x.responses, x.needs, x.competencies)
    };
    let ra = (ra.responses, ra.needs, ra.competencies);
    let rb = (rb.responses, rb.needs, rb.competencies);
    assert_eq!((scored(&sa.assessment), scored(&sb.assessment)), (ra, rb));
    let completed = |v: Vec<OutboxEvent>| -> Vec<serde_json::Value> {
        v.into_iter().filter(|e| e.event_type == EventType::AssessmentCompleted).map(|e| e.data.value()).collect()
    };
    let ea = completed(events(&svc, a.id).await);
    let eb = completed(events(&svc, b.id).await);
    assert_eq!(ea.len(), 2);
    assert_eq!(ea[0]["assessmentId"], first.id.to_string());
    assert_eq!(eb.len(), 1);
    assert_eq!(eb[0]["assessmentId"], second.id.to_string());
    assert_eq!(eb[0]["personId"], pb.id.to_string());
    assert_eq!(
        assessments_of(&svc, pa.human_id).await.iter().map(|x| x.id).collect::<Vec<_>>(),
        vec![first.id, second.id]
    );
}

pub async fn d51_stored_origins_and_joins_decide_what_each_membership_sees<S: Store + Clone>(store: S) {
    // D51 on stored rows: the origin an assessment records and how each membership joined travel
    // through every read that matching and the summaries use. B imports the address, A's
    // invitation is answered and its assessment completed: B's summary, results, stored totals and
    // profile matches see nothing, A's see it.
    let (svc, clock) = services(store);
    let a = new_org(&svc, "business", &[]).await;
    let b = new_org(&svc, "business", &[]).await;
    let pb = imported(&svc, b.id, import("alice@example.com")).await;
    clock.advance(Duration::minutes(1));
    let pa = joined(&svc, a.id, "alice@example.com").await;
    clock.advance(Duration::minutes(1));
    let done = svc.admin_assessment(pa.id, seeded(7)).await.unwrap();
    let stored = assessments_of(&svc, pa.human_id).await;
    assert_eq!(stored.iter().map(|x| x.origin_org).collect::<Vec<_>>(), vec![Some(a.id)]);
    assert_eq!(stored[0].id, done.id);
    assert_eq!(svc.get_person(b.id, pb.id).await.unwrap().assessment, AssessmentSummary::NONE);
    assert!(svc.results(b.id, pb.id).await.unwrap().scores.is_none());
    assert_eq!(svc.get_person(a.id, pa.id).await.unwrap().assessment.count, 1);
    let ob = b.id;
    let holders = read(&svc, move |tx| Box::pin(async move { tx.list_result_holders(ob).await })).await;
    assert!(holders.is_empty(), "B holds no results: {holders:?}");
    let oa = a.id;
    let holders = read(&svc, move |tx| Box::pin(async move { tx.list_result_holders(oa).await })).await;
    assert_eq!(holders.len(), 1);
    assert_eq!(
        (holders[0].visibility.org_id, holders[0].visibility.established_by_person),
        (a.id, true),
        "the light read carries what D51 needs"
    );
    for org in [a.id, b.id] {
        let comps: Vec<(Uuid, f64)> = vec![(svc.assessment.model.competencies[0].id, 1.0)];
        let profile = svc
            .create_profile(
                org,
                NewProfile {
                    name: "Role".into(),
                    description: None,
                    competencies: comps
                        .iter()
                        .map(|(id, w)| ProfileCompetency { competency_id: *id, weight: *w })
                        .collect(),
                },
            )
            .await
            .unwrap();
        let page = svc.profile_matches(org, org, profile.id, None, None, 10).await.unwrap();
        assert_eq!(page.items.len(), usize::from(org == a.id), "matches of {org:?}");
    }
    let completed_in =
        |v: Vec<OutboxEvent>| v.iter().filter(|e| e.event_type == EventType::AssessmentCompleted).count();
    assert_eq!((completed_in(events(&svc, a.id).await), completed_in(events(&svc, b.id).await)), (1, 0));
}

pub async fn concurrent_completions_through_memberships_of_one_human_all_count<S: Store + Clone>(store: S) {
    // A human in two organizations: completions through either membership run concurrently;
    // each must commit (no deadlock between the memberships' row locks) and count everywhere.
    let (svc, _) = services(store);
    let ([a, b], [pa, pb]) = one_human_in_two(&svc).await;
    let (ida, idb) = (pa.id, pb.id);
    let completions = race(&svc, 8, |svc, i| async move {
        svc.admin_assessment(if i % 2 == 0 { ida } else { idb }, seeded(i as u64)).await
    });
    for c in completions.await {
        c.expect("every completion commits");
    }
    assert_eq!(svc.get_person(a.id, pa.id).await.unwrap().assessment.count, 8);
    assert_eq!(svc.get_person(b.id, pb.id).await.unwrap().assessment.count, 8);
    assert_eq!(assessments_of(&svc, pa.human_id).await.len(), 8);
    for org in [a.id, b.id] {
        let n = events(&svc, org).await.iter().filter(|e| e.event_type == EventType::AssessmentCompleted).count();
        assert_eq!(n, 8, "one event per completion in each organization");
    }
}

pub async fn concurrent_starts_of_one_human_create_one_running_assessment<S: Store + Clone>(store: S) {
    let (svc, _) = services(store);
    let ([_, b], [pa, pb]) = one_human_in_two(&svc).await;
    let (ida, idb) = (pa.id, pb.id);
    let starts = race(&svc, 8, |svc, i| async move {
        svc.admin_assessment(if i % 2 == 0 { ida } else { idb }, AssessmentCommand::default()).await
    });
    let ids: BTreeSet<_> = starts.await.into_iter().map(|s| s.expect("every start commits").id).collect();
    assert_eq!(ids.len(), 1, "all starts return the one running assessment");
    assert_eq!(assessments_of(&svc, pa.human_id).await.len(), 1);
    assert_eq!(svc.get_person(b.id, pb.id).await.unwrap().assessment.status, AssessmentStatus::InProgress);
}

/// Two organizations and a membership of one human (`ada@example.com`) in each, joined by invitation.
pub async fn one_human_in_two<S: Store + Clone>(svc: &Svc<S>) -> ([Organization; 2], [Person; 2]) {
    let a = new_org(svc, "business", &[]).await;
    let b = new_org(svc, "business", &[]).await;
    let pa = joined(svc, a.id, "ada@example.com").await;
    let pb = joined(svc, b.id, "ada@example.com").await;
    ([a, b], [pa, pb])
}

pub fn profile_input(
    name: &str,
    weights: &[(usize, f64)],
    model: &talent_domain::assessment::AssessmentModel,
) -> NewProfile {
    NewProfile {
        name: name.into(),
        description: Some(format!("«{name}» — für Zoë's team; 100% \"quoted\"")),
        competencies: weights
            .iter()
            .map(|(i, w)| ProfileCompetency { competency_id: model.competencies[*i].id, weight: *w })
            .collect(),
    }
}

pub async fn profiles_round_trip_list_newest_first_and_count<S: Store + Clone>(store: S) {
    // D25: profile fields; D36 keyset (newest first); D5 usage counts.
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let model = svc.assessment.model.clone();
    let mut made = Vec::new();
    for i in 0..7usize {
        let weights = [(i, 0.1 + 0.05 * i as f64), ((i + 3) % model.competencies.len(), 1.0 / 3.0)];
        made.push(svc.create_profile(org.id, profile_input(&format!("Role {i}"), &weights, &model)).await.unwrap());
    }
    let plain = svc
        .create_profile(org.id, NewProfile { description: None, ..profile_input("Plain", &[(0, 1.0)], &model) })
        .await
        .unwrap();
    made.push(plain.clone());
    svc.create_profile(other.id, profile_input("Theirs", &[(1, 0.5)], &model)).await.unwrap();

    for p in &made {
        assert_eq!(svc.get_profile(org.id, p.id).await.unwrap(), *p, "every field, weights exactly");
        assert_eq!(code(svc.get_profile(other.id, p.id).await), Code::NotFound);
    }
    assert_eq!(plain.description, None);
    assert_ne!(made[0].created_at.microsecond(), 0, "sub-second digits kept");

    let (o, ot) = (org.id, other.id);
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.count_profiles(o).await })).await, 8);
    assert_eq!(read(&svc, move |tx| Box::pin(async move { tx.count_profiles(ot).await })).await, 1);
    assert_eq!(svc.organization(org.id).await.unwrap().1.profiles_used, 8);

    let newest_first: Vec<ProfileId> = made.iter().rev().map(|p| p.id).collect();
    for size in [1u32, 3, 8, 100] {
        let mut seen = Vec::new();
        let mut before = None;
        loop {
            let page = svc.list_profiles(org.id, before, size).await.unwrap();
            assert!(page.items.len() <= size as usize);
            seen.extend(page.items.iter().map(|p| p.id));
            if !page.has_more {
                break;
            }
            before = page.items.last().map(|p| p.id);
        }
        assert_eq!(seen, newest_first, "size {size}: no gaps, no duplicates, newest first");
    }
    // The store's own limit and cursor, with an "everything" limit (person matches use it).
    let all = read(&svc, move |tx| Box::pin(async move { tx.list_profiles(o, None, u32::MAX).await })).await;
    assert_eq!(all.iter().map(|p| p.id).collect::<Vec<_>>(), newest_first);
    let cut = made[3].id;
    let older = read(&svc, move |tx| Box::pin(async move { tx.list_profiles(o, Some(cut), 2).await })).await;
    assert_eq!(older.iter().map(|p| p.id).collect::<Vec<_>>(), vec![made[2].id, made[1].id]);
}

/// Issue 16 point 5 (admin API): a profile's change is stored whole, a deletion is of the named
/// organization's profile only, and frees a place of the plan's limit.
pub async fn profiles_are_changed_and_deleted_within_their_organization<S: Store + Clone>(store: S) {
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let other = new_org(&svc, "business", &[]).await;
    let model = svc.assessment.model.clone();
    let p = svc.create_profile(org.id, profile_input("Before", &[(0, 0.5), (1, 0.5)], &model)).await.unwrap();
    clock.advance(Duration::seconds(3));
    let patch = ProfilePatch {
        name: Some("After".into()),
        description: Some(None),
        competencies: Some(vec![ProfileCompetency { competency_id: model.competencies[2].id, weight: 0.25 }]),
    };
    let changed = svc.update_profile(org.id, p.id, patch).await.unwrap();
    assert_eq!((changed.name.as_str(), changed.description.as_deref()), ("After", None));
    assert!(changed.updated_at > p.updated_at && changed.created_at == p.created_at);
    assert_eq!(svc.get_profile(org.id, p.id).await.unwrap(), changed, "stored as returned");
    let keep = ProfilePatch { name: Some("Again".into()), ..Default::default() };
    assert_eq!(svc.update_profile(org.id, p.id, keep).await.unwrap().competencies, changed.competencies);
    let bad = ProfilePatch { competencies: Some(vec![]), ..Default::default() };
    assert_eq!(code(svc.update_profile(org.id, p.id, bad).await), Code::ValidationError);
    assert_eq!(code(svc.update_profile(other.id, p.id, ProfilePatch::default()).await), Code::NotFound);

    assert_eq!(code(svc.delete_profile(other.id, p.id).await), Code::NotFound, "another organization's");
    svc.delete_profile(org.id, p.id).await.unwrap();
    assert_eq!(code(svc.get_profile(org.id, p.id).await), Code::NotFound);
    assert_eq!(code(svc.delete_profile(org.id, p.id).await), Code::NotFound);
    assert_eq!(svc.organization(org.id).await.unwrap().1.profiles_used, 0);
}
