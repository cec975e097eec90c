//! End-to-end harness: starts the service on a free port against a fresh database (SQLite file,
//! or a new PostgreSQL database when `TEST_DATABASE_URL` is set) and drives it over real HTTP with
//! ureq. The service is built in this process by `Application::build`, exactly as the binary
//! builds it (issue 14 point 7); tests of signals, crashes and the log spawn the real `talent`
//! binary instead ([`Opts::process`]).
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use talent_store::testing::TestDb;

/// Which database the binary runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Start-up options, one struct for every test; write only what differs:
/// `Opts { sandbox: true, ..Default::default() }`.
#[derive(Clone, Debug)]
pub struct Opts {
    /// `TALENT_RATE_LIMIT_MODE` (default `off`).
    pub rate_limit_mode: &'static str,
    /// `TALENT_SANDBOX=1` (the admin API may move the clock, D39).
    pub sandbox: bool,
    /// `TALENT_SMTP_URL` (D22, D40).
    pub smtp_url: Option<String>,
    /// `TALENT_WEBHOOKS_ALLOW_INSECURE=1` (D35): webhook receivers on loopback.
    pub insecure_webhooks: bool,
    /// `TALENT_LOG=info` with the service's log (stderr) kept in a file: [`TestApp::log_text`].
    pub keep_log: bool,
    /// PostgreSQL: the server to create the test database on instead of `TEST_DATABASE_URL`'s
    /// (a [`PgCluster`] of the test's own).
    pub pg_admin_url: Option<String>,
    /// `TALENT_ADMIN_LISTEN=127.0.0.1:0`: the admin API on a listener of its own (T89).
    pub admin_listen: bool,
    /// Any further environment variables, set last (they override the harness's defaults).
    pub env: Vec<(&'static str, String)>,
    /// Spawn the `talent` binary instead of building the service in this process: for tests of
    /// signals ([`TestApp::terminate`]) and of the log ([`Opts::keep_log`] implies it).
    pub process: bool,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            rate_limit_mode: "off",
            sandbox: false,
            smtp_url: None,
            insecure_webhooks: false,
            keep_log: false,
            pg_admin_url: None,
            admin_listen: false,
            env: Vec::new(),
            process: false,
        }
    }
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap())
}

/// A running `talent serve`; killed and its database dropped on drop.
pub struct TestApp {
    pub base: String,
    /// Where the admin API is served: `base`, or the `TALENT_ADMIN_LISTEN` listener
    /// ([`Extra::admin_listen`]).
    pub admin_base: String,
    pub admin_token: String,
    pub backend: Backend,
    running: Running,
    db: Option<TestDb>,
    agent: ureq::Agent,
    _dir: Option<std::path::PathBuf>,
    /// The file the service logs to ([`Opts::keep_log`]).
    log: Option<std::path::PathBuf>,
}

/// How the service under test runs.
enum Running {
    /// The `talent` binary ([`Opts::process`]).
    Process(Child),
    /// `Application::build` on a runtime of its own, on a thread of its own; stopping the server
    /// ends the thread, and dropping the runtime ends the background jobs.
    InProcess { stop: talent_app::server::StopHandle, thread: Option<std::thread::JoinHandle<()>> },
}

/// A response: status, headers (lower-case names) and the body parsed as JSON (Null if empty or
/// not JSON; the raw text is kept too).
#[derive(Debug, Clone)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub json: Value,
    pub text: String,
}

impl Resp {
    pub fn header(&self, name: &str) -> Option<&str> {
        let n = name.to_ascii_lowercase();
        self.headers.iter().find(|(k, _)| *k == n).map(|(_, v)| v.as_str())
    }
    /// The error code of an error envelope.
    pub fn code(&self) -> &str {
        self.json["code"].as_str().unwrap_or("")
    }
    /// Asserts the flat error envelope (spec, Errors): `error`, `code`, optional `details`, nothing else.
    pub fn assert_error(&self, status: u16, code: &str) {
        assert_eq!(self.status, status, "status of {}", self.text);
        assert_eq!(self.code(), code, "code of {}", self.text);
        let obj = self.json.as_object().expect("error body is an object");
        assert!(obj["error"].as_str().is_some_and(|s| !s.is_empty()), "error message in {}", self.text);
        for k in obj.keys() {
            assert!(["error", "code", "details"].contains(&k.as_str()), "unexpected field {k} in {}", self.text);
        }
    }
}

