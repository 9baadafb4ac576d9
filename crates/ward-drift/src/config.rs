//! ward drift's configuration in `ward.hcl`: `root` blocks and the `drift` block.
//!
//! ```hcl
//! root "network" {
//!   path         = "live/network"   # repository-relative directory
//!   binary       = "terraform"      # optional pin: "terraform", "tofu" or a path to the executable
//!   expect_empty = false            # optional: true when an empty state is correct
//! }
//!
//! drift {
//!   exclude "sandbox/scratch" {      # a path (or glob) discovered but never checked
//!     reason = "scratch space, recreated daily"
//!   }
//!   ignore {
//!     root      = "network"                 # optional: only this root
//!     address   = "fakecloud_instance.web*" # glob on the resource instance address
//!     attribute = "tags.*"                  # optional glob on the attribute path
//!     owner     = "team-network"            # required
//!     expires   = "2027-01-31"              # required: the rule stops suppressing after this day (UTC)
//!     reason    = "tags are managed by the cost tool"
//!   }
//! }
//! ```
//!
//! Every other top-level block (`resource`, `policy`, ...) belongs to another ward command and is
//! skipped here.

use globset::{Glob, GlobMatcher};
use hcl::{Block, Body, Expression};
use std::path::{Path, PathBuf};

/// Which product a root is pinned to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pin {
    /// `binary = "terraform"`.
    Terraform,
    /// `binary = "tofu"`.
    Tofu,
    /// `binary = "/path/to/executable"`: that exact executable.
    Path(PathBuf),
}

/// A `root` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclaredRoot {
    /// The block's label: the root's name in reports and history.
    pub name: String,
    /// Repository-relative directory, normalized (`/`-separated, no `./`, no trailing `/`).
    pub path: String,
    /// Binary pin.
    pub pin: Option<Pin>,
    /// An empty state is correct for this root (not `missing-state`).
    pub expect_empty: bool,
}

/// A `drift { exclude "path" { reason = ... } }` entry.
#[derive(Debug, Clone)]
pub struct Exclude {
    /// The path or glob as written.
    pub pattern: String,
    /// Why it is excluded (required).
    pub reason: String,
    matcher: GlobMatcher,
}

impl Exclude {
    /// Whether this exclusion covers the repository-relative `path`.
    pub fn matches(&self, path: &str) -> bool {
        self.pattern == path || self.matcher.is_match(path)
    }
}

/// A `drift { ignore { ... } }` rule: suppresses matching drift findings until it expires.
#[derive(Debug, Clone)]
pub struct IgnoreRule {
    /// Only this root, when set.
    pub root: Option<String>,
    /// Address glob as written.
    pub address: String,
    /// Attribute glob as written, when set.
    pub attribute: Option<String>,
    /// Who owns the exception (required).
    pub owner: String,
    /// Last day (UTC, inclusive) the rule applies, `YYYY-MM-DD`.
    pub expires: jiff::civil::Date,
    /// Why, when given.
    pub reason: Option<String>,
    address_m: GlobMatcher,
    attribute_m: Option<GlobMatcher>,
}

impl IgnoreRule {
    /// Whether the rule covers this finding (ignoring expiry).
    pub fn matches(&self, root: &str, address: &str, attribute: &str) -> bool {
        if let Some(r) = &self.root {
            if r != root {
                return false;
            }
        }
        if !(self.address == address || self.address_m.is_match(address)) {
            return false;
        }
        match &self.attribute_m {
            None => true,
            Some(m) => self.attribute.as_deref() == Some(attribute) || m.is_match(attribute),
        }
    }

    /// Whether the rule has expired on `today` (UTC).
    pub fn expired(&self, today: jiff::civil::Date) -> bool {
        today > self.expires
    }

    /// A short description for reports: `address[attribute] (owner, until DATE)`.
    pub fn describe(&self) -> String {
        let mut s = self.address.clone();
        if let Some(a) = &self.attribute {
            s.push_str(&format!("[{a}]"));
        }
        format!("{s} (owner {}, until {})", self.owner, self.expires)
    }
}

