//! [`SessionRepo`] on the fake: the dashboard's sign-in links and sessions.

use super::{all, first, insert_unique, ok, remove, remove_up_to, FakeTx};
use crate::dashboard::{Session, SignInLink};
use crate::organization::User;
use crate::ports::{BoxFuture, SessionRepo, StoreResult};
use crate::values::Email;
use time::OffsetDateTime;

impl SessionRepo for FakeTx {
    fn insert_sign_in_link<'a>(&'a mut self, l: &'a SignInLink) -> BoxFuture<'a, StoreResult<()>> {
        insert_unique(&mut self.s.sign_in_links, l, |x| x.token_hash == l.token_hash)
    }
    fn find_sign_in_link<'a>(&'a mut self, token_hash: &'a [u8]) -> BoxFuture<'a, StoreResult<Option<SignInLink>>> {
        ok(first(&self.s.sign_in_links, |l| l.token_hash == token_hash))
    }
    fn use_sign_in_link(&mut self, id: uuid::Uuid, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>> {
        match self.s.sign_in_links.iter_mut().find(|l| l.id == id && l.used_at.is_none()) {
            Some(l) => {
                l.used_at = Some(at);
                ok(true)
            }
            None => ok(false),
        }
    }
    fn count_sign_in_links_since<'a>(
        &'a mut self,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<u64>> {
        ok(self.s.sign_in_links.iter().filter(|l| &l.email == email && l.created_at >= since).count() as u64)
    }
    fn list_users_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Vec<User>>> {
        let mut v = all(&self.s.users, |u| &u.email == email);
        v.sort_by_key(|u| (u.created_at, u.id.0));
        ok(v)
    }
    fn insert_session<'a>(&'a mut self, s: &'a Session) -> BoxFuture<'a, StoreResult<()>> {
        self.s.sessions.push(s.clone());
        ok(())
    }
    fn find_session<'a>(&'a mut self, token_hash: &'a [u8]) -> BoxFuture<'a, StoreResult<Option<Session>>> {
        ok(first(&self.s.sessions, |s| s.token_hash == token_hash))
    }
    fn delete_session(&mut self, id: uuid::Uuid) -> BoxFuture<'_, StoreResult<()>> {
        remove(&mut self.s.sessions, |s| s.id == id);
        ok(())
    }
    fn purge_sign_ins(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        let sessions = remove_up_to(&mut self.s.sessions, limit, |s| s.expires_at < before);
        let links = remove_up_to(&mut self.s.sign_in_links, limit, |l| l.expires_at < before);
        ok(sessions + links)
    }
}
