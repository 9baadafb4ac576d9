//! The terminal and Markdown reports of every plan in `examples/plans/`, as an operator reads
//! them (no threshold, as `ward plan PLAN` runs by default).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use ward_classify::Assessment;
use ward_report::{
    evaluate, render_markdown, render_terminal, GateOptions, DEFAULT_MARKDOWN_LIMIT,
};

fn plans() -> Vec<(String, Assessment)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/plans");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let k = ward_rig::rules::knowledge().unwrap();
    names
        .into_iter()
        .map(|p| {
            let plan = ward_plan::read_file(&p).unwrap();
            let a = ward_classify::assess(&plan, &k, &ward_classify::Options::default());
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, a)
        })
        .collect()
}

#[test]
fn snapshot_every_example_plan() {
    for (name, a) in plans() {
        let o = evaluate(&a, &GateOptions::default());
        insta::assert_snapshot!(
            format!("example_{name}_terminal"),
            render_terminal(&a, &o, false)
        );
        insta::assert_snapshot!(
            format!("example_{name}_markdown"),
            render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT)
        );
    }
}

/// With data-loss in the plan and no threshold, the heading must not read as a pass.
#[test]
fn markdown_heading_of_data_loss_without_threshold_names_the_cost() {
    let (_, a) = plans().into_iter().find(|(n, _)| n == "data-loss").unwrap();
    let o = evaluate(&a, &GateOptions::default());
    let md = render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT);
    let heading = md.lines().next().unwrap();
    assert!(heading.starts_with("### ward plan: "), "{heading}");
    assert!(heading.contains("data-loss"), "{heading}");
    assert!(!heading.to_lowercase().contains("pass"), "{heading}");
    let term = render_terminal(&a, &o, false);
    let result = term.lines().find(|l| l.starts_with("result: ")).unwrap();
    assert!(
        result.contains("data-loss") && !result.to_lowercase().contains("pass"),
        "{result}"
    );
}

/// The header names only the packs that decided something.
#[test]
fn the_header_names_only_deciding_packs() {
    for (name, a) in plans() {
        let o = evaluate(&a, &GateOptions::default());
        let term = render_terminal(&a, &o, false);
        assert!(!term.contains("azurerm"), "{name}: {term}");
    }
}

/// fakecloud is not a shipped pack: the example plans are decided by the user rule file, and the
/// header's "decided by" line names it by its path, in both formats.
#[test]
fn the_header_names_the_user_rule_file_that_decided() {
    let (_, a) = plans().into_iter().find(|(n, _)| n == "hazards").unwrap();
    let o = evaluate(&a, &GateOptions::default());
    let term = render_terminal(&a, &o, false);
    assert_eq!(
        term.lines().nth(1),
        Some("decided by rule files: examples/rules/fakecloud.hcl"),
        "{term}"
    );
    assert!(!term.contains("fakecloud 2026"), "{term}");
    let md = render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT);
    assert!(
        md.contains("· decided by rule files: `examples/rules/fakecloud.hcl`"),
        "{md}"
    );
}

/// A change block's sentences as plain text: Markdown and HTML escapes undone, bullets, code
/// marks and the `(per RULE)` suffix dropped, so the same fact reads the same in every place.
fn sentences(line: &str) -> Vec<String> {
    let plain = line
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
        .replace(['\\', '`'], "");
    let plain = plain.trim().trim_start_matches("- ").trim();
    let plain = match plain.find(" (per ") {
        Some(i) => &plain[..i],
        None => plain,
    };
    plain
        .split(" — ")
        .flat_map(|p| p.split("; "))
        .map(|s| s.trim().to_string())
        .filter(|s| s.len() >= 20)
        .collect()
}

/// Every change block, terminal and Markdown (its `<details>` summary included), says each fact
/// once: no sentence of a block is printed twice in it.
#[test]
fn each_change_block_says_each_fact_once() {
    for (name, a) in plans() {
        let o = evaluate(&a, &GateOptions::default());
        let md = render_markdown(&a, &o, DEFAULT_MARKDOWN_LIMIT);
        let term = render_terminal(&a, &o, false);
        let md_blocks: Vec<&str> = md.split("<details>").skip(1).collect();
        let term_blocks: Vec<&str> = term.split("\n\n").collect();
        for block in md_blocks.iter().chain(&term_blocks) {
            let mut seen = std::collections::BTreeSet::new();
            for s in block.lines().flat_map(sentences) {
                assert!(
                    seen.insert(s.clone()),
                    "{name}: {s:?} is printed twice in\n{block}"
                );
            }
        }
    }
}
