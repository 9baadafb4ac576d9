//! The JSON report, schema version [`SCHEMA_VERSION`] (documented field by field in
//! `docs/json-schema.md`).
//!
//! The report is built from its own types rather than by serializing the classifier's: the schema
//! changes only when [`SCHEMA_VERSION`] does. Adding a field is a compatible change and keeps the
//! version; renaming, removing or changing the meaning of one bumps it.

//!
//! The report is written in one pass, in the order a plan is read ([`Stream`]): what is known
//! before the plan (the versions, the knowledge), then each change as soon as it is classified,
//! then everything that needs the whole plan (drift, outputs, the plan's own fields, the summary,
//! the outcome, the coverage gate). Nothing is held or spilled for a change once written.

use crate::group::{class_counts, total, worst_class, Counted};
use crate::outcome::{cost_unknown, Outcome};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use ward_classify::explain::{plain_reason_line, reason_line};
use ward_classify::{Assessment, AttrVerdict, Fact, KnowledgeUsed, Verdict};
use ward_model::{AttrPath, Impact, Product, Shown};
use ward_rules::{RuleOrigin, RuleRef};

/// The version of the JSON report schema this crate writes. Version 2 (from 1): changes in the
/// order they are read and before the summary, the report's fields in the order they become
/// known, and the `action_reason` line of an explanation without the product's name (see
/// `docs/json-schema.md`, "Migrating from version 1").
pub const SCHEMA_VERSION: u32 = 2;

/// Another command's JSON report (gate, verify, check) with its `schema_version` first: the
/// report's own fields follow, flattened. Each command's schema is in `docs/<command>.schema.json`.
#[derive(Debug, Serialize)]
pub struct Versioned<'a, T: Serialize> {
    /// The version of that command's JSON schema.
    pub schema_version: u32,
    /// The report.
    #[serde(flatten)]
    pub report: &'a T,
}

/// A command's report as pretty JSON, `schema_version` first, with a final newline.
pub fn versioned<T: Serialize>(schema_version: u32, report: &T) -> String {
    let mut s = serde_json::to_string_pretty(&Versioned {
        schema_version,
        report,
    })
    .unwrap_or_else(|e| {
        serde_json::json!({ "schema_version": schema_version, "error": e.to_string() }).to_string()
    });
    s.push('\n');
    s
}

/// What the report says before any change: known before the plan is read. The report's first
/// fields, in this order.
#[derive(Debug, Serialize)]
struct Head<'a> {
    schema_version: u32,
    ward_version: &'static str,
    knowledge: KnowledgeJson<'a>,
}

/// What the report says after `changes`: everything that needs the whole plan. The report's
/// last fields, in this order.
#[derive(Debug, Serialize)]
struct Tail<'a> {
    /// Sorted by address then deposed key (the reader holds the drift whole).
    drift: ChangeList<'a>,
    /// Sorted by name; never a value.
    outputs: Vec<OutputJson<'a>>,
    plan: PlanJson<'a>,
    summary: SummaryJson,
    outcome: OutcomeJson<'a>,
    coverage: CoverageJson<'a>,
}

/// About the plan.
#[derive(Debug, Serialize)]
pub struct PlanJson<'a> {
    /// `MAJOR.MINOR`.
    pub format_version: String,
    /// `terraform`, `opentofu` or `unknown`.
    pub product: &'static str,
    /// The product's version, when the plan says.
    pub terraform_version: Option<&'a str>,
    /// Planning failed part-way.
    pub errored: bool,
    /// The plan's `complete`, when it says.
    pub complete: Option<bool>,
}

/// A pack.
#[derive(Debug, Serialize)]
pub struct PackJson<'a> {
    /// Name.
    pub name: &'a str,
    /// Version.
    pub version: &'a str,
}

/// The knowledge used.
#[derive(Debug, Serialize)]
pub struct KnowledgeJson<'a> {
    /// Built-in packs, sorted by name.
    pub packs: Vec<PackJson<'a>>,
    /// User rule files, in precedence order.
    pub user_files: Vec<&'a str>,
}

