//! WARD-EXEC-001: Module is not formatted.

use super::prelude::*;

/// WARD-EXEC-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Exec001,
    name: "module-unformatted",
    title: "Module is not formatted",
    severity: Severity::Error,
    category: Category::Exec,
    needs_terraform: true,
    opt_in: Some("--exec"),
    options: &[],
    note: None,
    doc: "`fmt -check` fails on the module (run standalone with the selected binary). Unformatted code makes every review diff noisy and hides the real change. Run `terraform fmt` (or `tofu fmt`) in the directory.",
    fix: "Run `terraform fmt` (or `tofu fmt`) in the directory.",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-EXEC-001/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-EXEC-001/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Pass("`crate::exec::run`: one scratch copy per module, `fmt -check`, then `init -backend=false` and `validate` (one run of the binary raises both rules)"),
};
