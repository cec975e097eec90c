//! The default personality writer (D24): markdown composed from templates and the person's own
//! scores only.

use talent_domain::assessment::{AssessmentModel, Band, Scores};
use talent_domain::ports::PersonalityWriter;

/// Composes markdown from templates.
#[derive(Default, Debug, Clone, Copy)]
pub struct TemplatePersonality;

fn list(names: &[&str]) -> String {
    match names.len() {
        0 => String::new(),
        1 => format!("**{}**", names[0]),
        n => {
            let head: Vec<String> = names[..n - 1].iter().map(|s| format!("**{s}**")).collect();
            format!("{} and **{}**", head.join(", "), names[n - 1])
        }
    }
}

impl PersonalityWriter for TemplatePersonality {
    fn describe(&self, model: &AssessmentModel, scores: &Scores) -> String {
        let needs: Vec<_> = model.needs().collect();
        let mut ranked: Vec<(usize, f64)> = scores.needs.iter().map(|n| (n.need_index, n.score)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let top: Vec<&str> =
            ranked.iter().take(3).filter_map(|(i, _)| needs.get(*i).map(|n| n.name.as_str())).collect();
        let low: Vec<&str> =
            ranked.iter().rev().take(2).filter_map(|(i, _)| needs.get(*i).map(|n| n.name.as_str())).collect();
        let mut out = String::new();
        out.push_str("## What drives this person\n\n");
        out.push_str(&format!(
            "The strongest motivators are {}. Work that offers these is likely to feel energising.",
            list(&top)
        ));
        if let Some(first) = ranked.first().and_then(|(i, _)| needs.get(*i)) {
            out.push_str(&format!(" {} means: {}", first.name, first.definition.to_lowercase()));
        }
        out.push_str(&format!(
            "\n\nLess central are {}; they matter less in choosing between options.\n\n",
            list(&low)
        ));
        let by_band = |b: Band| -> Vec<&str> {
            scores
                .competencies
                .iter()
                .filter(|c| c.band == b)
                .filter_map(|c| model.competency(c.competency_id).map(|m| m.name.as_str()))
                .collect()
        };
        out.push_str("## Competencies their motivation supports\n\n");
        let high = by_band(Band::High);
        let moderate = by_band(Band::Moderate);
        let limited = by_band(Band::Limited);
        if !high.is_empty() {
            out.push_str(&format!("- Strong support: {}.\n", list(&high)));
        }
        if !moderate.is_empty() {
            out.push_str(&format!("- Moderate support: {}.\n", list(&moderate)));
        }
        if !limited.is_empty() {
            out.push_str(&format!("- Limited support: {}.\n", list(&limited)));
        }
        if high.is_empty() && moderate.is_empty() && limited.is_empty() {
            out.push_str("- Motivation supports every competency about evenly.\n");
        }
        out.push_str(&format!(
            "\nBased on {} assessment{} and {} responses. Bands describe motivational support, not skill.\n",
            scores.assessments,
            if scores.assessments == 1 { "" } else { "s" },
            scores.responses
        ));
        out
    }
}
