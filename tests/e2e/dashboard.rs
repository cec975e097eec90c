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

    /// Saves a screenshot of the page as `target/screenshots/NN-name.png`, after checking that
    /// the page's text names no internal reference (`public_surface`).
    async fn shot(&mut self, name: &str) {
        let text = self.c().find(Locator::Css("body")).await.unwrap().text().await.unwrap();
        let found = crate::public_surface::internal_references(&text);
        assert!(found.is_empty(), "the page {name} shows internal references: {found:?}");
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
pub(crate) fn sign_in_link(app: &TestApp, to: &str) -> String {
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
    assert_eq!(b.text("#delivery-status").await, "Failed");
    b.shot("delivery-failed").await;
    let delivery_url = b.c().current_url().await.unwrap().to_string();
    receiver.recover();
    b.submit("#redeliver").await;
    assert!(wait_for_text(&mut b, &delivery_url, "#delivery-status", "Succeeded").await, "{}", b.source().await);
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
    // The person's side (T217, T218): the invitation page in Japanese and in German, with the
    // accommodations the invitation grants, as the person's browser shows them.
    for (locale, zone, name, button) in
        [("ja", "Asia/Tokyo", "花子", "招待を承諾する"), ("de", "Europe/Berlin", "Greta", "Einladung annehmen")]
    {
        let inv = app.send(
            "POST",
            "/api/v1/invitations",
            &org.key,
            &json!({"email": format!("{locale}.person@example.com"), "firstName": name, "sendEmail": false,
                    "locale": locale, "timeZone": zone, "message": "Acme",
                    "accommodations": {"extraTimePercent": 25, "breaks": true}}),
        );
        assert_eq!(inv.status, 201, "{}", inv.text);
        b.goto(inv.json["url"].as_str().unwrap()).await;
        assert!(b.source().await.contains(button), "{locale}: {}", b.source().await);
        b.shot(&format!("invitation-page-{locale}")).await;
    }
    b.goto(&format!("{base}/settings")).await;
    assert_eq!(b.count("#users tbody tr").await, 2);
    b.fill("#team-name", "Platform").await;
    b.submit("#create-team").await;
    assert_eq!(b.text("#teams tbody tr td:nth-child(2)").await, "0");
    b.shot("settings").await;
    b.goto(&format!("{base}/persons/{ada_id}")).await;
    b.submit("#add-to-team").await;
    assert!(b.source().await.contains("Added to the team."));
    b.goto(&format!("{base}/settings")).await;
    assert_eq!(b.text("#teams tbody tr td:nth-child(2)").await, "1", "the person is in the team");
    b.goto(&format!("{base}/persons/{ada_id}")).await;
    assert_eq!(b.text("#person-teams li").await.trim_end_matches("Remove").trim(), "Platform");
    assert_eq!(b.count("#add-to-team").await, 0, "no team left to join");
    b.shot("person-teams").await;
    b.submit("#person-teams button").await;
    assert!(b.source().await.contains("Removed from the team."));
    assert_eq!(b.count("#no-teams").await, 1);
    b.goto(&format!("{base}/settings")).await;
    assert_eq!(b.text("#teams tbody tr td:nth-child(2)").await, "0", "removed from the team");

    // Settings → ATS connections: connect Greenhouse and copy its key once; an order Greenhouse
    // places with it shows on the connection's page; disabling it refuses Greenhouse's calls.
    b.goto(&format!("{base}/settings")).await;
    b.submit("#open-connections").await;
    b.fill("#name", "Greenhouse").await;
    b.submit("#create-connection").await;
    let gh_key = b.value("#connection-key").await;
    assert!(gh_key.starts_with("tk_"), "{}", b.source().await);
    assert!(b.source().await.contains("/partners/greenhouse/send_test"), "what to give Greenhouse");
    b.shot("connection-created").await;
    let gh_auth = {
        use base64::Engine;
        format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{gh_key}:")))
    };
    let order = json!({"partner_test_id": "talent-assessment",
        "candidate": {"first_name": "Hedy", "email": "hedy@example.com", "greenhouse_profile_url": "https://app.greenhouse.io/people/5"},
        "url": "https://app.greenhouse.io/integrations/testing_partners/take_home_tests/5"})
    .to_string();
    let h = [("Authorization", gh_auth.as_str()), ("Content-Type", "application/json")];
    let sent = app.request("POST", "/partners/greenhouse/send_test", &h, Some(order.as_bytes()));
    assert_eq!(sent.status, 200, "{}", sent.text);
    b.submit("#open-connection").await;
    assert_eq!(b.count("#orders tbody tr[data-status='sent']").await, 1, "{}", b.source().await);
    b.shot("connection").await;
    b.submit("#disable-connection").await;
    assert_eq!(b.text("#connection-state").await, "disabled");
    let refused = app.request("GET", "/partners/greenhouse/list_tests", &h, None);
    assert_eq!(refused.status, 401, "{}", refused.text);

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

// ---------------------------------------------------------------------------------------------
// The dashboard over plain HTTP (both backends): limits, expiry, escaping, hostile input.
// ---------------------------------------------------------------------------------------------

/// A response of [`Http`]: status, headers (lower-case names), body.
pub(crate) struct Page {
    pub(crate) status: u16,
    headers: Vec<(String, String)>,
    pub(crate) text: String,
}

impl Page {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
    /// The value a `Set-Cookie` header gives `name`.
    fn set_cookie(&self, name: &str) -> Option<String> {
        self.headers.iter().filter(|(k, _)| k == "set-cookie").find_map(|(_, v)| {
            v.strip_prefix(&format!("{name}=")).map(|r| r.split(';').next().unwrap_or("").to_string())
        })
    }
    /// The first hidden `csrf` field of the page.
    fn csrf(&self) -> String {
        let at = self.text.find("name=\"csrf\" value=\"").unwrap_or_else(|| panic!("no csrf field: {}", self.text));
        let rest = &self.text[at + 19..];
        rest[..rest.find('"').unwrap()].to_string()
    }
    fn input(&self, name: &str) -> String {
        let pat = format!("name=\"{name}\" value=\"");
        let at = self.text.find(&pat).unwrap_or_else(|| panic!("no {name}: {}", self.text));
        let rest = &self.text[at + pat.len()..];
        rest[..rest.find('"').unwrap()].to_string()
    }
}

/// A browser-like HTTP client of the dashboard without redirects, with the cookies it was given.
pub(crate) struct Http {
    base: String,
    agent: ureq::Agent,
    cookies: Vec<(String, String)>,
}

impl Http {
    pub(crate) fn new(app: &TestApp) -> Http {
        let agent = ureq::Agent::config_builder().max_redirects(0).http_status_as_error(false).build().into();
        Http { base: app.base.clone(), agent, cookies: Vec::new() }
    }

    fn send(&mut self, method: &str, path: &str, body: Option<&[u8]>) -> Page {
        let mut b = ureq::http::Request::builder().method(method).uri(format!("{}{path}", self.base));
        if !self.cookies.is_empty() {
            let c: Vec<String> = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
            b = b.header("Cookie", c.join("; "));
        }
        if body.is_some() {
            b = b.header("Content-Type", "application/x-www-form-urlencoded");
        }
        let req = b.body(body.map(|x| x.to_vec()).unwrap_or_default()).unwrap();
        let mut resp = self.agent.run(req).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let headers: Vec<(String, String)> = resp
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_ascii_lowercase(), v.to_str().unwrap_or("").to_string()))
            .collect();
        let page = Page {
            status: resp.status().as_u16(),
            headers,
            text: resp.body_mut().read_to_string().unwrap_or_default(),
        };
        for name in [talent_web::SESSION_COOKIE, talent_web::PRESESSION_COOKIE, talent_web::MODE_COOKIE] {
            if let Some(v) = page.set_cookie(name) {
                self.cookies.retain(|(k, _)| k != name);
                if !v.is_empty() {
                    self.cookies.push((name.to_string(), v));
                }
            }
        }
        page
    }

    /// The value of a cookie the service set.
    pub(crate) fn cookie(&self, name: &str) -> Option<String> {
        self.cookies.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    pub(crate) fn get(&mut self, path: &str) -> Page {
        self.send("GET", path, None)
    }

    fn post(&mut self, path: &str, form: &str) -> Page {
        self.send("POST", path, Some(form.as_bytes()))
    }

    /// Asks for a sign-in link for `email` on the sign-in page.
    fn ask(&mut self, email: &str) -> Page {
        let form = self.get("/dashboard/sign-in");
        assert_eq!(form.status, 200, "{}", form.text);
        let csrf = form.csrf();
        self.post("/dashboard/sign-in", &format!("csrf={csrf}&email={}", email.replace('@', "%40")))
    }

    /// Signs in as `email` (its first organization) and keeps the session cookie.
    pub(crate) fn sign_in(&mut self, app: &TestApp, email: &str) {
        self.sign_in_to(app, email, None);
    }

    /// Signs in as `email` to organization `org` (default: the first the link's page offers).
    pub(crate) fn sign_in_to(&mut self, app: &TestApp, email: &str, org: Option<&str>) {
        assert_eq!(self.ask(email).status, 200);
        let link = sign_in_link(app, email);
        let path = &link[link.find("/dashboard/").unwrap()..];
        let page = self.get(path);
        assert_eq!(page.status, 200, "{}", page.text);
        let csrf = page.csrf();
        let org = match org {
            Some(o) => {
                assert!(page.text.contains(&format!("name=\"org\" value=\"{o}\"")), "{o} offered: {}", page.text);
                o.to_string()
            }
            None => page.input("org"),
        };
        let done = self.post(path, &format!("csrf={csrf}&org={org}"));
        assert_eq!(done.status, 303, "{}", done.text);
        assert!(self.cookies.iter().any(|(k, _)| k == talent_web::SESSION_COOKIE));
    }

    fn csrf_of(&mut self, path: &str) -> String {
        let p = self.get(path);
        assert_eq!(p.status, 200, "{path}: {}", p.text);
        p.csrf()
    }
}

crate::e2e!(
    /// Issue 18: failed sign-ins (unknown links, unknown addresses) spend the client IP's budget
    /// of failed authentications (D8), then every sign-in page answers 429 with `Retry-After`;
    /// an address may ask for 5 links in 15 minutes.
    dashboard_sign_in_failures_are_limited_per_ip_and_per_address,
    Opts { rate_limit_mode: "per-key", env: vec![("TALENT_RATE_LIMIT_IP_PER_MINUTE", "6".into())], ..Default::default() },
    |app| {
        app.org("business", "active");
        let mut h = Http::new(app);
        for _ in 0..talent_domain::dashboard::LINKS_PER_ADDRESS {
            let p = h.ask("admin@acme.example");
            assert_eq!(p.status, 200, "{}", p.text);
        }
        let over = h.ask("ADMIN@acme.example");
        assert_eq!(over.status, 429, "{}", over.text);
        assert_eq!(over.header("retry-after"), Some("900"));
        assert!(over.text.contains("Too many sign-in links"), "{}", over.text);
        // Unknown links count against the address's budget: 6 per minute, then 429 everywhere.
        let mut refused = None;
        for i in 0..10 {
            let p = h.get(&format!("/dashboard/sign-in/forged-{i}"));
            if p.status == 429 {
                refused = Some((i, p));
                break;
            }
            assert_eq!(p.status, 404, "{}", p.text);
            assert!(p.text.contains("not valid"));
        }
        let (i, p) = refused.expect("the IP budget ends the guessing");
        assert!((5..=7).contains(&i), "refused after {i} failures");
        assert!(p.header("retry-after").is_some_and(|s| s.parse::<u64>().unwrap() >= 1));
        assert_eq!(h.get("/dashboard/sign-in/anything").status, 429, "blocked before any lookup");
        assert_eq!(h.post("/dashboard/sign-in", "csrf=x&email=a%40b.c").status, 429);
    }
);

crate::e2e!(
    /// Issue 18: a link expires after 15 minutes and says so; a session ends after 12 hours
    /// (the sandbox clock, D39); a used link says it was used.
    dashboard_links_expire_and_sessions_end_on_the_clock,
    Opts { sandbox: true, ..Default::default() },
    |app| {
        app.org("business", "active");
        let mut h = Http::new(app);
        h.ask("admin@acme.example");
        let link = sign_in_link(app, "admin@acme.example");
        let path = link[link.find("/dashboard/").unwrap()..].to_string();
        assert_eq!(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 15 * 60}))).status, 200);
        let late = h.get(&path);
        assert_eq!(late.status, 410, "{}", late.text);
        assert!(late.text.contains("Link expired"));
        h.sign_in(app, "admin@acme.example");
        let l = sign_in_link(app, "admin@acme.example");
        let used = h.get(&l[l.find("/dashboard/").unwrap()..]);
        assert_eq!(used.status, 410);
        assert!(used.text.contains("Link already used"));
        assert_eq!(h.get("/dashboard/").status, 200);
        assert_eq!(app.admin("POST", "/admin/v1/clock", Some(&json!({"advanceSeconds": 12 * 3600}))).status, 200);
        let gone = h.get("/dashboard/");
        assert_eq!(gone.status, 303);
        assert_eq!(gone.header("location"), Some("/dashboard/sign-in"));
    }
);

