//! The dashboard in a real browser: headless Chromium driven through chromedriver (WebDriver).
//!
//! chromedriver comes from `WARD_CHROMEDRIVER` (scripts/test sets it), else `chromedriver` on
//! PATH, and Chromium from `WARD_CHROMIUM`, else `chromium`. Without them the test says it was
//! skipped; under `CI=true` their absence is a failure. Screenshots of the overview and of a
//! timeline go to `WARD_SCREENSHOTS` when it is set.
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

fn start_server() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite");
    let roots = ward_serve::fixture::root_names(6);
    {
        let mut s = Store::open(&db).unwrap();
        ward_serve::fixture::write(&mut s, &roots, 12).unwrap();
    }
    let listener = ward_serve::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr: SocketAddr = listener.local_addr().unwrap();
    let location = Location::Sqlite(db.clone());
    let app = ward_serve::App::new(
        Box::new(move || Store::open_location(&location)),
        ward_serve::views::Layers::from_config(Some(&layers())),
        None,
        ward_serve::Hosts::for_listen(addr, &[]),
        ward_time::Clock::Fixed(ward_time::Clock::System.now()),
    );
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
    let shots = std::env::var_os("WARD_SCREENSHOTS").map(PathBuf::from);
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
                    "--window-size=1280,1000",
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
        check_pages(&c, &fx, shots.as_deref()).await;
        c.close().await.unwrap();
    });
}

async fn check_pages(c: &Client, fx: &Fixture, shots: Option<&Path>) {
    // The overview: every root, each name as text.
    c.goto(&format!("{}/", fx.base)).await.unwrap();
    let mut shown = Vec::new();
    for e in c.find_all(Locator::Css("td.root a")).await.unwrap() {
        shown.push(e.text().await.unwrap());
    }
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
    let mut headings = Vec::new();
    for e in c.find_all(Locator::Css("section.layer h2")).await.unwrap() {
        headings.push(e.text().await.unwrap());
    }
    assert_eq!(
        headings,
        [
            "Layer network level 0",
            "Layer apps level 1",
            "Roots without a layer"
        ],
        "roots are grouped by layer, lowest first"
    );
    let problems = console_problems(c).await;
    assert!(problems.is_empty(), "/: console: {problems:?}");
    if let Some(dir) = shots {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("overview.png"), c.screenshot().await.unwrap()).unwrap();
    }

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
        let problems = console_problems(c).await;
        assert!(problems.is_empty(), "{root}: console: {problems:?}");
        if root == "live/app" {
            if let Some(dir) = shots {
                std::fs::write(dir.join("timeline.png"), c.screenshot().await.unwrap()).unwrap();
            }
        }
    }

    // Open findings: each one, from the store.
    c.goto(&format!("{}/findings", fx.base)).await.unwrap();
    let open = fx.store.open_findings().unwrap();
    assert!(!open.is_empty(), "the fixture has open findings");
    let rows = c.find_all(Locator::Css("tr.finding-row")).await.unwrap();
    assert_eq!(rows.len(), open.len());
    let text = c
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for f in &open {
        assert!(text.contains(&f.address), "{} missing", f.address);
    }
    let problems = console_problems(c).await;
    assert!(problems.is_empty(), "/findings: console: {problems:?}");

    // Records: approvals (some expired), stack runs and backups, imports.
    for (path, want) in [("/approvals", 5), ("/stacks", 10), ("/imports", 5)] {
        c.goto(&format!("{}{path}", fx.base)).await.unwrap();
        let rows = c.find_all(Locator::Css("tr.record-row")).await.unwrap();
        assert_eq!(rows.len(), want, "{path}");
        let problems = console_problems(c).await;
        assert!(problems.is_empty(), "{path}: console: {problems:?}");
    }
    c.goto(&format!("{}/approvals", fx.base)).await.unwrap();
    let expired = c
        .find_all(Locator::Css("time.expired"))
        .await
        .unwrap()
        .len();
    assert_eq!(
        expired, 3,
        "approvals that expired on 2026-11-02 are marked expired"
    );
}
