#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The store's PostgreSQL pipe (T266): writes queued on a transaction's connection are sent with
//! the next statement, in the order they were queued, even when one of them must first be
//! prepared; a queued write's error is the error of the statement that sends it; a use case that
//! panics inside a transaction the store began leaves no open transaction in the pool.
//! PostgreSQL only (`TEST_DATABASE_URL`).

use diesel::sql_types::BigInt;
use diesel::QueryableByName;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use talent_conformance::{new_org, services};
use talent_domain::errors::StoreError;
use talent_domain::ports::{BoxFuture, Store};
use talent_store::pipeline::PgPipe;
use talent_store::testing::on_postgres;
use talent_store::DbStore;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

async fn probes(conn: &mut AsyncPgConnection) -> i64 {
    diesel::sql_query("SELECT count(*) AS n FROM pipe_probe").get_result::<Count>(conn).await.expect("count").n
}

/// A `ROLLBACK` queued after an insert that is still being prepared (a new connection has
/// nothing prepared) undoes the insert: it was sent after it. A control message sent by the
/// simple-query protocol overtook such an insert, which then ran on its own and stayed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queued_statements_run_in_the_order_they_were_queued_though_one_is_prepared_first() {
    on_postgres(false, |url| async move {
        let mut setup = AsyncPgConnection::establish(&url).await.expect("connect");
        setup.batch_execute("DROP TABLE IF EXISTS pipe_probe; CREATE TABLE pipe_probe (n int)").await.expect("table");
        for round in 0..3 {
            let conn = AsyncPgConnection::establish(&url).await.expect("connect");
            let mut pipe = PgPipe::new(&conn);
            pipe.defer_sql("BEGIN".into());
            pipe.defer(diesel::sql_query(format!("INSERT INTO pipe_probe VALUES ({round})")));
            pipe.defer(diesel::sql_query("INSERT INTO pipe_probe SELECT n + 100 FROM pipe_probe"));
            pipe.defer_sql("ROLLBACK".into());
            pipe.flush().await.expect("flush");
            assert_eq!(probes(&mut setup).await, 0, "round {round}: the rollback came last");
        }
        // And a commit keeps what was queued before it.
        let conn = AsyncPgConnection::establish(&url).await.expect("connect");
        let mut pipe = PgPipe::new(&conn);
        pipe.defer_sql("BEGIN".into());
        pipe.defer(diesel::sql_query("INSERT INTO pipe_probe VALUES (1)"));
        pipe.defer_sql("COMMIT".into());
        pipe.flush().await.expect("flush");
        assert_eq!(probes(&mut setup).await, 1);
    })
    .await;
}

/// A queued write that fails makes the statement that sends it fail with its error (here a
/// duplicate key, the error the import's retry of a raced email relies on, T70), and the
/// statements after it are not run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queued_writes_error_is_the_error_of_the_statement_that_sends_it() {
    on_postgres(false, |url| async move {
        let mut setup = AsyncPgConnection::establish(&url).await.expect("connect");
        setup
            .batch_execute("DROP TABLE IF EXISTS pipe_probe; CREATE TABLE pipe_probe (n int PRIMARY KEY)")
            .await
            .expect("table");
        let conn = AsyncPgConnection::establish(&url).await.expect("connect");
        let mut pipe = PgPipe::new(&conn);
        pipe.defer_sql("BEGIN".into());
        pipe.defer(diesel::sql_query("INSERT INTO pipe_probe VALUES (1)"));
        pipe.defer(diesel::sql_query("INSERT INTO pipe_probe VALUES (1)"));
        pipe.defer(diesel::sql_query("INSERT INTO pipe_probe VALUES (2)"));
        let read = diesel::sql_query("SELECT count(*) AS n FROM pipe_probe").get_result::<Count>(&mut pipe).await;
        match read {
            Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {}
            other => panic!("expected the duplicate key of the second insert, got {:?}", other.map(|c| c.n)),
        }
        drop(pipe);
        (&conn).batch_execute("ROLLBACK").await.expect("rollback");
        assert_eq!(probes(&mut setup).await, 0);
    })
    .await;
}

