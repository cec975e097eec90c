//! Assessments as stored, the summary a person shows (D11, D42) and competency profiles (D25).

use crate::assessment::{need_counts, AssessmentModel, NeedCounts};
use crate::ids::*;
use crate::person::{Person, Visibility};
use time::OffsetDateTime;

/// Assessment status of a person (spec).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AssessmentStatus {
    /// `not_started`
    NotStarted,
    /// `in_progress`
    InProgress,
    /// `completed`
    Completed,
}

impl AssessmentStatus {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotStarted => "not_started",
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
        }
    }
    /// Parses the wire value.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "not_started" => Ok(Self::NotStarted),
            "in_progress" => Ok(Self::InProgress),
            "completed" => Ok(Self::Completed),
            _ => Err("must be one of: not_started, in_progress, completed".into()),
        }
    }
}

/// The visible assessment summary of a person (D11: visible assessments only).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AssessmentSummary {
    /// `assessment.status`
    pub status: AssessmentStatus,
    /// `assessment.completedAt`: the latest visible completion.
    pub completed_at: Option<OffsetDateTime>,
    /// `assessment.count`: visible completed assessments.
    pub count: u32,
    /// The need counts of the visible completed assessments, summed (T85): what a match scores,
    /// so a page of matches reads one short row per person. `None` with no visible completed
    /// assessment, or for a row written before this was stored (matching then sums the
    /// assessments' own counts). Never part of an API response.
    pub totals: Option<NeedCounts>,
}

impl AssessmentSummary {
    /// A person who has not started.
    pub const NONE: AssessmentSummary =
        AssessmentSummary { status: AssessmentStatus::NotStarted, completed_at: None, count: 0, totals: None };
}

/// Lifecycle state of one assessment (`in_progress` -> `completed`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AssessmentState {
    /// Started, not completed.
    InProgress,
    /// Completed.
    Completed,
}

impl AssessmentState {
    /// Stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InProgress => "in_progress",
            Self::Completed => "completed",
        }
    }
    /// Parses the stored value.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "in_progress" => Some(Self::InProgress),
            "completed" => Some(Self::Completed),
            _ => None,
        }
    }
}

/// One assessment of a human (D10, D23).
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    /// Id (`assessmentId` of `assessment.completed`).
    pub id: AssessmentId,
    /// The human who takes it.
    pub human_id: HumanId,
    /// The organization whose invitation started it (D51): the organization of the membership
    /// it was started for through the admin API. `None` for an assessment recorded before
    /// origins were kept that no invitation could be attributed to: it is visible through rules
    /// (b) and (c) of D51 only.
    pub origin_org: Option<OrgId>,
    pub state: AssessmentState,
    /// When it was started.
    pub started_at: OffsetDateTime,
    /// When it was completed.
    pub completed_at: Option<OffsetDateTime>,
    /// Forced-choice responses (empty while in progress).
    pub responses: Vec<crate::assessment::Response>,
    /// What the person was granted for it (T218): those of the accepted invitation of the
    /// membership it was started for. Never part of scoring.
    pub accommodations: Option<crate::values::Accommodations>,
}

impl Assessment {
    /// When it counts as taken (D42): its completion, or its start while in progress.
    pub fn taken_at(&self) -> OffsetDateTime {
        self.completed_at.unwrap_or(self.started_at)
    }

    /// D51: whether the organization in which `p` is (or was) a member may see this assessment.
    pub fn visible_to(&self, p: &Person) -> bool {
        self.visible_in(&p.visibility())
    }

    /// [`Assessment::visible_to`] for a membership given by its [`Visibility`] (D51).
    pub fn visible_in(&self, v: &Visibility) -> bool {
        v.sees(self.taken_at(), self.origin_org)
    }
}

/// D11, D51: a person's visible assessment summary: `completed` once a visible assessment is completed,
/// else `in_progress` while a visible one is running, else `not_started`; with the summed need
/// counts of the visible completed assessments under `model` (T85). `assessments` carry their
/// responses (as [`crate::ports::AssessmentRepo::list_assessments_of_human`] reads them).
pub fn summarize(assessments: &[Assessment], p: &Person, model: &AssessmentModel) -> AssessmentSummary {
    let v = p.visibility();
    let visible: Vec<&Assessment> = assessments.iter().filter(|a| a.visible_in(&v)).collect();
    let completed: Vec<&&Assessment> = visible.iter().filter(|a| a.state == AssessmentState::Completed).collect();
    let count = completed.len() as u32;
    let completed_at = completed.iter().filter_map(|a| a.completed_at).max();
    let status = if count > 0 {
        AssessmentStatus::Completed
    } else if visible.iter().any(|a| a.state == AssessmentState::InProgress) {
        AssessmentStatus::InProgress
    } else {
        AssessmentStatus::NotStarted
    };
    let totals =
        (count > 0).then(|| NeedCounts::sum(model, completed.iter().map(|a| need_counts(model, &a.responses))));
    AssessmentSummary { status, completed_at, count, totals }
}

/// A competency of a profile with its weight (D25).
#[derive(Clone, Debug, PartialEq)]
pub struct ProfileCompetency {
    /// Competency of the model.
    pub competency_id: uuid::Uuid,
    /// Weight in [0, 1].
    pub weight: f64,
}

/// A competency profile (D25): what a role asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    pub id: ProfileId,
    /// Organization.
    pub org_id: OrgId,
    /// Name (1..200).
    pub name: String,
    /// Description (up to 2,000 characters).
    pub description: Option<String>,
    /// Weighted competencies (at least one, unique, at least one weight > 0).
    pub competencies: Vec<ProfileCompetency>,
    /// Creation time.
    pub created_at: OffsetDateTime,
    /// Last change.
    pub updated_at: OffsetDateTime,
}
