//! Walks every file of the shared real-plan corpus (`WARD_CORPUS`): every plan is read, every
//! other file gets its specific error, nothing panics; the per-file summary is pinned with insta.
//!
//! Expectations come from `MANIFEST.tsv`'s kind column, plus the explicit per-file list below
//! for the files whose kind alone does not say the outcome (the `invalid/` files and one
//! hand-written plan with a made-up format version).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use ward_plan::{read_file, PlanErrorKind};

/// The kind's name without its offset, for comparing and for the snapshot.
fn kind_name(k: &PlanErrorKind) -> &'static str {
    match k {
        PlanErrorKind::NotFound => "NotFound",
        PlanErrorKind::IsDirectory => "IsDirectory",
        PlanErrorKind::Unreadable => "Unreadable",
        PlanErrorKind::Empty => "Empty",
        PlanErrorKind::BinaryPlan => "BinaryPlan",
        PlanErrorKind::StateFile => "StateFile",
        PlanErrorKind::UiLog => "UiLog",
        PlanErrorKind::NotAPlan => "NotAPlan",
        PlanErrorKind::InvalidUtf8 { .. } => "InvalidUtf8",
        PlanErrorKind::InvalidUtf16 { .. } => "InvalidUtf16",
        PlanErrorKind::Truncated { .. } => "Truncated",
        PlanErrorKind::InvalidJson { .. } => "InvalidJson",
        PlanErrorKind::TooDeep { .. } => "TooDeep",
        PlanErrorKind::UnsupportedFormatVersion => "UnsupportedFormatVersion",
        PlanErrorKind::UnknownAction => "UnknownAction",
        PlanErrorKind::UnknownMode => "UnknownMode",
        PlanErrorKind::Malformed { .. } => "Malformed",
        _ => "Other",
    }
}

/// Files whose outcome is not the default for their kind. `None` = reads as a plan.
fn explicit(file: &str) -> Option<Option<&'static str>> {
    Some(match file {
        // UTF-16LE with a byte order mark (Windows PowerShell redirects): decoded and read.
        "invalid/checkov__tests__terraform__parser__resources__plan_encodings__tfplan_win_utf16.json"
        | "invalid/checkov__tests__terraform__runner__resources__plan_with_lifecycle_check__tfplan.json"
        | "invalid/checkov__tests__terraform__runner__resources__plan_with_utf_16_encoding__tfplan.json" => {
            None
        }
        // Garbled v4 state: does not parse.
        "invalid/driftctl__pkg__iac__terraform__state__testdata__v4__invalid.tfstate.json" => {
            Some("InvalidJson")
        }
        // Parses; a state all the same (terraform_version "invalid").
        "invalid/driftctl__pkg__iac__terraform__state__testdata__v4__invalid_version.tfstate.json" => {
            Some("StateFile")
        }
        // Trailing extra data after the plan object.
        "invalid/terraform-json__testdata__invalid__plan.json" => Some("InvalidJson"),
        // Unbalanced braces.
        "invalid/terraform-json__testdata__invalid__state.json" => Some("InvalidJson"),
        // The word "invalid".
        "invalid/terraform__internal__command__testdata__show-corrupt-statefile__terraform.tfstate.json" => {
            Some("InvalidJson")
        }
        // Parses; a state with a bad provider address.
        "invalid/terraform__internal__states__statefile__testdata__bad-state-files__invalid-provider-for-resource.tfstate.json" => {
            Some("StateFile")
        }
        // Plain text.
        "invalid/terrascan__pkg__iac-providers__tfplan__v1__testdata__invalid-json.json" => {
            Some("InvalidJson")
        }
        // `{}`.
        "invalid/terrascan__pkg__iac-providers__tfplan__v1__testdata__invalid-tfplan.json" => {
            Some("NotAPlan")
        }
        // `resource_changes: "invalid"`.
        "invalid/tf-plan-format__tests__data__plans__artificial__invalid.json" => Some("Malformed"),
        // ARTIFICIAL hand-written plan with format_version "test_format_version": ward fails
        // closed on a version it cannot read.
        "plans/tf-plan-format__tests__data__plans__artificial__full.json" => {
            Some("UnsupportedFormatVersion")
        }
        // `{"format_version": "1.0"}`: the state of an empty workspace; the same bytes as an
        // empty provider schema, so it cannot be told from one.
        "states/terraform__testing__equivalence-tests__outputs__fully_populated_complex_destroy__state.json" => {
            Some("NotAPlan")
        }
        _ => return None,
    })
}

