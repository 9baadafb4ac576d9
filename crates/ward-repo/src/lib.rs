//! ward's view of a repository tree.
//!
//! [`discover`] walks a repository, finds every directory holding Terraform/OpenTofu files
//! (`.tf`, `.tf.json`, `.tofu`, `.tofu.json`, override files included), parses each file with a
//! real parser (`hcl-edit` for native syntax, `serde_json` for JSON syntax) and builds a
//! [`Repo`]: the roots and modules, what each declares (versions, providers, backend, module
//! calls, resources with their `prevent_destroy`, `terraform_remote_state` reads), the state
//! files lying in the tree, the text files to scan for key material, the Ansible version pins,
//! and the `ward.hcl` it is given (read by ward-config). Files that cannot be parsed are recorded
//! as [`FileProblem`]s with their line; discovery itself fails only when the tree or the
//! configuration cannot be read at all.
//!
//! A symlinked file is read through the link, as Terraform reads it, when its target is inside
//! the repository; a link that is broken, loops, or leads outside is a [`FileProblem`] (when it
//! has a name discovery reads). Symlinked directories are not entered.
//!
//! # Roots and modules
//!
//! A directory is a **root** when something says it is applied there ([`ROOT_SIGNALS`], every
//! one of them): a `backend` or `cloud` block, a provider configuration (`provider "x" { ... }`),
//! a state file beside it (`terraform.tfstate`), a `terraform.tfvars` or `*.auto.tfvars` beside
//! it, a Terragrunt unit (`terragrunt.hcl`, see [`terragrunt`]), or a `root` block in `ward.hcl`;
//! and no other directory in the repository calls it as a module by a local path
//! (`source = "../x"`). A declared root is a root even when called. Every other directory with
//! Terraform files is a **module** ([`Module::callers`] says who calls it; none for a published,
//! standalone module).
//!
//! # Live and module repositories
//!
//! A repository is a **module repository** ([`RepoKind::Module`]) when a top-level `examples`,
//! `example`, `tests` or `test` directory holds Terraform files, `ward.hcl` declares no roots,
//! and either its top directory holds Terraform files and is a module (no signal above: one
//! reusable module at the top, with `examples/`, `tests/` and `modules/` below), or it is a
//! collection of modules whose only roots lie under those directories (`modules/x` called by
//! `examples/x`). There, the
//! would-be roots under a directory named `examples`, `example`, `tests` or `test` are
//! [`ModuleKind::Example`]: checked for pins and versions, never as production roots. Every other
//! repository is a **live repository** ([`RepoKind::Live`]).
//!
//! # Layouts
//!
//! Some directories are not what their blocks alone say ([`layout`]): an atmos component
//! (under `atmos.yaml`'s `components.terraform.base_path`, or named as a local component source
//! by a stack) and a mixins directory are modules even when they configure a provider; a
//! Terragrunt stack (`terragrunt.stack.hcl`, [`stack`]) adds one unit (a root) per `unit` block,
//! at the directory Terragrunt generates it (`.terragrunt-stack/PATH`, never entered: the stack
//! file is read instead); template directories (`.boilerplate`, `{{cookiecutter.x}}`) are not
//! entered, and a file that does not parse and holds `{{ … }}` is a template, both listed in
//! [`Repo::templates`]; a module whose files say they were rendered from a template records it
//! ([`Module::generated_from`]).
//!
//! # Excluded paths
//!
//! [`Options::exclude`] (`ward check` passes `check { exclude }` from `ward.hcl` and
//! `--exclude`) name paths discovery does not enter: an excluded directory is not read at all, and [`Repo::excluded`] lists what was left
//! out and why.
//!
//! # File precedence
//!
//! As in OpenTofu, `name.tofu` hides `name.tf` (and `name.tofu.json` hides `name.tf.json`) in the
//! same directory. Override files (`override.tf`, `*_override.tf`, any extension above) are read
//! after the others, and their `backend` replaces the directory's.

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod ansible;
pub mod layout;
pub mod playbook;
mod rewrite;
pub mod source;
pub mod stack;
pub mod terragrunt;
mod tree;
pub mod write;

pub use ansible::{PinKind, VersionPin};
pub use rewrite::rewrite_local_sources;
pub use source::{ModuleSource, RefKind, SourceKind};
pub use terragrunt::{Dependency, Unit};
pub use tree::Val;
/// `ward.hcl`, as ward-config reads it (the one parser); re-exported under the names this crate
/// has always used.
pub use ward_config::{Config as WardConfig, ConfigError};

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use tree::{Node, ParseFailure};

/// A place in a file: repository-relative path (`/`-separated) and 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Loc {
    /// Repository-relative file path.
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
}

/// A file that could not be read or parsed.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct FileProblem {
    /// Where.
    pub loc: Loc,
    /// 1-based column, when known.
    pub column: usize,
    /// The parser's message.
    pub message: String,
}

/// Root or module (see the crate documentation for the rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModuleKind {
    /// A root: something is applied here.
    Root,
    /// A module: called by roots (or published for others to call).
    Module,
    /// In a module repository, a directory under `examples/` or `tests/` that would otherwise
    /// be a root: it shows how the module is called and is checked for pins and versions, but
    /// nothing is applied from it for real (no lock-file, backend or protection rules).
    Example,
}

impl ModuleKind {
    /// `root`, `module` or `example`.
    pub fn as_str(self) -> &'static str {
        match self {
            ModuleKind::Root => "root",
            ModuleKind::Module => "module",
            ModuleKind::Example => "example",
        }
    }
}

/// A live repository (roots applied from it) or a module repository (one reusable module at
/// the top); see the crate documentation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RepoKind {
    /// Roots are applied from it.
    #[default]
    Live,
    /// A reusable module at the top, with examples and tests.
    Module,
}

impl RepoKind {
    /// `live` or `module`.
    pub fn as_str(self) -> &'static str {
        match self {
            RepoKind::Live => "live",
            RepoKind::Module => "module",
        }
    }
}

/// The signals that make a directory a root (each also needs the directory not to be called
/// as a module, unless it is declared), in the words reports use.
pub const ROOT_SIGNALS: &[&str] = &[
    "declared in ward.hcl",
    "backend or cloud block",
    "provider configuration",
    "state file beside it (terraform.tfstate)",
    "terraform.tfvars or *.auto.tfvars beside it",
    "Terragrunt unit (terragrunt.hcl, or a unit block of terragrunt.stack.hcl)",
];

/// A path discovery did not enter, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Excluded {
    /// Repository-relative path (a directory or a file).
    pub path: String,
    /// The pattern that covers it.
    pub pattern: String,
    /// Why (the exclusion's reason).
    pub reason: String,
}

/// One `required_providers` entry (or a legacy `version` in a provider block).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderRequirement {
    /// Local name, e.g. `aws`.
    pub name: String,
    /// `source`, when given.
    pub source: Option<String>,
    /// The version constraint, when given.
    pub version: Option<String>,
    /// Where.
    pub loc: Loc,
}

/// A `backend` block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Backend {
    /// Backend type, e.g. `s3`, `local`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its arguments.
    pub config: Vec<(String, Val)>,
    /// Where.
    pub loc: Loc,
}

impl Backend {
    /// A literal string argument.
    pub fn get_str(&self, key: &str) -> Option<&str> {
        self.config
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_str())
    }
}

