//! The model's own words in a reader's language (issue 37, T222): the names of its axes, needs and
//! competencies and the needs' definitions. English is the model's own text
//! (`data/model.json`); every other language's is the texts adapter's translation, a message
//! per word whose id [`word_ids`] lists (`model-axis-ACH`, `model-need-mastery`,
//! `model-need-mastery-definition`, `model-competency-{uuid}`).

use super::model::{AssessmentModel, Axis, Competency, Need};
use crate::ports::Texts;
use crate::values::Locale;

fn axis_key(a: &Axis) -> String {
    format!("model-axis-{}", a.code)
}
fn need_key(n: &Need) -> String {
    format!("model-need-{}", n.id)
}
fn definition_key(n: &Need) -> String {
    format!("model-need-{}-definition", n.id)
}
fn competency_key(c: &Competency) -> String {
    format!("model-competency-{}", c.id)
}

/// The model's words in one language; where a language lacks a word, the model's English.
#[derive(Clone, Copy)]
pub struct ModelWords<'a> {
    texts: &'a dyn Texts,
    locale: Locale,
}

impl<'a> ModelWords<'a> {
    /// The words of `locale`, as `texts` translates them.
    pub fn new(texts: &'a dyn Texts, locale: Locale) -> Self {
        ModelWords { texts, locale }
    }

    /// The language.
    pub fn locale(&self) -> Locale {
        self.locale
    }

    fn word(&self, key: String, english: &str) -> String {
        self.texts.model_word(self.locale, &key).unwrap_or_else(|| english.to_string())
    }

    /// An axis's name (`Achievement`).
    pub fn axis(&self, a: &Axis) -> String {
        self.word(axis_key(a), &a.name)
    }

    /// A need's name (`Mastery`).
    pub fn need(&self, n: &Need) -> String {
        self.word(need_key(n), &n.name)
    }

    /// What a need means: one sentence.
    pub fn definition(&self, n: &Need) -> String {
        self.word(definition_key(n), &n.definition)
    }

    /// A competency's name (`Drive for results`).
    pub fn competency(&self, c: &Competency) -> String {
        self.word(competency_key(c), &c.name)
    }
}

/// Every message id [`ModelWords`] asks for of `model`: what a translation of the model holds,
/// exactly (the texts adapter's completeness test).
pub fn word_ids(model: &AssessmentModel) -> Vec<String> {
    let mut ids: Vec<String> = model.axes.iter().map(axis_key).collect();
    ids.extend(model.needs().flat_map(|n| [need_key(n), definition_key(n)]));
    ids.extend(model.competencies.iter().map(competency_key));
    ids
}
