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
///
/// The digits are written into a fixed layout: a write of SQLite's stores every timestamp as this
/// text and an import formats about a dozen, inside the single write turn, where `format!` with
/// its padding cost 4.5 % of an import's instructions. A year outside 0-9999 (never stored) takes
/// the general path, with the same text as before.
pub fn format(t: OffsetDateTime) -> String {
    let t = normalize(t);
    let (year, month, day) = t.to_calendar_date();
    let (hour, minute, second, micro) = t.time().as_hms_micro();
    let Ok(y @ 0..=9999) = u32::try_from(year) else {
        return format!("{year:04}-{:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{micro:06}Z", u8::from(month));
    };
    let mut text = *b"0000-00-00T00:00:00.000000Z";
    let fields: [(std::ops::Range<usize>, u32); 7] = [
        (0..4, y),
        (5..7, u32::from(u8::from(month))),
        (8..10, u32::from(day)),
        (11..13, u32::from(hour)),
        (14..16, u32::from(minute)),
        (17..19, u32::from(second)),
        (20..26, micro),
    ];
    for (range, mut v) in fields {
        for digit in text[range].iter_mut().rev() {
            *digit = b'0' + (v % 10) as u8;
            v /= 10;
        }
    }
    text.iter().map(|&b| char::from(b)).collect()
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
    /// The fixed layout writes exactly what `format!` with padding wrote, across the years a
    /// store holds and at every field's edges.
    #[test]
    fn the_fixed_layout_is_the_padded_format() {
        let padded = |t: OffsetDateTime| {
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
        };
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut times = vec![
            OffsetDateTime::UNIX_EPOCH,
            time::macros::datetime!(0000-01-01 00:00:00 UTC),
            time::macros::datetime!(9999-12-31 23:59:59.999999999 UTC),
            time::macros::datetime!(2026-12-31 23:59:59.999999 +01:00),
            time::macros::datetime!(-0001-06-01 12:00:00 UTC),
        ];
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Seconds from 1900 to about 2300, and any nanosecond.
            let secs = -2_208_988_800 + (x % 12_600_000_000) as i64;
            let t =
                OffsetDateTime::from_unix_timestamp(secs).unwrap().replace_nanosecond((x >> 34) as u32 % 1_000_000_000);
            times.push(t.unwrap());
        }
        for t in times {
            assert_eq!(format(t), padded(t), "{t:?}");
        }
    }

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
