//! Talent's HTTP adapter (actix-web): the public API `/api/v1` (spec) and the admin API
//! `/admin/v1` (D39), plus `/healthz` and `/readyz`. Depends on the domain only; the app crate
//! hands it an [`ApiState`].

pub mod admin;
pub mod api;
pub mod auth;
pub mod body;
pub mod candidate;
pub mod client_ip;
pub mod connection;
pub mod cursor;
pub mod deadline;
pub mod deprecation;
pub mod error;
pub mod events;
pub mod extract;
pub mod idempotency;
pub mod invitations;
pub mod metrics;
pub mod names;
pub mod observe;
pub mod openapi;
pub mod out;
pub mod person_in;
pub mod person_pages;
pub mod request_id;
pub mod results;
pub mod state;
pub mod test_mode;
pub mod webhooks;

use crate::out::JsonBody as _;
use actix_web::middleware::from_fn;
use actix_web::{web, HttpRequest, HttpResponse};
use error::ApiError;
pub use state::ApiState;
use talent_domain::errors::Code;
use talent_domain::ports::Store;

/// 405 with the `Allow` header RFC 9110 requires, naming the resource's methods (D37).
fn method_not_allowed(allow: &'static str) -> impl Fn(HttpRequest) -> std::future::Ready<HttpResponse> + Clone {
    move |req: HttpRequest| {
        let e = ApiError::new(
            Code::MethodNotAllowed,
            format!(
                "Method {} is not allowed on {}",
                req.method(),
                talent_domain::errors::clip(req.path(), talent_domain::errors::MAX_ECHOED_CHARS)
            ),
        );
        let mut resp = actix_web::ResponseError::error_response(&e);
        resp.headers_mut()
            .insert(actix_web::http::header::ALLOW, actix_web::http::header::HeaderValue::from_static(allow));
        std::future::ready(resp)
    }
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let path = talent_domain::errors::clip(req.path(), talent_domain::errors::MAX_ECHOED_CHARS);
    Err(ApiError::new(Code::NotFound, format!("No endpoint at {path}")))
}

/// `GET /healthz`: 200 `{"status":"ok"}`, without touching the database (liveness).
async fn healthz() -> HttpResponse {
    HttpResponse::Ok().content_type(names::APPLICATION_JSON.clone()).body(r#"{"status":"ok"}"#)
}

async fn readyz<S: Store>(state: web::Data<ApiState<S>>) -> HttpResponse {
    match state.svc.store.ready().await {
        Ok(()) => HttpResponse::Ok().json_body(serde_json::json!({"status": "ready"})),
        Err(e) => {
            let mut r = HttpResponse::ServiceUnavailable();
            if matches!(e, talent_domain::errors::StoreError::Unavailable(_)) {
                // A database outage is logged once by the store (T87).
                tracing::debug!(error = %e, "not ready");
                let secs = talent_domain::errors::UNAVAILABLE_RETRY_AFTER_SECS;
                r.insert_header((actix_web::http::header::RETRY_AFTER, secs.to_string()));
            } else {
                tracing::warn!(error = %e, "not ready");
            }
            r.json_body(serde_json::json!({"error": "The service is not ready", "code": "internal_error"}))
        }
    }
}

/// The resource at `$path` in the scope `$scope` (`""` at the root), whose other methods get
/// 405 with `Allow: $allow`. It carries its full route template (`/api/v1/persons/{id}`) as its
/// app data for the request metrics ([`metrics::Route`], T318).
macro_rules! resource {
    ($scope:literal, $path:literal, $allow:literal) => {
        web::resource($path)
            .app_data(crate::metrics::Route(concat!($scope, $path)))
            .default_service(web::to(method_not_allowed($allow)))
    };
}

/// Registers every route: [`configure_public`] and [`configure_admin`] on one listener. The
/// caller adds `web::Data<ApiState<S>>` as app data.
pub fn configure<S: Store>(cfg: &mut web::ServiceConfig) {
    public_routes::<S>(cfg);
    admin_routes::<S>(cfg);
    cfg.default_service(web::to(not_found));
}

/// The routes of the public listener when the admin API has a listener of its own
/// (`TALENT_ADMIN_LISTEN`, T89): everything but `/admin/v1`, which is 404 here.
pub fn configure_public<S: Store>(cfg: &mut web::ServiceConfig) {
    public_routes::<S>(cfg);
    cfg.default_service(web::to(not_found));
}

/// The routes of the admin listener (`TALENT_ADMIN_LISTEN`, T89): `/admin/v1` and the health
/// probes; anything else is 404.
pub fn configure_admin<S: Store>(cfg: &mut web::ServiceConfig) {
    probes::<S>(cfg);
    admin_routes::<S>(cfg);
    cfg.default_service(web::to(not_found));
}

/// `/healthz`, `/readyz` and `/metrics` (issue 17), on every listener.
fn probes<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.service(resource!("", "/healthz", "GET").route(web::get().to(healthz)))
        .service(resource!("", "/readyz", "GET").route(web::get().to(readyz::<S>)))
        .service(resource!("", "/metrics", "GET").route(web::get().to(metrics::serve)));
}

