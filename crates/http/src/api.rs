//! The public API `/api/v1` (spec, Endpoints): `/me`, `/organization`, `/persons`.

use crate::auth::authorize;
use crate::body::{page_limit, parse_json, parse_object, parse_params, reject_nulls};
use crate::error::ApiError;
use crate::extract::{Body, PathId};
use crate::idempotency::{keyed, Reply};
use crate::openapi::schemas;
use crate::out;
use crate::out::JsonBody as _;
use crate::person_in::{PersonImportIn, PersonPatchIn};
use crate::state::ApiState;
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use talent_domain::api_key::KeyContext;
use talent_domain::ids::PersonId;
use talent_domain::person::Person;
use talent_domain::ports::{LabelFilter, PersonQuery, PersonStatusFilter, Store};
use talent_domain::results::AssessmentStatus;
use talent_domain::usecases::idempotency::{refuses_the_key, Claim, IdempotentRequest, Keyed};
use talent_domain::usecases::persons::ImportOutcome;
use talent_domain::values::*;
use utoipa::{IntoParams, ToSchema};

fn ok_json(v: impl serde::Serialize) -> HttpResponse {
    HttpResponse::Ok().json_body(v)
}

/// `GET /api/v1/me`: the key identity; no scope (D5: plan check applies).
#[utoipa::path(get, path = "/api/v1/me", tag = "account", operation_id = "getMe",
    summary = "Validate the key: its identity, scopes and plan",
    description = "The key's identity: the user and organization it belongs to, the user's role, the scopes it carries and the organization's plan. Use it to check a key before a sync.",
    responses((status = 200, description = "The key identity.", body = out::KeyIdentityOut)),
    security(("bearerAuth" = [])))]
pub async fn me<S: Store>(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, None, false)?;
    Ok(identity(&p.ctx))
}

thread_local! {
    /// The key context whose `/me` answer this worker rendered last, and that answer's body.
    static IDENTITY: std::cell::RefCell<Option<(std::sync::Arc<KeyContext>, web::Bytes)>> =
        const { std::cell::RefCell::new(None) };
}

/// The `/me` answer for `ctx`. Its body is a function of the key context alone, and the store's
/// key cache hands every request of one key the same shared context until it is loaded again
/// (at most a second later, or at once after a change to the key, its user or its organization):
/// the body rendered for that context is kept per worker and answered again while the same
/// context comes back, instead of serializing it per request (T326: 12 % of a `/me` request's
/// instructions). A context that differs in anything, or is loaded anew, is rendered anew.
fn identity(ctx: &std::sync::Arc<KeyContext>) -> HttpResponse {
    let kept = IDENTITY.with(|cell| {
        let cell = cell.try_borrow().ok()?;
        let (last, body) = cell.as_ref()?;
        std::sync::Arc::ptr_eq(last, ctx).then(|| body.clone())
    });
    let body = match kept {
        Some(body) => body,
        None => match out::json_bytes(out::KeyIdentityOut::from(&**ctx)) {
            Ok(body) => {
                IDENTITY.with(|cell| {
                    if let Ok(mut last) = cell.try_borrow_mut() {
                        *last = Some((ctx.clone(), body.clone()));
                    }
                });
                body
            }
            // Logged and answered as every answer that cannot be serialized.
            Err(_) => return ok_json(out::KeyIdentityOut::from(&**ctx)),
        },
    };
    HttpResponse::Ok().content_type(crate::names::APPLICATION_JSON.clone()).body(body)
}

/// `GET /api/v1/organization` (scope `organization:read`).
#[utoipa::path(get, path = "/api/v1/organization", tag = "account", operation_id = "getOrganization",
    summary = "The organization, its subscription and plan usage",
    description = "The organization behind the key: its name, subscription status, plan and the plan's usage (persons counted against the limit, and whether imports and invitations are blocked).",
    responses((status = 200, description = "The organization.", body = out::OrganizationOut)),
    security(("bearerAuth" = ["organization:read"])))]
