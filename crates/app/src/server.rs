//! Start-up: connect, migrate, build the adapters and serve; background jobs.

use crate::adapters::{RingSecrets, SystemClock, UuidV7Ids};
use crate::config::{switch, Cli, Command, Config};
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::{from_fn, Next};
use actix_web::{web, App, HttpServer};
use anyhow::Context;
use std::io::Write;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use talent_domain::assessment::AssessmentModel;
use talent_domain::ports::{Secrets, Store};
use talent_domain::usecases::invitations::InvitationKit;
use talent_domain::usecases::AssessmentKit;
use talent_domain::Services;
use talent_http::deadline::{body_deadline, BodyDeadline};
use talent_http::ApiState;
use talent_ratelimit::{GovernorRateLimiter, Mode};
use talent_report::{PdfReport, TemplatePersonality};
use talent_store::DbStore;

/// Logs one line per request: method, path (never the query string, which can carry personal
/// data), status and duration. Keys, tokens and bodies are never logged.
/// How long a client may take to send a request's head (T92; actix-web's default, made explicit).
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an idle keep-alive connection is kept (T92).
const KEEP_ALIVE: Duration = Duration::from_secs(5);

async fn access_log(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let start = Instant::now();
    let method = req.method().clone();
    let path = log_path(req.path()).into_owned();
    let res = next.call(req).await?;
    tracing::info!(%method, %path, status = res.status().as_u16(), ms = start.elapsed().as_millis() as u64, "request");
    Ok(res)
}

/// The path as the access log writes it: an invitation page's token is a credential (whoever
/// holds the link acts as the person), so `/i/{token}` is written `/i/…` (issue 12).
fn log_path(path: &str) -> std::borrow::Cow<'_, str> {
    match path.strip_prefix("/i/") {
        Some(_) => "/i/…".into(),
        None => path.into(),
    }
}

/// The log pipeline (issue 11, T64): lines are formatted on the calling thread and written to
/// stderr by background threads, so a request never waits for the terminal or the log collector.
/// `INFO` and more verbose lines (the access log) go through a lossy queue of 128k lines: when the
/// output cannot keep up they are dropped and counted ([`Logging::dropped`]), never blocking a
/// request. `WARN` and `ERROR` lines go through a queue that never drops (a writer waits when it
/// is full). Keep the returned [`Logging`] alive: dropping it flushes both queues.
fn init_tracing(filter: &str) -> Logging {
    use tracing_subscriber::fmt::writer::MakeWriterExt;
    let filter =
        tracing_subscriber::EnvFilter::try_new(filter).unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let (lossy, lossy_guard) = tracing_appender::non_blocking(std::io::stderr());
    let (lossless, lossless_guard) =
        tracing_appender::non_blocking::NonBlockingBuilder::default().lossy(false).finish(std::io::stderr());
    let dropped = lossy.error_counter();
    let writer = lossy.with_min_level(tracing::Level::INFO).and(lossless.with_max_level(tracing::Level::WARN));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init();
    Logging { _guards: [lossy_guard, lossless_guard], dropped }
}

/// The running log pipeline of [`init_tracing`].
struct Logging {
    _guards: [tracing_appender::non_blocking::WorkerGuard; 2],
    /// Lines of `INFO` or more verbose dropped because the output was too slow.
    dropped: tracing_appender::non_blocking::ErrorCounter,
}

impl Logging {
    /// Every 10 s, reports how many lines were dropped since the last report (a `WARN` line,
    /// which is never dropped).
    fn report_drops(&self) {
        let counter = self.dropped.clone();
        tokio::spawn(async move {
            let mut seen = 0;
            let mut tick = tokio::time::interval(Duration::from_secs(10));
            loop {
                tick.tick().await;
                let now = counter.dropped_lines();
                if now > seen {
                    tracing::warn!(
                        dropped = now - seen,
                        total = now,
                        "log lines dropped: the log output is slower than the traffic"
                    );
                    seen = now;
                }
            }
        });
    }
}

/// Connects and migrates. Errors: bad URL, unreachable database, failed migration.
pub async fn open_store(cfg: &Config) -> anyhow::Result<DbStore> {
    anyhow::ensure!(cfg.auth_cache_ms <= 60_000, "TALENT_AUTH_CACHE_MS must be between 0 and 60000");
    let mut store = DbStore::connect(&cfg.database_url, cfg.db_pool_size.max(1)).context("opening the database")?;
    store.set_auth_cache_ttl(std::time::Duration::from_millis(cfg.auth_cache_ms));
    store.set_secret_box(Arc::new(secret_box(cfg)?));
    let n = store.migrate().await.context("applying migrations")?;
    if n > 0 {
        tracing::info!(applied = n, "migrations applied");
    }
    let resealed = store
        .write(|tx| Box::pin(async move { tx.reseal_secrets().await }))
        .await
        .context("sealing stored secrets under TALENT_SECRET_KEY")?;
    if resealed > 0 {
        tracing::info!(resealed, "stored secrets sealed under the current key");
    }
    Ok(store)
}

