//! Step 1 of discovery: one walk of the tree, sorting every file by what discovery does with it
//! next (configuration by directory, lock files, state, variables, templates, Terragrunt,
//! atmos, Ansible, command files), entering no skipped, template or excluded directory, and
//! reading a symlinked file only when it stays inside the repository.

use crate::ansible::AnsibleFileKind;
use crate::{
    ansible, layout, playbook, stack, terragrunt, Exclude, Excluded, FileProblem, Loc, TextFile,
    TextKind,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// What the walk found, sorted by what discovery does with it next.
#[derive(Default)]
pub(crate) struct Walked {
    /// Configuration file names (`main.tf`) by repository-relative directory.
    pub tf_by_dir: BTreeMap<String, Vec<String>>,
    /// Directories with a `.terraform.lock.hcl`.
    pub lock_dirs: BTreeSet<String>,
    /// `*.tfstate` / `*.tfstate.backup` files.
    pub state_files: Vec<String>,
    /// Files whose text other checks read.
    pub text_files: Vec<TextFile>,
    /// Ansible files that pin versions, with their kind.
    pub ansible_files: Vec<(String, AnsibleFileKind)>,
    /// Files that may be Ansible playbooks or task files.
    pub playbook_files: Vec<String>,
    /// Scripts, Makefiles and CI files.
    pub command_files: Vec<String>,
    /// Parts of the tree that could not be read, refused symlinks.
    pub problems: Vec<FileProblem>,
    /// `terragrunt.hcl` files.
    pub tg_files: Vec<String>,
    /// `atmos.yaml` files.
    pub atmos_files: Vec<String>,
    /// Every YAML file (atmos stacks are found among them).
    pub yaml_files: Vec<String>,
    /// `terragrunt.stack.hcl` files.
    pub stack_files: Vec<String>,
    /// Paths an exclusion kept the walk out of.
    pub excluded: Vec<Excluded>,
    /// Template directories not entered.
    pub templates: Vec<layout::Template>,
}

/// Walks `root`, entering nothing `excludes` covers.
pub(crate) fn walk(root: &Path, excludes: &[Exclude]) -> Walked {
    let root_canon = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    // The entry filter runs inside the walker: what it leaves out is recorded through these.
    let excluded = Arc::new(Mutex::new(Vec::<Excluded>::new()));
    let templates = Arc::new(Mutex::new(Vec::<layout::Template>::new()));
    let walker = {
        let excluded = Arc::clone(&excluded);
        let templates = Arc::clone(&templates);
        let excludes = excludes.to_vec();
        crate::walk::Walk::new(root)
            .filter_entry(move |e| enters(e, &excludes, &excluded, &templates))
    };
    let mut w = Walked::default();
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                w.problems.push(FileProblem {
                    loc: Loc {
                        file: ".".to_string(),
                        line: 0,
                    },
                    column: 0,
                    message: format!("cannot read part of the tree: {e}"),
                });
                continue;
            }
        };
        let is_link = entry.is_symlink();
        if !is_link && !entry.is_file() {
            continue;
        }
        let rel = entry.rel().to_string();
        let (dir, name) = match rel.rsplit_once('/') {
            Some((d, n)) => (d.to_string(), n.to_string()),
            None => (".".to_string(), rel.clone()),
        };
        if is_link {
            // Terraform reads a symlinked file; so does ward, when it stays in the repository.
            match follow_link(&root_canon, entry.path()) {
                Link::File => {}
                Link::NotAFile => continue,
                Link::Refused(why) => {
                    if is_read(&rel, &name) {
                        w.problems.push(FileProblem {
                            loc: Loc { file: rel, line: 0 },
                            column: 0,
                            message: why,
                        });
                    }
                    continue;
                }
            }
        }
        w.file(rel, dir, name);
    }
    w.excluded = excluded.lock().map(|v| v.clone()).unwrap_or_default();
    w.templates = templates.lock().map(|v| v.clone()).unwrap_or_default();
    w
}

/// The walk's entry filter (the walk has left the skipped directories out already): false for a
/// template directory (recorded in `templates`) and a path an exclusion covers (recorded in
/// `excluded`).
fn enters(
    e: &crate::walk::Entry,
    excludes: &[Exclude],
    excluded: &Mutex<Vec<Excluded>>,
    templates: &Mutex<Vec<layout::Template>>,
) -> bool {
    let rel = e.rel();
    if e.is_dir() {
        if let Some(what) = layout::template_dir(&e.file_name().to_string_lossy()) {
            if let Ok(mut v) = templates.lock() {
                v.push(layout::Template {
                    path: rel.to_string(),
                    what: what.to_string(),
                });
            }
            return false;
        }
    }
    match excludes.iter().find(|x| x.covers(rel)) {
        Some(x) => {
            if let Ok(mut v) = excluded.lock() {
                v.push(Excluded {
                    path: rel.to_string(),
                    pattern: x.pattern.clone(),
                    reason: x.reason.clone(),
                });
            }
            false
        }
        None => true,
    }
}

