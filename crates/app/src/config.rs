//! Configuration from the command line and environment (D40), validated at load: clap checks
//! each option, [`Config::validate`] what needs parsing or several options (T177).

use clap::{ArgAction, Args, Parser, Subcommand};
use talent_domain::values::{Plan, PlanCatalogue};

/// The `talent` command line (D40).
#[derive(Parser, Debug)]
#[command(
    name = "talent",
    version,
    about = "Talent: the integration API of a talent-assessment platform. ATS and HR systems sync \
             people, send assessment invitations, read results and reports, and receive signed webhooks.",
    long_about = None,
    after_help = "Every option of serve, migrate and demo can be given as an environment variable \
                  (shown in brackets). `talent <command> --help` lists a command's options."
)]
pub struct Cli {
    /// What to run.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The service's settings, for the commands that open the database (serve, migrate, demo).
    pub fn config(&self) -> Option<&Config> {
        match &self.command {
            Command::Serve(c) | Command::Migrate(c) | Command::Demo(c) => Some(c),
            Command::Openapi | Command::Import(_) => None,
        }
    }

    /// [`Cli::config`], owned.
    pub fn into_config(self) -> Option<Config> {
        match self.command {
            Command::Serve(c) | Command::Migrate(c) | Command::Demo(c) => Some(c),
            Command::Openapi | Command::Import(_) => None,
        }
    }
}

/// Subcommands (D40).
#[derive(Subcommand, Debug, Clone)]
pub enum Command {
    /// Apply pending migrations, then serve the API.
    Serve(Config),
    /// Apply pending migrations and exit.
    Migrate(Config),
    /// Serve in sandbox mode; on an empty database create a demo organization (business plan) with
    /// sample persons; print a working API key and the admin token. Local webhook receivers
    /// (http, localhost) are allowed.
    Demo(Config),
    /// Print the OpenAPI 3.1 document of the public API (as served at /api/v1/openapi.json and
    /// committed as docs/openapi.json) and exit.
    Openapi,
    /// Import persons from a CSV file through the public API of a running service, 100 rows a
    /// request, with idempotency keys; prints a summary; running the same file again resumes.
    Import(ImportArgs),
}

/// `TALENT_LOG`: a filter `tracing`'s EnvFilter reads (`info`, `warn,talent=debug`, ...).
fn log_filter(s: &str) -> Result<String, String> {
    tracing_subscriber::EnvFilter::builder()
        .parse(s)
        .map(|_| s.to_string())
        .map_err(|e| format!("TALENT_LOG is not a log filter ({e}); e.g. info, warn or info,talent_http=debug"))
}

/// `talent import`.
// issue 6, T56.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
#[command(long_about = "Imports persons from a CSV file through the public API of a running service.\n\n\
The header is email,firstName,lastName,externalId,labels,tags (any order, only these). labels and \
tags hold several values separated by ';' (by ',' in a ';'-separated file). Rows go 100 a request \
(POST /api/v1/persons/batch), each batch under an idempotency key; a journal next to the file \
(FILE.talent-import) records finished rows, so running the same command again resumes after an \
interruption and retries the failed rows.")]
pub struct ImportArgs {
    /// The CSV file.
    #[arg(long)]
    pub csv: std::path::PathBuf,
    /// Base URL of the service (without /api/v1).
    #[arg(long, env = "TALENT_API_URL", default_value = "http://127.0.0.1:8080")]
    pub api_url: String,
    /// API key with the persons:write scope.
    #[arg(long, env = "TALENT_API_KEY", hide_env_values = true)]
    pub api_key: String,
    /// The cell separator: ',' or ';' (default: ';' when the header has ';' and no ',', else ',').
    /// In a ';'-separated file, labels and tags list their values separated by ','.
    #[arg(long, value_parser = parse_delimiter)]
    pub delimiter: Option<char>,
}

/// `--delimiter`: `,` or `;` (or `\t`, a tab).
fn parse_delimiter(s: &str) -> Result<char, String> {
    match s {
        "," => Ok(','),
        ";" => Ok(';'),
        "\\t" | "\t" => Ok('\t'),
        _ => Err("the delimiter is ',', ';' or '\\t' (a tab)".into()),
    }
}

