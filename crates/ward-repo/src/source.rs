//! Module `source` strings: what kind of source, which repository, which ref.
//!
//! Follows Terraform's module source syntax: local paths (`./`, `../`), registry addresses
//! (`[host/]namespace/name/system`), git (`git::URL`, `github.com/...`, `git@host:...`,
//! `bitbucket.org/...`), mercurial (`hg::`), archives over HTTP(S), S3 and GCS buckets. A
//! `//subdir` after the package address and a `?ref=` query are split off.

use serde::Serialize;

/// What a module source points at.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SourceKind {
    /// A directory in this repository (`./x`, `../x`).
    Local {
        /// The path as written.
        path: String,
    },
    /// A module registry address; its version comes from the `version` argument.
    Registry {
        /// `host/namespace/name/system`, host included only when written.
        address: String,
    },
    /// A git repository.
    Git {
        /// The repository, normalized (no `git::`, no `.git`, no credentials, lowercase host).
        repository: String,
        /// The URL git would fetch (what `git ls-remote` takes).
        url: String,
        /// `?ref=`, when given.
        git_ref: Option<String>,
    },
    /// Anything else (mercurial, HTTP archives, S3, GCS...): not classified further.
    Other {
        /// The address without query and subdirectory.
        address: String,
    },
}

/// A parsed `source`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct ModuleSource {
    /// The source as written.
    pub raw: String,
    /// What it is.
    pub kind: SourceKind,
    /// The `//subdir` part, when given.
    pub subdir: Option<String>,
}

impl ModuleSource {
    /// Parses a module source string. Never fails: unknown shapes are [`SourceKind::Other`].
    pub fn parse(raw: &str) -> ModuleSource {
        let s = raw.trim();
        if s.starts_with("./") || s.starts_with("../") || s == "." || s == ".." {
            return ModuleSource {
                raw: raw.to_string(),
                kind: SourceKind::Local {
                    path: s.to_string(),
                },
                subdir: None,
            };
        }
        // Forced getter prefix (`git::`, `hg::`, `s3::`...).
        let (getter, rest) = match s.split_once("::") {
            Some((g, r)) if !g.contains('/') && !g.contains(':') => (Some(g), r),
            _ => (None, s),
        };
        let (body, query) = match rest.split_once('?') {
            Some((b, q)) => (b, Some(q)),
            None => (rest, None),
        };
        let git_ref = query.and_then(|q| {
            q.split('&')
                .find_map(|kv| kv.strip_prefix("ref="))
                .map(str::to_string)
        });
        let (address, subdir) = split_subdir(body);

        let is_git = getter == Some("git")
            || (getter.is_none()
                && (address.starts_with("github.com/")
                    || address.starts_with("bitbucket.org/")
                    || address.starts_with("git@")
                    || address.ends_with(".git")
                    || address.starts_with("ssh://")));
        let kind = if is_git {
            SourceKind::Git {
                repository: normalize_repo(&address),
                url: git_url(&address),
                git_ref,
            }
        } else if getter.is_none() && query.is_none() && is_registry(&address) {
            SourceKind::Registry {
                address: address.clone(),
            }
        } else {
            SourceKind::Other { address }
        };
        ModuleSource {
            raw: raw.to_string(),
            kind,
            subdir,
        }
    }

    /// The key under which uses of the same package are compared: the normalized repository
    /// for git, the registry address, or the address for other sources. `None` for local paths.
    pub fn package(&self) -> Option<String> {
        match &self.kind {
            SourceKind::Local { .. } => None,
            SourceKind::Registry { address } => Some(address.to_lowercase()),
            SourceKind::Git { repository, .. } => Some(repository.clone()),
            SourceKind::Other { address } => Some(address.clone()),
        }
    }
}

fn split_subdir(body: &str) -> (String, Option<String>) {
    // `//` after the scheme's `://` separates the package from a subdirectory.
    let start = body.find("://").map(|i| i + 3).unwrap_or(0);
    match body[start..].find("//") {
        Some(i) => {
            let (a, s) = body.split_at(start + i);
            (a.to_string(), Some(s[2..].to_string()))
        }
        None => (body.to_string(), None),
    }
}

