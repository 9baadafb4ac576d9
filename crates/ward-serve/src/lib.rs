//! `ward serve`: a read-only dashboard and a versioned JSON API over ward's history store.
//!
//! - Listens on 127.0.0.1 by default. Another address only with `--allow-remote`, and
//!   `--allow-remote` only with a token (`WARD_SERVE_TOKEN` or `--token-file`, never on the
//!   command line), whatever the address: requests must carry it as `Authorization: Bearer TOKEN`,
//!   or as the password of HTTP Basic authentication (browsers ask for it). It is compared in
//!   constant time, its length included (SHA-256 of both sides, compared with `subtle`). The
//!   alternative is to keep ward on 127.0.0.1 and put the team's own authenticating reverse
//!   proxy in front of it.
//! - Nothing writes: every method but GET and HEAD is refused (405) before routing, and the
//!   handlers only read the store.
//! - Whatever the flags, a request whose `Host` is not one the server answers to ([`Hosts`]:
//!   loopback names, IP addresses when it listens beyond loopback, and the names given with
//!   `--host`) is refused (421), so a web page elsewhere cannot reach the dashboard through DNS
//!   rebinding.
//! - Bounded ([`Limits`]): a client has 10 s to send a request's headers, a connection lives at
//!   most 2 minutes, and at most 64 are served at once, so half-open connections cannot lock the
//!   other clients out. `/healthz` answers `ok` without the token (it shows nothing); an unknown
//!   path under `/api/` answers JSON.
//! - Every response carries a Content-Security-Policy that allows no script, only ward's own
//!   stylesheet and images; the pages have no script.
//!
//! Pages: `/[?status=S&stale=1&name=PART&page=N&per_page=M]` (overview, worst first, filtered,
//! a page of roots at a time), `/root?name=ROOT[&runs=N]`
//! (timeline), `/findings`, `/approvals[?root=ROOT]`, `/stacks`, `/imports`. API: `/api/v1`
//! (index), `/api/v1/overview` (the same filters), `/api/v1/root?name=ROOT`, `/api/v1/findings`,
//! `/api/v1/approvals[?root=ROOT]`, `/api/v1/stacks`, `/api/v1/records?kind=KIND` (schema:
//! `docs/dashboard.schema.json`).

#[cfg(any(test, feature = "fixture"))]
pub mod fixture;
pub mod views;

use axum::body::Body;
use axum::extract::{Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use base64::Engine;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use views::Layers;
use ward_report::dashboard::{self, Page};
use ward_store::{Store, StoreError, KINDS};

/// The shortest token `ward serve` accepts.
pub const MIN_TOKEN_LEN: usize = 16;

/// Why `ward serve` could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A non-loopback address without `--allow-remote`.
    #[error("refusing to listen on {addr}: it is not a loopback address, and the dashboard shows every root's drift and approvals to whoever can reach it; pass --allow-remote (with a token: WARD_SERVE_TOKEN or --token-file) or keep the default 127.0.0.1 and put your own authenticating proxy in front of it")]
    NotLoopback {
        /// The address asked for.
        addr: SocketAddr,
    },
    /// `--allow-remote` without a token.
    #[error("--allow-remote needs a token: set WARD_SERVE_TOKEN or pass --token-file FILE (at least {MIN_TOKEN_LEN} characters; never on the command line)")]
    NoToken,
    /// A token too short to be one.
    #[error("the token is {len} characters long; use at least {MIN_TOKEN_LEN} (e.g. `openssl rand -hex 32`)")]
    ShortToken {
        /// Its length.
        len: usize,
    },
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}; pick another port with --listen")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The error.
        source: std::io::Error,
    },
    /// The server failed.
    #[error("ward serve: {0}")]
    Io(#[from] std::io::Error),
}

/// Checks where `ward serve` may listen: loopback always; anything else only when
/// `allow_remote` and with a token.
pub fn check_listen(
    addr: SocketAddr,
    allow_remote: bool,
    token: Option<&str>,
) -> Result<(), ServeError> {
    if let Some(t) = token {
        if t.chars().count() < MIN_TOKEN_LEN {
            return Err(ServeError::ShortToken {
                len: t.chars().count(),
            });
        }
    }
    if allow_remote && token.is_none() {
        return Err(ServeError::NoToken);
    }
    if addr.ip().is_loopback() || allow_remote {
        return Ok(());
    }
    Err(ServeError::NotLoopback { addr })
}

