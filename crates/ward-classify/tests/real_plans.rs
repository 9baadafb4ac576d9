//! Plans written by real Terraform (1.11.4) against fakecloud (`tests/fixtures/fakecloud_real_*.json`,
//! made with the provider from crates/fakecloud and `terraform show -json`), read by ward-plan and
//! assessed with the built-in packs. The plans hold sensitive values in clear, as real plans do
//! (`admin_password`): none may reach the assessment.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use ward_classify::{assess, Assessment, Options};
use ward_model::Impact;

const SECRETS: &[&str] = &["hunter2-secret", "other-secret-pw"];

fn assessed(name: &str) -> Assessment {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    let raw = std::fs::read_to_string(&path).unwrap();
    assert!(
        SECRETS.iter().any(|s| raw.contains(s)),
        "{name} should hold a sensitive value in clear, or the check below proves nothing"
    );
    let plan = ward_plan::read_file(&path).unwrap();
    let k = ward_rig::rules::knowledge().unwrap();
    let a = assess(&plan, &k, &Options::default());
    let json = serde_json::to_string(&a).unwrap();
    for s in SECRETS {
        assert!(!json.contains(s), "{s} leaked from {name}");
    }
    assert!(!a.coverage.fails(), "{:?}", a.coverage);
    a
}

/// `address impact decided_by` and the explanation, one block per verdict.
fn summary(a: &Assessment) -> String {
    let mut out = String::new();
    for v in &a.verdicts {
        let by = v
            .decided_by
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        out.push_str(&format!(
            "{} [{}] {} {}\n",
            v.address, v.action, v.impact, by
        ));
        for l in &v.explanation {
            out.push_str(&format!("    {l}\n"));
        }
    }
    out
}

#[test]
fn replacement_of_an_instance_and_a_shrunk_volume() {
    let a = assessed("fakecloud_real_plan.json");
    assert_eq!(a.max_impact(), Impact::DataLoss);
    insta::assert_snapshot!("real_replace", summary(&a));
}

#[test]
fn resize_and_password_change() {
    let a = assessed("fakecloud_real_update.json");
    assert_eq!(a.max_impact(), Impact::Interrupt);
    insta::assert_snapshot!("real_update", summary(&a));
}

#[test]
fn destroy_everything() {
    let a = assessed("fakecloud_real_destroy.json");
    assert_eq!(a.max_impact(), Impact::DataLoss);
    insta::assert_snapshot!("real_destroy", summary(&a));
}
