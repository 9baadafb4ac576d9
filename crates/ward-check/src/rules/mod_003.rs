//! WARD-MOD-003: Registry module without a version.

use super::prelude::*;

/// WARD-MOD-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Mod003,
    name: "registry-module-unversioned",
    title: "Registry module without a version",
    severity: Severity::Error,
    category: Category::Modules,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "A registry module without `version` resolves to the newest release at every `init`: an upgrade nobody reviewed, possibly a new major version. Give `version = \"X.Y.Z\"`.",
    fix: "Give `version = \"X.Y.Z\"`.",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-003/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-003/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A registry module without `version`.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for u in &cx.sources.uses {
        let crate::rules::sources::What::Registry {
            address,
            version: None,
        } = &u.what
        else {
            continue;
        };
        cx.out.push(
            at(
                RuleId::Mod003,
                &u.loc,
                format!(
                    "module \"{}\": registry module {address} has no version; every init takes the newest release",
                    u.call
                ),
            )
            .in_dir(&u.dir),
        );
    }
    Ok(())
}
