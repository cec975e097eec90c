#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Store conformance: the domain's suite (`talent_conformance`, which the in-memory fake
//! passes too) and the tests of what only this store has (migrations, group commit, wake-ups,
//! what the tables hold, secrets at rest), run against embedded SQLite always and against
//! PostgreSQL when `TEST_DATABASE_URL` names a server (and a database to connect to for
//! `CREATE DATABASE`), e.g. `postgres://postgres@127.0.0.1:5432/test`.
//!
//! Every test gets a fresh database ([`TestDb`]), migrates it, drives [`DbStore`] and drops the
//! database at the end, also when the body panics.

use std::collections::BTreeSet;
use std::future::Future;
use std::sync::Arc;
use talent_conformance::*;
use talent_domain::errors::{Code, StoreError};
use talent_domain::events::{EventType, OutboxEvent};
use talent_domain::ids::*;
use talent_domain::ports::*;
use talent_domain::results::AssessmentStatus;
use talent_domain::usecases::assessments::AssessmentCommand;
use talent_domain::usecases::idempotency::{IdempotencyBegin, StoredResponse};
use talent_domain::usecases::webhooks::{EndpointPatch, NewEndpoint};
use talent_domain::values::{Email, OrgRole};
use talent_domain::webhook::*;
use talent_domain::wire::person_json;
use talent_store::testing::TestDb;
use talent_store::DbStore;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Kind {
    Sqlite,
    Postgres,
}

/// Creates a database of `kind`, migrates it, runs `body` on a connected store and drops the
/// database whatever the outcome. `fresh`: an empty database, checked not to be ready before its
/// migrations ran; otherwise, on PostgreSQL, a copy of a migrated template (~0.1 s instead of
/// ~0.6 s, issue 14 point 7), checked to have no migration left.
async fn run<F, Fut>(kind: Kind, fresh: bool, body: F)
where
    F: FnOnce(DbStore) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let db = match kind {
        Kind::Sqlite => {
            let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
            std::fs::create_dir_all(&dir).expect("create the SQLite test directory");
            TestDb::sqlite(&dir)
        }
        Kind::Postgres => {
            let Some(admin) = std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.is_empty()) else {
                println!("skipped: TEST_DATABASE_URL unset");
                return;
            };
            let db = if fresh { TestDb::postgres(&admin).await } else { TestDb::postgres_migrated(&admin).await };
            db.expect("create the PostgreSQL test database")
        }
    };
    let url = db.url.clone();
    let migrated = matches!(kind, Kind::Postgres) && !fresh;
    let outcome = tokio::spawn(async move {
        let store = DbStore::connect(&url, 8).expect("connect");
        if migrated {
            assert_eq!(store.migrate().await.expect("migrate"), 0, "the template has every migration");
        } else {
            assert!(store.ready().await.is_err(), "a fresh database is not ready before migrations ran");
            let applied = store.migrate().await.expect("migrate");
            assert!(applied > 0, "migrations applied to a fresh database");
        }
        body(store).await;
    })
    .await;
    db.drop_db().await.expect("drop the test database");
    if let Err(e) = outcome {
        match e.try_into_panic() {
            Ok(p) => std::panic::resume_unwind(p),
            Err(e) => panic!("test task failed: {e}"),
        }
    }
}

/// Whether the test `name` needs an empty database: the tests of the migrations themselves.
fn fresh(name: &str) -> bool {
    name == "migrations_apply_once_and_the_store_is_ready"
}

/// The domain's suite on SQLite: a fresh database per test.
async fn sqlite<F, Fut>(body: F)
where
    F: FnOnce(DbStore) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    run(Kind::Sqlite, true, body).await
}

/// The domain's suite on PostgreSQL: a copy of the migrated template per test.
async fn postgres<F, Fut>(body: F)
where
    F: FnOnce(DbStore) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    run(Kind::Postgres, false, body).await
}

/// The domain's suite (`talent_conformance`) on both backends.
mod suite {
    mod sqlite {
        talent_conformance::store_conformance_suite!(super::super::sqlite);
    }
    mod postgres {
        talent_conformance::store_conformance_suite!(super::super::postgres);
    }
}

/// Generates `sqlite::NAME` and `postgres::NAME` tests for every body `NAME(store: DbStore)`.
macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    super::run(super::Kind::Sqlite, true, super::$name).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    super::run(super::Kind::Postgres, super::fresh(stringify!($name)), super::$name).await;
                }
            )*
        }
    };
}

conformance!(
    migrations_apply_once_and_the_store_is_ready,
    the_counter_migration_counts_the_persons_already_there,
    the_origin_migration_attributes_existing_assessments_and_recounts_imported_memberships,
    the_sequence_migration_renumbers_each_organizations_events_in_their_order,
    transactions_committed_in_one_group_keep_their_own_outcomes,
    a_priority_writer_commits_ahead_of_a_queued_group,
    wake_ups_follow_commits_of_due_deliveries_only,
    the_backlog_counts_pending_and_due_deliveries_and_dates_the_oldest_due_one,
    erasure_removes_the_persons_data_from_the_organizations_tables,
    the_humans_export_holds_every_record_and_the_admin_erasure_leaves_no_trace,
    secrets_are_sealed_at_rest_and_a_database_from_before_is_resealed,
    live_links_are_sealed_at_rest_and_a_database_from_before_is_sealed_once,
    ats_credentials_are_sealed_at_rest_and_resealed_under_a_new_key_d63,
    imports_read_no_index_entries_of_other_persons_however_large_the_pool_grows,
    stored_addresses_take_their_ascii_domain_unless_rows_would_merge_d55,
);

/// A value a write body takes once, though the body may be cloned and run again.
type Once<T> = std::sync::Arc<std::sync::Mutex<Option<T>>>;

fn once<T>(value: T) -> Once<T> {
    std::sync::Arc::new(std::sync::Mutex::new(Some(value)))
}