/// Counts.
#[derive(Debug, Serialize)]
pub struct SummaryJson {
    /// Number of resource changes (every entry of `changes`).
    pub total: usize,
    /// Changes per class, every class present (changes of unknown cost not included).
    pub by_class: BTreeMap<&'static str, usize>,
    /// Changes of unknown cost: unclassified type, action that does something.
    pub unclassified_changes: usize,
    /// The worst class among classified changes.
    pub worst_class: &'static str,
}

/// The outcome.
#[derive(Debug, Serialize)]
pub struct OutcomeJson<'a> {
    /// The process exit code.
    pub exit_code: u8,
    /// Its name: `pass`, `fail`, `usage`, `coverage`.
    pub status: &'static str,
    /// `--fail-on`, or null.
    pub fail_on: Option<&'static str>,
    /// Every reason, failing ones first.
    pub reasons: Vec<ReasonJson<'a>>,
}

/// One reason.
#[derive(Debug, Serialize)]
pub struct ReasonJson<'a> {
    /// The exit code this reason asks for (0 for a note).
    pub exit_code: u8,
    /// Stable key.
    pub kind: &'static str,
    /// For humans.
    pub message: &'a str,
}

/// A value: `{"kind":"known","value":…}`, `{"kind":"sensitive"}`, `{"kind":"unknown"}`,
/// `{"kind":"absent"}`.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum ValueJson<'a> {
    /// Known value.
    Known(&'a serde_json::Value),
    /// Sensitive: never written.
    Sensitive,
    /// Known after apply.
    Unknown,
    /// Null or absent.
    Absent,
}

impl<'a> From<&'a Shown> for ValueJson<'a> {
    fn from(s: &'a Shown) -> Self {
        match s {
            Shown::Known(v) => ValueJson::Known(v),
            Shown::Sensitive => ValueJson::Sensitive,
            Shown::Unknown => ValueJson::Unknown,
            Shown::Absent => ValueJson::Absent,
        }
    }
}

/// A rule reference.
#[derive(Debug, Serialize)]
pub struct RuleJson<'a> {
    /// The display form, e.g. `aws@2026.11.0:aws_instance[instance_type]`.
    #[serde(serialize_with = "display")]
    pub id: &'a RuleRef,
    /// `pack` or `user`.
    pub origin: &'static str,
    /// Pack name (origin `pack`).
    pub pack: Option<&'a str>,
    /// Pack version (origin `pack`).
    pub version: Option<&'a str>,
    /// File (origin `user`).
    pub file: Option<&'a str>,
    /// Line (origin `user`).
    pub line: Option<usize>,
    /// The resource type entry.
    #[serde(rename = "type")]
    pub type_name: &'a str,
    /// The attribute pattern, for attribute-level decisions.
    pub attribute: Option<&'a str>,
}

impl<'a> From<&'a RuleRef> for RuleJson<'a> {
    fn from(r: &'a RuleRef) -> Self {
        let (origin, pack, version, file, line) = match &r.origin {
            RuleOrigin::Pack { name, version } => (
                "pack",
                Some(name.as_str()),
                Some(version.as_str()),
                None,
                None,
            ),
            RuleOrigin::User { file, line } => {
                ("user", None, None, Some(file.as_str()), Some(*line))
            }
        };
        RuleJson {
            id: r,
            origin,
            pack,
            version,
            file,
            line,
            type_name: &r.type_name,
            attribute: r.attribute.as_deref(),
        }
    }
}

/// A changed attribute.
#[derive(Debug, Serialize)]
pub struct AttributeJson<'a> {
    /// Display path, e.g. `root_block_device[0].volume_size` (a JSON string).
    pub path: &'a AttrPath,
    /// Before.
    pub before: ValueJson<'a>,
    /// After.
    pub after: ValueJson<'a>,
    /// Class.
    pub impact: &'static str,
    /// Forces replacement.
    pub forces_replacement: bool,
    /// Deciding rule, or null (the resource's default for updates).
    pub rule: Option<RuleJson<'a>>,
    /// Why, or null.
    pub why: Option<&'a str>,
}

