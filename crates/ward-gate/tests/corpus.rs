//! Every plan of the shared corpus (`WARD_CORPUS`): `ward gate`, `ward approve` and `ward
//! verify` read the plan change by change and keep only what they decide on; they give the same
//! report, exit, record, approval digests and verify verdicts as the whole-plan path (the plan
//! read whole, assessed whole, and `ward_gate::evaluate` on it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use ward_gate::approvals;
use ward_gate::protect::{self, Protection};
use ward_gate::record::{self, Digests};
use ward_gate::run::{ApproveOptions, GateOptions, Inputs};
use ward_gate::{evaluate, run_guards, verify, GateContext, GateError};

const NOW: &str = "2026-12-01T12:00:00Z";
const KEY: &str = "corpus-key";

/// A policy under which much of a plan needs approval, counts against a budget and is guarded,
/// so every part of the report has entries; the guard applies to some destroys only (a guarded
/// change keeps every attribute, the others only their deciding ones).
const WARD_HCL: &str = r#"
policy {
  approve = ["data-loss", "replace", "interrupt", "in-place"]
  protect = ["module.*", "aws_s3_bucket.*"]
  budget {
    max_replaces = 0
    max_deletes  = 1
  }
  budget "aws_instance" {
    max_replaces = 0
  }
}

guard "idle" {
  addresses = ["module.*"]
  command   = ["true"]
}
"#;

fn env(key: bool) -> impl Fn(&str) -> Option<String> {
    move |name: &str| match name {
        "WARD_NOW" => Some(NOW.into()),
        "WARD_APPROVAL_KEY" if key => Some(KEY.into()),
        "WARD_APPROVER" => Some("corpus".into()),
        _ => None,
    }
}

/// The whole-plan path: what `ward gate` computed before it streamed.
fn whole_gate(
    f: &Path,
    inputs: &Inputs,
    key: Option<&[u8]>,
) -> Result<(ward_gate::GateReport, ward_model::Plan), String> {
    let config_path = inputs.config.as_ref().unwrap();
    let cfg = ward_config::Config::load(config_path, &config_path.display().to_string()).unwrap();
    let knowledge = ward_config::knowledge(Some(&cfg)).unwrap();
    let policy = cfg.policy;
    let (plan, objects) = ward_plan::read_with(
        &f.display().to_string(),
        ward_plan::ReadOptions {
            content: true,
            objects: true,
            ..ward_plan::ReadOptions::default()
        },
        None,
    )
    .map_err(|e| e.to_string())?;
    let assessment = ward_classify::assess(
        &plan,
        &knowledge,
        &ward_classify::Options {
            allow_unclassified: inputs.allow_unclassified,
        },
    );
    let rec = protect::load_record(&policy.protection_record).unwrap();
    let (protection, _) = Protection::combine(policy.protect.clone(), Vec::new(), &rec, None);
    let approvals_path = inputs.approvals.clone().unwrap();
    let file = approvals::load(&approvals_path).unwrap();
    let mut extra = vec![
        "--config".to_string(),
        config_path.display().to_string(),
        "--approvals".to_string(),
        approvals_path.display().to_string(),
    ];
    if inputs.allow_unclassified {
        extra.push("--allow-unclassified".into());
    }
    let ctx = GateContext {
        policy: &policy,
        protection: &protection,
        approvals: &file,
        approvals_path: approvals_path.display().to_string(),
        key,
        now: ward_time::parse_timestamp(NOW).unwrap(),
        plan_name: inputs.plan.clone(),
        approve_extra: extra,
        context: None,
    };
    let mut report = evaluate(&assessment, &ctx);
    let objects = ward_gate::guard::object_attributes(&objects);
    run_guards(
        &mut report,
        &assessment,
        &policy.guards,
        &objects,
        &|_: &str| None,
    );
    Ok((timeless(report), plan))
}

/// The report without the guards' run times (the only thing two runs differ in).
fn timeless(mut r: ward_gate::GateReport) -> ward_gate::GateReport {
    for g in &mut r.guards {
        g.millis = 0;
    }
    r
}

