//! How many round trips the PostgreSQL store's reads take: one a query (#35 item 4). Over a
//! socket to a busy server each round trip waits for the client and the server to get a core,
//! so on a loaded machine a read's wall time is mostly its round trips: `ward report --html`
//! makes two queries for each of up to 500 roots, and a prepared statement took three round
//! trips (prepare, execute, close) where an unnamed one with its parameter types takes one.
//! Opening a database already at this ward's schema reads its version (one round trip) instead
//! of the migration's transaction, lock and checks (seven).
//!
//! The store connects through a proxy here that counts what the client sends: each `Sync` ends
//! an extended-protocol exchange and each simple `Query` is one, so their number is the number
//! of round trips. It needs TCP, so it runs against the cluster without TLS
//! (`WARD_TEST_PG_PLAIN`, as `tests/tls_plain.rs`), in a database of its own; skipped, saying
//! so, without it, and required under `CI=true`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use ward_store::{Location, RecordQuery, Store};

mod plain;
use plain::{field, plain_server};

fn read_exact_or_end(from: &mut TcpStream, buf: &mut [u8]) -> bool {
    from.read_exact(buf).is_ok()
}

/// Copies the client's messages to the server, counting `Sync` ('S') and `Query` ('Q') once
/// the startup (untyped messages: an optional SSL or GSS request, then the startup message)
/// is through.
fn client_to_server(mut from: TcpStream, mut to: TcpStream, trips: Arc<AtomicUsize>) {
    // Untyped: length (itself included), then a code; 80877103/80877104 ask for TLS/GSS and
    // are followed by the real startup message.
    loop {
        let mut head = [0u8; 8];
        if !read_exact_or_end(&mut from, &mut head) {
            return;
        }
        let len = u32::from_be_bytes(head[..4].try_into().unwrap()) as usize;
        let code = u32::from_be_bytes(head[4..].try_into().unwrap());
        let mut rest = vec![0u8; len.saturating_sub(8)];
        if !read_exact_or_end(&mut from, &mut rest) || to.write_all(&head).is_err() {
            return;
        }
        if to.write_all(&rest).is_err() {
            return;
        }
        if code != 80_877_103 && code != 80_877_104 {
            break;
        }
    }
    loop {
        let mut head = [0u8; 5];
        if !read_exact_or_end(&mut from, &mut head) {
            break;
        }
        let len = u32::from_be_bytes(head[1..].try_into().unwrap()) as usize;
        let mut body = vec![0u8; len.saturating_sub(4)];
        if !read_exact_or_end(&mut from, &mut body) {
            break;
        }
        if matches!(head[0], b'S' | b'Q') {
            trips.fetch_add(1, Ordering::SeqCst);
        }
        if to.write_all(&head).is_err() || to.write_all(&body).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Write);
}

/// A proxy on 127.0.0.1 to `host:port` for one connection; returns its port and the count.
fn proxy(host: &str, port: &str) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let local = listener.local_addr().unwrap().port();
    let trips = Arc::new(AtomicUsize::new(0));
    let counted = trips.clone();
    let upstream = format!("{host}:{port}");
    std::thread::spawn(move || {
        let Ok((client, _)) = listener.accept() else {
            return;
        };
        let server = TcpStream::connect(&upstream).unwrap();
        let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
        std::thread::spawn(move || {
            let (mut from, mut to) = (s2, c2);
            let _ = std::io::copy(&mut from, &mut to);
            let _ = to.shutdown(Shutdown::Write);
        });
        client_to_server(client, server, counted);
    });
    (local, trips)
}

/// A fresh database on the plain server, made at this ward's schema; its libpq fields.
fn fresh_database(base: &str) -> (String, String, String, String) {
    let (host, port, user) = (
        field(base, "host"),
        field(base, "port"),
        field(base, "user"),
    );
    let name = format!("ward_rt_{}", std::process::id());
    let mut admin = postgres::Client::connect(base, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
        .unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .unwrap();
    (host, port, user, name)
}

fn open_through_proxy(host: &str, port: &str, user: &str, db: &str) -> (Store, Arc<AtomicUsize>) {
    let (local, trips) = proxy(host, port);
    let text = format!("host=127.0.0.1 port={local} user={user} dbname={db} sslmode=disable");
    let l = Location::parse(&text, None, "test").unwrap();
    (Store::open_location(&l).unwrap(), trips)
}

#[test]
fn each_read_is_one_round_trip_and_opening_a_current_database_one() {
    let Some(base) = plain_server("PostgreSQL round trips") else {
        return;
    };
    let (host, port, user, db) = fresh_database(&base);
    // The first open creates the schema (a transaction of its own, not counted).
    drop(open_through_proxy(&host, &port, &user, &db));

    let (store, trips) = open_through_proxy(&host, &port, &user, &db);
    let opened = trips.swap(0, Ordering::SeqCst);
    assert_eq!(
        opened, 1,
        "opening a database at this schema took {opened} round trips"
    );

    let mut taken = Vec::new();
    let mut count = |what: &str, trips: &AtomicUsize| {
        taken.push((what.to_string(), trips.swap(0, Ordering::SeqCst)));
    };
    store.runs(20).unwrap();
    count("runs (the runs, then their outcome counts)", &trips);
    store.root_runs("a", 50).unwrap();
    count("root_runs", &trips);
    store.findings(Some("a")).unwrap();
    count("findings of a root", &trips);
    store.findings_since(1).unwrap();
    count("findings_since", &trips);
    store.latest_outcomes().unwrap();
    count("latest_outcomes", &trips);
    store
        .records(&RecordQuery {
            kind: "drift-run",
            root: Some("(drift)"),
            key: None,
            limit: 76,
        })
        .unwrap();
    count("records", &trips);
    let want = [2, 1, 1, 1, 1, 1];
    let got: Vec<usize> = taken.iter().map(|(_, n)| *n).collect();
    assert_eq!(got, want, "round trips of each read: {taken:?}");
    drop(store);

    let mut admin = postgres::Client::connect(&base, postgres::NoTls).unwrap();
    // The proxy's session may still be closing: FORCE ends it (PostgreSQL 13 and later).
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))
        .unwrap();
}
