//! Start-up: connect, migrate, build the adapters, start the background jobs and serve.

use crate::adapters::{RingSecrets, SystemClock, UuidV7Ids};
use crate::config::{Cli, Command, Config};
use crate::logging::init_tracing;
use actix_web::middleware::from_fn;
use actix_web::{web, App};
use anyhow::Context;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use talent_domain::assessment::AssessmentModel;
use talent_domain::ports::{Secrets, Store};
use talent_domain::usecases::invitations::InvitationKit;
use talent_domain::usecases::AssessmentKit;
use talent_domain::Services;
use talent_http::deadline::BodyDeadline;
use talent_http::ApiState;
use talent_ratelimit::GovernorRateLimiter;
use talent_report::{PdfReport, TemplatePersonality};
use talent_store::tx::email_idna::EmailNormalization;
use talent_store::DbStore;

/// How long a client may take to send a request's head (T92; actix-web's default, made explicit).
const HEAD_TIMEOUT: Duration = Duration::from_secs(5);
/// How long an idle keep-alive connection is kept (T92).
const KEEP_ALIVE: Duration = Duration::from_secs(5);

/// Connects and migrates, then normalizes stored addresses (D55, T146). Returns the store and
/// what the normalization left (the caller reports it: `talent migrate` prints a warning per
/// row group, `serve` logs one warning). Errors: bad URL, unreachable database, failed
/// migration.
pub async fn open_store(cfg: &Config) -> anyhow::Result<(DbStore, EmailNormalization)> {
    let mut store = DbStore::connect(&cfg.database_url, cfg.pool_size()).context("opening the database")?;
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
    let normalized = store.normalize_email_domains().await.context("normalizing stored email addresses")?;
    if normalized.rewritten > 0 {
        tracing::info!(rewritten = normalized.rewritten, "stored email addresses rewritten with ASCII domains");
    }
    Ok((store, normalized))
}

/// What the address normalization left, one line per row group (D55, T146): the table, the
/// rows' ids and the shared domain, never an address (the ids find it).
pub fn unnormalized_lines(n: &EmailNormalization) -> Vec<String> {
    let mut lines: Vec<String> = n
        .collisions
        .iter()
        .map(|c| {
            let ids: Vec<String> = c.ids.iter().map(ToString::to_string).collect();
            format!(
                "{}: rows {} would become one with their domain in ASCII form ({}); left as they are",
                c.table,
                ids.join(", "),
                c.domain
            )
        })
        .collect();
    lines.extend(n.invalid.iter().map(|(table, id)| {
        format!("{table}: row {id} holds an address whose domain is not a valid internationalized domain name; left as it is")
    }));
    lines
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
    let (cfg, demo) = match cli.command {
        Command::Openapi => {
            print!("{}", talent_http::openapi::document_text());
            return Ok(());
        }
        Command::Import(args) => return crate::import::command(&args),
        Command::Migrate(cfg) => {
            let logging = init_tracing(&cfg.log, cfg.log_format == "json").context("starting the log")?;
            logging.report_drops();
            let (_, normalized) = open_store(&cfg).await?;
            for line in unnormalized_lines(&normalized) {
                eprintln!("warning: {line}");
            }
            println!("Migrations applied.");
            return Ok(());
        }
        Command::Serve(cfg) => (cfg, false),
        Command::Demo(cfg) => (cfg, true),
    };
    let logging = init_tracing(&cfg.log, cfg.log_format == "json").context("starting the log")?;
    logging.report_drops();
    let app = Application::build(cfg, demo).await?;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(app.banner().as_bytes());
    let _ = out.flush();
    drop(out);
    tracing::info!(addr = %app.addr(), backend = ?app.backend, "serving");
    app.run_until_stopped().await?;
    tracing::info!("stopped");
    Ok(())
}

/// The service, built: database opened and migrated, listeners bound, background jobs started,
/// the demo organization seeded (`talent demo`). Nothing is served until
/// [`Application::run_until_stopped`] is polled; connections wait in the listen backlog until then.
/// The binary and the in-process end-to-end tests build it the same way.
pub struct Application {
    server: actix_web::dev::Server,
    admin: Option<(actix_web::dev::Server, String)>,
    addr: String,
    admin_token: Option<String>,
    demo: Option<crate::demo::DemoOutput>,
    backend: talent_store::Backend,
}

/// Stops a running [`Application`] (both listeners).
#[derive(Clone)]
pub struct StopHandle {
    public: actix_web::dev::ServerHandle,
    admin: Option<actix_web::dev::ServerHandle>,
}

