//! The person's answer to an invitation (D16, D19, D20, D43): the page behind the link, the
//! answer posted from it (with the one-time code where consent needs it), and acceptance.

use super::emails::NEVER;
use super::invitations::InvitationView;
use super::Services;
use crate::consent::{self, ConsentCode, Refusal};
use crate::errors::{ClientError, UseCaseError};
use crate::events::{EventType, OutboxEvent};
use crate::ids::*;
use crate::invitation::{Invitation, InvitationStatus, Variant};
use crate::person::{self, AcceptTransition, ArchiveReason, JoinedVia, NewMember, Person, PersonStatus};
use crate::ports::Ids as _;
use crate::ports::{EmailRecord, OutgoingEmail, Store, TextArg, Texts, Tx};
use crate::results::summarize;
use crate::values::*;
use crate::wire::{invitation_data, person_data};
use time::OffsetDateTime;

/// What the person-facing page shows (D20).
#[derive(Clone, Debug)]
pub struct InvitationPage {
    /// The invitation.
    pub invitation: Invitation,
    /// Status at `now`.
    pub status: InvitationStatus,
    /// Inviting organization.
    pub company_name: String,
    /// The organization's defaults for what persons see (T217, T219).
    pub defaults: crate::organization::CandidateDefaults,
}

impl InvitationPage {
    /// The page's language (T217): the invitation's, else the reader's `Accept-Language`
    /// (`reader`, already negotiated), else the organization's default.
    pub fn locale(&self, reader: Option<Locale>) -> Locale {
        self.invitation.candidate.page_locale(reader, self.defaults.locale)
    }
    /// The time zone of the dates on the page: the invitation's, else the organization's.
    pub fn zone(&self) -> TimeZone {
        self.invitation.candidate.time_zone.clone().unwrap_or_else(|| self.defaults.time_zone.clone())
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
#[derive(Clone)]
enum Proof {
    /// The operator's admin API accepts directly (D39).
    Operator,
    /// The person page: `entry` is the keyed hash of the code entered, if any.
    Code { entry: Option<Vec<u8>>, secrets: std::sync::Arc<dyn crate::ports::Secrets> },
}

/// Everything an acceptance needs, prepared outside the transaction.
#[derive(Clone)]
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
    ids: std::sync::Arc<crate::outbox::EventSource>,
}

/// A code to send if the post needs one and carries none.
#[derive(Clone)]
struct Issue {
    code: String,
    code_hash: Vec<u8>,
    code_id: ConsentCodeId,
    email_id: EmailId,
    /// Sandbox (D43): the stored email keeps the code, readable through the admin API.
    keep_code: bool,
    /// The email's words (T217).
    texts: std::sync::Arc<dyn Texts>,
    /// The language of the page the code was asked from (`Accept-Language`, negotiated).
    reader: Option<Locale>,
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

/// The code email (D43) in the page's language (T217). The stored copy carries the code only in
/// sandbox mode. The code stands on a line of its own, indented by four spaces.
fn code_email(texts: &dyn Texts, locale: Locale, company: &str, code: &str, shown: bool) -> (String, String) {
    let spaced = format!("{} {}", &code[..3.min(code.len())], &code[3.min(code.len())..]);
    let shown_code = if shown { spaced } else { "(not stored)".to_string() };
    let company = TextArg::Text(company);
    let minutes = TextArg::Number(consent::CODE_VALIDITY.whole_minutes());
    let subject = texts.message(locale, "code-email-subject", &[("company", company)]);
    let body = format!(
        "{}\n\n    {shown_code}\n\n{}\n\n{}\n",
        texts.message(locale, "code-email-intro", &[("company", company)]),
        texts.message(locale, "code-email-validity", &[("minutes", minutes)]),
        texts.message(locale, "code-email-ignore", &[]),
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
    let existing = tx.find_person_by_email(org.id, &inv.email).await?;
    let (entry, secrets) = match &input.proof {
        Proof::Code { entry, secrets } if needs_code(&inv, input.share, existing.as_ref()) => {
            (entry.clone(), secrets.clone())
        }
        _ => {
            let (i, p) = accept_in_tx(tx, input).await?;
            return Ok(Responded::Accepted(Box::new((i, p))));
        }
    };
    let Some(entry) = entry else {
        // D53: the hourly limit counts every code the organization sent to this address, whatever
        // the invitation (the organization is locked: issuing for one address is serialized).
        let sent = tx.list_consent_codes_of_address_since(org.id, &inv.email, now - consent::ISSUE_WINDOW).await?;
        if let Err(r) = consent::may_issue(&sent, now) {
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
        let locale = inv.candidate.page_locale(issue.reader, org.candidate.locale);
        let (subject, body) = code_email(&*issue.texts, locale, &org.company_name, &issue.code, true);
        let (_, stored) = code_email(&*issue.texts, locale, &org.company_name, &issue.code, issue.keep_code);
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
    let mut codes = tx.list_consent_codes_since(inv.id, now - consent::ISSUE_WINDOW).await?;
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
    let existing = tx.find_person_by_email(org.id, &inv.email).await?;
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
    let before = existing.clone();
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
            let human_id = tx.ensure_human(human_id, &crate::organization::human_key(&inv.email, &org), now).await?;
            let labels = inv.labels.unwrap_or_else(|| person::initial_labels(None, &org, &inv.email));
            let who = NewMember { id: person_id, org_id: org.id, human_id, email: inv.email.clone() };
            Person::new_member(who, fields, labels, JoinedVia::InvitationPersonal, now)
        }
    };
    if share && inv.variant == Variant::AccessRequest {
        p.shared_existing_profile = true;
    }
    let all = tx.list_assessments_of_human(p.human_id).await?;
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
            data: person_data(&p),
            created_at: now,
            request_id: None,
        };
        crate::outbox::append(tx, &ids, &e).await?;
    } else if let Some(before) = &before {
        // An active member accepted: what the invitation applied (labels, tags, names, consent)
        // is a change of the Person (D47).
        super::persons::append_person_updated(tx, &ids, joined_id, before, &p, now).await?;
    }
    let e = OutboxEvent {
        id: accepted_id,
        org_id: org.id,
        event_type: EventType::InvitationAccepted,
        data: invitation_data(&inv, &url, now),
        created_at: now,
        request_id: None,
    };
    crate::outbox::append(tx, &ids, &e).await?;
    Ok((inv, p))
}

impl<S: Store> Services<S> {
    /// The person-facing page's data (D20). Errors: 404 for an unknown token.
    pub async fn invitation_page(&self, token: &str) -> Result<InvitationPage, UseCaseError> {
        let hash = self.secrets.hash_token(token);
        let now = self.clock.now();
        let (inv, org) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let inv = tx
                        .find_invitation_by_token_hash(&hash)
                        .await?
                        .ok_or_else(|| ClientError::not_found("Invitation"))?;
                    let org = tx.get_org(inv.org_id).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    Ok::<_, UseCaseError>((inv, org))
                })
            })
            .await?;
        Ok(InvitationPage {
            status: inv.status_at(now),
            invitation: inv,
            company_name: org.company_name,
            defaults: org.candidate,
        })
    }

    /// Answers a post of the person page (D20, D43): accepts, or asks for the one-time code.
    ///
    /// Joining by the link needs nothing more. Giving consent (`share` on an `access_request`) and
    /// rejoining after the person's own withdrawal are the person's acts: they need `code`, the
    /// one-time code sent to the invitation's email address. Without `code` a new code is sent
    /// (at most 5 an hour per organization and address, across all its invitations: D53); a
    /// wrong code spends one of its 5 tries. Deciding, checking the code and accepting happen in
    /// one transaction, so nothing changes without a valid code. Errors: 404 (unknown token); as
    /// [`Self::accept_invitation`]. `reader` is the language the reader's `Accept-Language`
    /// asks for (T217): a code email is written in the page's language.
    pub async fn respond_by_token(
        &self,
        token: &str,
        share: bool,
        code: Option<&str>,
        reader: Option<Locale>,
    ) -> Result<PageAnswer, UseCaseError> {
        let hash = self.secrets.hash_token(token);
        let id = self
            .store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.find_invitation_by_token_hash(&hash).await?) })
            })
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
            texts: self.invites.texts.clone(),
            reader,
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
            ids: self.event_source(),
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
}
