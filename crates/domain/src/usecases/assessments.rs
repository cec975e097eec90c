//! Assessments, results, profiles, matches and reports (D10, D11, D23-D27, D39).

use super::idempotency::{take, unkeyed, Claim, Keyed};
use super::{Page, Services};
use crate::assessment::{
    category, check_responses, match_percentage, need_counts, score, seed_responses, MatchCategory, NeedCounts,
    Response, Scorer, Scores,
};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::events::{EventData, EventType, OutboxEvent};
use crate::ids::*;
use crate::person::{Person, PersonStatus, ResultHolder};
use crate::ports::Ids as _;
use crate::ports::{ReportInput, Store, Tx};
use crate::results::{summarize, Assessment, AssessmentState, Profile, ProfileCompetency};
use crate::values::FieldErrors;
use crate::values::{Accommodations, Locale};
use crate::wire;
use serde_json::json;
use std::collections::HashMap;
use time::OffsetDateTime;

/// `POST /admin/v1/persons/{id}/assessments` (D39), parsed.
#[derive(Clone, Debug, Default)]
pub struct AssessmentCommand {
    /// False: start one (`in_progress`); true: complete one.
    pub complete: bool,
    /// Explicit responses (with `complete`).
    pub responses: Option<Vec<Response>>,
    /// Seed for generated responses (with `complete`); default: derived from the assessment id.
    pub seed: Option<u64>,
}

/// A person's results as one organization may see them (D11).
#[derive(Clone, Debug)]
pub struct PersonResults {
    /// The person.
    pub person: Person,
    /// Cumulative scores; `None` when no visible assessment is completed (`hasResults: false`).
    pub scores: Option<Scores>,
    /// `personality.markdown` and `generatedAt` (the latest visible completion, when the results
    /// last changed).
    pub personality: Option<(String, OffsetDateTime)>,
    /// The accommodations of the latest visible completed assessment (T218).
    pub accommodations: Option<Accommodations>,
}

/// What the accepted invitation of `person`'s membership granted (T218): the newest accepted
/// invitation of the membership that carries accommodations; none without one.
async fn granted_accommodations(
    tx: &mut dyn crate::ports::Tx,
    person: &Person,
    now: OffsetDateTime,
) -> Result<Option<Accommodations>, UseCaseError> {
    let q = crate::ports::InvitationQuery {
        org_id: Some(person.org_id),
        person_id: Some(person.id),
        status: Some(crate::invitation::InvitationStatus::Accepted),
        now: Some(now),
        limit: 20,
        ..Default::default()
    };
    Ok(tx.list_invitations(&q).await?.into_iter().find_map(|i| i.candidate.accommodations))
}

/// A profile match (D3, D26): percentage and category only.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// Person (membership id).
    pub person_id: PersonId,
    /// Profile.
    pub profile_id: ProfileId,
    /// 0..100.
    pub percentage: u8,
    /// D3 category.
    pub category: MatchCategory,
}

/// A new profile (admin API, D25), parsed: competencies as (id, weight).
#[derive(Clone, Debug)]
pub struct NewProfile {
    pub name: String,
    pub description: Option<String>,
    /// Weighted competencies.
    pub competencies: Vec<ProfileCompetency>,
}

/// A change of a profile (admin API, issue 16): `None` keeps a field; `description:
/// Some(None)` clears it.
#[derive(Clone, Debug, Default)]
pub struct ProfilePatch {
    pub name: Option<String>,
    pub description: Option<Option<String>>,
    pub competencies: Option<Vec<ProfileCompetency>>,
}

fn no_results() -> ClientError {
    ClientError::new(Code::NotFound, "The person has no completed assessment")
        .with_details(json!({"reason": "no_results"}))
}

/// The visible completed assessments of `p` among `all`, oldest first.
pub(crate) fn visible_completed<'a>(all: &'a [Assessment], p: &Person) -> Vec<&'a Assessment> {
    let sees = p.visibility();
    let mut v: Vec<&Assessment> = all
        .iter()
        .filter(|a| a.state == AssessmentState::Completed && a.human_id == p.human_id && a.visible_in(&sees))
        .collect();
    v.sort_by_key(|a| a.completed_at);
    v
}

impl<S: Store> Services<S> {
    pub(crate) fn scores_of(&self, all: &[Assessment], p: &Person) -> Option<(Scores, OffsetDateTime)> {
        let visible = visible_completed(all, p);
        let last = visible.iter().filter_map(|a| a.completed_at).max()?;
        let slices: Vec<&[Response]> = visible.iter().map(|a| a.responses.as_slice()).collect();
        Some((score(&self.assessment.model, &slices), last))
    }

