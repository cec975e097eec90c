//! The person's side of an invitation in request bodies (issue 37; T217-T219): `locale`,
//! `timeZone`, `accommodations` and `redirectUrl` of `POST /invitations` and of the nested
//! `invitation` of `POST /persons`, parsed into the domain's [`CandidateOptions`].

use crate::openapi::schemas;
use serde::Deserialize;
use talent_domain::invitation::{CandidateOptions, RedirectUrl};
use talent_domain::values::{Accommodations, FieldErrors, Locale, TimeZone, EXTRA_TIME_PERCENTS};
use utoipa::ToSchema;

/// `accommodations` of an invitation (T218): what the person is granted for the assessment.
/// Absent members are `0`, `false` and no notes. They never change scores.
#[derive(Deserialize, Debug, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = AccommodationsRequest)]
pub struct AccommodationsIn {
    /// Extra time in percent of the standard time: 0, 25, 50 or 100; default 0.
    #[schema(schema_with = extra_time_percents)]
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    extra_time_percent: Option<i64>,
    /// The person may pause between parts; default false.
    #[schema(nullable = false)]
    #[serde(default, deserialize_with = "crate::body::non_null")]
    breaks: Option<bool>,
    /// The person uses a screen reader; default false.
    #[schema(nullable = false)]
    #[serde(default, deserialize_with = "crate::body::non_null")]
    screen_reader: Option<bool>,
    /// What else was agreed, shown to the person as written: 1 to 500 characters.
    #[schema(min_length = 1, max_length = 500)]
    notes: Option<String>,
}

/// `extraTimePercent`: one of [`EXTRA_TIME_PERCENTS`], or null (0).
fn extra_time_percents() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::schema::Type::Integer,
            utoipa::openapi::schema::Type::Null,
        ]))
        .enum_values(Some(EXTRA_TIME_PERCENTS.iter().map(|p| serde_json::json!(p)).chain([serde_json::Value::Null])))
        .description(Some("Extra time in percent of the standard time: 0, 25, 50 or 100; default 0."))
        .build()
}

/// Parses the person's side of an invitation (T217-T219), recording each bad member under
/// `{prefix}{member}` (`invitation.locale`). Whether `redirectUrl`'s host is one of the
/// organization's is the use case's check.
pub fn parse(
    prefix: &str,
    locale: Option<&str>,
    time_zone: Option<&str>,
    accommodations: Option<&AccommodationsIn>,
    redirect_url: Option<&str>,
    errs: &mut FieldErrors,
) -> CandidateOptions {
    let locale = locale.and_then(|l| errs.take(&format!("{prefix}locale"), Locale::parse(l)));
    let time_zone = time_zone.and_then(|z| errs.take(&format!("{prefix}timeZone"), TimeZone::parse(z)));
    let accommodations = accommodations.and_then(|a| {
        let pct = match a.extra_time_percent.map(u8::try_from) {
            None => Some(0),
            Some(Ok(p)) => Some(p),
            Some(Err(_)) => None,
        };
        let Some(pct) = pct else {
            errs.push(format!("{prefix}accommodations.extraTimePercent"), "must be one of: 0, 25, 50, 100");
            return None;
        };
        let notes = a.notes.as_ref().map(|n| n.trim().to_string());
        match Accommodations::new(pct, a.breaks.unwrap_or(false), a.screen_reader.unwrap_or(false), notes) {
            Ok(v) => Some(v),
            Err((member, m)) => {
                errs.push(format!("{prefix}accommodations.{member}"), m);
                None
            }
        }
    });
    let redirect_url = redirect_url.and_then(|u| errs.take(&format!("{prefix}redirectUrl"), parse_redirect_url(u)));
    CandidateOptions { locale, time_zone, accommodations, redirect_url }
}

/// An absolute `https` URL (the URL standard's parser; normalized), without user information.
fn parse_redirect_url(raw: &str) -> Result<RedirectUrl, String> {
    let u = url::Url::parse(raw.trim()).map_err(|_| "must be an absolute https URL".to_string())?;
    if u.scheme() != "https" {
        return Err("must be an https URL".into());
    }
    if !u.username().is_empty() || u.password().is_some() {
        return Err("must not contain user information".into());
    }
    RedirectUrl::parse(u.as_str())
}

/// The OpenAPI schemas of the members, for the request types that carry them.
#[allow(dead_code)]
pub struct Schemas(schemas::LocaleTag, schemas::TimeZoneName, schemas::RedirectUrl);

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// T217-T219: each bad member is named under its prefix; good ones parse.
    #[test]
    fn bad_members_are_named_and_good_ones_parse_t217() {
        let mut errs = FieldErrors::default();
        let a = AccommodationsIn { extra_time_percent: Some(30), breaks: None, screen_reader: None, notes: None };
        let o = parse("invitation.", Some("tlh"), Some("Mars/Base"), Some(&a), Some("http://x.example/"), &mut errs);
        let fields: Vec<_> = errs.0.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(
            fields,
            [
                "invitation.locale",
                "invitation.timeZone",
                "invitation.accommodations.extraTimePercent",
                "invitation.redirectUrl"
            ]
        );
        assert_eq!(o, CandidateOptions::default());
        let mut errs = FieldErrors::default();
        let a = AccommodationsIn { extra_time_percent: Some(50), breaks: Some(true), screen_reader: None, notes: None };
        let o = parse(
            "",
            Some("de-AT"),
            Some("europe/berlin"),
            Some(&a),
            Some("https://Jobs.Example.com/done?x=1"),
            &mut errs,
        );
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(o.locale, Some(Locale::De));
        assert_eq!(o.time_zone.unwrap().as_str(), "Europe/Berlin");
        assert_eq!(o.accommodations.unwrap().extra_time_percent(), 50);
        let r = o.redirect_url.unwrap();
        assert_eq!((r.as_str(), r.host().as_str()), ("https://jobs.example.com/done?x=1", "jobs.example.com"));
        for bad in ["https://u:p@x.example/", "ftp://x.example/", "/relative", "https://", "javascript:alert(1)"] {
            let mut errs = FieldErrors::default();
            parse("", None, None, None, Some(bad), &mut errs);
            assert!(errs.has("redirectUrl"), "{bad}");
        }
    }
}
