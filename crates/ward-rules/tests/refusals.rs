//! Every refusal of the rule loader has a fixture here that must fail, at the line the fixture
//! names, with the message it names. A fixture's first line is `# refuse: LINE MESSAGE`
//! (LINE 0: the error has no line).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};
use ward_rules::{Knowledge, RulesError};

fn fixtures(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/refusals")
        .join(kind);
    let mut v: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hcl"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no fixtures in {}", dir.display());
    v
}

fn expectation(text: &str, path: &Path) -> (usize, String) {
    let first = text.lines().next().unwrap_or_default();
    let rest = first.strip_prefix("# refuse: ").unwrap_or_else(|| {
        panic!(
            "{}: first line must be `# refuse: LINE MESSAGE`",
            path.display()
        )
    });
    let (line, msg) = rest.split_once(' ').unwrap();
    (line.parse().unwrap(), msg.to_string())
}

fn check(path: &Path, err: RulesError) {
    let text = fs::read_to_string(path).unwrap();
    let (line, msg) = expectation(&text, path);
    let shown = err.to_string();
    assert!(
        shown.contains(&msg),
        "{}: expected `{msg}` in:\n{shown}",
        path.display()
    );
    assert_eq!(
        err.line.unwrap_or(0),
        line,
        "{}: wrong line in:\n{shown}",
        path.display()
    );
    assert!(
        err.help.is_some(),
        "{}: no help in:\n{shown}",
        path.display()
    );
    if line > 0 {
        assert!(
            shown.starts_with(&format!("{}:{line}:", err.file)),
            "{}: Display must start with file:line: {shown}",
            path.display()
        );
    }
}

#[test]
fn every_user_fixture_is_refused() {
    for path in fixtures("user") {
        let mut k = Knowledge::empty();
        match k.load_user_file(&path) {
            Ok(()) => panic!("{} was accepted", path.display()),
            Err(e) => check(&path, e),
        }
        assert!(
            k.user_files().is_empty(),
            "a refused file must not be recorded"
        );
    }
}

#[test]
fn every_pack_fixture_is_refused() {
    for path in fixtures("pack") {
        let text = fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        match Knowledge::from_pack_sources(&[(name.as_str(), text.as_str())]) {
            Ok(_) => panic!("{} was accepted", path.display()),
            Err(e) => check(&path, e),
        }
    }
}

/// The fixtures are not vacuous: with the offending line removed, each user fixture loads.
#[test]
fn user_fixtures_load_once_fixed() {
    let fixes: &[(&str, &str, &str)] = &[
        ("typo_key.hcl", "holds_dta", "holds_data"),
        ("bad_impact.hcl", "interrupts", "interrupt"),
        ("attribute_index.hcl", "[0]", ""),
        ("identity_twice.hcl", ", \"ip\"]", "]"),
        ("bool_as_string.hcl", "\"yes\"", "true"),
        ("module_not_path.hcl", "\"ledger\"", "\"module.ledger\""),
        ("overwrites_free.hcl", "\"free\"", "\"interrupt\""),
        ("overwrites_typo.hcl", "targets =", "target  ="),
        ("modifies_free.hcl", "\"free\"", "\"in-place\""),
        (
            "modifies_when_set_empty.hcl",
            "[]",
            "[\"map_public_ip_on_launch\"]",
        ),
        ("modifies_when_set_nested.hcl", "status.resources", "status"),
        (
            "direction_half.hcl",
            "\"data-loss\"",
            "\"data-loss\"\n    increase = \"in-place\"",
        ),
        ("unbounded_string.hcl", ", \"never\"", ", null"),
        ("direction_typo.hcl", "decrese ", "decrease"),
        (
            "when_empty_pattern.hcl",
            "\"\" }",
            "\"Microsoft.Storage/*\" }",
        ),
        ("when_nested.hcl", "\"body.sku\"", "type"),
        (
            "when_not_object.hcl",
            "\"Microsoft.Storage/storageAccounts@*\"",
            "{ type = \"Microsoft.Storage/storageAccounts@*\" }",
        ),
        ("when_empty.hcl", "{}", "{ kind = \"StorageV2\" }"),
    ];
    for (file, from, to) in fixes {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/refusals/user")
            .join(file);
        let text = fs::read_to_string(&path).unwrap().replace(from, to);
        let mut k = Knowledge::empty();
        k.load_user_str(file, &text)
            .unwrap_or_else(|e| panic!("{file} fixed should load: {e}"));
    }
}

#[test]
fn unreadable_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("rules.hcl");
    let e = Knowledge::empty().load_user_file(&missing).unwrap_err();
    assert!(e.to_string().contains("cannot read the rule file"), "{e}");
    assert!(e.help.unwrap().contains("path"));

    let latin1 = dir.path().join("latin1.hcl");
    fs::write(&latin1, b"resource \"x_y\" { summary = \"caf\xe9\" }\n").unwrap();
    let e = Knowledge::empty().load_user_file(&latin1).unwrap_err();
    assert!(e.to_string().contains("not UTF-8"), "{e}");
}
