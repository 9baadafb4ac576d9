//! `ward import check`: a plan passes only when it adopts exactly the inventory and changes
//! nothing.
//!
//! Every managed change must be an import with no other action (`no-op` with `importing`), or,
//! after `terraform import` commands (Terraform before 1.5), an object already in state with no
//! change. The imports match the inventory one to one, no id is imported twice, and no id is
//! already managed by another root. A replacement or a delete is refused naming the attributes
//! that force it (`replace_paths`); an in-place update is refused unless an allowance in the
//! inventory names its address and attribute, with a reason.

use crate::inventory::Inventory;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use ward_model::{Action, Mode, Plan, ResourceChange};

/// The JSON report's version (`docs/import.schema.json`).
pub const SCHEMA_VERSION: u32 = 1;

/// What ward found for one inventory object.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The plan imports it, with no other change.
    Import,
    /// The plan imports it and updates attributes in place, every one of them allowed.
    ImportAllowedUpdate,
    /// Already in state (imported by `terraform import`), no change planned.
    InState,
    /// Something is wrong with it: see the problems.
    Refused,
    /// The plan does not mention it.
    Missing,
}

/// One inventory object and what the plan does with it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    /// Its address.
    pub address: String,
    /// Its import id (the inventory's).
    pub id: String,
    /// What the plan does with it.
    pub status: Status,
    /// Allowed in-place updates, `attribute: reason`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed: Vec<String>,
}

/// What kind of problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    /// Planning failed part-way.
    ErroredPlan,
    /// The import would replace the object.
    Replace,
    /// The plan deletes (or forgets) an object.
    Delete,
    /// An in-place update of an attribute no allowance names.
    Update,
    /// The plan creates an object (an inventory address without an import creates a new one).
    Create,
    /// An inventory object the plan neither imports nor has in state.
    Missing,
    /// The plan imports an object the inventory does not list.
    Extra,
    /// The plan imports a different id than the inventory gives.
    IdMismatch,
    /// One id imported at two addresses of the same type.
    DuplicateId,
    /// The id is already managed by another root.
    ManagedElsewhere,
    /// A change to an object that is not being imported (a managed change before acceptance).
    NotImport,
}

/// One reason the check fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// What kind.
    pub kind: ProblemKind,
    /// The address it is about (empty for the plan as a whole).
    pub address: String,
    /// The attributes involved (sorted): what forces a replacement, what an update changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<String>,
    /// What was wrong, in a sentence.
    pub message: String,
    /// What to do about it.
    pub help: String,
}

/// The ids another root manages: `(type, id)` → address there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ManagedIds {
    /// The other root's name.
    pub root: String,
    /// `(type, id)` → address.
    pub ids: BTreeMap<(String, String), String>,
}

/// The check's result (its JSON, with `schema_version` [`SCHEMA_VERSION`] first, is also the
/// check record `ward import accept` reads).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    /// The plan file, as given.
    pub plan: String,
    /// The inventory file, as given.
    pub inventory: String,
    /// The plan's digest (every change's full digest), what `ward import accept` binds to.
    pub plan_digest: String,
    /// Which Terraform wrote the plan, as it says.
    pub terraform_version: Option<String>,
    /// Whether the plan passes.
    pub passed: bool,
    /// Every inventory object, by address.
    pub objects: Vec<Object>,
    /// Every problem, sorted by address then kind.
    pub problems: Vec<Problem>,
}

impl CheckReport {
    /// address → id of every object.
    pub fn ids(&self) -> BTreeMap<String, String> {
        self.objects
            .iter()
            .map(|o| (o.address.clone(), o.id.clone()))
            .collect()
    }
}

/// What the check reads.
#[derive(Debug, Clone, Copy)]
pub struct CheckInput<'a> {
    /// The plan, read by ward-plan.
    pub plan: &'a Plan,
    /// The plan file as cited.
    pub plan_name: &'a str,
    /// The inventory.
    pub inventory: &'a Inventory,
    /// The inventory file as cited.
    pub inventory_name: &'a str,
    /// The plan's digest (computed by the caller through ward-gate's digests).
    pub plan_digest: &'a str,
    /// What the other declared roots manage.
    pub others: &'a [ManagedIds],
}

fn replacing(a: Action) -> bool {
    matches!(
        a,
        Action::ReplaceDeleteFirst | Action::ReplaceCreateFirst | Action::CreateThenForget
    )
}

