//! ward's impact knowledge: what each change to each resource type costs a running deployment.
//!
//! Knowledge is data, in HCL (format: `docs/rules.md`). The built-in packs
//! (`crates/ward-rules/packs/*.hcl`) are embedded in the binary at build time, with an index of
//! their blocks, so that a run parses only the entries of the types it looks up; a team's own rules
//! come from `ward.hcl` (read once by ward-config, handed over as [`UserRules`]) and win over the packs.
//!
//! ```
//! let k = ward_rules::Knowledge::builtin().expect("the embedded packs load");
//! assert!(k.packs().iter().any(|p| p.name == "null"));
//! ```
//!
//! Lookups go through [`Knowledge::resolve`], which returns the rules that apply to one resource
//! instance in precedence order; each question (does it hold data, what does this attribute cost,
//! what does a delete cost) is answered by the first rule that answers it, and the answer carries
//! a [`RuleRef`] naming that rule.

mod error;
pub mod fuzzing;
mod parse;
mod pattern;
mod rule;

pub use error::RulesError;

pub use rule::{
    AttrRule, Bound, Direction, Moved, Overwrites, Pack, Rule, RuleOrigin, RuleRef, Selector,
    Target, Values,
};

use parse::{parse_file, parse_pack_block, parse_user_blocks, FileKind, OneBlock};
use pattern::Relation;
use rule::RulePaths;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use ward_model::{AttrPath, Impact};

mod embedded {
    /// Where one top-level block lies in its pack file (build.rs's index). `u32`, as every
    /// number of the index: the tables are plain data (no pointers the loader relocates), 24
    /// bytes an entry instead of 72.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Block {
        /// First byte (the block starts a line).
        pub(crate) start: u32,
        /// One past the closing brace.
        pub(crate) end: u32,
        /// Lines of the file before it.
        pub(crate) line: u32,
    }

    impl Block {
        /// Its bytes in the file.
        pub(crate) fn range(&self) -> std::ops::Range<usize> {
            self.start as usize..self.end as usize
        }

        /// Lines of the file before it.
        pub(crate) fn line(&self) -> usize {
            self.line as usize
        }
    }

    /// One indexed `resource` block.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Entry {
        /// Its type: bytes `name.0..name.1` of [`Sources::names`].
        pub(crate) name: (u32, u32),
        /// Its pack's place in [`Sources::packs`].
        pub(crate) pack: u32,
        /// Where it lies.
        pub(crate) block: Block,
    }

    /// An indexed pack: its header and how many `resource` blocks it has.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Header {
        /// The `pack` block.
        pub(crate) block: Block,
        /// How many `resource` blocks follow.
        pub(crate) entries: usize,
    }

    /// One embedded pack file (build.rs): its head plain, the rest deflated in chunks, each
    /// inflated the first time a lookup needs it.
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct File {
        /// The file name (`aws.hcl`).
        pub(crate) name: &'static str,
        /// The text up to the first chunk: the `pack` header of an indexed pack, read at every
        /// start (empty for a pack read whole).
        pub(crate) head: &'static str,
        /// The chunks' deflated bytes, back to back.
        pub(crate) deflated: &'static [u8],
        /// The rest of the text, in order.
        pub(crate) chunks: &'static [Chunk],
    }

    /// A part of a pack's text, deflated.
    #[derive(Debug, Clone)]
    pub(crate) struct Chunk {
        /// Its first byte in the file.
        pub(crate) at: usize,
        /// Its length, inflated.
        pub(crate) len: usize,
        /// Its bytes in [`File::deflated`].
        pub(crate) z: std::ops::Range<usize>,
    }

    impl File {
        /// The text of chunk `i`.
        pub(crate) fn inflate(&self, i: usize) -> Result<String, String> {
            let c = self.chunks.get(i).ok_or("no such chunk")?;
            let z = self
                .deflated
                .get(c.z.clone())
                .ok_or("a chunk lies outside the data")?;
            let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(z, c.len)
                .map_err(|e| format!("a chunk cannot be inflated ({e:?})"))?;
            if bytes.len() != c.len {
                return Err("a chunk inflates to the wrong length".into());
            }
            String::from_utf8(bytes).map_err(|_| "a chunk is not UTF-8".to_string())
        }

        /// The whole text.
        pub(crate) fn whole(&self) -> Result<String, String> {
            let mut text = String::from(self.head);
            for i in 0..self.chunks.len() {
                text.push_str(&self.inflate(i)?);
            }
            Ok(text)
        }

        /// Which chunk holds bytes `start..end` (`None`: the head, or nowhere).
        pub(crate) fn chunk_of(&self, start: usize, end: usize) -> Option<usize> {
            self.chunks
                .iter()
                .position(|c| c.at <= start && end <= c.at + c.len)
        }
    }

    include!(concat!(env!("OUT_DIR"), "/packs.rs"));

    /// The packs [`Knowledge::builtin`](super::Knowledge::builtin) reads, with build.rs's index
    /// of them: [`BUILT`], or a test's own (packs read whole, types with several entries).
    #[derive(Debug, Clone, Copy)]
    pub(crate) struct Sources {
        /// The pack files, as [`EMBEDDED_PACKS`].
        pub(crate) packs: &'static [File],
        /// Per pack, its header, as [`PACK_INDEX`].
        pub(crate) index: &'static [Option<Header>],
        /// The indexed `resource` blocks, as [`ENTRIES`]: sorted by type, pack and position.
        pub(crate) entries: &'static [Entry],
        /// Their types, back to back, as [`NAMES`].
        pub(crate) names: &'static str,
    }

    impl Sources {
        /// The type of `e`.
        pub(crate) fn type_of(&self, e: &Entry) -> &'static str {
            self.names
                .get(e.name.0 as usize..e.name.1 as usize)
                .unwrap_or_default()
        }
    }

    /// The embedded packs.
    pub(crate) const BUILT: Sources = Sources {
        packs: EMBEDDED_PACKS,
        index: PACK_INDEX,
        entries: ENTRIES,
        names: NAMES,
    };
}