/// The `Host` names a request may give: loopback names (`localhost`, `127.0.0.1`, `[::1]`) always;
/// when the server listens beyond loopback, any IP address (a browser that typed an address is
/// not being rebound); and the names given with `--host` (the name behind a proxy). DNS rebinding
/// needs a name the attacker controls, which is none of these.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hosts {
    names: Vec<String>,
    ip_literals: bool,
}

impl Hosts {
    /// The hosts a server listening on `listen` answers to, with the extra `names`.
    pub fn for_listen(listen: SocketAddr, names: &[String]) -> Hosts {
        Hosts {
            names: names.iter().map(|n| n.to_ascii_lowercase()).collect(),
            ip_literals: !listen.ip().is_loopback(),
        }
    }

    /// Whether the request's one `Host` header names an allowed host (with any port).
    fn allows(&self, headers: &HeaderMap) -> bool {
        // Exactly one: with two, a proxy and ward could each read a different one.
        let mut all = headers.get_all(header::HOST).iter();
        let (Some(host), None) = (all.next(), all.next()) else {
            return false;
        };
        let Ok(host) = host.to_str() else {
            return false;
        };
        let name = if let Some(rest) = host.strip_prefix('[') {
            rest.split(']').next().unwrap_or("")
        } else {
            host.rsplit_once(':').map_or(host, |(h, _)| h)
        };
        let ip = name.parse::<IpAddr>().ok();
        name.eq_ignore_ascii_case("localhost")
            || ip.is_some_and(|ip| ip.is_loopback() || self.ip_literals)
            || self.names.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// The refusal's text: which hosts are answered.
    fn describe(&self) -> String {
        let mut s = String::from("127.0.0.1, localhost and [::1]");
        if self.ip_literals {
            s.push_str(", IP addresses");
        }
        for n in &self.names {
            s.push_str(", ");
            s.push_str(n);
        }
        s.push_str(" only (name another host with --host NAME)");
        s
    }
}

/// How long a client may take and how many are served at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// To send a request's headers, from the connection's start or the previous response.
    pub header_read: Duration,
    /// The longest a connection lives, whatever it does.
    pub connection: Duration,
    /// Connections served at once; more wait to be accepted.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_read: Duration::from_secs(10),
            connection: Duration::from_secs(120),
            max_connections: 64,
        }
    }
}

/// Binds `addr` (after [`check_listen`]).
pub fn bind(addr: SocketAddr) -> Result<TcpListener, ServeError> {
    TcpListener::bind(addr).map_err(|source| ServeError::Bind { addr, source })
}

/// Opens the store; called again after a failure (a restarted database server).
pub type Opener = Box<dyn Fn() -> Result<Store, StoreError> + Send + Sync>;

/// What the server holds.
pub struct App {
    opener: Opener,
    store: Mutex<Option<Store>>,
    layers: Layers,
    token: Option<String>,
    hosts: Hosts,
    clock: ward_time::Clock,
    stale_after: String,
}

impl App {
    /// A server over the store `opener` opens, labelling roots with `layers`; `token` required
    /// on every request when set; every request's `Host` must be one of `hosts`.
    pub fn new(
        opener: Opener,
        layers: Layers,
        token: Option<String>,
        hosts: Hosts,
        clock: ward_time::Clock,
    ) -> App {
        App {
            opener,
            store: Mutex::new(None),
            layers,
            token,
            hosts,
            clock,
            stale_after: views::DEFAULT_STALE_AFTER.to_string(),
        }
    }

    /// Marks a root stale when its newest run is older than `after` (`2d`, `36h`; default
    /// [`views::DEFAULT_STALE_AFTER`]); an unreadable duration is an error saying how to write one.
    pub fn stale_after(mut self, after: &str) -> Result<App, String> {
        views::Staleness::new(self.clock.now(), after)?;
        self.stale_after = after.trim().to_string();
        Ok(self)
    }

    /// Staleness now, by the server's clock.
    fn staleness(&self) -> Result<views::Staleness, StoreError> {
        views::Staleness::new(self.clock.now(), &self.stale_after).map_err(StoreError::Record)
    }

