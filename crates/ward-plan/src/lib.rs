//! Reads the JSON output of `terraform show -json PLANFILE` (Terraform 0.12 to 1.15) and
//! `tofu show -json PLANFILE` (OpenTofu) into ward's change model, [`ward_model::Plan`].
//!
//! # What is read
//!
//! * `format_version` 0.x and 1.x (any minor: minors only add keys, and unknown keys are
//!   ignored). Any other major, or a version that is not `MAJOR.MINOR`, is refused
//!   ([`PlanErrorKind::UnsupportedFormatVersion`]): ward fails closed rather than guess.
//! * HCP Terraform's "redacted JSON plan", which writes `plan_format_version` instead; the
//!   model records that in [`ward_model::Plan::reader_notes`].
//! * A plan-shaped object without any format version (a hand-trimmed plan) is read when it
//!   clearly is a plan (it has `resource_changes`, `resource_drift` or `planned_values`);
//!   the model then says so in `reader_notes` and `format_version` is `0.0`. Without those
//!   keys it is [`PlanErrorKind::NotAPlan`].
//! * Every `resource_changes` entry becomes a [`ward_model::ResourceChange`]; an `actions`
//!   list ward does not know is refused ([`PlanErrorKind::UnknownAction`]), as is an unknown
//!   `mode` (and an unknown `output_changes` action). `resource_drift` and `output_changes`
//!   are kept as context.
//! * Resource types (mode, type, provider) from `configuration` (all module calls) and from
//!   `prior_state` (all child modules).
//! * `changed` (the attribute paths that really change) is computed for updates and both kinds
//!   of replacement, in `resource_changes` and `resource_drift` alike; for a create, delete,
//!   read, forget or no-op the whole object is the change and `changed` is empty.
//! * The product, by evidence: Terraform when `terraform_version` is below 1.6 (OpenTofu's
//!   first release); else OpenTofu when a provider address is on `registry.opentofu.org`;
//!   Terraform when one is on `registry.terraform.io` or the plan has Terraform-only keys
//!   (`applyable`, `complete`); otherwise unknown.
//! * Context sections degrade instead of failing: a `resource_drift` or `output_changes`
//!   entry that cannot be read (or the whole section, when it has the wrong type) is skipped
//!   and [`ward_model::Plan::reader_notes`] says which and why; a `resource_drift` entry
//!   without `address` (Terraform 0.15 to 1.0.0 wrote them so) gets it rebuilt from
//!   `module_address`, `type`, `name` and `index`. `checks`, `deferred_changes`,
//!   `relevant_attributes` and unknown keys are skipped unread. `format_version` and every
//!   `resource_changes` entry still fail closed.
//!
//! # Memory
//!
//! The input is read in 256 KiB blocks into one buffer and walked (the `walk` module): the
//! root object, `resource_changes` and `resource_drift` one entry at a time, `prior_state` down
//! to each resource, and any skipped array or object longer than 64 KiB child by child. Each
//! entry is located with a structural scan (strings jumped with `memchr`) and parsed by
//! serde_json from that one slice; what the walk is past is released. `planned_values`, the
//! values in `prior_state`, `variables` and unknown keys are checked (JSON syntax, UTF-8,
//! depth) without being kept; `configuration` (which does not grow with `count`/`for_each`) is
//! parsed as one slice for its types. An entry's `before`/`after` values are only built when
//! the action needs a diff. Peak memory is the model plus the largest single entry and a
//! block, not the file; a string longer than the value budget ([`VALUE_BUDGET`], 1 MiB as
//! written) is not held either: it is hashed as the walk passes it and read as a stand-in,
//! `ward: value too long to show (N bytes, sha256 …; it starts "…")`, which differs exactly
//! when the value does (so diffs and content digests follow the value), and what is shown says
//! so ([`read_reader_budgeted`] takes another budget). A string in a skipped section longer
//! than 1 MiB was refused as invalid JSON before (the skip took it for an array).
//! [`read_path_or_stdin_each`], [`read_reader_each`] and [`read_with`] hand each change to a callback instead of keeping it (as `ward plan` reads): the reader
//! then holds one change at a time. [`read_with`] with a callback reads on a thread of its own
//! and hands the changes over in batches through a bounded channel (at most about a thousand
//! changes ahead of the callback), so that reading and what the caller does with each change
//! overlap on a second core; the changes, their order and the errors are those of a read on the
//! caller's thread (on a machine, or under a CPU quota, of one core it reads on the caller's
//! thread, and so it does when [`ReadOptions::pipelined`] is off, as `ward gate` reads unless
//! it writes a record).
//! [`ReadOptions::content`] turns off the content fingerprint, most of the reading time, for
//! callers that never use it, [`ReadOptions::removed`] the leaves of what a delete removes,
//! for callers that never show them, and [`ReadOptions::created`] those of what a create sets,
//! but for the resource types a caller says need them. `scripts/bench`
//! measures the reader with `ward plan` and `ward gate`; docs/performance.md has the figures.
//!
//! Nesting deeper than 128 levels is refused everywhere, also in the skipped parts, with the
//! byte offset of the bracket that passes the limit. Line and column are computed only for
//! an error message.
//!
//! # Errors
//!
//! Every problem is a [`PlanError`] whose `Display` names the input, says what was wrong and
//! what to do: a binary plan, a state file, a `plan -json` UI log, an empty file, truncated or
//! invalid JSON (with the byte offset), nesting deeper than 128 levels, invalid UTF-8 (with the
//! offset of the first bad byte, wherever it is), a directory, an unreadable file. UTF-16 input
//! (as Windows PowerShell writes it) is decoded and read; byte offsets of JSON errors then count
//! the decoded UTF-8 text, and a lone surrogate is refused with its offset in the file
//! ([`PlanErrorKind::InvalidUtf16`]). Offsets in a UTF-8 file with a byte order mark count the
//! mark's three bytes. An object that holds a key twice, anywhere in the input (an entry's
//! own keys, its values at any depth, the skipped sections), is refused
//! ([`PlanErrorKind::DuplicateKey`], naming the key, its offset and the change's address when
//! it is in one): Terraform and OpenTofu never write one, and a reading that keeps either of
//! the two may see another plan than apply acts on. Nothing panics on any input.

