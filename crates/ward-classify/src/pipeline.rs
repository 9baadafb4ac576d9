//! `ward plan`'s pipeline as one call: each change is classified as the reader hands it over
//! and kept or counted by the caller's `keep` (a report's entries, a JSON record written at
//! once), then the plan's coverage and pass/fail are decided. The CLI only chooses the reader
//! and what `keep` does with a verdict; it no longer writes the pipeline once per report
//! format.

use crate::outcome::{self, GateOptions, Outcome};
use crate::{Assessment, Assessor, Options, Verdict};
use ward_model::{Plan, ResourceChange};
use ward_rules::Knowledge;

/// What [`assess_read`] decided.
#[derive(Debug)]
pub struct Assessed {
    /// The verdicts kept, the coverage gate and the counts.
    pub assessment: Assessment,
    /// Pass or fail, and why.
    pub outcome: Outcome,
    /// For each verdict of the assessment, in its order, the position of its change in the
    /// plan ([`Assessor::finish_ordered`]).
    pub order: Vec<usize>,
    /// What the reader noted about the plan (to say on standard error).
    pub notes: Vec<String>,
}

/// Reads a plan with `read`, which hands each change to the callback it is given as it reads
/// it and returns the rest of the plan; classifies each change then; hands each verdict to
/// `keep`, which keeps it (returns it) or counts it and drops it (returns `None`:
/// [`Assessor::add_kept`]); then finishes the assessment and evaluates it against `gate`. A
/// read error is returned as it is, and nothing is decided.
pub fn assess_read<E>(
    read: impl FnOnce(&mut dyn FnMut(ResourceChange)) -> Result<Plan, E>,
    knowledge: &Knowledge,
    options: &Options,
    gate: &GateOptions,
    mut keep: impl FnMut(Verdict) -> Option<Verdict>,
) -> Result<Assessed, E> {
    let mut assessor = Assessor::new(knowledge);
    let mut plan = read(&mut |c| assessor.add_kept(c, &mut keep))?;
    let notes = std::mem::take(&mut plan.reader_notes);
    let (assessment, order) = assessor.finish_ordered(&plan, options);
    drop(plan);
    let outcome = outcome::evaluate(&assessment, gate);
    Ok(Assessed {
        assessment,
        outcome,
        order,
        notes,
    })
}