impl StopHandle {
    /// Stops accepting connections; `graceful` waits (at most 30 s) for requests in flight.
    pub async fn stop(&self, graceful: bool) {
        if let Some(a) = &self.admin {
            a.stop(graceful).await;
        }
        self.public.stop(graceful).await;
    }
}

impl Application {
    /// Builds the service of `talent serve` (`demo`: of `talent demo`, D40) from `cfg`. Must be
    /// called inside a tokio runtime: the background jobs are spawned on it. Errors (at start-up,
    /// naming the setting): invalid settings ([`Config::validate`], before anything is opened), an
    /// unreachable database or failed migration, a listen address that cannot be bound, a failed
    /// demo seed.
    pub async fn build(cfg: Config, demo: bool) -> anyhow::Result<Application> {
        let settings = cfg.validate(demo)?;
        let (store, normalized) = open_store(&cfg).await?;
        if normalized.left_any() {
            tracing::warn!(
                rows = ?unnormalized_lines(&normalized),
                "stored email addresses left with a Unicode domain (rows that would merge, or that do not parse); \
                 each start tries them again"
            );
        }
        let sandbox = cfg.sandbox || demo;
        let clock = Arc::new(SystemClock::default());
        // Bound before the services are built: with port 0 the default `TALENT_PUBLIC_URL` must
        // name the port actually bound, or invitation links point at port 0 (D20, D40).
        let listener = std::net::TcpListener::bind(&cfg.listen).with_context(|| format!("binding {}", cfg.listen))?;
        let addr = listener.local_addr().map(|a| a.to_string()).unwrap_or_else(|_| cfg.listen.clone());
        let admin_listener = match cfg.admin_listen.as_deref().filter(|a| !a.is_empty()) {
            None => None,
            Some(a) => {
                Some(std::net::TcpListener::bind(a).with_context(|| format!("binding TALENT_ADMIN_LISTEN {a}"))?)
            }
        };
        let public_url = cfg.public_url.clone().unwrap_or_else(|| format!("http://{addr}"));
        let (wake_emails, email_job) = crate::jobs::email_wakeup();
        let texts: Arc<dyn talent_domain::ports::Texts> =
            Arc::new(talent_i18n::FluentTexts::new().context("the shipped texts of persons")?);
        let invites = InvitationKit { mailer: mailer(&cfg)?, public_url, sandbox, wake_emails, texts: texts.clone() };
        let invitation_secret = server_secret(&store, "invitation_secret").await?;
        let secrets = Arc::new(RingSecrets::new(invitation_secret.as_bytes()));
        let svc = Services {
            store: Arc::new(store.clone()),
            clock: clock.clone(),
            ids: Arc::new(UuidV7Ids),
            secrets: secrets.clone(),
            plans: settings.plans,
            assessment: Arc::new(AssessmentKit {
                model: AssessmentModel::builtin().context("loading the assessment model")?,
                personality: Arc::new(TemplatePersonality::new(texts.clone())),
                reports: Arc::new(report_renderer(&cfg, texts.clone())?),
            }),
            invites: Arc::new(invites),
            // `talent demo` is for trying Talent on one's own machine: a webhook receiver on
            // localhost over http is allowed there (D35 otherwise).
            webhooks: Arc::new(talent_webhooks::UreqSender::new(
                cfg.webhooks_allow_insecure || demo,
                settings.engine.concurrency as usize,
            )),
            // Pushes to ATSs in their protocols (D69).
            pushes: Arc::new(talent_connectors::push::Renderer),
            // The X-Request-Id of the request being served, on the events it causes (T121).
            correlation: Arc::new(talent_http::request_id::RequestCorrelation),
        };
        let admin_token = match (&cfg.admin_token, demo) {
            (Some(t), _) if !t.is_empty() => Some(t.clone()),
            // 32 random bytes: about 230 bits by the start-up's estimate (D53).
            (_, true) => Some(format!("adm_{}", secrets.random_token(32))),
            _ => None,
        };
        let demo_out = if demo { Some(crate::demo::seed(&svc).await?) } else { None };
        // The metrics recorder first: the adapters built next record from their start.
        crate::metrics::handle();
        let limiter = Arc::new(GovernorRateLimiter::new(cfg.rate_limit_mode, cfg.rate_limit_ip_per_minute));
        let cursor_secret = server_secret(&store, "cursor_secret").await?;
        let mut api_state = ApiState::new(
            svc.clone(),
            budgets(&cfg, &limiter)?,
            cursor_secret.as_bytes(),
            admin_token.as_deref(),
            sandbox,
        );
        if sandbox {
            api_state.clock_control = Some(clock.clone());
        }
        api_state.trusted_proxies = settings.trusted_proxies;
        api_state.crash_after_commit = cfg.test_crash_after_commit.clone().filter(|p| !p.is_empty());
        let email_passes = api_state.email_passes.clone();
        // The dashboard (issue 18): the same use cases, the same per-IP budget of failed
        // authentications, the same client address rule (T98).
        let proxies = api_state.trusted_proxies.clone();
        let dashboard = web::Data::new(talent_web::Dashboard::new(
            svc.clone(),
            server_secret(&store, "dashboard_secret").await?.as_bytes(),
            api_state.limiter.clone(),
            Arc::new(move |req: &actix_web::HttpRequest| proxies.client_ip(req.peer_addr(), req.headers())),
        ));
        // The ATSs' partner routes (D64): the same use cases, budgets and client address rule.
        let proxies = api_state.trusted_proxies.clone();
        let partners = web::Data::new(talent_connectors::Partners {
            svc: svc.clone(),
            limiter: api_state.limiter.clone(),
            client_ip: Arc::new(move |req: &actix_web::HttpRequest| proxies.client_ip(req.peer_addr(), req.headers())),
        });
        let local = limiter.clone();
        // One HTTP worker per core, as actix-web's default; on PostgreSQL each worker opens and
        // drives its share of the request pool itself (T283).
        let workers = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        store.divide_among_workers(workers);
        let http = Http {
            state: web::Data::new(api_state),
            deadline: BodyDeadline(Duration::from_millis(cfg.body_timeout_ms.max(1))),
            request_spans: crate::logging::coloured(cfg.log_format == "json"),
            settings: talent_http::connection::ServerSettings {
                head_timeout: HEAD_TIMEOUT,
                keep_alive: KEEP_ALIVE,
                max_connections: cfg.max_connections.max(1),
                workers: Some(workers),
                shutdown_timeout: 30,
            },
            conn_limiter: Arc::new(move |ip| local.check_now(talent_domain::ports::RateSubject::Ip(ip))),
        };
        // GET /metrics (issue 17): on the admin listener when there is one (private, no token),
        // else on the public one behind TALENT_METRICS_TOKEN or the admin token; else none.
        let split = admin_listener.is_some();
        let render = crate::metrics::renderer(store.clone());
        let endpoint = |token: Option<String>| talent_http::metrics::MetricsEndpoint { render: render.clone(), token };
        let metrics_token = cfg.metrics_token.clone().filter(|t| !t.is_empty()).or_else(|| admin_token.clone());
        let public_metrics = metrics_token.filter(|_| !split).map(|t| web::Data::new(endpoint(Some(t))));
        let server = public_server(listener, &http, (dashboard, partners), public_metrics, split)
            .with_context(|| format!("listening on {addr}"))?;
        let admin = match admin_listener {
            None => None,
            Some(l) => Some(admin_server(l, &http, web::Data::new(endpoint(None)))?),
        };
        let jobs = crate::jobs::JobsConfig {
            retention_days: cfg.retention_days,
            engine: settings.engine,
            kombo_poll: std::time::Duration::from_secs(cfg.kombo_poll_seconds),
        };
        crate::jobs::start(&svc, &store, limiter, (email_job, email_passes), jobs)?;
        Ok(Application { server, admin, addr, admin_token, demo: demo_out, backend: store.backend() })
    }

