//! WARD-MOD-002: Module ref cannot be classified.

use super::prelude::*;

/// WARD-MOD-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Mod002,
    name: "module-ref-unclassified",
    title: "Module ref cannot be classified",
    severity: Severity::Warning,
    category: Category::Modules,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "The ref of a git module source is neither a commit id, nor shaped like a version, nor a well-known branch name, so ward cannot tell offline whether it moves. Run with `--resolve` to ask the remote, or use a tag shaped like a version or a commit id.",
    fix: "Run with `--resolve`, or use a tag shaped like a version or a commit id.",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-002/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-002/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A git ref whose shape says neither branch, tag nor commit (and `--resolve` could not tell).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for u in &cx.sources.uses {
        let crate::rules::sources::What::Git {
            repository,
            shown,
            class: ward_repo::RefKind::Unknown,
            note,
        } = &u.what
        else {
            continue;
        };
        cx.out.push(
            at(
                RuleId::Mod002,
                &u.loc,
                format!(
                    "module \"{}\": cannot tell whether ref \"{shown}\" of {} is a branch, tag or commit{}",
                    u.call,
                    repository,
                    note.as_ref()
                        .map(|n| format!(" ({n})"))
                        .unwrap_or_else(|| " offline; run with --resolve".to_string())
                ),
            )
            .in_dir(&u.dir),
        );
    }
    Ok(())
}
