//! Invitations (D17-D22): create, read, list, resend, revoke, accept, the expiry sweep, reminders
//! and email delivery through the email outbox and the [`crate::ports::Mailer`] port.

use super::{Page, Services};
use crate::consent::{self, ConsentCode, Refusal};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::*;
use crate::invitation::{Invitation, InvitationStatus, Variant};
use crate::model::*;
use crate::person::{self, AcceptTransition};
use crate::ports::{EmailRecord, EmailStamp, InvitationQuery, OutgoingEmail, Store, Tx};
use crate::timefmt::format;
use crate::values::*;
use crate::wire::{invitation_json, person_json};
use time::{Duration, OffsetDateTime};

/// Default validity (D18).
pub const DEFAULT_EXPIRY_DAYS: u32 = 14;
/// One reminder this long after sending while still pending (D21).
pub const REMINDER_AFTER: Duration = Duration::days(3);
/// A claimed email is not picked up by another sender for this long (longer than an SMTP send
/// may take); if its sender dies it is retried afterwards.
pub const EMAIL_LEASE: Duration = Duration::minutes(5);

/// The shortest time between two emails of one invitation that a resend may cause (issue 13, T93).
pub const RESEND_COOLDOWN: Duration = Duration::minutes(1);
/// The most emails of one invitation in [`EMAIL_WINDOW`] after which a resend is refused (T93).
pub const EMAILS_PER_INVITATION: usize = 10;
/// The most emails to one address, from any organization, in [`EMAIL_WINDOW`] after which a
/// resend is refused (T93).
pub const EMAILS_PER_ADDRESS: usize = 20;
/// The window of the daily email caps (T93).
pub const EMAIL_WINDOW: Duration = Duration::days(1);

/// Whether invitation `inv` may be emailed once more at `now`, given the emails queued to its
/// address since `now - EMAIL_WINDOW` (`recent`, newest first; T93). Errors: 429 `rate_limited`
/// with `retry_after` (whole seconds, at least 1) and `details {retryAfter, reason}`, `reason`
/// one of `cooldown`, `invitation_daily_cap`, `address_daily_cap`.
pub fn email_allowance(inv: InvitationId, recent: &[EmailStamp], now: OffsetDateTime) -> Result<(), ClientError> {
    let mine: Vec<OffsetDateTime> =
        recent.iter().filter(|e| e.invitation_id == Some(inv)).map(|e| e.created_at).collect();
    let all: Vec<OffsetDateTime> = recent.iter().map(|e| e.created_at).collect();
    // The wait until the `cap`-th newest email leaves the window.
    let cap_wait = |times: &[OffsetDateTime], cap: usize| {
        let mut t = times.to_vec();
        t.sort_unstable_by_key(|x| std::cmp::Reverse(*x));
        t.get(cap - 1).map(|oldest_counted| *oldest_counted + EMAIL_WINDOW - now)
    };
    let waits = [
        ("cooldown", mine.iter().max().map(|last| *last + RESEND_COOLDOWN - now)),
        ("invitation_daily_cap", cap_wait(&mine, EMAILS_PER_INVITATION)),
        ("address_daily_cap", cap_wait(&all, EMAILS_PER_ADDRESS)),
    ];
    let refusal = waits
        .into_iter()
        .filter_map(|(reason, wait)| wait.filter(|w| w.is_positive()).map(|w| (reason, w)))
        .max_by_key(|(_, w)| *w);
    match refusal {
        None => Ok(()),
        Some((reason, wait)) => {
            let secs = u32::try_from(wait.whole_seconds() + i64::from(wait.subsec_nanoseconds() > 0))
                .unwrap_or(u32::MAX)
                .max(1);
            let message = match reason {
                "cooldown" => "This invitation was emailed less than a minute ago; retry after the number of seconds in Retry-After",
                "invitation_daily_cap" => "This invitation was emailed 10 times in the last 24 hours; retry after the number of seconds in Retry-After",
                _ => "This address received 20 emails in the last 24 hours; retry after the number of seconds in Retry-After",
            };
            Err(ClientError {
                retry_after: Some(secs),
                ..ClientError::new(Code::RateLimited, message)
                    .with_details(serde_json::json!({"retryAfter": secs, "reason": reason}))
            })
        }
    }
}

/// `POST /invitations` (D18), parsed.
#[derive(Clone, Debug)]
pub struct NewInvitation {
    /// `email`.
    pub email: Email,
    /// `firstName`.
    pub first_name: Option<PersonName>,
    /// `lastName`.
    pub last_name: Option<PersonName>,
    /// `externalId`.
    pub external_id: Option<ExternalId>,
    /// `labels` (applied on acceptance).
    pub labels: Option<Labels>,
    /// `tags` (applied on acceptance).
    pub tags: Option<Vec<TagName>>,
    /// `message` (1..2,000).
    pub message: Option<String>,
    /// `sendEmail`.
    pub send_email: bool,
    /// `expiresInDays` (1..90, default 14).
    pub expires_in_days: Option<u32>,
}

