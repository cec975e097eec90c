//! Where SQLite statements run (T74). diesel-async runs every statement of a
//! [`SyncConnectionWrapper`](diesel_async::sync_connection_wrapper::SyncConnectionWrapper) on
//! tokio's blocking pool: a thread hop there and back per statement, about a dozen per import,
//! all while the import holds SQLite's single write turn. Inside a write transaction,
//! [`inline`] makes them run on the polling thread instead, so the write turn is held for the
//! statements' own time. Reads, which can be long (a search over 100,000 persons) and run side by
//! side, keep the blocking pool so that they never hold up an async worker; a read by key
//! (`Store::read_by_key`, T327: one row by its primary key, microseconds) runs inline too, as the
//! hop would cost more than the statement.

use diesel_async::sync_connection_wrapper::SpawnBlocking;
use futures_util::future::BoxFuture;
use std::error::Error;
use std::future::Future;

tokio::task_local! {
    static INLINE: ();
}

/// Runs `fut` with its SQLite statements executed on the polling thread (see the module doc).
pub(crate) fn inline<F: Future>(fut: F) -> impl Future<Output = F::Output> {
    INLINE.scope((), fut)
}

/// The [`SpawnBlocking`] of Talent's SQLite connections: on the polling thread inside
/// [`inline`], else on tokio's blocking pool (what diesel-async does by default).
pub struct SqliteRuntime;

impl SpawnBlocking for SqliteRuntime {
    fn spawn_blocking<'a, R>(
        &mut self,
        task: impl FnOnce() -> R + Send + 'static,
    ) -> BoxFuture<'a, Result<R, Box<dyn Error + Send + Sync + 'static>>>
    where
        R: Send + 'static,
    {
        if INLINE.try_with(|_| ()).is_ok() {
            let out = task();
            return Box::pin(std::future::ready(Ok(out)));
        }
        let handle = tokio::task::spawn_blocking(task);
        Box::pin(async move { handle.await.map_err(|e| Box::new(e) as Box<dyn Error + Send + Sync>) })
    }

    fn get_runtime() -> Self {
        SqliteRuntime
    }
}