fn take<T>(once: &Once<T>) -> Option<T> {
    once.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// T75 tests: a write transaction that inserts the human `email` and then holds the write turn
/// (SQLite) or its transaction (PostgreSQL) until the returned sender fires; returns once it is
/// inside its transaction.
async fn hold_write_turn(
    svc: &Svc<DbStore>,
    email_address: &'static str,
) -> (tokio::task::JoinHandle<StoreResult<()>>, tokio::sync::oneshot::Sender<()>) {
    let (started_tx, started) = tokio::sync::oneshot::channel();
    let (release, released) = tokio::sync::oneshot::channel::<()>();
    let svc = svc.clone();
    // A body may run again (a clone) when its group is rolled back: the channels are taken once.
    let (started_tx, released) = (once(started_tx), once(released));
    let blocker = tokio::spawn(async move {
        write(&svc, move |tx| {
            Box::pin(async move {
                tx.ensure_human(HumanId(Uuid::now_v7()), email(email_address).as_str(), OffsetDateTime::UNIX_EPOCH)
                    .await?;
                if let Some(started) = take(&started_tx) {
                    started.send(()).unwrap();
                }
                if let Some(released) = take(&released) {
                    released.await.unwrap();
                }
                Ok(())
            })
        })
        .await
    });
    started.await.unwrap();
    (blocker, release)
}

/// Waits until `n` write transactions are queued for the SQLite write turn (T75).
async fn wait_until_queued(store: &DbStore, n: usize) {
    while store.write_stats().queued < n {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// The SQLite database at `url`'s write-ahead log: its header's salt-1 and the file's length.
/// SQLite adds one to salt-1 each time a writer starts the log again from its beginning, after a
/// checkpoint has copied all of it (<https://www.sqlite.org/fileformat2.html#walformat>).
fn log_salt(url: &str) -> (u32, u64) {
    let path = url.strip_prefix("sqlite://").expect("a sqlite:// URL");
    let log = std::fs::read(format!("{path}-wal")).expect("read the write-ahead log");
    let salt = log.get(16..20).map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    (salt, log.len() as u64)
}

/// T263: SQLite's automatic checkpoint is off on the store's connections, and the write queue
/// checkpoints the write-ahead log beside the writer, wholly, so that the log is used again from
/// its beginning instead of growing with every commit. With nothing reading beside the writer,
/// every checkpoint lets the next commit start the log again (the last may have no commit after
/// it, and 15 of 20 leaves room); without checkpoints, or with checkpoints that never copy all of
/// it while writes go on, it would hardly ever start again, and the file would hold at least a
/// page (4 KiB and a frame header) per commit. The file's length alone is a loose measure: it is
/// the longest stretch between two new starts, and on a loaded machine the write-turn time that
/// spaces checkpoints varies, so one stretch can be several times the average (CI once saw half a
/// page per commit with 20 checkpoints).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_log_is_checkpointed_beside_the_writer_and_used_again_t263() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    std::fs::create_dir_all(&dir).expect("create the SQLite test directory");
    let db = TestDb::sqlite(&dir);
    let url = db.url.clone();
    let outcome = tokio::spawn(async move {
        let store = DbStore::connect(&url, 8).expect("connect");
        store.migrate().await.expect("migrate");
        let (svc, _) = services(store.clone());
        write(&svc, humans(vec!["log@example.com".into()])).await.unwrap();
        let (first_salt, _) = log_salt(&url);
        let before = store.write_stats();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let mut n = 0u32;
        while store.write_stats().checkpoints - before.checkpoints < 20 {
            assert!(std::time::Instant::now() < deadline, "20 checkpoints within 2 minutes of writes");
            write(&svc, humans(vec![format!("log{n}@example.com")])).await.unwrap();
            n += 1;
        }
        let commits = store.write_stats().groups - before.groups;
        let (salt, log) = log_salt(&url);
        let started_again = salt.wrapping_sub(first_salt);
        assert!(started_again >= 15, "the log was started again {started_again} times after 20 checkpoints");
        assert!(log < commits * 4096, "the log ({log} bytes) holds less than a page for each of the {commits} commits");
        let e = email("log@example.com");
        let first = read(&svc, move |tx| Box::pin(async move { tx.find_human(e.as_str()).await })).await;
        assert!(first.is_some(), "what was checkpointed is read back");
    })
    .await;
    db.drop_db().await.expect("drop the test database");
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// T295: SQLite's write transactions run on a writer thread of the database's stores, which ends
/// when the last of them is dropped, its connections closed before the drop returns: the last
/// connection to close has copied the write-ahead log into the database and removed it, so the
/// file can be copied or opened by another process at once. Writes queued by two stores (the
/// engine's has a pool of its own) run on the one writer and are all kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_last_sqlite_store_ends_its_writer_and_closes_the_database_t295() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    std::fs::create_dir_all(&dir).expect("create the SQLite test directory");
    let db = TestDb::sqlite(&dir);
    let url = db.url.clone();
    let outcome = tokio::spawn(async move {
        let store = DbStore::connect(&url, 4).expect("connect");
        store.migrate().await.expect("migrate");
        let engine = store.with_own_pool(2).expect("a second store");
        let (svc, _) = services(store.clone());
        let (engine_svc, _) = services(engine.clone());
        let writes = (0..20).map(|n| {
            let svc = if n % 2 == 0 { svc.clone() } else { engine_svc.clone() };
            tokio::spawn(async move { write(&svc, humans(vec![format!("w{n}@example.com")])).await })
        });
        for w in writes.collect::<Vec<_>>() {
            w.await.expect("the write's task").expect("the write");
        }
        let path = url.strip_prefix("sqlite://").expect("a sqlite:// URL").to_string();
        assert!(std::path::Path::new(&format!("{path}-wal")).exists(), "the log is in use while the stores live");
        drop((svc, engine_svc, store, engine));
        assert!(
            !std::path::Path::new(&format!("{path}-wal")).exists(),
            "the log is copied and removed once the last store is dropped"
        );
        let reopened = DbStore::connect(&url, 1).expect("connect again");
        let (svc, _) = services(reopened);
        for n in [0, 19] {
            let e = email(&format!("w{n}@example.com"));
            let found = read(&svc, move |tx| Box::pin(async move { tx.find_human(e.as_str()).await })).await;
            assert!(found.is_some(), "w{n} was kept");
        }
    })
    .await;
    db.drop_db().await.expect("drop the test database");
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// T327: on SQLite a read by key runs its statement on the calling thread, so it answers while
/// every thread of tokio's blocking pool is busy (a long search, say), where a plain read, whose
/// statements go to that pool, waits for one.
#[test]
fn a_sqlite_read_by_key_answers_while_the_blocking_pool_is_busy_t327() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    std::fs::create_dir_all(&dir).expect("create the SQLite test directory");
    let db = TestDb::sqlite(&dir);
    let url = db.url.clone();
    // Migrated first, on a runtime of its own: the migration harness blocks one thread of the
    // pool while its statements use another.
    let setup = tokio::runtime::Runtime::new().expect("a runtime");
    setup.block_on(async { DbStore::connect(&url, 2).expect("connect").migrate().await.expect("migrate") });
    drop(setup);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(1)
        .enable_all()
        .build()
        .expect("a runtime");
    let outcome = rt.block_on(async move {
        tokio::spawn(async move {
            let store = DbStore::connect(&url, 2).expect("connect");
            let org = OrgId(Uuid::now_v7());
            // A read first: the read pool keeps an open connection (opening one uses the pool).
            assert!(store.read(peek(org)).await.expect("a read"));
            let (release, held) = std::sync::mpsc::channel::<()>();
            let (busy, running) = tokio::sync::oneshot::channel();
            let blocker = tokio::task::spawn_blocking(move || {
                busy.send(()).expect("the test waits");
                held.recv().ok();
            });
            running.await.expect("the blocking pool's one thread is busy");
            let by_key = tokio::time::timeout(std::time::Duration::from_secs(10), store.read_by_key(peek(org))).await;
            assert!(by_key.expect("a read by key answers at once").expect("the read"), "no record");
            let plain = tokio::time::timeout(std::time::Duration::from_millis(300), store.read(peek(org))).await;
            assert!(plain.is_err(), "a plain read waits for the blocking pool (the test can fail)");
            release.send(()).expect("release the pool");
            blocker.await.expect("the blocker ends");
        })
        .await
    });
    rt.block_on(db.drop_db()).expect("drop the test database");
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// A read of `org`'s idempotency record of a key no request used: whether none was found.
fn peek(org: OrgId) -> impl for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<bool, StoreError>> + Send + 'static {
    move |tx| Box::pin(async move { Ok(tx.peek_idempotency(org, "/api/v1/persons", "k").await?.is_none()) })
}

/// T297, T60: a priority writer's body that fails after writing, queued ahead of six ordinary
/// ones, rolls its group back and runs again still a priority writer's: alone in the group after
/// it (which commits nothing), then the six as one group. Run again as an ordinary job, it would
/// have taken the six into its group.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_priority_writer_run_again_still_ends_its_group_t297() {
    sqlite(|store| async move {
        let engine = store.with_own_pool(2).unwrap();
        let (svc, _) = services(store.clone());
        let (blocker, release) = hold_write_turn(&svc, "blocker@example.com").await;
        let tasks: Vec<_> = (0..6)
            .map(|i| {
                let (svc, f) = (svc.clone(), humans(vec![format!("api{i}@example.com")]));
                tokio::spawn(async move { write(&svc, f).await })
            })
            .collect();
        wait_until_queued(&store, 6).await;
        let priority = {
            let f = humans(vec!["engine@example.com".into()]);
            tokio::spawn(async move {
                engine
                    .write(move |tx| {
                        Box::pin(async move {
                            f(tx).await?;
                            Err::<(), _>(StoreError::Internal("refused after writing".into()))
                        })
                    })
                    .await
            })
        };
        wait_until_queued(&store, 7).await;
        let before = store.write_stats();
        release.send(()).unwrap();
        blocker.await.unwrap().unwrap();
        assert!(priority.await.unwrap().is_err());
        for t in tasks {
            t.await.unwrap().unwrap();
        }
        let after = store.write_stats();
        let counts = (after.groups - before.groups, after.jobs - before.jobs, after.rerun - before.rerun);
        assert_eq!(counts, (3, 8, 1), "the engine's rolled back, the engine's alone again, then the six");
        for (n, kept) in [("engine", false), ("api0", true), ("api5", true)] {
            let e = email(&format!("{n}@example.com"));
            let found = read(&svc, move |tx| Box::pin(async move { tx.find_human(e.as_str()).await })).await;
            assert_eq!(found.is_some(), kept, "{n}");
        }
    })
    .await
}

/// T298: the writer's checkpoints run on the writer's own runtime, not on the runtime of the
/// store's first write: a store whose first write came from a runtime that has since ended
/// (a CLI command's, a test's) still has its log checkpointed while writes go on from another.
/// On the first write's runtime, the checkpoints would be spawned on a runtime that is gone, and
/// none would run.
#[test]
fn the_sqlite_log_is_checkpointed_after_the_first_writes_runtime_has_ended_t298() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance");
    std::fs::create_dir_all(&dir).expect("create the SQLite test directory");
    let db = TestDb::sqlite(&dir);
    let runtime =
        || tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let first = runtime();
    let (store, svc) = first.block_on(async {
        let store = DbStore::connect(&db.url, 4).expect("connect");
        store.migrate().await.expect("migrate");
        let (svc, _) = services(store.clone());
        write(&svc, humans(vec!["first@example.com".into()])).await.unwrap();
        (store, svc)
    });
    drop(first);
    let second = runtime();
    let outcome = second.block_on(async {
        tokio::spawn(async move {
            let before = store.write_stats().checkpoints;
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
            let mut n = 0u32;
            while store.write_stats().checkpoints - before < 3 {
                assert!(std::time::Instant::now() < deadline, "3 checkpoints within 2 minutes of writes");
                write(&svc, humans(vec![format!("later{n}@example.com")])).await.unwrap();
                n += 1;
            }
        })
        .await
    });
    second.block_on(db.drop_db()).expect("drop the test database");
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// T293 (PostgreSQL): the sequencer reads the events not numbered yet from the oldest transaction
/// that was running when it last numbered every event it saw, not from the first event. An event
/// written by a transaction that began before such a run and commits after it (older than the
/// event the run numbered) is numbered by the next run; the feed keeps 1, 2, 3 without a hole,
/// and the floor has moved (the third run reads no event of a transaction it has passed).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_an_event_of_a_transaction_older_than_a_sequencer_run_is_numbered_by_the_next_t293() {
    postgres(|store| async move {
        let (svc, clock) = services(store.clone());
        let org = new_org(&svc, "business", &[]).await.id;
        let event = |n: u64| feed_event(&*svc.ids, org, EventType::PersonCreated, clock.now(), n);
        let insert = |e: OutboxEvent| store.write(move |tx| Box::pin(async move { tx.insert_event(&e).await }));
        let (sent, inserted) = tokio::sync::oneshot::channel::<()>();
        let (release, released) = tokio::sync::oneshot::channel::<()>();
        let (sent, released) = (once(sent), once(released));
        let older = event(1);
        let slow = {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .write(move |tx| {
                        Box::pin(async move {
                            tx.insert_event(&older).await?;
                            // A read sends the insert: the transaction has its id from here on.
                            tx.list_events_of_org(org).await?;
                            if let Some(sent) = take(&sent) {
                                let _ = sent.send(());
                            }
                            if let Some(released) = take(&released) {
                                let _ = released.await;
                            }
                            Ok::<_, StoreError>(())
                        })
                    })
                    .await
            })
        };
        inserted.await.unwrap();
        clock.advance(Duration::seconds(1));
        insert(event(2)).await.unwrap();
        assert_eq!(svc.sequence_events().await.unwrap(), 1, "the committed one; the other is in flight");
        release.send(()).unwrap();
        slow.await.unwrap().unwrap();
        clock.advance(Duration::seconds(1));
        insert(event(3)).await.unwrap();
        assert_eq!(svc.sequence_events().await.unwrap(), 2, "the older transaction's event and the new one");
        let feed = svc.events_feed(org, &every_scope(), feed_req(0, 10)).await.unwrap();
        let got: Vec<(u64, u64)> =
            feed.items.iter().map(|e| (e.sequence, e.event.data.value()["n"].as_u64().unwrap())).collect();
        assert_eq!(got, vec![(1, 2), (2, 1), (3, 3)], "numbered as they were found, oldest first in a run");
        assert!(store.event_floor() > 0, "the sequencer reads from a floor now");
    })
    .await
}

