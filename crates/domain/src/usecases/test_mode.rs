//! Test mode's sandbox actions (D60): what a test-mode key (`tk_test_`) may do to its
//! organization's test twin that no live key can, so an integrator tries a whole flow without the
//! operator's admin token. Every action refuses a live key with 403 `test_key_required`.

use super::idempotency::{unkeyed, Claim, Keyed};
use super::Services;
use crate::assessment::{need_counts, steer_responses, MatchCategory, NeedCounts};
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::{EmailId, OrgId, PersonId, ProfileId};
use crate::organization::Organization;
use crate::person::Person;
use crate::ports::{EmailRecord, Store, Tx};
use crate::results::Assessment;
use crate::usecases::assessments::{profile_weights, visible_completed, AssessmentCommand};
use crate::values::FieldErrors;

/// The most recorded emails `GET /api/v1/test/emails` returns.
pub const TEST_EMAILS_LIMIT: u32 = 200;

/// What `POST /api/v1/test/persons/{id}/complete-assessment` asks for (D60).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TestCompletion {
    /// Generates the responses: the same seed gives the same responses.
    pub seed: Option<u64>,
    /// Steer the match with this profile into this category.
    pub target: Option<(ProfileId, MatchCategory)>,
}

/// The longest step of [`Services::test_advance_clock`]: ten years, in seconds.
pub const MAX_ADVANCE_SECONDS: i64 = 10 * 365 * 86_400;

/// What [`Services::test_advance_clock`] did (D60).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockAdvanced {
    /// How far the clock moved, in seconds.
    pub seconds: i64,
    /// Invitations that expired.
    pub expired: u32,
    /// Invitations reminded (their reminder emails recorded).
    pub reminded: u32,
}

/// 403 `test_key_required` unless `org` is a test twin (D60).
fn require_test(org: &Organization) -> Result<(), UseCaseError> {
    if org.is_test() {
        Ok(())
    } else {
        Err(ClientError::new(
            Code::TestKeyRequired,
            "Sandbox actions need a test-mode key (tk_test_); this key acts on live data",
        )
        .into())
    }
}

impl<S: Store> Services<S> {
    /// `POST /api/v1/test/persons/{id}/complete-assessment` (D60): the person of the test twin
    /// `org` completes an assessment now, with responses generated from `c.seed` (default: from
    /// the assessment's id, or from the person's id when steered), exactly as if they had taken
    /// it: results, matches, the report and `assessment.completed` follow. With `c.target`, the
    /// responses are steered so that the person's match with that profile (one of the live
    /// organization's profiles, which the twin reads) falls in that category, counted with the
    /// person's earlier visible results. Returns the person (as before the completion: its email
    /// and external id are what the answer names) and the assessment. Errors: 403
    /// `test_key_required` (a live key), 404 (not a person of the twin), 400 `profileId` (no such
    /// profile) or `targetCategory` (the profile cannot reach it), 409 as completing an
    /// assessment (an archived person).
    pub async fn test_complete_assessment(
        &self,
        org: &Organization,
        person: PersonId,
        c: TestCompletion,
    ) -> Result<(Person, Assessment), UseCaseError> {
        unkeyed(self.test_complete_assessment_keyed(org, person, c, None).await?)
    }

    /// [`Services::test_complete_assessment`], with the request's idempotency key claimed and
    /// answered in the completion's transaction when given (T223). Errors: the same, and the
    /// claim's (409).
    pub async fn test_complete_assessment_keyed(
        &self,
        org: &Organization,
        person: PersonId,
        c: TestCompletion,
        claim: Option<Claim<(Person, Assessment)>>,
    ) -> Result<Keyed<(Person, Assessment)>, UseCaseError> {
        require_test(org)?;
        let p = self.get_person(org.id, person).await?;
        let responses = match c.target {
            None => None,
            Some((profile_id, target)) => {
                let (live, human) = (org.live_id(), p.human_id);
                let (profile, all) = self
                    .store
                    .read(move |tx| {
                        Box::pin(async move {
                            let profile = tx.get_profile(live, profile_id).await?;
                            Ok::<_, UseCaseError>((profile, tx.list_assessments_of_human(human).await?))
                        })
                    })
                    .await?;
                let Some(profile) = profile else {
                    return Err(FieldErrors::one("profileId", "no profile with this id").into());
                };
                let model = &self.assessment.model;
                let prior: Vec<NeedCounts> =
                    visible_completed(&all, &p).iter().map(|a| need_counts(model, &a.responses)).collect();
                let prior: Vec<&NeedCounts> = prior.iter().collect();
                let weights = profile_weights(&profile);
                let seed = c.seed.unwrap_or(person.0.as_u64_pair().1);
                match steer_responses(model, seed, &prior, &weights, target) {
                    Some(r) => Some(r),
                    None => {
                        return Err(FieldErrors::one(
                            "targetCategory",
                            format!("this profile's competencies cannot reach a {} match", target.as_str()),
                        )
                        .into())
                    }
                }
            }
        };
        // Steered responses carry their seed already.
        let seed = if responses.is_some() { None } else { c.seed };
        self.admin_assessment_keyed(person, AssessmentCommand { complete: true, responses, seed }, claim).await
    }

