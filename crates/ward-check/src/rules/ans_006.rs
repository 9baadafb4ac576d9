//! WARD-ANS-006: SSH hardening can run without its key install.

use super::prelude::*;

/// WARD-ANS-006's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans006,
    name: "ansible-ssh-lockout",
    title: "SSH hardening can run without its key install",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: None,
    doc: "A task that hardens sshd (`lineinfile`, `blockinfile`, `template`, `copy` or `replace` on a path containing `sshd_config`, or an `include_role`/`import_role` of a role named like `ssh_hardening`/`sshd`) and a task that installs the login key (`authorized_key`, `ansible.posix.authorized_key`, or a copy/template to `authorized_keys`) in the same play or task file must run together: when every key install carries a `when` condition the hardening does not share, or other tags than the hardening (and not `always`), a `--limit`, a fact or a `--tags`/`--skip-tags` selection hardens the host (password login off) without installing the key, and nobody can log in again. Conditions and tags inherited from blocks and the play count.",
    fix: "Give the key install the same `when` and tags as the hardening (or `always`), or move both into one block.",
    waive: "",
    fails: &[
        Example {
            path: "roles/access/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-006/fail/roles/access/tasks/main.yml"),
        },
        Example {
            path: "site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-006/fail/site.yml"),
        },
    ],
    passes: &[
        Example {
            path: "roles/access/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-006/pass/roles/access/tasks/main.yml"),
        },
        Example {
            path: "site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-006/pass/site.yml"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// SSH hardening that can run without its key install (the task walk is in
/// [`crate::ansible`]).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    ssh_lockout(cx.repo, &mut cx.out);
    Ok(())
}

use crate::ansible::{includes, label, scopes, Flat};
use std::collections::BTreeSet;
use ward_repo::playbook::Task;
use ward_repo::Repo;

fn is_key_install(t: &Task) -> bool {
    let m = t.module.as_deref().unwrap_or("");
    let short = t.short_module().unwrap_or("");
    if short == "authorized_key" || m == "ansible.posix.authorized_key" {
        return true;
    }
    matches!(short, "copy" | "template")
        && ["dest", "path"].iter().any(|k| {
            t.arg(k)
                .cloned()
                .flatten()
                .is_some_and(|p| p.contains("authorized_keys"))
        })
}

fn is_sshd_hardening(t: &Task) -> bool {
    let short = t.short_module().unwrap_or("");
    if matches!(
        short,
        "lineinfile" | "blockinfile" | "template" | "copy" | "replace"
    ) {
        return ["dest", "path"].iter().any(|k| {
            t.arg(k)
                .cloned()
                .flatten()
                .is_some_and(|p| p.contains("sshd_config"))
        });
    }
    if let Some(("role", name, _)) = includes(t) {
        return name.contains("ssh_hardening") || name.contains("sshd");
    }
    false
}

/// Why `key` can be skipped while `hardening` runs, if it can.
fn skippable(key: &Flat<'_>, hardening: &Flat<'_>) -> Option<String> {
    let extra: Vec<&String> = key.when.difference(&hardening.when).collect();
    if !extra.is_empty() {
        return Some(format!(
            "its `when: {}` is not the hardening's",
            extra
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    if key.tags.contains("always") || key.tags == hardening.tags {
        return None;
    }
    let show = |t: &BTreeSet<String>| {
        if t.is_empty() {
            "none".to_string()
        } else {
            t.iter().cloned().collect::<Vec<_>>().join(", ")
        }
    };
    Some(format!(
        "its tags ({}) are not the hardening's ({}), so a `--tags`/`--skip-tags` selection runs one without the other",
        show(&key.tags),
        show(&hardening.tags)
    ))
}

/// WARD-ANS-006: an sshd hardening task whose key install (`authorized_key`) can be skipped by
/// a condition the hardening does not share.
pub fn ssh_lockout(repo: &Repo, out: &mut Vec<Finding>) {
    for p in &repo.playbooks {
        for (_, flat) in scopes(p) {
            let keys: Vec<&Flat<'_>> = flat.iter().filter(|f| is_key_install(f.task)).collect();
            if keys.is_empty() {
                continue;
            }
            for h in flat.iter().filter(|f| is_sshd_hardening(f.task)) {
                let reasons: Vec<(usize, String)> = keys
                    .iter()
                    .map(|k| (k.task.line, skippable(k, h)))
                    .filter_map(|(l, r)| r.map(|r| (l, r)))
                    .collect();
                if reasons.len() < keys.len() {
                    continue;
                }
                let Some((kl, why)) = reasons.first() else {
                    continue;
                };
                out.push(Finding::new(
                    RuleId::Ans006,
                    &p.file,
                    h.task.line,
                    format!(
                        "{} hardens sshd, but the key install at line {kl} can be skipped while it runs: {why}; a host hardened without its key locks everyone out. Give the key install the hardening's conditions and tags (or `tags: [always]`)",
                        label(h.task)
                    ),
                ));
            }
        }
    }
}
