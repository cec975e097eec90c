//! [`IdempotencyRepo`] on the fake: idempotency records.

use super::{first, ok, remove, replace, FakeTx};
use crate::ids::OrgId;
use crate::ports::{BoxFuture, IdempotencyRecord, IdempotencyRepo, StoreResult};
use time::OffsetDateTime;

impl IdempotencyRepo for FakeTx {
    fn find_idempotency<'a>(
        &'a mut self,
        org: OrgId,
        path: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>> {
        ok(first(&self.s.idem, |r| same_key(r, org, path, key)))
    }
    fn peek_idempotency<'a>(
        &'a mut self,
        org: OrgId,
        path: &'a str,
        key: &'a str,
    ) -> BoxFuture<'a, StoreResult<Option<IdempotencyRecord>>> {
        self.find_idempotency(org, path, key)
    }
    fn idem_insert<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<bool>> {
        if self.s.idem.iter().any(|x| same_key(x, r.org_id, &r.path, &r.key)) {
            return ok(false);
        }
        self.s.idem.push(r.clone());
        ok(true)
    }
    fn idem_update<'a>(&'a mut self, r: &'a IdempotencyRecord) -> BoxFuture<'a, StoreResult<()>> {
        replace(&mut self.s.idem, r, |x| same_key(x, r.org_id, &r.path, &r.key));
        ok(())
    }
    fn idem_delete<'a>(&'a mut self, org: OrgId, path: &'a str, key: &'a str) -> BoxFuture<'a, StoreResult<()>> {
        remove(&mut self.s.idem, |x| same_key(x, org, path, key));
        ok(())
    }
    fn idem_purge(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>> {
        let mut old: Vec<OffsetDateTime> = self.s.idem.iter().map(|x| x.created_at).filter(|t| *t < before).collect();
        old.sort();
        let Some(edge) = old.get((limit as usize).saturating_sub(1)).or(old.last()).copied() else { return ok(0) };
        ok(remove(&mut self.s.idem, |x| x.created_at < before && x.created_at <= edge))
    }
}

/// Whether record `r` is the one of (`org`, `path`, `key`).
pub(super) fn same_key(r: &IdempotencyRecord, org: OrgId, path: &str, key: &str) -> bool {
    r.org_id == org && r.path == path && r.key == key
}
