//! Evaluation: a verdict per change, the coverage gate and explanations.
//!
//! [`assess`] evaluates a [`ward_model::Plan`] against [`ward_rules::Knowledge`]:
//!
//! - every `resource_changes` entry gets a [`Verdict`]: its impact class, the rule that decided
//!   it, the changed attributes with their cost, the identity attributes that change, the facts
//!   (import, move, forget, deposed) and an explanation in plain sentences;
//! - the coverage gate lists every managed resource type seen in `configuration`, `prior_state`
//!   or `resource_changes` that no rule classifies ([`Coverage`]);
//! - [`outcome::evaluate`] decides the plan's pass/fail from an assessment: errored plan (exit
//!   2), coverage (3), `--fail-on` (1), with the reasons a report prints.
//!
//! How each action is costed (the rule questions are answered by `ward-rules`):
//!
//! | action | impact |
//! |---|---|
//! | no-op, read, open, forget | none |
//! | create, create-then-forget | `on_create` (default free) |
//! | update | the worst changed attribute: its attribute entry, else `on_update` (default in-place); none when no value changes; data-loss when a `replace`-cost attribute changes on an object that holds data |
//! | delete | `on_delete` (default replace); data-loss when the object holds data |
//! | replace (either order) | `on_replace` (default replace); data-loss when the object holds data |
//!
//! Data sources and ephemeral resources are never changed by apply: impact none, never gated.
//! Sensitive values never reach an explanation: the model only holds
//! [`ward_model::Shown::Sensitive`] for them, which prints as `(sensitive)`.

mod classify;
pub mod explain;
pub mod outcome;
pub mod pipeline;

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use ward_model::{
    Action, AttrChange, AttrPath, FormatVersion, Impact, Mode, OutputChange, Plan, Product,
    ResourceChange,
};
use ward_rules::{Knowledge, PackInfo, RuleRef};

/// Everything ward concluded about one plan. Deterministic: verdicts sorted by address, then
/// deposed key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    /// About the plan itself.
    pub plan: PlanInfo,
    /// The knowledge that produced these verdicts: built-in packs and user rule files.
    pub knowledge: KnowledgeUsed,
    /// One verdict per `resource_changes` entry (no-ops and reads included, with impact none).
    pub verdicts: Vec<Verdict>,
    /// `resource_drift`, classified the same way, as context.
    pub drift: Vec<Verdict>,
    /// `output_changes`, as context.
    pub outputs: Vec<OutputChange>,
    /// The coverage gate.
    pub coverage: Coverage,
}

impl Assessment {
    /// The worst impact among classified verdicts (`None` when there are none).
    pub fn max_impact(&self) -> Impact {
        self.verdicts
            .iter()
            .map(|v| v.impact)
            .max()
            .unwrap_or_default()
    }

    /// How many verdicts fall in each class (every class present, zero included).
    pub fn counts(&self) -> BTreeMap<Impact, usize> {
        let mut m: BTreeMap<Impact, usize> = Impact::ALL.iter().map(|i| (*i, 0)).collect();
        for v in &self.verdicts {
            *m.entry(v.impact).or_default() += 1;
        }
        m
    }
}

/// What the plan says about itself.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanInfo {
    /// `format_version`.
    pub format_version: FormatVersion,
    /// `terraform_version`.
    pub terraform_version: Option<String>,
    /// Terraform or OpenTofu, when known.
    pub product: Product,
    /// The plan is errored (planning failed part-way): never safe to apply.
    pub errored: bool,
    /// `complete`, when the plan says.
    pub complete: Option<bool>,
}

/// The knowledge used.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KnowledgeUsed {
    /// Built-in packs, by name.
    pub packs: Vec<PackInfo>,
    /// User rule files loaded (`ward.hcl` and the rule files it names), in precedence order.
    pub user_files: Vec<String>,
}

