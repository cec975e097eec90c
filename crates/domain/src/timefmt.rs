//! Timestamps: UTC, microsecond precision, printed as ISO 8601 with a `Z` suffix (spec, "All traffic
//! is JSON": "Timestamps are ISO 8601 date-time strings in UTC").

use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// Truncates to whole microseconds (what both stores keep) and converts to UTC.
pub fn normalize(t: OffsetDateTime) -> OffsetDateTime {
    let t = t.to_offset(UtcOffset::UTC);
    let micros = t.microsecond();
    t.replace_nanosecond(micros * 1_000).unwrap_or(t)
}

/// Formats as `2026-11-22T07:18:10.123456Z` (always six fractional digits, so text order is time
/// order).
pub fn format(t: OffsetDateTime) -> String {
    let t = normalize(t);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.microsecond()
    )
}

/// Formats for people, in English: `9 December 2026, 07:18 UTC` (invitation emails, where a reader
/// needs the day and the time, not the machine's ISO 8601 text).
pub fn for_people(t: OffsetDateTime) -> String {
    let t = normalize(t);
    format!("{} {} {}, {:02}:{:02} UTC", t.day(), t.month(), t.year(), t.hour(), t.minute())
}

/// Serde `serialize_with` for a timestamp of a published shape: the text of [`format`].
pub fn serialize<S: serde::Serializer>(t: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format(*t))
}

/// Serde `serialize_with` for an optional timestamp: the text of [`format`], or `null`.
pub fn serialize_opt<S: serde::Serializer>(t: &Option<OffsetDateTime>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => serialize(t, s),
        None => s.serialize_none(),
    }
}

/// Parses an RFC 3339 date-time (any offset, any fractional precision) and normalizes it to UTC
/// microseconds. Errors: `None` for anything else (the caller reports `validation_error`).
pub fn parse(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s, &Rfc3339).ok().map(normalize)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn formats_with_six_digits_and_z() {
        let t = parse("2026-01-02T03:04:05.5+01:00").unwrap();
        assert_eq!(format(t), "2026-01-02T02:04:05.500000Z");
    }

    #[test]
    fn rejects_non_rfc3339() {
        assert!(parse("2026-01-02").is_none());
        assert!(parse("yesterday").is_none());
    }

    #[test]
    fn round_trips() {
        let t = parse("2026-11-22T07:18:10.123456Z").unwrap();
        assert_eq!(parse(&format(t)), Some(t));
    }

    #[test]
    fn a_time_for_people_is_in_utc_with_the_months_name_and_minutes() {
        let t = parse("2026-03-05T07:08:59.9+02:00").unwrap();
        assert_eq!(for_people(t), "5 March 2026, 05:08 UTC");
        assert_eq!(for_people(parse("2026-12-31T23:59:00Z").unwrap()), "31 December 2026, 23:59 UTC");
    }
}
