//! WARD-VER-003: Provider without a version constraint.

use super::prelude::*;

/// WARD-VER-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ver003,
    name: "provider-unconstrained",
    title: "Provider without a version constraint",
    severity: Severity::Error,
    category: Category::Versions,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "A `required_providers` entry without `version` lets every `init` without a lock file pick the newest provider, including a new major version with breaking changes. Give a constraint (`~> 5.0`) in every module and root.",
    fix: "Give every `required_providers` entry a `version` constraint (`~> 5.0`).",
    waive: "",
    fails: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-VER-003/fail/versions.tf"),
        },
    ],
    passes: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-VER-003/pass/versions.tf"),
        },
    ],
    in_examples: (InExample::UnlessCalledModuleSets, "examples and tests of a module repository whose called module constrains the provider (a copy inherits the constraint through the call)"),
    check: Check::Each(check),
};

/// Every `required_providers` entry has a version constraint.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for m in &cx.repo.modules {
        for p in &m.required_providers {
            if p.version.is_some() {
                continue;
            }
            cx.out.push(
                at(
                    RuleId::Ver003,
                    &p.loc,
                    format!(
                        "provider \"{}\"{} has no version constraint",
                        p.name,
                        p.source
                            .as_ref()
                            .map(|s| format!(" ({s})"))
                            .unwrap_or_default()
                    ),
                )
                .in_dir(&m.dir),
            );
        }
    }
    Ok(())
}