pub async fn organization<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::OrganizationRead), false)?;
    let (org, usage) = state.svc.organization(p.ctx.org.id).await?;
    Ok(ok_json(out::OrganizationOut::new(&org, &usage)))
}

/// `POST /api/v1/persons` (scope `persons:write`; idempotent on email; `Idempotency-Key`).
#[utoipa::path(post, path = "/api/v1/persons", tag = "persons", operation_id = "importPerson",
    summary = "Import (create or reactivate) a person; idempotent on email",
    description = "Adds a person to the talent pool, or answers with the existing one: the email is the identity (200 when the person is already an active member, 201 when created or reactivated). Given fields update the person. The nested `invitation` creates an invitation in the same call. Refused with 409 when the plan's person limit is reached.",
    request_body = PersonImportIn,
    responses(
        (status = 201, description = "Imported (created or reactivated); `invitation` when requested.",
            body = out::PersonImportedOut),
        (status = 200, description = "Already an active member: tags added, empty fields filled.",
            body = out::PersonImportedOut,
            headers(("X-Existing-Resource" = String, description = "`true`"))),
        (status = 409, description = "`person_limit_reached` (details `{used, limit, plan}`), `person_deactivated`, \
`person_self_revoked`, `idempotency_key_reused`, or `conflict` (same Idempotency-Key still running).",
            body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:write"])))]
pub async fn import_person<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsWrite), true)?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    keyed(&state, &req, org, &body, imported, |claim| async {
        let input: PersonImportIn = parse_json(&req, &body)?;
        let cmd = input.try_into_domain()?;
        Ok(match claim {
            None => Keyed::Ran(state.svc.import_person(org, cmd).await?),
            Some(claim) => state.svc.import_person_keyed(org, cmd, claim).await?,
        })
    })
    .await
}

/// The answer to an import: 201 with the person (and invitation), or 200 with
/// `X-Existing-Resource` when the person was an active member already.
fn imported(done: &ImportOutcome) -> Reply {
    let v =
        out::PersonImportedOut { person: (&done.person).into(), invitation: done.invitation.as_ref().map(|i| i.out()) };
    if done.created {
        Reply::new(StatusCode::CREATED, &v)
    } else {
        Reply { existing_resource: true, ..Reply::new(StatusCode::OK, &v) }
    }
}

/// One item of a batch's answer (D49): the single call's status and body.
fn batch_item(index: usize, done: &ImportOutcome) -> Reply {
    let item = out::PersonBatchItemOut {
        index,
        status: if done.created { 201 } else { 200 },
        person: Some(out::PersonImportedOut {
            person: (&done.person).into(),
            invitation: done.invitation.as_ref().map(|i| i.out()),
        }),
        error: None,
    };
    Reply::new(if done.created { StatusCode::CREATED } else { StatusCode::OK }, &item)
}

/// The answer of `POST /persons/batch` (D49): each item's answer as it was rendered (or stored,
/// for an item replayed under its key).
#[derive(serde::Serialize)]
struct BatchResults {
    results: Vec<Box<serde_json::value::RawValue>>,
}

/// Most persons in one `POST /persons/batch` (D49).
pub const MAX_BATCH: usize = 100;

/// `POST /persons/batch` body (D49).
#[derive(Deserialize, Debug, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = PersonBatchRequest)]
pub struct PersonBatchIn {
    /// 1 to 100 bodies of `POST /api/v1/persons`, imported in this order.
    #[schema(value_type = Vec<PersonImportIn>, min_items = 1, max_items = 100)]
    persons: Vec<serde_json::Value>,
}

