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
use talent_domain::organization::Organization;
use talent_domain::person::Person;
use talent_domain::ports::{OrgRepo, PersonRepo};
use talent_store::testing::on_postgres;
use talent_store::tx::DbTx;
use talent_store::DbStore;

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// The store's services on `url`, a new organization with the persons of `emails` imported, and
/// a connection of the test's own planned as the store's are (`force_custom_plan`).
async fn setup(url: &str, emails: &[&str]) -> (Organization, Vec<Person>, AsyncPgConnection) {
    let store = DbStore::connect(url, 2).expect("connect");
    let (svc, _) = services(store);
    let org = new_org(&svc, "business", &[]).await;
    let mut people = vec![];
    for e in emails {
        people.push(imported(&svc, org.id, import(e)).await);
    }
    let mut conn = AsyncPgConnection::establish(url).await.expect("connect");
    conn.batch_execute("SET plan_cache_mode = force_custom_plan").await.expect("session");
    (org, people, conn)
}

/// How many statements this session has prepared whose text starts with `prefix`.
async fn prepared(conn: &mut AsyncPgConnection, prefix: &str) -> i64 {
    plans(conn, prefix).await.n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_update_and_the_active_count_are_prepared_once_per_connection_t234() {
    on_postgres(true, |url| async move {
        let (org, mut people, mut conn) = setup(&url, &["p0@example.com", "p1@example.com", "p2@example.com"]).await;
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

#[derive(QueryableByName)]
struct Plans {
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    generic_plans: i64,
    #[diesel(sql_type = BigInt)]
    custom_plans: i64,
}

/// This session's prepared statements whose text contains `part` (`n`, starting with it), and
/// their plans so far, summed.
async fn plans(conn: &mut AsyncPgConnection, part: &str) -> Plans {
    diesel::sql_query(
        "SELECT count(*) FILTER (WHERE starts_with(statement, $1)) AS n, \
         coalesce(sum(generic_plans), 0)::bigint AS generic_plans, \
         coalesce(sum(custom_plans), 0)::bigint AS custom_plans \
         FROM pg_prepared_statements WHERE strpos(statement, $1) > 0",
    )
    .bind::<Text, _>(part)
    .get_result::<Plans>(conn)
    .await
    .expect("pg_prepared_statements")
}

/// T269: in a transaction the store's pipe begins, a queued insert keeps a generic plan once
/// PostgreSQL finds it no costlier (after five executions), while a lookup by email, before and
/// after the insert in the same transaction, is planned with its values on every execution
/// (T110); the session's setting is back after the commit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queued_inserts_keep_a_cached_plan_and_lookups_stay_planned_with_their_values_t269() {
    on_postgres(true, |url| async move {
        let (org, people, mut conn) = setup(&url, &["template@example.com"]).await;
        let template = &people[0];
        let rounds = 8;
        for i in 0..rounds {
            let address = talent_conformance::email(&format!("p{i}@example.com"));
            let mut pipe = talent_store::pipeline::PgPipe::begin(&conn);
            let mut tx = DbTx::new(&mut pipe, true);
            let target = tx.lock_import_target(org.id, &address, false).await.expect("target").expect("org");
            assert!(target.person.is_none());
            let mut p = template.clone();
            p.id = talent_domain::ids::PersonId(uuid::Uuid::now_v7());
            p.email = address.clone();
            tx.insert_person(&p).await.expect("insert");
            let found = tx.find_person_by_email(org.id, &address).await.expect("lookup").expect("inserted");
            assert_eq!(found.id, p.id);
            drop(tx);
            pipe.defer_sql("COMMIT".into());
            pipe.flush().await.expect("commit");
        }
        let insert = plans(&mut conn, "INSERT INTO \"persons\"").await;
        assert_eq!(insert.generic_plans + insert.custom_plans, rounds, "one plan per insert");
        assert!(insert.generic_plans >= 1, "the insert's plan is cached");
        let lookup = plans(&mut conn, "\"persons\".\"email\" = $2").await;
        assert_eq!(lookup.generic_plans, 0, "a lookup by email never runs a generic plan");
        assert!(lookup.custom_plans >= 2 * rounds, "each lookup planned with its values");
        let mode = diesel::sql_query(
            "SELECT count(*) AS n FROM pg_settings WHERE name = 'plan_cache_mode' AND setting = 'force_custom_plan'",
        )
        .get_result::<Count>(&mut conn)
        .await
        .expect("setting")
        .n;
        assert_eq!(mode, 1, "the session's setting after the commit");
    })
    .await;
}