/// A fact.
#[derive(Debug, Serialize)]
#[serde(tag = "fact", rename_all = "kebab-case")]
pub enum FactJson<'a> {
    /// Imported.
    Import {
        /// Import id.
        id: Option<&'a str>,
    },
    /// Moved.
    Move {
        /// Previous address.
        from: &'a str,
    },
    /// Forgotten.
    Forget,
    /// Deposed object.
    Deposed {
        /// Deposed key.
        key: &'a str,
    },
}

impl<'a> From<&'a Fact> for FactJson<'a> {
    fn from(f: &'a Fact) -> Self {
        match f {
            Fact::Import { id } => FactJson::Import { id: id.as_deref() },
            Fact::Move { from } => FactJson::Move { from },
            Fact::Forget => FactJson::Forget,
            Fact::Deposed { key } => FactJson::Deposed { key },
        }
    }
}

/// One resource change.
#[derive(Debug, Serialize)]
pub struct ChangeJson<'a> {
    /// Instance address.
    pub address: &'a str,
    /// Deposed key, or null.
    pub deposed: Option<&'a str>,
    /// `managed`, `data`, `ephemeral`.
    pub mode: &'static str,
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: &'a str,
    /// Provider address.
    pub provider: &'a str,
    /// Terraform's spelling: `no-op`, `create`, `delete,create`...
    pub action: &'static str,
    /// The action in words.
    pub action_words: &'static str,
    /// Terraform's `action_reason`, or null.
    pub action_reason: Option<&'a str>,
    /// The class (a placeholder `none` when `classified` is false).
    pub impact: &'static str,
    /// A rule covers this type.
    pub classified: bool,
    /// Unclassified and the action does something: counts as reaching every `--fail-on`.
    pub cost_unknown: bool,
    /// The deciding rule, or null.
    pub decided_by: Option<RuleJson<'a>>,
    /// What will happen and why (the `action_reason` line without the product's name).
    pub explanation: Vec<Cow<'a, str>>,
    /// Changed attributes, in the classifier's order: an update's or a replacement's changes,
    /// what a create sets, what a delete removes.
    pub attributes: Vec<AttributeJson<'a>>,
    /// How many more attributes a create sets or a delete removes than `attributes` lists.
    pub attributes_left_out: usize,
    /// Identity attribute paths that change (JSON strings).
    pub identity_changes: Vec<&'a AttrPath>,
    /// The object holds data.
    pub holds_data: bool,
    /// The rule that says the type overwrites state that exists outside this root (an
    /// authoritative or adopting type; the explanation says what is overwritten), or null.
    pub overwrites: Option<RuleJson<'a>>,
    /// Facts, sorted.
    pub facts: Vec<FactJson<'a>>,
}

/// A list of changes, serialized one [`ChangeJson`] at a time as it is written: a report never
/// holds their JSON form all at once.
#[derive(Debug)]
struct ChangeList<'a>(Vec<&'a Verdict>);

impl Serialize for ChangeList<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|v| change(v)))
    }
}

/// Writes the JSON report in one pass as the plan is read: its head when it starts, each
/// change's record as soon as its verdict exists ([`Stream::keep`]), and the rest once the
/// whole plan is read ([`Stream::finish`]). It holds no change once written (no temporary file,
/// no record in memory), and [`Stream::keep`] hands back the verdict without what only the
/// record needed (no strings but the shared type and provider names).
///
/// ```ignore
/// let mut stream = json::Stream::start(&knowledge, out);
/// let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| assessor.add_with(c, |v| stream.keep(v)))?;
/// let (assessment, order) = assessor.finish_ordered(&plan, &options);
/// let outcome = ward_classify::outcome::evaluate(&assessment, &gate);
/// stream.finish(&assessment, &outcome, &order)?;
/// ```
///
/// The changes come in the order they are kept (`ward plan`: the plan's own order). The
/// explanation's `action_reason` line does not name the product, which is known only once the
/// whole plan is read (`plan.product` says it): a record never needs rewording.
#[derive(Debug)]
pub struct Stream<W: Write> {
    w: W,
    /// How many changes were written.
    written: usize,
    /// A record as written, indented for its place.
    buf: Vec<u8>,
    /// The first write error: nothing is written after it, and [`Stream::finish`] returns it.
    error: Option<std::io::Error>,
    /// The verdicts [`Stream::keep_or_count`] counted instead of returning.
    counted: Counted,
}

