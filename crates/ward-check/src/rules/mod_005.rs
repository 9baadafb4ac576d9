//! WARD-MOD-005: Same module source at different refs or versions.

use super::prelude::*;

/// WARD-MOD-005's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Mod005,
    name: "module-version-split",
    title: "Same module source at different refs or versions",
    severity: Severity::Error,
    category: Category::Modules,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(14),
    doc: "The same module package (git repository or registry address) is used at two or more refs or versions in the repository. A release must be one version across every root; two refs mean two roots run different code under the same name, and the older one is usually forgotten. The finding names the majority version and lists the other uses (source × directory × ref), not the agreeing ones; the JSON report's matrix and `--verbose` list every use. When no version has a majority, every use is listed. In a module repository the uses in its examples and tests take no part (each is copied alone, never beside another or beside the module's own pin); the matrix still lists them.",
    fix: "Move every use of the package to one ref or version.",
    waive: "",
    fails: &[
        Example {
            path: "live/a/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-005/fail/live/a/main.tf"),
        },
        Example {
            path: "live/b/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-005/fail/live/b/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "live/a/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-005/pass/live/a/main.tf"),
        },
        Example {
            path: "live/b/main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-MOD-005/pass/live/b/main.tf"),
        },
    ],
    in_examples: (InExample::Drop, "versions that differ between examples and tests of a module repository (each is copied alone: no user gets two of them)"),
    check: Check::Each(check),
};

/// One package used at several refs or versions: one finding per package, listing the uses
/// that differ from the majority.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use std::collections::{BTreeMap, BTreeSet};
    use ward_repo::source::named_version;
    use crate::finding::MatrixRow;
    use ward_repo::ModuleKind;
    // WARD-MOD-005: one package, several refs.
    // The examples and tests of a module repository are each copied alone: no user runs two of
    // them, nor one of them beside the module's own pin, so their refs split nothing (the
    // matrix still lists them).
    // Uses in a deprecated directory are not maintained: an old pin there splits nothing a
    // maintainer would align (the matrix still lists them).
    let mut by_pkg: BTreeMap<&str, Vec<&MatrixRow>> = BTreeMap::new();
    for r in cx.sources
        .matrix
        .iter()
        .filter(|r| r.kind != ModuleKind::Example.as_str() && !ward_repo::is_deprecated_dir(&r.dir))
    {
        by_pkg.entry(r.package.as_str()).or_default().push(r);
    }
    for (pkg, uses) in by_pkg {
        // `v1.2.0`, `tags/1.2.0` and `= 1.2.0` name the same release.
        let refs: BTreeSet<String> = uses
            .iter()
            .map(|r| named_version(&r.reference).unwrap_or_else(|| r.reference.clone()))
            .collect();
        if refs.len() < 2 {
            continue;
        }
        // The majority: the version most uses agree on; the finding lists the other uses, not
        // the agreeing ones. Without a majority (a tie), every use is listed.
        let norm =
            |r: &MatrixRow| named_version(&r.reference).unwrap_or_else(|| r.reference.clone());
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for r in &uses {
            *counts.entry(norm(r)).or_default() += 1;
        }
        let top = counts.values().copied().max().unwrap_or(0);
        let leaders: Vec<&String> = counts
            .iter()
            .filter(|(_, n)| **n == top)
            .map(|(v, _)| v)
            .collect();
        let row_line = |r: &MatrixRow| {
            format!(
                "{} | {} ({}) | {} [{}] | {}",
                pkg, r.dir, r.kind, r.reference, r.class, r.at
            )
        };
        let [majority] = leaders.as_slice() else {
            let first = uses[0];
            let (file, line) = crate::rules::shared::split_at(&first.at);
            let detail = uses.iter().map(|r| row_line(r)).collect();
            cx.out.push(
                Finding::new(
                    RuleId::Mod005,
                    file,
                    line,
                    format!(
                        "{pkg} is used at {} different refs/versions ({}) across {} uses",
                        refs.len(),
                        refs.iter().cloned().collect::<Vec<_>>().join(", "),
                        uses.len()
                    ),
                )
                .with_detail(detail),
            );
            continue;
        };
        let (majority, agreeing) = ((*majority).clone(), top);
        let minority: Vec<&&MatrixRow> = uses.iter().filter(|r| norm(r) != majority).collect();
        let Some(first) = minority.first() else {
            continue;
        };
        let (file, line) = crate::rules::shared::split_at(&first.at);
        let mut detail: Vec<String> = minority.iter().map(|r| row_line(r)).collect();
        detail.push(format!(
            "and {agreeing} use(s) at {majority}, the majority (listed in the JSON report's matrix and by --verbose)"
        ));
        let others: Vec<&String> = refs.iter().filter(|r| **r != majority).collect();
        cx.out.push(
            Finding::new(
                RuleId::Mod005,
                file,
                line,
                format!(
                    "{pkg} is used at {} different refs/versions across {} uses: the majority, {agreeing}, at {majority}; the other {} at {}",
                    refs.len(),
                    uses.len(),
                    minority.len(),
                    others.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
            .with_detail(detail),
        );
    }
    Ok(())
}
