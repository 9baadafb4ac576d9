//! ward-rig: run real Terraform against the `fakecloud` provider in scratch roots.
//!
//! ward's promises only count when they hold against what a real Terraform does. This crate
//! gives integration tests (as a dev-dependency) everything they need for that:
//!
//! - [`Rig`] finds the fakecloud provider binary built by cargo and the pinned Terraform
//!   binaries installed by `scripts/install-tools` (Terraform 1.0.3 and 1.15.5 under `.tools/`),
//!   and writes a Terraform CLI configuration that installs fakecloud from a local
//!   `filesystem_mirror` (no registry is ever contacted).
//! - [`Root`] is a scratch root directory with its own fake cloud: write or copy configuration,
//!   run `init`/`plan`/`show -json`/`apply`/`import`/`destroy`, read plan JSON, state and exit
//!   codes.
//! - [`Cloud`] reads and edits the fake cloud behind Terraform's back: drift, deletions,
//!   objects to import.
//! - [`terragrunt`] writes a stand-in `terragrunt` script (no Terragrunt binary is installed
//!   here) that runs a unit's local module with the real Terraform, for tests of Terragrunt units.
//! - [`examples`] drives the example deployment in `examples/deployment` through each hazard
//!   scenario and produces real plans (the ones committed in `examples/plans`).
//! - [`rules`] is what ward knows about fakecloud: not a built-in pack but the user rule file
//!   `examples/rules/fakecloud.hcl`, loaded for tests in-process or through a `ward.hcl`.
//!
//! Roots live in their own temporary directories, so tests run in parallel without colliding.
//!
//! ```no_run
//! use ward_rig::Rig;
//!
//! # fn main() -> Result<(), ward_rig::RigError> {
//! // In a test: `let Some(rig) = Rig::for_tests() else { return };`
//! let rig = Rig::new()?;
//! for tf in rig.terraform_versions() {
//!     let root = rig.example(tf, "deployment")?;
//!     root.init()?;
//!     let plan = root.plan()?;
//!     assert_eq!(plan.exit_code, 2); // changes present
//!     assert_eq!(plan.actions("fakecloud_network.main"), vec!["create"]);
//!     root.apply()?;
//!     let (id, _) = root.cloud().find_by_name("instance", "db")?.expect("db exists");
//!     root.cloud().set("instance", &id, "size", "xlarge".into())?; // drift
//!     let drift = root.refresh_only()?;
//!     assert_eq!(drift.exit_code, 2);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Environment variables:
//!
//! | variable | meaning |
//! | --- | --- |
//! | `WARD_TERRAFORM` | `:`-separated Terraform binaries to use instead of those under `.tools/terraform` |
//! | `WARD_TOFU` | `:`-separated OpenTofu binaries to use as well |
//! | `WARD_FAKECLOUD` | the provider binary, instead of `terraform-provider-fakecloud` beside the test executable |
//! | `WARD_TOOLS_DIR` | where `scripts/install-tools` installed the tools (default: `<workspace>/.tools`) |
//! | `CI` | when set (and not `false`/`0`), [`Rig::for_tests`] fails instead of skipping if tools are missing |

mod cloud;
pub mod corpus;
mod error;
pub mod examples;
pub mod forge;
mod root;
pub mod rules;
pub mod terragrunt;

pub use cloud::{Cloud, Object, KINDS};
pub use error::{RigError, TerraformFailure};
pub use root::{Output, Plan, Root};

use serde_json::Value;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long one Terraform command of the rig may take before its process group is killed.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(600);

/// The most stdout one Terraform command of the rig may print (plan JSON): 256 MiB.
pub const STDOUT_CAP: u64 = 256 << 20;

/// The provider's source address in configurations: `source = "ward/fakecloud"`.
pub const PROVIDER_SOURCE: &str = "ward/fakecloud";
/// The version the local mirror offers fakecloud as.
pub const PROVIDER_VERSION: &str = "0.1.0";
/// The command that installs the Terraform binaries.
pub const INSTALL_COMMAND: &str = "scripts/install-tools";