crate::e2e!(
    /// Issue 18: members get 403 on the administrators' pages; nobody signed in is sent to the
    /// sign-in page; pages escape what they show; hostile forms and ids get 4xx pages, never a
    /// 500; cookies are `Secure` behind an https public URL; every page carries the security
    /// headers.
    dashboard_pages_refuse_members_escape_input_and_survive_garbage,
    Opts { env: vec![("TALENT_PUBLIC_URL", "https://talent.example".into())], ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let m = app.admin(
            "POST",
            &format!("/admin/v1/organizations/{}/users", org.id),
            Some(&json!({"email": "member@acme.example", "role": "member"})),
        );
        assert_eq!(m.status, 201);
        let evil = app.import(
            &org.key,
            json!({"email": "evil@acme.example", "firstName": "<script>alert(1)</script>", "tags": ["\"><img src=x onerror=alert(1)>"]}),
        );
        let mut anon = Http::new(app);
        let first = anon.get("/dashboard/sign-in");
        let set = first.headers.iter().find(|(k, v)| k == "set-cookie" && v.starts_with("talent_presession=")).unwrap();
        assert!(set.1.contains("Secure") && set.1.contains("HttpOnly") && set.1.contains("SameSite=Lax"), "{}", set.1);
        for path in ["/dashboard/", "/dashboard/keys", "/dashboard/persons", "/dashboard/settings"] {
            let p = anon.get(path);
            assert_eq!((p.status, p.header("location")), (303, Some("/dashboard/sign-in")), "{path}");
        }
        assert_eq!(anon.get("/dashboard").status, 303);
        let mut member = Http::new(app);
        member.sign_in(app, "member@acme.example");
        for path in ["/dashboard/webhooks", "/dashboard/settings"] {
            let p = member.get(path);
            assert_eq!(p.status, 403, "{path}: {}", p.text);
        }
        let csrf = member.csrf_of("/dashboard/keys");
        assert_eq!(member.post("/dashboard/settings/users", &format!("csrf={csrf}&email=x%40acme.example&role=admin")).status, 403);
        let mut admin = Http::new(app);
        admin.sign_in(app, "admin@acme.example");
        let session = admin.cookies.iter().find(|(k, _)| k == "talent_session").unwrap().1.clone();
        assert!(!session.is_empty());
        // Escaping.
        let list = admin.get("/dashboard/persons?q=evil");
        assert_eq!(list.status, 200);
        assert!(!list.text.contains("<script>alert") && !list.text.contains("<img src=x"), "{}", list.text);
        assert!(list.text.contains("&lt;script&gt;"), "{}", list.text);
        let page = admin.get(&format!("/dashboard/persons/{}", evil["id"].as_str().unwrap()));
        assert_eq!(page.status, 200);
        assert!(!page.text.contains("<script>alert") && !page.text.contains("<img src=x"));
        for (k, v) in [
            ("content-security-policy", "script-src 'self'"),
            ("referrer-policy", "no-referrer"),
            ("x-frame-options", "DENY"),
            ("cache-control", "no-store"),
        ] {
            assert!(page.header(k).is_some_and(|h| h.contains(v)), "{k} on {:?}", page.headers);
        }
        // Garbage: ids, query strings and forms of every kind; a 4xx page, never a 500.
        let csrf = admin.csrf_of("/dashboard/keys");
        let bad_ids = ["not-a-uuid", "00000000-0000-0000-0000-000000000000", "%00", "..%2F..%2Fetc"];
        for id in bad_ids {
            for path in [
                format!("/dashboard/persons/{id}"),
                format!("/dashboard/persons/{id}/report"),
                format!("/dashboard/webhooks/{id}"),
                format!("/dashboard/webhooks/{id}/deliveries/{id}"),
            ] {
                let p = admin.get(&path);
                assert!(p.status == 404 || p.status == 400, "{path}: {} {}", p.status, p.text);
            }
        }
        let forms = [
            "".to_string(),
            format!("csrf={csrf}"),
            format!("csrf={csrf}&scope=nonsense&expires=yesterday"),
            format!("csrf={csrf}&scope=persons%3Aread&expires=1999-01-01"),
            format!("csrf={csrf}&url=ftp%3A%2F%2Fx&event=bogus"),
            format!("csrf={csrf}&url=https%3A%2F%2F10.0.0.1%2Fhook&all=1"),
            format!("csrf={csrf}&email=%FF%FE&role=owner&domains=-bad-.com%0Aexample"),
            format!("csrf={csrf}&name=%0A&team=x"),
            format!("csrf={csrf}&{}", "a=b&".repeat(2000)),
            "%%%&&&===".to_string(),
        ];
        let posts = [
            "/dashboard/keys".to_string(),
            "/dashboard/keys/not-a-uuid/revoke".to_string(),
            "/dashboard/webhooks".to_string(),
            "/dashboard/webhooks/not-a-uuid".to_string(),
            "/dashboard/webhooks/00000000-0000-0000-0000-000000000000/test".to_string(),
            "/dashboard/invitations".to_string(),
            "/dashboard/invitations/x/resend".to_string(),
            "/dashboard/settings/domains".to_string(),
            "/dashboard/settings/teams".to_string(),
            "/dashboard/settings/users".to_string(),
            "/dashboard/settings/users/x/role".to_string(),
            format!("/dashboard/persons/{}/teams", evil["id"].as_str().unwrap()),
            format!("/dashboard/persons/{}/teams/not-a-uuid/remove", evil["id"].as_str().unwrap()),
            "/dashboard/persons/x/teams/00000000-0000-0000-0000-000000000000/remove".to_string(),
        ];
        for path in &posts {
            for f in &forms {
                let p = admin.post(path, f);
                assert!(p.status < 500, "{path} with {}: {} {}", &f[..f.len().min(80)], p.status, p.text);
                assert!(p.status != 200 || !f.is_empty(), "{path} without a token succeeded");
            }
        }
        // Nothing a garbage form asked for happened: the only key is the harness's.
        let keys = admin.get("/dashboard/keys");
        assert_eq!(keys.text.matches("data-prefix=").count(), 1, "{}", keys.text);
        // The session still works; sign-out ends it for good.
        let csrf = admin.csrf_of("/dashboard/");
        assert_eq!(admin.post("/dashboard/sign-out", &format!("csrf={csrf}")).status, 200);
        let mut replay = Http::new(app);
        replay.cookies.push(("talent_session".into(), session));
        assert_eq!(replay.get("/dashboard/keys").status, 303, "the old cookie no longer works");
    }
);

