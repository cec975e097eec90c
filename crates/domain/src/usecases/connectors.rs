//! ATS connections and orders (connectors.md, D63-D67, D75): the administrator's connection use
//! cases, and what each ATS adapter calls: the tests, placing, reading and cancelling an order,
//! and recording an error the ATS reports. Orders then follow the invitation and assessment
//! events ([`crate::connector::follow`]).

use super::orgs::{create_key_in_tx, KeyRequest};
use super::persons::{ImportPerson, NestedInvitation};
use super::Services;
use crate::connector::{
    connection_scopes, Connection, ConnectionError, ConnectionPatch, NewConnection, NewOrder, Order, OrderChange,
    OrderStatus, ReportOpening, Test, TestRef,
};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::events::EventType;
use crate::ids::*;
use crate::invitation::Invitation;
use crate::person::Person;
use crate::ports::{EmailRecord, Store, Tx};
use crate::values::FieldErrors;
use crate::values::OrgRole;
use crate::webhook::{Breaker, Delivery, DeliveryStatus, Endpoint, EndpointKind, Subscription};
use time::OffsetDateTime;

/// A connection with what the dashboard and the admin API show beside it (D63).
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionView {
    /// The connection.
    pub connection: Connection,
    /// How many orders it has.
    pub orders: u64,
    /// How many of its pushes failed for good (D69).
    pub failed_pushes: u64,
}

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

/// Who opened a report link (D68).
#[derive(Clone, Debug)]
pub struct Viewed {
    /// The client address, as the API reads it.
    pub client_ip: String,
    /// The `User-Agent`, up to 300 characters.
    pub user_agent: Option<String>,
}

/// What a report link shows (D68): the report's content, as the PDF has it.
#[derive(Clone, Debug)]
pub struct ReportView {
    /// The organization that shared it.
    pub company_name: String,
    /// The person's name (or address when no name is known).
    pub person_name: String,
    /// The latest visible completion.
    pub completed_at: OffsetDateTime,
    /// For a profile test: the profile's name and the match (D66).
    pub profile_match: Option<(String, super::assessments::Match)>,
    /// Each competency: name (in [`Self::locale`]), score in [0, 1], band.
    pub competencies: Vec<(String, f64, &'static str)>,
    /// The personality text (markdown), in [`Self::locale`].
    pub personality: String,
    /// The PDF report, when it was asked for.
    pub pdf: Option<Vec<u8>>,
    /// The language of the page (T217): the reader's, else the organization's.
    pub locale: crate::values::Locale,
    /// The time zone of its dates: the organization's.
    pub zone: crate::values::TimeZone,
}

/// The answer to a report link (D68).
#[derive(Clone, Debug)]
pub enum ReportAccess {
    /// The report.
    Open(Box<ReportView>),
    /// 410: expired, the person erased, or the results no longer visible to the organization.
    Gone,
}

/// A new connection with its API key's value, shown once (D63).
#[derive(Clone, Debug)]
pub struct CreatedConnection {
    /// The connection.
    pub view: ConnectionView,
    /// `key`: the `tk_…` value the administrator pastes into the ATS.
    pub key: String,
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
        if let Some(mut c) = tx.get_connection(p.connection).await? {
            if c.touch(now) {
                tx.update_connection(&c).await?;
            }
        }
    }
    Ok(o)
}

/// The hidden endpoint of a connection (D69): its pushes' lane in the delivery engine, with the
/// connection's `enabled`; subscribed to nothing, signed with nothing.
fn hidden_endpoint(c: &Connection) -> Endpoint {
    Endpoint {
        id: c.endpoint_id,
        org_id: c.org_id,
        url: c.base_url().map(str::to_string).unwrap_or_else(|| format!("{}:callbacks", c.ats.as_str())),
        events: Subscription::Types(vec![]),
        description: Some(format!("{} connection {}", c.ats.display_name(), c.id)),
        enabled: c.enabled,
        secret: String::new(),
        previous_secret: None,
        previous_secret_expires_at: None,
        consecutive_failures: 0,
        failing_since: None,
        breaker: Breaker::default(),
        created_at: c.created_at,
        updated_at: c.updated_at,
        kind: EndpointKind::Ats,
    }
}

/// A connection with its counts, read in this transaction.
async fn view_in_tx(tx: &mut dyn Tx, connection: Connection) -> Result<ConnectionView, UseCaseError> {
    let orders = tx.count_orders_of_connection(connection.id).await?;
    let failed_pushes = tx.count_deliveries(connection.endpoint_id, DeliveryStatus::Failed).await?;
    Ok(ConnectionView { connection, orders, failed_pushes })
}

