//! Extractors the handlers take as arguments (T178): the ids of the path, and the request body
//! read within its limits (and parsed strictly). Their errors are the envelopes the handlers
//! answered before: 404 `not_found` "{Resource} not found" for an id that does not parse, the
//! body's 413 and 400s ([`read_body`], [`parse_json`]).
//!
//! actix-web extracts a handler's arguments in their order before its body runs. The admin API
//! (authorized by its middleware) takes them plainly. A public handler checks its scope first (a
//! key without the scope gets 403 whatever the path holds), so it takes `Result<PathId<T>,
//! ApiError>` and answers the path's error after its `authorize`.

use crate::body::{parse_json, read_body};
use crate::error::ApiError;
use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;
use std::future::{ready, Future, Ready};
use std::pin::Pin;
use std::str::FromStr;
use talent_domain::errors::Code;
use talent_domain::ids::*;

/// An id type of the path, with the name its 404 gives ("Person not found").
pub trait Resource: FromStr + 'static {
    /// The resource's name in "… not found".
    const NAME: &'static str;
}

macro_rules! resources {
    ($($id:ty => $name:literal,)*) => {
        $(impl Resource for $id {
            const NAME: &'static str = $name;
        })*
    };
}

resources! {
    OrgId => "Organization",
    UserId => "User",
    ApiKeyId => "API key",
    PersonId => "Person",
    TeamId => "Team",
    ProfileId => "Profile",
    InvitationId => "Invitation",
    WebhookId => "Webhook endpoint",
    DeliveryId => "Delivery",
    ConnectionId => "Connection",
    OrderId => "Order",
}

/// Parses one path segment as `T`; 404 `not_found` naming the resource otherwise.
fn parse_id<T: Resource>(raw: &str) -> Result<T, ApiError> {
    raw.parse().map_err(|_| ApiError::new(Code::NotFound, format!("{} not found", T::NAME)))
}

/// The id of a route with one parameter (`/persons/{id}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathId<T>(pub T);

impl<T: Resource> FromRequest for PathId<T> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let raw = web::Path::<String>::from_request(req, payload).into_inner();
        ready(match raw {
            Ok(raw) => parse_id(&raw).map(PathId),
            Err(_) => Err(ApiError::new(Code::NotFound, format!("{} not found", T::NAME))),
        })
    }
}

/// The two ids of a route with two parameters (`/webhooks/{id}/deliveries/{deliveryId}`), the
/// first checked first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathIds<A, B>(pub A, pub B);

impl<A: Resource, B: Resource> FromRequest for PathIds<A, B> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let raw = web::Path::<(String, String)>::from_request(req, payload).into_inner();
        ready(match raw {
            Ok(raw) => parse_id(&raw.0).and_then(|a| Ok(PathIds(a, parse_id(&raw.1)?))),
            Err(_) => Err(ApiError::new(Code::NotFound, format!("{} not found", A::NAME))),
        })
    }
}

/// The request body, read within the 1 MiB limit and the body deadline ([`read_body`]).
#[derive(Clone, Debug)]
pub struct Body(pub web::Bytes);

impl FromRequest for Body {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let (req, payload) = (req.clone(), web::Payload::from_request(req, payload).into_inner());
        Box::pin(async move {
            let payload = payload.map_err(|_| ApiError::field("body", "could not be read"))?;
            read_body(&req, payload).await.map(Body)
        })
    }
}

/// A JSON body parsed strictly into `T` ([`Body`], then [`parse_json`]: the `Content-Type`,
/// control characters, unknown and missing fields with their paths, D37).
#[derive(Debug)]
pub struct JsonIn<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for JsonIn<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let (req, body) = (req.clone(), Body::from_request(req, payload));
        Box::pin(async move {
            let Body(bytes) = body.await?;
            parse_json(&req, &bytes).map(JsonIn)
        })
    }
}
