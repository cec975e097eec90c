//! System adapters of the small ports: the clock, ids and secrets (ring). They are too small for
//! crates of their own; each is a thin wrapper over a library.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ring::rand::{SecureRandom, SystemRandom};
use ring::{digest, hmac};
use std::sync::atomic::{AtomicI64, Ordering};
use talent_domain::ids::InvitationId;
use talent_domain::ports::{Clock, Ids, NewKeyMaterial, Secrets};
use time::OffsetDateTime;
use uuid::Uuid;

/// The system clock, truncated to microseconds. In sandbox mode (D39) it can be moved forward.
#[derive(Default)]
pub struct SystemClock {
    offset_micros: AtomicI64,
}

impl SystemClock {
    /// Moves the clock forward by `secs` seconds (sandbox only; the caller checks the mode).
    pub fn advance(&self, secs: i64) {
        self.offset_micros.fetch_add(secs.saturating_mul(1_000_000), Ordering::SeqCst);
    }
}

impl talent_domain::ports::ClockControl for SystemClock {
    fn advance(&self, secs: i64) {
        SystemClock::advance(self, secs);
    }
}

impl Clock for SystemClock {
    fn now(&self) -> OffsetDateTime {
        let off = time::Duration::microseconds(self.offset_micros.load(Ordering::SeqCst));
        talent_domain::timefmt::normalize(OffsetDateTime::now_utc() + off)
    }
}

/// UUIDv7 ids: time-ordered, so keyset pages and indexes follow creation order.
#[derive(Default)]
pub struct UuidV7Ids;

impl Ids for UuidV7Ids {
    fn new_uuid(&self) -> Uuid {
        Uuid::now_v7()
    }
}

/// ring-backed secrets: OS randomness, SHA-256, constant-time comparison.
pub struct RingSecrets {
    rng: SystemRandom,
    /// Per-process key for constant-time comparison by double HMAC.
    cmp_key: hmac::Key,
    /// Server secret (shared by all instances, kept in the database) deriving invitation tokens.
    invitation_key: hmac::Key,
}

impl RingSecrets {
    /// Secrets with the server's invitation secret (D20).
    pub fn new(invitation_secret: &[u8]) -> Self {
        let rng = SystemRandom::new();
        let cmp_key = hmac::Key::generate(hmac::HMAC_SHA256, &rng).unwrap_or_else(|_| {
            tracing::error!("system random source failed");
            std::process::abort()
        });
        RingSecrets { rng, cmp_key, invitation_key: hmac::Key::new(hmac::HMAC_SHA256, invitation_secret) }
    }
}

/// A random URL-safe token of `bytes` bytes from the OS source (for server secrets).
pub fn random_token(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    if SystemRandom::new().fill(&mut b).is_err() {
        tracing::error!("system random source failed");
        std::process::abort();
    }
    URL_SAFE_NO_PAD.encode(b)
}

impl RingSecrets {
    fn bytes(&self, n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n];
        if self.rng.fill(&mut b).is_err() {
            // The OS random source failing is unrecoverable: refuse to hand out weak secrets.
            tracing::error!("system random source failed");
            std::process::abort();
        }
        b
    }
}

impl Secrets for RingSecrets {
    /// `tk_` + base64url(12 random bytes) (16 chars, the lookup prefix) + base64url(32 random
    /// bytes) (43 chars): 352 random bits, of which 256 are secret (D41).
    fn new_api_key(&self) -> NewKeyMaterial {
        let prefix = URL_SAFE_NO_PAD.encode(self.bytes(12));
        let secret = URL_SAFE_NO_PAD.encode(self.bytes(32));
        let value = format!("tk_{prefix}{secret}");
        NewKeyMaterial { hash: self.hash_api_key(&value), value, prefix }
    }

    fn hash_api_key(&self, value: &str) -> Vec<u8> {
        digest::digest(&digest::SHA256, value.as_bytes()).as_ref().to_vec()
    }

    /// Double HMAC: `verify(k, b, HMAC(k, a))`, which ring checks in constant time.
    fn constant_time_eq(&self, a: &[u8], b: &[u8]) -> bool {
        let tag = hmac::sign(&self.cmp_key, a);
        hmac::verify(&self.cmp_key, b, tag.as_ref()).is_ok()
    }

    fn random_token(&self, bytes: usize) -> String {
        URL_SAFE_NO_PAD.encode(self.bytes(bytes))
    }

    /// `base64url(HMAC-SHA256(invitation secret, invitation id))`: 32 bytes (D20).
    fn invitation_token(&self, id: talent_domain::ids::InvitationId) -> String {
        URL_SAFE_NO_PAD.encode(hmac::sign(&self.invitation_key, id.0.as_bytes()).as_ref())
    }

    fn hash_token(&self, token: &str) -> Vec<u8> {
        digest::digest(&digest::SHA256, token.as_bytes()).as_ref().to_vec()
    }

    /// Six digits by rejection sampling of 32-bit random numbers (uniform over 000000..999999).
    fn one_time_code(&self) -> String {
        // The largest multiple of 10^6 that fits in u32: numbers at or above it would bias.
        const ZONE: u32 = u32::MAX - u32::MAX % 1_000_000;
        loop {
            let b = self.bytes(4);
            let n = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            if n < ZONE {
                return format!("{:06}", n % 1_000_000);
            }
        }
    }

    /// `HMAC-SHA256(invitation secret, "consent-code:" ‖ invitation id ‖ ":" ‖ code)` (D43).
    fn hash_code(&self, invitation: InvitationId, code: &str) -> Vec<u8> {
        let mut ctx = hmac::Context::with_key(&self.invitation_key);
        ctx.update(b"consent-code:");
        ctx.update(invitation.0.as_bytes());
        ctx.update(b":");
        ctx.update(code.as_bytes());
        ctx.sign().as_ref().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_keys_have_the_d41_shape_and_verify() {
        let s = RingSecrets::new(b"secret");
        let k = s.new_api_key();
        assert!(k.value.starts_with("tk_"));
        assert_eq!(k.value.len(), 3 + 16 + 43);
        assert_eq!(talent_domain::usecases::access::key_prefix(&k.value), Some(k.prefix.as_str()));
        assert!(s.constant_time_eq(&s.hash_api_key(&k.value), &k.hash));
        assert!(!s.constant_time_eq(&s.hash_api_key("tk_other"), &k.hash));
        assert_ne!(s.new_api_key().value, k.value);
    }

    #[test]
    fn one_time_codes_are_six_digits_and_their_hash_is_bound_to_the_invitation() {
        let s = RingSecrets::new(b"secret");
        let codes: std::collections::BTreeSet<String> = (0..200).map(|_| s.one_time_code()).collect();
        assert!(codes.iter().all(|c| c.len() == 6 && c.bytes().all(|b| b.is_ascii_digit())));
        assert!(codes.len() > 190, "random, not a counter: {} distinct of 200", codes.len());
        let (a, b) = (InvitationId(Uuid::from_u128(1)), InvitationId(Uuid::from_u128(2)));
        assert_eq!(s.hash_code(a, "123456"), s.hash_code(a, "123456"));
        assert_ne!(s.hash_code(a, "123456"), s.hash_code(b, "123456"));
        assert_ne!(s.hash_code(a, "123456"), RingSecrets::new(b"other").hash_code(a, "123456"), "keyed");
    }

    #[test]
    fn sandbox_clock_moves_forward() {
        let c = SystemClock::default();
        let a = c.now();
        c.advance(3600);
        assert!(c.now() - a >= time::Duration::seconds(3600));
    }
}
