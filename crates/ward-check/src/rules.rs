//! The rule registry: every rule of `ward check` is one file in this directory holding its
//! documentation (what it checks, why, the field note it rests on, a failing and a passing
//! example, how to fix and how to waive), its metadata ([`Rule`]) and its check. The registry
//! below lists each file once; [`RuleId`], [`RULES`] and `docs/check-rules.md` are generated
//! from it.
//!
//! Adding a rule: one file `rules/<family>_<nnn>.rs` (copy a neighbour), one line in
//! [`registry!`] below, and its fixtures `tests/fixtures/rules/<ID>/{fail,pass}` (a test fails
//! when a rule lacks either, and when `docs/check-rules.md` differs from the registry's).
//!
//! A rule's check is either its own function ([`Check::Each`], run once per `ward check` over
//! the [`Cx`]) or part of a pass that reads something once for several rules ([`Check::Pass`]:
//! the text scan, the suppressions, `--exec`, `render` blocks), which the rule names.

pub mod evidence;
pub mod shared;
pub mod sources;

use crate::catalog::Severity;
use crate::finding::Finding;
use crate::knowledge::DataHolding;
use crate::layout::InExample;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use ward_config::CheckSettings;
use ward_repo::Repo;

/// What a rule file needs, in one `use`.
pub(crate) mod prelude {
    pub use super::shared::{anchor, at, skip};
    pub use super::{Category, Check, Cx, Example, Rule, RuleId};
    pub use crate::catalog::Severity;
    pub use crate::finding::Finding;
    pub use crate::layout::InExample;
}

/// Findings a rule did not raise, and why: (rule, why) → how many.
pub type Skipped = BTreeMap<(RuleId, String), usize>;

/// What a rule is about: the family of its ID (`WARD-VER-…` → [`Category::Versions`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    /// Ansible dependencies, fetches, guards, secrets on command lines, SSH hardening.
    Ansible,
    /// Every resource type classified by ward's knowledge.
    Coverage,
    /// Resources holding data are protected.
    Data,
    /// What was found agrees with what is declared; files parse.
    Discovery,
    /// Terraform run on each module (`--exec`).
    Exec,
    /// `ignore_changes` and its waivers.
    Import,
    /// Layers read only the layers below.
    Layers,
    /// Module sources pinned, one version each.
    Modules,
    /// Committed files equal what their generator renders.
    Render,
    /// Key material in configuration.
    Secrets,
    /// State kept outside the checkout.
    State,
    /// ward's own `ward:ignore` comments.
    Suppressions,
    /// Terraform, provider and lock-file versions.
    Versions,
}

impl Category {
    /// The lowercase word.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Ansible => "ansible",
            Category::Coverage => "coverage",
            Category::Data => "data",
            Category::Discovery => "discovery",
            Category::Exec => "exec",
            Category::Import => "import",
            Category::Layers => "layers",
            Category::Modules => "modules",
            Category::Render => "render",
            Category::Secrets => "secrets",
            Category::State => "state",
            Category::Suppressions => "suppressions",
            Category::Versions => "versions",
        }
    }
}

/// A rule's check: what runs it.
#[derive(Clone, Copy)]
pub enum Check {
    /// Its own function over the run's context.
    Each(fn(&mut Cx<'_>) -> Result<(), String>),
    /// Raised by a pass that serves several rules (named here).
    Pass(&'static str),
}

impl fmt::Debug for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Check::Each(_) => f.write_str("Each"),
            Check::Pass(p) => write!(f, "Pass({p:?})"),
        }
    }
}

/// A file of a rule's fixture, shown in its documentation (included from the fixture, so the
/// example is the one the test proves).
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// The path in the fixture.
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
}

/// One rule: metadata, documentation and check.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The typed ID.
    pub id: RuleId,
    /// A short kebab-case name.
    pub name: &'static str,
    /// A short title.
    pub title: &'static str,
    /// Default severity (`ward.hcl` `check { rule "ID" { severity = ... } }` changes it).
    pub severity: Severity,
    /// Its family.
    pub category: Category,
    /// Whether it runs Terraform/OpenTofu.
    pub needs_terraform: bool,
    /// The flag it runs only with (`--exec`).
    pub opt_in: Option<&'static str>,
    /// The settings it takes besides `severity` and `enabled` in `check { rule "ID" { } }`.
    pub options: &'static [&'static str],
    /// The field note (the project's requirements background) it rests on; the generated
    /// documentation states its principle.
    pub note: Option<u8>,
    /// What it checks and why, with the failure it prevents.
    pub doc: &'static str,
    /// How to fix a finding.
    pub fix: &'static str,
    /// How to waive one, besides the inline suppression and `ward.hcl` tuning every rule has.
    pub waive: &'static str,
    /// The fixture files that make it fail (those that differ from the passing fixture).
    pub fails: &'static [Example],
    /// The passing fixture's files that differ.
    pub passes: &'static [Example],
    /// Its treatment in the examples and tests of a module repository, and why.
    pub in_examples: (InExample, &'static str),
    /// What runs it.
    pub check: Check,
}

