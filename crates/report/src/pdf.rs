//! The PDF report (D27) with krilla, in the reader's language (T217): DejaVu Sans, embedded and
//! subset to the glyphs the report uses, so names in Latin (Vietnamese included), Greek,
//! Cyrillic, Arabic and Hebrew print as written (T112); lines with Chinese, Japanese or Korean
//! characters are set in Noto Sans CJK, also embedded as a subset, when the operator's system
//! has it (T220).

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{Font, TextDirection};
use krilla::Document;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use talent_domain::assessment::ModelWords;
use talent_domain::ports::{ReportInput, ReportRenderer, TextArg, Texts};
use talent_domain::values::Locale;

/// Renders A4 pages: header, needs by axis, competency bands with bars, personality text,
/// accommodations, in the report's locale.
#[derive(Clone)]
pub struct PdfReport {
    texts: Arc<dyn Texts>,
    /// A font collection with CJK faces in Noto Sans CJK's order (JP, KR, SC, …), if any.
    cjk: Option<Cjk>,
}

/// Where the CJK font collection's bytes are (T315).
#[derive(Clone)]
enum Cjk {
    /// Given in memory.
    Loaded(krilla::Data),
    /// A file, checked when the renderer was made and read by the first report with CJK text
    /// (Noto Sans CJK is 19.5 MB: a service that renders no such report never holds it).
    File { path: PathBuf, data: Arc<OnceLock<Option<krilla::Data>>> },
}

impl Cjk {
    /// The collection's bytes; `None` when its file cannot be read any more.
    fn data(&self) -> Option<krilla::Data> {
        match self {
            Cjk::Loaded(d) => Some(d.clone()),
            Cjk::File { path, data } => data.get_or_init(|| std::fs::read(path).ok().map(krilla::Data::from)).clone(),
        }
    }
}

/// `d` if krilla reads its first face; the error every constructor of [`PdfReport`] gives.
fn loads(d: krilla::Data) -> Result<krilla::Data, String> {
    Font::new(d.clone(), 0).map(|_| d).ok_or_else(|| "the CJK font does not load".to_string())
}

impl std::fmt::Debug for PdfReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PdfReport").field("cjk", &self.cjk.is_some()).finish()
    }
}

/// Where Debian's `fonts-noto-cjk` puts Noto Sans CJK (a TrueType/OpenType collection whose faces
/// are JP, KR, SC, TC, HK, …): the default of `TALENT_REPORT_CJK_FONT` (T220).
pub const DEBIAN_NOTO_SANS_CJK: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

const W: f32 = 595.0;
const H: f32 = 842.0;
const MARGIN: f32 = 56.0;

/// DejaVu Sans (`fonts/README.md`): Latin, Greek, Cyrillic, Arabic, Hebrew and more; not CJK.
static REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

impl PdfReport {
    /// A renderer whose words come from `texts`. `cjk` is a font collection in Noto Sans CJK's
    /// face order (the bytes of [`DEBIAN_NOTO_SANS_CJK`]); without it CJK characters print as
    /// empty boxes (the text layer keeps them). Errors: `cjk` is not a font krilla reads.
    pub fn new(texts: Arc<dyn Texts>, cjk: Option<Vec<u8>>) -> Result<PdfReport, String> {
        let cjk = cjk.map(|bytes| loads(krilla::Data::from(bytes))).transpose()?;
        Ok(PdfReport { texts, cjk: cjk.map(Cjk::Loaded) })
    }

    /// As [`PdfReport::new`], the CJK collection read from the file at `path` (e.g.
    /// [`DEBIAN_NOTO_SANS_CJK`]): read and checked now, then dropped, and read again by the first
    /// report with CJK text, which keeps it (T315). Errors: the file cannot be read, or is not a
    /// font krilla reads. A file gone later gives reports with empty boxes for CJK text.
    pub fn with_cjk_file(texts: Arc<dyn Texts>, path: &Path) -> Result<PdfReport, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        loads(krilla::Data::from(bytes))?;
        let cjk = Cjk::File { path: path.to_path_buf(), data: Arc::new(OnceLock::new()) };
        Ok(PdfReport { texts, cjk: Some(cjk) })
    }

    /// Whether CJK text prints in its own glyphs.
    pub fn has_cjk(&self) -> bool {
        self.cjk.is_some()
    }
}