/// Name and version of a loaded pack, as reports print it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct PackInfo {
    /// Pack name, e.g. `aws`.
    pub name: String,
    /// Pack version, e.g. `2026.11.0`.
    pub version: String,
}

/// Defaults for questions no rule answers.
pub mod defaults {
    use ward_model::Impact;
    /// `on_create`.
    pub const ON_CREATE: Impact = Impact::Free;
    /// `on_update`: a changed attribute no attribute entry names.
    pub const ON_UPDATE: Impact = Impact::InPlace;
    /// `on_delete` (data-loss when the object holds data).
    pub const ON_DELETE: Impact = Impact::Replace;
    /// `on_replace` (data-loss when the object holds data).
    pub const ON_REPLACE: Impact = Impact::Replace;
    /// `holds_data`.
    pub const HOLDS_DATA: bool = false;
    /// `identity`: every Terraform resource has an `id`.
    pub const IDENTITY: &[&str] = &["id"];
}

/// Everything ward knows: the built-in packs and any user rule files, in precedence order.
#[derive(Debug, Clone, Default)]
pub struct Knowledge {
    packs: Vec<Pack>,
    user_files: Vec<String>,
    /// Every rule read so far, sorted by precedence (user before pack, specific before general,
    /// file order): the user rules, and the pack rules of packs read whole.
    rules: Vec<Rule>,
    /// Type name → indices into `rules`, in precedence order.
    by_type: BTreeMap<String, Vec<usize>>,
    /// The embedded packs' indexed entries, each type read on first use.
    lazy: Option<Lazy>,
}

/// The entries of the indexed embedded packs ([`Knowledge::builtin`]): each type's blocks are
/// parsed the first time the type is looked up, so a run reads only the types its plan names.
/// Their rules all come after every user rule (rank 1 against 0).
#[derive(Debug, Clone)]
struct Lazy {
    /// The packs and their index.
    src: embedded::Sources,
    /// Per embedded pack, its origin (`None` for a pack read whole, whose rules are in `rules`).
    origins: Vec<Option<RuleOrigin>>,
    /// Distinct types of `src.entries`: (type, first entry, count), sorted by type.
    types: Vec<(&'static str, usize, usize)>,
    /// Each of `types` by its name, made once [`SEARCH_FIRST`] lookups have searched `types`:
    /// a plan's every change looks its type up, and a binary search over thousands of names
    /// compares a dozen of them each time.
    index: OnceLock<foldhash::HashMap<&'static str, usize>>,
    /// Lookups made so far without `index`.
    searched: Searched,
    /// Per distinct type, its rules once read (sorted by precedence), or why they did not load.
    slots: Vec<OnceLock<Result<Vec<Rule>, RulesError>>>,
    /// The packs' text, each chunk inflated once.
    texts: Texts,
}

/// The embedded packs' text: heads as embedded, each deflated chunk inflated the first time a
/// block in it is read, and kept.
#[derive(Debug, Clone)]
struct Texts {
    src: embedded::Sources,
    /// Per pack, per chunk: its text, or why it did not inflate.
    inflated: Vec<Vec<OnceLock<Result<String, String>>>>,
}

impl Texts {
    fn new(src: embedded::Sources) -> Texts {
        Texts {
            src,
            inflated: src
                .packs
                .iter()
                .map(|f| f.chunks.iter().map(|_| OnceLock::new()).collect())
                .collect(),
        }
    }

