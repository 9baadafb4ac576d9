//! Choosing Terraform or OpenTofu for a root, by evidence.
//!
//! Order of evidence, strongest first:
//! 1. an explicit pin (`binary` in the root's `ward.hcl` block);
//! 2. `.tofu`/`.tofu.json` files, or OpenTofu-only features (`encryption` in the `terraform`
//!    block, `for_each` on a `provider` block) → OpenTofu;
//! 3. provider registry hosts in `.terraform.lock.hcl` (`registry.opentofu.org` → OpenTofu,
//!    `registry.terraform.io` → Terraform); after the state is read, the hosts in the state are
//!    checked against the choice (see [`check_state_hosts`]): the product that last wrote a state is
//!    never silently swapped;
//! 4. finally `required_version`, checked against every binary found (PATH, `--terraform`,
//!    `--tofu`).
//!
//! Contradicting evidence, or more than one product left at the end, fails with "pin it";
//! nothing satisfying `required_version` fails naming every version found.

use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use ward_version::Pin;

/// Terraform or OpenTofu.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Product {
    /// HashiCorp Terraform (`terraform`).
    Terraform,
    /// OpenTofu (`tofu`).
    Tofu,
}

impl Product {
    /// The executable's usual name.
    pub fn command(self) -> &'static str {
        match self {
            Product::Terraform => "terraform",
            Product::Tofu => "tofu",
        }
    }

    /// The product's registry host.
    pub fn registry_host(self) -> &'static str {
        match self {
            Product::Terraform => "registry.terraform.io",
            Product::Tofu => "registry.opentofu.org",
        }
    }

    /// The product owning a registry host, when it is one of the two public registries.
    pub fn of_host(host: &str) -> Option<Product> {
        match host {
            "registry.terraform.io" => Some(Product::Terraform),
            "registry.opentofu.org" => Some(Product::Tofu),
            _ => None,
        }
    }
}

impl fmt::Display for Product {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.command())
    }
}

pub use ward_version::Version;

/// An executable found on this machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Binary {
    /// Terraform or OpenTofu.
    pub product: Product,
    /// Where it is.
    pub path: PathBuf,
    /// Its version.
    pub version: Version,
}

impl fmt::Display for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.product, self.version)
    }
}

/// How long `version -json` may take.
pub const PROBE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The most `version -json` may print (bytes per stream).
const PROBE_OUTPUT_CAP: u64 = 64 * 1024;

/// Asks an executable what it is (`version -json`, within [`PROBE_TIMEOUT`]). `hint` is the product when the caller knows
/// it (`--terraform`, `--tofu`, the name on `PATH`); otherwise the banner of `version` tells.
pub fn probe(path: &Path, hint: Option<Product>) -> Result<Binary, String> {
    probe_within(path, hint, PROBE_TIMEOUT)
}

/// [`probe`] with another deadline (tests).
fn probe_within(
    path: &Path,
    hint: Option<Product>,
    timeout: std::time::Duration,
) -> Result<Binary, String> {
    let version_cmd = |args: &[&str]| {
        ward_exec::Command::new(path, timeout)
            .args(args)
            .terraform()
            .output_cap(PROBE_OUTPUT_CAP)
            .stop_at_cap()
            .timeout_hint("is it Terraform or OpenTofu? `version` answers at once")
            .run()
    };
    let out = version_cmd(&["version", "-json"])
        .map_err(|e| e.to_string())?
        .require_whole()
        .map_err(|e| e.to_string())?;
    if !out.success() {
        return Err(format!(
            "{} version -json failed: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "{} version -json did not print JSON ({e}); is it Terraform or OpenTofu?",
            path.display()
        )
    })?;
    let version = v
        .get("terraform_version")
        .and_then(|s| s.as_str())
        .and_then(|s| Version::parse(s).ok())
        .ok_or_else(|| format!("{} version -json has no terraform_version", path.display()))?;
    // OpenTofu prints its own version under `terraform_version` too; when the caller does not
    // know the product, tell them apart by the human-readable banner.
    let product = match hint {
        Some(p) => p,
        None => {
            let text = version_cmd(&["version"])
                .map(|o| o.stdout_text())
                .unwrap_or_default();
            if text.starts_with("OpenTofu") {
                Product::Tofu
            } else {
                Product::Terraform
            }
        }
    };
    Ok(Binary {
        product,
        path: path.to_path_buf(),
        version,
    })
}

