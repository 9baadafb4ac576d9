//! The parse budget of native HCL files (`ward_repo`'s `budget` module): a file whose text stops
//! making sense with many brackets open is refused before hcl-edit's parser, whose time doubles
//! with each one left open; every other file reads as before.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

/// Parses `text` as `m/main.tf`, and how long it took.
fn timed(text: &str) -> (Result<ward_repo::Module, ward_repo::FileProblem>, Duration) {
    let t = Instant::now();
    let r = ward_repo::parse_file_text("m/main.tf", text);
    (r, t.elapsed())
}

#[test]
fn brackets_left_open_at_the_end_are_refused_before_the_parse() {
    // 20 levels: about a second of hcl-edit's parser in a release build, far more unoptimized.
    let text = format!("variable \"x\" {{}}\na = {}\n", "1+1+(".repeat(20));
    let (r, took) = timed(&text);
    let e = r.unwrap_err();
    assert_eq!((e.loc.file.as_str(), e.loc.line), ("m/main.tf", 2));
    assert!(
        e.message.contains("the file ends with 20 brackets")
            && e.message.contains("opened at line 2")
            && e.message.contains("at most 8"),
        "{}",
        e.message
    );
    assert!(took < Duration::from_secs(1), "took {took:?}");
}

#[test]
fn the_fuzzed_slow_input_is_refused_promptly() {
    // The repo_files fuzz input that took 36 s (14 s in `ward check`): its first byte picks the
    // reader, the rest is the file.
    let seed = include_bytes!("../../../fuzz/seeds/repo_files/regression-slow-tf");
    let text = std::str::from_utf8(&seed[1..]).unwrap();
    let (r, took) = timed(text);
    let e = r.unwrap_err();
    assert!(e.message.contains("at most 8"), "{}", e.message);
    assert!(took < Duration::from_secs(1), "took {took:?}");
}

#[test]
fn deep_valid_nesting_still_reads() {
    let text = format!(
        "locals {{\n  a = {}1{}\n}}\n",
        "1+1+(".repeat(30),
        ")".repeat(30)
    );
    let (r, took) = timed(&text);
    let m = r.unwrap();
    assert_eq!(m.files, ["m/main.tf"]);
    assert!(took < Duration::from_secs(1), "took {took:?}");
}

#[test]
fn within_the_budget_the_parser_says_what_is_wrong() {
    let text = format!("a = {}\n", "1+1+(".repeat(8));
    let (r, _) = timed(&text);
    let e = r.unwrap_err();
    assert!(!e.message.contains("at most 8"), "{}", e.message);
}