impl<W: Write> Stream<W> {
    /// Starts the report on `w` for a plan classified with `knowledge`: writes its head, up to
    /// the opening of `changes`. A write error is kept for [`Stream::finish`] to return.
    pub fn start(knowledge: &ward_rules::Knowledge, w: W) -> Stream<W> {
        Stream::for_knowledge(
            &KnowledgeUsed {
                packs: knowledge.packs(),
                user_files: knowledge.user_files(),
            },
            w,
        )
    }

    /// [`Stream::start`] for the knowledge an assessment names (`Assessment::knowledge`).
    pub fn for_knowledge(knowledge: &KnowledgeUsed, w: W) -> Stream<W> {
        let mut s = Stream {
            w,
            written: 0,
            buf: Vec::new(),
            error: None,
            counted: Counted::new(),
        };
        let head = Head {
            schema_version: SCHEMA_VERSION,
            ward_version: env!("CARGO_PKG_VERSION"),
            knowledge: knowledge_json(knowledge),
        };
        if let Err(e) = serde_json::to_writer_pretty(&mut s.buf, &head) {
            s.error = Some(e.into());
            return s;
        }
        // `{…\n}`: the head's fields without the closing brace, then `changes` opens.
        let open = s.buf.strip_suffix(b"\n}").unwrap_or(&s.buf);
        if let Err(e) =
            s.w.write_all(open)
                .and_then(|()| s.w.write_all(b",\n  \"changes\": ["))
        {
            s.error = Some(e);
        }
        s
    }

    /// Writes the verdict's record and returns the verdict slimmed to what the summary, the
    /// outcome and the coverage gate count: its type, provider, mode, action, class,
    /// `classified` and `holds_data` (the address, the reason, the rules, the explanation, the
    /// attributes, the identity changes and the facts are dropped).
    pub fn keep(&mut self, mut v: Verdict) -> Verdict {
        self.record(&v);
        v.address = String::new();
        v.deposed = None;
        v.action_reason = None;
        v.decided_by = None;
        v.explanation = Vec::new();
        v.attributes = Vec::new();
        v.identity_changes = Vec::new();
        v.facts = Vec::new();
        v.destroyed_object = None;
        v
    }

    /// [`Stream::keep`], or `None` when the summary only counts the verdict (a no-op or read
    /// of the none group with no fact; see `group::counted`): for
    /// `ward_classify::Assessor::add_kept`, so that memory holds no verdict of such a change.
    pub fn keep_or_count(&mut self, v: Verdict) -> Option<Verdict> {
        if !crate::group::counted(&v) {
            return Some(self.keep(v));
        }
        self.record(&v);
        *self.counted.entry(v.action).or_default() += 1;
        None
    }

    /// Writes one change's record, indented for its place in `changes`.
    fn record(&mut self, v: &Verdict) {
        if self.error.is_some() {
            return;
        }
        let lead: &[u8] = if self.written == 0 {
            b"\n    "
        } else {
            b",\n    "
        };
        self.buf.clear();
        self.buf.extend_from_slice(lead);
        // Each change sits two levels deep: written already indented, then written at once.
        // Writing into a Vec fails only if serializing a known value does, and it cannot (see
        // render).
        if let Err(e) = record::write(&mut self.buf, v) {
            self.error = Some(e);
            return;
        }
        self.written += 1;
        if let Err(e) = self.w.write_all(&self.buf) {
            self.error = Some(e);
        }
    }

    /// How many changes were written.
    pub fn len(&self) -> usize {
        self.written
    }

    /// True when no change was written.
    pub fn is_empty(&self) -> bool {
        self.written == 0
    }

