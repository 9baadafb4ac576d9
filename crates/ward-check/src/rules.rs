//! The rules. Each function adds the findings of one family of rules.

pub mod evidence;

use crate::finding::{Finding, MatrixRow};
use crate::knowledge::{DataHolding, Subject};
use crate::resolve::Resolver;
use globset::{Glob, GlobSet, GlobSetBuilder};
use std::collections::{BTreeMap, BTreeSet};
use ward_config::CheckSettings;
use ward_repo::source::{classify_ref_by_shape, named_version};
use ward_repo::{
    join_rel, Loc, Module, ModuleKind, ModuleSource, PinKind, RefKind, Repo, RepoKind, SourceKind,
    Val,
};

/// Findings a rule did not raise, and why: (rule, why) → how many.
pub type Skipped = BTreeMap<(String, String), usize>;

fn skip(skipped: &mut Skipped, rule: &str, why: impl Into<String>) {
    *skipped.entry((rule.to_string(), why.into())).or_default() += 1;
}

/// Whether the directory's only configuration is a Terragrunt unit (no `.tf` files of its own:
/// the module it applies, and its `required_version`, live in the unit's source).
fn terragrunt_only(m: &Module) -> bool {
    m.terragrunt.is_some() && !m.files.iter().any(|f| ward_repo::is_config_file(f))
}
use ward_version::{admits, is_exact, Version};

/// The file and line a directory-level finding points at: the `terraform` block's file when
/// there is one, else `versions.tf`, `terraform.tf`, `main.tf`, else the first file.
pub(crate) fn anchor(m: &Module) -> Loc {
    // A Terragrunt unit is its `terragrunt.hcl`, whatever its includes declare.
    if let Some(u) = &m.terragrunt {
        return Loc {
            file: u.file.clone(),
            line: 0,
        };
    }
    if let Some((_, l)) = m.required_version.first() {
        return Loc {
            file: l.file.clone(),
            line: 0,
        };
    }
    for pref in [
        "versions.tf",
        "terraform.tf",
        "main.tf",
        "versions.tofu",
        "main.tofu",
    ] {
        if let Some(f) = m.files.iter().find(|f| f.rsplit('/').next() == Some(pref)) {
            return Loc {
                file: f.clone(),
                line: 0,
            };
        }
    }
    Loc {
        file: m.files.first().cloned().unwrap_or_else(|| m.dir.clone()),
        line: 0,
    }
}

fn at(rule: &str, loc: &Loc, msg: impl Into<String>) -> Finding {
    Finding::new(rule, &loc.file, loc.line, msg)
}

/// WARD-DISC-*, WARD-PARSE-001.
pub fn discovery(repo: &Repo, out: &mut Vec<Finding>) {
    // Nothing at all was checked: no Terraform, no Ansible (plays, task files, version pins),
    // no render block. (Scripts and CI files alone do not count: any checkout has some.)
    let rendered = repo.config.as_ref().is_some_and(|c| !c.renders.is_empty());
    if repo.modules.is_empty() && repo.playbooks.is_empty() && repo.pins.is_empty() && !rendered {
        out.push(Finding::new(
            "WARD-DISC-001",
            ".",
            0,
            format!(
                "no .tf, .tf.json or .tofu file, Ansible playbook or requirements file, and no render block anywhere under {} (skipped: {}); nothing was checked",
                repo.root.display(),
                ward_repo::SKIPPED_DIRS.join(", ")
            ),
        ));
    }
    for p in &repo.problems {
        let mut msg = p.message.lines().next().unwrap_or("").to_string();
        if p.column > 0 {
            msg = format!("column {}: {msg}", p.column);
        }
        out.push(at("WARD-PARSE-001", &p.loc, format!("cannot parse: {msg}")));
    }
    let Some(cfg) = &repo.config else { return };
    if cfg.roots.is_empty() {
        return;
    }
    for d in &cfg.roots {
        if repo.module(&d.path).is_none() {
            out.push(Finding::new(
                "WARD-DISC-002",
                &cfg.file,
                d.line,
                format!(
                    "root \"{}\" is declared at \"{}\", but that directory has no Terraform/OpenTofu files",
                    d.name, d.path
                ),
            ));
        }
    }
    let declared: BTreeSet<&str> = cfg.roots.iter().map(|r| r.path.as_str()).collect();
    for m in repo.roots() {
        if !declared.contains(m.dir.as_str()) {
            let loc = m
                .backend
                .as_ref()
                .map(|b| b.loc.clone())
                .or_else(|| m.cloud.clone())
                .or_else(|| m.provider_configs.first().map(|p| p.loc.clone()))
                .unwrap_or_else(|| anchor(m));
            out.push(
                at(
                    "WARD-DISC-003",
                    &loc,
                    format!(
                        "\"{}\" looks like a root ({}), but {} declares no root there",
                        m.dir,
                        m.reasons.join(", "),
                        cfg.file
                    ),
                )
                .in_dir(&m.dir),
            );
        }
    }
}

