//! WARD-VER-001: Root without required_version.

use super::prelude::*;

/// WARD-VER-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ver001,
    name: "root-without-required-version",
    title: "Root without required_version",
    severity: Severity::Error,
    category: Category::Versions,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(13),
    doc: "A root without `required_version` can be initialised by any Terraform or OpenTofu version: a host with an old binary fails late, and one with another product may rewrite provider addresses in state. Declare the versions the root is tested with.",
    fix: "Add `terraform { required_version = \"...\" }` with the versions the root is tested with.",
    waive: "",
    fails: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-VER-001/fail/versions.tf"),
        },
    ],
    passes: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-VER-001/pass/versions.tf"),
        },
    ],
    in_examples: (InExample::UnlessCalledModuleSets, "examples and tests of a module repository whose called module sets required_version (a copy inherits it through the call)"),
    check: Check::Each(check),
};

/// Every root (and example) declares `required_version`.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use ward_repo::ModuleKind;
    for m in &cx.repo.modules {
        if !matches!(m.kind, ModuleKind::Root | ModuleKind::Example) || !m.required_version.is_empty() {
            continue;
        }
        if crate::rules::shared::terragrunt_only(m) {
            skip(&mut cx.skipped, 
                RuleId::Ver001,
                "Terragrunt units without .tf files: required_version is the source module's (or set terraform_version_constraint)",
            );
        } else {
            cx.out.push(
                at(
                    RuleId::Ver001,
                    &anchor(m),
                    format!("{} \"{}\" has no required_version", m.kind.as_str(), m.dir),
                )
                .in_dir(&m.dir),
            );
        }
    }
    Ok(())
}
