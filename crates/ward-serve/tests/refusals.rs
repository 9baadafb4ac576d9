//! What a refused request is told, and in which form: a foreign `Host` is answered 421 with the
//! hosts the server does answer to (`Hosts::describe`), as JSON under `/api` (the path itself
//! and everything below it) and as a page elsewhere. tests/http.rs checks the status codes;
//! these check the answers' text and form, which mutants of `src/lib.rs` changed unseen
//! (docs/testing.md, #33).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use ward_store::{Location, Store};

/// A server on 127.0.0.1 that answers the hosts of one listening on `listen` with `names`.
fn start(listen: &str, names: &[&str]) -> (tempfile::TempDir, SocketAddr) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite");
    let mut s = Store::open(&db).unwrap();
    ward_serve::fixture::write(&mut s, &ward_serve::fixture::root_names(2), 2).unwrap();
    drop(s);
    let location = Location::Sqlite(db);
    let listener = ward_serve::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let app = ward_serve::App::new(
        Box::new(move || Store::open_location(&location)),
        ward_serve::views::Layers::default(),
        None,
        ward_serve::Hosts::for_listen(listen.parse().unwrap(), &names),
        ward_time::Clock::Fixed(ward_time::Clock::System.now()),
    );
    std::thread::spawn(move || ward_serve::serve(listener, app));
    (dir, addr)
}

/// GET `path` with `Host: host`; (status, head, body).
fn get(addr: SocketAddr, path: &str, host: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_lowercase(), body.to_string())
}

#[test]
fn a_foreign_host_is_told_which_hosts_are_answered() {
    let (_dir, addr) = start("127.0.0.1:0", &[]);
    let (status, head, body) = get(addr, "/", "evil.example");
    assert_eq!(status, 421, "{body}");
    assert!(head.contains("text/html"), "{head}");
    assert!(
        body.contains("127.0.0.1, localhost and [::1] only"),
        "{body}"
    );
    assert!(!body.contains("IP addresses"), "{body}");
}

#[test]
fn beyond_loopback_the_refusal_names_ip_addresses_and_the_host_names_given() {
    let (_dir, addr) = start("0.0.0.0:0", &["ward.example.org"]);
    let (status, _, body) = get(addr, "/", "evil.example");
    assert_eq!(status, 421, "{body}");
    assert!(
        body.contains("127.0.0.1, localhost and [::1], IP addresses, ward.example.org only"),
        "{body}"
    );
    // The names given and IP addresses are answered.
    assert_eq!(get(addr, "/healthz", "ward.example.org").0, 200);
    assert_eq!(get(addr, "/healthz", "10.1.2.3:8733").0, 200);
}

#[test]
fn under_the_api_a_refusal_is_json_and_elsewhere_a_page() {
    let (_dir, addr) = start("127.0.0.1:0", &[]);
    for path in ["/api", "/api/v1/overview"] {
        let (status, head, body) = get(addr, path, "evil.example");
        assert_eq!(status, 421, "{path}: {body}");
        assert!(head.contains("application/json"), "{path}: {head}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let e = v["error"].as_str().unwrap();
        assert!(e.contains("answers requests for 127.0.0.1"), "{path}: {e}");
    }
    for path in ["/", "/apix", "/roots/api"] {
        let (status, head, body) = get(addr, path, "evil.example");
        assert_eq!(status, 421, "{path}: {body}");
        assert!(head.contains("text/html"), "{path}: {head}");
    }
}