/// An invitation with its link, as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct InvitationView {
    /// The invitation.
    pub invitation: Invitation,
    /// `url` (D20).
    pub url: String,
    /// The time its status is read at.
    pub now: OffsetDateTime,
}

impl InvitationView {
    /// The Invitation object.
    pub fn json(&self) -> serde_json::Value {
        invitation_json(&self.invitation, &self.url, self.now)
    }
}

/// The configuration invitations need.
pub struct InvitationKit {
    /// Sends emails (SMTP, or recording only, D22).
    pub mailer: std::sync::Arc<dyn crate::ports::Mailer>,
    /// Base of invitation links (`TALENT_PUBLIC_URL`).
    pub public_url: String,
    /// Sandbox mode (D39, D43): stored code emails keep the code, readable through
    /// `GET /admin/v1/emails`; otherwise the stored copy says "(not stored)".
    pub sandbox: bool,
}

/// What the person-facing page shows (D20).
#[derive(Clone, Debug)]
pub struct InvitationPage {
    /// The invitation.
    pub invitation: Invitation,
    /// Status at `now`.
    pub status: InvitationStatus,
    /// Inviting organization.
    pub company_name: String,
}

/// Context of creating an invitation inside another use case's transaction.
pub(crate) struct CreateCtx<'a> {
    pub org: &'a Organization,
    pub plan: Option<&'a Plan>,
    pub id: InvitationId,
    pub email_id: EmailId,
    pub token_hash: Vec<u8>,
    pub url: String,
    pub now: OffsetDateTime,
}

/// The invitation email (D21/D22): message, link and expiry date.
pub(crate) fn invitation_email(company: &str, inv: &Invitation, url: &str, reminder: bool) -> (String, String) {
    let what = match inv.variant {
        Variant::Assessment => "to take an assessment",
        Variant::AccessRequest => "to share your existing assessment profile",
    };
    let subject = format!("{}{company} invites you {what}", if reminder { "Reminder: " } else { "" });
    let greeting = match &inv.first_name {
        Some(n) => format!("Hello {},", n.as_str()),
        None => "Hello,".to_string(),
    };
    let mut body = format!("{greeting}\n\n{company} invites you {what}.\n\n");
    if let Some(m) = &inv.message {
        body.push_str(&format!("Message from {company}:\n{m}\n\n"));
    }
    body.push_str(&format!(
        "Open this link to respond:\n{url}\n\nThe link is valid until {} (UTC).\n",
        format(inv.expires_at)
    ));
    (subject, body)
}

/// Creates (or returns the pending) invitation inside a transaction. Errors: 409
/// `person_limit_reached` when the invitee is not an active member and the pool is full (D6).
pub(crate) async fn create_in_tx(
    tx: &mut dyn Tx,
    ctx: CreateCtx<'_>,
    input: NewInvitation,
    tags: Option<Vec<String>>,
) -> Result<(Invitation, bool, Option<EmailRecord>), UseCaseError> {
    let org_id = ctx.org.id;
    if let Some(existing) = tx.pending_invitation_by_email(org_id, &input.email, ctx.now).await? {
        return Ok((existing, false, None));
    }
    let person = tx.person_by_email(org_id, &input.email).await?;
    if let Some(p) = person.as_ref().filter(|p| p.archive_reason == Some(ArchiveReason::Erased)) {
        return Err(person::erased_error(p.id).into());
    }
    if person.as_ref().is_none_or(|p| p.status != PersonStatus::Active) {
        let used = tx.count_active_persons(org_id).await?;
        Plan::require_seat(ctx.plan, &ctx.org.plan, used)?;
    }
    let human = match &person {
        Some(p) => Some(p.human_id),
        None => tx.human_by_email(&input.email).await?,
    };
    let hidden_results = match human {
        Some(h) => tx
            .assessments_of_human(h)
            .await?
            .iter()
            .any(|a| a.state == AssessmentState::Completed && person.as_ref().is_none_or(|p| !a.visible_to(p))),
        None => false,
    };
    let days = i64::from(input.expires_in_days.unwrap_or(DEFAULT_EXPIRY_DAYS));
    let inv = Invitation {
        id: ctx.id,
        org_id,
        email: input.email,
        first_name: input.first_name,
        last_name: input.last_name,
        external_id: input.external_id,
        person_id: person.as_ref().map(|p| p.id),
        status: InvitationStatus::Pending,
        labels: input.labels,
        tags,
        variant: if hidden_results { Variant::AccessRequest } else { Variant::Assessment },
        message: input.message,
        send_email: input.send_email,
        token_hash: ctx.token_hash,
        email_sent_at: None,
        reminder_sent_at: None,
        expires_at: ctx.now + Duration::days(days),
        accepted_at: None,
        revoked_at: None,
        created_at: ctx.now,
        updated_at: ctx.now,
    };
    tx.insert_invitation(&inv).await?;
    let email = match inv.send_email {
        true => Some(queue_email(tx, &ctx.org.company_name, &inv, &ctx.url, ctx.email_id, ctx.now, false).await?),
        false => None,
    };
    Ok((inv, true, email))
}