    /// The public API's bound address, `host:port` (the real port when `TALENT_LISTEN` asked for 0).
    pub fn addr(&self) -> &str {
        &self.addr
    }

    /// Where `/admin/v1` is served, `host:port`: the `TALENT_ADMIN_LISTEN` listener, else
    /// [`Application::addr`] (T89).
    pub fn admin_addr(&self) -> &str {
        self.admin.as_ref().map(|(_, a)| a.as_str()).unwrap_or(&self.addr)
    }

    /// The admin token in force (`TALENT_ADMIN_TOKEN`, or the one `talent demo` generated).
    pub fn admin_token(&self) -> Option<&str> {
        self.admin_token.as_deref()
    }

    /// What `talent demo` seeded: the organization and a working API key.
    pub fn demo(&self) -> Option<&crate::demo::DemoOutput> {
        self.demo.as_ref()
    }

    /// A handle that stops both listeners.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle { public: self.server.handle(), admin: self.admin.as_ref().map(|(s, _)| s.handle()) }
    }

    /// What the binary prints at start-up (D40): the demo organization and key, the admin token
    /// of `talent demo`, and the bound addresses (the end-to-end harness reads the last ones).
    pub fn banner(&self) -> String {
        let mut out = String::new();
        if let Some(d) = &self.demo {
            out.push_str(&format!("Demo organization: {} ({})\nAPI key: {}\n", d.org_name, d.org_id, d.api_key));
            match &d.sign_in_url {
                Some(url) => out.push_str(&format!(
                    "Dashboard sign-in link (signs in {} once, within 15 minutes): {url}\n",
                    d.admin_email
                )),
                None => out.push_str(&format!(
                    "Dashboard: ask for a sign-in link for {} at {}/sign-in\n",
                    d.admin_email, d.dashboard_url
                )),
            }
            if d.revoked_earlier > 0 {
                out.push_str("(each run prints a new key: the key an earlier run printed is revoked)\n");
            }
            if let Some(t) = &self.admin_token {
                out.push_str(&format!("Admin token: {t}\n"));
            }
        }
        if let Some((_, a)) = &self.admin {
            out.push_str(&format!("Admin API listening on http://{a}\n"));
        }
        out.push_str(&format!("Listening on http://{}\n", self.addr));
        if let Some(d) = &self.demo {
            out.push_str(&format!(
                "Try: curl -H 'Authorization: Bearer {}' http://{}/api/v1/persons\n",
                d.api_key, self.addr
            ));
        }
        out
    }

    /// Serves until stopped (SIGINT/SIGTERM, or a [`StopHandle`]); graceful shutdown waits at
    /// most 30 s for requests in flight.
    pub async fn run_until_stopped(self) -> anyhow::Result<()> {
        match self.admin {
            Some((admin, _)) => {
                tokio::try_join!(self.server, admin).context("serving")?;
            }
            None => self.server.await.context("serving")?,
        }
        Ok(())
    }
}

