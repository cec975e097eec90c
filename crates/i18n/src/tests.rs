//! T217: every shipped locale parses, has exactly English's messages, formats each of them
//! without an error for every selector variant, and writes dates its own way in the person's
//! time zone; every message id the workspace's code asks for exists.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn texts() -> FluentTexts {
    FluentTexts::new().expect("the shipped files parse")
}

const TEXT_ARGS: [&str; 18] = [
    "company",
    "name",
    "email",
    "expiry",
    "notes",
    "date",
    "host",
    "variant",
    "reminder",
    "model",
    "version",
    "mapping",
    "profile",
    "category",
    "needs",
    "competencies",
    "need",
    "definition",
];

#[test]
fn every_locale_has_exactly_the_english_messages_t217() {
    let english = FluentTexts::message_ids(Locale::En);
    assert!(english.len() > 50, "{english:?}");
    for l in Locale::ALL {
        let ids = FluentTexts::message_ids(l);
        let missing: Vec<_> = english.iter().filter(|k| !ids.contains(k)).collect();
        let extra: Vec<_> = ids.iter().filter(|k| !english.contains(k)).collect();
        assert!(missing.is_empty() && extra.is_empty(), "{l}: missing {missing:?}, extra {extra:?}");
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len(), "{l}: a message defined twice");
    }
}

/// Every message of every locale formats without an error (no unknown variable, no selector
/// without its default), for each selector value and for the numbers that pick every plural form.
#[test]
fn every_message_formats_in_every_locale_t217() {
    let t = texts();
    for s in &t.speakers {
        for key in FluentTexts::message_ids(s.locale) {
            for (variant, reminder) in [("assessment", "no"), ("access", "yes")] {
                for n in [0_i64, 1, 2, 3, 5, 12, 22, 25, 100] {
                    let mut args = FluentArgs::new();
                    for a in TEXT_ARGS {
                        args.set(a, FluentValue::from(format!("«{a}»")));
                    }
                    args.set("variant", FluentValue::from(variant));
                    args.set("reminder", FluentValue::from(reminder));
                    for a in ["minutes", "tries", "percent", "assessments", "responses"] {
                        args.set(a, FluentValue::from(n));
                    }
                    let out = t.format(s, &key, &args);
                    let out = out.unwrap_or_else(|| panic!("{}: {key} does not format", s.locale));
                    assert!(!out.trim().is_empty(), "{}: {key} is empty", s.locale);
                }
            }
        }
    }
}

/// The selectors choose: the reminder subject differs from the first one in every locale, the
/// access variant from the assessment one, and plural forms follow the number.
#[test]
fn selectors_choose_their_variants_in_every_locale_t217() {
    let t = texts();
    for l in Locale::ALL {
        let subject = |variant, reminder| {
            t.message(
                l,
                "invitation-email-subject",
                &[
                    ("company", TextArg::Text("Acme")),
                    ("variant", TextArg::Text(variant)),
                    ("reminder", TextArg::Text(reminder)),
                ],
            )
        };
        assert_ne!(subject("assessment", "no"), subject("assessment", "yes"), "{l}");
        assert_ne!(subject("assessment", "no"), subject("access", "no"), "{l}");
        assert!(subject("access", "yes").contains("Acme"), "{l}");
        let tries = |n| t.message(l, "page-code-wrong", &[("tries", TextArg::Number(n))]);
        assert_ne!(tries(0), tries(4), "{l}");
        assert!(tries(4).contains('4'), "{l}: {}", tries(4));
    }
    let en = |n| t.message(Locale::En, "code-email-validity", &[("minutes", TextArg::Number(n))]);
    assert_eq!(en(1), "It is valid for one minute. Enter it on the invitation page.");
    assert_eq!(en(10), "It is valid for 10 minutes. Enter it on the invitation page.");
    let pl = |n| t.message(Locale::Pl, "code-email-validity", &[("minutes", TextArg::Number(n))]);
    assert_ne!(pl(2), pl(5), "Polish: few and many differ");
}

/// Dates in the locale's own words, in the person's time zone, with the offset in effect then.
#[test]
fn dates_are_written_in_the_locale_and_the_time_zone_t217() {
    let t = texts();
    let at = talent_domain::timefmt::parse("2026-12-09T22:16:21Z").unwrap();
    let berlin = TimeZone::parse("Europe/Berlin").unwrap();
    let tokyo = TimeZone::parse("Asia/Tokyo").unwrap();
    let sao_paulo = TimeZone::parse("America/Sao_Paulo").unwrap();
    let cases: [(Locale, &TimeZone, &[&str]); 10] = [
        (Locale::En, &TimeZone::utc(), &["December 9, 2026", "10:16", "GMT"]),
        (Locale::De, &berlin, &["9. Dezember 2026", "23:16", "GMT+1"]),
        (Locale::Fr, &berlin, &["9 décembre 2026", "23:16", "UTC+1"]),
        (Locale::Es, &berlin, &["9 de diciembre de 2026", "23:16", "GMT+1"]),
        (Locale::Nl, &berlin, &["9 december 2026", "23:16", "GMT+1"]),
        (Locale::PtBr, &sao_paulo, &["9 de dezembro de 2026", "19:16", "-3"]),
        (Locale::It, &berlin, &["9 dicembre 2026", "23:16", "GMT+1"]),
        (Locale::Pl, &berlin, &["9 grudnia 2026", "23:16", "GMT+1"]),
        (Locale::Ja, &tokyo, &["2026年12月10日", "7:16", "GMT+9"]),
        (Locale::ZhHans, &tokyo, &["2026年12月10日", "07:16", "GMT+9"]),
    ];
    for (l, zone, wants) in cases {
        let s = t.date_time(l, zone, at);
        for w in wants {
            assert!(s.contains(w), "{l} in {zone}: {s:?} lacks {w:?}");
        }
        assert!(!s.contains(":21"), "{l}: to the minute: {s}");
    }
    assert_eq!(t.date(Locale::De, &berlin, at), "9. Dezember 2026");
    assert_eq!(t.date(Locale::Ja, &tokyo, at), "2026年12月10日");
    let summer = talent_domain::timefmt::parse("2026-07-01T12:00:00Z").unwrap();
    assert!(t.date_time(Locale::De, &berlin, summer).contains("14:00 GMT+2"), "summer time");
}

