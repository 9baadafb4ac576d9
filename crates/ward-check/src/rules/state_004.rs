//! WARD-STATE-004: State file lying in the worktree.

use super::prelude::*;

/// WARD-STATE-004's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::State004,
    name: "state-file-in-worktree",
    title: "State file lying in the worktree",
    severity: Severity::Warning,
    category: Category::State,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(12),
    doc: "A `*.tfstate` file lies inside the repository tree, untracked or ignored. It is lost with the worktree (a re-clone, a `git clean -x`) and nobody notices until the next plan proposes to create everything again. Move it to a backend or outside the checkout.",
    fix: "Move the state to a backend or outside the repository.",
    waive: "",
    fails: &[],
    passes: &[],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A state file inside the tree, not tracked.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    let tracked = crate::rules::shared::tracked_state_files(cx.repo);
    for f in &cx.repo.state_files {
        if !tracked.contains(f.as_str()) {
            cx.out.push(Finding::new(
                RuleId::State004,
                f,
                0,
                "state file lies inside the repository tree (not tracked by git)",
            ));
        }
    }
    Ok(())
}
