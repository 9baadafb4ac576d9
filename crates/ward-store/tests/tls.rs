//! TLS to PostgreSQL against a real server: scripts/test starts the test cluster with `ssl=on`
//! on 127.0.0.1, with a certificate for localhost and 127.0.0.1 it makes (signed by a CA it
//! makes: `WARD_TEST_PG_CA`; `WARD_TEST_PG_OTHER_CA` is unrelated), and rejects TCP without TLS.
//! Skipped, saying so, without `WARD_TEST_PG_TLS`; required under `CI=true`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_store::{Location, Store};

struct Server {
    /// host, hostaddr, port, user, dbname as a libpq string.
    base: String,
    ca: String,
    other_ca: String,
}

fn server() -> Option<Server> {
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let Some(base) = var("WARD_TEST_PG_TLS") else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("WARD_TEST_PG_TLS is not set under CI=true: scripts/test starts the TLS server and sets it");
        }
        eprintln!("skipped: TLS to PostgreSQL (WARD_TEST_PG_TLS is not set; scripts/test sets it)");
        return None;
    };
    Some(Server {
        base,
        ca: var("WARD_TEST_PG_CA").unwrap(),
        other_ca: var("WARD_TEST_PG_OTHER_CA").unwrap(),
    })
}

fn open(text: &str) -> Result<Store, String> {
    let l = Location::parse(text, None, "test").map_err(|e| e.to_string())?;
    Store::open_location(&l).map_err(|e| e.to_string())
}

#[test]
fn tls_modes_against_a_real_server() {
    let Some(s) = server() else { return };
    let ok = |extra: &str| {
        let text = format!("{} {extra}", s.base);
        let store = open(&text).unwrap_or_else(|e| panic!("{extra}: {e}"));
        store.runs(1).unwrap();
    };
    let refused = |extra: &str, why: &str| {
        let text = format!("{} {extra}", s.base);
        let Err(e) = open(&text) else {
            panic!("{extra}: connected, but must be refused ({why})")
        };
        assert!(e.to_lowercase().contains(why), "{extra}: {e}");
    };
    // The server takes TCP only with TLS: without it the connection is refused.
    refused("sslmode=disable", "no encryption");
    // prefer (the default) and require encrypt; without a root certificate nothing is checked.
    ok("");
    ok("sslmode=prefer");
    ok("sslmode=require");
    // verify-full: the chain and the name.
    ok(&format!("sslmode=verify-full sslrootcert={}", s.ca));
    refused(
        &format!("sslmode=verify-full sslrootcert={}", s.other_ca),
        "certificate",
    );
    // The public roots do not know the test CA.
    refused("sslmode=verify-full", "certificate");
    // require with a root certificate checks the chain (as libpq does).
    refused(
        &format!("sslmode=require sslrootcert={}", s.other_ca),
        "certificate",
    );
    // A name the certificate does not carry: verify-full refuses, verify-ca (chain only) takes it.
    let wrong_name = s
        .base
        .replacen("host=localhost", "host=db.wrong.example", 1);
    assert_ne!(wrong_name, s.base);
    let text = format!("{wrong_name} sslmode=verify-full sslrootcert={}", s.ca);
    let e = open(&text).err().expect("a wrong name must be refused");
    assert!(e.to_lowercase().contains("certificate"), "{e}");
    let text = format!("{wrong_name} sslmode=verify-ca sslrootcert={}", s.ca);
    open(&text).unwrap_or_else(|e| panic!("verify-ca: {e}"));
}

#[test]
fn the_url_form_takes_sslmode_and_sslrootcert_too() {
    let Some(s) = server() else { return };
    let field = |k: &str| {
        s.base
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{k}=")))
            .unwrap()
            .to_string()
    };
    let url = format!(
        "postgres://{}@localhost:{}/{}?hostaddr=127.0.0.1&sslmode=verify-full&sslrootcert={}",
        field("user"),
        field("port"),
        field("dbname"),
        s.ca
    );
    open(&url).unwrap_or_else(|e| panic!("{url}: {e}"));
    let bad = url.replace(&s.ca, &s.other_ca);
    assert!(open(&bad).is_err(), "{bad}");
    let e = Location::parse(
        &url.replace("verify-full", "verify-everything"),
        None,
        "--db",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("sslmode=verify-everything"), "{e}");
}

/// verify-ca checks the chain (not the name): a certificate from another CA is refused. Without
/// this, `verify-ca` read as "verify nothing" passed every test (a mutant, docs/testing.md).
#[test]
fn verify_ca_refuses_a_certificate_of_another_ca() {
    let Some(s) = server() else { return };
    let text = format!("{} sslmode=verify-ca sslrootcert={}", s.base, s.other_ca);
    let e = open(&text)
        .err()
        .expect("verify-ca with an unrelated CA must be refused");
    assert!(e.to_lowercase().contains("certificate"), "{e}");
}
