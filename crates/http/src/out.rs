//! The response types of the public API (`*Out`): each is what a handler serializes *and* what
//! the OpenAPI document describes, so the two cannot differ (T105; svix's `XOut` habit).
//!
//! The shapes that webhook events also carry (Person, Invitation, Organization, key identity,
//! D34) are the domain's ([`talent_domain::wire`], re-exported here); the rest are built here from
//! the use cases' results. Every member is always present (nullable ones as `null`) and no other
//! member exists (spec, "all fields are always present"); timestamps print as
//! `talent_domain::timefmt::format`. Schema names are the spec's resource names (`Person`,
//! `Delivery`, ...), set with `#[schema(as = ...)]`.

use serde::Serialize;
use talent_domain::assessment::{AssessmentModel, Band, MatchCategory, Scores};
use talent_domain::errors::{ClientError, Code};
use talent_domain::events::EventType;
use talent_domain::results::Profile;

use talent_domain::events::SequencedEvent;
use talent_domain::usecases::assessments::{Match, PersonResults};
use talent_domain::usecases::feed::Replayed;
use talent_domain::usecases::webhooks::PingResult;
use talent_domain::webhook::{AttemptOutcome, Delivery, DeliveryStatus, Endpoint};
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;

/// The largest capacity [`JsonBody`]'s buffer keeps between answers (a longer list's buffer is
/// released once it is answered).
const SCRATCH_KEPT: usize = 64 * 1024;

