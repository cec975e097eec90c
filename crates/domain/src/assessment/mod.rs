//! The assessment core (D23): the model as data, the deterministic scoring, bands (D2) and
//! matches (D3). Pure functions; `docs/scoring.md` explains every formula.

pub mod model;
pub mod scoring;
pub mod words;

pub use model::{AssessmentModel, ModelError};
pub use scoring::*;
pub use words::{word_ids, ModelWords};
