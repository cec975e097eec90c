//! Talent's report adapters: [`TemplatePersonality`] writes `personality.markdown` from one
//! person's own results (D24), and [`PdfReport`] renders the one-person PDF report (D27) with
//! krilla and an embedded, subset DejaVu Sans (Latin with Vietnamese, Greek, Cyrillic; T112): name,
//! completion date, needs by axis, competency bands with a bar each, and the
//! personality text. Neither ever sees another person.

mod pdf;
mod personality;

pub use pdf::{PdfReport, DEBIAN_NOTO_SANS_CJK};
pub use personality::TemplatePersonality;
