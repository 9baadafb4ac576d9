//! What the report says of the plan's pass/fail: the costs and the result in words. The
//! decision itself (`ward_classify::outcome::evaluate`, [`Outcome`]) is ward-classify's; the
//! types the renderers take are re-exported here.

pub use ward_classify::outcome::{cost_unknown, Exit, Outcome, Reason};
pub(crate) use ward_classify::outcome::{plural, thousands};
use ward_classify::Assessment;
use ward_model::Impact;

/// What the plan costs, worst first, counting changes above `free` and changes of unknown cost:
/// `1 data-loss, 3 replace, 1 unclassified`. Empty when nothing costs more than `free`.
pub fn plan_costs(a: &Assessment) -> String {
    let mut parts = Vec::new();
    let unknown = a.verdicts.iter().filter(|v| cost_unknown(v)).count();
    if unknown > 0 {
        parts.push(format!("{} unclassified", thousands(unknown)));
    }
    for i in Impact::ALL.iter().rev().filter(|i| **i > Impact::Free) {
        let n = a
            .verdicts
            .iter()
            .filter(|v| v.classified && v.impact == *i && v.action.is_change())
            .count();
        if n > 0 {
            parts.push(format!("{} {i}", thousands(n)));
        }
    }
    parts.join(", ")
}

/// The `rest` of [`result_words`] for a costly plan without a threshold.
pub const NO_THRESHOLD: &str = "no --fail-on set";

/// The result in words. With a threshold (or a failure): `PASS`/`FAIL` and why. Without a
/// threshold on a plan that costs something, never a bare "pass": the costs lead,
/// `1 data-loss, 3 replace · no --fail-on set`. `(lead, rest)`: `lead` is what a report shows
/// in bold or colour.
pub fn result_words(a: &Assessment, outcome: &Outcome) -> (String, String) {
    let costs = plan_costs(a);
    if outcome.exit == Exit::Pass && outcome.fail_on.is_none() && !costs.is_empty() {
        return (costs, NO_THRESHOLD.to_string());
    }
    let word = if outcome.exit == Exit::Pass {
        "PASS"
    } else {
        "FAIL"
    };
    (word.to_string(), outcome.headline())
}