thread_local! {
    /// The buffer [`JsonBody::json_body`] writes JSON into: it keeps its capacity from one answer
    /// to the next (up to [`SCRATCH_KEPT`]), so it neither grows nor is allocated per answer.
    static SCRATCH: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A JSON answer: every JSON answer of the APIs is made with [`JsonBody::json_body`], not with
/// actix-web's `HttpResponseBuilder::json` (which `clippy.toml` refuses).
pub trait JsonBody {
    /// The answer with `value` serialized as its body, `Content-Type: application/json`
    /// ([`crate::names::APPLICATION_JSON`]). The JSON is written into a buffer of this thread's
    /// that keeps its capacity, then copied once into a body of its exact length: one allocation
    /// per answer, where actix-web's `json` makes four (a `String` that grows from 128 bytes, its
    /// reallocation, the shared header of a `Bytes` whose capacity is longer than its length,
    /// the header value's copy; T323). A value that cannot be serialized (no response type can
    /// fail; a map with keys that are not strings would) is answered 500 `internal_error`, and
    /// logged.
    fn json_body(&mut self, value: impl Serialize) -> actix_web::HttpResponse;
}

impl JsonBody for actix_web::HttpResponseBuilder {
    fn json_body(&mut self, value: impl Serialize) -> actix_web::HttpResponse {
        match json_bytes(value) {
            Ok(body) => self.content_type(crate::names::APPLICATION_JSON.clone()).body(body),
            Err(e) => {
                tracing::error!(error = %e, "an answer could not be serialized as JSON");
                actix_web::ResponseError::error_response(&crate::error::ApiError(ClientError::internal()))
            }
        }
    }
}

/// `value` serialized as JSON, in a body of its exact length written through this thread's
/// buffer (see [`JsonBody::json_body`]). Errors: serde_json's, for a value that cannot be
/// serialized (a map with keys that are not strings).
pub(crate) fn json_bytes(value: impl Serialize) -> serde_json::Result<actix_web::web::Bytes> {
    SCRATCH.with(|cell| {
        // Never borrowed twice (serializing makes no answer), but a second borrow would get a
        // buffer of its own rather than a panic.
        let mut own = Vec::new();
        let mut shared = cell.try_borrow_mut();
        let buf = match &mut shared {
            Ok(b) => &mut **b,
            Err(_) => &mut own,
        };
        buf.clear();
        let body = serde_json::to_writer(&mut *buf, &value).map(|()| actix_web::web::Bytes::copy_from_slice(buf));
        if buf.capacity() > SCRATCH_KEPT {
            *buf = Vec::new();
        }
        body
    })
}

pub use talent_domain::wire::{
    AssessmentCompletedData, InvitationOut, KeyIdentityOut, OrganizationOut, PersonOut, PingData,
};

/// The pagination object of every list (spec, Pagination envelope; D36).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Pagination)]
#[serde(rename_all = "camelCase")]
pub struct PaginationOut {
    pub has_more: bool,
    /// Opaque; pass as `cursor` (with the same filters) for the next page.
    pub next_cursor: Option<String>,
}

impl PaginationOut {
    /// The one and only page of a short list.
    pub const LAST: PaginationOut = PaginationOut { has_more: false, next_cursor: None };
}

macro_rules! page {
    ($name:ident, $item:ty, $doc:literal) => {
        #[doc = $doc]
        #[derive(Serialize, ToSchema, Debug)]
        pub struct $name {
            pub data: Vec<$item>,
            pub pagination: PaginationOut,
        }

        impl $name {
            /// A page of `data`; `next_cursor` is `Some` exactly when more follow.
            pub fn new(data: Vec<$item>, next_cursor: Option<String>) -> Self {
                $name { data, pagination: PaginationOut { has_more: next_cursor.is_some(), next_cursor } }
            }
        }
    };
}

page!(PersonPage, PersonOut, "A page of persons, newest first (spec, `GET /persons`; D36).");
page!(InvitationPage, InvitationOut, "A page of invitations, newest first (D17, D36).");
page!(ProfilePage, ProfileOut, "A page of profiles, newest first (D25, D36).");
page!(MatchPage, MatchOut, "A page of matches (D26): highest percentage first for a profile.");
page!(WebhookEndpointPage, WebhookEndpointOut, "The organization's webhook endpoints (at most 10, one page; D29).");
page!(DeliveryPage, DeliveryOut, "A page of deliveries, newest first (D29, D32).");
page!(EventPage, EventOut, "A page of the events feed, ascending by `sequence` (D48).");

/// The answer of `POST /persons`: the Person plus `invitation` (spec, Person).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = PersonImported)]
pub struct PersonImportedOut {
    #[serde(flatten)]
    pub person: PersonOut,
    /// The invitation created with the nested `invitation` object, otherwise null.
    pub invitation: Option<InvitationOut>,
}

/// One item of the answer of `POST /persons/batch` (D49): what `POST /persons` would have
/// answered for `persons[index]`.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = PersonBatchItem)]
#[serde(rename_all = "camelCase")]
pub struct PersonBatchItemOut<'a> {
    /// The item's position in `persons`, from 0.
    #[schema(minimum = 0, maximum = 99)]
    pub index: usize,
    /// The HTTP status the single call would have had: 201 created or reactivated, 200 already
    /// a member, or the error's status (400, 409, ...).
    #[schema(minimum = 200, maximum = 599)]
    pub status: u16,
    /// The single call's body on success (the Person and `invitation`), otherwise null.
    pub person: Option<PersonImportedOut>,
    /// The single call's error envelope on failure, otherwise null.
    pub error: Option<ErrorOut<'a>>,
}

/// The answer of `POST /persons/batch` (D49): one result per item, in the order of `persons`.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = PersonBatchResult)]
pub struct PersonBatchOut<'a> {
    pub results: Vec<PersonBatchItemOut<'a>>,
}

/// `totals` of person results.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Totals)]
pub struct TotalsOut {
    /// Completed visible assessments.
    #[schema(minimum = 0)]
    pub assessments: u32,
    /// Forced-choice responses over them.
    #[schema(minimum = 0)]
    pub responses: u32,
}

/// One need of a motivation axis (spec, Person results; D23).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Need)]
#[serde(rename_all = "camelCase")]
pub struct NeedOut {
    pub name: String,
    pub definition: String,
    pub is_anchor: bool,
    /// Smoothed share of choices, 0 to 1, cumulative over visible assessments.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub score: f64,
    /// How often the need was shown.
    #[schema(minimum = 0)]
    pub exposure: u32,
}