mod diff;
mod error;
mod fingerprint;
pub mod fuzzing;
mod input;
mod long;
mod parse;
mod unique;
mod walk;

pub use error::{PlanError, PlanErrorKind};
pub use long::VALUE_BUDGET;

use error::HOW_TO_MAKE_A_PLAN;
use input::Encoding;
use parse::{Acc, Semantic, Top};
use serde::de::DeserializeSeed;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use ward_model::{FormatVersion, Plan, Product, ResourceChange};

/// The objects a plan destroys (deletes or replaces), by (address, deposed key), each with its
/// top-level attributes as they are before the change: nulls left out, and every attribute
/// `before_sensitive` marks, wholly or in part, left out (an object marked sensitive as a whole
/// has none). What liveness guards are told about the object they guard.
pub type BeforeObjects = BTreeMap<(String, Option<String>), BTreeMap<String, serde_json::Value>>;

/// Which creates' leaves a read builds ([`ReadOptions::created`]): true for a resource type
/// whose creates need them.
#[derive(Clone)]
pub struct CreatedLeaves(std::sync::Arc<dyn Fn(&str) -> bool + Send + Sync>);

impl CreatedLeaves {
    /// Builds a create's leaves when `wants` says so of its resource type (it is asked on the
    /// thread that reads, once for each create).
    pub fn when(wants: impl Fn(&str) -> bool + Send + Sync + 'static) -> Self {
        CreatedLeaves(std::sync::Arc::new(wants))
    }

    pub(crate) fn wants(&self, type_name: &str) -> bool {
        (self.0)(type_name)
    }
}

impl std::fmt::Debug for CreatedLeaves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CreatedLeaves(..)")
    }
}

