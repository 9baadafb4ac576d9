//! WARD-DISC-003: Root not declared in ward.hcl.

use super::prelude::*;

/// WARD-DISC-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Disc003,
    name: "root-undeclared",
    title: "Root not declared in ward.hcl",
    severity: Severity::Error,
    category: Category::Discovery,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(6),
    doc: "When `ward.hcl` declares roots, every directory that looks like a root (a backend or cloud block, or a provider configuration, and not called as a module) must be declared. A constant list let two new modules go green through every gate without ever being validated; declare the root (with its layer) or, when it is not a root, give it no backend and no provider configuration.",
    fix: "Declare the root in `ward.hcl` (`root \"NAME\" { path, layer }`); a directory that is no root gets no backend and no provider configuration.",
    waive: "",
    fails: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-003/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-003/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Every root found is declared (when `ward.hcl` declares roots).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use std::collections::BTreeSet;
    let Some(cfg) = cx.config else {
        return Ok(());
    };
    if cfg.roots.is_empty() {
        return Ok(());
    }
    let declared: BTreeSet<&str> = cfg.roots.iter().map(|r| r.path.as_str()).collect();
    for m in cx.repo.roots() {
        if !declared.contains(m.dir.as_str()) {
            let loc = m
                .backend
                .as_ref()
                .map(|b| b.loc.clone())
                .or_else(|| m.cloud.clone())
                .or_else(|| m.provider_configs.first().map(|p| p.loc.clone()))
                .unwrap_or_else(|| anchor(m));
            cx.out.push(
                at(
                    RuleId::Disc003,
                    &loc,
                    format!(
                        "\"{}\" looks like a root ({}), but {} declares no root there",
                        m.dir,
                        m.reasons.join(", "),
                        cfg.file
                    ),
                )
                .in_dir(&m.dir),
            );
        }
    }
    Ok(())
}
