//! The HTTP/1.1 server of the service, and the error envelope on requests actix-http cannot parse
//! (issue 16, T116).
//!
//! actix-http answers a request it cannot parse itself, before any route or middleware runs: a
//! malformed request line, a character that a URL must percent-encode (`<`, `>`, `"`, a space), a
//! broken header, a head over its size limit, or a head that does not arrive in time get an empty
//! `400`, `431` or `408` and the connection is closed. That answer is always the last thing written
//! on its connection and has no body, while every answer of ours has one. [`Enveloped`] wraps each
//! connection's stream and, on the way out, replaces exactly that answer with the API's error
//! envelope: 400 `validation_error` naming the request as the field at fault, with the rate-limit
//! headers of the client address's budget (D8; 429 `rate_limited` once that budget is spent).
//! Everything else passes through untouched.
//!
//! [`server`] builds the listener's server as actix-web's `HttpServer` does (the same settings),
//! with the stream wrapped; actix-web offers no hook for either.

use crate::error::ApiError;
use actix_http::{HttpService, Request};
use actix_service::{fn_service, map_config, IntoServiceFactory, ServiceFactory, ServiceFactoryExt};
use actix_web::dev::{AppConfig, Response, ServiceResponse};
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use talent_domain::errors::{ClientError, Code};
use talent_domain::ports::RateDecision;

/// Takes one request from an address's budget of failed requests (D8) at once, on this
/// instance: the answer to a request that is not even HTTP is written inside a stream's
/// `poll_write` and cannot wait for a shared store (the app gives governor's budget here).
pub type IpBudget = Arc<dyn Fn(IpAddr) -> Option<RateDecision> + Send + Sync>;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The status lines actix-http writes for a request it could not parse (400), whose head was too
/// large (431) or too slow (408), each followed by exactly these headers and no body.
const BARE: [(&str, &str); 3] = [
    ("400 Bad Request", "The request line or a header is not valid HTTP/1.1; a URL must percent-encode characters such as <, >, \", spaces, { and }"),
    ("431 Request Header Fields Too Large", "The request line and headers are too large"),
    ("408 Request Timeout", "The request line and headers did not arrive in time"),
];

/// Where in `buf` the bare error answer that ends it starts, which one it is, and its `date`.
fn bare_answer_at(buf: &[u8]) -> Option<(usize, &'static str, &str)> {
    if !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let start = buf.windows(9).rposition(|w| w == b"HTTP/1.1 ")?;
    let tail = std::str::from_utf8(&buf[start..]).ok()?;
    BARE.iter().find_map(|(status, message)| {
        let rest = tail.strip_prefix("HTTP/1.1 ")?.strip_prefix(status)?;
        let rest = rest.strip_prefix("\r\ncontent-length: 0\r\nconnection: close\r\ndate: ")?;
        // An HTTP date is 29 characters: `Wed, 25 Nov 2026 09:45:36 GMT`.
        (rest.len() == 29 + 4 && rest.ends_with("\r\n\r\n")).then(|| (start, *message, &rest[..29]))
    })
}

/// The envelope answer that replaces a bare one: 400 `validation_error` (or 429 `rate_limited`
/// once the address's budget is spent) with the rate-limit headers of `peer`'s budget.
fn envelope_answer(message: &str, date: &str, budget: &IpBudget, peer: Option<IpAddr>) -> Vec<u8> {
    let decision = peer.and_then(|ip| budget(ip));
    let (status, body) = match &decision {
        Some(d) if !d.allowed => {
            metrics::counter!("talent_rate_limited_total", "subject" => "ip").increment(1);
            let e = ClientError::new(
                Code::RateLimited,
                "Rate limit exceeded; retry after the number of seconds in Retry-After",
            )
            .with_details(serde_json::json!({"limit": d.limit, "retryAfter": d.retry_after_secs.unwrap_or(1).max(1)}));
            ("429 Too Many Requests", ApiError(e).body())
        }
        _ => ("400 Bad Request", ApiError::field("request", message).body()),
    };
    let body = body.to_string();
    let mut head = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nx-request-id: {}\r\n",
        body.len(),
        crate::request_id::new_id()
    );
    if let Some(d) = decision {
        head.push_str(&format!(
            "x-ratelimit-limit: {}\r\nx-ratelimit-remaining: {}\r\nx-ratelimit-reset: {}\r\n",
            d.limit, d.remaining, d.reset_unix
        ));
        if let Some(r) = d.retry_after_secs.filter(|_| !d.allowed) {
            head.push_str(&format!("retry-after: {}\r\n", r.max(1)));
        }
    }
    head.push_str(&format!("date: {date}\r\n\r\n"));
    let mut out = head.into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// A connection's stream whose bare protocol-error answer becomes the error envelope (see the
