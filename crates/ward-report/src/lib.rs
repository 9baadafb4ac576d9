//! Renders ward's verdicts on a plan and every other command's typed report; it decides nothing.
//!
//! A plan in three formats, all deterministic (same [`Assessment`] → same bytes):
//!
//! - [`render_terminal`]: for people at a terminal, grouped by class, worst first; colour only when
//!   the caller enables it.
//! - [`render_json`]: for machines, with a versioned schema ([`json::SCHEMA_VERSION`], documented
//!   in `docs/json-schema.md`).
//! - [`render_markdown`]: for pull-request comments; never longer than the limit it is given, and
//!   always says how many entries it left out.
//!
//! The exit code is decided by ward-classify (`ward_classify::outcome::evaluate`): errored plan
//! (2), coverage (3), `--fail-on` (1); the [`Exit`] type itself lives in `ward_model::exit` and
//! is re-exported here. ward-report only renders the decision.
//!
//! [`format`](mod@format) lists every report format ([`Format`]) and which of them each command writes
//! (`format::Command::offers`): the one source of every command's `--format`.
//!
//! The other commands' typed reports render here too, each in its module: [`check`] (`ward
//! check`), [`gate`] (`ward gate`, `ward approve`, `ward verify`) and [`drift`] (`ward drift`,
//! `ward drift history`). The crates that decide (ward-check, ward-gate, ward-drift) return typed
//! reports and an [`Exit`] and render nothing.
//!
//! [`escape`] is the one terminal escaper and the one Markdown escaper of every command (plan,
//! gate, verify, drift, check): no value from a plan, a repository or an approvals file reaches a
//! terminal or a Markdown document unescaped.
//!
//! No value marked sensitive reaches any format: the model already replaced it with
//! [`ward_model::Shown::Sensitive`], which every renderer prints as `(sensitive)` (JSON: a value of
//! kind `sensitive` with no `value` field).

pub mod check;
pub mod dashboard;
pub mod drift;
mod entry;
pub mod escape;
pub mod format;
pub mod gate;
mod group;
pub mod import;
pub mod json;
pub mod junit;
mod kept;
mod markdown;
mod options;
pub mod outcome;
mod paint;
pub mod rules;
pub mod stack;
mod terminal;
mod text;

pub use format::{Format, Unsupported};
pub use kept::Keep;
pub use markdown::render_markdown;
pub use options::{Expand, RenderOptions, DEFAULT_MARKDOWN_LIMIT, MIN_MARKDOWN_LIMIT};
pub use outcome::{cost_unknown, Exit, Outcome, Reason};
pub use terminal::render_terminal;

use ward_classify::Assessment;

/// Renders an assessment and its outcome in the chosen format (`ward plan`'s: terminal, JSON,
/// Markdown; any other is [`Unsupported`]).
pub fn render(
    a: &Assessment,
    outcome: &Outcome,
    opts: &RenderOptions,
) -> Result<String, Unsupported> {
    Ok(match opts.format {
        Format::Terminal => terminal::render(a, outcome, opts.color, opts.expand),
        Format::Json => render_json(a, outcome),
        Format::Markdown => {
            markdown::render_markdown_kept(a, outcome, opts.markdown_limit, opts.expand, None)
        }
        f => return Err(format::Command::Plan.unsupported(f)),
    })
}

/// Renders the JSON report (pretty-printed, with a final newline).
pub fn render_json(a: &Assessment, outcome: &Outcome) -> String {
    json::render(a, outcome)
}

/// Writes an assessment and its outcome in the chosen format to `w`. The JSON format is
/// streamed (one change at a time, never the whole report in memory); the others are rendered
/// first, then written. The bytes are those of [`render`]; a format `ward plan` does not write
/// is an error of kind `InvalidInput` ([`Unsupported`]). The caller flushes.
pub fn write<W: std::io::Write>(
    a: &Assessment,
    outcome: &Outcome,
    opts: &RenderOptions,
    mut w: W,
) -> std::io::Result<()> {
    match opts.format {
        Format::Json => json::write(a, outcome, w),
        Format::Terminal => {
            terminal::write_terminal(a, outcome, opts.color, opts.expand, None, &mut w)
        }
        Format::Markdown => w.write_all(render(a, outcome, opts)?.as_bytes()),
        f => Err(format::Command::Plan.unsupported(f).into()),
    }
}

/// [`write()`] for an assessment whose change verdicts were kept by `keep` (terminal or
/// Markdown; see [`Keep`]): `order` is the second value of
/// `ward_classify::Assessor::finish_ordered`. Same bytes as [`write()`] on the whole verdicts.
/// The terminal report is written block by block, never whole in memory.
pub fn write_kept<W: std::io::Write>(
    a: &Assessment,
    outcome: &Outcome,
    opts: &RenderOptions,
    keep: &Keep,
    order: &[usize],
    mut w: W,
) -> std::io::Result<()> {
    let kept = kept::Kept {
        keep,
        order,
        product: a.plan.product,
    };
    match opts.format {
        Format::Json => json::write(a, outcome, w),
        Format::Terminal => {
            terminal::write_terminal(a, outcome, opts.color, opts.expand, Some(kept), &mut w)
        }
        Format::Markdown => w.write_all(
            markdown::render_markdown_kept(
                a,
                outcome,
                opts.markdown_limit,
                opts.expand,
                Some(kept),
            )
            .as_bytes(),
        ),
        f => Err(format::Command::Plan.unsupported(f).into()),
    }
}