/// The mailer: SMTP when `TALENT_SMTP_URL` is set (T94), else the recording mailer (D22).
/// The PDF report renderer (D27) with the CJK font collection (T220): `TALENT_REPORT_CJK_FONT`
/// when set (it must load), else Debian's Noto Sans CJK when installed, else none (logged: CJK
/// characters then print as empty boxes).
/// The font's file is checked here and read by the first report with CJK text (T315).
fn report_renderer(cfg: &Config, texts: Arc<dyn talent_domain::ports::Texts>) -> anyhow::Result<PdfReport> {
    let path = match cfg.report_cjk_font.as_deref().filter(|p| !p.is_empty()) {
        Some(path) => path,
        None if std::path::Path::new(talent_report::DEBIAN_NOTO_SANS_CJK).is_file() => {
            talent_report::DEBIAN_NOTO_SANS_CJK
        }
        None => {
            tracing::warn!(
                path = talent_report::DEBIAN_NOTO_SANS_CJK,
                "no CJK font: Chinese, Japanese and Korean text in PDF reports prints as empty boxes \
                 (install fonts-noto-cjk or set TALENT_REPORT_CJK_FONT)"
            );
            return PdfReport::new(texts, None).map_err(|e| anyhow::anyhow!("{e}"));
        }
    };
    PdfReport::with_cjk_file(texts, std::path::Path::new(path))
        .map_err(|e| anyhow::anyhow!("TALENT_REPORT_CJK_FONT: {e}"))
}

fn mailer(cfg: &Config) -> anyhow::Result<Arc<dyn talent_domain::ports::Mailer>> {
    let Some(url) = cfg.smtp_url.as_deref().filter(|u| !u.is_empty()) else {
        return Ok(Arc::new(talent_mailer::RecordingMailer));
    };
    let ca = match cfg.smtp_ca_file.as_deref().filter(|p| !p.is_empty()) {
        Some(path) => Some(std::fs::read(path).with_context(|| format!("reading TALENT_SMTP_CA_FILE {path}"))?),
        None => None,
    };
    Ok(Arc::new(talent_mailer::SmtpMailer::new(url, &cfg.smtp_from, ca.as_deref()).map_err(anyhow::Error::msg)?))
}

/// The rate-limit budgets: in this process (governor), or in Redis shared by every instance
/// (`TALENT_RATE_LIMIT_STORE`, issue 17) with `local` as the fallback.
fn budgets(
    cfg: &Config,
    local: &Arc<GovernorRateLimiter>,
) -> anyhow::Result<Arc<dyn talent_domain::ports::RateLimiter>> {
    let Some(url) = cfg.rate_limit_store.as_deref().filter(|u| !u.is_empty()) else { return Ok(local.clone()) };
    let redis =
        talent_ratelimit::RedisRateLimiter::new(url, cfg.rate_limit_mode, cfg.rate_limit_ip_per_minute, local.clone())
            .map_err(anyhow::Error::msg)?;
    Ok(Arc::new(redis))
}

