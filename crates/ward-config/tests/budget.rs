//! ward.hcl goes through ward-hcl's parse budget: a file that stops making sense with many
//! brackets left open is refused at once, with its line, instead of taking the HCL parser's
//! exponential time (20 levels took about a minute and a half before it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use ward_config::Config;

#[test]
fn a_ward_hcl_left_open_too_deep_is_refused_by_the_budget() {
    let text = format!("policy {{\n  require_approval = {}\n", "[(".repeat(5));
    let e = Config::parse(&text, "ward.hcl", Path::new(""))
        .err()
        .unwrap();
    let shown = e.to_string();
    assert!(shown.starts_with("ward.hcl:2:"), "{shown}");
    assert!(shown.contains("still open"), "{shown}");
}

#[test]
fn a_ward_hcl_left_open_a_little_keeps_the_parser_message() {
    let text = "policy {\n  require_approval = [(\n";
    let e = Config::parse(text, "ward.hcl", Path::new(""))
        .err()
        .unwrap();
    let shown = e.to_string();
    assert!(shown.contains("not valid HCL"), "{shown}");
    assert!(!shown.contains("still open"), "{shown}");
}