/// WARD-MOD-001..005; returns the matrix of every non-local source use.
pub fn module_sources(
    repo: &Repo,
    mut resolver: Option<&mut Resolver>,
    out: &mut Vec<Finding>,
) -> Vec<MatrixRow> {
    let mut rows = Vec::new();
    for m in &repo.modules {
        for call in &m.module_calls {
            let Some(src) = &call.source else { continue };
            let loc = &call.loc;
            let kind = m.kind.as_str();
            match &src.kind {
                SourceKind::Local { .. } => continue,
                SourceKind::Git {
                    repository,
                    url,
                    git_ref,
                } => {
                    let (class, note) = match git_ref {
                        None => (RefKind::Missing, None),
                        Some(r) => {
                            let shape = classify_ref_by_shape(r);
                            match (&mut resolver, shape) {
                                (Some(res), RefKind::Unknown | RefKind::Branch | RefKind::Tag) => {
                                    match res.classify(url, r) {
                                        Ok(k) => {
                                            (k, Some("resolved with git ls-remote".to_string()))
                                        }
                                        Err(e) => (shape, Some(format!("--resolve failed: {e}"))),
                                    }
                                }
                                _ => (shape, None),
                            }
                        }
                    };
                    let shown = git_ref.clone().unwrap_or_else(|| "(none)".to_string());
                    match class {
                        RefKind::Missing => out.push(
                            at(
                                "WARD-MOD-001",
                                loc,
                                format!(
                                    "module \"{}\": git source {} has no ?ref=, so it follows the remote's default branch",
                                    call.name, repository
                                ),
                            )
                            .in_dir(&m.dir),
                        ),
                        RefKind::Branch => out.push(
                            at(
                                "WARD-MOD-001",
                                loc,
                                format!(
                                    "module \"{}\": ref \"{shown}\" of {} is a branch{}; pin a tag or a commit",
                                    call.name,
                                    repository,
                                    note.map(|n| format!(" ({n})")).unwrap_or_default()
                                ),
                            )
                            .in_dir(&m.dir),
                        ),
                        RefKind::Unknown => out.push(
                            at(
                                "WARD-MOD-002",
                                loc,
                                format!(
                                    "module \"{}\": cannot tell whether ref \"{shown}\" of {} is a branch, tag or commit{}",
                                    call.name,
                                    repository,
                                    note.map(|n| format!(" ({n})"))
                                        .unwrap_or_else(|| " offline; run with --resolve".to_string())
                                ),
                            )
                            .in_dir(&m.dir),
                        ),
                        RefKind::Tag | RefKind::Commit => {}
                    }
                    rows.push(MatrixRow {
                        package: repository.clone(),
                        dir: m.dir.clone(),
                        kind: kind.to_string(),
                        reference: shown,
                        class: class.as_str().to_string(),
                        at: format!("{}:{}", loc.file, loc.line),
                    });
                }
                SourceKind::Registry { address } => {
                    let class = match &call.version {
                        None => {
                            out.push(
                                at(
                                    "WARD-MOD-003",
                                    loc,
                                    format!(
                                        "module \"{}\": registry module {address} has no version; every init takes the newest release",
                                        call.name
                                    ),
                                )
                                .in_dir(&m.dir),
                            );
                            "none"
                        }
                        Some(v) if !is_exact(v) => {
                            out.push(
                                at(
                                    "WARD-MOD-004",
                                    loc,
                                    format!(
                                        "module \"{}\": registry module {address} at version \"{v}\" is a range; pin an exact version",
                                        call.name
                                    ),
                                )
                                .in_dir(&m.dir),
                            );
                            "range"
                        }
                        Some(_) => "exact",
                    };
                    rows.push(MatrixRow {
                        package: address.to_lowercase(),
                        dir: m.dir.clone(),
                        kind: kind.to_string(),
                        reference: call.version.clone().unwrap_or_else(|| "(none)".to_string()),
                        class: class.to_string(),
                        at: format!("{}:{}", loc.file, loc.line),
                    });
                }
                SourceKind::Other { address } => rows.push(MatrixRow {
                    package: address.clone(),
                    dir: m.dir.clone(),
                    kind: kind.to_string(),
                    reference: "(none)".to_string(),
                    class: "other".to_string(),
                    at: format!("{}:{}", loc.file, loc.line),
                }),
            }
        }
    }
    rows.sort();
    // WARD-MOD-005: one package, several refs.
    // The examples and tests of a module repository are each copied alone: no user runs two of
    // them, nor one of them beside the module's own pin, so their refs split nothing (the
    // matrix still lists them).
    // Uses in a deprecated directory are not maintained: an old pin there splits nothing a
    // maintainer would align (the matrix still lists them).
    let mut by_pkg: BTreeMap<&str, Vec<&MatrixRow>> = BTreeMap::new();
    for r in rows
        .iter()
        .filter(|r| r.kind != ModuleKind::Example.as_str() && !ward_repo::is_deprecated_dir(&r.dir))
    {
        by_pkg.entry(r.package.as_str()).or_default().push(r);
    }
    for (pkg, uses) in by_pkg {
        // `v1.2.0`, `tags/1.2.0` and `= 1.2.0` name the same release.
        let refs: BTreeSet<String> = uses
            .iter()
            .map(|r| named_version(&r.reference).unwrap_or_else(|| r.reference.clone()))
            .collect();
        if refs.len() < 2 {
            continue;
        }
        // The majority: the version most uses agree on; the finding lists the other uses, not
        // the agreeing ones. Without a majority (a tie), every use is listed.
        let norm =
            |r: &MatrixRow| named_version(&r.reference).unwrap_or_else(|| r.reference.clone());
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for r in &uses {
            *counts.entry(norm(r)).or_default() += 1;
        }
        let top = counts.values().copied().max().unwrap_or(0);
        let leaders: Vec<&String> = counts
            .iter()
            .filter(|(_, n)| **n == top)
            .map(|(v, _)| v)
            .collect();
        let row_line = |r: &MatrixRow| {
            format!(
                "{} | {} ({}) | {} [{}] | {}",
                pkg, r.dir, r.kind, r.reference, r.class, r.at
            )
        };
        let [majority] = leaders.as_slice() else {
            let first = uses[0];
            let (file, line) = split_at(&first.at);
            let detail = uses.iter().map(|r| row_line(r)).collect();
            out.push(
                Finding::new(
                    "WARD-MOD-005",
                    file,
                    line,
                    format!(
                        "{pkg} is used at {} different refs/versions ({}) across {} uses",
                        refs.len(),
                        refs.iter().cloned().collect::<Vec<_>>().join(", "),
                        uses.len()
                    ),
                )
                .with_detail(detail),
            );
            continue;
        };
        let (majority, agreeing) = ((*majority).clone(), top);
        let minority: Vec<&&MatrixRow> = uses.iter().filter(|r| norm(r) != majority).collect();
        let Some(first) = minority.first() else {
            continue;
        };
        let (file, line) = split_at(&first.at);
        let mut detail: Vec<String> = minority.iter().map(|r| row_line(r)).collect();
        detail.push(format!(
            "and {agreeing} use(s) at {majority}, the majority (listed in the JSON report's matrix and by --verbose)"
        ));
        let others: Vec<&String> = refs.iter().filter(|r| **r != majority).collect();
        out.push(
            Finding::new(
                "WARD-MOD-005",
                file,
                line,
                format!(
                    "{pkg} is used at {} different refs/versions across {} uses: the majority, {agreeing}, at {majority}; the other {} at {}",
                    refs.len(),
                    uses.len(),
                    minority.len(),
                    others.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )
            .with_detail(detail),
        );
    }
    rows
}

fn split_at(at: &str) -> (&str, usize) {
    match at.rsplit_once(':') {
        Some((f, l)) => (f, l.parse().unwrap_or(0)),
        None => (at, 0),
    }
}

/// WARD-VER-001..004, with no `check` settings ([`versions_in`] takes them).
pub fn versions(repo: &Repo, floor: Option<&str>, out: &mut Vec<Finding>) -> Result<(), String> {
    versions_in(
        repo,
        floor,
        &CheckSettings::default(),
        &evidence::Evidence::read(repo),
        out,
        &mut Skipped::new(),
    )
}

/// WARD-VER-001..004 under `settings` (`generated` lock files) and the repository's ignore files
/// (`ev`: one finding per `.gitignore` line that keeps lock files out); what the repository's
/// shape or the settings say does not apply is counted in `skipped`.
pub fn versions_in(
    repo: &Repo,
    floor: Option<&str>,
    settings: &CheckSettings,
    ev: &evidence::Evidence,
    out: &mut Vec<Finding>,
    skipped: &mut Skipped,
) -> Result<(), String> {
    let floor = match floor {
        Some(f) => Some((
            f,
            Version::parse(f).map_err(|e| {
                format!("terraform_floor = \"{f}\" is not a version ({e}); write it as X.Y.Z")
            })?,
        )),
        None => None,
    };
    // One cause, one finding: a `.gitignore` line that keeps every root's lock file out of git.
    let mut lock_ignored: BTreeMap<evidence::IgnoredBy, Vec<String>> = BTreeMap::new();
    for m in &repo.modules {
        if matches!(m.kind, ModuleKind::Root | ModuleKind::Example) {
            if m.required_version.is_empty() && terragrunt_only(m) {
                skip(
                    skipped,
                    "WARD-VER-001",
                    "Terragrunt units without .tf files: required_version is the source module's (or set terraform_version_constraint)",
                );
            } else if m.required_version.is_empty() {
                out.push(
                    at(
                        "WARD-VER-001",
                        &anchor(m),
                        format!("{} \"{}\" has no required_version", m.kind.as_str(), m.dir),
                    )
                    .in_dir(&m.dir),
                );
            }
            if let Some((fs, fv)) = &floor {
                for (c, loc) in &m.required_version {
                    match admits(c, fv) {
                        Ok(true) => {}
                        Ok(false) => out.push(
                            at(
                                "WARD-VER-002",
                                loc,
                                format!(
                                    "required_version \"{c}\" does not admit the floor {fs}: hosts at the floor cannot init this root"
                                ),
                            )
                            .in_dir(&m.dir),
                        ),
                        Err(e) => out.push(
                            at(
                                "WARD-VER-002",
                                loc,
                                format!("required_version \"{c}\" cannot be compared with the floor {fs}: {e}"),
                            )
                            .in_dir(&m.dir),
                        ),
                    }
                }
            }
            if m.lock_file {
            } else if m.kind == ModuleKind::Example {
                skip(
                    skipped,
                    "WARD-VER-004",
                    "examples and tests of a module repository (not applied for real)",
                );
            } else if let Some(g) = settings.generated_lock_file(&m.dir) {
                skip(
                    skipped,
                    "WARD-VER-004",
                    format!(
                        "lock files generated by {} (ward.hcl check {{ generated }})",
                        g.by
                    ),
                );
            } else if !evidence::needs_providers(repo, m) {
                skip(
                    skipped,
                    "WARD-VER-004",
                    "roots that need no provider (only the built-in terraform_data and terraform_remote_state): init writes no lock file there",
                );
            } else if let Some(by) = ev.generated_dirs.get(&m.dir) {
                skip(
                    skipped,
                    "WARD-VER-004",
                    format!(
                        "roots in a directory git ignores ({}, `{}`): generated where they run, nothing of theirs is committed",
                        by.at(),
                        by.pattern
                    ),
                );
            } else if let Some(by) = ev.lock_ignored.get(&m.dir) {
                lock_ignored
                    .entry(by.clone())
                    .or_default()
                    .push(m.dir.clone());
            } else {
                out.push(
                    at(
                        "WARD-VER-004",
                        &anchor(m),
                        format!("root \"{}\" has no .terraform.lock.hcl", m.dir),
                    )
                    .in_dir(&m.dir),
                );
            }
        }
        for p in &m.required_providers {
            if p.version.is_none() {
                out.push(
                    at(
                        "WARD-VER-003",
                        &p.loc,
                        format!(
                            "provider \"{}\"{} has no version constraint",
                            p.name,
                            p.source
                                .as_ref()
                                .map(|s| format!(" ({s})"))
                                .unwrap_or_default()
                        ),
                    )
                    .in_dir(&m.dir),
                );
            }
        }
    }
    for (by, dirs) in lock_ignored {
        out.push(
            Finding::new(
                "WARD-VER-004",
                &by.file,
                by.line,
                format!(
                    "git ignores `{}` here (`{}`), so no root can commit its lock file: {} root(s) have none, and every fresh init there resolves provider versions anew (nothing pins them); commit the lock files (remove the pattern, or re-include them with `!{}`)",
                    evidence::LOCK_FILE,
                    by.pattern,
                    dirs.len(),
                    evidence::LOCK_FILE
                ),
            )
            .with_detail(dirs.iter().map(|d| format!("root {d}")).collect()),
        );
    }
    Ok(())
}

/// WARD-STATE-001..004, with no `check` settings ([`state_in`] takes them).
pub fn state(repo: &Repo, out: &mut Vec<Finding>) {
    state_in(
        repo,
        &CheckSettings::default(),
        &evidence::Evidence::read(repo),
        out,
        &mut Skipped::new(),
    )
}

/// WARD-STATE-001..004 under `settings` (`generated` backends) and the repository's ignore files
/// (`ev`: backend files git ignores are generated); what does not apply is counted in `skipped`.
pub fn state_in(
    repo: &Repo,
    settings: &CheckSettings,
    ev: &evidence::Evidence,
    out: &mut Vec<Finding>,
    skipped: &mut Skipped,
) {
    let abs_root = std::fs::canonicalize(&repo.root).unwrap_or_else(|_| repo.root.clone());
    for m in repo.roots() {
        match &m.backend {
            Some(b) if b.kind == "local" => {
                let path = match b.config.iter().find(|(k, _)| k == "path") {
                    None => Some("terraform.tfstate".to_string()),
                    Some((_, Val::Str(s))) => Some(s.clone()),
                    Some(_) => None,
                };
                if let Some(p) = path {
                    let inside = if std::path::Path::new(&p).is_absolute() {
                        std::path::Path::new(&p).starts_with(&abs_root)
                    } else {
                        join_rel(&m.dir, &p).is_some()
                    };
                    if inside {
                        out.push(
                            at(
                                "WARD-STATE-001",
                                &b.loc,
                                format!(
                                    "local backend of \"{}\" keeps state at \"{p}\", inside the repository",
                                    m.dir
                                ),
                            )
                            .in_dir(&m.dir),
                        );
                    }
                }
            }
            Some(_) => {}
            None if m.cloud.is_none() && settings.generated_backend(&m.dir).is_some() => {
                let by = settings
                    .generated_backend(&m.dir)
                    .map(|g| g.by.clone())
                    .unwrap_or_default();
                skip(
                    skipped,
                    "WARD-STATE-002",
                    format!("backends generated by {by} (ward.hcl check {{ generated }})"),
                );
            }
            None if m.cloud.is_none() && ev.generated_dirs.contains_key(&m.dir) => {
                if let Some(by) = ev.generated_dirs.get(&m.dir) {
                    skip(
                        skipped,
                        "WARD-STATE-002",
                        format!(
                            "roots in a directory git ignores ({}, `{}`): generated where they run, nothing of theirs is committed",
                            by.at(),
                            by.pattern
                        ),
                    );
                }
            }
            None if m.cloud.is_none() && ev.backend_ignored.contains_key(&m.dir) => {
                if let Some((by, f)) = ev.backend_ignored.get(&m.dir) {
                    skip(
                        skipped,
                        "WARD-STATE-002",
                        format!(
                            "backend files ({f}) a generator writes at plan time: git ignores them ({}, `{}`)",
                            by.at(),
                            by.pattern
                        ),
                    );
                }
            }
            None if m.cloud.is_none() => out.push(
                at(
                    "WARD-STATE-002",
                    &anchor(m),
                    format!(
                        "root \"{}\" has no backend: state goes to {}/terraform.tfstate, inside the checkout",
                        m.dir, m.dir
                    ),
                )
                .in_dir(&m.dir),
            ),
            None => {}
        }
    }
    for m in repo
        .modules
        .iter()
        .filter(|m| m.kind == ModuleKind::Example)
    {
        if m.backend.is_none() && m.cloud.is_none() {
            skip(
                skipped,
                "WARD-STATE-002",
                "examples and tests of a module repository (not applied for real)",
            );
        }
    }
    let tracked: BTreeSet<&str> = repo
        .tracked_state_files
        .iter()
        .flatten()
        .map(String::as_str)
        .collect();
    for f in &tracked {
        out.push(Finding::new(
            "WARD-STATE-003",
            f,
            0,
            "state file is tracked by git",
        ));
    }
    for f in &repo.state_files {
        if !tracked.contains(f.as_str()) {
            out.push(Finding::new(
                "WARD-STATE-004",
                f,
                0,
                "state file lies inside the repository tree (not tracked by git)",
            ));
        }
    }
}

fn glob_set(globs: &[String]) -> Result<GlobSet, String> {
    let mut b = GlobSetBuilder::new();
    for g in globs {
        b.add(Glob::new(g).map_err(|e| format!("bad glob \"{g}\": {e}"))?);
    }
    b.build().map_err(|e| e.to_string())
}

/// WARD-DATA-001.
pub fn data_holding(
    repo: &Repo,
    knowledge: &dyn DataHolding,
    protected: &[String],
    out: &mut Vec<Finding>,
) -> Result<(), String> {
    data_holding_in(repo, knowledge, protected, out, &mut Skipped::new())
}

/// WARD-DATA-001; in a module repository nothing is raised, nor in a module no root of this
/// repository calls (what would have been is counted in `skipped`): `prevent_destroy` is a
/// literal, so only the caller can decide, with `check { protected }`.
pub fn data_holding_in(
    repo: &Repo,
    knowledge: &dyn DataHolding,
    protected: &[String],
    out: &mut Vec<Finding>,
    skipped: &mut Skipped,
) -> Result<(), String> {
    // Address patterns, one syntax (ward_model::pattern): `*` any run, `[0]` literal.
    let protects = |c: &str| {
        protected
            .iter()
            .any(|p| ward_model::pattern::address_matches(p, c))
    };
    let call_names = local_call_names(repo);
    for m in &repo.modules {
        for r in &m.resources {
            if r.mode != "managed" || r.prevent_destroy == Some(true) {
                continue;
            }
            let addr = format!("{}.{}", r.type_name, r.name);
            // The addresses it has as seen from a root: its own, and one per local module call.
            let mut candidates: Vec<(String, Option<String>)> = vec![(addr.clone(), None)];
            for n in call_names.get(&m.dir).into_iter().flatten() {
                candidates.push((format!("module.{n}.{addr}"), Some(format!("module.{n}"))));
            }
            let holding = candidates.iter().find_map(|(a, module)| {
                let subject = Subject {
                    resource_type: &r.type_name,
                    address: a,
                    module: module.as_deref(),
                };
                (knowledge.holds_data(&subject) == Some(true)).then(|| knowledge.source(&subject))
            });
            let Some(source) = holding else { continue };
            if candidates.iter().any(|(c, _)| protects(c)) {
                continue;
            }
            if repo.kind == RepoKind::Module {
                skip(
                    skipped,
                    "WARD-DATA-001",
                    "a module repository: prevent_destroy cannot be parameterised in a reusable module, so its callers protect",
                );
                continue;
            }
            if m.kind != ModuleKind::Root && m.callers.is_empty() {
                skip(
                    skipped,
                    "WARD-DATA-001",
                    "a module no root of this repository calls (an atmos component, a module published from here): whoever instantiates it protects it",
                );
                continue;
            }
            out.push(
                at(
                    "WARD-DATA-001",
                    &r.loc,
                    format!(
                        "{addr} holds data ({source}) but has no lifecycle {{ prevent_destroy = true }} and no ward protection"
                    ),
                )
                .in_dir(&m.dir),
            );
        }
    }
    Ok(())
}

/// WARD-COV-001: every managed resource type in the configuration is classified. One finding
/// per type, at its first resource (modules in discovery order), naming how many more there are.
pub fn coverage(repo: &Repo, knowledge: &dyn DataHolding, out: &mut Vec<Finding>) {
    let call_names = local_call_names(repo);
    // Type → (first location and module dir, how many resources).
    let mut found: BTreeMap<String, (Loc, String, usize)> = BTreeMap::new();
    for m in &repo.modules {
        for r in &m.resources {
            if r.mode != "managed" {
                continue;
            }
            let addr = format!("{}.{}", r.type_name, r.name);
            let mut candidates: Vec<(String, Option<String>)> = vec![(addr.clone(), None)];
            for n in call_names.get(&m.dir).into_iter().flatten() {
                candidates.push((format!("module.{n}.{addr}"), Some(format!("module.{n}"))));
            }
            // Classified only when every address it has as seen from a root is.
            let unclassified = candidates.iter().any(|(a, module)| {
                let subject = Subject {
                    resource_type: &r.type_name,
                    address: a,
                    module: module.as_deref(),
                };
                knowledge.classified(&subject) == Some(false)
            });
            if unclassified {
                found
                    .entry(r.type_name.clone())
                    .or_insert_with(|| (r.loc.clone(), m.dir.clone(), 0))
                    .2 += 1;
            }
        }
    }
    for (t, (loc, dir, n)) in found {
        let more = if n > 1 {
            format!(" ({} more resource(s) of this type elsewhere)", n - 1)
        } else {
            String::new()
        };
        out.push(
            at(
                "WARD-COV-001",
                &loc,
                format!(
                    "resource type {t} is classified by no rule of ward's knowledge (built-in packs, ward.hcl){more}; add to ward.hcl: resource \"{t}\" {{ holds_data = ..., on_update = ..., on_delete = ... }} (`ward docs rules`)"
                ),
            )
            .in_dir(&dir),
        );
    }
}

/// Local module call names by target directory, for `module.<name>.<type>.<name>` addresses.
fn local_call_names(repo: &Repo) -> BTreeMap<String, BTreeSet<String>> {
    let mut call_names: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in &repo.modules {
        for c in &m.module_calls {
            if let Some(ModuleSource {
                kind: SourceKind::Local { path },
                ..
            }) = &c.source
            {
                if let Some(t) = join_rel(&m.dir, path) {
                    call_names.entry(t).or_default().insert(c.name.clone());
                }
            }
        }
    }
    call_names
}

const NON_RESOURCE_ROOTS: &[&str] = &[
    "var",
    "local",
    "module",
    "data",
    "each",
    "count",
    "path",
    "terraform",
    "self",
    "ephemeral",
];

/// WARD-LAYER-001, WARD-LAYER-002.
pub fn layers(repo: &Repo, out: &mut Vec<Finding>) {
    for m in repo.roots() {
        for p in &m.provider_configs {
            for r in &p.refs {
                let Some((root, name)) = r.split_once('.') else {
                    continue;
                };
                if NON_RESOURCE_ROOTS.contains(&root) {
                    continue;
                }
                if m.resources
                    .iter()
                    .any(|x| x.mode == "managed" && x.type_name == root && x.name == name)
                {
                    out.push(
                        at(
                            "WARD-LAYER-002",
                            &p.loc,
                            format!(
                                "provider \"{}\"{} is configured from {r}, a resource of the same root \"{}\"",
                                p.name,
                                p.alias.as_ref().map(|a| format!(" (alias {a})")).unwrap_or_default(),
                                m.dir
                            ),
                        )
                        .in_dir(&m.dir),
                    );
                    break;
                }
            }
        }
    }
    let Some(cfg) = &repo.config else { return };
    if cfg.layers.is_empty() {
        return;
    }
    for m in repo.roots() {
        let Some(my) = cfg.layer_of(&m.dir) else {
            continue;
        };
        // Every read of another root: (where, the root read, who reads, what, how (skipping),
        // how).
        let mut reads: Vec<(&Loc, String, &str, &str, String, String)> = Vec::new();
        for rs in &m.remote_states {
            if let Some(target) = remote_state_target(repo, m, rs) {
                let via = format!(" through terraform_remote_state \"{}\"", rs.name);
                reads.push((
                    &rs.loc,
                    target.dir.clone(),
                    "root",
                    "the state",
                    String::new(),
                    via,
                ));
            }
        }
        // Terragrunt `dependency` blocks read the outputs of the unit they name.
        for d in m.terragrunt.iter().flat_map(|u| u.dependencies.iter()) {
            if let Some(dir) = &d.dir {
                let via = format!(" through dependency \"{}\"", d.name);
                reads.push((&d.loc, dir.clone(), "unit", "the outputs", via.clone(), via));
            }
        }
        for (loc, target, who, what, via_skip, via) in reads {
            let Some(their) = cfg.layer_of(&target) else {
                continue;
            };
            if my.level - their.level > 1 {
                out.push(
                    at(
                        "WARD-LAYER-003",
                        loc,
                        format!(
                            "{who} \"{}\" (layer {}, level {}) reads {what} of \"{target}\" (layer {}, level {}){via_skip}, skipping the layers between; read only the layer directly below",
                            m.dir, my.name, my.level, their.name, their.level
                        ),
                    )
                    .in_dir(&m.dir),
                );
            }
            if their.level >= my.level {
                out.push(
                    at(
                        "WARD-LAYER-001",
                        loc,
                        format!(
                            "{who} \"{}\" (layer {}, level {}) reads {what} of \"{target}\" (layer {}, level {}){via}; a {who} may read only lower layers",
                            m.dir, my.name, my.level, their.name, their.level
                        ),
                    )
                    .in_dir(&m.dir),
                );
            }
        }
    }
}

/// Which root a `terraform_remote_state` reads: for `local`, the root whose state file the path
/// names (its local backend path, or the default `terraform.tfstate` in its directory); for other
/// backends, the root with the same backend type whose literal `bucket`/`key`/`prefix`/`path`/
/// `container_name`/`organization`/`name` arguments all equal the ones given.
fn remote_state_target<'r>(
    repo: &'r Repo,
    from: &Module,
    rs: &ward_repo::RemoteState,
) -> Option<&'r Module> {
    let backend = rs.backend.as_deref()?;
    let cfg = rs.config.as_ref()?;
    if backend == "local" {
        let p = path_literal(cfg.get("path")?)?;
        let file = join_rel(&from.dir, &p)?;
        return repo.roots().find(|r| {
            let own = match &r.backend {
                Some(b) if b.kind == "local" => b.get_str("path").unwrap_or("terraform.tfstate"),
                None => "terraform.tfstate",
                _ => return false,
            };
            join_rel(&r.dir, own).as_deref() == Some(file.as_str())
        });
    }
    const KEYS: &[&str] = &[
        "bucket",
        "key",
        "prefix",
        "path",
        "container_name",
        "organization",
        "name",
    ];
    let given: Vec<(&str, &str)> = KEYS
        .iter()
        .filter_map(|k| cfg.get(k).and_then(Val::as_str).map(|v| (*k, v)))
        .collect();
    if given.is_empty() {
        return None;
    }
    repo.roots().find(|r| match &r.backend {
        Some(b) if b.kind == backend => given.iter().all(|(k, v)| b.get_str(k) == Some(v)),
        _ => false,
    })
}

