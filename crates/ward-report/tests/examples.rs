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
    let k = ward_rules::Knowledge::builtin().unwrap();
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
