//! Which root instances a command visits, and in what order, without Terraform (#33: reached
//! only by the Terraform tests): `ward stack plan` refuses at once when one instance cannot be
//! run (a Terragrunt unit, no `terragrunt` on the PATH), and its report still lists every
//! instance of the selection, the others as not reached. `--site` keeps that site's instances
//! and the roots without sites, never another site's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_model::Exit;
use ward_stack::report::RootOutcome;
use ward_stack::{plan, Options};

mod common;

/// `cache` has only site `dc0`; `dns` has none and is a Terragrunt unit.
const HCL: &str = r#"
layer "substrate" {
  level = 0
}
layer "apps" {
  level = 1
}
root "network" {
  path = "network"
  layer = "substrate"
  site "dc0" {}
  site "dc1" {}
}
root "cache" {
  path = "cache"
  layer = "substrate"
  site "dc0" {}
}
root "dns" {
  path = "dns"
  layer = "substrate"
}
root "app" {
  path = "app"
  layer = "apps"
  reads = ["network", "dns"]
  site "dc0" {}
  site "dc1" {}
}
"#;

fn options(dir: &std::path::Path, hcl: &str, site: Option<&str>) -> Options {
    let mut o = common::options_with(dir, hcl);
    let unit = o.repo.join("dns");
    std::fs::create_dir_all(&unit).unwrap();
    std::fs::write(unit.join("terragrunt.hcl"), "").unwrap();
    o.env = vec![(
        "PATH".into(),
        dir.join("no-terragrunt-here").display().to_string(),
    )];
    o.site = site.map(str::to_string);
    o
}

/// The report's instances and outcomes of `ward stack plan` at `site`.
fn planned(site: Option<&str>) -> Vec<(String, RootOutcome)> {
    let t = tempfile::tempdir().unwrap();
    let r = plan(&options(t.path(), HCL, site), &|_: &str| None).unwrap();
    assert_eq!(r.exit, Exit::StackRefused);
    let why = r.stopped.unwrap();
    assert!(
        why.starts_with("dns/default: ")
            && why.ends_with("or take it out of the stack (remove `layer` from root \"dns\" in ward.hcl); nothing was run"),
        "{why}"
    );
    r.roots.iter().map(|r| (r.id(), r.outcome)).collect()
}

fn ids(refused: &str, rest: &[&str]) -> Vec<(String, RootOutcome)> {
    let mut v = vec![(refused.to_string(), RootOutcome::Refused)];
    v.extend(
        rest.iter()
            .map(|i| (i.to_string(), RootOutcome::NotReached)),
    );
    v
}

#[test]
fn every_instance_of_the_selection_is_listed_the_others_not_reached() {
    assert_eq!(
        planned(None),
        ids(
            "dns/default",
            &[
                "cache/dc0",
                "network/dc0",
                "network/dc1",
                "app/dc0",
                "app/dc1"
            ]
        )
    );
}

#[test]
fn a_site_keeps_its_instances_and_the_roots_without_sites() {
    assert_eq!(
        planned(Some("dc1")),
        ids("dns/default", &["network/dc1", "app/dc1"]),
        "cache has no dc1: it is not visited"
    );
    assert_eq!(
        planned(Some("dc0")),
        ids("dns/default", &["cache/dc0", "network/dc0", "app/dc0"])
    );
}

#[test]
fn an_unknown_site_is_refused_naming_the_sites() {
    let t = tempfile::tempdir().unwrap();
    let e = plan(&options(t.path(), HCL, Some("dc7")), &|_: &str| None)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("unknown site \"dc7\": no root declares `site \"dc7\"`")
            && e.ends_with("; the sites are: dc0, dc1"),
        "{e}"
    );
    let no_sites =
        "layer \"l\" {\n  level = 0\n}\nroot \"dns\" {\n  path = \"dns\"\n  layer = \"l\"\n}\n";
    let e = plan(&options(t.path(), no_sites, Some("dc0")), &|_: &str| None)
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("the sites are: none (no root has `site` blocks)"),
        "{e}"
    );
}
