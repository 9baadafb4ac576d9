//! WARD-MOD-001: Module source on a branch or without a ref.

use super::prelude::*;

/// WARD-MOD-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Mod001,
    name: "module-ref-branch",
    title: "Module source on a branch or without a ref",
    severity: Severity::Error,
    category: Category::Modules,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "A git module source at a branch (`?ref=main`) or without `?ref=` adopts whatever lands upstream at the next routine `init -upgrade` or fresh clone: with several roots on one module that is a fleet-wide change nobody decided. Pin a tag or a commit. Refs are classified offline by shape (commit: 7-40 hex digits; tag: a version such as v1.2.3; branch: well-known branch names or names with `/`); `--resolve` asks the remote with `git ls-remote` (cached) about every ref that is not a commit id.",
    fix: "Pin a tag or a commit: `?ref=v1.2.3`.",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-001/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-001/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A git source without `?ref=`, or at a branch.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for u in &cx.sources.uses {
        let crate::rules::sources::What::Git {
            repository,
            shown,
            class,
            note,
        } = &u.what
        else {
            continue;
        };
        let msg = match class {
            ward_repo::RefKind::Missing => format!(
                "module \"{}\": git source {} has no ?ref=, so it follows the remote's default branch",
                u.call, repository
            ),
            ward_repo::RefKind::Branch => format!(
                "module \"{}\": ref \"{shown}\" of {} is a branch{}; pin a tag or a commit",
                u.call,
                repository,
                note.as_ref().map(|n| format!(" ({n})")).unwrap_or_default()
            ),
            _ => continue,
        };
        cx.out.push(at(RuleId::Mod001, &u.loc, msg).in_dir(&u.dir));
    }
    Ok(())
}
