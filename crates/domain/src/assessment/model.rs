//! The assessment model as data (D23): motivation axes with needs, competencies, and a named
//! mapping from needs to competencies with weights. Parsed and validated at start-up; the model
//! shipped with the binary is `crates/domain/data/model.json`.

use serde::Deserialize;
use std::collections::HashSet;
use uuid::Uuid;

/// A need: one motivational driver, shown in forced-choice pairs.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Need {
    /// Stable id (lower-case word), used in responses.
    pub id: String,
    /// Display name.
    pub name: String,
    /// One-sentence definition.
    pub definition: String,
    /// The anchor need of its axis.
    pub is_anchor: bool,
}

/// A motivation axis and its needs.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Axis {
    /// Short code, e.g. `ACH`.
    pub code: String,
    /// Display name.
    pub name: String,
    /// Needs of the axis (at least 2, exactly one anchor).
    pub needs: Vec<Need>,
}

/// A competency.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Competency {
    /// Stable UUID (`competencyId`).
    pub id: Uuid,
    /// Display name.
    pub name: String,
    /// Description, if any.
    pub description: Option<String>,
}

/// One weight of the mapping: how strongly (and in which direction) a need drives a competency.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MappingWeight {
    /// Competency.
    pub competency_id: Uuid,
    /// Need id.
    pub need: String,
    /// Weight in [-1, 1], not 0. Negative: the need works against the competency.
    pub weight: f64,
}

/// The named mapping.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Mapping {
    /// `competencies.mappingName`.
    pub name: String,
    pub weights: Vec<MappingWeight>,
}

/// The whole model (`competencies.modelName` is `name`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AssessmentModel {
    /// Model name.
    pub name: String,
    /// Model version.
    pub version: String,
    /// Axes with needs, in display order.
    pub axes: Vec<Axis>,
    /// Competencies, in display order.
    pub competencies: Vec<Competency>,
    /// The mapping.
    pub mapping: Mapping,
}

/// Why a model is refused at start-up.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ModelError {
    /// Not JSON of the model's shape.
    #[error("model is not valid JSON of the expected shape: {0}")]
    Shape(String),
    /// Two needs share an id.
    #[error("duplicate need id '{0}'")]
    DuplicateNeed(String),
    /// Two axes share a code.
    #[error("duplicate axis code '{0}'")]
    DuplicateAxis(String),
    /// Two competencies share an id.
    #[error("duplicate competency id {0}")]
    DuplicateCompetency(Uuid),
    /// An axis without exactly one anchor need, or with fewer than 2 needs.
    #[error("axis '{0}' must have at least 2 needs and exactly one anchor")]
    BadAxis(String),
    /// The mapping names a need that does not exist.
    #[error("mapping names unknown need '{0}'")]
    UnknownNeed(String),
    /// The mapping names a competency that does not exist.
    #[error("mapping names unknown competency {0}")]
    UnknownCompetency(Uuid),
    /// A weight outside [-1, 1] or 0.
    #[error("weight {weight} of need '{need}' for competency {competency} must be in [-1, 1] and not 0")]
    WeightOutOfRange {
        /// Competency.
        competency: Uuid,
        /// Need.
        need: String,
        /// Weight.
        weight: f64,
    },
    /// A competency without any weight.
    #[error("competency {0} has no weight in the mapping")]
    Unmapped(Uuid),
    /// The same (competency, need) pair twice.
    #[error("need '{need}' is weighted twice for competency {competency}")]
    DuplicateWeight {
        /// Competency.
        competency: Uuid,
        /// Need.
        need: String,
    },
}

/// The model shipped with the binary.
pub const BUILTIN_MODEL_JSON: &str = include_str!("../../data/model.json");

impl AssessmentModel {
    /// Parses and validates a model. Errors: see [`ModelError`].
    pub fn parse(json: &str) -> Result<Self, ModelError> {
        let m: AssessmentModel = serde_json::from_str(json).map_err(|e| ModelError::Shape(e.to_string()))?;
        m.validate()?;
        Ok(m)
    }

    /// The built-in model (`crates/domain/data/model.json`).
    pub fn builtin() -> Result<Self, ModelError> {
        Self::parse(BUILTIN_MODEL_JSON)
    }