/// What a read computes beyond the model's shown values (see [`read_with`]).
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Compute each change's content fingerprint ([`ResourceChange::content`]): a SHA-256 tree
    /// over every raw value of its `change` object, which keyed approval digests bind to. It is
    /// most of the reading time on a large plan; a caller that never looks at it (`ward plan`)
    /// turns it off. On by default.
    pub content: bool,
    /// Collect the [`BeforeObjects`] of every `resource_changes` entry that destroys an
    /// object, in the same pass. Off by default.
    pub objects: bool,
    /// Build what a delete removes: [`ResourceChange::changed`] of a `delete` entry, every leaf
    /// of its `before` (as a create's is every leaf of its `after`). Nothing in a delete's
    /// classification reads it; a report that lists it does (the JSON report always, the
    /// terminal and Markdown reports with `--expand`), a guard told a change's attributes does,
    /// and so does a change's full digest (every field of the change: a gate record). A caller
    /// that needs none of these turns it off: a delete's `changed` is then empty and its
    /// `changed_left_out` 0, the rest of the change the same (`before_scalars` too), and a
    /// delete costs about half as much to read. `resource_drift` entries are built whole
    /// either way. On by default.
    pub removed: bool,
    /// Build what a create sets, [`ResourceChange::changed`] of a `create` entry (every leaf of
    /// its `after`), only for the creates this says want it; `None` (the default): for every
    /// create. A create's classification reads it only for a type that `overwrites` or
    /// `modifies` an existing object; the terminal and Markdown reports list it for a create
    /// that costs more than free or overwrites, or with `--expand free`; the JSON report, a
    /// guard and a change's full digest always read it. A create left out has an empty
    /// `changed` and `changed_left_out` 0, the rest of the change the same (`after_scalars`
    /// too). `resource_drift` entries are built whole either way.
    pub created: Option<CreatedLeaves>,
    /// With a callback for each change ([`read_with`]'s `on_change`), read on a thread of its
    /// own while the caller's thread handles the changes, when the process may run on a second
    /// core: reading overlaps what the caller does with each change. A caller that does little
    /// with a change next to reading it (`ward gate` without a record) turns it off: the
    /// hand-over then costs more CPU time than the overlap saves, and saves no wall time. On by
    /// default.
    pub pipelined: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            content: true,
            objects: false,
            removed: true,
            created: None,
            pipelined: true,
        }
    }
}

/// Reads a plan from a path (or standard input when `arg` is `-`) in one bounded pass, as
/// `options` asks. With `on_change`, every `resource_changes` entry is handed to it as soon as
/// it is read, in the plan's order, instead of kept (see [`read_path_or_stdin_each`]). The
/// objects are empty unless [`ReadOptions::objects`] is set.
pub fn read_with(
    arg: &str,
    options: ReadOptions,
    on_change: Option<&mut dyn FnMut(ResourceChange)>,
) -> Result<(Plan, BeforeObjects), PlanError> {
    let pipelined = options.pipelined;
    let mut acc = Acc::for_options(options);
    let source = if arg == "-" {
        Source::Stdin
    } else {
        let path = Path::new(arg);
        let name = path.display().to_string();
        let meta = std::fs::metadata(path).map_err(|e| input::read_error(&name, &e))?;
        if meta.is_dir() {
            return Err(input::is_directory(&name));
        }
        let file = std::fs::File::open(path).map_err(|e| input::read_error(&name, &e))?;
        Source::File(file, name)
    };
    let plan = match on_change {
        Some(sink) if pipelined && second_core() => read_pipelined(source, sink, &mut acc)?,
        sink => source.read(sink, &mut acc)?,
    };
    Ok((plan, acc.objects.take().unwrap_or_default()))
}

/// What [`read_with`] reads: standard input (locked by the thread that reads it) or an open
/// file and its name for errors.
enum Source {
    Stdin,
    File(std::fs::File, String),
}

impl Source {
    /// Reads the whole source into `acc`, handing changes to `sink` when there is one.
    fn read(
        self,
        sink: Option<&mut dyn FnMut(ResourceChange)>,
        acc: &mut Acc,
    ) -> Result<Plan, PlanError> {
        match self {
            Source::Stdin => read_acc(std::io::stdin().lock(), "<stdin>", sink, acc),
            Source::File(file, name) => read_acc(file, &name, sink, acc),
        }
    }
}

