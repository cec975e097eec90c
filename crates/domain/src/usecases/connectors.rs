//! ATS connections (connectors.md, D63-D65, D69, D75): the administrator's connection use cases,
//! and what each ATS adapter calls beside its orders ([`super::orders`]): the connection a call
//! speaks for, the tests, recording an error the ATS reports, and the pushes.

use super::orgs::{create_key_in_tx, KeyRequest};
use super::Services;
use crate::connector::{
    connection_scopes, Connection, ConnectionError, ConnectionPatch, NewConnection, OrderStatus, Test,
};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::*;
use crate::ports::{Store, Tx};
use crate::values::FieldErrors;
use crate::values::OrgRole;
use crate::webhook::{Breaker, Delivery, DeliveryStatus, Endpoint, EndpointKind, Subscription};
use std::sync::Arc;
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

/// A new connection with its API key's value, shown once (D63).
#[derive(Clone, Debug)]
pub struct CreatedConnection {
    /// The connection.
    pub view: ConnectionView,
    /// `key`: the `tk_…` value the administrator pastes into the ATS.
    pub key: String,
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

    /// The connection an ATS's call authenticated with `key` speaks for (D64,
    /// [`crate::connector::call_connection`]), through [`Store::call_connection`] (which may
    /// serve it from a cache). Notes its activity (at most once a minute, D63). Errors: 401
    /// `unauthorized` when there is none or it is disabled.
    pub async fn connection_for_call(
        &self,
        org_id: OrgId,
        key: ApiKeyId,
        ats: crate::connector::Ats,
    ) -> Result<Arc<Connection>, UseCaseError> {
        let now = self.clock.now();
        let refused = || ClientError::new(Code::Unauthorized, "No enabled connection to this ATS for this key");
        let found = self.store.call_connection(key, org_id, ats).await?;
        let mut c = found.filter(|c| c.enabled).ok_or_else(refused)?;
        if c.needs_touch(now) {
            let id = c.id;
            self.store
                .write(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.touch_connection(id, now).await?) }))
                .await?;
            Arc::make_mut(&mut c).touch(now);
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

    /// The enabled connections to `ats` of every organization, oldest first, at most 10,000
    /// (Kombo's order poll visits each, D82); with `integration`, only those whose
    /// `integrationId` it is, at most 100 (Kombo's webhook, which names its integration).
    /// Errors: the store's.
    pub async fn enabled_connections(
        &self,
        ats: crate::connector::Ats,
        integration: Option<String>,
    ) -> Result<Vec<Connection>, UseCaseError> {
        let limit = if integration.is_some() { 100 } else { 10_000 };
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    Ok::<_, UseCaseError>(tx.list_enabled_connections(ats, integration.as_deref(), limit).await?)
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
