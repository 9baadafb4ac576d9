//! What the repository's layout ([`ward_repo::layout`]) changes about findings:
//!
//! - **Examples and tests of a module repository** ([`examples`]): a finding there is at most a
//!   warning, and only when a user copying the example would inherit it (each rule's
//!   `in_examples` treatment, with why, in its rule file);
//! - **Modules rendered from one template** ([`rendered`]): the same finding in every rendering
//!   (`autogen/main` → `.`, `modules/private-cluster`, …) is one finding at the first, listing
//!   the others;
//! - **Terragrunt units generated from a remote source** ([`unread_units`]): what their
//!   `terragrunt.hcl` holds (backend, lock file) is not in the repository, so the rules that ask
//!   for it ([`UNREAD_UNIT_RULES`]) are not raised there;
//! - **Values a stack passes** ([`stack_values`]): a branch-shaped `version`/`ref` passed to a unit
//!   ward cannot read is a warning of WARD-MOD-001;
//! - **Templates** ([`templates`]): the template directories and files discovery did not parse,
//!   listed with what renders them.
//! - **Deprecated directories** ([`deprecated`], [`ward_repo::DEPRECATED_DIRS`]): code the
//!   repository no longer maintains: a finding there is at most a warning (key material and
//!   suppressions keep theirs), and its module pins split nothing for WARD-MOD-005.

use crate::finding::{ExcludedPath, Finding};
use crate::rule_id::RuleId;
use crate::rules::Skipped;
use crate::severity::Severity;
use std::collections::{BTreeMap, BTreeSet};
use ward_repo::{join_rel, Module, Repo, RepoKind, SourceKind};

pub use crate::rules::InExample;

/// The treatment of a rule without one of its own: at most a warning.
pub const DEFAULT_IN_EXAMPLES: InExample = InExample::Cap;

/// The note a finding capped to a warning carries.
pub const CAPPED: &str =
    "in an example or test of a module repository: a warning, as what a user copying it inherits";

/// A rule's treatment in examples (its `in_examples`, from its rule file), and why.
fn treatment(rule: RuleId) -> (InExample, &'static str) {
    rule.rule().in_examples
}

/// The directory a finding is about: its `dir`, else its file's directory.
fn finding_dir(f: &Finding) -> &str {
    f.dir
        .as_deref()
        .unwrap_or_else(|| f.file.rsplit_once('/').map_or(".", |(d, _)| d))
}

/// Applies each rule's `in_examples` treatment to the findings in the examples and tests of a module repository;
/// what is dropped is counted in `skipped`.
pub fn examples(repo: &Repo, findings: &mut Vec<Finding>, skipped: &mut Skipped) {
    if repo.kind != RepoKind::Module {
        return;
    }
    let own = own_registry_name(repo);
    findings.retain_mut(|f| {
        if f.file == "." || !ward_repo::is_example_dir(finding_dir(f)) {
            return true;
        }
        let (t, why) = treatment(f.rule);
        let drop = match t {
            InExample::Keep => return true,
            InExample::Cap => false,
            InExample::Drop => true,
            InExample::UnlessCalledModuleSets => repo
                .module(finding_dir(f))
                .is_some_and(|m| inherited(repo, m, f, own.as_ref())),
        };
        if drop {
            *skipped.entry((f.rule, why.to_string())).or_default() += 1;
            return false;
        }
        if f.severity > Severity::Warning {
            f.severity = Severity::Warning;
            f.detail.push(CAPPED.to_string());
        }
        true
    });
}

/// The note a finding capped to a warning in a deprecated directory carries.
pub const CAPPED_DEPRECATED: &str =
    "in a directory the repository calls deprecated (no longer maintained): a warning";

/// Caps the findings in [`ward_repo::DEPRECATED_DIRS`] directories to warnings (those whose
/// `in_examples` treatment keeps them wherever they are excepted); how many were capped is counted in
/// `skipped`.
pub fn deprecated(findings: &mut [Finding], skipped: &mut Skipped) {
    for f in findings.iter_mut() {
        if f.file == "." || !ward_repo::is_deprecated_dir(finding_dir(f)) {
            continue;
        }
        if treatment(f.rule).0 == InExample::Keep || f.severity <= Severity::Warning {
            continue;
        }
        f.severity = Severity::Warning;
        f.detail.push(CAPPED_DEPRECATED.to_string());
        *skipped
            .entry((
                f.rule,
                "an error in a deprecated directory, reported as a warning".to_string(),
            ))
            .or_default() += 1;
    }
}