/// A `provider` configuration block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProviderConfig {
    /// Local name, e.g. `aws`.
    pub name: String,
    /// `alias`, when given.
    pub alias: Option<String>,
    /// References its arguments make (`aws_instance.web`, `var.region`, `module.x`...).
    pub refs: Vec<String>,
    /// A legacy `version` argument.
    pub version: Option<String>,
    /// Whether it has a `for_each` argument (an OpenTofu-only feature).
    pub for_each: bool,
    /// Where.
    pub loc: Loc,
}

/// A `module` call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModuleCall {
    /// The call's name.
    pub name: String,
    /// `source`, parsed; `None` when it is not a literal string.
    pub source: Option<ModuleSource>,
    /// `version`, when given as a literal string.
    pub version: Option<String>,
    /// Where the `source` argument is (the block when missing).
    pub loc: Loc,
}

/// A `resource`, `data` or `ephemeral` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resource {
    /// `resource`, `data` or `ephemeral`.
    pub mode: String,
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Resource name.
    pub name: String,
    /// `lifecycle { prevent_destroy = ... }`: `None` when absent, `Some(false)` for a literal
    /// `false` (or `null`, or the string `"false"`), `Some(true)` for anything else. Terraform accepts only
    /// literals here, so reading any other expression as protecting is the safe reading. An
    /// override file's `prevent_destroy` replaces the original's.
    pub prevent_destroy: Option<bool>,
    /// `lifecycle { ignore_changes = [...] }`: each entry as written (`tags`, `tags["env"]`,
    /// `all`), in order; empty when absent. An override file's list replaces the original's.
    pub ignore_changes: Vec<String>,
    /// Where.
    pub loc: Loc,
}

/// A `data "terraform_remote_state"` block.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RemoteState {
    /// The data source's name.
    pub name: String,
    /// `backend`, when a literal.
    pub backend: Option<String>,
    /// `config`.
    pub config: Option<Val>,
    /// Where.
    pub loc: Loc,
}

/// One directory with Terraform/OpenTofu files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Module {
    /// Repository-relative directory (`.` for the repository root).
    pub dir: String,
    /// Root or module.
    pub kind: ModuleKind,
    /// Why it was classified so, in words.
    pub reasons: Vec<String>,
    /// The files read, repository-relative, sorted (hidden `.tf` files excluded).
    pub files: Vec<String>,
    /// Whether `.terraform.lock.hcl` is present.
    pub lock_file: bool,
    /// Every `required_version`, with where it is (a non-literal is kept as written).
    pub required_version: Vec<(String, Loc)>,
    /// `required_providers` entries and legacy provider `version`s.
    pub required_providers: Vec<ProviderRequirement>,
    /// The backend (after override files).
    pub backend: Option<Backend>,
    /// The `cloud` block, when present.
    pub cloud: Option<Loc>,
    /// The `encryption` block in `terraform` (an OpenTofu-only feature), when present.
    pub encryption: Option<Loc>,
    /// The provider addresses recorded in `.terraform.lock.hcl` (`registry.terraform.io/hashicorp/aws`),
    /// sorted; empty without a lock file or when it cannot be parsed.
    pub lock_providers: Vec<String>,
    /// Provider configuration blocks.
    pub provider_configs: Vec<ProviderConfig>,
    /// Module calls.
    pub module_calls: Vec<ModuleCall>,
    /// Resources, data sources and ephemeral resources.
    pub resources: Vec<Resource>,
    /// `terraform_remote_state` reads.
    pub remote_states: Vec<RemoteState>,
    /// `import` blocks (Terraform/OpenTofu 1.5+, as `ward import plan` writes them): the root is
    /// being adopted.
    pub imports: Vec<Loc>,
    /// Directories that call this one by a local path, sorted.
    pub callers: Vec<String>,
    /// The Terragrunt unit in this directory, when there is one.
    pub terragrunt: Option<Unit>,
    /// The template directory its files say they were rendered from (`autogen/main`, see
    /// [`layout::generated_from`]), when they say so.
    pub generated_from: Option<String>,
}

impl Module {
    fn new(dir: String) -> Module {
        Module {
            dir,
            kind: ModuleKind::Module,
            reasons: Vec::new(),
            files: Vec::new(),
            lock_file: false,
            required_version: Vec::new(),
            required_providers: Vec::new(),
            backend: None,
            cloud: None,
            encryption: None,
            lock_providers: Vec::new(),
            provider_configs: Vec::new(),
            module_calls: Vec::new(),
            resources: Vec::new(),
            remote_states: Vec::new(),
            imports: Vec::new(),
            callers: Vec::new(),
            terragrunt: None,
            generated_from: None,
        }
    }

    /// The `.tofu` and `.tofu.json` files read (repository-relative), sorted.
    pub fn tofu_files(&self) -> impl Iterator<Item = &str> {
        self.files
            .iter()
            .map(String::as_str)
            .filter(|f| f.ends_with(".tofu") || f.ends_with(".tofu.json"))
    }
}

/// What kind of text file a [`TextFile`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TextKind {
    /// A configuration file (`.tf`, `.tofu`, `.tf.json`...).
    Config,
    /// A variables file (`.tfvars`, `.tfvars.json`).
    Vars,
    /// A template (`.tftpl`, `.tpl`, `.tmpl`, or any file under a `templates/` directory).
    Template,
}

/// A file whose text other checks read (key material scanning).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct TextFile {
    /// Repository-relative path.
    pub path: String,
    /// Kind.
    pub kind: TextKind,
}

/// Everything discovered in a repository.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repo {
    /// The repository root as given.
    pub root: PathBuf,
    /// `ward.hcl`, when found or given.
    pub config: Option<WardConfig>,
    /// Every directory with Terraform files, sorted by directory.
    pub modules: Vec<Module>,
    /// Files that could not be read or parsed, sorted.
    pub problems: Vec<FileProblem>,
    /// `*.tfstate` / `*.tfstate.backup` files lying in the tree (ignored ones included), sorted.
    pub state_files: Vec<String>,
    /// State files tracked by git; `None` when the tree is not a git work tree or git could not
    /// be run.
    pub tracked_state_files: Option<Vec<String>>,
    /// Text files to scan for key material, sorted.
    pub text_files: Vec<TextFile>,
    /// Ansible version pins, sorted.
    pub pins: Vec<VersionPin>,
    /// Ansible playbooks and task files, sorted by file ([`playbook`]).
    pub playbooks: Vec<playbook::Playbook>,
    /// Scripts, Makefiles and CI files (command lines other rules read), sorted.
    pub command_files: Vec<String>,
    /// `.tf` files hidden by a `.tofu` file of the same name: (hidden, winner).
    pub shadowed: Vec<(String, String)>,
    /// How many files were read and parsed.
    pub files_parsed: usize,
    /// Live or module repository.
    pub kind: RepoKind,
    /// Paths not entered because an exclusion covers them, sorted.
    pub excluded: Vec<Excluded>,
    /// Template directories not entered and template files not parsed ([`layout`]), sorted.
    pub templates: Vec<layout::Template>,
}

impl Repo {
    /// The module at a directory.
    pub fn module(&self, dir: &str) -> Option<&Module> {
        self.modules
            .binary_search_by(|m| m.dir.as_str().cmp(dir))
            .ok()
            .and_then(|i| self.modules.get(i))
    }

    /// The roots, sorted (examples of a module repository are not roots).
    pub fn roots(&self) -> impl Iterator<Item = &Module> {
        self.modules.iter().filter(|m| m.kind == ModuleKind::Root)
    }