/// `POST /api/v1/persons/batch` (D49; scope `persons:write`): up to 100 imports in one request.
/// Each item runs as `POST /persons` would, in its own transaction, in order; an item's error
/// does not stop the others. One request against the rate limit; an `Idempotency-Key` covers the
/// whole batch (a batch with an item that failed for a server-side reason is not stored, so a
/// retry with the key runs it again: the items already imported then answer 200).
#[utoipa::path(post, path = "/api/v1/persons/batch", tag = "persons", operation_id = "importPersonBatch",
    summary = "Import up to 100 persons in one request",
    description = "Imports up to 100 persons in one request: each item is judged as `POST /api/v1/persons` would judge it, and the answer has one result per item in order, with the status and body (or error) the single call would have had. An item that is not an object fails the whole request with 400.",
    request_body = PersonBatchIn,
    responses(
        (status = 200, description = "One result per item, in order: its status, and the Person or the error \
the single call would have answered.", body = out::PersonBatchOut),
        (status = 400, description = "`validation_error` of the request as a whole: not an object, `persons` \
missing or not 1 to 100 items, or an item that is not an object (each such item named in `details`). \
An object item's own errors are in its result.", body = out::ErrorOut),
        (status = 409, description = "`idempotency_key_reused` or `conflict` (same Idempotency-Key still running).",
            body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:write"])))]
pub async fn import_batch<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsWrite), true)?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    // T223: each item claims the key as `{path}#{index}` in its own transaction, so a retry
    // after a crash replays the items that committed and runs the others; the whole answer is
    // stored once every item has one.
    let key = crate::idempotency::key_of(&req, org, &body)?;
    if let Some(k) = &key {
        if let Some(s) = state.svc.idempotency_peek(k).await? {
            return Ok(crate::idempotency::send(s, true));
        }
    }
    let batch = async {
        let input: PersonBatchIn = crate::body::parse_json_batch(&req, &body, "persons")?;
        if input.persons.is_empty() || input.persons.len() > MAX_BATCH {
            return Err(ApiError::field("persons", format!("must hold 1 to {MAX_BATCH} persons")));
        }
        // An item that is not an object fails the whole batch, with every such index (D62).
        let mut shapes = talent_domain::values::FieldErrors::default();
        for (i, _) in input.persons.iter().enumerate().filter(|(_, v)| !v.is_object()) {
            shapes.push(format!("persons[{i}]"), "must be an object");
        }
        if let Err(e) = shapes.into_result() {
            return Err(ApiError(talent_domain::errors::ClientError::validation(&e)));
        }
        let mut results = Vec::with_capacity(input.persons.len());
        let mut replayable = true;
        for (index, item) in input.persons.iter().enumerate() {
            let bytes = serde_json::to_vec(item).unwrap_or_default();
            let claim = key.as_ref().map(|k| {
                let part = IdempotentRequest { path: format!("{}#{index}", k.path), ..k.clone() };
                Claim::new(part, move |done: &ImportOutcome| batch_item(index, done).stored())
            });
            let one = async {
                crate::body::control_characters(&bytes)?;
                let i: PersonImportIn = parse_object(&bytes)?;
                let cmd = i.try_into_domain()?;
                Ok::<_, ApiError>(match claim {
                    None => Keyed::Ran(state.svc.import_person(org, cmd).await?),
                    Some(claim) => state.svc.import_person_keyed(org, cmd, claim).await?,
                })
            };
            let done = one.await;
            if let (Ok(Keyed::Ran(_)), Some(k)) = (&done, &key) {
                crate::idempotency::crash_point(&state, &format!("{}#{index}", k.path));
            }
            results.push(match done {
                Ok(Keyed::Ran(done)) => batch_item(index, &done).body,
                Ok(Keyed::Replayed(s)) => serde_json::value::RawValue::from_string(s.body)
                    .unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned()),
                // The key belongs to another body, or its first request still runs: the batch's
                // answer, not an item's.
                Err(e) if refuses_the_key(&e.0) => return Err(e),
                Err(e) => {
                    let status = actix_web::ResponseError::status_code(&e);
                    replayable &= !status.is_server_error();
                    let item = out::PersonBatchItemOut {
                        index,
                        status: status.as_u16(),
                        person: None,
                        error: Some((&e.0).into()),
                    };
                    crate::idempotency::raw(&item)
                }
            });
        }
        Ok::<_, ApiError>((BatchResults { results }, replayable))
    };
    match (batch.await, key) {
        (Ok((body, _)), None) => Ok(crate::idempotency::send(Reply::new(StatusCode::OK, &body).stored(), false)),
        (Ok((body, replayable)), Some(k)) => {
            let answer = Reply::new(StatusCode::OK, &body).stored();
            if replayable {
                if let Err(e) = state.svc.idempotency_record(k, answer.clone()).await {
                    tracing::error!(error = %e, "could not record idempotency outcome");
                }
            }
            Ok(crate::idempotency::send(answer, false))
        }
        (Err(e), Some(k)) if !refuses_the_key(&e.0) => {
            let refused = crate::idempotency::refusal(&e);
            if let Err(x) = state.svc.idempotency_record(k, refused).await {
                tracing::error!(error = %x, "could not record idempotency outcome");
            }
            Err(e)
        }
        (Err(e), _) => Err(e),
    }
}

