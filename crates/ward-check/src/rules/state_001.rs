//! WARD-STATE-001: Local state inside the repository.

use super::prelude::*;

/// WARD-STATE-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::State001,
    name: "local-state-in-repository",
    title: "Local state inside the repository",
    severity: Severity::Error,
    category: Category::State,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(12),
    doc: "A `local` backend (explicit, or its default `terraform.tfstate`) whose state path lies inside the repository. State in a worktree is lost with the worktree: a git-ignored state file was lost to a re-clone. Keep state in a remote backend, or in a host-owned directory outside every checkout, with backups beside it.",
    fix: "Use a remote backend, or a `local` backend whose path lies outside the repository.",
    waive: "",
    fails: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-STATE-001/fail/versions.tf"),
        },
    ],
    passes: &[
        Example {
            path: "versions.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-STATE-001/pass/versions.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A `local` backend whose state path lies inside the repository.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use ward_repo::{join_rel, Val};
    let abs_root = std::fs::canonicalize(&cx.repo.root).unwrap_or_else(|_| cx.repo.root.clone());
    for m in cx.repo.roots() {
        match &m.backend {
            Some(b) if b.kind == "local" => {
                let path = match b.config.iter().find(|(k, _)| k == "path") {
                    None => Some("terraform.tfstate".to_string()),
                    Some((_, Val::Str(s))) => Some(s.clone()),
                    Some(_) => None,
                };
                if let Some(p) = path {
                    let inside = if std::path::Path::new(&p).is_absolute() {
                        std::path::Path::new(&p).starts_with(&abs_root)
                    } else {
                        join_rel(&m.dir, &p).is_some()
                    };
                    if inside {
                        cx.out.push(
                            at(
                                RuleId::State001,
                                &b.loc,
                                format!(
                                    "local backend of \"{}\" keeps state at \"{p}\", inside the repository",
                                    m.dir
                                ),
                            )
                            .in_dir(&m.dir),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}
