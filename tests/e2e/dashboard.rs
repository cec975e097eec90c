//! The dashboard in a real browser (issue 18): headless Chromium (Debian's `chromium` and
//! `chromium-driver`) driven over WebDriver by fantoccini, against the real `talent` binary with
//! a real webhook receiver on loopback. It walks the issue's flows: sign in by the emailed link;
//! create a key and use it against `/api/v1/me`; revoke it and see 401; a member cannot create a
//! `webhooks:manage` key; register a webhook, send a test that fails, see it in the delivery log,
//! redeliver once the receiver recovers and see it succeed; search persons, open one, download
//! the report; a form posted without its CSRF token is refused; sign out, and the old cookie no
//! longer works. Every page it visits is saved as a screenshot under `target/screenshots/`.
//!
//! Chromium and chromedriver are required: the test fails when they are missing (`.ci/run`
//! installs them), unless `TALENT_SKIP_BROWSER=1` says to skip it.

use crate::support::*;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A loopback webhook receiver that answers 500 ("receiver down") until [`Receiver::recover`],
/// then 200; counts the requests it answered 200.
struct Receiver {
    url: String,
    healthy: Arc<AtomicBool>,
    delivered: Arc<AtomicU32>,
}

impl Receiver {
    fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/talent-hooks", listener.local_addr().unwrap());
        let healthy = Arc::new(AtomicBool::new(false));
        let delivered = Arc::new(AtomicU32::new(0));
        let (h, n) = (healthy.clone(), delivered.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (h, n) = (h.clone(), n.clone());
                std::thread::spawn(move || {
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut len = 0usize;
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        let l = line.trim_end();
                        if l.is_empty() {
                            break;
                        }
                        if let Some((k, v)) = l.split_once(':') {
                            if k.eq_ignore_ascii_case("content-length") {
                                len = v.trim().parse().unwrap_or(0);
                            }
                        }
                    }
                    let mut body = vec![0u8; len];
                    let _ = reader.read_exact(&mut body);
                    let answer: &[u8] = if h.load(Ordering::SeqCst) {
                        n.fetch_add(1, Ordering::SeqCst);
                        b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\nConnection: close\r\n\r\nreceived"
                    } else {
                        b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 13\r\nConnection: close\r\n\r\nreceiver down"
                    };
                    let _ = stream.write_all(answer);
                });
            }
        });
        Receiver { url, healthy, delivered }
    }

    fn recover(&self) {
        self.healthy.store(true, Ordering::SeqCst);
    }
}

/// chromedriver on a free port with a headless Chromium session; both end on drop.
struct Browser {
    driver: Child,
    client: Option<Client>,
    shots: PathBuf,
    downloads: PathBuf,
    n: u32,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Whether Chromium and chromedriver are installed; panics when they are not, unless
/// `TALENT_SKIP_BROWSER=1`.
fn browser_installed() -> bool {
    let found = ["/usr/bin/chromium", "/usr/bin/chromedriver"].iter().all(|p| Path::new(p).exists());
    if !found {
        if std::env::var("TALENT_SKIP_BROWSER").as_deref() == Ok("1") {
            eprintln!("skipped: chromium/chromedriver missing and TALENT_SKIP_BROWSER=1");
            return false;
        }
        panic!("the dashboard's browser tests need Debian's chromium and chromium-driver: apt-get install chromium chromium-driver (or TALENT_SKIP_BROWSER=1)");
    }
    true
}

impl Browser {
    async fn start() -> Browser {
        let port = free_port();
        let driver = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target");
        let shots = target.join("screenshots");
        std::fs::create_dir_all(&shots).unwrap();
        let downloads = std::env::temp_dir().join(format!("talent-downloads-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&downloads).unwrap();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": "/usr/bin/chromium",
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,1000", "--no-first-run", "--disable-extensions"],
                "prefs": {
                    "download.default_directory": downloads.to_string_lossy(),
                    "download.prompt_for_download": false,
                }
            }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector).capabilities(caps.clone()).connect(&url).await {
                Ok(c) => break c,
                Err(e) if start.elapsed() < Duration::from_secs(20) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("connecting to chromedriver: {e}"),
            }
        };
        Browser { driver, client: Some(client), shots, downloads, n: 0 }
    }