/// A literal path, or `"${path.module}/rest"` / `"${path.root}/rest"` (the only interpolation
/// that still names a fixed place relative to the directory).
fn path_literal(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::Expr { text, .. } => {
            let inner = text.strip_prefix('"')?.strip_suffix('"')?;
            let rest = inner
                .strip_prefix("${path.module}/")
                .or_else(|| inner.strip_prefix("${path.root}/"))?;
            (!rest.contains("${")).then(|| rest.to_string())
        }
        _ => None,
    }
}

/// WARD-ANS-001, WARD-ANS-002.
pub fn ansible(repo: &Repo, out: &mut Vec<Finding>) -> Result<(), String> {
    // Per file: its unpinned dependencies (line, what), and how many dependencies it lists.
    type Unpinned = Vec<(usize, String)>;
    let mut by_file: BTreeMap<&str, (Unpinned, usize)> = BTreeMap::new();
    let mut variables: Vec<(&str, usize, String)> = Vec::new();
    for p in &repo.pins {
        let dependency = matches!(p.kind, PinKind::Collection | PinKind::Role);
        let missing = p.version.is_none() && dependency;
        let latest = p
            .version
            .as_deref()
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("latest"));
        let what = match p.kind {
            PinKind::Collection => "collection",
            PinKind::Role => "role",
            PinKind::Galaxy => "galaxy.yml of",
            PinKind::Variable => "variable",
        };
        let entry = by_file.entry(p.file.as_str()).or_default();
        if dependency {
            entry.1 += 1;
        }
        if missing || latest {
            let msg = if latest {
                format!("{what} {} is at \"latest\"", p.name)
            } else {
                format!("{what} {} has no version", p.name)
            };
            if dependency {
                entry.0.push((p.line, msg));
            } else {
                variables.push((p.file.as_str(), p.line, msg));
            }
        }
    }
    for (file, line, msg) in variables {
        out.push(Finding::new(
            "WARD-ANS-002",
            file,
            line,
            format!("{msg}; pin an exact version"),
        ));
    }
    // A file that pins none of its (several) dependencies is one cause, reported once there.
    for (file, (unpinned, deps)) in by_file {
        if unpinned.len() >= 2 && unpinned.len() == deps {
            let first = unpinned.iter().map(|(l, _)| *l).min().unwrap_or(0);
            out.push(
                Finding::new(
                    "WARD-ANS-002",
                    file,
                    first,
                    format!(
                        "pins none of its {} dependencies: each install takes whatever was published last; pin an exact version for each",
                        unpinned.len()
                    ),
                )
                .with_detail(
                    unpinned
                        .iter()
                        .map(|(l, m)| format!("{file}:{l}: {m}"))
                        .collect(),
                ),
            );
            continue;
        }
        for (line, msg) in unpinned {
            out.push(Finding::new(
                "WARD-ANS-002",
                file,
                line,
                format!("{msg}; pin an exact version"),
            ));
        }
    }
    let Some(cfg) = &repo.config else {
        return Ok(());
    };
    for rel in &cfg.check.releases {
        let set =
            glob_set(&rel.module_sources).map_err(|e| format!("release \"{}\": {e}", rel.name))?;
        // (version, where, what)
        let mut tf: Vec<(String, String, String)> = Vec::new();
        for m in &repo.modules {
            for c in &m.module_calls {
                let Some(src) = &c.source else { continue };
                let Some(pkg) = src.package() else { continue };
                if !set.is_match(&pkg) {
                    continue;
                }
                let raw = match &src.kind {
                    SourceKind::Git { git_ref, .. } => git_ref.clone(),
                    SourceKind::Registry { .. } => c.version.clone(),
                    _ => None,
                };
                let Some(raw) = raw else { continue };
                let v = named_version(&raw).unwrap_or(raw);
                tf.push((
                    v,
                    format!("{}:{}", c.loc.file, c.loc.line),
                    format!("module {} ({pkg})", c.name),
                ));
            }
        }
        let pins: Vec<&ward_repo::VersionPin> = repo
            .pins
            .iter()
            .filter(|p| match p.kind {
                PinKind::Collection | PinKind::Galaxy => rel.collections.contains(&p.name),
                PinKind::Variable => rel.variables.contains(&p.name),
                PinKind::Role => false,
            })
            .collect();
        let pin_version = |p: &ward_repo::VersionPin| {
            p.version
                .as_deref()
                .map(|v| named_version(v).unwrap_or_else(|| v.to_string()))
                .unwrap_or_else(|| "(none)".to_string())
        };
        let tf_versions: BTreeSet<&str> = tf.iter().map(|(v, _, _)| v.as_str()).collect();
        let all: BTreeSet<String> = tf_versions
            .iter()
            .map(|s| s.to_string())
            .chain(pins.iter().map(|p| pin_version(p)))
            .collect();
        if all.len() < 2 {
            continue;
        }
        let mut detail: Vec<String> = tf
            .iter()
            .map(|(v, w, what)| format!("terraform: {what} = {v} at {w}"))
            .collect();
        detail.extend(pins.iter().map(|p| {
            format!(
                "ansible: {} = {} at {}:{}",
                p.name,
                pin_version(p),
                p.file,
                p.line
            )
        }));
        for p in &pins {
            let v = pin_version(p);
            if tf_versions.len() == 1 && tf_versions.contains(v.as_str()) {
                continue;
            }
            out.push(
                Finding::new(
                    "WARD-ANS-001",
                    &p.file,
                    p.line,
                    format!(
                        "release \"{}\": {} = {v}, but the release is named at {} ({})",
                        rel.name,
                        p.name,
                        if tf_versions.is_empty() {
                            "other Ansible pins"
                        } else {
                            "Terraform refs"
                        },
                        all.iter()
                            .filter(|x| **x != v)
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
                .with_detail(detail.clone()),
            );
        }
        if pins.is_empty() && tf_versions.len() > 1 {
            // Terraform refs disagree among themselves: reported by WARD-MOD-005 when the
            // package is the same; across packages of one release it is this rule's.
            if let Some((_, w, _)) = tf.first() {
                let (file, line) = split_at(w);
                out.push(
                    Finding::new(
                        "WARD-ANS-001",
                        file,
                        line,
                        format!(
                            "release \"{}\": its Terraform modules name {} different versions ({})",
                            rel.name,
                            tf_versions.len(),
                            tf_versions.iter().copied().collect::<Vec<_>>().join(", ")
                        ),
                    )
                    .with_detail(detail.clone()),
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_literals() {
        assert_eq!(
            path_literal(&Val::Str("../a/terraform.tfstate".into())).as_deref(),
            Some("../a/terraform.tfstate")
        );
        let e = |t: &str| Val::Expr {
            text: t.to_string(),
            refs: vec!["path.module".to_string()],
        };
        assert_eq!(
            path_literal(&e("\"${path.module}/../a/x.tfstate\"")).as_deref(),
            Some("../a/x.tfstate")
        );
        assert_eq!(path_literal(&e("\"${path.module}/${var.x}\"")), None);
        assert_eq!(path_literal(&e("var.x")), None);
    }
}