crate::e2e!(
    /// Issue 18: one address that is a user of two organizations chooses one on the link's page;
    /// signed in to one, nothing of the other is reachable by id, by any page or action (404),
    /// and nothing of it changes.
    dashboard_keeps_organizations_apart,
    Opts { insecure_webhooks: true, ..Default::default() },
    |app| {
        let a = app.org("business", "active");
        let b = app.org("business", "active");
        let person = app.import(&a.key, json!({"email": "only.a@acme.example"}));
        let p = person["id"].as_str().unwrap();
        let hook = app.send("POST", "/api/v1/webhooks", &a.key, &json!({"url": "http://127.0.0.1:9/hook", "events": ["*"]}));
        assert_eq!(hook.status, 201, "{}", hook.text);
        let hook = hook.json["id"].as_str().unwrap().to_string();
        let inv = app.send("POST", "/api/v1/invitations", &a.key, &json!({"email": "inv.a@acme.example", "sendEmail": false}));
        assert_eq!(inv.status, 201, "{}", inv.text);
        let inv = inv.json["id"].as_str().unwrap().to_string();
        let team = app.admin("POST", &format!("/admin/v1/organizations/{}/teams", a.id), Some(&json!({"name": "A team"})));
        assert_eq!(team.status, 201, "{}", team.text);
        let team = team.json["id"].as_str().unwrap().to_string();
        let members = format!("/admin/v1/teams/{team}/members");
        assert_eq!(app.admin("POST", &members, Some(&json!({"personId": p}))).status, 200);
        let mut h = Http::new(app);
        h.sign_in_to(app, "admin@acme.example", Some(&b.id));
        assert!(h.get("/dashboard/").text.contains("Acme"));
        let zero = "00000000-0000-0000-0000-000000000000";
        for path in [
            format!("/dashboard/persons/{p}"),
            format!("/dashboard/persons/{p}/report"),
            format!("/dashboard/webhooks/{hook}"),
            format!("/dashboard/webhooks/{hook}/deliveries/{zero}"),
        ] {
            assert_eq!(h.get(&path).status, 404, "{path}");
        }
        let csrf = h.csrf_of("/dashboard/keys");
        for (path, form) in [
            (format!("/dashboard/keys/{}/revoke", a.key_id), String::new()),
            (format!("/dashboard/webhooks/{hook}/test"), String::new()),
            (format!("/dashboard/webhooks/{hook}/rotate"), String::new()),
            (format!("/dashboard/webhooks/{hook}/delete"), String::new()),
            (format!("/dashboard/webhooks/{hook}"), "url=http%3A%2F%2F127.0.0.1%3A9%2Fx&all=1".to_string()),
            (format!("/dashboard/invitations/{inv}/resend"), String::new()),
            (format!("/dashboard/invitations/{inv}/revoke"), String::new()),
            (format!("/dashboard/settings/users/{}/role", a.user_id), "role=member".to_string()),
            (format!("/dashboard/settings/users/{}/remove", a.user_id), String::new()),
            (format!("/dashboard/persons/{p}/teams"), format!("team={zero}")),
            (format!("/dashboard/persons/{p}/teams/{team}/remove"), String::new()),
        ] {
            let r = h.post(&path, &format!("csrf={csrf}&{form}"));
            assert_eq!(r.status, 404, "{path}: {}", r.text);
        }
        let lists = [h.get("/dashboard/persons").text, h.get("/dashboard/invitations").text, h.get("/dashboard/webhooks").text, h.get("/dashboard/keys").text];
        for l in &lists {
            assert!(!l.contains("only.a@acme.example") && !l.contains("inv.a@acme.example") && !l.contains("127.0.0.1:9"));
        }
        assert!(!lists[3].contains(&a.key[3..11]), "organization A's key is not listed");
        // Organization A is untouched.
        assert_eq!(app.get("/api/v1/me", &a.key).status, 200);
        assert_eq!(app.get(&format!("/api/v1/webhooks/{hook}"), &a.key).status, 200);
        assert_eq!(app.get(&format!("/api/v1/invitations/{inv}"), &a.key).json["status"], "pending");
        assert_eq!(app.get(&format!("/api/v1/persons/{p}"), &a.key).status, 200);
        assert_eq!(app.admin("GET", &members, None).json["personIds"], json!([p]), "still in A's team");
    }
);

