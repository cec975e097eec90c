//! [`ConnectionRepo`]: ATS connections and the errors their ATSs report (D63, D75).

use crate::connector::{Ats, Connection, ConnectionError};
use crate::ids::*;
use crate::ports::{BoxFuture, StoreResult};
use time::OffsetDateTime;

/// ATS connections and the errors their ATSs report (D63, D75). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503), `Internal` for any other failure (also a stored
/// credential that does not open under the configured keys).
///
/// # Locking
/// None needed: a connection is written by the administrator's use cases one at a time per row,
/// and `lastActivityAt` is a last-writer-wins time.
pub trait ConnectionRepo: Send {
    /// Inserts a connection (its credentials sealed at rest).
    fn insert_connection<'a>(&'a mut self, c: &'a Connection) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a connection. An adapter that caches connections for ATS calls
    /// ([`Store::call_connection`](crate::ports::Store::call_connection)) empties that cache when
    /// this (or an insert or delete) commits.
    fn update_connection<'a>(&'a mut self, c: &'a Connection) -> BoxFuture<'a, StoreResult<()>>;
    /// Sets only the connection's `lastActivityAt` to `at` (nothing when it is gone): the stamp an
    /// ATS's call leaves at most once a minute (D63). Unlike [`ConnectionRepo::update_connection`]
    /// it leaves other cached connections alone; a cache forgets this connection's entries.
    fn touch_connection(&mut self, id: ConnectionId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>>;
    /// A connection, in any organization (the admin API's routes name it alone).
    fn get_connection(&mut self, id: ConnectionId) -> BoxFuture<'_, StoreResult<Option<Connection>>>;
    /// The organization's connections, oldest first.
    fn list_connections_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Connection>>>;
    /// The connection whose minted key is `key`, if any.
    fn find_connection_by_key(&mut self, key: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<Connection>>>;
    /// The connection whose hidden endpoint (D69) is `endpoint`, if any.
    fn find_connection_by_endpoint(&mut self, endpoint: WebhookId) -> BoxFuture<'_, StoreResult<Option<Connection>>>;
    /// The organization's oldest enabled connection to `ats`, if any.
    fn find_enabled_connection(&mut self, org: OrgId, ats: Ats) -> BoxFuture<'_, StoreResult<Option<Connection>>>;
    /// The enabled connections to `ats` of every organization, oldest first, at most `limit`:
    /// all of them (Kombo's order poll, D82), or with `integration`, only those whose
    /// `integrationId` is exactly that (Kombo's webhook names its integration): an index lookup,
    /// however many organizations connect the ATS.
    fn list_enabled_connections<'a>(
        &'a mut self,
        ats: Ats,
        integration: Option<&'a str>,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<Connection>>>;
    /// Deletes a connection with its orders and reported errors (nothing when it is gone).
    fn delete_connection(&mut self, id: ConnectionId) -> BoxFuture<'_, StoreResult<()>>;
    /// Records an error the ATS reported.
    fn insert_connection_error<'a>(&'a mut self, e: &'a ConnectionError) -> BoxFuture<'a, StoreResult<()>>;
    /// The connection's reported errors, newest first, at most `limit`.
    fn list_connection_errors(
        &mut self,
        connection: ConnectionId,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<ConnectionError>>>;
}
