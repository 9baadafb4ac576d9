//! WARD-ANS-002: Ansible dependency at `latest` or without a version.

use super::prelude::*;

/// WARD-ANS-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans002,
    name: "ansible-dependency-unpinned",
    title: "Ansible dependency at `latest` or without a version",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "A collection or role in `requirements.yml` without a version (or at `latest`), and a `*_version` variable set to `latest`, install whatever was published last: two runs a day apart configure hosts differently and nobody decided it. Pin an exact version. A file that pins none of its dependencies (two or more) is one cause: one finding at its first entry lists them all.",
    fix: "Give every collection and role in `requirements.yml` an exact `version`, and every `*_version` variable an exact version.",
    waive: "",
    fails: &[
        Example {
            path: "ansible/requirements.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-002/fail/ansible/requirements.yml"),
        },
    ],
    passes: &[
        Example {
            path: "ansible/requirements.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-002/pass/ansible/requirements.yml"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Ansible dependencies and `*_version` variables without a version or at `latest`; a file
/// that pins none of its dependencies is one finding.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use std::collections::BTreeMap;
    use ward_repo::PinKind;
    // Per file: its unpinned dependencies (line, what), and how many dependencies it lists.
    type Unpinned = Vec<(usize, String)>;
    let mut by_file: BTreeMap<&str, (Unpinned, usize)> = BTreeMap::new();
    let mut variables: Vec<(&str, usize, String)> = Vec::new();
    for p in &cx.repo.pins {
        let dependency = matches!(p.kind, PinKind::Collection | PinKind::Role);
        let missing = p.version.is_none() && dependency;
        let latest = p
            .version
            .as_deref()
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("latest"));
        let what = match p.kind {
            PinKind::Collection => "collection",
            PinKind::Role => "role",
            PinKind::Galaxy => "galaxy.yml of",
            PinKind::Variable => "variable",
        };
        let entry = by_file.entry(p.file.as_str()).or_default();
        if dependency {
            entry.1 += 1;
        }
        if missing || latest {
            let msg = if latest {
                format!("{what} {} is at \"latest\"", p.name)
            } else {
                format!("{what} {} has no version", p.name)
            };
            if dependency {
                entry.0.push((p.line, msg));
            } else {
                variables.push((p.file.as_str(), p.line, msg));
            }
        }
    }
    for (file, line, msg) in variables {
        cx.out.push(Finding::new(
            RuleId::Ans002,
            file,
            line,
            format!("{msg}; pin an exact version"),
        ));
    }
    // A file that pins none of its (several) dependencies is one cause, reported once there.
    for (file, (unpinned, deps)) in by_file {
        if unpinned.len() >= 2 && unpinned.len() == deps {
            let first = unpinned.iter().map(|(l, _)| *l).min().unwrap_or(0);
            cx.out.push(
                Finding::new(
                    RuleId::Ans002,
                    file,
                    first,
                    format!(
                        "pins none of its {} dependencies: each install takes whatever was published last; pin an exact version for each",
                        unpinned.len()
                    ),
                )
                .with_detail(
                    unpinned
                        .iter()
                        .map(|(l, m)| format!("{file}:{l}: {m}"))
                        .collect(),
                ),
            );
            continue;
        }
        for (line, msg) in unpinned {
            cx.out.push(Finding::new(
                RuleId::Ans002,
                file,
                line,
                format!("{msg}; pin an exact version"),
            ));
        }
    }
    Ok(())
}