/// A fact about a change that is not a cost: reported on its own, next to the impact class.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "fact", rename_all = "kebab-case")]
pub enum Fact {
    /// The change imports an existing object into state.
    Import {
        /// The import id, when known.
        id: Option<String>,
    },
    /// The object moved from another address (`moved` block or rename).
    Move {
        /// `previous_address`.
        from: String,
    },
    /// The object is dropped from state but left running, unmanaged.
    Forget,
    /// The change is to a deposed object (left by an interrupted create_before_destroy).
    Deposed {
        /// The deposed key.
        key: String,
    },
}

/// One changed attribute, with its cost and the rule that set it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttrVerdict {
    /// The change (path, before, after; sensitive values already hidden).
    #[serde(flatten)]
    pub change: AttrChange,
    /// What changing it costs.
    pub impact: Impact,
    /// The rule that said so; `None` when a default applied (`on_update`, or on a replacement
    /// an identity attribute's new value, which costs `replace`). Shared: one copy per rule.
    pub rule: Option<Arc<RuleRef>>,
    /// Why, in plain words, when the rule says.
    pub why: Option<String>,
    /// This path is in `replace_paths`: it forces replacement.
    pub forces_replacement: bool,
}

/// ward's verdict on one resource change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// Resource instance address.
    pub address: String,
    /// Deposed key, for deposed objects.
    pub deposed: Option<String>,
    /// managed / data / ephemeral.
    pub mode: Mode,
    /// Resource type (shared: one copy per type).
    #[serde(rename = "type")]
    pub type_name: Arc<str>,
    /// Provider address (shared: one copy per provider).
    pub provider_name: Arc<str>,
    /// What apply will do.
    pub action: Action,
    /// `action_reason`, as Terraform spells it.
    pub action_reason: Option<String>,
    /// The cost. For an unclassified type this is a placeholder ([`Impact::None`]) and
    /// `classified` is false: the coverage gate fails on it.
    pub impact: Impact,
    /// Whether any rule covered this resource type.
    pub classified: bool,
    /// The rule that set `impact`. Shared: one copy per rule.
    pub decided_by: Option<Arc<RuleRef>>,
    /// What will happen and why, in plain sentences, most important first.
    pub explanation: Vec<String>,
    /// The changed attributes with their cost: for an update or a replacement, each with the
    /// cost its rule gives; for a create, what it sets, and for a delete, what it removes (each
    /// at the change's class, no rule of its own: the object is created or destroyed whole).
    pub attributes: Vec<AttrVerdict>,
    /// How many more attributes a create sets or a delete removes than `attributes` holds (the
    /// plan reader keeps at most `ward_model::MAX_OBJECT_ATTRIBUTES` of a whole object).
    #[serde(skip_serializing_if = "is_zero")]
    pub attributes_left_out: usize,
    /// Identity attributes (id, ip, mac, arn...) that become "known after apply" or are lost.
    pub identity_changes: Vec<AttrPath>,
    /// The object holds data (per the rule).
    pub holds_data: bool,
    /// The type is authoritative or adopting: this create, update or replacement overwrites
    /// state that exists outside this root (an organization's IAM policy, a VPC's default
    /// security group). The rule whose `overwrites` block says so; absent (never `null`) for
    /// every other change. The explanation says what is overwritten.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overwrites: Option<Arc<RuleRef>>,
    /// Facts of their own: import, move, forget, deposed.
    pub facts: Vec<Fact>,
    /// For a change that destroys the object (delete, either replacement): what identifies the
    /// object being destroyed, from its last known values at the type's identity attributes
    /// (`id=i-0abc; arn=...`), sorted; `None` when none of them has a plain last value. Approvals
    /// of destroys are bound to it, so an approval to destroy one object never passes destroying
    /// another planned later at the same address. Not part of the plan report.
    #[serde(skip)]
    pub destroyed_object: Option<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Verdict {
    /// Rewrites the `action_reason` line of a verdict classified before the product was known
    /// (with Terraform's wording) for `product` ([`explain::reason_line`]).
    pub fn reword_reason(&mut self, product: Product) {
        let Some(reason) = self.action_reason.as_deref() else {
            return;
        };
        let was = explain::reason_line(Product::Unknown, reason);
        let now = explain::reason_line(product, reason);
        if was == now {
            return;
        }
        for line in &mut self.explanation {
            if *line == was {
                line.clone_from(&now);
            }
        }
    }

    /// A verdict on a managed resource, classified as `impact`, with nothing else decided or
    /// explained yet: where the classifier starts, and where a verdict built by hand (tests,
    /// reports built without a plan) starts.
    pub fn new(
        address: &str,
        type_name: impl Into<Arc<str>>,
        provider_name: impl Into<Arc<str>>,
        action: Action,
        impact: Impact,
    ) -> Verdict {
        Verdict {
            address: address.to_string(),
            deposed: None,
            mode: Mode::Managed,
            type_name: type_name.into(),
            provider_name: provider_name.into(),
            action,
            action_reason: None,
            impact,
            classified: true,
            decided_by: None,
            explanation: Vec::new(),
            attributes: Vec::new(),
            attributes_left_out: 0,
            identity_changes: Vec::new(),
            holds_data: false,
            overwrites: None,
            facts: Vec::new(),
            destroyed_object: None,
        }
    }
}

