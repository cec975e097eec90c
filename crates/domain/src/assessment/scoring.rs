//! Deterministic scoring (D23), bands (D2) and matches (D3). `docs/scoring.md` gives the same
//! formulas with a worked example.
//!
//! - A response is one forced choice: two needs are shown, one is chosen.
//! - Need: `exposure` = times shown, `chosen` = times chosen, over all visible assessments (D11);
//!   `score = (chosen + 1) / (exposure + 2)` (Laplace smoothing: 0.5 with no data, always in (0, 1)).
//! - Competency: `score = 0.5 + Σ wᵢ·(sᵢ − 0.5) / Σ|wᵢ|` over the mapping's weights (wᵢ in [-1, 1]);
//!   0.5 is neutral and the score stays in [0, 1] because |sᵢ − 0.5| ≤ 0.5.
//! - Band (D2) on the unrounded score: high [0.65, 1], moderate [0.55, 0.65), some [0.45, 0.55),
//!   limited [0, 0.45).
//! - Match (D3): `percentage = round(100 · Σ wₖ·sₖ / Σ wₖ)` over the profile's competency weights;
//!   category high ≥ 70, moderate 50..69, low < 50.

use super::model::AssessmentModel;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// One forced choice: the two needs shown (ids) and the one chosen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Response {
    /// The two need ids shown.
    pub shown: [String; 2],
    /// The need id chosen; one of `shown`.
    pub chosen: String,
}

/// Checks responses against the model. Errors: `(index, message)` per bad response.
pub fn check_responses(model: &AssessmentModel, responses: &[Response]) -> Result<(), Vec<(usize, String)>> {
    let mut errs = Vec::new();
    for (i, r) in responses.iter().enumerate() {
        if let Some(bad) = r.shown.iter().find(|n| model.need_index(n).is_none()) {
            errs.push((i, format!("unknown need '{bad}'")));
        } else if r.shown[0] == r.shown[1] {
            errs.push((i, "the two needs shown must differ".to_string()));
        } else if !r.shown.contains(&r.chosen) {
            errs.push((i, "chosen must be one of the two needs shown".to_string()));
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

/// A band (D2): how strongly motivation supports a competency (not skill).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// [0, 0.45)
    Limited,
    /// [0.45, 0.55)
    Some,
    /// [0.55, 0.65)
    Moderate,
    /// [0.65, 1]
    High,
}

impl Band {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            Band::High => "high",
            Band::Moderate => "moderate",
            Band::Some => "some",
            Band::Limited => "limited",
        }
    }
}

/// D2: the band of an unrounded score; half-open intervals.
pub fn band(score: f64) -> Band {
    if score >= 0.65 {
        Band::High
    } else if score >= 0.55 {
        Band::Moderate
    } else if score >= 0.45 {
        Band::Some
    } else {
        Band::Limited
    }
}

/// A need's result.
#[derive(Clone, Debug, PartialEq)]
pub struct NeedResult {
    /// Index in the model's need order.
    pub need_index: usize,
    /// Smoothed share chosen, in (0, 1).
    pub score: f64,
    /// Times shown.
    pub exposure: u32,
}

/// A competency's result.
#[derive(Clone, Debug, PartialEq)]
pub struct CompetencyResult {
    /// Competency id.
    pub competency_id: Uuid,
    /// Aptitude score in [0, 1], 0.5 neutral.
    pub score: f64,
    /// D2 band.
    pub band: Band,
}

/// Cumulative scores of one person over the assessments given.
#[derive(Clone, Debug, PartialEq)]
pub struct Scores {
    /// Number of assessments.
    pub assessments: u32,
    /// Number of responses.
    pub responses: u32,
    /// Needs, model order.
    pub needs: Vec<NeedResult>,
    /// Competencies, model order.
    pub competencies: Vec<CompetencyResult>,
}

/// What scoring needs of one assessment's responses: per need (model order), how often it was
/// shown and how often chosen. Counts add up over assessments, so a person's scores over several
/// assessments are [`score_counts`] of their counts. Stored when an assessment completes, so that
/// matching thousands of persons reads these instead of every response (issue 11).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NeedCounts {
    /// The model the indexes refer to: `name@version` ([`model_key`]).
    pub model: String,
    /// Responses counted (those naming two known needs).
    pub responses: u32,
    /// Per need, in [`AssessmentModel::needs`] order: times shown.
    pub exposure: Vec<u32>,
    /// Per need, likewise: times chosen.
    pub chosen: Vec<u32>,
}

