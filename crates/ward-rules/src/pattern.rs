//! Attribute patterns, address globs and provider selectors: the matching half of the rule format.

use std::fmt;
use ward_model::{AttrPath, PathStep};

/// One segment of an attribute pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Seg {
    /// A literal key.
    Key(String),
    /// `*`: any one key.
    Any,
}

/// A compiled attribute pattern such as `root_block_device.volume_size`, `tags`, `spec.*.image`
/// or `labels["app.kubernetes.io/name"]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Pattern {
    segs: Vec<Seg>,
}

/// How a pattern relates to a changed path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relation {
    /// The pattern is the path or a prefix of it: it decides the path's cost.
    Covers,
    /// The path is a proper prefix of the pattern: the change may include what the pattern names.
    Inside,
}

impl Pattern {
    /// Parses a pattern. Indices are refused: patterns ignore them.
    pub(crate) fn parse(text: &str) -> Result<Pattern, String> {
        let mut segs = Vec::new();
        let chars: Vec<char> = text.chars().collect();
        let mut i = 0;
        let mut expect_segment = true;
        if chars.is_empty() {
            return Err("an attribute pattern cannot be empty".into());
        }
        while i < chars.len() {
            let c = chars[i];
            if c == '[' {
                if expect_segment && !segs.is_empty() {
                    return Err(format!(
                        "`{text}`: write `name[\"key\"]`, without a `.` before `[`"
                    ));
                }
                // `["quoted key"]`, or an index, which is refused.
                let rest: String = chars[i..].iter().collect();
                if let Some(stripped) = rest.strip_prefix("[\"") {
                    let Some(end) = stripped.find("\"]") else {
                        return Err(format!(
                            "unterminated quoted key in `{text}`: write `name[\"key\"]`"
                        ));
                    };
                    let key = &stripped[..end];
                    if key.contains('"') || key.contains('\\') {
                        return Err(format!(
                            "quoted keys in `{text}` cannot contain `\"` or `\\`"
                        ));
                    }
                    segs.push(Seg::Key(key.to_string()));
                    i += 2 + key.chars().count() + 2;
                    expect_segment = false;
                    continue;
                }
                return Err(format!(
                    "`{text}` has an index: patterns ignore list and set indices, so write it \
                     without them (`root_block_device.volume_size` matches \
                     `root_block_device[0].volume_size`)"
                ));
            }
            if c == '.' {
                if expect_segment {
                    return Err(format!(
                        "`{text}` has an empty segment (`..` or a leading `.`)"
                    ));
                }
                expect_segment = true;
                i += 1;
                continue;
            }
            if !expect_segment {
                return Err(format!("`{text}`: expected `.` or `[` after a segment"));
            }
            let start = i;
            while i < chars.len() && chars[i] != '.' && chars[i] != '[' {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            if word == "*" {
                segs.push(Seg::Any);
            } else if is_ident(&word) {
                segs.push(Seg::Key(word));
            } else {
                return Err(format!(
                    "`{word}` in `{text}` is not an attribute name: use letters, digits, `_` \
                     and `-`, `*` for any one key, or `[\"quoted key\"]`"
                ));
            }
            expect_segment = false;
        }
        if expect_segment {
            return Err(format!("`{text}` ends with `.`"));
        }
        Ok(Pattern { segs })
    }

    /// Number of segments: the longer pattern is the more specific.
    pub(crate) fn len(&self) -> usize {
        self.segs.len()
    }

    /// Number of literal (non-`*`) segments: breaks ties between patterns of one length.
    pub(crate) fn literals(&self) -> usize {
        self.segs
            .iter()
            .filter(|s| matches!(s, Seg::Key(_)))
            .count()
    }

    /// True when the pattern uses `*`.
    pub(crate) fn has_wildcard(&self) -> bool {
        self.segs.contains(&Seg::Any)
    }

    /// The path this pattern names, for identity lists (which have no wildcards).
    pub(crate) fn to_path(&self) -> AttrPath {
        AttrPath(
            self.segs
                .iter()
                .map(|s| match s {
                    Seg::Key(k) => PathStep::Key(k.clone()),
                    Seg::Any => PathStep::Key("*".into()),
                })
                .collect(),
        )
    }

    /// How this pattern relates to `path` (indices in the path are ignored), if at all.
    pub(crate) fn relation(&self, path: &AttrPath) -> Option<Relation> {
        // Compared step by step, without collecting the path's keys: this runs for every
        // attribute entry of a type's rules, for every changed attribute of a plan.
        let mut keys = path.0.iter().filter_map(|s| match s {
            PathStep::Key(k) => Some(k.as_str()),
            PathStep::Index(_) => None,
        });
        for seg in &self.segs {
            let Some(key) = keys.next() else {
                // The path ends first, and agrees so far.
                return Some(Relation::Inside);
            };
            if let Seg::Key(k) = seg {
                if k != key {
                    return None;
                }
            }
        }
        Some(Relation::Covers)
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.segs.iter().enumerate() {
            match s {
                Seg::Any => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str("*")?;
                }
                Seg::Key(k) if is_ident(k) => {
                    if i > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(k)?;
                }
                Seg::Key(k) => write!(f, "[\"{k}\"]")?,
            }
        }
        Ok(())
    }
}