/// `GET /api/v1/persons/{id}` (scope `persons:read`; archived persons too, D28).
#[utoipa::path(get, path = "/api/v1/persons/{id}", tag = "persons", operation_id = "getPerson",
    summary = "A person of the organization (archived persons too)",
    description = "One person of the organization, archived ones included, with their assessment summary as the organization may see it.",
    params(PersonIdParam),
    responses(
        (status = 200, description = "The person.", body = out::PersonOut),
        (status = 404, description = "`not_found`: not a member of the organization.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:read"])))]
pub async fn get_person<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsRead), false)?;
    let PathId(id) = id?;
    let person = state.svc.get_person(p.ctx.org.id, id).await?;
    Ok(ok_json(out::PersonOut::from(&person)))
}

/// `PATCH /api/v1/persons/{id}` (scope `persons:write`).
#[utoipa::path(patch, path = "/api/v1/persons/{id}", tag = "persons", operation_id = "patchPerson",
    summary = "Update a person",
    description = "Changes the given fields of a person; fields left out stay as they are. `externalId` can always be changed (`null` clears it); `firstName` and `lastName` may only be filled in while empty (409 `conflict` otherwise); `labels` and `tags` replace the whole set, and removing the label `employee` removes the person from every team. Emits `person.updated` with the previous values when something changed.",
    params(PersonIdParam),
    request_body = PersonPatchIn,
    responses(
        (status = 200, description = "The updated person.", body = out::PersonOut),
        (status = 404, description = "`not_found`: not a member of the organization.", body = out::ErrorOut),
        (status = 409, description = "`conflict`: a name sent for a person who already has one (D13).",
            body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:write"])))]
pub async fn patch_person<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsWrite), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    let input: PersonPatchIn = parse_json(&req, &body)?;
    reject_nulls(&body, &["firstName", "lastName", "labels", "tags"])?;
    let cmd = input.try_into_domain()?;
    let person = state.svc.patch_person(p.ctx.org.id, id, cmd).await?;
    Ok(ok_json(out::PersonOut::from(&person)))
}

/// `DELETE /api/v1/persons/{id}` (scope `persons:write`): archive.
#[utoipa::path(delete, path = "/api/v1/persons/{id}", tag = "persons", operation_id = "archivePerson",
    summary = "Archive a person (frees a plan seat; data retained)",
    description = "Archives the person: they leave the active pool and free their seat of the plan, their data is kept, and `person.archived` is emitted. Importing the email again reactivates them.",
    params(PersonIdParam),
    responses(
        (status = 200, description = "The archived person.", body = out::PersonOut),
        (status = 404, description = "`not_found`: no active person with this id.", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:write"])))]
pub async fn archive_person<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsWrite), true)?;
    let PathId(id) = id?;
    let person = state.svc.archive_person(p.ctx.org.id, id).await?;
    Ok(ok_json(out::PersonOut::from(&person)))
}

