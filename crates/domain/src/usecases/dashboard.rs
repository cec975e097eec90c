//! The dashboard's use cases (issue 18, T122): password-less sign-in by emailed one-time link,
//! server-side sessions, and what an organization's users may do to each other's keys and
//! accounts. The pages themselves call the same use cases as the API otherwise.

use super::Services;
use crate::api_key::ApiKey;
use crate::dashboard::*;
use crate::errors::{ClientError, Code, StoreError, UseCaseError};
use crate::ids::*;
use crate::organization::User;
use crate::ports::{EmailRecord, Store};
use crate::values::{Email, OrgRole};
use uuid::Uuid;

/// Why [`Services::sign_in_choices`] or [`Services::sign_in`] did not sign anyone in.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    /// The link is unknown, expired or used: each has its own page.
    #[error("the sign-in link cannot be used ({0:?})")]
    Link(LinkProblem),
    /// The organization chosen is not one the link's address is a user of (a forged form).
    #[error("the link does not sign in to this organization")]
    NotOffered,
    /// Infrastructure.
    #[error(transparent)]
    Other(#[from] UseCaseError),
}

impl From<StoreError> for SignInError {
    fn from(e: StoreError) -> Self {
        SignInError::Other(e.into())
    }
}

/// What [`Services::request_sign_in`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignInRequested {
    /// Whether the address is a user's (a link was emailed). The page says the same either way;
    /// the caller counts requests for unknown addresses against the client's failure budget.
    pub known: bool,
}

impl<S: Store> Services<S> {
    /// The dashboard's URL under the public base URL (`TALENT_PUBLIC_URL`).
    pub fn dashboard_url(&self) -> String {
        format!("{}/dashboard", self.invites.public_url.trim_end_matches('/'))
    }

