//! The person's language and time zone (issue 37, T217): the locales Talent speaks to a person
//! in, the negotiation of an `Accept-Language` header, and IANA time zones.

use std::fmt;
use time::{OffsetDateTime, UtcOffset};

/// A locale Talent ships every person-facing text in (T217): emails, the invitation pages, the
/// report. Wire values are BCP 47 tags: `en`, `de`, `fr`, `es`, `nl`, `pt-BR`, `it`, `pl`, `ja`,
/// `zh-Hans`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Locale {
    /// English, the last fallback.
    #[default]
    En,
    /// German.
    De,
    /// French.
    Fr,
    /// Spanish.
    Es,
    /// Dutch.
    Nl,
    /// Brazilian Portuguese.
    PtBr,
    /// Italian.
    It,
    /// Polish.
    Pl,
    /// Japanese.
    Ja,
    /// Simplified Chinese.
    ZhHans,
}

impl Locale {
    /// Every shipped locale, English first.
    pub const ALL: [Locale; 10] = [
        Locale::En,
        Locale::De,
        Locale::Fr,
        Locale::Es,
        Locale::Nl,
        Locale::PtBr,
        Locale::It,
        Locale::Pl,
        Locale::Ja,
        Locale::ZhHans,
    ];

    /// The BCP 47 tag (wire value).
    pub fn as_str(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::De => "de",
            Locale::Fr => "fr",
            Locale::Es => "es",
            Locale::Nl => "nl",
            Locale::PtBr => "pt-BR",
            Locale::It => "it",
            Locale::Pl => "pl",
            Locale::Ja => "ja",
            Locale::ZhHans => "zh-Hans",
        }
    }

    /// The language's name in itself (`Deutsch`, `日本語`), for choosing it.
    pub fn endonym(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::De => "Deutsch",
            Locale::Fr => "Français",
            Locale::Es => "Español",
            Locale::Nl => "Nederlands",
            Locale::PtBr => "Português (Brasil)",
            Locale::It => "Italiano",
            Locale::Pl => "Polski",
            Locale::Ja => "日本語",
            Locale::ZhHans => "简体中文",
        }
    }

    /// Parses a BCP 47 language tag and resolves it to the shipped locale that speaks it (T217):
    /// the language decides (`de-AT` → `de`, `en-US` → `en`, `pt`/`pt-PT` → `pt-BR`, the only
    /// Portuguese); Chinese resolves to `zh-Hans` when written in the simplified script (`zh`,
    /// `zh-CN`, `zh-SG`, `zh-Hans-*`) and is unknown in the traditional one (`zh-TW`, `zh-HK`,
    /// `zh-Hant`). Case does not matter; `_` separators are not BCP 47 and are refused.
    /// Errors: a malformed tag, or a language Talent does not speak (the message lists the
    /// shipped ones).
    pub fn parse(raw: &str) -> Result<Locale, String> {
        let shipped = || format!("must be one of: {}", Self::ALL.map(Locale::as_str).join(", "));
        if raw.is_empty() || raw.len() > 64 || raw.contains('_') {
            return Err(format!("must be a BCP 47 language tag; {}", shipped()));
        }
        let tag = icu_locale_core::LanguageIdentifier::try_from_str(raw)
            .map_err(|_| format!("must be a BCP 47 language tag; {}", shipped()))?;
        let script = tag.script.map(|s| s.as_str().to_ascii_lowercase());
        let region = tag.region.map(|r| r.as_str().to_ascii_uppercase());
        let found = match tag.language.as_str() {
            "en" => Some(Locale::En),
            "de" => Some(Locale::De),
            "fr" => Some(Locale::Fr),
            "es" => Some(Locale::Es),
            "nl" => Some(Locale::Nl),
            "pt" => Some(Locale::PtBr),
            "it" => Some(Locale::It),
            "pl" => Some(Locale::Pl),
            "ja" => Some(Locale::Ja),
            "zh" => match (script.as_deref(), region.as_deref()) {
                (Some("hans"), _) => Some(Locale::ZhHans),
                (Some(_), _) => None,
                (None, Some("TW" | "HK" | "MO")) => None,
                (None, _) => Some(Locale::ZhHans),
            },
            _ => None,
        };
        found.ok_or_else(|| format!("is not a language Talent speaks; {}", shipped()))
    }

    /// The locale of an `Accept-Language` header (RFC 9110 §12.5.4), if it names one Talent
    /// speaks: the tags by weight (`q`, default 1; ties in the order written; `q=0` never),
    /// the first that [`Locale::parse`] resolves. `*` and anything malformed are skipped: a
    /// header of any shape answers, never fails. At most the first 32 entries are read.
    pub fn negotiate(accept_language: &str) -> Option<Locale> {
        let mut ranked: Vec<(u16, usize, Locale)> = Vec::new();
        for (i, entry) in accept_language.split(',').take(32).enumerate() {
            let mut parts = entry.split(';');
            let tag = parts.next().unwrap_or("").trim();
            let mut weight: u16 = 1000;
            for p in parts {
                let p = p.trim();
                if let Some(q) = p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")) {
                    weight = parse_weight(q.trim()).unwrap_or(0);
                }
            }
            if weight == 0 || tag == "*" {
                continue;
            }
            if let Ok(l) = Locale::parse(tag) {
                ranked.push((weight, i, l));
            }
        }
        ranked.sort_by_key(|(w, i, _)| (std::cmp::Reverse(*w), *i));
        ranked.first().map(|(_, _, l)| *l)
    }
}

