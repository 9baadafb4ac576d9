//! WARD-IMP-002: Waiver expired.

use super::prelude::*;

/// WARD-IMP-002's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Imp002,
    name: "waiver-expired",
    title: "Waiver expired",
    severity: Severity::Error,
    category: Category::Import,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(16),
    doc: "A `waiver` covering an `ignore_changes` entry has passed its `expires` date (UTC, inclusive). An exception meant to be temporary is no longer applied: fix the model and remove the `ignore_changes` entry, or renew the waiver with its owner and a reason.",
    fix: "Fix the model and remove the `ignore_changes` entry, or renew the `waiver` with its owner and a reason.",
    waive: "",
    fails: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-IMP-002/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-IMP-002/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A waiver covering an `ignore_changes` entry has expired: one finding per waiver.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    use crate::waivers::{cover, Cover};
    let config_file = cx
        .config
        .map(|c| c.file.as_str())
        .unwrap_or("ward.hcl");
    let mut expired_reported: Vec<usize> = Vec::new();
    for m in &cx.repo.modules {
        for r in m.resources.iter().filter(|r| r.mode == "managed") {
            let address = format!("{}.{}", r.type_name, r.name);
            for a in &r.ignore_changes {
                if let Cover::Expired(w) = cover(cx.config, &address, a, cx.today) {
                    if !expired_reported.contains(&w.line) {
                        expired_reported.push(w.line);
                        cx.out.push(
                            Finding::new(
                                RuleId::Imp002,
                                config_file,
                                w.line,
                                format!(
                                    "the waiver for `{address}` ignore_changes [{}] expired on {} (owner {})",
                                    w.attributes.join(", "),
                                    w.expires,
                                    w.owner
                                ),
                            )
                            .with_detail(vec![
                                format!("used by {}:{}", r.loc.file, r.loc.line),
                                format!("reason given: {}", w.reason),
                            ]),
                        );
                    }
                }
            }
        }
    }
    Ok(())
}
