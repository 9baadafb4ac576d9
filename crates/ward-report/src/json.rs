//! The JSON report, schema version [`SCHEMA_VERSION`] (documented field by field in
//! `docs/json-schema.md`).
//!
//! The report is built from its own types rather than by serializing the classifier's: the schema
//! changes only when [`SCHEMA_VERSION`] does. Adding a field is a compatible change and keeps the
//! version; renaming, removing or changing the meaning of one bumps it.

use crate::{class_counts, cost_unknown, worst_class, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;
use ward_classify::explain::reword_reason;
use ward_classify::{Assessment, AttrVerdict, Fact, Verdict};
use ward_model::{Impact, Shown};
use ward_rules::{RuleOrigin, RuleRef};

/// The version of the JSON report schema this crate writes.
pub const SCHEMA_VERSION: u32 = 1;

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

/// The top-level JSON report.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    /// Always [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The version of ward that wrote the report.
    pub ward_version: &'static str,
    /// About the plan.
    pub plan: PlanJson<'a>,
    /// The knowledge used.
    pub knowledge: KnowledgeJson<'a>,
    /// Counts.
    pub summary: SummaryJson,
    /// The exit code and why.
    pub outcome: OutcomeJson<'a>,
    /// One entry per resource change, sorted by address then deposed key.
    pub changes: ChangeList<'a>,
    /// Drift (changes made outside Terraform), same shape, context only.
    pub drift: ChangeList<'a>,
    /// Output changes, sorted by name; never a value.
    pub outputs: Vec<OutputJson<'a>>,
    /// The coverage gate.
    pub coverage: CoverageJson<'a>,
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
    pub id: String,
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
            id: r.to_string(),
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
    /// Display path, e.g. `root_block_device[0].volume_size`.
    pub path: String,
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
    /// What will happen and why.
    pub explanation: &'a [String],
    /// Changed attributes, in the classifier's order.
    pub attributes: Vec<AttributeJson<'a>>,
    /// Identity attribute paths that change.
    pub identity_changes: Vec<String>,
    /// The object holds data.
    pub holds_data: bool,
    /// Facts, sorted.
    pub facts: Vec<FactJson<'a>>,
}

/// A list of changes, serialized one [`ChangeJson`] at a time as it is written: a report on a
/// plan of hundreds of thousands of changes never holds their JSON form all at once.
#[derive(Debug)]
pub struct ChangeList<'a> {
    verdicts: Vec<&'a Verdict>,
    /// Changes already written by a [`Spill`], and for each verdict its record there.
    spilled: Option<(&'a Spilled, &'a [usize])>,
    /// The plan's product.
    product: ward_model::Product,
}

impl ChangeList<'_> {
    /// How many changes the list holds.
    pub fn len(&self) -> usize {
        self.verdicts.len()
    }

    /// True when the list holds no change.
    pub fn is_empty(&self) -> bool {
        self.verdicts.is_empty()
    }
}

impl Serialize for ChangeList<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let Some((spilled, order)) = self.spilled else {
            return s.collect_seq(self.verdicts.iter().map(|v| change(v)));
        };
        let mut seq = s.serialize_seq(Some(self.verdicts.len()))?;
        for (i, v) in self.verdicts.iter().enumerate() {
            match order
                .get(i)
                .and_then(|&at| spilled.record(at, self.product).transpose())
            {
                Some(Ok(raw)) => seq.serialize_element(&raw)?,
                Some(Err(e)) => {
                    return Err(S::Error::custom(format!(
                        "cannot read back the report's temporary file: {e}"
                    )))
                }
                None => seq.serialize_element(&change(v))?,
            }
        }
        seq.end()
    }
}

/// Writes each change's JSON as soon as its verdict exists, to an unnamed temporary file
/// (in memory when none can be created), and keeps only a light verdict: on a plan of
/// hundreds of thousands of changes the explanations and attributes are most of the memory,
/// and the JSON report needs them only once, when it is written.
///
/// ```ignore
/// let mut spill = Spill::new();
/// let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| assessor.add_with(c, |v| spill.keep(v)))?;
/// let (assessment, order) = assessor.finish_ordered(&plan, &options);
/// let outcome = evaluate(&assessment, &gate);
/// json::write_spilled(&assessment, &outcome, spill, &order, out)?;
/// ```
#[derive(Debug)]
pub struct Spill {
    out: SpillOut,
    /// Each kept verdict's record (start, end), in the order kept.
    records: Vec<(u64, u64)>,
    /// The same verdict's record worded for OpenTofu, when its wording depends on the product.
    tofu: Vec<Option<(u64, u64)>>,
    len: u64,
    buf: Vec<u8>,
    error: Option<std::io::Error>,
}

