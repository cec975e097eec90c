//! The rows of the dashboard's sign-in links and sessions, and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;
use talent_domain::dashboard::{Session, SignInLink};

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = sign_in_links, treat_none_as_default_value = false)]
pub struct SignInLinkRow {
    pub(crate) id: DbUuid,
    pub(crate) email: String,
    pub(crate) token_hash: Vec<u8>,
    pub(crate) used_at: Option<DbTime>,
    pub(crate) expires_at: DbTime,
    pub(crate) created_at: DbTime,
}

impl From<&SignInLink> for SignInLinkRow {
    fn from(l: &SignInLink) -> Self {
        SignInLinkRow {
            id: DbUuid(l.id),
            email: l.email.as_str().to_string(),
            token_hash: l.token_hash.clone(),
            used_at: l.used_at.map(DbTime),
            expires_at: DbTime(l.expires_at),
            created_at: DbTime(l.created_at),
        }
    }
}

impl TryFrom<SignInLinkRow> for SignInLink {
    type Error = StoreError;
    fn try_from(r: SignInLinkRow) -> Result<Self, StoreError> {
        Ok(SignInLink {
            id: r.id.0,
            email: Email::from_stored(&r.email).map_err(|_| corrupt("sign_in_links.email"))?,
            token_hash: r.token_hash,
            used_at: r.used_at.map(|t| t.0),
            expires_at: r.expires_at.0,
            created_at: r.created_at.0,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = dashboard_sessions, treat_none_as_default_value = false)]
pub struct SessionRow {
    pub(crate) id: DbUuid,
    pub(crate) user_id: DbUuid,
    pub(crate) token_hash: Vec<u8>,
    pub(crate) expires_at: DbTime,
    pub(crate) created_at: DbTime,
}

impl From<&Session> for SessionRow {
    fn from(s: &Session) -> Self {
        SessionRow {
            id: DbUuid(s.id),
            user_id: DbUuid(s.user_id.0),
            token_hash: s.token_hash.clone(),
            expires_at: DbTime(s.expires_at),
            created_at: DbTime(s.created_at),
        }
    }
}

impl From<SessionRow> for Session {
    fn from(r: SessionRow) -> Self {
        Session {
            id: r.id.0,
            user_id: UserId(r.user_id.0),
            token_hash: r.token_hash,
            expires_at: r.expires_at.0,
            created_at: r.created_at.0,
        }
    }
}