    fn c(&self) -> &Client {
        self.client.as_ref().unwrap()
    }

    async fn goto(&mut self, url: &str) {
        self.c().goto(url).await.unwrap_or_else(|e| panic!("goto {url}: {e}"));
    }

    /// Saves a screenshot of the page as `target/screenshots/NN-name.png`.
    async fn shot(&mut self, name: &str) {
        self.n += 1;
        let png = self.c().screenshot().await.unwrap();
        std::fs::write(self.shots.join(format!("{:02}-{name}.png", self.n)), png).unwrap();
    }

    async fn fill(&self, css: &str, text: &str) {
        let e = self.c().find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
        e.clear().await.unwrap();
        e.send_keys(text).await.unwrap();
    }

    /// Clicks something that stays on the page (a checkbox).
    async fn click(&self, css: &str) {
        self.c().find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}")).click().await.unwrap();
    }

    /// Clicks a button or link that loads another page, and waits until that page has loaded (a
    /// mark set on the old document is gone and the new one is complete).
    async fn submit(&self, css: &str) {
        self.c().execute("window.__talentOldPage = true;", vec![]).await.unwrap();
        self.click(css).await;
        let start = Instant::now();
        loop {
            let done = self
                .c()
                .execute("return !window.__talentOldPage && document.readyState === 'complete';", vec![])
                .await
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            if done {
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(20), "no new page after clicking {css}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn text(&self, css: &str) -> String {
        self.c().find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}")).text().await.unwrap()
    }

    async fn value(&self, css: &str) -> String {
        let e = self.c().find(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"));
        e.prop("value").await.unwrap().unwrap_or_default()
    }

    async fn count(&self, css: &str) -> usize {
        self.c().find_all(Locator::Css(css)).await.unwrap().len()
    }

    async fn title(&self) -> String {
        self.text("h1").await
    }

    async fn source(&self) -> String {
        self.c().source().await.unwrap()
    }

    async fn cookie(&self, name: &str) -> Option<String> {
        self.c().get_named_cookie(name).await.ok().map(|c| c.value().to_string())
    }
}

/// The sign-in link of the newest sign-in email to `to`, read through `GET /admin/v1/emails`.
fn sign_in_link(app: &TestApp, to: &str) -> String {
    let r = app.admin("GET", &format!("/admin/v1/emails?to={}", to.replace('@', "%40")), None);
    assert_eq!(r.status, 200, "{}", r.text);
    r.json["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["invitationUrl"].as_str())
        .find(|u| u.contains("/dashboard/sign-in/"))
        .unwrap_or_else(|| panic!("no sign-in email to {to}: {}", r.text))
        .to_string()
}

/// Asks for a link on the sign-in page and follows the emailed one into organization `org_name`.
async fn sign_in(b: &mut Browser, app: &TestApp, email: &str, shoot: bool) -> String {
    b.goto(&format!("{}/dashboard/sign-in", app.base)).await;
    if shoot {
        b.shot("sign-in").await;
    }
    b.fill("#email", email).await;
    b.submit("#send-link").await;
    assert_eq!(b.title().await, "Check your email");
    if shoot {
        b.shot("sign-in-email-sent").await;
    }
    let link = sign_in_link(app, email);
    b.goto(&link).await;
    if shoot {
        b.shot("sign-in-link").await;
    }
    b.submit("button.sign-in-to").await;
    assert_eq!(b.title().await, "Overview", "signed in: {}", b.source().await);
    link
}

async fn wait_for_text(b: &mut Browser, url: &str, css: &str, want: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        b.goto(url).await;
        if b.text(css).await == want {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    false
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

#[test]
fn the_dashboard_walks_the_issue_18_flows_in_a_real_browser() {
    if !browser_installed() {
        return;
    }
    let opts = Opts { process: true, sandbox: true, insecure_webhooks: true, ..Default::default() };
    let app = spawn(Backend::Sqlite, opts).unwrap();
    runtime().block_on(walk(&app));
}

async fn walk(app: &TestApp) {
    let org = app.org("business", "active");
    let m = app.admin(
        "POST",
        &format!("/admin/v1/organizations/{}/users", org.id),
        Some(&json!({"email": "member@acme.example", "role": "member"})),
    );
    assert_eq!(m.status, 201, "{}", m.text);
    let ada = app.import(
        &org.key,
        json!({"email": "ada@acme.example", "firstName": "Ada", "lastName": "Lovelace", "tags": ["engineering"]}),
    );
    app.import(&org.key, json!({"email": "alan@acme.example", "firstName": "Alan", "lastName": "Turing"}));
    app.import(&org.key, json!({"email": "grace@acme.example", "firstName": "Grace", "lastName": "Hopper"}));
    let ada_id = ada["id"].as_str().unwrap();
    let done = app.admin(
        "POST",
        &format!("/admin/v1/persons/{ada_id}/assessments"),
        Some(&json!({"complete": true, "seed": 7})),
    );
    assert!(done.status == 200 || done.status == 201, "{}", done.text);
    let receiver = Receiver::start();
    let base = format!("{}/dashboard", app.base);
    let mut b = Browser::start().await;

    // Sign in by the emailed link (the administrator).
    let admin_link = sign_in(&mut b, app, "admin@acme.example", true).await;
    b.shot("overview").await;
    assert!(b.text("#persons-used").await.starts_with("3 of "), "{}", b.source().await);

    // Create a key, use it against /api/v1/me, revoke it, see 401.
    b.goto(&format!("{base}/keys")).await;
    b.shot("keys").await;
    b.fill("#name", "ats-sync").await;
    b.click("#scope-persons-read").await;
    b.submit("#create-key").await;
    let key = b.value("#new-key").await;
    assert!(key.starts_with("tk_"), "{key}");
    b.shot("key-created").await;
    let me = app.get("/api/v1/me", &key);
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json["scopes"], json!(["persons:read"]), "{}", me.text);
    let prefix = &key[3..19];
    b.submit(&format!("tr[data-prefix^='{}'] button", &prefix[..8])).await;
    assert!(b.source().await.contains("The key is revoked"));
    b.shot("key-revoked").await;
    app.get("/api/v1/me", &key).assert_error(401, "key_revoked");

    // A webhook to a local receiver: the test ping fails, shows in the log, and a redelivery
    // after the receiver recovers succeeds.
    b.goto(&format!("{base}/webhooks")).await;
    b.fill("#url", &receiver.url).await;
    b.submit("#create-endpoint").await;
    assert!(b.value("#signing-secret").await.starts_with("whsec_"));
    b.shot("webhook-created").await;
    b.submit("#open-endpoint").await;
    b.submit("#send-test").await;
    assert_eq!(b.text("#ping-status").await, "HTTP 500");
    assert!(b.text("#ping-result").await.contains("receiver down"));
    b.shot("webhook-test-failed").await;
    let endpoint_url = b.c().current_url().await.unwrap().to_string();
    let endpoint_url = endpoint_url.split('?').next().unwrap().trim_end_matches("/test").to_string();
    b.goto(&format!("{endpoint_url}?status=failed&type=ping")).await;
    assert_eq!(b.count("#deliveries tbody tr[data-status='failed']").await, 1, "{}", b.source().await);
    b.shot("delivery-log").await;
    b.goto(&format!("{endpoint_url}?type=person.created")).await;
    assert_eq!(b.count("#no-deliveries").await, 1, "the event-type filter");
    b.goto(&format!("{endpoint_url}?status=failed")).await;
    b.submit("#deliveries tbody tr a").await;
    assert_eq!(b.text("#delivery-status").await, "failed");
    b.shot("delivery-failed").await;
    let delivery_url = b.c().current_url().await.unwrap().to_string();
    receiver.recover();
    b.submit("#redeliver").await;
    assert!(wait_for_text(&mut b, &delivery_url, "#delivery-status", "succeeded").await, "{}", b.source().await);
    assert_eq!(b.count("#attempts tbody tr").await, 2, "the failed attempt and the successful one");
    assert!(receiver.delivered.load(Ordering::SeqCst) >= 1);
    b.shot("delivery-succeeded").await;

    // Search persons, open one, download the report.
    b.goto(&format!("{base}/persons")).await;
    b.fill("#q", "lovelace").await;
    b.submit("#search").await;
    assert_eq!(b.count("#persons tbody tr").await, 1, "{}", b.source().await);
    b.shot("persons-search").await;
    b.submit("#persons tbody tr a").await;
    assert_eq!(b.text("#person-email").await, "ada@acme.example");
    b.shot("person").await;
    b.click("#report").await;
    let pdf = eventually_file(&b.downloads).unwrap_or_else(|| panic!("no report downloaded into {:?}", b.downloads));
    assert!(pdf.starts_with(b"%PDF"), "the download is a PDF");

    // The other pages, for the screenshots and that they answer.
    b.goto(&format!("{base}/invitations")).await;
    b.fill("#email", "new.hire@example.com").await;
    b.click("input[name='sendEmail']").await;
    b.submit("#create-invitation").await;
    assert!(b.value("#invitation-link").await.contains("/i/"), "the link to copy");
    b.shot("invitations").await;
    b.goto(&format!("{base}/settings")).await;
    assert_eq!(b.count("#users tbody tr").await, 2);
    b.shot("settings").await;

    // A form posted without its CSRF token is refused, in the browser and outside it.
    b.goto(&format!("{base}/keys")).await;
    let keys_before = b.count("#keys tbody tr").await;
    b.c()
        .execute("document.querySelector(\"form[action='/dashboard/keys'] input[name=csrf]\").remove()", vec![])
        .await
        .unwrap();
    b.click("#scope-persons-read").await;
    b.submit("#create-key").await;
    assert_eq!(b.title().await, "Form expired");
    b.shot("csrf-refused").await;
    b.goto(&format!("{base}/keys")).await;
    assert_eq!(b.count("#keys tbody tr").await, keys_before, "nothing was created");
    let session = b.cookie("talent_session").await.expect("the session cookie");
    let cookie = format!("talent_session={session}");
    let forged = app.post_form("/dashboard/keys", "scope=persons%3Aread&csrf=00", &[("Cookie", &cookie)]);
    assert_eq!(forged.status, 403, "{}", forged.text);

    // Sign out: the old cookie no longer works; the used link neither.
    b.submit("#sign-out").await;
    assert_eq!(b.title().await, "Signed out");
    let after = app.request("GET", "/dashboard/keys", &[("Cookie", &cookie)], None);
    assert!(after.text.contains("id=\"send-link\""), "the old cookie leads to the sign-in page: {}", after.text);
    b.goto(&format!("{base}/")).await;
    assert_eq!(b.title().await, "Sign in");
    b.goto(&admin_link).await;
    assert_eq!(b.title().await, "Link already used");
    b.shot("link-used").await;

    // A member cannot create a webhooks:manage key, nor open the webhooks.
    sign_in(&mut b, app, "member@acme.example", false).await;
    b.goto(&format!("{base}/keys")).await;
    b.click("#scope-webhooks-manage").await;
    b.submit("#create-key").await;
    assert!(b.source().await.contains("requires an administrator"), "{}", b.source().await);
    assert_eq!(b.count("#new-key").await, 0);
    b.shot("member-refused").await;
    b.goto(&format!("{base}/webhooks")).await;
    assert_eq!(b.title().await, "Not allowed");
    let c = b.client.take().unwrap();
    c.close().await.unwrap();
}

/// The first file of `dir` once it is completely written (Chromium writes `*.crdownload` first).
fn eventually_file(dir: &Path) -> Option<Vec<u8>> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "pdf") {
                    if let Ok(bytes) = std::fs::read(&p) {
                        if !bytes.is_empty() {
                            return Some(bytes);
                        }
                    }
                }
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}