/// T316 (SQLite): an event is numbered in the transaction that writes it, so the sequencer finds
/// nothing to number: two events of one organization and one of another in one transaction have
/// their organizations' next numbers before the commit; a transaction rolled back takes its
/// number with it (no hole); an event of a version that left the numbering to the sequencer is
/// numbered by it after the events numbered since, the count going on without a hole.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_numbers_each_event_in_the_transaction_that_writes_it_t316() {
    sqlite(|store| async move {
        let (svc, clock) = services(store.clone());
        let (a, b) = (new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id);
        let event = |org: OrgId, n: u64| feed_event(&*svc.ids, org, EventType::PersonCreated, clock.now(), n);
        let three = [event(a, 1), event(a, 2), event(b, 3)];
        let ids: Vec<EventId> = three.iter().map(|e| e.id).collect();
        let asked = ids.clone();
        let numbered = write(&svc, move |tx| {
            Box::pin(async move {
                for e in &three {
                    tx.insert_event(e).await?;
                }
                tx.event_sequences(&asked).await
            })
        })
        .await
        .unwrap();
        let in_order: Vec<u64> =
            ids.iter().filter_map(|id| numbered.iter().find(|(e, _)| e == id).map(|(_, n)| *n)).collect();
        assert_eq!(in_order, vec![1, 2, 1], "numbered before commit");
        assert!(!read(&svc, |tx| Box::pin(async move { tx.has_unsequenced_events().await })).await);
        assert_eq!(svc.sequence_events().await.unwrap(), 0, "nothing left for the sequencer");

        let rolled_back = event(a, 4);
        let failed = write(&svc, move |tx| {
            Box::pin(async move {
                tx.insert_event(&rolled_back).await?;
                Err::<(), _>(StoreError::Internal("rolled back".into()))
            })
        })
        .await;
        assert!(failed.is_err());
        unnumbered_event(&store, a, clock.now(), 5).await;
        let sixth = event(a, 6);
        write(&svc, move |tx| Box::pin(async move { tx.insert_event(&sixth).await })).await.unwrap();
        assert_eq!(svc.sequence_events().await.unwrap(), 1, "the event of before");
        let numbers = |org: OrgId| {
            let svc = svc.clone();
            async move {
                let feed = svc.events_feed(org, &every_scope(), feed_req(0, 100)).await.unwrap();
                feed.items.iter().map(|e| (e.sequence, e.event.data.value()["n"].as_u64().unwrap())).collect::<Vec<_>>()
            }
        };
        assert_eq!(numbers(a).await, vec![(1, 1), (2, 2), (3, 6), (4, 5)], "no hole where the rollback was");
        assert_eq!(numbers(b).await, vec![(1, 3)]);
    })
    .await
}

/// T294 (PostgreSQL): other instances learn of commits that made deliveries due from `NOTIFY`s
/// sent after the commits, one per burst: a listener on another connection hears of a lone
/// import, and of 100 concurrent imports from fewer notifications than imports, each with this
/// instance's name. (Inside every import's transaction, the `NOTIFY` queued the commits on
/// PostgreSQL's notification lock.)
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_other_instances_hear_of_due_deliveries_from_one_notify_per_burst_t294() {
    use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
    use futures_util::StreamExt;
    postgres(|store| async move {
        let (svc, _) = services(store.clone());
        store.listen();
        let mut ear = AsyncPgConnection::establish(store.url()).await.unwrap();
        ear.batch_execute(&format!("LISTEN {}", talent_store::WAKE_CHANNEL)).await.unwrap();
        let org = new_org(&svc, "business", &[]).await;
        hook(&svc, org.id, 1).await;
        let mut heard = std::pin::pin!(ear.notifications_stream());
        // Every notification until none came for `quiet`.
        let mut listen = async |quiet: u64| {
            let mut got = Vec::new();
            while let Ok(Some(n)) = tokio::time::timeout(std::time::Duration::from_millis(quiet), heard.next()).await {
                got.push(n.unwrap().payload);
            }
            got
        };
        imported(&svc, org.id, import("lone@example.com")).await;
        let lone = listen(500).await;
        assert_eq!(lone.len(), 1, "one import, one notification: {lone:?}");
        let burst: Vec<_> = (0..100)
            .map(|i| {
                let svc = svc.clone();
                tokio::spawn(async move { imported(&svc, org.id, import(&format!("burst{i}@example.com"))).await })
            })
            .collect();
        for b in burst {
            b.await.unwrap();
        }
        let got = listen(500).await;
        assert!(!got.is_empty() && got.len() < 100, "100 imports announced by {} notifications", got.len());
        assert!(got.iter().chain(&lone).all(|p| *p == got[0]), "each with the instance's name: {got:?}");
    })
    .await
}

/// A write transaction body that adds a human for each of `names`.
fn humans(
    names: Vec<String>,
) -> impl for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, StoreResult<()>> + Clone + Send + 'static {
    move |tx| {
        Box::pin(async move {
            for n in names {
                tx.ensure_human(HumanId(Uuid::now_v7()), email(&n).as_str(), OffsetDateTime::UNIX_EPOCH).await?;
            }
            Ok(())
        })
    }
}

/// T264: on SQLite a grouped write that runs in a savepoint (since T297, one run again after its
/// group was rolled back) has a journal that keeps a copy of every existing page the write
/// changes: in memory up to the build's threshold, then in a temporary file. With the threshold
/// at 1 MiB the move to the file failed ("database or disk is full", a write SQLite's file layer
/// cannot make) and rolled back the whole group, so a large batch import or the event sequencer's
/// batch failed whenever other writes queued beside it. Here a transaction that adds 20,000
/// addresses among 100,000 (every page of the email index, some 3 MB of journal) is grouped with
/// one that fails after writing, which sends both to run again in savepoints, and with a third:
/// the large one and the third commit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grouped_transaction_whose_savepoint_journal_spills_commits_t264() {
    sqlite(|store| async move {
        let (svc, _) = services(store.clone());
        let existing: Vec<String> = (0..100_000).map(|i| format!("h{i:06}@example.com")).collect();
        write(&svc, humans(existing)).await.unwrap();
        let (blocker, release) = hold_write_turn(&svc, "blocker@example.com").await;
        let spread: Vec<String> = (0..100_000).step_by(5).map(|i| format!("h{i:06}x@example.com")).collect();
        let large = {
            let (svc, f) = (svc.clone(), humans(spread));
            tokio::spawn(async move { write(&svc, f).await })
        };
        wait_until_queued(&store, 1).await;
        let failing = {
            let (svc, f) = (svc.clone(), humans(vec!["failing@example.com".into()]));
            tokio::spawn(async move {
                write(&svc, move |tx| {
                    Box::pin(async move {
                        f(tx).await?;
                        Err::<(), _>(StoreError::Internal("refused after writing".into()))
                    })
                })
                .await
            })
        };
        wait_until_queued(&store, 2).await;
        let small = {
            let (svc, f) = (svc.clone(), humans(vec!["beside@example.com".into()]));
            tokio::spawn(async move { write(&svc, f).await })
        };
        wait_until_queued(&store, 3).await;
        let before = store.write_stats();
        release.send(()).unwrap();
        blocker.await.unwrap().unwrap();
        assert_eq!(large.await.unwrap(), Ok(()), "the transaction whose journal spilled commits");
        assert!(failing.await.unwrap().is_err());
        assert_eq!(small.await.unwrap(), Ok(()), "and so does the one grouped with it");
        let after = store.write_stats();
        let counts = (after.groups - before.groups, after.jobs - before.jobs, after.rerun - before.rerun);
        assert_eq!(counts, (2, 5, 1), "two of three rolled back, then the three in one group");
        for (n, kept) in [
            ("h000005x@example.com", true),
            ("h099995x@example.com", true),
            ("beside@example.com", true),
            ("failing@example.com", false),
        ] {
            let e = email(n);
            let found = read(&svc, move |tx| Box::pin(async move { tx.find_human(e.as_str()).await })).await;
            assert_eq!(found.is_some(), kept, "{n}");
        }
    })
    .await
}

