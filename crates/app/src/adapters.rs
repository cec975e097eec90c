//! System adapters of the small ports: the clock, ids and secrets (ring). They are too small for
//! crates of their own; each is a thin wrapper over a library.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ring::rand::{SecureRandom, SystemRandom};
use ring::{digest, hmac};
use std::sync::atomic::{AtomicI64, Ordering};
use talent_domain::ids::InvitationId;
use talent_domain::ports::{Clock, Ids, NewKeyMaterial, SecretBox, Secrets};
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

/// ring-backed secrets: OS randomness, SHA-256; constant-time comparison by `subtle`.
pub struct RingSecrets {
    rng: SystemRandom,
    /// Server secret (shared by all instances, kept in the database) deriving invitation tokens.
    invitation_key: hmac::Key,
}

impl RingSecrets {
    /// Secrets with the server's invitation secret (D20).
    pub fn new(invitation_secret: &[u8]) -> Self {
        let rng = SystemRandom::new();
        RingSecrets { rng, invitation_key: hmac::Key::new(hmac::HMAC_SHA256, invitation_secret) }
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

    /// `subtle`'s comparison: its time depends on the lengths only, never on where the bytes
    /// differ (T236: it replaced a double HMAC, two HMAC-SHA-256 per authenticated request,
    /// 2 % of a `GET /api/v1/me`). Eight bytes at a time (T323: byte by byte, a key's hash took
    /// 450 instructions), the rest byte by byte.
    fn constant_time_eq(&self, a: &[u8], b: &[u8]) -> bool {
        use subtle::ConstantTimeEq;
        if a.len() != b.len() {
            return false;
        }
        let (wa, wb) = (a.chunks_exact(8), b.chunks_exact(8));
        let tail = wa.remainder().ct_eq(wb.remainder());
        let word = |c: &[u8]| u64::from_ne_bytes(c.try_into().unwrap_or_default());
        wa.zip(wb).fold(tail, |same, (x, y)| same & word(x).ct_eq(&word(y))).into()
    }

    /// The presented key's SHA-256 on the stack, not in a new vector (T323).
    fn verify_api_key(&self, value: &str, hash: &[u8]) -> bool {
        self.constant_time_eq(digest::digest(&digest::SHA256, value.as_bytes()).as_ref(), hash)
    }

    fn random_token(&self, bytes: usize) -> String {
        URL_SAFE_NO_PAD.encode(self.bytes(bytes))
    }

    fn webhook_secret(&self) -> String {
        format!("whsec_{}", base64::engine::general_purpose::STANDARD.encode(self.bytes(32)))
    }

    /// `base64url(HMAC-SHA256(invitation secret, invitation id))`: 32 bytes (D20).
    fn invitation_token(&self, id: talent_domain::ids::InvitationId) -> String {
        URL_SAFE_NO_PAD.encode(hmac::sign(&self.invitation_key, id.0.as_bytes()).as_ref())
    }

    fn report_token(&self, id: talent_domain::ids::OrderId) -> String {
        let mut ctx = hmac::Context::with_key(&self.invitation_key);
        ctx.update(b"report-link:");
        ctx.update(id.0.as_bytes());
        URL_SAFE_NO_PAD.encode(ctx.sign().as_ref())
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

/// The [`SecretBox`] of secrets at rest (issue 12, T84): ChaCha20-Poly1305 (ring) under a 256-bit
/// key from `TALENT_SECRET_KEY`, a fresh random nonce per value. Stored form:
/// `sealed:v1:{key id}:{base64url(nonce ‖ ciphertext ‖ tag)}`, the key id being the first 4 bytes
/// of SHA-256 of the key in hex. Values sealed under `previous` (a rotation) still open.
pub struct AeadBox {
    current: (String, ring::aead::LessSafeKey),
    previous: Option<(String, ring::aead::LessSafeKey)>,
    rng: SystemRandom,
}

fn aead_key(bytes: &[u8; 32]) -> anyhow::Result<(String, ring::aead::LessSafeKey)> {
    let id = hex::encode(&digest::digest(&digest::SHA256, bytes).as_ref()[..4]);
    let key = ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, bytes)
        .map_err(|_| anyhow::anyhow!("the secret key is not a ChaCha20-Poly1305 key"))?;
    Ok((id, ring::aead::LessSafeKey::new(key)))
}

/// Parses a 256-bit key: 64 hex digits. Errors name the variable.
pub fn parse_secret_key(name: &str, raw: &str) -> anyhow::Result<[u8; 32]> {
    let bytes = hex::decode(raw.trim()).map_err(|_| anyhow::anyhow!("{name} must be 64 hex digits (32 bytes)"))?;
    <[u8; 32]>::try_from(bytes.as_slice()).map_err(|_| anyhow::anyhow!("{name} must be 64 hex digits (32 bytes)"))
}

impl AeadBox {
    /// A box that seals under `current` and also opens what `previous` sealed.
    pub fn new(current: &[u8; 32], previous: Option<&[u8; 32]>) -> anyhow::Result<AeadBox> {
        Ok(AeadBox {
            current: aead_key(current)?,
            previous: previous.map(aead_key).transpose()?,
            rng: SystemRandom::new(),
        })
    }
}

const SEALED: &str = "sealed:v1:";

impl SecretBox for AeadBox {
    fn seal(&self, plaintext: &str) -> String {
        let mut nonce = [0u8; 12];
        if self.rng.fill(&mut nonce).is_err() {
            tracing::error!("system random source failed");
            std::process::abort();
        }
        let mut data = plaintext.as_bytes().to_vec();
        let n = ring::aead::Nonce::assume_unique_for_key(nonce);
        if self.current.1.seal_in_place_append_tag(n, ring::aead::Aad::empty(), &mut data).is_err() {
            // Only for inputs beyond ChaCha20's 256 GiB: secrets are short.
            tracing::error!("sealing a secret failed");
            std::process::abort();
        }
        let mut out = nonce.to_vec();
        out.extend_from_slice(&data);
        format!("{SEALED}{}:{}", self.current.0, URL_SAFE_NO_PAD.encode(out))
    }

    fn open(&self, stored: &str) -> Result<String, String> {
        let Some(rest) = stored.strip_prefix(SEALED) else {
            return if talent_domain::ports::is_sealed(stored) {
                Err("sealed in an unknown format".into())
            } else {
                Ok(stored.to_string())
            };
        };
        let (id, body) = rest.split_once(':').ok_or("malformed sealed value")?;
        let key =
            [Some(&self.current), self.previous.as_ref()].into_iter().flatten().find(|(kid, _)| kid == id).ok_or_else(
                || format!("sealed under key {id}, which is neither TALENT_SECRET_KEY nor TALENT_SECRET_KEY_PREVIOUS"),
            )?;
        let raw = URL_SAFE_NO_PAD.decode(body).map_err(|_| "malformed sealed value")?;
        if raw.len() < 12 {
            return Err("malformed sealed value".into());
        }
        let (nonce, sealed) = raw.split_at(12);
        let nonce = ring::aead::Nonce::try_assume_unique_for_key(nonce).map_err(|_| "malformed sealed value")?;
        let mut data = sealed.to_vec();
        let plain = key
            .1
            .open_in_place(nonce, ring::aead::Aad::empty(), &mut data)
            .map_err(|_| "the sealed value does not open (wrong key or altered)")?;
        String::from_utf8(plain.to_vec()).map_err(|_| "the sealed value is not text".into())
    }

    fn needs_reseal(&self, stored: &str) -> bool {
        !stored.starts_with(&format!("{SEALED}{}:", self.current.0))
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
    fn the_comparison_needs_every_byte_and_the_length_equal() {
        let s = RingSecrets::new(b"secret");
        let h = s.hash_api_key("tk_a");
        let mut last = h.clone();
        last[31] ^= 1;
        assert!(s.constant_time_eq(&h, &h.clone()));
        assert!(!s.constant_time_eq(&h, &last));
        assert!(!s.constant_time_eq(&h, &h[..31]));
        assert!(!s.constant_time_eq(&h[..0], &h));
        // Every byte of the words and of a tail shorter than a word (T323).
        let odd: Vec<u8> = (0..21).collect();
        for i in 0..odd.len() {
            let mut other = odd.clone();
            other[i] ^= 0x80;
            assert!(!s.constant_time_eq(&odd, &other), "byte {i}");
        }
        assert!(s.constant_time_eq(&odd, &odd.clone()));
        assert!(s.constant_time_eq(&[], &[]));
    }

    /// A key verifies against its own hash only (T323: the hash is made on the stack).
    #[test]
    fn a_key_verifies_against_its_hash_only() {
        let s = RingSecrets::new(b"secret");
        let k = s.new_api_key();
        assert!(s.verify_api_key(&k.value, &k.hash));
        assert!(!s.verify_api_key(&format!("{}x", k.value), &k.hash));
        assert!(!s.verify_api_key(&k.value, &k.hash[..31]));
        assert!(!s.verify_api_key(&k.value, &s.hash_api_key("tk_other")));
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
    fn sealed_secrets_open_only_with_their_key_and_survive_a_rotation() {
        let (k1, k2) = ([1u8; 32], [2u8; 32]);
        let b1 = AeadBox::new(&k1, None).unwrap();
        let sealed = b1.seal("whsec_abc");
        assert!(sealed.starts_with("sealed:v1:") && !sealed.contains("whsec_abc"), "{sealed}");
        assert_ne!(b1.seal("whsec_abc"), sealed, "a fresh nonce each time");
        assert_eq!(b1.open(&sealed).unwrap(), "whsec_abc");
        assert!(!b1.needs_reseal(&sealed));
        assert!(b1.needs_reseal("whsec_plain"), "plaintext from before sealing");
        assert_eq!(b1.open("whsec_plain").unwrap(), "whsec_plain");
        assert!(AeadBox::new(&k2, None).unwrap().open(&sealed).is_err(), "another key does not open it");
        let rotated = AeadBox::new(&k2, Some(&k1)).unwrap();
        assert_eq!(rotated.open(&sealed).unwrap(), "whsec_abc", "the previous key still opens");
        assert!(rotated.needs_reseal(&sealed));
        let mut bad = sealed.clone();
        bad.pop();
        bad.push(if sealed.ends_with('A') { 'B' } else { 'A' });
        assert!(b1.open(&bad).is_err(), "altered");
        assert!(b1.open("sealed:v9:xx").is_err());
        assert!(parse_secret_key("K", "zz").is_err() && parse_secret_key("K", &"ab".repeat(32)).is_ok());
    }

    #[test]
    fn sandbox_clock_moves_forward() {
        let c = SystemClock::default();
        let a = c.now();
        c.advance(3600);
        assert!(c.now() - a >= time::Duration::seconds(3600));
    }
}