/// The product a binary is: Terraform or OpenTofu.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Product {
    /// HashiCorp Terraform.
    Terraform,
    /// OpenTofu.
    OpenTofu,
}

/// One Terraform (or OpenTofu) binary the rig can run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terraform {
    /// The executable.
    pub path: PathBuf,
    /// Its version as it reports it, e.g. `1.15.5`.
    pub version: String,
    /// Terraform or OpenTofu.
    pub product: Product,
}

impl Terraform {
    /// Probes `path` with `version -json`.
    pub fn probe(path: &Path, product: Product) -> Result<Terraform, RigError> {
        let out = ward_exec::Command::new(path, RUN_TIMEOUT)
            .args(["version", "-json"])
            .terraform()
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .run()?
            .require_whole()?;
        let json: Value = serde_json::from_slice(&out.stdout).map_err(|e| RigError::Json {
            what: format!(
                "the output of `{} version -json` (exit {:?}, stderr: {})",
                path.display(),
                out.code,
                out.stderr_text().trim()
            ),
            source: e,
        })?;
        let version = json
            .get("terraform_version")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                RigError::Usage(format!(
                    "`{} version -json` printed no terraform_version",
                    path.display()
                ))
            })?
            .to_string();
        Ok(Terraform {
            path: path.to_path_buf(),
            version,
            product,
        })
    }

    /// The version as numbers: `1.15.5` → `(1, 15, 5)`; parts that are not numbers count 0.
    pub fn version_tuple(&self) -> (u64, u64, u64) {
        let mut parts = self
            .version
            .split(['.', '-'])
            .map(|p| p.parse::<u64>().unwrap_or(0));
        (
            parts.next().unwrap_or(0),
            parts.next().unwrap_or(0),
            parts.next().unwrap_or(0),
        )
    }

    /// True when the version is at least `major.minor` (e.g. `import` blocks need 1.5).
    pub fn at_least(&self, major: u64, minor: u64) -> bool {
        let (ma, mi, _) = self.version_tuple();
        (ma, mi) >= (major, minor)
    }
}

impl fmt::Display for Terraform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.product {
            Product::Terraform => write!(f, "Terraform {}", self.version),
            Product::OpenTofu => write!(f, "OpenTofu {}", self.version),
        }
    }
}

/// Shared by a rig and every root made from it: the mirror must outlive them all.
#[derive(Debug)]
struct Shared {
    provider: PathBuf,
    terraforms: Vec<Terraform>,
    /// Holds the provider mirror and the CLI configuration.
    _home: tempfile::TempDir,
    cli_config: PathBuf,
    workspace: PathBuf,
}

/// The test rig: a fakecloud provider binary, the Terraform binaries to run, and a CLI
/// configuration that installs the provider from a local mirror. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Rig {
    shared: Arc<Shared>,
}

/// How to build a [`Rig`] when the defaults of [`Rig::new`] do not fit.
#[derive(Debug, Clone, Default)]
pub struct RigBuilder {
    provider: Option<PathBuf>,
    terraforms: Vec<(PathBuf, Product)>,
}

impl RigBuilder {
    /// Uses this provider binary (e.g. `env!("CARGO_BIN_EXE_terraform-provider-fakecloud")`).
    pub fn provider(mut self, path: impl Into<PathBuf>) -> Self {
        self.provider = Some(path.into());
        self
    }

    /// Adds a Terraform binary; when none is added, the default discovery applies.
    pub fn terraform(mut self, path: impl Into<PathBuf>) -> Self {
        self.terraforms.push((path.into(), Product::Terraform));
        self
    }

    /// Adds an OpenTofu binary.
    pub fn tofu(mut self, path: impl Into<PathBuf>) -> Self {
        self.terraforms.push((path.into(), Product::OpenTofu));
        self
    }

