//! Talent's mailer adapters (D22). Every email is first written to the email outbox in the
//! database (the record the admin API lists); a mailer then delivers it:
//! - [`RecordingMailer`] (default, `TALENT_SMTP_URL` unset): delivery is the record itself.
//! - [`SmtpMailer`] (`TALENT_SMTP_URL=smtp://[user:pass@]host[:port]`): sends with lettre's SMTP
//!   transport on a blocking thread, never on the async workers. Plain SMTP only for now (a relay
//!   on the same host or network); TLS is not built in.

use lettre::message::header::ContentType;
use lettre::{Message, SmtpTransport, Transport};
use talent_domain::ports::{BoxFuture, Mailer, OutgoingEmail};

/// Records only: the email outbox row is the delivered email (sandbox, D22).
#[derive(Default, Debug, Clone, Copy)]
pub struct RecordingMailer;

impl Mailer for RecordingMailer {
    fn send<'a>(&'a self, _email: &'a OutgoingEmail) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(std::future::ready(Ok(())))
    }
}

/// Sends by SMTP (lettre). Errors are the transport's message; the caller retries.
#[derive(Clone)]
pub struct SmtpMailer {
    transport: SmtpTransport,
    from: String,
}

impl std::fmt::Debug for SmtpMailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpMailer").field("from", &self.from).finish_non_exhaustive()
    }
}

impl SmtpMailer {
    /// Builds from `smtp://[user:pass@]host[:port]` (plain SMTP; credentials are never logged).
    /// `from` is the sender address. Errors: an unparsable URL.
    pub fn new(url: &str, from: &str) -> Result<Self, String> {
        let rest = url.strip_prefix("smtp://").ok_or("TALENT_SMTP_URL must start with smtp://")?;
        let rest = rest.trim_end_matches('/');
        let (creds, hostport) = match rest.rsplit_once('@') {
            Some((c, h)) => (Some(c), h),
            None => (None, rest),
        };
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) => (h, p.parse::<u16>().map_err(|_| "TALENT_SMTP_URL: bad port")?),
            None => (hostport, 25),
        };
        if host.is_empty() {
            return Err("TALENT_SMTP_URL: missing host".into());
        }
        let mut b = SmtpTransport::builder_dangerous(host).port(port);
        if let Some(c) = creds {
            let (user, pass) = c.split_once(':').unwrap_or((c, ""));
            b = b.credentials(lettre::transport::smtp::authentication::Credentials::new(user.into(), pass.into()));
        }
        Ok(SmtpMailer { transport: b.build(), from: from.to_string() })
    }
}

impl Mailer for SmtpMailer {
    fn send<'a>(&'a self, email: &'a OutgoingEmail) -> BoxFuture<'a, Result<(), String>> {
        let transport = self.transport.clone();
        let built = (|| {
            Message::builder()
                .from(self.from.parse().map_err(|e| format!("from address: {e}"))?)
                .to(email.to.as_str().parse().map_err(|e| format!("to address: {e}"))?)
                .subject(email.subject.clone())
                .header(ContentType::TEXT_PLAIN)
                .body(email.body.clone())
                .map_err(|e| format!("building the email: {e}"))
        })();
        Box::pin(async move {
            let msg = built?;
            tokio::task::spawn_blocking(move || transport.send(&msg).map(|_| ()).map_err(|e| e.to_string()))
                .await
                .map_err(|e| e.to_string())?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smtp_urls_parse_or_fail_clearly() {
        assert!(SmtpMailer::new("smtp://127.0.0.1:2525", "a@b.co").is_ok());
        assert!(SmtpMailer::new("smtp://user:pw@mail.example:587", "a@b.co").is_ok());
        assert!(SmtpMailer::new("smtp://mail.example", "a@b.co").is_ok());
        assert!(SmtpMailer::new("http://x", "a@b.co").is_err());
        assert!(SmtpMailer::new("smtp://:25", "a@b.co").is_err());
        assert!(SmtpMailer::new("smtp://h:notaport", "a@b.co").is_err());
    }
}
