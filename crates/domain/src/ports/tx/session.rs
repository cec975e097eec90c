//! [`SessionRepo`]: the dashboard's sign-in links and sessions (issue 18, T122).

use crate::dashboard::{Session, SignInLink};
use crate::organization::User;
use crate::ports::{BoxFuture, StoreResult};
use crate::values::Email;
use time::OffsetDateTime;

/// The dashboard's sign-in links and sessions (issue 18, T122). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure.
///
/// # Locking
/// [`SessionRepo::use_sign_in_link`] is a conditional update: of concurrent uses of one link,
/// exactly one returns true.
pub trait SessionRepo: Send {
    /// Stores a sign-in link.
    fn insert_sign_in_link<'a>(&'a mut self, l: &'a SignInLink) -> BoxFuture<'a, StoreResult<()>>;
    /// The link whose token has SHA-256 `token_hash`, used or not.
    fn find_sign_in_link<'a>(&'a mut self, token_hash: &'a [u8]) -> BoxFuture<'a, StoreResult<Option<SignInLink>>>;
    /// Marks link `id` used at `at` unless it is used already; true when this call used it.
    fn use_sign_in_link(&mut self, id: uuid::Uuid, at: OffsetDateTime) -> BoxFuture<'_, StoreResult<bool>>;
    /// How many links were asked for `email` at or after `since`.
    fn count_sign_in_links_since<'a>(
        &'a mut self,
        email: &'a Email,
        since: OffsetDateTime,
    ) -> BoxFuture<'a, StoreResult<u64>>;
    /// The users with login `email`, of every organization, oldest first.
    fn list_users_by_email<'a>(&'a mut self, email: &'a Email) -> BoxFuture<'a, StoreResult<Vec<User>>>;
    /// Stores a session.
    fn insert_session<'a>(&'a mut self, s: &'a Session) -> BoxFuture<'a, StoreResult<()>>;
    /// The session whose token has SHA-256 `token_hash`, expired or not.
    fn find_session<'a>(&'a mut self, token_hash: &'a [u8]) -> BoxFuture<'a, StoreResult<Option<Session>>>;
    /// Ends session `id` (nothing when it is gone).
    fn delete_session(&mut self, id: uuid::Uuid) -> BoxFuture<'_, StoreResult<()>>;
    /// Deletes up to `limit` sessions and up to `limit` sign-in links that expired before
    /// `before`; returns how many rows went.
    fn purge_sign_ins(&mut self, before: OffsetDateTime, limit: u32) -> BoxFuture<'_, StoreResult<u64>>;
}