crate::e2e!(
    /// Spec, Authentication 5 (T123): a key with `webhooks:manage` acts only while its owner is an
    /// administrator. Made a member in the dashboard, its owner's existing key is refused the
    /// webhook endpoints on the very next request (403 `insufficient_scope`) and the events feed
    /// no longer shows it what only that scope reads; its other scopes keep working, and made an
    /// administrator again it manages webhooks again.
    a_demoted_administrators_key_stops_managing_webhooks_at_once,
    Default::default(),
    |app| {
        let org = app.org("business", "active");
        let boss = app.admin(
            "POST",
            &format!("/admin/v1/organizations/{}/users", org.id),
            Some(&json!({"email": "boss@acme.example", "role": "admin"})),
        );
        assert_eq!(boss.status, 201, "{}", boss.text);
        assert_eq!(app.get("/api/v1/webhooks", &org.key).status, 200);
        // A key with only webhooks:manage reads every event type of the feed (D48).
        let (manager, _) = app.key(&org.user_id, &["webhooks:manage"]);
        app.import(&org.key, json!({"email": "feed@acme.example"}));
        let types = |key: &str| -> Vec<String> {
            let feed = app.get("/api/v1/events?limit=100", key);
            assert_eq!(feed.status, 200, "{}", feed.text);
            feed.json["data"].as_array().unwrap().iter().map(|e| e["type"].as_str().unwrap().to_string()).collect()
        };
        assert_eq!(types(&manager), ["person.created"]);
        let mut h = Http::new(app);
        h.sign_in(app, "boss@acme.example");
        let csrf = h.csrf_of("/dashboard/settings");
        let role = format!("/dashboard/settings/users/{}/role", org.user_id);
        let r = h.post(&role, &format!("csrf={csrf}&role=member"));
        assert_eq!((r.status, r.header("location")), (303, Some("/dashboard/settings?done=role")), "{}", r.text);
        let r = app.get("/api/v1/webhooks", &org.key);
        r.assert_error(403, "insufficient_scope");
        assert_eq!(r.json["details"]["requiredScope"], "webhooks:manage");
        // The events feed reads by the scopes that act: the full key still reads person.* by
        // persons:read; the key with only webhooks:manage has no scope left that reads events.
        assert_eq!(types(&org.key), ["person.created"]);
        app.get("/api/v1/events", &manager).assert_error(403, "insufficient_scope");
        let hook = json!({"url": "https://example.com/hook", "events": ["*"]});
        app.send("POST", "/api/v1/webhooks", &org.key, &hook).assert_error(403, "insufficient_scope");
        assert_eq!(app.get("/api/v1/persons", &org.key).status, 200, "the key's other scopes act");
        assert_eq!(app.get("/api/v1/me", &org.key).status, 200);
        let r = h.post(&role, &format!("csrf={csrf}&role=admin"));
        assert_eq!(r.status, 303, "{}", r.text);
        assert_eq!(app.get("/api/v1/webhooks", &org.key).status, 200, "an administrator again");
        assert_eq!(types(&manager), ["person.created"]);
    }
);