/// A motivation axis with its needs.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = MotivationAxis)]
pub struct MotivationAxisOut {
    pub code: String,
    pub name: String,
    pub needs: Vec<NeedOut>,
}

/// One competency score: per-person only, never compared between persons (spec, concept 4).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = CompetencyScore)]
#[serde(rename_all = "camelCase")]
pub struct CompetencyScoreOut {
    pub competency_id: Uuid,
    pub name: String,
    pub description: Option<String>,
    /// Aptitude 0 to 1, 0.5 neutral.
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub score: f64,
    pub band: Band,
}

/// `competencies` of person results.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Competencies)]
#[serde(rename_all = "camelCase")]
pub struct CompetenciesOut {
    pub model_name: String,
    pub mapping_name: String,
    pub scores: Vec<CompetencyScoreOut>,
}

/// The personality description (D24), in English whatever the person's language (T222); the
/// PDF report writes it in the report's language.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Personality)]
#[serde(rename_all = "camelCase")]
pub struct PersonalityOut {
    /// Markdown composed from the person's own results only.
    pub markdown: String,
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub generated_at: OffsetDateTime,
}

/// A person's cumulative results (spec, Person results). Without a completed visible assessment:
/// `hasResults: false` and every other member null.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = PersonResults)]
#[serde(rename_all = "camelCase")]
pub struct PersonResultsOut {
    pub person_id: Uuid,
    pub has_results: bool,
    pub totals: Option<TotalsOut>,
    pub motivation_axes: Option<Vec<MotivationAxisOut>>,
    pub competencies: Option<CompetenciesOut>,
    pub personality: Option<PersonalityOut>,
    /// What the person was granted for the latest completed assessment (T218); null: nothing,
    /// or no results. Never part of the scores.
    pub accommodations: Option<talent_domain::wire::AccommodationsOut>,
}

impl PersonResultsOut {
    /// The results of `r` described with the assessment `model` (names, definitions).
    pub fn new(model: &AssessmentModel, r: &PersonResults) -> Self {
        let Some(s) = &r.scores else {
            return PersonResultsOut {
                person_id: r.person.id.0,
                has_results: false,
                totals: None,
                motivation_axes: None,
                competencies: None,
                personality: None,
                accommodations: None,
            };
        };
        PersonResultsOut {
            person_id: r.person.id.0,
            has_results: true,
            totals: Some(TotalsOut { assessments: s.assessments, responses: s.responses }),
            motivation_axes: Some(axes(model, s)),
            competencies: Some(CompetenciesOut {
                model_name: model.name.clone(),
                mapping_name: model.mapping.name.clone(),
                scores: s
                    .competencies
                    .iter()
                    .filter_map(|c| {
                        let m = model.competency(c.competency_id)?;
                        Some(CompetencyScoreOut {
                            competency_id: c.competency_id,
                            name: m.name.clone(),
                            description: m.description.clone(),
                            score: c.score,
                            band: c.band,
                        })
                    })
                    .collect(),
            }),
            personality: r
                .personality
                .as_ref()
                .map(|(md, at)| PersonalityOut { markdown: md.clone(), generated_at: *at }),
            accommodations: r.accommodations.as_ref().map(talent_domain::wire::AccommodationsOut::new),
        }
    }
}

fn axes(model: &AssessmentModel, s: &Scores) -> Vec<MotivationAxisOut> {
    let all: Vec<_> = model.needs().collect();
    model
        .axes
        .iter()
        .map(|a| MotivationAxisOut {
            code: a.code.clone(),
            name: a.name.clone(),
            needs: a
                .needs
                .iter()
                .filter_map(|n| {
                    let idx = all.iter().position(|x| x.id == n.id)?;
                    let r = s.needs.iter().find(|r| r.need_index == idx)?;
                    Some(NeedOut {
                        name: n.name.clone(),
                        definition: n.definition.clone(),
                        is_anchor: n.is_anchor,
                        score: r.score,
                        exposure: r.exposure,
                    })
                })
                .collect(),
        })
        .collect()
}

