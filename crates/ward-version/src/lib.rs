//! Terraform versions and version constraints: the one implementation ward uses.
//!
//! [`Version`] is `MAJOR[.MINOR[.PATCH]][-PRERELEASE][+BUILD]` (a leading `v` is accepted,
//! missing parts are 0). Build metadata is kept for display but ignored for precedence, so
//! `1.2.3+a == 1.2.3+b`. Pre-releases order before their release (`1.2.0-rc1 < 1.2.0`), and
//! compare identifier by identifier as in Semantic Versioning.
//!
//! [`Constraint`] is Terraform's constraint syntax: comma-separated clauses, each an operator and
//! a version:
//!
//! | clause | admits |
//! |---|---|
//! | `= 1.2.3`, `1.2.3` | exactly 1.2.3 |
//! | `!= 1.2.3` | anything but 1.2.3 |
//! | `> 1.2`, `>= 1.2`, `< 2`, `<= 1.9` | the comparison (missing parts are 0) |
//! | `~> 1` | `>= 1, < 2` |
//! | `~> 1.2` | `>= 1.2, < 2` |
//! | `~> 1.2.3` | `>= 1.2.3, < 1.3` |
//!
//! A constraint admits a version when every clause does. As Terraform documents, a pre-release
//! version is admitted only by exact clauses: `1.3.0-rc1` satisfies `= 1.3.0-rc1` (or `1.3.0-rc1`)
//! but never `>= 1.0`, `~> 1.3` or `!= 1.2.0`.
//!
//! Numbers are `u64`, parsed with overflow checks: a part too large is an error naming it, never
//! a wrap-around or a panic.

use serde::{Serialize, Serializer};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// Why a version or a constraint could not be read. Every message names the input and the part
/// that is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// Nothing to read.
    #[error("an empty version constraint; write one like \">= 1.6\" or \"~> 1.6.0\"")]
    Empty,
    /// `>= 1.0,` or `, < 2`: nothing between two commas.
    #[error("\"{input}\" has an empty clause between commas; separate clauses with a single comma, like \">= 1.6, < 2.0\"")]
    EmptyClause {
        /// The whole constraint.
        input: String,
    },
    /// An operator with no version after it.
    #[error("\"{clause}\" has no version after the operator; write one like \"{op} 1.6.0\"")]
    MissingVersion {
        /// The clause.
        clause: String,
        /// Its operator.
        op: &'static str,
    },
    /// A part of the version that is not a number.
    #[error("\"{input}\" is not a version: \"{part}\" is not a number; write versions as MAJOR.MINOR.PATCH, like 1.6.0")]
    NotANumber {
        /// The version as written.
        input: String,
        /// The offending part.
        part: String,
    },
    /// A number too large for 64 bits.
    #[error("\"{input}\" is not a version: the number {part} is too large (at most {max})", max = u64::MAX)]
    TooLarge {
        /// The version as written.
        input: String,
        /// The offending number.
        part: String,
    },
    /// More than `MAJOR.MINOR.PATCH`.
    #[error(
        "\"{input}\" is not a version: it has {count} numeric parts, at most 3 (MAJOR.MINOR.PATCH)"
    )]
    TooManyParts {
        /// The version as written.
        input: String,
        /// How many parts it has.
        count: usize,
    },
    /// A pre-release or build suffix that is empty or has characters outside `[0-9A-Za-z-.]`.
    #[error("\"{input}\" is not a version: the {what} \"{part}\" must be dot-separated, non-empty identifiers of letters, digits and '-'")]
    BadSuffix {
        /// The version as written.
        input: String,
        /// `pre-release` or `build metadata`.
        what: &'static str,
        /// The suffix.
        part: String,
    },
}

/// A version: `MAJOR.MINOR.PATCH`, an optional pre-release and optional build metadata.
///
/// Equality, ordering and hashing ignore the build metadata.
#[derive(Debug, Clone)]
pub struct Version {
    /// Major.
    pub major: u64,
    /// Minor (0 when not written).
    pub minor: u64,
    /// Patch (0 when not written).
    pub patch: u64,
    /// Pre-release (`rc1`, `alpha.2`), without the `-`.
    pub pre: Option<String>,
    /// Build metadata, without the `+`; ignored for precedence.
    pub build: Option<String>,
}

