//! The dashboard in a real browser: headless Chromium driven through chromedriver (WebDriver).
//!
//! chromedriver comes from `WARD_CHROMEDRIVER` (scripts/test sets it), else `chromedriver` on
//! PATH, and Chromium from `WARD_CHROMIUM`, else `chromium`. Without them the test says it was
//! skipped; under `CI=true` their absence is a failure. Full-page screenshots of the overview,
//! a root, the approvals and the stack runs at 1400 px, at 390 px and in the dark scheme go to
//! `WARD_SCREENSHOTS`, else to `ward-screenshots/` under cargo's target temporary directory.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use ward_store::{Location, Store};

fn find(var: &str, name: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

/// chromedriver, killed when dropped.
struct Driver(Child);
impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The browser's console messages since the last call (chromedriver's log endpoint).
#[derive(Debug)]
struct BrowserLog;
impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/se/log", session_id.unwrap_or("")))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"type": "browser"}).to_string()),
        )
    }
}

/// A Chrome DevTools Protocol command through chromedriver (`goog/cdp/execute`).
#[derive(Debug)]
struct Cdp(&'static str, Value);
impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or("")
        ))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"cmd": self.0, "params": self.1}).to_string()),
        )
    }
}

/// Emulates `prefers-color-scheme` (`light` or `dark`).
async fn color_scheme(c: &Client, scheme: &str) {
    c.issue_cmd(Cdp(
        "Emulation.setEmulatedMedia",
        json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]}),
    ))
    .await
    .unwrap();
}

/// The whole page as PNG (beyond the viewport), written to `dir/name`.
async fn full_page_shot(c: &Client, dir: &Path, name: &str) {
    let v = c
        .issue_cmd(Cdp(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true}),
        ))
        .await
        .unwrap();
    let data = v["data"].as_str().unwrap();
    use base64::Engine;
    let png = base64::engine::general_purpose::STANDARD
        .decode(data)
        .unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