fn is_registry(address: &str) -> bool {
    let parts: Vec<&str> = address.split('/').collect();
    let ok = |p: &&str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    match parts.len() {
        3 => parts.iter().all(ok),
        4 => parts[0].contains('.') && parts[1..].iter().all(ok),
        _ => false,
    }
}

/// The URL `git` itself takes.
fn git_url(address: &str) -> String {
    if address.starts_with("github.com/") || address.starts_with("bitbucket.org/") {
        format!("https://{address}")
    } else {
        address.to_string()
    }
}

/// `git::https://user@GitHub.com/Org/Repo.git` and `git@github.com:Org/Repo` both become
/// `github.com/org/repo`.
fn normalize_repo(address: &str) -> String {
    let mut a = address.trim();
    for scheme in ["https://", "http://", "ssh://", "git://", "file://"] {
        if let Some(r) = a.strip_prefix(scheme) {
            a = r;
            break;
        }
    }
    let mut s = a.to_string();
    // scp-like `git@host:path`
    if let Some(at) = s.find('@') {
        if s[..at].chars().all(|c| c != '/') {
            s = s[at + 1..].to_string();
        }
    }
    if let Some(colon) = s.find(':') {
        let (host, path) = s.split_at(colon);
        let path = path.trim_start_matches(':');
        // a port number stays part of the host
        if !path.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            s = format!("{host}/{path}");
        }
    }
    let s = s.trim_end_matches('/');
    let s = s.strip_suffix(".git").unwrap_or(s);
    s.to_lowercase()
}

/// What a git ref names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefKind {
    /// A commit id: immutable.
    Commit,
    /// A tag: immutable by convention.
    Tag,
    /// A branch: moves.
    Branch,
    /// No `?ref=`: the remote's default branch.
    Missing,
    /// Could not be told by shape alone (use `--resolve`).
    Unknown,
}

impl RefKind {
    /// The word reports use.
    pub fn as_str(self) -> &'static str {
        match self {
            RefKind::Commit => "commit",
            RefKind::Tag => "tag",
            RefKind::Branch => "branch",
            RefKind::Missing => "none",
            RefKind::Unknown => "unknown",
        }
    }
}

/// Branch names common enough to be recognised by name alone.
const BRANCH_NAMES: &[&str] = &[
    "main",
    "master",
    "develop",
    "development",
    "dev",
    "trunk",
    "head",
    "staging",
    "stage",
    "production",
    "prod",
    "next",
    "release",
    "stable",
    "latest",
];

/// Classifies a ref by its shape alone (offline):
/// - 7 to 40 hexadecimal digits (at least one digit) → commit;
/// - a version (`v1.2.3`, `1.2`, `v2`, `1.2.3-rc.1`) → tag;
/// - a well-known branch name, or anything with a `/` (`feature/x`) → branch;
/// - anything else → unknown.
pub fn classify_ref_by_shape(r: &str) -> RefKind {
    let r = r.trim();
    if r.is_empty() {
        return RefKind::Missing;
    }
    if (7..=40).contains(&r.len())
        && r.chars().all(|c| c.is_ascii_hexdigit())
        && r.chars().any(|c| c.is_ascii_digit())
    {
        return RefKind::Commit;
    }
    if looks_like_version(r) {
        return RefKind::Tag;
    }
    let lower = r.to_ascii_lowercase();
    if BRANCH_NAMES.contains(&lower.as_str())
        || lower.starts_with("refs/heads/")
        || lower.contains('/')
    {
        return RefKind::Branch;
    }
    if lower.starts_with("refs/tags/") {
        return RefKind::Tag;
    }
    RefKind::Unknown
}

