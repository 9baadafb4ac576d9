//! Every document a message points to resolves through the binary: the sources' messages name
//! `ward docs TOPIC` (never a path in ward's source tree), and each such topic prints.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code lines of every crate's `src/` (comments and `#[cfg(test)]` tails left out).
fn message_lines() -> Vec<(String, String)> {
    let crates = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for c in std::fs::read_dir(&crates).unwrap() {
        let src = c.unwrap().path().join("src");
        if src.is_dir() {
            rust_sources(&src, &mut files);
        }
    }
    files.sort();
    assert!(files.len() > 50, "found only {} source files", files.len());
    let mut lines = Vec::new();
    for f in files {
        let name = f.display().to_string();
        if name.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, l) in text.lines().enumerate() {
            if l.trim_start().starts_with("#[cfg(test)]") {
                break;
            }
            let t = l.trim_start();
            if t.starts_with("//") || t.contains("include_str!") {
                continue;
            }
            lines.push((format!("{name}:{}", i + 1), l.to_string()));
        }
    }
    lines
}

#[test]
fn messages_point_to_docs_through_the_binary() {
    let mut topics = std::collections::BTreeSet::new();
    let mut bad = Vec::new();
    for (at, l) in message_lines() {
        // A string literal naming a source-tree document.
        if l.contains('"')
            && l.contains("docs/")
            && l.contains(".md")
            && !l.contains("trim_start_matches")
        {
            // The generated rule catalog is itself a document in docs/ and links its siblings
            // (its text is in the rule registry: catalog.rs and one file per rule in rules/).
            if !at.contains("ward-check/src/catalog.rs") && !at.contains("ward-check/src/rules/") {
                bad.push(format!("{at}: {}", l.trim()));
            }
        }
        let mut rest = l.as_str();
        while let Some(i) = rest.find("ward docs ") {
            rest = &rest[i + "ward docs ".len()..];
            let topic: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            if !topic.is_empty() && topic != "topic" {
                topics.insert((topic, at.clone()));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "messages naming a source path:\n{}",
        bad.join("\n")
    );
    assert!(topics.len() >= 5, "{topics:?}");
    for (topic, at) in topics {
        let out = Command::new(env!("CARGO_BIN_EXE_ward"))
            .args(["docs", &topic])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{at}: `ward docs {topic}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout.len() > 200,
            "{at}: `ward docs {topic}` printed almost nothing"
        );
    }
}

#[test]
fn an_unknown_topic_exits_2_with_a_suggestion() {
    let out = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(["docs", "rulez"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean `rules`"), "{err}");
}

#[test]
fn rules_show_suggests_the_type_name() {
    let out = Command::new(env!("CARGO_BIN_EXE_ward"))
        .args(["rules", "show", "aws_Instance"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("did you mean `aws_instance`"), "{err}");
}
