//! WARD-STATE-003: State file tracked by git.

use super::prelude::*;

/// WARD-STATE-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::State003,
    name: "state-file-tracked",
    title: "State file tracked by git",
    severity: Severity::Error,
    category: Category::State,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(12),
    doc: "A `*.tfstate` file is committed. State holds every attribute of every resource, secrets included, and a committed copy goes stale at the next apply while still looking authoritative. Remove it from git (`git rm --cached`), rotate any secret it holds and move state to a backend.",
    fix: "`git rm --cached` the file, rotate every secret it held, and keep state in a backend.",
    waive: "",
    fails: &[],
    passes: &[
        Example {
            path: ".gitignore",
            text: include_str!("../../tests/fixtures/rules/WARD-STATE-003/pass/.gitignore"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A state file tracked by git.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    let tracked = crate::rules::shared::tracked_state_files(cx.repo);
    for f in &tracked {
        cx.out.push(Finding::new(
            RuleId::State003,
            f,
            0,
            "state file is tracked by git",
        ));
    }
    Ok(())
}