/// The coverage gate: every managed resource type a change of this plan touches must be
/// classified. Types seen only in `configuration` or `prior_state` (or in a no-op entry) are
/// reported but do not fail the gate: nothing of theirs is being changed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Coverage {
    /// Unclassified managed resource types, with where each was seen
    /// (`configuration`, `prior_state`, `resource_changes`).
    pub unclassified: BTreeMap<String, Vec<String>>,
    /// The unclassified types that a change of this plan (create, update, delete, replace,
    /// forget) touches: these fail the gate. Sorted.
    pub blocking: Vec<String>,
    /// For each unclassified type, a paste-ready `resource "TYPE" { ... }` block for `ward.hcl`
    /// with the questions to decide (and the changed attributes to cost).
    pub suggestions: BTreeMap<String, String>,
    /// How many distinct managed types were checked.
    pub types_checked: usize,
    /// The gate was relaxed by the user (`--allow-unclassified`): unclassified types are reported
    /// but do not fail the run.
    pub relaxed: bool,
}

impl Coverage {
    /// The gate fails: a change of this plan touches an unclassified type and the gate was not
    /// relaxed.
    pub fn fails(&self) -> bool {
        !self.blocking.is_empty() && !self.relaxed
    }
}

/// How to run the evaluation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Relax the coverage gate (`--allow-unclassified`): unclassified types are still listed but
    /// [`Coverage::fails`] is false.
    pub allow_unclassified: bool,
}

/// Where a type was seen, as [`Coverage::unclassified`] lists it.
pub const SEEN_IN_CONFIGURATION: &str = "configuration";
/// See [`SEEN_IN_CONFIGURATION`].
pub const SEEN_IN_PRIOR_STATE: &str = "prior_state";
/// See [`SEEN_IN_CONFIGURATION`].
pub const SEEN_IN_RESOURCE_CHANGES: &str = "resource_changes";

/// Evaluates a plan: a verdict per change (sorted by address, then deposed key), the drift as
/// context, the output changes and the coverage gate. Deterministic: same inputs, same result.
pub fn assess(plan: &Plan, knowledge: &Knowledge, options: &Options) -> Assessment {
    let mut rules = classify::Rules::default();
    let verdicts: Vec<Verdict> = plan
        .changes
        .iter()
        .map(|c| classify::verdict(c, knowledge, plan.product, false, &mut rules))
        .collect();
    finish(
        plan,
        knowledge,
        options,
        verdicts,
        &mut rules,
        &Dropped::default(),
    )
    .0
}