    /// Ends the report: `a` is the assessment of the kept verdicts, and `order`, the second
    /// value of `ward_classify::Assessor::finish_ordered`, says which of its verdicts were not
    /// kept (changes the reader did not hand over): their records come last, in the
    /// assessment's order. Returns the writer; the caller flushes.
    pub fn finish(
        mut self,
        a: &Assessment,
        outcome: &Outcome,
        order: &[usize],
    ) -> std::io::Result<W> {
        let kept = self.written;
        for (i, v) in a.verdicts.iter().enumerate() {
            if order.get(i).is_none_or(|&at| at >= kept) {
                self.record(v);
            }
        }
        self.end(a, outcome)
    }

    /// Closes `changes` and writes the tail.
    fn end(mut self, a: &Assessment, outcome: &Outcome) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let tail = serde_json::to_vec_pretty(&tail(a, &self.counted, outcome))
            .map_err(std::io::Error::from)?;
        let close: &[u8] = if self.written == 0 { b"]" } else { b"\n  ]" };
        self.w.write_all(close)?;
        // `{\n…}`: the tail's fields follow `changes`.
        self.w.write_all(b",")?;
        self.w.write_all(tail.get(1..).unwrap_or_default())?;
        self.w.write_all(b"\n")?;
        Ok(self.w)
    }
}

/// serde_json's pretty layout (two spaces a level, `": "` after a key) for a value that sits
/// `depth` levels deep in the document: every line after its first is indented for that place.
/// `Indented::at(0)` writes what `serde_json::to_writer_pretty` writes.
#[derive(Debug)]
struct Indented {
    depth: usize,
    has_value: bool,
}

impl Indented {
    fn at(depth: usize) -> Indented {
        Indented {
            depth,
            has_value: false,
        }
    }

    /// A new line (after a comma when `comma`) and the indentation of the current depth.
    fn line<W: ?Sized + Write>(&self, w: &mut W, comma: bool) -> std::io::Result<()> {
        /// A comma, a line feed and the indentation of up to 31 levels: one write for most.
        const LINE: &[u8; 64] =
            b",\n                                                              ";
        let from = usize::from(!comma);
        match LINE.get(from..2 + 2 * self.depth) {
            Some(line) => w.write_all(line),
            None => {
                w.write_all(LINE.get(from..2).unwrap_or_default())?;
                for _ in 0..self.depth {
                    w.write_all(b"  ")?;
                }
                Ok(())
            }
        }
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> std::io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_value {
            self.line(w, false)?;
        }
        w.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.line(w, !first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

mod record;

/// One output change.
#[derive(Debug, Serialize)]
pub struct OutputJson<'a> {
    /// Output name.
    pub name: &'a str,
    /// Action.
    pub action: &'static str,
    /// Marked sensitive.
    pub sensitive: bool,
}

/// One unclassified type.
#[derive(Debug, Serialize)]
pub struct UnclassifiedJson<'a> {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: &'a str,
    /// Where it was seen: `configuration`, `prior_state`, `resource_changes`.
    pub seen_in: &'a [String],
}

/// The coverage gate.
#[derive(Debug, Serialize)]
pub struct CoverageJson<'a> {
    /// The gate passed (nothing unclassified, or relaxed).
    pub passed: bool,
    /// Relaxed by `--allow-unclassified`.
    pub relaxed: bool,
    /// Distinct managed types checked.
    pub types_checked: usize,
    /// Unclassified types, sorted.
    pub unclassified: Vec<UnclassifiedJson<'a>>,
}

/// Serializes a value as the string its `Display` writes, written straight into the report
/// (no string built first).
fn display<T: std::fmt::Display, S: serde::Serializer>(t: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(t)
}

fn mode_str(m: ward_model::Mode) -> &'static str {
    match m {
        ward_model::Mode::Managed => "managed",
        ward_model::Mode::Data => "data",
        ward_model::Mode::Ephemeral => "ephemeral",
    }
}

fn product_str(p: ward_model::Product) -> &'static str {
    match p {
        ward_model::Product::Terraform => "terraform",
        ward_model::Product::OpenTofu => "opentofu",
        ward_model::Product::Unknown => "unknown",
    }
}