impl Version {
    /// A release version `major.minor.patch`.
    pub fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version {
            major,
            minor,
            patch,
            pre: None,
            build: None,
        }
    }

    /// Parses `1`, `1.6`, `v1.6.0`, `1.6.0-beta1`, `1.6.0+build.5`.
    pub fn parse(s: &str) -> Result<Version, Error> {
        parse_version(s).map(|(v, _)| v)
    }

    /// Whether this is a pre-release (`1.3.0-rc1`).
    pub fn is_prerelease(&self) -> bool {
        self.pre.is_some()
    }

    fn core(&self) -> (u64, u64, u64) {
        (self.major, self.minor, self.patch)
    }
}

/// Parses a version and says how many numeric parts were written (1 to 3).
fn parse_version(input: &str) -> Result<(Version, usize), Error> {
    let s = input.trim();
    let s = s.strip_prefix('v').unwrap_or(s);
    let (rest, build) = match s.split_once('+') {
        Some((r, b)) => (r, Some(suffix(input, "build metadata", b)?)),
        None => (s, None),
    };
    let (core, pre) = match rest.split_once('-') {
        Some((c, p)) => (c, Some(suffix(input, "pre-release", p)?)),
        None => (rest, None),
    };
    let parts: Vec<&str> = core.split('.').collect();
    if parts.len() > 3 {
        return Err(Error::TooManyParts {
            input: input.trim().to_string(),
            count: parts.len(),
        });
    }
    let mut nums = [0u64; 3];
    for (slot, part) in nums.iter_mut().zip(&parts) {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::NotANumber {
                input: input.trim().to_string(),
                part: (*part).to_string(),
            });
        }
        *slot = part.parse().map_err(|_| Error::TooLarge {
            input: input.trim().to_string(),
            part: (*part).to_string(),
        })?;
    }
    let [major, minor, patch] = nums;
    Ok((
        Version {
            major,
            minor,
            patch,
            pre,
            build,
        },
        parts.len(),
    ))
}

fn suffix(input: &str, what: &'static str, s: &str) -> Result<String, Error> {
    let ok = s
        .split('.')
        .all(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
    if ok {
        Ok(s.to_string())
    } else {
        Err(Error::BadSuffix {
            input: input.trim().to_string(),
            what,
            part: s.to_string(),
        })
    }
}

/// Semantic Versioning's pre-release order: identifier by identifier; numeric identifiers by
/// value (compared as digit strings, so no size limit), below alphanumeric ones; a shorter list
/// of equal identifiers first.
fn cmp_pre(a: &str, b: &str) -> Ordering {
    let mut x = a.split('.');
    let mut y = b.split('.');
    loop {
        match (x.next(), y.next()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) => {
                let pn = p.bytes().all(|c| c.is_ascii_digit());
                let qn = q.bytes().all(|c| c.is_ascii_digit());
                let o = match (pn, qn) {
                    (true, true) => {
                        let p = p.trim_start_matches('0');
                        let q = q.trim_start_matches('0');
                        p.len().cmp(&q.len()).then_with(|| p.cmp(q))
                    }
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    (false, false) => p.cmp(q),
                };
                if o != Ordering::Equal {
                    return o;
                }
            }
        }
    }
}