    /// The text of `block` in pack `pack`.
    fn block(&self, pack: usize, block: &embedded::Block) -> Result<&str, RulesError> {
        let name = self.src.packs.get(pack).map_or("", |f| f.name);
        let mismatch = || {
            RulesError::new(&pack_file(name), "the pack index does not match the file")
                .help("this is a bug in ward's build script (build.rs); please report it")
        };
        let f = self.src.packs.get(pack).ok_or_else(mismatch)?;
        let range = block.range();
        if let Some(text) = f.head.get(range.clone()) {
            return Ok(text);
        }
        let i = f.chunk_of(range.start, range.end).ok_or_else(mismatch)?;
        let (Some(chunk), Some(slot)) = (
            f.chunks.get(i),
            self.inflated.get(pack).and_then(|p| p.get(i)),
        ) else {
            return Err(mismatch());
        };
        let text = slot.get_or_init(|| f.inflate(i)).as_ref().map_err(|why| {
            RulesError::new(
                &pack_file(name),
                format!("the embedded pack is damaged: {why}"),
            )
            .help("the ward binary is damaged: reinstall it")
        })?;
        text.get(range.start - chunk.at..range.end - chunk.at)
            .ok_or_else(mismatch)
    }
}

/// The whole text of an embedded pack.
fn whole_text(f: &embedded::File) -> Result<String, RulesError> {
    f.whole().map_err(|why| {
        RulesError::new(
            &pack_file(f.name),
            format!("the embedded pack is damaged: {why}"),
        )
        .help("the ward binary is damaged: reinstall it")
    })
}

/// How many lookups search [`Lazy::types`] before [`Lazy::index`] is made.
const SEARCH_FIRST: usize = 512;

/// A count of lookups, shared by the threads that look types up.
#[derive(Debug, Default)]
struct Searched(AtomicUsize);

impl Clone for Searched {
    fn clone(&self) -> Self {
        Searched(AtomicUsize::new(self.0.load(Ordering::Relaxed)))
    }
}

impl Lazy {
    /// The pack rules of one type, reading them on first use.
    fn rules(&self, type_name: &str) -> Option<&Result<Vec<Rule>, RulesError>> {
        let index = match self.index.get() {
            Some(index) => Some(index),
            // A small plan's few lookups search the sorted list: making the map costs about
            // as much as a thousand of them, and would lengthen every short run's start.
            None if self.searched.0.fetch_add(1, Ordering::Relaxed) < SEARCH_FIRST => None,
            None => Some(self.index.get_or_init(|| {
                let mut index = foldhash::HashMap::default();
                index.extend(self.types.iter().enumerate().map(|(i, (t, _, _))| (*t, i)));
                index
            })),
        };
        let at = match index {
            Some(index) => *index.get(type_name)?,
            None => self
                .types
                .binary_search_by(|(t, _, _)| (*t).cmp(type_name))
                .ok()?,
        };
        let (_, first, count) = *self.types.get(at)?;
        let slot = self.slots.get(at)?;
        Some(slot.get_or_init(|| self.read(first, count)))
    }

    /// Parses the `count` entries from `first` (one type): ranked as [`Knowledge::from_pack_sources`]
    /// ranks them, refusing two with the same selector as it does.
    fn read(&self, first: usize, count: usize) -> Result<Vec<Rule>, RulesError> {
        let mut rules: Vec<Rule> = Vec::with_capacity(count);
        for entry in self.src.entries.iter().skip(first).take(count) {
            let pack = entry.pack as usize;
            let (Some(f), Some(Some(origin))) = (self.src.packs.get(pack), self.origins.get(pack))
            else {
                continue;
            };
            let file = pack_file(f.name);
            let slice = self.texts.block(pack, &entry.block)?;
            let OneBlock::Resource(mut rule) =
                parse_pack_block(&file, slice, entry.block.line(), origin)?
            else {
                return Err(
                    RulesError::new(&file, "the pack index does not match the file")
                        .help("this is a bug in ward's build script (build.rs); please report it"),
                );
            };
            if let Some(dup) = rules.iter().find(|r| r.selector == rule.selector) {
                let other = self
                    .src
                    .packs
                    .get(dup.rank.2)
                    .map_or_else(String::new, |f| pack_file(f.name));
                return Err(RulesError::new(
                    &file,
                    format!(
                        "`resource \"{}\"` is also defined in {other} (line {}) with the same selector",
                        rule.type_name, dup.line
                    ),
                )
                .at(Some((rule.line, 1)))
                .help("a type belongs to one pack; remove one entry, or narrow it with `provider`"));
            }
            rule.rank = (1, rule.selector.specificity(), pack, rule.line);
            rules.push(*rule);
        }
        rules.sort_by_key(|r| r.rank);
        Ok(rules)
    }
}

/// How an embedded pack file is cited.
fn pack_file(name: &str) -> String {
    format!("crates/ward-rules/packs/{name}")
}

/// Every rule about one resource type, for `ward rules list` and `ward rules show TYPE`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypeEntry {
    /// The resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The rules naming it, in precedence order (the first that answers a question decides it).
    pub rules: Vec<Rule>,
}

/// One answer, with the rule that gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision<T> {
    /// The answer.
    pub value: T,
    /// The rule that stated it; when no rule stated it (`stated` false) this is the most general
    /// rule that applies (usually the pack entry, whose defaults were used), or `None` when no
    /// rule applies at all. Shared: one copy per rule, however many decisions cite it.
    pub rule: Option<Arc<RuleRef>>,
    /// A rule stated the answer; false when the default applied.
    pub stated: bool,
}

