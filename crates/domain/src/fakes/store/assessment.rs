//! [`AssessmentRepo`] on the fake: assessments, their need counts, and profiles.

use super::{all, first, newest, ok, remove, replace, FakeTx};
use crate::assessment::NeedCounts;
use crate::ids::{AssessmentId, HumanId, OrgId, ProfileId};
use crate::person::{Person, PersonStatus, ResultHolder};
use crate::ports::{AssessmentRepo, BoxFuture, CountedAssessment, StoreResult};
use crate::results::{Assessment, AssessmentState, Profile};

impl AssessmentRepo for FakeTx {
    insert_and_update!(insert_assessment, update_assessment, assessments: Assessment);
    fn list_assessments_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Assessment>>> {
        ok(oldest_first(all(&self.s.assessments, |a| a.human_id == human)))
    }
    fn list_assessments_of_humans<'a>(
        &'a mut self,
        humans: &'a [HumanId],
    ) -> BoxFuture<'a, StoreResult<Vec<Assessment>>> {
        ok(oldest_first(all(&self.s.assessments, |a| humans.contains(&a.human_id))))
    }
    fn set_need_counts<'a>(&'a mut self, id: AssessmentId, counts: &'a NeedCounts) -> BoxFuture<'a, StoreResult<()>> {
        remove(&mut self.s.need_counts, |(a, _)| *a == id);
        self.s.need_counts.push((id, counts.clone()));
        ok(())
    }
    fn list_completed_counts_of_result_holders(
        &mut self,
        org: OrgId,
    ) -> BoxFuture<'_, StoreResult<Vec<CountedAssessment>>> {
        let humans: Vec<HumanId> =
            self.s.persons.iter().filter(|p| holds_results(p, org)).map(|p| p.human_id).collect();
        let counts = &self.s.need_counts;
        ok(self
            .s
            .assessments
            .iter()
            .filter(|a| humans.contains(&a.human_id) && a.state == AssessmentState::Completed)
            .map(|a| {
                let c = counts.iter().find(|(id, _)| *id == a.id).map(|(_, c)| c.clone());
                (Assessment { responses: vec![], ..a.clone() }, c)
            })
            .collect())
    }
    fn list_persons_of_human(&mut self, human: HumanId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
        ok(all(&self.s.persons, |p| p.human_id == human))
    }
    fn list_persons_with_results(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<Person>>> {
        ok(newest(all(&self.s.persons, |p| holds_results(p, org)), |p| p.id.0, u32::MAX))
    }
    fn list_result_holders(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<Vec<ResultHolder>>> {
        let v: Vec<ResultHolder> =
            self.s.persons.iter().filter(|p| holds_results(p, org)).map(ResultHolder::from).collect();
        ok(newest(v, |h| h.person_id.0, u32::MAX))
    }
    insert_and_update!(insert_profile, update_profile, profiles: Profile);
    fn get_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<Option<Profile>>> {
        ok(first(&self.s.profiles, |p| p.org_id == org && p.id == id))
    }
    fn list_profiles(
        &mut self,
        org: OrgId,
        before: Option<ProfileId>,
        limit: u32,
    ) -> BoxFuture<'_, StoreResult<Vec<Profile>>> {
        ok(newest(all(&self.s.profiles, |p| p.org_id == org && before.is_none_or(|b| p.id < b)), |p| p.id, limit))
    }
    fn count_profiles(&mut self, org: OrgId) -> BoxFuture<'_, StoreResult<u32>> {
        ok(self.s.profiles.iter().filter(|p| p.org_id == org).count() as u32)
    }
    fn delete_profile(&mut self, org: OrgId, id: ProfileId) -> BoxFuture<'_, StoreResult<bool>> {
        ok(remove(&mut self.s.profiles, |p| p.org_id == org && p.id == id) > 0)
    }
}

/// Assessments by start, then id.
fn oldest_first(mut v: Vec<Assessment>) -> Vec<Assessment> {
    v.sort_by_key(|a| (a.started_at, a.id.0));
    v
}

/// Whether `p` is one of the organization's persons with results (active, an assessment counted).
fn holds_results(p: &Person, org: OrgId) -> bool {
    p.org_id == org && p.status == PersonStatus::Active && p.assessment.count > 0
}