impl NeedCounts {
    /// Whether these counts were made with `model` (same name, version and number of needs);
    /// counts of another model must be made again from the responses.
    pub fn fits(&self, model: &AssessmentModel) -> bool {
        let n = model.needs().count();
        self.model == model_key(model) && self.exposure.len() == n && self.chosen.len() == n
    }

    /// The element-wise sum of `counts` made with `model` (those that do not [`NeedCounts::fits`]
    /// it are left out): one person's visible assessments as one, which scores the same
    /// ([`Scorer::score`] sums them anyway; T85).
    pub fn sum(model: &AssessmentModel, counts: impl IntoIterator<Item = NeedCounts>) -> NeedCounts {
        let n = model.needs().count();
        let mut total = NeedCounts { model: model_key(model), responses: 0, exposure: vec![0; n], chosen: vec![0; n] };
        for c in counts.into_iter().filter(|c| c.fits(model)) {
            total.responses += c.responses;
            for i in 0..n {
                total.exposure[i] += c.exposure[i];
                total.chosen[i] += c.chosen[i];
            }
        }
        total
    }
}

/// A model's identity in stored [`NeedCounts`]: `name@version`.
pub fn model_key(model: &AssessmentModel) -> String {
    format!("{}@{}", model.name, model.version)
}

/// The [`NeedCounts`] of one assessment's responses. Responses naming unknown needs are ignored
/// (they are refused on input).
pub fn need_counts(model: &AssessmentModel, responses: &[Response]) -> NeedCounts {
    let n = model.needs().count();
    let mut exposure = vec![0u32; n];
    let mut chosen = vec![0u32; n];
    let mut counted = 0u32;
    for r in responses {
        let (Some(i0), Some(i1)) = (model.need_index(&r.shown[0]), model.need_index(&r.shown[1])) else {
            continue;
        };
        exposure[i0] += 1;
        exposure[i1] += 1;
        if let Some(c) = model.need_index(&r.chosen) {
            if c == i0 || c == i1 {
                chosen[c] += 1;
            }
        }
        counted += 1;
    }
    NeedCounts { model: model_key(model), responses: counted, exposure, chosen }
}

/// Scores the responses of the given assessments (already filtered to the visible ones, D11):
/// [`score_counts`] of each one's [`need_counts`].
pub fn score(model: &AssessmentModel, assessments: &[&[Response]]) -> Scores {
    let counts: Vec<NeedCounts> = assessments.iter().map(|a| need_counts(model, a)).collect();
    score_counts(model, &counts.iter().collect::<Vec<_>>())
}

/// Scores a person from the [`NeedCounts`] of their visible assessments (D11): need scores
/// `(chosen + 1) / (exposure + 2)` over the summed counts, competency scores from the model's
/// mapping, D2 bands. Counts that do not [`NeedCounts::fits`] the model add nothing. To score many
/// persons, build one [`Scorer`].
pub fn score_counts(model: &AssessmentModel, assessments: &[&NeedCounts]) -> Scores {
    Scorer::new(model).score(assessments)
}

/// The model's mapping prepared once for scoring many persons (a page of matches scores every
/// person with results): per competency its `(need index, weight)` pairs.
pub struct Scorer<'m> {
    model: &'m AssessmentModel,
    key: String,
    needs: usize,
    weights: Vec<Vec<(usize, f64)>>,
}

impl<'m> Scorer<'m> {
    /// Prepares the mapping of `model`.
    pub fn new(model: &'m AssessmentModel) -> Self {
        let weights = model
            .competencies
            .iter()
            .map(|c| {
                model
                    .mapping
                    .weights
                    .iter()
                    .filter(|w| w.competency_id == c.id)
                    .filter_map(|w| model.need_index(&w.need).map(|i| (i, w.weight)))
                    .collect()
            })
            .collect();
        Scorer { model, key: model_key(model), needs: model.needs().count(), weights }
    }