/// Everything a rule's check reads, and what it adds to.
pub struct Cx<'a> {
    /// The repository.
    pub repo: &'a Repo,
    /// `ward.hcl`, when there is one.
    pub config: Option<&'a ward_config::Config>,
    /// `ward.hcl`'s `check` block (defaults when absent).
    pub settings: &'a CheckSettings,
    /// Repository-level evidence (ignore files), read once.
    pub evidence: &'a evidence::Evidence,
    /// Which resource types hold data.
    pub knowledge: &'a dyn DataHolding,
    /// Today (UTC).
    pub today: ward_time::Date,
    /// Every module source use, classified once (`--resolve` asks each remote once).
    pub sources: &'a sources::Sources,
    /// The findings.
    pub out: Vec<Finding>,
    /// What the rules did not raise, and why.
    pub skipped: Skipped,
}

impl Cx<'_> {
    /// Adds a finding.
    pub fn push(&mut self, f: Finding) {
        self.out.push(f);
    }

    /// Counts one finding `rule` did not raise, and why.
    pub fn skip(&mut self, rule: RuleId, why: impl Into<String>) {
        shared::skip(&mut self.skipped, rule, why);
    }
}

/// Runs every rule whose check is its own function, in ID order.
pub fn run(cx: &mut Cx<'_>) -> Result<(), String> {
    for r in RULES {
        if let Check::Each(f) = r.check {
            f(cx)?;
        }
    }
    Ok(())
}

macro_rules! registry {
    ($($variant:ident $id:literal $module:ident;)*) => {
        $(pub mod $module;)*

        /// A rule's ID: one variant per rule file, generated from the registry. Ordered as the
        /// IDs sort.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum RuleId {
            $(#[doc = $id] $variant,)*
        }

        impl RuleId {
            /// Every ID, in order.
            pub const ALL: &'static [RuleId] = &[$(RuleId::$variant,)*];

            /// The ID as written (`WARD-MOD-005`).
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $id,)*
                }
            }

            /// The rule.
            pub fn rule(self) -> &'static Rule {
                match self {
                    $(RuleId::$variant => &$module::RULE,)*
                }
            }

            /// The name of the rule's file (`mod_005`).
            pub const fn file(self) -> &'static str {
                match self {
                    $(RuleId::$variant => stringify!($module),)*
                }
            }
        }

        /// Every rule, in ID order.
        pub const RULES: &[&Rule] = &[$(&$module::RULE,)*];
    };
}

