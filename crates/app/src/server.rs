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
use talent_domain::usecases::AssessmentKit;
use talent_domain::values::PlanCatalogue;
use talent_domain::Services;
use talent_http::ApiState;
use talent_ratelimit::{GovernorRateLimiter, Mode};
use talent_report::{PdfReport, TemplatePersonality};
use talent_store::DbStore;

/// Logs one line per request: method, path (never the query string, which can carry personal
/// data), status and duration. Keys, tokens and bodies are never logged.
async fn access_log(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.path().to_string();
    let res = next.call(req).await?;
    tracing::info!(%method, %path, status = res.status().as_u16(), ms = start.elapsed().as_millis() as u64, "request");
    Ok(res)
}

fn init_tracing(filter: &str) {
    let filter =
        tracing_subscriber::EnvFilter::try_new(filter).unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .try_init();
}

/// Connects and migrates. Errors: bad URL, unreachable database, failed migration.
pub async fn open_store(cfg: &Config) -> anyhow::Result<DbStore> {
    let store = DbStore::connect(&cfg.database_url, cfg.db_pool_size.max(1)).context("opening the database")?;
    let n = store.migrate().await.context("applying migrations")?;
    if n > 0 {
        tracing::info!(applied = n, "migrations applied");
    }
    Ok(store)
}

/// Runs a subcommand.
pub async fn run(cli: Cli) -> anyhow::Result<()> {
    let cfg = cli.config;
    init_tracing(&cfg.log);
    let sandbox_flag = switch("TALENT_SANDBOX", &cfg.sandbox)?;
    switch("TALENT_WEBHOOKS_ALLOW_INSECURE", &cfg.webhooks_allow_insecure)?;
    let mode = Mode::from_str(&cfg.rate_limit_mode).map_err(|e| anyhow::anyhow!("TALENT_RATE_LIMIT_MODE: {e}"))?;
    let store = open_store(&cfg).await?;
    if cli.command == Command::Migrate {
        println!("Migrations applied.");
        return Ok(());
    }
    let demo = cli.command == Command::Demo;
    let clock = Arc::new(SystemClock::default());
    let secrets = Arc::new(RingSecrets::default());
    let svc = Services {
        store: Arc::new(store.clone()),
        clock: clock.clone(),
        ids: Arc::new(UuidV7Ids),
        secrets: secrets.clone(),
        plans: PlanCatalogue::default(),
        assessment: Arc::new(AssessmentKit {
            model: AssessmentModel::builtin().context("loading the assessment model")?,
            personality: Arc::new(TemplatePersonality),
            reports: Arc::new(PdfReport),
        }),
    };
    let fresh_secret = secrets.random_token(32);
    let cursor_secret = svc
        .store
        .write(move |tx| Box::pin(async move { tx.setting_get_or_insert("cursor_secret", &fresh_secret).await }))
        .await
        .context("reading the cursor secret")?;
    let admin_token = match (&cfg.admin_token, demo) {
        (Some(t), _) if !t.is_empty() => Some(t.clone()),
        (_, true) => Some(format!("adm_{}", secrets.random_token(24))),
        _ => None,
    };
    let demo_out = if demo { Some(crate::demo::seed(&svc).await?) } else { None };
    let limiter = Arc::new(GovernorRateLimiter::new(mode, talent_ratelimit::DEFAULT_IP_PER_MINUTE));
    let state = web::Data::new(ApiState::new(
        svc.clone(),
        limiter.clone(),
        cursor_secret.as_bytes(),
        admin_token.as_deref(),
        sandbox_flag || demo,
    ));

    let server = HttpServer::new(move || {
        App::new().app_data(state.clone()).wrap(from_fn(access_log)).configure(talent_http::configure::<DbStore>)
    })
    .bind(&cfg.listen)
    .with_context(|| format!("binding {}", cfg.listen))?
    .shutdown_timeout(30);
    let addrs = server.addrs();
    let addr = addrs.first().map(|a| a.to_string()).unwrap_or_else(|| cfg.listen.clone());

    // Background jobs: bounded limiter memory (governor retain_recent) and idempotency retention.
    let lim = limiter.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            lim.retain_recent();
        }
    });
    let svc_bg = svc.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(3600));
        loop {
            tick.tick().await;
            match svc_bg.idempotency_purge().await {
                Ok(n) if n > 0 => tracing::info!(purged = n, "idempotency records purged"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "idempotency purge failed"),
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
    let _ = writeln!(out, "Listening on http://{addr}");
    if let Some(d) = &demo_out {
        let _ = writeln!(out, "Try: curl -H 'Authorization: Bearer {}' http://{addr}/api/v1/persons", d.api_key);
    }
    let _ = out.flush();
    drop(out);
    tracing::info!(%addr, backend = ?store.backend(), "serving");
    server.run().await.context("serving")?;
    tracing::info!("stopped");
    Ok(())
}
