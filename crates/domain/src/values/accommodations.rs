//! What an invitation grants the person for the assessment (issue 37, T218): extra time,
//! breaks, a screen reader, a note. Stored with the assessment the invitation starts, shown to
//! the person, printed in the report; never part of scoring.

/// The extra time an invitation may grant, in percent of the standard time (T218).
pub const EXTRA_TIME_PERCENTS: [u8; 4] = [0, 25, 50, 100];
/// The longest `notes`, in characters (T218).
pub const ACCOMMODATION_NOTES_MAX: usize = 500;

/// `accommodations` (T218): `{extraTimePercent, breaks, screenReader, notes}`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Accommodations {
    extra_time_percent: u8,
    breaks: bool,
    screen_reader: bool,
    notes: Option<String>,
}

impl Accommodations {
    /// Builds the accommodations. Errors, as (member, message): `extraTimePercent` not one of
    /// 0, 25, 50, 100; `notes` empty, longer than 500 characters or with control characters
    /// other than tab and line breaks.
    pub fn new(
        extra_time_percent: u8,
        breaks: bool,
        screen_reader: bool,
        notes: Option<String>,
    ) -> Result<Accommodations, (&'static str, String)> {
        if !EXTRA_TIME_PERCENTS.contains(&extra_time_percent) {
            return Err(("extraTimePercent", "must be one of: 0, 25, 50, 100".into()));
        }
        if let Some(n) = &notes {
            let len = super::char_len(n);
            if len == 0 || len > ACCOMMODATION_NOTES_MAX {
                return Err(("notes", format!("must be 1 to {ACCOMMODATION_NOTES_MAX} characters")));
            }
            super::multi_line(n).map_err(|m| ("notes", m))?;
        }
        Ok(Accommodations { extra_time_percent, breaks, screen_reader, notes })
    }

    /// `extraTimePercent`: 0, 25, 50 or 100.
    pub fn extra_time_percent(&self) -> u8 {
        self.extra_time_percent
    }
    /// `breaks`: the person may pause between sections.
    pub fn breaks(&self) -> bool {
        self.breaks
    }
    /// `screenReader`: the person uses assistive technology that reads the screen.
    pub fn screen_reader(&self) -> bool {
        self.screen_reader
    }
    /// `notes`: what else was agreed, in the organization's words (1..500 characters).
    pub fn notes(&self) -> Option<&str> {
        self.notes.as_deref()
    }
    /// Whether anything at all is granted.
    pub fn any(&self) -> bool {
        self.extra_time_percent > 0 || self.breaks || self.screen_reader || self.notes.is_some()
    }

    /// The wire object (also how it is stored, as JSON text).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "extraTimePercent": self.extra_time_percent,
            "breaks": self.breaks,
            "screenReader": self.screen_reader,
            "notes": self.notes,
        })
    }

    /// Reads the wire object back (stored JSON). Errors: any member of the wrong type or out of
    /// range.
    pub fn from_json(v: &serde_json::Value) -> Result<Accommodations, String> {
        let pct = v["extraTimePercent"].as_u64().and_then(|p| u8::try_from(p).ok()).ok_or("extraTimePercent")?;
        let flag = |k: &str| v[k].as_bool().ok_or_else(|| k.to_string());
        let notes = match &v["notes"] {
            serde_json::Value::Null => None,
            serde_json::Value::String(s) => Some(s.clone()),
            _ => return Err("notes".into()),
        };
        Accommodations::new(pct, flag("breaks")?, flag("screenReader")?, notes).map_err(|(f, m)| format!("{f} {m}"))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// T218: the extra time is one of four steps; notes are bounded; the JSON round-trips.
    #[test]
    fn accommodations_are_bounded_and_round_trip_t218() {
        for p in EXTRA_TIME_PERCENTS {
            assert!(Accommodations::new(p, false, false, None).is_ok());
        }
        for p in [1, 10, 30, 75, 99, 101, 200, 255] {
            assert_eq!(Accommodations::new(p, false, false, None).unwrap_err().0, "extraTimePercent");
        }
        assert_eq!(Accommodations::new(0, false, false, Some(String::new())).unwrap_err().0, "notes");
        assert_eq!(Accommodations::new(0, false, false, Some("é".repeat(501))).unwrap_err().0, "notes");
        assert_eq!(Accommodations::new(0, false, false, Some("a\u{7}".into())).unwrap_err().0, "notes");
        let a = Accommodations::new(50, true, true, Some("Große Schrift\nbitte".into())).unwrap();
        assert!(a.any());
        assert_eq!(Accommodations::from_json(&a.json()).unwrap(), a);
        assert!(!Accommodations::default().any());
        assert!(Accommodations::from_json(&serde_json::json!({"extraTimePercent": 30})).is_err());
    }
}