    /// Finds what was not given and writes the mirror and CLI configuration.
    pub fn build(self) -> Result<Rig, RigError> {
        let workspace = workspace_root();
        let provider = match self.provider {
            Some(p) => p,
            None => find_provider()?,
        };
        if !provider.is_file() {
            return Err(RigError::MissingProvider {
                looked: provider.display().to_string(),
            });
        }
        let provider = provider
            .canonicalize()
            .map_err(|e| RigError::io(format!("cannot resolve {}", provider.display()), e))?;
        let candidates = if self.terraforms.is_empty() {
            discover_terraforms(&workspace)?
        } else {
            self.terraforms
        };
        let mut terraforms = Vec::new();
        for (path, product) in candidates {
            terraforms.push(Terraform::probe(&path, product)?);
        }
        terraforms.sort_by_key(|t| (t.product, t.version_tuple()));

        let home = tempfile::Builder::new()
            .prefix("ward-rig-")
            .tempdir()
            .map_err(|e| RigError::io("cannot create a temporary directory", e))?;
        let mirror = home.path().join("mirror");
        for host in ["registry.terraform.io", "registry.opentofu.org"] {
            let dir = mirror
                .join(host)
                .join(PROVIDER_SOURCE)
                .join(PROVIDER_VERSION)
                .join("linux_amd64");
            fs::create_dir_all(&dir)
                .map_err(|e| RigError::io(format!("cannot create {}", dir.display()), e))?;
            let link = dir.join(format!("terraform-provider-fakecloud_v{PROVIDER_VERSION}"));
            std::os::unix::fs::symlink(&provider, &link).map_err(|e| {
                RigError::io(format!("cannot link {} to the provider", link.display()), e)
            })?;
        }
        let cli_config = home.path().join("terraformrc");
        let text = format!(
            "# Written by ward-rig: fakecloud comes from a local mirror, nothing from a registry.\n\
             provider_installation {{\n  filesystem_mirror {{\n    path = {:?}\n  }}\n}}\n",
            mirror.display().to_string()
        );
        fs::write(&cli_config, text)
            .map_err(|e| RigError::io(format!("cannot write {}", cli_config.display()), e))?;
        Ok(Rig {
            shared: Arc::new(Shared {
                provider,
                terraforms,
                _home: home,
                cli_config,
                workspace,
            }),
        })
    }
}

impl Rig {
    /// Finds the provider (`WARD_FAKECLOUD`, else `terraform-provider-fakecloud` built by cargo
    /// beside the running executable) and the Terraform binaries (`WARD_TERRAFORM` and
    /// `WARD_TOFU`, else `.tools/terraform/*/terraform`). The errors say which command installs
    /// what is missing.
    pub fn new() -> Result<Rig, RigError> {
        RigBuilder::default().build()
    }

    /// A builder, to name the provider or the binaries explicitly.
    pub fn builder() -> RigBuilder {
        RigBuilder::default()
    }

    /// For integration tests: the rig, or `None` after printing
    /// `skipped: run scripts/test to install Terraform` when a tool is missing.
    ///
    /// # Panics
    ///
    /// Under CI (`CI` set and not `false` or `0`) a missing tool is a failure, not a skip; any
    /// other error panics too, with its message.
    #[allow(clippy::panic)]
    pub fn for_tests() -> Option<Rig> {
        Self::for_tests_with(Rig::builder())
    }

    /// [`Rig::for_tests`] with a builder, e.g. to name the provider binary.
    ///
    /// # Panics
    ///
    /// As [`Rig::for_tests`].
    #[allow(clippy::panic)]
    pub fn for_tests_with(builder: RigBuilder) -> Option<Rig> {
        match builder.build() {
            Ok(rig) => Some(rig),
            Err(e) if e.is_missing_tool() && !in_ci() => {
                eprintln!("skipped: run scripts/test to install Terraform ({e})");
                None
            }
            Err(e) => panic!("ward-rig: {e}"),
        }
    }

    /// Every Terraform/OpenTofu binary found, Terraform first, oldest first.
    pub fn terraform_versions(&self) -> &[Terraform] {
        &self.shared.terraforms
    }