fn change(v: &Verdict) -> ChangeJson<'_> {
    let mut facts: Vec<&Fact> = v.facts.iter().collect();
    facts.sort();
    ChangeJson {
        address: &v.address,
        deposed: v.deposed.as_deref(),
        mode: mode_str(v.mode),
        type_name: &v.type_name,
        provider: &v.provider_name,
        action: v.action.as_terraform(),
        action_words: v.action.describe(),
        action_reason: v.action_reason.as_deref(),
        impact: v.impact.as_str(),
        classified: v.classified,
        cost_unknown: cost_unknown(v),
        decided_by: v.decided_by.as_deref().map(RuleJson::from),
        explanation: explanation(v),
        attributes: v.attributes.iter().map(attribute).collect(),
        attributes_left_out: v.attributes_left_out,
        identity_changes: v.identity_changes.iter().collect(),
        holds_data: v.holds_data,
        overwrites: v.overwrites.as_deref().map(RuleJson::from),
        facts: facts.into_iter().map(FactJson::from).collect(),
    }
}

/// The verdict's explanation with its `action_reason` line (worded for whichever product the
/// classifier assumed) without the product's name.
fn explanation(v: &Verdict) -> Vec<Cow<'_, str>> {
    let Some(reason) = v.action_reason.as_deref() else {
        return v
            .explanation
            .iter()
            .map(|l| Cow::Borrowed(l.as_str()))
            .collect();
    };
    let worded = [
        reason_line(Product::Terraform, reason),
        reason_line(Product::OpenTofu, reason),
    ];
    v.explanation
        .iter()
        .map(|l| {
            if worded.contains(l) {
                Cow::Owned(plain_reason_line(reason))
            } else {
                Cow::Borrowed(l.as_str())
            }
        })
        .collect()
}

fn attribute(a: &AttrVerdict) -> AttributeJson<'_> {
    AttributeJson {
        path: &a.change.path,
        before: (&a.change.before).into(),
        after: (&a.change.after).into(),
        impact: a.impact.as_str(),
        forces_replacement: a.forces_replacement,
        rule: a.rule.as_deref().map(RuleJson::from),
        why: a.why.as_deref(),
    }
}

fn sorted(vs: &[Verdict]) -> Vec<&Verdict> {
    let mut v: Vec<&Verdict> = vs.iter().collect();
    v.sort_by(|x, y| (&x.address, &x.deposed).cmp(&(&y.address, &y.deposed)));
    v
}

fn knowledge_json(k: &KnowledgeUsed) -> KnowledgeJson<'_> {
    let mut packs: Vec<PackJson<'_>> = k
        .packs
        .iter()
        .map(|p| PackJson {
            name: &p.name,
            version: &p.version,
        })
        .collect();
    packs.sort_by(|x, y| (x.name, x.version).cmp(&(y.name, y.version)));
    KnowledgeJson {
        packs,
        user_files: k.user_files.iter().map(String::as_str).collect(),
    }
}

/// The report's fields after `changes`.
fn tail<'a>(a: &'a Assessment, counted: &Counted, outcome: &'a Outcome) -> Tail<'a> {
    let (counts, unknown) = class_counts(a, counted);
    let mut outputs: Vec<OutputJson<'_>> = a
        .outputs
        .iter()
        .map(|o| OutputJson {
            name: &o.name,
            action: o.action.as_terraform(),
            sensitive: o.sensitive,
        })
        .collect();
    outputs.sort_by(|x, y| (x.name, x.action).cmp(&(y.name, y.action)));
    Tail {
        drift: ChangeList(sorted(&a.drift)),
        outputs,
        plan: PlanJson {
            format_version: a.plan.format_version.to_string(),
            product: product_str(a.plan.product),
            terraform_version: a.plan.terraform_version.as_deref(),
            errored: a.plan.errored,
            complete: a.plan.complete,
        },
        summary: SummaryJson {
            total: total(a, counted),
            by_class: Impact::ALL
                .iter()
                .map(|i| (i.as_str(), counts.get(i).copied().unwrap_or(0)))
                .collect(),
            unclassified_changes: unknown,
            worst_class: worst_class(a).as_str(),
        },
        outcome: OutcomeJson {
            exit_code: outcome.exit.code(),
            status: outcome.exit.as_str(),
            fail_on: outcome.fail_on.map(Impact::as_str),
            reasons: outcome
                .reasons
                .iter()
                .map(|r| ReasonJson {
                    exit_code: r.exit.code(),
                    kind: r.kind,
                    message: &r.message,
                })
                .collect(),
        },
        coverage: CoverageJson {
            passed: !a.coverage.fails(),
            relaxed: a.coverage.relaxed,
            types_checked: a.coverage.types_checked,
            unclassified: a
                .coverage
                .unclassified
                .iter()
                .map(|(t, seen)| UnclassifiedJson {
                    type_name: t,
                    seen_in: seen,
                })
                .collect(),
        },
    }
}