/// Queues an invitation email (D22) and returns it. A reminder is due at once, for the sweep
/// that queued it to send. An invitation email (a creation or a resend) is queued already
/// claimed by the request that queued it, for [`EMAIL_LEASE`] (T102): that request sends it with
/// [`Services::send_own_email`] and answers whether it was sent, and no other deliverer (another
/// request, the background job, another instance) can take it meanwhile; if the request dies
/// first, the job sends it once the lease ends.
async fn queue_email(
    tx: &mut dyn Tx,
    company: &str,
    inv: &Invitation,
    url: &str,
    id: EmailId,
    now: OffsetDateTime,
    reminder: bool,
) -> Result<EmailRecord, UseCaseError> {
    let (subject, body) = invitation_email(company, inv, url, reminder);
    let e = EmailRecord {
        id,
        org_id: inv.org_id,
        invitation_id: Some(inv.id),
        to: inv.email.clone(),
        subject,
        body,
        invitation_url: Some(url.to_string()),
        sent_at: None,
        attempts: 0,
        last_error: None,
        next_attempt_at: if reminder { now } else { now + EMAIL_LEASE },
        created_at: now,
    };
    tx.insert_email(&e).await?;
    Ok(e)
}

impl<S: Store> Services<S> {
    /// The link of an invitation (D20): `{public_url}/i/{token}`.
    pub fn invitation_url(&self, id: InvitationId) -> String {
        format!("{}/i/{}", self.invites.public_url.trim_end_matches('/'), self.secrets.invitation_token(id))
    }

    pub(crate) fn view(&self, invitation: Invitation) -> InvitationView {
        let url = self.invitation_url(invitation.id);
        InvitationView { invitation, url, now: self.clock.now() }
    }