    /// The roots and the examples of a module repository: every directory something is
    /// applied from, for real or to show how, sorted.
    pub fn applied(&self) -> impl Iterator<Item = &Module> {
        self.modules
            .iter()
            .filter(|m| matches!(m.kind, ModuleKind::Root | ModuleKind::Example))
    }
}

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
    /// `ward.hcl` could not be parsed.
    #[error("{0}")]
    Config(#[from] ConfigError),
}

/// Options for [`discover`].
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The `ward.hcl` in use, already read ([`ward_config::discover`] finds it); `None` when
    /// there is none.
    pub config: Option<WardConfig>,
    /// Paths not to enter, each with its reason (`ward check` passes `check { exclude }` and
    /// `--exclude`; other commands have their own exclusions).
    pub exclude: Vec<ward_config::Exclude>,
}

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

/// True for a directory a walk of the repository never enters ([`SKIPPED_DIRS`]): the one
/// `filter_entry` of every walk (`.filter_entry(|e| !ward_repo::is_skipped_dir(e))`).
pub fn is_skipped_dir(entry: &ignore::DirEntry) -> bool {
    entry.file_type().is_some_and(|t| t.is_dir())
        && SKIPPED_DIRS.contains(&entry.file_name().to_string_lossy().as_ref())
}

/// True for the file names Terraform or OpenTofu read as configuration: `.tf`, `.tf.json`,
/// `.tofu`, `.tofu.json`.
pub fn is_config_file(name: &str) -> bool {
    name.ends_with(".tf")
        || name.ends_with(".tofu")
        || name.ends_with(".tf.json")
        || name.ends_with(".tofu.json")
}

fn is_override(name: &str) -> bool {
    let stem = name
        .trim_end_matches(".json")
        .trim_end_matches(".tf")
        .trim_end_matches(".tofu");
    stem == "override" || stem.ends_with("_override")
}

/// `a.tofu` → `a.tf`, `a.tofu.json` → `a.tf.json`.
fn shadowed_name(name: &str) -> Option<String> {
    if let Some(s) = name.strip_suffix(".tofu") {
        Some(format!("{s}.tf"))
    } else {
        name.strip_suffix(".tofu.json")
            .map(|s| format!("{s}.tf.json"))
    }
}

/// Joins a directory and a relative path lexically, `/`-separated; `None` when it leaves the
/// repository.
pub fn join_rel(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = if dir == "." {
        Vec::new()
    } else {
        dir.split('/').collect()
    };
    for p in rel.split(['/', '\\']) {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            x => parts.push(x),
        }
    }
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
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

