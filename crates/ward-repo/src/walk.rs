//! The one directory walker: every walk of a tree in ward (discovery, `ward check --exec`'s copy,
//! a render's output, drift's ignored directories) is a [`Walk`], and this module is the only
//! place that builds the walking library's walker.
//!
//! A walk never follows a symlink: a link is yielded as a link (its [`Entry::file_type`] says so)
//! and a link to a directory is not entered. By default it leaves out the directories in
//! [`SKIPPED_DIRS`] (`.git`, `.terraform`, ...) and reads no ignore file; [`Walk::skip_dirs`] and
//! [`Walk::ignore_files`] change that. Entries come in the order the file system lists them (not
//! sorted), the top directory first; a part of the tree that cannot be read is an `Err` item and
//! the walk goes on.
//!
//! ```no_run
//! for entry in ward_repo::walk::Walk::new("repo") {
//!     match entry {
//!         Ok(e) if e.is_file() => println!("{}", e.rel()),
//!         Ok(_) => {}
//!         Err(e) => eprintln!("cannot read part of the tree: {e}"),
//!     }
//! }
//! ```

use std::ffi::OsStr;
use std::fmt;
use std::fs::FileType;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Directories never entered: tool caches and VCS metadata.
/// (`.terragrunt-stack` holds the units Terragrunt generates from `terragrunt.stack.hcl`; ward
/// reads the stack file instead.)
pub const SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".terraform",
    ".terragrunt-cache",
    ".terragrunt-stack",
    "node_modules",
];

/// A relative path's components joined with `/` (how ward names paths inside a repository, on
/// every platform).
pub fn rel_string(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// A decision on an entry, made while walking (false: leave it out, and a directory's contents
/// with it).
type Filter = Arc<dyn Fn(&Entry) -> bool + Send + Sync>;

/// A walk of the tree under one directory: what it leaves out, then iterated for its entries.
#[derive(Clone)]
pub struct Walk {
    root: PathBuf,
    ignore_files: bool,
    skip_dirs: bool,
    filter: Option<Filter>,
}

impl fmt::Debug for Walk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Walk")
            .field("root", &self.root)
            .field("ignore_files", &self.ignore_files)
            .field("skip_dirs", &self.skip_dirs)
            .field("filter", &self.filter.is_some())
            .finish()
    }
}

impl Walk {
    /// A walk of `root`: no ignore file read, [`SKIPPED_DIRS`] left out, no symlink followed.
    pub fn new(root: impl Into<PathBuf>) -> Walk {
        Walk {
            root: root.into(),
            ignore_files: false,
            skip_dirs: true,
            filter: None,
        }
    }

    /// With `true`, leaves out what ignore files cover, as git would: every `.gitignore` and
    /// `.ignore` from `root` down (not above it), `.git/info/exclude` and git's global excludes
    /// file, whether or not the tree is a git checkout. Hidden files are still walked.
    pub fn ignore_files(mut self, yes: bool) -> Walk {
        self.ignore_files = yes;
        self
    }

    /// With `false`, also enters the directories in [`SKIPPED_DIRS`].
    pub fn skip_dirs(mut self, yes: bool) -> Walk {
        self.skip_dirs = yes;
        self
    }

    /// Leaves out every entry (below the top) for which `keep` says false, and all that is below
    /// such a directory. It runs after the skipped directories are left out, only on entries
    /// ignore files do not cover.
    pub fn filter_entry(mut self, keep: impl Fn(&Entry) -> bool + Send + Sync + 'static) -> Walk {
        self.filter = Some(Arc::new(keep));
        self
    }

    fn build(self) -> ignore::Walk {
        let mut b = ignore::WalkBuilder::new(&self.root);
        if self.ignore_files {
            b.hidden(false)
                .parents(false)
                .git_ignore(true)
                .git_exclude(true)
                .ignore(true)
                .require_git(false);
        } else {
            b.standard_filters(false);
        }
        b.follow_links(false);
        let skip = self.skip_dirs;
        let filter = self.filter;
        if skip || filter.is_some() {
            let root = self.root;
            b.filter_entry(move |e| {
                if skip && is_skipped_dir(e.file_type(), e.file_name()) {
                    return false;
                }
                match (
                    &filter,
                    Entry::new(&root, e.path(), e.file_type(), e.depth()),
                ) {
                    (Some(keep), Some(entry)) => keep(&entry),
                    _ => true,
                }
            });
        }
        b.build()
    }
}

impl IntoIterator for Walk {
    type Item = Result<Entry, WalkError>;
    type IntoIter = Entries;

    fn into_iter(self) -> Entries {
        Entries {
            root: self.root.clone(),
            inner: self.build(),
        }
    }
}

/// The entries of a [`Walk`], as it goes.
pub struct Entries {
    root: PathBuf,
    inner: ignore::Walk,
}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entries").field("root", &self.root).finish()
    }
}

impl Iterator for Entries {
    type Item = Result<Entry, WalkError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let e = match self.inner.next()? {
                Ok(e) => e,
                Err(e) => return Some(Err(WalkError(e))),
            };
            if let Some(entry) = Entry::new(&self.root, e.path(), e.file_type(), e.depth()) {
                return Some(Ok(entry));
            }
        }
    }
}

/// One file, directory or symlink found by a [`Walk`].
#[derive(Debug, Clone)]
pub struct Entry {
    path: PathBuf,
    rel: String,
    file_type: Option<FileType>,
    depth: usize,
}

impl Entry {
    /// `None` for a path outside `root` (never one the walker yields).
    fn new(root: &Path, path: &Path, file_type: Option<FileType>, depth: usize) -> Option<Entry> {
        let rel = rel_string(path.strip_prefix(root).ok()?);
        Some(Entry {
            path: path.to_path_buf(),
            rel,
            file_type,
            depth,
        })
    }