async fn migrations_apply_once_and_the_store_is_ready(store: DbStore) {
    store.ready().await.unwrap();
    assert_eq!(store.migrate().await.unwrap(), 0, "second migrate is a no-op");
    assert_eq!(store.migrate().await.unwrap(), 0, "third migrate is a no-op");
    assert_eq!(store.pending_migrations().await.unwrap(), 0);
    store.ready().await.unwrap();
}

/// T69: the migration that adds the counters counts the active persons that exist already.
async fn the_counter_migration_counts_the_persons_already_there(store: DbStore) {
    let (svc, _) = services(store.clone());
    let o = new_org(&svc, "business", &[]).await.id;
    let mut ids = vec![];
    for i in 0..3 {
        ids.push(imported(&svc, o, import(&format!("m{i}@example.com"))).await.id);
    }
    svc.archive_person(o, ids[0]).await.unwrap();
    let reverted = talent_store::testing::revert_through(store.url(), "20261123000008").await.unwrap();
    assert_eq!(store.migrate().await.unwrap(), reverted);
    assert_eq!(count_active(&svc, o).await, 2);
    svc.import_person(o, import("m3@example.com")).await.unwrap();
    assert_eq!(count_active(&svc, o).await, 3);
}

/// D51 (T128): the migration that records each assessment's origin backfills it from the
/// invitation the human accepted last before the assessment started, else from a single
/// membership, else leaves it unknown; and memberships created by import alone recount their
/// summaries under the new rule (the summed counts are dropped, `updatedAt` moves).
async fn the_origin_migration_attributes_existing_assessments_and_recounts_imported_memberships(store: DbStore) {
    let (svc, clock) = services(store.clone());
    let (a, b) = (new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id);
    // Alice: imported by B, then answers A's invitation; her assessment is A's.
    let pb = imported(&svc, b, import("alice@example.com")).await;
    clock.advance(Duration::minutes(1));
    let pa = joined(&svc, a, "alice@example.com").await;
    clock.advance(Duration::minutes(1));
    let alices = svc.admin_assessment(pa.id, seeded(1)).await.unwrap();
    // Bob: one membership only. Carol: imported by both, no invitation.
    let bob = imported(&svc, b, import("bob@example.com")).await;
    let bobs = svc.admin_assessment(bob.id, seeded(2)).await.unwrap();
    let ca = imported(&svc, a, import("carol@example.com")).await;
    let cb = imported(&svc, b, import("carol@example.com")).await;
    let carols = svc.admin_assessment(ca.id, seeded(3)).await.unwrap();
    // The database as it was before: no origins, and B's summary of Alice as D42 counted it.
    let reverted = talent_store::testing::revert_through(store.url(), "20261126000017").await.unwrap();
    let mut old = svc.get_person(b, pb.id).await.unwrap();
    old.assessment = svc.get_person(a, pa.id).await.unwrap().assessment;
    assert_eq!(old.assessment.count, 1);
    let o = old.clone();
    write(&svc, move |tx| Box::pin(async move { tx.update_person(&o).await })).await.unwrap();
    clock.advance(Duration::minutes(1));
    assert_eq!(store.migrate().await.unwrap(), reverted);

    let origin = |human: HumanId, id: AssessmentId| {
        let svc = svc.clone();
        async move { assessments_of(&svc, human).await.into_iter().find(|x| x.id == id).unwrap().origin_org }
    };
    assert_eq!(origin(pa.human_id, alices.id).await, Some(a), "the invitation she accepted before");
    assert_eq!(origin(bob.human_id, bobs.id).await, Some(b), "the only membership");
    assert_eq!(origin(ca.human_id, carols.id).await, None, "not attributable");
    let recounted = svc.get_person(b, pb.id).await.unwrap();
    assert_eq!(
        (recounted.assessment.status, recounted.assessment.count, recounted.assessment.totals.clone()),
        (AssessmentStatus::NotStarted, 0, None)
    );
    assert!(recounted.updated_at > old.updated_at, "a sync by updatedAfter sees the change");
    assert!(svc.results(b, pb.id).await.unwrap().scores.is_none());
    assert_eq!(svc.get_person(a, pa.id).await.unwrap().assessment.count, 1, "A's stays");
    assert_eq!(svc.get_person(b, bob.id).await.unwrap().assessment.count, 1, "Bob's stays");
    assert_eq!(
        svc.get_person(b, cb.id).await.unwrap().assessment.count,
        0,
        "Carol's unknown origin: hidden from imports"
    );
    assert_eq!(svc.get_person(a, ca.id).await.unwrap().assessment.count, 0);
}

/// D56 (T130): events numbered by the one counter of before are renumbered per organization, in
/// their old order, and each organization's next event follows its own last number.
async fn the_sequence_migration_renumbers_each_organizations_events_in_their_order(store: DbStore) {
    let (svc, clock) = services(store.clone());
    let (a, b) = (new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id);
    let reverted = talent_store::testing::revert_through(store.url(), "20261126000018").await.unwrap();
    for n in 0..7u64 {
        let org = if n % 3 == 0 { b } else { a };
        // The events as the version of before wrote them (today's SQLite store numbers them as
        // it writes them, with the table this migration adds, T316).
        unnumbered_event(&store, org, clock.now(), n).await;
        clock.advance(Duration::seconds(1));
    }
    // The sequencer of before: one counter for everybody, in (created_at, id) order.
    talent_store::testing::execute(
        store.url(),
        "UPDATE outbox_events SET sequence = (SELECT COUNT(*) FROM outbox_events o \
          WHERE o.created_at < outbox_events.created_at \
             OR (o.created_at = outbox_events.created_at AND o.id <= outbox_events.id))",
    )
    .await
    .unwrap();
    assert_eq!(store.migrate().await.unwrap(), reverted);
    let numbers = |org: OrgId| {
        let svc = svc.clone();
        async move {
            let feed = svc.events_feed(org, &every_scope(), feed_req(0, 100)).await.unwrap();
            feed.items.iter().map(|e| (e.sequence, e.event.data.value()["n"].as_u64().unwrap())).collect::<Vec<_>>()
        }
    };
    assert_eq!(numbers(a).await, vec![(1, 1), (2, 2), (3, 4), (4, 5)]);
    assert_eq!(numbers(b).await, vec![(1, 0), (2, 3), (3, 6)]);
    let e = feed_event(&*svc.ids, b, EventType::PersonCreated, clock.now(), 7);
    write(&svc, move |tx| Box::pin(async move { tx.insert_event(&e).await })).await.unwrap();
    assert_eq!(numbers(b).await.last(), Some(&(4, 7)), "B goes on from its own last number");
}

/// Writes event `n` of `org` (a `person.created` whose data is `{"n": n}`) as a version without
/// numbering at insert did: a row without a sequence, for the sequencer.
async fn unnumbered_event(store: &DbStore, org: OrgId, at: OffsetDateTime, n: u64) {
    let sql = format!(
        "INSERT INTO outbox_events (id, org_id, event_type, data, created_at) \
         VALUES ('{}', '{}', 'person.created', '{{\"n\":{n}}}', '{}')",
        Uuid::now_v7(),
        org.0,
        talent_domain::timefmt::format(at)
    );
    talent_store::testing::execute(store.url(), &sql).await.unwrap();
}

