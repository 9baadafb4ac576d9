//! A fake code forge on the loopback for tests of `ward gate --approvals-from`: a small HTTP/1.1
//! server answering GET requests from a table of canned responses (status, headers, body), and
//! recording what it was asked (path and `Authorization` header). A path it has no response for
//! answers 404, as the forge does for an unknown pull request or team.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// One canned response.
#[derive(Debug, Clone)]
struct Canned {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

/// One request the fake received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Path and query, as sent.
    pub path: String,
    /// The `Authorization` header, when sent.
    pub authorization: Option<String>,
}

#[derive(Default)]
struct State {
    routes: BTreeMap<String, Canned>,
    requests: Vec<Request>,
}

/// The fake forge; stops when dropped.
pub struct FakeForge {
    port: u16,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl FakeForge {
    /// Starts it on a free loopback port.
    pub fn start() -> std::io::Result<FakeForge> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let state = Arc::new(Mutex::new(State::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, st) = (state.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if st.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(c) = conn {
                    let _ = serve(c, &s);
                }
            }
        });
        Ok(FakeForge {
            port,
            state,
            stop,
            thread: Some(thread),
        })
    }

    /// Its API base, `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Answers `path` (with its query, exactly as the client sends it) with `status`, `headers`
    /// and `body`.
    pub fn route(&self, path: &str, status: u16, headers: &[(&str, &str)], body: &str) {
        if let Ok(mut s) = self.state.lock() {
            s.routes.insert(
                path.to_string(),
                Canned {
                    status,
                    headers: headers
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                    body: body.to_string(),
                },
            );
        }
    }

    /// Answers `path` with 200 and `value` as JSON.
    pub fn json(&self, path: &str, value: &serde_json::Value) {
        self.route(path, 200, &[], &value.to_string());
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        self.state
            .lock()
            .map(|s| s.requests.clone())
            .unwrap_or_default()
    }
}

impl Drop for FakeForge {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// An API base where nothing listens (a port bound, then released): a forge that is down.
pub fn unreachable_base() -> std::io::Result<String> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    let port = l.local_addr()?.port();
    drop(l);
    Ok(format!("http://127.0.0.1:{port}"))
}

fn serve(conn: TcpStream, state: &Mutex<State>) -> std::io::Result<()> {
    conn.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut first = String::new();
    reader.read_line(&mut first)?;
    let path = first.split_whitespace().nth(1).unwrap_or("").to_string();
    let mut authorization = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("authorization") {
                authorization = Some(v.trim().to_string());
            }
        }
    }
    let canned = {
        let mut s = state
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?;
        s.requests.push(Request {
            path: path.clone(),
            authorization,
        });
        s.routes.get(&path).cloned()
    };
    let c = canned.unwrap_or(Canned {
        status: 404,
        headers: Vec::new(),
        body: r#"{"message":"Not Found"}"#.into(),
    });
    let mut out = format!(
        "HTTP/1.1 {} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        c.status,
        c.body.len()
    );
    for (k, v) in &c.headers {
        out.push_str(&format!("{k}: {v}\r\n"));
    }
    out.push_str("\r\n");
    out.push_str(&c.body);
    let mut conn = conn;
    conn.write_all(out.as_bytes())?;
    conn.flush()
}