/// A `qvalue` (RFC 9110 §12.4.2) in thousandths: `0`–`1` with up to three decimals; `None` when
/// malformed.
fn parse_weight(q: &str) -> Option<u16> {
    let (int, frac) = q.split_once('.').unwrap_or((q, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{frac:0<3}").parse::<u16>().ok()?;
    match int {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

impl fmt::Display for Locale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An IANA time zone (`Europe/Berlin`, `America/Sao_Paulo`, `UTC`; T217), from the Time Zone
/// Database compiled into Talent. Stored and shown in the database's own spelling.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TimeZone {
    name: &'static str,
}

impl TimeZone {
    /// `UTC`, the default of an organization that has not chosen one.
    pub fn utc() -> TimeZone {
        TimeZone { name: "UTC" }
    }

    /// Parses an IANA time zone name, case-insensitively; the value keeps the database's
    /// spelling (`europe/berlin` → `Europe/Berlin`). Errors: not a zone of the database.
    pub fn parse(raw: &str) -> Result<TimeZone, String> {
        if raw.is_empty() || raw.len() > 64 {
            return Err("must be an IANA time zone name, such as Europe/Berlin".into());
        }
        // The database's own spelling, as the store holds it, by binary search (T300: the scan
        // of ~600 names below was 1 % of SQLite's write turn under imports, which read their
        // organization's zone in every transaction); any other spelling by the scan.
        static SORTED: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
            let mut names = tzdb_data::TZ_NAMES.to_vec();
            names.sort_unstable();
            names
        });
        SORTED
            .binary_search(&raw)
            .ok()
            .map(|i| SORTED[i])
            .or_else(|| tzdb_data::TZ_NAMES.iter().copied().find(|n| n.eq_ignore_ascii_case(raw)))
            .map(|name| TimeZone { name })
            .ok_or_else(|| "must be an IANA time zone name, such as Europe/Berlin".into())
    }

    /// The name (wire value).
    pub fn as_str(&self) -> &'static str {
        self.name
    }

    /// The UTC offset in effect in this zone at `at` (UTC when the database cannot tell, which
    /// only a date outside its range can cause).
    pub fn offset_at(&self, at: OffsetDateTime) -> UtcOffset {
        let seconds = tzdb_data::find_tz(self.name.as_bytes())
            .and_then(|tz| tz.find_local_time_type(at.unix_timestamp()).ok().map(|t| t.ut_offset()))
            .unwrap_or(0);
        UtcOffset::from_whole_seconds(seconds).unwrap_or(UtcOffset::UTC)
    }

    /// `at` as the wall-clock time of this zone.
    pub fn local(&self, at: OffsetDateTime) -> OffsetDateTime {
        at.to_offset(self.offset_at(at))
    }
}

impl Default for TimeZone {
    fn default() -> Self {
        TimeZone::utc()
    }
}