/// Starts the service on `backend` with `opts`; `None` when the backend is PostgreSQL and
/// `TEST_DATABASE_URL` is unset.
pub fn spawn(backend: Backend, opts: Opts) -> Option<TestApp> {
    let extra = &opts;
    let (db, dir) = match backend {
        Backend::Sqlite => {
            let dir = std::env::temp_dir().join(format!("talent-e2e-{}", uuid::Uuid::new_v4().simple()));
            std::fs::create_dir_all(&dir).unwrap();
            (TestDb::sqlite(&dir), Some(dir))
        }
        Backend::Postgres => {
            let admin = match extra.pg_admin_url.clone().map(Ok).unwrap_or_else(|| std::env::var("TEST_DATABASE_URL")) {
                Ok(u) if !u.is_empty() => u,
                _ => {
                    eprintln!("skipped: TEST_DATABASE_URL unset");
                    return None;
                }
            };
            (runtime().block_on(TestDb::postgres_migrated(&admin)).expect("create test database"), None)
        }
    };
    // 244 random bits: the service refuses an admin token under 128 (D53).
    let admin_token = format!("adm_test_{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    // The service's settings as the binary reads them from its environment (D40).
    let mut env: Vec<(&str, String)> = vec![
        ("DATABASE_URL", db.url.clone()),
        ("TALENT_LISTEN", "127.0.0.1:0".into()),
        ("TALENT_ADMIN_TOKEN", admin_token.clone()),
        ("TALENT_RATE_LIMIT_MODE", opts.rate_limit_mode.into()),
        ("TALENT_DB_POOL_SIZE", "4".into()),
    ];
    // PostgreSQL needs the key (T84); SQLite runs generate their key file, as the demo does.
    if backend == Backend::Postgres {
        env.push(("TALENT_SECRET_KEY", "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2".into()));
    }
    if extra.sandbox {
        env.push(("TALENT_SANDBOX", "1".into()));
    }
    if let Some(url) = &extra.smtp_url {
        env.push(("TALENT_SMTP_URL", url.clone()));
    }
    if extra.insecure_webhooks {
        env.push(("TALENT_WEBHOOKS_ALLOW_INSECURE", "1".into()));
    }
    if extra.admin_listen {
        env.push(("TALENT_ADMIN_LISTEN", "127.0.0.1:0".into()));
    }
    // Last: the test's own variables win over the defaults above.
    for (name, value) in &extra.env {
        env.retain(|(n, _)| n != name);
        env.push((name, value.clone()));
    }
    let log =
        extra.keep_log.then(|| std::env::temp_dir().join(format!("talent-e2e-{}.log", uuid::Uuid::new_v4().simple())));
    let (base, admin_base, running) =
        if extra.process || log.is_some() { start_process(&env, log.as_deref()) } else { start_in_process(&env) };
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(60)))
        .build()
        .into();
    Some(TestApp { base, admin_base, admin_token, backend, running, db: Some(db), agent, _dir: dir, log })
}

