//! The email outbox (D22, T58, T93, T175): emails queued in the use case's transaction, sent
//! through the [`crate::ports::Mailer`] port by the app's email job (woken after the commit,
//! never on a request's time), retried with a backoff, and the resend limits.

use super::Services;
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::*;
use crate::invitation::{Invitation, InvitationStatus, Variant};
use crate::organization::Organization;
use crate::ports::{EmailRecord, EmailStamp, OutgoingEmail, Store, TextArg, Texts, Tx};
use crate::values::*;
use std::sync::Arc;
use time::{Duration, OffsetDateTime};

/// Wakes the email job after a commit that queued an email (T175). The app holds the job's
/// wake-up behind it (a `tokio::sync::Notify`); the domain only calls it, after the commit.
/// Fakes and tests that run [`Services::deliver_emails`] themselves pass [`no_wakeup`].
pub type EmailWakeup = Arc<dyn Fn() + Send + Sync>;

/// An [`EmailWakeup`] that does nothing: whoever holds the services delivers by calling
/// [`Services::deliver_emails`].
pub fn no_wakeup() -> EmailWakeup {
    Arc::new(|| {})
}

/// A claimed email is not picked up by another sender for this long (longer than an SMTP send
/// may take); if its sender dies it is retried afterwards.
pub const EMAIL_LEASE: Duration = Duration::minutes(5);

/// How many sent emails the email job records in one transaction (T200): a pass of 100 emails
/// is one claiming transaction and five recording ones, not 200 transactions, so the job leaves
/// the (on SQLite, single) writer to the requests. Should the process die between a send and its
/// record, at most this many emails are sent again after [`EMAIL_LEASE`].
pub const RECORD_BATCH: usize = 20;

/// One claimed email's send, to record.
struct Sent {
    id: EmailId,
    invitation: Option<InvitationId>,
    attempts: u32,
    at: OffsetDateTime,
    result: Result<(), String>,
}

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