crate::e2e!(
    /// D55: a user signs in to the dashboard by either spelling of an internationalized address
    /// (the link goes to the address in ASCII form), and the employee domains set on the settings
    /// page are kept in ASCII form, so the import rule matches either spelling (D15).
    dashboard_sign_in_and_employee_domains_take_either_spelling_of_an_internationalized_domain_d55,
    Opts { sandbox: true, ..Default::default() },
    |app| {
        let org = app.org("business", "active");
        let u = app.admin(
            "POST",
            &format!("/admin/v1/organizations/{}/users", org.id),
            Some(&json!({"email": "chef@xn--mnchen-3ya.example", "role": "admin"})),
        );
        assert_eq!(u.status, 201, "{}", u.text);
        let mut h = Http::new(app);
        let asked = h.ask("Chef@München.example");
        assert_eq!(asked.status, 200, "{}", asked.text);
        assert!(asked.text.contains("chef@xn--mnchen-3ya.example"), "{}", asked.text);
        let link = sign_in_link(app, "chef@xn--mnchen-3ya.example");
        let path = link[link.find("/dashboard/").unwrap()..].to_string();
        let page = h.get(&path);
        assert_eq!(page.status, 200, "{}", page.text);
        let (csrf, choice) = (page.csrf(), page.input("org"));
        assert_eq!(h.post(&path, &format!("csrf={csrf}&org={choice}")).status, 303);

        let csrf = h.csrf_of("/dashboard/settings");
        let done = h.post("/dashboard/settings/domains", &format!("csrf={csrf}&domains=M%C3%BCnchen.example%0Axn--mnchen-3ya.example"));
        assert_eq!(done.status, 303, "{}", done.text);
        let o = app.admin("GET", &format!("/admin/v1/organizations/{}", org.id), None);
        assert_eq!(o.json["employeeDomains"], json!(["xn--mnchen-3ya.example"]), "{}", o.text);
        assert!(h.get("/dashboard/settings").text.contains("xn--mnchen-3ya.example"));
        let p = app.import(&org.key, json!({"email": "ida@münchen.example"}));
        assert_eq!(p["labels"], json!(["candidate", "employee"]), "{p}");

        // T217, T219: what invited persons see; a redirect host in Unicode is kept in ASCII form.
        let csrf = h.csrf_of("/dashboard/settings");
        let form = format!(
            "csrf={csrf}&locale=de&timeZone=europe%2Fberlin&redirectHosts=Karriere.M%C3%BCnchen.example%0Ajobs.example.com"
        );
        let done = h.post("/dashboard/settings/candidates", &form);
        assert_eq!(done.status, 303, "{}", done.text);
        let o = app.admin("GET", &format!("/admin/v1/organizations/{}", org.id), None);
        assert_eq!((&o.json["locale"], &o.json["timeZone"]), (&json!("de"), &json!("Europe/Berlin")), "{}", o.text);
        assert_eq!(o.json["redirectHosts"], json!(["karriere.xn--mnchen-3ya.example", "jobs.example.com"]));
        let bad = h.post("/dashboard/settings/candidates", &format!("csrf={csrf}&locale=de&timeZone=Mars%2FBase"));
        assert_eq!(bad.status, 400, "{}", bad.text);
        assert!(bad.text.contains("Time zone"), "{}", bad.text);
        // The preview of what the invited person reads, in the language chosen for them.
        let csrf = h.csrf_of("/dashboard/invitations");
        let made = h.post("/dashboard/invitations", &format!("csrf={csrf}&email=hanako%40example.jp&locale=ja&expiresInDays=14"));
        assert_eq!(made.status, 200, "{}", made.text);
        assert!(made.text.contains("id=\"preview-of-email\"") && made.text.contains("日本語"), "{}", made.text);
        assert!(made.text.contains("以下のリンクからご回答ください"), "the email in Japanese: {}", made.text);
        assert!(made.text.contains("GMT+1"), "in the organization's time zone (Berlin): {}", made.text);
    }
);

