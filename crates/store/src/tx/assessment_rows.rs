//! The rows of assessments and profiles (the need counts as stored), and their conversions to and from the domain.
//! A row that does not parse back (corrupt data) is a [`StoreError::Internal`], never a panic.

use super::*;
use talent_domain::results::{AssessmentState, ProfileCompetency};

/// `assessments.need_counts` and `persons.need_totals` (T85) as stored: `{"model", "responses", "exposure": [...], "chosen": [...]}`.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredCounts {
    model: String,
    responses: u32,
    exposure: Vec<u32>,
    chosen: Vec<u32>,
}

/// `assessments.need_counts` of `c` ([`StoredCounts`]).
pub(crate) fn need_counts_json(c: &talent_domain::assessment::NeedCounts) -> Result<String, StoreError> {
    let v = StoredCounts {
        model: c.model.clone(),
        responses: c.responses,
        exposure: c.exposure.clone(),
        chosen: c.chosen.clone(),
    };
    serde_json::to_string(&v).map_err(|e| StoreError::Internal(e.to_string()))
}

/// Parses [`need_counts_json`]. Errors: `Internal` for anything else.
pub(crate) fn parse_need_counts(s: &str) -> Result<talent_domain::assessment::NeedCounts, StoreError> {
    let v: StoredCounts = serde_json::from_str(s).map_err(|_| corrupt("need counts"))?;
    Ok(talent_domain::assessment::NeedCounts {
        model: v.model,
        responses: v.responses,
        exposure: v.exposure,
        chosen: v.chosen,
    })
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = assessments, treat_none_as_null = true, treat_none_as_default_value = false)]
pub struct AssessmentRow {
    pub(crate) id: DbUuid,
    pub(crate) human_id: DbUuid,
    pub(crate) state: String,
    pub(crate) started_at: DbTime,
    pub(crate) completed_at: Option<DbTime>,
    pub(crate) responses: String,
    pub(crate) origin_org_id: Option<DbUuid>,
    pub(crate) accommodations: Option<String>,
}

impl From<&Assessment> for AssessmentRow {
    fn from(a: &Assessment) -> Self {
        AssessmentRow {
            id: DbUuid(a.id.0),
            human_id: DbUuid(a.human_id.0),
            state: a.state.as_str().to_string(),
            started_at: DbTime(a.started_at),
            completed_at: a.completed_at.map(DbTime),
            responses: serde_json::to_string(&a.responses).unwrap_or_else(|_| "[]".into()),
            origin_org_id: a.origin_org.map(|o| DbUuid(o.0)),
            accommodations: a.accommodations.as_ref().map(|x| x.json().to_string()),
        }
    }
}

impl TryFrom<AssessmentRow> for Assessment {
    type Error = StoreError;
    fn try_from(r: AssessmentRow) -> Result<Self, StoreError> {
        Ok(Assessment {
            id: AssessmentId(r.id.0),
            human_id: HumanId(r.human_id.0),
            origin_org: r.origin_org_id.map(|o| OrgId(o.0)),
            state: AssessmentState::parse(&r.state).ok_or_else(|| corrupt("assessments.state"))?,
            started_at: r.started_at.0,
            completed_at: r.completed_at.map(|t| t.0),
            responses: serde_json::from_str(&r.responses).map_err(|_| corrupt("assessments.responses"))?,
            accommodations: stored_accommodations(r.accommodations, "assessments.accommodations")?,
        })
    }
}

#[derive(Queryable, Selectable, Insertable, AsChangeset, Clone, Debug)]
#[diesel(table_name = profiles, treat_none_as_default_value = false, treat_none_as_null = true)]
pub struct ProfileRow {
    pub(crate) id: DbUuid,
    pub(crate) org_id: DbUuid,
    pub(crate) name: String,
    pub(crate) description: Option<String>,
    pub(crate) competencies: String,
    pub(crate) created_at: DbTime,
    pub(crate) updated_at: DbTime,
}

impl From<&Profile> for ProfileRow {
    fn from(p: &Profile) -> Self {
        let comps: Vec<(String, f64)> =
            p.competencies.iter().map(|c| (c.competency_id.to_string(), c.weight)).collect();
        ProfileRow {
            id: DbUuid(p.id.0),
            org_id: DbUuid(p.org_id.0),
            name: p.name.clone(),
            description: p.description.clone(),
            competencies: serde_json::to_string(&comps).unwrap_or_else(|_| "[]".into()),
            created_at: DbTime(p.created_at),
            updated_at: DbTime(p.updated_at),
        }
    }
}

impl TryFrom<ProfileRow> for Profile {
    type Error = StoreError;
    fn try_from(r: ProfileRow) -> Result<Self, StoreError> {
        let comps: Vec<(String, f64)> =
            serde_json::from_str(&r.competencies).map_err(|_| corrupt("profiles.competencies"))?;
        let competencies = comps
            .into_iter()
            .map(|(id, weight)| {
                Ok(ProfileCompetency {
                    competency_id: id.parse().map_err(|_| corrupt("profiles.competencies id"))?,
                    weight,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Profile {
            id: ProfileId(r.id.0),
            org_id: OrgId(r.org_id.0),
            name: r.name,
            description: r.description,
            competencies,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        })
    }
}
