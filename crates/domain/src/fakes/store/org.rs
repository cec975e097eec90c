//! [`OrgRepo`] on the fake: organizations, users and API keys.

use super::{all, first, insert_unique, newest, ok, remove, replace, FakeTx};
use crate::api_key::{ApiKey, KeyContext};
use crate::ids::{ApiKeyId, OrgId, UserId};
use crate::organization::{Organization, User};
use crate::person::PersonStatus;
use crate::ports::{BoxFuture, OrgRepo, StoreResult};
use crate::values::OrgRole;
use time::OffsetDateTime;

impl OrgRepo for FakeTx {
    insert_and_update!(insert_org, update_org, orgs: Organization);
    fn get_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
        ok(first(&self.s.orgs, |o| o.id == id))
    }
    fn lock_org(&mut self, id: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
        self.get_org(id)
    }
    fn find_test_twin(&mut self, live: OrgId) -> BoxFuture<'_, StoreResult<Option<Organization>>> {
        ok(first(&self.s.orgs, |o| o.test_of == Some(live)))
    }
    fn find_org_by_name<'a>(&'a mut self, name: &'a str) -> BoxFuture<'a, StoreResult<Option<Organization>>> {
        ok(first(&self.s.orgs, |o| o.company_name == name && !o.is_test()))
    }
    fn list_orgs(&mut self, before: Option<OrgId>, limit: u32) -> BoxFuture<'_, StoreResult<Vec<Organization>>> {
        ok(newest(all(&self.s.orgs, |o| !o.is_test() && before.is_none_or(|b| o.id.0 < b.0)), |o| o.id.0, limit))
    }
    fn count_active_persons(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
        ok(self.s.persons.iter().filter(|p| p.org_id == org && p.status == PersonStatus::Active).count() as u32)
    }
    fn insert_user<'a>(&'a mut self, user: &'a User) -> BoxFuture<'a, StoreResult<()>> {
        insert_unique(&mut self.s.users, user, |u| u.org_id == user.org_id && u.email == user.email)
    }
    fn get_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<Option<User>>> {
        ok(first(&self.s.users, |u| u.id == id))
    }
    fn list_users_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<User>>> {
        ok(all(&self.s.users, |u| u.org_id == org))
    }
    fn update_user_role(&mut self, id: UserId, role: OrgRole) -> BoxFuture<'_, StoreResult<()>> {
        for u in self.s.users.iter_mut().filter(|u| u.id == id) {
            u.role = role;
        }
        ok(())
    }
    fn delete_user(&mut self, id: UserId) -> BoxFuture<'_, StoreResult<u64>> {
        let keys = remove(&mut self.s.keys, |k| k.user_id == id);
        remove(&mut self.s.sessions, |s| s.user_id == id);
        remove(&mut self.s.users, |u| u.id == id);
        ok(keys)
    }
    fn insert_api_key<'a>(&'a mut self, key: &'a ApiKey) -> BoxFuture<'a, StoreResult<()>> {
        self.s.keys.push(key.clone());
        ok(())
    }
    fn get_api_key(&mut self, id: ApiKeyId) -> BoxFuture<'_, StoreResult<Option<ApiKey>>> {
        ok(first(&self.s.keys, |k| k.id == id))
    }
    fn list_api_keys_of_user(&mut self, user: UserId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
        let mut v = all(&self.s.keys, |k| k.user_id == user);
        v.sort_by_key(|k| (k.created_at, k.id.0));
        ok(v)
    }
    fn list_api_keys_of_org(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ApiKey>>> {
        let users: Vec<UserId> = self.s.users.iter().filter(|u| u.org_id == org).map(|u| u.id).collect();
        let v = all(&self.s.keys, |k| users.contains(&k.user_id));
        ok(newest(v, |k| (k.created_at, k.id.0), u32::MAX))
    }
    fn revoke_api_key(&mut self, id: ApiKeyId, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<()>> {
        for k in self.s.keys.iter_mut().filter(|k| k.id == id) {
            k.revoked_at = Some(at);
        }
        ok(())
    }
    fn find_key_context<'a>(&'a mut self, prefix: &'a str) -> BoxFuture<'a, StoreResult<Option<KeyContext>>> {
        let ctx = self.s.keys.iter().find(|k| k.prefix == prefix).and_then(|k| {
            let u = self.s.users.iter().find(|u| u.id == k.user_id)?;
            let o = self.s.orgs.iter().find(|o| o.id == k.org_id)?;
            Some(KeyContext { key: k.clone(), role: u.role, org: o.clone() })
        });
        ok(ctx)
    }
}