/// Checks a plan against an inventory.
pub fn check(input: &CheckInput<'_>) -> CheckReport {
    let inv = input.inventory;
    let plan = input.plan;
    let mut f = Found::default();
    if plan.errored {
        f.push(
            ProblemKind::ErroredPlan,
            "",
            vec![],
            "the plan is errored: planning failed part-way, so it shows only part of what would happen".into(),
            "fix the errors Terraform printed, then plan again",
        );
    }
    let expected = inv.ids();
    // Imports by (type, id), to find one id imported twice.
    let mut by_id: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for c in &plan.changes {
        if c.mode != Mode::Managed {
            continue;
        }
        let listed = expected.get(c.address.as_str());
        f.import(c, listed, &mut by_id);
        f.action(c, listed.is_some(), inv);
    }
    f.duplicate_ids(&by_id, inv);
    f.managed_elsewhere(inv, input.others);
    let objects = f.objects(inv);
    let Found { mut problems, .. } = f;
    problems.sort_by(|a, b| {
        (&a.address, a.kind, &a.attributes).cmp(&(&b.address, b.kind, &b.attributes))
    });
    problems.dedup();
    CheckReport {
        plan: input.plan_name.to_string(),
        inventory: input.inventory_name.to_string(),
        plan_digest: input.plan_digest.to_string(),
        terraform_version: plan.terraform_version.clone(),
        passed: problems.is_empty(),
        objects,
        problems,
    }
}

/// What the check finds as it reads the plan: the problems, and the status of each inventory
/// object the plan names (by address).
#[derive(Default)]
struct Found {
    problems: Vec<Problem>,
    status: BTreeMap<String, (Status, Vec<String>)>,
}

impl Found {
    fn push(
        &mut self,
        kind: ProblemKind,
        address: &str,
        attributes: Vec<String>,
        message: String,
        help: &str,
    ) {
        self.problems.push(Problem {
            kind,
            address: address.to_string(),
            attributes,
            message,
            help: help.to_string(),
        });
    }

    /// `addr` is refused, when the inventory lists it.
    fn refuse(&mut self, addr: &str, listed: bool) {
        if listed {
            self.status
                .insert(addr.to_string(), (Status::Refused, vec![]));
        }
    }

    /// The import of `c`, if any: its id counted in `by_id`; refused when the inventory does not
    /// list it or gives another id.
    fn import(
        &mut self,
        c: &ResourceChange,
        listed: Option<&String>,
        by_id: &mut BTreeMap<(String, String), Vec<String>>,
    ) {
        let Some(imp) = &c.importing else {
            return;
        };
        let addr = c.address.as_str();
        if let Some(id) = &imp.id {
            by_id
                .entry((c.type_name.clone(), id.clone()))
                .or_default()
                .push(addr.to_string());
        }
        match (listed, &imp.id) {
            (None, _) => self.push(
                ProblemKind::Extra,
                addr,
                vec![],
                format!("the plan imports {addr}, which the inventory does not list"),
                "add it to the inventory, or remove its import block",
            ),
            (Some(want), Some(got)) if want != got => self.push(
                ProblemKind::IdMismatch,
                addr,
                vec![],
                format!("the plan imports id {got:?} at {addr}; the inventory gives {want:?}"),
                "regenerate the import blocks with `ward import plan`, or correct the inventory",
            ),
            _ => {}
        }
    }

    /// What `c`'s action means for an adoption: nothing (an import or an object in state), an
    /// allowed or refused update on import, or a problem.
    fn action(&mut self, c: &ResourceChange, listed: bool, inv: &Inventory) {
        let addr = c.address.as_str();
        let imported = c.importing.is_some();
        let changed: Vec<String> = {
            let s: BTreeSet<String> = c.changed.iter().map(|a| a.path.to_string()).collect();
            s.into_iter().collect()
        };
        match c.action {
            Action::NoOp | Action::Read | Action::Open => {
                if listed {
                    let st = if imported {
                        Status::Import
                    } else {
                        Status::InState
                    };
                    self.status.entry(addr.to_string()).or_insert((st, vec![]));
                }
            }
            Action::Update if imported => self.update_on_import(addr, &changed, inv),
            a if replacing(a) => self.replacement(c, listed, changed),
            Action::Create => {
                self.refuse(addr, listed);
                if listed {
                    self.push(
                        ProblemKind::Create,
                        addr,
                        vec![],
                        format!("the plan creates {addr} instead of importing it"),
                        "add its import (the blocks `ward import plan` writes, or run its `terraform import` command), then plan again",
                    );
                } else {
                    self.push(
                        ProblemKind::Create,
                        addr,
                        vec![],
                        format!("the plan creates {addr}, which is not in the inventory"),
                        "an adoption plan only imports: remove the resource from the model until the root is accepted, or add the live object to the inventory",
                    );
                }
            }
            Action::Delete | Action::Forget => {
                self.refuse(addr, listed);
                self.push(
                    ProblemKind::Delete,
                    addr,
                    vec![],
                    format!("the plan {}s {addr}", c.action.as_terraform()),
                    "an adoption plan only imports: restore the resource in the model",
                );
            }
            _ => {
                // An update of an object that is not being imported.
                self.refuse(addr, listed);
                self.push(
                    ProblemKind::NotImport,
                    addr,
                    changed,
                    format!(
                        "the plan changes {addr} ({}), which is not an import",
                        c.action.as_terraform()
                    ),
                    "accept the adoption first (`ward import accept`), then make managed changes in their own plan",
                );
            }
        }
    }