    /// Asks for a sign-in link for `email` (issue 18). A link is stored (hashed) whatever the
    /// address; when the address is a user of one or more organizations it is emailed through the
    /// email outbox ([`LINK_TTL`], one use), sent by the email job once this commits (T175).
    /// Errors: 429 `rate_limited` with `retry_after` when the address asked for
    /// [`LINKS_PER_ADDRESS`] links in [`LINK_WINDOW`].
    pub async fn request_sign_in(&self, email: Email) -> Result<SignInRequested, UseCaseError> {
        let now = self.clock.now();
        let token = self.secrets.random_token(TOKEN_BYTES);
        let link = SignInLink {
            id: self.ids.new_uuid(),
            email: email.clone(),
            token_hash: self.secrets.hash_token(&token),
            used_at: None,
            expires_at: now + LINK_TTL,
            created_at: now,
        };
        let url = format!("{}/sign-in/{token}", self.dashboard_url());
        let email_id = EmailId(self.ids.new_uuid());
        let queued = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let recent = tx.count_sign_in_links_since(&link.email, now - LINK_WINDOW).await?;
                    if recent >= LINKS_PER_ADDRESS {
                        let secs = LINK_WINDOW.whole_seconds() as u32;
                        return Err(ClientError {
                            retry_after: Some(secs),
                            ..ClientError::new(
                                Code::RateLimited,
                                "Too many sign-in links were asked for this address; try again later",
                            )
                        }
                        .into());
                    }
                    tx.insert_sign_in_link(&link).await?;
                    let users = tx.list_users_by_email(&link.email).await?;
                    let Some(first) = users.first() else { return Ok::<_, UseCaseError>(None) };
                    let orgs = organizations_of(tx, &users).await?;
                    let (subject, body) = sign_in_email(&url, &orgs);
                    let e = EmailRecord {
                        id: email_id,
                        org_id: first.org_id,
                        invitation_id: None,
                        to: link.email.clone(),
                        subject,
                        body,
                        invitation_url: Some(url),
                        sent_at: None,
                        attempts: 0,
                        last_error: None,
                        // Due at once: the email job sends it after the commit (T175).
                        next_attempt_at: now,
                        created_at: now,
                    };
                    tx.insert_email(&e).await?;
                    Ok(Some(e))
                })
            })
            .await?;
        let known = queued.is_some();
        if known {
            self.wake_emails();
        }
        Ok(SignInRequested { known })
    }

    /// The page behind a sign-in link: the organizations it can sign in to. Reading it does not
    /// use the link (mail scanners open links). Errors: [`SignInError::Link`].
    pub async fn sign_in_choices(&self, token: &str) -> Result<LinkChoices, SignInError> {
        let now = self.clock.now();
        let hash = self.secrets.hash_token(token);
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    let link = tx.find_sign_in_link(&hash).await?.ok_or(SignInError::Link(LinkProblem::Unknown))?;
                    link.check(now).map_err(SignInError::Link)?;
                    let users = tx.list_users_by_email(&link.email).await?;
                    let organizations = organizations_of(tx, &users).await?;
                    Ok(LinkChoices { email: link.email, organizations })
                })
            })
            .await
    }

    /// Uses a sign-in link for organization `org`: marks it used and starts a session of the
    /// address's user there ([`SESSION_TTL`]). Of two concurrent uses one wins; the other reads
    /// [`LinkProblem::Used`]. Errors: [`SignInError::Link`], [`SignInError::NotOffered`].
    pub async fn sign_in(&self, token: &str, org: OrgId) -> Result<Started, SignInError> {
        let now = self.clock.now();
        let hash = self.secrets.hash_token(token);
        let session_token = self.secrets.random_token(TOKEN_BYTES);
        let session_hash = self.secrets.hash_token(&session_token);
        let session_id = self.ids.new_uuid();
        let session = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let link = tx.find_sign_in_link(&hash).await?.ok_or(SignInError::Link(LinkProblem::Unknown))?;
                    link.check(now).map_err(SignInError::Link)?;
                    let users = tx.list_users_by_email(&link.email).await?;
                    let user = users.into_iter().find(|u| u.org_id == org).ok_or(SignInError::NotOffered)?;
                    if !tx.use_sign_in_link(link.id, now).await? {
                        return Err(SignInError::Link(LinkProblem::Used));
                    }
                    let s = Session {
                        id: session_id,
                        user_id: user.id,
                        token_hash: session_hash,
                        expires_at: now + SESSION_TTL,
                        created_at: now,
                    };
                    tx.insert_session(&s).await?;
                    Ok(s)
                })
            })
            .await?;
        Ok(Started { token: session_token, session })
    }

    /// The session whose cookie carries `token`, with its user and organization; `None` when
    /// there is none, it expired, or its user was removed.
    pub async fn session(&self, token: &str) -> Result<Option<Signed>, UseCaseError> {
        let now = self.clock.now();
        let hash = self.secrets.hash_token(token);
        let found = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let Some(session) = tx.find_session(&hash).await? else { return Ok::<_, UseCaseError>(None) };
                    if session.expires_at <= now {
                        return Ok(None);
                    }
                    let Some(user) = tx.get_user(session.user_id).await? else { return Ok(None) };
                    let Some(org) = tx.get_org(user.org_id).await? else { return Ok(None) };
                    Ok(Some((session, user, org)))
                })
            })
            .await?;
        Ok(found.map(|(session, user, org)| Signed { session, user, org: org.as_of(now) }))
    }

    /// Ends a session (sign-out); ending an ended session changes nothing.
    pub async fn sign_out(&self, session: Uuid) -> Result<(), UseCaseError> {
        self.store
            .write(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.delete_session(session).await?) }))
            .await
    }

    /// The API keys a signed-in user may see (issue 18): an administrator every key of the
    /// organization, a member their own; active and inactive, newest first, with their owners.
    pub async fn dashboard_keys(&self, who: &Signed) -> Result<Vec<(ApiKey, User)>, UseCaseError> {
        let (org, me, admin) = (who.org_id(), who.user.id, who.is_admin());
        self.store
            .read(move |tx| {
                Box::pin(async move {
                    let users = tx.list_users_of_org(org).await?;
                    let keys = tx.list_api_keys_of_org(org).await?;
                    // Newest first, as the port lists them.
                    Ok::<_, UseCaseError>(
                        keys.into_iter()
                            .filter(|k| admin || k.user_id == me)
                            .filter_map(|k| users.iter().find(|u| u.id == k.user_id).map(|u| (k, u.clone())))
                            .collect(),
                    )
                })
            })
            .await
    }

    /// Revokes a key from the dashboard: an administrator any key of the organization, a member
    /// their own. Errors: 404 for a key of another organization or, for a member, of another user
    /// (nothing is said about keys one may not see).
    pub async fn dashboard_revoke_key(&self, who: &Signed, id: ApiKeyId) -> Result<ApiKey, UseCaseError> {
        let (org, me, admin) = (who.org_id(), who.user.id, who.is_admin());
        // A test key's organization is the test twin of the session's (D60).
        let key = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let Some(k) = tx.get_api_key(id).await? else { return Ok::<_, UseCaseError>(None) };
                    let ours = k.org_id == org || tx.get_org(k.org_id).await?.is_some_and(|o| o.test_of == Some(org));
                    Ok(ours.then_some(k))
                })
            })
            .await?;
        match key {
            Some(k) if admin || k.user_id == me => self.revoke_api_key(id).await,
            _ => Err(ClientError::not_found("API key").into()),
        }
    }

    /// Adds a user to the signed-in administrator's organization and emails them a sign-in link
    /// (issue 18). Errors: 403 `insufficient_scope` for a member, 409 `conflict` (already a user), 429 (the address
    /// asked for too many links).
    pub async fn invite_user(&self, who: &Signed, email: Email, role: OrgRole) -> Result<User, UseCaseError> {
        require_admin(who)?;
        let user = self.create_user(who.org_id(), email.clone(), role).await?;
        self.request_sign_in(email).await?;
        Ok(user)
    }

    /// Changes the role of a user of the signed-in administrator's organization. Errors: 403 for
    /// a member, 404 (not a user of the organization), 409 `conflict` when it would leave the
    /// organization without an administrator.
    pub async fn change_role(&self, who: &Signed, id: UserId, role: OrgRole) -> Result<User, UseCaseError> {
        require_admin(who)?;
        let org = who.org_id();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut user = user_keeping_an_admin(tx, org, id, role != OrgRole::Admin).await?;
                    tx.update_user_role(id, role).await?;
                    user.role = role;
                    Ok::<_, UseCaseError>(user)
                })
            })
            .await
    }

    /// Removes a user of the signed-in administrator's organization with their API keys (which
    /// stop working at once) and sessions. Errors: 403 `insufficient_scope` for a member, 404,
    /// 409 `conflict` for the last administrator.
    pub async fn remove_user(&self, who: &Signed, id: UserId) -> Result<(), UseCaseError> {
        require_admin(who)?;
        let org = who.org_id();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    user_keeping_an_admin(tx, org, id, true).await?;
                    tx.delete_user(id).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await
    }
}