/// module's documentation). Reads pass through.
pub struct Enveloped<T> {
    io: T,
    peer: Option<IpAddr>,
    budget: IpBudget,
    /// Bytes of ours still to write, how many of them are written, and the length of the
    /// caller's buffer they stand for (reported as written once they all are).
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl<T> Enveloped<T> {
    /// Wraps `io`, a connection from `peer`, whose budget `budget` keeps.
    pub fn new(io: T, peer: Option<IpAddr>, budget: IpBudget) -> Self {
        Enveloped { io, peer, budget, pending: None }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Enveloped<T> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> Enveloped<T> {
    /// Writes the pending bytes; `Ready(Ok(n))` with the caller's length once all are written.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        while let Some((out, written, stands_for)) = &mut self.pending {
            if *written == out.len() {
                let n = *stands_for;
                self.pending = None;
                return Poll::Ready(Ok(n));
            }
            match Pin::new(&mut self.io).poll_write(cx, &out[*written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => *written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(0))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Enveloped<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if this.pending.is_none() {
            match bare_answer_at(buf) {
                None => return Pin::new(&mut this.io).poll_write(cx, buf),
                Some((start, message, date)) => {
                    let mut out = buf[..start].to_vec();
                    out.extend(envelope_answer(message, date, &this.budget, this.peer));
                    this.pending = Some((out, 0, buf.len()));
                }
            }
        }
        this.drain(cx)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.pending.is_some() {
            match this.drain(cx) {
                Poll::Ready(Ok(_)) => {}
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Pin::new(&mut this.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.as_mut().poll_flush(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut self.io).poll_shutdown(cx),
            other => other,
        }
    }
}

/// Settings of [`server`] (what the app used to give actix-web's `HttpServer`).
#[derive(Clone, Copy, Debug)]
pub struct ServerSettings {
    /// How long a request's head may take to arrive.
    pub head_timeout: Duration,
    /// How long an idle keep-alive connection is kept.
    pub keep_alive: Duration,
    /// Open connections per worker.
    pub max_connections: usize,
    /// Worker threads (`None`: one per core).
    pub workers: Option<usize>,
    /// Seconds a graceful stop waits for requests in flight.
    pub shutdown_timeout: u64,
}

/// An HTTP/1.1 server on `listener` serving the app that `app` builds (once per worker), each
/// connection's stream [`Enveloped`] with `budget`; signals (SIGINT, SIGTERM) stop it
/// gracefully. Errors: the listener cannot be used.
pub fn server<F, I, S, B>(
    listener: std::net::TcpListener,
    app: F,
    settings: ServerSettings,
    budget: IpBudget,
) -> io::Result<actix_web::dev::Server>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: IntoServiceFactory<S, Request>,
    S: ServiceFactory<Request, Config = AppConfig, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    S::InitError: std::fmt::Debug,
    B: actix_web::body::MessageBody + 'static,
{
    let addr = listener.local_addr()?;
    let host = addr.to_string();
    let mut builder = actix_server::Server::build()
        .max_concurrent_connections(settings.max_connections.max(1))
        .backlog(1024)
        .shutdown_timeout(settings.shutdown_timeout);
    if let Some(n) = settings.workers {
        builder = builder.workers(n);
    }
    builder = builder.listen(format!("talent-{addr}"), listener, move || {
        let budget = budget.clone();
        let host = host.clone();
        let app = app()
            .into_factory()
            .map_err(|e| -> Response<actix_web::body::BoxBody> { e.error_response().into() })
            .map(|res: ServiceResponse<B>| res.into_parts().1.map_into_boxed_body());
        let http = HttpService::<Enveloped<actix_web::rt::net::TcpStream>, _, _>::build()
            .keep_alive(settings.keep_alive)
            .client_request_timeout(settings.head_timeout)
            // As actix-web's HttpServer: a closing connection gets a second to take the answer
            // (a client still sending a refused body reads its 413 instead of a reset).
            .client_disconnect_timeout(Duration::from_secs(1))
            .local_addr(addr)
            .h1(map_config(app, move |_| AppConfig::__priv_test_new(false, host.clone(), addr)));
        fn_service(move |io: actix_web::rt::net::TcpStream| {
            let peer: Option<SocketAddr> = io.peer_addr().ok();
            let _ = io.set_nodelay(true);
            let wrapped = Enveloped::new(io, peer.map(|p| p.ip()), budget.clone());
            async move { Ok::<_, ()>((wrapped, peer)) }
        })
        .and_then(http.map_err(|_| ()))
    })?;
    Ok(builder.run())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_actix_https_bare_error_answer_at_the_end_is_recognized() {
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\ndate: Wed, 25 Nov 2026 09:45:36 GMT\r\n\r\n";
        assert_eq!(bare_answer_at(bare).map(|(s, _, d)| (s, d)), Some((0, "Wed, 25 Nov 2026 09:45:36 GMT")));
        let mut after_a_reply = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec();
        after_a_reply.extend_from_slice(bare);
        assert_eq!(bare_answer_at(&after_a_reply).map(|(s, _, _)| s), Some(40));
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 85\r\nconnection: close\r\ndate: Wed, 25 Nov 2026 09:45:36 GMT\r\n\r\n";
        assert_eq!(bare_answer_at(ours), None, "an answer with a body is ours");
        assert_eq!(bare_answer_at(&bare[..bare.len() - 2]), None, "not the end of an answer");
        let slow = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\ndate: Wed, 25 Nov 2026 09:45:36 GMT\r\n\r\n";
        assert!(bare_answer_at(slow).is_some_and(|(_, m, _)| m.contains("in time")));
    }
}