/// What changing one attribute costs, according to an attribute entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AttrDecision {
    /// The cost.
    pub impact: Impact,
    /// Why, when the entry says.
    pub why: Option<String>,
    /// For a directional entry (`decrease`/`increase`), what each direction costs: the
    /// classifier compares the values (`impact` is then the worse of the two).
    pub direction: Option<Direction>,
    /// The attribute entry that decided (`rule.attribute` is its pattern). Shared: one copy per
    /// entry.
    pub rule: Arc<RuleRef>,
}

/// The four actions that have a cost entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    /// `on_create`.
    OnCreate,
    /// `on_update`.
    OnUpdate,
    /// `on_delete`.
    OnDelete,
    /// `on_replace`.
    OnReplace,
}

/// The rules that apply to one resource instance, in precedence order. Every question is answered
/// by the first rule that answers it, else by [`defaults`].
#[derive(Debug, Clone)]
pub struct Resolved<'k> {
    rules: Vec<&'k Rule>,
}

impl<'k> Resolved<'k> {
    /// Some rule applies: the instance is classified.
    pub fn is_classified(&self) -> bool {
        !self.rules.is_empty()
    }

    /// The applicable rules, in precedence order.
    pub fn rules(&self) -> &[&'k Rule] {
        &self.rules
    }

    /// The first (most specific) applicable rule.
    pub fn entry(&self) -> Option<RuleRef> {
        self.rules.first().map(|r| r.rule_ref())
    }

    /// The most general applicable rule (usually the pack entry): cited when a default answers.
    pub fn base(&self) -> Option<RuleRef> {
        self.rules.last().map(|r| r.rule_ref())
    }

    fn decide<T>(&self, get: impl Fn(&Rule) -> Option<T>, default: T) -> Decision<T> {
        for r in &self.rules {
            if let Some(v) = get(r) {
                return Decision {
                    value: v,
                    rule: Some(Arc::clone(&r.reference)),
                    stated: true,
                };
            }
        }
        Decision {
            value: default,
            rule: self.rules.last().map(|r| Arc::clone(&r.reference)),
            stated: false,
        }
    }

    /// Does the object hold data?
    pub fn holds_data(&self) -> Decision<bool> {
        self.decide(|r| r.holds_data, defaults::HOLDS_DATA)
    }

    /// The identity attributes.
    pub fn identity(&self) -> Decision<Vec<AttrPath>> {
        self.path_decision(|p| &p.identity, default_identity())
    }

