//! Repository-level evidence about files that are not committed on purpose: a `.gitignore`
//! pattern that keeps every root's `.terraform.lock.hcl` out of git, or one that keeps out a
//! backend file a generator writes at plan time (`**/backend.tf.json`, "have atmos
//! auto-generate the backend"). One pattern is one cause: the rules report it once, where it
//! is written, listing the roots it reaches, instead of once per root.
//!
//! Git's rules as git applies them: the `.gitignore` files from the repository's top down to
//! the directory, the deepest one deciding, the last matching line of a file winning, `!`
//! re-including; a directory ignored ignores what is below it.

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;
use std::collections::BTreeMap;
use std::path::Path;
use ward_repo::{Module, ModuleKind, Repo};

/// The lock file Terraform and OpenTofu write beside a root.
pub const LOCK_FILE: &str = ".terraform.lock.hcl";

/// Backend files generators write into a root at plan time: atmos writes `backend.tf.json`
/// (`components.terraform.auto_generate_backend_file`), Terragrunt's `generate "backend"`
/// conventionally `backend.tf`. An ignore pattern counts only when it names a backend file
/// (its text holds `backend`): a pattern such as `*.tf.json`, which also keeps out varfiles,
/// says nothing about the backend.
pub const BACKEND_FILES: &[&str] = &["backend.tf.json", "backend.tf"];

/// The `.gitignore` line that ignores a file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct IgnoredBy {
    /// The `.gitignore`, repository-relative.
    pub file: String,
    /// Its 1-based line (0 when it cannot be told).
    pub line: usize,
    /// The pattern as written.
    pub pattern: String,
}

impl IgnoredBy {
    /// `file:line`.
    pub fn at(&self) -> String {
        if self.line > 0 {
            format!("{}:{}", self.file, self.line)
        } else {
            self.file.clone()
        }
    }
}

/// What the repository's ignore files say about its roots.
#[derive(Debug, Clone, Default)]
pub struct Evidence {
    /// Roots whose `.terraform.lock.hcl` git ignores, by directory.
    pub lock_ignored: BTreeMap<String, IgnoredBy>,
    /// Roots whose generated backend file git ignores: directory → (the line, the file name).
    pub backend_ignored: BTreeMap<String, (IgnoredBy, &'static str)>,
    /// Roots whose directory git ignores (generated where they run), by directory.
    pub generated_dirs: BTreeMap<String, IgnoredBy>,
}

/// The `.gitignore` matchers of a directory and its parents, read once each.
struct Ignores<'r> {
    root: &'r Path,
    by_dir: BTreeMap<String, Option<(Gitignore, Vec<String>)>>,
}

impl<'r> Ignores<'r> {
    fn new(root: &'r Path) -> Self {
        Ignores {
            root,
            by_dir: BTreeMap::new(),
        }
    }

    /// The matcher of `dir`'s own `.gitignore` (`.` for the top), with its lines.
    fn of(&mut self, dir: &str) -> Option<&(Gitignore, Vec<String>)> {
        let root = self.root;
        self.by_dir
            .entry(dir.to_string())
            .or_insert_with(|| {
                let base = if dir == "." {
                    root.to_path_buf()
                } else {
                    root.join(dir)
                };
                let path = base.join(".gitignore");
                let text = std::fs::read_to_string(&path).ok()?;
                let mut b = GitignoreBuilder::new(&base);
                for line in text.lines() {
                    // A line git cannot read is skipped, as git skips it.
                    let _ = b.add_line(Some(path.clone()), line);
                }
                let gi = b.build().ok()?;
                Some((gi, text.lines().map(str::to_string).collect()))
            })
            .as_ref()
    }

    /// The line that ignores the repository-relative directory `dir` itself (or one above it),
    /// when git ignores it: nothing in it is committed.
    fn ignoring_dir(&mut self, dir: &str) -> Option<IgnoredBy> {
        let (parent, name) = dir.rsplit_once('/').unwrap_or((".", dir));
        if dir == "." {
            return None;
        }
        self.ignoring_as(parent, name, true)
    }

