//! What discovery finds: the [`Repo`], its [`Module`]s (roots and modules) and what each
//! declares, and the places and problems it reports. Plain data; [`crate::discover`] fills it.

use crate::ansible::VersionPin;
use crate::terragrunt::Unit;
use crate::tree::Val;
use crate::{layout, playbook, ModuleSource};
use serde::Serialize;
use std::path::PathBuf;

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
    /// An empty module at `dir`, of kind [`ModuleKind::Module`] until discovery decides.
    pub(crate) fn new(dir: String) -> Module {
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
