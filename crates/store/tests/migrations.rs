//! Every migration reverts cleanly and applies again, on both backends (a habit from Lemmy).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use talent_store::testing::{revert_all, TestDb};
use talent_store::DbStore;

async fn check(db: TestDb) {
    let store = DbStore::connect(&db.url, 2).unwrap();
    let applied = store.migrate().await.unwrap();
    assert!(applied >= 1);
    assert_eq!(revert_all(&db.url).await.unwrap(), applied);
    assert_eq!(store.pending_migrations().await.unwrap(), applied);
    assert_eq!(store.migrate().await.unwrap(), applied);
    assert_eq!(store.pending_migrations().await.unwrap(), 0);
    drop(store);
    db.drop_db().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_migrations_revert_and_reapply() {
    let dir = std::env::temp_dir();
    check(TestDb::sqlite(&dir)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_migrations_revert_and_reapply() {
    let Ok(admin) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!("skipped: TEST_DATABASE_URL unset");
        return;
    };
    if admin.is_empty() {
        return;
    }
    check(TestDb::postgres(&admin).await.unwrap()).await;
}

/// Instances started together on one new database (a deployment's first start, or a rolling one
/// with a new migration) all start: one applies the migrations, the others wait for it and find
/// none left (T120). On PostgreSQL one instance applies them all; on SQLite each migration is
/// applied once, by whichever instance holds the file's lock.
async fn concurrent(db: TestDb, one_applies_all: bool) {
    let stores: Vec<DbStore> = (0..4).map(|_| DbStore::connect(&db.url, 2).unwrap()).collect();
    let total = stores[0].pending_migrations().await.unwrap();
    let runs = stores.iter().map(|s| s.migrate());
    let applied: Vec<usize> = futures_util::future::join_all(runs).await.into_iter().map(|r| r.unwrap()).collect();
    assert_eq!(applied.iter().sum::<usize>(), total, "each migration once: {applied:?}");
    if one_applies_all {
        assert_eq!(applied.iter().filter(|&&n| n > 0).count(), 1, "one instance applies them: {applied:?}");
    }
    assert_eq!(stores[0].pending_migrations().await.unwrap(), 0);
    drop(stores);
    db.drop_db().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_instances_starting_together_migrate_once() {
    concurrent(TestDb::sqlite(&std::env::temp_dir()), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_instances_starting_together_migrate_once() {
    let Some(admin) = std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.is_empty()) else {
        return eprintln!("skipped: TEST_DATABASE_URL unset");
    };
    concurrent(TestDb::postgres(&admin).await.unwrap(), true).await;
}