    /// As [`score_counts`].
    pub fn score(&self, assessments: &[&NeedCounts]) -> Scores {
        let n = self.needs;
        let mut exposure = vec![0u32; n];
        let mut chosen = vec![0u32; n];
        let mut responses = 0u32;
        for a in assessments.iter().filter(|a| a.model == self.key && a.exposure.len() == n && a.chosen.len() == n) {
            responses += a.responses;
            for i in 0..n {
                exposure[i] += a.exposure[i];
                chosen[i] += a.chosen[i];
            }
        }
        let needs: Vec<NeedResult> = (0..n)
            .map(|i| NeedResult {
                need_index: i,
                score: (f64::from(chosen[i]) + 1.0) / (f64::from(exposure[i]) + 2.0),
                exposure: exposure[i],
            })
            .collect();
        let competencies = self
            .model
            .competencies
            .iter()
            .zip(&self.weights)
            .map(|(c, ws)| {
                let (mut num, mut den) = (0.0, 0.0);
                for (i, w) in ws {
                    num += w * (needs[*i].score - 0.5);
                    den += w.abs();
                }
                let s = if den > 0.0 { denoise(0.5 + num / den).clamp(0.0, 1.0) } else { 0.5 };
                CompetencyResult { competency_id: c.id, score: s, band: band(s) }
            })
            .collect();
        Scores { assessments: assessments.len() as u32, responses, needs, competencies }
    }

    /// [`match_percentage`] of `profile` (competency id, weight) over [`Scorer::score`] of
    /// `assessments`, computing only the needs and competencies the profile uses and allocating
    /// nothing when every count fits the model: a page of matches scores every person with results
    /// (issue 11). Same arithmetic in the same order, so the same percentage (tested).
    pub fn match_percentage(&self, assessments: &[&NeedCounts], profile: &[(Uuid, f64)]) -> u8 {
        match self.match_value(assessments, profile) {
            Some(v) => denoise(v).round().clamp(0.0, 100.0) as u8,
            None => 0,
        }
    }

    /// `100 · Σ wₖ·sₖ / Σ wₖ` before rounding; `None` for a profile without positive weight.
    fn match_value(&self, assessments: &[&NeedCounts], profile: &[(Uuid, f64)]) -> Option<f64> {
        let n = self.needs;
        let fits = |a: &NeedCounts| a.model == self.key && a.exposure.len() == n && a.chosen.len() == n;
        let kept: Vec<&NeedCounts>;
        let fit: &[&NeedCounts] = if assessments.iter().all(|a| fits(a)) {
            assessments
        } else {
            kept = assessments.iter().copied().filter(|a| fits(a)).collect();
            &kept
        };
        let need = |i: usize| {
            let (mut exposure, mut chosen) = (0u32, 0u32);
            for a in fit {
                exposure += a.exposure[i];
                chosen += a.chosen[i];
            }
            (f64::from(chosen) + 1.0) / (f64::from(exposure) + 2.0)
        };
        let competency = |c: usize| {
            let (mut num, mut den) = (0.0, 0.0);
            for (i, w) in &self.weights[c] {
                num += w * (need(*i) - 0.5);
                den += w.abs();
            }
            if den > 0.0 {
                denoise(0.5 + num / den).clamp(0.0, 1.0)
            } else {
                0.5
            }
        };
        let (mut num, mut den) = (0.0, 0.0);
        for (cid, w) in profile {
            let s = self.model.competencies.iter().position(|c| c.id == *cid).map(competency).unwrap_or(0.5);
            num += w * s;
            den += w;
        }
        if den <= 0.0 {
            return None;
        }
        Some(100.0 * num / den)
    }
}

/// Removes floating-point noise from a computed value: the documented formulas are exact, so a
/// competency score that is exactly 0.45 by hand must not come out as 0.44999999999999996 and
/// fall into the band below (D2: "exactly 0.45 is `some`"), nor a percentage of exactly 44.5 round
/// down (D3). Twelve decimal places keep far more precision than any score carries.
fn denoise(x: f64) -> f64 {
    (x * 1e12).round() / 1e12
}

/// Match category (D3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchCategory {
    /// < 50
    Low,
    /// 50..69
    Moderate,
    /// >= 70
    High,
}

impl MatchCategory {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchCategory::Low => "low",
            MatchCategory::Moderate => "moderate",
            MatchCategory::High => "high",
        }
    }
}

/// D3: the category of a percentage.
pub fn category(percentage: u8) -> MatchCategory {
    match percentage {
        70.. => MatchCategory::High,
        50..=69 => MatchCategory::Moderate,
        _ => MatchCategory::Low,
    }
}