fn default_for_kind(kind: &str) -> Option<&'static str> {
    match kind {
        "plan" => None,
        "state" | "tfstate" => Some("StateFile"),
        "log" => Some("UiLog"),
        "schema" => Some("NotAPlan"),
        other => panic!("MANIFEST.tsv has an unknown kind `{other}`"),
    }
}

fn summary(path: &Path) -> (Option<&'static str>, String) {
    match read_file(path) {
        Ok(plan) => {
            let mut actions: BTreeMap<String, usize> = BTreeMap::new();
            for c in &plan.changes {
                *actions.entry(c.action.to_string()).or_default() += 1;
            }
            let actions: Vec<String> = actions.iter().map(|(a, n)| format!("{a}={n}")).collect();
            let changed: usize = plan.changes.iter().map(|c| c.changed.len()).sum();
            let facts = plan
                .changes
                .iter()
                .filter(|c| {
                    c.importing.is_some() || c.previous_address.is_some() || c.deposed.is_some()
                })
                .count();
            let s = format!(
                "ok format={} product={:?} changes=[{}] attrs={} facts={} drift={} outputs={} \
                 configured={} state={} errored={} complete={:?} notes={}",
                plan.format_version,
                plan.product,
                actions.join(" "),
                changed,
                facts,
                plan.drift.len(),
                plan.output_changes.len(),
                plan.configured_types.len(),
                plan.state_types.len(),
                plan.errored,
                plan.complete,
                plan.reader_notes.len()
            );
            (None, s)
        }
        Err(e) => {
            let k = kind_name(&e.kind());
            assert!(
                !e.to_string().is_empty() && e.to_string().contains("help:"),
                "{}: error without help: {e}",
                path.display()
            );
            (Some(k), format!("error {k}"))
        }
    }
}

