//! Person use cases: import (ATS sync), read, list, patch, archive, and the administrator's
//! deactivation and the person's own withdrawal (spec, Endpoints; D9-D16, D28, D39).

use super::idempotency::{Claim, Keyed};
use super::invitations::{create_in_tx, CreateCtx, Known, NewInvitation};
use super::{Page, Services};
use crate::errors::{ClientError, Code, StoreError, UseCaseError};
use crate::events::{EventType, OutboxEvent};
use crate::ids::*;
use crate::person::{self, ArchiveReason, ImportFields, ImportTransition, JoinedVia, NewMember, Person, PersonPatch};
use crate::ports::{Ids, ImportTarget, PersonQuery, Store, StoreResult, Tx};
use crate::results::summarize;
use crate::values::*;
use crate::wire::{person_archived_data, person_data, person_updated_json};
use time::OffsetDateTime;

/// A parsed `POST /persons` body (the nested `invitation` is handled by the HTTP layer until the
/// invitations issue).
#[derive(Clone, Debug)]
pub struct ImportPerson {
    /// `email`.
    pub email: Email,
    /// `firstName`.
    pub first_name: Option<PersonName>,
    /// `lastName`.
    pub last_name: Option<PersonName>,
    /// `externalId`.
    pub external_id: Option<ExternalId>,
    /// `labels`; `None` = omitted.
    pub labels: Option<Labels>,
    /// `tags` to add.
    pub tags: Vec<TagName>,
    /// The nested `invitation` (spec): create (or return the pending) invitation in the same call.
    pub invitation: Option<NestedInvitation>,
}

impl ImportPerson {
    /// An import of `email` alone: no names, external id or tags, `labels` omitted (so a new
    /// person gets the default, D15) and no nested invitation. Set other fields with struct update
    /// syntax: `ImportPerson { tags, ..ImportPerson::new(email) }`.
    pub fn new(email: Email) -> Self {
        ImportPerson {
            email,
            first_name: None,
            last_name: None,
            external_id: None,
            labels: None,
            tags: vec![],
            invitation: None,
        }
    }
}

/// The nested `invitation` of `POST /persons` (spec), parsed (`create` is always true).
#[derive(Clone, Debug)]
pub struct NestedInvitation {
    /// `sendEmail`.
    pub send_email: bool,
    /// `expiresInDays` (1..90).
    pub expires_in_days: Option<u32>,
    /// `locale`, `timeZone`, `accommodations`, `redirectUrl` (T217-T219).
    pub candidate: crate::invitation::CandidateOptions,
}

/// Result of an import.
#[derive(Clone, Debug)]
pub struct ImportOutcome {
    /// The person after the import.
    pub person: Person,
    /// True: 201 (created or reactivated). False: 200 with `X-Existing-Resource: true`.
    pub created: bool,
    /// The invitation created (or the person's pending one) when `invitation` was requested.
    pub invitation: Option<super::invitations::InvitationView>,
}

/// A parsed `PATCH /persons/{id}` body: tags as names, resolved in the transaction.
#[derive(Clone, Debug, Default)]
pub struct PatchPerson {
    /// `externalId` (`Some(None)` clears).
    pub external_id: Option<Option<ExternalId>>,
    /// `firstName`.
    pub first_name: Option<PersonName>,
    /// `lastName`.
    pub last_name: Option<PersonName>,
    /// `labels`.
    pub labels: Option<Labels>,
    /// `tags` (replaces).
    pub tags: Option<Vec<TagName>>,
}

fn event(id: EventId, p: &Person, t: EventType, now: OffsetDateTime) -> OutboxEvent {
    let data = if t == EventType::PersonArchived { person_archived_data(p) } else { person_data(p) };
    OutboxEvent { id, org_id: p.org_id, event_type: t, data, created_at: now, request_id: None }
}

