//! Talent's HTTP adapter (actix-web): the public API `/api/v1` (spec) and the admin API
//! `/admin/v1` (D39), plus `/healthz` and `/readyz`. Depends on the domain only; the app crate
//! hands it an [`ApiState`].

pub mod admin;
pub mod api;
pub mod auth;
pub mod body;
pub mod cursor;
pub mod error;
pub mod idempotency;
pub mod invitations;
pub mod results;
pub mod state;
pub mod webhooks;

use actix_web::middleware::from_fn;
use actix_web::{web, HttpRequest, HttpResponse};
use error::ApiError;
pub use state::ApiState;
use talent_domain::errors::Code;
use talent_domain::ports::Store;

async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(Code::MethodNotAllowed, format!("Method {} is not allowed on {}", req.method(), req.path())))
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::new(Code::NotFound, format!("No endpoint at {}", req.path())))
}

async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({"status": "ok"}))
}

async fn readyz<S: Store>(state: web::Data<ApiState<S>>) -> HttpResponse {
    match state.svc.store.ready().await {
        Ok(()) => HttpResponse::Ok().json(serde_json::json!({"status": "ready"})),
        Err(e) => {
            tracing::warn!(error = %e, "not ready");
            HttpResponse::ServiceUnavailable()
                .json(serde_json::json!({"error": "The service is not ready", "code": "internal_error"}))
        }
    }
}

fn resource(path: &str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(method_not_allowed))
}

/// Registers every route. The caller adds `web::Data<ApiState<S>>` as app data.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/healthz").route(web::get().to(healthz)))
        .service(resource("/readyz").route(web::get().to(readyz::<S>)))
        .service(
            resource("/i/{token}")
                .route(web::get().to(invitations::show_page::<S>))
                .route(web::post().to(invitations::accept_page::<S>)),
        )
        .service(
            web::scope("/api/v1")
                .wrap(from_fn(auth::api_middleware::<S>))
                .service(resource("/me").route(web::get().to(api::me::<S>)))
                .service(resource("/organization").route(web::get().to(api::organization::<S>)))
                .service(
                    resource("/persons")
                        .route(web::get().to(api::list_persons::<S>))
                        .route(web::post().to(api::import_person::<S>)),
                )
                .service(
                    resource("/persons/{id}")
                        .route(web::get().to(api::get_person::<S>))
                        .route(web::patch().to(api::patch_person::<S>))
                        .route(web::delete().to(api::archive_person::<S>)),
                )
                .service(resource("/persons/{id}/results").route(web::get().to(results::person_results::<S>)))
                .service(resource("/persons/{id}/matches").route(web::get().to(results::person_matches::<S>)))
                .service(resource("/persons/{id}/report").route(web::get().to(results::person_report::<S>)))
                .service(
                    resource("/invitations")
                        .route(web::get().to(invitations::list::<S>))
                        .route(web::post().to(invitations::create::<S>)),
                )
                .service(resource("/invitations/{id}").route(web::get().to(invitations::get::<S>)))
                .service(resource("/invitations/{id}/resend").route(web::post().to(invitations::resend::<S>)))
                .service(resource("/invitations/{id}/revoke").route(web::post().to(invitations::revoke::<S>)))
                .service(
                    resource("/webhooks")
                        .route(web::get().to(webhooks::list::<S>))
                        .route(web::post().to(webhooks::create::<S>)),
                )
                .service(
                    resource("/webhooks/{id}")
                        .route(web::get().to(webhooks::get::<S>))
                        .route(web::patch().to(webhooks::patch::<S>))
                        .route(web::delete().to(webhooks::delete::<S>)),
                )
                .service(resource("/webhooks/{id}/rotate-secret").route(web::post().to(webhooks::rotate::<S>)))
                .service(resource("/webhooks/{id}/test").route(web::post().to(webhooks::test::<S>)))
                .service(resource("/webhooks/{id}/deliveries").route(web::get().to(webhooks::deliveries::<S>)))
                .service(
                    resource("/webhooks/{id}/deliveries/{deliveryId}").route(web::get().to(webhooks::delivery::<S>)),
                )
                .service(
                    resource("/webhooks/{id}/deliveries/{deliveryId}/redeliver")
                        .route(web::post().to(webhooks::redeliver::<S>)),
                )
                .service(resource("/profiles").route(web::get().to(results::list_profiles::<S>)))
                .service(resource("/profiles/{id}").route(web::get().to(results::get_profile::<S>)))
                .service(resource("/profiles/{id}/matches").route(web::get().to(results::profile_matches::<S>)))
                .default_service(web::to(not_found)),
        )
        .service(
            web::scope("/admin/v1")
                .wrap(from_fn(admin::admin_middleware::<S>))
                .service(resource("/organizations").route(web::post().to(admin::create_org::<S>)))
                .service(
                    resource("/organizations/{id}")
                        .route(web::get().to(admin::get_org::<S>))
                        .route(web::patch().to(admin::patch_org::<S>)),
                )
                .service(resource("/organizations/{id}/users").route(web::post().to(admin::create_user::<S>)))
                .service(resource("/organizations/{id}/teams").route(web::post().to(admin::create_team::<S>)))
                .service(resource("/users/{id}/api-keys").route(web::post().to(admin::create_key::<S>)))
                .service(resource("/api-keys/{id}").route(web::delete().to(admin::revoke_key::<S>)))
                .service(resource("/persons/{id}/deactivate").route(web::post().to(admin::deactivate::<S>)))
                .service(resource("/persons/{id}/withdraw").route(web::post().to(admin::withdraw::<S>)))
                .service(resource("/persons/{id}/assessments").route(web::post().to(admin::assessment::<S>)))
                .service(resource("/organizations/{id}/profiles").route(web::post().to(admin::create_profile::<S>)))
                .service(resource("/invitations/{id}/accept").route(web::post().to(admin::accept_invitation::<S>)))
                .service(resource("/emails").route(web::get().to(admin::emails::<S>)))
                .service(resource("/clock").route(web::post().to(admin::clock::<S>)))
                .service(
                    resource("/teams/{id}/members")
                        .route(web::get().to(admin::members::<S>))
                        .route(web::post().to(admin::add_member::<S>)),
                )
                .default_service(web::to(not_found)),
        )
        .default_service(web::to(not_found));
}
