//! Deprecated operations (D61): an operation kept for compatibility answers, on every response,
//! `Deprecation: @<unix seconds>` (RFC 9745: since when it is deprecated), `Sunset: <HTTP-date>`
//! (RFC 8594: when it may be removed, at least [`MIN_NOTICE_DAYS`] later) and
//! `Link: <successor>; rel="successor-version"`. The table [`DEPRECATED`] is the one declaration:
//! the API's answers ([`annotate`]) and the OpenAPI document (`deprecated: true`, the headers and the
//! successor in the operation's text) are made from it, and `docs/changelog.md` lists each entry.

use actix_web::http::header::{HeaderName, HeaderValue, HttpDate};
use std::time::{Duration, UNIX_EPOCH};

/// The shortest time between deprecating an operation and its `Sunset` (D61: six months).
pub const MIN_NOTICE_DAYS: u64 = 183;

/// One deprecated operation and the operation that replaces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deprecated {
    /// HTTP method, e.g. `POST`.
    pub method: &'static str,
    /// Path template as in the OpenAPI document, e.g. `/api/v1/webhooks/{id}/ping`.
    pub path: &'static str,
    /// Its `operationId` in the OpenAPI document.
    pub operation_id: &'static str,
    /// The path template of the operation to use instead (same method); `{id}` is filled from
    /// the request's path in the `Link` header.
    pub successor: &'static str,
    /// Unix seconds since when the operation is deprecated.
    pub since: u64,
    /// Unix seconds after which the operation may be removed.
    pub sunset: u64,
}

/// Every deprecated operation. `POST /webhooks/{id}/ping` is the test ping's older name, kept as
/// an alias of `POST /webhooks/{id}/test` (T210).
pub const DEPRECATED: &[Deprecated] = &[Deprecated {
    method: "POST",
    path: "/api/v1/webhooks/{id}/ping",
    operation_id: "pingWebhook",
    successor: "/api/v1/webhooks/{id}/test",
    // 2026-11-26T00:00:00Z
    since: 1_795_651_200,
    // 2027-06-01T00:00:00Z
    sunset: 1_811_808_000,
}];

impl Deprecated {
    /// The `Deprecation` header value: `@<unix seconds>` (RFC 9745).
    pub fn deprecation_header(&self) -> String {
        format!("@{}", self.since)
    }

    /// The `Sunset` header value: an IMF-fixdate such as `Tue, 01 Jun 2027 00:00:00 GMT` (RFC 8594).
    pub fn sunset_header(&self) -> String {
        HttpDate::from(UNIX_EPOCH + Duration::from_secs(self.sunset)).to_string()
    }

    /// The `Link` header value for a request to `path`: the successor, with the path parameters
    /// of `path` in place of the template's (`{id}` and the like).
    pub fn link_header(&self, path: &str) -> String {
        let (template, actual): (Vec<&str>, Vec<&str>) = (self.path.split('/').collect(), path.split('/').collect());
        let successor: Vec<String> = self
            .successor
            .split('/')
            .map(|part| match template.iter().position(|t| *t == part && part.starts_with('{')) {
                Some(i) => actual.get(i).copied().unwrap_or(part).to_string(),
                None => part.to_string(),
            })
            .collect();
        format!("<{}>; rel=\"successor-version\"", successor.join("/"))
    }
}

/// The entry of `method` on the path template `path`, if it is deprecated.
pub fn lookup(method: &str, path: &str) -> Option<&'static Deprecated> {
    DEPRECATED.iter().find(|d| d.method.eq_ignore_ascii_case(method) && d.path == path)
}

/// Puts `Deprecation`, `Sunset` and `Link` on `res` when it answers a deprecated operation.
/// Called by the API's middleware ([`crate::auth::api_middleware`]) on every answer it gives,
/// errors of authentication and rate limiting included (T321: until then a middleware of its
/// own, a boxed future per request). Any other answer costs one comparison of its path's last
/// segment per entry.
pub(crate) fn annotate<B>(res: &mut actix_web::dev::ServiceResponse<B>) {
    // The segment after the last `/`, found from the end byte by byte: `rsplit`'s searcher cost
    // about 600 instructions a request (T319).
    fn last(p: &str) -> &str {
        p.as_bytes().iter().rposition(|&b| b == b'/').map_or(p, |i| &p[i + 1..])
    }
    let req = res.request();
    if !DEPRECATED.iter().any(|d| last(d.path) == last(req.path())) {
        return;
    }
    let Some(d) = req.match_pattern().and_then(|p| lookup(req.method().as_str(), &p)) else {
        return;
    };
    let values =
        [("deprecation", d.deprecation_header()), ("sunset", d.sunset_header()), ("link", d.link_header(req.path()))];
    let headers = res.headers_mut();
    for (name, value) in values {
        if let Ok(v) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), v);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_deprecation_gives_six_months_of_notice_d61() {
        for d in DEPRECATED {
            assert!(d.sunset >= d.since + MIN_NOTICE_DAYS * 86_400, "{d:?}");
            assert!(d.path.starts_with("/api/v1/") && d.successor.starts_with("/api/v1/"), "{d:?}");
            assert_ne!(d.path, d.successor);
        }
    }

    #[test]
    fn the_headers_follow_their_rfcs() {
        let d = DEPRECATED[0];
        assert_eq!(d.deprecation_header(), "@1795651200");
        assert_eq!(d.sunset_header(), "Tue, 01 Jun 2027 00:00:00 GMT");
        assert_eq!(
            d.link_header("/api/v1/webhooks/0191f0a4-1111-7000-8000-000000000001/ping"),
            "</api/v1/webhooks/0191f0a4-1111-7000-8000-000000000001/test>; rel=\"successor-version\""
        );
        assert_eq!(lookup("post", "/api/v1/webhooks/{id}/ping"), Some(&DEPRECATED[0]));
        assert_eq!(lookup("GET", "/api/v1/webhooks/{id}/ping"), None);
    }
}
