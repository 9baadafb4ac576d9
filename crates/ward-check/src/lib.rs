//! `ward check`: repository gates that can fail.
//!
//! [`check`] runs the rule catalog ([`catalog::RULES`], documented in `docs/check-rules.md`) over
//! a [`ward_repo::Repo`], applies the `ward.hcl` tuning and the inline `ward:ignore`
//! suppressions, and returns a [`finding::Report`], which `ward_report::check` renders (from an
//! [`output::Output`]) as terminal text, JSON, SARIF 2.1.0 or JUnit XML. The
//! command (flags, `ward.hcl` discovery, the exit) is `ward check` in ward-cli: this library
//! takes values ([`CheckOptions`], an already-discovered [`ward_repo::Repo`]) and returns them;
//! it parses no flags and writes nothing.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod ansible;
pub mod catalog;
pub mod exec;
pub mod finding;
pub mod knowledge;
pub mod layout;
pub mod output;
pub mod render;
pub mod resolve;
mod rule_id;
pub mod rules;
pub mod scan;
mod severity;
pub mod waivers;

/// The repository model the checks read (ward-cli discovers the repository through it).
pub use ward_repo;

use catalog::Severity;
use finding::{DirEntry, ExcludedPath, Finding, NotRaised, Report, Summary, Suppressed};
use knowledge::DataHolding;
use resolve::Resolver;
use rules::RuleId;
use std::collections::BTreeSet;
use ward_repo::{ModuleKind, Repo};

/// How to run the checks.
pub struct CheckOptions<'a> {
    /// `ward.hcl`, already read (`None` when there is none): its `check` settings, waivers,
    /// releases, layers and `render` blocks.
    pub config: Option<&'a ward_config::Config>,
    /// `--resolve`: ask remotes about refs the shape cannot tell.
    pub resolver: Option<Resolver>,
    /// Which resource types hold data.
    pub knowledge: &'a dyn DataHolding,
    /// Today (UTC): suppression expiry is compared with it.
    pub today: ward_time::Date,
    /// `--fail-on`; `None`: `ward.hcl`'s `fail_on`, else `error`.
    pub fail_on: Option<Severity>,
    /// `--exec`: run fmt/validate with this binary.
    pub exec: Option<exec::ExecOptions>,
}

/// Keeps only the findings about the directories in `dirs` (repository-relative; `.` for the
/// top) and the repository-wide ones (file `.`), for `--changed`: the whole repository is still
/// checked (a version split or an undeclared root needs all of it), only the report is narrowed.
/// The summary counts what is kept and how many were left out.
pub fn only_changed(report: &mut Report, dirs: &BTreeSet<String>) {
    let parent = |f: &str| f.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let before = report.findings.len();
    report.findings.retain(|f| {
        f.file == "."
            || dirs.contains(&parent(&f.file))
            || f.dir.as_ref().is_some_and(|d| dirs.contains(d))
    });
    let sm = &mut report.summary;
    sm.outside_changed += before - report.findings.len();
    let count = |s: Severity| report.findings.iter().filter(|f| f.severity == s).count();
    sm.errors = count(Severity::Error);
    sm.warnings = count(Severity::Warning);
    sm.infos = count(Severity::Info);
    sm.failed = report.findings.iter().any(|f| f.severity >= sm.fail_on);
}

/// The checks could not run (bad configuration): exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CheckError(pub String);

