//! [`ConnectionRepo`] and [`OrderRepo`] on the fake: ATS connections and their orders (D63, D67).

use super::{all, first, insert_unique, newest, ok, remove, replace, FakeTx};
use crate::connector::{Ats, Connection, ConnectionError, Order, ReportOpening, TestRef};
use crate::ids::*;
use crate::ports::{BoxFuture, ConnectionRepo, OrderRepo, StoreResult};

impl ConnectionRepo for FakeTx {
    insert_and_update!(insert_connection, update_connection, connections: Connection);
    fn touch_connection(&mut self, id: ConnectionId, at: time::OffsetDateTime) -> BoxFuture<'_, StoreResult<()>> {
        if let Some(c) = self.s.connections.iter_mut().find(|c| c.id == id) {
            c.last_activity_at = Some(at);
        }
        ok(())
    }
    fn get_connection(&mut self, id: ConnectionId) -> BoxFuture<'_, StoreResult<Option<Connection>>> {
        ok(first(&self.s.connections, |c| c.id == id))
    }
    fn list_connections_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Connection>>> {
        let mut v = all(&self.s.connections, |c| c.org_id == org);
        v.sort_by_key(|c| (c.created_at, c.id));
        ok(v)
    }
    fn find_connection_by_key(&mut self, key: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<Connection>>> {
        ok(first(&self.s.connections, |c| c.api_key_id == key))
    }
    fn find_connection_by_endpoint(&mut self, endpoint: WebhookId) -> BoxFuture<'_, StoreResult<Option<Connection>>> {
        ok(first(&self.s.connections, |c| c.endpoint_id == endpoint))
    }
    fn find_enabled_connection(&mut self, org: OrgId, ats: Ats) -> BoxFuture<'_, StoreResult<Option<Connection>>> {
        let v = all(&self.s.connections, |c| c.org_id == org && c.ats == ats && c.enabled);
        ok(v.into_iter().min_by_key(|c| (c.created_at, c.id)))
    }
    fn list_enabled_connections<'a>(
        &'a mut self,
        ats: Ats,
        integration: Option<&'a str>,
        limit: u32,
    ) -> BoxFuture<'a, StoreResult<Vec<Connection>>> {
        let named = |c: &Connection| integration.is_none_or(|i| c.settings.integration_id.as_deref() == Some(i));
        let mut v = all(&self.s.connections, |c| c.ats == ats && c.enabled && named(c));
        v.sort_by_key(|c| (c.created_at, c.id));
        v.truncate(limit as usize);
        ok(v)
    }
    fn delete_connection(&mut self, id: ConnectionId) -> BoxFuture<'_, StoreResult<()>> {
        let gone: Vec<OrderId> = all(&self.s.orders, |o| o.connection_id == id).iter().map(|o| o.id).collect();
        remove(&mut self.s.report_openings, |r| gone.contains(&r.order_id));
        remove(&mut self.s.orders, |o| o.connection_id == id);
        remove(&mut self.s.connection_errors, |e| e.connection_id == id);
        remove(&mut self.s.connections, |c| c.id == id);
        ok(())
    }
    fn insert_connection_error<'a>(&'a mut self, e: &'a ConnectionError) -> BoxFuture<'a, StoreResult<()>> {
        self.s.connection_errors.push(e.clone());
        ok(())
    }
    fn list_connection_errors(
        &mut self,
        connection: ConnectionId,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<ConnectionError>>> {
        ok(newest(all(&self.s.connection_errors, |e| e.connection_id == connection), |e| e.id, limit))
    }
}

impl OrderRepo for FakeTx {
    fn insert_order<'a>(&'a mut self, o: &'a Order) -> BoxFuture<'a, StoreResult<()>> {
        let open = o.status.is_open();
        insert_unique(&mut self.s.orders, o, |x| {
            open && x.status.is_open()
                && x.connection_id == o.connection_id
                && x.ats_key == o.ats_key
                && x.test == o.test
        })
    }
    fn update_order<'a>(&'a mut self, o: &'a Order) -> BoxFuture<'a, StoreResult<()>> {
        replace(&mut self.s.orders, o, |x| x.id == o.id);
        ok(())
    }
    fn get_order(&mut self, org: OrgId, id: OrderId) -> BoxFuture<'_, StoreResult<Option<Order>>> {
        ok(first(&self.s.orders, |o| o.org_id == org && o.id == id))
    }
    fn find_open_order<'a>(
        &'a mut self,
        connection: ConnectionId,
        ats_key: &'a str,
        test: TestRef,
    ) -> BoxFuture<'a, StoreResult<Option<Order>>> {
        ok(first(&self.s.orders, |o| {
            o.connection_id == connection && o.ats_key == ats_key && o.test == test && o.status.is_open()
        }))
    }
    fn find_order_by_key<'a>(
        &'a mut self,
        connection: ConnectionId,
        ats_key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<Order>>> {
        let v = all(&self.s.orders, |o| o.connection_id == connection && o.ats_key == ats_key);
        ok(v.into_iter().max_by_key(|o| (o.created_at, o.id)))
    }
    fn list_orders_of_invitation(&mut self, id: InvitationId) -> BoxFuture<'_, StoreResult<Vec<Order>>> {
        ok(all(&self.s.orders, |o| o.invitation_id == id))
    }
    fn list_open_orders_of_person(&mut self, org: OrgId, person: PersonId) -> BoxFuture<'_, StoreResult<Vec<Order>>> {
        ok(all(&self.s.orders, |o| o.org_id == org && o.person_id == person && o.status.is_open()))
    }
    fn list_orders_of_connection(
        &mut self,
        connection: ConnectionId,
        before: Option<OrderId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Order>>> {
        let v = all(&self.s.orders, |o| o.connection_id == connection && before.is_none_or(|b| o.id < b));
        ok(newest(v, |o| o.id, limit))
    }
    fn find_order_by_report_token<'a>(&'a mut self, hash: &'a [u8]) -> BoxFuture<'a, StoreResult<Option<Order>>> {
        ok(first(&self.s.orders, |o| o.report_token_hash == hash))
    }
    fn insert_report_opening<'a>(&'a mut self, o: &'a ReportOpening) -> BoxFuture<'a, StoreResult<()>> {
        self.s.report_openings.push(o.clone());
        ok(())
    }
    fn list_report_openings(&mut self, order: OrderId, limit: u32) -> BoxFuture<'_, StoreResult<Vec<ReportOpening>>> {
        ok(newest(all(&self.s.report_openings, |o| o.order_id == order), |o| o.id, limit))
    }
    fn count_orders_of_connection(&mut self, connection: ConnectionId) -> BoxFuture<'_, StoreResult<u64>> {
        ok(self.s.orders.iter().filter(|o| o.connection_id == connection).count() as u64)
    }
}