#[derive(Debug)]
enum SpillOut {
    File(std::io::BufWriter<std::fs::File>),
    Memory(Vec<u8>),
}

/// A [`Spill`] that is complete, ready to be read back.
#[derive(Debug)]
pub struct Spilled {
    data: SpilledData,
    records: Vec<(u64, u64)>,
    tofu: Vec<Option<(u64, u64)>>,
}

#[derive(Debug)]
enum SpilledData {
    File(std::fs::File),
    Memory(Vec<u8>),
}

impl Default for Spill {
    fn default() -> Self {
        Spill::new()
    }
}

impl Spill {
    /// A spill to an unnamed temporary file in the system's temporary directory, or to memory
    /// when that cannot be created.
    pub fn new() -> Spill {
        let out = match temp_file() {
            Some(f) => SpillOut::File(std::io::BufWriter::with_capacity(1 << 16, f)),
            None => SpillOut::Memory(Vec::new()),
        };
        Spill {
            out,
            records: Vec::new(),
            tofu: Vec::new(),
            len: 0,
            buf: Vec::new(),
            error: None,
        }
    }

    /// Writes the verdict's JSON (the report's bytes for it, indented for its place in the
    /// `changes` list) and returns the verdict without its explanation, attributes, identity
    /// changes and facts: what the summary, the outcome and the coverage gate still need.
    ///
    /// The product is not known yet, and the explanation's `action_reason` line names it: a
    /// verdict with such a line is written a second time, its explanation worded for OpenTofu
    /// (by the classifier's own `reword_reason`, on the verdict), and the report picks the
    /// record for the product it ends with. The JSON text is never edited.
    pub fn keep(&mut self, mut v: Verdict) -> Verdict {
        if let Some(main) = self.write_record(&v) {
            let before = v.explanation.clone();
            reword_reason(&mut v, ward_model::Product::OpenTofu);
            let tofu = if v.explanation == before {
                None
            } else {
                self.write_record(&v)
            };
            self.records.push(main);
            self.tofu.push(tofu);
        }
        v.explanation = Vec::new();
        v.attributes = Vec::new();
        v.identity_changes = Vec::new();
        v.facts = Vec::new();
        v
    }

    /// Writes the verdict's JSON as one record; its (start, end), unless it cannot be
    /// serialized.
    fn write_record(&mut self, v: &Verdict) -> Option<(u64, u64)> {
        self.buf.clear();
        // Serializing into a Vec fails only if serializing does, and it cannot (see render).
        serde_json::to_writer_pretty(&mut self.buf, &change(v)).ok()?;
        // The report writes each change two levels deep: two more spaces per level on every
        // line after the first (strings never hold a raw newline).
        let start = self.len;
        let mut wrote = 0u64;
        for (n, line) in self.buf.split(|b| *b == b'\n').enumerate() {
            let piece: &[&[u8]] = if n == 0 { &[line] } else { &[b"\n    ", line] };
            for p in piece {
                if self.error.is_none() {
                    let r = match &mut self.out {
                        SpillOut::File(f) => std::io::Write::write_all(f, p),
                        SpillOut::Memory(m) => {
                            m.extend_from_slice(p);
                            Ok(())
                        }
                    };
                    if let Err(e) = r {
                        self.error = Some(e);
                    }
                }
                wrote += p.len() as u64;
            }
        }
        self.len += wrote;
        Some((start, self.len))
    }

    /// How many verdicts were kept.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when no verdict was kept.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Finishes writing; the first write error, if any.
    pub fn finish(self) -> std::io::Result<Spilled> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let data = match self.out {
            SpillOut::File(f) => SpilledData::File(f.into_inner().map_err(|e| e.into_error())?),
            SpillOut::Memory(m) => SpilledData::Memory(m),
        };
        Ok(Spilled {
            data,
            records: self.records,
            tofu: self.tofu,
        })
    }
}

impl Spilled {
    /// Verdict `at`'s record, worded for `product`, when there is one.
    fn record(
        &self,
        at: usize,
        product: ward_model::Product,
    ) -> std::io::Result<Option<Box<serde_json::value::RawValue>>> {
        let tofu = match product {
            ward_model::Product::OpenTofu => self.tofu.get(at).copied().flatten(),
            _ => None,
        };
        let Some((start, end)) = tofu.or_else(|| self.records.get(at).copied()) else {
            return Ok(None);
        };
        let (Ok(s), Ok(e)) = (usize::try_from(start), usize::try_from(end)) else {
            return Err(std::io::Error::other("record beyond the address space"));
        };
        let bytes = match &self.data {
            SpilledData::Memory(m) => m.get(s..e).map(<[u8]>::to_vec).unwrap_or_default(),
            SpilledData::File(f) => {
                let mut b = vec![0u8; e.saturating_sub(s)];
                read_at(f, &mut b, start)?;
                b
            }
        };
        let text = String::from_utf8(bytes).map_err(std::io::Error::other)?;
        serde_json::value::RawValue::from_string(text)
            .map(Some)
            .map_err(std::io::Error::other)
    }
}