/// Finds `name` in the directories of `path` (a `PATH` value), first match wins.
pub fn which_in(name: &str, path: &std::ffi::OsStr) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// The binaries available: the explicit ones first (`--terraform`, `--tofu`: each with its
/// product), then `terraform` and `tofu` found in `path`, the `PATH` value the caller read (ward
/// reads no environment here; `None`, no `PATH`: none are looked for). An explicit path that
/// cannot be probed is an error; duplicates (same file) are dropped.
pub fn find_binaries(
    explicit: &[(PathBuf, Product)],
    path: Option<&std::ffi::OsStr>,
) -> Result<Vec<Binary>, String> {
    let mut out: Vec<Binary> = Vec::new();
    let mut seen = BTreeSet::new();
    for (p, product) in explicit {
        let b = probe(p, Some(*product))?;
        seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()));
        out.push(b);
    }
    for product in [Product::Terraform, Product::Tofu] {
        if let Some(p) = path.and_then(|path| which_in(product.command(), path)) {
            let canon = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
            if seen.insert(canon) {
                if let Ok(b) = probe(&p, Some(product)) {
                    out.push(b);
                }
            }
        }
    }
    Ok(out)
}

/// What a root's files say about the product it needs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// `.tofu`/`.tofu.json` files present.
    pub tofu_files: Vec<String>,
    /// OpenTofu-only features used (`terraform { encryption }`, `provider` with `for_each`).
    pub tofu_features: Vec<String>,
    /// Registry hosts of providers in `.terraform.lock.hcl`.
    pub lock_hosts: BTreeSet<String>,
    /// Every `required_version` constraint.
    pub required_version: Vec<String>,
}

impl Evidence {
    /// Reads the evidence in one root directory, from the files as ward-repo reads them (the
    /// one reader of configuration files: `.tofu` files hide `.tf` files of the same name,
    /// override files win). A file that cannot be parsed is an error naming it: its
    /// `required_version` or OpenTofu-only features could be the deciding evidence.
    pub fn gather(dir: &Path) -> Result<Evidence, String> {
        let read = ward_repo::read_module(dir).map_err(|e| e.to_string())?;
        if let Some(p) = read.problems.first() {
            return Err(format!(
                "{}:{}: cannot read for the binary evidence: {}",
                dir.join(&p.loc.file).display(),
                p.loc.line,
                p.message
            ));
        }
        Ok(Evidence::of_module(&read.module))
    }

    /// The evidence in a module ward-repo has read.
    pub fn of_module(m: &ward_repo::Module) -> Evidence {
        let name = |file: &str| file.rsplit('/').next().unwrap_or(file).to_string();
        let mut tofu_features = Vec::new();
        if let Some(l) = &m.encryption {
            tofu_features.push(format!("encryption block in {}", name(&l.file)));
        }
        for p in m.provider_configs.iter().filter(|p| p.for_each) {
            tofu_features.push(format!("provider for_each in {}", name(&p.loc.file)));
        }
        Evidence {
            tofu_files: m.tofu_files().map(name).collect(),
            tofu_features,
            lock_hosts: m
                .lock_providers
                .iter()
                .map(|p| p.split('/').next().unwrap_or_default().to_string())
                .collect(),
            required_version: m.required_version.iter().map(|(c, _)| c.clone()).collect(),
        }
    }

