//! WARD-ANS-004: Ansible guard can be skipped or does not run first.

use super::prelude::*;

/// WARD-ANS-004's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans004,
    name: "ansible-guard-skippable",
    title: "Ansible guard can be skipped or does not run first",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &["guard_roles", "guard_tasks"],
    note: Some(10),
    doc: "A guard is a role or task that must run before anything else in a play (a preflight check, a liveness assertion). Declare them with `check { rule \"WARD-ANS-004\" { guard_roles = [\"preflight\"], guard_tasks = [\"Assert the cluster is healthy\"] } }`; the rule then requires (1) every play to start with a guard (the first of `pre_tasks`, else of `roles`, else of `tasks`), and (2) every place a guard is included to be tagged `always` (the `roles:` entry, the `import_role`/`include_role` task or the guard task, or a block or play around it), and a dynamic `include_role` also to apply it to what it includes (`apply: { tags: [always] }`): otherwise `--tags` skips the guard while the tasks it guards run. Without declared guards the rule finds nothing.",
    fix: "Start every play with a declared guard and tag every place it is included `always` (and `apply: { tags: [always] }` on a dynamic `include_role`).",
    waive: "",
    fails: &[
        Example {
            path: "roles/site/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-004/fail/roles/site/tasks/main.yml"),
        },
        Example {
            path: "site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-004/fail/site.yml"),
        },
    ],
    passes: &[
        Example {
            path: "roles/site/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-004/pass/roles/site/tasks/main.yml"),
        },
        Example {
            path: "site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-004/pass/site.yml"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Plays that do not start with a declared guard, or include it without `always` (the play
/// walk is in [`crate::ansible`]).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    crate::ansible::guards(cx.repo, &mut cx.out);
    Ok(())
}