    /// Runs `f` on the store, opening it when needed; after an error the store is reopened on
    /// the next request.
    fn with_store<T>(&self, f: impl FnOnce(&Store) -> Result<T, StoreError>) -> Result<T, String> {
        let mut guard = self
            .store
            .lock()
            .map_err(|_| "the history store is unusable after an earlier failure".to_string())?;
        if guard.is_none() {
            *guard = Some((self.opener)().map_err(|e| e.to_string())?);
        }
        let Some(store) = guard.as_ref() else {
            return Err("the history store could not be opened".into());
        };
        match f(store) {
            Ok(v) => Ok(v),
            Err(e) => {
                *guard = None;
                Err(e.to_string())
            }
        }
    }
}

/// Serves `app` on `listener` until the process ends, within the default [`Limits`].
pub fn serve(listener: TcpListener, app: App) -> Result<(), ServeError> {
    serve_with(listener, app, Limits::default())
}

/// Serves `app` on `listener` until the process ends: each connection on its own task under the
/// header-read timeout and the connection lifetime, at most `limits.max_connections` at once.
pub fn serve_with(listener: TcpListener, app: App, limits: Limits) -> Result<(), ServeError> {
    listener.set_nonblocking(true)?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let routes = router(Arc::new(app));
        let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
        loop {
            let permit = slots
                .clone()
                .acquire_owned()
                .await
                .map_err(std::io::Error::other)?;
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                // A client that went away before it was accepted, or no file descriptor left
                // for a moment: neither ends the server.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            };
            let service = hyper_util::service::TowerToHyperService::new(routes.clone());
            tokio::spawn(async move {
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(limits.header_read)
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
                let _ = tokio::time::timeout(limits.connection, connection).await;
                drop(permit);
            });
        }
    })
}

/// The routes, behind the guard.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(overview_page))
        .route("/root", get(timeline_page))
        .route("/findings", get(findings_page))
        .route("/approvals", get(approvals_page))
        .route("/stacks", get(stacks_page))
        .route("/imports", get(|s, q| records_page(s, q, "/imports")))
        .route("/static/ward.css", get(css))
        .route("/static/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .route("/healthz", get(healthz))
        .route("/api/v1", get(api_index))
        .route("/api/v1/overview", get(api_overview))
        .route("/api/v1/root", get(api_timeline))
        .route("/api/v1/findings", get(api_findings))
        .route("/api/v1/records", get(api_records))
        .route("/api/v1/stacks", get(api_stacks))
        .route("/api/v1/approvals", get(api_approvals))
        .fallback(not_found)
        .layer(axum::middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

type Params = Query<HashMap<String, String>>;

const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Refuses writes, foreign hosts and missing tokens; adds the security headers.
async fn guard(State(app): State<Arc<App>>, req: Request, next: Next) -> Response {
    let mut resp = if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = error_page(
            StatusCode::METHOD_NOT_ALLOWED,
            "ward serve is read-only: only GET and HEAD are answered",
        );
        r.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        r
    } else if !app.hosts.allows(req.headers()) {
        error_for(
            req.uri().path(),
            StatusCode::MISDIRECTED_REQUEST,
            &format!(
                "this dashboard answers requests for {}",
                app.hosts.describe()
            ),
        )
    } else if req.uri().path() != "/healthz"
        && app
            .token
            .as_deref()
            .is_some_and(|t| !authorized(req.headers(), t))
    {
        let mut r = error_for(
            req.uri().path(),
            StatusCode::UNAUTHORIZED,
            "a token is required: send it as `Authorization: Bearer TOKEN`, or as the password when the browser asks",
        );
        r.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Basic realm=\"ward\", charset=\"UTF-8\""),
        );
        r
    } else {
        next.run(req).await
    };
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

/// Whether the request carries `token` (Bearer, or Basic with it as the password).
fn authorized(headers: &HeaderMap, token: &str) -> bool {
    let Some(value) = headers
        .get(header::AUTHORIZATION)
        .and_then(|h| h.to_str().ok())
    else {
        return false;
    };
    if let Some(t) = value.strip_prefix("Bearer ") {
        return same(t.trim().as_bytes(), token.as_bytes());
    }
    if let Some(b) = value.strip_prefix("Basic ") {
        let Ok(raw) = base64::engine::general_purpose::STANDARD.decode(b.trim()) else {
            return false;
        };
        let password = match raw.iter().position(|c| *c == b':') {
            Some(i) => &raw[i + 1..],
            None => &raw[..],
        };
        return same(password, token.as_bytes());
    }
    false
}

