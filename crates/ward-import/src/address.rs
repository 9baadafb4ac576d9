//! Resource instance addresses as an inventory writes them: `TYPE.NAME`, `TYPE.NAME[0]`,
//! `TYPE.NAME["key"]`, each optionally under `module.M` / `module.M["k"]` calls. Managed
//! resources only: a data source is never imported.

use std::fmt;

/// An instance key: `[0]` or `["key"]`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// `[N]` (count).
    Index(u64),
    /// `["text"]` (for_each).
    Str(String),
}

impl Key {
    /// The key as an HCL index: a string key's `${` and `%{` doubled (`$${`, `%%{`), so HCL reads
    /// them as the literal characters, not as a template (Terraform refuses a template in an
    /// import block's `to`).
    fn hcl(&self) -> String {
        let plain = self.to_string();
        match self {
            Key::Index(_) => plain,
            Key::Str(_) => plain.replace("${", "$${").replace("%{", "%%{"),
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Index(n) => write!(f, "[{n}]"),
            Key::Str(s) => write!(f, "[{}]", serde_json::Value::String(s.clone())),
        }
    }
}

/// A parsed managed resource instance address.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Address {
    /// The module calls, outermost first: `(name, key)`.
    pub modules: Vec<(String, Option<Key>)>,
    /// The resource type.
    pub type_name: String,
    /// The resource name.
    pub name: String,
    /// The instance key.
    pub key: Option<Key>,
}

impl Address {
    /// Parses `text`; the error says what is wrong with it.
    pub fn parse(text: &str) -> Result<Address, String> {
        let mut p = Parser { s: text, pos: 0 };
        let mut modules = Vec::new();
        loop {
            let ident = p.ident()?;
            if ident == "module" {
                p.dot()?;
                let name = p.ident()?;
                let key = p.key()?;
                modules.push((name, key));
                p.dot()?;
                continue;
            }
            if ident == "data" {
                return Err("a data source cannot be imported; give a managed resource address (`TYPE.NAME`)".into());
            }
            p.dot()?;
            let name = p.ident()?;
            let key = p.key()?;
            if p.pos != text.len() {
                return Err(format!(
                    "unexpected `{}` after the resource address",
                    &text[p.pos..]
                ));
            }
            if !ident.contains('_') {
                return Err(format!(
                    "`{ident}` is not a resource type (types are `PROVIDER_KIND`, e.g. `aws_instance`)"
                ));
            }
            return Ok(Address {
                modules,
                type_name: ident,
                name,
                key,
            });
        }
    }

    /// The resource (without its instance key): `module.m.TYPE.NAME`.
    pub fn resource(&self) -> String {
        self.resource_with(Key::to_string)
    }

    /// The address as an HCL expression (an import block's `to`): as [`Display`](fmt::Display)
    /// writes it, with template sequences in string keys escaped.
    pub fn to_hcl(&self) -> String {
        let mut s = self.resource_hcl();
        if let Some(k) = &self.key {
            s.push_str(&k.hcl());
        }
        s
    }

    /// [`Address::resource`] as an HCL expression (string keys' template sequences escaped).
    pub fn resource_hcl(&self) -> String {
        self.resource_with(Key::hcl)
    }

    fn resource_with(&self, key: impl Fn(&Key) -> String) -> String {
        let mut s = String::new();
        for (m, k) in &self.modules {
            s.push_str("module.");
            s.push_str(m);
            if let Some(k) = k {
                s.push_str(&key(k));
            }
            s.push('.');
        }
        s.push_str(&self.type_name);
        s.push('.');
        s.push_str(&self.name);
        s
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.resource())?;
        if let Some(k) = &self.key {
            write!(f, "{k}")?;
        }
        Ok(())
    }
}

struct Parser<'a> {
    s: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.s[self.pos..]
    }

    fn ident(&mut self) -> Result<String, String> {
        let rest = self.rest();
        let len = rest
            .char_indices()
            .find(|(i, c)| !(c.is_ascii_alphanumeric() || *c == '_' || (*i > 0 && *c == '-')))
            .map_or(rest.len(), |(i, _)| i);
        let word = rest[..len].to_string();
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(match rest.chars().next() {
                None => "the address ends where a name was expected".to_string(),
                Some(c) => format!("`{c}` where a name was expected"),
            });
        }
        self.pos += len;
        Ok(word)
    }

    fn dot(&mut self) -> Result<(), String> {
        if self.rest().starts_with('.') {
            self.pos += 1;
            Ok(())
        } else {
            Err(match self.rest().chars().next() {
                None => "the address ends early: it needs `TYPE.NAME`".to_string(),
                Some(c) => format!("`{c}` where `.` was expected"),
            })
        }
    }

    fn key(&mut self) -> Result<Option<Key>, String> {
        let rest = self.rest();
        let Some(inner) = rest.strip_prefix('[') else {
            return Ok(None);
        };
        let Some(end) = inner.find(']') else {
            return Err("an instance key `[` is not closed".into());
        };
        let raw = &inner[..end];
        let key = if raw.starts_with('"') {
            // A JSON string is exactly Terraform's quoted key syntax for plain keys.
            match serde_json::from_str::<String>(raw) {
                Ok(s) => Key::Str(s),
                Err(_) => return Err(format!("instance key `[{raw}]` is not a quoted string")),
            }
        } else {
            match raw.parse::<u64>() {
                Ok(n) => Key::Index(n),
                Err(_) => {
                    return Err(format!(
                        "instance key `[{raw}]` is neither a number nor a quoted string"
                    ))
                }
            }
        };
        self.pos += end + 2;
        Ok(Some(key))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for a in [
            "fakecloud_instance.web",
            "fakecloud_instance.web[0]",
            "fakecloud_instance.web[\"a b\"]",
            "module.net[\"eu\"].fakecloud_network.main",
            "module.a.module.b.x_y.z[3]",
        ] {
            assert_eq!(Address::parse(a).unwrap().to_string(), a);
        }
    }

    #[test]
    fn refuses_bad_addresses() {
        for (a, want) in [
            ("web", "ends early"),
            ("data.x_y.z", "data source"),
            ("x_y.z[", "not closed"),
            ("x_y.z[a]", "neither"),
            ("x_y.z.w", "unexpected"),
            ("instance.web", "not a resource type"),
            ("x_y.1z", "where a name"),
        ] {
            let e = Address::parse(a).unwrap_err();
            assert!(e.contains(want), "{a}: {e}");
        }
    }
}
