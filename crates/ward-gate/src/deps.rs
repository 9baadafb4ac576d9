//! Stand-in for `ward_classify::assess` until it lands (delete this module then).

use ward_classify::Assessment;
use ward_model::Plan;
use ward_rules::Knowledge;

/// Classifies a plan (stand-in: the classifier is not in the workspace yet).
pub fn assess(
    _plan: &Plan,
    _knowledge: &Knowledge,
    _allow_unclassified: bool,
) -> Result<Assessment, String> {
    Err("the classifier (ward-classify `assess`) is not built into this ward yet".into())
}
