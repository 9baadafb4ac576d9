//! `Assessor` (one change at a time, as `ward plan` reads) gives the same assessment as
//! `assess` on the whole plan, and `finish_ordered` says where each verdict came from.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use ward_classify::{assess, Assessor, Options};

/// The `.json` files of `dir`, sorted.
fn plan_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    names
}

#[test]
fn streaming_assessment_equals_whole_plan_assessment() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let k = ward_rules::Knowledge::builtin().unwrap();
    let mut checked = 0;
    for path in plan_files(&dir) {
        let Ok(whole) = ward_plan::read_file(&path) else {
            continue;
        };
        let want = assess(&whole, &k, &Options::default());

        let mut assessor = Assessor::new(&k);
        let mut seen = Vec::new();
        let plan = ward_plan::read_path_or_stdin_each(path.to_str().unwrap(), &mut |c| {
            seen.push(c.address.clone());
            assessor.add(c);
        })
        .unwrap();
        assert!(plan.changes.is_empty());
        let (got, order) = assessor.finish_ordered(&plan, &Options::default());
        assert_eq!(got, want, "{}", path.display());
        assert_eq!(order.len(), got.verdicts.len());
        for (v, &at) in got.verdicts.iter().zip(&order) {
            assert_eq!(v.address, seen[at], "{}", path.display());
        }
        checked += 1;
    }
    assert!(checked > 0, "no plan fixture read");
}

#[test]
fn opentofu_wording_is_applied_once_the_product_is_known() {
    // The provider host that says OpenTofu comes only after the change.
    let plan = r#"{"format_version":"1.2","resource_changes":[
      {"address":"aws_s3_bucket.a","mode":"managed","type":"aws_s3_bucket","name":"a",
       "provider_name":"registry.terraform.io/hashicorp/aws",
       "action_reason":"replace_because_cannot_update",
       "change":{"actions":["delete","create"],"before":{"bucket":"a"},"after":{"bucket":"b"},
                 "after_unknown":{},"before_sensitive":{},"after_sensitive":{},
                 "replace_paths":[["bucket"]]}}],
      "configuration":{"root_module":{"resources":[{"address":"aws_s3_bucket.a","mode":"managed",
       "type":"aws_s3_bucket","name":"a","provider_config_key":"aws"}]},
       "provider_config":{"aws":{"name":"aws","full_name":"registry.opentofu.org/hashicorp/aws"}}}}"#;
    let k = ward_rules::Knowledge::builtin().unwrap();
    let whole = ward_plan::read_reader(plan.as_bytes(), "t").unwrap();
    let want = assess(&whole, &k, &Options::default());
    let mut assessor = Assessor::new(&k);
    let rest = ward_plan::read_reader_each(plan.as_bytes(), "t", &mut |c| assessor.add(c)).unwrap();
    let got = assessor.finish(&rest, &Options::default());
    assert_eq!(got, want);
    assert_eq!(want.plan.product, ward_model::Product::OpenTofu);
    let lines = got.verdicts[0].explanation.join("\n");
    assert!(
        lines.contains("OpenTofu: replace_because_cannot_update"),
        "{lines}"
    );
}

