//! Invitations (D17-D21): create, read, list, resend, revoke, and the expiry and reminder sweep.
//! The person's answer is in [`super::acceptance`], the emails in [`super::emails`].

use super::idempotency::{take, unkeyed, Claim, Keyed};
use super::{Page, Services};
use crate::errors::{ClientError, UseCaseError};
use crate::events::{EventType, OutboxEvent};
use crate::ids::*;
use crate::invitation::{Invitation, InvitationStatus, Variant};
use crate::organization::Organization;
use crate::person;
use crate::person::{ArchiveReason, Person, PersonStatus};
use crate::ports::{EmailRecord, Ids, InvitationQuery, Store, StoreResult, Tx};
use crate::results::AssessmentState;
use crate::values::*;
use crate::wire::invitation_json;
use time::{Duration, OffsetDateTime};

pub use super::acceptance::{InvitationPage, PageAnswer};
use super::emails::queue_email;
pub use super::emails::{
    email_allowance, no_wakeup, EmailWakeup, EMAILS_PER_ADDRESS, EMAILS_PER_INVITATION, EMAIL_LEASE, EMAIL_WINDOW,
    RESEND_COOLDOWN,
};

/// Default validity (D18).
pub const DEFAULT_EXPIRY_DAYS: u32 = 14;
/// One reminder this long after sending while still pending (D21).
pub const REMINDER_AFTER: Duration = Duration::days(3);

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
    /// `locale`, `timeZone`, `accommodations`, `redirectUrl` (T217-T219).
    pub candidate: crate::invitation::CandidateOptions,
}

impl NewInvitation {
    /// An invitation to `email` with nothing else set (no names, labels, tags or message; the
    /// default expiry), emailed by Talent when `send_email` (the spec's required `sendEmail`).
    /// Set other fields with struct update syntax: `NewInvitation { message, ..NewInvitation::new(email, true) }`.
    pub fn new(email: Email, send_email: bool) -> Self {
        NewInvitation {
            email,
            first_name: None,
            last_name: None,
            external_id: None,
            labels: None,
            tags: None,
            message: None,
            send_email,
            expires_in_days: None,
            candidate: Default::default(),
        }
    }
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
    /// The Invitation object ([`crate::wire::InvitationOut`]).
    pub fn out(&self) -> crate::wire::InvitationOut {
        crate::wire::InvitationOut::new(&self.invitation, &self.url, self.now)
    }
    /// The Invitation object as a JSON value.
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
    /// Wakes the email job after a commit that queued an email (T175).
    pub wake_emails: EmailWakeup,
    /// What persons read, in their language (T217): emails, pages, the report.
    pub texts: std::sync::Arc<dyn crate::ports::Texts>,
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
    /// Ids of the events it writes.
    pub ids: &'a crate::outbox::EventSource,
    /// What the caller's transaction already knows of the address, so it is not read again.
    pub known: Option<Known<'a>>,
    /// The email's words (T217).
    pub texts: &'a dyn crate::ports::Texts,
    /// Where the invitation's members are in the request body (`""`, `invitation.`), for the
    /// field of a validation error.
    pub field_prefix: &'a str,
}

/// The person of an invitation's address as the caller's transaction just imported it (an
/// import with a nested invitation, an ATS's order): [`create_in_tx`] takes it instead of
/// reading it again, and knows that a human created in the same transaction has taken no
/// assessment (T203).
pub(crate) struct Known<'a> {
    /// The person of the address, as written in this transaction.
    pub person: &'a Person,
    /// Its human was created in this transaction.
    pub new_human: bool,
}

/// Appends an invitation event (`data`: the Invitation as of `now`) in this transaction.
pub(crate) async fn append_invitation_event(
    tx: &mut dyn Tx,
    ids: &crate::outbox::EventSource,
    t: EventType,
    inv: &Invitation,
    url: &str,
    now: OffsetDateTime,
) -> StoreResult<()> {
    let e = OutboxEvent {
        id: EventId(ids.new_uuid()),
        org_id: inv.org_id,
        event_type: t,
        data: crate::wire::invitation_data(inv, url, now),
        created_at: now,
        request_id: None,
    };
    crate::outbox::append(tx, ids, &e).await
}

