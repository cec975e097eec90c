//! The request bodies that create or change a person (spec, Endpoints: `POST /persons`, its
//! nested `invitation`, `PATCH /persons/{id}`) and the parsing of the person's fields that
//! `POST /invitations` shares: each body checked by `validator` against the value types' limits,
//! then parsed into those value types, every field's error named once (T172, T257).

use crate::body::{check, double_option};
use crate::openapi::schemas;
use serde::Deserialize;
use talent_domain::usecases::persons::{ImportPerson, NestedInvitation, PatchPerson};
use talent_domain::values::*;
use utoipa::ToSchema;
use validator::Validate;

/// The value types' limits (each declared once, on its type: T172) as `validator`'s `length`
/// takes them (`u64`).
pub mod limits {
    use talent_domain::values::{ExternalId, Labels, PersonName, TagName};

    /// [`PersonName::MAX_CHARS`].
    pub const NAME: u64 = PersonName::MAX_CHARS as u64;
    /// [`ExternalId::MAX_CHARS`].
    pub const EXTERNAL_ID: u64 = ExternalId::MAX_CHARS as u64;
    /// [`Labels::MAX_ITEMS`].
    pub const LABELS: u64 = Labels::MAX_ITEMS as u64;
    /// [`TagName::MAX_PER_PERSON`].
    pub const TAGS: u64 = TagName::MAX_PER_PERSON as u64;
}

/// `POST /persons` body (spec). Omitted `labels` on create means `["candidate"]` (plus the
/// employee domain rule, D15); `tags` are added to the person's (D12).
#[derive(Deserialize, Validate, Debug, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = PersonImportRequest)]
pub struct PersonImportIn {
    #[schema(value_type = schemas::EmailAddress)]
    email: String,
    #[validate(length(min = 1, max = limits::NAME))]
    #[schema(value_type = Option<schemas::Name>)]
    first_name: Option<String>,
    #[validate(length(min = 1, max = limits::NAME))]
    #[schema(value_type = Option<schemas::Name>)]
    last_name: Option<String>,
    #[validate(length(min = 1, max = limits::EXTERNAL_ID))]
    #[schema(value_type = Option<schemas::ExternalId>)]
    external_id: Option<String>,
    #[validate(length(max = limits::LABELS))]
    #[schema(schema_with = schemas::label_list_or_null)]
    labels: Option<Vec<String>>,
    #[validate(length(max = limits::TAGS))]
    #[schema(value_type = Option<Vec<schemas::Tag>>)]
    tags: Option<Vec<String>>,
    #[validate(nested)]
    invitation: Option<InvitationIn>,
}

/// The nested `invitation` of `POST /persons` (spec): creates the invitation in the same call.
#[derive(Deserialize, Validate, Debug, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = NestedInvitationRequest)]
pub struct InvitationIn {
    /// Must be `true`.
    #[schema(schema_with = schemas::always_true)]
    create: bool,
    /// `true`: Talent emails the invitation; `false`: the client sends the returned `url` itself.
    send_email: bool,
    /// Days until expiry; default 14 (D18).
    #[validate(range(min = 1, max = 90))]
    #[schema(minimum = 1, maximum = 90)]
    #[serde(default, deserialize_with = "crate::body::whole_number")]
    expires_in_days: Option<i64>,
    /// The language of the emails, pages and report (BCP 47); default: on the pages the
    /// person's browser language, else the organization's `locale`.
    #[schema(value_type = Option<schemas::LocaleTag>)]
    locale: Option<String>,
    /// The IANA time zone of the dates the person reads; default: the organization's `timeZone`.
    #[schema(value_type = Option<schemas::TimeZoneName>)]
    time_zone: Option<String>,
    /// What the person is granted for the assessment; never part of scoring.
    accommodations: Option<crate::candidate::AccommodationsIn>,
    /// Where the person goes after accepting: an https URL on one of the organization's redirect
    /// hosts; default: a thank-you page in the person's language.
    #[schema(value_type = Option<schemas::RedirectUrl>)]
    redirect_url: Option<String>,
}