/// `POST /api/v1/persons/{id}/erase` (scope `persons:write`, D44): erases the organization's
/// personal data of the membership and answers the erased Person (idempotent).
#[utoipa::path(post, path = "/api/v1/persons/{id}/erase", tag = "persons", operation_id = "erasePerson",
    summary = "Erase a person's personal data (GDPR erasure; irreversible)",
    description = "Removes the organization's personal data of the person: names, externalId, tags, labels, and the email, which becomes `erased-{id}@invalid`. The person is archived (archivedAt set), never shows this human's results to the organization again, and stays in lists and `updatedAfter` sync as a tombstone with `status: archived`. Pending invitations of the person are revoked; stored invitations, events, webhook payloads and stored idempotent responses no longer hold the data. Emits `person.archived` with the erased Person. Idempotent: a second call answers the same without a new event.",
    params(PersonIdParam),
    responses(
        (status = 200, description = "The erased person.", body = out::PersonOut),
        (status = 404, description = "`not_found`: no person with this id in the organization.", body = out::ErrorOut),
        (status = 409, description = "`conflict`: an Idempotency-Key conflict (D38).", body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:write"])))]
pub async fn erase_person<S: Store>(
    state: web::Data<ApiState<S>>,
    req: HttpRequest,
    id: Result<PathId<PersonId>, ApiError>,
    body: Result<Body, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsWrite), true)?;
    let PathId(id) = id?;
    let Body(body) = body?;
    let org = p.ctx.org.id;
    let erased = |p: &Person| Reply::new(StatusCode::OK, &out::PersonOut::from(p));
    let svc = &state.svc;
    keyed(&state, &req, org, &body, erased, |claim| async move { Ok(svc.erase_person_keyed(org, id, claim).await?) })
        .await
}

/// Query parameters of `GET /api/v1/persons` (spec), as parsed ([`parse_params`]). Unknown or
/// repeated parameters: 400 (T14).
#[derive(Deserialize, IntoParams, Debug)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PersonListParams {
    /// Case-insensitive substring of first name, last name or email.
    #[param(value_type = Option<schemas::SearchText>)]
    q: Option<String>,
    /// Default `active`; `any`: active and archived together (one-pass sync).
    #[param(value_type = Option<schemas::PersonStatusFilter>)]
    status: Option<String>,
    /// Exact match (case-insensitive, D9).
    #[param(value_type = Option<schemas::EmailAddress>)]
    email: Option<String>,
    /// Exact match.
    #[param(value_type = Option<schemas::OneLine>)]
    external_id: Option<String>,
    #[param(value_type = Option<talent_domain::results::AssessmentStatus>)]
    assessment_status: Option<String>,
    /// `other` matches persons without any label.
    #[param(value_type = Option<schemas::LabelFilter>)]
    label: Option<String>,
    /// Tag name, case-insensitive exact match.
    #[param(value_type = Option<schemas::TagFilter>)]
    tag: Option<String>,
    /// Only persons changed after this moment (incremental sync).
    #[param(value_type = Option<time::OffsetDateTime>)]
    updated_after: Option<String>,
    /// `pagination.nextCursor` of the previous page, with the same filters.
    #[param(min_length = 1)]
    cursor: Option<String>,
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100, default = 25)]
    limit: Option<String>,
}

/// The `{id}` path parameter of the person endpoints.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)]
pub struct PersonIdParam {
    /// The person's id (its membership id, D10). A non-UUID is 404 (T13).
    id: uuid::Uuid,
}

/// The most characters of the `q` search of `GET /persons` (spec, Limits).
pub const MAX_SEARCH_CHARS: usize = 100;