fn is_ident(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// True for a valid resource type name (`aws_instance`, `null_resource`).
pub(crate) fn is_type_name(t: &str) -> bool {
    is_ident(t)
}

pub(crate) use ward_model::pattern::{matches as glob_matches, strip_instance_keys};

/// The provider as a list of segments, without `provider[...]` wrapping, quotes or an alias:
/// `registry.terraform.io/hashicorp/aws` → `[registry.terraform.io, hashicorp, aws]`,
/// `null.aliased` → `[null]`.
fn provider_segments(p: &str) -> Vec<String> {
    let mut s = p.trim();
    if let Some(inner) = s
        .strip_prefix("provider[")
        .and_then(|r| r.strip_suffix(']'))
    {
        s = inner;
    }
    let s = s.trim_matches('"');
    if !s.contains('/') {
        // A local name, perhaps with an alias: `aws`, `null.aliased`.
        let local = s.split('.').next().unwrap_or(s);
        return vec![local.to_ascii_lowercase()];
    }
    s.split('/').map(|x| x.to_ascii_lowercase()).collect()
}

/// True when a rule's `provider` selector matches a provider address from a plan. The selector's
/// segments must be a suffix of the address's (`hashicorp/aws` and `aws` match
/// `registry.terraform.io/hashicorp/aws`; any registry host matches). A plan that only gives a
/// local name (`aws`, old formats) is compared with the selector's last segment.
pub(crate) fn provider_matches(selector: &str, provider: &str) -> bool {
    let sel = provider_segments(selector);
    let have = provider_segments(provider);
    if have.len() == 1 {
        return sel.last() == have.last();
    }
    sel.len() <= have.len() && have[have.len() - sel.len()..] == sel[..]
}

/// Attribute names (`identity`, `access_rules` entries, checked when the rule was read) as
/// attribute paths.
pub(crate) fn names_as_paths(names: &[String]) -> Vec<AttrPath> {
    names
        .iter()
        .filter_map(|s| Pattern::parse(s).ok())
        .map(|p| p.to_path())
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn path(steps: &[&str]) -> AttrPath {
        AttrPath(
            steps
                .iter()
                .map(|s| match s.parse::<u64>() {
                    Ok(n) => PathStep::Index(n),
                    Err(_) => PathStep::Key((*s).to_string()),
                })
                .collect(),
        )
    }

    #[test]
    fn patterns_parse_and_display() {
        for p in [
            "tags",
            "root_block_device.volume_size",
            "spec.*.image",
            "labels[\"app.kubernetes.io/name\"]",
            "*",
        ] {
            let parsed = Pattern::parse(p).unwrap();
            assert_eq!(parsed.to_string(), p);
        }
        for bad in [
            "",
            "a..b",
            ".a",
            "a.",
            "a[0]",
            "a[\"x",
            "a b",
            "a.[\"x\"]x",
            "a.[\"x\"]",
        ] {
            assert!(Pattern::parse(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn relations_ignore_indices() {
        let p = Pattern::parse("root_block_device.volume_size").unwrap();
        assert_eq!(
            p.relation(&path(&["root_block_device", "0", "volume_size"])),
            Some(Relation::Covers)
        );
        assert_eq!(
            p.relation(&path(&["root_block_device"])),
            Some(Relation::Inside)
        );
        assert_eq!(p.relation(&path(&["root_block_device", "0", "iops"])), None);
        let star = Pattern::parse("spec.*.image").unwrap();
        assert_eq!(
            star.relation(&path(&["spec", "containers", "0", "image", "x"])),
            Some(Relation::Covers)
        );
        assert_eq!(star.relation(&path(&["status"])), None);
    }

    #[test]
    fn globs() {
        assert!(glob_matches(
            "module.ledger.*",
            "module.ledger.fakecloud_volume.v[0]"
        ));
        assert!(glob_matches("*", ""));
        assert!(glob_matches("a*b*c", "aXXbYYc"));
        assert!(!glob_matches("a*b*c", "aXXbYY"));
        assert!(glob_matches(
            "module.x[\"a\"].*",
            "module.x[\"a\"].null_resource.n"
        ));
        assert!(!glob_matches("module.ledger.*", "module.ledgers.x.y"));
        assert!(glob_matches("exact.addr[0]", "exact.addr[0]"));
    }

    #[test]
    fn module_keys() {
        assert_eq!(
            strip_instance_keys("module.a[\"x]y\"].module.b[0]"),
            "module.a.module.b"
        );
    }

    #[test]
    fn providers() {
        assert!(provider_matches(
            "hashicorp/aws",
            "registry.terraform.io/hashicorp/aws"
        ));
        assert!(provider_matches(
            "hashicorp/aws",
            "registry.opentofu.org/hashicorp/aws"
        ));
        assert!(provider_matches(
            "aws",
            "registry.terraform.io/hashicorp/aws"
        ));
        assert!(provider_matches("hashicorp/aws", "aws"));
        assert!(provider_matches("null", "null.aliased"));
        assert!(provider_matches(
            "registry.terraform.io/hashicorp/aws",
            "provider[\"registry.terraform.io/hashicorp/aws\"]"
        ));
        assert!(!provider_matches(
            "hashicorp/aws",
            "registry.terraform.io/other/aws"
        ));
        assert!(!provider_matches(
            "hashicorp/google",
            "hashicorp/google-beta"
        ));
    }
}