/// `v1`, `1.2`, `v1.2.3`, `1.2.3-rc.1`, `release-1.2.3`, `module-name/v1.2.3` style tags.
pub fn looks_like_version(r: &str) -> bool {
    let core = r.rsplit(['/', '-', '_']).next().unwrap_or(r);
    let last_is_version = is_version_core(core);
    if is_version_core(r) {
        return true;
    }
    // `1.2.3-rc.1`: version core, then a pre-release
    if let Some((head, _)) = r.split_once('-') {
        if is_version_core(head) {
            return true;
        }
    }
    // `release-1.2.3`
    last_is_version && core.contains('.')
}

fn is_version_core(s: &str) -> bool {
    let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
    !s.is_empty()
        && s.split('.').count() <= 4
        && s.split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()))
}

/// The version a ref or version constraint names, normalized (`v1.2.3` → `1.2.3`), when it names
/// exactly one: `= 1.2.3`, `1.2.3`, `v1.2.3`, `release-1.2.3`.
pub fn named_version(s: &str) -> Option<String> {
    let t = s.trim();
    let t = t.strip_prefix('=').unwrap_or(t).trim();
    if t.contains([',', '>', '<', '~', '!', ' ']) {
        return None;
    }
    let core = t.rsplit(['/', '_']).next().unwrap_or(t);
    let core = core.strip_prefix("release-").unwrap_or(core);
    let core = core.strip_prefix(['v', 'V']).unwrap_or(core);
    if core.split('-').next().is_some_and(is_version_core) {
        Some(core.to_string())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_shapes() {
        let g = ModuleSource::parse("git::https://example.com/Org/net.git//modules/vpc?ref=v1.2.0");
        assert_eq!(g.subdir.as_deref(), Some("modules/vpc"));
        assert_eq!(
            g.kind,
            SourceKind::Git {
                repository: "example.com/org/net".into(),
                url: "https://example.com/Org/net.git".into(),
                git_ref: Some("v1.2.0".into())
            }
        );
        let s = ModuleSource::parse("git@github.com:Org/net.git?ref=main");
        assert_eq!(s.package().as_deref(), Some("github.com/org/net"));
        let h = ModuleSource::parse("github.com/org/net//x");
        assert_eq!(h.package().as_deref(), Some("github.com/org/net"));
        assert!(matches!(
            ModuleSource::parse("terraform-aws-modules/vpc/aws").kind,
            SourceKind::Registry { .. }
        ));
        assert!(matches!(
            ModuleSource::parse("app.terraform.io/acme/vpc/aws").kind,
            SourceKind::Registry { .. }
        ));
        assert!(matches!(
            ModuleSource::parse("../modules/x").kind,
            SourceKind::Local { .. }
        ));
        assert!(matches!(
            ModuleSource::parse("https://example.com/m.zip").kind,
            SourceKind::Other { .. }
        ));
    }

    #[test]
    fn classifies_refs() {
        assert_eq!(classify_ref_by_shape("v1.2.3"), RefKind::Tag);
        assert_eq!(classify_ref_by_shape("1.2"), RefKind::Tag);
        assert_eq!(classify_ref_by_shape("1.2.3-rc.1"), RefKind::Tag);
        assert_eq!(classify_ref_by_shape("main"), RefKind::Branch);
        assert_eq!(classify_ref_by_shape("feature/x"), RefKind::Branch);
        assert_eq!(
            classify_ref_by_shape("0123456789abcdef0123456789abcdef01234567"),
            RefKind::Commit
        );
        assert_eq!(classify_ref_by_shape("a1b2c3d"), RefKind::Commit);
        assert_eq!(classify_ref_by_shape("deadbeef"), RefKind::Unknown);
        assert_eq!(classify_ref_by_shape("something"), RefKind::Unknown);
    }

    #[test]
    fn named_versions() {
        assert_eq!(named_version("v1.2.3").as_deref(), Some("1.2.3"));
        assert_eq!(named_version("= 1.2.3").as_deref(), Some("1.2.3"));
        assert_eq!(named_version("~> 1.2"), None);
        assert_eq!(named_version("main"), None);
    }
}
