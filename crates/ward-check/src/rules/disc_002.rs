//! WARD-DISC-002: Declared root not found.

use super::prelude::*;

/// WARD-DISC-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Disc002,
    name: "declared-root-missing",
    title: "Declared root not found",
    severity: Severity::Error,
    category: Category::Discovery,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(6),
    doc: "`ward.hcl` declares a root whose directory holds no Terraform/OpenTofu files. A root renamed or moved away silently drops out of every gate that works from the declared list; the declaration and the tree must agree. Fix the `path` or remove the `root` block.",
    fix: "Fix the root's `path` in `ward.hcl`, or remove the `root` block.",
    waive: "",
    fails: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-002/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-002/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Every declared root exists.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    let Some(cfg) = cx.config else {
        return Ok(());
    };
    if cfg.roots.is_empty() {
        return Ok(());
    }
    for d in &cfg.roots {
        if cx.repo.module(&d.path).is_none() {
            cx.out.push(Finding::new(
                RuleId::Disc002,
                &cfg.file,
                d.line,
                format!(
                    "root \"{}\" is declared at \"{}\", but that directory has no Terraform/OpenTofu files",
                    d.name, d.path
                ),
            ));
        }
    }
    Ok(())
}