impl Ord for Version {
    fn cmp(&self, o: &Self) -> Ordering {
        self.core()
            .cmp(&o.core())
            .then_with(|| match (&self.pre, &o.pre) {
                (None, None) => Ordering::Equal,
                (None, Some(_)) => Ordering::Greater,
                (Some(_), None) => Ordering::Less,
                (Some(a), Some(b)) => cmp_pre(a, b),
            })
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl PartialEq for Version {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl Eq for Version {}

impl Hash for Version {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.core().hash(h);
        // Equal pre-releases (`1` and `01` are the same numeric identifier) hash alike.
        if let Some(p) = &self.pre {
            for id in p.split('.') {
                if id.bytes().all(|c| c.is_ascii_digit()) {
                    id.trim_start_matches('0').hash(h);
                } else {
                    id.hash(h);
                }
            }
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if let Some(p) = &self.pre {
            write!(f, "-{p}")?;
        }
        if let Some(b) = &self.build {
            write!(f, "+{b}")?;
        }
        Ok(())
    }
}

impl FromStr for Version {
    type Err = Error;
    fn from_str(s: &str) -> Result<Version, Error> {
        Version::parse(s)
    }
}

impl Serialize for Version {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Which Terraform-compatible binary a root is pinned to (`ward.hcl`'s `root { binary = ... }`,
/// read by ward-config; ward-terraform's `binary::select` honours it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pin {
    /// `binary = "terraform"`.
    Terraform,
    /// `binary = "tofu"` (or `"opentofu"`).
    Tofu,
    /// `binary = "/path/to/executable"`: that exact executable.
    Path(std::path::PathBuf),
}

impl Pin {
    /// The pin a `binary = "..."` word names: `terraform`, `tofu` or `opentofu`, or a path (any
    /// word with a `/`); `None` for anything else.
    pub fn from_word(word: &str) -> Option<Pin> {
        match word {
            "terraform" => Some(Pin::Terraform),
            "tofu" | "opentofu" => Some(Pin::Tofu),
            p if p.contains('/') => Some(Pin::Path(std::path::PathBuf::from(p))),
            _ => None,
        }
    }
}

/// A constraint operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Op {
    /// `=` (also a bare version).
    Eq,
    /// `!=`.
    Ne,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `~>`: the rightmost written part may grow (see the crate documentation).
    Pessimistic,
}

impl Op {
    /// As written in a constraint.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Pessimistic => "~>",
        }
    }
}

/// Operators in the order they must be tried (two-character ones first).
const OPS: [Op; 7] = [
    Op::Pessimistic,
    Op::Ge,
    Op::Le,
    Op::Ne,
    Op::Gt,
    Op::Lt,
    Op::Eq,
];

/// One clause of a constraint: an operator and a version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    /// The operator.
    pub op: Op,
    /// The version (missing parts are 0).
    pub version: Version,
    /// How many numeric parts were written (1 to 3): `~> 1.2` and `~> 1.2.0` differ.
    pub parts: usize,
}

impl Clause {
    /// Parses one clause: `>= 1.6`, `~>1.2.3`, `1.0.0`.
    pub fn parse(s: &str) -> Result<Clause, Error> {
        let c = s.trim();
        let (op, rest) = OPS
            .iter()
            .find_map(|op| c.strip_prefix(op.as_str()).map(|r| (*op, r)))
            .unwrap_or((Op::Eq, c));
        if rest.trim().is_empty() {
            return Err(Error::MissingVersion {
                clause: c.to_string(),
                op: op.as_str(),
            });
        }
        let (version, parts) = parse_version(rest)?;
        Ok(Clause { op, version, parts })
    }

    /// The exclusive upper bound of a `~>` clause; `None` when it would not fit in 64 bits (then
    /// no version is above the range anyway).
    fn pessimistic_upper(&self) -> Option<(u64, u64, u64)> {
        let v = &self.version;
        let next_major = || v.major.checked_add(1).map(|m| (m, 0, 0));
        if self.parts >= 3 {
            // `~> 1.<max>.0`: the next minor does not fit, so the bound is the next major.
            v.minor
                .checked_add(1)
                .map(|m| (v.major, m, 0))
                .or_else(next_major)
        } else {
            next_major()
        }
    }

    /// Whether `v` satisfies this clause.
    pub fn admits(&self, v: &Version) -> bool {
        let want = &self.version;
        if v.is_prerelease() {
            return self.op == Op::Eq && v == want;
        }
        match self.op {
            Op::Eq => v == want,
            Op::Ne => v != want,
            Op::Gt => v > want,
            Op::Ge => v >= want,
            Op::Lt => v < want,
            Op::Le => v <= want,
            Op::Pessimistic => v >= want && self.pessimistic_upper().is_none_or(|u| v.core() < u),
        }
    }
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = &self.version;
        write!(f, "{} {}", self.op.as_str(), v.major)?;
        if self.parts >= 2 {
            write!(f, ".{}", v.minor)?;
        }
        if self.parts >= 3 {
            write!(f, ".{}", v.patch)?;
        }
        if let Some(p) = &v.pre {
            write!(f, "-{p}")?;
        }
        if let Some(b) = &v.build {
            write!(f, "+{b}")?;
        }
        Ok(())
    }
}

