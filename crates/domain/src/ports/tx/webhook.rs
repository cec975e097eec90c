//! [`WebhookRepo`]: webhook endpoints, deliveries and attempts (D29-D35, T60).

use crate::ids::{DeliveryId, OrgId, WebhookId};
use crate::ports::{AttemptRecord, BoxFuture, ClaimRequest, StoreResult};
use crate::webhook::{AttemptOutcome, Delivery, Endpoint};
use time::OffsetDateTime;

/// Webhook endpoints, deliveries and attempts (D29-D35, T60). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL claims
/// take due deliveries with `FOR UPDATE SKIP LOCKED` ([`WebhookRepo::claim_deliveries`]);
/// recording outcomes locks the endpoints ([`WebhookRepo::lock_endpoints`]) and then the
/// deliveries ([`WebhookRepo::list_deliveries_by_ids`]). **Lock order:** a transaction that
/// writes an endpoint and deliveries of it locks the endpoint first, as deleting an endpoint
/// (which removes its deliveries) does; then no two such transactions wait on each other in a
/// cycle (T104).
pub trait WebhookRepo: Send {
    /// Inserts an endpoint.
    fn insert_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an endpoint.
    fn update_endpoint<'a>(&'a mut self, e: &'a Endpoint) -> BoxFuture<'a, StoreResult<()>>;
    /// An endpoint of the organization.
    ///
    /// Webhook endpoints only: an ATS connection's hidden endpoint (D69) is not found here.
    fn get_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<Option<Endpoint>>>;
    /// Endpoints of the organization, oldest first.
    ///
    /// Webhook endpoints only (what the API lists, counts and fans events out to); ATS
    /// connections' hidden endpoints (D69) are left out.
    fn list_endpoints_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Endpoint>>>;
    /// Deletes an endpoint and its deliveries.
    ///
    /// # Locking
    /// Locks the endpoint (PostgreSQL: `FOR UPDATE`) before it deletes the deliveries: the lock
    /// order above.
    fn delete_endpoint(&mut self, org: OrgId, id: WebhookId) -> BoxFuture<'_, StoreResult<()>>;
    /// Inserts a delivery (test pings).
    fn insert_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites a delivery's state and releases its claim.
    fn update_delivery<'a>(&'a mut self, d: &'a Delivery) -> BoxFuture<'a, StoreResult<()>>;
    /// [`WebhookRepo::update_delivery`] for many deliveries: their state (status, attempts, next and last
    /// attempt, last response status and error), claims released. An adapter may do it in one
    /// statement (the engine's outcome batches, T60). Default: one `update_delivery` each.
    fn update_deliveries<'a>(&'a mut self, ds: &'a [Delivery]) -> BoxFuture<'a, StoreResult<()>> {
        Box::pin(async move {
            for d in ds {
                self.update_delivery(d).await?;
            }
            Ok(())
        })
    }
    /// Records attempts of deliveries (one statement for the batch where the backend allows),
    /// numbering each after the attempts its delivery already has.
    ///
    /// # Errors
    /// `Internal` when a delivery does not exist (callers pass ids read in the same transaction).
    fn insert_attempts<'a>(&'a mut self, attempts: &'a [AttemptRecord]) -> BoxFuture<'a, StoreResult<()>>;
    /// Endpoints by id, in any organization (the delivery engine's batch read); missing ids are
    /// left out. Not locked: a transaction that updates them reads them with
    /// [`WebhookRepo::lock_endpoints`].
    fn list_endpoints_by_ids<'a>(&'a mut self, ids: &'a [WebhookId]) -> BoxFuture<'a, StoreResult<Vec<Endpoint>>>;
    /// [`WebhookRepo::list_endpoints_by_ids`], locking the rows until the transaction ends, so that
    /// read-modify-writes of an endpoint's counters (breaker, consecutive failures; T59, D31) by
    /// two recorders do not lose one another's update (T104).
    ///
    /// # Locking
    /// PostgreSQL: `FOR NO KEY UPDATE` in id order (new deliveries' foreign-key checks, `FOR KEY
    /// SHARE`, do not wait for it). Take it before locking any delivery of these endpoints (the
    /// lock order above). SQLite: the write lock already serializes writers.
    fn lock_endpoints<'a>(&'a mut self, ids: &'a [WebhookId]) -> BoxFuture<'a, StoreResult<Vec<Endpoint>>>;
    /// Deliveries by id, as stored now; missing ids (deleted with their endpoint) are left out.
    ///
    /// # Locking
    /// In a write transaction on PostgreSQL the rows are locked (`FOR UPDATE`), so recording
    /// outcomes does not race a concurrent redeliver.
    fn list_deliveries_by_ids<'a>(&'a mut self, ids: &'a [DeliveryId]) -> BoxFuture<'a, StoreResult<Vec<Delivery>>>;
    /// A delivery of an endpoint.
    fn get_delivery(&mut self, endpoint: WebhookId, id: DeliveryId) -> BoxFuture<'_, StoreResult<Option<Delivery>>>;
    /// Attempts of a delivery, oldest first.
    fn list_attempts_of(
        &mut self,
        delivery: DeliveryId,
    ) -> BoxFuture<'_, StoreResult<Vec<(OffsetDateTime, AttemptOutcome)>>>;
    /// Deliveries of an endpoint, newest first, keyset by id, optional status and event type
    /// (the dashboard's delivery log filters by both, issue 18).
    fn list_deliveries(
        &mut self,
        endpoint: WebhookId,
        status: Option<crate::webhook::DeliveryStatus>,
        event_type: Option<crate::events::EventType>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Delivery>>>;
    /// How many deliveries of an endpoint have `status` (a connection's failed pushes, D69).
    fn count_deliveries(
        &mut self,
        endpoint: WebhookId,
        status: crate::webhook::DeliveryStatus,
    ) -> BoxFuture<'_, StoreResult<u64>>;
    /// Claims pending deliveries due at `now` of enabled endpoints whose breaker is not open, each
    /// until `c.lease_until` (a claim whose worker died expires and is claimed again), oldest due
    /// first, at most `c.limit` in all, and per endpoint and per organization at most the cap less
    /// what the caller already has in flight there ([`ClaimRequest`], T60).
    ///
    /// # Locking
    /// Safe with several instances: on PostgreSQL rows are claimed with `FOR UPDATE SKIP LOCKED`;
    /// on SQLite the claim is one `UPDATE ... RETURNING` under the write lock.
    fn claim_deliveries<'a>(&'a mut self, c: &'a ClaimRequest) -> BoxFuture<'a, StoreResult<Vec<Delivery>>>;
    /// Deletes up to `limit` deliveries (with their attempts) created before `before` that no
    /// worker holds, and up to `limit` outbox events created before `before` (retention, T61).
    /// Returns how many rows of each were deleted: (deliveries, events).
    fn purge_webhook_history(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<(u64, u64)>>;
    /// Asks the store to wake the delivery engines once this transaction commits (in-process, and
    /// on PostgreSQL every instance through `NOTIFY`): call it when the transaction made a
    /// delivery due now (fan-out, redeliver, re-enabling an endpoint). A rolled-back transaction
    /// wakes nobody.
    fn wake_deliveries(&mut self);
}
