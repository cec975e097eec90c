//! Talent's mailer adapters (D22). Every email is first written to the email outbox in the
//! database (the record the admin API lists); a mailer then delivers it:
//! - [`RecordingMailer`] (default, `TALENT_SMTP_URL` unset): delivery is the record itself.
//! - [`SmtpMailer`] (`TALENT_SMTP_URL`): sends with lettre's SMTP transport on a blocking thread,
//!   never on the async workers. The URL is lettre's (issue 13, T94): `smtp://host[:port]` (plain,
//!   a relay on the same host or network), `smtp://…?tls=required` (STARTTLS, port 587 unless
//!   given), `smtps://…` (implicit TLS, port 465 unless given), with `user:password@` (URL-encoded)
//!   for authentication. TLS is rustls with the Mozilla roots, plus a private CA when given
//!   (`TALENT_SMTP_CA_FILE`).

use lettre::message::header::ContentType;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
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
    /// Builds from `url` (lettre's connection URL, see the module doc; credentials are never
    /// logged); `from` is the sender (`Name <address>`); `ca_pem`: a PEM certificate the relay's
    /// certificate may chain to besides the public roots. Errors: an unparsable or unsupported URL
    /// (`http://`, an unknown `tls` value), an unreadable certificate.
    pub fn new(url: &str, from: &str, ca_pem: Option<&[u8]>) -> Result<Self, String> {
        let bad = |e: &dyn std::fmt::Display| format!("TALENT_SMTP_URL: {e}");
        let mut builder = SmtpTransport::from_url(url).map_err(|e| bad(&e))?;
        if let Some(pem) = ca_pem {
            let parsed = url::Url::parse(url).map_err(|e| bad(&e))?;
            let host = parsed.host_str().unwrap_or_default().to_string();
            // lettre takes a file without any certificate silently: refuse it here.
            if !pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") {
                return Err("TALENT_SMTP_CA_FILE: no PEM certificate in the file".into());
            }
            let cert = Certificate::from_pem(pem).map_err(|e| format!("TALENT_SMTP_CA_FILE: {e}"))?;
            let params = || {
                TlsParameters::builder(host.clone())
                    .add_root_certificate(cert.clone())
                    .build_rustls()
                    .map_err(|e| format!("TALENT_SMTP_CA_FILE: {e}"))
            };
            let tls = parsed.query_pairs().find(|(k, _)| k == "tls").map(|(_, v)| v.into_owned());
            builder = match (parsed.scheme(), tls.as_deref()) {
                ("smtps", _) => builder.tls(Tls::Wrapper(params()?)),
                (_, Some("required")) => builder.tls(Tls::Required(params()?)),
                (_, Some("opportunistic")) => builder.tls(Tls::Opportunistic(params()?)),
                _ => builder,
            };
        }
        from.parse::<lettre::message::Mailbox>().map_err(|e| format!("TALENT_SMTP_FROM: {e}"))?;
        Ok(SmtpMailer { transport: builder.build(), from: from.to_string() })
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
        let ok = |u: &str| SmtpMailer::new(u, "a@b.co", None).map(|_| ()).map_err(|e| panic!("{u}: {e}"));
        let _ = ok("smtp://127.0.0.1:2525");
        let _ = ok("smtp://user:pw@mail.example:587");
        let _ = ok("smtp://mail.example");
        let _ = ok("smtp://u%40x:p%3Aw@mail.example?tls=required");
        let _ = ok("smtp://mail.example?tls=opportunistic");
        let _ = ok("smtps://u:p@mail.example");
        for bad in ["http://x", "smtp://:25", "smtp://h:notaport", "smtp://h?tls=sometimes", "not a url"] {
            assert!(SmtpMailer::new(bad, "a@b.co", None).is_err(), "{bad}");
        }
        assert!(SmtpMailer::new("smtps://h", "a@b.co", Some(b"not a certificate")).is_err());
        assert!(SmtpMailer::new("smtp://h", "not an address", None).is_err());
        assert!(SmtpMailer::new("smtp://h", "Talent <no-reply@talent.invalid>", None).is_ok());
    }
}