/// The repository's own registry name, `(NAME, PROVIDER)`, from its directory's name
/// `terraform-PROVIDER-NAME` (the naming the public registries require of a module repository).
fn own_registry_name(repo: &Repo) -> Option<(String, String)> {
    let top = repo
        .root
        .canonicalize()
        .unwrap_or_else(|_| repo.root.clone());
    let name = top.file_name()?.to_string_lossy().into_owned();
    let rest = name.strip_prefix("terraform-")?;
    let (provider, module) = rest.split_once('-')?;
    Some((module.to_string(), provider.to_string()))
}

/// The directories of this repository a module calls: local paths, and registry addresses
/// naming the repository itself (`NS/NAME/PROVIDER[//SUB]`).
fn callees(repo: &Repo, m: &Module, own: Option<&(String, String)>) -> Vec<String> {
    let mut out = Vec::new();
    for c in &m.module_calls {
        let Some(src) = &c.source else { continue };
        match &src.kind {
            SourceKind::Local { path } => out.extend(join_rel(&m.dir, path)),
            SourceKind::Registry { address } => {
                let parts: Vec<&str> = address.split('/').collect();
                let is_own = match (parts.as_slice(), own) {
                    ([.., _, name, provider], Some((n, p))) => {
                        name.eq_ignore_ascii_case(n) && provider.eq_ignore_ascii_case(p)
                    }
                    _ => false,
                };
                if is_own {
                    let sub = src.subdir.as_deref().unwrap_or(".");
                    out.extend(join_rel(".", sub));
                }
            }
            _ => {}
        }
    }
    out.retain(|d| repo.module(d).is_some() && *d != m.dir);
    out
}

/// Whether a module `m` calls (directly or through its callees, in this repository) sets what
/// the finding `f` says `m` lacks.
fn inherited(repo: &Repo, m: &Module, f: &Finding, own: Option<&(String, String)>) -> bool {
    let provider = m
        .required_providers
        .iter()
        .find(|p| p.loc.file == f.file && p.loc.line == f.line)
        .map(|p| (p.name.clone(), p.source.clone()));
    let sets = |c: &Module| match f.rule {
        RuleId::Ver001 => !c.required_version.is_empty(),
        RuleId::Ver003 => provider.as_ref().is_some_and(|(name, source)| {
            c.required_providers.iter().any(|p| {
                p.version.is_some()
                    && (p.name == *name
                        || (source.is_some() && p.source.as_deref() == source.as_deref()))
            })
        }),
        _ => false,
    };
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut todo = callees(repo, m, own);
    while let Some(d) = todo.pop() {
        if !seen.insert(d.clone()) {
            continue;
        }
        let Some(c) = repo.module(&d) else { continue };
        if sets(c) {
            return true;
        }
        todo.extend(callees(repo, c, own));
    }
    false
}

/// Rules that ask for what a Terragrunt unit generated from a remote source keeps out of the
/// repository (its `terragrunt.hcl` sets the backend; a lock file comes with the source): not
/// raised there, counted.
pub const UNREAD_UNIT_RULES: &[RuleId] = &[RuleId::Ver004, RuleId::State002];

/// Why [`UNREAD_UNIT_RULES`] are not raised on a unit generated from a remote source.
pub const UNREAD_UNIT: &str = "Terragrunt units a terragrunt.stack.hcl generates from a remote source: their terragrunt.hcl (backend) and lock file are not in the repository";

/// Drops the [`UNREAD_UNIT_RULES`] findings of units generated from a remote source (see
/// [`ward_repo::stack`]); counted in `skipped`.
pub fn unread_units(repo: &Repo, findings: &mut Vec<Finding>, skipped: &mut Skipped) {
    findings.retain(|f| {
        let unread = UNREAD_UNIT_RULES.contains(&f.rule)
            && f.dir
                .as_deref()
                .and_then(|d| repo.module(d))
                .is_some_and(|m| {
                    m.terragrunt
                        .as_ref()
                        .is_some_and(ward_repo::Unit::is_unread)
                });
        if unread {
            *skipped
                .entry((f.rule, UNREAD_UNIT.to_string()))
                .or_default() += 1;
        }
        !unread
    });
}