/// Evaluates a plan one change at a time, as the reader hands them over
/// (`ward_plan::read_path_or_stdin_each`): memory holds the verdicts, never every change of the
/// plan as well. [`Assessor::finish`] gives the same [`Assessment`] as [`assess`] on the whole
/// plan.
///
/// ```ignore
/// let mut assessor = Assessor::new(&knowledge);
/// let plan = ward_plan::read_path_or_stdin_each(path, &mut |c| assessor.add(c))?;
/// let assessment = assessor.finish(&plan, &options);
/// ```
#[derive(Debug)]
pub struct Assessor<'k> {
    knowledge: &'k Knowledge,
    verdicts: Vec<Verdict>,
    rules: classify::Rules,
    /// How many changes were given.
    given: usize,
    /// What the coverage gate needs of the verdicts [`Assessor::add_kept`] dropped.
    dropped: Dropped,
    /// The position of each kept verdict's change among those given, once a verdict was
    /// dropped (until then, a verdict's index is its position).
    positions: Option<Vec<usize>>,
}

/// What the coverage gate needs of the verdicts a caller dropped ([`Assessor::add_kept`]): each
/// managed type seen, whether a verdict of it was unclassified, and whether such a verdict
/// changes its object. A few entries a plan, however many changes it has.
#[derive(Debug, Default)]
struct Dropped {
    /// Managed type -> (unclassified, unclassified and changed).
    types: BTreeMap<Arc<str>, (bool, bool)>,
}

impl Dropped {
    fn note(&mut self, type_name: Arc<str>, unclassified: bool, blocking: bool) {
        let (u, b) = self.types.entry(type_name).or_default();
        *u |= unclassified;
        *b |= blocking;
    }
}

impl<'k> Assessor<'k> {
    /// An assessor with no change yet.
    pub fn new(knowledge: &'k Knowledge) -> Self {
        Assessor {
            knowledge,
            verdicts: Vec::new(),
            rules: classify::Rules::default(),
            given: 0,
            dropped: Dropped::default(),
            positions: None,
        }
    }

    /// The same assessor, classifying without explanations: every verdict's `explanation` is
    /// empty, the rest is the same. For a caller that never prints them (`ward gate`), which
    /// saves formatting sentences for every change.
    pub fn terse(mut self) -> Self {
        self.rules.terse = true;
        self
    }

    /// Classifies one `resource_changes` entry and drops it, keeping only its verdict.
    pub fn add(&mut self, change: ResourceChange) {
        self.add_with(change, |v| v);
    }

    /// Classifies one `resource_changes` entry, drops it and keeps what `keep` returns for its
    /// verdict: a caller that writes the verdict's details elsewhere (a report spilled to disk)
    /// keeps a lighter verdict. Verdicts are classified with Terraform's wording for
    /// `action_reason` (the product is only known once the whole plan is read): with `keep`,
    /// the caller sees that wording; [`Assessor::finish`] rewords the kept verdicts.
    pub fn add_with(&mut self, change: ResourceChange, keep: impl FnOnce(Verdict) -> Verdict) {
        self.add_kept(change, |v| Some(keep(v)));
    }

    /// [`Assessor::add_with`], where `keep` may also drop the verdict (`None`): a caller that
    /// will never look at it again (`ward gate`: a change that needs no approval, no guard, no
    /// budget and no approval names) keeps nothing of it. A dropped verdict still counts for the
    /// coverage gate, which needs only its type, whether it was classified and whether it
    /// changes its object; it is not in the assessment's `verdicts`, and
    /// [`Assessor::finish_ordered`] gives the kept verdicts' positions among all changes given.
    pub fn add_kept(
        &mut self,
        change: ResourceChange,
        keep: impl FnOnce(Verdict) -> Option<Verdict>,
    ) {
        let v = classify::verdict_taking(
            change,
            self.knowledge,
            Product::Unknown,
            false,
            &mut self.rules,
        );
        let position = self.given;
        self.given += 1;
        // What the coverage gate needs of the verdict, should `keep` drop it.
        let seen = (v.mode == Mode::Managed).then(|| {
            let unclassified = !v.classified;
            let blocking = unclassified && v.action.is_change();
            (Arc::clone(&v.type_name), unclassified, blocking)
        });
        match keep(v) {
            Some(v) => {
                if let Some(p) = &mut self.positions {
                    p.push(position);
                }
                self.verdicts.push(v);
            }
            None => {
                if self.positions.is_none() {
                    self.positions = Some((0..self.verdicts.len()).collect());
                }
                if let Some((t, unclassified, blocking)) = seen {
                    self.dropped.note(t, unclassified, blocking);
                }
            }
        }
    }