fn settings_errors(list: Vec<(String, String)>) -> UseCaseError {
    let mut e = FieldErrors::default();
    for (field, message) in list {
        e.push(field, message);
    }
    e.into()
}

impl<S: Store> Services<S> {
    /// Checks a connection's settings for its ATS (D63) and its base URL as a webhook URL is
    /// checked (D54, D69). Errors: 400 with the fields.
    fn check_settings(&self, c: &Connection) -> Result<(), UseCaseError> {
        c.settings.check(c.ats, true).map_err(settings_errors)?;
        if let Some(url) = &c.settings.base_url {
            self.webhooks.check_url(url).map_err(|m| settings_errors(vec![("settings.baseUrl".into(), m)]))?;
        }
        Ok(())
    }

    /// `POST /admin/v1/organizations/{id}/connections` (D63): the connection and its key (scopes
    /// `persons:write`, `invitations:write`, `results:read`, `profiles:read`), owned by `owner` or
    /// else by the organization's oldest administrator, in one transaction. Errors: 404
    /// (organization), 400 (settings), 409 `conflict` (no administrator to own the key, or the
    /// owner has 10 active keys).
    pub async fn create_connection(
        &self,
        org_id: OrgId,
        input: NewConnection,
        owner: Option<UserId>,
    ) -> Result<CreatedConnection, UseCaseError> {
        let now = self.clock.now();
        let material = crate::usecases::access::key_material(&*self.secrets, false);
        let c = Connection {
            id: ConnectionId(self.ids.new_uuid()),
            org_id,
            ats: input.ats,
            name: input.name,
            enabled: true,
            settings: input.settings,
            api_key_id: ApiKeyId(self.ids.new_uuid()),
            key: material.value.clone(),
            endpoint_id: WebhookId(self.ids.new_uuid()),
            created_at: now,
            updated_at: now,
            last_activity_at: None,
            locale: input.locale,
        };
        self.check_settings(&c)?;
        let endpoint = hidden_endpoint(&c);
        let (prefix, hash) = (material.prefix, material.hash);
        let ids = self.ids.clone();
        let view = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    tx.lock_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let users = tx.list_users_of_org(org_id).await?;
                    let user = match owner {
                        Some(u) => users.iter().find(|x| x.id == u),
                        None => users.iter().filter(|u| u.role == OrgRole::Admin).min_by_key(|u| (u.created_at, u.id)),
                    }
                    .ok_or_else(|| {
                        ClientError::new(
                            Code::Conflict,
                            "The organization has no administrator to own the connection's key",
                        )
                    })?;
                    let req = KeyRequest {
                        id: c.api_key_id,
                        user_id: user.id,
                        name: Some(format!("{} connection: {}", c.ats.display_name(), c.name)),
                        scopes: connection_scopes(),
                        expires_at: None,
                        prefix,
                        hash,
                        now,
                        test: None,
                    };
                    create_key_in_tx(tx, req).await?;
                    tx.insert_endpoint(&endpoint).await?;
                    tx.insert_connection(&c).await?;
                    // An ATS that keeps a list of the tests gets it at once (D81).
                    crate::connector::sync_packages(tx, &*ids, org_id, Some(c.id), now).await?;
                    Ok::<_, UseCaseError>(ConnectionView { connection: c, orders: 0, failed_pushes: 0 })
                })
            })
            .await?;
        Ok(CreatedConnection { view, key: material.value })
    }

    /// `GET /admin/v1/organizations/{id}/connections` (D63): oldest first. Errors: 404
    /// (organization).
    pub async fn list_connections(&self, org_id: OrgId) -> Result<Vec<ConnectionView>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let mut out = vec![];
                    for connection in tx.list_connections_of_org(org_id).await? {
                        out.push(view_in_tx(tx, connection).await?);
                    }
                    Ok::<_, UseCaseError>(out)
                })
            })
            .await
    }

    /// `GET /admin/v1/connections/{id}` (D63). Errors: 404.
    pub async fn get_connection(&self, id: ConnectionId) -> Result<ConnectionView, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    let connection =
                        tx.get_connection(id).await?.ok_or_else(|| ClientError::not_found("Connection"))?;
                    view_in_tx(tx, connection).await
                })
            })
            .await
    }

    /// `PATCH /admin/v1/connections/{id}` (D63): name, enabled, settings members. Errors: 404,
    /// 400 (settings as they would be after the change).
    pub async fn update_connection(
        &self,
        id: ConnectionId,
        patch: ConnectionPatch,
    ) -> Result<ConnectionView, UseCaseError> {
        let now = self.clock.now();
        let current = self.get_connection(id).await?.connection;
        let mut c = current.clone();
        if let Some(n) = patch.name {
            c.name = n;
        }
        if let Some(e) = patch.enabled {
            c.enabled = e;
        }
        if let Some(l) = patch.locale {
            c.locale = l;
        }
        c.settings = c.settings.patched(&patch.settings);
        c.updated_at = now;
        self.check_settings(&c)?;
        let ids = self.ids.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    // Written over what it was read as; a concurrent change of the same
                    // connection is the administrator's own (last writer wins).
                    let now_stored =
                        tx.get_connection(id).await?.ok_or_else(|| ClientError::not_found("Connection"))?;
                    c.last_activity_at = now_stored.last_activity_at;
                    tx.update_connection(&c).await?;
                    // A disabled connection's pushes wait, as a disabled endpoint's deliveries do
                    // (D33); enabling it again releases them.
                    let mut eps = tx.lock_endpoints(&[c.endpoint_id]).await?;
                    if let Some(ep) = eps.first_mut().filter(|ep| ep.enabled != c.enabled) {
                        ep.enabled = c.enabled;
                        ep.updated_at = now;
                        tx.update_endpoint(ep).await?;
                        if c.enabled {
                            tx.wake_deliveries();
                        }
                    }
                    // New credentials, a new base URL or a connection enabled again: the ATS's
                    // list of tests is sent again (D81).
                    crate::connector::sync_packages(tx, &*ids, c.org_id, Some(c.id), now).await?;
                    view_in_tx(tx, c).await
                })
            })
            .await
    }

    /// `DELETE /admin/v1/connections/{id}` (D63): revokes its key (the ATS's access ends at once)
    /// and deletes it with its orders. Errors: 404.
    pub async fn delete_connection(&self, id: ConnectionId) -> Result<(), UseCaseError> {
        let now = self.clock.now();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let c = tx.get_connection(id).await?.ok_or_else(|| ClientError::not_found("Connection"))?;
                    tx.revoke_api_key(c.api_key_id, now).await?;
                    tx.delete_connection(id).await?;
                    tx.delete_endpoint(c.org_id, c.endpoint_id).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await
    }

    /// The connection an ATS's call authenticated with `key` speaks for (D64): the key's own
    /// connection when it was minted for one of `ats`, else the organization's oldest enabled
    /// connection to `ats`. Notes its activity (at most once a minute). Errors: 401
    /// `unauthorized` when there is none or it is disabled.
    pub async fn connection_for_call(
        &self,
        org_id: OrgId,
        key: ApiKeyId,
        ats: crate::connector::Ats,
    ) -> Result<Connection, UseCaseError> {
        let now = self.clock.now();
        let refused = || ClientError::new(Code::Unauthorized, "No enabled connection to this ATS for this key");
        let found = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let own = tx.find_connection_by_key(key).await?.filter(|c| c.ats == ats && c.org_id == org_id);
                    Ok::<_, UseCaseError>(match own {
                        Some(c) => Some(c),
                        None => tx.find_enabled_connection(org_id, ats).await?,
                    })
                })
            })
            .await?;
        let mut c = found.filter(|c| c.enabled).ok_or_else(refused)?;
        if c.touch(now) {
            let at = c.last_activity_at;
            let id = c.id;
            self.store
                .write(move |tx| {
                    Box::pin(async move {
                        if let Some(mut stored) = tx.get_connection(id).await? {
                            stored.last_activity_at = at;
                            tx.update_connection(&stored).await?;
                        }
                        Ok::<_, UseCaseError>(())
                    })
                })
                .await?;
        }
        Ok(c)
    }

    /// The tests an ATS can order (D65): `talent-assessment`, then the organization's profiles,
    /// newest first. Errors: the store's.
    pub async fn connector_tests(&self, org_id: OrgId) -> Result<Vec<Test>, UseCaseError> {
        let profiles = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_profiles(org_id, None, 1000).await?) }))
            .await?;
        Ok(Test::catalogue(&profiles))
    }

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

    /// The enabled connections to `ats` of every organization, oldest first, at most 10,000
    /// (Kombo's webhook finds its connection among them, and the order poll visits each, D82).
    /// Errors: the store's.
    pub async fn enabled_connections(&self, ats: crate::connector::Ats) -> Result<Vec<Connection>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.list_enabled_connections(ats, 10_000).await?) })
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

    /// The report link of an order (D68): `{public_url}/r/{token}` once it is completed, else
    /// `None`.
    pub fn report_url(&self, order: &Order) -> Option<String> {
        order.report_link_until()?;
        Some(self.report_link(order.id))
    }

    /// The report link of order `id` whatever its state (D68): it shows the report once the
    /// order is completed, and is not found before. Kombo takes it with a cancellation too (D83).
    pub fn report_link(&self, id: OrderId) -> String {
        let base = self.invites.public_url.trim_end_matches('/');
        format!("{base}/r/{}", self.secrets.report_token(id))
    }

    /// Opens a report link (D68): the report (with the PDF when `pdf`), or [`ReportAccess::Gone`]
    /// after 180 days, after the person's erasure, or while the organization does not see the
    /// results; every opening that shows something is recorded. Errors: 404 for an unknown token
    /// or an order not completed. `reader` is the language the reader's `Accept-Language` asks
    /// for (T217): the page and the PDF are written in it, else as [`Self::report`] chooses.
    pub async fn open_report(
        &self,
        token: &str,
        who: Viewed,
        pdf: bool,
        reader: Option<crate::values::Locale>,
    ) -> Result<ReportAccess, UseCaseError> {
        let hash = self.secrets.hash_token(token);
        let now = self.clock.now();
        let order = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.find_order_by_report_token(&hash).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Report"))?;
        let Some(until) = order.report_link_until() else { return Err(ClientError::not_found("Report").into()) };
        if now >= until {
            return Ok(ReportAccess::Gone);
        }
        let org = order.org_id;
        let (person, organization) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let p = tx.get_person(org, order.person_id).await?;
                    let o = tx.get_org(org).await?;
                    Ok::<_, UseCaseError>((p, o))
                })
            })
            .await?;
        let (Some(person), Some(organization)) = (person, organization) else { return Ok(ReportAccess::Gone) };
        let company_name = organization.company_name;
        if person.archive_reason == Some(crate::person::ArchiveReason::Erased) {
            return Ok(ReportAccess::Gone);
        }
        let results = self.results(org, person.id).await?;
        let (Some(scores), Some((_, completed_at))) = (results.scores, results.personality) else {
            return Ok(ReportAccess::Gone);
        };
        let report = self.order_report(org, order.id).await?;
        let model = &self.assessment.model;
        let locale = reader.unwrap_or(organization.candidate.locale);
        let words = crate::assessment::ModelWords::new(&*self.invites.texts, locale);
        let competencies = scores
            .competencies
            .iter()
            .filter_map(|c| model.competency(c.competency_id).map(|m| (words.competency(m), c.score, c.band.as_str())))
            .collect();
        let personality = self.assessment.personality.describe(model, &scores, locale);
        let pdf = match pdf {
            true => Some(self.report(org, person.id, reader).await?.1),
            false => None,
        };
        let opening = ReportOpening {
            id: self.ids.new_uuid(),
            order_id: order.id,
            opened_at: now,
            client_ip: who.client_ip,
            user_agent: who.user_agent,
            pdf: pdf.is_some(),
        };
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.insert_report_opening(&opening).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        let person_name = match (&person.first_name, &person.last_name) {
            (None, None) => person.email.as_str().to_string(),
            (f, l) => [f.as_ref().map(|n| n.as_str()), l.as_ref().map(|n| n.as_str())]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" "),
        };
        Ok(ReportAccess::Open(Box::new(ReportView {
            company_name,
            person_name,
            completed_at,
            profile_match: report.profile.map(|p| p.name).zip(report.result),
            competencies,
            personality,
            pdf,
            locale,
            zone: organization.candidate.time_zone,
        })))
    }

    /// The openings of an order's report link, newest first, at most `limit` (D68). Errors: 404.
    pub async fn report_openings(
        &self,
        org_id: OrgId,
        id: OrderId,
        limit: u32,
    ) -> Result<Vec<ReportOpening>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_order(org_id, id).await?.ok_or_else(|| ClientError::not_found("Order"))?;
                    Ok::<_, UseCaseError>(tx.list_report_openings(id, limit).await?)
                })
            })
            .await
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

    /// Records an error the ATS reported (D75): on the connection, changing nothing else.
    /// `api_call` is cut to 200 characters, `errors` (JSON text) to 4,000. Errors: the store's.
    pub async fn record_connection_error(
        &self,
        connection: ConnectionId,
        api_call: &str,
        errors: &str,
        order_id: Option<OrderId>,
    ) -> Result<ConnectionError, UseCaseError> {
        let e = ConnectionError {
            id: self.ids.new_uuid(),
            connection_id: connection,
            api_call: api_call.chars().take(200).collect(),
            errors: errors.chars().take(4000).collect(),
            order_id,
            created_at: self.clock.now(),
        };
        let stored = e.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.insert_connection_error(&stored).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        Ok(e)
    }

    /// The connection's push log (D69): its pushes, newest first, keyset-paginated, optionally of
    /// one status, each with the event that caused it, its attempts count, last status and
    /// error. Errors: 404 (connection).
    pub async fn push_log(
        &self,
        connection: ConnectionId,
        status: Option<DeliveryStatus>,
        before: Option<DeliveryId>,
        limit: u32,
    ) -> Result<super::Page<Delivery>, UseCaseError> {
        let mut items = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let c = tx.get_connection(connection).await?.ok_or_else(|| ClientError::not_found("Connection"))?;
                    Ok::<_, UseCaseError>(tx.list_deliveries(c.endpoint_id, status, None, before, limit + 1).await?)
                })
            })
            .await?;
        let has_more = items.len() > limit as usize;
        items.truncate(limit as usize);
        Ok(super::Page { items, has_more })
    }

    /// One push with its attempts (status, response code, body excerpt, error). Errors: 404.
    pub async fn push_attempts(
        &self,
        connection: ConnectionId,
        push: DeliveryId,
    ) -> Result<(Delivery, Vec<(OffsetDateTime, crate::webhook::AttemptOutcome)>), UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    let c = tx.get_connection(connection).await?.ok_or_else(|| ClientError::not_found("Connection"))?;
                    let d =
                        tx.get_delivery(c.endpoint_id, push).await?.ok_or_else(|| ClientError::not_found("Push"))?;
                    let a = tx.list_attempts_of(push).await?;
                    Ok::<_, UseCaseError>((d, a))
                })
            })
            .await
    }

    /// Sends a push again now with a fresh retry schedule (D69), as a webhook redelivery does.
    /// Errors: 404.
    pub async fn redeliver_push(&self, connection: ConnectionId, push: DeliveryId) -> Result<Delivery, UseCaseError> {
        let c = self.get_connection(connection).await?.connection;
        self.redeliver(c.org_id, c.endpoint_id, push).await.map_err(|e| match e.code() {
            Some(Code::NotFound) => ClientError::not_found("Push").into(),
            _ => e,
        })
    }

    /// The request of a push the engine claimed (D69): the state it tells, with the order's result
    /// and its connection as they are now, rendered by the connector adapter. Errors (recorded as the attempt's error, never sent):
    /// the order or the connection is gone, or the adapter renders nothing for it.
    pub async fn render_push(&self, d: &Delivery) -> Result<crate::ports::PushRequest, String> {
        let endpoint = d.endpoint_id;
        let c = self
            .store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.find_connection_by_endpoint(endpoint).await?) })
            })
            .await
            .map_err(|e| format!("reading the connection: {e}"))?
            .ok_or("the connection no longer exists")?;
        let nothing = || format!("{} takes no push for this order", c.ats.display_name());
        if crate::connector::pushes_packages(&d.payload) {
            // The organization's tests as they are now (D81).
            let tests = self.connector_tests(c.org_id).await.map_err(|e| format!("reading the tests: {e}"))?;
            return self.pushes.packages(&c, &tests).ok_or_else(nothing);
        }
        let (id, status) = crate::connector::pushed(&d.payload).ok_or("the push names no order")?;
        let mut report = self.order_report(c.org_id, id).await.map_err(|_| "the order no longer exists".to_string())?;
        // Renderers use the link with a completion (and Kombo with a cancellation, D83).
        let url = Some(self.report_link(id));
        // The state the push tells, whatever the order's state now; the result only with a
        // completion.
        report.order.status = status;
        if status != OrderStatus::Completed {
            report.result = None;
        }
        // The PDF report, for an ATS that takes it with the result (D83), while the organization
        // sees the results; without them the completion goes without the attachment.
        let pdf = match status == OrderStatus::Completed && c.ats.attaches_report() {
            true => self.report(c.org_id, report.order.person_id, None).await.ok().map(|(_, pdf)| pdf),
            false => None,
        };
        let input = crate::ports::PushInput {
            connection: &c,
            report: &report,
            report_url: url.as_deref(),
            at: d.created_at,
            pdf: pdf.as_deref(),
        };
        self.pushes.render(&input).ok_or_else(nothing)
    }

    /// The errors the connection's ATS reported, newest first, at most `limit`. Errors: 404.
    pub async fn list_connection_errors(
        &self,
        connection: ConnectionId,
        limit: u32,
    ) -> Result<Vec<ConnectionError>, UseCaseError> {
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    tx.get_connection(connection).await?.ok_or_else(|| ClientError::not_found("Connection"))?;
                    Ok::<_, UseCaseError>(tx.list_connection_errors(connection, limit).await?)
                })
            })
            .await
    }
}
