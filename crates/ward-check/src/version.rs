//! Terraform version constraints (`>= 1.6, < 2.0`, `~> 1.6`, `= 1.6.0`, `!= 1.7.0`).

use std::cmp::Ordering;

/// A version: up to three numeric parts (missing parts are 0) and whether it has a pre-release.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    parts: [u64; 3],
    given: usize,
    pre: Option<String>,
}

impl Version {
    /// Parses `1`, `1.6`, `v1.6.0`, `1.6.0-beta1`.
    pub fn parse(s: &str) -> Option<Version> {
        let s = s.trim();
        let s = s.strip_prefix('v').unwrap_or(s);
        let (core, pre) = match s.split_once(['-', '+']) {
            Some((c, p)) => (c, Some(p.to_string())),
            None => (s, None),
        };
        let mut parts = [0u64; 3];
        let mut given = 0;
        for (i, p) in core.split('.').enumerate() {
            if i >= 3 {
                return None;
            }
            parts[i] = p.parse().ok()?;
            given = i + 1;
        }
        Some(Version { parts, given, pre })
    }

    fn cmp_core(&self, other: &Version) -> Ordering {
        self.parts
            .cmp(&other.parts)
            .then_with(|| match (&self.pre, &other.pre) {
                (None, None) => Ordering::Equal,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(a), Some(b)) => a.cmp(b),
            })
    }
}

/// Does `constraint` admit `v`? `Err` when the constraint cannot be read.
pub fn admits(constraint: &str, v: &Version) -> Result<bool, String> {
    for clause in constraint.split(',') {
        let c = clause.trim();
        if c.is_empty() {
            continue;
        }
        let (op, rest) = ["~>", ">=", "<=", "!=", ">", "<", "="]
            .iter()
            .find_map(|op| c.strip_prefix(op).map(|r| (*op, r)))
            .unwrap_or(("=", c));
        let want =
            Version::parse(rest).ok_or_else(|| format!("cannot read the version in \"{c}\""))?;
        let ord = v.cmp_core(&want);
        let ok = match op {
            "=" => ord == Ordering::Equal,
            "!=" => ord != Ordering::Equal,
            ">" => ord == Ordering::Greater,
            ">=" => ord != Ordering::Less,
            "<" => ord == Ordering::Less,
            "<=" => ord != Ordering::Greater,
            _ => {
                // ~> X.Y.Z: >= X.Y.Z, < X.(Y+1); ~> X.Y: >= X.Y, < (X+1); ~> X: >= X
                let upper = match want.given {
                    0 | 1 => None,
                    2 => Some([want.parts[0] + 1, 0, 0]),
                    _ => Some([want.parts[0], want.parts[1] + 1, 0]),
                };
                ord != Ordering::Less && upper.is_none_or(|u| v.parts < u)
            }
        };
        if !ok {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether a constraint names exactly one version (`1.2.3`, `= 1.2.3`, `v1.2.3`).
pub fn is_exact(constraint: &str) -> bool {
    let c = constraint.trim();
    let c = c.strip_prefix('=').unwrap_or(c).trim();
    !c.contains(',') && Version::parse(c).is_some_and(|v| v.given == 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(c: &str, v: &str) -> bool {
        admits(c, &Version::parse(v).unwrap()).unwrap()
    }

    #[test]
    fn constraints() {
        assert!(ok(">= 1.6", "1.6.0"));
        assert!(!ok(">= 1.6", "1.5.7"));
        assert!(ok(">= 1.3, < 2.0", "1.9.1"));
        assert!(ok("~> 1.6", "1.9.0"));
        assert!(!ok("~> 1.6", "2.0.0"));
        assert!(ok("~> 1.6.0", "1.6.5"));
        assert!(!ok("~> 1.6.0", "1.7.0"));
        assert!(ok("1.6.0", "1.6.0"));
        assert!(!ok("!= 1.6.0", "1.6.0"));
        assert!(admits("banana", &Version::parse("1.0.0").unwrap()).is_err());
        assert!(is_exact("= 5.1.2"));
        assert!(!is_exact("~> 5.1"));
        assert!(!is_exact("5.1"));
    }
}
