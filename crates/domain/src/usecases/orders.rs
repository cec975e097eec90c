//! ATS orders (connectors.md, D67, D73, D78, D82): what each ATS adapter calls to place, read,
//! list and cancel an order, and what an ATS is told of one. An order is placed in the import's
//! transaction ([`Services::import_or_order`]); it then follows the invitation and assessment
//! events ([`crate::connector::follow`]).

use super::persons::{ImportPerson, NestedInvitation};
use super::Services;
use crate::connector::{Connection, NewOrder, Order, OrderChange, OrderStatus, TestRef};
use crate::errors::{ClientError, UseCaseError};
use crate::events::EventType;
use crate::ids::*;
use crate::invitation::Invitation;
use crate::person::Person;
use crate::ports::{EmailRecord, Store, Tx};
use crate::values::FieldErrors;
use time::OffsetDateTime;

/// What an ATS is told of an order (D66, D73): the order, its profile (for a profile test), and,
/// once it is completed and while the organization sees the person's results, the match with
/// that profile. Competency scores never leave (D66).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderReport {
    /// The order.
    pub order: Order,
    /// The ordered profile, if the test is one (and it still exists).
    pub profile: Option<crate::results::Profile>,
    /// The match percentage and category: only for a completed order of a profile test whose
    /// person's results the organization sees now (never before consent, D19; never after
    /// erasure).
    pub result: Option<super::assessments::Match>,
}

/// An order being placed, as the import transaction carries it ([`Services::import_or_order`]).
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    pub id: OrderId,
    /// SHA-256 of the order's report link token (D68).
    pub report_token_hash: Vec<u8>,
    pub connection: ConnectionId,
    /// The ATS's key names one order for good ([`crate::connector::Ats::orders_once`]).
    pub once: bool,
    /// The connection's `lastActivityAt` as the caller read it: when recent enough, the order's
    /// transaction does not read the connection to note its activity (T202).
    pub seen_activity: Option<OffsetDateTime>,
    pub order: NewOrder,
}

/// What [`Services::import_or_order`]'s transaction yields.
type Imported = (super::persons::ImportOutcome, Option<(Invitation, bool, Option<EmailRecord>)>, Option<(Order, bool)>);

/// The order `p` repeats, with its person and invitation, if the ATS placed it before: the open
/// order with the same key and test (D67), or for an ATS whose key names one order for good,
/// the order with that key in any state (D82).
pub(crate) async fn placed_before(
    tx: &mut dyn Tx,
    org: OrgId,
    p: &Placement,
) -> Result<Option<Imported>, UseCaseError> {
    let found = match p.once {
        true => tx.find_order_by_key(p.connection, &p.order.ats_key).await?,
        false => tx.find_open_order(p.connection, &p.order.ats_key, p.order.test).await?,
    };
    let Some(o) = found else { return Ok(None) };
    let person = tx
        .get_person(org, o.person_id)
        .await?
        .ok_or_else(|| UseCaseError::Internal("order without its person".into()))?;
    let inv = tx.get_invitation(org, o.invitation_id).await?;
    let outcome = super::persons::ImportOutcome { person, created: false, invitation: None };
    Ok(Some((outcome, inv.map(|i| (i, false, None)), Some((o, false)))))
}

/// Inserts the order `p` for `person` and invitation `inv` (D67), and notes the connection's
/// activity.
pub(crate) async fn insert_order(
    tx: &mut dyn Tx,
    p: &Placement,
    person: &Person,
    inv: &Invitation,
    now: OffsetDateTime,
) -> Result<Order, UseCaseError> {
    let o = Order {
        id: p.id,
        org_id: person.org_id,
        connection_id: p.connection,
        test: p.order.test,
        person_id: person.id,
        invitation_id: inv.id,
        ats_key: p.order.ats_key.clone(),
        refs: p.order.refs.clone(),
        callback_url: p.order.callback_url.clone(),
        status: OrderStatus::Sent,
        assessment_id: None,
        created_at: now,
        updated_at: now,
        started_at: None,
        completed_at: None,
        report_token_hash: p.report_token_hash.clone(),
    };
    tx.insert_order(&o).await?;
    let seen = p.seen_activity.is_some_and(|t| now - t < Connection::ACTIVITY_RESOLUTION);
    if !seen {
        tx.touch_connection(p.connection, now).await?;
    }
    Ok(o)
}