    /// The accommodations of the latest visible completed assessment (T218).
    pub(crate) fn accommodations_of(&self, all: &[Assessment], p: &Person) -> Option<Accommodations> {
        visible_completed(all, p).into_iter().max_by_key(|a| a.completed_at).and_then(|a| a.accommodations.clone())
    }

    /// Starts or completes an assessment of the human behind a person (D39). A start writes
    /// `assessment.started` (D47) to the same organizations as completion would, and every
    /// membership whose `assessment` summary changed writes `person.updated` after those events
    /// (D47). Completion writes
    /// `assessment.completed` once per organization in which the human is an active member and
    /// may see it (D11), and refreshes every membership's `assessment` summary. Errors: 404
    /// (person), 400 (responses and seed together, responses that do not fit the model, responses
    /// without `complete`).
    pub async fn admin_assessment(
        &self,
        person_id: PersonId,
        cmd: AssessmentCommand,
    ) -> Result<Assessment, UseCaseError> {
        Ok(unkeyed(self.admin_assessment_keyed(person_id, cmd, None).await?)?.1)
    }

    /// [`Services::admin_assessment`], with the request's idempotency key claimed and answered
    /// (with the person and the assessment) in its transaction when given (T223; test mode's
    /// completion). Errors: the same, and the claim's (409).
    pub(crate) async fn admin_assessment_keyed(
        &self,
        person_id: PersonId,
        cmd: AssessmentCommand,
        claim: Option<Claim<(Person, Assessment)>>,
    ) -> Result<Keyed<(Person, Assessment)>, UseCaseError> {
        let mut errs = FieldErrors::default();
        if !cmd.complete && (cmd.responses.is_some() || cmd.seed.is_some()) {
            errs.push("complete", "responses and seed need complete: true");
        }
        if cmd.responses.is_some() && cmd.seed.is_some() {
            errs.push("seed", "give responses or seed, not both");
        }
        if let Some(r) = &cmd.responses {
            if r.is_empty() {
                errs.push("responses", "must contain at least one response");
            }
            if let Err(list) = check_responses(&self.assessment.model, r) {
                for (i, m) in list {
                    errs.push(format!("responses[{i}]"), m);
                }
            }
        }
        errs.into_result()?;
        let now = self.clock.now();
        let new_id = AssessmentId(self.ids.new_uuid());
        let (model, id_source) = (self.assessment.clone(), self.event_source());
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    if let Some(replay) = take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    let person = tx.get_person_any(person_id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    let memberships = tx.list_persons_of_human(person.human_id).await?;
                    let mut all = tx.list_assessments_of_human(person.human_id).await?;
                    let running = all.iter().position(|a| a.state == AssessmentState::InProgress);
                    // T218: a new assessment takes what the membership's invitation granted.
                    let granted = match running {
                        Some(i) => all[i].accommodations.clone(),
                        None => granted_accommodations(tx, &person, now).await?,
                    };
                    let done = if !cmd.complete {
                        if let Some(i) = running {
                            let out = (person, all[i].clone());
                            if let Some(c) = &claim {
                                c.answer(tx, &out, now).await?;
                            }
                            return Ok(Keyed::Ran(out));
                        }
                        let a = Assessment {
                            id: new_id,
                            human_id: person.human_id,
                            // D51: started for this membership's organization.
                            origin_org: Some(person.org_id),
                            state: AssessmentState::InProgress,
                            started_at: now,
                            completed_at: None,
                            responses: vec![],
                            accommodations: granted,
                        };
                        tx.insert_assessment(&a).await?;
                        all.push(a.clone());
                        a
                    } else {
                        let id = running.map(|i| all[i].id).unwrap_or(new_id);
                        let responses = match (cmd.responses, cmd.seed) {
                            (Some(r), _) => r,
                            (None, Some(seed)) => seed_responses(&model.model, seed),
                            (None, None) => seed_responses(&model.model, id.0.as_u64_pair().1),
                        };
                        let a = Assessment {
                            id,
                            human_id: person.human_id,
                            // D51: a running assessment keeps the organization that started it.
                            origin_org: match running {
                                Some(i) => all[i].origin_org,
                                None => Some(person.org_id),
                            },
                            state: AssessmentState::Completed,
                            started_at: running.map(|i| all[i].started_at).unwrap_or(now),
                            completed_at: Some(now),
                            responses,
                            accommodations: granted,
                        };
                        match running {
                            Some(i) => {
                                tx.update_assessment(&a).await?;
                                all[i] = a.clone();
                            }
                            None => {
                                tx.insert_assessment(&a).await?;
                                all.push(a.clone());
                            }
                        }
                        tx.set_need_counts(a.id, &need_counts(&model.model, &a.responses)).await?;
                        a
                    };
                    let refreshed = refresh_summaries(tx, &memberships, &all, &model.model, now).await?;
                    // Completion (and, D47, a start) once per organization in which the human
                    // is an active member that may see it.
                    for p in memberships.iter().filter(|p| p.status == PersonStatus::Active && done.visible_to(p)) {
                        let (person_id, assessment_id) = (p.id.0, done.id.0);
                        let email = p.email.as_str().to_string();
                        let external_id = p.external_id.as_ref().map(|x| x.as_str().to_string());
                        let (event_type, data) = match done.state {
                            AssessmentState::InProgress => (
                                EventType::AssessmentStarted,
                                EventData::of(&wire::AssessmentStartedData {
                                    person_id,
                                    email,
                                    external_id,
                                    assessment_id,
                                    started_at: done.started_at,
                                    accommodations: done.accommodations.as_ref().map(wire::AccommodationsOut::new),
                                }),
                            ),
                            AssessmentState::Completed => (
                                EventType::AssessmentCompleted,
                                EventData::of(&wire::AssessmentCompletedData {
                                    person_id,
                                    email,
                                    external_id,
                                    assessment_id,
                                    // A completed assessment has its completion time.
                                    completed_at: done.completed_at.unwrap_or(now),
                                    accommodations: done.accommodations.as_ref().map(wire::AccommodationsOut::new),
                                }),
                            ),
                        };
                        let e = OutboxEvent {
                            id: EventId(id_source.new_uuid()),
                            org_id: p.org_id,
                            event_type,
                            data,
                            created_at: now,
                            request_id: None,
                        };
                        crate::outbox::append(tx, &id_source, &e).await?;
                    }
                    // Each Person whose `assessment` summary changed (D47), after the assessment's
                    // own events.
                    for (before, after) in &refreshed {
                        let id = EventId(id_source.new_uuid());
                        super::persons::append_person_updated(tx, &id_source, id, before, after, now).await?;
                    }
                    let out = (person, done);
                    if let Some(c) = &claim {
                        c.answer(tx, &out, now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(out))
                })
            })
            .await
    }

    /// `GET /persons/{id}/results` (spec; D11, D24, D28). Errors: 404 outside the organization.
    pub async fn results(&self, org: OrgId, person_id: PersonId) -> Result<PersonResults, UseCaseError> {
        let (person, all) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let p = tx.get_person(org, person_id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    let all = tx.list_assessments_of_human(p.human_id).await?;
                    Ok::<_, UseCaseError>((p, all))
                })
            })
            .await?;
        let scored = self.scores_of(&all, &person);
        // The API's results are in English (T222); the report writes its own in its language.
        let personality = scored
            .as_ref()
            .map(|(s, at)| (self.assessment.personality.describe(&self.assessment.model, s, Locale::En), *at));
        let accommodations = self.accommodations_of(&all, &person);
        Ok(PersonResults { person, scores: scored.map(|(s, _)| s), personality, accommodations })
    }

    /// `GET /persons/{id}/report` (D27): the PDF of one person. Errors: 404 outside the
    /// organization; 404 `{"reason":"no_results"}` without a visible completed assessment.
    ///
    /// The report's words are in `locale` when given (T217), else in the language of the
    /// person's newest invitation that names one, else in the organization's; its dates in that
    /// invitation's time zone, else the organization's.
    pub async fn report(
        &self,
        org: OrgId,
        person_id: PersonId,
        locale: Option<Locale>,
    ) -> Result<(Person, Vec<u8>), UseCaseError> {
        let r = self.results(org, person_id).await?;
        let (Some(scores), Some((_, at))) = (&r.scores, &r.personality) else {
            return Err(no_results().into());
        };
        let now = self.clock.now();
        let (defaults, invited) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let o = tx.get_org(org).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let q = crate::ports::InvitationQuery {
                        org_id: Some(org),
                        person_id: Some(person_id),
                        now: Some(now),
                        limit: 20,
                        ..Default::default()
                    };
                    let invited: Vec<_> = tx.list_invitations(&q).await?.into_iter().map(|i| i.candidate).collect();
                    Ok::<_, UseCaseError>((o.candidate, invited))
                })
            })
            .await?;
        let locale = locale.or_else(|| invited.iter().find_map(|c| c.locale)).unwrap_or(defaults.locale);
        let zone = invited.iter().find_map(|c| c.time_zone.clone()).unwrap_or(defaults.time_zone);
        let text = self.assessment.personality.describe(&self.assessment.model, scores, locale);
        let input = ReportInput {
            person: &r.person,
            completed_at: *at,
            model: &self.assessment.model,
            scores,
            personality: &text,
            locale,
            zone,
            accommodations: r.accommodations.as_ref(),
        };
        let pdf = self.assessment.reports.render(&input).map_err(|e| UseCaseError::Internal(format!("report: {e}")))?;
        Ok((r.person, pdf))
    }

    /// The checked fields of a profile (D25): trimmed name and description. Errors: 400 as
    /// [`Services::create_profile`] says.
    fn check_profile(&self, n: &NewProfile) -> Result<(String, Option<String>), FieldErrors> {
        let mut errs = FieldErrors::default();
        let name = n.name.trim().to_string();
        if !(1..=200).contains(&name.chars().count()) {
            errs.push("name", "must be 1 to 200 characters");
        } else if let Err(m) = crate::values::single_line(&name) {
            errs.push("name", m);
        }
        if n.description.as_ref().is_some_and(|d| d.chars().count() > 2000) {
            errs.push("description", "must be at most 2000 characters");
        } else if let Some(Err(m)) = n.description.as_deref().map(crate::values::multi_line) {
            errs.push("description", m);
        }
        if n.competencies.is_empty() {
            errs.push("competencies", "must contain at least one competency");
        }
        for (i, c) in n.competencies.iter().enumerate() {
            if self.assessment.model.competency(c.competency_id).is_none() {
                errs.push(format!("competencies[{i}].competencyId"), "unknown competency");
            } else if n.competencies[..i].iter().any(|x| x.competency_id == c.competency_id) {
                errs.push(format!("competencies[{i}].competencyId"), "duplicate competency");
            }
            if !(0.0..=1.0).contains(&c.weight) || !c.weight.is_finite() {
                errs.push(format!("competencies[{i}].weight"), "must be between 0 and 1");
            }
        }
        if !n.competencies.is_empty() && n.competencies.iter().all(|c| c.weight <= 0.0) {
            errs.push("competencies", "at least one weight must be greater than 0");
        }
        errs.into_result()?;
        Ok((name, n.description.as_ref().map(|d| d.trim().to_string()).filter(|d| !d.is_empty())))
    }

    /// Creates a profile (admin API, D25). Errors: 404 (organization), 400 (unknown competency,
    /// duplicate, weight outside [0, 1], no positive weight), 409 `conflict` when the plan's profile
    /// limit is reached (D5).
    pub async fn create_profile(&self, org: OrgId, n: NewProfile) -> Result<Profile, UseCaseError> {
        let (name, description) = self.check_profile(&n)?;
        let now = self.clock.now();
        let profile = Profile {
            id: ProfileId(self.ids.new_uuid()),
            org_id: org,
            name,
            description,
            competencies: n.competencies,
            created_at: now,
            updated_at: now,
        };
        let plans = self.plans.clone();
        let p = profile.clone();
        let ids = self.ids.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let o = tx.lock_org(org).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    let used = tx.count_profiles(org).await?;
                    let limit = plans.get(&o.plan).map(|p| p.profile_limit).unwrap_or(0);
                    if used >= limit {
                        return Err(ClientError::new(
                            Code::Conflict,
                            format!("The plan's profile limit of {limit} is reached"),
                        )
                        .with_details(json!({"used": used, "limit": limit, "plan": o.plan}))
                        .into());
                    }
                    tx.insert_profile(&p).await?;
                    // An ATS that keeps a list of the tests hears of the new one (D81).
                    crate::connector::sync_packages(tx, &*ids, org, None, now).await?;
                    Ok::<_, UseCaseError>(())
                })
            })
            .await?;
        Ok(profile)
    }

    /// Changes a profile's name, description or competencies (admin API, issue 16): the fields
    /// given replace the stored ones, and the result is held to the rules of creation; matches
    /// follow at once (they are computed on read, T85). Errors: 404, 400 as
    /// [`Services::create_profile`].
    pub async fn update_profile(
        &self,
        org: OrgId,
        id: ProfileId,
        patch: ProfilePatch,
    ) -> Result<Profile, UseCaseError> {
        let now = self.clock.now();
        let current = self.get_profile(org, id).await?;
        let merged = NewProfile {
            name: patch.name.unwrap_or(current.name),
            description: patch.description.unwrap_or(current.description),
            competencies: patch.competencies.unwrap_or(current.competencies),
        };
        let (name, description) = self.check_profile(&merged)?;
        let ids = self.ids.clone();
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let mut p = tx.get_profile(org, id).await?.ok_or_else(|| ClientError::not_found("Profile"))?;
                    p.name = name;
                    p.description = description;
                    p.competencies = merged.competencies;
                    p.updated_at = now;
                    tx.update_profile(&p).await?;
                    crate::connector::sync_packages(tx, &*ids, org, None, now).await?;
                    Ok::<_, UseCaseError>(p)
                })
            })
            .await
    }

    /// Deletes a profile (admin API, issue 16); it frees a place of the plan's profile limit.
    /// Errors: 404.
    pub async fn delete_profile(&self, org: OrgId, id: ProfileId) -> Result<(), UseCaseError> {
        let now = self.clock.now();
        let ids = self.ids.clone();
        let gone = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let gone = tx.delete_profile(org, id).await?;
                    if gone {
                        crate::connector::sync_packages(tx, &*ids, org, None, now).await?;
                    }
                    Ok::<_, UseCaseError>(gone)
                })
            })
            .await?;
        if gone {
            Ok(())
        } else {
            Err(ClientError::not_found("Profile").into())
        }
    }

    /// `GET /profiles/{id}` (D25). Errors: 404.
    pub async fn get_profile(&self, org: OrgId, id: ProfileId) -> Result<Profile, UseCaseError> {
        self.store
            .read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.get_profile(org, id).await?) }))
            .await?
            .ok_or_else(|| ClientError::not_found("Profile").into())
    }

    /// `GET /profiles` (D25): newest first, keyset-paginated.
    pub async fn list_profiles(
        &self,
        org: OrgId,
        before: Option<ProfileId>,
        limit: u32,
    ) -> Result<Page<Profile>, UseCaseError> {
        let mut items = self
            .store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.list_profiles(org, before, limit + 1).await?) })
            })
            .await?;
        let has_more = items.len() > limit as usize;
        items.truncate(limit as usize);
        Ok(Page { items, has_more })
    }

    /// `GET /persons/{id}/matches` (D26): one match per profile of the organization, highest first.
    /// Errors: 404 outside the organization; 404 `{"reason":"no_results"}` without results.
    /// `profiles` is the organization whose profiles are matched: `org` itself, or, for a test
    /// twin, its live organization (D60: a twin reads its live organization's profiles).
    pub async fn person_matches(
        &self,
        org: OrgId,
        profiles: OrgId,
        person_id: PersonId,
    ) -> Result<Vec<Match>, UseCaseError> {
        let (person, all, profiles) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let p = tx.get_person(org, person_id).await?.ok_or_else(|| ClientError::not_found("Person"))?;
                    let all = tx.list_assessments_of_human(p.human_id).await?;
                    let profiles = tx.list_profiles(profiles, None, u32::MAX).await?;
                    Ok::<_, UseCaseError>((p, all, profiles))
                })
            })
            .await?;
        let (scores, _) = self.scores_of(&all, &person).ok_or_else(no_results)?;
        let mut v: Vec<Match> = profiles
            .iter()
            .map(|pr| match_at(person.id, pr, match_percentage(&profile_weights(pr), &scores)))
            .collect();
        v.sort_by(|a, b| b.percentage.cmp(&a.percentage).then(b.profile_id.cmp(&a.profile_id)));
        Ok(v)
    }

    /// `GET /profiles/{id}/matches` (D26): active persons with results, highest percentage first
    /// (ties: newest person first), keyset after `(percentage, personId)`; optional `personId`
    /// filter; the profile is one of `profiles` (as [`Services::person_matches`]). Errors: 404
    /// (profile).
    pub async fn profile_matches(
        &self,
        org: OrgId,
        profiles: OrgId,
        profile_id: ProfileId,
        person: Option<PersonId>,
        after: Option<(u8, PersonId)>,
        limit: u32,
    ) -> Result<Page<Match>, UseCaseError> {
        let model = self.assessment.clone();
        let (profile, persons, counted) = self
            .store
            .read(move |tx| {
                Box::pin(async move {
                    let profile =
                        tx.get_profile(profiles, profile_id).await?.ok_or_else(|| ClientError::not_found("Profile"))?;
                    let persons: Vec<ResultHolder> = tx
                        .list_result_holders(org)
                        .await?
                        .into_iter()
                        .filter(|p| person.is_none_or(|id| p.person_id == id))
                        .collect();
                    // Each person's stored totals (T85); the assessments' own counts only for
                    // rows written before totals were stored or counted with another model, and
                    // responses only where those counts are missing or stale too.
                    let fits = |c: &Option<NeedCounts>| c.as_ref().is_some_and(|c| c.fits(&model.model));
                    let mut counted = Vec::new();
                    if persons.iter().any(|p| !fits(&p.totals)) {
                        counted = tx.list_completed_counts_of_result_holders(org).await?;
                        let legacy: Vec<HumanId> =
                            counted.iter().filter(|(_, c)| !fits(c)).map(|(a, _)| a.human_id).collect();
                        if !legacy.is_empty() {
                            let full = tx.list_assessments_of_humans(&legacy).await?;
                            for (a, c) in counted.iter_mut().filter(|(_, c)| !fits(c)) {
                                if let Some(f) = full.iter().find(|f| f.id == a.id) {
                                    *c = Some(need_counts(&model.model, &f.responses));
                                }
                            }
                        }
                    }
                    Ok::<_, UseCaseError>((profile, persons, counted))
                })
            })
            .await?;
        let mut by_human: HashMap<HumanId, Vec<&(Assessment, Option<NeedCounts>)>> = HashMap::new();
        for c in &counted {
            by_human.entry(c.0.human_id).or_default().push(c);
        }
        let scorer = Scorer::new(&self.assessment.model);
        let weights = profile_weights(&profile);
        let mut v: Vec<Match> = persons
            .iter()
            .filter_map(|p| {
                if let Some(t) = p.totals.as_ref().filter(|t| t.fits(&self.assessment.model)) {
                    return Some(match_at(p.person_id, &profile, scorer.match_percentage(&[t], &weights)));
                }
                let visible: Vec<&NeedCounts> = by_human
                    .get(&p.human_id)?
                    .iter()
                    .filter(|(a, _)| a.visible_in(&p.visibility))
                    .filter_map(|(_, c)| c.as_ref())
                    .collect();
                if visible.is_empty() {
                    return None;
                }
                Some(match_at(p.person_id, &profile, scorer.match_percentage(&visible, &weights)))
            })
            .collect();
        v.sort_by(|a, b| b.percentage.cmp(&a.percentage).then(b.person_id.cmp(&a.person_id)));
        if let Some((pct, pid)) = after {
            v.retain(|m| m.percentage < pct || (m.percentage == pct && m.person_id < pid));
        }
        let has_more = v.len() > limit as usize;
        v.truncate(limit as usize);
        Ok(Page { items: v, has_more })
    }

    /// Profiles of an organization in use (`usage.profiles.used`).
    pub async fn profiles_used(&self, org: OrgId) -> Result<u32, UseCaseError> {
        self.store.read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.count_profiles(org).await?) })).await
    }
}