/// The secret box of secrets at rest (T84): `TALENT_SECRET_KEY`, else with SQLite a key file
/// next to the database (generated with mode 0600 on first start), else an error.
fn secret_box(cfg: &Config) -> anyhow::Result<crate::adapters::AeadBox> {
    use crate::adapters::{parse_secret_key, AeadBox};
    let previous = match cfg.secret_key_previous.as_deref().filter(|k| !k.trim().is_empty()) {
        Some(k) => Some(parse_secret_key("TALENT_SECRET_KEY_PREVIOUS", k)?),
        None => None,
    };
    if let Some(k) = cfg.secret_key.as_deref().filter(|k| !k.trim().is_empty()) {
        return AeadBox::new(&parse_secret_key("TALENT_SECRET_KEY", k)?, previous.as_ref());
    }
    let url = &cfg.database_url;
    let Some(db) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) else {
        anyhow::bail!(
            "TALENT_SECRET_KEY is required with PostgreSQL: 64 hex digits (e.g. `openssl rand -hex 32`), \
             the same on every instance"
        );
    };
    let path = format!("{}.key", db.split('?').next().unwrap_or(db));
    let key = match std::fs::read_to_string(&path) {
        Ok(text) => parse_secret_key(&path, &text)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let key: [u8; 32] = rand_key();
            write_key_file(&path, &hex::encode(key)).with_context(|| format!("writing the key file {path}"))?;
            tracing::warn!(
                path = %path,
                "TALENT_SECRET_KEY is not set: generated a key for secrets at rest in this file (mode 0600); \
                 keep it with the database, or set TALENT_SECRET_KEY"
            );
            key
        }
        Err(e) => return Err(e).with_context(|| format!("reading the key file {path}")),
    };
    tracing::info!(path = %path, "secrets at rest sealed with the key file");
    AeadBox::new(&key, previous.as_ref())
}

fn rand_key() -> [u8; 32] {
    let mut k = [0u8; 32];
    if ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut k).is_err() {
        tracing::error!("system random source failed");
        std::process::abort();
    }
    k
}

/// Creates the key file readable by its owner only; an existing file is never overwritten.
fn write_key_file(path: &str, hex_key: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)?;
    f.write_all(hex_key.as_bytes())?;
    f.write_all(b"\n")?;
    f.sync_all()
}