impl<S: Store> Services<S> {
    /// Places an order (D67): imports the candidate (`joinedVia` `api`) and invites them by email
    /// with every rule of the API (plan limits, consent: an address with results the organization
    /// cannot see gets an `access_request`), in one transaction. An open order of the connection
    /// with the same ATS key and test is returned as it is (`false`), with no second email.
    /// Errors: 400 `validation_error` on `test` (unknown) or `callbackUrl` (refused like a webhook
    /// URL, D54); 409 `person_limit_reached` and the import's other refusals; 404 (connection).
    pub async fn place_order(&self, connection: &Connection, order: NewOrder) -> Result<(Order, bool), UseCaseError> {
        let org_id = connection.org_id;
        if let TestRef::Profile(p) = order.test {
            let exists = self
                .store
                .read(move |tx| {
                    Box::pin(async move { Ok::<_, UseCaseError>(tx.get_profile(org_id, p).await?.is_some()) })
                })
                .await?;
            if !exists {
                return Err(FieldErrors::one("test", "is not a test of this organization").into());
            }
        }
        if let Some(url) = &order.callback_url {
            if let Err(m) = self.webhooks.check_url(url) {
                return Err(FieldErrors::one("callbackUrl", m).into());
            }
        }
        let c = &order.candidate;
        let input = ImportPerson {
            first_name: c.first_name.clone(),
            last_name: c.last_name.clone(),
            invitation: Some(NestedInvitation {
                send_email: true,
                expires_in_days: None,
                // T221: the connection's language, else the organization's.
                candidate: crate::invitation::CandidateOptions { locale: connection.locale, ..Default::default() },
            }),
            ..ImportPerson::new(c.email.clone())
        };
        let id = OrderId(self.ids.new_uuid());
        let report_token_hash = self.secrets.hash_token(&self.secrets.report_token(id));
        let once = connection.ats.orders_once();
        let seen_activity = connection.last_activity_at;
        let placement = Placement { id, report_token_hash, connection: connection.id, once, seen_activity, order };
        let (_, placed) = self.import_or_order(org_id, input, Some(placement)).await?;
        placed.ok_or_else(|| UseCaseError::Internal("an order's import returned no order".into()))
    }

    /// The order the connection took under the ATS's key `ats_key`, in any state (Kombo's order
    /// poll sees each open order every minute and places only the new ones, D82). Errors: the
    /// store's.
    pub async fn order_by_key(&self, connection: ConnectionId, ats_key: String) -> Result<Option<Order>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.find_order_by_key(connection, &ats_key).await?) })
            })
            .await
    }

    /// An order of the organization (D73). Errors: 404 (also another organization's).
    pub async fn get_order(&self, org_id: OrgId, id: OrderId) -> Result<Order, UseCaseError> {
        self.store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_order(org_id, id).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Order").into())
    }

    /// What the ATS is told of an order (D66, D73): see [`OrderReport`]. Errors: 404 (also
    /// another organization's order).
    pub async fn order_report(&self, org_id: OrgId, id: OrderId) -> Result<OrderReport, UseCaseError> {
        let (order, person, all, profile) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let o = tx.get_order(org_id, id).await?.ok_or_else(|| ClientError::not_found("Order"))?;
                    let person = tx.get_person(org_id, o.person_id).await?;
                    let all = match &person {
                        Some(p) => tx.list_assessments_of_human(p.human_id).await?,
                        None => vec![],
                    };
                    let profile = match o.test {
                        TestRef::Profile(p) => tx.get_profile(org_id, p).await?,
                        TestRef::TalentAssessment => None,
                    };
                    Ok::<_, UseCaseError>((o, person, all, profile))
                })
            })
            .await?;
        let result = match (&person, &profile) {
            (Some(p), Some(pr)) if order.status == OrderStatus::Completed => {
                self.scores_of(&all, p).map(|(scores, _)| super::assessments::profile_match(p.id, pr, &scores))
            }
            _ => None,
        };
        Ok(OrderReport { order, profile, result })
    }

    /// The connection's orders, newest first, keyset-paginated (D63). Errors: 404 (connection).
    pub async fn list_orders(
        &self,
        connection: ConnectionId,
        before: Option<OrderId>,
        limit: u32,
    ) -> Result<super::Page<Order>, UseCaseError> {
        let mut items = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_connection(connection).await?.ok_or_else(|| ClientError::not_found("Connection"))?;
                    Ok::<_, UseCaseError>(tx.list_orders_of_connection(connection, before, limit + 1).await?)
                })
            })
            .await?;
        let has_more = items.len() > limit as usize;
        items.truncate(limit as usize);
        Ok(super::Page { items, has_more })
    }

    /// Cancels an order (D78): a pending invitation is revoked (`invitation.revoked`, which
    /// cancels the order); an order whose invitation was already accepted is cancelled alone; a
    /// finished order stays as it is. Errors: 404.
    pub async fn cancel_order(&self, org_id: OrgId, id: OrderId) -> Result<Order, UseCaseError> {
        let now = self.clock.now();
        let ids = self.event_source();
        let public_url = self.invites.public_url.clone();
        let secrets = self.secrets.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut o = tx.get_order(org_id, id).await?.ok_or_else(|| ClientError::not_found("Order"))?;
                    if !o.status.is_open() {
                        return Ok::<_, UseCaseError>(o);
                    }
                    let revoked = tx.get_invitation(org_id, o.invitation_id).await?.and_then(|mut inv| {
                        inv.revoke(now).ok()?;
                        Some(inv)
                    });
                    match revoked {
                        Some(inv) => {
                            tx.update_invitation(&inv).await?;
                            let url =
                                format!("{}/i/{}", public_url.trim_end_matches('/'), secrets.invitation_token(inv.id));
                            super::invitations::append_invitation_event(
                                tx,
                                &ids,
                                EventType::InvitationRevoked,
                                &inv,
                                &url,
                                now,
                            )
                            .await?;
                            Ok(tx.get_order(org_id, id).await?.unwrap_or(o))
                        }
                        _ => {
                            o.apply(OrderChange::Cancelled, now);
                            tx.update_order(&o).await?;
                            Ok(o)
                        }
                    }
                })
            })
            .await
    }
}