/// `v` parsed into its value type, unless `field` already failed `validator`'s check of the same
/// limit (the value type's constant, T172): a field is reported once.
fn parse_once<T>(
    errs: &mut FieldErrors,
    field: &str,
    v: Option<&str>,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Option<T> {
    let v = v.filter(|_| !errs.has(field))?;
    errs.take(field, parse(v))
}

fn parse_labels(items: &[String], field: &str, errs: &mut FieldErrors) -> Option<Labels> {
    match Labels::parse(items) {
        Ok(l) => Some(l),
        Err(list) => {
            for (i, m) in list {
                match i {
                    Some(i) => errs.push(format!("{field}[{i}]"), m),
                    None if !errs.has(field) => errs.push(field, m),
                    None => {}
                }
            }
            None
        }
    }
}

/// The person's fields of `POST /persons` and `POST /invitations` (spec), in their value types.
/// `None` where a field was absent or failed; its error is then in the caller's [`FieldErrors`].
pub(crate) struct PersonFields {
    pub email: Option<Email>,
    pub first_name: Option<PersonName>,
    pub last_name: Option<PersonName>,
    pub external_id: Option<ExternalId>,
    pub labels: Option<Labels>,
    pub tags: Option<Vec<TagName>>,
}

/// Parses the person's fields both creating bodies carry (`email`, `firstName`, `lastName`,
/// `externalId`, `labels`, `tags`), after [`check`] has run `validator` on the body: a field
/// `validator` already refused is not reported again (T172, T257).
pub(crate) fn parse_person_fields(
    email: &str,
    first_name: Option<&str>,
    last_name: Option<&str>,
    external_id: Option<&str>,
    labels: Option<&[String]>,
    tags: Option<&[String]>,
    errs: &mut FieldErrors,
) -> PersonFields {
    PersonFields {
        email: errs.take("email", Email::parse(email)),
        first_name: parse_once(errs, "firstName", first_name, PersonName::parse),
        last_name: parse_once(errs, "lastName", last_name, PersonName::parse),
        external_id: parse_once(errs, "externalId", external_id, ExternalId::parse),
        labels: labels.and_then(|l| parse_labels(l, "labels", errs)),
        tags: tags.map(|t| parse_tags(t, errs)),
    }
}

/// [`parse_person_fields`] of a body whose fields have those names (`email`, `first_name`,
/// `last_name`, `external_id`, `labels`, `tags`): `PersonImportIn` and `InvitationCreateIn`.
macro_rules! parse_person_fields_of {
    ($body:expr, $errs:expr) => {
        $crate::person_in::parse_person_fields(
            &$body.email,
            $body.first_name.as_deref(),
            $body.last_name.as_deref(),
            $body.external_id.as_deref(),
            $body.labels.as_deref(),
            $body.tags.as_deref(),
            $errs,
        )
    };
}
pub(crate) use parse_person_fields_of;

fn parse_tags(items: &[String], errs: &mut FieldErrors) -> Vec<TagName> {
    let mut out = Vec::new();
    for (i, t) in items.iter().enumerate() {
        if let Some(t) = errs.take(&format!("tags[{i}]"), TagName::parse(t)) {
            out.push(t);
        }
    }
    out
}

impl PersonImportIn {
    pub(crate) fn try_into_domain(self) -> Result<ImportPerson, FieldErrors> {
        let mut errs = FieldErrors::default();
        check(&self, &mut errs);
        if let Some(inv) = &self.invitation {
            if !inv.create {
                errs.push("invitation.create", "must be true");
            }
        }
        let PersonFields { email, first_name, last_name, external_id, labels, tags } =
            parse_person_fields_of!(self, &mut errs);
        let tags = tags.unwrap_or_default();
        let candidate = self.invitation.as_ref().map(|i| {
            crate::candidate::parse(
                "invitation.",
                i.locale.as_deref(),
                i.time_zone.as_deref(),
                i.accommodations.as_ref(),
                i.redirect_url.as_deref(),
                &mut errs,
            )
        });
        errs.into_result()?;
        let email = email.ok_or_else(FieldErrors::default)?;
        let invitation = self.invitation.as_ref().map(|i| NestedInvitation {
            send_email: i.send_email,
            expires_in_days: i.expires_in_days.and_then(|d| u32::try_from(d).ok()),
            candidate: candidate.unwrap_or_default(),
        });
        Ok(ImportPerson { invitation, email, first_name, last_name, external_id, labels, tags })
    }
}

/// `PATCH /persons/{id}` body (spec; D13): every field optional; only `externalId` may be null.
#[derive(Deserialize, Validate, Debug, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[schema(as = PersonPatchRequest)]
pub struct PersonPatchIn {
    /// Always updatable; `null` clears it.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<schemas::ExternalId>)]
    external_id: Option<Option<String>>,
    /// May only be filled in while empty (409 `conflict` otherwise, D13).
    #[validate(length(min = 1, max = limits::NAME))]
    #[schema(value_type = schemas::Name, required = false)]
    first_name: Option<String>,
    /// May only be filled in while empty (409 `conflict` otherwise, D13).
    #[validate(length(min = 1, max = limits::NAME))]
    #[schema(value_type = schemas::Name, required = false)]
    last_name: Option<String>,
    /// Replaces the whole set; removing `employee` removes the person from every team (D16).
    #[validate(length(max = limits::LABELS))]
    #[schema(schema_with = schemas::label_list, required = false)]
    labels: Option<Vec<String>>,
    /// Replaces the whole tag set.
    #[validate(length(max = limits::TAGS))]
    #[schema(value_type = Vec<schemas::Tag>, required = false)]
    tags: Option<Vec<String>>,
}

impl PersonPatchIn {
    pub(crate) fn try_into_domain(self) -> Result<PatchPerson, FieldErrors> {
        let mut errs = FieldErrors::default();
        check(&self, &mut errs);
        let external_id = match self.external_id {
            None => None,
            Some(None) => Some(None),
            Some(Some(x)) => errs.take("externalId", ExternalId::parse(&x)).map(Some),
        };
        let first_name = parse_once(&mut errs, "firstName", self.first_name.as_deref(), PersonName::parse);
        let last_name = parse_once(&mut errs, "lastName", self.last_name.as_deref(), PersonName::parse);
        let labels = self.labels.as_ref().and_then(|l| parse_labels(l, "labels", &mut errs));
        let tags = self.tags.as_ref().map(|t| parse_tags(t, &mut errs));
        errs.into_result()?;
        Ok(PatchPerson { external_id, first_name, last_name, labels, tags })
    }
}