/// A YAML file that does not parse, as a problem of the tree.
fn yaml_problem(file: String, e: ansible::YamlProblem) -> FileProblem {
    FileProblem {
        loc: Loc { file, line: e.line },
        column: 0,
        message: format!("not valid YAML: {}", e.message),
    }
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

fn is_state(name: &str) -> bool {
    name.ends_with(".tfstate") || name.ends_with(".tfstate.backup")
}

fn is_vars(name: &str) -> bool {
    name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
}

fn is_template(rel: &str, name: &str) -> bool {
    name.ends_with(".tftpl")
        || name.ends_with(".tpl")
        || name.ends_with(".tmpl")
        || rel.split('/').rev().skip(1).any(|d| d == "templates")
}

/// The directory names of a module repository's examples and tests.
pub const EXAMPLE_DIRS: &[&str] = &["examples", "example", "tests", "test"];

fn is_example_name(c: &str) -> bool {
    EXAMPLE_DIRS.contains(&c)
}

/// Whether a repository-relative path lies under an `examples`, `example`, `tests` or `test`
/// directory (in a module repository: what shows or tests the module, see [`RepoKind::Module`]).
pub fn is_example_dir(dir: &str) -> bool {
    dir.split('/').any(is_example_name)
}

/// The directory names a repository keeps code in that it no longer maintains (`deprecated/`,
/// as the cloudposse components monorepo does): checked, but not live.
pub const DEPRECATED_DIRS: &[&str] = &["deprecated"];

/// Whether a repository-relative path lies under a [`DEPRECATED_DIRS`] directory.
pub fn is_deprecated_dir(dir: &str) -> bool {
    dir.split('/').any(|c| DEPRECATED_DIRS.contains(&c))
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

    // 1. Walk.
    let root_canon = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let mut tf_by_dir: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut lock_dirs: BTreeSet<String> = BTreeSet::new();
    let mut state_files = Vec::new();
    let mut text_files = Vec::new();
    let mut ansible_files = Vec::new();
    let mut playbook_files: Vec<String> = Vec::new();
    let mut command_files: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    let mut tg_files = Vec::new();
    // Exclusions (`ward check` passes `check { exclude }` and `--exclude`): an excluded path is
    // not entered, and recorded.
    let excludes: Vec<ward_config::Exclude> = opts.exclude.clone();
    let excluded = std::sync::Arc::new(std::sync::Mutex::new(Vec::<Excluded>::new()));
    // Template directories (`layout::TEMPLATE_DIRS`): not entered, listed.
    let templates = std::sync::Arc::new(std::sync::Mutex::new(Vec::<layout::Template>::new()));
    let mut atmos_files: Vec<String> = Vec::new();
    let mut yaml_files: Vec<String> = Vec::new();
    let mut stack_files: Vec<String> = Vec::new();
    let walker = {
        let excluded = std::sync::Arc::clone(&excluded);
        let templates = std::sync::Arc::clone(&templates);
        let top = root.to_path_buf();
        ignore::WalkBuilder::new(root)
            .standard_filters(false)
            .follow_links(false)
            .filter_entry(move |e| {
                if is_skipped_dir(e) {
                    return false;
                }
                let Some(rel) = e.path().strip_prefix(&top).ok().map(rel_string) else {
                    return true;
                };
                if rel.is_empty() {
                    return true;
                }
                if e.file_type().is_some_and(|t| t.is_dir()) {
                    if let Some(what) = layout::template_dir(&e.file_name().to_string_lossy()) {
                        if let Ok(mut v) = templates.lock() {
                            v.push(layout::Template {
                                path: rel,
                                what: what.to_string(),
                            });
                        }
                        return false;
                    }
                }
                match excludes.iter().find(|x| x.covers(&rel)) {
                    Some(x) => {
                        if let Ok(mut v) = excluded.lock() {
                            v.push(Excluded {
                                path: rel,
                                pattern: x.pattern.clone(),
                                reason: x.reason.clone(),
                            });
                        }
                        false
                    }
                    None => true,
                }
            })
            .build()
    };
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                problems.push(FileProblem {
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
        let is_link = entry.file_type().is_some_and(|t| t.is_symlink());
        if !is_link && !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(root) else {
            continue;
        };
        let rel = rel_string(rel);
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
                        problems.push(FileProblem {
                            loc: Loc { file: rel, line: 0 },
                            column: 0,
                            message: why,
                        });
                    }
                    continue;
                }
            }
        }
        if name == layout::ATMOS_CONFIG {
            atmos_files.push(rel.clone());
        }
        if name.ends_with(".yaml") || name.ends_with(".yml") {
            yaml_files.push(rel.clone());
        }
        if name == stack::STACK_FILE {
            stack_files.push(rel.clone());
            text_files.push(TextFile {
                path: rel.clone(),
                kind: TextKind::Config,
            });
        }
        if name == terragrunt::UNIT_FILE {
            tg_files.push(rel.clone());
            text_files.push(TextFile {
                path: rel.clone(),
                kind: TextKind::Config,
            });
        }
        if is_config_file(&name) {
            tf_by_dir.entry(dir.clone()).or_default().push(name.clone());
            text_files.push(TextFile {
                path: rel.clone(),
                kind: TextKind::Config,
            });
        } else if name == ".terraform.lock.hcl" {
            lock_dirs.insert(dir.clone());
        } else if is_state(&name) {
            state_files.push(rel.clone());
        } else if is_vars(&name) {
            text_files.push(TextFile {
                path: rel.clone(),
                kind: TextKind::Vars,
            });
        } else if is_template(&rel, &name) {
            text_files.push(TextFile {
                path: rel.clone(),
                kind: TextKind::Template,
            });
        }
        if playbook::is_candidate(&rel) {
            playbook_files.push(rel.clone());
        }
        if is_command_file(&rel, &name) {
            command_files.push(rel.clone());
        }
        if let Some(k) = ansible::ansible_kind(&rel) {
            ansible_files.push((rel, k));
        }
    }

    // 2. Configuration: read by the caller.
    let config = opts.config.clone();

    // 3. Parse every directory, in parallel (one chunk of directories per core).
    let dirs: Vec<(String, Vec<String>)> = tf_by_dir.into_iter().collect();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8);
    let chunk = dirs.len().div_ceil(threads).max(1);
    let parsed: Vec<Parsed> = std::thread::scope(|s| {
        let handles: Vec<_> = dirs
            .chunks(chunk)
            .map(|part| {
                let lock_dirs = &lock_dirs;
                s.spawn(move || {
                    part.iter()
                        .map(|(dir, names)| parse_dir(root, dir, names.clone(), lock_dirs))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let mut shadowed = Vec::new();
    let mut modules = Vec::new();
    let mut files_parsed = 0;
    let mut template_files = Vec::new();
    for p in parsed {
        shadowed.extend(p.shadowed);
        problems.extend(p.problems);
        template_files.extend(p.templates);
        files_parsed += p.files_parsed;
        modules.push(p.module);
    }
    if modules.len() != dirs.len() {
        problems.push(FileProblem {
            loc: Loc {
                file: ".".to_string(),
                line: 0,
            },
            column: 0,
            message: format!(
                "internal error: {} of {} directories were parsed",
                modules.len(),
                dirs.len()
            ),
        });
    }
    // A directory whose every file is a template holds no configuration.
    modules.retain(|m| {
        !m.files.is_empty()
            || !template_files
                .iter()
                .any(|t| t.path.rsplit_once('/').map_or(".", |(d, _)| d) == m.dir)
    });

    // 3b. Terragrunt units: a `terragrunt.hcl` that no other one includes.
    let mut units = Vec::new();
    for rel in &tg_files {
        files_parsed += 1;
        match terragrunt::read_unit(root, rel) {
            Ok((unit, p)) => {
                problems.extend(p);
                units.push(unit);
            }
            Err(p) => {
                let templated = std::fs::read_to_string(root.join(rel))
                    .is_ok_and(|t| layout::is_template_text(&t));
                if templated {
                    template_files.push(layout::Template {
                        path: rel.clone(),
                        what: "a template file ({{ … }} expressions: not HCL until rendered)"
                            .to_string(),
                    });
                } else {
                    problems.push(p);
                }
            }
        }
    }
    let included: BTreeSet<String> = units
        .iter()
        .flat_map(|u| u.includes.iter().cloned())
        .collect();
    files_parsed += included.iter().filter(|f| !tg_files.contains(f)).count();
    problems.sort();
    problems.dedup();
    for unit in units {
        if included.contains(&unit.file) {
            continue;
        }
        let dir = match unit.file.rsplit_once('/') {
            Some((d, _)) => d.to_string(),
            None => ".".to_string(),
        };
        let i = match modules.binary_search_by(|m| m.dir.as_str().cmp(dir.as_str())) {
            Ok(i) => i,
            Err(i) => {
                let mut m = Module::new(dir.clone());
                m.lock_file = lock_dirs.contains(&dir);
                if m.lock_file {
                    m.lock_providers = lock_providers_in(root, &dir);
                }
                modules.insert(i, m);
                i
            }
        };
        let Some(m) = modules.get_mut(i) else {
            continue;
        };
        absorb_unit(m, unit);
    }
    // 3c. Terragrunt stacks: one unit per `unit` block, where Terragrunt would generate it.
    for rel in &stack_files {
        files_parsed += 1;
        let generated = match stack::read_stack(root, rel) {
            Ok((g, p)) => {
                problems.extend(p);
                g
            }
            Err(p) => {
                problems.push(p);
                continue;
            }
        };
        for g in generated {
            let catalog = g.local.as_ref().map(|l| {
                if l == "." {
                    terragrunt::UNIT_FILE.to_string()
                } else {
                    format!("{l}/{}", terragrunt::UNIT_FILE)
                }
            });
            let catalog = catalog.filter(|c| root.join(c).is_file());
            if g.entry == stack::Entry::Stack && g.local.is_some() {
                continue;
            }
            let i = match modules.binary_search_by(|m| m.dir.as_str().cmp(g.dir.as_str())) {
                Ok(i) => i,
                Err(i) => {
                    modules.insert(i, Module::new(g.dir.clone()));
                    i
                }
            };
            let Some(m) = modules.get_mut(i) else {
                continue;
            };
            if !m.files.contains(&g.stack_file) {
                m.files.push(g.stack_file.clone());
            }
            if let Some(c) = g.source.clone() {
                m.module_calls.push(c);
            }
            if g.entry == stack::Entry::Stack {
                m.files.sort();
                continue;
            }
            if let Some(l) = &g.local {
                m.lock_file = lock_dirs.contains(l);
                if m.lock_file {
                    m.lock_providers = lock_providers_in(root, l);
                }
            }
            let mut unit = match &catalog {
                Some(c) => match terragrunt::read_unit_at(root, c, &g.dir, &g.values) {
                    Ok((mut unit, p)) => {
                        problems.extend(p);
                        unit.stack = Some(g.loc.clone());
                        unit
                    }
                    Err(p) => {
                        problems.push(p);
                        continue;
                    }
                },
                None => terragrunt::Unit::from_stack(
                    &g.loc,
                    format!(
                        "unit \"{}\" of {}: its source {} is not in the repository, so its terragrunt.hcl is not read",
                        g.name,
                        g.stack_file,
                        g.source
                            .as_ref()
                            .and_then(|c| c.source.as_ref())
                            .map_or("(not a literal)", |s| s.raw.as_str())
                    ),
                ),
            };
            unit.values = g.values.into_iter().collect();
            absorb_unit(m, unit);
        }
    }
    problems.sort();
    problems.dedup();

    for f in &included {
        if !text_files.iter().any(|t| &t.path == f) {
            text_files.push(TextFile {
                path: f.clone(),
                kind: TextKind::Config,
            });
        }
    }

    // 4. Callers and kinds.
    let dirs: BTreeSet<String> = modules.iter().map(|m| m.dir.clone()).collect();
    let mut callers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in &modules {
        for c in &m.module_calls {
            if let Some(ModuleSource {
                kind: SourceKind::Local { path },
                ..
            }) = &c.source
            {
                if let Some(target) = join_rel(&m.dir, path) {
                    if dirs.contains(&target) && target != m.dir {
                        callers.entry(target).or_default().insert(m.dir.clone());
                    }
                }
            }
        }
    }
    let declared: BTreeSet<String> = config
        .as_ref()
        .map(|c| c.roots.iter().map(|r| r.path.clone()).collect())
        .unwrap_or_default();
    for m in &mut modules {
        m.callers = callers
            .remove(&m.dir)
            .map(|s| s.into_iter().collect())
            .unwrap_or_default();
        let mut why = Vec::new();
        if declared.contains(&m.dir) {
            why.push("declared in ward.hcl".to_string());
        }
        if let Some(b) = &m.backend {
            why.push(format!("backend \"{}\"", b.kind));
        }
        if m.cloud.is_some() {
            why.push("cloud block".to_string());
        }
        if let Some(p) = m.provider_configs.first() {
            why.push(format!("configures provider \"{}\"", p.name));
        }
        let beside = |name: &str| {
            if m.dir == "." {
                name.to_string()
            } else {
                format!("{}/{name}", m.dir)
            }
        };
        for st in ["terraform.tfstate", "terraform.tfstate.backup"] {
            if state_files.contains(&beside(st)) {
                why.push(format!("state file {st} beside it"));
                break;
            }
        }
        if let Some(v) = text_files.iter().find(|t| {
            t.kind == TextKind::Vars
                && t.path.rsplit_once('/').map_or(".", |(d, _)| d) == m.dir
                && t.path.rsplit('/').next().is_some_and(|n| {
                    n == "terraform.tfvars"
                        || n == "terraform.tfvars.json"
                        || n.ends_with(".auto.tfvars")
                        || n.ends_with(".auto.tfvars.json")
                })
        }) {
            let name = v.path.rsplit('/').next().unwrap_or("");
            why.push(format!("{name} beside it"));
        }
        match m.terragrunt.as_ref().and_then(|u| u.stack.as_ref()) {
            Some(block) => why.push(format!(
                "Terragrunt unit generated by {}:{}",
                block.file, block.line
            )),
            None if m.terragrunt.is_some() => {
                why.push("Terragrunt unit (terragrunt.hcl)".to_string())
            }
            None => {}
        }
        let is_declared = declared.contains(&m.dir);
        if is_declared || (!why.is_empty() && m.callers.is_empty()) {
            m.kind = ModuleKind::Root;
            m.reasons = why;
        } else {
            m.kind = ModuleKind::Module;
            m.reasons = if m.callers.is_empty() {
                vec![
                    "no backend, cloud block, provider configuration, state, terraform.tfvars or terragrunt.hcl, and not declared"
                        .to_string(),
                ]
            } else {
                vec![format!("called by {}", m.callers.join(", "))]
            };
        }
    }

    // 4a. Layouts: atmos components and mixins are not roots (see `layout`).
    let mut components: Vec<(String, String)> = Vec::new();
    // Directories the atmos manifests name as local component sources → where.
    let mut sourced: BTreeMap<String, String> = BTreeMap::new();
    // Component paths atmos vendoring manifests pull from a library (path in its repository, where).
    let mut vendored: Vec<(String, String)> = Vec::new();
    for f in &atmos_files {
        let Ok(text) = std::fs::read_to_string(root.join(f)) else {
            continue;
        };
        let at = f.rsplit_once('/').map_or(".", |(d, _)| d);
        if let Some(c) = layout::atmos_components(&text).and_then(|c| join_rel(at, &c)) {
            components.push((c, f.clone()));
        }
        let under = |y: &&String| at == "." || y.starts_with(&format!("{at}/"));
        for y in yaml_files.iter().filter(under) {
            let Ok(text) = std::fs::read_to_string(root.join(y)) else {
                continue;
            };
            for (src, line) in layout::atmos_local_sources(&text) {
                if let Some(d) = join_rel(at, &src) {
                    sourced.entry(d).or_insert_with(|| format!("{y}:{line}"));
                }
            }
            for (path, line) in layout::atmos_vendored_components(&text) {
                vendored.push((path, format!("{y}:{line}")));
            }
        }
    }
    for m in &mut modules {
        if m.kind != ModuleKind::Root || declared.contains(&m.dir) {
            continue;
        }
        let component = components.iter().find(|(c, _)| {
            m.dir
                .strip_prefix(c.as_str())
                .is_some_and(|r| r.starts_with('/'))
        });
        let vendored_from = vendored
            .iter()
            .find(|(p, _)| layout::is_vendored_component(&m.dir, p));
        if let Some(at) = sourced.get(&m.dir) {
            m.kind = ModuleKind::Module;
            m.reasons = vec![format!(
                "an atmos component source (named at {at}): the stacks instantiate it"
            )];
        } else if let Some((path, at)) = vendored_from {
            m.kind = ModuleKind::Module;
            m.reasons = vec![format!(
                "an atmos component library: vendored as a component from {path} (at {at}), not applied here"
            )];
        } else if let Some((c, cfg)) = component {
            m.kind = ModuleKind::Module;
            m.reasons = vec![format!(
                "an atmos component ({c}/, named by {cfg}): the stacks instantiate it and atmos generates its backend and variables"
            )];
        } else if layout::is_mixin_dir(&m.dir, &m.files) {
            m.kind = ModuleKind::Module;
            m.reasons = vec![
                "mixins (a mixins directory or *.mixin.tf files): copied into components, not applied on their own"
                    .to_string(),
            ];
        }
    }

    // 4b. Live or module repository; a module repository's examples and tests.
    let top_examples = modules
        .iter()
        .any(|m| m.dir.split('/').next().is_some_and(is_example_name));
    // One module at the top, or a collection of modules whose only roots are their examples
    // (`modules/x` called by `examples/x`).
    let only_example_roots = modules
        .iter()
        .any(|m| m.kind == ModuleKind::Module && !is_example_dir(&m.dir))
        && !modules
            .iter()
            .any(|m| m.kind == ModuleKind::Root && !is_example_dir(&m.dir));
    let top_module = modules
        .first()
        .is_some_and(|top| top.dir == "." && top.kind == ModuleKind::Module);
    let kind = if declared.is_empty() && top_examples && (top_module || only_example_roots) {
        RepoKind::Module
    } else {
        RepoKind::Live
    };
    if kind == RepoKind::Module {
        for m in &mut modules {
            if m.kind == ModuleKind::Root && is_example_dir(&m.dir) {
                m.kind = ModuleKind::Example;
                m.reasons.insert(
                    0,
                    "an example or test of the module repository's top module".to_string(),
                );
            }
        }
    }

    // 5. State files tracked by git.
    let tracked_state_files = git_tracked_state(root);

    // 6. Ansible pins.
    let mut pins = Vec::new();
    for (rel, kind) in ansible_files {
        match std::fs::read_to_string(root.join(&rel)) {
            Ok(text) => match ansible::read_pins(kind, &text, &rel) {
                Ok(p) => pins.extend(p),
                Err(e) => problems.push(yaml_problem(rel, e)),
            },
            Err(e) => problems.push(FileProblem {
                loc: Loc { file: rel, line: 0 },
                column: 0,
                message: format!("cannot read: {e}"),
            }),
        }
    }

    // 7. Ansible plays and tasks.
    let mut playbooks = Vec::new();
    for rel in playbook_files {
        match std::fs::read_to_string(root.join(&rel)) {
            Ok(text) => match playbook::read_playbook(&text, &rel) {
                Ok(Some(p)) => playbooks.push(p),
                Ok(None) => {}
                Err(e) => problems.push(yaml_problem(rel, e)),
            },
            Err(e) if playbook::is_task_file(&rel) => problems.push(FileProblem {
                loc: Loc { file: rel, line: 0 },
                column: 0,
                message: format!("cannot read: {e}"),
            }),
            Err(_) => {}
        }
    }

    problems.sort();
    state_files.sort();
    text_files.sort();
    pins.sort();
    playbooks.sort();
    command_files.sort();
    shadowed.sort();
    Ok(Repo {
        root: root.to_path_buf(),
        config,
        modules,
        problems,
        state_files,
        tracked_state_files,
        text_files,
        pins,
        playbooks,
        command_files,
        shadowed,
        files_parsed,
        kind,
        excluded: {
            let mut v = excluded.lock().map(|v| v.clone()).unwrap_or_default();
            v.sort();
            v
        },
        templates: {
            let mut v = templates.lock().map(|v| v.clone()).unwrap_or_default();
            v.extend(template_files);
            v.sort();
            v.dedup();
            v
        },
    })
}

/// A relative path's components joined with `/` (how ward names paths inside a repository, on
/// every platform).
pub fn rel_string(rel: &Path) -> String {
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// One directory, parsed.
struct Parsed {
    module: Module,
    problems: Vec<FileProblem>,
    templates: Vec<layout::Template>,
    shadowed: Vec<(String, String)>,
    files_parsed: usize,
}

fn parse_dir(
    root: &Path,
    dir: &str,
    mut names: Vec<String>,
    lock_dirs: &BTreeSet<String>,
) -> Parsed {
    let dir = dir.to_string();
    let mut problems = Vec::new();
    let mut templates = Vec::new();
    let mut shadowed = Vec::new();
    let mut files_parsed = 0;
    names.sort();
    let set: BTreeSet<String> = names.iter().cloned().collect();
    let hidden: BTreeSet<String> = names
        .iter()
        .filter_map(|n| shadowed_name(n))
        .filter(|h| set.contains(h))
        .collect();
    let rel = |n: &str| {
        if dir == "." {
            n.to_string()
        } else {
            format!("{dir}/{n}")
        }
    };
    for h in &hidden {
        let winner = if h.ends_with(".json") {
            format!("{}.tofu.json", h.trim_end_matches(".tf.json"))
        } else {
            format!("{}.tofu", h.trim_end_matches(".tf"))
        };
        shadowed.push((rel(h), rel(&winner)));
    }
    let mut ordered: Vec<&String> = names.iter().filter(|n| !hidden.contains(*n)).collect();
    ordered.sort_by_key(|n| (is_override(n), (*n).clone()));
    let mut m = Module::new(dir.clone());
    m.lock_file = lock_dirs.contains(&dir);
    if m.lock_file {
        m.lock_providers = lock_providers(&root.join(rel(".terraform.lock.hcl")));
    }
    for name in ordered {
        let path = rel(name);
        m.files.push(path.clone());
        files_parsed += 1;
        let text = match std::fs::read(root.join(&path)) {
            Ok(b) => match String::from_utf8(b) {
                Ok(t) => t,
                Err(_) => {
                    problems.push(FileProblem {
                        loc: Loc {
                            file: path,
                            line: 0,
                        },
                        column: 0,
                        message: "not UTF-8 text; Terraform reads only UTF-8".to_string(),
                    });
                    continue;
                }
            },
            Err(e) => {
                problems.push(FileProblem {
                    loc: Loc {
                        file: path,
                        line: 0,
                    },
                    column: 0,
                    message: format!("cannot read: {e}"),
                });
                continue;
            }
        };
        let parsed = if name.ends_with(".json") {
            tree::parse_json(&text)
        } else {
            tree::parse_hcl(&text)
        };
        match parsed {
            Ok(nodes) => {
                if m.generated_from.is_none() {
                    m.generated_from = layout::generated_from(&text);
                }
                absorb(&mut m, &nodes, &path, is_override(name))
            }
            Err(_) if layout::is_template_text(&text) => {
                m.files.retain(|f| f != &path);
                templates.push(layout::Template {
                    path,
                    what: "a template file ({{ … }} expressions: not HCL until rendered)"
                        .to_string(),
                });
            }
            Err(_) if layout::symlink_text(&text).is_some() => problems.push(FileProblem {
                loc: Loc {
                    file: path,
                    line: 1,
                },
                column: 0,
                message: format!(
                    "holds only the path \"{}\": a symlink checked out as a plain file (git's core.symlinks is false here, or a copy lost the link); Terraform cannot read it either: check the repository out with symlinks, or put the target's text in it",
                    layout::symlink_text(&text).unwrap_or_default()
                ),
            }),
            Err(ParseFailure {
                line,
                column,
                message,
            }) => problems.push(FileProblem {
                loc: Loc { file: path, line },
                column,
                message,
            }),
        }
    }
    m.files.sort();
    Parsed {
        module: m,
        problems,
        templates,
        shadowed,
        files_parsed,
    }
}

/// One directory read by [`read_module`].
#[derive(Debug, Clone, PartialEq)]
pub struct DirRead {
    /// The module, its files named relative to the directory (`main.tf`); its kind is not
    /// decided (that needs the whole repository) and stays [`ModuleKind::Module`].
    pub module: Module,
    /// Files that could not be read or parsed, sorted.
    pub problems: Vec<FileProblem>,
    /// `.tf` files hidden by a `.tofu` file of the same name: (hidden, winner).
    pub shadowed: Vec<(String, String)>,
}

/// Reads the configuration files of one directory (not its subdirectories) with the same
/// precedence as [`discover`] (`.tofu` hides `.tf`, override files last), for callers that need
/// one root or module rather than a repository: the gate's `prevent_destroy`, drift's binary
/// evidence. Files are read through symlinks, as Terraform does. Fails only when the directory
/// cannot be listed.
pub fn read_module(dir: &Path) -> Result<DirRead, RepoError> {
    let not_dir = |reason: String| RepoError::NotADirectory {
        path: dir.display().to_string(),
        reason,
    };
    let rd = std::fs::read_dir(dir).map_err(|e| not_dir(e.to_string()))?;
    let mut names = Vec::new();
    let mut lock = BTreeSet::new();
    for entry in rd {
        let entry = entry.map_err(|e| not_dir(e.to_string()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().is_file() {
            continue;
        }
        if is_config_file(&name) {
            names.push(name);
        } else if name == ".terraform.lock.hcl" {
            lock.insert(".".to_string());
        }
    }
    let p = parse_dir(dir, ".", names, &lock);
    let mut problems = p.problems;
    problems.sort();
    Ok(DirRead {
        module: p.module,
        problems,
        shadowed: p.shadowed,
    })
}

/// What a Terragrunt unit gives its directory's module: its backend and `required_version`
/// (unless the directory's own files set them), its source as a module call, its files.
fn absorb_unit(m: &mut Module, unit: Unit) {
    if m.backend.is_none() {
        m.backend = unit.backend.clone();
    }
    if m.required_version.is_empty() {
        if let Some(v) = &unit.version_constraint {
            m.required_version.push(v.clone());
        }
    }
    if let Some(c) = &unit.source {
        m.module_calls.push(c.clone());
    }
    for f in std::iter::once(&unit.file).chain(unit.includes.iter()) {
        if !m.files.contains(f) {
            m.files.push(f.clone());
        }
    }
    m.files.sort();
    m.terragrunt = Some(unit);
}

/// [`lock_providers`] of the lock file in the repository-relative directory `dir`.
fn lock_providers_in(root: &Path, dir: &str) -> Vec<String> {
    lock_providers(&root.join(if dir == "." {
        ".terraform.lock.hcl".to_string()
    } else {
        format!("{dir}/.terraform.lock.hcl")
    }))
}

/// The `provider` block labels of a lock file, sorted; empty when it cannot be read or parsed
/// (Terraform itself then refuses to init, which says why).
fn lock_providers(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(nodes) = tree::parse_hcl(&text) else {
        return Vec::new();
    };
    let mut out: Vec<String> = nodes
        .iter()
        .filter(|n| n.ident == "provider")
        .filter_map(|n| n.labels.first().cloned())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The entries of an `ignore_changes` value as written: `[tags, image]` gives `tags` and
/// `image`, `all` gives `all`, a (legacy) quoted string its text.
fn ignored_attributes(v: &Val) -> Vec<String> {
    let one = |v: &Val| match v {
        Val::Str(s) => Some(s.clone()),
        // An entry's text keeps the comments written before it (`# why\n name`): not part of it.
        Val::Expr { text, .. } => Some(
            text.lines()
                .map(|l| {
                    let cut = [l.find('#'), l.find("//")].into_iter().flatten().min();
                    cut.map_or(l, |i| l.get(..i).unwrap_or(l)).trim()
                })
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
        )
        .filter(|t| !t.is_empty()),
        Val::Null | Val::Bool(_) | Val::Number(_) | Val::List(_) | Val::Map(_) => None,
    };
    match v {
        Val::List(items) => items.iter().filter_map(one).collect(),
        other => one(other).into_iter().collect(),
    }
}

/// Parses one configuration file's text (native syntax, or JSON when `path` ends with `.json`)
/// into the [`Module`] of its directory, as discovery would; `Err` carries the parse error with
/// its line. `path` is repository-relative.
pub fn parse_file_text(path: &str, text: &str) -> Result<Module, FileProblem> {
    let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or(".");
    let name = path.rsplit('/').next().unwrap_or(path);
    let parsed = if name.ends_with(".json") {
        tree::parse_json(text)
    } else {
        tree::parse_hcl(text)
    };
    match parsed {
        Ok(nodes) => {
            let mut m = Module::new(dir.to_string());
            m.files.push(path.to_string());
            absorb(&mut m, &nodes, path, is_override(name));
            Ok(m)
        }
        Err(f) => Err(FileProblem {
            loc: Loc {
                file: path.to_string(),
                line: f.line,
            },
            column: f.column,
            message: f.message,
        }),
    }
}

/// How long each local `git` command of [`git_tracked_state`] may take.
const GIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The state files git tracks under `root`; `None` when `root` is not in a git work tree or git
/// cannot tell (not installed, timed out).
fn git_tracked_state(root: &Path) -> Option<Vec<String>> {
    let git = |args: &[&str]| {
        ward_exec::Command::new("git", GIT_TIMEOUT)
            .arg("-C")
            .arg(root)
            .args(args)
            .env("GIT_TERMINAL_PROMPT", "0")
            .run()
            .ok()
            .filter(ward_exec::Output::success)
    };
    git(&["rev-parse", "--is-inside-work-tree"])?;
    let out = git(&[
        "-c",
        "core.quotepath=off",
        "ls-files",
        "-z",
        "--",
        "*.tfstate",
        "*.tfstate.backup",
    ])?
    .require_whole()
    .ok()?;
    let mut v: Vec<String> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect();
    v.sort();
    Some(v)
}

fn lit(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::Number(n) => Some(n.clone()),
        _ => None,
    }
}

fn collect_refs(n: &Node, out: &mut Vec<String>) {
    for a in &n.attrs {
        out.extend(a.value.refs());
    }
    for b in &n.blocks {
        collect_refs(b, out);
    }
}

/// Adds one file's blocks to its directory's module.
fn absorb(m: &mut Module, nodes: &[Node], file: &str, is_override: bool) {
    let loc = |line: usize| Loc {
        file: file.to_string(),
        line,
    };
    for n in nodes {
        match (n.ident.as_str(), n.labels.as_slice()) {
            ("terraform", _) => {
                if let Some(a) = n.attr("required_version") {
                    let text = match &a.value {
                        Val::Str(s) => s.clone(),
                        Val::Expr { text, .. } => text.clone(),
                        other => format!("{other:?}"),
                    };
                    if is_override {
                        m.required_version.clear();
                    }
                    m.required_version.push((text, loc(a.line)));
                }
                for rp in n.blocks_named("required_providers") {
                    for a in &rp.attrs {
                        let (source, version) = match &a.value {
                            Val::Str(s) => (None, Some(s.clone())),
                            Val::Map(_) => (
                                a.value.get("source").and_then(lit),
                                a.value.get("version").and_then(|v| match v {
                                    Val::Str(s) => Some(s.clone()),
                                    Val::Expr { text, .. } => Some(text.clone()),
                                    _ => None,
                                }),
                            ),
                            _ => (None, None),
                        };
                        m.required_providers.push(ProviderRequirement {
                            name: a.key.clone(),
                            source,
                            version,
                            loc: loc(a.line),
                        });
                    }
                }
                for b in n.blocks_named("backend") {
                    m.backend = Some(Backend {
                        kind: b.labels.first().cloned().unwrap_or_default(),
                        config: b
                            .attrs
                            .iter()
                            .map(|a| (a.key.clone(), a.value.clone()))
                            .collect(),
                        loc: loc(b.line),
                    });
                }
                if let Some(c) = n.blocks_named("cloud").next() {
                    m.cloud = Some(loc(c.line));
                }
                if let Some(e) = n.blocks_named("encryption").next() {
                    m.encryption = Some(loc(e.line));
                }
            }
            ("provider", [name, ..]) => {
                let mut refs = Vec::new();
                collect_refs(n, &mut refs);
                refs.sort();
                refs.dedup();
                let version = n.attr("version").and_then(|a| lit(&a.value));
                if let Some(v) = &version {
                    m.required_providers.push(ProviderRequirement {
                        name: name.clone(),
                        source: None,
                        version: Some(v.clone()),
                        loc: loc(n.line),
                    });
                }
                m.provider_configs.push(ProviderConfig {
                    name: name.clone(),
                    alias: n.attr("alias").and_then(|a| lit(&a.value)),
                    refs,
                    version,
                    for_each: n.attr("for_each").is_some(),
                    loc: loc(n.line),
                });
            }
            ("import", _) => m.imports.push(loc(n.line)),
            ("module", [name, ..]) => {
                let src = n.attr("source");
                m.module_calls.push(ModuleCall {
                    name: name.clone(),
                    source: src.and_then(|a| a.value.as_str()).map(ModuleSource::parse),
                    version: n.attr("version").and_then(|a| lit(&a.value)),
                    loc: loc(src.map(|a| a.line).unwrap_or(n.line)),
                });
            }
            (mode @ ("resource" | "data" | "ephemeral"), [t, name, ..]) => {
                let prevent_destroy = n
                    .blocks_named("lifecycle")
                    .find_map(|l| l.attr("prevent_destroy"))
                    .map(|a| {
                        !matches!(&a.value, Val::Bool(false) | Val::Null)
                            && a.value.as_str() != Some("false")
                    });
                let ignore_changes: Option<Vec<String>> = n
                    .blocks_named("lifecycle")
                    .find_map(|l| l.attr("ignore_changes"))
                    .map(|a| ignored_attributes(&a.value));
                let mode = match mode {
                    "resource" => "managed",
                    other => other,
                };
                if mode == "data" && t == "terraform_remote_state" {
                    m.remote_states.push(RemoteState {
                        name: name.clone(),
                        backend: n.attr("backend").and_then(|a| lit(&a.value)),
                        config: n.attr("config").map(|a| a.value.clone()),
                        loc: loc(n.line),
                    });
                }
                // An override file merges into the block it overrides.
                let overridden = is_override
                    .then(|| {
                        m.resources
                            .iter_mut()
                            .find(|r| r.mode == mode && r.type_name == *t && r.name == *name)
                    })
                    .flatten();
                match overridden {
                    Some(r) => {
                        if prevent_destroy.is_some() {
                            r.prevent_destroy = prevent_destroy;
                        }
                        if let Some(i) = ignore_changes {
                            r.ignore_changes = i;
                        }
                    }
                    None => m.resources.push(Resource {
                        mode: mode.to_string(),
                        type_name: t.clone(),
                        name: name.clone(),
                        prevent_destroy,
                        ignore_changes: ignore_changes.unwrap_or_default(),
                        loc: loc(n.line),
                    }),
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_rel_stays_inside() {
        assert_eq!(
            join_rel("live/a", "../../modules/x").as_deref(),
            Some("modules/x")
        );
        assert_eq!(join_rel(".", "./m").as_deref(), Some("m"));
        assert_eq!(join_rel("a", "../..").as_deref(), None);
        assert_eq!(join_rel("a/b", "..").as_deref(), Some("a"));
    }

    #[test]
    fn override_and_shadow_names() {
        assert!(is_override("override.tf"));
        assert!(is_override("backend_override.tf.json"));
        assert!(!is_override("main.tf"));
        assert_eq!(shadowed_name("main.tofu").as_deref(), Some("main.tf"));
        assert_eq!(shadowed_name("x.tofu.json").as_deref(), Some("x.tf.json"));
    }

    #[test]
    fn read_module_keeps_precedence_and_evidence() {
        let d = tempfile::tempdir().unwrap();
        let w = |n: &str, t: &str| std::fs::write(d.path().join(n), t).unwrap();
        w(
            "main.tf",
            "resource \"x_volume\" \"a\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
        );
        w(
            "main.tofu",
            "terraform {\n  required_version = \">= 1.6\"\n  encryption {}\n}\nprovider \"p\" {\n  for_each = {}\n}\nresource \"x_volume\" \"b\" {\n  lifecycle {\n    prevent_destroy = var.keep\n  }\n}\nresource \"x_volume\" \"c\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
        );
        w(
            "c_override.tf",
            "resource \"x_volume\" \"c\" {\n  lifecycle {\n    prevent_destroy = false\n  }\n}\n",
        );
        w(
            ".terraform.lock.hcl",
            "provider \"registry.opentofu.org/hashicorp/null\" {\n  version = \"3.0.0\"\n}\n",
        );
        let r = read_module(d.path()).unwrap();
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(
            r.shadowed,
            [("main.tf".to_string(), "main.tofu".to_string())]
        );
        let m = &r.module;
        assert_eq!(m.files, ["c_override.tf", "main.tofu"]);
        assert_eq!(m.tofu_files().collect::<Vec<_>>(), ["main.tofu"]);
        let pd: Vec<(&str, Option<bool>)> = m
            .resources
            .iter()
            .map(|r| (r.name.as_str(), r.prevent_destroy))
            .collect();
        // `a` is only in the hidden main.tf; a non-literal protects; the override wins for `c`.
        assert_eq!(pd, [("b", Some(true)), ("c", Some(false))]);
        assert!(m.encryption.is_some());
        assert!(m.provider_configs[0].for_each);
        assert_eq!(m.lock_providers, ["registry.opentofu.org/hashicorp/null"]);
        assert_eq!(m.required_version[0].0, ">= 1.6");
        assert!(read_module(&d.path().join("missing")).is_err());
    }

    #[test]
    fn ignore_changes_entries_as_written_and_overridden() {
        let d = tempfile::tempdir().unwrap();
        let w = |n: &str, t: &str| std::fs::write(d.path().join(n), t).unwrap();
        w(
            "main.tf",
            "resource \"x_vm\" \"a\" {\n  lifecycle {\n    ignore_changes = [tags, image, tags[\"env\"]]\n  }\n}\nresource \"x_vm\" \"b\" {\n  lifecycle {\n    ignore_changes = all\n  }\n}\nresource \"x_vm\" \"c\" {\n  lifecycle {\n    ignore_changes = [\"size\"]\n  }\n}\nresource \"x_vm\" \"d\" {}\n",
        );
        w(
            "json.tf.json",
            r#"{"resource": {"x_vm": {"e": {"lifecycle": {"ignore_changes": ["name"]}}}}}"#,
        );
        w(
            "b_override.tf",
            "resource \"x_vm\" \"b\" {\n  lifecycle {\n    ignore_changes = [name]\n  }\n}\n",
        );
        let r = read_module(d.path()).unwrap();
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        let got: Vec<(&str, Vec<&str>)> = r
            .module
            .resources
            .iter()
            .map(|r| {
                (
                    r.name.as_str(),
                    r.ignore_changes.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("e", vec!["name"]),
                ("a", vec!["tags", "image", "tags[\"env\"]"]),
                ("b", vec!["name"]),
                ("c", vec!["size"]),
                ("d", vec![]),
            ]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_files_inside_are_read_outside_ones_reported() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("repo");
        let w = |p: &str, t: &str| {
            let p = root.join(p);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, t).unwrap();
        };
        w("live/main.tf", "terraform {\n  backend \"local\" {}\n}\n");
        w(
            "shared/versions.tf.txt",
            "terraform {\n  required_version = \">= 1.6\"\n}\nmodule \"m\" {\n  source = \"git::https://example.invalid/m.git?ref=main\"\n}\n",
        );
        std::fs::write(tmp.path().join("outside.tf"), "").unwrap();
        symlink("../shared/versions.tf.txt", root.join("live/versions.tf")).unwrap();
        symlink("../../outside.tf", root.join("live/outside.tf")).unwrap();
        symlink("loop.tf", root.join("live/loop.tf")).unwrap();
        symlink("missing.tf", root.join("live/broken.tf")).unwrap();
        symlink("live", root.join("linked-dir")).unwrap();
        symlink("../outside.tf", root.join("README.md")).unwrap();
        let repo = discover(&root, &Options::default()).unwrap();
        let live = repo.module("live").unwrap();
        assert_eq!(live.files, ["live/main.tf", "live/versions.tf"]);
        assert_eq!(live.required_version[0].0, ">= 1.6");
        assert_eq!(live.module_calls.len(), 1);
        assert!(repo.text_files.iter().any(|t| t.path == "live/versions.tf"));
        // A linked directory is not entered (no second copy of `live`, no loop).
        assert!(repo.module("linked-dir").is_none());
        let problems: Vec<(&str, &str)> = repo
            .problems
            .iter()
            .map(|p| (p.loc.file.as_str(), p.message.as_str()))
            .collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].0 == "live/broken.tf"
                && problems[0].1.contains("cannot follow the symlink"),
            "{problems:?}"
        );
        assert!(
            problems[1].0 == "live/loop.tf" && problems[1].1.contains("cannot follow the symlink"),
            "{problems:?}"
        );
        assert!(
            problems[2].0 == "live/outside.tf" && problems[2].1.contains("outside the repository"),
            "{problems:?}"
        );
    }
}
