//! [`OrderRepo`]: the orders ATSs place through connections (D67).

use crate::connector::{Order, ReportOpening, TestRef};
use crate::ids::*;
use crate::ports::{BoxFuture, StoreResult};

/// The orders ATSs place through connections (D67). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// Two concurrent placements of the same order both look for it with
/// [`OrderRepo::find_open_order`] before either commits; the store's unique index on open orders
/// (connection, ATS key, test) makes the second insert fail with `UniqueViolation`, and the
/// placing use case runs again and finds the first.
pub trait OrderRepo: Send {
    /// Inserts an order.
    ///
    /// # Errors
    /// `UniqueViolation` when an open order with the same connection, ATS key and test exists.
    fn insert_order<'a>(&'a mut self, o: &'a Order) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an order.
    fn update_order<'a>(&'a mut self, o: &'a Order) -> BoxFuture<'a, StoreResult<()>>;
    /// An order of the organization.
    fn get_order(&mut self, org: OrgId, id: OrderId) -> BoxFuture<'_, StoreResult<Option<Order>>>;
    /// The open (`sent` or `started`) order of the connection with this ATS key and test.
    fn find_open_order<'a>(
        &'a mut self,
        connection: ConnectionId,
        ats_key: &'a str,
        test: TestRef,
    ) -> BoxFuture<'a, StoreResult<Option<Order>>>;
    /// The newest order of the connection with this ATS key, in any state (Kombo's order ids
    /// name one order for good, D82).
    fn find_order_by_key<'a>(
        &'a mut self,
        connection: ConnectionId,
        ats_key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<Order>>>;
    /// The orders placed with invitation `id` (any status).
    fn list_orders_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<Vec<Order>>>;
    /// The open orders of a person of the organization.
    fn list_open_orders_of_person(&mut self, org: OrgId, person: PersonId) -> BoxFuture<'_, StoreResult<Vec<Order>>>;
    /// The connection's orders, newest first, keyset-paginated: those with an id below `before`,
    /// at most `limit`.
    fn list_orders_of_connection(
        &mut self,
        connection: ConnectionId,
        before: Option<OrderId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Order>>>;
    /// The order whose report link's token has SHA-256 `hash`, in any organization (D68).
    fn find_order_by_report_token<'a>(&'a mut self, hash: &'a [u8]) -> BoxFuture<'a, StoreResult<Option<Order>>>;
    /// Records an opening of a report link.
    fn insert_report_opening<'a>(&'a mut self, o: &'a ReportOpening) -> BoxFuture<'a, StoreResult<()>>;
    /// The openings of an order's report link, newest first, at most `limit`.
    fn list_report_openings(&mut self, order: OrderId, limit: u32) -> BoxFuture<'_, StoreResult<Vec<ReportOpening>>>;
    /// How many orders the connection has.
    fn count_orders_of_connection(&mut self, connection: ConnectionId) -> BoxFuture<'_, StoreResult<u64>>;
}