/// A terse assessor's verdicts are the full ones without their explanations (drift included),
/// on every plan fixture and on the corpus when `WARD_CORPUS` names it.
#[test]
fn terse_verdicts_are_the_full_ones_without_explanations() {
    let k = ward_rules::Knowledge::builtin().unwrap();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")];
    if let Some(c) = std::env::var_os("WARD_CORPUS") {
        dirs.push(Path::new(&c).join("plans"));
    }
    let mut checked = 0;
    let mut explained = 0;
    for dir in dirs {
        for path in plan_files(&dir) {
            let Ok(whole) = ward_plan::read_file(&path) else {
                continue;
            };
            let mut want = assess(&whole, &k, &Options::default());
            let mut assessor = Assessor::new(&k).terse();
            for c in whole.changes.iter().cloned() {
                assessor.add(c);
            }
            let mut rest = whole.clone();
            rest.changes.clear();
            let got = assessor.finish(&rest, &Options::default());
            for v in want.verdicts.iter_mut().chain(want.drift.iter_mut()) {
                explained += usize::from(!v.explanation.is_empty());
                v.explanation.clear();
            }
            assert_eq!(got, want, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 0 && explained > 0, "no plan fixture read");
}

/// A verdict `add_kept` drops is not in the assessment but still counts for the coverage gate,
/// and `finish_ordered` gives the kept verdicts' positions among every change given: on every
/// plan fixture, keeping every other change (and then none) gives the whole plan's coverage
/// and the whole plan's verdicts at those positions (#35 item 2).
#[test]
fn dropped_verdicts_still_count_for_coverage() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let k = ward_rules::Knowledge::builtin().unwrap();
    let (mut checked, mut blocking) = (0, 0);
    for path in plan_files(&dir) {
        let Ok(whole) = ward_plan::read_file(&path) else {
            continue;
        };
        let want = assess(&whole, &k, &Options::default());
        blocking += usize::from(!want.coverage.blocking.is_empty());
        for every in [2, usize::MAX] {
            let mut assessor = Assessor::new(&k);
            let mut seen = Vec::new();
            for (i, c) in whole.changes.iter().cloned().enumerate() {
                seen.push(c.address.clone());
                assessor.add_kept(c, |v| (every != usize::MAX && i % every == 0).then_some(v));
            }
            let mut rest = whole.clone();
            rest.changes.clear();
            let (got, order) = assessor.finish_ordered(&rest, &Options::default());
            assert_eq!(got.coverage, want.coverage, "{}", path.display());
            let kept = if every == usize::MAX {
                0
            } else {
                whole.changes.len().div_ceil(every)
            };
            assert_eq!(got.verdicts.len(), kept, "{}", path.display());
            for (v, &at) in got.verdicts.iter().zip(&order) {
                assert_eq!(at % every, 0, "{}", path.display());
                assert_eq!(v.address, seen[at], "{}", path.display());
                assert!(want.verdicts.contains(v), "{}", path.display());
            }
        }
        checked += 1;
    }
    assert!(
        checked > 0 && blocking > 0,
        "{checked} plans, {blocking} blocking"
    );
}

/// `pipeline::assess_read`, the pipeline `ward plan` runs, gives on every plan fixture the
/// whole-plan assessment and outcome when `keep` keeps every verdict; when `keep` drops the
/// no-ops it keeps exactly the others (the coverage and outcome unchanged); a read error comes
/// back as it is, with nothing kept.
#[test]
fn the_plan_pipeline_is_the_whole_plan_assessment() {
    use ward_classify::outcome::{evaluate, GateOptions};
    use ward_classify::pipeline::assess_read;
    use ward_model::{Action, Impact};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let k = ward_rules::Knowledge::builtin().unwrap();
    let gate = GateOptions {
        fail_on: Some(Impact::Replace),
        allow_errored: false,
    };
    let mut dropped = 0;
    for path in plan_files(&dir) {
        let Ok(whole) = ward_plan::read_file(&path) else {
            continue;
        };
        let want = assess(&whole, &k, &Options::default());
        let want_outcome = evaluate(&want, &gate);
        let read = |f: &mut dyn FnMut(ward_model::ResourceChange)| {
            let file = std::fs::File::open(&path).unwrap();
            ward_plan::read_reader_with(file, "p.json", ward_plan::ReadOptions::default(), Some(f))
                .map(|(p, _)| p)
        };
        let all = assess_read(read, &k, &Options::default(), &gate, Some).unwrap();
        assert_eq!(all.assessment, want, "{}", path.display());
        assert_eq!(all.outcome, want_outcome, "{}", path.display());
        let mut sorted = all.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..whole.changes.len()).collect::<Vec<_>>());
        let some = assess_read(read, &k, &Options::default(), &gate, |v| {
            (v.action != Action::NoOp).then_some(v)
        })
        .unwrap();
        let others: Vec<_> = want
            .verdicts
            .iter()
            .filter(|v| v.action != Action::NoOp)
            .cloned()
            .collect();
        dropped += want.verdicts.len() - others.len();
        assert_eq!(some.assessment.verdicts, others, "{}", path.display());
        assert_eq!(
            some.assessment.coverage,
            want.coverage,
            "{}",
            path.display()
        );
        assert_eq!(some.outcome, want_outcome, "{}", path.display());
    }
    assert!(dropped > 0, "no fixture has a no-op");
    let mut kept = 0;
    let e = assess_read(
        |f| {
            ward_plan::read_reader_with(
                &b"{\"format_version\": 1"[..],
                "cut.json",
                Default::default(),
                Some(f),
            )
            .map(|(p, _)| p)
        },
        &k,
        &Options::default(),
        &gate,
        |v| {
            kept += 1;
            Some(v)
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        ward_plan::read_reader(&b"{\"format_version\": 1"[..], "cut.json")
            .unwrap_err()
            .to_string()
    );
    assert_eq!(kept, 0);
}
