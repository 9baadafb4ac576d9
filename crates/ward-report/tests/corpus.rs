//! Every plan of the shared corpus (`WARD_CORPUS`), read and classified for real, renders in
//! every format: JSON valid against docs/report.schema.json, Markdown within its limit, the same
//! bytes twice.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use ward_model::Impact;
use ward_report::{evaluate, render_json, render_markdown, render_terminal, GateOptions};

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json") {
            out.push(p);
        }
    }
}

#[test]
fn corpus_plans_render_in_every_format() {
    let Some(root) = std::env::var_os("WARD_CORPUS") else {
        eprintln!("skipped: WARD_CORPUS is not set");
        return;
    };
    let root = PathBuf::from(root);
    let mut files = Vec::new();
    json_files(&root, &mut files);
    assert!(
        !files.is_empty(),
        "WARD_CORPUS={} holds no .json files",
        root.display()
    );

    let schema_text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/report.schema.json"
    ))
    .unwrap();
    let validator =
        jsonschema::draft202012::new(&serde_json::from_str(&schema_text).unwrap()).unwrap();
    let knowledge = ward_rules::Knowledge::builtin().unwrap();
    let gate = GateOptions {
        fail_on: Some(Impact::Replace),
        allow_errored: false,
    };
    let mut rendered = 0;
    for f in &files {
        let Ok(plan) = ward_plan::read_file(f) else {
            continue;
        };
        let a = ward_classify::assess(&plan, &knowledge, &ward_classify::Options::default());
        let o = evaluate(&a, &gate);
        let json = render_json(&a, &o);
        assert_eq!(json, render_json(&a, &o), "{}", f.display());
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", f.display());
        let t = render_terminal(&a, &o, true);
        assert_eq!(t, render_terminal(&a, &o, true), "{}", f.display());
        for limit in [1_000, 4_000, 65_000] {
            let md = render_markdown(&a, &o, limit);
            assert!(md.chars().count() <= limit, "{}", f.display());
            assert_eq!(md, render_markdown(&a, &o, limit), "{}", f.display());
        }
        rendered += 1;
    }
    assert!(rendered > 0, "no plan in WARD_CORPUS could be read");
    eprintln!("rendered {rendered} corpus plans of {} files", files.len());
}