/// `GET /api/v1/persons` (scope `persons:read`): newest first, keyset-paginated (D36).
#[utoipa::path(get, path = "/api/v1/persons", tag = "persons", operation_id = "listPersons",
    summary = "List persons, newest first",
    description = "The organization's persons, newest first, in pages of `limit` (1 to 100) with an opaque cursor; pass the same filters with each cursor. Filters combine. With `updatedAfter` the list holds every person changed since, archived and erased ones included, which is how an ATS keeps its copy current.",
    params(PersonListParams),
    responses(
        (status = 200, description = "A page of persons.", body = out::PersonPage),
        (status = 400, description = "`validation_error`: an invalid filter, limit or cursor (D36).",
            body = out::ErrorOut),
    ),
    security(("bearerAuth" = ["persons:read"])))]
pub async fn list_persons<S: Store>(state: web::Data<ApiState<S>>, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let p = authorize(&req, Some(Scope::PersonsRead), false)?;
    let (params, pairs) = parse_params::<PersonListParams>(&req)?;
    let mut errs = FieldErrors::default();
    let mut q = PersonQuery { org_id: Some(p.ctx.org.id), ..Default::default() };
    if let Some(v) = params.q.as_deref() {
        if v.chars().count() > MAX_SEARCH_CHARS {
            errs.push("q", format!("must be at most {MAX_SEARCH_CHARS} characters"));
        } else if !v.is_empty() {
            q.q = Some(v.to_lowercase());
        }
    }
    if let Some(v) = params.status.as_deref() {
        q.status = errs.take("status", PersonStatusFilter::parse(v)).unwrap_or_default();
    }
    if let Some(v) = params.email.as_deref() {
        q.email = errs.take("email", Email::parse(v));
    }
    if let Some(v) = params.external_id.as_deref() {
        q.external_id = Some(v.to_string());
    }
    if let Some(v) = params.assessment_status.as_deref() {
        q.assessment_status = errs.take("assessmentStatus", AssessmentStatus::parse(v));
    }
    if let Some(v) = params.label.as_deref() {
        q.label = match v {
            "candidate" => Some(LabelFilter::Candidate),
            "employee" => Some(LabelFilter::Employee),
            "other" => Some(LabelFilter::Other),
            _ => {
                errs.push("label", "must be one of: candidate, employee, other");
                None
            }
        };
    }
    if let Some(v) = params.tag.as_deref() {
        q.tag_key = errs.take("tag", TagName::parse(v)).map(|t| t.key());
    }
    if let Some(v) = params.updated_after.as_deref() {
        q.updated_after = errs.take(
            "updatedAfter",
            talent_domain::timefmt::parse(v)
                .ok_or_else(|| "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z".to_string()),
        );
    }
    let limit = page_limit(params.limit.as_deref(), &mut errs);
    errs.into_result()?;
    let filters = crate::cursor::filter_key("persons", &pairs);
    q.before_id = state.cursors.position(params.cursor.as_deref(), &filters)?.map(PersonId);
    q.limit = limit;
    let page = state.svc.list_persons(q).await?;
    let next = state.cursors.next(page.has_more, page.items.last().map(|p| p.id.0), &filters);
    Ok(ok_json(out::PersonPage::new(page.items.iter().map(out::PersonOut::from).collect(), next)))
}

#[cfg(test)]
mod fuzz {
    //! Garbage in, clear error out: mutated request bodies and query values never panic (the
    //! standards' "fuzz the parsers and request bodies"; deterministic, so CI is repeatable).
    use super::*;
    use actix_web::test::TestRequest;

