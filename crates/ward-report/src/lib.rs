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
//! [`format`] lists every report format ([`Format`]) and which of them each command writes
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
pub mod import;
pub mod json;
pub mod junit;
mod kept;
mod markdown;
pub mod outcome;
mod paint;
pub mod rules;
pub mod stack;
mod terminal;
mod text;

pub use format::{Format, Unsupported};
pub use kept::Keep;
pub use markdown::{render_markdown, DEFAULT_MARKDOWN_LIMIT, MIN_MARKDOWN_LIMIT};
pub use outcome::{cost_unknown, Exit, Outcome, Reason};
pub use terminal::render_terminal;

use std::collections::BTreeMap;
use ward_classify::{Assessment, Verdict};
use ward_model::Impact;

/// Options for [`render`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// The format.
    pub format: Format,
    /// Terminal format only: use ANSI colours.
    pub color: bool,
    /// Markdown format only: the most characters the report may have.
    pub markdown_limit: usize,
    /// Terminal and Markdown formats: the low classes whose changes are listed with their
    /// attributes (`--expand`). The JSON report always carries them.
    pub expand: Expand,
}

/// The low classes whose changes the terminal and Markdown reports list with their attributes
/// (`ward plan --expand free,none`). By default a `free` change is one row (address and action)
/// and the `none` changes are only counted; a change above `free` always shows its attributes,
/// a create above `free` what it sets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expand {
    /// Each `free` change is listed with its attributes (a create's: what it sets).
    pub free: bool,
    /// Each `none` change (no-op, read, forget) is listed, with its attributes if it has any.
    pub none: bool,
}

impl Expand {
    /// Every class expanded.
    pub const ALL: Expand = Expand {
        free: true,
        none: true,
    };

    /// Whether changes of `g` are expanded.
    pub(crate) fn expands(self, g: Group) -> bool {
        match g {
            Group::Class(Impact::Free) => self.free,
            Group::Class(Impact::None) => self.none,
            _ => false,
        }
    }
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            format: Format::Terminal,
            color: false,
            markdown_limit: DEFAULT_MARKDOWN_LIMIT,
            expand: Expand::default(),
        }
    }
}

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

/// A group of verdicts in a report: the changes of unknown cost first, then each class, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Group {
    /// Unclassified type, action that does something: cost unknown.
    Unknown,
    /// A class.
    Class(Impact),
}

impl Group {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Group::Unknown => "unclassified",
            Group::Class(i) => i.as_str(),
        }
    }
}

/// Which group a verdict is reported in.
pub(crate) fn group_of(v: &Verdict) -> Group {
    if cost_unknown(v) {
        Group::Unknown
    } else {
        Group::Class(v.impact)
    }
}

/// Every group, worst first, each with its verdicts (as indices into `a.verdicts`) sorted by
/// address then deposed key (empty groups included).
pub(crate) fn grouped_indexed(a: &Assessment) -> Vec<(Group, Vec<usize>)> {
    let mut order: Vec<Group> = vec![Group::Unknown];
    order.extend(Impact::ALL.iter().rev().map(|i| Group::Class(*i)));
    let mut map: BTreeMap<Group, Vec<usize>> = order.iter().map(|g| (*g, Vec::new())).collect();
    for (i, v) in a.verdicts.iter().enumerate() {
        map.entry(group_of(v)).or_default().push(i);
    }
    order
        .into_iter()
        .map(|g| {
            let mut is = map.remove(&g).unwrap_or_default();
            is.sort_by(|x, y| {
                let (x, y) = (&a.verdicts[*x], &a.verdicts[*y]);
                (&x.address, &x.deposed).cmp(&(&y.address, &y.deposed))
            });
            (g, is)
        })
        .collect()
}

/// The verdicts a [`Keep`] or [`json::Stream`] counted instead of keeping (see [`counted`]),
/// by action: the report needs of them only how many there are.
pub(crate) type Counted = BTreeMap<ward_model::Action, usize>;

/// True when the report needs nothing of the verdict but to count it: a change of the none
/// group that changes nothing (a no-op, a read) and has no fact. Its class, its action and
/// that it costs nothing are all the summary, the outcome and the none group's line use; the
/// coverage gate counts it by type (`ward_classify::Assessor::add_kept`).
pub(crate) fn counted(v: &Verdict) -> bool {
    group_of(v) == Group::Class(Impact::None) && !v.action.is_change() && v.facts.is_empty()
}

/// How many changes the report is of: the assessment's verdicts and those `counted`.
pub(crate) fn total(a: &Assessment, counted: &Counted) -> usize {
    a.verdicts.len() + counted.values().sum::<usize>()
}

/// The changes of each class and those of unknown cost, `counted` included (in none).
pub(crate) fn class_counts(a: &Assessment, counted: &Counted) -> (BTreeMap<Impact, usize>, usize) {
    let mut m: BTreeMap<Impact, usize> = Impact::ALL.iter().map(|i| (*i, 0)).collect();
    *m.entry(Impact::None).or_default() += counted.values().sum::<usize>();
    let mut unknown = 0;
    for v in &a.verdicts {
        match group_of(v) {
            Group::Unknown => unknown += 1,
            Group::Class(i) => *m.entry(i).or_default() += 1,
        }
    }
    (m, unknown)
}

/// The worst class among classified changes (changes of unknown cost excluded).
pub(crate) fn worst_class(a: &Assessment) -> Impact {
    a.verdicts
        .iter()
        .filter(|v| !cost_unknown(v))
        .map(|v| v.impact)
        .max()
        .unwrap_or_default()
}
