//! `sslmode` against a real PostgreSQL that has no TLS at all: scripts/test starts a second
//! cluster with `ssl=off` that takes TCP on 127.0.0.1 without TLS (`WARD_TEST_PG_PLAIN`, host,
//! port, user, database as a libpq string). `prefer` (the default) falls back to a plain
//! connection there; `require` must be refused, never quietly downgraded. Against the TLS
//! cluster of `tests/tls.rs` the two cannot be told apart (both encrypt), so without this test
//! `require` and `prefer` could swap (a mutant of `tls.rs`' `connector`, docs/testing.md).
//! Skipped, saying so, without `WARD_TEST_PG_PLAIN`; required under `CI=true`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_store::{Location, Store};

mod plain;
use plain::{field, plain_server};

fn open(text: &str) -> Result<Store, String> {
    let l = Location::parse(text, None, "test").map_err(|e| e.to_string())?;
    Store::open_location(&l).map_err(|e| e.to_string())
}

#[test]
fn prefer_falls_back_to_plain_and_require_is_refused_on_a_server_without_tls() {
    let Some(base) = plain_server("PostgreSQL without TLS") else {
        return;
    };
    let ok = |extra: &str| {
        let text = format!("{base} {extra}");
        let store = open(&text).unwrap_or_else(|e| panic!("{extra:?}: {e}"));
        store.runs(1).unwrap();
    };
    ok("sslmode=disable");
    // prefer (also the default) encrypts when it can, and connects without TLS when it cannot.
    ok("");
    ok("sslmode=prefer");
    // require never connects without TLS.
    let Err(e) = open(&format!("{base} sslmode=require")) else {
        panic!("sslmode=require connected to a server without TLS")
    };
    assert!(e.to_lowercase().contains("tls"), "{e}");
}

/// The URL form takes the same `sslmode`.
#[test]
fn the_url_form_of_require_is_refused_on_a_server_without_tls_too() {
    let Some(base) = plain_server("PostgreSQL without TLS") else {
        return;
    };
    let url = format!(
        "postgres://{}@127.0.0.1:{}/{}",
        field(&base, "user"),
        field(&base, "port"),
        field(&base, "dbname")
    );
    open(&format!("{url}?sslmode=prefer")).unwrap_or_else(|e| panic!("{url}: {e}"));
    assert!(open(&format!("{url}?sslmode=require")).is_err(), "{url}");
}