/// D3: the match percentage (0..100) of scores against a profile's competency weights (0..1).
/// Competencies the scores lack count as neutral (0.5). A profile without positive weight: 0.
pub fn match_percentage(profile: &[(Uuid, f64)], scores: &Scores) -> u8 {
    let mut num = 0.0;
    let mut den = 0.0;
    for (cid, w) in profile {
        let s = scores.competencies.iter().find(|c| c.competency_id == *cid).map(|c| c.score).unwrap_or(0.5);
        num += w * s;
        den += w;
    }
    if den <= 0.0 {
        return 0;
    }
    denoise(100.0 * num / den).round().clamp(0.0, 100.0) as u8
}

/// Plausible, deterministic responses for a seed (sandbox, D39): every pair of needs within an axis
/// and a fixed set across axes; the choice follows a latent preference per need drawn from the
/// seed, with some noise. Same seed, same responses.
pub fn seed_responses(model: &AssessmentModel, seed: u64) -> Vec<Response> {
    let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        state
    };
    let needs: Vec<&str> = model.needs().map(|n| n.id.as_str()).collect();
    let pref: Vec<f64> = needs.iter().map(|_| (next() % 1000) as f64 / 1000.0).collect();
    let mut out = Vec::new();
    let n = needs.len();
    for i in 0..n {
        for step in [1usize, 3, 7] {
            let j = (i + step) % n;
            if i == j {
                continue;
            }
            let noise = ((next() % 1000) as f64 / 1000.0 - 0.5) * 0.4;
            let chosen = if pref[i] + noise >= pref[j] { i } else { j };
            out.push(Response {
                shown: [needs[i].to_string(), needs[j].to_string()],
                chosen: needs[chosen].to_string(),
            });
        }
    }
    out
}