/// Whether `s` holds a Chinese, Japanese or Korean character (ideographs, kana, Hangul, CJK
/// punctuation and full-width forms): such a line is set in the CJK face.
fn is_cjk_text(s: &str) -> bool {
    s.chars().any(|c| {
        matches!(c as u32,
            0x1100..=0x11FF | 0x2E80..=0x2FDF | 0x3000..=0x30FF | 0x3100..=0x31FF | 0x3200..=0x9FFF
            | 0xA960..=0xA97F | 0xAC00..=0xD7FF | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFFEF
            | 0x20000..=0x3FFFF)
    })
}

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
    /// Wraps a paragraph at about `chars` characters per line: at spaces, or for CJK text (which
    /// has none) after as many full-width characters as the line holds.
    fn paragraph(&mut self, size: f32, x: f32, s: &str, chars: usize) {
        if is_cjk_text(s) {
            let per_line = (((W - MARGIN - x) / size) as usize).max(1);
            let all: Vec<char> = s.chars().collect();
            for chunk in all.chunks(per_line) {
                self.text(size, false, x, &chunk.iter().collect::<String>());
            }
            return;
        }
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
        let locale = input.locale;
        let t = |key: &str, args: &[(&str, TextArg<'_>)]| self.texts.message(locale, key, args);
        let name = match (&p.first_name, &p.last_name) {
            (Some(f), Some(l)) if matches!(locale, Locale::Ja | Locale::ZhHans) && is_cjk_text(f.as_str()) => {
                // Family name first, as Japanese and Chinese write a name in their script.
                format!("{}{}", l.as_str(), f.as_str())
            }
            (Some(f), Some(l)) => format!("{} {}", f.as_str(), l.as_str()),
            (Some(f), None) => f.as_str().to_string(),
            (None, Some(l)) => l.as_str().to_string(),
            (None, None) => p.email.as_str().to_string(),
        };
        let date = self.texts.date(locale, &input.zone, input.completed_at);
        let mut l = Layout::new();
        l.text(20.0, true, MARGIN, &t("report-title", &[]));
        l.text(14.0, true, MARGIN, &name);
        let completed = t("report-completed", &[("date", TextArg::Text(&date))]);
        l.text(10.0, false, MARGIN, &format!("{}  ·  {completed}", p.email.as_str()));
        let count = |n: u32| TextArg::Number(i64::from(n));
        let basis = t(
            "report-basis",
            &[("assessments", count(input.scores.assessments)), ("responses", count(input.scores.responses))],
        );
        let model = t(
            "report-model",
            &[
                ("model", TextArg::Text(&input.model.name)),
                ("version", TextArg::Text(&input.model.version)),
                ("mapping", TextArg::Text(&input.model.mapping.name)),
            ],
        );
        l.text(9.0, false, MARGIN, &format!("{basis}  ·  {model}"));
        if let Some(a) = input.accommodations.filter(|a| a.any()) {
            l.y += 8.0;
            l.text(13.0, true, MARGIN, &t("report-accommodations", &[]));
            for line in talent_domain::usecases::accommodation_lines(&*self.texts, locale, a) {
                l.paragraph(9.5, MARGIN + 10.0, &line, 95);
            }
        }
        l.y += 8.0;
        l.text(13.0, true, MARGIN, &t("report-needs", &[]));
        let needs: Vec<_> = input.model.needs().collect();
        let anchor = format!(" ({})", t("report-anchor", &[]));
        let words = ModelWords::new(&*self.texts, locale);
        for axis in &input.model.axes {
            l.text(11.0, true, MARGIN, &format!("{} ({})", words.axis(axis), axis.code));
            for n in &axis.needs {
                let Some(idx) = needs.iter().position(|x| x.id == n.id) else { continue };
                let Some(r) = input.scores.needs.iter().find(|r| r.need_index == idx) else { continue };
                l.text(
                    9.5,
                    false,
                    MARGIN + 10.0,
                    &format!("{}{}", words.need(n), if n.is_anchor { anchor.as_str() } else { "" }),
                );
                l.bar(MARGIN + 150.0, 200.0, r.score as f32);
            }
        }
        l.y += 8.0;
        l.text(13.0, true, MARGIN, &t("report-competencies", &[]));
        for c in &input.scores.competencies {
            let Some(m) = input.model.competency(c.competency_id) else { continue };
            l.text(9.5, false, MARGIN + 10.0, &words.competency(m));
            l.bar(MARGIN + 190.0, 200.0, c.score as f32);
            l.beside(9.0, MARGIN + 400.0, &t(&format!("report-band-{}", c.band.as_str()), &[]));
        }
        l.y += 8.0;
        l.text(13.0, true, MARGIN, &t("report-personality", &[]));
        for line in input.personality.lines().filter(|x| !x.trim().is_empty()) {
            if line.starts_with('#') {
                l.text(11.0, true, MARGIN, &strip_markdown(line));
            } else {
                l.paragraph(9.5, MARGIN + 10.0, &strip_markdown(line), 95);
            }
        }
        l.y += 8.0;
        l.paragraph(8.0, MARGIN, &t("report-footer", &[]), 110);

        let regular = Font::new(REGULAR.into(), 0).ok_or("the embedded regular font does not load")?;
        let bold = Font::new(BOLD.into(), 0).ok_or("the embedded bold font does not load")?;
        // The face of the report's language: Simplified Chinese for `zh-Hans`, else Japanese
        // (the CJK faces share most glyphs; they differ in the forms of some ideographs).
        let face = if locale == Locale::ZhHans { 2 } else { 0 };
        // The CJK collection only for a report with CJK text: the others never read its file.
        let needs_cjk = l.pages.iter().flatten().any(|op| matches!(op, Op::Text { text, .. } if is_cjk_text(text)));
        let cjk = self.cjk.as_ref().filter(|_| needs_cjk).and_then(Cjk::data).and_then(|d| Font::new(d, face));
        let size = PageSettings::from_wh(W, H).ok_or("A4 is a page size")?;
        let mut doc = Document::new();
        for ops in l.pages {
            let mut page = doc.start_page_with(size.clone());
            let mut surface = page.surface();
            for op in ops {
                match op {
                    Op::Text { x, y, size, bold: b, text } => {
                        surface.set_fill(Some(Fill::default()));
                        let font = match &cjk {
                            Some(c) if is_cjk_text(&text) => c.clone(),
                            _ if b => bold.clone(),
                            _ => regular.clone(),
                        };
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
    use talent_domain::assessment::{score, seed_responses, AssessmentModel, Band};
    use talent_domain::ids::*;
    use talent_domain::person::{JoinedVia, Person, PersonStatus};
    use talent_domain::ports::PersonalityWriter;
    use talent_domain::results::AssessmentSummary;
    use talent_domain::values::*;

    fn personality() -> TemplatePersonality {
        TemplatePersonality::new(Arc::new(talent_domain::fakes::FakeTexts))
    }

    /// The renderer with the fake texts (which show the message ids) and, when this machine has
    /// it, Debian's Noto Sans CJK.
    fn renderer() -> PdfReport {
        let cjk = std::fs::read(DEBIAN_NOTO_SANS_CJK).ok();
        PdfReport::new(Arc::new(talent_domain::fakes::FakeTexts), cjk).unwrap()
    }

    fn input<'a>(
        p: &'a Person,
        model: &'a AssessmentModel,
        scores: &'a talent_domain::assessment::Scores,
        text: &'a str,
    ) -> ReportInput<'a> {
        ReportInput {
            person: p,
            completed_at: p.member_since,
            model,
            scores,
            personality: text,
            locale: Locale::En,
            zone: TimeZone::utc(),
            accommodations: None,
        }
    }

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
        let text = personality().describe(&model, &scores, Locale::En);
        let p = person();
        let bytes = renderer().render(&input(&p, &model, &scores, &text)).unwrap();
        assert!(bytes.starts_with(b"%PDF-"));
        let doc = lopdf::Document::load_mem(&bytes).expect("parses back");
        let pages = doc.get_pages();
        assert!(!pages.is_empty());
        let numbers: Vec<u32> = pages.keys().copied().collect();
        let all = doc.extract_text(&numbers).unwrap();
        assert!(all.contains("Quist"), "{all}");
        assert!(all.contains("report-title[en]"), "the report's words are the texts': {all}");
        assert!(all.contains("2026-03-04"));
        assert!(all.contains(&model.competencies[0].name));
    }

    /// The names of the fonts a PDF embeds (its font descriptors' `FontName`s).
    fn font_names(bytes: &[u8]) -> Vec<String> {
        let doc = lopdf::Document::load_mem(bytes).unwrap();
        doc.objects
            .values()
            .filter_map(|o| o.as_dict().ok())
            .filter(|d| d.get(b"Type").and_then(|t| t.as_name()).ok() == Some(b"FontDescriptor"))
            .filter_map(|d| {
                d.get(b"FontName").and_then(|n| n.as_name()).ok().map(|n| String::from_utf8_lossy(n).to_string())
            })
            .collect()
    }

    /// T220: right-to-left names print in DejaVu Sans (which has Arabic and Hebrew) from right
    /// to left: the glyphs stand on the page in visual order, so a reader that takes them left to
    /// right (lopdf) gets the name's letters reversed, the first name rightmost.
    #[test]
    fn arabic_and_hebrew_names_print_right_to_left_t220() {
        for (first, last) in [("ليلى", "حداد"), ("נועה", "כהן")] {
            let text: String = text_of(&report_of(first, last)).chars().filter(|c| !c.is_whitespace()).collect();
            let visual: String = format!("{first}{last}").chars().rev().collect();
            assert!(text.contains(&visual), "{first} {last} drawn right to left in {text}");
        }
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
        let text = personality().describe(&model, &scores, Locale::En);
        let mut p = person();
        p.first_name = Some(PersonName::parse(first).unwrap());
        p.last_name = Some(PersonName::parse(last).unwrap());
        renderer().render(&input(&p, &model, &scores, &text)).unwrap()
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
    fn without_a_cjk_font_a_cjk_name_still_gives_a_report_with_the_email_t112() {
        // Without Noto Sans CJK those characters print as empty boxes; the address under the
        // name says who it is.
        let model = AssessmentModel::builtin().unwrap();
        let scores = score(&model, &[&seed_responses(&model, 11)]);
        let mut p = person();
        p.first_name = Some(PersonName::parse("王").unwrap());
        let plain = PdfReport::new(Arc::new(talent_domain::fakes::FakeTexts), None).unwrap();
        let text = text_of(&plain.render(&input(&p, &model, &scores, "")).unwrap());
        assert!(text.contains("zoe@example.com"), "{text}");
        assert!(text.contains("Quist"), "{text}");
    }

    /// `r`'s report in Japanese of 山田太郎.
    fn japanese_report(r: &PdfReport) -> Vec<u8> {
        let model = AssessmentModel::builtin().unwrap();
        let scores = score(&model, &[&seed_responses(&model, 11)]);
        let mut p = person();
        p.first_name = Some(PersonName::parse("太郎").unwrap());
        p.last_name = Some(PersonName::parse("山田").unwrap());
        let mut i = input(&p, &model, &scores, "");
        i.locale = Locale::Ja;
        r.render(&i).unwrap()
    }

    /// T220: with Noto Sans CJK, a Japanese name is set in it, family name first in a Japanese
    /// report, both fonts embedded as subsets; the text extracts back as written.
    #[test]
    fn a_japanese_name_prints_in_the_cjk_font_t220() {
        let r = renderer();
        if !r.has_cjk() {
            eprintln!("skipped: {DEBIAN_NOTO_SANS_CJK} is not installed (make test installs it)");
            return;
        }
        let bytes = japanese_report(&r);
        let text = text_of(&bytes);
        assert!(text.contains("山田太郎"), "{text}");
        let fonts = font_names(&bytes);
        assert!(fonts.iter().any(|f| f.contains("NotoSansCJK")), "{fonts:?}");
        assert!(fonts.iter().all(|f| f.as_bytes().get(6) == Some(&b'+')), "subsets: {fonts:?}");
        assert!(bytes.len() < 300_000, "subset, not the 19 MB collection: {} bytes", bytes.len());
    }

    /// T315: a renderer over the font's file checks it at once, reads it only for a report with
    /// CJK text, and then prints that report in it.
    #[test]
    fn the_cjk_file_is_checked_at_once_and_read_by_the_first_report_that_needs_it_t315() {
        let texts = || -> Arc<dyn Texts> { Arc::new(talent_domain::fakes::FakeTexts) };
        let missing = PdfReport::with_cjk_file(texts(), Path::new("/nonexistent/NotoSansCJK.ttc"));
        assert!(missing.is_err_and(|e| e.contains("/nonexistent/NotoSansCJK.ttc")));
        let not_a_font = std::env::temp_dir().join(format!("talent-not-a-font-{}.ttc", std::process::id()));
        std::fs::write(&not_a_font, b"not a font").unwrap();
        let refused = PdfReport::with_cjk_file(texts(), &not_a_font);
        let _ = std::fs::remove_file(&not_a_font);
        assert_eq!(refused.err().as_deref(), Some("the CJK font does not load"));
        if !Path::new(DEBIAN_NOTO_SANS_CJK).exists() {
            eprintln!("skipped: {DEBIAN_NOTO_SANS_CJK} is not installed (make test installs it)");
            return;
        }
        let r = PdfReport::with_cjk_file(texts(), Path::new(DEBIAN_NOTO_SANS_CJK)).unwrap();
        assert!(r.has_cjk());
        let read = |r: &PdfReport| matches!(&r.cjk, Some(Cjk::File { data, .. }) if data.get().is_some());
        assert!(!read(&r), "checked, not kept");
        let model = AssessmentModel::builtin().unwrap();
        let scores = score(&model, &[&seed_responses(&model, 11)]);
        let latin = person();
        let bytes = r.render(&input(&latin, &model, &scores, "")).unwrap();
        assert_eq!(font_names(&bytes).len(), 2, "regular and bold only");
        assert!(!read(&r), "a report without CJK text leaves the file unread");
        let bytes = japanese_report(&r);
        assert!(text_of(&bytes).contains("山田太郎"));
        assert!(font_names(&bytes).iter().any(|f| f.contains("NotoSansCJK")));
        assert!(read(&r), "read by the first report with CJK text, and kept");
    }

    #[test]
    fn the_fonts_are_embedded_as_subsets_t112() {
        let bytes = report_of("Łukasz", "Nguyễn");
        let fonts = font_names(&bytes);
        assert_eq!(fonts.len(), 2, "regular and bold, no CJK face for a Latin report: {fonts:?}");
        // A subset's name is a six-letter tag, `+`, the font's name (PDF 32000, 9.6.4).
        assert!(fonts.iter().all(|f| f.len() > 7 && f.as_bytes()[6] == b'+' && f.contains("DejaVuSans")), "{fonts:?}");
        assert!(bytes.len() < 200_000, "subset, not the whole 1.4 MB of fonts: {} bytes", bytes.len());
    }

    /// T222: the personality text is the texts' sentences around the model's words in the
    /// reader's language (the fake texts show the ids and the locale asked for).
    #[test]
    fn personality_is_written_in_the_readers_language_t222() {
        let model = AssessmentModel::builtin().unwrap();
        let scores = score(&model, &[&seed_responses(&model, 3)]);
        let md = personality().describe(&model, &scores, Locale::En);
        assert!(md.starts_with("## personality-drives[en]()"), "{md}");
        assert!(md.contains("personality-basis[en](assessments=1; responses=48)"), "{md}");
        let named =
            scores.competencies.iter().find(|c| c.band == Band::High).and_then(|c| model.competency(c.competency_id));
        assert!(md.contains(&format!("**{}**", named.unwrap().name)), "{md}");
        assert!(!md.contains("model-"), "English names are the model's own: {md}");
        assert_eq!(md, personality().describe(&model, &scores, Locale::En), "deterministic");
        let de = personality().describe(&model, &scores, Locale::De);
        assert!(de.starts_with("## personality-drives[de]()"), "{de}");
        assert!(de.contains("model-need-") && de.contains("[de]**"), "the needs' German names: {de}");
        for n in model.needs() {
            assert!(!de.contains(&format!("**{}**", n.name)), "no English need name in {de}");
        }
    }

    /// T222: the report names axes, needs and competencies in its language.
    #[test]
    fn the_report_names_the_model_in_its_language_t222() {
        let model = AssessmentModel::builtin().unwrap();
        let scores = score(&model, &[&seed_responses(&model, 11)]);
        let p = person();
        let mut i = input(&p, &model, &scores, "");
        i.locale = Locale::Fr;
        let text = text_of(&renderer().render(&i).unwrap());
        for key in [
            format!("model-axis-{}[fr]", model.axes[0].code),
            format!("model-need-{}[fr]", model.axes[0].needs[0].id),
            format!("model-competency-{}[fr]", model.competencies[0].id),
        ] {
            assert!(text.contains(&key), "{key} in {text}");
        }
        assert!(!text.contains(&model.competencies[0].name), "{text}");
    }
}