/// Runs every rule over `repo`.
pub fn check(repo: &Repo, opts: CheckOptions<'_>) -> Result<Report, CheckError> {
    let cfg = opts.config;
    let settings = cfg.map(|c| c.check.clone()).unwrap_or_default();
    let tuned = tuned_rules(cfg, &settings)?;

    // Every rule with its own check, in ID order, over one context: the module sources
    // (`--resolve` asks each remote once) and the repository's ignore files are read once.
    let mut resolver = opts.resolver;
    let sources = rules::sources::Sources::read(repo, resolver.as_mut());
    let evidence = rules::evidence::Evidence::read(repo);
    let mut cx = rules::Cx {
        repo,
        config: cfg,
        settings: &settings,
        evidence: &evidence,
        knowledge: opts.knowledge,
        today: opts.today,
        sources: &sources,
        out: Vec::new(),
        skipped: rules::Skipped::new(),
    };
    rules::run(&mut cx).map_err(CheckError)?;
    let rules::Cx {
        out: mut findings,
        mut skipped,
        ..
    } = cx;
    let matrix = sources.matrix.clone();

    let sups = scan_texts(repo, cfg, &mut findings);
    if let Some(e) = &opts.exec {
        exec::run(repo, e, &mut findings);
    }
    render::run(repo, cfg, opts.exec.as_ref(), &mut findings);

    // Layouts: a module repository's examples and tests (before tuning, which wins).
    layout::examples(repo, &mut findings, &mut skipped);
    layout::deprecated(&mut findings, &mut skipped);
    layout::unread_units(repo, &mut findings, &mut skipped);
    layout::stack_values(repo, &mut findings);

    let mut disabled = apply_tuning(&tuned, &mut findings);
    let (mut findings, mut suppressed) = apply_suppressions(sups, findings, &disabled, opts.today);
    findings.sort();
    // Modules rendered from one template: each finding once (after suppressions, so a
    // suppression in any rendering still counts).
    layout::rendered(repo, &mut findings);
    findings.dedup();
    suppressed.sort();

    let fail_on = opts
        .fail_on
        .or_else(|| settings.fail_on.as_deref().and_then(|s| s.parse().ok()))
        .unwrap_or(Severity::Error);
    let summary = summarize(repo, &findings, suppressed.len(), fail_on);
    let directories = repo
        .modules
        .iter()
        .map(|m| DirEntry {
            dir: m.dir.clone(),
            kind: m.kind.as_str().to_string(),
            reasons: m.reasons.clone(),
            files: m.files.len(),
        })
        .collect();
    disabled.sort();
    let not_raised = skipped
        .into_iter()
        .filter(|((rule, _), _)| !disabled.contains(rule))
        .map(|((rule, why), count)| NotRaised { rule, why, count })
        .collect();
    Ok(Report {
        repository: repo.root.display().to_string(),
        repository_kind: repo.kind.as_str().to_string(),
        config: cfg.map(|c| c.file.clone()),
        summary,
        findings,
        suppressed,
        directories,
        matrix,
        disabled_rules: disabled,
        excluded: {
            let mut v: Vec<ExcludedPath> = repo
                .excluded
                .iter()
                .map(|x| ExcludedPath {
                    path: x.path.clone(),
                    reason: x.reason.clone(),
                })
                .chain(layout::templates(repo))
                .collect();
            v.sort();
            v
        },
        not_raised,
    })
}

/// The `rule "ID" { }` blocks of `ward.hcl`, each checked: a known rule, given only the
/// settings it takes.
fn tuned_rules<'c>(
    cfg: Option<&ward_config::Config>,
    settings: &'c ward_config::CheckSettings,
) -> Result<Vec<(RuleId, &'c ward_config::RuleSetting)>, CheckError> {
    // Every rule `ward.hcl` names is a rule, and takes what it is given.
    let file = cfg.map(|c| c.file.as_str()).unwrap_or("ward.hcl");
    let mut tuned: Vec<(RuleId, &ward_config::RuleSetting)> = Vec::new();
    for r in &settings.rules {
        let id: RuleId = r.id.parse().map_err(|e: rules::UnknownRule| {
            CheckError(format!(
                "{file}:{}: check {{ rule \"{}\" }}: {e}",
                r.line, r.id
            ))
        })?;
        for o in &r.options {
            let takes = catalog::options(id);
            if !takes.contains(&o.key.as_str()) {
                return Err(CheckError(format!(
                    "{file}:{}: check {{ rule \"{}\" }} takes no `{}`; {}",
                    o.line,
                    r.id,
                    o.key,
                    catalog::options_help(id, &o.key)
                )));
            }
        }
        tuned.push((id, r));
    }
    Ok(tuned)
}

/// Text scanning: key material, and the suppressions of every file ward reads (the
/// repository's text files, the version pins' files and `ward.hcl`).
fn scan_texts(
    repo: &Repo,
    cfg: Option<&ward_config::Config>,
    findings: &mut Vec<Finding>,
) -> Vec<scan::Suppression> {
    let mut sups = Vec::new();
    let mut scanned: BTreeSet<String> = BTreeSet::new();
    for tf in &repo.text_files {
        scanned.insert(tf.path.clone());
        if let Ok(bytes) = std::fs::read(repo.root.join(&tf.path)) {
            let text = String::from_utf8_lossy(&bytes);
            scan::key_material(&tf.path, &text, findings);
            sups.extend(scan::suppressions(&tf.path, &text));
        }
    }
    let mut other: BTreeSet<String> = repo.pins.iter().map(|p| p.file.clone()).collect();
    if let Some(c) = cfg {
        other.insert(c.file.clone());
    }
    for f in other.difference(&scanned) {
        let p = repo.root.join(f);
        let p = if std::path::Path::new(f).is_absolute() {
            std::path::PathBuf::from(f)
        } else {
            p
        };
        if let Ok(text) = std::fs::read_to_string(p) {
            sups.extend(scan::suppressions(f, &text));
        }
    }
    sups
}

