//! The dashboard's sign-in (issue 18, T122): one-time sign-in links sent by email and server-side
//! sessions. Neither a link's token nor a session's token is stored: only their SHA-256
//! ([`crate::ports::Secrets::hash_token`]).
//!
//! A link is asked for an email address, not for a user: the address may be a user of several
//! organizations (one per organization), and the link's page offers each of them. A request for
//! an address that is no user's still stores a link (never usable, and never emailed), so the
//! per-address limit and the answer do not tell whether the address has an account.

use crate::ids::{OrgId, UserId};
use crate::organization::{Organization, User};
use crate::values::Email;
use crate::values::OrgRole;
use time::{Duration, OffsetDateTime};
use uuid::Uuid;

/// How long a sign-in link can be used (issue 18).
pub const LINK_TTL: Duration = Duration::minutes(15);
/// How long a session lasts from sign-in, however active (absolute expiry).
pub const SESSION_TTL: Duration = Duration::hours(12);
/// How long an expired sign-in link or session is kept before retention deletes it (T242): a
/// link opened the morning after it expired still says "expired" (410), not "not valid" (404).
pub const EXPIRED_KEPT: Duration = Duration::hours(24);
/// Sign-in links one address may ask for in [`LINK_WINDOW`]; the next request is refused (429).
pub const LINKS_PER_ADDRESS: u64 = 5;
/// The window of [`LINKS_PER_ADDRESS`].
pub const LINK_WINDOW: Duration = Duration::minutes(15);
/// Random bytes of a link's and a session's token (base64url: 43 characters).
pub const TOKEN_BYTES: usize = 32;

/// A sign-in link (stored as the SHA-256 of its token).
#[derive(Clone, Debug, PartialEq)]
pub struct SignInLink {
    /// Id.
    pub id: Uuid,
    /// The address it was asked for (lower-cased by [`Email`]).
    pub email: Email,
    /// SHA-256 of the token in the link.
    pub token_hash: Vec<u8>,
    /// When it was used; a link is used once.
    pub used_at: Option<OffsetDateTime>,
    /// Creation plus [`LINK_TTL`].
    pub expires_at: OffsetDateTime,
    /// Creation.
    pub created_at: OffsetDateTime,
}

/// Why a sign-in link cannot be used: each gets its own page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkProblem {
    /// No link has this token.
    Unknown,
    /// Older than [`LINK_TTL`].
    Expired,
    /// Used already.
    Used,
}

impl SignInLink {
    /// Whether the link can be used at `now`: unused and not expired.
    pub fn check(&self, now: OffsetDateTime) -> Result<(), LinkProblem> {
        if self.used_at.is_some() {
            Err(LinkProblem::Used)
        } else if now >= self.expires_at {
            Err(LinkProblem::Expired)
        } else {
            Ok(())
        }
    }
}

/// A signed-in user's session (stored as the SHA-256 of the cookie's token).
#[derive(Clone, Debug, PartialEq)]
pub struct Session {
    /// Id.
    pub id: Uuid,
    /// The user signed in.
    pub user_id: UserId,
    /// SHA-256 of the cookie's token.
    pub token_hash: Vec<u8>,
    /// Creation plus [`SESSION_TTL`].
    pub expires_at: OffsetDateTime,
    /// Creation (sign-in).
    pub created_at: OffsetDateTime,
}

/// A valid session with its user and organization, as read for one page.
#[derive(Clone, Debug)]
pub struct Signed {
    /// The session.
    pub session: Session,
    /// Its user.
    pub user: User,
    /// The user's organization (as of now: a lapsed trial reads `trial_expired`).
    pub org: Organization,
}

impl Signed {
    /// Whether the user is an administrator of the organization.
    pub fn is_admin(&self) -> bool {
        self.user.role == OrgRole::Admin
    }

    /// The organization's id.
    pub fn org_id(&self) -> OrgId {
        self.org.id
    }
}

/// A sign-in link just made: the token to put in the email (never stored).
#[derive(Clone, Debug)]
pub struct NewLink {
    /// The token.
    pub token: String,
    /// The organizations the link offers (empty for an address that is no user's: then nothing
    /// is sent).
    pub organizations: Vec<(OrgId, String)>,
}

/// The page behind a valid link: the organizations it can sign in to.
#[derive(Clone, Debug)]
pub struct LinkChoices {
    /// The address.
    pub email: Email,
    /// (organization id, company name) of each user with the address.
    pub organizations: Vec<(OrgId, String)>,
}

/// A session just started: the cookie's token (never stored) and the session.
#[derive(Clone, Debug)]
pub struct Started {
    /// The token for the cookie.
    pub token: String,
    /// The session.
    pub session: Session,
}

/// The sign-in email's subject and text for a link to `url` (valid for [`LINK_TTL`]).
pub fn sign_in_email(url: &str, organizations: &[(OrgId, String)]) -> (String, String) {
    let names: Vec<&str> = organizations.iter().map(|(_, n)| n.as_str()).collect();
    let subject = "Your Talent sign-in link".to_string();
    let body = format!(
        "Sign in to the Talent dashboard ({}) with this link:\n\n{url}\n\nIt works once, within {} minutes. \
         If you did not ask for it, ignore this email: nobody can sign in without the link.\n",
        names.join(", "),
        LINK_TTL.whole_minutes()
    );
    (subject, body)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn link(used: bool) -> SignInLink {
        let t = OffsetDateTime::UNIX_EPOCH;
        SignInLink {
            id: Uuid::nil(),
            email: Email::parse("a@example.com").unwrap(),
            token_hash: vec![1],
            used_at: used.then_some(t),
            expires_at: t + LINK_TTL,
            created_at: t,
        }
    }

    #[test]
    fn a_link_works_once_within_fifteen_minutes() {
        let t = OffsetDateTime::UNIX_EPOCH;
        assert_eq!(link(false).check(t + Duration::minutes(14)), Ok(()));
        assert_eq!(link(false).check(t + LINK_TTL), Err(LinkProblem::Expired));
        assert_eq!(link(true).check(t), Err(LinkProblem::Used));
    }

    #[test]
    fn the_email_names_the_organizations_and_carries_the_link() {
        let (s, b) = sign_in_email("https://t.example/dashboard/sign-in/abc", &[(OrgId(Uuid::nil()), "Acme".into())]);
        assert!(s.contains("sign-in"));
        assert!(
            b.contains("https://t.example/dashboard/sign-in/abc") && b.contains("Acme") && b.contains("15 minutes")
        );
    }
}
