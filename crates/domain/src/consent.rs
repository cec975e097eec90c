//! Consent proven by control of the email address (D43): the one-time codes an invitation's page
//! asks for before the person gives consent on an `access_request` (`share=true`) or rejoins after
//! their own withdrawal. Pure rules; the use case in [`crate::usecases::invitations`] loads the
//! invitation's codes, applies these and persists the result in one transaction.

use crate::ids::{ConsentCodeId, InvitationId};
use time::{Duration, OffsetDateTime};

/// Digits of a code (D43).
pub const CODE_DIGITS: u32 = 6;
/// How long a code is valid (D43: 10 minutes).
pub const CODE_VALIDITY: Duration = Duration::minutes(10);
/// Wrong entries a code survives; the fifth wrong entry spends it (D43: at most 5 tries).
pub const MAX_TRIES: u32 = 5;
/// Codes within [`ISSUE_WINDOW`] per (organization, email address), across all the
/// organization's invitations to that address (D43, D53: the limit follows the human, so revoking
/// an invitation and sending a new one gives no new codes).
pub const MAX_CODES: usize = 5;
/// The window of [`MAX_CODES`].
pub const ISSUE_WINDOW: Duration = Duration::hours(1);
/// Codes are deleted this long after they were sent (D46): long after they can be entered or
/// count towards [`MAX_CODES`].
pub const CODE_RETENTION: Duration = Duration::hours(24);

/// One code as stored: only its keyed hash ([`crate::ports::Secrets::hash_code`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsentCode {
    pub id: ConsentCodeId,
    /// The invitation whose email address received it.
    pub invitation_id: InvitationId,
    /// HMAC of the code, bound to the invitation.
    pub code_hash: Vec<u8>,
    /// Wrong entries so far.
    pub tries: u32,
    /// When it was used (then it never verifies again).
    pub used_at: Option<OffsetDateTime>,
    /// End of validity.
    pub expires_at: OffsetDateTime,
    /// When it was sent.
    pub created_at: OffsetDateTime,
}

impl ConsentCode {
    /// Whether it can still be entered at `now`: unused, unexpired, tries left.
    pub fn live_at(&self, now: OffsetDateTime) -> bool {
        self.used_at.is_none() && now < self.expires_at && self.tries < MAX_TRIES
    }
}

/// Why no code is sent or why an entered code is refused. The page explains each; none changes
/// anything but the code's own tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// [`MAX_CODES`] codes were sent to the address within the last hour: wait.
    TooManyCodes,
    /// No code is live (never sent, expired, used or out of tries): ask for a new one.
    NoLiveCode,
    /// Not the code; `tries_left` more entries of this code are possible.
    WrongCode {
        /// Entries left before the code is spent.
        tries_left: u32,
    },
    /// The entry is not six digits (no try is spent on it).
    Malformed,
}

/// Whether a new code may be sent at `now`, given the codes already sent to the address by the
/// organization (any order, any of its invitations: D53). Errors: [`Refusal::TooManyCodes`].
pub fn may_issue(codes: &[ConsentCode], now: OffsetDateTime) -> Result<(), Refusal> {
    let recent = codes.iter().filter(|c| c.created_at > now - ISSUE_WINDOW).count();
    if recent >= MAX_CODES {
        Err(Refusal::TooManyCodes)
    } else {
        Ok(())
    }
}

/// The normalised entry: six ASCII digits once spaces are removed. Errors: [`Refusal::Malformed`].
pub fn parse_entry(entry: &str) -> Result<String, Refusal> {
    let digits: String = entry.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() == CODE_DIGITS as usize && digits.bytes().all(|b| b.is_ascii_digit()) {
        Ok(digits)
    } else {
        Err(Refusal::Malformed)
    }
}