/// Creates (or returns the pending) invitation inside a transaction; a new one emits
/// `invitation.created` (D47). Errors: 409
/// `person_limit_reached` when the invitee is not an active member and the pool is full (D6).
pub(crate) async fn create_in_tx(
    tx: &mut dyn Tx,
    ctx: CreateCtx<'_>,
    input: NewInvitation,
    tags: Option<Vec<String>>,
) -> Result<(Invitation, bool, Option<EmailRecord>), UseCaseError> {
    let org_id = ctx.org.id;
    if let Some(existing) = tx.find_pending_invitation_by_email(org_id, &input.email, ctx.now).await? {
        return Ok((existing, false, None));
    }
    if let Some(r) = &input.candidate.redirect_url {
        if !r.allowed_by(&ctx.org.candidate.redirect_hosts) {
            return Err(FieldErrors::one(
                format!("{}redirectUrl", ctx.field_prefix),
                format!("host {} is not one of the organization's redirect hosts", r.host()),
            )
            .into());
        }
    }
    let known = ctx.known.as_ref().filter(|k| k.person.email == input.email);
    let person = match known {
        Some(k) => Some(k.person.clone()),
        None => tx.find_person_by_email(org_id, &input.email).await?,
    };
    let new_human = known.is_some_and(|k| k.new_human);
    if let Some(p) = person.as_ref().filter(|p| p.archive_reason == Some(ArchiveReason::Erased)) {
        return Err(person::erased_error(p.id).into());
    }
    if person.as_ref().is_none_or(|p| p.status != PersonStatus::Active) {
        let used = tx.count_active_persons(org_id).await?;
        Plan::require_seat(ctx.plan, &ctx.org.plan, used)?;
    }
    let human = match &person {
        Some(p) => Some(p.human_id),
        None => tx.find_human(&crate::organization::human_key(&input.email, ctx.org)).await?,
    };
    let hidden_results = match human {
        Some(_) if new_human => false,
        Some(h) => tx
            .list_assessments_of_human(h)
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
        candidate: input.candidate,
    };
    tx.insert_invitation(&inv).await?;
    append_invitation_event(tx, ctx.ids, EventType::InvitationCreated, &inv, &ctx.url, ctx.now).await?;
    let email = match inv.send_email {
        true => Some(queue_email(tx, ctx.texts, ctx.org, &inv, &ctx.url, ctx.email_id, ctx.now, false).await?),
        false => None,
    };
    Ok((inv, true, email))
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
        unkeyed(self.create_invitation_keyed(org_id, input, None).await?)
    }

    /// [`Services::create_invitation`], with the request's idempotency key claimed and answered in
    /// its transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn create_invitation_keyed(
        &self,
        org_id: OrgId,
        input: NewInvitation,
        claim: Option<Claim<(InvitationView, bool)>>,
    ) -> Result<Keyed<(InvitationView, bool)>, UseCaseError> {
        let viewer = claim.as_ref().map(|_| self.clone());
        let now = self.clock.now();
        let plans = self.plans.clone();
        let tag_names = input.tags.as_ref().map(|t| t.iter().map(|n| n.as_str().to_string()).collect());
        let pre_id = InvitationId(self.ids.new_uuid());
        let email_id = EmailId(self.ids.new_uuid());
        let token = self.secrets.invitation_token(pre_id);
        let token_hash = self.secrets.hash_token(&token);
        let url = self.invitation_url(pre_id);
        let ids = self.event_source();
        let texts = self.invites.texts.clone();
        let done = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let org = tx.lock_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let plan = plans.get(&org.plan).cloned();
                    let ids = &*ids;
                    let ctx = CreateCtx {
                        org: &org,
                        plan: plan.as_ref(),
                        id: pre_id,
                        email_id,
                        token_hash,
                        url,
                        now,
                        ids,
                        known: None,
                        texts: &*texts,
                        field_prefix: "",
                    };
                    let (inv, created, email) = create_in_tx(tx, ctx, input, tag_names).await?;
                    if let (Some(c), Some(viewer)) = (&claim, &viewer) {
                        c.answer(tx, &(viewer.view(inv.clone()), created), now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran((inv, created, email)))
                })
            })
            .await?;
        let (inv, created, email) = match done {
            Keyed::Ran(done) => done,
            Keyed::Replayed(r) => return Ok(Keyed::Replayed(r)),
        };
        if email.is_some() {
            self.wake_emails();
        }
        Ok(Keyed::Ran((self.view(inv), created)))
    }

    /// `GET /invitations/{id}`. Errors: 404.
    pub async fn get_invitation(&self, org_id: OrgId, id: InvitationId) -> Result<InvitationView, UseCaseError> {
        let inv = self
            .store
            .read_by_key(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_invitation(org_id, id).await?) }))
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

    /// `POST /invitations/{id}/resend` (D21): pending only; optionally a new expiry; queues the
    /// email again for the email job (T175); `invitation.reminded` (D47). Errors: 404, 409
    /// `conflict`, 429 `rate_limited` (T93).
    pub async fn resend_invitation(
        &self,
        org_id: OrgId,
        id: InvitationId,
        expires_in_days: Option<u32>,
    ) -> Result<InvitationView, UseCaseError> {
        unkeyed(self.resend_invitation_keyed(org_id, id, expires_in_days, None).await?)
    }

    /// [`Services::resend_invitation`], with the request's idempotency key claimed and answered in
    /// its transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn resend_invitation_keyed(
        &self,
        org_id: OrgId,
        id: InvitationId,
        expires_in_days: Option<u32>,
        claim: Option<Claim<InvitationView>>,
    ) -> Result<Keyed<InvitationView>, UseCaseError> {
        let viewer = claim.as_ref().map(|_| self.clone());
        let now = self.clock.now();
        let email_id = EmailId(self.ids.new_uuid());
        let url = self.invitation_url(id);
        let ids = self.event_source();
        let texts = self.invites.texts.clone();
        let inv = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let org = tx.get_org(org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let mut inv =
                        tx.get_invitation(org_id, id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
                    inv.resend(expires_in_days.map(|d| now + Duration::days(i64::from(d))), now)?;
                    // T93: checked after the state rules (a revoked invitation stays 409).
                    let recent = tx.list_emails_to_since(&inv.email, now - EMAIL_WINDOW, 1000).await?;
                    email_allowance(id, &recent, now)?;
                    tx.update_invitation(&inv).await?;
                    append_invitation_event(tx, &ids, EventType::InvitationReminded, &inv, &url, now).await?;
                    queue_email(tx, &*texts, &org, &inv, &url, email_id, now, false).await?;
                    if let (Some(c), Some(viewer)) = (&claim, &viewer) {
                        c.answer(tx, &viewer.view(inv.clone()), now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(inv))
                })
            })
            .await?;
        let inv = match inv {
            Keyed::Ran(inv) => inv,
            Keyed::Replayed(r) => return Ok(Keyed::Replayed(r)),
        };
        self.wake_emails();
        Ok(Keyed::Ran(self.view(inv)))
    }

    /// `POST /invitations/{id}/revoke`: pending only; `invitation.revoked`. Errors: 404, 409.
    pub async fn revoke_invitation(&self, org_id: OrgId, id: InvitationId) -> Result<InvitationView, UseCaseError> {
        unkeyed(self.revoke_invitation_keyed(org_id, id, None).await?)
    }

    /// [`Services::revoke_invitation`], with the request's idempotency key claimed and answered in
    /// its transaction when given (T223). Errors: the same, and the claim's (409).
    pub async fn revoke_invitation_keyed(
        &self,
        org_id: OrgId,
        id: InvitationId,
        claim: Option<Claim<InvitationView>>,
    ) -> Result<Keyed<InvitationView>, UseCaseError> {
        let viewer = claim.as_ref().map(|_| self.clone());
        let now = self.clock.now();
        let url = self.invitation_url(id);
        let ids = self.event_source();
        let inv = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let mut inv =
                        tx.get_invitation(org_id, id).await?.ok_or_else(|| ClientError::not_found("Invitation"))?;
                    inv.revoke(now)?;
                    tx.update_invitation(&inv).await?;
                    append_invitation_event(tx, &ids, EventType::InvitationRevoked, &inv, &url, now).await?;
                    if let (Some(c), Some(viewer)) = (&claim, &viewer) {
                        c.answer(tx, &viewer.view(inv.clone()), now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(inv))
                })
            })
            .await?;
        let inv = match inv {
            Keyed::Ran(inv) => inv,
            Keyed::Replayed(r) => return Ok(Keyed::Replayed(r)),
        };
        Ok(Keyed::Ran(self.view(inv)))
    }

    /// The background sweep (D21): persists expiry (exactly once across instances: a conditional
    /// update decides who emits `invitation.expired`), queues one reminder per invitation 3 days
    /// after sending (`invitation.reminded`, D47) and wakes the email job for them (T175).
    /// Returns (expired, reminded).
    pub async fn sweep_invitations(&self) -> Result<(u32, u32), UseCaseError> {
        self.sweep_invitations_of(None).await
    }

    /// [`Services::sweep_invitations`] over the invitations of `org` only when given (a test
    /// twin whose clock moved, D60): at most 500 expired and 500 reminded per call.
    pub async fn sweep_invitations_of(&self, org: Option<OrgId>) -> Result<(u32, u32), UseCaseError> {
        let now = self.clock.now();
        let due = self
            .store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.list_due_invitations(org, now, 500).await?) })
            })
            .await?;
        let mut expired = 0;
        for id in due {
            let url = self.invitation_url(id);
            let ids = self.event_source();
            let did = self
                .store
                .write(move |tx| Box::pin(async move { expire_in_tx(tx, &ids, id, &url, now).await }))
                .await?;
            if did {
                expired += 1;
            }
        }
        let remind = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    Ok::<_, UseCaseError>(tx.list_reminders_due(org, now - REMINDER_AFTER, now, 500).await?)
                })
            })
            .await?;
        let mut reminded = 0;
        for id in remind {
            let texts = self.invites.texts.clone();
            let email_id = EmailId(self.ids.new_uuid());
            let url = self.invitation_url(id);
            let ids = self.event_source();
            let did = self
                .store
                .write(move |tx| {
                    Box::pin(async move { remind_in_tx(tx, &*texts, &ids, (id, email_id), &url, now).await })
                })
                .await?;
            if did {
                reminded += 1;
            }
        }
        if reminded > 0 {
            self.wake_emails();
        }
        Ok((expired, reminded))
    }
}