/// Whether this process may run on more than one core (its affinity and CPU quota allow it):
/// on one core a reading thread would only add the cost of handing changes over.
fn second_core() -> bool {
    std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

/// Changes per hand-over between the reading thread and the caller's (see [`read_pipelined`]).
/// Each hand-over the caller waits for wakes a sleeping thread, and on two cores that, not the
/// channel, is what a small batch costs: with 32 changes a batch, `ward plan` on the 60 MB bench
/// plan (25,684 changes) switched threads about 550 times and spent 216 ms of CPU time; with
/// 256, about 100 times and 200 ms, and it ends sooner (143 ms against 158 ms wall; stop 52,
/// docs/performance.md). Large enough that hand-overs are rare, small enough that the changes in
/// flight are a few megabytes on the largest plans.
const BATCH: usize = 256;

/// Batches handed over and waiting between the reading thread and the caller's: with the one
/// being filled and the one the caller works through, four batches of [`BATCH`] bound the
/// changes read ahead of the caller (1,024). On the 500 MB bench plan that is 1.5 to 2 MB more
/// peak memory than 32 a batch for the plan formats, and up to 5 MB for a keyed `ward gate
/// --record`, whose deletes carry what they remove.
const BATCHES_AHEAD: usize = 2;

/// Reads `source` on a thread of its own while the caller's thread runs `sink` on each change,
/// in the plan's order: reading and what the caller does with a change (classifying, rendering)
/// overlap instead of taking turns, on a machine with a second core. Everything else is as a
/// read on the caller's thread: the same changes in the same order, the same plan and errors
/// (the changes handed over before an error belong to an input that is not a plan). When no
/// thread can be started, reads on the caller's thread.
fn read_pipelined(
    source: Source,
    sink: &mut dyn FnMut(ResourceChange),
    acc: &mut Acc,
) -> Result<Plan, PlanError> {
    // The source and the accumulator go to the reading thread through this slot, so that they
    // are still here when the thread cannot be started.
    let work = std::sync::Mutex::new(Some((source, std::mem::take(acc))));
    let take = || match work.lock() {
        Ok(mut slot) => slot.take(),
        Err(poisoned) => poisoned.into_inner().take(),
    };
    let (batches, received) = std::sync::mpsc::sync_channel::<Vec<ResourceChange>>(BATCHES_AHEAD);
    let read = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("ward-plan reader".into())
            .spawn_scoped(scope, || {
                let batches = batches;
                let (source, mut reader_acc) = take()?;
                let mut batch = Vec::with_capacity(BATCH);
                let result = source.read(
                    Some(&mut |change| {
                        batch.push(change);
                        if batch.len() == BATCH {
                            let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                            // The receiver outlives this thread (the caller's thread drains it
                            // until this sender is dropped): a send cannot fail.
                            let _ = batches.send(full);
                        }
                    }),
                    &mut reader_acc,
                );
                if !batch.is_empty() {
                    let _ = batches.send(batch);
                }
                Some((result, reader_acc))
            });
        let Ok(reading) = spawned else {
            return None;
        };
        for batch in &received {
            for change in batch {
                sink(change);
            }
        }
        match reading.join() {
            Ok(read) => read,
            // The reader does not panic on any input; if it ever did, the panic goes on here
            // as it would have on the caller's thread.
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    let (result, reader_acc) = match read {
        Some(read) => read,
        // No thread: the work is still in its slot, read it here.
        None => match take() {
            Some((source, mut here)) => (source.read(Some(sink), &mut here), here),
            None => {
                return Err(input::read_error(
                    "the plan",
                    &std::io::ErrorKind::Other.into(),
                ))
            }
        },
    };
    *acc = reader_acc;
    result
}

/// [`read_with`] over any reader; `source_name` names it in errors. The reader need not be
/// buffered.
pub fn read_reader_with<R: Read>(
    reader: R,
    source_name: &str,
    options: ReadOptions,
    on_change: Option<&mut dyn FnMut(ResourceChange)>,
) -> Result<(Plan, BeforeObjects), PlanError> {
    let mut acc = Acc::for_options(options);
    let plan = read_acc(reader, source_name, on_change, &mut acc)?;
    Ok((plan, acc.objects.take().unwrap_or_default()))
}

/// [`read_reader_with`] with another value budget than [`VALUE_BUDGET`]: a string longer than
/// `value_budget` bytes (as written in the JSON) is read as a stand-in that names its length and
/// the SHA-256 of its bytes, and is never held in memory (see the crate's `# Memory`). For tests
/// and for callers that need another bound.
pub fn read_reader_budgeted<R: Read>(
    reader: R,
    source_name: &str,
    options: ReadOptions,
    value_budget: usize,
    on_change: Option<&mut dyn FnMut(ResourceChange)>,
) -> Result<(Plan, BeforeObjects), PlanError> {
    let mut acc = Acc {
        budget: Some(value_budget),
        ..Acc::for_options(options)
    };
    let plan = read_acc(reader, source_name, on_change, &mut acc)?;
    Ok((plan, acc.objects.take().unwrap_or_default()))
}

/// [`read_path_or_stdin`], also collecting the [`BeforeObjects`] of every `resource_changes`
/// entry that destroys an object, in the same single, bounded pass (standard input included).
pub fn read_path_or_stdin_with_objects(arg: &str) -> Result<(Plan, BeforeObjects), PlanError> {
    read_with(
        arg,
        ReadOptions {
            objects: true,
            ..ReadOptions::default()
        },
        None,
    )
}

/// Reads a plan from a file.
pub fn read_file(path: &Path) -> Result<Plan, PlanError> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| input::read_error(&name, &e))?;
    if meta.is_dir() {
        return Err(input::is_directory(&name));
    }
    let file = std::fs::File::open(path).map_err(|e| input::read_error(&name, &e))?;
    read_reader(file, &name)
}

