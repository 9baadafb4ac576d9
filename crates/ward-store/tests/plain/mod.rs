//! The PostgreSQL cluster without TLS that scripts/test starts beside the TLS one (`ssl=off`,
//! TCP on 127.0.0.1): `WARD_TEST_PG_PLAIN`, host, port, user and database as a libpq string.
//! Shared by `tests/tls_plain.rs` and `tests/pg_round_trips.rs`.

/// `WARD_TEST_PG_PLAIN`, or `None` after saying that `what` was skipped; its absence is a
/// failure under `CI=true`.
pub fn plain_server(what: &str) -> Option<String> {
    let Some(base) = std::env::var("WARD_TEST_PG_PLAIN")
        .ok()
        .filter(|v| !v.is_empty())
    else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("WARD_TEST_PG_PLAIN is not set under CI=true: scripts/test starts the plain server and sets it");
        }
        eprintln!("skipped: {what} (WARD_TEST_PG_PLAIN is not set; scripts/test sets it)");
        return None;
    };
    Some(base)
}

/// The value of `key` in the libpq string `base`.
pub fn field(base: &str, key: &str) -> String {
    base.split_whitespace()
        .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("WARD_TEST_PG_PLAIN={base}: no {key}"))
        .to_string()
}
