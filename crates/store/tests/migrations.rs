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