    /// The newest Terraform (not OpenTofu) found.
    pub fn newest_terraform(&self) -> Option<&Terraform> {
        self.shared
            .terraforms
            .iter()
            .filter(|t| t.product == Product::Terraform)
            .max_by_key(|t| t.version_tuple())
    }

    /// The provider binary in use.
    pub fn provider(&self) -> &Path {
        &self.shared.provider
    }

    /// The Terraform CLI configuration every command runs with (`TF_CLI_CONFIG_FILE`).
    pub fn cli_config(&self) -> &Path {
        &self.shared.cli_config
    }

    /// The workspace root (where `examples/` lives).
    pub fn workspace(&self) -> &Path {
        &self.shared.workspace
    }

    /// An empty scratch root run by `tf`.
    pub fn root(&self, tf: &Terraform) -> Result<Root, RigError> {
        Root::new(self, tf)
    }

    /// A scratch root holding a copy of `examples/<name>/*.tf`, run by `tf`.
    pub fn example(&self, tf: &Terraform, name: &str) -> Result<Root, RigError> {
        Root::from_example(self, tf, name)
    }

    /// Runs `f` once per Terraform binary, in parallel threads, and reports every failure
    /// together, each with its version.
    ///
    /// # Panics
    ///
    /// When `f` fails or panics for any binary, or when no binary was found.
    #[allow(clippy::panic)]
    pub fn for_each_terraform<F>(&self, f: F)
    where
        F: Fn(&Terraform) -> Result<(), RigError> + Sync,
    {
        let tfs = self.terraform_versions();
        if tfs.is_empty() {
            panic!("ward-rig: no Terraform binary to run: run {INSTALL_COMMAND}");
        }
        let failures: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = tfs.iter().map(|tf| (tf, s.spawn(|| f(tf)))).collect();
            handles
                .into_iter()
                .filter_map(|(tf, h)| match h.join() {
                    Ok(Ok(())) => {
                        eprintln!("ward-rig: {tf}: ok");
                        None
                    }
                    Ok(Err(e)) => Some(format!("{tf}: {e}")),
                    Err(p) => Some(format!("{tf}: panicked: {}", panic_message(&p))),
                })
                .collect()
        });
        if !failures.is_empty() {
            panic!("{}", failures.join("\n\n"));
        }
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else {
        "(no message)".to_string()
    }
}

/// True when running under CI (`CI` set, and not `false` or `0`).
pub fn in_ci() -> bool {
    match std::env::var("CI") {
        Ok(v) => !v.is_empty() && v != "false" && v != "0",
        Err(_) => false,
    }
}

/// Copies the directory `from` to `to` (created), with everything below it: for tests that
/// run on a copy of a fixture or an example, away from the checkout.
pub fn copy_dir(from: &Path, to: &Path) -> Result<(), RigError> {
    fs::create_dir_all(to)
        .map_err(|e| RigError::io(format!("cannot create {}", to.display()), e))?;
    let entries = fs::read_dir(from)
        .map_err(|e| RigError::io(format!("cannot list {}", from.display()), e))?;
    for entry in entries {
        let entry =
            entry.map_err(|e| RigError::io(format!("cannot list {}", from.display()), e))?;
        let path = entry.path();
        let dst = to.join(entry.file_name());
        let kind = entry
            .file_type()
            .map_err(|e| RigError::io(format!("cannot stat {}", path.display()), e))?;
        if kind.is_dir() {
            copy_dir(&path, &dst)?;
        } else {
            fs::copy(&path, &dst)
                .map_err(|e| RigError::io(format!("cannot copy {}", path.display()), e))?;
        }
    }
    Ok(())
}