/// Settings.
// D40.
#[derive(Args, Debug, Clone)]
pub struct Config {
    /// Database: postgres://USER@HOST:PORT/DB or sqlite://PATH (embedded, the default).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://talent.db")]
    pub database_url: String,
    /// Address to listen on (port 0 picks a free port; the bound address is printed).
    #[arg(long, env = "TALENT_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: String,
    /// Base URL of invitation links; default http:// + the listen address.
    #[arg(long, env = "TALENT_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// A font collection with Chinese, Japanese and Korean faces in Noto Sans CJK's order, for
    /// PDF reports with CJK names or texts; default: Debian's fonts-noto-cjk file when present
    /// (without one such characters print as empty boxes). A path that does not load stops the
    /// start-up.
    #[arg(long, env = "TALENT_REPORT_CJK_FONT")]
    pub report_cjk_font: Option<String>,
    /// Bearer token of the admin API /admin/v1, random with at least 128 bits of entropy (e.g.
    /// `openssl rand -hex 32`; a weaker one stops the start-up); unset disables it (demo generates
    /// one).
    #[arg(long, env = "TALENT_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Serve the admin API /admin/v1 only on this address (then not on TALENT_LISTEN), e.g. a
    /// private interface.
    // T89.
    #[arg(long, env = "TALENT_ADMIN_LISTEN")]
    pub admin_listen: Option<String>,
    /// 1: sandbox mode (the admin API may move the service clock).
    #[arg(long, env = "TALENT_SANDBOX", default_value = "0", action = ArgAction::Set, value_parser = switch)]
    pub sandbox: bool,
    /// 1: allow http and local webhook URLs (development and tests).
    // D35.
    #[arg(long, env = "TALENT_WEBHOOKS_ALLOW_INSECURE", default_value = "0", action = ArgAction::Set, value_parser = switch)]
    pub webhooks_allow_insecure: bool,
    /// Rate limits: per-key (a budget per organization and one per API key, the default),
    /// org-only (one budget per organization) or off.
    // D7: per-key is the contract's Set A, org-only its Set B.
    #[arg(long, env = "TALENT_RATE_LIMIT_MODE", default_value = "per-key")]
    pub rate_limit_mode: talent_ratelimit::Mode,
    /// Where the rate-limit budgets live: unset, in this process (governor); `redis://host:port`,
    /// in Redis, shared by every instance using it (a fallback to this process's budgets while
    /// Redis is away).
    #[arg(long, env = "TALENT_RATE_LIMIT_STORE")]
    pub rate_limit_store: Option<String>,
    /// Budget of requests that fail authentication, per client IP address and minute. Failed
    // D8.
    /// admin tokens have a budget of this size of their own.
    #[arg(long, env = "TALENT_RATE_LIMIT_IP_PER_MINUTE", default_value_t = talent_ratelimit::DEFAULT_IP_PER_MINUTE)]
    pub rate_limit_ip_per_minute: u32,
    /// SMTP server for emails (smtp://, smtp://…?tls=required, smtps://; user:password@ for
    /// authentication); unset records emails in the database.
    // D22, T94.
    #[arg(long, env = "TALENT_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Sender of emails sent by SMTP (`Name <address>`).
    // T94.
    #[arg(long, env = "TALENT_SMTP_FROM", default_value = "Talent <no-reply@talent.invalid>")]
    pub smtp_from: String,
    /// A PEM file with a CA certificate the SMTP relay's certificate may chain to, besides the
    /// public roots (a private relay).
    // T94.
    #[arg(long, env = "TALENT_SMTP_CA_FILE")]
    pub smtp_ca_file: Option<String>,
    /// Log filter (tracing EnvFilter syntax), e.g. info or talent=debug; an invalid one is refused.
    #[arg(long, env = "TALENT_LOG", default_value = "info", value_parser = log_filter)]
    pub log: String,
    /// Bearer token of GET /metrics on the public listener (default: the admin token); with
    /// TALENT_ADMIN_LISTEN, /metrics is served on the admin listener without a token instead.
    #[arg(long, env = "TALENT_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// Log format: text (one readable line per event) or json (one JSON object per line, with
    /// stable member names: timestamp, level, message, the event's fields, span.request_id).
    #[arg(long, env = "TALENT_LOG_FORMAT", default_value = "text", value_parser = ["text", "json"])]
    pub log_format: String,
    /// Largest number of database connections for requests; on PostgreSQL divided among the HTTP
    /// workers (one per core), each opening its share [default: 12 on PostgreSQL, 16 on SQLite].
    #[arg(long, env = "TALENT_DB_POOL_SIZE", value_parser = clap::value_parser!(u16).range(1..))]
    pub db_pool_size: Option<u16>,
    /// Tests only, with TALENT_SANDBOX=1: abort the process after a request under an
    /// Idempotency-Key to this path has committed, before it answers.
    // T223: the fault point of the crash tests; hidden from the help.
    #[arg(long, env = "TALENT_TEST_CRASH_AFTER_COMMIT", hide = true)]
    pub test_crash_after_commit: Option<String>,
    /// Reverse proxies (addresses or networks, comma-separated) whose X-Forwarded-For names the
    /// client for the per-address budget; unset: the TCP peer is the client.
    // T98.
    #[arg(long, env = "TALENT_TRUSTED_PROXIES")]
    pub trusted_proxies: Option<String>,
    /// Milliseconds a request's body may take to arrive, from its head.
    // T92.
    #[arg(long, env = "TALENT_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    pub body_timeout_ms: u64,
    /// Open connections per worker (one worker per core); more wait in the listen backlog.
    // T92.
    #[arg(long, env = "TALENT_MAX_CONNECTIONS", default_value_t = 2048)]
    pub max_connections: usize,
    /// Webhook attempts in flight on this instance (0 turns the delivery engine off).
    // issue 10.
    #[arg(long, env = "TALENT_WEBHOOK_CONCURRENCY", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(0..=4096))]
    pub webhook_concurrency: u32,
    /// Webhook attempts in flight per endpoint on this instance.
    #[arg(long, env = "TALENT_WEBHOOK_PER_ENDPOINT", default_value_t = 8)]
    pub webhook_per_endpoint: u32,
    /// Webhook attempts in flight per organization on this instance.
    #[arg(long, env = "TALENT_WEBHOOK_PER_ORG", default_value_t = 16)]
    pub webhook_per_org: u32,
    /// The delivery engine claims due deliveries at least this often, in milliseconds (wake-ups
    /// make it sooner).
    #[arg(long, env = "TALENT_WEBHOOK_POLL_MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub webhook_poll_ms: u64,
    // T63.
    /// How long, in milliseconds, an authenticated key's context is served from memory
    /// (0..=60000, 0 turns the cache off). Changes on this instance, and on PostgreSQL on any
    /// instance, empty it at once; this bounds the staleness otherwise.
    #[arg(long, env = "TALENT_AUTH_CACHE_MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub auth_cache_ms: u64,
    /// The 256-bit key (64 hex digits) that seals webhook signing secrets and the server secrets
    /// at rest. Required with PostgreSQL (every instance needs the same key);
    // issue 12, T84.
    /// with SQLite and none set, one is generated into `{database file}.key` (mode 0600).
    #[arg(long, env = "TALENT_SECRET_KEY", hide_env_values = true)]
    pub secret_key: Option<String>,
    /// The key before a rotation: values it sealed still open, and are sealed again under
    /// `TALENT_SECRET_KEY` at start-up.
    // T84.
    #[arg(long, env = "TALENT_SECRET_KEY_PREVIOUS", hide_env_values = true)]
    pub secret_key_previous: Option<String>,
    /// Deliveries, their attempts and outbox events older than this many days are purged.
    // T61.
    #[arg(long, env = "TALENT_RETENTION_DAYS", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub retention_days: u32,
    /// How often, in seconds, Talent asks each enabled Kombo connection for its open orders.
    // D82.
    #[arg(long, env = "TALENT_KOMBO_POLL_SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub kombo_poll_seconds: u64,
    /// The plan catalogue as JSON, replacing the default plans: an array of {"id", "apiAccess",
    // D5, D7.
    /// "personLimit", "profileLimit", "orgPerMinute", "keyPerMinute", "orgOnlyPerMinute"}.
    #[arg(long, env = "TALENT_PLANS")]
    pub plans: Option<String>,
}

