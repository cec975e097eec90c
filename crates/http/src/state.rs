//! Shared state of the HTTP adapter.

use crate::cursor::CursorCodec;
use ring::hmac;
use std::sync::Arc;
use talent_domain::ports::{ClockControl, RateLimiter, Store};
use talent_domain::Services;

/// Everything the handlers need; built by the app crate.
pub struct ApiState<S: Store> {
    /// Use cases.
    pub svc: Services<S>,
    /// Rate limiter (D7, D8).
    pub limiter: Arc<dyn RateLimiter>,
    /// Cursor signing (D36).
    pub cursors: CursorCodec,
    /// HMAC of the admin token (D39); `None` disables the admin API.
    admin: Option<hmac::Tag>,
    admin_key: hmac::Key,
    /// Sandbox mode (D39 clock endpoint).
    pub sandbox: bool,
    /// The sandbox clock's control; `None` outside sandbox mode (`POST /admin/v1/clock` is 404).
    pub clock_control: Option<Arc<dyn ClockControl>>,
    /// Reverse proxies whose `X-Forwarded-For` names the client (`TALENT_TRUSTED_PROXIES`, T98);
    /// none by default.
    pub trusted_proxies: crate::client_ip::TrustedProxies,
    /// Held for each pass of email delivery, by the app's email job and by the sandbox clock
    /// (T180): the clock moves only once a pass in flight has recorded what it sent, so what was
    /// due before a jump is sent at the old time.
    pub email_passes: Arc<tokio::sync::Mutex<()>>,
    /// A test-only fault point (T223): the process aborts after a request under an
    /// `Idempotency-Key` to this path has committed, before it answers. `None` in service.
    pub crash_after_commit: Option<String>,
}

impl<S: Store> ApiState<S> {
    /// Builds the state. `admin_token`: `TALENT_ADMIN_TOKEN` (unset disables `/admin/v1`).
    pub fn new(
        svc: Services<S>,
        limiter: Arc<dyn RateLimiter>,
        cursor_secret: &[u8],
        admin_token: Option<&str>,
        sandbox: bool,
    ) -> Self {
        let admin_key = hmac::Key::new(hmac::HMAC_SHA256, cursor_secret);
        let admin = admin_token.filter(|t| !t.is_empty()).map(|t| hmac::sign(&admin_key, t.as_bytes()));
        ApiState {
            svc,
            limiter,
            cursors: CursorCodec::new(cursor_secret),
            admin,
            admin_key,
            sandbox,
            clock_control: None,
            trusted_proxies: Default::default(),
            email_passes: Default::default(),
            crash_after_commit: None,
        }
    }

    /// True when the admin API is enabled.
    pub fn admin_enabled(&self) -> bool {
        self.admin.is_some()
    }

    /// Checks a presented admin token in constant time.
    pub fn admin_token_matches(&self, presented: &str) -> bool {
        match &self.admin {
            Some(tag) => hmac::verify(&self.admin_key, presented.as_bytes(), tag.as_ref()).is_ok(),
            None => false,
        }
    }
}
