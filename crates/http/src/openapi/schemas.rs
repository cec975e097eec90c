//! Schemas of values the document names but no response type carries: the constrained strings
//! of requests and filters (tags, names, external ids, search text; T86), the `label` filter, the
//! PDF body and a few inline schemas (`schema_with`). They describe, they are not serialized: the
//! response types are in [`crate::out`] (T105).
#![allow(dead_code)]

use serde::Serialize;
use serde_json::Value;
use std::borrow::Cow;
use talent_domain::values::{Email, Labels, PersonName, TagName};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::RefOr;
use utoipa::ToSchema;

/// White space other than tab and line breaks, as a regular-expression class body.
const SPACES: &str = r"\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000";
/// The control characters (Unicode `Cc`), as a regular-expression class body (T86).
const CONTROLS: &str = r"\u0000-\u001f\u007f-\u009f";

/// The pattern of a text that is trimmed and then has 1 to `max` characters, none of them a
/// control character, with any of `around` (white space) before and after it.
fn trimmed(around: &str, max: usize) -> String {
    let edge = format!("[^{CONTROLS} {SPACES}]");
    format!("^[{around}]*{edge}(?:[^{CONTROLS}]{{0,{}}}{edge})?[{around}]*$", max.saturating_sub(2))
}

/// The pattern of one line: no control character at all (T86).
fn one_line() -> String {
    format!("^[^{CONTROLS}]*$")
}

/// A doc comment's lines as utoipa's derive makes them a description: the space after `///`
/// taken off, joined with line breaks.
fn description(lines: &[&str]) -> String {
    lines.iter().map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end()).collect::<Vec<_>>().join("\n")
}

/// A string schema named after its type, as `#[derive(ToSchema)]` would write it, whose limits
/// are the value types' constants (utoipa's attributes take only literals): the doc comment is
/// its description, each `setter(value)` a call on its `ObjectBuilder`.
macro_rules! text_schema {
    ($(#[doc = $doc:literal])+ $name:ident { $($setter:ident($value:expr)),* $(,)? }) => {
        $(#[doc = $doc])+
        pub struct $name(pub String);

        impl utoipa::PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some(description(&[$($doc),+])))
                    $(.$setter(Some($value)))*
                    .into()
            }
        }

        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
        }
    };
}

text_schema! {
    /// A tag name in a request body: 1 to 50 characters, not only white space (spec, Limits; D14),
    /// no control character but tab and line breaks around it, which are trimmed (T86). The length
    /// is that of the trimmed text, so the pattern states it rather than `maxLength`.
    Tag { pattern(trimmed(&format!(r"\t\n\r {SPACES}"), TagName::MAX_CHARS)) }
}

text_schema! {
    /// A tag name in a query filter: as [`Tag`] but no control character at all (T86).
    TagFilter { pattern(trimmed(&format!(" {SPACES}"), TagName::MAX_CHARS)) }
}

text_schema! {
    /// An external id (spec, Person `externalId`): 1 to 255 characters, kept as sent, one line (T86).
    ExternalId { min_length(1), max_length(talent_domain::values::ExternalId::MAX_CHARS), pattern(one_line()) }
}

text_schema! {
    /// The `q` search of `GET /persons`: at most 100 characters, one line (T86).
    SearchText { max_length(crate::api::MAX_SEARCH_CHARS), pattern(one_line()) }
}

text_schema! {
    /// One line of text in a query filter (`q`, `externalId`): no control character (T86).
    OneLine { pattern(one_line()) }
}

text_schema! {
    /// An email address in a request (D9: trimmed and lower-cased; at most 254 characters). An
    /// internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
    /// (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form (D55). The
    /// part before `@` is ASCII.
    EmailAddress { format(SchemaFormat::KnownFormat(KnownFormat::Email)), max_length(Email::MAX_CHARS) }
}

text_schema! {
    /// A person's first or last name in a request: 1 to 100 characters, not only white space, no
    /// control character but tab and line breaks around it, which are trimmed (T86). Both the text as
    /// sent and the trimmed text have 1 to 100 characters.
    Name {
        min_length(1),
        max_length(PersonName::MAX_CHARS),
        pattern(trimmed(&format!(r"\t\n\r {SPACES}"), PersonName::MAX_CHARS)),
    }
}

