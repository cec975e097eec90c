//! The body-read deadline (issue 13, point 5; T92): a request's body must arrive within a
//! deadline counted from the moment its head was read, on every route. Without it a client
//! sending one byte a second held a connection (and, on `POST /i/{token}`, a handler) for minutes,
//! unauthenticated. The head itself is bounded by the server's `client_request_timeout`.
//!
//! Requests without a body (no `Content-Length` above 0 and no `Transfer-Encoding`), which are
//! most of them, are passed through untouched: no timer per request on the hot path.

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::HttpMessage;
use futures_util::Stream;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// How long a request's body may take, as app data of the server (`TALENT_BODY_TIMEOUT_MS`).
#[derive(Clone, Copy, Debug)]
pub struct BodyDeadline(pub Duration);

impl Default for BodyDeadline {
    /// 10 s: a 1 MiB body at 1 Mbit/s takes 8 s.
    fn default() -> Self {
        BodyDeadline(Duration::from_secs(10))
    }
}

/// Wraps the payload of `req`, when it has a body, in [`Deadlined`]. Reading past the deadline
/// is a stream error, which [`crate::body::read_body`] answers 400 `validation_error` and after
/// which the server closes the connection (the rest of the body is never read). The request
/// middleware ([`crate::observe::observe`]) calls it first, on every route: a middleware of its
/// own boxed a future per request for what is a header check on most of them (T239).
pub fn arm(req: &mut ServiceRequest) {
    let headers = req.headers();
    let has_body = headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0));
    if has_body {
        let limit = req.app_data::<BodyDeadline>().copied().unwrap_or_default().0;
        let inner = req.take_payload();
        let sleep = Box::pin(tokio::time::sleep(limit));
        req.set_payload(Payload::Stream { payload: Box::pin(Deadlined { inner, sleep, expired: false }) });
    }
}

/// A payload that fails with [`PayloadError::Io`] (`TimedOut`) once its deadline has passed.
pub struct Deadlined {
    inner: Payload,
    sleep: Pin<Box<tokio::time::Sleep>>,
    expired: bool,
}

impl Stream for Deadlined {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.expired {
            return Poll::Ready(None);
        }
        if let Poll::Ready(item) = Pin::new(&mut this.inner).poll_next(cx) {
            return Poll::Ready(item);
        }
        match this.sleep.as_mut().poll(cx) {
            Poll::Ready(()) => {
                this.expired = true;
                Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the request body was not received in time",
                )))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}
