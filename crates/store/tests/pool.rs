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

/// Runs `fut` to its end on the calling thread inside a current-thread runtime, as an HTTP
/// worker runs its requests.
fn as_worker<T>(fut: impl std::future::Future<Output = T>) -> T {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    rt.block_on(tokio::task::LocalSet::new().run_until(fut))
}

/// One read transaction: whether it ran.
async fn one_read(store: &DbStore) -> bool {
    store.read(|tx| Box::pin(async move { tx.list_orgs(None, 1).await.map(drop) })).await.is_ok()
}

/// Each HTTP worker has a pool of its own, so that its connections are driven on its thread
/// (T243): the split keeps the pool's total, a worker whose connections are all busy borrows
/// another worker's pool instead of waiting for its own, a worker beyond the pools made uses the
/// shared one, and a pool is free again when its thread ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_worker_has_a_pool_of_its_own_and_borrows_another_when_its_own_is_busy_t243() {
    on_postgres(true, |url| async move {
        let mut small = DbStore::connect(&url, 5).expect("connect");
        small.pool_per_worker(2).expect("split");
        assert!(!small.take_worker_pool(), "too small to give each of 2 workers 2 connections: one pool");
        let mut store = DbStore::connect(&url, 6).expect("connect");
        store.pool_per_worker(2).expect("split");
        assert_eq!(store.pool_status().0, 6, "2 shared and 2 for each of the 2 workers");
        let store1 = store;

        // Worker A holds both its connections in transactions and reads meanwhile: the read
        // borrows worker B's pool (room for a connection) and ends while A's transactions are open.
        let s = store1.clone();
        let a = std::thread::spawn(move || {
            as_worker(async move {
                assert!(s.take_worker_pool(), "worker A has a pool");
                let (release, _) = tokio::sync::broadcast::channel::<()>(1);
                let mut holds = vec![];
                for _ in 0..2 {
                    let (opened_tx, opened_rx) = tokio::sync::oneshot::channel::<()>();
                    let (holder, mut released) = (s.clone(), release.subscribe());
                    holds.push(tokio::task::spawn_local(async move {
                        let held = holder
                            .write(move |_tx| {
                                Box::pin(async move {
                                    let _ = opened_tx.send(());
                                    let _ = released.recv().await;
                                    Ok::<_, talent_domain::errors::StoreError>(())
                                })
                            })
                            .await;
                        held.is_ok()
                    }));
                    opened_rx.await.expect("the transaction is open");
                }
                let read = tokio::time::timeout(Duration::from_secs(10), one_read(&s)).await;
                let _ = release.send(());
                let mut held = true;
                for h in holds {
                    held &= h.await.unwrap_or(false);
                }
                (read, held)
            })
        });
        let (read, held) = tokio::task::spawn_blocking(move || a.join().expect("worker A")).await.expect("join");
        assert_eq!(read, Ok(true), "the read borrowed another worker's connection instead of waiting");
        assert!(held, "the held transactions committed");

        // A has ended, so its pool is free: B and C take the two; D, a third worker while they
        // hold theirs, has none and runs on the shared pool; once B ends, E takes its pool.
        let (started, go) =
            (std::sync::Arc::new(std::sync::Barrier::new(3)), std::sync::Arc::new(std::sync::Barrier::new(3)));
        let holders: Vec<_> = (0..2)
            .map(|_| {
                let (s, started, go) = (store1.clone(), started.clone(), go.clone());
                std::thread::spawn(move || {
                    let took = s.take_worker_pool();
                    started.wait();
                    go.wait();
                    took
                })
            })
            .collect();
        let d = store1.clone();
        let d_worker = tokio::task::spawn_blocking(move || {
            started.wait();
            let out = (d.take_worker_pool(), as_worker(one_read(&d)));
            go.wait();
            out
        });
        let (d_took, d_read) = d_worker.await.expect("worker D");
        for h in holders {
            assert!(h.join().expect("worker B or C"), "B and C each took a pool, A's freed one included");
        }
        assert!(!d_took, "no pool is left for a third worker");
        assert!(d_read, "a worker without a pool of its own runs on the shared one");
        let e = store1.clone();
        let e_took = tokio::task::spawn_blocking(move || e.take_worker_pool()).await.expect("worker E");
        assert!(e_took, "the pools of workers that ended are taken again");
    })
    .await;
}
