//! WARD-ANS-003: Ansible fetch that fails the converge on one failed try.

use super::prelude::*;

/// WARD-ANS-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans003,
    name: "ansible-fetch-without-retry",
    title: "Ansible fetch that fails the converge on one failed try",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &["max_timeout", "min_retries", "min_delay"],
    note: None,
    doc: "A `get_url` or `uri` task (also spelled `ansible.builtin.get_url`, `ansible.builtin.uri`) must retry: one fetch that fails on a slow mirror fails the whole converge, once behind an approval gate that then had to be passed again. The rule requires (1) a retry story: `until` or `retries` (Ansible's defaults then apply: 3 retries, 5 seconds apart; without `until`, `retries` retries until the task succeeds since ansible-core 2.16, and does nothing before), with `retries` at least `min_retries` and `delay` at least `min_delay` where they are written; (2) each try bounded: `timeout` (the module argument, the task keyword, or the play's `module_defaults` for the module) at most `max_timeout`; a task that sets none is bounded by the module's own default, 10 s for get_url and 30 s for uri (ansible-core's module documentation), which is within the default limit. A task whose failure does not fail the converge (`ignore_errors: true`, `failed_when: false`) and Molecule's verifier playbooks (`molecule/<scenario>/verify.yml`, tests run after the converge) are not checked. The thresholds are settings of the rule: `check { rule \"WARD-ANS-003\" { max_timeout = 60, min_retries = 3, min_delay = 1 } }` (seconds, tries, seconds; those are the defaults); a templated value (`{{ ... }}`) is accepted as set.",
    fix: "Add `until`/`retries`/`delay` to the task, and keep `timeout` within `max_timeout`.",
    waive: "A task whose failure must not fail the converge says so with `ignore_errors: true` or `failed_when: false`; the thresholds are the rule's settings.",
    fails: &[
        Example {
            path: "playbooks/site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/fail/playbooks/site.yml"),
        },
        Example {
            path: "roles/mirror/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/fail/roles/mirror/tasks/main.yml"),
        },
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "playbooks/site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/pass/playbooks/site.yml"),
        },
        Example {
            path: "roles/mirror/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/pass/roles/mirror/tasks/main.yml"),
        },
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A `get_url`/`uri` task without a retry story or with an unbounded try (the task walk and the
/// module defaults are in [`crate::ansible`]).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    crate::ansible::fetches(cx.repo, &mut cx.out);
    Ok(())
}