/// Every message id the code asks for (a string literal of one of the messages' prefixes in a
/// Rust source of the workspace) is in the English file, so no person ever reads an id.
#[test]
fn every_message_the_code_asks_for_exists_t217() {
    let english = FluentTexts::message_ids(Locale::En);
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let prefixes = [
        "page-",
        "email-",
        "invitation-email-",
        "code-email-",
        "accommodation-",
        "accommodations-",
        "report-",
        "personality-",
    ];
    let mut asked = Vec::new();
    let mut stack = vec![crates];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("target") && !path.ends_with("i18n") {
                    stack.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                let src = std::fs::read_to_string(&path).unwrap();
                for (i, _) in src.match_indices('"') {
                    let rest = &src[i + 1..];
                    let Some(end) = rest.find('"') else { continue };
                    let lit = &rest[..end];
                    if prefixes.iter().any(|p| lit.starts_with(p))
                        && lit.len() > 8
                        && lit.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
                        && !lit.ends_with('-')
                    {
                        asked.push((lit.to_string(), path.display().to_string()));
                    }
                }
            }
        }
    }
    assert!(asked.len() > 40, "the scan finds the code's message ids: {}", asked.len());
    let unknown: Vec<_> = asked.iter().filter(|(k, _)| !english.contains(k)).collect();
    assert!(unknown.is_empty(), "asked for but not in en.ftl: {unknown:?}");
}

/// T222: every locale but English translates exactly the assessment model's words (English is
/// the model's own), each a non-empty text without arguments; English asks the model.
#[test]
fn every_locale_translates_exactly_the_models_words_t222() {
    let model = talent_domain::assessment::AssessmentModel::builtin().unwrap();
    let wanted = talent_domain::assessment::word_ids(&model);
    assert_eq!(wanted.len(), 4 + 2 * 16 + 14, "{wanted:?}");
    let t = texts();
    assert_eq!(MODEL_SOURCES.len() + 1, Locale::ALL.len());
    for (l, source) in MODEL_SOURCES {
        let resource = FluentResource::try_new(source.to_string()).unwrap_or_else(|_| panic!("model/{l}.ftl parses"));
        let ids: Vec<String> = resource
            .entries()
            .filter_map(|e| match e {
                fluent_syntax::ast::Entry::Message(m) => Some(m.id.name.to_string()),
                _ => None,
            })
            .collect();
        let missing: Vec<_> = wanted.iter().filter(|k| !ids.contains(k)).collect();
        let extra: Vec<_> = ids.iter().filter(|k| !wanted.contains(k)).collect();
        assert!(missing.is_empty() && extra.is_empty(), "model/{l}.ftl: missing {missing:?}, extra {extra:?}");
        assert_eq!(ids.len(), wanted.len(), "model/{l}.ftl: a word defined twice");
        for key in &wanted {
            let word = t.model_word(l, key).unwrap_or_else(|| panic!("{l}: {key}"));
            assert!(!word.trim().is_empty() && !word.contains('{'), "{l}: {key} = {word:?}");
        }
    }
    assert_eq!(t.model_word(Locale::En, &wanted[0]), None, "English is the model's own");
    let words = talent_domain::assessment::ModelWords::new(&t, Locale::De);
    assert_ne!(words.competency(&model.competencies[0]), model.competencies[0].name);
    let english = talent_domain::assessment::ModelWords::new(&t, Locale::En);
    assert_eq!(english.competency(&model.competencies[0]), model.competencies[0].name);
}

/// T222: lists are joined as each language joins them (CLDR's list patterns).
#[test]
fn lists_are_joined_as_each_language_joins_them_t222() {
    let t = texts();
    let items: Vec<String> = ["A", "B", "C"].map(String::from).to_vec();
    assert_eq!(t.list(Locale::De, &items), "A, B und C");
    assert_eq!(t.list(Locale::Fr, &items), "A, B et C");
    assert_eq!(t.list(Locale::Ja, &items), "A、B、C");
    assert_eq!(t.list(Locale::Pl, &items), "A, B i C");
    assert!(t.list(Locale::En, &items).ends_with("B, and C") || t.list(Locale::En, &items).ends_with("B and C"));
    assert_eq!(t.list(Locale::De, &items[..1]), "A");
    assert_eq!(t.list(Locale::De, &[]), "");
}