/// A use case that panics inside a write transaction on a one-connection pool: the connection
/// the transaction was begun on is not handed out again with the transaction open (the store
/// began it itself; diesel's transaction manager does not know of it), so what the panicking use
/// case wrote is gone, not committed by the next transaction on that connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_use_case_that_panics_leaves_no_open_transaction_in_the_pool() {
    on_postgres(false, |url| async move {
        let store = DbStore::connect(&url, 1).expect("connect");
        store.migrate().await.expect("migrate");
        let (svc, _) = services(store.clone());
        let id = new_org(&svc, "business", &[]).await.id;
        let panicked = store
            .write(move |tx| -> BoxFuture<'_, Result<(), StoreError>> {
                Box::pin(async move {
                    let mut org = tx.get_org(id).await?.expect("org");
                    org.company_name = "Written by a use case that then panicked".into();
                    tx.update_org(&org).await?;
                    panic!("a use case's bug");
                })
            })
            .await;
        assert!(matches!(panicked, Err(StoreError::Internal(_))), "the panic is an internal error");
        // The next write, on the pool's one connection.
        let n: Result<u32, StoreError> = store
            .write(move |tx| {
                Box::pin(async move {
                    tx.get_org(id).await?;
                    Ok(7)
                })
            })
            .await;
        assert_eq!(n.expect("the next write runs"), 7);
        let name = store
            .read(move |tx| Box::pin(async move { tx.get_org(id).await }))
            .await
            .expect("read")
            .expect("org")
            .company_name;
        assert_eq!(name, "Acme", "the panicking use case's update was rolled back");
    })
    .await;
}

/// T274: what PostgreSQL says when it aborts a transaction to resolve contention, a deadlock
/// between two transactions that lock two rows in opposite orders and a serialization failure
/// of a repeatable-read transaction whose row changed meanwhile, is a temporary failure
/// (`Unavailable`: 503 with `Retry-After`), not the service's own (`Internal`: 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadlock_and_a_serialization_failure_are_temporary() {
    on_postgres(false, |url| async move {
        let mut setup = AsyncPgConnection::establish(&url).await.expect("connect");
        setup
            .batch_execute(
                "DROP TABLE IF EXISTS pipe_probe; CREATE TABLE pipe_probe (n int PRIMARY KEY, v int);
                 INSERT INTO pipe_probe VALUES (1, 0), (2, 0)",
            )
            .await
            .expect("table");
        let update = |n: i32| diesel::sql_query(format!("UPDATE pipe_probe SET v = v + 1 WHERE n = {n}"));
        // Each locks one row, then asks for the other's.
        let (a, b) = (
            AsyncPgConnection::establish(&url).await.expect("a"),
            AsyncPgConnection::establish(&url).await.expect("b"),
        );
        let (mut pa, mut pb) = (PgPipe::new(&a), PgPipe::new(&b));
        for (pipe, first) in [(&mut pa, 1), (&mut pb, 2)] {
            pipe.defer_sql("BEGIN".into());
            pipe.defer(update(first));
            pipe.flush().await.expect("the first lock");
        }
        let (ra, rb) = tokio::join!(update(2).execute(&mut pa), update(1).execute(&mut pb));
        let failed: Vec<_> = [ra, rb].into_iter().filter_map(Result::err).collect();
        assert_eq!(failed.len(), 1, "PostgreSQL aborts one of the two: {failed:?}");
        let e = failed.into_iter().next().map(talent_store::tx::db_err);
        assert!(matches!(e, Some(StoreError::Unavailable(ref m)) if m.contains("deadlock")), "{e:?}");
        drop((pa, pb));
        for c in [&a, &b] {
            let mut c = c;
            c.batch_execute("ROLLBACK").await.expect("rollback");
        }

        // A repeatable-read transaction updates a row another one changed after its snapshot.
        let mut pa = PgPipe::new(&a);
        pa.defer_sql("BEGIN ISOLATION LEVEL REPEATABLE READ".into());
        assert_eq!(
            diesel::sql_query("SELECT count(*) AS n FROM pipe_probe")
                .get_result::<Count>(&mut pa)
                .await
                .expect("snapshot")
                .n,
            2
        );
        update(1).execute(&mut setup).await.expect("the other's update");
        let e = update(1).execute(&mut pa).await.map_err(talent_store::tx::db_err);
        assert!(matches!(e, Err(StoreError::Unavailable(ref m)) if m.contains("serialize")), "{e:?}");
        drop(pa);
        (&a).batch_execute("ROLLBACK").await.expect("rollback");
    })
    .await;
}