/// Builds the service in this process from `env` (the binary's variables, mapped to its
/// command-line options), on a thread and runtime of its own.
fn start_in_process(env: &[(&str, String)]) -> (String, String, Running) {
    use clap::{CommandFactory, Parser};
    init_test_log();
    let command = talent_app::config::Cli::command();
    let command = command.find_subcommand("serve").expect("talent serve");
    let mut args = vec!["talent".to_string(), "serve".to_string()];
    for (name, value) in env {
        let arg = command
            .get_arguments()
            .find(|a| a.get_env().is_some_and(|e| e == std::ffi::OsStr::new(name)))
            .unwrap_or_else(|| panic!("no option reads {name}"));
        let long = arg.get_long().unwrap_or_else(|| panic!("{name} has no long option"));
        args.push(format!("--{long}={value}"));
    }
    let cli = talent_app::config::Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        rt.block_on(async move {
            let cfg = cli.into_config().expect("serve has settings");
            match talent_app::server::Application::build(cfg, false).await {
                Ok(app) => {
                    let _ = tx.send(Ok((app.addr().to_string(), app.admin_addr().to_string(), app.stop_handle())));
                    let _ = app.run_until_stopped().await;
                }
                Err(e) => {
                    let _ = tx.send(Err(format!("{e:#}")));
                }
            }
        });
        rt.shutdown_timeout(Duration::from_secs(5));
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(Ok((addr, admin, stop))) => {
            (format!("http://{addr}"), format!("http://{admin}"), Running::InProcess { stop, thread: Some(thread) })
        }
        Ok(Err(e)) => panic!("talent did not start: {e}"),
        Err(_) => panic!("talent did not start within 60 s"),
    }
}

/// The service's log in this process: `TALENT_TEST_LOG` (default `warn`) to the test's output.
fn init_test_log() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        let level = std::env::var("TALENT_TEST_LOG").unwrap_or_else(|_| "warn".into());
        let _ = tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(level))
            .with_test_writer()
            .try_init();
    });
}

/// Spawns `talent serve` with `env`; its log goes to `log` when given (at `info`), else to the
/// test's stderr at `TALENT_TEST_LOG` (default `warn`).
fn start_process(env: &[(&str, String)], log: Option<&std::path::Path>) -> (String, String, Running) {
    let log_level = std::env::var("TALENT_TEST_LOG").unwrap_or_else(|_| "warn".into());
    let stderr = match log {
        Some(path) => Stdio::from(std::fs::File::create(path).expect("create the log file")),
        None => Stdio::inherit(),
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_talent"))
        .arg("serve")
        .env("TALENT_LOG", if log.is_some() { "info".to_string() } else { log_level })
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("start talent");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (mut sent, mut admin) = (false, None);
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(addr) = line.strip_prefix("Admin API listening on ") {
                admin = Some(addr.trim().to_string());
            }
            if !sent {
                if let Some(addr) = line.strip_prefix("Listening on ") {
                    let addr = addr.trim().to_string();
                    let _ = tx.send((addr.clone(), admin.clone().unwrap_or(addr)));
                    sent = true;
                }
            }
        }
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok((base, admin_base)) => (base, admin_base, Running::Process(child)),
        Err(_) => {
            let _ = child.kill();
            panic!("talent did not start within 60 s");
        }
    }
}

