#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The pools skip the per-checkout liveness check for recently used connections (T66); these
//! tests show that a connection the server closed is still never handed out, whether it was used
//! a moment ago or has been idle. PostgreSQL only (`TEST_DATABASE_URL`); SQLite connections are
//! in-process and cannot be closed from outside.

use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use std::time::Duration;
use talent_domain::ports::Store;
use talent_store::testing::on_postgres;
use talent_store::DbStore;

/// Closes every other session of the database from the server side, as a restart does.
async fn terminate_sessions(url: &str) {
    let mut admin = AsyncPgConnection::establish(url).await.expect("connect");
    admin
        .batch_execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .await
        .expect("terminate");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_closed_by_the_server_are_replaced_whether_just_used_or_idle_t66() {
    on_postgres(false, |url| async move {
        let store = DbStore::connect(&url, 2).expect("connect");
        store.migrate().await.expect("migrate");
        store.ready().await.expect("ready");
        // Used a moment ago (inside the window without a liveness check).
        terminate_sessions(&url).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        store.ready().await.expect("a just-used connection the server closed is not handed out");
        // Idle for longer than the window: checked with a round trip before use.
        tokio::time::sleep(Duration::from_millis(1100)).await;
        terminate_sessions(&url).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        store.ready().await.expect("an idle connection the server closed is replaced");
    })
    .await;
}
