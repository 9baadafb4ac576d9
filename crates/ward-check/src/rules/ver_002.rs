//! WARD-VER-002: required_version excludes the floor.

use super::prelude::*;

/// WARD-VER-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ver002,
    name: "required-version-excludes-floor",
    title: "required_version excludes the floor",
    severity: Severity::Error,
    category: Category::Versions,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(13),
    doc: "`ward.hcl` sets `check { terraform_floor = \"X.Y.Z\" }`, the oldest version the team runs. A root whose `required_version` does not admit the floor cannot be initialised on hosts at the floor (a host with 1.5.7 cannot init a root requiring ≥ 1.6). Raise the floor everywhere first, or relax the constraint.",
    fix: "Widen `required_version` to admit the floor, or raise `check { terraform_floor }` once every host has moved.",
    waive: "",
    fails: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-VER-002/fail/versions.tf"),
        },
    ],
    passes: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-VER-002/pass/versions.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Every root's `required_version` admits `check { terraform_floor }`.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use ward_repo::ModuleKind;
    let Some(fs) = cx.settings.terraform_floor.as_deref() else {
        return Ok(());
    };
    let fv = ward_version::Version::parse(fs).map_err(|e| {
        format!("ward.hcl check block: terraform_floor = \"{fs}\" is not a version ({e}); write it as X.Y.Z")
    })?;
    for m in &cx.repo.modules {
        if !matches!(m.kind, ModuleKind::Root | ModuleKind::Example) {
            continue;
        }
        for (c, loc) in &m.required_version {
            let msg = match ward_version::admits(c, &fv) {
                Ok(true) => continue,
                Ok(false) => format!(
                    "required_version \"{c}\" does not admit the floor {fs}: hosts at the floor cannot init this root"
                ),
                Err(e) => format!(
                    "required_version \"{c}\" cannot be compared with the floor {fs}: {e}"
                ),
            };
            cx.out.push(at(RuleId::Ver002, loc, msg).in_dir(&m.dir));
        }
    }
    Ok(())
}
