//! The plan's pass/fail: which gates failed, and why. ward-classify decides ([`evaluate`]);
//! ward-report renders the decision ([`crate::outcome`] re-exports it for the renderers).

use crate::{Assessment, Verdict};
use serde::Serialize;
pub use ward_model::Exit;
use ward_model::Impact;

/// What the user asked the `plan` gates to enforce.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GateOptions {
    /// `--fail-on CLASS`: fail (exit 1) on any change of this class or worse. No-ops and data
    /// source reads are not changes and never reach a threshold. `None`: no threshold.
    pub fail_on: Option<Impact>,
    /// `--allow-errored`: report an errored plan without failing on that alone.
    pub allow_errored: bool,
}

/// Why a run did not pass (or a note the report must carry).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reason {
    /// The exit this reason asks for ([`Exit::Pass`] for notes that do not fail the run).
    pub exit: Exit,
    /// A stable key: `errored`, `coverage`, `unclassified-allowed`, `unclassified-unchanged`, `threshold`,
    /// `unclassified-change`.
    pub kind: &'static str,
    /// One sentence for humans.
    pub message: String,
}

/// The result of applying the gates to an assessment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The exit the process should end with.
    pub exit: Exit,
    /// The threshold in force.
    pub fail_on: Option<Impact>,
    /// Every reason, failing ones first (highest priority first), then notes.
    pub reasons: Vec<Reason>,
}

impl Outcome {
    /// The first failing reason's message, or `passed`.
    pub fn headline(&self) -> String {
        match self
            .reasons
            .iter()
            .find(|r| r.exit == self.exit && r.exit != Exit::Pass)
        {
            Some(r) => r.message.clone(),
            None => "passed".to_string(),
        }
    }
}

/// True when a verdict's cost is unknown: its type is unclassified and its action really does
/// something to a managed object. ward cannot know what such a change costs, so it counts as
/// reaching every `--fail-on` threshold.
pub fn cost_unknown(v: &Verdict) -> bool {
    !v.classified && !v.action.is_inert()
}

/// Applies the `plan` gates: errored plan (2), coverage (3), threshold (1).
pub fn evaluate(a: &Assessment, opts: &GateOptions) -> Outcome {
    let mut reasons = Vec::new();
    if a.plan.errored {
        if opts.allow_errored {
            reasons.push(Reason {
                exit: Exit::Pass,
                kind: "errored",
                message: "the plan is errored (planning failed part-way); reported anyway because of --allow-errored".into(),
            });
        } else {
            reasons.push(Reason {
                exit: Exit::Usage,
                kind: "errored",
                message: "the plan is errored: planning failed part-way, so it is incomplete and not safe to apply (pass --allow-errored to report it without failing on that)".into(),
            });
        }
    }
    let unclassified = a.coverage.unclassified.len();
    if unclassified > 0 {
        let types = plural(unclassified, "resource type", "resource types");
        if a.coverage.fails() {
            reasons.push(Reason {
                exit: Exit::Coverage,
                kind: "coverage",
                message: format!(
                    "coverage failed: {types} no rule classifies (classify them in ward.hcl, or pass --allow-unclassified)"
                ),
            });
        } else if !a.coverage.relaxed {
            reasons.push(Reason {
                exit: Exit::Pass,
                kind: "unclassified-unchanged",
                message: format!(
                    "{types} unclassified, seen only in configuration, state or no-op entries: no change of this plan touches them"
                ),
            });
        } else {
            reasons.push(Reason {
                exit: Exit::Pass,
                kind: "unclassified-allowed",
                message: format!("{types} unclassified, allowed by --allow-unclassified"),
            });
        }
    }
    if let Some(threshold) = opts.fail_on {
        let at_or_above = a
            .verdicts
            .iter()
            .filter(|v| v.classified && v.impact >= threshold && v.action.is_change())
            .count();
        let unknown = a.verdicts.iter().filter(|v| cost_unknown(v)).count();
        if at_or_above > 0 {
            reasons.push(Reason {
                exit: Exit::Fail,
                kind: "threshold",
                message: format!(
                    "{} at or above --fail-on {threshold}",
                    plural(at_or_above, "change", "changes")
                ),
            });
        }
        if unknown > 0 {
            reasons.push(Reason {
                exit: Exit::Fail,
                kind: "unclassified-change",
                message: format!(
                    "{} of unknown cost (unclassified type), treated as reaching --fail-on {threshold}",
                    plural(unknown, "change", "changes")
                ),
            });
        }
    }
    let exit = reasons.iter().fold(Exit::Pass, |e, r| e.worst(r.exit));
    // Failing reasons first, highest priority first; notes keep their order.
    reasons.sort_by_key(|r| std::cmp::Reverse(r.exit.priority()));
    Outcome {
        exit,
        fail_on: opts.fail_on,
        reasons,
    }
}

/// `1 change`, `2 changes`, with thousands separators.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", thousands(n))
    }
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