/// Appends `person.updated` (D47) with id `id` for a person changed from `before` to `after` in
/// this transaction, with `previousAttributes`; nothing when no published member changed. Events
/// of one transaction are numbered in id order (T106), so `id` comes from `ids` in the order the
/// events happen.
pub(crate) async fn append_person_updated(
    tx: &mut dyn Tx,
    ids: &crate::outbox::EventSource,
    id: EventId,
    before: &Person,
    after: &Person,
    now: OffsetDateTime,
) -> StoreResult<()> {
    let Some(data) = person_updated_json(before, after) else { return Ok(()) };
    let e = OutboxEvent {
        id,
        org_id: after.org_id,
        event_type: EventType::PersonUpdated,
        data: crate::events::EventData::of(&data),
        created_at: now,
        request_id: None,
    };
    crate::outbox::append(tx, ids, &e).await
}

async fn resolve(
    tx: &mut dyn Tx,
    org: OrgId,
    names: &[(TagName, TagId)],
    now: OffsetDateTime,
) -> Result<Vec<Tag>, UseCaseError> {
    if names.is_empty() {
        return Ok(vec![]);
    }
    let mut tags = tx.resolve_tags(org, names, now).await?;
    sort_tags(&mut tags);
    Ok(tags)
}

impl<S: Store> Services<S> {
    fn tag_ids(&self, names: Vec<TagName>) -> Vec<(TagName, TagId)> {
        names.into_iter().map(|n| (n, TagId(self.ids.new_uuid()))).collect()
    }

    /// `POST /persons`: create, merge or reactivate by email (spec state table; D12, D15).
    /// Errors: 409 `person_limit_reached` (details `used`, `limit`, `plan`), `person_deactivated`,
    /// `person_self_revoked`; 404 when the organization does not exist.
    /// Race-safe (T65): the organization row is locked in *shared* mode, so concurrent imports of one
    /// organization run side by side while it is far from its person limit: with `writers` the
    /// most transactions the database can have in flight ([`OrgRepo::concurrent_writers`](crate::ports::OrgRepo::concurrent_writers)), an import
    /// that sees `active + writers <= limit` cannot overshoot whatever the others do. Nearer the
    /// limit the transaction ends without writing and runs again with the row locked exclusively,
    /// which waits for every shared holder and counts exactly.
    ///
    /// [`OrgRepo::concurrent_writers`](crate::ports::OrgRepo::concurrent_writers): crate::ports::OrgRepo::concurrent_writers
    pub async fn import_person(&self, org_id: OrgId, input: ImportPerson) -> Result<ImportOutcome, UseCaseError> {
        Ok(self.import_or_order(org_id, input, None).await?.0)
    }

    /// [`Services::import_person`] under an `Idempotency-Key` (T223): the key is claimed and
    /// answered in the import's transaction. Errors: the import's, and the claim's (409
    /// `idempotency_key_reused`, 409 `conflict`).
    pub async fn import_person_keyed(
        &self,
        org_id: OrgId,
        input: ImportPerson,
        claim: Claim<ImportOutcome>,
    ) -> Result<Keyed<ImportOutcome>, UseCaseError> {
        Ok(self.import_keyed(org_id, input, None, Some(claim)).await?.0)
    }

    /// [`Services::import_person`], and with `order` the ATS order placed with it in the same
    /// transaction (D67): an open order of the same connection, ATS key and test is returned as
    /// it is (`false`) before anything is imported; else the person is imported, the invitation
    /// created (or the pending one taken) and the order inserted (`true`). The import's errors,
    /// and the order's: 404 (connection).
    pub(crate) async fn import_or_order(
        &self,
        org_id: OrgId,
        input: ImportPerson,
        order: Option<super::orders::Placement>,
    ) -> Result<(ImportOutcome, Option<(crate::connector::Order, bool)>), UseCaseError> {
        let (outcome, placed) = self.import_keyed(org_id, input, order, None).await?;
        Ok((super::idempotency::unkeyed(outcome)?, placed))
    }

