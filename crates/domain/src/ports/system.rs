//! The system ports: the clock, ids, and secrets (API keys, tokens, one-time codes; secrets at rest, T84).

use crate::ids::*;
use time::OffsetDateTime;
use uuid::Uuid;

/// The current time (UTC, microsecond precision). The sandbox clock (D39) can move it forward.
pub trait Clock: Send + Sync + 'static {
    /// Now.
    fn now(&self) -> OffsetDateTime;
}

/// Moves the sandbox clock (D39, `TALENT_SANDBOX=1` only).
pub trait ClockControl: Send + Sync + 'static {
    /// Moves the clock forward by `secs` seconds.
    fn advance(&self, secs: i64);
}

/// The request being served, as the inbound adapter knows it (T121): its `X-Request-Id`, recorded
/// on the events a use case writes and on their deliveries. Read by the use case before its
/// transaction, in the caller's context.
pub trait Correlation: Send + Sync + 'static {
    /// The current request's id; `None` outside a request (background jobs).
    fn request_id(&self) -> Option<String>;
}

/// No request context: every event is a background job's (tests, tools).
pub struct NoCorrelation;

impl Correlation for NoCorrelation {
    fn request_id(&self) -> Option<String> {
        None
    }
}

/// New identifiers.
pub trait Ids: Send + Sync + 'static {
    /// A new unique id, sortable by creation time (UUIDv7).
    fn new_uuid(&self) -> Uuid;
}

/// A freshly generated API key (D41). `value` is shown once and never stored.
#[derive(Clone, Debug)]
pub struct NewKeyMaterial {
    /// The key: `tk_` + 16 prefix characters + 43 secret characters (URL-safe base64).
    pub value: String,
    /// The 16 characters after `tk_` (stored, unique, used for lookup).
    pub prefix: String,
    /// SHA-256 of `value` (stored).
    pub hash: Vec<u8>,
}

/// Cryptographic primitives (ring in production).
pub trait Secrets: Send + Sync + 'static {
    /// Generates a new API key from at least 240 random bits (D41).
    fn new_api_key(&self) -> NewKeyMaterial;
    /// SHA-256 of a presented key value.
    fn hash_api_key(&self, value: &str) -> Vec<u8>;
    /// Compares two byte strings in constant time (for equal lengths).
    fn constant_time_eq(&self, a: &[u8], b: &[u8]) -> bool;
    /// Whether the presented key `value` hashes to `hash` ([`Secrets::hash_api_key`]), compared
    /// in constant time: what authentication asks on every request (D41). An adapter may hash
    /// without allocating (T323); by default, the two methods above.
    fn verify_api_key(&self, value: &str, hash: &[u8]) -> bool {
        self.constant_time_eq(&self.hash_api_key(value), hash)
    }
    /// A random URL-safe token of `bytes` random bytes (base64url, no padding).
    fn random_token(&self, bytes: usize) -> String;
    /// A new webhook signing secret (D30 as amended by D58): `whsec_` + standard base64 (with
    /// padding) of 32 random bytes, 49 characters, so Standard Webhooks libraries take it as is.
    fn webhook_secret(&self) -> String;
    /// The URL token of an invitation (D20): 32 bytes, base64url, derived from the invitation id
    /// with a server secret (HMAC-SHA256), so it is unguessable, never stored, and the same on
    /// every read and every instance.
    fn invitation_token(&self, id: InvitationId) -> String;
    /// The token of an order's report link (D68): 32 bytes, base64url, derived from the order id
    /// with the invitation links' server secret under its own label (HMAC-SHA256), so it is
    /// unguessable, stored only as its SHA-256, and the same each time an ATS asks.
    fn report_token(&self, order: crate::ids::OrderId) -> String;
    /// SHA-256 of a presented invitation token (stored for lookup).
    fn hash_token(&self, token: &str) -> Vec<u8>;
    /// A one-time code (D43): [`crate::consent::CODE_DIGITS`] decimal digits, uniformly random.
    fn one_time_code(&self) -> String;
    /// The stored form of a one-time code: a keyed hash (HMAC-SHA256 with a server secret) bound
    /// to the invitation, so a copy of the database alone cannot try the million codes offline.
    fn hash_code(&self, invitation: InvitationId, code: &str) -> Vec<u8>;
}

/// Encrypts secrets the service must be able to read back (webhook signing secrets, the server
/// secrets behind invitation links and cursors) before they are stored, so a copy of the
/// database alone neither signs webhooks nor forges links (issue 12). Implemented with an AEAD
/// keyed from `TALENT_SECRET_KEY` by the app; the store seals on write and opens on read.
pub trait SecretBox: Send + Sync + 'static {
    /// The stored form of `plaintext`: `sealed:v1:` followed by base64url of nonce and
    /// ciphertext (a fresh nonce each time).
    fn seal(&self, plaintext: &str) -> String;
    /// The plaintext of a stored value. A value without the `sealed:` prefix was stored before
    /// sealing existed and is returned as it is (the store re-seals such values at start-up).
    /// Errors: a sealed value that no configured key opens (wrong key, or tampered).
    fn open(&self, stored: &str) -> Result<String, String>;
    /// Whether a stored value should be sealed again: plaintext, or sealed under a key other
    /// than the current one (after a rotation).
    fn needs_reseal(&self, stored: &str) -> bool;
}

/// A [`SecretBox`] that stores plaintext: for tests of other behaviour only.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainBox;

impl SecretBox for PlainBox {
    fn seal(&self, plaintext: &str) -> String {
        plaintext.to_string()
    }
    fn open(&self, stored: &str) -> Result<String, String> {
        Ok(stored.to_string())
    }
    fn needs_reseal(&self, _stored: &str) -> bool {
        false
    }
}

/// Whether a stored value is sealed ([`SecretBox::seal`]'s prefix).
pub fn is_sealed(stored: &str) -> bool {
    stored.starts_with("sealed:")
}