/// What both listeners serve with: the API's state, the body deadline (T92), the connection
/// settings and the per-address budget of new connections.
struct Http {
    state: web::Data<ApiState<DbStore>>,
    deadline: BodyDeadline,
    /// Whether requests are served in a `tracing` span (T240): only for the log's coloured
    /// terminal format, which does not read the task's request id itself.
    request_spans: bool,
    settings: talent_http::connection::ServerSettings,
    conn_limiter: talent_http::connection::IpBudget,
}

/// The public listener: the API, the dashboard, the ATSs' partner routes, and the admin API unless `split` (with
/// `TALENT_ADMIN_LISTEN` the admin API has a server of its own and this one does not serve it,
/// T89); `/metrics` when `metrics` is set.
fn public_server(
    listener: std::net::TcpListener,
    http: &Http,
    (dashboard, partners): (web::Data<talent_web::Dashboard<DbStore>>, web::Data<talent_connectors::Partners<DbStore>>),
    metrics: Option<web::Data<talent_http::metrics::MetricsEndpoint>>,
    split: bool,
) -> std::io::Result<actix_web::dev::Server> {
    let (state, deadline, spans) = (http.state.clone(), http.deadline, http.request_spans);
    let store = http.state.svc.store.clone();
    // The address's budget of failed requests, spent by the 4xx answers outside the APIs (D8).
    let budget = web::Data::new(talent_http::auth::FailureBudget {
        limiter: http.state.limiter.clone(),
        trusted_proxies: http.state.trusted_proxies.clone(),
    });
    talent_http::connection::server(
        listener,
        move || {
            // Called on each worker thread as it starts: its share of the request pool (T283).
            if let Err(e) = store.adopt_current_thread() {
                tracing::warn!(error = %e, "an HTTP worker uses the shared connection pool");
            }
            let routes =
                if split { talent_http::configure_public::<DbStore> } else { talent_http::configure::<DbStore> };
            let mut app = App::new()
                .app_data(state.clone())
                .app_data(dashboard.clone())
                .app_data(partners.clone())
                .app_data(deadline);
            if let Some(m) = &metrics {
                app = app.app_data(m.clone());
            }
            // The API's routes first: actix-web tries an app's routes in the order they were
            // registered, each try about 170 instructions, and an integration's requests
            // are the many (T300).
            app.app_data(budget.clone())
                .wrap(from_fn(move |req, next| talent_http::observe::observe(req, next, spans)))
                .configure(routes)
                .route("/dashboard", web::get().to(talent_web::to_overview))
                .service(web::scope("/dashboard").configure(talent_web::configure::<DbStore>))
                .service(web::scope("/partners").configure(talent_connectors::configure::<DbStore>))
                .service(web::scope("/r").configure(talent_connectors::report::configure::<DbStore>))
        },
        http.settings,
        http.conn_limiter.clone(),
    )
}

/// The admin listener of `TALENT_ADMIN_LISTEN` (T89): the admin API and `/metrics` without a
/// token, one worker. Returns the server and its bound address.
fn admin_server(
    listener: std::net::TcpListener,
    http: &Http,
    metrics: web::Data<talent_http::metrics::MetricsEndpoint>,
) -> anyhow::Result<(actix_web::dev::Server, String)> {
    let addr = listener.local_addr().map(|a| a.to_string()).unwrap_or_default();
    let (state, deadline, spans) = (http.state.clone(), http.deadline, http.request_spans);
    let server = talent_http::connection::server(
        listener,
        move || {
            App::new()
                .app_data(state.clone())
                .app_data(deadline)
                .app_data(metrics.clone())
                .wrap(from_fn(move |req, next| talent_http::observe::observe(req, next, spans)))
                .configure(talent_http::configure_admin::<DbStore>)
        },
        talent_http::connection::ServerSettings { workers: Some(1), ..http.settings },
        http.conn_limiter.clone(),
    )
    .context("listening on TALENT_ADMIN_LISTEN")?;
    Ok((server, addr))
}

/// A server secret kept in the database (`settings`), made on first start: every instance
/// reads the same one.
async fn server_secret(store: &DbStore, name: &'static str) -> anyhow::Result<String> {
    let fresh = crate::adapters::random_token(32);
    store
        .write(move |tx| Box::pin(async move { tx.setting_get_or_insert(name, &fresh).await }))
        .await
        .with_context(|| format!("reading the {name}"))
}
