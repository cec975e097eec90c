//! Configuration from the command line and environment (D40), validated at load.

use clap::{Args, Parser, Subcommand};

/// Talent: the integration API of the talent-assessment platform.
///
/// Every option can be given as an environment variable (shown in brackets).
#[derive(Parser, Debug)]
#[command(name = "talent", version, about, long_about = None)]
pub struct Cli {
    /// What to run.
    #[command(subcommand)]
    pub command: Command,
    /// Settings shared by all subcommands.
    #[command(flatten)]
    pub config: Config,
}

/// Subcommands (D40).
#[derive(Subcommand, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Apply pending migrations, then serve the API.
    Serve,
    /// Apply pending migrations and exit.
    Migrate,
    /// Serve in sandbox mode; on an empty database create a demo organization (business plan) with
    /// sample persons; print a working API key and the admin token.
    Demo,
}

/// Settings (D40).
#[derive(Args, Debug, Clone)]
pub struct Config {
    /// Database: postgres://USER@HOST:PORT/DB or sqlite://PATH (embedded, the default).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://talent.db", global = true)]
    pub database_url: String,
    /// Address to listen on (port 0 picks a free port; the bound address is printed).
    #[arg(long, env = "TALENT_LISTEN", default_value = "127.0.0.1:8080", global = true)]
    pub listen: String,
    /// Base URL of invitation links; default http:// + the listen address.
    #[arg(long, env = "TALENT_PUBLIC_URL", global = true)]
    pub public_url: Option<String>,
    /// Bearer token of the admin API /admin/v1; unset disables it (demo generates one).
    #[arg(long, env = "TALENT_ADMIN_TOKEN", global = true, hide_env_values = true)]
    pub admin_token: Option<String>,
    /// 1: sandbox mode (the admin API may move the service clock).
    #[arg(long, env = "TALENT_SANDBOX", default_value = "0", global = true)]
    pub sandbox: String,
    /// 1: allow http and local webhook URLs (development and tests, D35).
    #[arg(long, env = "TALENT_WEBHOOKS_ALLOW_INSECURE", default_value = "0", global = true)]
    pub webhooks_allow_insecure: String,
    /// Rate limits: per-key (Set A, default), org-only (Set B) or off (D7).
    #[arg(long, env = "TALENT_RATE_LIMIT_MODE", default_value = "per-key", global = true)]
    pub rate_limit_mode: String,
    /// SMTP server for emails; unset records emails in the database (D22).
    #[arg(long, env = "TALENT_SMTP_URL", global = true, hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Log filter (tracing EnvFilter syntax), e.g. info or talent=debug.
    #[arg(long, env = "TALENT_LOG", default_value = "info", global = true)]
    pub log: String,
    /// Largest number of database connections.
    #[arg(long, env = "TALENT_DB_POOL_SIZE", default_value_t = 16, global = true)]
    pub db_pool_size: usize,
}

/// Parses a `0`/`1` (also `true`/`false`) switch. Errors name the variable.
pub fn switch(name: &str, v: &str) -> anyhow::Result<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        other => anyhow::bail!("{name} must be 0 or 1, not '{other}'"),
    }
}