/// Reads a plan from standard input.
pub fn read_stdin() -> Result<Plan, PlanError> {
    read_reader(std::io::stdin().lock(), "<stdin>")
}

/// Reads a plan from a path, or from standard input when `arg` is `-`.
pub fn read_path_or_stdin(arg: &str) -> Result<Plan, PlanError> {
    read_with(arg, ReadOptions::default(), None).map(|(plan, _)| plan)
}

/// Reads a plan from a path (or standard input when `arg` is `-`), handing every
/// `resource_changes` entry to `on_change` as soon as it is read, in the plan's order, instead
/// of keeping it: the returned plan's [`Plan::changes`] is empty, everything else is as
/// [`read_path_or_stdin`] returns it. Memory then holds one change at a time, not all of them.
///
/// The product ([`Plan::product`]) is only known once the whole input is read. On an error the
/// changes already handed over belong to an input that is not a valid plan: discard them.
pub fn read_path_or_stdin_each(
    arg: &str,
    on_change: &mut dyn FnMut(ResourceChange),
) -> Result<Plan, PlanError> {
    read_with(arg, ReadOptions::default(), Some(on_change)).map(|(plan, _)| plan)
}

/// [`read_reader`], handing every `resource_changes` entry to `on_change` as it is read (see
/// [`read_path_or_stdin_each`]).
pub fn read_reader_each<R: Read>(
    reader: R,
    source_name: &str,
    on_change: &mut dyn FnMut(ResourceChange),
) -> Result<Plan, PlanError> {
    read_reader_with(reader, source_name, ReadOptions::default(), Some(on_change))
        .map(|(plan, _)| plan)
}

/// Reads a plan from any reader; `source_name` names it in errors. The reader need not be
/// buffered.
pub fn read_reader<R: Read>(reader: R, source_name: &str) -> Result<Plan, PlanError> {
    read_reader_with(reader, source_name, ReadOptions::default(), None).map(|(plan, _)| plan)
}

