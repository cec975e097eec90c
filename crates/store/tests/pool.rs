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

/// Runs `n` read transactions at once through `store` on the calling thread's runtime, each
/// holding its connection for 50 ms, so that `n` connections are in use together.
async fn reads_together(store: &DbStore, n: usize) {
    let reads = (0..n).map(|_| {
        store.read(|_tx| {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok::<_, talent_domain::errors::StoreError>(())
            })
        })
    });
    futures_util::future::try_join_all(reads).await.expect("reads");
}

/// On a thread of its own with a current-thread runtime, as an HTTP worker runs: adopts the
/// thread's share of `store`'s request pool, then runs `n` reads together.
fn on_worker_thread(store: &DbStore, n: usize) -> bool {
    let store = store.clone();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let adopted = store.adopt_current_thread().expect("adopt");
        rt.block_on(reads_together(&store, n));
        // The runtime, which drives the thread's connections, lives as long as the thread.
        std::mem::forget(rt);
        adopted
    })
    .join()
    .expect("worker thread")
}

/// The sessions open on the database now, this one left out.
async fn sessions(url: &str) -> i64 {
    use diesel_async::RunQueryDsl;
    let mut c = AsyncPgConnection::establish(url).await.expect("connect");
    diesel::sql_query(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .get_result::<Count>(&mut c)
    .await
    .expect("count")
    .n
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// T283: the request pool divided among HTTP worker threads. Each worker thread's transactions
/// take connections of its own share, which it opened (so that their driving tasks run on it),
/// never the shared pool's or another worker's; the other threads keep the shared pool, shrunk
/// to the background jobs' size. The counts of open connections (the store's and PostgreSQL's)
/// tell which pool served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_worker_thread_takes_its_connections_from_a_share_of_its_own_t283() {
    on_postgres(true, |url| async move {
        let store = DbStore::connect(&url, 4).expect("connect");
        assert!(!store.adopt_current_thread().expect("adopt"), "nothing to adopt before the division");
        reads_together(&store, 1).await;
        assert_eq!(store.pool_status().1, 1, "one shared connection");

        assert_eq!(store.divide_among_workers(2), Some(2), "4 connections for 2 workers");
        assert_eq!(store.pool_status().0, 4, "the shared pool: min(JOBS_POOL, 4)");
        assert!(on_worker_thread(&store, 2), "the first worker adopts");
        let (max, open, _, _) = store.pool_status();
        assert_eq!((max, open), (6, 3), "the first worker's two connections beside the shared one");
        assert!(on_worker_thread(&store, 2), "the second worker adopts");
        assert_eq!(store.pool_status().1, 5);
        // The shared pool still serves threads without a share, with its own connection.
        reads_together(&store, 1).await;
        assert_eq!(store.pool_status().1, 5, "no new connection for the shared pool's read");
        assert_eq!(sessions(&url).await, 5, "PostgreSQL sees the same connections");
    })
    .await;
}

/// A worker that asks again keeps its pool and opens nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_keeps_its_share_and_reuses_its_connections_t283() {
    on_postgres(true, |url| async move {
        let store = DbStore::connect(&url, 2).expect("connect");
        assert_eq!(store.divide_among_workers(3), Some(1), "rounded up to one connection each");
        let s = store.clone();
        let opened = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            assert!(s.adopt_current_thread().expect("adopt"));
            assert!(s.adopt_current_thread().expect("again"), "still adopted");
            rt.block_on(async {
                reads_together(&s, 1).await;
                reads_together(&s, 1).await;
            });
            let open = s.pool_status().1;
            drop(rt);
            open
        })
        .join()
        .expect("worker thread");
        assert_eq!(opened, 1, "two reads, one after the other, on the worker's one connection");
        assert_eq!(store.pool_status().0, 2 + 1, "the shared pool's two and the worker's one");
    })
    .await;
}

/// On SQLite there is nothing to divide: its statements run on the calling thread already.
#[test]
fn sqlite_keeps_one_pool_t283() {
    let path = std::env::temp_dir().join(format!("talent-t283-{}.db", std::process::id()));
    let store = DbStore::connect(&format!("sqlite://{}", path.display()), 4).expect("connect");
    assert_eq!(store.divide_among_workers(2), None);
    assert!(!store.adopt_current_thread().expect("adopt"));
    let _ = std::fs::remove_file(path);
}
