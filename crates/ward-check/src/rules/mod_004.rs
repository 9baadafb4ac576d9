//! WARD-MOD-004: Registry module version is a range.

use super::prelude::*;

/// WARD-MOD-004's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Mod004,
    name: "registry-module-range",
    title: "Registry module version is a range",
    severity: Severity::Warning,
    category: Category::Modules,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "A version constraint such as `~> 5.0` or `>= 1.2` on a registry module lets `init -upgrade` move the module within the range; the lock file does not pin modules, only providers. Pin an exact version (`version = \"5.1.2\"`) and upgrade on purpose.",
    fix: "Pin an exact version (`version = \"5.1.2\"`) and upgrade on purpose.",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-004/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-004/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A registry module whose `version` is a range.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for u in &cx.sources.uses {
        let crate::rules::sources::What::Registry {
            address,
            version: Some(v),
        } = &u.what
        else {
            continue;
        };
        if ward_version::is_exact(v) {
            continue;
        }
        cx.out.push(
            at(
                RuleId::Mod004,
                &u.loc,
                format!(
                    "module \"{}\": registry module {address} at version \"{v}\" is a range; pin an exact version",
                    u.call
                ),
            )
            .in_dir(&u.dir),
        );
    }
    Ok(())
}
