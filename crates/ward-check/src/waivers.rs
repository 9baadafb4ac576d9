//! WARD-IMP-001 and WARD-IMP-002: every `lifecycle { ignore_changes }` entry is named in a
//! `waiver` of `ward.hcl` (address, attributes, reason, owner, expiry) that has not expired.
//! An `ignore_changes` added to make an import plan empty otherwise hides real drift on that
//! attribute forever (FIELD-NOTES 16, issue 16).

use crate::finding::Finding;
use ward_repo::Repo;
use ward_time::Date;

/// Adds the findings of both rules for every resource of every module in `repo`.
pub fn ignore_changes(repo: &Repo, today: Date, out: &mut Vec<Finding>) {
    let waivers = repo
        .config
        .as_ref()
        .map(|c| c.waivers.as_slice())
        .unwrap_or_default();
    let config_file = repo
        .config
        .as_ref()
        .map(|c| c.file.as_str())
        .unwrap_or("ward.hcl");
    let mut expired_reported: Vec<usize> = Vec::new();
    for m in &repo.modules {
        for r in m.resources.iter().filter(|r| r.mode == "managed") {
            let address = format!("{}.{}", r.type_name, r.name);
            let mut missing = Vec::new();
            for a in &r.ignore_changes {
                let covering: Vec<&ward_config::Waiver> =
                    waivers.iter().filter(|w| w.covers(&address, a)).collect();
                if covering.iter().any(|w| !w.expired(today)) {
                    continue;
                }
                match covering.first() {
                    Some(w) => {
                        if !expired_reported.contains(&w.line) {
                            expired_reported.push(w.line);
                            out.push(
                                Finding::new(
                                    "WARD-IMP-002",
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
                    None => missing.push(a.clone()),
                }
            }
            if !missing.is_empty() {
                out.push(Finding::new(
                    "WARD-IMP-001",
                    &r.loc.file,
                    r.loc.line,
                    format!(
                        "`{address}` ignores changes to {} without a waiver in ward.hcl",
                        missing.join(", ")
                    ),
                ));
            }
        }
    }
}