impl TestApp {
    /// The service's log so far, once it holds `until` (waits up to 10 s for the log's writer
    /// threads). Panics unless started with [`Opts::keep_log`].
    pub fn log_text(&self, until: &str) -> String {
        let path = self.log.as_ref().expect("started with Opts { keep_log: true }");
        let start = Instant::now();
        loop {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            if text.contains(until) || start.elapsed() > Duration::from_secs(10) {
                return text;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM and waits (at most 40 s) for the process to exit; returns its exit status.
    /// Panics unless started with [`Opts::process`].
    pub fn terminate(&mut self) -> Option<std::process::ExitStatus> {
        let Running::Process(child) = &mut self.running else { panic!("started with Opts {{ process: true }}") };
        let pid = child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(40) {
            if let Ok(Some(st)) = child.try_wait() {
                return Some(st);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        match &mut self.running {
            Running::Process(child) => {
                let _ = child.kill();
                let _ = child.wait();
            }
            Running::InProcess { stop, thread } => {
                runtime().block_on(stop.stop(false));
                if let Some(t) = thread.take() {
                    let _ = t.join();
                }
            }
        }
        if let Some(db) = self.db.take() {
            let _ = runtime().block_on(db.drop_db());
        }
        if let Some(d) = &self._dir {
            let _ = std::fs::remove_dir_all(d);
        }
        if let Some(l) = &self.log {
            let _ = std::fs::remove_file(l);
        }
    }
}

/// An organization made through the admin API, with an admin user and a key of every scope.
#[derive(Debug, Clone)]
pub struct Org {
    pub id: String,
    pub user_id: String,
    pub key: String,
    pub key_id: String,
}

pub const ALL_SCOPES: [&str; 8] = [
    "organization:read",
    "persons:read",
    "persons:write",
    "invitations:read",
    "invitations:write",
    "results:read",
    "profiles:read",
    "webhooks:manage",
];

impl TestApp {
    /// Any request. `headers` are added as given; `body` is sent raw.
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&[u8]>) -> Resp {
        self.request_to(&self.base, method, path, headers, body)
    }

    /// [`TestApp::request`] to another listener of the service (`base` = `http://host:port`).
    pub fn request_to(
        &self,
        base: &str,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Resp {
        let url = format!("{base}{path}");
        let mut b = ureq::http::Request::builder().method(method).uri(&url);
        for (k, v) in headers {
            b = b.header(*k, *v);
        }
        let req = b.body(body.map(|x| x.to_vec()).unwrap_or_default()).unwrap();
        let mut resp = self.agent.run(req).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = resp.status().as_u16();
        let headers = resp
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_ascii_lowercase(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let text = resp.body_mut().read_to_string().unwrap_or_default();
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Resp { status, headers, json, text }
    }

    /// GET with a bearer key.
    pub fn get(&self, path: &str, key: &str) -> Resp {
        self.request("GET", path, &[("Authorization", &format!("Bearer {key}"))], None)
    }

    /// A JSON request with a bearer key.
    pub fn send(&self, method: &str, path: &str, key: &str, body: &Value) -> Resp {
        let b = body.to_string();
        self.request(
            method,
            path,
            &[("Authorization", &format!("Bearer {key}")), ("Content-Type", "application/json")],
            Some(b.as_bytes()),
        )
    }

    /// A JSON request with a bearer key and extra headers.
    pub fn send_with(&self, method: &str, path: &str, key: &str, body: &Value, extra: &[(&str, &str)]) -> Resp {
        let b = body.to_string();
        let auth = format!("Bearer {key}");
        let mut h: Vec<(&str, &str)> = vec![("Authorization", &auth), ("Content-Type", "application/json")];
        h.extend_from_slice(extra);
        self.request(method, path, &h, Some(b.as_bytes()))
    }

    /// DELETE with a bearer key.
    pub fn delete(&self, path: &str, key: &str) -> Resp {
        self.request("DELETE", path, &[("Authorization", &format!("Bearer {key}"))], None)
    }

    /// An admin API request (D39).
    pub fn admin(&self, method: &str, path: &str, body: Option<&Value>) -> Resp {
        let auth = format!("Bearer {}", self.admin_token);
        match body {
            Some(b) => {
                let s = b.to_string();
                self.request_to(
                    &self.admin_base,
                    method,
                    path,
                    &[("Authorization", &auth), ("Content-Type", "application/json")],
                    Some(s.as_bytes()),
                )
            }
            None => self.request_to(&self.admin_base, method, path, &[("Authorization", &auth)], None),
        }
    }

    /// Creates an organization (plan, subscription status) with an admin user and a key of every
    /// scope.
    pub fn org(&self, plan: &str, status: &str) -> Org {
        self.org_with(
            json!({"companyName": "Acme", "email": "hr@acme.example", "plan": plan, "subscriptionStatus": status}),
        )
    }

    /// Creates an organization from an admin body, with an admin user and a key of every scope.
    pub fn org_with(&self, body: Value) -> Org {
        let o = self.admin("POST", "/admin/v1/organizations", Some(&body));
        assert_eq!(o.status, 201, "{}", o.text);
        let id = o.json["id"].as_str().unwrap().to_string();
        let u = self.admin(
            "POST",
            &format!("/admin/v1/organizations/{id}/users"),
            Some(&json!({"email": "admin@acme.example", "role": "admin"})),
        );
        assert_eq!(u.status, 201, "{}", u.text);
        let user_id = u.json["id"].as_str().unwrap().to_string();
        let (key, key_id) = self.key(&user_id, &ALL_SCOPES);
        Org { id, user_id, key, key_id }
    }

    /// Creates a key for a user; returns (value, id).
    pub fn key(&self, user_id: &str, scopes: &[&str]) -> (String, String) {
        let k = self.admin("POST", &format!("/admin/v1/users/{user_id}/api-keys"), Some(&json!({"scopes": scopes})));
        assert_eq!(k.status, 201, "{}", k.text);
        (k.json["key"].as_str().unwrap().to_string(), k.json["id"].as_str().unwrap().to_string())
    }

    /// Imports a person; asserts 200/201; returns the body.
    pub fn import(&self, key: &str, body: Value) -> Value {
        let r = self.send("POST", "/api/v1/persons", key, &body);
        assert!(r.status == 201 || r.status == 200, "{}", r.text);
        r.json
    }
}

/// Waits until `f` is true or `timeout` passes.
pub fn eventually(timeout: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    false
}

/// Declares a test body `fn name(app: &TestApp)` once and runs it on both backends.
#[macro_export]
macro_rules! e2e {
    ($(#[$m:meta])* $name:ident, $opts:expr, |$app:ident| $body:block) => {
        mod $name {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use $crate::support::*;
            fn run($app: &TestApp) $body
            #[test]
            $(#[$m])*
            fn sqlite() {
                if let Some(app) = spawn(Backend::Sqlite, $opts) {
                    run(&app);
                }
            }
            #[test]
            $(#[$m])*
            fn postgres() {
                if let Some(app) = spawn(Backend::Postgres, $opts) {
                    run(&app);
                }
            }
        }
    };
}

impl TestApp {
    /// The database's URL (`postgres://…` or `sqlite://…`), to look at what it stores.
    pub fn db_url(&self) -> String {
        self.db.as_ref().map(|d| d.url.clone()).unwrap_or_default()
    }

    /// `POST {path}` with a form body, as a browser posts the person page; `headers` are added.
    pub fn post_form(&self, path: &str, form: &str, headers: &[(&str, &str)]) -> Resp {
        let mut h = vec![("Content-Type", "application/x-www-form-urlencoded")];
        h.extend_from_slice(headers);
        self.request("POST", path, &h, Some(form.as_bytes()))
    }

    /// The one-time code of the newest code email to `to` (D43), read through
    /// `GET /admin/v1/emails` as the sandbox allows.
    pub fn consent_code(&self, to: &str) -> String {
        let r = self.admin("GET", &format!("/admin/v1/emails?to={}", to.replace('@', "%40").replace('+', "%2B")), None);
        assert_eq!(r.status, 200, "{}", r.text);
        let mails = r.json["data"].as_array().unwrap();
        let mail = mails
            .iter()
            .find(|m| m["subject"].as_str().is_some_and(|s| s.contains("confirmation code")))
            .unwrap_or_else(|| panic!("no code email to {to}: {}", r.text));
        let body = mail["body"].as_str().unwrap();
        let line = body.lines().find(|l| l.starts_with("    ")).unwrap_or_else(|| panic!("no code in {body}"));
        let code: String = line.chars().filter(|c| c.is_ascii_digit()).collect();
        assert_eq!(code.len(), 6, "{body}");
        code
    }

    /// The emails to `to` (`GET /admin/v1/emails`, newest first) once every one of them is sent
    /// (`sentAt` set): the email job sends them after the request that queued them has answered.
    /// Polls for up to 10 s, then panics with what it saw.
    pub fn sent_emails(&self, to: &str) -> Vec<Value> {
        let path = format!("/admin/v1/emails?to={}", to.replace('@', "%40").replace('+', "%2B"));
        let mut seen = Vec::new();
        let sent = eventually(Duration::from_secs(10), || {
            seen = self.admin("GET", &path, None).json["data"].as_array().cloned().unwrap_or_default();
            !seen.is_empty() && seen.iter().all(|m| m["sentAt"].is_string())
        });
        assert!(sent, "the emails to {to} were not all sent within 10 s: {seen:?}");
        seen
    }
}

pub use talent_store::testing::PgCluster;