/// Lays out `examples/stack` (three layers, two sites) under `dir` as its `ward.hcl` expects:
/// `dir/site` (a copy of the example, its own checkout: `.git` made), `dir/rules/fakecloud.hcl`
/// (the rule file its `ward.hcl` loads), `dir/cloud` (the empty fake cloud). State and backups
/// then go to `dir/site-state` and `dir/site-backups`, beside the copy. For the tests of
/// `ward stack` and of `ward drift` on a stack.
pub fn example_stack(dir: &Path) -> Result<(), RigError> {
    copy_dir(&workspace_root().join("examples/stack"), &dir.join("site"))?;
    for d in ["rules", "site/.git", "cloud"] {
        fs::create_dir_all(dir.join(d))
            .map_err(|e| RigError::io(format!("cannot create {}", dir.join(d).display()), e))?;
    }
    fs::copy(rules::file(), dir.join("rules/fakecloud.hcl"))
        .map_err(|e| RigError::io(format!("cannot copy {}", rules::file().display()), e))?;
    Ok(())
}

/// Runs `git ARGS` in `dir` with a fixed identity (`ward <ward@example.invalid>`) and unsigned
/// commits, for tests that build repositories; a non-zero exit is an error with git's message.
pub fn git(dir: &Path, args: &[&str]) -> Result<(), RigError> {
    ward_exec::Command::new("git", Duration::from_secs(120))
        .args([
            "-c",
            "user.name=ward",
            "-c",
            "user.email=ward@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .run()?
        .into_success()?;
    Ok(())
}

/// The workspace root: two levels above this crate's manifest.
pub(crate) fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or(manifest)
}

fn tools_dir(workspace: &Path) -> PathBuf {
    match std::env::var_os("WARD_TOOLS_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace.join(".tools"),
    }
}

fn find_provider() -> Result<PathBuf, RigError> {
    if let Some(p) = std::env::var_os("WARD_FAKECLOUD").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe()
        .map_err(|e| RigError::io("cannot find the running executable", e))?;
    // target/debug/deps/test-1234 → target/debug; target/debug/gen-example-plans → target/debug.
    let mut looked = Vec::new();
    for dir in exe.ancestors().skip(1).take(2) {
        let candidate = dir.join("terraform-provider-fakecloud");
        if candidate.is_file() {
            return Ok(candidate);
        }
        looked.push(candidate.display().to_string());
    }
    Err(RigError::MissingProvider {
        looked: looked.join(", "),
    })
}

fn split_paths(var: &str) -> Vec<PathBuf> {
    std::env::var_os(var)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

fn discover_terraforms(workspace: &Path) -> Result<Vec<(PathBuf, Product)>, RigError> {
    let mut found: Vec<(PathBuf, Product)> = split_paths("WARD_TERRAFORM")
        .into_iter()
        .map(|p| (p, Product::Terraform))
        .collect();
    let tofus: Vec<(PathBuf, Product)> = split_paths("WARD_TOFU")
        .into_iter()
        .map(|p| (p, Product::OpenTofu))
        .collect();
    let dir = tools_dir(workspace).join("terraform");
    if found.is_empty() {
        if let Ok(entries) = fs::read_dir(&dir) {
            let mut versions: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path().join("terraform"))
                .filter(|p| p.is_file())
                .collect();
            versions.sort();
            found.extend(versions.into_iter().map(|p| (p, Product::Terraform)));
        }
    }
    found.extend(tofus);
    for (path, _) in &found {
        if !path.is_file() {
            return Err(RigError::MissingTerraform {
                looked: path.display().to_string(),
            });
        }
    }
    if found.is_empty() {
        return Err(RigError::MissingTerraform {
            looked: format!("{}/*/terraform", dir.display()),
        });
    }
    Ok(found)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn version_tuple_and_at_least() {
        let tf = Terraform {
            path: PathBuf::from("terraform"),
            version: "1.15.5".into(),
            product: Product::Terraform,
        };
        assert_eq!(tf.version_tuple(), (1, 15, 5));
        assert!(tf.at_least(1, 5));
        assert!(!tf.at_least(1, 16));
        assert_eq!(tf.to_string(), "Terraform 1.15.5");
    }

    #[test]
    fn missing_provider_names_the_install_command() {
        let err = Rig::builder()
            .provider("/nonexistent/terraform-provider-fakecloud")
            .build()
            .unwrap_err();
        assert!(err.is_missing_tool());
        assert!(
            err.to_string().contains("cargo build -p fakecloud"),
            "{err}"
        );
    }
}
