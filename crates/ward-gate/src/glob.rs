//! Address patterns: `*` matches any run of characters, everything else is literal.
//!
//! Resource addresses are full of characters that are special in ordinary globs (`[`, `]`, `"`),
//! so ward's address patterns know exactly one wildcard.

/// True when `pattern` (with `*` as the only wildcard) matches all of `text`.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

/// True when the pattern contains a wildcard.
pub fn is_pattern(s: &str) -> bool {
    s.contains('*')
}

/// The address with every instance key removed: `module.a["x"].t.n[0]` becomes `module.a.t.n`,
/// the form resource blocks have in configuration.
pub fn strip_instance_keys(address: &str) -> String {
    let mut out = String::with_capacity(address.len());
    let mut depth = 0usize;
    let mut in_str = false;
    let mut escaped = false;
    for c in address.chars() {
        if depth > 0 {
            if in_str {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_str = false;
                }
            } else if c == '"' {
                in_str = true;
            } else if c == '[' {
                depth += 1;
            } else if c == ']' {
                depth -= 1;
            }
            continue;
        }
        if c == '[' {
            depth = 1;
            continue;
        }
        out.push(c);
    }
    out
}

/// True when `pattern` matches the instance address, or the address without its instance keys
/// (so `fakecloud_volume.data` protects every instance of that resource).
pub fn address_matches(pattern: &str, address: &str) -> bool {
    glob_match(pattern, address) || glob_match(pattern, &strip_instance_keys(address))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards() {
        assert!(glob_match(
            "module.db.*",
            "module.db.aws_db_instance.main[0]"
        ));
        assert!(glob_match("*", ""));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(!glob_match("a*b*c", "aXXbYY"));
        assert!(glob_match("x[0]", "x[0]"));
        assert!(!glob_match("x[0]", "x0"));
        assert!(glob_match("*.data", "fakecloud_volume.data"));
        assert!(!glob_match(
            "fakecloud_volume.data",
            "fakecloud_volume.data2"
        ));
    }

    #[test]
    fn strips_keys() {
        assert_eq!(
            strip_instance_keys(r#"module.a["x.]y"].t.n[0]"#),
            "module.a.t.n"
        );
        assert!(address_matches(
            "fakecloud_volume.data",
            "fakecloud_volume.data[3]"
        ));
        assert!(!address_matches(
            "fakecloud_volume.data",
            "fakecloud_volume.database"
        ));
    }
}