/// The public routes, the API's first: actix-web tries routes in the order they were registered,
/// each try about 170 instructions (T300). The document before the API's scope, which would
/// otherwise take it.
fn public_routes<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.service(resource!("", "/api/v1/openapi.json", "GET").route(web::get().to(openapi::serve))).service(
        web::scope("/api/v1")
            // Authentication, rate limiting and the notices of deprecated operations (which
            // their errors carry too) in one middleware: each layer costs a boxed future and a
            // layer of polls per request (T321).
            .wrap(from_fn(auth::api_middleware::<S>))
            .service(resource!("/api/v1", "/me", "GET").route(web::get().to(api::me::<S>)))
            .service(resource!("/api/v1", "/organization", "GET").route(web::get().to(api::organization::<S>)))
            .service(
                resource!("/api/v1", "/persons", "GET, POST")
                    .route(web::get().to(api::list_persons::<S>))
                    .route(web::post().to(api::import_person::<S>)),
            )
            .service(resource!("/api/v1", "/persons/batch", "POST").route(web::post().to(api::import_batch::<S>)))
            .service(
                resource!("/api/v1", "/persons/{id}", "GET, PATCH, DELETE")
                    .route(web::get().to(api::get_person::<S>))
                    .route(web::patch().to(api::patch_person::<S>))
                    .route(web::delete().to(api::archive_person::<S>)),
            )
            .service(resource!("/api/v1", "/persons/{id}/erase", "POST").route(web::post().to(api::erase_person::<S>)))
            .service(
                resource!("/api/v1", "/persons/{id}/results", "GET").route(web::get().to(results::person_results::<S>)),
            )
            .service(
                resource!("/api/v1", "/persons/{id}/matches", "GET").route(web::get().to(results::person_matches::<S>)),
            )
            .service(
                resource!("/api/v1", "/persons/{id}/report", "GET").route(web::get().to(results::person_report::<S>)),
            )
            .service(
                resource!("/api/v1", "/invitations", "GET, POST")
                    .route(web::get().to(invitations::list::<S>))
                    .route(web::post().to(invitations::create::<S>)),
            )
            .service(resource!("/api/v1", "/invitations/{id}", "GET").route(web::get().to(invitations::get::<S>)))
            .service(
                resource!("/api/v1", "/invitations/{id}/resend", "POST")
                    .route(web::post().to(invitations::resend::<S>)),
            )
            .service(
                resource!("/api/v1", "/invitations/{id}/revoke", "POST")
                    .route(web::post().to(invitations::revoke::<S>)),
            )
            .service(
                resource!("/api/v1", "/webhooks", "GET, POST")
                    .route(web::get().to(webhooks::list::<S>))
                    .route(web::post().to(webhooks::create::<S>)),
            )
            .service(
                resource!("/api/v1", "/webhooks/{id}", "GET, PATCH, DELETE")
                    .route(web::get().to(webhooks::get::<S>))
                    .route(web::patch().to(webhooks::patch::<S>))
                    .route(web::delete().to(webhooks::delete::<S>)),
            )
            .service(
                resource!("/api/v1", "/webhooks/{id}/rotate-secret", "POST")
                    .route(web::post().to(webhooks::rotate::<S>)),
            )
            .service(resource!("/api/v1", "/webhooks/{id}/replay", "POST").route(web::post().to(webhooks::replay::<S>)))
            .service(resource!("/api/v1", "/events", "GET").route(web::get().to(events::list::<S>)))
            .service(
                resource!("/api/v1", "/test/persons/{id}/complete-assessment", "POST")
                    .route(web::post().to(test_mode::complete_assessment::<S>)),
            )
            .service(resource!("/api/v1", "/test/emails", "GET").route(web::get().to(test_mode::emails::<S>)))
            .service(
                resource!("/api/v1", "/test/clock/advance", "POST")
                    .route(web::post().to(test_mode::advance_clock::<S>)),
            )
            .service(resource!("/api/v1", "/webhooks/{id}/test", "POST").route(web::post().to(webhooks::test::<S>)))
            .service(resource!("/api/v1", "/webhooks/{id}/ping", "POST").route(web::post().to(webhooks::test::<S>)))
            .service(
                resource!("/api/v1", "/webhooks/{id}/deliveries", "GET")
                    .route(web::get().to(webhooks::deliveries::<S>)),
            )
            .service(
                resource!("/api/v1", "/webhooks/{id}/deliveries/{deliveryId}", "GET")
                    .route(web::get().to(webhooks::delivery::<S>)),
            )
            .service(
                resource!("/api/v1", "/webhooks/{id}/deliveries/{deliveryId}/redeliver", "POST")
                    .route(web::post().to(webhooks::redeliver::<S>)),
            )
            .service(resource!("/api/v1", "/profiles", "GET").route(web::get().to(results::list_profiles::<S>)))
            .service(resource!("/api/v1", "/profiles/{id}", "GET").route(web::get().to(results::get_profile::<S>)))
            .service(
                resource!("/api/v1", "/profiles/{id}/matches", "GET")
                    .route(web::get().to(results::profile_matches::<S>)),
            )
            .default_service(web::to(not_found)),
    );
    probes::<S>(cfg);
    // The invitation pages in a scope of their own: a scope's prefix is compared as a string,
    // while a resource with a `{token}` segment is a regular expression that every request
    // routed past it would run (1 % of a `GET /api/v1/me`, T239).
    cfg.service(
        web::scope("/i").service(
            resource!("/i", "/{token}", "GET, POST")
                .wrap(person_pages::page_headers())
                .route(web::get().to(person_pages::show_page::<S>))
                .route(web::post().to(person_pages::accept_page::<S>)),
        ),
    );
}