    /// The path: the walk's root joined with the entry's place under it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path relative to the walk's root, joined with `/` ([`rel_string`]); empty for the root.
    pub fn rel(&self) -> &str {
        &self.rel
    }

    /// The last component of the path (the whole path for a root without one).
    pub fn file_name(&self) -> &OsStr {
        self.path
            .file_name()
            .unwrap_or_else(|| self.path.as_os_str())
    }

    /// The entry's own type (a symlink's, not its target's); `None` when it could not be read.
    pub fn file_type(&self) -> Option<FileType> {
        self.file_type
    }

    /// A directory (never a symlink to one).
    pub fn is_dir(&self) -> bool {
        self.file_type.is_some_and(|t| t.is_dir())
    }

    /// A regular file (never a symlink to one).
    pub fn is_file(&self) -> bool {
        self.file_type.is_some_and(|t| t.is_file())
    }

    /// A symlink, whatever it leads to.
    pub fn is_symlink(&self) -> bool {
        self.file_type.is_some_and(|t| t.is_symlink())
    }

    /// How far below the root: 0 for the root itself.
    pub fn depth(&self) -> usize {
        self.depth
    }
}

/// A part of the tree a [`Walk`] could not read: its text names the path and the system's error.
#[derive(Debug)]
pub struct WalkError(ignore::Error);

impl fmt::Display for WalkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for WalkError {}

/// A directory a walk leaves out by default ([`SKIPPED_DIRS`]).
fn is_skipped_dir(file_type: Option<FileType>, name: &OsStr) -> bool {
    file_type.is_some_and(|t| t.is_dir()) && SKIPPED_DIRS.contains(&name.to_string_lossy().as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A tree with an ignore file, skipped directories and (on Unix) symlinks.
    fn tree() -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        let w = |p: &str| {
            let p = d.path().join(p);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, "x").unwrap();
        };
        w("a/main.tf");
        w("a/.hidden.tf");
        w(".gitignore");
        w("scratch/main.tf");
        w("notes.log");
        w("sub/.ignore");
        w("sub/keep.tf");
        w("sub/local.tf");
        w(".git/config");
        w("a/.terraform/modules/m/main.tf");
        w("node_modules/x/index.js");
        fs::write(d.path().join(".gitignore"), "scratch/\n*.log\n").unwrap();
        fs::write(d.path().join("sub/.ignore"), "local.tf\n").unwrap();
        d
    }

    /// The walk's entries: `rel` with `/` after a directory and `@` after a symlink, sorted.
    fn seen(walk: Walk) -> Vec<String> {
        let mut v: Vec<String> = walk
            .into_iter()
            .map(|e| {
                let e = e.unwrap();
                let mark = if e.is_dir() {
                    "/"
                } else if e.is_symlink() {
                    "@"
                } else {
                    ""
                };
                format!("{}{mark}", e.rel())
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn by_default_reads_no_ignore_file_and_leaves_out_skipped_dirs() {
        let d = tree();
        assert_eq!(
            seen(Walk::new(d.path())),
            [
                ".gitignore",
                "/",
                "a/",
                "a/.hidden.tf",
                "a/main.tf",
                "notes.log",
                "scratch/",
                "scratch/main.tf",
                "sub/",
                "sub/.ignore",
                "sub/keep.tf",
                "sub/local.tf",
            ]
        );
    }

    #[test]
    fn honours_ignore_files_when_asked_and_keeps_hidden_files() {
        let d = tree();
        assert_eq!(
            seen(Walk::new(d.path()).ignore_files(true)),
            [
                ".gitignore",
                "/",
                "a/",
                "a/.hidden.tf",
                "a/main.tf",
                "sub/",
                "sub/.ignore",
                "sub/keep.tf",
            ]
        );
    }

    #[test]
    fn enters_skipped_dirs_when_asked() {
        let d = tree();
        let all = seen(Walk::new(d.path()).skip_dirs(false));
        for p in [
            ".git/",
            ".git/config",
            "a/.terraform/modules/m/main.tf",
            "node_modules/x/index.js",
        ] {
            assert!(all.contains(&p.to_string()), "{p} missing from {all:?}");
        }
    }

    #[test]
    fn a_filter_leaves_out_a_directory_and_what_is_below_it() {
        let d = tree();
        let names = Arc::new(std::sync::Mutex::new(Vec::new()));
        let asked = Arc::clone(&names);
        let walk = Walk::new(d.path()).filter_entry(move |e| {
            asked.lock().unwrap().push(e.rel().to_string());
            e.rel() != "sub"
        });
        let all = seen(walk);
        assert!(!all.iter().any(|p| p.starts_with("sub")), "{all:?}");
        assert!(all.contains(&"a/main.tf".to_string()), "{all:?}");
        // The filter never sees a skipped directory, nor the root.
        let asked = names.lock().unwrap();
        assert!(
            !asked.iter().any(|p| p == ".git" || p.is_empty()),
            "{asked:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_yielded_as_a_link_and_never_followed() {
        let d = tree();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.tf"), "x").unwrap();
        std::os::unix::fs::symlink(outside.path(), d.path().join("out")).unwrap();
        std::os::unix::fs::symlink(d.path().join("a"), d.path().join("a/loop")).unwrap();
        std::os::unix::fs::symlink("main.tf", d.path().join("a/file.tf")).unwrap();
        let all = seen(Walk::new(d.path()));
        for p in ["out@", "a/loop@", "a/file.tf@"] {
            assert!(all.contains(&p.to_string()), "{p} missing from {all:?}");
        }
        assert!(
            !all.iter()
                .any(|p| p.starts_with("out/") || p.starts_with("a/loop/")),
            "{all:?}"
        );
    }
}
