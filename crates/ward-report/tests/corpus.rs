//! Every plan of the shared corpus (`WARD_CORPUS`), read and classified for real, renders in
//! every format: JSON valid against docs/report.schema.json, Markdown within its limit, the same
//! bytes twice; and `ward plan`'s streamed path gives the whole path's reports, on the corpus
//! and on the bundled example plans.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ward_classify::outcome::{evaluate, GateOptions};
use ward_model::Impact;
use ward_report::json::Stream;
use ward_report::{
    render_json, render_markdown, render_terminal, write, write_kept, Format, Keep, RenderOptions,
};

#[test]
fn corpus_plans_render_in_every_format() {
    let Some(files) = ward_rig::corpus::json_files() else {
        return;
    };

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

/// `ward plan`'s path (each change classified as the reader hands it over, its report entry
/// kept, or its JSON record written) gives the whole-plan path's verdicts (the plan read whole,
/// then assessed and rendered): the terminal and Markdown reports byte for byte; the JSON report
/// as the same value once its changes, in the plan's order, are sorted by address.
#[test]
fn corpus_plans_stream_as_they_render_whole() {
    let Some(files) = ward_rig::corpus::json_files() else {
        return;
    };
    let compared = stream_as_whole(&files);
    assert!(compared > 0, "no plan in WARD_CORPUS could be read");
    eprintln!("compared {compared} corpus plans of {} files", files.len());
}

/// The same on the bundled example plans, which need no corpus: their no-ops and reads are
/// only counted on `ward plan`'s path, so a miscount shows in every format.
#[test]
fn bundled_example_plans_stream_as_they_render_whole() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/plans");
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{} example plans in {dir}", files.len());
    assert_eq!(stream_as_whole(&files), files.len());
}

/// Compares both paths on each plan of `files` that reads; returns how many were compared.
fn stream_as_whole(files: &[std::path::PathBuf]) -> usize {
    let knowledge = ward_rules::Knowledge::builtin().unwrap();
    let options = ward_classify::Options::default();
    let gate = GateOptions {
        fail_on: Some(Impact::Replace),
        allow_errored: false,
    };
    let formats = [
        RenderOptions {
            format: Format::Terminal,
            color: true,
            ..RenderOptions::default()
        },
        RenderOptions {
            format: Format::Markdown,
            ..RenderOptions::default()
        },
        // `--expand free,none`: the no-ops and reads are listed, so kept, not counted.
        RenderOptions {
            format: Format::Terminal,
            expand: ward_report::Expand::ALL,
            ..RenderOptions::default()
        },
        RenderOptions {
            format: Format::Markdown,
            expand: ward_report::Expand::ALL,
            ..RenderOptions::default()
        },
    ];
    let mut compared = 0;
    for f in files {
        let Ok(plan) = ward_plan::read_file(f) else {
            continue;
        };
        let plan_order: Vec<(String, Option<String>)> = plan
            .changes
            .iter()
            .map(|c| (c.address.clone(), c.deposed.clone()))
            .collect();
        let a = ward_classify::assess(&plan, &knowledge, &options);
        drop(plan);
        let o = evaluate(&a, &gate);
        let path = f.to_str().unwrap();
        // The verdicts, whole.
        let mut assessor = ward_classify::Assessor::new(&knowledge);
        let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| assessor.add(c)).unwrap();
        assert_eq!(assessor.finish(&plan, &options), a, "{}", f.display());
        for opts in &formats {
            let mut want = Vec::new();
            write(&a, &o, opts, &mut want).unwrap();
            let mut assessor = ward_classify::Assessor::new(&knowledge);
            let mut keep = Keep::new(opts);
            // As `ward plan` keeps them: a no-op or read with no fact only counted.
            let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| {
                assessor.add_kept(c, |v| keep.keep_or_count(v))
            })
            .unwrap();
            let (slim, order) = assessor.finish_ordered(&plan, &options);
            assert_eq!(evaluate(&slim, &gate), o, "{}", f.display());
            let mut got = Vec::new();
            write_kept(&slim, &o, opts, &keep, &order, &mut got).unwrap();
            assert!(
                got == want,
                "{} ({:?}): the streamed report differs",
                f.display(),
                opts.format
            );
        }
        // The JSON report, streamed as `ward plan --format json` writes it.
        let mut got = Vec::new();
        let mut assessor = ward_classify::Assessor::new(&knowledge);
        let mut stream = Stream::start(&knowledge, &mut got);
        let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| {
            assessor.add_kept(c, |v| stream.keep_or_count(v))
        })
        .unwrap();
        let (slim, order) = assessor.finish_ordered(&plan, &options);
        let so = evaluate(&slim, &gate);
        assert_eq!(so, o, "{}", f.display());
        stream.finish(&slim, &so, &order).unwrap();
        let mut got: serde_json::Value = serde_json::from_slice(&got).unwrap();
        let written: Vec<(String, Option<String>)> = got["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let deposed = c["deposed"].as_str().map(String::from);
                (c["address"].as_str().unwrap().to_string(), deposed)
            })
            .collect();
        assert_eq!(
            written,
            plan_order,
            "{}: not in the plan's order",
            f.display()
        );
        got["changes"].as_array_mut().unwrap().sort_by(|x, y| {
            let key = |c: &serde_json::Value| {
                (
                    c["address"].as_str().map(String::from),
                    c["deposed"].as_str().map(String::from),
                )
            };
            key(x).cmp(&key(y))
        });
        let want: serde_json::Value = serde_json::from_str(&render_json(&a, &o)).unwrap();
        assert!(
            got == want,
            "{}: the streamed JSON report differs from the whole one",
            f.display()
        );
        compared += 1;
    }
    compared
}
