//! Attribute paths inside a resource's values.

use serde::{Serialize, Serializer};
use std::fmt;

/// One step of an [`AttrPath`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PathStep {
    /// An object attribute or map key.
    Key(String),
    /// A list or set index.
    Index(u64),
}

/// A path to a value inside a resource, as in `replace_paths`: `["tags","Name"]` or
/// `["root_block_device",0,"volume_size"]`. Displayed as `tags.Name` and
/// `root_block_device[0].volume_size`; a key that is not a plain identifier is quoted:
/// `tags["kubernetes.io/role"]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AttrPath(pub Vec<PathStep>);

impl AttrPath {
    /// A path written with dots, each part a key or, when it is a number, an index:
    /// `root_block_device.0.volume_size`. For paths built by hand (tests, examples); a key that
    /// holds a dot cannot be written this way.
    pub fn dotted(s: &str) -> Self {
        AttrPath(
            s.split('.')
                .map(|p| match p.parse::<u64>() {
                    Ok(n) => PathStep::Index(n),
                    Err(_) => PathStep::Key(p.to_string()),
                })
                .collect(),
        )
    }

    /// The empty path (the whole object).
    pub fn root() -> Self {
        AttrPath(Vec::new())
    }

    /// This path with one more step.
    pub fn child(&self, step: PathStep) -> Self {
        let mut v = self.0.clone();
        v.push(step);
        AttrPath(v)
    }

    /// The top-level attribute name, if the path starts with a key.
    pub fn attribute(&self) -> Option<&str> {
        match self.0.first() {
            Some(PathStep::Key(k)) => Some(k),
            _ => None,
        }
    }

    /// True when the path displays as `text` (`self.to_string() == text`), without building
    /// the string: the display is compared piece by piece as it is written.
    pub fn displays_as(&self, text: &str) -> bool {
        // A path of one plain key (most identity paths) displays as the key itself.
        if let [PathStep::Key(k)] = self.0.as_slice() {
            if is_ident(k) {
                return k == text;
            }
        }
        self.strip_display(text) == Some("")
    }

    /// `text` after the path's display when `text` starts with it
    /// (`text.strip_prefix(&self.to_string())`), without building the string.
    pub fn strip_display<'t>(&self, text: &'t str) -> Option<&'t str> {
        struct Rest<'t>(&'t str);
        impl fmt::Write for Rest<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                match self.0.strip_prefix(s) {
                    Some(rest) => {
                        self.0 = rest;
                        Ok(())
                    }
                    None => Err(fmt::Error),
                }
            }
        }
        let mut rest = Rest(text);
        // Each piece straight to `write_str`, without a `Formatter` in between.
        self.write_to(&mut rest).ok()?;
        Some(rest.0)
    }

    /// True when `self` equals `prefix` or lies inside it.
    pub fn starts_with(&self, prefix: &AttrPath) -> bool {
        self.0.len() >= prefix.0.len() && self.0[..prefix.0.len()] == prefix.0[..]
    }
}

fn is_ident(k: &str) -> bool {
    // Byte by byte, each looked up in [`IDENT`]: every byte of a character beyond ASCII fails
    // both tests, as the character itself does, so no decoding is needed.
    let mut bytes = k.bytes();
    matches!(bytes.next(), Some(c) if IDENT[usize::from(c)] & STARTS != 0)
        && bytes.all(|c| IDENT[usize::from(c)] & GOES_ON != 0)
}

/// [`IDENT`]'s bit for a byte an identifier may start with: an ASCII letter or `_`.
const STARTS: u8 = 1;
/// [`IDENT`]'s bit for a byte an identifier may go on with: those, an ASCII digit or `-`.
const GOES_ON: u8 = 2;

/// Per byte, which of [`STARTS`] and [`GOES_ON`] it is.
const IDENT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' {
            t[b] = STARTS | GOES_ON;
        } else if c.is_ascii_digit() || c == b'-' {
            t[b] = GOES_ON;
        }
        b += 1;
    }
    t
};

