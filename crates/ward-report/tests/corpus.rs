//! Every plan of the shared corpus (`WARD_CORPUS`), read and classified for real, renders in
//! every format: JSON valid against docs/report.schema.json, Markdown within its limit, the same
//! bytes twice.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use ward_model::Impact;
use ward_report::json::{write_spilled, Spill};
use ward_report::{
    evaluate, render_json, render_markdown, render_terminal, write, write_kept, Format,
    GateOptions, Keep, RenderOptions,
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
/// kept, or its JSON spilled) writes the same bytes as the whole-plan path (the plan read
/// whole, then assessed and rendered), and the assessor's verdicts are the whole path's.
#[test]
fn corpus_plans_stream_as_they_render_whole() {
    let Some(files) = ward_rig::corpus::json_files() else {
        return;
    };
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
        RenderOptions {
            format: Format::Json,
            ..RenderOptions::default()
        },
    ];
    let mut compared = 0;
    for f in &files {
        let Ok(plan) = ward_plan::read_file(f) else {
            continue;
        };
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
            let mut spill = (opts.format == Format::Json).then(Spill::new);
            let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| match spill.as_mut() {
                Some(s) => assessor.add_with(c, |v| s.keep(v)),
                None => assessor.add_with(c, |v| keep.keep(v)),
            })
            .unwrap();
            let (slim, order) = assessor.finish_ordered(&plan, &options);
            assert_eq!(evaluate(&slim, &gate), o, "{}", f.display());
            let mut got = Vec::new();
            match spill {
                Some(s) => write_spilled(&slim, &o, s, &order, &mut got).unwrap(),
                None => write_kept(&slim, &o, opts, &keep, &order, &mut got).unwrap(),
            }
            assert!(
                got == want,
                "{} ({:?}): the streamed report differs",
                f.display(),
                opts.format
            );
        }
        compared += 1;
    }
    assert!(compared > 0, "no plan in WARD_CORPUS could be read");
    eprintln!("compared {compared} corpus plans of {} files", files.len());
}