/// T75, T297: on SQLite, the write transactions queued behind a running one are committed as one
/// group. One that fails or panics leaves nothing behind, the others keep their writes and their
/// answers, and none is answered before the group commits. A body that fails after writing rolls
/// its group back, and the group's bodies run again (clones), each in a savepoint: two such
/// bodies make three groups; one that fails before writing (the seventh) rolls nothing back.
/// PostgreSQL runs the same transactions side by side, with the same outcomes.
async fn transactions_committed_in_one_group_keep_their_own_outcomes(store: DbStore) {
    let sqlite = store.backend() == talent_store::Backend::Sqlite;
    let (svc, _) = services(store.clone());
    let human = |name: String| {
        async move |tx: &mut dyn Tx| {
            tx.ensure_human(HumanId(Uuid::now_v7()), email(&name).as_str(), OffsetDateTime::UNIX_EPOCH)
                .await
                .map(|_| ())
        }
    };
    let (blocker, release) = hold_write_turn(&svc, "blocker@example.com").await;
    let before = store.write_stats();
    let jobs: Vec<_> = (0..7)
        .map(|i| {
            let svc = svc.clone();
            tokio::spawn(async move {
                write(&svc, move |tx| {
                    Box::pin(async move {
                        match i {
                            1 => {
                                human("failed@example.com".into())(tx).await?;
                                Err(StoreError::Internal("refused by the use case".into()))
                            }
                            3 => {
                                human("panicked@example.com".into())(tx).await?;
                                panic!("a use case that panics inside a group");
                            }
                            6 => Err(StoreError::Internal("refused before writing".into())),
                            _ => human(format!("kept{i}@example.com"))(tx).await,
                        }
                    })
                })
                .await
            })
        })
        .collect();
    if sqlite {
        wait_until_queued(&store, 7).await;
        for j in &jobs {
            assert!(!j.is_finished(), "no queued transaction is answered before its group commits");
        }
    }
    release.send(()).unwrap();
    blocker.await.unwrap().unwrap();
    let mut outcomes = vec![];
    for j in jobs {
        outcomes.push(j.await.unwrap());
    }
    for (i, out) in outcomes.iter().enumerate() {
        match i {
            1 => assert_eq!(out, &Err(StoreError::Internal("refused by the use case".into()))),
            3 => assert!(matches!(out, Err(StoreError::Internal(m)) if m.contains("panicked")), "{out:?}"),
            6 => assert_eq!(out, &Err(StoreError::Internal("refused before writing".into()))),
            _ => assert_eq!(out, &Ok(()), "transaction {i}"),
        }
    }
    if sqlite {
        let after = store.write_stats();
        let (groups, jobs, rerun) =
            (after.groups - before.groups, after.jobs - before.jobs, after.rerun - before.rerun);
        assert_eq!((groups, rerun), (3, 2), "two groups rolled back and run again, then one committed");
        // The seven once, and the bodies that ran before each of the two that failed after writing
        // again (the panicked one not): 8 to 19 runs, as the two fall in the queue.
        assert!((8..=19).contains(&jobs), "{jobs} runs");
        // T238: the time the writer was held grows with the group (the operators' busy gauge).
        assert!(after.held > before.held, "{:?} then {:?}", before.held, after.held);
    }
    for (name, kept) in [
        ("blocker", true),
        ("kept0", true),
        ("failed", false),
        ("kept2", true),
        ("panicked", false),
        ("kept4", true),
        ("kept5", true),
    ] {
        let e = email(&format!("{name}@example.com"));
        let found = read(&svc, move |tx| Box::pin(async move { tx.find_human(e.as_str()).await })).await;
        assert_eq!(found.is_some(), kept, "{name}");
    }
}

/// T75, T60: the delivery engine's store (`with_own_pool`) writes ahead of queued API writes, and
/// its transaction ends its group: queued behind six ordinary writers, it commits first and alone,
/// then the six commit as one group (SQLite); on PostgreSQL all simply commit.
async fn a_priority_writer_commits_ahead_of_a_queued_group(store: DbStore) {
    let sqlite = store.backend() == talent_store::Backend::Sqlite;
    let engine = store.with_own_pool(2).unwrap();
    let (svc, _) = services(store.clone());
    let order = Arc::new(std::sync::Mutex::new(Vec::new()));
    let (blocker, release) = hold_write_turn(&svc, "blocker@example.com").await;
    let before = store.write_stats();
    let mut tasks = vec![];
    for i in 0..6 {
        let (svc, order) = (svc.clone(), order.clone());
        tasks.push(tokio::spawn(async move {
            write(&svc, move |tx| {
                Box::pin(async move {
                    tx.ensure_human(
                        HumanId(Uuid::now_v7()),
                        email(&format!("api{i}@example.com")).as_str(),
                        OffsetDateTime::UNIX_EPOCH,
                    )
                    .await?;
                    order.lock().unwrap().push(format!("api{i}"));
                    Ok(())
                })
            })
            .await
        }));
    }
    if sqlite {
        wait_until_queued(&store, 6).await;
    }
    let priority = {
        let order = order.clone();
        tokio::spawn(async move {
            engine
                .write(move |_tx| {
                    Box::pin(async move {
                        order.lock().unwrap().push("engine".to_string());
                        Ok::<_, StoreError>(())
                    })
                })
                .await
        })
    };
    if sqlite {
        wait_until_queued(&store, 7).await;
    }
    release.send(()).unwrap();
    blocker.await.unwrap().unwrap();
    priority.await.unwrap().unwrap();
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    if sqlite {
        assert_eq!(order.lock().unwrap()[0], "engine", "the engine's write runs first: {:?}", order.lock().unwrap());
        let after = store.write_stats();
        assert_eq!((after.groups - before.groups, after.jobs - before.jobs), (2, 7), "the engine alone, then the six");
    }
    assert_eq!(order.lock().unwrap().len(), 7);
}

async fn wake_ups_follow_commits_of_due_deliveries_only(store: DbStore) {
    let (svc, _) = services(store.clone());
    // On PostgreSQL the instance also listens to NOTIFY, as `talent serve` does.
    store.listen();
    let wake = store.delivery_wakeups();
    let woken = || async { tokio::time::timeout(std::time::Duration::from_millis(200), wake.notified()).await.is_ok() };
    if store.backend() == talent_store::Backend::Postgres {
        // The listener wakes the engine once it is connected, and so listening.
        let connected = tokio::time::timeout(std::time::Duration::from_secs(5), wake.notified()).await;
        assert!(connected.is_ok(), "the listener connects");
    }
    let org = new_org(&svc, "business", &[]).await;
    imported(&svc, org.id, import("nobody-listens@example.com")).await;
    assert!(!woken().await, "no endpoint, no delivery, no wake-up");
    let ep = hook(&svc, org.id, 1).await;
    imported(&svc, org.id, import("p@example.com")).await;
    assert!(woken().await, "a fan-out wakes the engine after commit");
    // T71: its own NOTIFY does not wake this instance a second time.
    assert!(!woken().await, "one wake-up per commit on the instance that made it");
    // T71: a delivery to a disabled endpoint is not claimable: no wake-up until it is enabled.
    let off = EndpointPatch { enabled: Some(false), ..Default::default() };
    svc.patch_endpoint(org.id, ep.id, off).await.unwrap();
    imported(&svc, org.id, import("q@example.com")).await;
    assert!(!woken().await, "a delivery to a disabled endpoint wakes nobody");
    let on = EndpointPatch { enabled: Some(true), ..Default::default() };
    svc.patch_endpoint(org.id, ep.id, on).await.unwrap();
    assert!(woken().await, "enabling the endpoint wakes the engine");
    // A rolled-back transaction wakes nobody.
    let r: StoreResult<()> = write(&svc, move |tx| {
        Box::pin(async move {
            tx.wake_deliveries();
            Err(StoreError::Internal("rolled back".into()))
        })
    })
    .await;
    assert!(r.is_err());
    assert!(!woken().await, "a rollback does not wake");
}

/// Issue 17's gauges, read through the pending rows' own index since the index on (status, due
/// time) was dropped (T292): pending deliveries of every endpoint, the due ones of enabled
/// endpoints only, and the age of the oldest due one, at several moments.
async fn the_backlog_counts_pending_and_due_deliveries_and_dates_the_oldest_due_one(store: DbStore) {
    let (svc, clock) = services(store.clone());
    let org = new_org(&svc, "business", &[]).await;
    let endpoint = |n: u32| NewEndpoint {
        url: format!("https://hooks{n}.example/in"),
        events: Subscription::All,
        description: None,
    };
    svc.create_endpoint(org.id, endpoint(1)).await.unwrap();
    let held = svc.create_endpoint(org.id, endpoint(2)).await.unwrap();
    let off = EndpointPatch { enabled: Some(false), ..Default::default() };
    svc.patch_endpoint(org.id, held.id, off).await.unwrap();
    let t0 = clock.now();
    imported(&svc, org.id, import("first-due@example.com")).await;
    clock.advance(Duration::minutes(1));
    imported(&svc, org.id, import("second-due@example.com")).await;
    let at = |secs: i64| t0 + Duration::seconds(secs);
    let b = store.backlog(at(120)).await.unwrap();
    assert_eq!(b.deliveries_pending, 4, "two imports, two endpoints each");
    assert_eq!(b.deliveries_due, 2, "the disabled endpoint's are held, not due");
    assert!((b.oldest_due_seconds - 120.0).abs() < 0.5, "the first import's, 120 s ago: {}", b.oldest_due_seconds);
    let b = store.backlog(at(30)).await.unwrap();
    assert_eq!((b.deliveries_pending, b.deliveries_due), (4, 1), "only the first is due after 30 s");
    assert!((b.oldest_due_seconds - 30.0).abs() < 0.5, "{}", b.oldest_due_seconds);
    let b = store.backlog(at(-1)).await.unwrap();
    assert_eq!((b.deliveries_pending, b.deliveries_due, b.oldest_due_seconds), (4, 0, 0.0), "nothing due yet");
}

