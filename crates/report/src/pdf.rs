//! The PDF report (D27) with krilla: DejaVu Sans, embedded and subset to the glyphs the report
//! uses, so names in Latin (Vietnamese included), Greek and Cyrillic print as written (T112).

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{Font, TextDirection};
use krilla::Document;
use talent_domain::ports::{ReportInput, ReportRenderer};

/// Renders A4 pages: header, needs by axis, competency bands with bars, personality text.
#[derive(Default, Debug, Clone, Copy)]
pub struct PdfReport;

const W: f32 = 595.0;
const H: f32 = 842.0;
const MARGIN: f32 = 56.0;

/// DejaVu Sans (`fonts/README.md`): Latin, Greek, Cyrillic and more; not CJK. A character the
/// font lacks is drawn as its empty box, and the text layer keeps the character itself.
static REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// What is drawn on one page, top-down coordinates in points (the first pass lays the pages
/// out; the second draws them, one page of the document at a time).
enum Op {
    /// Text with its baseline at `y`.
    Text { x: f32, y: f32, size: f32, bold: bool, text: String },
    /// A bar of `width` whose first `value` (0..1) is filled, its top at `y`.
    Bar { x: f32, y: f32, width: f32, value: f32 },
}

/// Simple page layout: a cursor (distance from the top) that starts a new page when the space
/// runs out.
struct Layout {
    pages: Vec<Vec<Op>>,
    y: f32,
}