/// ward drift's whole configuration.
#[derive(Debug, Clone, Default)]
pub struct DriftConfig {
    /// The file it came from, when any.
    pub file: Option<PathBuf>,
    /// `root` blocks, in file order.
    pub roots: Vec<DeclaredRoot>,
    /// `drift.exclude` entries.
    pub excludes: Vec<Exclude>,
    /// `drift.ignore` rules.
    pub ignores: Vec<IgnoreRule>,
}

/// A configuration error: names the file, the block and what to do.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {message}")]
pub struct ConfigError {
    /// The file.
    pub file: String,
    /// What was wrong and what to do.
    pub message: String,
}

impl DriftConfig {
    /// Reads `ward.hcl` from `path`.
    pub fn load(path: &Path) -> Result<DriftConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: path.display().to_string(),
            message: format!("cannot read it: {e}"),
        })?;
        let mut c = DriftConfig::parse(&text, &path.display().to_string())?;
        c.file = Some(path.to_path_buf());
        Ok(c)
    }

    /// Parses the text of a `ward.hcl`; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<DriftConfig, ConfigError> {
        let err = |message: String| ConfigError {
            file: file.to_string(),
            message,
        };
        let body: Body = hcl::parse(text).map_err(|e| err(format!("not valid HCL: {e}")))?;
        let mut c = DriftConfig::default();
        for block in body.blocks() {
            match block.identifier() {
                "root" => c.roots.push(parse_root(block).map_err(err)?),
                "drift" => parse_drift(block, &mut c).map_err(err)?,
                _ => {}
            }
        }
        let mut names = std::collections::BTreeMap::new();
        let mut paths = std::collections::BTreeMap::new();
        for r in &c.roots {
            if let Some(prev) = names.insert(r.name.clone(), r.path.clone()) {
                return Err(err(format!(
                    "root \"{}\" is declared twice (paths {prev} and {}); give each root its own name",
                    r.name, r.path
                )));
            }
            if let Some(prev) = paths.insert(r.path.clone(), r.name.clone()) {
                return Err(err(format!(
                    "roots \"{prev}\" and \"{}\" both have path {}; declare each directory once",
                    r.name, r.path
                )));
            }
        }
        Ok(c)
    }

    /// The declared root for a repository-relative path.
    pub fn root_at(&self, path: &str) -> Option<&DeclaredRoot> {
        self.roots.iter().find(|r| r.path == path)
    }

    /// The exclusion covering a repository-relative path.
    pub fn excluded(&self, path: &str) -> Option<&Exclude> {
        self.excludes.iter().find(|e| e.matches(path))
    }
}