/// A weighted competency of a profile (D25).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = ProfileCompetency)]
#[serde(rename_all = "camelCase")]
pub struct ProfileCompetencyOut {
    pub competency_id: Uuid,
    pub name: String,
    #[schema(minimum = 0.0, maximum = 1.0)]
    pub weight: f64,
}

/// A competency profile (D25).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Profile)]
#[serde(rename_all = "camelCase")]
pub struct ProfileOut {
    pub id: Uuid,
    pub name: String,
    pub description: Option<String>,
    pub competencies: Vec<ProfileCompetencyOut>,
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub updated_at: OffsetDateTime,
}

impl ProfileOut {
    /// The profile `p` with its competencies' names from `model`.
    pub fn new(model: &AssessmentModel, p: &Profile) -> Self {
        ProfileOut {
            id: p.id.0,
            name: p.name.clone(),
            description: p.description.clone(),
            competencies: p
                .competencies
                .iter()
                .map(|c| ProfileCompetencyOut {
                    competency_id: c.competency_id,
                    name: model.competency(c.competency_id).map(|m| m.name.clone()).unwrap_or_default(),
                    weight: c.weight,
                })
                .collect(),
            created_at: p.created_at,
            updated_at: p.updated_at,
        }
    }
}

/// A profile match: only the aggregate, never a competency score (spec, concept 4; D3, D26).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Match)]
#[serde(rename_all = "camelCase")]
pub struct MatchOut {
    pub person_id: Uuid,
    pub profile_id: Uuid,
    #[schema(minimum = 0, maximum = 100)]
    pub percentage: u8,
    pub category: MatchCategory,
}

impl From<&Match> for MatchOut {
    fn from(m: &Match) -> Self {
        MatchOut {
            person_id: m.person_id.0,
            profile_id: m.profile_id.0,
            percentage: m.percentage,
            category: m.category,
        }
    }
}

/// A webhook endpoint (D29). The signing secret is only in `WebhookEndpointWithSecret`.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = WebhookEndpoint)]
#[serde(rename_all = "camelCase")]
pub struct WebhookEndpointOut {
    pub id: Uuid,
    pub url: String,
    #[schema(schema_with = crate::openapi::schemas::event_subscriptions)]
    pub events: Vec<String>,
    pub description: Option<String>,
    pub enabled: bool,
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub updated_at: OffsetDateTime,
}

impl From<&Endpoint> for WebhookEndpointOut {
    fn from(e: &Endpoint) -> Self {
        WebhookEndpointOut {
            id: e.id.0,
            url: e.url.clone(),
            events: e.events.to_strings(),
            description: e.description.clone(),
            enabled: e.enabled,
            created_at: e.created_at,
            updated_at: e.updated_at,
        }
    }
}

/// A webhook endpoint with its signing secret: only in the answers of `POST /webhooks` and
/// `POST /webhooks/{id}/rotate-secret` (spec, Subscription; D29, D30).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = WebhookEndpointWithSecret)]
pub struct WebhookEndpointWithSecretOut {
    #[serde(flatten)]
    pub endpoint: WebhookEndpointOut,
    /// `whsec_` + 32 random bytes in standard base64: the whole string is the key of
    /// `Talent-Signature`, the decoded bytes after `whsec_` the key of `webhook-signature` (D30,
    /// D58).
    #[schema(pattern = "^whsec_[A-Za-z0-9+/]{43}=$")]
    pub secret: String,
}

impl From<&Endpoint> for WebhookEndpointWithSecretOut {
    fn from(e: &Endpoint) -> Self {
        WebhookEndpointWithSecretOut { endpoint: e.into(), secret: e.secret.clone() }
    }
}