    /// [`Services::import_or_order`], with the idempotency key of the request claimed and answered
    /// in the import's transaction when given (T223).
    async fn import_keyed(
        &self,
        org_id: OrgId,
        input: ImportPerson,
        order: Option<super::orders::Placement>,
        claim: Option<Claim<ImportOutcome>>,
    ) -> Result<(Keyed<ImportOutcome>, Option<(crate::connector::Order, bool)>), UseCaseError> {
        // What answers the claim inside the transaction: the invitation's view needs the services.
        let viewer = claim.as_ref().map(|_| self.clone());
        let person_id = PersonId(self.ids.new_uuid());
        let human_id = HumanId(self.ids.new_uuid());
        let event_id = EventId(self.ids.new_uuid());
        let tag_names = self.tag_ids(input.tags.clone());
        let plans = self.plans.clone();
        let inv_id = InvitationId(self.ids.new_uuid());
        let email_id = EmailId(self.ids.new_uuid());
        // The nested invitation's token and link, made only when one is asked for: the HMAC and
        // the hash cost 19,000 instructions, for every import (T291).
        let (token_hash, url) = match input.invitation {
            Some(_) => (self.secrets.hash_token(&self.secrets.invitation_token(inv_id)), self.invitation_url(inv_id)),
            None => (Vec::new(), String::new()),
        };
        let mut exclusive = false;
        let mut raced = 0;
        // An order of an ATS that may place its key again (not `orders_once`) is first written
        // without looking for the open order it may repeat: the store refuses a second open order
        // of the key and test (`insert_order`'s `UniqueViolation`). Any failure of that attempt is
        // tried again with the lookup, so a repeated order and every refusal are answered as if
        // the lookup had come first; a new order saves its statement (T203).
        let mut optimistic = order.as_ref().is_some_and(|o| !o.once);
        let (outcome, inv, placed) = loop {
            let (input, tag_names, plans, order) = (input.clone(), tag_names.clone(), plans.clone(), order.clone());
            let look_first = !optimistic;
            let (token_hash, url, nested) = (token_hash.clone(), url.clone(), input.invitation);
            let (clock, kit, ids) = (self.clock.clone(), self.assessment.clone(), self.event_source());
            let texts = self.invites.texts.clone();
            let (claim, viewer) = (claim.clone(), viewer.clone());
            let attempt = self
                .store
                .write(move |tx| {
                    Box::pin(async move {
                        // Read once the transaction has its connection, not before the wait for
                        // one: createdAt and updatedAt stay close to the commit (T66).
                        let now = clock.now();
                        if let Some(replay) = super::idempotency::take(claim.as_ref(), tx, now).await? {
                            return Ok(Some(Keyed::Replayed(replay)));
                        }
                        // The organization, the member with this email and the count of active
                        // persons in one call: one round trip on PostgreSQL (T266).
                        let target = tx.lock_import_target(org_id, &input.email, exclusive).await?;
                        let ImportTarget { org, person: existing, active: used } =
                            target.ok_or_else(|| ClientError::not_found("Organization"))?;
                        if let Some(o) = order.as_ref().filter(|_| look_first) {
                            if let Some(done) = super::orders::placed_before(tx, org_id, o).await? {
                                return Ok(Some(Keyed::Ran(done)));
                            }
                        }
                        let transition = person::import_transition(existing.as_ref())?;
                        if transition.needs_seat() {
                            let plan = plans.get(&org.plan);
                            let limit = Plan::seats(plan);
                            if !exclusive && used.saturating_add(tx.concurrent_writers().await?) > limit {
                                // Near the limit: nothing is written yet; again, exclusively (T65).
                                if let Some(c) = &claim {
                                    c.release(tx).await?;
                                }
                                return Ok(None);
                            }
                            Plan::require_seat(plan, &org.plan, used)?;
                        }
                        let tags = resolve(tx, org_id, &tag_names, now).await?;
                        let fields = ImportFields {
                            first_name: input.first_name.clone(),
                            last_name: input.last_name.clone(),
                            external_id: input.external_id.clone(),
                            tags,
                        };
                        let mut new_human = false;
                        let outcome = match (transition, existing) {
                            (ImportTransition::MergeExisting, Some(mut p)) => {
                                let before = p.clone();
                                if person::merge_import(&mut p, &fields) {
                                    p.updated_at = now;
                                    tx.update_person(&p).await?;
                                    append_person_updated(tx, &ids, event_id, &before, &p, now).await?;
                                }
                                ImportOutcome { person: p, created: false, invitation: None }
                            }
                            (ImportTransition::Reactivate, Some(mut p)) => {
                                person::reactivate(&mut p, &fields, now);
                                // With consent, what was taken while archived becomes visible
                                // again (D42); without it the summary cannot change.
                                if p.shared_existing_profile {
                                    p.assessment =
                                        summarize(&tx.list_assessments_of_human(p.human_id).await?, &p, &kit.model);
                                }
                                tx.update_person(&p).await?;
                                crate::outbox::append(tx, &ids, &event(event_id, &p, EventType::PersonCreated, now))
                                    .await?;
                                ImportOutcome { person: p, created: true, invitation: None }
                            }
                            _ => {
                                let found = tx
                                    .ensure_human(human_id, &crate::organization::human_key(&input.email, &org), now)
                                    .await?;
                                new_human = found == human_id;
                                let human_id = found;
                                let labels = person::initial_labels(input.labels, &org, &input.email);
                                let who = NewMember { id: person_id, org_id, human_id, email: input.email };
                                let p = Person::new_member(who, fields, labels, JoinedVia::Api, now);
                                tx.insert_person(&p).await?;
                                crate::outbox::append(tx, &ids, &event(event_id, &p, EventType::PersonCreated, now))
                                    .await?;
                                ImportOutcome { person: p, created: true, invitation: None }
                            }
                        };
                        let inv = match nested {
                            None => None,
                            Some(n) => {
                                let p = &outcome.person;
                                let plan = plans.get(&org.plan).cloned();
                                let ctx = CreateCtx {
                                    ids: &ids,
                                    org: &org,
                                    plan: plan.as_ref(),
                                    id: inv_id,
                                    email_id,
                                    token_hash,
                                    url,
                                    now,
                                    known: Some(Known { person: p, new_human }),
                                    texts: &*texts,
                                    field_prefix: "invitation.",
                                };
                                let ni = NewInvitation {
                                    first_name: p.first_name.clone(),
                                    last_name: p.last_name.clone(),
                                    external_id: p.external_id.clone(),
                                    expires_in_days: n.expires_in_days,
                                    candidate: n.candidate,
                                    ..NewInvitation::new(p.email.clone(), n.send_email)
                                };
                                Some(create_in_tx(tx, ctx, ni, None).await?)
                            }
                        };
                        let placed = match (&order, &inv) {
                            (Some(o), Some((i, _, _))) => {
                                Some((super::orders::insert_order(tx, o, &outcome.person, i, now).await?, true))
                            }
                            _ => None,
                        };
                        if let (Some(c), Some(viewer)) = (&claim, &viewer) {
                            let invitation = inv.as_ref().map(|(i, _, _)| viewer.view(i.clone()));
                            c.answer(tx, &ImportOutcome { invitation, ..outcome.clone() }, now).await?;
                        }
                        Ok::<_, UseCaseError>(Some(Keyed::Ran((outcome, inv, placed))))
                    })
                })
                .await;
            let attempt = match attempt {
                Err(_) if optimistic => {
                    optimistic = false;
                    continue;
                }
                // Another import of this new email committed its person first (T70): nothing of
                // this attempt is kept; the next one finds that person and merges into it.
                Err(UseCaseError::Store(StoreError::UniqueViolation)) if raced < 3 => {
                    raced += 1;
                    continue;
                }
                other => other?,
            };
            match attempt {
                Some(Keyed::Ran(done)) => break done,
                Some(Keyed::Replayed(r)) => return Ok((Keyed::Replayed(r), None)),
                None => exclusive = true,
            }
        };
        let mut outcome = outcome;
        if let Some((inv, _, email)) = inv {
            if email.is_some() {
                self.wake_emails();
            }
            outcome.invitation = Some(self.view(inv));
        }
        Ok((Keyed::Ran(outcome), placed))
    }

