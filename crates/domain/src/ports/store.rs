//! The store: runs a use case's closure in one transaction ([`Store::write`], [`Store::read`]).

use super::*;
use crate::api_key::KeyContext;
use crate::errors::StoreError;
use crate::ids::{ApiKeyId, OrgId};

/// The store: runs one use case in one transaction. The closure and its results are `'static` so
/// an adapter may run the transaction in its own task: a caller that goes away (a client that
/// disconnects) cannot cancel a transaction half-way.
pub trait Store: Send + Sync + 'static {
    /// Runs `f` in a read-write transaction: commit when it returns `Ok`, roll back on `Err`.
    /// On SQLite the transaction takes the write lock at once (`BEGIN IMMEDIATE`). `f` is
    /// `Clone` because an adapter may roll its transaction back with others' and run a clone of
    /// `f` again (SQLite's group commit, T297): a body's only effects are its writes in `tx` and
    /// what it returns.
    fn write<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Clone + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static;

    /// Runs `f` for reads only (a consistent snapshot where the backend offers one); `f` must not write.
    fn read<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static;

    /// [`Store::read`] of a few rows found by a primary or unique key, never a scan: short
    /// enough that an adapter may run its statements on the calling thread instead of handing
    /// each to a thread of its own (T327; SQLite runs them inline, a hop there and back saved per
    /// statement). Otherwise as [`Store::read`]: `f` must not write. Default: [`Store::read`].
    fn read_by_key<'s, R, E, F>(&'s self, f: F) -> BoxFuture<'s, Result<R, E>>
    where
        F: for<'c> FnOnce(&'c mut dyn Tx) -> BoxFuture<'c, Result<R, E>> + Send + 'static,
        R: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.read(f)
    }

    /// Checks that the database answers and migrations are applied (`/readyz`).
    fn ready(&self) -> BoxFuture<'_, StoreResult<()>>;

    /// The key, its owner's role and its organization for the key lookup `prefix` (D41), for
    /// authentication; `None` when no key has that prefix. An adapter may serve it from a cache
    /// (issue 11, T63) provided that a committed `OrgRepo::update_org` or `OrgRepo::revoke_api_key` is seen
    /// by the next call on the same instance and within 1 s on any other; unknown prefixes must not
    /// be cached. Shared (`Arc`): a cached context is handed to each request without copying its
    /// strings (T239). Default: one read.
    ///
    /// # Errors
    /// `StoreError::Internal` when the database fails.
    fn key_context<'s>(&'s self, prefix: &'s str) -> BoxFuture<'s, StoreResult<Option<std::sync::Arc<KeyContext>>>> {
        let owned = prefix.to_string();
        Box::pin(async move {
            let found = self.read(move |tx| Box::pin(async move { tx.find_key_context(&owned).await })).await?;
            Ok(found.map(std::sync::Arc::new))
        })
    }

    /// The connection an ATS's call authenticated with `key` of organization `org` speaks for
    /// ([`crate::connector::call_connection`], D64), for every call of a partner protocol. An
    /// adapter may serve it from a cache under the rules of [`Store::key_context`]: a committed
    /// `ConnectionRepo` insert, update or delete, or `OrgRepo::revoke_api_key`, is seen by the
    /// next call on the same instance and within 1 s on any other; a committed
    /// `ConnectionRepo::touch_connection` by the next call on the same instance; `None` is not
    /// cached. The connection holds its credentials opened: a cache keeps them in memory only.
    /// Default: one read.
    ///
    /// # Errors
    /// `StoreError::Internal` when the database fails.
    fn call_connection(
        &self,
        key: ApiKeyId,
        org: OrgId,
        ats: crate::connector::Ats,
    ) -> BoxFuture<'_, StoreResult<Option<std::sync::Arc<crate::connector::Connection>>>> {
        Box::pin(async move {
            let found = self
                .read(move |tx| Box::pin(async move { crate::connector::call_connection(tx, key, org, ats).await }))
                .await?;
            Ok(found.map(std::sync::Arc::new))
        })
    }
}