    /// xorshift64*: a tiny deterministic generator for mutations.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    const SEEDS: [&str; 4] = [
        r#"{"email":"a@b.co","firstName":"Ada","lastName":"L","externalId":"x1","labels":["candidate","employee"],"tags":["a","B"],"invitation":{"create":true,"sendEmail":false,"expiresInDays":14}}"#,
        r#"{"externalId":null,"firstName":"A","labels":[],"tags":["x"]}"#,
        r#"{"email":"é@ü.de","tags":["😀","\u0000"]}"#,
        r#"[1,2,{"a":{"b":[null,true,1e999]}}]"#,
    ];
    const TOKENS: [&str; 14] =
        ["{", "}", "[", "]", ",", ":", "\"", "null", "true", "-1", "1e309", "\"\\ud800\"", "\u{0}", "\"email\""];

    fn mutate(rng: &mut Rng, seed: &str) -> Vec<u8> {
        let mut b = seed.as_bytes().to_vec();
        for _ in 0..=rng.below(4) {
            match rng.below(4) {
                0 if !b.is_empty() => {
                    let i = rng.below(b.len());
                    b[i] = rng.next() as u8;
                }
                1 if !b.is_empty() => {
                    let n = rng.below(b.len());
                    b.truncate(n);
                }
                2 => {
                    let i = rng.below(b.len() + 1);
                    let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                    b.splice(i..i, t.iter().copied());
                }
                _ => {
                    let i = rng.below(b.len() + 1);
                    b.splice(i..i, std::iter::repeat_n(b'a', rng.below(300)));
                }
            }
        }
        b
    }

    #[test]
    fn mutated_bodies_get_errors_not_panics() {
        let req = TestRequest::default().insert_header(("content-type", "application/json")).to_http_request();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0;
        for i in 0..20_000 {
            let body = mutate(&mut rng, SEEDS[i % SEEDS.len()]);
            if let Ok(v) = parse_json::<PersonImportIn>(&req, &body) {
                if v.try_into_domain().is_ok() {
                    accepted += 1;
                }
            }
            if let Ok(v) = parse_json::<PersonPatchIn>(&req, &body) {
                let _ = v.try_into_domain();
            }
            let _ = crate::idempotency::request_hash(&body);
        }
        assert!(accepted > 0, "some mutations stay valid");
    }

    #[test]
    fn garbage_values_of_value_objects_are_errors() {
        let mut rng = Rng(42);
        for _ in 0..20_000 {
            let len = rng.below(80);
            let s: String = (0..len).map(|_| char::from_u32(rng.next() as u32 % 0x11_0000).unwrap_or('x')).collect();
            let _ = Email::parse(&s);
            let _ = PersonName::parse(&s);
            let _ = TagName::parse(&s);
            let _ = talent_domain::timefmt::parse(&s);
            let _ = talent_domain::usecases::access::key_prefix(&s);
            let codec = crate::cursor::CursorCodec::new(b"k");
            assert_eq!(codec.decode(&s, ""), None);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;
    use std::sync::Arc;

    fn ctx(plan: &str) -> Arc<KeyContext> {
        Arc::new(talent_domain::fakes::key_context(plan))
    }

    fn body(r: HttpResponse) -> web::Bytes {
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(r.headers().get("content-type").unwrap(), "application/json");
        r.into_body().try_into_bytes().unwrap()
    }

    /// T326: the `/me` body of one shared key context is rendered once per worker and answered
    /// again; a context loaded anew (the key cache's next fill, or a change) is rendered anew,
    /// so a change shows on the next answer.
    #[test]
    fn the_identity_of_one_key_context_is_rendered_once_and_a_new_context_anew() {
        let business = ctx("business");
        let first = body(identity(&business));
        let rendered: serde_json::Value = serde_json::from_slice(&first).unwrap();
        assert_eq!(rendered["plan"], "business");
        assert_eq!(rendered["scopes"], serde_json::json!(["persons:read"]));
        assert_eq!(rendered["mode"], "live");
        let again = body(identity(&business));
        assert_eq!(again.as_ptr(), first.as_ptr(), "the kept body, not a new one");
        let professional = ctx("professional");
        let changed = body(identity(&professional));
        let rendered: serde_json::Value = serde_json::from_slice(&changed).unwrap();
        assert_eq!(rendered["plan"], "professional");
        // The same content in a context loaded anew is rendered anew (and equal).
        let reloaded = body(identity(&ctx("business")));
        assert_ne!(reloaded.as_ptr(), first.as_ptr());
        assert_eq!(reloaded, first);
    }
}
