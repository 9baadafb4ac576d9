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
    crate::ansible::ssh_lockout(cx.repo, &mut cx.out);
    Ok(())
}