/// 403 `insufficient_scope` unless the signed-in user is an administrator.
pub fn require_admin(who: &Signed) -> Result<(), ClientError> {
    if who.is_admin() {
        Ok(())
    } else {
        Err(ClientError::new(Code::InsufficientScope, "Only an administrator of the organization can do this"))
    }
}

/// (id, company name) of the organization of each of `users` (an address's users: one per
/// organization), in their order.
async fn organizations_of(tx: &mut dyn crate::ports::Tx, users: &[User]) -> Result<Vec<(OrgId, String)>, StoreError> {
    let mut out = Vec::with_capacity(users.len());
    for u in users {
        if let Some(o) = tx.get_org(u.org_id).await? {
            out.push((o.id, o.company_name));
        }
    }
    Ok(out)
}

/// User `id` of organization `org`, with the organization locked (concurrent changes of its
/// users run one after the other). Errors: 404 when it is not a user of the organization; 409
/// when `demoting` it would leave the organization without an administrator.
async fn user_keeping_an_admin(
    tx: &mut dyn crate::ports::Tx,
    org: OrgId,
    id: UserId,
    demoting: bool,
) -> Result<User, UseCaseError> {
    tx.lock_org(org).await?;
    let users = tx.list_users_of_org(org).await?;
    let user = users.iter().find(|u| u.id == id).cloned().ok_or_else(|| ClientError::not_found("User"))?;
    let admins = users.iter().filter(|u| u.role == OrgRole::Admin).count();
    if demoting && user.role == OrgRole::Admin && admins <= 1 {
        return Err(ClientError::new(Code::Conflict, "The organization needs an administrator").into());
    }
    Ok(user)
}