    /// The line that ignores `name` in the repository-relative `dir`, when git ignores it.
    fn ignoring(&mut self, dir: &str, name: &str) -> Option<IgnoredBy> {
        self.ignoring_as(dir, name, false)
    }

    fn ignoring_as(&mut self, dir: &str, name: &str, is_dir: bool) -> Option<IgnoredBy> {
        // `.`, `a`, `a/b`, ..., `dir`: git reads them top down; the deepest decides.
        let mut levels = vec![".".to_string()];
        if dir != "." {
            let mut acc = String::new();
            for part in dir.split('/') {
                if !acc.is_empty() {
                    acc.push('/');
                }
                acc.push_str(part);
                levels.push(acc.clone());
            }
        }
        let target = if dir == "." {
            self.root.join(name)
        } else {
            self.root.join(dir).join(name)
        };
        for level in levels.iter().rev() {
            let Some((gi, lines)) = self.of(level) else {
                continue;
            };
            match gi.matched_path_or_any_parents(&target, is_dir) {
                Match::None => continue,
                Match::Whitelist(_) => return None,
                Match::Ignore(glob) => {
                    let pattern = glob.original().to_string();
                    let line = lines
                        .iter()
                        .rposition(|l| l.trim_end() == pattern)
                        .map_or(0, |i| i + 1);
                    let file = if level == "." {
                        ".gitignore".to_string()
                    } else {
                        format!("{level}/.gitignore")
                    };
                    return Some(IgnoredBy {
                        file,
                        line,
                        pattern,
                    });
                }
            }
        }
        None
    }
}

impl Evidence {
    /// Reads the ignore files that concern the roots of `repo`.
    pub fn read(repo: &Repo) -> Evidence {
        let mut ig = Ignores::new(&repo.root);
        let mut ev = Evidence::default();
        for m in repo.modules.iter().filter(|m| m.kind == ModuleKind::Root) {
            // A root whose directory git ignores is generated (`.terragrunt-stack/`, vendored
            // components): none of its files is committed, the lock file no more than the rest.
            if let Some(by) = ig.ignoring_dir(&m.dir) {
                ev.generated_dirs.insert(m.dir.clone(), by);
                continue;
            }
            if let Some(by) = ig.ignoring(&m.dir, LOCK_FILE) {
                ev.lock_ignored.insert(m.dir.clone(), by);
            }
            if m.backend.is_none() && m.cloud.is_none() {
                for f in BACKEND_FILES {
                    if let Some(by) = ig
                        .ignoring(&m.dir, f)
                        .filter(|b| b.pattern.to_ascii_lowercase().contains("backend"))
                    {
                        ev.backend_ignored.insert(m.dir.clone(), (by, f));
                        break;
                    }
                }
            }
        }
        ev
    }
}

/// Whether `init` in `m` needs any provider, so writes a lock file: a `required_providers`
/// entry, a provider configuration, a resource or data source of a provider other than the
/// built-in `terraform` one (`terraform_data`, `terraform_remote_state`), a module called from
/// anywhere but a local directory of the repository (whose providers ward cannot see), a
/// Terragrunt unit (its source module is elsewhere), or a local module that needs one.
pub fn needs_providers(repo: &Repo, m: &Module) -> bool {
    let mut seen = Vec::new();
    needs(repo, m, &mut seen)
}

fn needs<'r>(repo: &'r Repo, m: &'r Module, seen: &mut Vec<&'r str>) -> bool {
    if seen.contains(&m.dir.as_str()) {
        return false;
    }
    seen.push(&m.dir);
    if m.terragrunt.is_some()
        || !m.required_providers.is_empty()
        || !m.provider_configs.is_empty()
        || m.resources
            .iter()
            .any(|r| r.type_name.split('_').next() != Some("terraform"))
    {
        return true;
    }
    m.module_calls.iter().any(|c| match &c.source {
        Some(ward_repo::ModuleSource {
            kind: ward_repo::SourceKind::Local { path },
            ..
        }) => match ward_repo::join_rel(&m.dir, path).and_then(|d| repo.module(&d)) {
            Some(t) => needs(repo, t, seen),
            None => true,
        },
        _ => true,
    })
}