/// Writes the report of a whole assessment as pretty JSON with a final newline to `w`, one
/// change at a time, its changes in the assessment's order (`ward_classify::assess`: by address,
/// then deposed key). The layout is [`Stream`]'s: the same verdicts kept in the same order give
/// the same bytes. Wrap an unbuffered writer in a [`std::io::BufWriter`]; the caller flushes.
pub fn write<W: std::io::Write>(a: &Assessment, outcome: &Outcome, w: W) -> std::io::Result<()> {
    let mut s = Stream::for_knowledge(&a.knowledge, w);
    for v in &a.verdicts {
        s.record(v);
    }
    s.end(a, outcome).map(|_| ())
}

/// Renders the report as pretty JSON with a final newline (see [`write()`]).
pub fn render(a: &Assessment, outcome: &Outcome) -> String {
    let mut out = Vec::new();
    // Writing into a Vec fails only if serializing does, and serializing these types cannot
    // fail: every map key is a string and no type has a fallible Serialize implementation.
    // Keep a valid document even so.
    match write(a, outcome, &mut out) {
        Ok(()) => String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        Err(e) => format!(
            "{{\"schema_version\":{SCHEMA_VERSION},\"error\":{}}}\n",
            serde_json::Value::String(e.to_string())
        ),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{change, record, Indented};
    use proptest::prelude::*;
    use serde::Serialize;
    use serde_json::Value;
    use std::sync::Arc;
    use ward_classify::explain::reason_line;
    use ward_classify::{AttrVerdict, Fact, Verdict};
    use ward_model::{Action, AttrChange, AttrPath, Impact, Mode, PathStep, Product, Shown};
    use ward_rules::{RuleOrigin, RuleRef};

    /// Any JSON value: nested arrays and objects (empty ones too), strings with escapes.
    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            ".{0,12}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map(".{0,6}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn indented(v: &Value, depth: usize) -> String {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, Indented::at(depth));
        v.serialize(&mut ser).unwrap();
        String::from_utf8(out).unwrap()
    }

    proptest! {
        /// `Indented::at(depth)` is serde_json's pretty layout with every line after the first
        /// indented by `depth` levels: what the stream wrote before by re-indenting it.
        #[test]
        fn indented_is_pretty_shifted(v in value(), depth in 0usize..40) {
            let pretty = serde_json::to_string_pretty(&v).unwrap();
            let shifted = pretty.replace('\n', &format!("\n{}", "  ".repeat(depth)));
            prop_assert_eq!(indented(&v, depth), shifted);
        }
    }

    /// Text with what a JSON string must escape (control characters, quotes, backslashes) and
    /// what it must not (`/`, DEL, non-ASCII, U+2028), or anything at all.
    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            r#"[\x00-\x20"\\/\x7f\x{80}\x{2028}\x{2029}é😀a-z0-9._\[\]]{0,40}"#,
            any::<String>(),
        ]
    }

    fn path() -> impl Strategy<Value = AttrPath> {
        let step = prop_oneof![
            text().prop_map(PathStep::Key),
            "[a-z_][a-z0-9_-]{0,8}".prop_map(PathStep::Key),
            any::<u64>().prop_map(PathStep::Index),
        ];
        prop::collection::vec(step, 0..4).prop_map(AttrPath)
    }

    fn rule() -> impl Strategy<Value = Option<Arc<RuleRef>>> {
        let origin = prop_oneof![
            (text(), text()).prop_map(|(name, version)| RuleOrigin::Pack { name, version }),
            (text(), any::<usize>()).prop_map(|(file, line)| RuleOrigin::User { file, line }),
        ];
        prop::option::of((origin, text(), prop::option::of(text())).prop_map(
            |(origin, type_name, attribute)| {
                Arc::new(RuleRef {
                    origin,
                    type_name,
                    attribute,
                })
            },
        ))
    }

    fn shown() -> impl Strategy<Value = Shown> {
        prop_oneof![
            value().prop_map(Shown::Known),
            text().prop_map(|s| Shown::Known(Value::String(s))),
            Just(Shown::Sensitive),
            Just(Shown::Unknown),
            Just(Shown::Absent),
        ]
    }

    fn attribute() -> impl Strategy<Value = AttrVerdict> {
        (
            (path(), shown(), shown()),
            prop::sample::select(Impact::ALL.to_vec()),
            rule(),
            prop::option::of(text()),
            any::<bool>(),
        )
            .prop_map(
                |((path, before, after), impact, rule, why, forces_replacement)| AttrVerdict {
                    change: AttrChange {
                        path,
                        before,
                        after,
                        hidden: None,
                    },
                    impact,
                    rule,
                    why,
                    forces_replacement,
                },
            )
    }

    fn fact() -> impl Strategy<Value = Fact> {
        prop_oneof![
            prop::option::of(text()).prop_map(|id| Fact::Import { id }),
            text().prop_map(|from| Fact::Move { from }),
            Just(Fact::Forget),
            text().prop_map(|key| Fact::Deposed { key }),
        ]
    }

    /// A verdict with any strings, every optional field absent or present, and empty and
    /// non-empty lists; its explanation may hold the `action_reason` line as either product
    /// words it (rewritten in the record).
    fn verdict() -> impl Strategy<Value = Verdict> {
        let head = (
            (text(), prop::option::of(text()), text(), text()),
            prop::sample::select(vec![Mode::Managed, Mode::Data, Mode::Ephemeral]),
            prop::sample::select(Action::ALL.to_vec()),
            prop::option::of(text()),
            prop::sample::select(Impact::ALL.to_vec()),
            (any::<bool>(), any::<bool>()),
        );
        let body = (
            (rule(), rule()),
            (prop::collection::vec(text(), 0..4), 0u8..3),
            prop::collection::vec(attribute(), 0..4),
            any::<usize>(),
            prop::collection::vec(path(), 0..3),
            prop::collection::vec(fact(), 0..4),
        );
        (head, body).prop_map(
            |(
                ((address, deposed, type_name, provider), mode, action, reason, impact, flags),
                (rules, (mut explanation, worded), attributes, left_out, identity, facts),
            )| {
                let mut v = Verdict::new(&address, type_name, provider, action, impact);
                v.deposed = deposed;
                v.mode = mode;
                if let Some(reason) = &reason {
                    match worded {
                        0 => explanation.push(reason_line(Product::Terraform, reason)),
                        1 => explanation.insert(0, reason_line(Product::OpenTofu, reason)),
                        _ => {}
                    }
                }
                v.action_reason = reason;
                (v.classified, v.holds_data) = flags;
                (v.decided_by, v.overwrites) = rules;
                v.explanation = explanation;
                v.attributes = attributes;
                v.attributes_left_out = left_out;
                v.identity_changes = identity;
                v.facts = facts;
                v
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The hand-written record is byte for byte what serde_json writes for `ChangeJson` at
        /// the record's depth.
        #[test]
        fn record_is_serde_record(v in verdict()) {
            let mut serde = Vec::new();
            let mut ser = serde_json::Serializer::with_formatter(&mut serde, Indented::at(2));
            change(&v).serialize(&mut ser).unwrap();
            let mut hand = Vec::new();
            record::write(&mut hand, &v).unwrap();
            prop_assert_eq!(String::from_utf8(hand).unwrap(), String::from_utf8(serde).unwrap());
        }

        /// Strings are escaped as serde_json escapes them.
        #[test]
        fn string_is_serde_string(s in text()) {
            let mut hand = Vec::new();
            record::string(&mut hand, &s);
            prop_assert_eq!(String::from_utf8(hand).unwrap(), serde_json::to_string(&s).unwrap());
        }
    }
}
