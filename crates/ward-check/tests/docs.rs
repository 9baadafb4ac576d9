//! `docs/check-rules.md` is generated from the catalog; this test fails when it is stale.
//! Regenerate with `WARD_BLESS=1 cargo test -p ward-check --test docs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

#[test]
fn check_rules_doc_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/check-rules.md");
    let want = ward_check::catalog::render_markdown();
    if std::env::var_os("WARD_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/check-rules.md is stale: run `WARD_BLESS=1 cargo test -p ward-check --test docs` and commit it"
    );
}