registry! {
    Ans001 "WARD-ANS-001" ans_001;
    Ans002 "WARD-ANS-002" ans_002;
    Ans003 "WARD-ANS-003" ans_003;
    Ans004 "WARD-ANS-004" ans_004;
    Ans005 "WARD-ANS-005" ans_005;
    Ans006 "WARD-ANS-006" ans_006;
    Cov001 "WARD-COV-001" cov_001;
    Data001 "WARD-DATA-001" data_001;
    Disc001 "WARD-DISC-001" disc_001;
    Disc002 "WARD-DISC-002" disc_002;
    Disc003 "WARD-DISC-003" disc_003;
    Exec001 "WARD-EXEC-001" exec_001;
    Exec002 "WARD-EXEC-002" exec_002;
    Imp001 "WARD-IMP-001" imp_001;
    Imp002 "WARD-IMP-002" imp_002;
    Key001 "WARD-KEY-001" key_001;
    Layer001 "WARD-LAYER-001" layer_001;
    Layer002 "WARD-LAYER-002" layer_002;
    Layer003 "WARD-LAYER-003" layer_003;
    Mod001 "WARD-MOD-001" mod_001;
    Mod002 "WARD-MOD-002" mod_002;
    Mod003 "WARD-MOD-003" mod_003;
    Mod004 "WARD-MOD-004" mod_004;
    Mod005 "WARD-MOD-005" mod_005;
    Parse001 "WARD-PARSE-001" parse_001;
    Render001 "WARD-RENDER-001" render_001;
    Render002 "WARD-RENDER-002" render_002;
    Render003 "WARD-RENDER-003" render_003;
    State001 "WARD-STATE-001" state_001;
    State002 "WARD-STATE-002" state_002;
    State003 "WARD-STATE-003" state_003;
    State004 "WARD-STATE-004" state_004;
    Sup001 "WARD-SUP-001" sup_001;
    Sup002 "WARD-SUP-002" sup_002;
    Sup003 "WARD-SUP-003" sup_003;
    Ver001 "WARD-VER-001" ver_001;
    Ver002 "WARD-VER-002" ver_002;
    Ver003 "WARD-VER-003" ver_003;
    Ver004 "WARD-VER-004" ver_004;
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`: widths and alignment apply (`{:<14}` in the terminal report).
        f.pad(self.as_str())
    }
}

/// The ID as written, so an ID reads as text where text is asked (`id.starts_with("WARD-SUP-")`).
impl std::ops::Deref for RuleId {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Serialize for RuleId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl PartialEq<str> for RuleId {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for RuleId {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for RuleId {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

/// An ID that names no rule, with the closest one when it looks like a typo.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{given}\" names no rule{}; `ward check --list-rules` lists them", .closest.map(|c| format!(" (did you mean {c}?)")).unwrap_or_default())]
pub struct UnknownRule {
    /// What was written.
    pub given: String,
    /// The closest ID.
    pub closest: Option<RuleId>,
}

impl FromStr for RuleId {
    type Err = UnknownRule;
    fn from_str(s: &str) -> Result<RuleId, UnknownRule> {
        if let Some(id) = RuleId::ALL.iter().find(|r| r.as_str() == s) {
            return Ok(*id);
        }
        // Case and a missing zero are the usual typos (`ward-mod-5`).
        let upper = s.trim().to_ascii_uppercase();
        let known: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        let closest = ward_hcl::did_you_mean(&upper, &known)
            .and_then(|c| RuleId::ALL.iter().copied().find(|r| r.as_str() == c));
        Err(UnknownRule {
            given: s.to_string(),
            closest,
        })
    }
}

/// Looks a rule up by ID as written.
pub fn rule(id: &str) -> Option<&'static Rule> {
    id.parse::<RuleId>().ok().map(RuleId::rule)
}

/// WARD-VER-001..004 with no `check` settings (for callers that want the version rules alone).
pub fn versions(repo: &Repo, floor: Option<&str>, out: &mut Vec<Finding>) -> Result<(), String> {
    let settings = CheckSettings {
        terraform_floor: floor.map(str::to_string),
        ..CheckSettings::default()
    };
    let evidence = evidence::Evidence::read(repo);
    let sources = sources::Sources::default();
    let knowledge = crate::knowledge::NoKnowledge;
    let mut cx = Cx {
        repo,
        config: None,
        settings: &settings,
        evidence: &evidence,
        knowledge: &knowledge,
        // The version rules read no date.
        today: ward_time::Date::default(),
        sources: &sources,
        out: Vec::new(),
        skipped: Skipped::new(),
    };
    for id in [
        RuleId::Ver001,
        RuleId::Ver002,
        RuleId::Ver003,
        RuleId::Ver004,
    ] {
        if let Check::Each(f) = id.rule().check {
            f(&mut cx)?;
        }
    }
    out.append(&mut cx.out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_sorted_and_each_rule_is_its_own_file() {
        let ids: Vec<&str> = RuleId::ALL.iter().map(|r| r.as_str()).collect();
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, ids, "keep the registry sorted, without duplicates");
        for (i, r) in RULES.iter().enumerate() {
            assert_eq!(r.id, RuleId::ALL[i], "{}: RULE.id names another rule", r.id);
            let want = r.id.as_str()["WARD-".len()..]
                .to_ascii_lowercase()
                .replace('-', "_");
            assert_eq!(r.id.file(), want, "{}: its file is rules/{want}.rs", r.id);
            assert!(
                !r.doc.is_empty() && !r.fix.is_empty(),
                "{}: document it",
                r.id
            );
        }
    }

    #[test]
    fn an_unknown_id_names_the_closest() {
        assert_eq!("WARD-MOD-005".parse::<RuleId>(), Ok(RuleId::Mod005));
        let e = "WARD-MOD-05".parse::<RuleId>().unwrap_err();
        assert_eq!(e.closest, Some(RuleId::Mod005));
        assert!(e.to_string().contains("did you mean WARD-MOD-005?"), "{e}");
        let e = "ward-ver-004".parse::<RuleId>().unwrap_err();
        assert_eq!(e.closest, Some(RuleId::Ver004));
        let e = "no-such-thing".parse::<RuleId>().unwrap_err();
        assert_eq!(e.closest, None, "{e}");
    }
}
