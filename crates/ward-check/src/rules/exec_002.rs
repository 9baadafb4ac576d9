//! WARD-EXEC-002: Module does not validate.

use super::prelude::*;

/// WARD-EXEC-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Exec002,
    name: "module-does-not-validate",
    title: "Module does not validate",
    severity: Severity::Error,
    category: Category::Exec,
    needs_terraform: true,
    opt_in: Some("--exec"),
    options: &[],
    note: Some(6),
    doc: "`init -backend=false` followed by `validate` fails on the module, run standalone with the selected binary. A module that nothing validated reaches a root only at plan time, on the day someone needs it; every module is validated on its own, whoever calls it.",
    fix: "Run `init -backend=false` and `validate` in the directory and fix what they report.",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-EXEC-002/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-EXEC-002/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Pass("`crate::exec::run`: one scratch copy per module, `fmt -check`, then `init -backend=false` and `validate` (one run of the binary raises both rules)"),
};