/// Reads into `acc` (which may ask for more than the model, see [`Acc::objects`]).
fn read_acc<R: Read>(
    reader: R,
    source_name: &str,
    sink: Option<&mut dyn FnMut(ResourceChange)>,
    collected: &mut Acc,
) -> Result<Plan, PlanError> {
    let input::Prepared {
        mut walker,
        encoding,
    } = input::prepare(reader, source_name)?;
    let mut acc = std::mem::take(collected);
    walker.budget = acc.budget.unwrap_or(VALUE_BUDGET);
    if let Err(fail) = walk::document(&mut walker, &mut acc, sink) {
        return Err(walk_error(source_name, fail, &walker, &mut acc));
    }
    collected.objects = acc.objects.take();
    finish(acc, source_name, encoding)
}

/// Reads a whole in-memory UTF-8 document with one serde_json pass over it, as the reader did
/// before it walked blocks (no byte order mark or UTF-16 handling): the reference the walk is
/// tested against.
fn read_whole(data: &[u8], source_name: &str) -> Result<Plan, PlanError> {
    let mut acc = Acc::default();
    let mut de = serde_json::Deserializer::from_slice(data);
    let result =
        Top(&mut acc, None)
            .deserialize(&mut de)
            .and_then(|()| if acc.stop { Ok(()) } else { de.end() });
    if acc.stop {
        if let Some(problem) = acc.problem.take() {
            return Err(semantic_error(source_name, problem));
        }
    }
    if let Err(e) = result {
        return Err(PlanError::new(
            source_name,
            PlanErrorKind::InvalidJson {
                offset: e.column() as u64,
            },
            format!("not valid JSON: {e}"),
            HOW_TO_MAKE_A_PLAN,
        ));
    }
    finish(acc, source_name, Encoding::Utf8)
}

/// Says what stopped the walk.
fn walk_error<R: Read>(
    name: &str,
    fail: walk::Fail,
    w: &walk::Walker<R>,
    acc: &mut Acc,
) -> PlanError {
    use crate::PlanErrorKind as K;
    use walk::Fail;
    if acc.stop {
        if let Some(problem) = acc.problem.take() {
            return semantic_error(name, problem);
        }
    }
    let at = |offset: u64| {
        let (line, column) = w.line_col(offset);
        format!("line {line}, column {column}")
    };
    match fail {
        Fail::Stop => match acc.problem.take() {
            Some(problem) => semantic_error(name, problem),
            None => PlanError::new(
                name,
                K::NotAPlan,
                "the input is not a plan",
                HOW_TO_MAKE_A_PLAN,
            ),
        },
        Fail::Blank => input::blank(name, false),
        Fail::Eof => {
            let count = w.total();
            PlanError::new(
                name,
                K::Truncated { offset: count },
                format!(
                    "the JSON ends early, at byte {count} ({}): the file is truncated \
                     (an interrupted redirect or copy, or a full disk)",
                    at(count)
                ),
                format!("write the plan JSON again; {HOW_TO_MAKE_A_PLAN}"),
            )
        }
        Fail::TooDeep(offset) => too_deep(name, offset, None),
        Fail::Utf8(offset) => input::invalid_utf8(name, offset),
        Fail::Utf16(offset) => PlanError::new(
            name,
            K::InvalidUtf16 { offset },
            format!(
                "the input is UTF-16 but not valid UTF-16: a lone surrogate (half of a \
                 character) or a cut-off code unit at byte {offset} of the file"
            ),
            format!(
                "the file was damaged after it was written, or was not written as text; write \
                 it again from the plan: {HOW_TO_MAKE_A_PLAN}"
            ),
        ),
        Fail::Json { offset, what } => PlanError::new(
            name,
            K::InvalidJson { offset },
            format!("not valid JSON at byte {offset} ({}): {what}", at(offset)),
            format!("the file is damaged or is not JSON; {HOW_TO_MAKE_A_PLAN}"),
        ),
        Fail::Duplicate { offset, what } => PlanError::new(
            name,
            K::DuplicateKey { offset },
            format!(
                "the plan JSON holds {what} (at byte {offset}, {}): Terraform and OpenTofu \
                 never write a key twice, and ward cannot tell which of the two apply would \
                 act on",
                at(offset)
            ),
            format!("the plan was edited or not written by `show -json`; {HOW_TO_MAKE_A_PLAN}"),
        ),
        Fail::Data { offset, what } => PlanError::new(
            name,
            K::Malformed { offset },
            format!(
                "the plan JSON has an unexpected shape at byte {offset} ({}): {what}",
                at(offset)
            ),
            format!("the plan was edited or not written by `show -json`; {HOW_TO_MAKE_A_PLAN}"),
        ),
        Fail::Io(e) => PlanError::new(
            name,
            K::Unreadable,
            format!("reading the input failed at byte {}: {e}", w.total()),
            "check that the file is readable and complete",
        ),
    }
}