impl AttrPath {
    /// Writes what `Display` writes into any writer (a `Formatter`, or one that escapes as it
    /// goes), each piece through `write_str`: without a `Formatter` in between, a plain path
    /// costs its own pieces alone (ward-report's JSON record writes one for each attribute).
    pub fn write_to<W: fmt::Write + ?Sized>(&self, w: &mut W) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                PathStep::Key(k) if is_ident(k) => {
                    if i > 0 {
                        w.write_str(".")?;
                    }
                    w.write_str(k)?;
                }
                PathStep::Key(k) => write!(w, "[{}]", serde_json::Value::String(k.clone()))?,
                PathStep::Index(n) => {
                    w.write_str("[")?;
                    w.write_str(itoa::Buffer::new().format(*n))?;
                    w.write_str("]")?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for AttrPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl Serialize for AttrPath {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index is written as `Display` writes the number, at every length.
    #[test]
    fn an_index_is_written_as_its_number_displays() {
        let mut ns = vec![0u64, 1, 9, u64::MAX, u64::MAX - 1];
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            ns.extend([p - 1, p, p + 1]);
            p = next;
        }
        ns.push(p);
        for n in ns {
            let path = AttrPath(vec![PathStep::Key("list".into()), PathStep::Index(n)]);
            assert_eq!(path.to_string(), format!("list[{n}]"));
        }
    }

    /// A key is written bare exactly when its characters are an identifier's: letters beyond
    /// ASCII (`é`, `ä`, a CJK character), digits beyond ASCII and marks quote it.
    #[test]
    fn a_key_is_bare_only_when_every_character_is_an_identifiers() {
        let chars = |k: &str| {
            let mut chars = k.chars();
            matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        for k in [
            "",
            "a",
            "_",
            "-",
            "a-b_c9",
            "9a",
            "é",
            "aé",
            "a\u{e9}",
            "é-",
            "ab\u{300}",
            "名前",
            "a名",
            "a.b",
            "a b",
            "a\u{ff10}",
            "A\u{7f}",
            "z\u{80}",
        ] {
            assert_eq!(is_ident(k), chars(k), "{k:?}");
        }
        // Every ASCII character, first and after a letter.
        for c in (0u8..128).map(char::from) {
            for k in [c.to_string(), format!("a{c}")] {
                assert_eq!(is_ident(&k), chars(&k), "{k:?}");
            }
        }
        assert!(is_ident("ebs_block_device-2"));
        assert!(!is_ident("aé"));
    }

    #[test]
    fn display() {
        let p = AttrPath(vec![
            PathStep::Key("root_block_device".into()),
            PathStep::Index(0),
            PathStep::Key("volume_size".into()),
        ]);
        assert_eq!(p.to_string(), "root_block_device[0].volume_size");
        let q = AttrPath(vec![
            PathStep::Key("tags".into()),
            PathStep::Key("kubernetes.io/role".into()),
        ]);
        assert_eq!(q.to_string(), r#"tags["kubernetes.io/role"]"#);
        assert!(q.starts_with(&AttrPath(vec![PathStep::Key("tags".into())])));
    }

    #[test]
    fn a_path_displays_as_its_string() {
        let paths = [
            AttrPath::dotted("id"),
            AttrPath(vec![PathStep::Key("kubernetes.io/role".into())]),
            AttrPath::dotted("network.ip"),
            AttrPath(vec![PathStep::Key("a.b".into())]),
            AttrPath(vec![PathStep::Key("x".into()), PathStep::Index(3)]),
            AttrPath(vec![]),
        ];
        let texts = [
            "id",
            "i",
            "idx",
            "kubernetes.io/role",
            "[\"kubernetes.io/role\"]",
            "network.ip",
            "network",
            "a.b",
            "[\"a.b\"]",
            "x[3]",
            "",
        ];
        let mut matched = 0;
        for p in &paths {
            for t in texts {
                assert_eq!(p.displays_as(t), p.to_string() == t, "{p} {t}");
                matched += usize::from(p.displays_as(t));
            }
        }
        // Each path displays as exactly one of the texts.
        assert_eq!(matched, paths.len());
    }

    #[test]
    fn strip_display_is_strip_prefix_of_the_string() {
        let paths = [
            AttrPath::dotted("network.ip"),
            AttrPath(vec![PathStep::Key("a.b".into()), PathStep::Index(3)]),
            AttrPath(vec![]),
        ];
        let texts = [
            "network.ip` costs",
            "network.ip",
            "network.i",
            "network",
            "[\"a.b\"][3]: x",
            "[\"a.b\"][",
            "",
            "x",
        ];
        let mut stripped = 0;
        for p in &paths {
            for t in texts {
                let want = t.strip_prefix(p.to_string().as_str());
                assert_eq!(p.strip_display(t), want, "{p} {t}");
                stripped += usize::from(want.is_some());
            }
        }
        // The first path strips two texts, the second one, the empty path every text.
        assert_eq!(stripped, 2 + 1 + texts.len());
    }
}
