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
    fn age_test_data(&mut self, twin: OrgId, seconds: i64) -> BoxFuture<'_, StoreResult<()>> {
        let by = time::Duration::seconds(seconds);
        let s = &mut self.s;
        let back = |t: &mut OffsetDateTime| *t -= by;
        let back_opt = |t: &mut Option<OffsetDateTime>| {
            if let Some(t) = t {
                *t -= by;
            }
        };
        for e in s.events.iter_mut().filter(|e| e.org_id == twin) {
            back(&mut e.created_at);
        }
        let mut deliveries = Vec::new();
        for (d, _) in s.deliveries.iter_mut().filter(|(d, _)| d.org_id == twin) {
            back(&mut d.created_at);
            back_opt(&mut d.next_attempt_at);
            back_opt(&mut d.last_attempt_at);
            deliveries.push(d.id);
        }
        for (_, at, _) in s.attempts.iter_mut().filter(|(d, _, _)| deliveries.contains(d)) {
            back(at);
        }
        let mut invitations = Vec::new();
        for i in s.invitations.iter_mut().filter(|i| i.org_id == twin) {
            back_opt(&mut i.email_sent_at);
            back_opt(&mut i.reminder_sent_at);
            back(&mut i.expires_at);
            back_opt(&mut i.accepted_at);
            back_opt(&mut i.revoked_at);
            back(&mut i.created_at);
            back(&mut i.updated_at);
            invitations.push(i.id);
        }
        for c in s.consent_codes.iter_mut().filter(|c| invitations.contains(&c.invitation_id)) {
            back_opt(&mut c.used_at);
            back(&mut c.expires_at);
            back(&mut c.created_at);
        }
        for m in s.emails.iter_mut().filter(|m| m.org_id == twin) {
            back_opt(&mut m.sent_at);
            back(&mut m.next_attempt_at);
            back(&mut m.created_at);
        }
        for w in s.endpoints.iter_mut().filter(|w| w.org_id == twin) {
            back_opt(&mut w.previous_secret_expires_at);
            back_opt(&mut w.breaker.open_until);
            back_opt(&mut w.failing_since);
        }
        let answered =
            |r: &&mut crate::ports::IdempotencyRecord| !matches!(r.state, crate::ports::IdempotencyState::InFlight);
        for r in s.idem.iter_mut().filter(|r| r.org_id == twin).filter(answered) {
            back(&mut r.created_at);
        }
        ok(())
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