fn admin_routes<S: Store>(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/admin/v1")
            .wrap(from_fn(admin::admin_middleware::<S>))
            .service(
                resource!("/admin/v1", "/organizations", "GET, POST")
                    .route(web::get().to(admin::list_orgs::<S>))
                    .route(web::post().to(admin::create_org::<S>)),
            )
            .service(
                resource!("/admin/v1", "/organizations/{id}", "GET, PATCH")
                    .route(web::get().to(admin::get_org::<S>))
                    .route(web::patch().to(admin::patch_org::<S>)),
            )
            .service(
                resource!("/admin/v1", "/organizations/{id}/users", "GET, POST")
                    .route(web::get().to(admin::list_users::<S>))
                    .route(web::post().to(admin::create_user::<S>)),
            )
            .service(resource!("/admin/v1", "/users/{id}", "GET").route(web::get().to(admin::get_user::<S>)))
            .service(
                resource!("/admin/v1", "/organizations/{id}/connections", "GET, POST")
                    .route(web::get().to(admin::list_connections::<S>))
                    .route(web::post().to(admin::create_connection::<S>)),
            )
            .service(
                resource!("/admin/v1", "/connections/{id}", "GET, PATCH, DELETE")
                    .route(web::get().to(admin::get_connection::<S>))
                    .route(web::patch().to(admin::patch_connection::<S>))
                    .route(web::delete().to(admin::delete_connection::<S>)),
            )
            .service(
                resource!("/admin/v1", "/connections/{id}/orders", "GET").route(web::get().to(admin::list_orders::<S>)),
            )
            .service(
                resource!("/admin/v1", "/connections/{id}/errors", "GET").route(web::get().to(admin::list_errors::<S>)),
            )
            .service(
                resource!("/admin/v1", "/connections/{id}/pushes", "GET").route(web::get().to(admin::list_pushes::<S>)),
            )
            .service(
                resource!("/admin/v1", "/connections/{id}/pushes/{push}", "GET")
                    .route(web::get().to(admin::get_push::<S>)),
            )
            .service(
                resource!("/admin/v1", "/connections/{id}/pushes/{push}/redeliver", "POST")
                    .route(web::post().to(admin::redeliver_push::<S>)),
            )
            .service(
                resource!("/admin/v1", "/connections/{id}/orders/{order}/openings", "GET")
                    .route(web::get().to(admin::list_openings::<S>)),
            )
            .service(
                resource!("/admin/v1", "/organizations/{id}/teams", "POST")
                    .route(web::post().to(admin::create_team::<S>)),
            )
            .service(
                resource!("/admin/v1", "/users/{id}/api-keys", "GET, POST")
                    .route(web::get().to(admin::list_keys::<S>))
                    .route(web::post().to(admin::create_key::<S>)),
            )
            .service(resource!("/admin/v1", "/api-keys/{id}", "DELETE").route(web::delete().to(admin::revoke_key::<S>)))
            .service(
                resource!("/admin/v1", "/persons/{id}/deactivate", "POST")
                    .route(web::post().to(admin::deactivate::<S>)),
            )
            .service(
                resource!("/admin/v1", "/persons/{id}/withdraw", "POST").route(web::post().to(admin::withdraw::<S>)),
            )
            .service(
                resource!("/admin/v1", "/persons/{id}/assessments", "POST")
                    .route(web::post().to(admin::assessment::<S>)),
            )
            .service(
                resource!("/admin/v1", "/organizations/{id}/profiles", "GET, POST")
                    .route(web::get().to(admin::list_profiles::<S>))
                    .route(web::post().to(admin::create_profile::<S>)),
            )
            .service(
                resource!("/admin/v1", "/organizations/{org}/profiles/{id}", "PATCH, DELETE")
                    .route(web::patch().to(admin::update_profile::<S>))
                    .route(web::delete().to(admin::delete_profile::<S>)),
            )
            .service(
                resource!("/admin/v1", "/invitations/{id}/accept", "POST")
                    .route(web::post().to(admin::accept_invitation::<S>)),
            )
            .service(resource!("/admin/v1", "/emails", "GET").route(web::get().to(admin::emails::<S>)))
            .service(resource!("/admin/v1", "/humans/export", "GET").route(web::get().to(admin::export_human::<S>)))
            .service(resource!("/admin/v1", "/humans/erase", "POST").route(web::post().to(admin::erase_human::<S>)))
            .service(resource!("/admin/v1", "/clock", "POST").route(web::post().to(admin::clock::<S>)))
            .service(
                resource!("/admin/v1", "/teams/{id}/members", "GET, POST")
                    .route(web::get().to(admin::members::<S>))
                    .route(web::post().to(admin::add_member::<S>)),
            )
            .default_service(web::to(not_found)),
    );
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use actix_web::test::{call_service, init_service, TestRequest};
    use actix_web::{middleware::from_fn, App};
    use std::sync::Mutex;
    use talent_domain::fakes::FakeStore;

    /// A recorder that keeps the labels of every request counter registered.
    #[derive(Default)]
    struct Routes(Mutex<Vec<String>>);

    impl ::metrics::Recorder for Routes {
        fn describe_counter(&self, _: ::metrics::KeyName, _: Option<::metrics::Unit>, _: ::metrics::SharedString) {}
        fn describe_gauge(&self, _: ::metrics::KeyName, _: Option<::metrics::Unit>, _: ::metrics::SharedString) {}
        fn describe_histogram(&self, _: ::metrics::KeyName, _: Option<::metrics::Unit>, _: ::metrics::SharedString) {}
        fn register_counter(&self, key: &::metrics::Key, _: &::metrics::Metadata<'_>) -> ::metrics::Counter {
            if let Some(route) = key.labels().find(|l| l.key() == "route") {
                self.0.lock().unwrap().push(route.value().to_string());
            }
            ::metrics::Counter::noop()
        }
        fn register_gauge(&self, _: &::metrics::Key, _: &::metrics::Metadata<'_>) -> ::metrics::Gauge {
            ::metrics::Gauge::noop()
        }
        fn register_histogram(&self, _: &::metrics::Key, _: &::metrics::Metadata<'_>) -> ::metrics::Histogram {
            ::metrics::Histogram::noop()
        }
    }

    /// Every route this module registers carries its template for the request metrics, and it is
    /// the one actix-web's `match_pattern` gives (the metrics check that in every debug build, T318):
    /// each route requested with each of its methods and one it does not have (405) is counted
    /// under its template; each path of the OpenAPI document is one of them; a path no route
    /// matches is `unmatched`.
    #[test]
    fn every_route_is_counted_under_its_template_t318() {
        // The (scope, path, methods) of each `resource!` above.
        let source = include_str!("lib.rs");
        let routes: Vec<(String, Vec<&str>)> = source
            .split("resource!(")
            .skip(1) // the text before the first route
            .filter_map(|rest| {
                let args: Vec<&str> = rest.split(')').next()?.split(',').map(|a| a.trim().trim_matches('"')).collect();
                let [scope, path, allow @ ..] = args.as_slice() else { return None };
                Some((format!("{scope}{path}"), allow.to_vec()))
            })
            .collect();
        assert!(routes.len() > 50, "{routes:?}");
        let recorder = Routes::default();
        ::metrics::with_local_recorder(&recorder, || {
            actix_web::rt::System::new().block_on(async {
                let app = init_service(
                    App::new()
                        .wrap(from_fn(|req, next| crate::observe::observe(req, next, false)))
                        .configure(configure::<FakeStore>),
                )
                .await;
                for (template, methods) in &routes {
                    let path: String = template
                        .split('/')
                        .map(|s| if s.starts_with('{') { "x" } else { s })
                        .collect::<Vec<_>>()
                        .join("/");
                    for m in methods.iter().copied().chain(["PUT"]) {
                        let method = actix_web::http::Method::from_bytes(m.as_bytes()).unwrap();
                        let req = TestRequest::default().method(method).uri(&path).to_request();
                        let _ = call_service(&app, req).await;
                    }
                }
                let req = TestRequest::get().uri("/nowhere/at/all").to_request();
                assert_eq!(call_service(&app, req).await.status(), 404);
            });
        });
        let counted = recorder.0.lock().unwrap().clone();
        for (template, _) in &routes {
            // The probes and `/metrics` are not counted.
            if !["/healthz", "/readyz", "/metrics"].contains(&template.as_str()) {
                assert!(counted.contains(template), "{template} is not counted under its template: {counted:?}");
            }
        }
        let doc = crate::openapi::document();
        for path in doc["paths"].as_object().unwrap().keys() {
            assert!(routes.iter().any(|(t, _)| t == path), "{path} of the document has no route");
        }
        assert!(counted.iter().any(|r| r == "unmatched"), "{counted:?}");
    }
}