/// The invitation email (D21/D22) in the person's language and time zone (T217): greeting,
/// message, accommodations (T218), link and expiry date. `reminder` words it as a reminder.
pub(crate) fn invitation_email(
    texts: &dyn Texts,
    org: &Organization,
    inv: &Invitation,
    url: &str,
    reminder: bool,
) -> (String, String) {
    let locale = inv.candidate.email_locale(org);
    let company = TextArg::Text(&org.company_name);
    let variant = TextArg::Text(match inv.variant {
        Variant::Assessment => "assessment",
        Variant::AccessRequest => "access",
    });
    let t = |key: &str, args: &[(&str, TextArg<'_>)]| texts.message(locale, key, args);
    let subject = t(
        "invitation-email-subject",
        &[("company", company), ("variant", variant), ("reminder", TextArg::Text(if reminder { "yes" } else { "no" }))],
    );
    let greeting = match &inv.first_name {
        Some(n) => t("email-greeting", &[("name", TextArg::Text(n.as_str()))]),
        None => t("email-greeting-anonymous", &[]),
    };
    let mut body =
        format!("{greeting}\n\n{}\n\n", t("invitation-email-intro", &[("company", company), ("variant", variant)]));
    if let Some(m) = &inv.message {
        body.push_str(&format!("{}\n{m}\n\n", t("invitation-email-message", &[("company", company)])));
    }
    if let Some(a) = inv.candidate.accommodations.as_ref().filter(|a| a.any()) {
        body.push_str(&format!("{}\n", t("accommodations-intro", &[])));
        for line in accommodation_lines(texts, locale, a) {
            body.push_str(&format!("- {line}\n"));
        }
        body.push('\n');
    }
    let expiry = texts.date_time(locale, &inv.candidate.zone(org), inv.expires_at);
    body.push_str(&format!(
        "{}\n{url}\n\n{}\n",
        t("invitation-email-link", &[]),
        t("invitation-email-valid-until", &[("expiry", TextArg::Text(&expiry))])
    ));
    (subject, body)
}

/// The accommodations (T218) as the person reads them, one line each: extra time, breaks, screen
/// reader, then the organization's notes as written. Nothing when none is granted.
pub fn accommodation_lines(texts: &dyn Texts, locale: Locale, a: &Accommodations) -> Vec<String> {
    let mut v = Vec::new();
    if a.extra_time_percent() > 0 {
        v.push(texts.message(
            locale,
            "accommodation-extra-time",
            &[("percent", TextArg::Number(i64::from(a.extra_time_percent())))],
        ));
    }
    if a.breaks() {
        v.push(texts.message(locale, "accommodation-breaks", &[]));
    }
    if a.screen_reader() {
        v.push(texts.message(locale, "accommodation-screen-reader", &[]));
    }
    if let Some(n) = a.notes() {
        v.push(texts.message(locale, "accommodation-notes", &[("notes", TextArg::Text(n))]));
    }
    v
}

/// Queues an invitation email (D22) and returns it, due at once: the email job sends it once
/// the caller has committed and called [`Services::wake_emails`] (T175). `reminder` words it
/// as a reminder.
#[allow(clippy::too_many_arguments)]
pub(super) async fn queue_email(
    tx: &mut dyn Tx,
    texts: &dyn Texts,
    org: &Organization,
    inv: &Invitation,
    url: &str,
    id: EmailId,
    now: OffsetDateTime,
    reminder: bool,
) -> Result<EmailRecord, UseCaseError> {
    let (subject, body) = invitation_email(texts, org, inv, url, reminder);
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
        next_attempt_at: now,
        created_at: now,
    };
    tx.insert_email(&e).await?;
    Ok(e)
}

/// Whether the email `id` of `invitation` is still to be sent at `now`: an invitation that is no
/// longer pending (revoked, expired or accepted since the email was queued) closes its email
/// with the reason instead, never to be sent (T58).
async fn still_wanted(
    tx: &mut dyn Tx,
    id: EmailId,
    invitation: Option<&Invitation>,
    now: OffsetDateTime,
) -> Result<bool, UseCaseError> {
    match invitation.map(|i| i.status_at(now)) {
        Some(s) if s != InvitationStatus::Pending => {
            let why = format!("not sent: the invitation is {}", s.as_str());
            tx.record_email_attempt(id, Err((&why, NEVER))).await?;
            Ok(false)
        }
        _ => Ok(true),
    }
}

/// `next_attempt_at` of an email that will never be sent (it is then never due).
pub(super) const NEVER: OffsetDateTime = time::macros::datetime!(9999-12-31 0:00 UTC);

/// The domain has no logger; failures are recorded in the outbox row (`last_error`).
fn tracing_free_log(_err: &str) {}

impl<S: Store> Services<S> {
    /// Wakes the email job (T175): call it after the commit of a transaction that queued an email.
    pub fn wake_emails(&self) {
        (self.invites.wake_emails)();
    }

    /// The email job's pass (T175): sends due emails of the outbox (at most 100) through the
    /// mailer (D22); those of a test twin are recorded as sent without being sent (D60). A failure is recorded and retried later (1 min, doubling, at most
    /// 1 h); `emailSentAt` is set only after a successful send. Returns how many were sent.
    pub async fn deliver_emails(&self) -> Result<u32, UseCaseError> {
        let now = self.clock.now();
        let due = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_due_emails(now, 100).await?) }))
            .await?;
        if due.is_empty() {
            return Ok(0);
        }
        // Claim the pass's emails first, in one transaction: the jobs of several instances (and
        // the sandbox clock) deliver concurrently; without the claim each of them would send the
        // same email. An email whose invitation is no longer pending (revoked, expired or
        // accepted since it was queued) is never sent: it is closed with the reason instead (T58).
        let lease = now + EMAIL_LEASE;
        let wanted: Vec<(EmailId, Option<InvitationId>)> = due.iter().map(|e| (e.id, e.invitation_id)).collect();
        let mut orgs: Vec<OrgId> = due.iter().map(|e| e.org_id).collect();
        orgs.sort_by_key(|o| o.0);
        orgs.dedup();
        let (claimed, test_orgs) = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    // The claim and the invitations' states in two statements for the pass (T203).
                    let ids: Vec<EmailId> = wanted.iter().map(|(id, _)| *id).collect();
                    let mine = tx.claim_emails(&ids, now, lease).await?;
                    let wanted: Vec<_> = wanted.into_iter().filter(|(id, _)| mine.contains(id)).collect();
                    let of: Vec<InvitationId> = wanted.iter().filter_map(|(_, i)| *i).collect();
                    let invitations = tx.list_invitations_by_ids(&of).await?;
                    let mut claimed = Vec::with_capacity(wanted.len());
                    for (id, invitation) in wanted {
                        let inv = invitation.and_then(|i| invitations.iter().find(|x| x.id == i));
                        if still_wanted(tx, id, inv, now).await? {
                            claimed.push(id);
                        }
                    }
                    // D60: a test twin's emails are recorded, never sent.
                    let mut test_orgs = Vec::new();
                    for org in orgs {
                        if tx.get_org(org).await?.is_some_and(|o| o.is_test()) {
                            test_orgs.push(org);
                        }
                    }
                    Ok::<_, UseCaseError>((claimed, test_orgs))
                })
            })
            .await?;
        let claimed: Vec<EmailRecord> = due.into_iter().filter(|e| claimed.contains(&e.id)).collect();
        let mut sent = 0;
        // Sent one by one, recorded [`RECORD_BATCH`] at a time (T200).
        for batch in claimed.chunks(RECORD_BATCH) {
            let mut outcomes = Vec::with_capacity(batch.len());
            for e in batch {
                let out = OutgoingEmail {
                    to: e.to.clone(),
                    subject: e.subject.clone(),
                    body: e.body.clone(),
                    invitation_url: e.invitation_url.clone(),
                };
                let result = if test_orgs.contains(&e.org_id) { Ok(()) } else { self.invites.mailer.send(&out).await };
                if let Err(err) = &result {
                    tracing_free_log(err);
                }
                outcomes.push(Sent {
                    id: e.id,
                    invitation: e.invitation_id,
                    attempts: e.attempts,
                    at: self.clock.now(),
                    result,
                });
            }
            sent += outcomes.iter().filter(|o| o.result.is_ok()).count() as u32;
            self.record_sent(outcomes).await?;
        }
        Ok(sent)
    }

    /// Records the attempts of claimed emails in one transaction: those sent as sent at `at` (the
    /// time the batch is recorded, within [`RECORD_BATCH`] sends of each one), with their
    /// invitations' `emailSentAt`, in two statements; each failure with its error and next
    /// attempt (1 min, doubling, at most 1 h).
    async fn record_sent(&self, outcomes: Vec<Sent>) -> Result<(), UseCaseError> {
        let at = self.clock.now();
        // The invitations before their emails, as an erasure writes them (it revokes the
        // invitations, then deletes their emails): in the other order two transactions could
        // each hold a row the other waits for (a deadlock PostgreSQL resolves by failing one of
        // them, T195).
        let sent: Vec<&Sent> = outcomes.iter().filter(|o| o.result.is_ok()).collect();
        let mut invitations: Vec<InvitationId> = sent.iter().filter_map(|o| o.invitation).collect();
        invitations.sort_by_key(|i| std::cmp::Reverse(i.0));
        let emails: Vec<EmailId> = sent.iter().map(|o| o.id).collect();
        let failed: Vec<(EmailId, String, OffsetDateTime)> = outcomes
            .iter()
            .filter_map(|o| {
                let backoff = Duration::minutes(1 << o.attempts.min(6)).min(Duration::hours(1));
                o.result.as_ref().err().map(|e| (o.id, e.clone(), o.at + backoff))
            })
            .collect();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    tx.stamp_invitations_emailed(&invitations, at).await?;
                    tx.record_emails_sent(&emails, at).await?;
                    for (id, err, next) in &failed {
                        tx.record_email_attempt(*id, Err((err, *next))).await?;
                    }
                    Ok::<_, UseCaseError>(())
                })
            })
            .await
    }

    /// The invitation email as the person reads it, `(subject, body)`, in their language and time
    /// zone (T217): the dashboard's preview. Errors: 404 (organization).
    pub async fn invitation_email_preview(
        &self,
        view: &super::invitations::InvitationView,
    ) -> Result<(String, String), UseCaseError> {
        let org_id = view.invitation.org_id;
        let org = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_org(org_id).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Organization"))?;
        Ok(invitation_email(&*self.invites.texts, &org, &view.invitation, &view.url, false))
    }

    /// Recorded emails, newest first (admin API, D22).
    pub async fn emails(&self, to: Option<Email>, limit: u32) -> Result<Vec<EmailRecord>, UseCaseError> {
        self.store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_emails(to.as_ref(), limit).await?) }))
            .await
    }
}

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