    /// The identity attributes alone ([`Resolved::identity`]'s value), borrowed: what the
    /// classifier reads on every change, without the deciding rule's reference.
    pub fn identity_paths(&self) -> &'k [AttrPath] {
        first_paths(&self.rules, |p| &p.identity).unwrap_or(default_identity())
    }

    /// A decision on a list of paths (`identity`, `access_rules`).
    fn path_decision(
        &self,
        get: fn(&RulePaths) -> &Option<Vec<AttrPath>>,
        default: &[AttrPath],
    ) -> Decision<Vec<AttrPath>> {
        let d = self.decide(|r| get(&r.paths).is_some().then_some(()), ());
        Decision {
            value: first_paths(&self.rules, get).unwrap_or(default).to_vec(),
            rule: d.rule,
            stated: d.stated,
        }
    }

    /// What an action costs (before any holds-data escalation, which is the classifier's).
    pub fn cost(&self, which: Cost) -> Decision<Impact> {
        match which {
            Cost::OnCreate => self.decide(|r| r.on_create, defaults::ON_CREATE),
            Cost::OnUpdate => self.decide(|r| r.on_update, defaults::ON_UPDATE),
            Cost::OnDelete => self.decide(|r| r.on_delete, defaults::ON_DELETE),
            Cost::OnReplace => self.decide(|r| r.on_replace, defaults::ON_REPLACE),
        }
    }

    /// The final-snapshot attributes of the first rule that names any: (the attribute that,
    /// when true, skips the snapshot; the attribute that names it).
    pub fn final_snapshot(&self) -> Decision<(Option<String>, Option<String>)> {
        self.decide(
            |r| {
                (r.final_snapshot_skip.is_some() || r.final_snapshot_name.is_some())
                    .then(|| (r.final_snapshot_skip.clone(), r.final_snapshot_name.clone()))
            },
            (None, None),
        )
    }

    /// The attributes that are lists of access rules (`ingress`, `egress`); none by default.
    pub fn access_rules(&self) -> Decision<Vec<AttrPath>> {
        self.path_decision(|p| &p.access_rules, &[])
    }

    /// Does creating it take over state that exists outside this root (the first rule with an
    /// `overwrites` block)? `None` by default.
    pub fn overwrites(&self) -> Decision<Option<&'k Overwrites>> {
        self.first_block(|r| r.overwrites.as_ref())
    }

    /// Does creating it change an object that exists outside this root without taking it over
    /// (the first rule with a `modifies` block)? `None` by default.
    pub fn modifies(&self) -> Decision<Option<&'k Overwrites>> {
        self.first_block(|r| r.modifies.as_ref())
    }

    fn first_block(
        &self,
        block: impl Fn(&'k Rule) -> Option<&'k Overwrites>,
    ) -> Decision<Option<&'k Overwrites>> {
        for r in &self.rules {
            if let Some(o) = block(r) {
                return Decision {
                    value: Some(o),
                    rule: Some(Arc::clone(&r.reference)),
                    stated: true,
                };
            }
        }
        Decision {
            value: None,
            rule: self.rules.last().map(|r| Arc::clone(&r.reference)),
            stated: false,
        }
    }

    /// Does the object itself grant access (a firewall rule)? `false` by default.
    pub fn grants_access(&self) -> Decision<bool> {
        self.decide(|r| r.grants_access, false)
    }

    /// The first `summary` among the applicable rules.
    pub fn summary(&self) -> Option<&'k str> {
        self.rules.iter().find_map(|r| r.summary.as_deref())
    }

    /// The first `rationale` among the applicable rules.
    pub fn rationale(&self) -> Option<&'k str> {
        self.rules.iter().find_map(|r| r.rationale.as_deref())
    }

    /// What changing the attribute at `path` costs according to the attribute entries, or `None`
    /// when no entry names it (then `on_update` applies).
    ///
    /// The first rule with an entry that relates to the path decides. Within it, the longest
    /// pattern that covers the path (is the path or a prefix of it, indices ignored) gives the
    /// base cost, else `on_update`; patterns deeper than the path (the path is a whole block or
    /// object whose insides changed) raise the cost to theirs when higher, since any of them may
    /// be among the changes.
    pub fn attribute(&self, path: &AttrPath) -> Option<AttrDecision> {
        for r in &self.rules {
            // The longest covering entry, then the most literal, then the first in the file
            // (its line compared reversed; of two equal keys the later wins).
            let order = |a: &AttrRule| {
                (
                    a.compiled.len(),
                    a.compiled.literals(),
                    std::cmp::Reverse(a.line),
                )
            };
            let (mut related, mut deeper) = (false, false);
            let mut best_cover: Option<&AttrRule> = None;
            for a in &r.attributes {
                let Some(rel) = a.compiled.relation(path) else {
                    continue;
                };
                related = true;
                match rel {
                    Relation::Covers if best_cover.is_none_or(|b| order(a) >= order(b)) => {
                        best_cover = Some(a);
                    }
                    Relation::Covers => {}
                    Relation::Inside => deeper = true,
                }
            }
            if !related {
                continue;
            }
            let mut best: Option<AttrDecision> = best_cover.map(|a| AttrDecision {
                impact: a.impact,
                why: a.why.clone(),
                direction: a.direction.clone(),
                rule: Arc::clone(&a.reference),
            });
            let base = best
                .as_ref()
                .map_or_else(|| self.cost(Cost::OnUpdate).value, |d| d.impact);
            let mut top = base;
            // Entries deeper than the path, when the first pass met one (it kept none of them).
            let deeper = if deeper { &r.attributes[..] } else { &[] };
            for a in deeper {
                if a.impact > top && a.compiled.relation(path) == Some(Relation::Inside) {
                    top = a.impact;
                    best = Some(AttrDecision {
                        impact: a.impact,
                        why: a.why.clone(),
                        direction: None,
                        rule: Arc::clone(&a.reference),
                    });
                }
            }
            return best;
        }
        None
    }
}

/// The first rule's list of paths that `get` picks.
fn first_paths<'k>(
    rules: &[&'k Rule],
    get: fn(&RulePaths) -> &Option<Vec<AttrPath>>,
) -> Option<&'k [AttrPath]> {
    rules.iter().find_map(|r| get(&r.paths).as_deref())
}

/// [`defaults::IDENTITY`] as attribute paths, parsed once.
fn default_identity() -> &'static [AttrPath] {
    static PATHS: OnceLock<Vec<AttrPath>> = OnceLock::new();
    PATHS.get_or_init(|| {
        let names: Vec<String> = defaults::IDENTITY
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        pattern::names_as_paths(&names)
    })
}

/// User rules (the `resource` blocks of a `ward.hcl`, or a rule file it names), read but not
/// yet added to a [`Knowledge`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UserRules {
    file: String,
    rules: Vec<Rule>,
}