    /// The product the files point to, or an error when they point to both.
    fn product(&self) -> Result<Option<(Product, String)>, String> {
        let mut tofu = Vec::new();
        let mut tf = Vec::new();
        if !self.tofu_files.is_empty() {
            tofu.push(format!("OpenTofu files {}", self.tofu_files.join(", ")));
        }
        if !self.tofu_features.is_empty() {
            tofu.push(format!(
                "OpenTofu-only features ({})",
                self.tofu_features.join(", ")
            ));
        }
        for h in &self.lock_hosts {
            match Product::of_host(h) {
                Some(Product::Tofu) => tofu.push(format!(".terraform.lock.hcl providers from {h}")),
                Some(Product::Terraform) => {
                    tf.push(format!(".terraform.lock.hcl providers from {h}"))
                }
                None => {}
            }
        }
        match (tofu.is_empty(), tf.is_empty()) {
            (true, true) => Ok(None),
            (false, true) => Ok(Some((Product::Tofu, tofu.join("; ")))),
            (true, false) => Ok(Some((Product::Terraform, tf.join("; ")))),
            (false, false) => Err(format!(
                "the evidence contradicts itself: OpenTofu ({}) and Terraform ({}); pin it with binary = \"terraform\" or \"tofu\" in the root's ward.hcl block",
                tofu.join("; "),
                tf.join("; ")
            )),
        }
    }
}

/// The binary chosen for a root, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Selection {
    /// The binary.
    pub binary: Binary,
    /// The evidence that decided, in words.
    pub because: String,
}