/// Turns what was collected into a plan, or says what the document is instead.
fn finish(mut acc: Acc, name: &str, encoding: Encoding) -> Result<Plan, PlanError> {
    let has = |k: &str| acc.keys.contains(k);
    let plan_shaped = has("resource_changes") || has("resource_drift") || has("planned_values");

    if !plan_shaped {
        if has("values") || has("lineage") || has("serial") || has("encrypted_data") {
            return Err(state_error(name, &acc));
        }
        if has("version") && (has("resources") || has("modules")) {
            return Err(state_error(name, &acc));
        }
        if has("provider_schemas") {
            return Err(PlanError::new(
                name,
                crate::PlanErrorKind::NotAPlan,
                "this is `providers schema -json` output, not a plan",
                HOW_TO_MAKE_A_PLAN,
            ));
        }
        if has("format_version") && acc.keys.len() <= 2 {
            return Err(PlanError::new(
                name,
                crate::PlanErrorKind::NotAPlan,
                "this JSON object holds only a format version: it is `show -json` output of an \
                 empty state or an empty provider schema, not a plan (a plan always has \
                 `planned_values`)",
                HOW_TO_MAKE_A_PLAN,
            ));
        }
        return Err(PlanError::new(
            name,
            crate::PlanErrorKind::NotAPlan,
            "this JSON object is not a plan: it has none of `resource_changes`, \
             `resource_drift` or `planned_values`",
            HOW_TO_MAKE_A_PLAN,
        ));
    }
    if let Some(problem) = acc.problem.take() {
        return Err(semantic_error(name, problem));
    }

    let mut notes = Vec::new();
    let version_text = match (&acc.format_version, &acc.plan_format_version) {
        (Some(v), _) => Some(v.clone()),
        (None, Some(v)) => {
            notes.push(format!(
                "read as an HCP Terraform redacted JSON plan (plan_format_version {v}), \
                 not `show -json` output"
            ));
            Some(v.clone())
        }
        (None, None) => {
            notes.push(
                "the plan has no format_version (hand-trimmed or not written by \
                 `show -json`); it was read as format 0.0"
                    .to_string(),
            );
            None
        }
    };
    let format_version = match version_text.as_deref().and_then(parse::parse_version) {
        Some((major, minor)) => FormatVersion { major, minor },
        None => FormatVersion::default(),
    };
    match encoding {
        Encoding::Utf8 => {}
        Encoding::Utf16Le | Encoding::Utf16Be => notes.push(
            "the file was UTF-16 encoded (as a Windows PowerShell redirect writes it); \
             it was decoded"
                .to_string(),
        ),
    }

    notes.extend(acc.context_notes());
    // OpenTofu's first release was 1.6: anything older that wrote this plan is Terraform.
    let before_opentofu = acc
        .terraform_version
        .as_deref()
        .and_then(|v| {
            parse::parse_version(
                v.split(['.', '-', '+'])
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(".")
                    .as_str(),
            )
        })
        .is_some_and(|v| v < (1, 6));
    let product = if before_opentofu {
        Product::Terraform
    } else if acc.opentofu_host {
        Product::OpenTofu
    } else if acc.terraform_host || has("applyable") || has("complete") {
        Product::Terraform
    } else {
        Product::Unknown
    };

    Ok(Plan {
        format_version,
        terraform_version: acc.terraform_version,
        product,
        changes: acc.changes,
        drift: acc.drift,
        output_changes: acc.outputs,
        configured_types: acc.configured,
        state_types: acc.state_types,
        errored: acc.errored,
        complete: acc.complete,
        reader_notes: notes,
    })
}

