#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The statements of the hot paths stay prepared on their connection (T234): an update of a
//! person, an invitation or an order, and the active-person count an import reads, are parsed
//! once per connection, not once per execution. diesel declines to cache any `UPDATE` (and any
//! SQL fragment); the store marks those whose text is fixed. PostgreSQL only
//! (`TEST_DATABASE_URL`): its `pg_prepared_statements` lists a session's named statements, and
//! an unprepared statement never appears there. SQLite goes through the same wrapper.

use diesel::sql_types::{BigInt, Text};
use diesel::QueryableByName;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use talent_conformance::{import, imported, new_org, services};
use talent_domain::ports::{OrgRepo, PersonRepo};
use talent_store::testing::on_postgres;
use talent_store::tx::DbTx;
use talent_store::DbStore;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// How many statements this session has prepared whose text starts with `prefix`.
async fn prepared(conn: &mut AsyncPgConnection, prefix: &str) -> i64 {
    diesel::sql_query("SELECT count(*) AS n FROM pg_prepared_statements WHERE starts_with(statement, $1)")
        .bind::<Text, _>(prefix)
        .get_result::<Count>(conn)
        .await
        .expect("pg_prepared_statements")
        .n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_update_and_the_active_count_are_prepared_once_per_connection_t234() {
    on_postgres(true, |url| async move {
        let store = DbStore::connect(&url, 2).expect("connect");
        let (svc, _) = services(store);
        let org = new_org(&svc, "business", &[]).await;
        let mut people = vec![];
        for i in 0..3 {
            people.push(imported(&svc, org.id, import(&format!("p{i}@example.com"))).await);
        }
        let mut conn = AsyncPgConnection::establish(&url).await.expect("connect");
        conn.batch_execute("SET plan_cache_mode = force_custom_plan").await.expect("session");
        for (round, p) in people.iter_mut().enumerate() {
            p.first_name = Some(talent_conformance::name(&format!("Round {round}")));
            conn.batch_execute("BEGIN").await.expect("begin");
            let mut pipe = talent_store::pipeline::PgPipe::new(&conn);
            let mut tx = DbTx::new(&mut pipe, true);
            tx.update_person(p).await.expect("update");
            assert_eq!(tx.count_active_persons(org.id).await.expect("count"), 3);
            drop(tx);
            drop(pipe);
            conn.batch_execute("COMMIT").await.expect("commit");
        }
        assert_eq!(prepared(&mut conn, "UPDATE \"persons\" SET").await, 1, "one prepared update of persons");
        assert_eq!(
            prepared(&mut conn, "SELECT \"org_active_persons\".\"n\"").await,
            1,
            "one prepared active-person count"
        );
    })
    .await;
}