    /// An import that also updates attributes in place: allowed when the inventory's allowances
    /// name every one, refused naming the others.
    fn update_on_import(&mut self, addr: &str, changed: &[String], inv: &Inventory) {
        let mut allowed = Vec::new();
        let mut refused = Vec::new();
        for a in changed {
            match inv.allow.iter().find(|al| al.covers(addr, a)) {
                Some(al) => allowed.push(format!("{a}: {}", al.reason)),
                None => refused.push(a.clone()),
            }
        }
        if refused.is_empty() {
            self.status
                .insert(addr.to_string(), (Status::ImportAllowedUpdate, allowed));
        } else {
            self.status
                .insert(addr.to_string(), (Status::Refused, allowed));
            let message = format!(
                "importing {addr} would update {} in place: the model does not match the live object",
                refused.join(", ")
            );
            self.push(
                ProblemKind::Update,
                addr,
                refused,
                message,
                "set the attribute in the model to the live value, or, when the change is intended, add an allowance {\"address\", \"attribute\", \"reason\"} to the inventory's `allow`",
            );
        }
    }

    /// A replacement (on import or not): refused, naming the attributes that force it (the
    /// changed ones when the plan names none).
    fn replacement(&mut self, c: &ResourceChange, listed: bool, changed: Vec<String>) {
        let addr = c.address.as_str();
        let mut forcing: Vec<String> = c
            .replace_paths
            .iter()
            .map(ToString::to_string)
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        if forcing.is_empty() {
            forcing = changed;
        }
        self.refuse(addr, listed);
        let what = if c.importing.is_some() {
            format!("importing {addr} would replace it")
        } else {
            format!("the plan replaces {addr}")
        };
        let message = format!(
            "{what}: {} forces replacement",
            if forcing.is_empty() {
                "the provider".to_string()
            } else {
                forcing.join(", ")
            }
        );
        self.push(
            ProblemKind::Replace,
            addr,
            forcing,
            message,
            "model the attribute exactly as the live object has it; where the provider cannot read it back, put it in the import id as the provider's import documentation says",
        );
    }

    /// One id imported at two addresses, or given to two addresses by the inventory (said once:
    /// the plan's when both say it).
    fn duplicate_ids(&mut self, by_id: &BTreeMap<(String, String), Vec<String>>, inv: &Inventory) {
        for ((t, id), addrs) in by_id {
            if addrs.len() > 1 {
                for a in addrs {
                    self.push(
                        ProblemKind::DuplicateId,
                        a,
                        vec![],
                        format!("{t} id {id:?} is imported at {}", addrs.join(" and ")),
                        "one live object has one address: remove all but one import",
                    );
                }
            }
        }
        for (t, id, addrs) in inv.duplicate_ids() {
            if by_id
                .get(&(t.clone(), id.clone()))
                .is_some_and(|v| v.len() > 1)
            {
                continue;
            }
            for a in &addrs {
                self.push(
                    ProblemKind::DuplicateId,
                    a,
                    vec![],
                    format!(
                        "the inventory gives {t} id {id:?} to {}",
                        addrs.join(" and ")
                    ),
                    "one live object has one address: remove all but one from the inventory",
                );
            }
        }
    }

    /// Inventory objects another declared root already manages.
    fn managed_elsewhere(&mut self, inv: &Inventory, others: &[ManagedIds]) {
        for e in &inv.entries {
            let key = (e.address.type_name.clone(), e.id.clone());
            for o in others {
                if let Some(there) = o.ids.get(&key) {
                    let a = e.address.to_string();
                    self.push(
                        ProblemKind::ManagedElsewhere,
                        &a,
                        vec![],
                        format!(
                            "{} id {:?} is already managed by root {:?} (as {there})",
                            e.address.type_name, e.id, o.root
                        ),
                        "an object is managed by one root: remove it from this inventory, or move it with `terraform state mv`/`removed` blocks first",
                    );
                }
            }
        }
    }

    /// Every inventory object with its status, by address: missing when the plan names it not,
    /// refused when any problem names it.
    fn objects(&mut self, inv: &Inventory) -> Vec<Object> {
        let mut objects: Vec<Object> = inv
            .entries
            .iter()
            .map(|e| {
                let address = e.address.to_string();
                let (st, allowed) = self
                    .status
                    .remove(&address)
                    .unwrap_or((Status::Missing, Vec::new()));
                Object {
                    address,
                    id: e.id.clone(),
                    status: st,
                    allowed,
                }
            })
            .collect();
        for o in &objects {
            if o.status == Status::Missing {
                self.push(
                    ProblemKind::Missing,
                    &o.address,
                    vec![],
                    format!("the plan neither imports {} nor has it in state", o.address),
                    "add its resource block to the model and its import (`ward import plan`), then plan again",
                );
            }
        }
        let refused: BTreeSet<String> = self.problems.iter().map(|p| p.address.clone()).collect();
        for o in &mut objects {
            if refused.contains(&o.address) && o.status != Status::Missing {
                o.status = Status::Refused;
            }
        }
        objects.sort_by(|a, b| a.address.cmp(&b.address));
        objects
    }
}