    /// `POST /api/v1/test/clock/advance` (D60): the test twin `org`'s clock moves `seconds`
    /// forward. Its data ages by `seconds` in one transaction ([`OrgRepo::age_test_data`]:
    /// invitations, codes, emails, events, deliveries, idempotency records), then its invitations
    /// are swept at once: expiry and reminders follow before the answer; a webhook retry that
    /// fell due is sent by the delivery engine, which is woken; retention removes what aged past
    /// its window at its next run. Live data and other organizations are untouched. Errors: 403
    /// `test_key_required` (a live key), 400 `seconds` outside 1..=[`MAX_ADVANCE_SECONDS`].
    ///
    /// [`OrgRepo::age_test_data`]: crate::ports::OrgRepo::age_test_data
    pub async fn test_advance_clock(&self, org: &Organization, seconds: i64) -> Result<ClockAdvanced, UseCaseError> {
        unkeyed(self.test_advance_clock_keyed(org, seconds, None).await?)
    }

    /// [`Services::test_advance_clock`] with the request's idempotency key claimed and answered in
    /// the advance's transaction when given (T223, T232): the ageing, the sweep of the twin's
    /// invitations that fell due and the answer commit together, so a crash leaves all of it or
    /// none. Errors: the same, and the claim's (409).
    pub async fn test_advance_clock_keyed(
        &self,
        org: &Organization,
        seconds: i64,
        claim: Option<Claim<ClockAdvanced>>,
    ) -> Result<Keyed<ClockAdvanced>, UseCaseError> {
        require_test(org)?;
        if !(1..=MAX_ADVANCE_SECONDS).contains(&seconds) {
            return Err(FieldErrors::one(
                "seconds",
                format!("must be between 1 and {MAX_ADVANCE_SECONDS} (ten years; the clock only moves forward)"),
            )
            .into());
        }
        let twin = org.id;
        let svc = self.clone();
        let done = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let now = svc.clock.now();
                    if let Some(replay) = super::idempotency::take(claim.as_ref(), tx, now).await? {
                        return Ok(Keyed::Replayed(replay));
                    }
                    // Advances of one twin take turns: each ages every row, and two at once would
                    // lock the same rows, possibly in different orders.
                    tx.lock_org(twin).await?;
                    tx.age_test_data(twin, seconds).await?;
                    let (expired, reminded) = svc.sweep_twin_in_tx(tx, twin, now).await?;
                    let out = ClockAdvanced { seconds, expired, reminded };
                    // After the ageing, which moved the claim's own record back with the twin's.
                    if let Some(c) = &claim {
                        c.answer(tx, &out, now).await?;
                    }
                    Ok::<_, UseCaseError>(Keyed::Ran(out))
                })
            })
            .await?;
        if matches!(done, Keyed::Ran(ClockAdvanced { reminded: 1.., .. })) {
            self.wake_emails();
        }
        Ok(done)
    }

    /// The invitation sweep of the twin `twin` inside the advance's transaction: every invitation
    /// that fell due expires, every reminder that fell due is queued, 500 of each per read until
    /// fewer are left. Returns (expired, reminded). Errors: the store's.
    async fn sweep_twin_in_tx(
        &self,
        tx: &mut dyn Tx,
        twin: OrgId,
        now: time::OffsetDateTime,
    ) -> Result<(u32, u32), UseCaseError> {
        use super::invitations::{expire_in_tx, remind_in_tx, REMINDER_AFTER};
        let (mut expired, mut reminded) = (0, 0);
        loop {
            let due = tx.list_due_invitations(Some(twin), now, 500).await?;
            let n = due.len();
            for id in due {
                expired += u32::from(expire_in_tx(tx, &self.event_source(), id, &self.invitation_url(id), now).await?);
            }
            if n < 500 {
                break;
            }
        }
        loop {
            let due = tx.list_reminders_due(Some(twin), now - REMINDER_AFTER, now, 500).await?;
            let n = due.len();
            for id in due {
                let (email, url) = (EmailId(self.ids.new_uuid()), self.invitation_url(id));
                let texts = &*self.invites.texts;
                reminded += u32::from(remind_in_tx(tx, texts, &self.event_source(), (id, email), &url, now).await?);
            }
            if n < 500 {
                break;
            }
        }
        Ok((expired, reminded))
    }

    /// The test twin of the live organization `live` (D60), if it has one (the dashboard in test
    /// mode reads it on every page). Errors: the store's.
    pub async fn test_twin_of(&self, live: OrgId) -> Result<Option<Organization>, UseCaseError> {
        self.store.read(move |tx| Box::pin(async move { Ok::<_, UseCaseError>(tx.find_test_twin(live).await?) })).await
    }

    /// The test twin of the live organization `live` (D60), made now if it has none (the
    /// dashboard's switch to test mode), under the organization's lock as a test key's creation.
    /// Errors: 404 when `live` does not exist or is itself a twin.
    pub async fn ensure_test_twin(&self, live: OrgId) -> Result<Organization, UseCaseError> {
        if let Some(twin) = self.test_twin_of(live).await? {
            return Ok(twin);
        }
        let (new_id, now) = (OrgId(self.ids.new_uuid()), self.clock.now());
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    let org = tx.lock_org(live).await?.ok_or_else(|| ClientError::not_found("Organization"))?;
                    if org.is_test() {
                        return Err(ClientError::not_found("Organization").into());
                    }
                    crate::usecases::orgs::test_twin_in_tx(tx, live, new_id, now).await
                })
            })
            .await
    }

    /// `GET /api/v1/test/emails` (D60): the emails of the test twin `org`, newest first, at most
    /// [`TEST_EMAILS_LIMIT`]; a test twin's emails are recorded as sent, never sent. Errors: 403
    /// `test_key_required` (a live key).
    pub async fn test_emails(&self, org: &Organization) -> Result<Vec<EmailRecord>, UseCaseError> {
        require_test(org)?;
        let id = org.id;
        self.store
            .read(move |tx| {
                Box::pin(async move { Ok::<_, UseCaseError>(tx.list_emails_of_org(id, TEST_EMAILS_LIMIT).await?) })
            })
            .await
    }
}