    /// `POST /invitations` (D18): 201 new, or 200 with the pending invitation of that email.
    /// Errors: 404 (organization), 409 `person_limit_reached` (D6).
    pub async fn create_invitation(
        &self,
        org_id: OrgId,
        input: NewInvitation,
    ) -> Result<(InvitationView, bool), UseCaseError> {
        let now = self.clock.now();
        let plans = self.plans.clone();
        let tag_names = input.tags.as_ref().map(|t| t.iter().map(|n| n.as_str().to_string()).collect());
        let pre_id = InvitationId(self.ids.new_uuid());
        let email_id = EmailId(self.ids.new_uuid());
        let token = self.secrets.invitation_token(pre_id);
        let token_hash = self.secrets.hash_token(&token);
        let url = self.invitation_url(pre_id);
        let (inv, created, email) = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let org = tx.lock_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let plan = plans.get(&org.plan).cloned();
                    let ctx = CreateCtx { org: &org, plan: plan.as_ref(), id: pre_id, email_id, token_hash, url, now };
                    create_in_tx(tx, ctx, input, tag_names).await
                })
            })
            .await?;
        if let Some(e) = email {
            self.send_own_email(e).await?;
            self.deliver_emails().await?;
            return Ok((self.get_invitation(org_id, inv.id).await?, created));
        }
        Ok((self.view(inv), created))
    }

    /// `GET /invitations/{id}`. Errors: 404.
    pub async fn get_invitation(&self, org_id: OrgId, id: InvitationId) -> Result<InvitationView, UseCaseError> {
        let inv = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_invitation(org_id, id).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Invitation"))?;
        Ok(self.view(inv))
    }

    /// `GET /invitations` (D17): newest first; `q.limit` is the page size.
    pub async fn list_invitations(&self, mut q: InvitationQuery) -> Result<Page<InvitationView>, UseCaseError> {
        let size = q.limit as usize;
        q.limit += 1;
        q.now = Some(self.clock.now());
        let mut items = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_invitations(&q).await?) }))
            .await?;
        let has_more = items.len() > size;
        items.truncate(size);
        Ok(Page { items: items.into_iter().map(|i| self.view(i)).collect(), has_more })
    }

    /// `POST /invitations/{id}/resend` (D21): pending only; optionally a new expiry; sends again.
    /// Errors: 404, 409 `conflict`.
    pub async fn resend_invitation(
        &self,
        org_id: OrgId,
        id: InvitationId,
        expires_in_days: Option<u32>,
    ) -> Result<InvitationView, UseCaseError> {
        let now = self.clock.now();
        let email_id = EmailId(self.ids.new_uuid());
        let url = self.invitation_url(id);
        let email = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let org = tx.get_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let mut inv =
                        tx.get_invitation(org_id, id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
                    inv.resend(expires_in_days.map(|d| now + Duration::days(i64::from(d))), now)?;
                    // T93: checked after the state rules (a revoked invitation stays 409).
                    let recent = tx.emails_to_since(&inv.email, now - EMAIL_WINDOW, 1000).await?;
                    email_allowance(id, &recent, now)?;
                    tx.update_invitation(&inv).await?;
                    queue_email(tx, &org.company_name, &inv, &url, email_id, now, false).await
                })
            })
            .await?;
        self.send_own_email(email).await?;
        self.deliver_emails().await?;
        self.get_invitation(org_id, id).await
    }

    /// `POST /invitations/{id}/revoke`: pending only; `invitation.revoked`. Errors: 404, 409.
    pub async fn revoke_invitation(&self, org_id: OrgId, id: InvitationId) -> Result<InvitationView, UseCaseError> {
        let now = self.clock.now();
        let event_id = EventId(self.ids.new_uuid());
        let url = self.invitation_url(id);
        let ids = self.ids.clone();
        let inv = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let mut inv =
                        tx.get_invitation(org_id, id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
                    inv.revoke(now)?;
                    tx.update_invitation(&inv).await?;
                    let e = OutboxEvent {
                        id: event_id,
                        org_id,
                        event_type: EventType::InvitationRevoked,
                        data: invitation_json(&inv, &url, now),
                        created_at: now,
                    };
                    crate::outbox::append(tx, &*ids, &e).await?;
                    Ok::<_, UseCaseError>(inv)
                })
            })
            .await?;
        Ok(self.view(inv))
    }

    /// The person-facing page's data (D20). Errors: 404 for an unknown token.
    pub async fn invitation_page(&self, token: &str) -> Result<InvitationPage, UseCaseError> {
        let hash = self.secrets.hash_token(token);
        let now = self.clock.now();
        let (inv, org) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let inv = tx
                        .invitation_by_token_hash(&hash)
                        .await?
                        .ok_or_else(|| ClientError::not_found("Invitation"))?;
                    let org = tx.get_org(inv.org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    Ok::<_, UseCaseError>((inv, org))
                })
            })
            .await?;
        Ok(InvitationPage { status: inv.status_at(now), invitation: inv, company_name: org.company_name })
    }

    /// Answers a post of the person page (D20, D43): accepts, or asks for the one-time code.
    ///
    /// Joining by the link needs nothing more. Giving consent (`share` on an `access_request`) and
    /// rejoining after the person's own withdrawal are the person's acts: they need `code`, the
    /// one-time code sent to the invitation's email address. Without `code` a new code is sent
    /// (at most 5 per invitation and hour); a wrong code spends one of its 5 tries. Deciding,
    /// checking the code and accepting happen in one transaction, so nothing changes without a
    /// valid code. Errors: 404 (unknown token); as [`Self::accept_invitation`].
    pub async fn respond_by_token(
        &self,
        token: &str,
        share: bool,
        code: Option<&str>,
    ) -> Result<PageAnswer, UseCaseError> {
        let hash = self.secrets.hash_token(token);
        let id = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.invitation_by_token_hash(&hash).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Invitation"))?
            .id;
        let entry = match code.map(consent::parse_entry) {
            None => None,
            Some(Ok(c)) => Some(self.secrets.hash_code(id, &c)),
            Some(Err(r)) => return Ok(PageAnswer::Refused(r)),
        };
        let new_code = self.secrets.one_time_code();
        let code_id = ConsentCodeId(self.ids.new_uuid());
        let email_id = EmailId(self.ids.new_uuid());
        let input = self.accept_input(id, share, Proof::Code { entry, secrets: self.secrets.clone() });
        let issue = Issue {
            code_hash: self.secrets.hash_code(id, &new_code),
            code: new_code,
            code_id,
            email_id,
            keep_code: self.invites.sandbox,
        };
        let answer = self.store.write(move |tx| Box::pin(async move { respond_in_tx(tx, input, issue).await })).await?;
        match answer {
            Responded::Accepted(b) => {
                let (inv, p) = *b;
                Ok(PageAnswer::Accepted(Box::new((self.view(inv), p))))
            }
            Responded::Refused(r) => Ok(PageAnswer::Refused(r)),
            Responded::SendCode(out, id) => {
                let result = self.invites.mailer.send(&out).await;
                let at = self.clock.now();
                let ok = result.is_ok();
                let err = result.err().unwrap_or_default();
                self.store
                    .write(move |tx| {
                        Box::pin(async move {
                            let r = if ok { Ok(at) } else { Err((err.as_str(), NEVER)) };
                            tx.record_email_attempt(id, r).await?;
                            Ok::<_, UseCaseError>(())
                        })
                    })
                    .await?;
                Ok(if ok { PageAnswer::CodeSent(out.to) } else { PageAnswer::CodeNotSent })
            }
        }
    }

    fn accept_input(&self, id: InvitationId, share: bool, proof: Proof) -> AcceptInput {
        AcceptInput {
            id,
            share,
            proof,
            now: self.clock.now(),
            person_id: PersonId(self.ids.new_uuid()),
            human_id: HumanId(self.ids.new_uuid()),
            joined_id: EventId(self.ids.new_uuid()),
            accepted_id: EventId(self.ids.new_uuid()),
            plans: self.plans.clone(),
            url: self.invitation_url(id),
            assessment: self.assessment.clone(),
            ids: self.ids.clone(),
        }
    }

    /// Accepts an invitation as the operator (D39 admin, D43: "still accepts directly"): creates
    /// or reactivates the membership (`joinedVia: invitation_personal`; a self-revoked person
    /// rejoins), applies labels and tags, records consent (`share` on an `access_request` sets
    /// `sharedExistingProfile`, D11), emits `person.joined` (when the person was not an active
    /// member) and `invitation.accepted`. Errors: 404; 409 `conflict` (not pending); 409
    /// `person_deactivated`; 409 `person_limit_reached` (D6).
    pub async fn accept_invitation(
        &self,
        id: InvitationId,
        share: bool,
    ) -> Result<(InvitationView, Person), UseCaseError> {
        let input = self.accept_input(id, share, Proof::Operator);
        let (inv, p) = self.store.write(move |tx| Box::pin(async move { accept_in_tx(tx, input).await })).await?;
        Ok((self.view(inv), p))
    }

    /// The background sweep (D21): persists expiry (exactly once across instances: a conditional
    /// update decides who emits `invitation.expired`), queues one reminder per invitation 3 days
    /// after sending, then delivers due emails. Returns (expired, reminded).
    pub async fn sweep_invitations(&self) -> Result<(u32, u32), UseCaseError> {
        let now = self.clock.now();
        let due = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.due_invitations(now, 500).await?) }))
            .await?;
        let mut expired = 0;
        for id in due {
            let event_id = EventId(self.ids.new_uuid());
            let url = self.invitation_url(id);
            let ids = self.ids.clone();
            let did = self
                .store
                .write(move |tx| {
                    Box::pin(async move {
                        if !tx.expire_invitation_if_pending(id, now).await? {
                            return Ok::<_, UseCaseError>(false);
                        }
                        if let Some(inv) = tx.get_invitation_any(id).await? {
                            let e = OutboxEvent {
                                id: event_id,
                                org_id: inv.org_id,
                                event_type: EventType::InvitationExpired,
                                data: invitation_json(&inv, &url, now),
                                created_at: now,
                            };
                            crate::outbox::append(tx, &*ids, &e).await?;
                        }
                        Ok(true)
                    })
                })
                .await?;
            if did {
                expired += 1;
            }
        }
        let remind = self
            .store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.reminders_due(now - REMINDER_AFTER, now, 500).await?) })
            })
            .await?;
        let mut reminded = 0;
        for id in remind {
            let email_id = EmailId(self.ids.new_uuid());
            let url = self.invitation_url(id);
            let did = self
                .store
                .write(move |tx| {
                    Box::pin(async move {
                        if !tx.mark_reminder_if_unset(id, now).await? {
                            return Ok::<_, UseCaseError>(false);
                        }
                        let Some(inv) = tx.get_invitation_any(id).await? else { return Ok(false) };
                        let org =
                            tx.get_org(inv.org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                        queue_email(tx, &org.company_name, &inv, &url, email_id, now, true).await?;
                        Ok(true)
                    })
                })
                .await?;
            if did {
                reminded += 1;
            }
        }
        self.deliver_emails().await?;
        Ok((expired, reminded))
    }

    /// Sends due emails of the outbox through the mailer (D22). A failure is recorded and retried
    /// later (1 min, doubling, at most 1 h); `emailSentAt` is set only after a successful send.
    /// Returns how many were sent.
    pub async fn deliver_emails(&self) -> Result<u32, UseCaseError> {
        let now = self.clock.now();
        let due = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.due_emails(now, 100).await?) }))
            .await?;
        let mut sent = 0;
        for e in due {
            // Claim first: requests and the background job deliver concurrently (also across
            // instances); without the claim each of them would send the same email.
            // An email whose invitation is no longer pending (revoked, expired or accepted since it
            // was queued) is never sent: it is closed with the reason instead (T58).
            let (id, lease, invitation) = (e.id, now + EMAIL_LEASE, e.invitation_id);
            let claimed = self
                .store
                .write(move |tx| {
                    Box::pin(async move {
                        if !tx.claim_email(id, now, lease).await? {
                            return Ok::<_, UseCaseError>(false);
                        }
                        let Some(iid) = invitation else { return Ok(true) };
                        let status = tx.get_invitation_any(iid).await?.map(|i| i.status_at(now));
                        match status {
                            Some(s) if s != InvitationStatus::Pending => {
                                let why = format!("not sent: the invitation is {}", s.as_str());
                                tx.record_email_attempt(id, Err((&why, NEVER))).await?;
                                Ok(false)
                            }
                            _ => Ok(true),
                        }
                    })
                })
                .await?;
            if !claimed {
                continue;
            }
            if self.send_and_record(&e).await? {
                sent += 1;
            }
        }
        Ok(sent)
    }

    /// Sends an invitation email that this request queued already claimed (T102) and records the
    /// outcome; true when it was sent. An invitation that is no longer pending by now (revoked,
    /// expired or accepted meanwhile) closes its email instead (T58).
    pub(crate) async fn send_own_email(&self, e: EmailRecord) -> Result<bool, UseCaseError> {
        let now = self.clock.now();
        let (id, invitation) = (e.id, e.invitation_id);
        let pending = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let Some(iid) = invitation else { return Ok::<_, UseCaseError>(true) };
                    match tx.get_invitation_any(iid).await?.map(|i| i.status_at(now)) {
                        Some(s) if s != InvitationStatus::Pending => {
                            let why = format!("not sent: the invitation is {}", s.as_str());
                            tx.record_email_attempt(id, Err((&why, NEVER))).await?;
                            Ok(false)
                        }
                        _ => Ok(true),
                    }
                })
            })
            .await?;
        if !pending {
            return Ok(false);
        }
        self.send_and_record(&e).await
    }

    /// Sends a claimed email through the mailer and records the attempt: `sent_at` (and the
    /// invitation's `emailSentAt`) on success, else the error and the next attempt (1 min,
    /// doubling, at most 1 h). True when it was sent.
    async fn send_and_record(&self, e: &EmailRecord) -> Result<bool, UseCaseError> {
        let out = OutgoingEmail {
            to: e.to.clone(),
            subject: e.subject.clone(),
            body: e.body.clone(),
            invitation_url: e.invitation_url.clone(),
        };
        let result = self.invites.mailer.send(&out).await;
        let at = self.clock.now();
        let backoff = Duration::minutes(1 << e.attempts.min(6)).min(Duration::hours(1));
        let (id, inv_id) = (e.id, e.invitation_id);
        let ok = result.is_ok();
        if let Err(err) = &result {
            tracing_free_log(err);
        }
        let err_text = result.err().unwrap_or_default();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if ok {
                        tx.record_email_attempt(id, Ok(at)).await?;
                        if let Some(iid) = inv_id {
                            if let Some(mut inv) = tx.get_invitation_any(iid).await? {
                                inv.email_sent_at = Some(at);
                                inv.updated_at = at;
                                tx.update_invitation(&inv).await?;
                            }
                        }
                    } else {
                        tx.record_email_attempt(id, Err((&err_text, at + backoff))).await?;
                    }
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        Ok(ok)
    }

    /// Recorded emails, newest first (admin API, D22).
    pub async fn emails(&self, to: Option<Email>, limit: u32) -> Result<Vec<EmailRecord>, UseCaseError> {
        self.store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_emails(to.as_ref(), limit).await?) }))
            .await
    }
}