/// Chooses the binary for a root from its pin, its evidence and the binaries available.
pub fn select(pin: Option<&Pin>, ev: &Evidence, found: &[Binary]) -> Result<Selection, String> {
    let satisfies_all = |b: &Binary| -> Result<bool, String> {
        ward_version::admits_all(ev.required_version.iter().map(String::as_str), &b.version)
            .map_err(|e| format!("cannot read required_version: {e}"))
    };
    let listed = || {
        if found.is_empty() {
            "no terraform or tofu found (PATH, --terraform, --tofu)".to_string()
        } else {
            format!(
                "found: {}",
                found
                    .iter()
                    .map(|b| format!("{b} ({})", b.path.display()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    };
    let required = ev.required_version.join(" and ");
    let pick = |product: Product, because: String| -> Result<Selection, String> {
        let mut any = false;
        for b in found.iter().filter(|b| b.product == product) {
            any = true;
            if satisfies_all(b)? {
                return Ok(Selection {
                    binary: b.clone(),
                    because,
                });
            }
        }
        if any {
            Err(format!(
                "{because} selects {product}, but no {product} satisfies required_version {required}; {}; install a matching version or pass --{product} PATH",
                listed()
            ))
        } else {
            Err(format!(
                "{because} selects {product}, but no {product} binary was found; {}; install it or pass --{product} PATH",
                listed()
            ))
        }
    };
    match pin {
        Some(Pin::Path(p)) => {
            let b = match found.iter().find(|b| b.path == *p) {
                Some(b) => b.clone(),
                None => probe(p, None)?,
            };
            if !satisfies_all(&b)? {
                return Err(format!(
                    "the pinned binary {} is {b}, which does not satisfy required_version {required}",
                    p.display()
                ));
            }
            return Ok(Selection {
                binary: b,
                because: "pinned in ward.hcl".into(),
            });
        }
        Some(Pin::Terraform) => return pick(Product::Terraform, "the pin in ward.hcl".into()),
        Some(Pin::Tofu) => return pick(Product::Tofu, "the pin in ward.hcl".into()),
        None => {}
    }
    if let Some((product, because)) = ev.product()? {
        return pick(product, because);
    }
    let mut ok: Vec<&Binary> = Vec::new();
    for b in found {
        if satisfies_all(b)? {
            ok.push(b);
        }
    }
    let products: BTreeSet<Product> = ok.iter().map(|b| b.product).collect();
    match products.len() {
        0 if found.is_empty() => Err(
            "no terraform or tofu binary was found on PATH; install one or pass --terraform/--tofu PATH"
                .to_string(),
        ),
        0 => Err(format!(
            "nothing installed satisfies required_version {required}; {}",
            listed()
        )),
        1 => {
            let because = if ev.required_version.is_empty() {
                "the only product installed".to_string()
            } else {
                format!("the only product satisfying required_version {required}")
            };
            Ok(Selection {
                binary: ok[0].clone(),
                because,
            })
        }
        _ => Err(format!(
            "ambiguous: both terraform and tofu can run this root (no .tofu files, no lock file, {}); pin it with binary = \"terraform\" or \"tofu\" in the root's ward.hcl block",
            if required.is_empty() { "no required_version".to_string() } else { format!("required_version {required} fits both") }
        )),
    }
}

/// Why no binary was chosen for a root ([`choose`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChooseError {
    /// Its files could not be read for the evidence ([`Evidence::gather`]).
    #[error("{0}")]
    Evidence(String),
    /// The evidence and the binaries found decide nothing, or contradict ([`select`]).
    #[error("cannot choose terraform or tofu: {0}")]
    Select(String),
}

/// The binary for the root in `dir`: its evidence gathered ([`Evidence::gather`]), then chosen
/// among `found` with its `pin` ([`select`]). The one gather-and-select every command that runs
/// Terraform in a root uses.
pub fn choose(dir: &Path, pin: Option<&Pin>, found: &[Binary]) -> Result<Selection, ChooseError> {
    let ev = Evidence::gather(dir).map_err(ChooseError::Evidence)?;
    select(pin, &ev, found).map_err(ChooseError::Select)
}

/// After the state is read: the registry hosts of the providers recorded in it must not belong to
/// the other product. Returns an error naming both products when they do.
pub fn check_state_hosts(chosen: Product, state_hosts: &BTreeSet<String>) -> Result<(), String> {
    for h in state_hosts {
        if let Some(p) = Product::of_host(h) {
            if p != chosen {
                return Err(format!(
                    "the state was last written by {p} (its providers come from {h}) but {chosen} was selected; refusing to swap products; pin it with binary = \"{}\" in the root's ward.hcl block",
                    p.command()
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn v(s: &str) -> Version {
        Version::parse(s).unwrap()
    }
    fn b(p: Product, ver: &str) -> Binary {
        Binary {
            product: p,
            path: PathBuf::from(format!("/bin/{}-{ver}", p.command())),
            version: v(ver),
        }
    }

    /// A stand-in executable: a shell script with `body`.
    #[cfg(unix)]
    fn script(dir: &Path, body: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("terraform");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o700)).unwrap();
        path
    }

    /// A binary whose `version -json` never ends is stopped at the probe's deadline, its
    /// process group killed (the probe had no deadline: `ward drift` waited for ever).
    #[cfg(unix)]
    #[test]
    fn a_probe_that_hangs_ends_at_its_deadline() {
        let dir = tempfile::tempdir().unwrap();
        let fake = script(dir.path(), "sleep 120 & wait");
        let start = std::time::Instant::now();
        let e = probe_within(&fake, Some(Product::Terraform), Duration::from_secs(1)).unwrap_err();
        // Far below the fake's 120 s: it was killed, not waited for.
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{:?}",
            start.elapsed()
        );
        assert!(e.contains("timed out after 1 s"), "{e}");
        assert!(e.contains("`version` answers at once"), "{e}");
    }

    /// A binary whose `version -json` prints without end is stopped at the probe's cap and
    /// refused at once, not at the deadline (the probe kept everything: 2.2 GB in the review).
    #[cfg(unix)]
    #[test]
    fn a_probe_that_prints_without_end_is_cut_and_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fake = script(dir.path(), "exec yes '{\"terraform_version\": \"1.15.5\",'");
        let start = std::time::Instant::now();
        let e = probe(&fake, Some(Product::Terraform)).unwrap_err();
        // Far below the probe's 30 s deadline: stopped at the cap.
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
        assert!(e.contains("cut"), "{e}");
        // The same binary with a short answer is taken.
        let fine = script(dir.path(), "echo '{\"terraform_version\": \"1.15.5\"}'");
        let b = probe(&fine, Some(Product::Terraform)).unwrap();
        assert_eq!(b.version, v("1.15.5"));
    }

    #[test]
    fn selection_by_evidence() {
        let found = [b(Product::Terraform, "1.5.7"), b(Product::Tofu, "1.9.0")];
        let mut ev = Evidence::default();
        // Nothing says which: ambiguous.
        let e = select(None, &ev, &found).unwrap_err();
        assert!(e.contains("ambiguous") && e.contains("pin it"), "{e}");
        // required_version only tofu satisfies (FIELD-NOTES 13).
        ev.required_version = vec![">= 1.6".into()];
        let s = select(None, &ev, &found).unwrap();
        assert_eq!(s.binary.product, Product::Tofu);
        // Nothing satisfies: names the versions.
        ev.required_version = vec![">= 9.0".into()];
        let e = select(None, &ev, &found).unwrap_err();
        assert!(
            e.contains("terraform 1.5.7") && e.contains("tofu 1.9.0"),
            "{e}"
        );
        // Lock-file hosts decide; required_version then checked against that product.
        let mut ev = Evidence::default();
        ev.lock_hosts.insert("registry.terraform.io".into());
        assert_eq!(
            select(None, &ev, &found).unwrap().binary.product,
            Product::Terraform
        );
        ev.required_version = vec![">= 1.6".into()];
        let e = select(None, &ev, &found).unwrap_err();
        assert!(e.contains("no terraform satisfies"), "{e}");
        // Contradiction: pin it.
        let mut ev = Evidence::default();
        ev.lock_hosts.insert("registry.terraform.io".into());
        ev.tofu_files.push("main.tofu".into());
        let e = select(None, &ev, &found).unwrap_err();
        assert!(e.contains("pin it"), "{e}");
        // The pin wins over evidence.
        assert_eq!(
            select(Some(&Pin::Terraform), &ev, &found)
                .unwrap()
                .binary
                .product,
            Product::Terraform
        );
        // A pin to a product that is not installed.
        let e = select(Some(&Pin::Tofu), &Evidence::default(), &found[..1]).unwrap_err();
        assert!(e.contains("no tofu binary"), "{e}");
    }

    #[test]
    fn state_hosts_never_swap_products() {
        let hosts: BTreeSet<String> = ["registry.opentofu.org".to_string()].into();
        assert!(check_state_hosts(Product::Tofu, &hosts).is_ok());
        let e = check_state_hosts(Product::Terraform, &hosts).unwrap_err();
        assert!(e.contains("last written by tofu"), "{e}");
    }

    #[test]
    fn gathers_evidence_from_files() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join("main.tf"),
            "terraform {\n required_version = \">= 1.6\"\n encryption {}\n}\nprovider \"x\" {\n for_each = {}\n}\n",
        )
        .unwrap();
        std::fs::write(d.path().join("extra.tofu"), "").unwrap();
        std::fs::write(
            d.path().join(".terraform.lock.hcl"),
            "provider \"registry.opentofu.org/hashicorp/null\" {\n version = \"3.0.0\"\n}\n",
        )
        .unwrap();
        let e = Evidence::gather(d.path()).unwrap();
        assert_eq!(e.required_version, vec![">= 1.6".to_string()]);
        assert_eq!(e.tofu_files, vec!["extra.tofu".to_string()]);
        assert_eq!(e.tofu_features.len(), 2);
        assert!(e.lock_hosts.contains("registry.opentofu.org"));
    }

    #[test]
    fn evidence_follows_opentofu_precedence() {
        let d = tempfile::tempdir().unwrap();
        // main.tofu hides main.tf: its required_version is the one OpenTofu reads.
        std::fs::write(
            d.path().join("main.tf"),
            "terraform {\n required_version = \"~> 1.5.0\"\n}\n",
        )
        .unwrap();
        std::fs::write(
            d.path().join("main.tofu"),
            "terraform {\n required_version = \">= 1.6\"\n}\n",
        )
        .unwrap();
        let e = Evidence::gather(d.path()).unwrap();
        assert_eq!(e.required_version, vec![">= 1.6".to_string()]);
        assert_eq!(e.tofu_files, vec!["main.tofu".to_string()]);
        // An override file's required_version replaces the others.
        std::fs::write(
            d.path().join("override.tf"),
            "terraform {\n required_version = \">= 1.8\"\n}\n",
        )
        .unwrap();
        let e = Evidence::gather(d.path()).unwrap();
        assert_eq!(e.required_version, vec![">= 1.8".to_string()]);
        // A file that cannot be parsed is named, not skipped.
        std::fs::write(d.path().join("bad.tf"), "terraform {").unwrap();
        let err = Evidence::gather(d.path()).unwrap_err();
        assert!(err.contains("bad.tf"), "{err}");
    }
}