    fn validate(&self) -> Result<(), ModelError> {
        let mut needs = HashSet::new();
        let mut axes = HashSet::new();
        for a in &self.axes {
            if !axes.insert(a.code.as_str()) {
                return Err(ModelError::DuplicateAxis(a.code.clone()));
            }
            if a.needs.len() < 2 || a.needs.iter().filter(|n| n.is_anchor).count() != 1 {
                return Err(ModelError::BadAxis(a.code.clone()));
            }
            for n in &a.needs {
                if !needs.insert(n.id.as_str()) {
                    return Err(ModelError::DuplicateNeed(n.id.clone()));
                }
            }
        }
        let mut comps = HashSet::new();
        for c in &self.competencies {
            if !comps.insert(c.id) {
                return Err(ModelError::DuplicateCompetency(c.id));
            }
        }
        let mut pairs = HashSet::new();
        for w in &self.mapping.weights {
            if !needs.contains(w.need.as_str()) {
                return Err(ModelError::UnknownNeed(w.need.clone()));
            }
            if !comps.contains(&w.competency_id) {
                return Err(ModelError::UnknownCompetency(w.competency_id));
            }
            if !w.weight.is_finite() || w.weight == 0.0 || w.weight.abs() > 1.0 {
                return Err(ModelError::WeightOutOfRange {
                    competency: w.competency_id,
                    need: w.need.clone(),
                    weight: w.weight,
                });
            }
            if !pairs.insert((w.competency_id, w.need.as_str())) {
                return Err(ModelError::DuplicateWeight { competency: w.competency_id, need: w.need.clone() });
            }
        }
        for c in &self.competencies {
            if !self.mapping.weights.iter().any(|w| w.competency_id == c.id) {
                return Err(ModelError::Unmapped(c.id));
            }
        }
        Ok(())
    }

    /// All needs in display order (axis by axis).
    pub fn needs(&self) -> impl Iterator<Item = &Need> {
        self.axes.iter().flat_map(|a| a.needs.iter())
    }

    /// Index of a need in [`Self::needs`] order.
    pub fn need_index(&self, id: &str) -> Option<usize> {
        self.needs().position(|n| n.id == id)
    }

    /// A competency by id.
    pub fn competency(&self, id: Uuid) -> Option<&Competency> {
        self.competencies.iter().find(|c| c.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_model_is_complete() {
        let m = AssessmentModel::builtin().unwrap();
        assert!(m.axes.len() >= 4);
        assert!(m.needs().count() >= 16);
        assert!(m.competencies.len() >= 12);
    }

    fn mutate(f: impl FnOnce(&mut serde_json::Value)) -> Result<AssessmentModel, ModelError> {
        let mut v: serde_json::Value = serde_json::from_str(BUILTIN_MODEL_JSON).unwrap();
        f(&mut v);
        AssessmentModel::parse(&v.to_string())
    }

    #[test]
    fn unknown_need_in_mapping_is_refused() {
        let e = mutate(|v| v["mapping"]["weights"][0]["need"] = "nope".into()).unwrap_err();
        assert_eq!(e, ModelError::UnknownNeed("nope".into()));
    }

    #[test]
    fn duplicate_ids_are_refused() {
        let e = mutate(|v| {
            let n = v["axes"][0]["needs"][1]["id"].clone();
            v["axes"][1]["needs"][1]["id"] = n;
        })
        .unwrap_err();
        assert!(matches!(e, ModelError::DuplicateNeed(_)));
        let e = mutate(|v| {
            let id = v["competencies"][0]["id"].clone();
            v["competencies"][1]["id"] = id;
        })
        .unwrap_err();
        assert!(matches!(e, ModelError::DuplicateCompetency(_)));
    }

    #[test]
    fn weights_out_of_range_are_refused() {
        for w in [1.5, -1.01, 0.0] {
            let e = mutate(|v| v["mapping"]["weights"][0]["weight"] = w.into()).unwrap_err();
            assert!(matches!(e, ModelError::WeightOutOfRange { .. }), "{w}");
        }
    }

    #[test]
    fn garbage_is_a_shape_error() {
        assert!(matches!(AssessmentModel::parse("{"), Err(ModelError::Shape(_))));
    }
}
