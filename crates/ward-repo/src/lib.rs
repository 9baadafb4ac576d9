//! ward's view of a repository tree.
//!
//! [`discover`] walks a repository, finds every directory holding Terraform/OpenTofu files
//! (`.tf`, `.tf.json`, `.tofu`, `.tofu.json`, override files included), parses each file with a
//! real parser (`hcl-edit` for native syntax, `serde_json` for JSON syntax) and builds a
//! [`Repo`]: the roots and modules, what each declares (versions, providers, backend, module
//! calls, resources with their `prevent_destroy`, `terraform_remote_state` reads), the state
//! files lying in the tree, the text files to scan for key material, the Ansible version pins,
//! and the roots `ward.hcl` declares (the caller reads it: [`Options`]). Files that cannot be
//! parsed are recorded as [`FileProblem`]s with their line; discovery itself fails only when the
//! tree cannot be read at all.
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
mod discover;
mod exclude;
mod git;
pub mod layout;
mod model;
pub mod playbook;
mod rewrite;
pub mod source;
pub mod stack;
pub mod terragrunt;
mod tree;
pub mod walk;
pub mod write;

pub use ansible::{PinKind, VersionPin};
pub use discover::parse::{parse_file_text, read_module, DirRead};
pub use discover::roots::{
    is_deprecated_dir, is_example_dir, join_rel, DEPRECATED_DIRS, EXAMPLE_DIRS, ROOT_SIGNALS,
};
pub use discover::walk::is_config_file;
pub use discover::{discover, Options, RepoError};
pub use exclude::Exclude;
pub use model::{
    Backend, Excluded, FileProblem, Loc, Module, ModuleCall, ModuleKind, ProviderConfig,
    ProviderRequirement, RemoteState, Repo, RepoKind, Resource, TextFile, TextKind,
};
pub use rewrite::rewrite_local_sources;
pub use source::{ModuleSource, RefKind, SourceKind};
pub use terragrunt::{Dependency, Unit};
pub use tree::Val;
pub use walk::{rel_string, SKIPPED_DIRS};
