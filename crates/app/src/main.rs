//! The `talent` binary: `talent serve`, `talent migrate`, `talent demo` (D40). `talent --help`
//! documents every setting.

use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = talent_app::config::Cli::parse();
    match talent_app::server::run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("talent: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
