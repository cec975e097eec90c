//! Schemas of values the document names but no response type carries: the constrained strings
//! of requests and filters (tags, names, external ids, search text; T86), the `label` filter, the
//! PDF body and a few inline schemas (`schema_with`). They describe, they are not serialized: the
//! response types are in [`crate::out`] (T105).
#![allow(dead_code)]

use serde::Serialize;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::ToSchema;

/// A tag name in a request body: 1 to 50 characters, not only white space (spec, Limits; D14),
/// no control character but tab and line breaks around it, which are trimmed (T86). The length
/// is that of the trimmed text, so the pattern states it rather than `maxLength`.
#[derive(Serialize, ToSchema)]
#[schema(
    pattern = r"^[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000](?:[^\u0000-\u001f\u007f-\u009f]{0,48}[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])?[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
)]
pub struct Tag(pub String);

/// A tag name in a query filter: as [`Tag`] but no control character at all (T86).
#[derive(Serialize, ToSchema)]
#[schema(
    pattern = r"^[ \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000](?:[^\u0000-\u001f\u007f-\u009f]{0,48}[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])?[ \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
)]
pub struct TagFilter(pub String);

/// An external id (spec, Person `externalId`): 1 to 255 characters, kept as sent, one line (T86).
#[derive(Serialize, ToSchema)]
#[schema(min_length = 1, max_length = 255, pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$")]
pub struct ExternalId(pub String);

/// The `q` search of `GET /persons`: at most 100 characters, one line (T86).
#[derive(Serialize, ToSchema)]
#[schema(max_length = 100, pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$")]
pub struct SearchText(pub String);

/// One line of text in a query filter (`q`, `externalId`): no control character (T86).
#[derive(Serialize, ToSchema)]
#[schema(pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$")]
pub struct OneLine(pub String);

/// An email address in a request (D9: trimmed and lower-cased; at most 254 characters). An
/// internationalized domain may be sent in Unicode (`ana@münchen.de`) or in its ASCII form
/// (`ana@xn--mnchen-3ya.de`): both are one address, stored and answered in ASCII form (D55). The
/// part before `@` is ASCII.
#[derive(Serialize, ToSchema)]
#[schema(format = Email, max_length = 254)]
pub struct EmailAddress(pub String);

/// A person's first or last name in a request: 1 to 100 characters, not only white space, no
/// control character but tab and line breaks around it, which are trimmed (T86). Both the text as
/// sent and the trimmed text have 1 to 100 characters.
#[derive(Serialize, ToSchema)]
#[schema(
    min_length = 1,
    max_length = 100,
    pattern = r"^[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000](?:[^\u0000-\u001f\u007f-\u009f]{0,98}[^\u0000-\u001f\u007f-\u009f \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000])?[\t\n\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
)]
pub struct Name(pub String);

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
#[schema(value_type = String, content_media_type = "application/pdf")]
pub struct Pdf(pub Vec<u8>);

/// Labels in a request: at most 2 items; a repeated label counts once (T53).
pub fn label_list() -> utoipa::openapi::Array {
    utoipa::openapi::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("Label"))
        .max_items(Some(2))
        .description(Some("At most 2 items; a repeated label counts once."))
        .build()
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
