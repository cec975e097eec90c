//! [`AssessmentRepo`]: assessments, their need counts, and competency profiles (D10, D11, D23, D25).

use crate::assessment::NeedCounts;
use crate::ids::{AssessmentId, HumanId, OrgId, ProfileId};
use crate::person::{Person, ResultHolder};
use crate::ports::{BoxFuture, CountedAssessment, StoreResult};
use crate::results::{Assessment, Profile};

/// Assessments, their need counts, and competency profiles (D10, D11, D23, D25). Part of [`Tx`](super::Tx).
///
/// # Errors
/// Every method: [`StoreError::Unavailable`](crate::errors::StoreError::Unavailable) when the
/// database cannot be reached (answered 503, T87), `Internal` for any other failure;
/// `UniqueViolation` only where a method says so.
///
/// # Locking
/// On SQLite a write transaction holds the database's write lock from its start (`BEGIN
/// IMMEDIATE`, grouped commits, T75), so nothing below needs a row lock there. On PostgreSQL the
/// callers serialize per human through the person's row (a human's concurrent starts make one
/// running assessment).
pub trait AssessmentRepo: Send {
    /// Inserts an assessment.
    fn insert_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>>;
    /// Overwrites an assessment's state, completion time and responses.
    fn update_assessment<'a>(&'a mut self, a: &'a Assessment) -> BoxFuture<'a, StoreResult<()>>;
    /// Assessments of a human, oldest first.
    fn list_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Assessment>>>;
    /// Assessments of several humans, oldest first.
    fn list_assessments_of_humans<'a>(
        &'a mut self,
        humans: &'a [HumanId],
    ) -> BoxFuture<'a, StoreResult<Vec<Assessment>>>;
    /// Stores the [`NeedCounts`] of a completed assessment, so matching reads them instead of its
    /// responses (issue 11). Errors: `Internal`.
    fn set_need_counts<'a>(&'a mut self, id: AssessmentId, counts: &'a NeedCounts) -> BoxFuture<'a, StoreResult<()>>;
    /// The completed assessments of the humans of the organization's [`AssessmentRepo::list_result_holders`], in
    /// one query (no list of humans sent), in no particular order, *without* their responses (`responses`
    /// empty), each with its stored counts: `None` for one completed before counts were stored
    /// (the caller scores its responses instead). Visibility per membership (D11) is the caller's.
    /// Errors: `Internal`, also for counts that do not parse.
    fn list_completed_counts_of_result_holders(
        &mut self,
        org: OrgId,
    ) -> BoxFuture<'_, StoreResult<Vec<CountedAssessment>>>;
    /// Every membership of a human, in any organization and status.
    fn list_persons_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Person>>>;
    /// Active persons of an organization with at least one visible completed assessment, newest
    /// first (id descending).
    fn list_persons_with_results(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Person>>>;
    /// [`AssessmentRepo::list_persons_with_results`], only what matching needs of each ([`ResultHolder`]), newest
    /// first. Errors: `Internal`.
    fn list_result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ResultHolder>>>;

    /// Inserts a profile.
    fn insert_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>>;
    /// A profile of the organization.
    fn get_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<Option<Profile>>>;
    /// Profiles of the organization, newest first (id descending), with an id lower than `before`.
    fn list_profiles(
        &mut self,
        org: OrgId,
        before: Option<ProfileId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Profile>>>;
    /// Number of profiles of the organization.
    fn count_profiles(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>>;
    /// Overwrites a profile's name, description and competencies (the admin API, issue 16).
    fn update_profile<'a>(&'a mut self, p: &'a Profile) -> BoxFuture<'a, StoreResult<()>>;
    /// Deletes a profile of the organization; false when there was none.
    fn delete_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<bool>>;
}
