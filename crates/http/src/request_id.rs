//! Request ids (issue 17): every answer carries `X-Request-Id`, the client's or a proxy's when it
//! sent a valid one, else a new one; every log line written while the request is served carries
//! it as `request_id` (the app's log format reads it with [`current`]; with a terminal's colours,
//! a `tracing` span around the whole request, T240), so an integrator can quote it to support and
//! the operator finds the request's lines. It is also the request's id while its
//! handler runs ([`RequestCorrelation`]): the events the request causes and their webhook
//! deliveries record it (T121). The middleware that takes or makes it, opens the span and puts
//! it on the answer is [`crate::observe::observe`]; this module holds the ids themselves.

/// The longest request id taken from a request; a longer one is replaced.
pub const MAX_LEN: usize = 128;

tokio::task_local! {
    /// The id of the request whose future is running (set around the whole request).
    static CURRENT: String;
}

/// The [`Correlation`](talent_domain::ports::Correlation) port: the id of the request being served
/// on this task, for the events its use cases write (T121); `None` outside a request.
pub struct RequestCorrelation;

impl talent_domain::ports::Correlation for RequestCorrelation {
    fn request_id(&self) -> Option<String> {
        current(str::to_string)
    }
}

/// `f` of the id of the request whose future is running on this task; `None` outside a request
/// (a background job, or a task the request spawned: task-locals are not inherited).
pub fn current<R>(f: impl FnOnce(&str) -> R) -> Option<R> {
    CURRENT.try_with(|id| f(id)).ok()
}

/// Whether `s` is taken as given: 1 to [`MAX_LEN`] visible ASCII characters (no spaces, no
/// control characters), so it cannot break a header or a log line.
pub fn valid(s: &str) -> bool {
    (1..=MAX_LEN).contains(&s.len()) && s.bytes().all(|b| (0x21..0x7f).contains(&b))
}

/// Random bytes drawn from the system's source per refill of [`new_id`]'s buffer: 256 ids.
const RANDOM_BATCH: usize = 16 * 256;

thread_local! {
    /// Random bytes not yet used by [`new_id`] on this thread, and how many are used.
    static RANDOM: std::cell::RefCell<([u8; RANDOM_BATCH], usize)> =
        const { std::cell::RefCell::new(([0; RANDOM_BATCH], RANDOM_BATCH)) };
}

/// A new request id: a random (version 4) UUID. Its 122 random bits come from the system's
/// source (ring's `SystemRandom`) as `Uuid::new_v4` takes them, but drawn 4 KiB at a time per
/// thread: one `getrandom` call per 256 ids instead of one per request (issue 11: that call was
/// 3% of a `/healthz` request's time).
pub fn new_id() -> String {
    use ring::rand::SecureRandom;
    let bytes = RANDOM.with(|cell| {
        let (buf, used) = &mut *cell.borrow_mut();
        if *used == RANDOM_BATCH {
            if ring::rand::SystemRandom::new().fill(buf).is_err() {
                // The system's source failed (it does not on Linux once booted): fall back to
                // uuid's own draw for this id rather than repeat bytes.
                return *uuid::Uuid::new_v4().as_bytes();
            }
            *used = 0;
        }
        let mut out = [0u8; 16];
        out.copy_from_slice(&buf[*used..*used + 16]);
        *used += 16;
        out
    });
    // Written into a buffer, not through the formatter's `Display` (T323).
    let mut text = [0u8; uuid::fmt::Hyphenated::LENGTH];
    String::from(&*uuid::Builder::from_random_bytes(bytes).into_uuid().hyphenated().encode_lower(&mut text))
}

/// `fut` with `id` as the request id of its task ([`RequestCorrelation`], [`current`]) while it
/// runs.
pub fn scope<F: std::future::Future>(id: String, fut: F) -> impl std::future::Future<Output = F::Output> {
    CURRENT.scope(id, fut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_visible_ascii_of_bounded_length() {
        assert!(valid("abc-123") && valid("req_01J9Z/x=") && valid(&"a".repeat(128)));
        for bad in ["", "a b", "a\u{7}b", "é", &"a".repeat(129)] {
            assert!(!valid(bad), "{bad:?}");
        }
        assert!(valid(&new_id()));
    }

    #[test]
    fn new_ids_are_version_4_uuids_and_do_not_repeat_across_refills() {
        let ids: std::collections::HashSet<String> = (0..3 * 256 + 7).map(|_| new_id()).collect();
        assert_eq!(ids.len(), 3 * 256 + 7);
        for id in &ids {
            let u = uuid::Uuid::parse_str(id).unwrap_or_default();
            assert_eq!(u.get_version_num(), 4, "{id}");
            assert_eq!(u.get_variant(), uuid::Variant::RFC4122, "{id}");
            // As `Display` writes it: hyphenated, lowercase (T323 writes it without the formatter).
            assert_eq!(id, &u.to_string());
        }
    }
}