/// D44 in the database: after `erase_person`, no text column of any table holds the person's
/// names or externalId, and the address is left only in `humans` (the human's own record, which
/// the admin erasure removes, D45). Another person's data stays.
async fn erasure_removes_the_persons_data_from_the_organizations_tables(store: DbStore) {
    let url = store.url().to_string();
    let (svc, clock) = services(store);
    let org = new_org(&svc, "business", &[]).await.id;
    let hook = NewEndpoint { url: "https://hooks.example/in".into(), events: Subscription::All, description: None };
    svc.create_endpoint(org, hook).await.unwrap();
    let mut input = import("adelheid.erase@example.com");
    input.first_name = Some(name("Adelheid"));
    input.last_name = Some(name("Lovelacewood"));
    input.external_id = Some(ext("ats-erase-7"));
    input.tags = tag_names(&["Remote"]);
    let p = imported(&svc, org, input).await;
    let req = idem_req(org, "/v1/persons", "k-erase", "h");
    assert!(matches!(svc.idempotency_begin(req.clone()).await.unwrap(), IdempotencyBegin::Proceed));
    let stored = StoredResponse { status: 201, body: person_json(&p).to_string(), existing_resource: false };
    svc.idempotency_finish(req, stored).await.unwrap();
    let inv = talent_domain::usecases::invitations::NewInvitation {
        first_name: Some(name("Adelheid")),
        external_id: Some(ext("ats-erase-7")),
        tags: Some(tag_names(&["Remote"])),
        message: Some("Dear Adelheid Lovelacewood".into()),
        ..talent_domain::usecases::invitations::NewInvitation::new(email("adelheid.erase@example.com"), true)
    };
    let (v, _) = svc.create_invitation(org, inv).await.unwrap();
    let bob = imported(&svc, org, import("bob.stays@example.com")).await;
    clock.advance(Duration::seconds(2));

    let erased = svc.erase_person(org, p.id).await.unwrap();
    assert_eq!(erased.email.as_str(), format!("erased-{}@invalid", p.id));
    assert_ne!(erased.human_id, p.human_id, "the membership no longer leads to the human");
    assert_eq!(svc.erase_person(org, p.id).await.unwrap(), erased, "idempotent");
    assert_eq!(svc.get_person(org, p.id).await.unwrap(), erased);
    for needle in ["Adelheid", "Lovelacewood", "ats-erase-7"] {
        assert_eq!(talent_store::testing::tables_containing(&url, needle).await.unwrap(), vec![], "{needle}");
    }
    let left = talent_store::testing::tables_containing(&url, "adelheid.erase@example.com").await.unwrap();
    assert_eq!(left, vec![("humans".to_string(), "email".to_string())]);
    assert!(!talent_store::testing::tables_containing(&url, "bob.stays@example.com").await.unwrap().is_empty());
    assert_eq!(svc.get_person(org, bob.id).await.unwrap(), bob);
    let i = svc.get_invitation(org, v.invitation.id).await.unwrap().invitation;
    assert_eq!(i.status, talent_domain::invitation::InvitationStatus::Revoked);
    let types: Vec<EventType> = events(&svc, org).await.iter().map(|e| e.event_type).collect();
    assert_eq!(&types[types.len() - 2..], &[EventType::InvitationRevoked, EventType::PersonArchived]);
    assert_eq!(types.iter().filter(|t| **t == EventType::PersonArchived).count(), 1, "one event, not two");
}

/// D45 in the database: a human with memberships in two organizations (assessments, a webhook
/// endpoint each, a stored idempotent response) and an invitation from a third. The export holds
/// every record made for the address; after the admin erasure no text column of any table holds
/// the address or the names, the assessments and the human are gone, another person stays.
async fn the_humans_export_holds_every_record_and_the_admin_erasure_leaves_no_trace(store: DbStore) {
    let url = store.url().to_string();
    let (svc, clock) = services(store);
    let (a, b, c) = (
        new_org(&svc, "business", &[]).await.id,
        new_org(&svc, "business", &[]).await.id,
        new_org(&svc, "business", &[]).await.id,
    );
    for o in [a, b] {
        let hook = NewEndpoint { url: "https://hooks.example/in".into(), events: Subscription::All, description: None };
        svc.create_endpoint(o, hook).await.unwrap();
    }
    let subject = "kunigunde.export@example.com";
    let mut input = import(subject);
    input.first_name = Some(name("Kunigunde"));
    input.external_id = Some(ext("ats-kx-1"));
    let pa = imported(&svc, a, input).await;
    let mut input = import(subject);
    input.last_name = Some(name("Exportwald"));
    let pb = imported(&svc, b, input).await;
    clock.advance(Duration::seconds(1));
    let cmd = AssessmentCommand { complete: true, responses: None, seed: Some(3) };
    let done = svc.admin_assessment(pa.id, cmd).await.unwrap();
    let req = idem_req(b, "/v1/persons", "k-x", "h");
    assert!(matches!(svc.idempotency_begin(req.clone()).await.unwrap(), IdempotencyBegin::Proceed));
    let body = person_json(&pb).to_string();
    svc.idempotency_finish(req, StoredResponse { status: 201, body, existing_resource: false }).await.unwrap();
    let inv = talent_domain::usecases::invitations::NewInvitation {
        first_name: Some(name("Kunigunde")),
        last_name: Some(name("Exportwald")),
        message: Some("Hello Kunigunde".into()),
        ..talent_domain::usecases::invitations::NewInvitation::new(email(subject), true)
    };
    let (vc, _) = svc.create_invitation(c, inv).await.unwrap();
    svc.deliver_emails().await.unwrap();
    let other = imported(&svc, a, import("someone.else@example.com")).await;

    let x = svc.export_human(email(subject)).await.unwrap();
    let orgs: BTreeSet<OrgId> = x.memberships.iter().map(|m| m.organization.id).collect();
    assert_eq!(orgs, BTreeSet::from([a, b]));
    let with_results: BTreeSet<OrgId> =
        x.memberships.iter().filter(|m| m.results.is_some()).map(|m| m.organization.id).collect();
    assert_eq!(with_results, BTreeSet::from([a]), "taken for A; B only imported the address (D51)");
    assert_eq!(x.assessments.iter().map(|a| a.id).collect::<Vec<_>>(), vec![done.id]);
    assert!(!x.assessments[0].responses.is_empty(), "with its responses");
    assert_eq!(x.invitations.iter().map(|v| v.invitation.id).collect::<Vec<_>>(), vec![vc.invitation.id]);
    assert_eq!(x.emails.len(), 1);
    let types: BTreeSet<(OrgId, &str)> = x.events.iter().map(|e| (e.org_id, e.event_type.as_str())).collect();
    for t in [(a, "person.created"), (b, "person.created"), (a, "assessment.completed")] {
        assert!(types.contains(&t), "{t:?} in {types:?}");
    }
    assert!(x.events.iter().all(|e| e.data.as_str().contains(subject)), "only events that carried it");

    let r = svc.erase_human(email(subject)).await.unwrap();
    assert_eq!((r.memberships, r.assessments, r.invitations, r.emails), (2, 1, 1, 1));
    for needle in [subject, "Kunigunde", "Exportwald", "ats-kx-1"] {
        assert_eq!(talent_store::testing::tables_containing(&url, needle).await.unwrap(), vec![], "{needle}");
    }
    let human = read(&svc, move |tx| Box::pin(async move { tx.find_human(email(subject).as_str()).await })).await;
    assert_eq!(human, None);
    let left = read(&svc, move |tx| Box::pin(async move { tx.list_assessments_of_human(pa.human_id).await })).await;
    assert_eq!(left, vec![], "assessments and their responses deleted");
    assert_eq!(code(svc.export_human(email(subject)).await), Code::NotFound);
    assert_eq!(svc.erase_human(email(subject)).await.unwrap(), Default::default(), "repeatable");
    assert_eq!(svc.get_person(a, other.id).await.unwrap(), other);
    assert!(!talent_store::testing::tables_containing(&url, "someone.else@example.com").await.unwrap().is_empty());
}