/// A webhook delivery record (D32); its `id` is the event's `Talent-Delivery-Id` (D31).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Delivery)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryOut {
    pub id: Uuid,
    #[serde(rename = "type")]
    pub event_type: EventType,
    pub status: DeliveryStatus,
    #[schema(minimum = 0)]
    pub attempts: u32,
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub created_at: OffsetDateTime,
    #[serde(serialize_with = "talent_domain::timefmt::serialize_opt")]
    pub last_attempt_at: Option<OffsetDateTime>,
    #[serde(serialize_with = "talent_domain::timefmt::serialize_opt")]
    pub next_attempt_at: Option<OffsetDateTime>,
    #[schema(minimum = 100, maximum = 599)]
    pub last_response_status: Option<u16>,
    pub last_error: Option<String>,
    /// The `X-Request-Id` of the API request that caused the event (the `/test` request for a
    /// ping); null when a background job did (an expiry, a reminder, an automatic disable).
    /// Quote it to support with the delivery id.
    pub request_id: Option<String>,
}

impl From<&Delivery> for DeliveryOut {
    fn from(d: &Delivery) -> Self {
        DeliveryOut {
            id: d.id.0,
            event_type: d.event_type,
            status: d.status,
            attempts: d.attempts,
            created_at: d.created_at,
            last_attempt_at: d.last_attempt_at,
            next_attempt_at: d.next_attempt_at,
            last_response_status: d.last_response_status,
            last_error: d.last_error.clone(),
            request_id: d.request_id.clone(),
        }
    }
}

/// One attempt of a delivery (`attemptLog` of `GET .../deliveries/{deliveryId}`).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Attempt)]
#[serde(rename_all = "camelCase")]
pub struct AttemptOut {
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub attempted_at: OffsetDateTime,
    /// The receiver's status; null when no response arrived.
    #[schema(minimum = 100, maximum = 599)]
    pub response_status: Option<u16>,
    /// Milliseconds.
    #[schema(minimum = 0)]
    pub duration_ms: u64,
    pub error: Option<String>,
    /// First 1 KiB of the receiver's body.
    pub response_body: Option<String>,
}

impl AttemptOut {
    /// The attempt made at `attempted_at` with `outcome`.
    pub fn new(attempted_at: OffsetDateTime, outcome: &AttemptOutcome) -> Self {
        AttemptOut {
            attempted_at,
            response_status: outcome.status,
            duration_ms: outcome.duration_ms,
            error: outcome.error.clone(),
            response_body: outcome.response_body.clone(),
        }
    }
}

/// A delivery record with its attempts (`GET /webhooks/{id}/deliveries/{deliveryId}`; D32).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = DeliveryDetail)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryDetailOut {
    #[serde(flatten)]
    pub delivery: DeliveryOut,
    /// Oldest first.
    pub attempt_log: Vec<AttemptOut>,
}

/// The answer of `POST /webhooks/{id}/test` (D33).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = WebhookTestResult)]
#[serde(rename_all = "camelCase")]
pub struct WebhookTestResultOut {
    pub delivery_id: Uuid,
    pub success: bool,
    #[schema(minimum = 100, maximum = 599)]
    pub response_status: Option<u16>,
    /// First 1 KiB.
    pub response_body: Option<String>,
    /// Milliseconds.
    #[schema(minimum = 0)]
    pub duration_ms: u64,
    pub error: Option<String>,
}

impl From<&PingResult> for WebhookTestResultOut {
    fn from(r: &PingResult) -> Self {
        WebhookTestResultOut {
            delivery_id: r.delivery_id.0,
            success: r.success,
            response_status: r.response_status,
            response_body: r.response_body.clone(),
            duration_ms: r.duration_ms,
            error: r.error.clone(),
        }
    }
}

/// The error envelope (spec, Errors): `error`, `code`, optional `details`, nothing else.
/// `validation_error` details: `{"fields":[{"field","message"}]}` (D37); `person_limit_reached`:
/// `{used, limit, plan}`.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Error)]
pub struct ErrorOut<'a> {
    /// Human-readable English message.
    pub error: &'a str,
    pub code: Code,
    /// Structured context; absent when there is none.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub details: Option<&'a serde_json::Value>,
}