    /// `GET /persons/{id}`: any status (D28). Errors: 404 `not_found` outside the organization.
    pub async fn get_person(&self, org_id: OrgId, id: PersonId) -> Result<Person, UseCaseError> {
        self.store
            .read_by_key(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_person(org_id, id).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Person").into())
    }

    /// `GET /persons`: one page, newest first. `q.limit` is the page size (1..100, checked by the
    /// caller); the store is asked for one more row to learn `hasMore`.
    pub async fn list_persons(&self, mut q: PersonQuery) -> Result<Page<Person>, UseCaseError> {
        let size = q.limit as usize;
        q.limit += 1;
        let mut items = self
            .store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.list_persons(&q).await?) }))
            .await?;
        let has_more = items.len() > size;
        items.truncate(size);
        Ok(Page { items, has_more })
    }

    /// `PATCH /persons/{id}` (D13, D16); `person.updated` when the Person changed (D47). Errors:
    /// 404, 409 `conflict` (name already set; an erased person, D44).
    pub async fn patch_person(&self, org_id: OrgId, id: PersonId, input: PatchPerson) -> Result<Person, UseCaseError> {
        let now = self.clock.now();
        let tag_names = input.tags.clone().map(|t| self.tag_ids(t));
        let ids = self.event_source();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut p = tx.get_person(org_id, id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    let before = p.clone();
                    let tags = match &tag_names {
                        Some(names) => Some(resolve(tx, org_id, names, now).await?),
                        None => None,
                    };
                    let patch = PersonPatch {
                        external_id: input.external_id,
                        first_name: input.first_name,
                        last_name: input.last_name,
                        labels: input.labels,
                        tags,
                    };
                    let eff = person::apply_patch(&mut p, patch, now)?;
                    if eff.employee_removed {
                        tx.remove_person_from_teams(p.id).await?;
                    }
                    if eff.changed {
                        tx.update_person(&p).await?;
                        append_person_updated(tx, &ids, EventId(ids.new_uuid()), &before, &p, now).await?;
                    }
                    Ok(p)
                })
            })
            .await
    }

    /// `DELETE /persons/{id}`: archive an active person; `person.archived`. Errors: 404 when no
    /// active person has this id.
    pub async fn archive_person(&self, org_id: OrgId, id: PersonId) -> Result<Person, UseCaseError> {
        self.archive_with(Some(org_id), id, ArchiveReason::Archived).await
    }

    /// Admin deactivation or the person's own withdrawal (D39): archives an active person with
    /// that reason (`person.archived`); on an archived person records the reason without a second
    /// event. Errors: 404.
    pub async fn admin_archive_person(&self, id: PersonId, reason: ArchiveReason) -> Result<Person, UseCaseError> {
        self.archive_with(None, id, reason).await
    }

    async fn archive_with(
        &self,
        org: Option<OrgId>,
        id: PersonId,
        reason: ArchiveReason,
    ) -> Result<Person, UseCaseError> {
        let now = self.clock.now();
        let event_id = EventId(self.ids.new_uuid());
        let (kit, ids) = (self.assessment.clone(), self.event_source());
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let found = match org {
                        Some(o) => tx.get_person(o, id).await?,
                        None => tx.get_person_any(id).await?,
                    };
                    let mut p =
                        found.ok_or_else(|| ClientError::new(Code::NotFound, "No active person with this id"))?;
                    let before = p.clone();
                    let was_active = person::archive(&mut p, reason, now)?;
                    if p.shared_existing_profile != before.shared_existing_profile {
                        // The withdrawal withdrew consent: the summary shrinks to the active
                        // periods (D42).
                        p.assessment = summarize(&tx.list_assessments_of_human(p.human_id).await?, &p, &kit.model);
                    }
                    if p != before {
                        tx.update_person(&p).await?;
                    }
                    if was_active {
                        crate::outbox::append(tx, &ids, &event(event_id, &p, EventType::PersonArchived, now)).await?;
                    } else {
                        // Already archived: a withdrawal still withdraws consent (D42), a change
                        // of the Person that an ATS's copy must follow (D47).
                        append_person_updated(tx, &ids, event_id, &before, &p, now).await?;
                    }
                    Ok::<_, UseCaseError>(p)
                })
            })
            .await
    }
}
