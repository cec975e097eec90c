//! [`SettingsRepo`] on the fake: settings, and nothing to seal or relax.

use super::{ok, FakeTx};
use crate::ports::{BoxFuture, SettingsRepo, StoreResult};

impl SettingsRepo for FakeTx {
    fn reseal_secrets(&mut self) -> BoxFuture<'_, StoreResult<u64>> {
        ok(0)
    }
    fn relax_durability(&mut self) -> BoxFuture<'_, StoreResult<()>> {
        ok(())
    }
    fn setting_get_or_insert<'a>(&'a mut self, name: &'a str, value: &'a str) -> BoxFuture<'a, StoreResult<String>> {
        if let Some((_, v)) = self.s.settings.iter().find(|(n, _)| n == name) {
            return ok(v.clone());
        }
        self.s.settings.push((name.to_string(), value.to_string()));
        ok(value.to_string())
    }
}
