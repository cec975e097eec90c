//! An ATS-style synchronization (issue requirement): a bulk import of 2,000 persons under
//! `Idempotency-Key`s with retries (D38), then an incremental sync that fetches only what changed
//! with `updatedAfter` and walks every page (spec GET /persons; D36), on the business plan (D5);
//! and the same through the events feed, with writers running while the ATS loads (D47, D48).
use crate::persons::{enc, id_of, par_map, person_path, walk};
use crate::support::{Resp, TestApp};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;
use talent_client::events::EventQuery;

const N: usize = 2000;
const THREADS: usize = 6;

fn import_body(i: usize) -> Value {
    json!({"email": format!("cand{i:04}@ats.example"), "firstName": "Cand", "lastName": format!("No{i}"),
           "externalId": format!("ats-{i}"), "tags": ["synced"]})
}

fn import(app: &TestApp, key: &str, i: usize) -> Resp {
    let idem = format!("ats-sync-{i}");
    app.send_with("POST", "/api/v1/persons", key, &import_body(i), &[("Idempotency-Key", &idem)])
}

fn id_set(items: &[Value]) -> BTreeSet<String> {
    let set: BTreeSet<String> = items.iter().map(id_of).collect();
    assert_eq!(set.len(), items.len(), "no duplicates across pages");
    set
}

// Issue requirement, D38 + spec updatedAfter + D36: 2,000 imports (with 100 idempotent retries
// replayed byte for byte), then 100 changed and 50 archived persons; `updatedAfter=T` returns
// exactly those across pages of 100 (active and archived separately), and a full walk of the
// active pool returns exactly 1,950 distinct ids, newest (highest id) first.
crate::e2e!(an_ats_sync_imports_2000_persons_and_then_fetches_only_the_changes, Default::default(), |app| {
    let started = Instant::now();
    let org = app.org("business", "active");

    let imported = par_map(N, THREADS, |i| {
        let r = import(app, &org.key, i);
        assert_eq!(r.status, 201, "import {i}: {}", r.text);
        assert_eq!(r.header("idempotency-replayed"), None, "import {i}");
        r
    });
    let ids: Vec<String> = imported.iter().map(|r| id_of(&r.json)).collect();
    assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), N, "2,000 distinct persons");
    let imported_at = started.elapsed();

    // The ATS retries 100 requests (say, after timeouts): each is replayed, nothing new is made.
    par_map(100, THREADS, |j| {
        let i = j * 20;
        let r = import(app, &org.key, i);
        assert_eq!(r.status, 201, "retry {i}: {}", r.text);
        assert_eq!(r.header("idempotency-replayed"), Some("true"), "retry {i}");
        assert_eq!(r.text, imported[i].text, "retry {i} replays the identical body");
    });

    // T: the last change of the import (every import has answered, so nothing is later).
    let t = imported.iter().map(|r| r.json["updatedAt"].as_str().unwrap().to_string()).max().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(10));

    // 100 changed (i % 20 == 1) and 50 archived (i % 40 == 2): disjoint sets.
    let changed: Vec<usize> = (0..N).filter(|i| i % 20 == 1).collect();
    let archived: Vec<usize> = (0..N).filter(|i| i % 40 == 2).collect();
    assert_eq!((changed.len(), archived.len()), (100, 50));
    par_map(changed.len(), THREADS, |j| {
        let i = changed[j];
        let r = app.send("PATCH", &person_path(&ids[i]), &org.key, &json!({"externalId": format!("ats-{i}-v2")}));
        assert_eq!(r.status, 200, "patch {i}: {}", r.text);
        assert!(r.json["updatedAt"].as_str().unwrap() > t.as_str(), "patch {i} is after T");
    });
    par_map(archived.len(), THREADS, |j| {
        let r = app.delete(&person_path(&ids[archived[j]]), &org.key);
        assert_eq!(r.status, 200, "archive {}: {}", archived[j], r.text);
    });

    // Incremental sync: only the changes, across pages of 100.
    let after = format!("updatedAfter={}", enc(&t));
    let (active_changes, sizes) = walk(app, &org.key, &format!("status=active&{after}"), 100);
    assert_eq!(sizes, [100], "{sizes:?}");
    let want: BTreeSet<String> = changed.iter().map(|&i| ids[i].clone()).collect();
    assert_eq!(id_set(&active_changes), want);
    for p in &active_changes {
        let i: usize = p["lastName"].as_str().unwrap().trim_start_matches("No").parse().unwrap();
        assert_eq!(p["externalId"], format!("ats-{i}-v2"));
        assert_eq!(p["status"], "active");
    }
    let (archived_changes, sizes) = walk(app, &org.key, &format!("status=archived&{after}"), 100);
    assert_eq!(sizes, [50]);
    let want: BTreeSet<String> = archived.iter().map(|&i| ids[i].clone()).collect();
    assert_eq!(id_set(&archived_changes), want);
    assert!(archived_changes.iter().all(|p| p["status"] == "archived" && p["archivedAt"].is_string()));
    // The same incremental sync as an integration writes it with the Rust client (issue 6): its
    // iterator follows the cursors (pages of 7 here) and yields exactly the archived persons.
    let api = talent_client::Client::new(&app.base, &org.key);
    let since = time::OffsetDateTime::parse(&t, &time::format_description::well_known::Rfc3339).unwrap();
    let query = talent_client::models::PersonQuery {
        status: Some("archived".into()),
        updated_after: Some(since),
        limit: Some(7),
        ..Default::default()
    };
    let via_client: BTreeSet<String> = api.persons(query).map(|p| p.unwrap().id.to_string()).collect();
    assert_eq!(via_client, want);
    // Smaller pages give the same answer.
    let (small, sizes) = walk(app, &org.key, &format!("status=active&{after}"), 30);
    assert_eq!(sizes, [30, 30, 30, 10]);
    assert_eq!(id_set(&small), id_set(&active_changes));

    // Full walk of the active pool.
    let (all, sizes) = walk(app, &org.key, "status=active", 100);
    assert_eq!(all.len(), N - 50);
    assert_eq!(sizes.len(), 20);
    assert!(sizes[..19].iter().all(|&s| s == 100) && sizes[19] == 50, "{sizes:?}");
    let all_ids: Vec<String> = all.iter().map(id_of).collect();
    let set = id_set(&all);
    let mut expected: BTreeSet<String> = ids.iter().cloned().collect();
    for &i in &archived {
        expected.remove(&ids[i]);
    }
    assert_eq!(set, expected);
    assert!(all_ids.windows(2).all(|w| w[0] > w[1]), "newest (highest UUIDv7) first across pages");

    let o = app.get("/api/v1/organization", &org.key);
    assert_eq!(o.json["usage"]["persons"], json!({"used": 1950, "limit": 5000, "importBlocked": false}));
    eprintln!("sync on {:?}: import of {N} in {:?}, whole test {:?}", app.backend, imported_at, started.elapsed());
});