#[cfg(unix)]
fn read_at(f: &std::fs::File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, at)
}

#[cfg(not(unix))]
fn read_at(f: &std::fs::File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = f;
    f.seek(SeekFrom::Start(at))?;
    f.read_exact(buf)
}

/// A new file in the temporary directory, already unlinked where the system allows it (it
/// disappears with the process).
fn temp_file() -> Option<std::fs::File> {
    let dir = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    for attempt in 0..16u32 {
        let path = dir.join(format!(
            "ward-report-{}-{nanos}-{attempt}.tmp",
            std::process::id()
        ));
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create_new(true);
        // The report holds plan data: readable by this user only.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let opened = options.open(&path);
        if let Ok(f) = opened {
            // On Unix the open file outlives its name; elsewhere removal fails and the file
            // stays until the system cleans its temporary directory.
            let _ = std::fs::remove_file(&path);
            return Some(f);
        }
    }
    None
}

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
        explanation: &v.explanation,
        attributes: v.attributes.iter().map(attribute).collect(),
        identity_changes: v.identity_changes.iter().map(|p| p.to_string()).collect(),
        holds_data: v.holds_data,
        facts: facts.into_iter().map(FactJson::from).collect(),
    }
}

fn attribute(a: &AttrVerdict) -> AttributeJson<'_> {
    AttributeJson {
        path: a.change.path.to_string(),
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

/// Builds the report value.
pub fn report<'a>(a: &'a Assessment, outcome: &'a Outcome) -> Report<'a> {
    let (counts, unknown) = class_counts(a);
    let mut packs: Vec<PackJson<'_>> = a
        .knowledge
        .packs
        .iter()
        .map(|p| PackJson {
            name: &p.name,
            version: &p.version,
        })
        .collect();
    packs.sort_by(|x, y| (x.name, x.version).cmp(&(y.name, y.version)));
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
    Report {
        schema_version: SCHEMA_VERSION,
        ward_version: env!("CARGO_PKG_VERSION"),
        plan: PlanJson {
            format_version: a.plan.format_version.to_string(),
            product: product_str(a.plan.product),
            terraform_version: a.plan.terraform_version.as_deref(),
            errored: a.plan.errored,
            complete: a.plan.complete,
        },
        knowledge: KnowledgeJson {
            packs,
            user_files: a.knowledge.user_files.iter().map(String::as_str).collect(),
        },
        summary: SummaryJson {
            total: a.verdicts.len(),
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
        changes: ChangeList {
            verdicts: sorted(&a.verdicts),
            spilled: None,
            product: a.plan.product,
        },
        drift: ChangeList {
            verdicts: sorted(&a.drift),
            spilled: None,
            product: a.plan.product,
        },
        outputs,
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

/// Writes the report as pretty JSON with a final newline to `w`, one change at a time (the
/// report is never built as a whole in memory). The bytes are those of [`render`]. Wrap an
/// unbuffered writer in a [`std::io::BufWriter`]; the caller flushes.
pub fn write<W: std::io::Write>(
    a: &Assessment,
    outcome: &Outcome,
    mut w: W,
) -> std::io::Result<()> {
    serde_json::to_writer_pretty(&mut w, &report(a, outcome)).map_err(std::io::Error::from)?;
    w.write_all(b"\n")
}

/// [`write()`] for an assessment whose change verdicts were kept by `spill` (see [`Spill`]):
/// `order` is the second value of `ward_classify::Assessor::finish_ordered`. Same bytes as
/// [`write()`] on the full verdicts.
pub fn write_spilled<W: std::io::Write>(
    a: &Assessment,
    outcome: &Outcome,
    spill: Spill,
    order: &[usize],
    mut w: W,
) -> std::io::Result<()> {
    let spilled = spill.finish()?;
    let mut r = report(a, outcome);
    // The verdicts are in the assessment's order (sorted by finish_ordered), which `order`
    // follows.
    r.changes.verdicts.clear();
    r.changes.verdicts.extend(a.verdicts.iter());
    r.changes.spilled = Some((&spilled, order));
    serde_json::to_writer_pretty(&mut w, &r).map_err(std::io::Error::from)?;
    w.write_all(b"\n")
}

/// Renders the report as pretty JSON with a final newline.
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