/// Expires invitation `id` if it is still pending at `now`, with its `invitation.expired`
/// (`url`: its link): `true` when this call expired it (a conditional update, so exactly once
/// across instances and sweeps). Errors: the store's.
pub(crate) async fn expire_in_tx(
    tx: &mut dyn Tx,
    ids: &crate::outbox::EventSource,
    id: InvitationId,
    url: &str,
    now: OffsetDateTime,
) -> Result<bool, UseCaseError> {
    if !tx.expire_invitation_if_pending(id, now).await? {
        return Ok(false);
    }
    if let Some(inv) = tx.get_invitation_any(id).await? {
        append_invitation_event(tx, ids, EventType::InvitationExpired, &inv, url, now).await?;
    }
    Ok(true)
}

/// Reminds invitation `id` once (D47): `invitation.reminded` and the reminder email `email_id`
/// queued; `true` when this call reminded it. Errors: the store's; 404 when its organization is
/// gone.
pub(crate) async fn remind_in_tx(
    tx: &mut dyn Tx,
    texts: &dyn crate::ports::Texts,
    ids: &crate::outbox::EventSource,
    (id, email_id): (InvitationId, EmailId),
    url: &str,
    now: OffsetDateTime,
) -> Result<bool, UseCaseError> {
    if !tx.mark_reminder_if_unset(id, now).await? {
        return Ok(false);
    }
    let Some(inv) = tx.get_invitation_any(id).await? else { return Ok(false) };
    let org = tx.get_org(inv.org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
    append_invitation_event(tx, ids, EventType::InvitationReminded, &inv, url, now).await?;
    queue_email(tx, texts, &org, &inv, url, email_id, now, true).await?;
    Ok(true)
}