impl UserRules {
    /// Reads `resource` blocks that ward-config has already parsed from `ward.hcl`. `text` is the
    /// file's text, used only to turn spans into `file:line:column`; it is not parsed again.
    /// `file` is how the file is cited in reports and errors.
    pub fn from_blocks<'b>(
        file: &str,
        text: &str,
        blocks: impl IntoIterator<Item = &'b hcl_edit::structure::Block>,
    ) -> Result<UserRules, RulesError> {
        Ok(UserRules {
            file: file.to_string(),
            rules: parse_user_blocks(file, text, blocks)?,
        })
    }

    /// Reads a rule file's text (`resource` blocks only; any other block is an error that says
    /// so), cited as `file` in reports and errors.
    pub fn parse(file: &str, text: &str) -> Result<UserRules, RulesError> {
        Ok(UserRules {
            file: file.to_string(),
            rules: parse_file(file, text, FileKind::User)?.rules,
        })
    }

    /// Reads the rule file at `path` (UTF-8, `resource` blocks only), cited as `file`.
    pub fn read(path: &Path, file: &str) -> Result<UserRules, RulesError> {
        let bytes = std::fs::read(path).map_err(|e| {
            RulesError::new(file, format!("cannot read the rule file: {e}"))
                .help("check the rule file's path")
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            RulesError::new(
                file,
                format!(
                    "the rule file is not UTF-8 (byte {})",
                    e.utf8_error().valid_up_to()
                ),
            )
            .help("save it as UTF-8")
        })?;
        UserRules::parse(file, &text)
    }

    /// How many `resource` entries were read.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// True when the file has no `resource` blocks.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The file, as cited.
    pub fn file(&self) -> &str {
        &self.file
    }
}

impl Knowledge {
    /// No knowledge at all: every type is unclassified. Useful in tests.
    pub fn empty() -> Knowledge {
        Knowledge::default()
    }

    /// Every embedded pack (`crates/ward-rules/packs/*.hcl`). Reads each pack's header now and
    /// each type's entries the first time the type is looked up (build.rs indexed the blocks),
    /// so a run parses only what its plan names; a pack the index does not cover is read whole.
    /// Fails on a header (or a pack read whole) that does not load, naming file, line and what
    /// to fix, and when two packs share a name. An entry that does not load makes its type
    /// unclassified; [`Knowledge::load_all`] reads every entry and says why (the tests run it,
    /// and compare every entry with [`Knowledge::builtin_whole`]).
    pub fn builtin() -> Result<Knowledge, RulesError> {
        Knowledge::builtin_from(embedded::BUILT)
    }

