//! [`discover`]: one walk of the tree ([`walk`]), every directory parsed ([`parse`]), the
//! Terragrunt units and stacks added ([`units`]), the roots decided ([`roots`]), then what git
//! tracks ([`crate::git`]) and the Ansible files read ([`crate::ansible`], [`crate::playbook`]).

pub(crate) mod parse;
pub(crate) mod roots;
pub(crate) mod units;
pub(crate) mod walk;

#[cfg(test)]
mod tests;

use crate::{
    ansible, git, layout, playbook, Exclude, FileProblem, Module, Repo, TextFile, TextKind,
};
use std::collections::BTreeSet;
use std::path::Path;

/// Discovery failed as a whole.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// The path is not a readable directory.
    #[error("{path}: not a readable directory: {reason}. Give the repository's top directory.")]
    NotADirectory {
        /// The path.
        path: String,
        /// Why.
        reason: String,
    },
}

/// Options for [`discover`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The directories `ward.hcl` declares as roots (`root "PATH" { }`, repository-relative):
    /// each is a root even when called as a module. The caller reads `ward.hcl`
    /// (ward-config's `Config::declared_roots`).
    pub declared_roots: BTreeSet<String>,
    /// Paths not to enter, each with its reason (`ward check` passes `check { exclude }` and
    /// `--exclude`; other commands have their own exclusions).
    pub exclude: Vec<Exclude>,
}

/// What the steps after the walk add to: the modules (sorted by directory) and the problems,
/// template files and file count so far.
pub(crate) struct Found {
    pub modules: Vec<Module>,
    pub problems: Vec<FileProblem>,
    pub template_files: Vec<layout::Template>,
    pub shadowed: Vec<(String, String)>,
    pub files_parsed: usize,
}

/// Walks `root` and builds the [`Repo`].
pub fn discover(root: &Path, opts: &Options) -> Result<Repo, RepoError> {
    let meta = std::fs::metadata(root).map_err(|e| RepoError::NotADirectory {
        path: root.display().to_string(),
        reason: e.to_string(),
    })?;
    if !meta.is_dir() {
        return Err(RepoError::NotADirectory {
            path: root.display().to_string(),
            reason: "it is a file".to_string(),
        });
    }
    // 1. Walk (exclusions: `ward check` passes `check { exclude }` and `--exclude`).
    let mut w = walk::walk(root, &opts.exclude);
    // 2. Parse every directory. Configuration is read by the caller.
    let mut found = parse::parse_dirs(
        root,
        &w.tf_by_dir,
        &w.lock_dirs,
        std::mem::take(&mut w.problems),
    );
    // 3. Terragrunt units and stacks.
    let included = units::add_units(root, &w.tg_files, &w.lock_dirs, &mut found);
    units::add_stacks(root, &w.stack_files, &w.lock_dirs, &mut found);
    for f in &included {
        if !w.text_files.iter().any(|t| &t.path == f) {
            w.text_files.push(TextFile {
                path: f.clone(),
                kind: TextKind::Config,
            });
        }
    }
    // 4. Callers and kinds, layouts, live or module repository.
    let declared = &opts.declared_roots;
    let mut modules = std::mem::take(&mut found.modules);
    roots::callers_and_kinds(&mut modules, declared, &w.state_files, &w.text_files);
    roots::layouts(root, &mut modules, declared, &w.atmos_files, &w.yaml_files);
    let kind = roots::repo_kind(&mut modules, declared);
    // 5. State files tracked by git.
    let tracked_state_files = git::git_tracked_state(root);
    // 6. Ansible pins, plays and tasks.
    let mut problems = std::mem::take(&mut found.problems);
    let pins = ansible::read_pins_in(root, w.ansible_files, &mut problems);
    let playbooks = playbook::read_playbooks_in(root, w.playbook_files, &mut problems);

    problems.sort();
    w.state_files.sort();
    w.text_files.sort();
    w.command_files.sort();
    w.excluded.sort();
    found.shadowed.sort();
    let mut templates = w.templates;
    templates.extend(found.template_files);
    templates.sort();
    templates.dedup();
    Ok(Repo {
        root: root.to_path_buf(),
        modules,
        problems,
        state_files: w.state_files,
        tracked_state_files,
        text_files: w.text_files,
        pins,
        playbooks,
        command_files: w.command_files,
        shadowed: found.shadowed,
        files_parsed: found.files_parsed,
        kind,
        excluded: w.excluded,
        templates,
    })
}
