//! The classifier, as `ward plan` calls it.
//!
//! `ward_classify::assess` is being written; until it lands this build cannot classify, and says
//! so (exit 2) rather than print a report it did not compute.

use crate::error::CliError;
use ward_classify::Assessment;
use ward_model::Plan;
use ward_rules::Knowledge;

/// Classifies `plan` with `knowledge`. `allow_unclassified` relaxes the coverage gate.
pub fn assess(
    _plan: &Plan,
    _knowledge: &Knowledge,
    _allow_unclassified: bool,
) -> Result<Assessment, CliError> {
    Err(
        CliError::new("this build of ward has no classifier yet (ward_classify::assess)")
            .hint("the plan was read; classification lands with the ward-classify crate"),
    )
}