/// Clicks what `css` selects, a link or a form's button, and waits until the browser has left
/// the page it was on and loaded the next: a WebDriver click returns before the navigation it
/// starts, and reading the page at once may find the old page's elements, stale a moment later.
async fn click_and_load(c: &Client, css: &str) {
    let old = c.find(Locator::Css("html")).await.unwrap();
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = matches!(
            old.tag_name().await,
            Err(fantoccini::error::CmdError::Standard(ref e))
                if e.error == fantoccini::error::ErrorStatus::StaleElementReference
        );
        if left {
            let state = c
                .execute("return document.readyState", vec![])
                .await
                .unwrap();
            if state.as_str() == Some("complete") {
                return;
            }
        }
        assert!(
            Instant::now() < deadline,
            "clicking {css} loaded no new page"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The text of every element `css` selects, in page order.
async fn texts(c: &Client, css: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in c.find_all(Locator::Css(css)).await.unwrap() {
        out.push(e.text().await.unwrap());
    }
    out
}

/// The text of the page's `main`.
async fn main_text(c: &Client) -> String {
    texts(c, "main").await.concat()
}

/// Fails when the browser logged a warning or an error since the last call.
async fn no_console_problems(c: &Client, what: &str) {
    let problems = console_problems(c).await;
    assert!(problems.is_empty(), "{what}: console: {problems:?}");
}

/// Console entries at level WARNING or worse.
async fn console_problems(c: &Client) -> Vec<String> {
    let v = c.issue_cmd(BrowserLog).await.unwrap();
    v.as_array()
        .map(|entries| {
            entries
                .iter()
                .filter(|e| matches!(e["level"].as_str(), Some("SEVERE") | Some("WARNING")))
                .map(|e| e["message"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

struct Fixture {
    _dir: tempfile::TempDir,
    store: Store,
    roots: Vec<String>,
    base: String,
}

/// Runs in the fixture history; the server's clock stands at the last one.
const RUNS: usize = 13;

fn start_server() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite");
    let roots = ward_serve::fixture::root_names(6);
    {
        let mut s = Store::open(&db).unwrap();
        ward_serve::fixture::write(&mut s, &roots, RUNS).unwrap();
    }
    let listener = ward_serve::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let location = Location::Sqlite(db.clone());
    let app = ward_serve::App::new(
        Box::new(move || Store::open_location(&location)),
        ward_serve::views::Layers::from_config(Some(&layers())),
        None,
        ward_serve::Hosts::for_listen(addr, &[]),
        ward_time::Clock::Fixed(
            ward_time::parse_timestamp(&ward_serve::fixture::run_time(RUNS - 1)).unwrap(),
        ),
    )
    // fleet/root0005 was last checked in run 4: 8 hours before the clock.
    .stale_after("6h")
    .unwrap();
    std::thread::spawn(move || ward_serve::serve(listener, app));
    Fixture {
        _dir: dir,
        store: Store::open(&db).unwrap(),
        roots,
        base: format!("http://{addr}"),
    }
}

/// Two of the fixture's roots in layers, as a `ward.hcl` would declare them.
fn layers() -> ward_config::Config {
    ward_config::Config::parse(
        "layer \"network\" {\n  level = 0\n}\nlayer \"apps\" {\n  level = 1\n}\n\
         root \"live/net\" {\n  path = \"live/net\"\n  layer = \"network\"\n}\n\
         root \"live/app\" {\n  path = \"live/app\"\n  layer = \"apps\"\n}\n",
        "ward.hcl",
        Path::new("."),
    )
    .unwrap()
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[test]
fn every_page_in_headless_chromium() {
    let (Some(driver), Some(chromium)) = (
        find("WARD_CHROMEDRIVER", "chromedriver"),
        find("WARD_CHROMIUM", "chromium"),
    ) else {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("chromedriver or chromium not found under CI=true: scripts/test installs Debian's chromium and chromium-driver and sets WARD_CHROMEDRIVER and WARD_CHROMIUM");
        }
        eprintln!(
            "skipped: the browser test (no chromedriver or chromium; scripts/test installs them)"
        );
        return;
    };
    let fx = start_server();
    let port = free_port();
    let _driver = Driver(
        Command::new(&driver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", driver.display())),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    let profile = tempfile::tempdir().unwrap();
    let shots = std::env::var_os("WARD_SCREENSHOTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("ward-screenshots"));
    std::fs::create_dir_all(&shots).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_string_lossy(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1400,1000",
                    format!("--user-data-dir={}", profile.path().display()),
                ],
            },
            "goog:loggingPrefs": {"browser": "ALL"},
        });
        let Value::Object(caps) = caps else {
            unreachable!()
        };
        let c = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .unwrap();
        check_pages(&c, &fx, &shots).await;
        check_glance(&c, &fx).await;
        check_layouts(&c, &fx, &shots).await;
        c.close().await.unwrap();
        eprintln!("screenshots in {}", shots.display());
    });
}

async fn check_pages(c: &Client, fx: &Fixture, shots: &Path) {
    // The overview: every root, each name as text.
    c.goto(&format!("{}/", fx.base)).await.unwrap();
    let shown = texts(c, "td.root a").await;
    let mut want = fx.roots.clone();
    want.sort();
    let mut got = shown.clone();
    got.sort();
    assert_eq!(got, want, "the overview shows every root");
    assert!(
        shown.iter().any(|s| s == "<script>alert(1)</script>"),
        "the HTML root name is shown as text: {shown:?}"
    );
    assert!(c.get_alert_text().await.is_err(), "no alert opened");
    let scripts = c
        .execute("return document.scripts.length", vec![])
        .await
        .unwrap();
    assert_eq!(scripts, json!(0), "the page has no script element");
    let headings = texts(c, "section.layer h2").await;
    assert_eq!(
        headings,
        [
            "Layer network level 0",
            "Layer apps level 1",
            "Roots without a layer"
        ],
        "roots are grouped by layer, lowest first"
    );
    no_console_problems(c, "/").await;
    std::fs::write(shots.join("overview.png"), c.screenshot().await.unwrap()).unwrap();

    // Every root's timeline: one point per run.
    for root in &fx.roots {
        c.goto(&format!("{}/root?name={}", fx.base, urlencode(root)))
            .await
            .unwrap();
        let runs = fx.store.root_runs(root, 100).unwrap().len();
        let points = c
            .find_all(Locator::Css("svg.chart circle.point"))
            .await
            .unwrap()
            .len();
        assert_eq!(points, runs, "{root}: one point per run");
        let rows = c.find_all(Locator::Css("tr.run-row")).await.unwrap().len();
        assert_eq!(rows, runs, "{root}");
        let name = c
            .find(Locator::Css(".root-name"))
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(&name, root);
        assert!(c.get_alert_text().await.is_err(), "{root}: no alert");
        no_console_problems(c, root).await;
        if root == "live/app" {
            std::fs::write(shots.join("timeline.png"), c.screenshot().await.unwrap()).unwrap();
        }
    }

    // Open findings: each one, from the store.
    c.goto(&format!("{}/findings", fx.base)).await.unwrap();
    let open = fx.store.open_findings().unwrap();
    assert!(!open.is_empty(), "the fixture has open findings");
    let rows = c.find_all(Locator::Css("tr.finding-row")).await.unwrap();
    assert_eq!(rows.len(), open.len());
    let text = main_text(c).await;
    for f in &open {
        assert!(text.contains(&f.address), "{} missing", f.address);
    }
    no_console_problems(c, "/findings").await;

    // Approvals and gate decisions, imports.
    for (path, rows, want) in [
        ("/approvals", "tr.approval-row", 5),
        ("/approvals", "tr.gate-row", 5),
        ("/imports", "tr.record-row", 6),
    ] {
        c.goto(&format!("{}{path}", fx.base)).await.unwrap();
        let found = c.find_all(Locator::Css(rows)).await.unwrap();
        assert_eq!(found.len(), want, "{path} {rows}");
        no_console_problems(c, path).await;
    }
    c.goto(&format!("{}/approvals", fx.base)).await.unwrap();
    let expired = c
        .find_all(Locator::Css("time.expired"))
        .await
        .unwrap()
        .len();
    assert_eq!(
        expired, 3,
        "approvals that expired on 2026-10-31 are marked expired"
    );
}

/// The severity classes of the overview's rows, section by section.
async fn row_severities(c: &Client) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for section in c.find_all(Locator::Css("section.layer")).await.unwrap() {
        let mut rows = Vec::new();
        for r in section.find_all(Locator::Css("tr.root-row")).await.unwrap() {
            let class = r.attr("class").await.unwrap().unwrap_or_default();
            let sev = class
                .split(' ')
                .find_map(|c| c.strip_prefix("sev-"))
                .unwrap_or("")
                .to_string();
            rows.push(sev);
        }
        out.push(rows);
    }
    out
}

/// What a glance needs: worst first, counts that link to filtered lists, stale roots marked,
/// stack runs one per run with their steps, imports readable.
async fn check_glance(c: &Client, fx: &Fixture) {
    let rank = |s: &str| {
        ["failed", "other", "drift", "ok"]
            .iter()
            .position(|x| *x == s)
    };
    c.goto(&format!("{}/", fx.base)).await.unwrap();
    let sections = row_severities(c).await;
    let all: Vec<&String> = sections.iter().flatten().collect();
    assert!(
        all.iter().any(|s| s.as_str() == "failed") && all.iter().any(|s| s.as_str() == "ok"),
        "the fixture has failed and clean roots: {sections:?}"
    );
    for rows in &sections {
        let ranks: Vec<_> = rows.iter().map(|s| rank(s).unwrap()).collect();
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]),
            "each layer's roots worst first: {rows:?}"
        );
    }

    // The stale root is marked, and only it.
    let stale = c
        .find_all(Locator::Css("tr.is-stale td.root"))
        .await
        .unwrap();
    let mut names = Vec::new();
    for e in stale {
        names.push(e.text().await.unwrap());
    }
    assert_eq!(names, ["fleet/root0005"], "stale roots");
    let marker = c
        .find(Locator::Css("tr.is-stale span.stale"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(marker, "stale · 8h 0m");

    // A count is a link to the list it counts.
    let failed_count = all.iter().filter(|s| s.as_str() == "failed").count();
    click_and_load(c, "span.c-failed a.count-link").await;
    assert!(c
        .current_url()
        .await
        .unwrap()
        .as_str()
        .ends_with("/?status=failed"));
    let filtered = row_severities(c).await;
    let rows: Vec<&String> = filtered.iter().flatten().collect();
    assert_eq!(rows.len(), failed_count, "every failed root, nothing else");
    assert!(rows.iter().all(|s| s.as_str() == "failed"), "{filtered:?}");
    let text = c
        .find(Locator::Css("p.filtered"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        text.contains(&format!("Showing {failed_count} of")),
        "{text}"
    );
    click_and_load(c, "span.c-stale a.count-link").await;
    let rows = c.find_all(Locator::Css("tr.root-row")).await.unwrap();
    assert_eq!(rows.len(), 1, "one stale root");

    // The filter form, server-rendered: a name substring, any case.
    c.goto(&format!("{}/", fx.base)).await.unwrap();
    let input = c
        .find(Locator::Css("form.filter input[name=name]"))
        .await
        .unwrap();
    input.send_keys("LIVE/").await.unwrap();
    click_and_load(c, "form.filter button").await;
    let mut shown = texts(c, "td.root a").await;
    shown.sort();
    assert_eq!(shown, ["live/app", "live/net"]);
    no_console_problems(c, "filter").await;

    // Stack runs: one per run, its root instances in visiting order, nothing raw.
    c.goto(&format!("{}/stacks", fx.base)).await.unwrap();
    let runs = c.find_all(Locator::Css("article.stack-run")).await.unwrap();
    assert_eq!(runs.len(), 3, "one entry per run, not one per record");
    let mut outcomes = Vec::new();
    for e in runs[0]
        .find_all(Locator::Css("tr.step-row td[data-label=outcome] .outcome"))
        .await
        .unwrap()
    {
        outcomes.push(e.text().await.unwrap());
    }
    assert_eq!(
        outcomes,
        [
            "destroyed",
            "approval-required",
            "not-reached",
            "not-reached"
        ],
        "the newest run (the teardown) first, its instances in order"
    );
    let main = main_text(c).await;
    assert!(!main.contains("null"), "no null fields shown: {main}");
    assert!(main.contains("Verified backups"), "{main}");
    assert!(
        main.contains("No end recorded: process 4711 on ci-runner-7"),
        "the killed run names its process: {main}"
    );
    no_console_problems(c, "/stacks").await;

    // Imports: the adopted ids as address and id, not escaped JSON.
    c.goto(&format!("{}/imports", fx.base)).await.unwrap();
    let main = main_text(c).await;
    assert!(!main.contains("{\""), "no JSON object shown raw: {main}");
    let ids = c
        .find_all(Locator::Css("tr.record-row dl.inner dt"))
        .await
        .unwrap();
    let mut addresses = Vec::new();
    for e in ids {
        addresses.push(e.text().await.unwrap());
    }
    assert!(
        addresses.iter().any(|a| a == "fakecloud_instance.web"),
        "{addresses:?}"
    );
}

/// Every page at 390 px has no horizontal overflow; the dark scheme applies; screenshots.
async fn check_layouts(c: &Client, fx: &Fixture, shots: &Path) {
    let pages = [
        ("overview", "/".to_string()),
        ("root", format!("/root?name={}", urlencode("live/app"))),
        ("approvals", "/approvals".to_string()),
        ("stacks", "/stacks".to_string()),
        ("imports", "/imports".to_string()),
        ("findings", "/findings".to_string()),
    ];
    let background = r#"return getComputedStyle(document.body).backgroundColor"#;
    for (width, scheme, suffix) in [
        // (CSS pixels, scheme, file name suffix)
        (1400u32, "light", "1400"),
        (390, "light", "390"),
        (1400, "dark", "dark-1400"),
        (390, "dark", "dark-390"),
    ] {
        // The viewport itself, as a phone's (390 CSS px, overlay scrollbars) or a desktop's.
        c.issue_cmd(Cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 500}),
        ))
        .await
        .unwrap();
        color_scheme(c, scheme).await;
        for (name, path) in &pages {
            c.goto(&format!("{}{path}", fx.base)).await.unwrap();
            let widths = c
                .execute(
                    "const d = document.documentElement; \
                     return [d.scrollWidth, d.clientWidth, window.innerWidth]",
                    vec![],
                )
                .await
                .unwrap();
            let w: Vec<u64> = widths
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            let (scroll, client, inner) = (w[0], w[1], w[2]);
            assert_eq!(
                inner,
                u64::from(width),
                "{name}: the viewport is {width} px"
            );
            assert!(
                scroll <= inner && scroll <= client,
                "{name} at {width} px ({scheme}): the page is {scroll} px wide, the window {inner} ({client} inside)"
            );
            let bg = c.execute(background, vec![]).await.unwrap();
            let want = if scheme == "dark" {
                "rgb(20, 24, 29)"
            } else {
                "rgb(255, 255, 255)"
            };
            assert_eq!(bg, json!(want), "{name}: the {scheme} scheme applies");
            no_console_problems(c, &format!("{name} {suffix}")).await;
            full_page_shot(c, shots, &format!("{name}-{suffix}.png")).await;
        }
    }
    color_scheme(c, "light").await;
    c.issue_cmd(Cdp("Emulation.clearDeviceMetricsOverride", json!({})))
        .await
        .unwrap();
}