/// One plan of `TALENT_PLANS` (D5: "the catalogue is configuration"; decision T54).
#[derive(serde::Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PlanIn {
    id: String,
    api_access: bool,
    person_limit: u32,
    profile_limit: u32,
    org_per_minute: u32,
    key_per_minute: u32,
    org_only_per_minute: u32,
}

/// The plan catalogue: `TALENT_PLANS` when set, else the defaults of D5 and D7. Errors (at start-up,
/// naming the variable): not JSON of the documented shape, no plans, an empty or repeated id, or a
/// budget of 0 requests per minute.
pub fn plan_catalogue(raw: Option<&str>) -> anyhow::Result<PlanCatalogue> {
    let Some(raw) = raw.filter(|r| !r.trim().is_empty()) else { return Ok(PlanCatalogue::default()) };
    let list: Vec<PlanIn> = serde_json::from_str(raw).map_err(|e| anyhow::anyhow!("TALENT_PLANS: {e}"))?;
    anyhow::ensure!(!list.is_empty(), "TALENT_PLANS: at least one plan is required");
    let mut plans: Vec<Plan> = Vec::with_capacity(list.len());
    for p in list {
        let id = p.id.trim().to_string();
        anyhow::ensure!(!id.is_empty(), "TALENT_PLANS: a plan id must not be empty");
        anyhow::ensure!(!plans.iter().any(|q| q.id == id), "TALENT_PLANS: plan '{id}' appears twice");
        anyhow::ensure!(
            p.org_per_minute > 0 && p.key_per_minute > 0 && p.org_only_per_minute > 0,
            "TALENT_PLANS: plan '{id}': every budget must be at least 1 request per minute"
        );
        plans.push(Plan {
            id,
            api_access: p.api_access,
            person_limit: p.person_limit,
            profile_limit: p.profile_limit,
            org_rpm: p.org_per_minute,
            key_rpm: p.key_per_minute,
            org_only_rpm: p.org_only_per_minute,
        });
    }
    Ok(PlanCatalogue::new(plans))
}

