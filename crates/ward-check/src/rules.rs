//! The rule registry: every rule of `ward check` is one file in this directory holding its
//! documentation (what it checks, why, the field note it rests on, a failing and a passing
//! example, how to fix and how to waive), its metadata ([`Rule`]) and its check. The list of
//! rules (`each_rule!` in `rule_id.rs`) names each file once; [`RuleId`] (in its own module,
//! which findings name without depending on the rules), [`RULES`] and `docs/check-rules.md` are
//! generated from it.
//!
//! Adding a rule: one file `rules/<family>_<nnn>.rs` (copy a neighbour), one line in
//! `each_rule!` (`rule_id.rs`), and its fixtures `tests/fixtures/rules/<ID>/{fail,pass}` (a test
//! fails when a rule lacks either, when a rule file is not in the list, and when
//! `docs/check-rules.md` differs from the registry's).
//!
//! A rule's check is either its own function ([`Check::Each`], run once per `ward check` over
//! the [`Cx`]) or part of a pass that reads something once for several rules ([`Check::Pass`]:
//! the text scan, the suppressions, `--exec`, `render` blocks), which the rule names.

pub mod evidence;
pub mod shared;
pub mod sources;

use crate::finding::Finding;
use crate::knowledge::DataHolding;
use crate::severity::Severity;
use std::collections::BTreeMap;
use std::fmt;
use ward_config::CheckSettings;
use ward_repo::Repo;

pub use crate::rule_id::{RuleId, UnknownRule};

/// What a rule file needs, in one `use`.
pub(crate) mod prelude {
    pub use super::shared::{anchor, at, skip};
    pub use super::{Category, Check, Cx, Example, InExample, Rule, RuleId};
    pub use crate::finding::Finding;
    pub use crate::severity::Severity;
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

/// What a rule's finding becomes in an example or test of a module repository (applied by
/// [`crate::layout::examples`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InExample {
    /// Kept as it is (what is wrong wherever it is).
    Keep,
    /// At most a warning: a user copying the example inherits it.
    Cap,
    /// Not raised when a module the example calls sets what is missing (the copy inherits it
    /// through the call), else at most a warning.
    UnlessCalledModuleSets,
    /// Not raised: nothing a user copying one example inherits.
    Drop,
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

        impl RuleId {
            /// The rule.
            pub fn rule(self) -> &'static Rule {
                match self {
                    $(RuleId::$variant => &$module::RULE,)*
                }
            }
        }

        /// Every rule, in ID order.
        pub const RULES: &[&Rule] = &[$(&$module::RULE,)*];
    };
}

crate::rule_id::each_rule!(registry);

impl Finding {
    /// A finding with the rule's default severity (tuning is applied later). Defined with the
    /// registry, which holds the default, so that `finding.rs` names rules only by their IDs.
    pub fn new(rule: RuleId, file: &str, line: usize, message: impl Into<String>) -> Finding {
        Finding {
            file: file.to_string(),
            line,
            rule,
            severity: rule.rule().severity,
            message: message.into(),
            dir: None,
            detail: Vec::new(),
        }
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
    fn every_rule_file_has_an_id_and_every_id_a_rule() {
        // Every ID's rule is the rule of that ID, once.
        assert_eq!(RULES.len(), RuleId::ALL.len(), "one rule per ID");
        for id in RuleId::ALL {
            assert_eq!(id.rule().id, *id, "{id}: its rule file declares another ID");
            assert_eq!(
                rule(id.as_str()).map(|r| r.id),
                Some(*id),
                "{id}: not found"
            );
        }
        // Every rule file is in the list (a file left out is not even compiled).
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|n| n.strip_suffix(".rs").map(str::to_string))
            .filter(|n| !["evidence", "shared", "sources"].contains(&n.as_str()))
            .collect();
        files.sort();
        let listed: Vec<&str> = RuleId::ALL.iter().map(|id| id.file()).collect();
        assert_eq!(
            files, listed,
            "each file rules/<family>_<nnn>.rs is one line of each_rule! (rule_id.rs), and each line a file"
        );
    }
}