/// A version constraint: one or more clauses, all of which must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    clauses: Vec<Clause>,
}

impl Constraint {
    /// Parses `">= 1.6, < 2.0"`, `"~> 1.6"`, `"= 1.6.0"`, `"1.6.0"`.
    pub fn parse(s: &str) -> Result<Constraint, Error> {
        if s.trim().is_empty() {
            return Err(Error::Empty);
        }
        let mut clauses = Vec::new();
        for part in s.split(',') {
            if part.trim().is_empty() {
                return Err(Error::EmptyClause {
                    input: s.trim().to_string(),
                });
            }
            clauses.push(Clause::parse(part)?);
        }
        Ok(Constraint { clauses })
    }

    /// The clauses, as written.
    pub fn clauses(&self) -> &[Clause] {
        &self.clauses
    }

    /// Whether `v` satisfies every clause.
    pub fn admits(&self, v: &Version) -> bool {
        self.clauses.iter().all(|c| c.admits(v))
    }

    /// The one version this constraint names, when it is a single exact clause with all three
    /// parts (`1.2.3`, `= 1.2.3`, `v1.2.3-rc1`).
    pub fn exact(&self) -> Option<&Version> {
        match self.clauses.as_slice() {
            [c] if c.op == Op::Eq && c.parts == 3 => Some(&c.version),
            _ => None,
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.clauses.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl FromStr for Constraint {
    type Err = Error;
    fn from_str(s: &str) -> Result<Constraint, Error> {
        Constraint::parse(s)
    }
}

/// Whether the constraint text admits `v`; `Err` when the constraint cannot be read.
pub fn admits(constraint: &str, v: &Version) -> Result<bool, Error> {
    Constraint::parse(constraint).map(|c| c.admits(v))
}

/// Whether every constraint text admits `v` (none: yes); `Err` names the first one that cannot
/// be read.
pub fn admits_all<'a>(
    constraints: impl IntoIterator<Item = &'a str>,
    v: &Version,
) -> Result<bool, Error> {
    for c in constraints {
        if !admits(c, v)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether a constraint text names exactly one version (`1.2.3`, `= 1.2.3`, `v1.2.3`); text that
/// cannot be read is not exact.
pub fn is_exact(constraint: &str) -> bool {
    Constraint::parse(constraint).is_ok_and(|c| c.exact().is_some())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn ok(c: &str, v: &str) -> bool {
        admits(c, &Version::parse(v).unwrap()).unwrap()
    }

    #[test]
    fn terraform_semantics() {
        assert!(ok(">= 1.6", "1.6.0"));
        assert!(!ok(">= 1.6", "1.5.7"));
        assert!(ok(">= 1.3, < 2.0", "1.9.1"));
        assert!(ok("~> 1", "1.99.0"));
        assert!(!ok("~> 1", "2.0.0"));
        assert!(!ok("~> 1", "0.15.0"));
        assert!(ok("~> 1.6", "1.9.0"));
        assert!(!ok("~> 1.6", "2.0.0"));
        assert!(ok("~> 1.6.0", "1.6.5"));
        assert!(!ok("~> 1.6.0", "1.7.0"));
        assert!(ok("1.6.0", "1.6.0"));
        assert!(ok("=1.6", "1.6.0"));
        assert!(!ok("!= 1.6.0", "1.6.0"));
        assert!(ok("v1.6.0", "1.6.0+abc"));
        assert!(ok(">=1.0.0+meta", "1.0.0"));
    }

    #[test]
    fn prereleases_match_only_exact_clauses() {
        assert!(!ok(">= 1.0", "1.12.0-alpha1"));
        assert!(!ok("~> 1.12", "1.12.0-rc1"));
        assert!(!ok("!= 1.0.0", "1.12.0-rc1"));
        assert!(ok("= 1.12.0-rc1", "1.12.0-rc1"));
        assert!(ok("1.12.0-rc1", "1.12.0-rc1+x"));
        assert!(!ok("= 1.12.0-rc1", "1.12.0-rc2"));
        assert!(ok(">= 1.12.0-rc1", "1.12.0"));
    }

    #[test]
    fn ordering() {
        let v = |s: &str| Version::parse(s).unwrap();
        assert!(v("1.2.0-rc1") < v("1.2.0"));
        assert!(v("1.2.0-alpha") < v("1.2.0-alpha.1"));
        assert!(v("1.2.0-alpha.2") < v("1.2.0-alpha.10"));
        assert!(v("1.2.0-2") < v("1.2.0-alpha"));
        assert_eq!(v("1.2.3+a"), v("1.2.3+b"));
        assert_eq!(v("1.2"), v("1.2.0"));
        assert_eq!(v("v1.2.3-rc.1+x").to_string(), "1.2.3-rc.1+x");
    }

    #[test]
    fn bad_input_names_the_bad_part() {
        let e = admits(
            ">= 1.999999999999999999999999999999",
            &Version::new(1, 0, 0),
        )
        .unwrap_err();
        assert!(
            matches!(&e, Error::TooLarge { part, .. } if part == "999999999999999999999999999999")
        );
        assert!(
            e.to_string()
                .contains("999999999999999999999999999999 is too large"),
            "{e}"
        );
        let e = Constraint::parse("~> 18446744073709551616").unwrap_err();
        assert!(matches!(e, Error::TooLarge { .. }), "{e}");
        let e = Constraint::parse(">= banana").unwrap_err();
        assert!(e.to_string().contains("\"banana\" is not a number"), "{e}");
        let e = Constraint::parse(">= 1.x.0").unwrap_err();
        assert!(e.to_string().contains("\"x\" is not a number"), "{e}");
        assert_eq!(Constraint::parse("  "), Err(Error::Empty));
        assert!(matches!(
            Constraint::parse(">= 1,"),
            Err(Error::EmptyClause { .. })
        ));
        assert!(matches!(
            Constraint::parse(">="),
            Err(Error::MissingVersion { op: ">=", .. })
        ));
        assert!(matches!(
            Constraint::parse("1.2.3.4"),
            Err(Error::TooManyParts { count: 4, .. })
        ));
        assert!(matches!(
            Constraint::parse("1.2.3-"),
            Err(Error::BadSuffix { .. })
        ));
        assert!(matches!(
            Constraint::parse("1.2.3+a..b"),
            Err(Error::BadSuffix { .. })
        ));
    }

    #[test]
    fn largest_numbers_do_not_overflow() {
        let max = u64::MAX;
        let c = Constraint::parse(&format!("~> {max}")).unwrap();
        assert!(c.admits(&Version::new(max, max, max)));
        let c = Constraint::parse(&format!("~> 1.{max}.0")).unwrap();
        assert!(c.admits(&Version::new(1, max, 7)));
        assert!(!c.admits(&Version::new(2, 0, 0)));
    }

    #[test]
    fn exactness() {
        assert!(is_exact("= 5.1.2"));
        assert!(is_exact("v5.1.2"));
        assert!(is_exact("5.1.2-rc1"));
        assert!(!is_exact("~> 5.1"));
        assert!(!is_exact("5.1"));
        assert!(!is_exact("= 5.1.2, != 5.1.3"));
        assert!(!is_exact("banana"));
    }

    #[test]
    fn serializes_as_text() {
        let v = Version::parse("1.2.3-rc1").unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), "\"1.2.3-rc1\"");
    }

    #[test]
    fn pin_words() {
        assert_eq!(Pin::from_word("terraform"), Some(Pin::Terraform));
        assert_eq!(Pin::from_word("opentofu"), Some(Pin::Tofu));
        assert_eq!(
            Pin::from_word("./bin/tofu"),
            Some(Pin::Path("./bin/tofu".into()))
        );
        assert_eq!(Pin::from_word("Terraform"), None);
        assert_eq!(Pin::from_word(""), None);
        assert_eq!(serde_json::to_string(&Pin::Tofu).unwrap(), "\"tofu\"");
    }
}