// Settings → ATS connections → a push: a push the ATS refused shows with its attempts (the ATS's
// answer), and is sent again from its page (connectors, D69).
crate::e2e!(
    a_refused_push_shows_its_attempts_and_goes_out_again_from_the_dashboard,
    Opts { insecure_webhooks: true, ..Default::default() },
    |app| {
        let ats = crate::webhooks::Receiver::start();
        ats.answer_json(500, &json!({"success": false, "errors": ["down for maintenance"]}));
        let org = app.org("business", "active");
        let base = ats.url.trim_end_matches("/hook").to_string();
        let c = app.admin(
            "POST",
            &format!("/admin/v1/organizations/{}/connections", org.id),
            Some(&json!({"ats": "ashby", "name": "Ashby", "settings": {"apiKey": "k", "baseUrl": base}})),
        );
        assert_eq!(c.status, 201, "{}", c.text);
        let (key, id) = (c.json["key"].as_str().unwrap().to_string(), c.json["id"].as_str().unwrap().to_string());
        let auth = {
            use base64::Engine;
            format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{key}:")))
        };
        let start = json!({"assessment_type_id": "talent-assessment",
            "candidate": {"ashby_id": "c1", "first_name": "Ada", "email": "ada@example.com", "ashby_profile_url": "https://a.example/c1"},
            "application": {"ashby_id": "a1", "status": "Active"}})
        .to_string();
        let h = [("Authorization", auth.as_str()), ("Content-Type", "application/json")];
        let s = app.request("POST", "/partners/ashby/assessment.start", &h, Some(start.as_bytes()));
        assert_eq!(s.status, 200, "{}", s.text);
        let inv = app.get("/api/v1/invitations?limit=1", &org.key).json["data"][0]["id"].as_str().unwrap().to_string();
        assert_eq!(app.admin("POST", &format!("/admin/v1/invitations/{inv}/accept"), Some(&json!({}))).status, 200);
        ats.wait_for(1);

        let mut web = Http::new(app);
        web.sign_in(app, "admin@acme.example");
        let path = format!("/dashboard/settings/connections/{id}");
        let mut page = web.get(&path);
        assert!(
            crate::support::eventually(std::time::Duration::from_secs(10), || {
                page = web.get(&path);
                page.text.contains("HTTP 500")
            }),
            "{}",
            page.text
        );
        let at = page.text.find(&format!("{path}/pushes/")).expect("a link to the push");
        let link = page.text[at..].split('"').next().unwrap().to_string();
        let detail = web.get(&link);
        assert_eq!(detail.status, 200, "{}", detail.text);
        assert!(
            detail.text.contains("push-attempts") && detail.text.contains("down for maintenance"),
            "{}",
            detail.text
        );
        let csrf = detail.csrf();
        let again = web.post(&format!("{link}/redeliver"), &format!("csrf={csrf}"));
        assert_eq!(again.status, 303, "{}", again.text);
        assert_eq!(ats.wait_for(2)[1].json()["assessment_status"]["value"], "Started");
    }
);