    /// The assessment. `plan` is what the reader returned: its `changes` are the ones given to
    /// [`Assessor::add`] (when it still holds some, they are classified too, after those).
    pub fn finish(self, plan: &Plan, options: &Options) -> Assessment {
        self.finish_ordered(plan, options).0
    }

    /// [`Assessor::finish`], and for each verdict of the assessment (in its order) the position
    /// of its change among those given to [`Assessor::add`] / [`Assessor::add_with`] (changes
    /// still in `plan.changes` come after those).
    pub fn finish_ordered(mut self, plan: &Plan, options: &Options) -> (Assessment, Vec<usize>) {
        if plan.product == Product::OpenTofu {
            for v in &mut self.verdicts {
                v.reword_reason(plan.product);
            }
        }
        self.verdicts.extend(
            plan.changes.iter().map(|c| {
                classify::verdict(c, self.knowledge, plan.product, false, &mut self.rules)
            }),
        );
        let (assessment, order) = finish(
            plan,
            self.knowledge,
            options,
            self.verdicts,
            &mut self.rules,
            &self.dropped,
        );
        let order = match self.positions {
            None => order,
            Some(mut positions) => {
                positions.extend(self.given..self.given + plan.changes.len());
                order
                    .into_iter()
                    .map(|i| positions.get(i).copied().unwrap_or(i))
                    .collect()
            }
        };
        (assessment, order)
    }
}

/// Sorts verdicts by address then deposed key, stably, without the scratch buffer of half the
/// slice that `slice::sort_by` allocates (tens of megabytes for a plan of 200,000 changes):
/// sorts indices, then applies the permutation in place. Returns, for each position, where its
/// verdict was before.
fn sort_verdicts(v: &mut [Verdict]) -> Vec<usize> {
    let order = match u32::try_from(v.len()) {
        Ok(_) => sorted_by_prefix(v),
        Err(_) => {
            let mut order: Vec<usize> = (0..v.len()).collect();
            order.sort_unstable_by(|&a, &b| by_address(v, a, b));
            order
        }
    };
    // Position i must receive the element now at order[i]; follow each cycle once.
    let mut done = vec![false; order.len()];
    for start in 0..order.len() {
        if done[start] {
            continue;
        }
        let mut at = start;
        loop {
            done[at] = true;
            let from = order[at];
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
    order
}

/// Verdicts `a` and `b` by address, then deposed key, then position: unstable sorts by it are
/// deterministic (equal keys keep their order by the index, the last key).
fn by_address(v: &[Verdict], a: usize, b: usize) -> std::cmp::Ordering {
    (&v[a].address, &v[a].deposed, a).cmp(&(&v[b].address, &v[b].deposed, b))
}

/// The positions of `v` (fewer than 2^32) in [`by_address`] order. Each address's first 12
/// bytes are read into two numbers (big-endian, zero-padded), which compare as the bytes do
/// (and a zero-padded prefix as the shorter string does), so most comparisons end there, on
/// one contiguous array of 16 bytes a verdict, without reaching the verdicts' strings; equal
/// prefixes leave it to [`by_address`]. The array then becomes the returned positions in place.
fn sorted_by_prefix(v: &[Verdict]) -> Vec<usize> {
    let mut keys: Vec<(u64, u32, u32)> = v
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let mut b = [0u8; 12];
            let bytes = x.address.as_bytes();
            let head = bytes.get(..12).unwrap_or(bytes);
            b[..head.len()].copy_from_slice(head);
            let [b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11] = b;
            let hi = u64::from_be_bytes([b0, b1, b2, b3, b4, b5, b6, b7]);
            let lo = u32::from_be_bytes([b8, b9, b10, b11]);
            // The caller checked that every position fits.
            (hi, lo, u32::try_from(i).unwrap_or(u32::MAX))
        })
        .collect();
    keys.sort_unstable_by(|&(ha, la, a), &(hb, lb, b)| {
        (ha, la)
            .cmp(&(hb, lb))
            .then_with(|| by_address(v, a as usize, b as usize))
    });
    keys.into_iter().map(|(_, _, i)| i as usize).collect()
}