/// What [`Config::validate`] derives from the settings: the values that needed parsing, checked
/// before anything is opened or bound (T177).
#[derive(Debug)]
pub struct Settings {
    /// The delivery engine's limits (`TALENT_WEBHOOK_*`).
    pub engine: talent_webhooks::engine::EngineConfig,
    /// The plan catalogue (`TALENT_PLANS`, else the defaults of D5 and D7).
    pub plans: PlanCatalogue,
    /// `TALENT_TRUSTED_PROXIES` (none: the TCP peer is the client, T98).
    pub trusted_proxies: talent_http::client_ip::TrustedProxies,
}

impl Config {
    /// The request pool's size: `TALENT_DB_POOL_SIZE`, else 12 on PostgreSQL and 16 on SQLite
    /// (T303). On PostgreSQL every pooled connection is a server process, and those runnable at
    /// once under an import load on a database of two cores take CPU from the delivery engine's
    /// own connections (T271, T285); since the engine claims sixteen rounds of its lanes at once
    /// (T303), 12 keeps the deliveries' `createdAt` to arrival p99 near 150 ms while imports run
    /// 15-20 % faster than with 6.
    pub fn pool_size(&self) -> usize {
        match (self.db_pool_size, talent_store::Backend::of_url(&self.database_url)) {
            (Some(n), _) => usize::from(n),
            (None, Some(talent_store::Backend::Postgres)) => 12,
            (None, _) => 16,
        }
    }

    /// Checks what clap cannot check one option at a time and parses the structured settings
    /// (T177); `demo` is `talent demo`, which makes an admin token of its own. Errors, each
    /// naming its setting and never showing a secret: a guessable `TALENT_ADMIN_TOKEN` (D53,
    /// T152), `TALENT_ADMIN_LISTEN` without an admin token, a webhook cap of 0 while the engine is
    /// on, a `TALENT_PLANS` or `TALENT_TRUSTED_PROXIES` that does not parse, a
    /// `TALENT_SECRET_KEY` or `TALENT_SECRET_KEY_PREVIOUS` that is not 64 hex digits.
    pub fn validate(&self, demo: bool) -> anyhow::Result<Settings> {
        let admin_token = self.admin_token.as_deref().filter(|t| !t.is_empty());
        if let Some(t) = admin_token {
            crate::admin_token::check(t).map_err(anyhow::Error::msg)?;
        }
        let admin_listen = self.admin_listen.as_deref().is_some_and(|a| !a.is_empty());
        anyhow::ensure!(
            !admin_listen || admin_token.is_some() || demo,
            "TALENT_ADMIN_LISTEN is set but TALENT_ADMIN_TOKEN is not"
        );
        for (name, key) in
            [("TALENT_SECRET_KEY", &self.secret_key), ("TALENT_SECRET_KEY_PREVIOUS", &self.secret_key_previous)]
        {
            if let Some(k) = key.as_deref().filter(|k| !k.trim().is_empty()) {
                crate::adapters::parse_secret_key(name, k)?;
            }
        }
        anyhow::ensure!(
            self.test_crash_after_commit.is_none() || self.sandbox,
            "TALENT_TEST_CRASH_AFTER_COMMIT is a fault point for tests: it needs TALENT_SANDBOX=1"
        );
        let trusted_proxies = match self.trusted_proxies.as_deref() {
            Some(list) => talent_http::client_ip::TrustedProxies::parse(list).map_err(anyhow::Error::msg)?,
            None => Default::default(),
        };
        Ok(Settings { engine: self.engine()?, plans: plan_catalogue(self.plans.as_deref())?, trusted_proxies })
    }