impl<'a> From<&'a ClientError> for ErrorOut<'a> {
    fn from(e: &'a ClientError) -> Self {
        ErrorOut { error: &e.message, code: e.code, details: e.details.as_ref() }
    }
}

/// An event of the feed (D48, T106): the webhook envelope of the event (its own id, type, time,
/// version and data; D34) plus its `sequence`.
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = Event)]
#[serde(rename_all = "camelCase")]
pub struct EventOut {
    /// The event's id (one event, however many deliveries carry it).
    pub id: Uuid,
    /// The organization's own count of its events, 1, 2, 3, … in commit order (D56): the feed's
    /// cursor (`after`).
    #[schema(minimum = 1)]
    pub sequence: u64,
    #[serde(rename = "type")]
    pub event_type: EventType,
    #[serde(serialize_with = "talent_domain::timefmt::serialize")]
    pub created_at: OffsetDateTime,
    /// `v1`.
    #[schema(pattern = "^v1$")]
    pub api_version: &'static str,
    /// As in the webhook delivery of the event (see `webhooks`).
    #[schema(value_type = Object)]
    pub data: talent_domain::events::EventData,
}

impl From<&SequencedEvent> for EventOut {
    fn from(e: &SequencedEvent) -> Self {
        EventOut {
            id: e.event.id.0,
            sequence: e.sequence,
            event_type: e.event.event_type,
            created_at: e.event.created_at,
            api_version: "v1",
            data: e.event.data.clone(),
        }
    }
}

/// The answer of `POST /webhooks/{id}/replay` (D48).
#[derive(Serialize, ToSchema, Debug)]
#[schema(as = WebhookReplay)]
#[serde(rename_all = "camelCase")]
pub struct ReplayOut {
    /// Deliveries queued by this call (at most 1,000).
    #[schema(minimum = 0)]
    pub queued: u32,
    /// The sequence of the last event queued; null when none was.
    #[schema(minimum = 1)]
    pub last_sequence: Option<u64>,
    /// More events follow: call again with `after` = `lastSequence`.
    pub has_more: bool,
}

impl From<&Replayed> for ReplayOut {
    fn from(r: &Replayed) -> Self {
        ReplayOut { queued: r.queued, last_sequence: r.last_sequence, has_more: r.has_more }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::JsonBody;
    use actix_web::body::MessageBody;
    use actix_web::HttpResponse;

    fn body(r: HttpResponse) -> (u16, String, Vec<u8>) {
        let ct = r.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        let status = r.status().as_u16();
        (status, ct, r.into_body().try_into_bytes().unwrap().to_vec())
    }

    /// T323: an answer's JSON is what serde_json writes, with `Content-Type: application/json`,
    /// whatever the size of the answers before it (the thread's buffer is reused, and released
    /// past 64 KiB).
    #[test]
    fn json_answers_are_serde_json_bytes_whatever_came_before() {
        let small = serde_json::json!({"a": "é\"\n", "b": [1, 2, 3], "c": null});
        let large = serde_json::json!({"data": vec!["x".repeat(1000); 100]});
        for v in [&small, &large, &small, &large, &large, &small] {
            let (status, ct, bytes) = body(HttpResponse::Created().json_body(v));
            assert_eq!((status, ct.as_str()), (201, "application/json"));
            assert_eq!(bytes, serde_json::to_vec(v).unwrap());
        }
    }

    /// A value serde_json refuses (a map whose keys are not strings) is a 500 with the error
    /// envelope, never a panic or an empty 200.
    #[test]
    fn a_value_that_is_not_json_is_an_internal_error() {
        let map: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into();
        let (status, ct, bytes) = body(HttpResponse::Ok().json_body(&map));
        assert_eq!((status, ct.as_str()), (500, "application/json"));
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["code"], "internal_error");
    }
}
