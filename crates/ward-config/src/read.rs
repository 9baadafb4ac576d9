//! What ward-config adds to ward-hcl's typed reader ([`ward_hcl::Reader`]) for `ward.hcl`: the
//! block schemas every section exports (for "it belongs in ..." suggestions), lists of patterns,
//! and paths confined to the directory of `ward.hcl`. It imports no section and nothing of the
//! crate root: the sections import it.

use hcl_edit::structure::Attribute;
use ward_hcl::{did_you_mean, ReadError, Reader};

/// What one kind of block of `ward.hcl` takes: where it is written (for a suggestion), its keys
/// and its nested blocks. Each section exports its own (`SCHEMAS`); the crate root hands them
/// all to [`elsewhere`], so this module knows no section.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Schema {
    /// Where the block is written, e.g. ``"`check { rule \"ID\" { } }`"``.
    pub(crate) place: &'static str,
    /// The keys it takes.
    pub(crate) keys: &'static [&'static str],
    /// The blocks it takes.
    pub(crate) blocks: &'static [&'static str],
}

/// A suggestion for a `word` not known where it was written but close to a key or block that
/// belongs in another block of `everywhere` (the reader's [`Reader::suggesting`] hook).
pub(crate) fn elsewhere(everywhere: &[&[Schema]], word: &str) -> Option<String> {
    everywhere
        .iter()
        .flat_map(|s| s.iter())
        .filter_map(|s| {
            let k = did_you_mean(word, s.keys).or_else(|| did_you_mean(word, s.blocks))?;
            Some((ward_hcl::read::distance(word, k), k, s.place))
        })
        .min()
        .map(|(_, k, p)| format!("did you mean `{k}`? it belongs in {p}; "))
}

/// A list of patterns: plain strings, none empty.
pub(crate) fn patterns(src: &Reader<'_>, a: &Attribute) -> Result<Vec<String>, ReadError> {
    let mut out = Vec::new();
    for (s, span) in src.strings(a)? {
        if s.is_empty() {
            return Err(src
                .err(
                    span,
                    format!("an empty pattern in `{}` matches nothing", a.key.as_str()),
                )
                .help("remove it, or write `*` to match everything"));
        }
        out.push(s);
    }
    Ok(out)
}

/// `./live/net/` → `live/net`; `.` and `` → `.`. `None` when the path is absolute or leaves the
/// directory it is relative to (`..` above it).
pub(crate) fn confined_rel(p: &str) -> Option<String> {
    if p.starts_with('/') || p.starts_with('\\') || std::path::Path::new(p).is_absolute() {
        return None;
    }
    if p.len() >= 2 && p.as_bytes().get(1) == Some(&b':') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confinement() {
        assert_eq!(confined_rel("./a//b/").as_deref(), Some("a/b"));
        assert_eq!(confined_rel(".").as_deref(), Some("."));
        assert_eq!(confined_rel("a/../b").as_deref(), Some("b"));
        assert_eq!(confined_rel("../x"), None);
        assert_eq!(confined_rel("a/../../x"), None);
        assert_eq!(confined_rel("/etc/x"), None);
        assert_eq!(confined_rel("C:/x"), None);
    }
}
