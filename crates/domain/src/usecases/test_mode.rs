//! Test mode's sandbox actions (D60): what a test-mode key (`tk_test_`) may do to its
//! organization's test twin that no live key can, so an integrator tries a whole flow without the
//! operator's admin token. Every action refuses a live key with 403 `test_key_required`.

use super::Services;
use crate::errors::{ClientError, Code, UseCaseError};
use crate::ids::PersonId;
use crate::organization::Organization;
use crate::person::Person;
use crate::ports::{EmailRecord, Store};
use crate::results::Assessment;
use crate::usecases::assessments::AssessmentCommand;

/// The most recorded emails `GET /api/v1/test/emails` returns.
pub const TEST_EMAILS_LIMIT: u32 = 200;

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
    /// `org` completes an assessment now, with responses generated from `seed` (default: from
    /// the assessment's id), exactly as if they had taken it: results, matches, the report and
    /// `assessment.completed` follow. Returns the person (as before the completion: its email and
    /// external id are what the answer names) and the assessment. Errors: 403
    /// `test_key_required` (a live key), 404 (not a person of the twin), 409 as completing an
    /// assessment (an archived person).
    pub async fn test_complete_assessment(
        &self,
        org: &Organization,
        person: PersonId,
        seed: Option<u64>,
    ) -> Result<(Person, Assessment), UseCaseError> {
        require_test(org)?;
        let p = self.get_person(org.id, person).await?;
        let a = self.admin_assessment(person, AssessmentCommand { complete: true, responses: None, seed }).await?;
        Ok((p, a))
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