/// Responses, starting from [`seed_responses`] of `seed`, whose match with `profile` (competency
/// id, weight), counted together with `prior` (the person's other visible assessments), falls in
/// `target` (test mode, D60): choices are flipped one at a time, each kept only when it moves the
/// match toward the category, until it is reached. Same arguments, same responses. `None` when
/// no such responses are found (a profile without positive weight, or one whose competencies
/// cannot reach the category).
pub fn steer_responses(
    model: &AssessmentModel,
    seed: u64,
    prior: &[&NeedCounts],
    profile: &[(Uuid, f64)],
    target: MatchCategory,
) -> Option<Vec<Response>> {
    let scorer = Scorer::new(model);
    let mut responses = seed_responses(model, seed);
    let value = |r: &[Response]| {
        let own = need_counts(model, r);
        let mut all: Vec<&NeedCounts> = prior.to_vec();
        all.push(&own);
        scorer.match_value(&all, profile)
    };
    // How far from the category (0 inside it); the rounded percentage decides (D3).
    let distance = |v: f64| match target {
        MatchCategory::High => (69.5 - v).max(0.0),
        MatchCategory::Low => (v - 49.499_999).max(0.0),
        MatchCategory::Moderate => (49.5 - v).max(0.0) + (v - 69.499_999).max(0.0),
    };
    let reached = |v: f64| category(denoise(v).round().clamp(0.0, 100.0) as u8) == target;
    let mut current = value(&responses)?;
    // Each pass flips every choice at most once; the match moves by a few points per flip, so a
    // handful of passes reaches any category the profile can reach.
    for _ in 0..8 {
        if reached(current) {
            return Some(responses);
        }
        let mut moved = false;
        for i in 0..responses.len() {
            let r = &responses[i];
            let other = if r.chosen == r.shown[0] { r.shown[1].clone() } else { r.shown[0].clone() };
            let before = std::mem::replace(&mut responses[i].chosen, other);
            let v = value(&responses)?;
            if distance(v) < distance(current) {
                current = v;
                moved = true;
                if reached(current) {
                    return Some(responses);
                }
            } else {
                responses[i].chosen = before;
            }
        }
        if !moved {
            break;
        }
    }
    reached(current).then_some(responses)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> AssessmentModel {
        AssessmentModel::builtin().unwrap()
    }

    #[test]
    fn bands_have_half_open_boundaries() {
        // D2: exact boundaries belong to the upper band.
        assert_eq!(band(0.65), Band::High);
        assert_eq!(band(0.649_999_999), Band::Moderate);
        assert_eq!(band(0.55), Band::Moderate);
        assert_eq!(band(0.549_999_999), Band::Some);
        assert_eq!(band(0.45), Band::Some);
        assert_eq!(band(0.449_999_999), Band::Limited);
        assert_eq!(band(1.0), Band::High);
        assert_eq!(band(0.0), Band::Limited);
    }

    #[test]
    fn bands_are_monotone() {
        let mut prev = band(0.0);
        for i in 0..=10_000 {
            let b = band(f64::from(i) / 10_000.0);
            assert!(b >= prev);
            prev = b;
        }
    }

    #[test]
    fn steered_responses_reach_the_asked_category_d60() {
        let m = model();
        let ids: Vec<Uuid> = m.competencies.iter().map(|c| c.id).collect();
        let profiles: Vec<Vec<(Uuid, f64)>> = vec![
            vec![(ids[0], 1.0)],
            vec![(ids[1], 0.5), (ids[2], 1.0)],
            ids.iter().take(4).map(|&c| (c, 1.0)).collect(),
        ];
        let scorer = Scorer::new(&m);
        for profile in &profiles {
            for target in [MatchCategory::Low, MatchCategory::Moderate, MatchCategory::High] {
                for seed in 0..4 {
                    let r = steer_responses(&m, seed, &[], profile, target)
                        .unwrap_or_else(|| panic!("{target:?} not reached for {profile:?}"));
                    assert!(check_responses(&m, &r).is_ok());
                    let pct = scorer.match_percentage(&[&need_counts(&m, &r)], profile);
                    assert_eq!(category(pct), target, "{pct} for {profile:?}");
                    assert_eq!(steer_responses(&m, seed, &[], profile, target), Some(r), "deterministic");
                }
            }
        }
        // Without positive weight there is no match to steer.
        assert_eq!(steer_responses(&m, 1, &[], &[(ids[0], 0.0)], MatchCategory::High), None);
    }

    #[test]
    fn match_categories_follow_d3() {
        assert_eq!(category(70), MatchCategory::High);
        assert_eq!(category(69), MatchCategory::Moderate);
        assert_eq!(category(50), MatchCategory::Moderate);
        assert_eq!(category(49), MatchCategory::Low);
        assert_eq!(category(0), MatchCategory::Low);
        assert_eq!(category(100), MatchCategory::High);
    }

    #[test]
    fn no_responses_score_neutral() {
        let m = model();
        let s = score(&m, &[]);
        assert!(s.needs.iter().all(|n| n.score == 0.5 && n.exposure == 0));
        assert!(s.competencies.iter().all(|c| c.score == 0.5 && c.band == Band::Some));
    }

    #[test]
    fn a_need_always_chosen_scores_by_laplace() {
        let m = model();
        let r = vec![Response { shown: ["mastery".into(), "results".into()], chosen: "mastery".into() }; 3];
        let s = score(&m, &[&r]);
        let mi = m.need_index("mastery").unwrap();
        let ri = m.need_index("results").unwrap();
        assert_eq!(s.needs[mi].exposure, 3);
        assert!((s.needs[mi].score - 4.0 / 5.0).abs() < 1e-12);
        assert!((s.needs[ri].score - 1.0 / 5.0).abs() < 1e-12);
        assert_eq!(s.responses, 3);
    }

    /// The page-of-matches shortcut gives exactly the percentage of the full scores, for one and
    /// several assessments, counts of another model mixed in, and profiles with unknown
    /// competencies, negative and zero weights.
    #[test]
    fn scorer_match_percentage_equals_the_percentage_of_the_full_scores() {
        let m = model();
        let scorer = Scorer::new(&m);
        let ids: Vec<Uuid> = m.competencies.iter().map(|c| c.id).collect();
        let foreign = NeedCounts { model: "other@1".into(), responses: 9, exposure: vec![9; 3], chosen: vec![9; 3] };
        let mut checked = 0;
        for seed in 0..200u64 {
            let a = need_counts(&m, &seed_responses(&m, seed));
            let b = need_counts(&m, &seed_responses(&m, seed + 1_000));
            let k = seed as usize;
            let profiles: Vec<Vec<(Uuid, f64)>> = vec![
                vec![(ids[k % ids.len()], 1.0), (ids[(k + 3) % ids.len()], 0.5)],
                ids.iter().enumerate().map(|(i, id)| (*id, (i % 4) as f64 * 0.25)).collect(),
                vec![(Uuid::from_u128(7), 1.0), (ids[k % ids.len()], 2.0)],
                vec![(ids[k % ids.len()], 0.0)],
            ];
            for set in [vec![&a], vec![&a, &b], vec![&a, &foreign, &b], vec![&foreign], vec![]] {
                for p in &profiles {
                    assert_eq!(scorer.match_percentage(&set, p), match_percentage(p, &scorer.score(&set)));
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 200 * 5 * 4);
    }

    /// Property over many seeds: scores stay in range.
    #[test]
    fn scores_stay_in_range_for_any_responses() {
        let m = model();
        for seed in 0..300 {
            let r = seed_responses(&m, seed);
            assert!(check_responses(&m, &r).is_ok());
            let s = score(&m, &[&r, &r[..seed as usize % r.len()]]);
            for n in &s.needs {
                assert!(n.score > 0.0 && n.score < 1.0);
            }
            for c in &s.competencies {
                assert!((0.0..=1.0).contains(&c.score), "{}", c.score);
                assert_eq!(c.band, band(c.score));
            }
        }
    }

    /// Property: repeating identical responses never moves a need score away from the raw share.
    #[test]
    fn identical_assessments_move_scores_toward_their_share() {
        let m = model();
        for seed in 0..100 {
            let r = seed_responses(&m, seed);
            let one = score(&m, &[&r]);
            let two = score(&m, &[&r, &r]);
            for (a, b) in one.needs.iter().zip(&two.needs) {
                if a.exposure == 0 {
                    continue;
                }
                let chosen = r.iter().filter(|x| m.need_index(&x.chosen) == Some(a.need_index)).count() as f64;
                let share = chosen / f64::from(a.exposure);
                assert!((b.score - share).abs() <= (a.score - share).abs() + 1e-12);
            }
        }
    }

    /// Results of one person depend on that person's responses only.
    #[test]
    fn results_do_not_depend_on_other_persons() {
        let m = model();
        let a = seed_responses(&m, 1);
        let alone = score(&m, &[&a]);
        let _other = score(&m, &[&seed_responses(&m, 2)]);
        assert_eq!(score(&m, &[&a]), alone);
    }

    #[test]
    fn seeds_are_deterministic_and_differ() {
        let m = model();
        assert_eq!(seed_responses(&m, 7), seed_responses(&m, 7));
        assert_ne!(seed_responses(&m, 7), seed_responses(&m, 8));
    }

    #[test]
    fn bad_responses_are_reported_per_index() {
        let m = model();
        let r = vec![
            Response { shown: ["mastery".into(), "results".into()], chosen: "mastery".into() },
            Response { shown: ["nope".into(), "results".into()], chosen: "results".into() },
            Response { shown: ["mastery".into(), "mastery".into()], chosen: "mastery".into() },
            Response { shown: ["mastery".into(), "results".into()], chosen: "balance".into() },
        ];
        let e = check_responses(&m, &r).unwrap_err();
        assert_eq!(e.iter().map(|(i, _)| *i).collect::<Vec<_>>(), vec![1, 2, 3]);
    }

    /// The worked example of docs/scoring.md, so the document cannot drift from the code.
    #[test]
    fn the_documented_worked_example_holds() {
        let m = model();
        let r = vec![Response { shown: ["mastery".into(), "results".into()], chosen: "mastery".into() }; 3];
        let s = score(&m, &[&r]);
        let drive = m.competencies.iter().find(|c| c.name == "Drive for results").unwrap();
        let c = s.competencies.iter().find(|c| c.competency_id == drive.id).unwrap();
        assert!((c.score - (0.5 + (-0.18 + 0.09) / 1.4)).abs() < 1e-12, "{}", c.score);
        assert_eq!(c.band, Band::Limited);
        assert_eq!(match_percentage(&[(drive.id, 1.0)], &s), 44);
        assert_eq!(category(44), MatchCategory::Low);
    }

    #[test]
    fn match_percentage_weights_competencies() {
        let m = model();
        let s = score(&m, &[]);
        let c0 = m.competencies[0].id;
        assert_eq!(match_percentage(&[(c0, 1.0)], &s), 50);
        assert_eq!(match_percentage(&[], &s), 0);
    }
}
