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
    guards(cx.repo, cx.config, &mut cx.out);
    Ok(())
}

use crate::ansible::{setting, scopes, includes};
use std::collections::BTreeSet;
use ward_repo::playbook::Task;
use ward_repo::Repo;
use ward_config::{RuleSetting, RuleValue};

fn strings(s: Option<&RuleSetting>, key: &str) -> Vec<String> {
    s.into_iter()
        .flat_map(|s| &s.options)
        .filter(|o| o.key == key)
        .flat_map(|o| match &o.value {
            RuleValue::Strings(v) => v.clone(),
            RuleValue::Count(_) => Vec::new(),
        })
        .collect()
}

/// WARD-ANS-004: a guard role or task (`check { rule "WARD-ANS-004" { guard_roles, guard_tasks } }`)
/// not tagged `always` where it is included, or not first in a play.
pub fn guards(repo: &Repo, config: Option<&ward_config::Config>, out: &mut Vec<Finding>) {
    let s = setting(config, RuleId::Ans004);
    let roles = strings(s, "guard_roles");
    let task_names = strings(s, "guard_tasks");
    if roles.is_empty() && task_names.is_empty() {
        return;
    }
    let declared = roles
        .iter()
        .map(|r| format!("role {r}"))
        .chain(task_names.iter().map(|t| format!("task \"{t}\"")))
        .collect::<Vec<_>>()
        .join(", ");
    let is_guard_task = |t: &Task| -> Option<String> {
        if let Some((kind, name, _)) = includes(t) {
            if kind == "role" && roles.contains(&name) {
                return Some(format!("role {name}"));
            }
        }
        t.name
            .as_ref()
            .filter(|n| task_names.contains(n))
            .map(|n| format!("task \"{n}\""))
    };
    let always = |tags: &BTreeSet<String>| tags.contains("always");
    for p in &repo.playbooks {
        // Tagged `always` where it is included.
        for (play, flat) in scopes(p) {
            if let Some(pl) = play {
                let play_tags: BTreeSet<String> = pl.tags.iter().cloned().collect();
                for r in &pl.roles {
                    if roles.contains(&r.name)
                        && !r.tags.iter().any(|t| t == "always")
                        && !always(&play_tags)
                    {
                        out.push(Finding::new(
                            RuleId::Ans004,
                            &p.file,
                            r.line,
                            format!(
                                "guard role {} is not tagged `always` here: `--tags` can skip it while the tasks it guards run; add `tags: [always]`",
                                r.name
                            ),
                        ));
                    }
                }
            }
            for f in &flat {
                let Some(what) = is_guard_task(f.task) else {
                    continue;
                };
                if !always(&f.tags) {
                    out.push(Finding::new(
                        RuleId::Ans004,
                        &p.file,
                        f.task.line,
                        format!(
                            "guard {what} is not tagged `always` here: `--tags` can skip it while the tasks it guards run; add `tags: [always]`"
                        ),
                    ));
                } else if matches!(includes(f.task), Some((_, _, true)))
                    && !f.task.apply_tags.iter().any(|t| t == "always")
                {
                    out.push(Finding::new(
                        RuleId::Ans004,
                        &p.file,
                        f.task.line,
                        format!(
                            "guard {what} is included with `tags: [always]`, but what it includes is not: a dynamic include's tags apply to the include only; add `apply: {{ tags: [always] }}`"
                        ),
                    ));
                }
            }
        }
        // First in each play.
        for pl in &p.plays {
            if pl.import_playbook.is_some() {
                continue;
            }
            let first_task = pl.pre_tasks.first().map(first_leaf);
            let first = match (first_task, pl.roles.first(), pl.tasks.first()) {
                (Some(t), _, _) => is_guard_task(t).map(|_| ()),
                (None, Some(r), _) => roles.contains(&r.name).then_some(()),
                (None, None, Some(t)) => is_guard_task(first_leaf(t)).map(|_| ()),
                (None, None, None) => Some(()),
            };
            if first.is_none() {
                out.push(Finding::new(
                    RuleId::Ans004,
                    &p.file,
                    pl.line,
                    format!(
                        "play{} does not start with a guard ({declared}): whatever runs before it runs unguarded; make the guard the first of pre_tasks, roles or tasks",
                        pl.name
                            .as_ref()
                            .map(|n| format!(" \"{n}\""))
                            .unwrap_or_default()
                    ),
                ));
            }
        }
    }
}

/// A block's first task (recursively), else the task itself.
fn first_leaf(t: &Task) -> &Task {
    match (t.module.is_none(), t.children.first()) {
        (true, Some(c)) => first_leaf(c),
        _ => t,
    }
}