/// T84: a store without a box wrote an endpoint and a setting in clear (a database from before);
/// with a box, `reseal_secrets` seals both, reads give the same secrets, the tables hold none in
/// clear, new writes are sealed, and a second key's reseal rewrites them again.
async fn secrets_are_sealed_at_rest_and_a_database_from_before_is_resealed(store: DbStore) {
    let url = store.url().to_string();
    let (svc, _) = services(store.clone());
    let org = new_org(&svc, "business", &[]).await.id;
    let e = hook(&svc, org, 1).await;
    let setting =
        write(&svc, |tx| Box::pin(async move { tx.setting_get_or_insert("cursor_secret", "s3cr3t-cursor").await }))
            .await
            .unwrap();
    assert_eq!(setting, "s3cr3t-cursor");
    assert!(!talent_store::testing::tables_containing(&url, &e.secret).await.unwrap().is_empty(), "in clear before");

    let mut sealed = DbStore::connect(&url, 4).unwrap();
    sealed.set_secret_box(Arc::new(TestBox("k1")));
    let (svc, _) = services(sealed.clone());
    let n = write(&svc, |tx| Box::pin(async move { tx.reseal_secrets().await })).await.unwrap();
    assert_eq!(n, 2, "the endpoint and the setting");
    assert_eq!(write(&svc, |tx| Box::pin(async move { tx.reseal_secrets().await })).await.unwrap(), 0, "once");
    assert_eq!(svc.get_endpoint(org, e.id).await.unwrap().secret, e.secret, "reads open it");
    let again = write(&svc, |tx| Box::pin(async move { tx.setting_get_or_insert("cursor_secret", "other").await }))
        .await
        .unwrap();
    assert_eq!(again, "s3cr3t-cursor");
    for clear in [e.secret.as_str(), "s3cr3t-cursor"] {
        assert_eq!(talent_store::testing::tables_containing(&url, clear).await.unwrap(), vec![], "{clear}");
    }
    let rotated = svc.rotate_secret(org, e.id).await.unwrap();
    assert_eq!(talent_store::testing::tables_containing(&url, &rotated.secret).await.unwrap(), vec![]);
    assert_eq!(svc.get_endpoint(org, e.id).await.unwrap().previous_secret.as_deref(), Some(e.secret.as_str()));

    let mut next = DbStore::connect(&url, 4).unwrap();
    next.set_secret_box(Arc::new(TestBox("k2")));
    let (svc, _) = services(next);
    assert_eq!(
        write(&svc, |tx| Box::pin(async move { tx.reseal_secrets().await })).await.unwrap(),
        3,
        "the endpoint, the setting and the store's record that old links were sealed (D52)"
    );
    let k2 = talent_store::testing::tables_containing(&url, "sealed:v1:k2:").await.unwrap();
    assert!(
        k2.contains(&("webhook_endpoints".into(), "secret".into()))
            && k2.contains(&("settings".into(), "value".into()))
    );
    assert_eq!(svc.get_endpoint(org, e.id).await.unwrap().secret, rotated.secret);
}

/// D52 (T129): a database from before holds an invitation's link in clear in its email, its
/// event and its delivery; the first start with a box seals every one of them once, reads give the
/// texts back exactly, and what is written afterwards is sealed from the start.
async fn live_links_are_sealed_at_rest_and_a_database_from_before_is_sealed_once(store: DbStore) {
    let url = store.url().to_string();
    let (plain, _) = services(store.clone());
    let org = new_org(&plain, "business", &[]).await.id;
    hook(&plain, org, 1).await;
    let (old, _) = plain.create_invitation(org, emailed_invitation("ada@example.com")).await.unwrap();
    let token = old.url.rsplit('/').next().unwrap().to_string();
    let before = talent_store::testing::tables_containing(&url, &token).await.unwrap();
    for t in ["emails", "outbox_events", "deliveries"] {
        assert!(before.iter().any(|(table, _)| table == t), "{t} in clear before: {before:?}");
    }

    let mut sealed = DbStore::connect(&url, 4).unwrap();
    sealed.set_secret_box(Arc::new(TestBox("k1")));
    let (svc, _) = services(sealed.clone());
    let n = write(&svc, |tx| Box::pin(async move { tx.reseal_secrets().await })).await.unwrap();
    assert!(n >= 4, "the endpoint, the email, the event, the delivery: {n}");
    assert_eq!(write(&svc, |tx| Box::pin(async move { tx.reseal_secrets().await })).await.unwrap(), 0, "once");
    assert_eq!(talent_store::testing::tables_containing(&url, &token).await.unwrap(), vec![]);
    let mails = svc.emails(None, 10).await.unwrap();
    assert_eq!(mails[0].invitation_url.as_deref(), Some(old.url.as_str()), "read back as sent");
    assert!(mails[0].body.contains(&old.url));
    let created: Vec<OutboxEvent> =
        events(&svc, org).await.into_iter().filter(|e| e.event_type == EventType::InvitationCreated).collect();
    assert_eq!(created[0].data.value()["url"], serde_json::json!(old.url));

    let (new, _) = svc.create_invitation(org, emailed_invitation("bea@example.com")).await.unwrap();
    let fresh = new.url.rsplit('/').next().unwrap().to_string();
    assert_eq!(talent_store::testing::tables_containing(&url, &fresh).await.unwrap(), vec![], "sealed from the start");
    assert!(!talent_store::testing::tables_containing(&url, "bea@example.com").await.unwrap().is_empty());
}

/// D63: a connection's ATS credentials (its API key and webhook secret) are stored sealed from the
/// start, read back as given, and resealed when the key changes; the integration id is not a
/// secret.
async fn ats_credentials_are_sealed_at_rest_and_resealed_under_a_new_key_d63(store: DbStore) {
    use talent_domain::connector::{Ats, ConnectionSettings, NewConnection};
    let url = store.url().to_string();
    let mut sealed = DbStore::connect(&url, 4).unwrap();
    sealed.set_secret_box(Arc::new(TestBox("k1")));
    drop(store);
    let (svc, _) = services(sealed);
    let org = new_org(&svc, "business", &[]).await.id;
    svc.create_user(org, email("admin@example.com"), OrgRole::Admin).await.unwrap();
    let settings = ConnectionSettings {
        base_url: None,
        api_key: Some("kombo-api-key-in-clear".into()),
        integration_id: Some("acme-integration".into()),
        webhook_secret: Some("kombo-hook-secret-in-clear".into()),
    };
    let input = NewConnection { ats: Ats::Kombo, name: "Kombo".into(), settings: settings.clone(), locale: None };
    let created = svc.create_connection(org, input, None).await.unwrap();
    let c = created.view.connection;
    for clear in ["kombo-api-key-in-clear", "kombo-hook-secret-in-clear", created.key.as_str()] {
        assert_eq!(talent_store::testing::tables_containing(&url, clear).await.unwrap(), vec![], "{clear}");
    }
    assert!(!talent_store::testing::tables_containing(&url, "acme-integration").await.unwrap().is_empty());
    assert_eq!(svc.get_connection(c.id).await.unwrap().connection.settings, settings, "read back as given");

    let mut next = DbStore::connect(&url, 4).unwrap();
    next.set_secret_box(Arc::new(TestBox("k2")));
    let (svc, _) = services(next);
    assert!(write(&svc, |tx| Box::pin(async move { tx.reseal_secrets().await })).await.unwrap() >= 1);
    let k2 = talent_store::testing::tables_containing(&url, "sealed:v1:k2:").await.unwrap();
    assert!(k2.contains(&("ats_connections".into(), "api_key".into())), "{k2:?}");
    assert!(k2.contains(&("ats_connections".into(), "webhook_secret".into())), "{k2:?}");
    assert!(k2.contains(&("ats_connections".into(), "key_value".into())), "the connection's own key (D74): {k2:?}");
    assert_eq!(svc.get_connection(c.id).await.unwrap().connection.settings, settings);
}