#[test]
fn corpus_plans_gate_approve_and_verify_streaming_as_whole() {
    let Some(files) = ward_rig::corpus::json_files() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("ward.hcl");
    std::fs::write(&config, WARD_HCL).unwrap();
    let approvals_path = dir.path().join("approvals.json");
    let key = KEY.as_bytes();
    let (mut gated, mut adopting, mut refused, mut approved) = (0, 0, 0, 0);
    let (mut required, mut deciding, mut objects) = (0, 0, 0);
    for (n, f) in files.iter().enumerate() {
        let _ = std::fs::remove_file(&approvals_path);
        let inputs = Inputs {
            plan: f.display().to_string(),
            config: Some(config.clone()),
            approvals: Some(approvals_path.clone()),
            root: None,
            allow_unclassified: n % 2 == 0,
            // No history: nothing recorded, so a plan that imports is an adoption under way.
            history: Some(ward_store::Location::Sqlite(dir.path().join("none.db"))),
        };
        let record_path = dir.path().join("gate.json");
        let opts = GateOptions {
            inputs: inputs.clone(),
            record: Some(record_path.clone()),
            no_record_protection: true,
            audit: None,
            binding: Default::default(),
        };
        let streamed = common::run_gate(&opts, &env(true));
        let whole = whole_gate(f, &inputs, Some(key));
        let (report, plan) = match (whole, streamed) {
            (Err(w), Err(GateError::Usage(s))) => {
                assert_eq!(w, s, "{}", f.display());
                refused += 1;
                continue;
            }
            (Ok((_, plan)), Err(GateError::Adopting(stderr))) => {
                // The refusal lists exactly the whole plan's refusals, in the plan's order.
                assert!(
                    ward_import::adoption::imports_anything(&plan),
                    "{}",
                    f.display()
                );
                let want = ward_import::adoption::refusals(&plan);
                let got: Vec<&str> = stderr
                    .lines()
                    .filter_map(|l| l.strip_prefix("  refused: "))
                    .collect();
                assert_eq!(got, want, "{}", f.display());
                adopting += 1;
                continue;
            }
            (Ok(w), Ok(s)) => {
                assert_eq!(timeless(s.report), w.0, "{}", f.display());
                assert_eq!(s.exit, w.0.outcome.exit(), "{}", f.display());
                let refusals = ward_import::adoption::refusals(&w.1);
                assert!(
                    !ward_import::adoption::imports_anything(&w.1) || refusals.is_empty(),
                    "{}: the whole plan would be refused as an adoption",
                    f.display()
                );
                (w.0, w.1)
            }
            (w, s) => panic!(
                "{}: whole {:?}, streamed {:?}",
                f.display(),
                w.map(|x| x.0.outcome),
                s.map(|x| x.exit)
            ),
        };
        gated += 1;
        required += report.required.len();
        deciding += report
            .required
            .iter()
            .map(|r| r.change.attributes.len())
            .sum::<usize>();
        objects += report
            .required
            .iter()
            .filter(|r| r.change.object.is_some())
            .count();

        // The keyed record is the whole plan's, byte for byte.
        let rec = record::load(&record_path).unwrap();
        let want = record::build_keyed(&plan, &inputs.plan, report.outcome, Some(key));
        assert_eq!(rec, want, "{}", f.display());

        // Verify, change by change, concludes what the whole-plan comparison does, on the
        // gated plan and on a record with one change's digest edited.
        let streamed_verify = |rec: &record::GateRecord, key: Option<&[u8]>| {
            let mut d = Digests::new();
            let mut each = |c: ward_model::ResourceChange| d.add(&c, key);
            let (meta, _) = ward_plan::read_with(
                &inputs.plan,
                ward_plan::ReadOptions::default(),
                Some(&mut each),
            )
            .unwrap();
            assert!(meta.changes.is_empty());
            verify::compare_digests(rec, &meta, d, key)
        };
        let v = streamed_verify(&rec, Some(key));
        assert_eq!(
            v,
            verify::compare_keyed(&rec, &plan, Some(key)),
            "{}",
            f.display()
        );
        assert_eq!(v.ok, report.outcome == ward_gate::Outcome::Pass);
        if let Some(first) = rec.changes.first() {
            let mut edited = rec.clone();
            edited.changes[0].digest = format!("{}0", first.digest);
            let v = streamed_verify(&edited, Some(key));
            assert!(!v.ok, "{}", f.display());
            assert_eq!(v, verify::compare_keyed(&edited, &plan, Some(key)));
        }

        // Keyless (Argon2id costs a quarter of a second a record: every eighth plan): the
        // record is the whole plan's but for its salted binding, which binds the whole plan.
        if n % 8 == 0 {
            let opts = GateOptions {
                inputs: inputs.clone(),
                record: Some(record_path.clone()),
                no_record_protection: true,
                audit: None,
                binding: Default::default(),
            };
            let s = common::run_gate(&opts, &env(false)).unwrap();
            let (w, _) = whole_gate(f, &inputs, None).unwrap();
            assert_eq!(timeless(s.report), w, "{}", f.display());
            let rec = record::load(&record_path).unwrap();
            let mut want = record::build(&plan, &inputs.plan, report.outcome);
            let binding = rec.content.clone().unwrap();
            assert_eq!(
                ward_gate::digest::content_matches(&binding, &plan),
                Ok(true),
                "{}",
                f.display()
            );
            want.content = Some(binding);
            assert_eq!(rec, want, "{}", f.display());
            let v = streamed_verify(&rec, None);
            assert_eq!(v, verify::compare(&rec, &plan), "{}", f.display());
        }

        // Approving the first change that needs it records the whole path's digest.
        if let Some(r) = report.required.first() {
            let a = common::run_approve(
                &ApproveOptions {
                    inputs: inputs.clone(),
                    address: r.address.clone(),
                    deposed: r.deposed.clone(),
                    reason: "corpus".into(),
                    ..ApproveOptions::default()
                },
                &env(true),
            )
            .unwrap();
            assert_eq!(a.changes.len(), 1, "{}", f.display());
            assert_eq!(a.changes[0].digest, r.digest, "{}", f.display());
            approved += 1;
        }
    }
    eprintln!(
        "{gated} plans gated ({required} changes needing approval, {deciding} deciding attributes, {objects} destroyed objects), {approved} approvals, {adopting} refused as adoptions, {refused} unreadable (the same error both ways)"
    );
    // The comparison means something only if the digests bind attributes and objects.
    assert!(required > 0 && deciding > 0 && objects > 0);
    assert!(gated > 0, "no plan in WARD_CORPUS could be gated");
}