    /// The delivery engine's limits. Errors (at start-up, naming the variable): a per-endpoint or
    /// per-organization cap of 0 while the engine is on.
    fn engine(&self) -> anyhow::Result<talent_webhooks::engine::EngineConfig> {
        // Ranges (concurrency <= 4096, poll 10 ms..60 s, retention >= 1 day) are clap's.
        let c = self.webhook_concurrency;
        if c > 0 {
            for (name, v) in [
                ("TALENT_WEBHOOK_PER_ENDPOINT", self.webhook_per_endpoint),
                ("TALENT_WEBHOOK_PER_ORG", self.webhook_per_org),
            ] {
                anyhow::ensure!(v >= 1, "{name} must be at least 1");
            }
        }
        Ok(talent_webhooks::engine::EngineConfig {
            concurrency: c,
            per_endpoint: self.webhook_per_endpoint.min(c.max(1)),
            per_org: self.webhook_per_org.min(c.max(1)),
            poll: std::time::Duration::from_millis(self.webhook_poll_ms),
            ..Default::default()
        })
    }
}

/// Parses a `0`/`1` switch (also `true`/`false`, `yes`/`no`, `on`/`off`; empty is off). The
/// error is clap's, naming the option and its variable.
pub fn switch(v: &str) -> Result<bool, String> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        other => Err(format!("must be 0 or 1, not '{other}'")),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod plan_tests {
    use super::*;

    #[test]
    fn settings_out_of_their_range_are_refused_at_start_up_naming_the_option() {
        for (flag, bad, good) in [
            ("--webhook-poll-ms", "9", "10"),
            ("--webhook-poll-ms", "60001", "60000"),
            ("--auth-cache-ms", "60001", "0"),
            ("--webhook-concurrency", "4097", "0"),
            ("--retention-days", "0", "1"),
            ("--sandbox", "maybe", "yes"),
            ("--rate-limit-mode", "fast", "org-only"),
        ] {
            let e = Cli::try_parse_from(["talent", "serve", flag, bad]).unwrap_err().to_string();
            assert!(e.contains(flag), "{flag} {bad}: {e}");
            assert!(Cli::try_parse_from(["talent", "serve", flag, good]).is_ok(), "{flag} {good}");
        }
    }

    /// T271, T285, T303: the request pool is 12 connections on PostgreSQL and 16 on SQLite unless
    /// TALENT_DB_POOL_SIZE says otherwise; 0 is refused naming the option.
    #[test]
    fn the_request_pool_defaults_by_backend_and_takes_the_setting_over_it() {
        let size = |args: &[&str]| {
            let mut argv = vec!["talent", "serve"];
            argv.extend_from_slice(args);
            Cli::try_parse_from(argv).unwrap().into_config().unwrap().pool_size()
        };
        assert_eq!(size(&["--database-url", "postgres://u@h:5432/d"]), 12);
        assert_eq!(size(&["--database-url", "postgresql://u@h/d"]), 12);
        assert_eq!(size(&["--database-url", "sqlite://talent.db"]), 16);
        assert_eq!(size(&["--database-url", "postgres://u@h/d", "--db-pool-size", "24"]), 24);
        assert_eq!(size(&["--database-url", "sqlite://talent.db", "--db-pool-size", "2"]), 2);
        let e = Cli::try_parse_from(["talent", "serve", "--db-pool-size", "0"]).unwrap_err().to_string();
        assert!(e.contains("--db-pool-size"), "{e}");
    }

    #[test]
    fn an_invalid_log_filter_is_refused_naming_the_option() {
        let e = Cli::try_parse_from(["talent", "serve", "--log", "info,=[bad"]).unwrap_err().to_string();
        assert!(e.contains("--log") && e.contains("TALENT_LOG is not a log filter"), "{e}");
        for ok in ["info", "warn,talent_http=debug", "off"] {
            assert!(Cli::try_parse_from(["talent", "serve", "--log", ok]).is_ok(), "{ok}");
        }
    }

    #[test]
    fn help_introduces_the_product_and_import_lists_only_its_own_options() {
        use clap::CommandFactory;
        let mut cmd = Cli::command();
        let help = cmd.render_help().to_string();
        assert!(help.starts_with("Talent: the integration API"), "{help}");
        let import = cmd.find_subcommand_mut("import").unwrap();
        let names: Vec<String> = import.get_arguments().filter_map(|a| a.get_long().map(str::to_string)).collect();
        assert_eq!(names, ["csv", "api-url", "api-key", "delimiter"]);
        let serve = Cli::command();
        let serve = serve.find_subcommand("serve").unwrap();
        assert!(serve.get_arguments().any(|a| a.get_long() == Some("database-url")));
    }

    /// T177: what clap cannot check alone is refused by `validate`, naming the setting, before
    /// anything is opened.
    #[test]
    fn settings_that_do_not_fit_together_are_refused_by_validate_naming_the_setting() {
        let cfg = |args: &[&str]| {
            let mut all = vec!["talent", "serve"];
            all.extend_from_slice(args);
            Cli::try_parse_from(all).unwrap().into_config().unwrap()
        };
        let strong = "adm_Xk29fPq7LmZr84VbTn3WcYh6Js1DgQe5RuKa0wEi";
        for (args, named) in [
            (vec!["--admin-token", "password"], "TALENT_ADMIN_TOKEN"),
            (vec!["--admin-listen", "127.0.0.1:0"], "TALENT_ADMIN_LISTEN"),
            (vec!["--webhook-per-endpoint", "0"], "TALENT_WEBHOOK_PER_ENDPOINT"),
            (vec!["--webhook-per-org", "0"], "TALENT_WEBHOOK_PER_ORG"),
            (vec!["--plans", "[]"], "TALENT_PLANS"),
            (vec!["--trusted-proxies", "10.0.0.0/8,proxy"], "TALENT_TRUSTED_PROXIES"),
            (vec!["--secret-key", "abc"], "TALENT_SECRET_KEY"),
            (vec!["--secret-key-previous", "abc"], "TALENT_SECRET_KEY_PREVIOUS"),
        ] {
            let e = cfg(&args).validate(false).unwrap_err().to_string();
            assert!(e.contains(named), "{args:?}: {e}");
            assert!(!e.contains("password"), "never the token: {e}");
        }
        assert!(cfg(&["--admin-listen", "127.0.0.1:0"]).validate(true).is_ok(), "demo makes its own token");
        assert!(cfg(&["--admin-listen", "127.0.0.1:0", "--admin-token", strong]).validate(false).is_ok());
        assert!(cfg(&["--webhook-concurrency", "0", "--webhook-per-org", "0"]).validate(false).is_ok(), "engine off");
        let s = cfg(&["--trusted-proxies", "10.0.0.0/8, ::1", "--webhook-per-endpoint", "99"]).validate(false).unwrap();
        assert_eq!(s.engine.per_endpoint, 64, "at most the concurrency");
        assert!(s.plans.get("business").is_some());
    }

    #[test]
    fn the_catalogue_defaults_to_d5_and_reads_talent_plans() {
        assert!(plan_catalogue(None).unwrap().get("business").is_some());
        let c = plan_catalogue(Some(
            r#"[{"id":"big","apiAccess":true,"personLimit":9,"profileLimit":2,"orgPerMinute":6000,
                "keyPerMinute":3000,"orgOnlyPerMinute":3000}]"#,
        ))
        .unwrap();
        let big = c.get("big").unwrap();
        assert_eq!((big.person_limit, big.key_rpm), (9, 3000));
        assert!(c.get("business").is_none(), "the list replaces the defaults");
    }

    #[test]
    fn a_bad_catalogue_is_refused_at_start_up() {
        let plan = |id: &str, rpm: u32| {
            format!(
                r#"{{"id":"{id}","apiAccess":true,"personLimit":1,"profileLimit":1,"orgPerMinute":{rpm},"keyPerMinute":1,"orgOnlyPerMinute":1}}"#
            )
        };
        for bad in [
            "nope".to_string(),
            "[]".to_string(),
            format!("[{}]", plan("", 1)),
            format!("[{},{}]", plan("a", 1), plan("a", 1)),
            format!("[{}]", plan("a", 0)),
            r#"[{"id":"a"}]"#.to_string(),
        ] {
            let e = plan_catalogue(Some(&bad)).unwrap_err().to_string();
            assert!(e.starts_with("TALENT_PLANS"), "{bad}: {e}");
        }
    }
}