/// The assessment from the verdicts of `plan`'s changes (in any order).
fn finish(
    plan: &Plan,
    knowledge: &Knowledge,
    options: &Options,
    mut verdicts: Vec<Verdict>,
    rules: &mut classify::Rules,
    dropped: &Dropped,
) -> (Assessment, Vec<usize>) {
    let order = sort_verdicts(&mut verdicts);
    let mut drift: Vec<Verdict> = plan
        .drift
        .iter()
        .map(|c| classify::verdict(c, knowledge, plan.product, true, rules))
        .collect();
    sort_verdicts(&mut drift);
    let mut outputs = plan.output_changes.clone();
    outputs.sort_by(|a, b| a.name.cmp(&b.name));

    let coverage = coverage(plan, knowledge, &verdicts, dropped, rules, options);
    let assessment = Assessment {
        plan: PlanInfo {
            format_version: plan.format_version,
            terraform_version: plan.terraform_version.clone(),
            product: plan.product,
            errored: plan.errored,
            complete: plan.complete,
        },
        knowledge: KnowledgeUsed {
            packs: knowledge.packs(),
            user_files: knowledge.user_files(),
        },
        verdicts,
        drift,
        outputs,
        coverage,
    };
    (assessment, order)
}

/// The coverage gate: every managed type in configuration, prior state and resource changes;
/// only those a change touches block.
fn coverage(
    plan: &Plan,
    k: &Knowledge,
    verdicts: &[Verdict],
    dropped: &Dropped,
    rules: &classify::Rules,
    options: &Options,
) -> Coverage {
    let mut checked: BTreeSet<&str> = BTreeSet::new();
    let mut unclassified: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    for (types, seen) in [
        (&plan.configured_types, SEEN_IN_CONFIGURATION),
        (&plan.state_types, SEEN_IN_PRIOR_STATE),
    ] {
        for t in types.iter().filter(|t| t.mode == Mode::Managed) {
            checked.insert(&t.type_name);
            if !k.classifies_type(&t.type_name, t.provider.as_deref()) {
                unclassified
                    .entry(t.type_name.clone())
                    .or_default()
                    .insert(seen);
            }
        }
    }
    let mut blocking: BTreeSet<String> = BTreeSet::new();
    let changed = &rules.seen;
    for v in verdicts.iter().filter(|v| v.mode == Mode::Managed) {
        checked.insert(&v.type_name);
        if !v.classified {
            unclassified
                .entry(v.type_name.to_string())
                .or_default()
                .insert(SEEN_IN_RESOURCE_CHANGES);
            if v.action.is_change() {
                blocking.insert(v.type_name.to_string());
            }
        }
    }
    for (t, &(dropped_unclassified, dropped_blocking)) in &dropped.types {
        checked.insert(t);
        if dropped_unclassified {
            unclassified
                .entry(t.to_string())
                .or_default()
                .insert(SEEN_IN_RESOURCE_CHANGES);
        }
        if dropped_blocking {
            blocking.insert(t.to_string());
        }
    }
    let suggestions = unclassified
        .iter()
        .map(|(t, seen)| {
            let places: Vec<&str> = seen.iter().copied().collect();
            (t.clone(), explain::suggestion(t, &places, changed.get(t)))
        })
        .collect();
    Coverage {
        unclassified: unclassified
            .into_iter()
            .map(|(t, seen)| (t, seen.into_iter().map(str::to_string).collect()))
            .collect(),
        blocking: blocking.into_iter().collect(),
        suggestions,
        types_checked: checked.len(),
        relaxed: options.allow_unclassified,
    }
}