impl Layout {
    fn new() -> Self {
        Layout { pages: vec![vec![]], y: MARGIN }
    }
    fn need(&mut self, h: f32) {
        if self.y + h > H - MARGIN {
            self.pages.push(vec![]);
            self.y = MARGIN;
        }
    }
    fn push(&mut self, op: Op) {
        if let Some(page) = self.pages.last_mut() {
            page.push(op);
        }
    }
    fn text(&mut self, size: f32, bold: bool, x: f32, s: &str) {
        self.need(size + 6.0);
        let y = self.y + size;
        self.push(Op::Text { x, y, size, bold, text: s.to_string() });
        self.y += size + 6.0;
    }
    /// Wraps a paragraph at about `chars` characters per line.
    fn paragraph(&mut self, size: f32, x: f32, s: &str, chars: usize) {
        let mut line = String::new();
        for word in s.split_whitespace() {
            if line.chars().count() + word.chars().count() + 1 > chars && !line.is_empty() {
                self.text(size, false, x, &line);
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            self.text(size, false, x, &line);
        }
    }
    /// A bar on the line just written, level with its text.
    fn bar(&mut self, x: f32, width: f32, value: f32) {
        let y = self.y - 13.0;
        self.push(Op::Bar { x, y, width, value });
    }
    /// Text on the line just written, at `x`.
    fn beside(&mut self, size: f32, x: f32, s: &str) {
        let y = self.y - 6.0;
        self.push(Op::Text { x, y, size, bold: false, text: s.to_string() });
    }
}

fn strip_markdown(line: &str) -> String {
    line.trim_start_matches('#').trim().trim_start_matches("- ").replace("**", "")
}

/// A rectangle filled with `fill`.
fn rect(surface: &mut krilla::surface::Surface<'_>, x: f32, y: f32, w: f32, h: f32, fill: rgb::Color) {
    let Some(r) = Rect::from_xywh(x, y, w, h) else { return };
    let mut pb = PathBuilder::new();
    pb.push_rect(r);
    if let Some(path) = pb.finish() {
        surface.set_fill(Some(Fill { paint: fill.into(), ..Fill::default() }));
        surface.draw_path(&path);
    }
}

impl ReportRenderer for PdfReport {
    fn render(&self, input: &ReportInput<'_>) -> Result<Vec<u8>, String> {
        let p = input.person;
        let name = match (&p.first_name, &p.last_name) {
            (Some(f), Some(l)) => format!("{} {}", f.as_str(), l.as_str()),
            (Some(f), None) => f.as_str().to_string(),
            (None, Some(l)) => l.as_str().to_string(),
            (None, None) => p.email.as_str().to_string(),
        };
        let date = input.completed_at.date();
        let mut l = Layout::new();
        l.text(20.0, true, MARGIN, "Assessment report");
        l.text(14.0, true, MARGIN, &name);
        l.text(10.0, false, MARGIN, &format!("{}  ·  completed {}", p.email.as_str(), date));
        l.text(
            9.0,
            false,
            MARGIN,
            &format!(
                "{} ({}), mapping {}; {} assessment(s), {} responses",
                input.model.name,
                input.model.version,
                input.model.mapping.name,
                input.scores.assessments,
                input.scores.responses
            ),
        );
        l.y += 8.0;
        l.text(13.0, true, MARGIN, "Needs by motivation axis");
        let needs: Vec<_> = input.model.needs().collect();
        for axis in &input.model.axes {
            l.text(11.0, true, MARGIN, &format!("{} ({})", axis.name, axis.code));
            for n in &axis.needs {
                let Some(idx) = needs.iter().position(|x| x.id == n.id) else { continue };
                let Some(r) = input.scores.needs.iter().find(|r| r.need_index == idx) else { continue };
                l.text(9.5, false, MARGIN + 10.0, &format!("{}{}", n.name, if n.is_anchor { " (anchor)" } else { "" }));
                l.bar(MARGIN + 150.0, 200.0, r.score as f32);
            }
        }
        l.y += 8.0;
        l.text(13.0, true, MARGIN, "Competencies: motivational support");
        for c in &input.scores.competencies {
            let Some(m) = input.model.competency(c.competency_id) else { continue };
            l.text(9.5, false, MARGIN + 10.0, &m.name);
            l.bar(MARGIN + 190.0, 200.0, c.score as f32);
            l.beside(9.0, MARGIN + 400.0, c.band.as_str());
        }
        l.y += 8.0;
        l.text(13.0, true, MARGIN, "Personality");
        for line in input.personality.lines().filter(|x| !x.trim().is_empty()) {
            if line.starts_with('#') {
                l.text(11.0, true, MARGIN, &strip_markdown(line));
            } else {
                l.paragraph(9.5, MARGIN + 10.0, &strip_markdown(line), 95);
            }
        }
        l.y += 8.0;
        l.paragraph(8.0, MARGIN, "This report describes one person. Scores describe how strongly motivation supports each competency; they are not a measure of skill and are never compared between persons.", 110);

        let regular = Font::new(REGULAR.into(), 0).ok_or("the embedded regular font does not load")?;
        let bold = Font::new(BOLD.into(), 0).ok_or("the embedded bold font does not load")?;
        let size = PageSettings::from_wh(W, H).ok_or("A4 is a page size")?;
        let mut doc = Document::new();
        for ops in l.pages {
            let mut page = doc.start_page_with(size.clone());
            let mut surface = page.surface();
            for op in ops {
                match op {
                    Op::Text { x, y, size, bold: b, text } => {
                        surface.set_fill(Some(Fill::default()));
                        let font = if b { bold.clone() } else { regular.clone() };
                        surface.draw_text(Point::from_xy(x, y), font, size, &text, false, TextDirection::Auto);
                    }
                    Op::Bar { x, y, width, value } => {
                        rect(&mut surface, x, y, width, 8.0, rgb::Color::new(224, 224, 224));
                        let filled = width * value.clamp(0.0, 1.0);
                        if filled > 0.0 {
                            rect(&mut surface, x, y, filled, 8.0, rgb::Color::new(41, 107, 199));
                        }
                    }
                }
            }
            surface.finish();
            page.finish();
        }
        doc.finish().map_err(|e| format!("writing the PDF: {e:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TemplatePersonality;
    use talent_domain::assessment::{score, seed_responses, AssessmentModel};
    use talent_domain::ids::*;
    use talent_domain::person::{JoinedVia, Person, PersonStatus};
    use talent_domain::ports::PersonalityWriter;
    use talent_domain::results::AssessmentSummary;
    use talent_domain::values::*;

    fn person() -> Person {
        let t = talent_domain::timefmt::parse("2026-03-04T05:06:07Z").unwrap();
        Person {
            id: PersonId(uuid::Uuid::from_u128(1)),
            org_id: OrgId(uuid::Uuid::from_u128(2)),
            human_id: HumanId(uuid::Uuid::from_u128(3)),
            email: Email::parse("zoe@example.com").unwrap(),
            first_name: Some(PersonName::parse("Zoë").unwrap()),
            last_name: Some(PersonName::parse("Quist").unwrap()),
            external_id: None,
            status: PersonStatus::Active,
            archive_reason: None,
            labels: Labels::DEFAULT,
            tags: vec![],
            joined_via: JoinedVia::Api,
            shared_existing_profile: false,
            assessment: AssessmentSummary::NONE,
            member_since: t,
            updated_at: t,
            archived_at: None,
            inactive_periods: vec![],
        }
    }

    #[test]
    fn the_report_is_a_valid_pdf_naming_the_person() {
        let model = AssessmentModel::builtin().unwrap();
        let r = seed_responses(&model, 11);
        let scores = score(&model, &[&r]);
        let text = TemplatePersonality.describe(&model, &scores);
        let p = person();
        let input = ReportInput {
            person: &p,
            completed_at: p.member_since,
            model: &model,
            scores: &scores,
            personality: &text,
        };
        let bytes = PdfReport.render(&input).unwrap();
        assert!(bytes.starts_with(b"%PDF-"));
        let doc = lopdf::Document::load_mem(&bytes).expect("parses back");
        let pages = doc.get_pages();
        assert!(!pages.is_empty());
        let numbers: Vec<u32> = pages.keys().copied().collect();
        let all = doc.extract_text(&numbers).unwrap();
        assert!(all.contains("Quist"), "{all}");
        assert!(all.contains("Assessment report"));
        assert!(all.contains("2026-03-04"));
        assert!(all.contains(&model.competencies[0].name));
    }

    /// The text of every page, as a PDF reader extracts it.
    fn text_of(bytes: &[u8]) -> String {
        let doc = lopdf::Document::load_mem(bytes).expect("parses back");
        let numbers: Vec<u32> = doc.get_pages().keys().copied().collect();
        doc.extract_text(&numbers).unwrap()
    }

    fn report_of(first: &str, last: &str) -> Vec<u8> {
        let model = AssessmentModel::builtin().unwrap();
        let r = seed_responses(&model, 11);
        let scores = score(&model, &[&r]);
        let text = TemplatePersonality.describe(&model, &scores);
        let mut p = person();
        p.first_name = Some(PersonName::parse(first).unwrap());
        p.last_name = Some(PersonName::parse(last).unwrap());
        let input = ReportInput {
            person: &p,
            completed_at: p.member_since,
            model: &model,
            scores: &scores,
            personality: &text,
        };
        PdfReport.render(&input).unwrap()
    }

    #[test]
    fn names_in_latin_vietnamese_greek_and_cyrillic_print_as_written_t112() {
        for (first, last) in [("Łukasz", "Nguyễn"), ("Σωκράτης", "Παπαδόπουλος"), ("Дмитрий", "Шостакович")]
        {
            let bytes = report_of(first, last);
            let text = text_of(&bytes);
            assert!(text.contains(first) && text.contains(last), "{first} {last} in {text}");
            assert!(!text.contains('?'), "no character replaced: {text}");
        }
    }

    #[test]
    fn a_name_in_a_script_the_font_lacks_still_gives_a_report_with_the_email_t112() {
        // CJK is not in DejaVu Sans: those characters print as empty boxes; the address under
        // the name says who it is.
        let text = text_of(&report_of("王", "小明"));
        assert!(text.contains("zoe@example.com"), "{text}");
        assert!(text.contains("Assessment report"));
    }

    #[test]
    fn the_fonts_are_embedded_as_subsets_t112() {
        let bytes = report_of("Łukasz", "Nguyễn");
        let doc = lopdf::Document::load_mem(&bytes).unwrap();
        let fonts: Vec<String> = doc
            .objects
            .values()
            .filter_map(|o| o.as_dict().ok())
            .filter(|d| d.get(b"Type").and_then(|t| t.as_name()).ok() == Some(b"FontDescriptor"))
            .filter_map(|d| {
                d.get(b"FontName").and_then(|n| n.as_name()).ok().map(|n| String::from_utf8_lossy(n).to_string())
            })
            .collect();
        assert_eq!(fonts.len(), 2, "regular and bold: {fonts:?}");
        // A subset's name is a six-letter tag, `+`, the font's name (PDF 32000, 9.6.4).
        assert!(fonts.iter().all(|f| f.len() > 7 && f.as_bytes()[6] == b'+' && f.contains("DejaVuSans")), "{fonts:?}");
        assert!(bytes.len() < 200_000, "subset, not the whole 1.4 MB of fonts: {} bytes", bytes.len());
    }

    #[test]
    fn personality_names_the_top_motivators_and_bands() {
        let model = AssessmentModel::builtin().unwrap();
        let r = seed_responses(&model, 3);
        let scores = score(&model, &[&r]);
        let md = TemplatePersonality.describe(&model, &scores);
        assert!(md.starts_with("## What drives this person"));
        assert!(md.contains("Based on 1 assessment and 48 responses"));
        assert_eq!(md, TemplatePersonality.describe(&model, &scores), "deterministic");
    }
}