/// Normalizes a repository-relative path: `/` separators, no `.`/empty components, no trailing
/// `/`; the repository root itself is `.`.
pub fn normalize_rel(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split(['/', '\\']) {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

fn label(block: &Block) -> Option<String> {
    block.labels().first().map(|l| l.as_str().to_string())
}

fn string_attr(block: &Block, key: &str) -> Result<Option<String>, String> {
    for a in block.body().attributes() {
        if a.key() == key {
            return match a.expr() {
                Expression::String(s) => Ok(Some(s.clone())),
                other => Err(format!(
                    "{} \"{}\": `{key}` must be a string, found {other}",
                    block.identifier(),
                    label(block).unwrap_or_default()
                )),
            };
        }
    }
    Ok(None)
}

fn bool_attr(block: &Block, key: &str) -> Result<Option<bool>, String> {
    for a in block.body().attributes() {
        if a.key() == key {
            return match a.expr() {
                Expression::Bool(b) => Ok(Some(*b)),
                other => Err(format!(
                    "{} \"{}\": `{key}` must be true or false, found {other}",
                    block.identifier(),
                    label(block).unwrap_or_default()
                )),
            };
        }
    }
    Ok(None)
}

fn check_keys(block: &Block, allowed: &[&str], what: &str) -> Result<(), String> {
    for a in block.body().attributes() {
        if !allowed.contains(&a.key()) {
            return Err(format!(
                "{what}: unknown attribute `{}`; allowed: {}",
                a.key(),
                allowed.join(", ")
            ));
        }
    }
    Ok(())
}

fn parse_root(block: &Block) -> Result<DeclaredRoot, String> {
    let name = label(block).ok_or_else(|| {
        "a `root` block needs a name: root \"network\" { path = \"live/network\" }".to_string()
    })?;
    let what = format!("root \"{name}\"");
    // `layer` and `description` are read by other commands (ward check); accept them here.
    check_keys(
        block,
        &["path", "binary", "expect_empty", "layer", "description"],
        &what,
    )?;
    let path = string_attr(block, "path")?.ok_or_else(|| {
        format!("{what} has no `path`; add path = \"<directory relative to the repository>\"")
    })?;
    if Path::new(&path).is_absolute() {
        return Err(format!(
            "{what}: path {path} is absolute; give it relative to the repository root"
        ));
    }
    let pin = match string_attr(block, "binary")?.as_deref() {
        None => None,
        Some("terraform") => Some(Pin::Terraform),
        Some("tofu") | Some("opentofu") => Some(Pin::Tofu),
        Some(p) if p.contains('/') => Some(Pin::Path(PathBuf::from(p))),
        Some(other) => {
            return Err(format!(
                "{what}: binary = \"{other}\" is not understood; use \"terraform\", \"tofu\" or a path to the executable"
            ))
        }
    };
    Ok(DeclaredRoot {
        path: normalize_rel(&path),
        name,
        pin,
        expect_empty: bool_attr(block, "expect_empty")?.unwrap_or(false),
    })
}

fn glob(pattern: &str, what: &str) -> Result<GlobMatcher, String> {
    Glob::new(pattern)
        .map(|g| g.compile_matcher())
        .map_err(|e| format!("{what}: bad glob {pattern:?}: {e}"))
}

fn parse_drift(block: &Block, c: &mut DriftConfig) -> Result<(), String> {
    check_keys(block, &[], "drift")?;
    for b in block.body().blocks() {
        match b.identifier() {
            "exclude" => {
                let pattern = label(b).ok_or_else(|| {
                    "drift: `exclude` needs the path as its label: exclude \"sandbox\" { reason = \"...\" }"
                        .to_string()
                })?;
                let what = format!("drift exclude \"{pattern}\"");
                check_keys(b, &["reason"], &what)?;
                let reason = string_attr(b, "reason")?
                    .filter(|r| !r.trim().is_empty())
                    .ok_or_else(|| format!("{what} has no reason; every exclusion needs reason = \"...\""))?;
                let pattern = normalize_rel(&pattern);
                c.excludes.push(Exclude {
                    matcher: glob(&pattern, &what)?,
                    pattern,
                    reason,
                });
            }
            "ignore" => {
                let what = format!("drift ignore #{}", c.ignores.len() + 1);
                check_keys(
                    b,
                    &["root", "address", "attribute", "owner", "expires", "reason"],
                    &what,
                )?;
                let address = string_attr(b, "address")?
                    .ok_or_else(|| format!("{what} has no `address` (a glob on resource addresses)"))?;
                let owner = string_attr(b, "owner")?
                    .filter(|o| !o.trim().is_empty())
                    .ok_or_else(|| format!("{what} ({address}) has no owner; every ignore rule needs owner = \"...\""))?;
                let expires_s = string_attr(b, "expires")?.ok_or_else(|| {
                    format!("{what} ({address}) has no expiry; every ignore rule needs expires = \"YYYY-MM-DD\"")
                })?;
                let expires: jiff::civil::Date = expires_s.parse().map_err(|e| {
                    format!("{what} ({address}): expires = {expires_s:?} is not a date YYYY-MM-DD: {e}")
                })?;
                let attribute = string_attr(b, "attribute")?;
                c.ignores.push(IgnoreRule {
                    root: string_attr(b, "root")?,
                    address_m: glob(&address, &what)?,
                    attribute_m: match &attribute {
                        Some(a) => Some(glob(a, &what)?),
                        None => None,
                    },
                    address,
                    attribute,
                    owner,
                    expires,
                    reason: string_attr(b, "reason")?,
                });
            }
            other => {
                return Err(format!(
                    "drift: unknown block `{other}`; the drift block holds `exclude` and `ignore` blocks"
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
resource "fakecloud_volume" { holds_data = true }
root "net" {
  path = "./live/net/"
  binary = "tofu"
}
root "app" {
  path = "live/app"
  expect_empty = true
  binary = "/opt/tf/terraform"
}
drift {
  exclude "sandbox/*" { reason = "scratch" }
  ignore {
    address = "fakecloud_instance.*"
    attribute = "tags.*"
    owner = "team-a"
    expires = "2026-12-31"
  }
}
"#;

    #[test]
    fn parses_roots_excludes_and_ignores() {
        let c = DriftConfig::parse(GOOD, "ward.hcl").unwrap();
        assert_eq!(c.roots.len(), 2);
        assert_eq!(c.roots[0].path, "live/net");
        assert_eq!(c.roots[0].pin, Some(Pin::Tofu));
        assert!(c.roots[1].expect_empty);
        assert_eq!(
            c.roots[1].pin,
            Some(Pin::Path(PathBuf::from("/opt/tf/terraform")))
        );
        assert_eq!(
            c.excluded("sandbox/x").map(|e| e.reason.as_str()),
            Some("scratch")
        );
        assert!(c.excluded("live/net").is_none());
        let rule = &c.ignores[0];
        assert!(rule.matches("net", "fakecloud_instance.web", "tags.owner"));
        assert!(!rule.matches("net", "fakecloud_instance.web", "size"));
        assert!(!rule.matches("net", "fakecloud_volume.v", "tags.owner"));
        let d = |s: &str| s.parse::<jiff::civil::Date>().unwrap();
        assert!(!rule.expired(d("2026-12-31")));
        assert!(rule.expired(d("2027-01-01")));
    }

    #[test]
    fn refuses_what_it_must() {
        let cases = [
            ("root \"a\" {}", "has no `path`"),
            ("root {\n path = \"x\"\n}", "needs a name"),
            (
                "root \"a\" {\n path = \"x\"\n binary = \"tf\"\n}",
                "not understood",
            ),
            ("root \"a\" {\n path = \"/abs\"\n}", "absolute"),
            (
                "root \"a\" {\n path = \"x\"\n}\nroot \"a\" {\n path = \"y\"\n}",
                "declared twice",
            ),
            (
                "root \"a\" {\n path = \"x\"\n}\nroot \"b\" {\n path = \"./x\"\n}",
                "both have path",
            ),
            ("drift {\n exclude \"x\" {}\n}", "has no reason"),
            (
                "drift {\n ignore {\n address = \"a\"\n expires = \"2026-01-01\"\n }\n}",
                "no owner",
            ),
            (
                "drift {\n ignore {\n address = \"a\"\n owner = \"o\"\n }\n}",
                "no expiry",
            ),
            (
                "drift {\n ignore {\n address = \"a\"\n owner = \"o\"\n expires = \"soon\"\n }\n}",
                "not a date",
            ),
            (
                "root \"a\" {\n path = \"x\"\n pathh = \"y\"\n}",
                "unknown attribute `pathh`",
            ),
            ("drift {\n bogus {}\n}", "unknown block `bogus`"),
        ];
        for (text, want) in cases {
            let e = DriftConfig::parse(text, "ward.hcl")
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{text:?}: {e} (wanted {want:?})");
        }
    }

    #[test]
    fn normalizes_paths() {
        assert_eq!(normalize_rel("./a//b/"), "a/b");
        assert_eq!(normalize_rel("."), ".");
        assert_eq!(normalize_rel("a/../b"), "b");
    }
}