/// Applies every event after `after` to `copy` (person id → Person), in sequence order, through
/// the Rust client; returns the last sequence seen (the ATS's checkpoint).
fn follow_feed(api: &talent_client::Client, mut after: u64, copy: &mut HashMap<String, Value>) -> u64 {
    let q = EventQuery { types: vec![], limit: Some(100) };
    loop {
        let page = api.list_events(after, &q).expect("feed page");
        for e in &page.data {
            assert!(e.sequence > after, "ascending, each once");
            after = e.sequence;
            if e.event_type.starts_with("person.") {
                // The Person as of that commit; `previousAttributes` and `archiveReason` are
                // about the change, not members of the Person.
                let mut p = e.data.clone();
                let m = p.as_object_mut().expect("Person object");
                m.remove("previousAttributes");
                m.remove("archiveReason");
                copy.insert(id_of(&p), p);
            }
        }
        if !page.pagination.has_more {
            return after;
        }
    }
}

// Issue 15, D47 + D48 + T107: the ATS keeps an exact copy through the feed. It takes the feed's
// checkpoint, loads the pool (`status=any`, one pass) while writers run 2,000 imports (500 before
// it connects), 100 changes and 50 archivals, and applies the feed from the checkpoint in
// sequence order as it goes and once more at the end. Its copy then equals the pool, member for
// member: what the load read before an event is overwritten by that event, and every later change
// is an event (the feed has no gaps in commit order).
crate::e2e!(an_ats_keeps_an_exact_copy_through_the_feed_while_others_write_d48, Default::default(), |app| {
    let org = app.org("business", "active");
    let api = talent_client::Client::new(&app.base, &org.key);
    let first: Vec<String> = par_map(500, THREADS, |i| {
        let r = import(app, &org.key, i);
        assert_eq!(r.status, 201, "{}", r.text);
        id_of(&r.json)
    });

    // 1. The checkpoint: the feed's end now (here the 500 imports; an ATS that connects later
    //    than the 30-day window reads to the end the same way).
    let mut scratch = HashMap::new();
    let mut after = follow_feed(&api, 0, &mut scratch);
    assert_eq!(scratch.len(), 500);

    let mut copy: HashMap<String, Value> = HashMap::new();
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut all = par_map(N - 500, THREADS, |j| {
                let r = import(app, &org.key, 500 + j);
                assert_eq!(r.status, 201, "{}", r.text);
                id_of(&r.json)
            });
            all.extend(first.iter().cloned());
            all.sort();
            // 100 changes and 50 archivals, disjoint, spread over old and new persons.
            par_map(100, THREADS, |j| {
                let path = person_path(&all[j * 20 + 1]);
                let r = app.send("PATCH", &path, &org.key, &json!({"externalId": format!("moved-{j}")}));
                assert_eq!(r.status, 200, "{}", r.text);
            });
            par_map(50, THREADS, |j| {
                let r = app.delete(&person_path(&all[j * 40 + 2]), &org.key);
                assert_eq!(r.status, 200, "{}", r.text);
            });
        });
        // 2. The initial load, while the writers write.
        let (loaded, _) = walk(app, &org.key, "status=any", 100);
        for p in loaded {
            copy.insert(id_of(&p), p);
        }
        // 3. The feed from the checkpoint, as the changes come.
        while !writer.is_finished() {
            after = follow_feed(&api, after, &mut copy);
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        writer.join().expect("writer");
    });
    after = follow_feed(&api, after, &mut copy);

    // The copy is the pool, exactly.
    let (truth, _) = walk(app, &org.key, "status=any", 100);
    assert_eq!(truth.len(), N);
    let truth: HashMap<String, Value> = truth.into_iter().map(|p| (id_of(&p), p)).collect();
    assert_eq!(copy.len(), truth.len());
    let wrong: Vec<&String> = truth.iter().filter(|(id, p)| copy.get(*id) != Some(p)).map(|(id, _)| id).collect();
    assert!(wrong.is_empty(), "{} persons differ, e.g. {:?}", wrong.len(), wrong.first());
    assert_eq!(truth.values().filter(|p| p["status"] == "archived").count(), 50);
    assert_eq!(
        truth.values().filter(|p| p["externalId"].as_str().is_some_and(|x| x.starts_with("moved-"))).count(),
        100
    );
    assert!(after > 0);
});