/// Tuning: drops the findings of the rules `ward.hcl` turns off and sets the severities it
/// gives; returns the rules turned off.
fn apply_tuning(
    tuned: &[(RuleId, &ward_config::RuleSetting)],
    findings: &mut Vec<Finding>,
) -> Vec<RuleId> {
    let mut disabled: Vec<RuleId> = Vec::new();
    for (id, r) in tuned {
        if !r.enabled {
            disabled.push(*id);
        }
    }
    findings.retain(|f| !disabled.contains(&f.rule));
    for f in findings.iter_mut() {
        if let Some(s) = tuned
            .iter()
            .find(|(id, _)| *id == f.rule)
            .and_then(|(_, r)| r.severity.as_deref())
            .and_then(|s| s.parse::<Severity>().ok())
        {
            f.severity = s;
        }
    }
    disabled
}

/// Suppressions: a malformed, reasonless or expired one is a finding and applies to nothing;
/// a valid one moves the findings it matches to the suppressed list; one that matches nothing
/// is a finding. Returns the findings kept and those suppressed.
fn apply_suppressions(
    sups: Vec<scan::Suppression>,
    mut findings: Vec<Finding>,
    disabled: &[RuleId],
    today: ward_time::Date,
) -> (Vec<Finding>, Vec<Suppressed>) {
    let mut valid = Vec::new();
    for s in sups {
        let at = format!("{}:{}", s.file, s.line);
        if let Some(p) = &s.problem {
            findings.push(Finding::new(
                RuleId::Sup001,
                &s.file,
                s.line,
                format!("malformed suppression, not applied: {p}"),
            ));
        } else if s.reason.is_none() {
            findings.push(Finding::new(
                RuleId::Sup001,
                &s.file,
                s.line,
                format!(
                    "suppression of {} has no reason=\"...\", not applied",
                    s.ids.join(", ")
                ),
            ));
        } else if s
            .until
            .as_deref()
            .and_then(scan::parse_date)
            .is_some_and(|d| d < today)
        {
            findings.push(Finding::new(
                RuleId::Sup002,
                &s.file,
                s.line,
                format!(
                    "suppression of {} expired on {}, not applied",
                    s.ids.join(", "),
                    s.until.as_deref().unwrap_or("")
                ),
            ));
        } else {
            valid.push((s, at));
        }
    }
    let mut kept = Vec::new();
    let mut suppressed = Vec::new();
    let mut used = BTreeSet::new();
    for f in findings {
        let hit = if f.rule.rule().category == rules::Category::Suppressions {
            None
        } else {
            valid.iter().position(|(s, _)| {
                s.file == f.file
                    && s.ids.iter().any(|id| f.rule == *id)
                    && (s.file_wide
                        || (f.line > 0
                            && (f.line == s.line || (s.target..=s.target_end).contains(&f.line))))
            })
        };
        match hit.and_then(|i| valid.get(i).map(|v| (i, v))) {
            Some((i, (s, at))) => {
                used.insert(i);
                suppressed.push(Suppressed {
                    finding: f,
                    reason: s.reason.clone().unwrap_or_default(),
                    until: s.until.clone(),
                    at: at.clone(),
                });
            }
            None => kept.push(f),
        }
    }
    for (i, (s, _)) in valid.iter().enumerate() {
        if !used.contains(&i) && !s.ids.iter().any(|id| disabled.iter().any(|d| d == id)) {
            kept.push(Finding::new(
                RuleId::Sup003,
                &s.file,
                s.line,
                format!(
                    "suppression of {} matches no finding; remove it",
                    s.ids.join(", ")
                ),
            ));
        }
    }
    (kept, suppressed)
}

/// The summary's counts.
fn summarize(repo: &Repo, findings: &[Finding], suppressed: usize, fail_on: Severity) -> Summary {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    Summary {
        directories: repo.modules.len(),
        roots: repo.roots().count(),
        modules: repo
            .modules
            .iter()
            .filter(|m| m.kind == ModuleKind::Module)
            .count(),
        examples: repo
            .modules
            .iter()
            .filter(|m| m.kind == ModuleKind::Example)
            .count(),
        files: repo.files_parsed,
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        infos: count(Severity::Info),
        suppressed,
        outside_changed: 0,
        fail_on,
        failed: findings.iter().any(|f| f.severity >= fail_on),
    }
}
