//! SMTP over TLS (issue 13, point 9; T94): `TALENT_SMTP_URL` with STARTTLS (`smtp://…?tls=required`)
//! and implicit TLS (`smtps://…`), credentials in the URL, and a private CA
//! (`TALENT_SMTP_CA_FILE`), against a local TLS-capable SMTP sink: a CA and a server certificate
//! for 127.0.0.1 made with the `openssl` command, rustls on the sink's side.
use crate::support::{eventually, spawn, Backend, Opts, TestApp};
use base64::Engine;
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the sink received in one transaction.
#[derive(Clone, Debug, Default)]
struct Received {
    tls: bool,
    user: String,
    password: String,
    rcpt: Vec<String>,
    data: String,
}

/// A CA and a server certificate for 127.0.0.1 (PEM files in a temporary directory).
struct Pki {
    dir: PathBuf,
}

impl Pki {
    fn make() -> Pki {
        let dir = std::env::temp_dir().join(format!("talent-smtp-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("leaf.ext"),
            "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=critical,CA:FALSE\n\
             keyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        let run = |args: &[&str]| {
            let out = Command::new("openssl").args(args).current_dir(&dir).output().expect("the openssl command");
            assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        run(&[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=Talent test CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ]);
        run(&[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "leaf.key",
            "-out",
            "leaf.csr",
            "-subj",
            "/CN=localhost",
        ]);
        run(&[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "leaf.pem",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
        ]);
        Pki { dir }
    }

    fn ca(&self) -> PathBuf {
        self.dir.join("ca.pem")
    }

    fn server_config(&self) -> Arc<rustls::ServerConfig> {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let certs: Vec<CertificateDer<'static>> =
            CertificateDer::pem_file_iter(self.dir.join("leaf.pem")).unwrap().map(Result::unwrap).collect();
        let key = PrivateKeyDer::from_pem_file(self.dir.join("leaf.key")).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let cfg = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(certs, key)
            .unwrap();
        Arc::new(cfg)
    }
}

impl Drop for Pki {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The sink's connection: plain until STARTTLS, or TLS from the start.
enum Conn {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ServerConnection, TcpStream>>),
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.read(buf),
            Conn::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.write(buf),
            Conn::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Conn::Plain(s) => s.flush(),
            Conn::Tls(s) => s.flush(),
        }
    }
}

/// An SMTP server on 127.0.0.1 that requires TLS (STARTTLS, or implicit with `implicit`) and
/// `AUTH PLAIN` or `AUTH LOGIN` before it takes a message.
struct TlsSink {
    port: u16,
    received: Arc<Mutex<Vec<Received>>>,
}