/// The names of a stack unit's `values` that, by Terragrunt's catalog convention, pin the module
/// its unit fetches (`source = "…?ref=${values.version}"` in the catalog's `terragrunt.hcl`).
pub const REF_VALUES: &[&str] = &["version", "ref"];

/// WARD-MOD-001, at most a warning, for a unit generated from a remote source whose block passes
/// a [`REF_VALUES`] value shaped like a branch (`version = "main"`): ward cannot read the unit to
/// see the `?ref=${values.version}` it is meant for, so it says so. A local unit's source is
/// evaluated with its values and checked as it is.
pub fn stack_values(repo: &Repo, findings: &mut Vec<Finding>) {
    for m in &repo.modules {
        let Some(unit) = m.terragrunt.as_ref().filter(|u| u.is_unread()) else {
            continue;
        };
        let Some(block) = &unit.stack else { continue };
        for (name, value) in &unit.values {
            if !REF_VALUES.contains(&name.as_str())
                || ward_repo::source::classify_ref_by_shape(value) != ward_repo::RefKind::Branch
            {
                continue;
            }
            let mut f = Finding::new(
                RuleId::Mod001,
                &block.file,
                block.line,
                format!(
                    "{} passes {name} = \"{value}\", a branch, to a unit ward cannot read (its source is remote): if the unit pins its module with it (?ref=${{values.{name}}}, Terragrunt's catalog convention), every apply takes whatever lands on {value}; pass a tag or a commit",
                    m.module_calls
                        .iter()
                        .find(|c| c.name.starts_with("unit."))
                        .map_or("the unit", |c| c.name.as_str())
                ),
            )
            .in_dir(&m.dir);
            f.severity = f.severity.min(Severity::Warning);
            findings.push(f);
        }
    }
}

/// Groups the findings that every module rendered from one template repeats: the same rule,
/// file name and message (the directory aside) in directories whose files say they were
/// generated from the same template. The first is kept, naming the others.
pub fn rendered(repo: &Repo, findings: &mut Vec<Finding>) {
    type Key = (RuleId, String, String, String);
    let template_of = |f: &Finding| -> Option<(String, String)> {
        let dir = finding_dir(f);
        let t = repo.module(dir)?.generated_from.clone()?;
        let rel = if dir == "." {
            f.file.as_str()
        } else {
            f.file.strip_prefix(dir)?.strip_prefix('/')?
        };
        Some((t, rel.to_string()))
    };
    let key = |f: &Finding| -> Option<Key> {
        let (t, rel) = template_of(f)?;
        let dir = finding_dir(f);
        let msg = if dir == "." {
            f.message.clone()
        } else {
            f.message.replace(dir, "<dir>")
        };
        Some((f.rule, t, rel, msg))
    };
    let mut groups: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if let Some(k) = key(f) {
            groups.entry(k).or_default().push(i);
        }
    }
    let mut drop = BTreeSet::new();
    for ((_, template, _, _), idx) in groups {
        let [first, rest @ ..] = idx.as_slice() else {
            continue;
        };
        if rest.is_empty() {
            continue;
        }
        let others: Vec<String> = rest
            .iter()
            .filter_map(|i| findings.get(*i).map(Finding::location))
            .collect();
        if let Some(f) = findings.get_mut(*first) {
            f.message = format!(
                "{} (and in {} other module(s) rendered from the template {template}: fix it there)",
                f.message,
                others.len()
            );
            f.detail
                .extend(others.iter().map(|o| format!("also rendered at {o}")));
        }
        drop.extend(rest.iter().copied());
    }
    let mut i = 0;
    findings.retain(|_| {
        let keep = !drop.contains(&i);
        i += 1;
        keep
    });
}

/// The template directories and files discovery did not parse, as paths not read.
pub fn templates(repo: &Repo) -> Vec<ExcludedPath> {
    repo.templates
        .iter()
        .map(|t| ExcludedPath {
            path: t.path.clone(),
            reason: format!("{}: skipped, not parsed as HCL", t.what),
        })
        .collect()
}