/// The `status` filter of `GET /persons`: `any` selects active and archived persons together.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PersonStatusFilter {
    Active,
    Archived,
    Any,
}

/// The `label` filter of `GET /persons`: `other` matches persons without any label.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LabelFilter {
    Candidate,
    Employee,
    Other,
}

/// The boolean `true` and nothing else (`invitation.create` of `POST /persons`).
pub fn always_true() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Boolean)
        .enum_values(Some([true]))
        .build()
}

/// A PDF document (`GET /persons/{id}/report`, D27).
#[derive(Serialize, ToSchema)]
#[schema(value_type = String, format = Binary, content_media_type = "application/pdf")]
pub struct Pdf(pub Vec<u8>);

/// Labels in a request: at most [`Labels::MAX_ITEMS`] items; a repeated label counts once (T53).
pub fn label_list() -> utoipa::openapi::Array {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("Label"))
        .max_items(Some(Labels::MAX_ITEMS))
        .description(Some(format!("At most {} items; a repeated label counts once.", Labels::MAX_ITEMS)))
        .build()
}

/// Every list of [`Tag`]s in a request body (`tags` of `POST /persons`, `PATCH /persons/{id}`
/// and `POST /invitations`) takes at most [`TagName::MAX_PER_PERSON`] items: set here on the
/// derived document, as utoipa's `max_items` takes only a literal.
pub fn tag_lists(doc: &mut Value) {
    let tag = "#/components/schemas/Tag";
    let Some(schemas) = doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut) else { return };
    for s in schemas.values_mut() {
        for p in s.get_mut("properties").and_then(Value::as_object_mut).into_iter().flat_map(|p| p.values_mut()) {
            if p.pointer("/items/$ref").and_then(Value::as_str) == Some(tag) {
                p["maxItems"] = Value::from(TagName::MAX_PER_PERSON);
            }
        }
    }
}

/// [`label_list`] or null (absent: the default, D12, D15).
pub fn label_list_or_null() -> utoipa::openapi::Schema {
    utoipa::openapi::Schema::OneOf(
        utoipa::openapi::OneOfBuilder::new()
            .item(label_list())
            .item(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::schema::Type::Null))
            .build(),
    )
}

/// What an endpoint subscribes to: at least one `EventType`, or `["*"]` for all (spec,
/// Subscription).
pub fn event_subscriptions() -> utoipa::openapi::Array {
    let item = utoipa::openapi::OneOfBuilder::new()
        .item(utoipa::openapi::Ref::from_schema_name("EventType"))
        .item(ObjectBuilder::new().schema_type(Type::String).enum_values(Some(["*"])));
    utoipa::openapi::ArrayBuilder::new().items(item).min_items(Some(1)).build()
}

text_schema! {
    /// A locale Talent writes in, as a BCP 47 language tag (T217): `en`, `de`, `fr`, `es`, `nl`,
    /// `pt-BR`, `it`, `pl`, `ja`, `zh-Hans`. Other tags of these languages are accepted too and
    /// resolve by their language (`de-AT` is `de`, any Portuguese `pt-BR`, Chinese in the
    /// simplified script `zh-Hans`); answered as the resolved locale. Any other language is 400
    /// `validation_error`.
    LocaleTag { enum_values(talent_domain::values::Locale::ALL.map(|l| l.as_str())) }
}

text_schema! {
    /// An IANA time zone name (`Europe/Berlin`, `America/Sao_Paulo`, `UTC`), case-insensitive;
    /// answered in the Time Zone Database's spelling (T217).
    TimeZoneName { min_length(1), max_length(64), pattern(r"^[A-Za-z0-9_+\-/]+$".to_string()) }
}

text_schema! {
    /// An absolute `https` URL on one of the organization's redirect hosts (T219), at most 2,048
    /// characters, without user information.
    RedirectUrl {
        max_length(2048),
        pattern(r"^https://".to_string()),
    }
}

text_schema! {
    /// A host name an invitation's `redirectUrl` may point to (T219): lower-case labels of
    /// letters, digits and hyphens, at least two (`careers.example.com`); no scheme, port or path.
    /// A host in Unicode is stored in its IDNA ASCII form.
    RedirectHost { min_length(1), max_length(253) }
}