/// Runs a subcommand.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    match &cli.command {
        Command::Openapi => {
            print!("{}", talent_http::openapi::document_text());
            return Ok(());
        }
        Command::Import(args) => return crate::import::command(args),
        Command::Serve | Command::Migrate | Command::Demo => {}
    }
    let cfg = cli.config;
    let logging = init_tracing(&cfg.log);
    logging.report_drops();
    let sandbox_flag = switch("TALENT_SANDBOX", &cfg.sandbox)?;
    let webhooks_insecure = switch("TALENT_WEBHOOKS_ALLOW_INSECURE", &cfg.webhooks_allow_insecure)?;
    let mode = Mode::from_str(&cfg.rate_limit_mode).map_err(|e| anyhow::anyhow!("TALENT_RATE_LIMIT_MODE: {e}"))?;
    let engine = cfg.engine()?;
    let store = open_store(&cfg).await?;
    if cli.command == Command::Migrate {
        println!("Migrations applied.");
        return Ok(());
    }
    let demo = cli.command == Command::Demo;
    let clock = Arc::new(SystemClock::default());
    // Bound before the services are built: with port 0 the default `TALENT_PUBLIC_URL` must name
    // the port actually bound, or invitation links point at port 0 (D20, D40).
    let listener = std::net::TcpListener::bind(&cfg.listen).with_context(|| format!("binding {}", cfg.listen))?;
    let bound = listener.local_addr().map(|a| a.to_string()).unwrap_or_else(|_| cfg.listen.clone());
    let public_url = cfg.public_url.clone().unwrap_or_else(|| format!("http://{bound}"));
    let mailer: Arc<dyn talent_domain::ports::Mailer> = match cfg.smtp_url.as_deref().filter(|u| !u.is_empty()) {
        Some(url) => {
            let ca = match cfg.smtp_ca_file.as_deref().filter(|p| !p.is_empty()) {
                Some(path) => Some(std::fs::read(path).with_context(|| format!("reading TALENT_SMTP_CA_FILE {path}"))?),
                None => None,
            };
            Arc::new(talent_mailer::SmtpMailer::new(url, &cfg.smtp_from, ca.as_deref()).map_err(anyhow::Error::msg)?)
        }
        None => Arc::new(talent_mailer::RecordingMailer),
    };
    let read_secret = |name: &'static str| {
        let fresh = crate::adapters::random_token(32);
        let store = store.clone();
        async move {
            store
                .write(move |tx| Box::pin(async move { tx.setting_get_or_insert(name, &fresh).await }))
                .await
                .with_context(|| format!("reading the {name}"))
        }
    };
    let cursor_secret = read_secret("cursor_secret").await?;
    let invitation_secret = read_secret("invitation_secret").await?;
    let secrets = Arc::new(RingSecrets::new(invitation_secret.as_bytes()));
    let svc = Services {
        store: Arc::new(store.clone()),
        clock: clock.clone(),
        ids: Arc::new(UuidV7Ids),
        secrets: secrets.clone(),
        plans: crate::config::plan_catalogue(cfg.plans.as_deref())?,
        assessment: Arc::new(AssessmentKit {
            model: AssessmentModel::builtin().context("loading the assessment model")?,
            personality: Arc::new(TemplatePersonality),
            reports: Arc::new(PdfReport),
        }),
        invites: Arc::new(InvitationKit { mailer, public_url: public_url.clone(), sandbox: sandbox_flag || demo }),
        webhooks: Arc::new(talent_webhooks::UreqSender::new(webhooks_insecure, engine.concurrency as usize)),
    };
    let admin_token = match (&cfg.admin_token, demo) {
        // T89: a guessable token would open every organization.
        (Some(t), _) if !t.is_empty() && t.chars().count() < crate::config::ADMIN_TOKEN_MIN_CHARS => anyhow::bail!(
            "TALENT_ADMIN_TOKEN must be at least {} characters (it has {}); generate one with `openssl rand -hex 32`",
            crate::config::ADMIN_TOKEN_MIN_CHARS,
            t.chars().count()
        ),
        (Some(t), _) if !t.is_empty() => Some(t.clone()),
        (_, true) => Some(format!("adm_{}", secrets.random_token(24))),
        _ => None,
    };
    let admin_listener = match cfg.admin_listen.as_deref().filter(|a| !a.is_empty()) {
        None => None,
        Some(_) if admin_token.is_none() => anyhow::bail!("TALENT_ADMIN_LISTEN is set but TALENT_ADMIN_TOKEN is not"),
        Some(a) => Some(std::net::TcpListener::bind(a).with_context(|| format!("binding TALENT_ADMIN_LISTEN {a}"))?),
    };
    let demo_out = if demo { Some(crate::demo::seed(&svc).await?) } else { None };
    let limiter = Arc::new(GovernorRateLimiter::new(mode, cfg.rate_limit_ip_per_minute));
    let mut api_state = ApiState::new(
        svc.clone(),
        limiter.clone(),
        cursor_secret.as_bytes(),
        admin_token.as_deref(),
        sandbox_flag || demo,
    );
    if sandbox_flag || demo {
        api_state.clock_control = Some(clock.clone());
    }
    if let Some(list) = cfg.trusted_proxies.as_deref() {
        api_state.trusted_proxies = talent_http::client_ip::TrustedProxies::parse(list).map_err(anyhow::Error::msg)?;
    }
    let state = web::Data::new(api_state);

    // With TALENT_ADMIN_LISTEN the admin API has a server of its own and the public one does
    // not serve it (T89).
    let split = admin_listener.is_some();
    let public_state = state.clone();
    let deadline = BodyDeadline(Duration::from_millis(cfg.body_timeout_ms.max(1)));
    let server = HttpServer::new(move || {
        let routes = if split { talent_http::configure_public::<DbStore> } else { talent_http::configure::<DbStore> };
        App::new()
            .app_data(public_state.clone())
            .app_data(deadline)
            .wrap(from_fn(body_deadline))
            .wrap(from_fn(access_log))
            .configure(routes)
    })
    .client_request_timeout(HEAD_TIMEOUT)
    .keep_alive(KEEP_ALIVE)
    .max_connections(cfg.max_connections.max(1))
    .backlog(1024)
    .listen(listener)
    .with_context(|| format!("listening on {bound}"))?
    .shutdown_timeout(30);
    let addrs = server.addrs();
    let addr = addrs.first().map(|a| a.to_string()).unwrap_or_else(|| cfg.listen.clone());
    let admin_server = match admin_listener {
        None => None,
        Some(l) => {
            let s = HttpServer::new(move || {
                App::new()
                    .app_data(state.clone())
                    .app_data(deadline)
                    .wrap(from_fn(body_deadline))
                    .wrap(from_fn(access_log))
                    .configure(talent_http::configure_admin::<DbStore>)
            })
            .client_request_timeout(HEAD_TIMEOUT)
            .keep_alive(KEEP_ALIVE)
            .workers(1)
            .listen(l)
            .context("listening on TALENT_ADMIN_LISTEN")?
            .shutdown_timeout(30);
            let a = s.addrs().first().map(|a| a.to_string()).unwrap_or_default();
            Some((s, a))
        }
    };

    // Background jobs: bounded limiter memory (governor retain_recent) and retention (D46).
    let lim = limiter.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            lim.retain_recent();
        }
    });
    let svc_sweep = svc.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(15));
        loop {
            tick.tick().await;
            match svc_sweep.sweep_invitations().await {
                Ok((e, r)) if e + r > 0 => tracing::info!(expired = e, reminded = r, "invitation sweep"),
                Ok(_) => {}
                // A database outage is logged once by the store (T87).
                Err(e) if e.is_unavailable() => tracing::debug!(error = %e, "invitation sweep failed"),
                Err(e) => tracing::warn!(error = %e, "invitation sweep failed"),
            }
            match svc_sweep.deliver_emails().await {
                Err(e) if e.is_unavailable() => tracing::debug!(error = %e, "email delivery failed"),
                Err(e) => tracing::warn!(error = %e, "email delivery failed"),
                Ok(_) => {}
            }
        }
    });
    // The webhook delivery engine (D31, T60), woken by commits (and on PostgreSQL by NOTIFY).
    store.listen();
    let engine_svc = Services { store: Arc::new(store.with_own_pool(2)?), ..svc.clone() };
    talent_webhooks::engine::spawn(engine_svc, engine, store.delivery_wakeups());
    let svc_bg = svc.clone();
    let retention_days = cfg.retention_days;
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(3600));
        loop {
            tick.tick().await;
            // Retention (D46, T61, T82): 1,000 rows per transaction until nothing is left.
            match svc_bg.retention(retention_days, 1000).await {
                Ok(r) if r.total() > 0 => tracing::info!(
                    idempotency = r.idempotency,
                    deliveries = r.deliveries,
                    events = r.events,
                    emails = r.emails,
                    codes = r.codes,
                    "retention purged"
                ),
                Ok(_) => {}
                Err(e) if e.is_unavailable() => tracing::debug!(error = %e, "retention failed"),
                Err(e) => tracing::warn!(error = %e, "retention failed"),
            }
        }
    });

    let mut out = std::io::stdout().lock();
    if let Some(d) = &demo_out {
        let _ = writeln!(out, "Demo organization: {} ({})", d.org_name, d.org_id);
        let _ = writeln!(out, "API key: {}", d.api_key);
    }
    if demo {
        if let Some(t) = &admin_token {
            let _ = writeln!(out, "Admin token: {t}");
        }
    }
    if let Some((_, a)) = &admin_server {
        let _ = writeln!(out, "Admin API listening on http://{a}");
    }
    let _ = writeln!(out, "Listening on http://{addr}");
    if let Some(d) = &demo_out {
        let _ = writeln!(out, "Try: curl -H 'Authorization: Bearer {}' http://{addr}/api/v1/persons", d.api_key);
    }
    let _ = out.flush();
    drop(out);
    tracing::info!(%addr, backend = ?store.backend(), "serving");
    match admin_server {
        Some((admin, _)) => {
            tokio::try_join!(server.run(), admin.run()).context("serving")?;
        }
        None => server.run().await.context("serving")?,
    }
    tracing::info!("stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::log_path;

    #[test]
    fn the_access_log_writes_invitation_pages_without_their_token() {
        assert_eq!(log_path("/i/AbC-123_xyz"), "/i/…");
        assert_eq!(log_path("/i/"), "/i/…");
        assert_eq!(log_path("/api/v1/persons/5"), "/api/v1/persons/5");
        assert_eq!(log_path("/invitations"), "/invitations");
    }
}