    /// [`Knowledge::builtin`] from the packs and index given.
    fn builtin_from(src: embedded::Sources) -> Result<Knowledge, RulesError> {
        let mut k = Knowledge::default();
        let mut origins = Vec::with_capacity(src.packs.len());
        let texts = Texts::new(src);
        let mut whole: Vec<(String, String)> = Vec::new();
        for ((pack_index, f), index) in src.packs.iter().enumerate().zip(src.index) {
            let file = pack_file(f.name);
            let Some(index) = index else {
                whole.push((file.clone(), whole_text(f)?));
                origins.push(None);
                // Its place among the packs is kept: read below, then ordered by file.
                k.packs.push(Pack {
                    name: String::new(),
                    version: String::new(),
                    provider: String::new(),
                    schema: String::new(),
                    summary: None,
                    file,
                    entries: 0,
                });
                continue;
            };
            let b = index.block;
            let slice = texts.block(pack_index, &b)?;
            let placeholder = RuleOrigin::User {
                file: file.clone(),
                line: 0,
            };
            let OneBlock::Pack(mut pack) = parse_pack_block(&file, slice, b.line(), &placeholder)?
            else {
                return Err(
                    RulesError::new(&file, "the pack index does not match the file")
                        .help("this is a bug in ward's build script (build.rs); please report it"),
                );
            };
            pack.entries = index.entries;
            origins.push(Some(RuleOrigin::Pack {
                name: pack.name.clone(),
                version: pack.version.clone(),
            }));
            k.packs.push(pack);
        }
        if !whole.is_empty() {
            let whole: Vec<(&str, &str)> = whole
                .iter()
                .map(|(f, t)| (f.as_str(), t.as_str()))
                .collect();
            let read = Knowledge::from_pack_sources(&whole)?;
            for p in read.packs {
                if let Some(slot) = k.packs.iter_mut().find(|q| q.file == p.file) {
                    *slot = p;
                }
            }
            // Rank them by their place among every embedded pack, as the whole load does.
            for mut rule in read.rules {
                let place = |file: &str| k.packs.iter().position(|p| p.file == file);
                let file = match &rule.origin {
                    RuleOrigin::Pack { name, .. } => k
                        .packs
                        .iter()
                        .find(|p| p.name == *name)
                        .map(|p| p.file.clone()),
                    RuleOrigin::User { .. } => None,
                };
                rule.rank.2 = file.as_deref().and_then(place).unwrap_or(rule.rank.2);
                k.rules.push(rule);
            }
        }
        for (i, p) in k.packs.iter().enumerate() {
            if let Some(other) = k.packs[..i].iter().find(|q| q.name == p.name) {
                return Err(RulesError::new(
                    &p.file,
                    format!("pack name `{}` is already used by {}", p.name, other.file),
                )
                .help("every pack needs its own name: reports cite `name@version`"));
            }
        }
        let mut types: Vec<(&'static str, usize, usize)> = Vec::new();
        for (i, e) in src.entries.iter().enumerate() {
            let t = src.type_of(e);
            match types.last_mut() {
                Some((last, _, count)) if *last == t => *count += 1,
                _ => types.push((t, i, 1)),
            }
        }
        k.lazy = Some(Lazy {
            src,
            origins,
            slots: (0..types.len()).map(|_| OnceLock::new()).collect(),
            types,
            index: OnceLock::new(),
            searched: Searched::default(),
            texts,
        });
        k.sort();
        Ok(k)
    }

    /// Every embedded pack read whole, every entry at once: what [`Knowledge::builtin`] reads
    /// lazily. For the tests that check the packs and the index.
    pub fn builtin_whole() -> Result<Knowledge, RulesError> {
        let texts: Vec<(String, String)> = embedded::EMBEDDED_PACKS
            .iter()
            .map(|f| Ok((pack_file(f.name), whole_text(f)?)))
            .collect::<Result<_, RulesError>>()?;
        let sources: Vec<(&str, &str)> = texts
            .iter()
            .map(|(f, t)| (f.as_str(), t.as_str()))
            .collect();
        Knowledge::from_pack_sources(&sources)
    }

    /// Reads every entry not read yet, failing on the first that does not load. After it,
    /// every lookup is answered from memory.
    pub fn load_all(&self) -> Result<(), RulesError> {
        if let Some(lazy) = &self.lazy {
            for (t, _, _) in &lazy.types {
                if let Some(Err(e)) = lazy.rules(t) {
                    return Err(e.clone());
                }
            }
        }
        Ok(())
    }

    /// Knowledge from the given pack texts instead of the embedded ones: `(file name, text)`, in
    /// the order given. For tests and tools that check pack files.
    pub fn from_pack_sources<S: AsRef<str>>(
        sources: &[(S, &str)],
    ) -> Result<Knowledge, RulesError> {
        let mut k = Knowledge::default();
        // (type, selector) → index in `k.rules`: one lookup per entry, not a scan.
        let mut seen: std::collections::HashMap<(String, rule::Selector), usize> =
            std::collections::HashMap::new();
        for (index, (file, text)) in sources.iter().enumerate() {
            let file = file.as_ref();
            let parsed = parse_file(file, text, FileKind::Pack)?;
            let Some(pack) = parsed.pack else {
                return Err(RulesError::new(file, "the pack has no `pack` header")
                    .help("start it with a `pack { ... }` header (see `ward docs rules`)"));
            };
            if let Some(other) = k.packs.iter().find(|p| p.name == pack.name) {
                return Err(RulesError::new(
                    file,
                    format!(
                        "pack name `{}` is already used by {}",
                        pack.name, other.file
                    ),
                )
                .help("every pack needs its own name: reports cite `name@version`"));
            }
            for mut rule in parsed.rules {
                let key = (rule.type_name.clone(), rule.selector.clone());
                if let Some(dup) = seen.get(&key).and_then(|i| k.rules.get(*i)) {
                    let other = k
                        .packs
                        .iter()
                        .find(|p| matches!(&dup.origin, RuleOrigin::Pack { name, .. } if *name == p.name))
                        .map_or_else(String::new, |p| p.file.clone());
                    return Err(RulesError::new(
                        file,
                        format!(
                            "`resource \"{}\"` is also defined in {other} (line {}) with the same selector",
                            rule.type_name, dup.line
                        ),
                    )
                    .at(Some((rule.line, 1)))
                    .help("a type belongs to one pack; remove one entry, or narrow it with `provider`"));
                }
                rule.rank = (1, rule.selector.specificity(), index, rule.line);
                seen.insert(key, k.rules.len());
                k.rules.push(rule);
            }
            k.packs.push(pack);
        }
        k.sort();
        Ok(k)
    }

    /// Loads a rule file: `resource` blocks only (any other block is an error that says so;
    /// `ward.hcl` itself is read by ward-config, which hands its `resource` blocks to
    /// [`UserRules::from_blocks`]). Its rules win over every pack, and over files loaded after
    /// it. The file is cited as `path` is written.
    pub fn load_user_file(&mut self, path: &Path) -> Result<(), RulesError> {
        let user = UserRules::read(path, &path.display().to_string())?;
        self.add_user_rules(&user);
        Ok(())
    }

    /// Loads a rule file's text, cited as `file`: `resource` blocks only. Same as
    /// [`Knowledge::load_user_file`] without the file system. Not a reader of `ward.hcl`:
    /// commands load that once through ward-config.
    pub fn load_user_str(&mut self, file: &str, text: &str) -> Result<(), RulesError> {
        self.add_user_rules(&UserRules::parse(file, text)?);
        Ok(())
    }

    /// Adds user rules read by [`UserRules::from_blocks`], [`UserRules::parse`] or
    /// [`UserRules::read`]. They win over every pack, and over
    /// user rules added after them.
    pub fn add_user_rules(&mut self, user: &UserRules) {
        let index = self.user_files.len();
        for rule in &user.rules {
            let mut rule = rule.clone();
            rule.rank = (0, rule.selector.specificity(), index, rule.line);
            self.rules.push(rule);
        }
        self.user_files.push(user.file.clone());
        self.sort();
    }

    fn sort(&mut self) {
        self.rules.sort_by_key(|r| r.rank);
        self.by_type.clear();
        for (i, r) in self.rules.iter().enumerate() {
            self.by_type.entry(r.type_name.clone()).or_default().push(i);
        }
    }

    /// The rules naming a type, in precedence order: the rules read whole (every user rule
    /// first), then the lazily read pack entries (ranked after every user rule). A lazily read
    /// type whose entries do not load has none here ([`Knowledge::load_all`] says why).
    fn rules_for<'s>(&'s self, type_name: &str) -> impl Iterator<Item = &'s Rule> + 's {
        let read = self
            .by_type
            .get(type_name)
            .into_iter()
            .flatten()
            .filter_map(|i| self.rules.get(*i));
        let lazy = self
            .lazy
            .as_ref()
            .and_then(|l| l.rules(type_name))
            .and_then(|r| r.as_ref().ok())
            .into_iter()
            .flatten();
        merge_ranked(read, lazy)
    }