/// Checks an entry against the newest code, the only one that counts (a new code replaces the
/// ones before it). `matches` compares the stored hash with the entry's, in constant time. On
/// success the code is marked used; on a wrong entry it spends a try. Returns the index of the
/// code that changed (to persist) with the verdict. Errors: [`Refusal::NoLiveCode`] (nothing
/// changed), [`Refusal::WrongCode`] (the returned code changed).
pub fn verify(
    codes: &mut [ConsentCode],
    now: OffsetDateTime,
    matches: impl Fn(&[u8]) -> bool,
) -> (Option<usize>, Result<(), Refusal>) {
    let Some(i) = codes.iter().enumerate().max_by_key(|(_, c)| c.created_at).map(|(i, _)| i) else {
        return (None, Err(Refusal::NoLiveCode));
    };
    let code = &mut codes[i];
    if !code.live_at(now) {
        return (None, Err(Refusal::NoLiveCode));
    }
    if matches(&code.code_hash) {
        code.used_at = Some(now);
        (Some(i), Ok(()))
    } else {
        code.tries += 1;
        (Some(i), Err(Refusal::WrongCode { tries_left: MAX_TRIES - code.tries }))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn t0() -> OffsetDateTime {
        crate::timefmt::parse("2026-01-01T00:00:00Z").unwrap()
    }

    fn code(n: u128, at: OffsetDateTime, hash: &[u8]) -> ConsentCode {
        ConsentCode {
            id: ConsentCodeId(Uuid::from_u128(n)),
            invitation_id: InvitationId(Uuid::from_u128(1)),
            code_hash: hash.to_vec(),
            tries: 0,
            used_at: None,
            expires_at: at + CODE_VALIDITY,
            created_at: at,
        }
    }

    #[test]
    fn five_codes_an_hour_then_wait() {
        let mut v = vec![];
        for n in 0..5 {
            assert_eq!(may_issue(&v, t0() + Duration::minutes(n)), Ok(()));
            v.push(code(n as u128, t0() + Duration::minutes(n), b"h"));
        }
        assert_eq!(may_issue(&v, t0() + Duration::minutes(59)), Err(Refusal::TooManyCodes));
        assert_eq!(may_issue(&v, t0() + Duration::minutes(60)), Ok(()), "the first left the window");
    }

    #[test]
    fn only_the_newest_live_code_verifies_and_only_once() {
        let mut v = vec![code(1, t0(), b"old"), code(2, t0() + Duration::minutes(1), b"new")];
        let at = t0() + Duration::minutes(2);
        let (i, r) = verify(&mut v, at, |h| h == b"old");
        assert_eq!((i, r), (Some(1), Err(Refusal::WrongCode { tries_left: 4 })), "a replaced code is wrong");
        let (i, r) = verify(&mut v, at, |h| h == b"new");
        assert_eq!((i, r), (Some(1), Ok(())));
        assert_eq!(v[1].used_at, Some(at));
        assert_eq!(verify(&mut v, at, |h| h == b"new").1, Err(Refusal::NoLiveCode), "used");
    }

    #[test]
    fn five_wrong_entries_spend_a_code_and_it_expires_after_ten_minutes() {
        let mut v = vec![code(1, t0(), b"c")];
        for left in (0..5).rev() {
            assert_eq!(verify(&mut v, t0(), |_| false).1, Err(Refusal::WrongCode { tries_left: left }));
        }
        assert_eq!(verify(&mut v, t0(), |h| h == b"c"), (None, Err(Refusal::NoLiveCode)), "spent");
        let mut w = vec![code(1, t0(), b"c")];
        assert_eq!(verify(&mut w, t0() + CODE_VALIDITY, |h| h == b"c").1, Err(Refusal::NoLiveCode));
        assert_eq!(verify(&mut w, t0() + CODE_VALIDITY - Duration::seconds(1), |h| h == b"c").1, Ok(()));
        assert_eq!(verify(&mut [], t0(), |_| true), (None, Err(Refusal::NoLiveCode)));
    }

    #[test]
    fn entries_are_six_digits_with_spaces_ignored() {
        assert_eq!(parse_entry(" 123 456 "), Ok("123456".into()));
        for bad in ["12345", "1234567", "12345a", "", "١٢٣٤٥٦", "12\u{0}456"] {
            assert_eq!(parse_entry(bad), Err(Refusal::Malformed), "{bad:?}");
        }
    }
}