impl fmt::Debug for TimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl fmt::Display for TimeZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// T217: tags resolve by language; the traditional script and unknown languages are refused.
    #[test]
    fn tags_resolve_to_the_shipped_locales_t217() {
        for (raw, want) in [
            ("en", Locale::En),
            ("EN-us", Locale::En),
            ("de-AT", Locale::De),
            ("fr-CA", Locale::Fr),
            ("es-419", Locale::Es),
            ("nl-BE", Locale::Nl),
            ("pt", Locale::PtBr),
            ("pt-br", Locale::PtBr),
            ("pt-PT", Locale::PtBr),
            ("it", Locale::It),
            ("pl-PL", Locale::Pl),
            ("ja-JP", Locale::Ja),
            ("zh", Locale::ZhHans),
            ("zh-CN", Locale::ZhHans),
            ("zh-hans", Locale::ZhHans),
            ("zh-Hans-SG", Locale::ZhHans),
        ] {
            assert_eq!(Locale::parse(raw), Ok(want), "{raw}");
        }
        for l in Locale::ALL {
            assert_eq!(Locale::parse(l.as_str()), Ok(l));
        }
        for bad in [
            "",
            "x",
            "klingon",
            "tlh",
            "zh-TW",
            "zh-Hant",
            "de_DE",
            "en--US",
            "en-US-",
            "ar",
            "😀",
            "a".repeat(70).as_str(),
        ] {
            let e = Locale::parse(bad).unwrap_err();
            assert!(e.contains("pt-BR"), "{bad}: {e}");
        }
    }

    /// T217: `Accept-Language` by weight, then order; anything malformed is skipped, never fails.
    #[test]
    fn accept_language_is_negotiated_by_weight_t217() {
        assert_eq!(Locale::negotiate("de-DE,de;q=0.9,en;q=0.8"), Some(Locale::De));
        assert_eq!(Locale::negotiate("en;q=0.5, ja;q=0.9"), Some(Locale::Ja));
        assert_eq!(Locale::negotiate("ar, fr;q=0.1"), Some(Locale::Fr));
        assert_eq!(Locale::negotiate("*;q=1, nl"), Some(Locale::Nl));
        assert_eq!(Locale::negotiate("de;q=0, it"), Some(Locale::It));
        assert_eq!(Locale::negotiate("zh-TW, zh-CN;q=0.5"), Some(Locale::ZhHans));
        assert_eq!(Locale::negotiate("pl;q=1.0"), Some(Locale::Pl));
        for junk in ["", ",,,", ";;;", "de;q=2", "de;q=abc", "q=0.5", "\u{0}\u{ff}", "en;q=0.0001"] {
            let _ = Locale::negotiate(junk);
        }
        assert_eq!(Locale::negotiate("de;q=2"), None);
        assert_eq!(Locale::negotiate(&"xx, ".repeat(10_000)), None);
    }

    /// T217: IANA names case-insensitively in the database's spelling; offsets follow summer time.
    #[test]
    fn time_zones_parse_and_know_their_offsets_t217() {
        for name in tzdb_data::TZ_NAMES {
            assert_eq!(TimeZone::parse(name).unwrap().as_str(), *name);
            assert_eq!(TimeZone::parse(&name.to_uppercase()).unwrap().as_str(), *name);
        }
        let berlin = TimeZone::parse("europe/berlin").unwrap();
        assert_eq!(berlin.as_str(), "Europe/Berlin");
        let winter = crate::timefmt::parse("2026-12-09T22:16:21Z").unwrap();
        let summer = crate::timefmt::parse("2026-07-01T12:00:00Z").unwrap();
        assert_eq!(berlin.offset_at(winter).whole_hours(), 1);
        assert_eq!(berlin.offset_at(summer).whole_hours(), 2);
        assert_eq!(TimeZone::parse("Asia/Tokyo").unwrap().local(winter).hour(), 7);
        assert_eq!(TimeZone::parse("UTC").unwrap().offset_at(summer), UtcOffset::UTC);
        for bad in ["", "Mars/Olympus", "Europe/Berlin ", "+01:00", "CET1CEST"] {
            assert!(TimeZone::parse(bad).is_err(), "{bad}");
        }
    }
}
