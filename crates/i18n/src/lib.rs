//! Talent's texts adapter (issue 37, T217): what persons read, in their language. Messages are
//! Project Fluent files, one per shipped [`Locale`], compiled into the binary
//! (`locales/{tag}.ftl`, English the reference); dates and times are formatted by ICU4X with
//! its compiled-in CLDR data, as the wall-clock time of the person's IANA time zone followed by
//! the zone's offset (`9. Dezember 2026 um 23:16 GMT+1`).
//!
//! [`FluentTexts`] implements the domain's [`Texts`] port. Building it parses every file; a file
//! that does not parse is refused at start-up ([`FluentTexts::new`]), and the tests forbid a
//! message missing in any locale, so a person never reads a message id.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use icu_datetime::fieldsets::{self, zone::LocalizedOffsetShort, Combo};
use icu_datetime::options::TimePrecision;
use icu_datetime::DateTimeFormatter;
use icu_list::options::ListFormatterOptions;
use icu_list::ListFormatter;
use icu_time::zone::UtcOffset as IcuOffset;
use icu_time::ZonedDateTime;
use talent_domain::ports::{TextArg, Texts};
use talent_domain::values::{Locale, TimeZone};
use time::OffsetDateTime;

/// The Fluent source of each shipped locale, in [`Locale::ALL`] order.
pub const SOURCES: [(Locale, &str); 10] = [
    (Locale::En, include_str!("../locales/en.ftl")),
    (Locale::De, include_str!("../locales/de.ftl")),
    (Locale::Fr, include_str!("../locales/fr.ftl")),
    (Locale::Es, include_str!("../locales/es.ftl")),
    (Locale::Nl, include_str!("../locales/nl.ftl")),
    (Locale::PtBr, include_str!("../locales/pt-BR.ftl")),
    (Locale::It, include_str!("../locales/it.ftl")),
    (Locale::Pl, include_str!("../locales/pl.ftl")),
    (Locale::Ja, include_str!("../locales/ja.ftl")),
    (Locale::ZhHans, include_str!("../locales/zh-Hans.ftl")),
];

/// The assessment model's words in each locale but English (T222; English is the model's own),
/// in [`Locale::ALL`] order: `locales/model/{tag}.ftl`, the ids of
/// [`talent_domain::assessment::word_ids`].
pub const MODEL_SOURCES: [(Locale, &str); 9] = [
    (Locale::De, include_str!("../locales/model/de.ftl")),
    (Locale::Fr, include_str!("../locales/model/fr.ftl")),
    (Locale::Es, include_str!("../locales/model/es.ftl")),
    (Locale::Nl, include_str!("../locales/model/nl.ftl")),
    (Locale::PtBr, include_str!("../locales/model/pt-BR.ftl")),
    (Locale::It, include_str!("../locales/model/it.ftl")),
    (Locale::Pl, include_str!("../locales/model/pl.ftl")),
    (Locale::Ja, include_str!("../locales/model/ja.ftl")),
    (Locale::ZhHans, include_str!("../locales/model/zh-Hans.ftl")),
];

type DateTimeFmt = DateTimeFormatter<Combo<fieldsets::YMDT, LocalizedOffsetShort>>;
type DateFmt = DateTimeFormatter<fieldsets::YMD>;

/// One locale's messages and formatters.
struct Speaker {
    locale: Locale,
    bundle: FluentBundle<FluentResource>,
    date_time: DateTimeFmt,
    date: DateFmt,
    list: ListFormatter,
}

/// The [`Texts`] port over Project Fluent and ICU4X (T217).
pub struct FluentTexts {
    speakers: Vec<Speaker>,
}

/// Why the texts could not be built (a defect of the shipped files: start-up refuses it).
#[derive(Debug)]
pub struct TextsError(pub String);

impl std::fmt::Display for TextsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TextsError {}

