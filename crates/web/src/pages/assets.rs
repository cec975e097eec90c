//! The stylesheet and the few lines of script (the copy button), served from the binary.

use actix_web::HttpResponse;

/// `GET /dashboard/static/app.css`.
pub async fn css() -> HttpResponse {
    HttpResponse::Ok().content_type("text/css; charset=utf-8").body(include_str!("../../static/app.css"))
}

/// `GET /dashboard/static/app.js`.
pub async fn js() -> HttpResponse {
    HttpResponse::Ok().content_type("text/javascript; charset=utf-8").body(include_str!("../../static/app.js"))
}
