//! Value objects that parse (convention: "parse, don't validate"). Once constructed a value is valid
//! everywhere. Each constructor returns a human-readable message on failure; callers attach the
//! field path and report `validation_error` (D37).

mod access;
mod accommodations;
mod email;
mod locale;
mod person_fields;
mod plans;

pub use access::*;
pub use accommodations::*;
pub use email::*;
pub use locale::*;
pub use person_fields::*;
pub use plans::*;

/// A validation failure of one field, reported as `{"field": ..., "message": ...}` (D37).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// Path of the field, e.g. `tags[3]` or `invitation.expiresInDays`.
    pub field: String,
    /// English message.
    pub message: String,
}

impl FieldError {
    /// Builds a field error.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// A list of field errors; non-empty when returned as an error.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors(pub Vec<FieldError>);

impl FieldErrors {
    /// One error.
    pub fn one(field: impl Into<String>, message: impl Into<String>) -> Self {
        FieldErrors(vec![FieldError::new(field, message)])
    }
    /// Adds one error.
    pub fn push(&mut self, field: impl Into<String>, message: impl Into<String>) {
        self.0.push(FieldError::new(field, message));
    }
    /// True when no error was collected.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// `Ok(())` when empty, else `Err(self)`.
    pub fn into_result(self) -> Result<(), FieldErrors> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }
    /// Whether `field` already has an error.
    pub fn has(&self, field: &str) -> bool {
        self.0.iter().any(|e| e.field == field)
    }
    /// Runs a parser and records its error under `field`.
    pub fn take<T>(&mut self, field: &str, r: Result<T, String>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(m) => {
                self.push(field, m);
                None
            }
        }
    }
}

/// The length of `s` in characters (Unicode scalar values): what every limit counts.
pub(crate) fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Error message of [`single_line`].
pub const NO_CONTROLS: &str = "must not contain control characters";
/// Error message of [`multi_line`].
pub const NO_CONTROLS_BUT_BREAKS: &str = "must not contain control characters other than tab and line breaks";

/// What a one-line text accepts (issue 13, T86): no control character at all (Unicode `Cc`: the
/// C0 controls U+0000–U+001F with tab and line breaks, DEL U+007F and the C1 controls
/// U+0080–U+009F). PostgreSQL refuses NUL in text and SQLite stores it, so both backends refuse
/// it here alike. Errors: [`NO_CONTROLS`].
pub fn single_line(s: &str) -> Result<(), String> {
    if s.chars().any(char::is_control) {
        return Err(NO_CONTROLS.into());
    }
    Ok(())
}

/// What a multi-line text accepts (an invitation's `message`, a description; T86): as
/// [`single_line`] but tab, line feed and carriage return are allowed. Every string of a JSON body
/// is held to this at least. Errors: [`NO_CONTROLS_BUT_BREAKS`].
pub fn multi_line(s: &str) -> Result<(), String> {
    if s.chars().any(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r')) {
        return Err(NO_CONTROLS_BUT_BREAKS.into());
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    /// T86: one-line values refuse every control character; multi-line text keeps tab and breaks.
    #[test]
    fn text_refuses_control_characters_t86() {
        for bad in ["\u{0}", "a\u{1}b", "\t", "a\nb", "\r", "\u{1b}[0m", "\u{7f}", "\u{85}", "\u{9f}"] {
            assert!(single_line(bad).is_err(), "{bad:?}");
            assert!(PersonName::parse(&format!("x{bad}y")).is_err(), "{bad:?}");
            assert!(ExternalId::parse(&format!("x{bad}y")).is_err(), "{bad:?}");
            assert!(TagName::parse(&format!("x{bad}y")).is_err(), "{bad:?}");
        }
        for ok in ["Łukasz Nguyễn", "a\u{a0}b", "\u{200b}", "emoji 🎉"] {
            assert_eq!(single_line(ok), Ok(()), "{ok:?}");
        }
        assert_eq!(multi_line("line\r\n\tindented"), Ok(()));
        assert!(multi_line("nul\u{0}").is_err());
        assert!(multi_line("bell\u{7}").is_err());
    }
}
