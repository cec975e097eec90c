//! The PDF report (D27) with pdf-writer and the standard Helvetica font (WinAnsi encoding).

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};
use talent_domain::ports::{ReportInput, ReportRenderer};

/// Renders A4 pages: header, needs by axis, competency bands with bars, personality text.
#[derive(Default, Debug, Clone, Copy)]
pub struct PdfReport;

const W: f32 = 595.0;
const H: f32 = 842.0;
const MARGIN: f32 = 56.0;

/// Text in WinAnsi (Latin-1 subset); characters outside it become `?`.
fn win_ansi(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| match c {
            '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{ff}' => c as u32 as u8,
            '–' => 0x96,
            '—' => 0x97,
            '’' => 0x92,
            '“' => 0x93,
            '”' => 0x94,
            '•' => 0x95,
            _ => b'?',
        })
        .collect()
}

/// Simple page layout: a cursor that starts a new page when the space runs out.
struct Layout {
    pages: Vec<Content>,
    y: f32,
}

impl Layout {
    fn new() -> Self {
        Layout { pages: vec![Content::new()], y: H - MARGIN }
    }
    fn need(&mut self, h: f32) {
        if self.y - h < MARGIN {
            self.pages.push(Content::new());
            self.y = H - MARGIN;
        }
    }
    fn page(&mut self) -> &mut Content {
        let n = self.pages.len() - 1;
        &mut self.pages[n]
    }
    fn text(&mut self, size: f32, bold: bool, x: f32, s: &str) {
        self.need(size + 6.0);
        let y = self.y - size;
        let font = if bold { Name(b"F2") } else { Name(b"F1") };
        let bytes = win_ansi(s);
        let c = self.page();
        c.begin_text();
        c.set_font(font, size);
        c.next_line(x, y);
        c.show(Str(&bytes));
        c.end_text();
        self.y -= size + 6.0;
    }
    /// Wraps a paragraph at about `chars` characters per line.
    fn paragraph(&mut self, size: f32, x: f32, s: &str, chars: usize) {
        let mut line = String::new();
        for word in s.split_whitespace() {
            if line.len() + word.len() + 1 > chars && !line.is_empty() {
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
    /// A bar on the line just written (its baseline is 6 pt above the cursor).
    fn bar(&mut self, x: f32, width: f32, value: f32) {
        let y = self.y + 5.0;
        let c = self.page();
        c.set_fill_gray(0.88);
        c.rect(x, y, width, 8.0);
        c.fill_nonzero();
        c.set_fill_rgb(0.16, 0.42, 0.78);
        c.rect(x, y, width * value.clamp(0.0, 1.0), 8.0);
        c.fill_nonzero();
        c.set_fill_gray(0.0);
    }
}

fn strip_markdown(line: &str) -> String {
    line.trim_start_matches('#').trim().trim_start_matches("- ").replace("**", "")
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
        l.y -= 8.0;
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
        l.y -= 8.0;
        l.text(13.0, true, MARGIN, "Competencies: motivational support");
        for c in &input.scores.competencies {
            let Some(m) = input.model.competency(c.competency_id) else { continue };
            l.text(9.5, false, MARGIN + 10.0, &m.name);
            l.bar(MARGIN + 190.0, 200.0, c.score as f32);
            let y = l.y + 6.0;
            let band = win_ansi(c.band.as_str());
            let page = l.page();
            page.begin_text();
            page.set_font(Name(b"F1"), 9.0);
            page.next_line(MARGIN + 400.0, y);
            page.show(Str(&band));
            page.end_text();
        }
        l.y -= 8.0;
        l.text(13.0, true, MARGIN, "Personality");
        for line in input.personality.lines().filter(|x| !x.trim().is_empty()) {
            if line.starts_with('#') {
                l.text(11.0, true, MARGIN, &strip_markdown(line));
            } else {
                l.paragraph(9.5, MARGIN + 10.0, &strip_markdown(line), 95);
            }
        }
        l.y -= 8.0;
        l.paragraph(8.0, MARGIN, "This report describes one person. Scores describe how strongly motivation supports each competency; they are not a measure of skill and are never compared between persons.", 110);

        // Objects: 1 catalog, 2 page tree, 3 regular font, 4 bold font, then (page, content) pairs.
        let catalog = Ref::new(1);
        let tree = Ref::new(2);
        let font = Ref::new(3);
        let bold = Ref::new(4);
        let n = l.pages.len() as i32;
        let page_ids: Vec<Ref> = (0..n).map(|i| Ref::new(5 + 2 * i)).collect();
        let mut pdf = Pdf::new();
        pdf.catalog(catalog).pages(tree);
        pdf.pages(tree).kids(page_ids.iter().copied()).count(n);
        pdf.type1_font(font).base_font(Name(b"Helvetica")).encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.type1_font(bold).base_font(Name(b"Helvetica-Bold")).encoding_predefined(Name(b"WinAnsiEncoding"));
        for (i, content) in l.pages.into_iter().enumerate() {
            let page_id = page_ids[i];
            let content_id = Ref::new(page_id.get() + 1);
            let mut page = pdf.page(page_id);
            page.media_box(Rect::new(0.0, 0.0, W, H));
            page.parent(tree);
            page.contents(content_id);
            let mut res = page.resources();
            let mut fonts = res.fonts();
            fonts.pair(Name(b"F1"), font);
            fonts.pair(Name(b"F2"), bold);
            fonts.finish();
            res.finish();
            page.finish();
            let bytes = content.finish();
            pdf.stream(content_id, &bytes);
        }
        Ok(pdf.finish())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TemplatePersonality;
    use talent_domain::assessment::{score, seed_responses, AssessmentModel};
    use talent_domain::ids::*;
    use talent_domain::model::*;
    use talent_domain::ports::PersonalityWriter;
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