/// What a post of the person page did ([`Services::respond_by_token`]).
#[derive(Clone, Debug, PartialEq)]
pub enum PageAnswer {
    /// Accepted: the invitation and the membership.
    Accepted(Box<(InvitationView, Person)>),
    /// A one-time code was sent to this address; the page asks for it (D43).
    CodeSent(Email),
    /// The code could not be sent just now (the mailer failed); nothing changed.
    CodeNotSent,
    /// No code was sent or the entry was refused (D43); nothing else changed.
    Refused(Refusal),
}

/// Who vouches for an acceptance (D43).
enum Proof {
    /// The operator's admin API accepts directly (D39).
    Operator,
    /// The person page: `entry` is the keyed hash of the code entered, if any.
    Code { entry: Option<Vec<u8>>, secrets: std::sync::Arc<dyn crate::ports::Secrets> },
}

/// Everything an acceptance needs, prepared outside the transaction.
struct AcceptInput {
    id: InvitationId,
    share: bool,
    proof: Proof,
    now: OffsetDateTime,
    person_id: PersonId,
    human_id: HumanId,
    joined_id: EventId,
    accepted_id: EventId,
    plans: PlanCatalogue,
    url: String,
    /// The model the membership's summary totals are counted with (T85).
    assessment: std::sync::Arc<super::AssessmentKit>,
    /// Ids of the deliveries the events fan out into (T96).
    ids: std::sync::Arc<dyn crate::ports::Ids>,
}