impl Walked {
    /// Sorts one file (`rel`, in directory `dir`, named `name`) into what reads it next.
    fn file(&mut self, rel: String, dir: String, name: String) {
        let config = |path: &String| TextFile {
            path: path.clone(),
            kind: TextKind::Config,
        };
        if name == layout::ATMOS_CONFIG {
            self.atmos_files.push(rel.clone());
        }
        if name.ends_with(".yaml") || name.ends_with(".yml") {
            self.yaml_files.push(rel.clone());
        }
        if name == stack::STACK_FILE {
            self.stack_files.push(rel.clone());
            self.text_files.push(config(&rel));
        }
        if name == terragrunt::UNIT_FILE {
            self.tg_files.push(rel.clone());
            self.text_files.push(config(&rel));
        }
        if is_config_file(&name) {
            self.tf_by_dir.entry(dir).or_default().push(name.clone());
            self.text_files.push(config(&rel));
        } else if name == ".terraform.lock.hcl" {
            self.lock_dirs.insert(dir);
        } else if is_state(&name) {
            self.state_files.push(rel.clone());
        } else if is_vars(&name) {
            self.text_files.push(TextFile {
                path: rel.clone(),
                kind: TextKind::Vars,
            });
        } else if is_template(&rel, &name) {
            self.text_files.push(TextFile {
                path: rel.clone(),
                kind: TextKind::Template,
            });
        }
        if playbook::is_candidate(&rel) {
            self.playbook_files.push(rel.clone());
        }
        if is_command_file(&rel, &name) {
            self.command_files.push(rel.clone());
        }
        if let Some(k) = ansible::ansible_kind(&rel) {
            self.ansible_files.push((rel, k));
        }
    }
}

/// True for the file names Terraform or OpenTofu read as configuration: `.tf`, `.tf.json`,
/// `.tofu`, `.tofu.json`.
pub fn is_config_file(name: &str) -> bool {
    name.ends_with(".tf")
        || name.ends_with(".tofu")
        || name.ends_with(".tf.json")
        || name.ends_with(".tofu.json")
}

/// What a symlink in the tree leads to.
enum Link {
    /// A file inside the repository: read it through the link, as Terraform does.
    File,
    /// A directory (never entered: no second copy of a tree, no loop) or something else.
    NotAFile,
    /// Broken, looping, or leading outside the repository: why, in words.
    Refused(String),
}

fn follow_link(root_canon: &Path, link: &Path) -> Link {
    let target = match link.canonicalize() {
        Ok(t) => t,
        Err(e) => {
            return Link::Refused(format!(
                "cannot follow the symlink ({e}); Terraform cannot read it either: fix or remove the link"
            ))
        }
    };
    if !target.starts_with(root_canon) {
        return Link::Refused(format!(
            "a symlink to {}, outside the repository: ward reads only files inside it, so nothing here was checked; copy the file in or point the link inside",
            target.display()
        ));
    }
    if target.is_file() {
        Link::File
    } else {
        Link::NotAFile
    }
}

/// Whether discovery reads a file at this path (configuration, lock, state, variables,
/// templates, Ansible): a refused symlink there is reported, anywhere else ignored.
fn is_read(rel: &str, name: &str) -> bool {
    is_config_file(name)
        || name == ".terraform.lock.hcl"
        || is_state(name)
        || is_vars(name)
        || is_template(rel, name)
        || ansible::ansible_kind(rel).is_some()
}

/// Scripts, Makefiles and CI files: where command lines are written.
fn is_command_file(rel: &str, name: &str) -> bool {
    let ext = |e: &str| name.ends_with(e);
    ext(".sh")
        || ext(".bash")
        || ext(".mk")
        || matches!(
            name,
            "Makefile"
                | "makefile"
                | "GNUmakefile"
                | "Jenkinsfile"
                | "Taskfile.yml"
                | "justfile"
                | "Justfile"
                | ".gitlab-ci.yml"
                | ".travis.yml"
                | ".drone.yml"
                | ".woodpecker.yml"
                | "azure-pipelines.yml"
                | "bitbucket-pipelines.yml"
        )
        || rel.starts_with(".github/workflows/")
        || rel.starts_with(".circleci/")
        || rel.starts_with(".buildkite/")
        || rel.starts_with(".ci/")
        || rel.starts_with(".gitlab/ci/")
}

/// A state file (`*.tfstate`, `*.tfstate.backup`).
pub(crate) fn is_state(name: &str) -> bool {
    name.ends_with(".tfstate") || name.ends_with(".tfstate.backup")
}

/// A variables file (`*.tfvars`, `*.tfvars.json`).
pub(crate) fn is_vars(name: &str) -> bool {
    name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
}

/// A template (`.tftpl`, `.tpl`, `.tmpl`, or under a `templates/` directory).
fn is_template(rel: &str, name: &str) -> bool {
    name.ends_with(".tftpl")
        || name.ends_with(".tpl")
        || name.ends_with(".tmpl")
        || rel.split('/').rev().skip(1).any(|d| d == "templates")
}
