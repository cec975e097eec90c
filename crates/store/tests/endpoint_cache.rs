#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Imports fan out to their organization's webhook endpoints from the store's cache, and every
//! change of an endpoint that the fan-out sees reaches the next import, also when another
//! instance made it (T272). Two stores on one database stand for two instances: one imports,
//! the other (or a raw statement, as the delivery engine's bookkeeping) changes the endpoints.
//! On SQLite and on PostgreSQL (`TEST_DATABASE_URL`).

use talent_conformance::{import, new_org, services, Svc};
use talent_domain::events::EventType;
use talent_domain::ids::{OrgId, WebhookId};
use talent_domain::usecases::webhooks::{EndpointPatch, NewEndpoint};
use talent_domain::webhook::Subscription;
use talent_store::endpoint_cache::EndpointCacheStats;
use talent_store::testing::{execute, TestDb};
use talent_store::DbStore;

/// How many deliveries of `ep` carry an event about `email`.
async fn deliveries_about(svc: &Svc<DbStore>, org: OrgId, ep: WebhookId, email: &str) -> usize {
    let page = svc.list_deliveries(org, ep, None, None, None, 100).await.expect("deliveries");
    page.items.iter().filter(|d| d.payload.contains(email)).count()
}

/// Imports `email` through `svc`; the cache's hits and misses it added.
async fn import_counted(svc: &Svc<DbStore>, store: &DbStore, org: OrgId, email: &str) -> EndpointCacheStats {
    let before = store.endpoint_cache_stats();
    svc.import_person(org, import(email)).await.expect("import");
    let after = store.endpoint_cache_stats();
    EndpointCacheStats { hits: after.hits - before.hits, misses: after.misses - before.misses }
}

const HIT: EndpointCacheStats = EndpointCacheStats { hits: 1, misses: 0 };
const MISS: EndpointCacheStats = EndpointCacheStats { hits: 0, misses: 1 };

async fn every_change_reaches_the_next_import(url: String) {
    let (importer, other) = (DbStore::connect(&url, 4).expect("connect"), DbStore::connect(&url, 4).expect("connect"));
    importer.migrate().await.expect("migrate");
    let (svc, _) = services(importer.clone());
    let (admin, _) = services(other.clone());
    let org = new_org(&svc, "business", &[]).await;
    let typed = |t: EventType| Subscription::Types(vec![t]);
    let first = admin
        .create_endpoint(
            org.id,
            NewEndpoint {
                url: "https://first.example.com/".into(),
                events: typed(EventType::PersonCreated),
                description: None,
            },
        )
        .await
        .expect("endpoint");

    // Learned at the first import, used from the second on.
    assert_eq!(import_counted(&svc, &importer, org.id, "p1@example.com").await, MISS);
    assert_eq!(import_counted(&svc, &importer, org.id, "p2@example.com").await, HIT);
    for p in ["p1@example.com", "p2@example.com"] {
        assert_eq!(deliveries_about(&svc, org.id, first.id, p).await, 1, "{p} delivered");
    }

    // The other instance unsubscribes the endpoint from person.created.
    let patch = EndpointPatch { events: Some(typed(EventType::InvitationAccepted)), ..EndpointPatch::default() };
    admin.patch_endpoint(org.id, first.id, patch).await.expect("patch");
    assert_eq!(import_counted(&svc, &importer, org.id, "p3@example.com").await, MISS);
    assert_eq!(deliveries_about(&svc, org.id, first.id, "p3@example.com").await, 0, "unsubscribed");

    // It adds a second endpoint.
    let second = admin
        .create_endpoint(
            org.id,
            NewEndpoint { url: "https://second.example.com/".into(), events: Subscription::All, description: None },
        )
        .await
        .expect("endpoint");
    assert_eq!(import_counted(&svc, &importer, org.id, "p4@example.com").await, MISS);
    assert_eq!(deliveries_about(&svc, org.id, second.id, "p4@example.com").await, 1, "the new endpoint");
    assert_eq!(import_counted(&svc, &importer, org.id, "p5@example.com").await, HIT);
    assert_eq!(deliveries_about(&svc, org.id, second.id, "p5@example.com").await, 1);

    // The delivery engine's bookkeeping (failure counts, the breaker) is not a change the
    // fan-out sees; a disabled endpoint is (its deliveries wait, D33, and wake no engine).
    let id = second.id.0;
    execute(
        &url,
        &format!(
            "UPDATE webhook_endpoints SET consecutive_failures = 3, breaker_failures = 2, \
             failing_since = created_at, breaker_open_until = created_at WHERE id = '{id}'"
        ),
    )
    .await
    .expect("bookkeeping");
    let seen = svc.get_endpoint(org.id, second.id).await.expect("endpoint");
    assert_eq!(seen.consecutive_failures, 3, "the bookkeeping was written");
    assert_eq!(import_counted(&svc, &importer, org.id, "p6@example.com").await, HIT);
    let disable = EndpointPatch { enabled: Some(false), ..EndpointPatch::default() };
    admin.patch_endpoint(org.id, second.id, disable).await.expect("disable");
    assert_eq!(import_counted(&svc, &importer, org.id, "p7@example.com").await, MISS);
    assert_eq!(deliveries_about(&svc, org.id, second.id, "p7@example.com").await, 1, "held for the disabled one");

    // It deletes the second endpoint: an import that still fanned out to it would fail on the
    // deliveries' foreign key.
    admin.delete_endpoint(org.id, second.id).await.expect("delete");
    assert_eq!(import_counted(&svc, &importer, org.id, "p8@example.com").await, MISS);
    assert_eq!(deliveries_about(&svc, org.id, first.id, "p8@example.com").await, 0);
    assert_eq!(import_counted(&svc, &importer, org.id, "p9@example.com").await, HIT);

    // A second organization has versions of its own.
    let org2 = new_org(&svc, "business", &[]).await;
    assert_eq!(import_counted(&svc, &importer, org2.id, "q1@example.com").await, MISS);
    assert_eq!(import_counted(&svc, &importer, org2.id, "q2@example.com").await, HIT);
    assert_eq!(import_counted(&svc, &importer, org.id, "p10@example.com").await, HIT);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_use_the_cached_endpoints_until_another_instance_changes_them_on_sqlite_t272() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("endpoint_cache");
    std::fs::create_dir_all(&dir).expect("create the SQLite test directory");
    let db = TestDb::sqlite(&dir);
    let outcome = tokio::spawn(every_change_reaches_the_next_import(db.url.clone())).await;
    db.drop_db().await.expect("drop");
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn imports_use_the_cached_endpoints_until_another_instance_changes_them_on_postgres_t272() {
    talent_store::testing::on_postgres(true, every_change_reaches_the_next_import).await;
}