fn corpus_files(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["plans", "invalid", "states", "other"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            out.push(format!("{dir}/{}", e.file_name().to_string_lossy()));
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_file_gets_the_right_outcome() {
    let Some(root) = std::env::var_os("WARD_CORPUS") else {
        println!("skipped: WARD_CORPUS not set");
        return;
    };
    let root = PathBuf::from(root);
    let manifest = std::fs::read_to_string(root.join("MANIFEST.tsv"))
        .unwrap_or_else(|e| panic!("WARD_CORPUS={}: no MANIFEST.tsv: {e}", root.display()));
    let rows: Vec<(String, String)> = manifest
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut cols = l.split('\t');
            let file = cols.next().unwrap_or_default().to_string();
            let kind = cols.next().unwrap_or_default().to_string();
            (file, kind)
        })
        .collect();
    assert!(
        rows.len() > 100,
        "WARD_CORPUS={}: MANIFEST.tsv lists only {} files",
        root.display(),
        rows.len()
    );
    let listed: Vec<String> = {
        let mut v: Vec<String> = rows.iter().map(|(f, _)| f.clone()).collect();
        v.sort();
        v
    };
    assert_eq!(
        corpus_files(&root),
        listed,
        "the corpus directories and MANIFEST.tsv disagree"
    );

    let mut failures = Vec::new();
    let mut snap = String::new();
    let mut plans_read = 0;
    for (file, kind) in &rows {
        let expected = explicit(file).unwrap_or_else(|| default_for_kind(kind));
        let (got, line) = summary(&root.join(file));
        if got.is_none() {
            plans_read += 1;
        }
        if got != expected {
            failures.push(format!(
                "{file} (kind {kind}): expected {expected:?}, got {line}"
            ));
        }
        let _ = writeln!(snap, "{file}\t{line}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(plans_read > 150, "only {plans_read} plans read");
    insta::assert_snapshot!("corpus_summary", snap);
}

/// The walking reader (blocks, slices, one change at a time) gives the same model as one
/// serde_json pass over the whole file, on every corpus file: the same plan (changes, drift,
/// outputs, types, notes; so the same verdicts), or an error from both. The streaming entry
/// points (`read_path_or_stdin_each`, `read_path_or_stdin_with_objects`) agree with `read_file`.
#[test]
fn the_walking_reader_agrees_with_a_whole_document_parse_on_every_corpus_file() {
    let Some(root) = std::env::var_os("WARD_CORPUS") else {
        println!("skipped: WARD_CORPUS not set");
        return;
    };
    let root = PathBuf::from(root);
    let files = corpus_files(&root);
    assert!(
        files.len() > 100,
        "WARD_CORPUS={}: too few files",
        root.display()
    );
    let (mut same_plans, mut same_errors, mut removed, mut set) = (0, 0, 0, 0);
    for file in &files {
        let path = root.join(file);
        let bytes = std::fs::read(&path).unwrap();
        let walked = read_file(&path);
        let arg = path.to_str().unwrap();
        let mut each = Vec::new();
        let streamed = ward_plan::read_path_or_stdin_each(arg, &mut |c| each.push(c));
        let with_objects = ward_plan::read_path_or_stdin_with_objects(arg);
        let utf8_plain = std::str::from_utf8(&bytes).is_ok() && !bytes.starts_with(b"\xEF\xBB\xBF");
        match &walked {
            Ok(plan) => {
                let mut streamed = streamed.unwrap_or_else(|e| panic!("{file}: {e}"));
                streamed.changes = each;
                assert_eq!(&streamed, plan, "{file}: streamed and whole models differ");
                let (objects_plan, _) = with_objects.unwrap_or_else(|e| panic!("{file}: {e}"));
                assert_eq!(&objects_plan, plan, "{file}: the objects pass differs");
                // Without content fingerprints nor what a delete removes nor what a create
                // sets (`ward plan`'s terminal report, for types whose creates cost nothing):
                // the same model, `content` left unset and a delete's and a create's `changed`
                // empty.
                let light = ward_plan::ReadOptions {
                    content: false,
                    objects: false,
                    removed: false,
                    created: Some(ward_plan::CreatedLeaves::when(|_| false)),
                    pipelined: true,
                };
                let (mut light, _) = ward_plan::read_with(arg, light, None).unwrap();
                assert!(light.changes.iter().all(|c| c.content.is_none()), "{file}");
                assert!(plan.changes.iter().all(|c| c.content.is_some()), "{file}");
                for (l, c) in light.changes.iter_mut().zip(&plan.changes) {
                    l.content.clone_from(&c.content);
                    if c.action == ward_model::Action::Delete {
                        assert!(l.changed.is_empty() && l.changed_left_out == 0, "{file}");
                        removed += c.changed.len();
                        l.changed.clone_from(&c.changed);
                        l.changed_left_out = c.changed_left_out;
                    }
                    if matches!(
                        c.action,
                        ward_model::Action::Create | ward_model::Action::CreateThenForget
                    ) {
                        assert!(l.changed.is_empty() && l.changed_left_out == 0, "{file}");
                        set += c.changed.len();
                        l.changed.clone_from(&c.changed);
                        l.changed_left_out = c.changed_left_out;
                    }
                }
                for (l, c) in light.drift.iter_mut().zip(&plan.drift) {
                    l.content.clone_from(&c.content);
                }
                assert_eq!(
                    &light, plan,
                    "{file}: the read without fingerprints differs"
                );
                if utf8_plain {
                    let whole = ward_plan::fuzzing::read_whole(&bytes)
                        .unwrap_or_else(|e| panic!("{file}: whole-document parse failed: {e}"));
                    assert_eq!(
                        &whole, plan,
                        "{file}: walked and whole-document models differ"
                    );
                    same_plans += 1;
                }
            }
            Err(e) => {
                assert_eq!(streamed.map(|_| ()).unwrap_err().kind(), e.kind(), "{file}");
                assert_eq!(
                    with_objects.map(|_| ()).unwrap_err().kind(),
                    e.kind(),
                    "{file}"
                );
                // Read without fingerprints (entries in one pass where they can be): the same
                // error, word for word.
                let light = ward_plan::ReadOptions {
                    content: false,
                    objects: false,
                    ..ward_plan::ReadOptions::default()
                };
                let light = ward_plan::read_with(arg, light, None)
                    .map(|_| ())
                    .unwrap_err();
                assert_eq!(light.to_string(), e.to_string(), "{file}");
                if utf8_plain {
                    assert!(
                        ward_plan::fuzzing::read_whole(&bytes).is_err(),
                        "{file}: the walk refused it ({e}), the whole-document parse read it"
                    );
                    same_errors += 1;
                }
            }
        }
    }
    assert!(same_plans > 150, "only {same_plans} plans compared");
    assert!(
        removed > 50,
        "only {removed} attributes of deletes left out"
    );
    assert!(set > 50, "only {set} attributes of creates left out");
    println!("{same_plans} plans and {same_errors} refused files agree");
}