impl TlsSink {
    fn start(pki: &Pki, implicit: bool) -> TlsSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let (r, cfg) = (received.clone(), pki.server_config());
        std::thread::spawn(move || {
            for stream in listener.incoming().map_while(Result::ok) {
                let (r, cfg) = (r.clone(), cfg.clone());
                std::thread::spawn(move || {
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(30)));
                    let conn = if implicit {
                        let Ok(tls) = rustls::ServerConnection::new(cfg.clone()) else { return };
                        Conn::Tls(Box::new(rustls::StreamOwned::new(tls, stream)))
                    } else {
                        Conn::Plain(stream)
                    };
                    let _ = session(conn, &cfg, &r);
                });
            }
        });
        TlsSink { port, received }
    }

    fn messages(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

fn session(conn: Conn, cfg: &Arc<rustls::ServerConfig>, received: &Mutex<Vec<Received>>) -> std::io::Result<()> {
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.decode(s.trim()).unwrap_or_default();
    let mut io = BufReader::new(conn);
    io.get_mut().write_all(b"220 sink.test ESMTP ready\r\n")?;
    let mut cur = Received::default();
    let mut authed = false;
    loop {
        cur.tls = matches!(io.get_ref(), Conn::Tls(_));
        let mut line = String::new();
        if io.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        let upper = line.to_ascii_uppercase();
        let reply: &[u8] = if upper.starts_with("EHLO") {
            if cur.tls {
                b"250-sink.test\r\n250 AUTH PLAIN LOGIN\r\n"
            } else {
                b"250-sink.test\r\n250 STARTTLS\r\n"
            }
        } else if upper == "STARTTLS" && !cur.tls {
            io.get_mut().write_all(b"220 2.0.0 ready to start TLS\r\n")?;
            let Conn::Plain(tcp) = io.into_inner() else { unreachable!() };
            let tls = rustls::ServerConnection::new(cfg.clone()).map_err(std::io::Error::other)?;
            io = BufReader::new(Conn::Tls(Box::new(rustls::StreamOwned::new(tls, tcp))));
            continue;
        } else if let Some(rest) = upper.strip_prefix("AUTH PLAIN") {
            let initial = line[line.len() - rest.len()..].trim().to_string();
            let blob = if initial.is_empty() {
                io.get_mut().write_all(b"334 \r\n")?;
                let mut l = String::new();
                io.read_line(&mut l)?;
                b64(&l)
            } else {
                b64(&initial)
            };
            let parts: Vec<String> = blob.split(|b| *b == 0).map(|p| String::from_utf8_lossy(p).into_owned()).collect();
            cur.user = parts.get(1).cloned().unwrap_or_default();
            cur.password = parts.get(2).cloned().unwrap_or_default();
            authed = cur.tls;
            b"235 2.7.0 authenticated\r\n"
        } else if upper == "AUTH LOGIN" {
            io.get_mut().write_all(b"334 VXNlcm5hbWU6\r\n")?;
            let mut u = String::new();
            io.read_line(&mut u)?;
            io.get_mut().write_all(b"334 UGFzc3dvcmQ6\r\n")?;
            let mut p = String::new();
            io.read_line(&mut p)?;
            cur.user = String::from_utf8_lossy(&b64(&u)).into_owned();
            cur.password = String::from_utf8_lossy(&b64(&p)).into_owned();
            authed = cur.tls;
            b"235 2.7.0 authenticated\r\n"
        } else if upper.starts_with("MAIL FROM") {
            if !cur.tls {
                b"530 5.7.0 must issue a STARTTLS command first\r\n"
            } else if !authed {
                b"530 5.7.0 authentication required\r\n"
            } else {
                b"250 2.1.0 ok\r\n"
            }
        } else if upper.starts_with("RCPT TO") {
            cur.rcpt.push(line[8..].trim().to_string());
            b"250 2.1.5 ok\r\n"
        } else if upper == "DATA" {
            io.get_mut().write_all(b"354 end with <CRLF>.<CRLF>\r\n")?;
            loop {
                let mut l = String::new();
                if io.read_line(&mut l)? == 0 {
                    return Ok(());
                }
                let t = l.trim_end_matches(['\r', '\n']);
                if t == "." {
                    break;
                }
                cur.data.push_str(t);
                cur.data.push('\n');
            }
            received.lock().unwrap().push(std::mem::take(&mut cur));
            b"250 2.0.0 queued\r\n"
        } else if upper == "QUIT" {
            io.get_mut().write_all(b"221 2.0.0 bye\r\n")?;
            return Ok(());
        } else {
            b"250 2.0.0 ok\r\n"
        };
        io.get_mut().write_all(reply)?;
        io.get_mut().flush()?;
    }
}

fn start(url: String, ca: Option<&Path>) -> Option<TestApp> {
    let mut env = vec![("TALENT_SMTP_FROM", "Acme Talent <talent@acme.example>".to_string())];
    if let Some(ca) = ca {
        env.push(("TALENT_SMTP_CA_FILE", ca.display().to_string()));
    }
    spawn(Backend::Sqlite, Opts { smtp_url: Some(url), env, ..Default::default() })
}

fn invite(app: &TestApp, key: &str, to: &str) -> serde_json::Value {
    let r = app.send("POST", "/api/v1/invitations", key, &json!({"email": to, "sendEmail": true}));
    assert_eq!(r.status, 201, "{}", r.text);
    r.json
}

/// T94: STARTTLS (required) with credentials in the URL, the relay's certificate checked against
/// `TALENT_SMTP_CA_FILE`: the email arrives over TLS, authenticated, from `TALENT_SMTP_FROM`.
#[test]
fn starttls_with_credentials_delivers_over_tls_t94() {
    let pki = Pki::make();
    let sink = TlsSink::start(&pki, false);
    let url = format!("smtp://mailer%40acme.example:s3cr%3At@127.0.0.1:{}?tls=required", sink.port);
    let Some(app) = start(url, Some(&pki.ca())) else { return };
    let org = app.org("professional", "active");
    let inv = invite(&app, &org.key, "ada@example.com");
    app.sent_emails("ada@example.com");
    let got = sink.messages();
    assert_eq!(got.len(), 1, "{got:?}");
    let m = &got[0];
    assert!(m.tls, "the message went over TLS");
    assert_eq!((m.user.as_str(), m.password.as_str()), ("mailer@acme.example", "s3cr:t"), "URL-decoded credentials");
    assert_eq!(m.rcpt, ["<ada@example.com>"]);
    assert!(m.data.contains(r#"From: "Acme Talent" <talent@acme.example>"#), "{}", m.data);
    assert!(m.data.contains(inv["url"].as_str().unwrap_or("?")), "{}", m.data);
}

/// T94: implicit TLS (`smtps://`, the port of the URL) delivers too; without the CA the relay's
/// certificate is refused, so nothing is sent and the email stays queued for a retry.
#[test]
fn implicit_tls_delivers_and_an_untrusted_certificate_is_refused_t94() {
    let pki = Pki::make();
    let sink = TlsSink::start(&pki, true);
    let url = format!("smtps://mailer:pw@127.0.0.1:{}", sink.port);
    let Some(app) = start(url.clone(), Some(&pki.ca())) else { return };
    let org = app.org("professional", "active");
    invite(&app, &org.key, "ada@example.com");
    app.sent_emails("ada@example.com");
    assert!(eventually(Duration::from_secs(5), || sink.messages().len() == 1));
    assert!(sink.messages()[0].tls);
    drop(app);

    let Some(untrusting) = start(url, None) else { return };
    let org = untrusting.org("professional", "active");
    let inv = invite(&untrusting, &org.key, "bob@example.com");
    assert_eq!(inv["emailSentAt"], serde_json::Value::Null, "not sent to an untrusted relay: {inv}");
    let mails = untrusting.admin("GET", "/admin/v1/emails?to=bob%40example.com", None);
    assert_eq!(mails.json["data"][0]["sentAt"], serde_json::Value::Null, "{}", mails.text);
    assert_eq!(sink.messages().len(), 1, "nothing more arrived");
}
