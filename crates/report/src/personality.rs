//! The default personality writer (D24): markdown composed from the person's own scores only,
//! in the reader's language (T222): the sentences are the texts' `personality-*` messages, the
//! names the model's words in that language, the lists joined as the language joins them.

use std::sync::Arc;
use talent_domain::assessment::{AssessmentModel, Band, ModelWords, Scores};
use talent_domain::ports::{PersonalityWriter, TextArg, Texts};
use talent_domain::values::Locale;

/// Composes markdown from the texts' templates.
#[derive(Clone)]
pub struct TemplatePersonality {
    texts: Arc<dyn Texts>,
}

impl TemplatePersonality {
    /// A writer whose sentences and words are `texts`'.
    pub fn new(texts: Arc<dyn Texts>) -> Self {
        TemplatePersonality { texts }
    }
}

/// `s` with its first letter in lower case.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

impl PersonalityWriter for TemplatePersonality {
    fn describe(&self, model: &AssessmentModel, scores: &Scores, locale: Locale) -> String {
        let texts = &*self.texts;
        let words = ModelWords::new(texts, locale);
        let t = |key: &str, args: &[(&str, TextArg<'_>)]| texts.message(locale, key, args);
        let bold = |names: Vec<String>| -> String {
            let names: Vec<String> = names.into_iter().map(|n| format!("**{n}**")).collect();
            texts.list(locale, &names)
        };
        let needs: Vec<_> = model.needs().collect();
        let mut ranked: Vec<(usize, f64)> = scores.needs.iter().map(|n| (n.need_index, n.score)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let named = |i: &usize| needs.get(*i).map(|n| words.need(n));
        let top = bold(ranked.iter().take(3).filter_map(|(i, _)| named(i)).collect());
        let low = bold(ranked.iter().rev().take(2).filter_map(|(i, _)| named(i)).collect());
        let mut out = format!("## {}\n\n", t("personality-drives", &[]));
        out.push_str(&t("personality-strongest", &[("needs", TextArg::Text(&top))]));
        if let Some(first) = ranked.first().and_then(|(i, _)| needs.get(*i)) {
            let definition = match locale {
                // These go on in lower case after the colon ("Mastery means: getting better at
                // …"); German keeps its nouns' capitals, Polish asks a question first, and
                // Japanese and Chinese have no case.
                Locale::En | Locale::Fr | Locale::Es | Locale::Nl | Locale::PtBr | Locale::It => {
                    lower_first(&words.definition(first))
                }
                Locale::De | Locale::Pl | Locale::Ja | Locale::ZhHans => words.definition(first),
            };
            let need = words.need(first);
            let means =
                t("personality-means", &[("need", TextArg::Text(&need)), ("definition", TextArg::Text(&definition))]);
            // Japanese and Chinese sentences follow one another without a space.
            if !matches!(locale, Locale::Ja | Locale::ZhHans) {
                out.push(' ');
            }
            out.push_str(&means);
        }
        out.push_str("\n\n");
        out.push_str(&t("personality-less-central", &[("needs", TextArg::Text(&low))]));
        out.push_str(&format!("\n\n## {}\n\n", t("personality-competencies", &[])));
        let by_band = |b: Band| -> Vec<String> {
            scores
                .competencies
                .iter()
                .filter(|c| c.band == b)
                .filter_map(|c| model.competency(c.competency_id).map(|m| words.competency(m)))
                .collect()
        };
        let mut any = false;
        for (band, key) in [
            (Band::High, "personality-strong"),
            (Band::Moderate, "personality-moderate"),
            (Band::Limited, "personality-limited"),
        ] {
            let names = by_band(band);
            if !names.is_empty() {
                any = true;
                out.push_str(&format!("- {}\n", t(key, &[("competencies", TextArg::Text(&bold(names)))])));
            }
        }
        if !any {
            out.push_str(&format!("- {}\n", t("personality-even", &[])));
        }
        let count = |n: u32| TextArg::Number(i64::from(n));
        let basis = t(
            "personality-basis",
            &[("assessments", count(scores.assessments)), ("responses", count(scores.responses))],
        );
        out.push_str(&format!("\n{basis}\n"));
        out
    }
}