/// A profile's (competency id, weight) pairs, as [`match_percentage`] takes them.
pub(crate) fn profile_weights(profile: &Profile) -> Vec<(uuid::Uuid, f64)> {
    profile.competencies.iter().map(|c| (c.competency_id, c.weight)).collect()
}

/// The match of `person`'s `scores` with `profile` (D26, D3's category): what an ATS receives of
/// a profile test (D66).
pub(crate) fn profile_match(person: PersonId, profile: &Profile, scores: &Scores) -> Match {
    match_at(person, profile, match_percentage(&profile_weights(profile), scores))
}

/// The match of a person with a profile at `percentage` (D3's category).
fn match_at(person: PersonId, profile: &Profile, percentage: u8) -> Match {
    Match { person_id: person, profile_id: profile.id, percentage, category: category(percentage) }
}

/// Recomputes every membership's visible summary (D11) and writes the ones that changed;
/// returns them as (before, after).
pub(crate) async fn refresh_summaries(
    tx: &mut dyn Tx,
    memberships: &[Person],
    all: &[Assessment],
    model: &crate::assessment::AssessmentModel,
    now: OffsetDateTime,
) -> Result<Vec<(Person, Person)>, UseCaseError> {
    let mut changed = vec![];
    for p in memberships {
        let s = summarize(all, p, model);
        if s != p.assessment {
            let mut q = p.clone();
            q.assessment = s;
            q.updated_at = now;
            tx.update_person(&q).await?;
            changed.push((p.clone(), q));
        }
    }
    Ok(changed)
}