/// A code to send if the post needs one and carries none.
struct Issue {
    code: String,
    code_hash: Vec<u8>,
    code_id: ConsentCodeId,
    email_id: EmailId,
    /// Sandbox (D43): the stored email keeps the code, readable through the admin API.
    keep_code: bool,
}

/// What [`respond_in_tx`] decided; committed either way.
enum Responded {
    Accepted(Box<(Invitation, Person)>),
    /// Send this email, then record the attempt on this outbox row.
    SendCode(OutgoingEmail, EmailId),
    Refused(Refusal),
}

/// D43: whether accepting needs proof of the email address: consent on an `access_request`, or
/// rejoining after the person's own withdrawal.
fn needs_code(inv: &Invitation, share: bool, existing: Option<&Person>) -> bool {
    (share && inv.variant == Variant::AccessRequest)
        || existing
            .is_some_and(|p| p.status == PersonStatus::Archived && p.archive_reason == Some(ArchiveReason::SelfRevoked))
}

/// The code email (D43). The stored copy carries the code only in sandbox mode.
fn code_email(company: &str, code: &str, shown: bool) -> (String, String) {
    let spaced = format!("{} {}", &code[..3.min(code.len())], &code[3.min(code.len())..]);
    let shown_code = if shown { spaced } else { "(not stored)".to_string() };
    let subject = format!("Your confirmation code for {company}");
    let body = format!(
        "Your code to confirm your answer to {company}'s invitation is:\n\n    {shown_code}\n\n\
It is valid for 10 minutes. Enter it on the invitation page.\n\n\
If you did not ask for this code, ignore this email: nothing changes without it.\n"
    );
    (subject, body)
}