    /// Every type some rule names, sorted.
    fn type_names(&self) -> Vec<&str> {
        let mut names: BTreeSet<&str> = self.by_type.keys().map(String::as_str).collect();
        if let Some(lazy) = &self.lazy {
            names.extend(lazy.types.iter().map(|(t, _, _)| *t));
        }
        names.into_iter().collect()
    }

    /// The loaded packs, by file name.
    pub fn packs(&self) -> Vec<PackInfo> {
        self.packs
            .iter()
            .map(|p| PackInfo {
                name: p.name.clone(),
                version: p.version.clone(),
            })
            .collect()
    }

    /// The loaded packs with their headers, for `ward rules list`.
    pub fn pack_details(&self) -> &[Pack] {
        &self.packs
    }

    /// The user rule files loaded, in precedence order.
    pub fn user_files(&self) -> Vec<String> {
        self.user_files.clone()
    }

    /// Every classified type with its rules in precedence order, sorted by type name.
    pub fn types(&self) -> Vec<TypeEntry> {
        self.type_names()
            .into_iter()
            .filter_map(|t| self.show(t))
            .collect()
    }

    /// The rules about one type (`ward rules show TYPE`), or `None` when no rule names it.
    pub fn show(&self, type_name: &str) -> Option<TypeEntry> {
        let rules: Vec<Rule> = self.rules_for(type_name).cloned().collect();
        (!rules.is_empty()).then(|| TypeEntry {
            type_name: type_name.to_string(),
            rules,
        })
    }

    /// The rules that apply to one resource instance, in precedence order. Rules narrowed by
    /// attribute values (`when`) do not apply: use [`Knowledge::resolve_values`].
    pub fn resolve(&self, target: &Target<'_>) -> Resolved<'_> {
        self.resolve_values(target, &|_| Vec::new())
    }

    /// The rules that apply to one resource change, in precedence order, reading the change's
    /// attribute values for rules narrowed by `when`.
    pub fn resolve_values(&self, target: &Target<'_>, values: Values<'_>) -> Resolved<'_> {
        Resolved {
            rules: self
                .rules_for(target.type_name)
                .filter(|r| r.matches_values(target, values))
                .collect(),
        }
    }

    /// True when some rule applies to every instance of the type from this provider: the test for
    /// types seen in configuration or state, where instances are not known. Rules narrowed by
    /// `address` or `module` do not count; a `provider`-narrowed rule counts only when the
    /// provider is known and matches.
    pub fn classifies_type(&self, type_name: &str, provider: Option<&str>) -> bool {
        self.rules_for(type_name)
            .any(|r| r.covers_type(type_name, provider))
    }

    /// Whether creating an object of the type may cost more than `free` or take over or change
    /// an object that exists (`overwrites`, `modifies`), under any rule for the type, whatever
    /// narrows it: what a create sets matters to its verdict (`modifies` and `overwrites` read
    /// it) and to a report that lists a costly create's attributes. False for a type no rule
    /// names (its creates are unclassified, costing nothing ward can tell) and for one whose
    /// rules all leave creating it at the default ([`defaults::ON_CREATE`], free).
    pub fn create_may_cost(&self, type_name: &str) -> bool {
        self.rules_for(type_name).any(|r| {
            r.on_create.is_some_and(|i| i > defaults::ON_CREATE)
                || r.overwrites.is_some()
                || r.modifies.is_some()
        })
    }
}

/// Two iterators of rules, each sorted by rank, as one sorted by rank.
fn merge_ranked<'s>(
    a: impl Iterator<Item = &'s Rule>,
    b: impl Iterator<Item = &'s Rule>,
) -> impl Iterator<Item = &'s Rule> {
    let mut a = a.peekable();
    let mut b = b.peekable();
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if y.rank < x.rank => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;