crate::e2e!(
    /// D60: the dashboard makes test keys, says which mode every page is in, and switches the
    /// persons pages between live and test data (never both); the switch returns only to
    /// dashboard pages; a test key is listed as one and revoked like any.
    dashboard_switches_between_live_and_test_data_and_makes_test_keys_d60,
    Default::default(),
    |app| {
        let org = app.org("business", "active");
        let mut h = Http::new(app);
        h.sign_in(app, "admin@acme.example");
        let csrf = h.csrf_of("/dashboard/keys");
        let made = h.post("/dashboard/keys", &format!("csrf={csrf}&name=ci&scope=persons%3Awrite&mode=test"));
        assert_eq!(made.status, 200, "{}", made.text);
        let at = made.text.find("value=\"tk_test_").expect("a test key is shown") + 7;
        let test = made.text[at..at + made.text[at..].find('"').unwrap()].to_string();
        app.import(&org.key, json!({"email": "live-one@example.com"}));
        app.import(&test, json!({"email": "test-one@example.com"}));

        let live_page = h.get("/dashboard/persons");
        assert!(live_page.text.contains("live-one@example.com") && !live_page.text.contains("test-one@example.com"));
        assert!(live_page.text.contains("Live data") && !live_page.text.contains("mode-banner"));
        let keys = h.get("/dashboard/keys");
        assert!(keys.text.contains("<code>tk_test_") && keys.text.contains(">Test</td>"), "{}", keys.text);

        let csrf = h.csrf_of("/dashboard/persons");
        let to_test = h.post("/dashboard/mode", &format!("csrf={csrf}&mode=test&back=%2Fdashboard%2Fpersons"));
        assert_eq!((to_test.status, to_test.header("location")), (303, Some("/dashboard/persons")));
        assert_eq!(h.cookie(talent_web::MODE_COOKIE).as_deref(), Some("test"));
        let test_page = h.get("/dashboard/persons");
        assert!(test_page.text.contains("test-one@example.com") && !test_page.text.contains("live-one@example.com"));
        assert!(test_page.text.contains("id=\"mode-banner\"") && test_page.text.contains("Show live data"));
        let overview = h.get("/dashboard/");
        assert!(overview.text.contains("id=\"persons-used\">1 of"), "{}", overview.text);

        for hostile in ["https%3A%2F%2Fevil.example%2F", "%2F%2Fevil.example", "%2Fdashboard%2F%2Fevil.example", "%2Fapi%2Fv1%2Fme"] {
            let csrf = h.csrf_of("/dashboard/persons");
            let r = h.post("/dashboard/mode", &format!("csrf={csrf}&mode=live&back={hostile}"));
            assert_eq!((r.status, r.header("location")), (303, Some("/dashboard/")), "{hostile}");
        }
        assert_eq!(h.cookie(talent_web::MODE_COOKIE).as_deref(), Some("live"));
        assert!(h.get("/dashboard/persons").text.contains("live-one@example.com"));
        assert_eq!(h.post("/dashboard/mode", "csrf=forged&mode=test").status, 403, "the form's token is checked");

        let keys = h.get("/dashboard/keys");
        let row = keys.text.find("<code>tk_test_").unwrap();
        let form = keys.text[row..].find("action=\"/dashboard/keys/").unwrap() + row + 24;
        let id = keys.text[form..form + 36].to_string();
        let csrf = keys.csrf();
        assert_eq!(h.post(&format!("/dashboard/keys/{id}/revoke"), &format!("csrf={csrf}")).status, 303);
        app.get("/api/v1/me", &test).assert_error(401, "key_revoked");
    }
);