async fn respond_in_tx(tx: &mut dyn Tx, input: AcceptInput, issue: Issue) -> Result<Responded, UseCaseError> {
    let now = input.now;
    let peek = tx.get_invitation_any(input.id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
    let org = tx.lock_org(peek.org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
    // Locked: issuing and checking codes of one invitation are serialized.
    let inv = tx.get_invitation(org.id, input.id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
    if inv.status_at(now) != InvitationStatus::Pending {
        // The 409 `conflict` of accepting what is not pending.
        inv.clone().accept(input.person_id, now)?;
    }
    let existing = tx.person_by_email(org.id, &inv.email).await?;
    let (entry, secrets) = match &input.proof {
        Proof::Code { entry, secrets } if needs_code(&inv, input.share, existing.as_ref()) => {
            (entry.clone(), secrets.clone())
        }
        _ => {
            let (i, p) = accept_in_tx(tx, input).await?;
            return Ok(Responded::Accepted(Box::new((i, p))));
        }
    };
    let mut codes = tx.consent_codes_since(inv.id, now - consent::ISSUE_WINDOW).await?;
    let Some(entry) = entry else {
        if let Err(r) = consent::may_issue(&codes, now) {
            return Ok(Responded::Refused(r));
        }
        tx.insert_consent_code(&ConsentCode {
            id: issue.code_id,
            invitation_id: inv.id,
            code_hash: issue.code_hash,
            tries: 0,
            used_at: None,
            expires_at: now + consent::CODE_VALIDITY,
            created_at: now,
        })
        .await?;
        let (subject, body) = code_email(&org.company_name, &issue.code, true);
        let (_, stored) = code_email(&org.company_name, &issue.code, issue.keep_code);
        let record = EmailRecord {
            id: issue.email_id,
            org_id: org.id,
            invitation_id: Some(inv.id),
            to: inv.email.clone(),
            subject: subject.clone(),
            body: stored,
            invitation_url: None,
            sent_at: None,
            attempts: 0,
            last_error: None,
            // Sent by this request, never by the outbox sender (which would send the stored copy).
            next_attempt_at: NEVER,
            created_at: now,
        };
        tx.insert_email(&record).await?;
        let out = OutgoingEmail { to: inv.email.clone(), subject, body, invitation_url: None };
        return Ok(Responded::SendCode(out, issue.email_id));
    };
    let (changed, verdict) = consent::verify(&mut codes, now, |h| secrets.constant_time_eq(h, &entry));
    if let Some(i) = changed {
        tx.update_consent_code(&codes[i]).await?;
    }
    if let Err(r) = verdict {
        return Ok(Responded::Refused(r));
    }
    let (i, p) = accept_in_tx(tx, input).await?;
    Ok(Responded::Accepted(Box::new((i, p))))
}

/// The acceptance itself (D20), inside the caller's transaction. A page acceptance that needs a
/// code reaches here only after [`respond_in_tx`] checked it.
async fn accept_in_tx(tx: &mut dyn Tx, input: AcceptInput) -> Result<(Invitation, Person), UseCaseError> {
    let AcceptInput {
        id, share, now, person_id, human_id, joined_id, accepted_id, plans, url, assessment, ids, ..
    } = input;
    let peek = tx.get_invitation_any(id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
    let org = tx.lock_org(peek.org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
    let mut inv = tx.get_invitation_any(id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
    if inv.status_at(now) != InvitationStatus::Pending {
        inv.accept(person_id, now)?;
    }
    let existing = tx.person_by_email(org.id, &inv.email).await?;
    let transition = person::accept_transition(existing.as_ref())?;
    if transition.needs_seat() {
        let used = tx.count_active_persons(org.id).await?;
        Plan::require_seat(plans.get(&org.plan), &org.plan, used)?;
    }
    let names: Vec<(TagName, TagId)> = inv
        .tags
        .clone()
        .unwrap_or_default()
        .iter()
        .filter_map(|t| TagName::parse(t).ok())
        .map(|t| (t, TagId(ids.new_uuid())))
        .collect();
    let mut tags = if names.is_empty() { vec![] } else { tx.resolve_tags(org.id, &names, now).await? };
    sort_tags(&mut tags);
    let fields = person::ImportFields {
        first_name: inv.first_name.clone(),
        last_name: inv.last_name.clone(),
        external_id: inv.external_id.clone(),
        tags,
    };
    let mut p = match existing {
        Some(mut p) => {
            person::merge_import(&mut p, &fields);
            if transition == AcceptTransition::Rejoin {
                person::reopen(&mut p, now);
                p.joined_via = JoinedVia::InvitationPersonal;
            }
            if let Some(l) = inv.labels {
                p.labels = l;
            }
            p
        }
        None => {
            let human_id = tx.ensure_human(human_id, &inv.email, now).await?;
            let labels = inv.labels.unwrap_or_else(|| person::initial_labels(None, &org, &inv.email));
            let who = NewMember { id: person_id, org_id: org.id, human_id, email: inv.email.clone() };
            Person::new_member(who, fields, labels, JoinedVia::InvitationPersonal, now)
        }
    };
    if share && inv.variant == Variant::AccessRequest {
        p.shared_existing_profile = true;
    }
    let all = tx.assessments_of_human(p.human_id).await?;
    p.assessment = summarize(&all, &p, &assessment.model);
    p.updated_at = now;
    if p.id == person_id {
        tx.insert_person(&p).await?;
    } else {
        tx.update_person(&p).await?;
    }
    inv.accept(p.id, now)?;
    tx.update_invitation(&inv).await?;
    if transition.needs_seat() {
        let e = OutboxEvent {
            id: joined_id,
            org_id: org.id,
            event_type: EventType::PersonJoined,
            data: person_json(&p),
            created_at: now,
        };
        crate::outbox::append(tx, &*ids, &e).await?;
    }
    let e = OutboxEvent {
        id: accepted_id,
        org_id: org.id,
        event_type: EventType::InvitationAccepted,
        data: invitation_json(&inv, &url, now),
        created_at: now,
    };
    crate::outbox::append(tx, &*ids, &e).await?;
    Ok((inv, p))
}

/// `next_attempt_at` of an email that will never be sent (it is then never due).
const NEVER: OffsetDateTime = time::macros::datetime!(9999-12-31 0:00 UTC);

/// The domain has no logger; failures are recorded in the outbox row (`last_error`).
fn tracing_free_log(_err: &str) {}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod email_limit_tests {
    use super::*;
    use uuid::Uuid;

    fn at(secs: i64) -> OffsetDateTime {
        OffsetDateTime::UNIX_EPOCH + Duration::days(20_000) + Duration::seconds(secs)
    }

    fn stamps(inv: InvitationId, times: &[i64]) -> Vec<EmailStamp> {
        times.iter().map(|t| EmailStamp { invitation_id: Some(inv), created_at: at(*t) }).collect()
    }

    fn refusal(r: Result<(), ClientError>) -> (u32, String) {
        let e = r.unwrap_err();
        assert_eq!(e.code, Code::RateLimited);
        assert_eq!(
            e.details.as_ref().map(|d| d["retryAfter"].clone()),
            Some(serde_json::json!(e.retry_after.unwrap()))
        );
        (e.retry_after.unwrap(), e.details.unwrap()["reason"].as_str().unwrap().to_string())
    }

    /// T93: a minute between two emails of an invitation, 10 per invitation and 20 per address in
    /// 24 h; the wait is until the limiting email leaves its window, the longest one wins.
    #[test]
    fn resends_wait_for_the_cooldown_and_the_daily_caps_t93() {
        let (inv, other) = (InvitationId(Uuid::from_u128(1)), InvitationId(Uuid::from_u128(2)));
        assert_eq!(email_allowance(inv, &[], at(0)), Ok(()));
        assert_eq!(refusal(email_allowance(inv, &stamps(inv, &[0]), at(15))), (45, "cooldown".into()));
        assert_eq!(email_allowance(inv, &stamps(inv, &[0]), at(60)), Ok(()));
        assert_eq!(email_allowance(inv, &stamps(other, &[0]), at(1)), Ok(()), "another invitation's email");
        // Ten emails of this invitation, an hour apart: the eleventh waits for the first to age out.
        let ten: Vec<i64> = (0..10).map(|h| h * 3600).collect();
        let (wait, reason) = refusal(email_allowance(inv, &stamps(inv, &ten), at(9 * 3600 + 120)));
        assert_eq!(reason, "invitation_daily_cap");
        assert_eq!(i64::from(wait), 86_400 - (9 * 3600 + 120));
        assert_eq!(email_allowance(inv, &stamps(inv, &ten[1..]), at(9 * 3600 + 120)), Ok(()));
        // Twenty to the address from other invitations.
        let twenty: Vec<i64> = (0..20).map(|m| m * 60).collect();
        let (wait, reason) = refusal(email_allowance(inv, &stamps(other, &twenty), at(3600)));
        assert_eq!((i64::from(wait), reason.as_str()), (86_400 - 3600, "address_daily_cap"));
        // Waits round up to whole seconds.
        let e = email_allowance(
            inv,
            &[EmailStamp { invitation_id: Some(inv), created_at: at(0) }],
            at(0) + Duration::milliseconds(59_500),
        );
        assert_eq!(refusal(e).0, 1);
    }
}