impl FluentTexts {
    /// Parses every shipped locale's messages and builds its date formatters. Errors: a file
    /// that does not parse, a message defined twice, a formatter ICU4X has no data for.
    pub fn new() -> Result<FluentTexts, TextsError> {
        let mut speakers = Vec::with_capacity(SOURCES.len());
        for (locale, source) in SOURCES {
            let tag = locale.as_str();
            let resource = FluentResource::try_new(source.to_string())
                .map_err(|(_, errs)| TextsError(format!("{tag}.ftl does not parse: {errs:?}")))?;
            let langid: unic_langid::LanguageIdentifier = tag.parse().map_err(|e| TextsError(format!("{tag}: {e}")))?;
            let mut bundle = FluentBundle::new_concurrent(vec![langid]);
            // Plain-text emails and escaped HTML: no Unicode isolation marks around arguments.
            bundle.set_use_isolating(false);
            bundle.add_resource(resource).map_err(|errs| TextsError(format!("{tag}.ftl: {errs:?}")))?;
            if let Some((_, model)) = MODEL_SOURCES.iter().find(|(l, _)| *l == locale) {
                let resource = FluentResource::try_new(model.to_string())
                    .map_err(|(_, errs)| TextsError(format!("model/{tag}.ftl does not parse: {errs:?}")))?;
                bundle.add_resource(resource).map_err(|errs| TextsError(format!("model/{tag}.ftl: {errs:?}")))?;
            }
            let icu = icu_locale_core::Locale::try_from_str(tag).map_err(|e| TextsError(format!("{tag}: {e}")))?;
            let date_time = DateTimeFormatter::try_new(
                (&icu).into(),
                fieldsets::YMDT::long().with_time_precision(TimePrecision::Minute).with_zone(LocalizedOffsetShort),
            )
            .map_err(|e| TextsError(format!("{tag} date-time format: {e}")))?;
            let date = DateTimeFormatter::try_new((&icu).into(), fieldsets::YMD::long())
                .map_err(|e| TextsError(format!("{tag} date format: {e}")))?;
            let list = ListFormatter::try_new_and((&icu).into(), ListFormatterOptions::default())
                .map_err(|e| TextsError(format!("{tag} list format: {e}")))?;
            speakers.push(Speaker { locale, bundle, date_time, date, list });
        }
        Ok(FluentTexts { speakers })
    }

    fn speaker(&self, locale: Locale) -> &Speaker {
        self.speakers.iter().find(|s| s.locale == locale).unwrap_or(&self.speakers[0])
    }

    /// The ids of the messages of `locale`'s file, in file order.
    pub fn message_ids(locale: Locale) -> Vec<String> {
        let source = SOURCES.iter().find(|(l, _)| *l == locale).map(|(_, s)| *s).unwrap_or("");
        let resource = match FluentResource::try_new(source.to_string()) {
            Ok(r) => r,
            Err((r, _)) => r,
        };
        resource
            .entries()
            .filter_map(|e| match e {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            })
            .collect()
    }

    fn format(&self, speaker: &Speaker, key: &str, args: &FluentArgs<'_>) -> Option<String> {
        let pattern = speaker.bundle.get_message(key)?.value()?;
        let mut errors = Vec::new();
        let text = speaker.bundle.format_pattern(pattern, Some(args), &mut errors).into_owned();
        errors.is_empty().then_some(text)
    }
}

/// ICU4X's view of `at` with the offset `zone` has then.
fn zoned(zone: &TimeZone, at: OffsetDateTime) -> ZonedDateTime<icu_calendar::Iso, IcuOffset> {
    let offset = IcuOffset::try_from_seconds(zone.offset_at(at).whole_seconds()).unwrap_or(IcuOffset::zero());
    let millis = i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(0);
    ZonedDateTime::from_epoch_milliseconds_and_utc_offset(millis, offset)
}

impl Texts for FluentTexts {
    /// The message in `locale`; should it be missing or fail to format (which the tests
    /// forbid), the English one; failing that, the key.
    fn message(&self, locale: Locale, key: &str, args: &[(&str, TextArg<'_>)]) -> String {
        let mut fargs = FluentArgs::with_capacity(args.len());
        for (name, value) in args {
            match value {
                TextArg::Text(t) => fargs.set(*name, FluentValue::from(*t)),
                TextArg::Number(n) => fargs.set(*name, FluentValue::from(*n)),
            }
        }
        self.format(self.speaker(locale), key, &fargs)
            .or_else(|| self.format(self.speaker(Locale::En), key, &fargs))
            .unwrap_or_else(|| key.to_string())
    }

    fn date_time(&self, locale: Locale, zone: &TimeZone, at: OffsetDateTime) -> String {
        self.speaker(locale).date_time.format(&zoned(zone, at)).to_string()
    }

    fn date(&self, locale: Locale, zone: &TimeZone, at: OffsetDateTime) -> String {
        let z = zoned(zone, at);
        let dt = icu_time::DateTime { date: z.date, time: z.time };
        self.speaker(locale).date.format(&dt).to_string()
    }

    fn list(&self, locale: Locale, items: &[String]) -> String {
        self.speaker(locale).list.format(items.iter()).to_string()
    }

    /// The message `key` of `locale`'s model file; `None` for English and for a key the file
    /// lacks (which the tests forbid).
    fn model_word(&self, locale: Locale, key: &str) -> Option<String> {
        if locale == Locale::En {
            return None;
        }
        let speaker = self.speaker(locale);
        (speaker.locale == locale).then(|| self.format(speaker, key, &FluentArgs::new())).flatten()
    }
}

#[cfg(test)]
mod tests;