/// A reversible stand-in for the app's AEAD: enough to see that the store seals on write, opens
/// on read and reseals what another key (or none) wrote.
struct TestBox(&'static str);

impl SecretBox for TestBox {
    fn seal(&self, plaintext: &str) -> String {
        format!("sealed:v1:{}:{}", self.0, plaintext.chars().rev().collect::<String>())
    }
    fn open(&self, stored: &str) -> Result<String, String> {
        match stored.strip_prefix("sealed:v1:") {
            None => Ok(stored.to_string()),
            Some(rest) => {
                let (_, body) = rest.split_once(':').ok_or("malformed")?;
                Ok(body.chars().rev().collect())
            }
        }
    }
    fn needs_reseal(&self, stored: &str) -> bool {
        !stored.starts_with(&format!("sealed:v1:{}:", self.0))
    }
}

/// T110: once an organization has a pool of some size, an import of a new email reads no index
/// entries of other persons: it looks its email up by the unique `(org_id, email)` index and
/// finds nothing. PostgreSQL's generic plans broke this: after a prepared statement's fifth
/// execution its plan was fixed for the connection's life, and one fixed while the table was new
/// (no statistics yet) used an index on `org_id` alone and read the whole organization on every
/// import from then on (1,500 entries per import here, 1.3 billion for 80,000 imports in the
/// bench). One connection, so that the statement plans of both phases are the same session's.
async fn imports_read_no_index_entries_of_other_persons_however_large_the_pool_grows(store: DbStore) {
    let url = store.url().to_string();
    drop(store);
    let (svc, _) = services(DbStore::connect(&url, 1).unwrap());
    let org = new_org(&svc, "business", &[]).await.id;
    let import_range = |from: usize, to: usize| {
        let svc = &svc;
        async move {
            for i in from..to {
                svc.import_person(org, import(&format!("p{i}@example.com"))).await.unwrap();
            }
        }
    };
    // The session publishes its statistics with the first transaction a second after it last did.
    let published = |n: usize| {
        let import_range = &import_range;
        async move {
            tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
            import_range(n, n + 1).await;
        }
    };
    import_range(0, 1_500).await;
    published(1_500).await;
    let Some(before) = talent_store::testing::index_entries_read(&url, "persons").await.unwrap() else { return };
    import_range(1_501, 1_701).await;
    published(1_701).await;
    let after = talent_store::testing::index_entries_read(&url, "persons").await.unwrap().unwrap_or_default();
    assert!(after - before < 200, "{} index entries of persons read by 201 imports", after - before);
}

/// D55, T146: a database from before holds addresses with Unicode domains (written here by SQL,
/// as the service wrote them then). The start-up normalization rewrites every row that merges
/// with nothing (a person, its human, an invitation, a user, a stored email, the organization's
/// address and employee domains) and leaves exactly as they are, and reports by table, ids and
/// domain, the rows that would become one: two persons of one organization, their two humans,
/// two pending invitations of one organization; an address that no longer parses is left and
/// reported too. A second run rewrites nothing and reports the same. Afterwards an import of
/// either spelling finds the normalized person, and the admin erasure scrubs the Unicode
/// spelling from stored events too.
async fn stored_addresses_take_their_ascii_domain_unless_rows_would_merge_d55(store: DbStore) {
    let url = store.url().to_string();
    let (svc, _) = services(store.clone());
    let (a, b) = (new_org(&svc, "business", &[]).await.id, new_org(&svc, "business", &[]).await.id);
    let mut input = import("lone@xn--mnchen-3ya.de");
    input.first_name = Some(name("Lone"));
    let lone = imported(&svc, a, input).await;
    let twin = imported(&svc, a, import("twin@xn--bcher-kva.example")).await;
    let old_twin = imported(&svc, a, import("was-twin@xn--bcher-kva.example")).await;
    let old_twin_b = imported(&svc, b, import("was-twin@xn--bcher-kva.example")).await;
    let bad = imported(&svc, b, import("bad@example.com")).await;
    let (inv, _) = svc.create_invitation(a, emailed_invitation("inv@xn--mnchen-3ya.de")).await.unwrap();
    let (dup, _) = svc.create_invitation(a, emailed_invitation("dup@xn--mnchen-3ya.de")).await.unwrap();
    let (old_dup, _) = svc.create_invitation(a, emailed_invitation("was-dup@xn--mnchen-3ya.de")).await.unwrap();
    let user = svc.create_user(a, email("hr@xn--mnchen-3ya.de"), OrgRole::Admin).await.unwrap();
    let spelled_before = r#"
        UPDATE persons SET email = 'lone@münchen.de', search_text = 'lone  lone@münchen.de'
            WHERE email = 'lone@xn--mnchen-3ya.de';
        UPDATE humans SET email = 'lone@münchen.de' WHERE email = 'lone@xn--mnchen-3ya.de';
        UPDATE outbox_events SET data = replace(data, 'lone@xn--mnchen-3ya.de', 'lone@münchen.de');
        UPDATE persons SET email = 'twin@bücher.example' WHERE email = 'was-twin@xn--bcher-kva.example';
        UPDATE humans SET email = 'twin@bücher.example' WHERE email = 'was-twin@xn--bcher-kva.example';
        UPDATE persons SET email = 'bad@-münchen.de' WHERE email = 'bad@example.com';
        UPDATE humans SET email = 'bad@-münchen.de' WHERE email = 'bad@example.com';
        UPDATE invitations SET email = 'inv@münchen.de' WHERE email = 'inv@xn--mnchen-3ya.de';
        UPDATE invitations SET email = 'dup@münchen.de' WHERE email = 'was-dup@xn--mnchen-3ya.de';
        UPDATE emails SET to_address = 'inv@münchen.de' WHERE to_address = 'inv@xn--mnchen-3ya.de';
        UPDATE users SET email = 'hr@münchen.de' WHERE email = 'hr@xn--mnchen-3ya.de';
        UPDATE organizations SET email = 'billing@münchen.de', employee_domains = '["münchen.de","xn--mnchen-3ya.de"]';
    "#;
    talent_store::testing::execute(&url, spelled_before).await.unwrap();
    let human_of = |address: &'static str| {
        let svc = svc.clone();
        async move {
            read(&svc, move |tx| {
                Box::pin(async move { tx.find_human(Email::from_stored(address).unwrap().as_str()).await })
            })
            .await
        }
    };
    let twin_human = human_of("twin@xn--bcher-kva.example").await.unwrap();
    let (old_twin_human, bad_human) = (old_twin.human_id, bad.human_id);
    assert_eq!(human_of("twin@bücher.example").await, Some(old_twin_human), "spelled as before");

    let report = store.normalize_email_domains().await.unwrap();
    // lone (person, human), old_twin_b, inv, its email, the user, the organizations' addresses
    // and employee domains.
    assert_eq!(report.rewritten, 2 + 1 + 1 + 1 + 1 + 2 + 2, "{report:?}");
    let mut collisions: Vec<(&str, BTreeSet<Uuid>, &str)> =
        report.collisions.iter().map(|c| (c.table, c.ids.iter().copied().collect(), c.domain.as_str())).collect();
    collisions.sort();
    assert_eq!(
        collisions,
        vec![
            ("humans", BTreeSet::from([twin_human.0, old_twin_human.0]), "xn--bcher-kva.example"),
            ("invitations", BTreeSet::from([dup.invitation.id.0, old_dup.invitation.id.0]), "xn--mnchen-3ya.de"),
            ("persons", BTreeSet::from([twin.id.0, old_twin.id.0]), "xn--bcher-kva.example"),
        ]
    );
    let mut invalid = report.invalid.clone();
    invalid.sort();
    assert_eq!(invalid, vec![("humans", bad_human.0), ("persons", bad.id.0)]);

    // Rewritten.
    let got = svc.get_person(a, lone.id).await.unwrap();
    assert_eq!(got.email.as_str(), "lone@xn--mnchen-3ya.de");
    assert_eq!(human_of("lone@xn--mnchen-3ya.de").await, Some(lone.human_id));
    assert_eq!(svc.get_person(b, old_twin_b.id).await.unwrap().email.as_str(), "twin@xn--bcher-kva.example");
    assert_eq!(
        svc.get_invitation(a, inv.invitation.id).await.unwrap().invitation.email.as_str(),
        "inv@xn--mnchen-3ya.de"
    );
    assert_eq!(svc.get_user(user.id).await.unwrap().email.as_str(), "hr@xn--mnchen-3ya.de");
    let (org, _) = svc.organization(a).await.unwrap();
    assert_eq!(org.email.as_str(), "billing@xn--mnchen-3ya.de");
    assert_eq!(org.employee_domains, vec!["xn--mnchen-3ya.de".to_string()]);
    let mails =
        read(&svc, |tx| Box::pin(async move { tx.list_emails(Some(&email("inv@münchen.de")), 10).await })).await;
    assert_eq!(mails.len(), 1, "the stored email is found by its recipient in ASCII form");
    let mut q = query(a);
    q.q = Some("lone@xn--mnchen".into());
    assert_eq!(emails(&svc, q).await, set(&["lone@xn--mnchen-3ya.de"]), "the search text follows");
    // Left exactly as they were.
    assert_eq!(svc.get_person(a, old_twin.id).await.unwrap().email.as_str(), "twin@bücher.example");
    assert_eq!(svc.get_person(a, twin.id).await.unwrap().email.as_str(), "twin@xn--bcher-kva.example");
    assert_eq!(human_of("twin@bücher.example").await, Some(old_twin_human));
    assert_eq!(svc.get_invitation(a, old_dup.invitation.id).await.unwrap().invitation.email.as_str(), "dup@münchen.de");
    assert_eq!(svc.get_person(b, bad.id).await.unwrap().email.as_str(), "bad@-münchen.de", "readable as stored");

    let again = store.normalize_email_domains().await.unwrap();
    assert_eq!(again.rewritten, 0, "idempotent");
    assert_eq!((again.collisions.len(), again.invalid.len()), (3, 2), "reported at every run until resolved");

    // Either spelling now finds the one person (D55), and erasing the address scrubs events
    // written with the Unicode spelling (the export finds them first).
    for spelling in ["lone@münchen.de", "LONE@xn--mnchen-3ya.de"] {
        let out = svc.import_person(a, import(spelling)).await.unwrap();
        assert!(!out.created, "{spelling}");
        assert_eq!(out.person.id, lone.id);
    }
    let x = svc.export_human(email("lone@münchen.de")).await.unwrap();
    assert_eq!(x.memberships.iter().map(|m| m.person.id).collect::<Vec<_>>(), vec![lone.id]);
    assert!(x.events.iter().any(|e| e.data.as_str().contains("lone@münchen.de")), "events spelled as before");
    svc.erase_human(email("lone@xn--mnchen-3ya.de")).await.unwrap();
    for spelling in ["lone@münchen.de", "lone@xn--mnchen-3ya.de"] {
        assert_eq!(talent_store::testing::tables_containing(&url, spelling).await.unwrap(), vec![], "{spelling}");
    }
}