fn state_error(name: &str, acc: &Acc) -> PlanError {
    let has = |k: &str| acc.keys.contains(k);
    let what = if has("encrypted_data") {
        "this is an encrypted OpenTofu state file, not a plan"
    } else if has("values") {
        "this is `show -json` output of a state, not of a plan (it has `values` but no \
         `resource_changes` or `planned_values`)"
    } else {
        "this is a Terraform/OpenTofu state file (`terraform.tfstate`), not a plan"
    };
    PlanError::new(
        name,
        crate::PlanErrorKind::StateFile,
        what,
        HOW_TO_MAKE_A_PLAN,
    )
}

fn semantic_error(name: &str, problem: Semantic) -> PlanError {
    use crate::PlanErrorKind as K;
    match problem {
        Semantic::UiLog => PlanError::new(
            name,
            K::UiLog,
            "this is a machine-readable UI log (`terraform plan -json` or `apply -json` \
             output: lines of `@level`/`@message`), not a plan",
            "save the plan and show it as JSON instead: \
             `terraform plan -out=tfplan && terraform show -json tfplan > plan.json`",
        ),
        Semantic::UnsupportedFormatVersion(v) => PlanError::new(
            name,
            K::UnsupportedFormatVersion,
            match parse::parse_version(&v) {
                Some((major, _)) => format!(
                    "format_version `{v}` has major version {major}, which this ward does not \
                     know; ward reads majors 0 and 1 and will not guess at a new format"
                ),
                None => format!(
                    "format_version `{v}` is not a version of the form MAJOR.MINOR; ward reads \
                     majors 0 and 1 and will not guess"
                ),
            },
            "upgrade ward, or produce the plan with a Terraform/OpenTofu version whose \
             format ward knows (Terraform 0.12 to 1.15, OpenTofu)",
        ),
        Semantic::UnknownAction { address, actions } => PlanError::new(
            name,
            K::UnknownAction,
            format!(
                "`{address}` has actions {}, which ward does not know; ward fails closed \
                 rather than guess what apply would do",
                serde_json::Value::from(actions)
            ),
            "upgrade ward; if this plan was written by a newer Terraform/OpenTofu, report \
             the action so ward can learn it",
        ),
        Semantic::UnknownMode { address, mode } => PlanError::new(
            name,
            K::UnknownMode,
            format!(
                "`{address}` has mode `{mode}`, which ward does not know (it knows managed, \
                 data and ephemeral); ward fails closed"
            ),
            "upgrade ward; if this plan was written by a newer Terraform/OpenTofu, report \
             the mode so ward can learn it",
        ),
        Semantic::Malformed(what) => PlanError::new(
            name,
            K::Malformed { offset: 0 },
            what,
            format!("the plan was edited or not written by `show -json`; {HOW_TO_MAKE_A_PLAN}"),
        ),
        Semantic::NotAnObject(what) => PlanError::new(
            name,
            K::NotAPlan,
            format!("the input is {what} in JSON, not a plan object"),
            HOW_TO_MAKE_A_PLAN,
        ),
    }
}

fn too_deep(name: &str, offset: u64, at: Option<&str>) -> PlanError {
    let at = at.map(|a| format!(", {a}")).unwrap_or_default();
    PlanError::new(
        name,
        crate::PlanErrorKind::TooDeep { offset },
        format!(
            "the JSON nests deeper than {} levels (at byte {offset}{at}); no plan written by \
             Terraform or OpenTofu nests that deep",
            input::MAX_DEPTH
        ),
        format!("check where the file came from; {HOW_TO_MAKE_A_PLAN}"),
    )
}
