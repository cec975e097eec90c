//! The store conformance suite (`talent_conformance`) on the in-memory fake: the fake
//! keeps the same contract as the SQLite and PostgreSQL store, so that use-case tests on it
//! mean what they say (issue 14 point 3).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::future::Future;
use talent_domain::fakes::FakeStore;

/// A fresh fake store per test.
async fn fake<F, Fut>(body: F)
where
    F: FnOnce(FakeStore) -> Fut,
    Fut: Future<Output = ()>,
{
    body(FakeStore::default()).await
}

talent_conformance::store_conformance_suite!(fake);