/// Compares in constant time, lengths included: the SHA-256 digests of both sides, compared
/// with `subtle` (a shorter or longer guess takes the same time as a wrong one).
fn same(a: &[u8], b: &[u8]) -> bool {
    use sha2::Digest;
    use subtle::ConstantTimeEq;
    let (x, y) = (sha2::Sha256::digest(a), sha2::Sha256::digest(b));
    x.as_slice().ct_eq(y.as_slice()).into()
}

/// An error answered as JSON under `/api/`, as a page elsewhere.
fn error_for(path: &str, status: StatusCode, message: &str) -> Response {
    if path == "/api" || path.starts_with("/api/") {
        json_error(status, message)
    } else {
        error_page(status, message)
    }
}

fn html(status: StatusCode, body: String) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

fn error_page(status: StatusCode, message: &str) -> Response {
    match dashboard::render_page(Page::Error(status.as_u16(), message)) {
        Ok(body) => html(status, body),
        Err(e) => (status, e).into_response(),
    }
}

fn json(status: StatusCode, value: &impl serde::Serialize) -> Response {
    match serde_json::to_string_pretty(value) {
        Ok(mut body) => {
            body.push('\n');
            (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

fn json_error(status: StatusCode, message: &str) -> Response {
    json(
        status,
        &serde_json::json!({
            "schema_version": dashboard::API_VERSION,
            "error": message,
        }),
    )
}

/// Runs a store read off the async thread.
async fn read<T: Send + 'static>(
    app: &Arc<App>,
    f: impl FnOnce(&App, &Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, String> {
    let app = app.clone();
    tokio::task::spawn_blocking(move || app.with_store(|s| f(&app, s)))
        .await
        .map_err(|e| format!("the request failed: {e}"))?
}

fn runs_param(q: &HashMap<String, String>) -> Result<usize, String> {
    match q.get("runs") {
        None => Ok(views::DEFAULT_RUNS),
        Some(v) => match v.parse::<usize>() {
            Ok(n) if (1..=10_000).contains(&n) => Ok(n),
            _ => Err(format!("runs={v}: give a whole number from 1 to 10000")),
        },
    }
}

fn render(page: Page<'_>) -> Response {
    match dashboard::render_page(page) {
        Ok(body) => html(StatusCode::OK, body),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

/// The overview's filter from `status`, `stale` and `name`.
fn filter_param(q: &HashMap<String, String>) -> Result<views::Filter, String> {
    views::Filter::from_params(
        q.get("status").map(String::as_str),
        q.get("stale").map(String::as_str),
        q.get("name").map(String::as_str),
    )
}

/// The overview's page from `page` and `per_page` (the first [`views::ROOTS_PER_PAGE`] roots
/// by default).
fn paging_param(q: &HashMap<String, String>) -> Result<views::Paging, String> {
    views::Paging::from_params(
        q.get("page").map(String::as_str),
        q.get("per_page").map(String::as_str),
    )
}

async fn overview_page(State(app): State<Arc<App>>, Query(q): Params) -> Response {
    let (filter, paging) = match filter_param(&q).and_then(|f| Ok((f, paging_param(&q)?))) {
        Ok(f) => f,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, &e),
    };
    match read(&app, move |a, s| {
        views::overview(s, &a.layers, &a.staleness()?, &filter, paging)
    })
    .await
    {
        Ok(o) => render(Page::Overview(&o)),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

/// `?root=NAME`: one root's approvals and gate decisions.
fn root_param(q: &HashMap<String, String>) -> Option<String> {
    q.get("root")
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
}

async fn approvals_page(State(app): State<Arc<App>>, Query(q): Params) -> Response {
    let root = root_param(&q);
    match read(&app, move |a, s| {
        views::approvals(s, root.as_deref(), a.clock.now())
    })
    .await
    {
        Ok(r) => render(Page::Approvals(&r)),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn api_approvals(State(app): State<Arc<App>>, Query(q): Params) -> Response {
    let root = root_param(&q);
    match read(&app, move |a, s| {
        views::approvals(s, root.as_deref(), a.clock.now())
    })
    .await
    {
        Ok(r) => json(StatusCode::OK, &r),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn stacks_page(State(app): State<Arc<App>>) -> Response {
    match read(&app, |_, s| views::stack_runs(s)).await {
        Ok(r) => render(Page::StackRuns(&r)),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn timeline_page(State(app): State<Arc<App>>, Query(q): Params) -> Response {
    let Some(name) = q.get("name").cloned() else {
        return error_page(StatusCode::BAD_REQUEST, "name a root: /root?name=ROOT");
    };
    let runs = match runs_param(&q) {
        Ok(n) => n,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, &e),
    };
    let wanted = name.clone();
    match read(&app, move |_, s| views::timeline(s, &wanted, runs)).await {
        Ok(Some(t)) => render(Page::Timeline(&t)),
        Ok(None) => error_page(
            StatusCode::NOT_FOUND,
            &format!("no run of a root named {name:?} in this history"),
        ),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn findings_page(State(app): State<Arc<App>>) -> Response {
    match read(&app, |_, s| views::findings(s)).await {
        Ok(f) => render(Page::Findings(&f)),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn records_page(State(app): State<Arc<App>>, _q: Params, path: &'static str) -> Response {
    let Some((_, title, kinds)) = views::RECORD_PAGES.iter().find(|(p, _, _)| *p == path) else {
        return error_page(StatusCode::NOT_FOUND, "no such page");
    };
    match read(&app, move |a, s| {
        views::records(s, title, kinds, &a.clock.now_rfc3339())
    })
    .await
    {
        Ok(r) => render(Page::Records(&r, path)),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn css() -> Response {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        dashboard::CSS,
    )
        .into_response()
}

async fn favicon() -> Response {
    (
        [(header::CONTENT_TYPE, "image/svg+xml")],
        dashboard::FAVICON,
    )
        .into_response()
}

async fn not_found(method: Method, uri: axum::http::Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        // The guard answers first; this is only reached if it is ever bypassed.
        return (StatusCode::METHOD_NOT_ALLOWED, Body::empty()).into_response();
    }
    error_for(
        uri.path(),
        StatusCode::NOT_FOUND,
        "no such page: see / for the overview, /api/v1 for the API",
    )
}

/// `ok`, for a load balancer or a supervisor: answered without the token, shows nothing.
async fn healthz() -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "ok\n",
    )
        .into_response()
}

async fn api_index() -> Response {
    json(
        StatusCode::OK,
        &serde_json::json!({
            "schema_version": dashboard::API_VERSION,
            "endpoints": [
                "/api/v1/overview?status=STATUS&stale=1&name=PART",
                "/api/v1/root?name=ROOT&runs=N",
                "/api/v1/findings",
                "/api/v1/records?kind=KIND",
                "/api/v1/stacks",
                "/api/v1/approvals?root=ROOT",
            ],
            "kinds": KINDS.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        }),
    )
}

async fn api_overview(State(app): State<Arc<App>>, Query(q): Params) -> Response {
    // Every root unless a page is asked for: API version 1 listed every root.
    let paged = q.contains_key("page") || q.contains_key("per_page");
    let (filter, paging) = match filter_param(&q).and_then(|f| {
        let p = if paged {
            paging_param(&q)?
        } else {
            views::Paging::ALL
        };
        Ok((f, p))
    }) {
        Ok(f) => f,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, &e),
    };
    match read(&app, move |a, s| {
        views::overview(s, &a.layers, &a.staleness()?, &filter, paging)
    })
    .await
    {
        Ok(o) => json(StatusCode::OK, &o),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn api_timeline(State(app): State<Arc<App>>, Query(q): Params) -> Response {
    let Some(name) = q.get("name").cloned() else {
        return json_error(StatusCode::BAD_REQUEST, "name a root: ?name=ROOT");
    };
    let runs = match runs_param(&q) {
        Ok(n) => n,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, &e),
    };
    let wanted = name.clone();
    match read(&app, move |_, s| views::timeline(s, &wanted, runs)).await {
        Ok(Some(t)) => json(StatusCode::OK, &t),
        Ok(None) => json_error(
            StatusCode::NOT_FOUND,
            &format!("no run of a root named {name:?} in this history"),
        ),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn api_stacks(State(app): State<Arc<App>>) -> Response {
    match read(&app, |_, s| views::stack_runs(s)).await {
        Ok(r) => json(StatusCode::OK, &r),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn api_findings(State(app): State<Arc<App>>) -> Response {
    match read(&app, |_, s| views::findings(s)).await {
        Ok(f) => json(StatusCode::OK, &f),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

async fn api_records(State(app): State<Arc<App>>, Query(q): Params) -> Response {
    let Some(kind) = q
        .get("kind")
        .and_then(|k| KINDS.iter().find(|(n, _)| n == k))
        .map(|(n, _)| *n)
    else {
        let kinds: Vec<&str> = KINDS.iter().map(|(k, _)| *k).collect();
        return json_error(
            StatusCode::BAD_REQUEST,
            &format!("name a kind: ?kind= one of {}", kinds.join(", ")),
        );
    };
    match read(&app, move |a, s| {
        views::records(s, kind, &[kind], &a.clock.now_rfc3339())
    })
    .await
    {
        Ok(r) => json(StatusCode::OK, &r),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_without_the_flag_and_a_token_with_it() {
        let local: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let v6: SocketAddr = "[::1]:8080".parse().unwrap();
        let any: SocketAddr = "0.0.0.0:8080".parse().unwrap();
        let token = "0123456789abcdef";
        assert!(check_listen(local, false, None).is_ok());
        assert!(check_listen(v6, false, None).is_ok());
        assert!(matches!(
            check_listen(any, false, None),
            Err(ServeError::NotLoopback { .. })
        ));
        assert!(matches!(
            check_listen(any, false, Some(token)),
            Err(ServeError::NotLoopback { .. })
        ));
        assert!(matches!(
            check_listen(any, true, None),
            Err(ServeError::NoToken)
        ));
        // --allow-remote without a token is refused on loopback too (it used to drop the
        // Host check there).
        assert!(matches!(
            check_listen(local, true, None),
            Err(ServeError::NoToken)
        ));
        assert!(check_listen(local, true, Some(token)).is_ok());
        assert!(check_listen(any, true, Some(token)).is_ok());
        assert!(matches!(
            check_listen(any, true, Some("short")),
            Err(ServeError::ShortToken { len: 5 })
        ));
    }

    #[test]
    fn hosts_and_tokens() {
        let mut h = HeaderMap::new();
        let local = Hosts::for_listen("127.0.0.1:8080".parse().unwrap(), &[]);
        let remote = Hosts::for_listen(
            "0.0.0.0:8080".parse().unwrap(),
            &["Ward.Example.ORG".to_string()],
        );
        for (host, on_loopback, on_remote) in [
            ("127.0.0.1:8080", true, true),
            ("localhost", true, true),
            ("LOCALHOST:1", true, true),
            ("[::1]:9", true, true),
            ("10.1.2.3:8080", false, true),
            ("[fe80::1]:80", false, true),
            ("ward.example.org", false, true),
            ("ward.example.org:8733", false, true),
            ("evil.example:8080", false, false),
            ("127.0.0.1.evil.example", false, false),
            ("ward.example.org.evil.example", false, false),
        ] {
            h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
            assert_eq!(local.allows(&h), on_loopback, "{host} on loopback");
            assert_eq!(remote.allows(&h), on_remote, "{host} beyond loopback");
        }
        h.append(header::HOST, HeaderValue::from_static("localhost"));
        assert!(!local.allows(&h), "two Host headers");
        assert!(!local.allows(&HeaderMap::new()), "no Host header");
        let t = "0123456789abcdef";
        let mut h = HeaderMap::new();
        assert!(!authorized(&h, t));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_str(&format!("Bearer {t}")).unwrap(),
        );
        assert!(authorized(&h, t));
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("anyone:{t}"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_str(&format!("Basic {basic}")).unwrap(),
        );
        assert!(authorized(&h, t));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer 0123456789abcdeF"),
        );
        assert!(!authorized(&h, t));
        for wrong in ["", "0", "0123456789abcde", "0123456789abcdef0"] {
            h.insert(
                header::AUTHORIZATION,
                HeaderValue::from_str(&format!("Bearer {wrong}")).unwrap(),
            );
            assert!(!authorized(&h, t), "{wrong:?}");
        }
    }
}
