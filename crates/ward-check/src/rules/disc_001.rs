//! WARD-DISC-001: Nothing was checked.

use super::prelude::*;

/// WARD-DISC-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Disc001,
    name: "nothing-checked",
    title: "Nothing was checked",
    severity: Severity::Error,
    category: Category::Discovery,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(6),
    doc: "A repository gate that finds nothing to check must fail, not pass: a wrong path, a renamed directory or a checkout that did not happen would otherwise go green. The rule fires only when nothing at all was checked: no `.tf`, `.tf.json` or `.tofu` file, no Ansible playbook, task file or requirements file, and no `render` block in `ward.hcl`. Run ward check at the top of the repository, or fix the path.",
    fix: "Run `ward check` at the top of the repository, or fix the path.",
    waive: "",
    fails: &[
        Example {
            path: "README.md",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-001/fail/README.md"),
        },
    ],
    passes: &[
        Example {
            path: ".terraform.lock.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-001/pass/.terraform.lock.hcl"),
        },
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-001/pass/main.tf"),
        },
        Example {
            path: "providers.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-001/pass/providers.tf"),
        },
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-DISC-001/pass/versions.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Nothing at all was checked.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    // Nothing at all was checked: no Terraform, no Ansible (plays, task files, version pins),
    // no render block. (Scripts and CI files alone do not count: any checkout has some.)
    let rendered = cx.config.is_some_and(|c| !c.renders.is_empty());
    if cx.repo.modules.is_empty() && cx.repo.playbooks.is_empty() && cx.repo.pins.is_empty() && !rendered {
        cx.out.push(Finding::new(
            RuleId::Disc001,
            ".",
            0,
            format!(
                "no .tf, .tf.json or .tofu file, Ansible playbook or requirements file, and no render block anywhere under {} (skipped: {}); nothing was checked",
                cx.repo.root.display(),
                ward_repo::SKIPPED_DIRS.join(", ")
            ),
        ));
    }
    Ok(())
}
