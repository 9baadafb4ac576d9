//! Address patterns: ward's one wildcard syntax, used by every `ward.hcl` key that names
//! resource addresses (`policy.protect`, guard `addresses`, `check.protected`, drift `ignore`
//! `address`/`attribute`, rule `address` selectors), by `exclude` and `generated` paths and by
//! `check { release { module_sources } }`'s module packages.
//!
//! `*` matches any run of characters (none included; dots, brackets, quotes and `/` too), and
//! every other character matches only itself. So instance keys are literal: `data[0]` matches
//! `data[0]` and nothing else, and `tags["a"]` matches exactly that key. There is no `?`, no
//! character class and no `{a,b}`; `**` means the same as `*`. The syntax is documented once, in
//! `docs/config.md`.

/// True when `pattern` matches all of `text`: `*` matches any run of characters, every other
/// character only itself. Linear in the lengths times the number of `*`-restarts, never
/// exponential.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    // The last `*` seen and where in the text its run currently ends.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if p.get(pi) == Some(&'*') {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p.get(pi) == t.get(ti) {
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
    while p.get(pi) == Some(&'*') {
        pi += 1;
    }
    pi == p.len()
}

/// True when the text contains the wildcard `*` (so it is a pattern, not one address).
pub fn is_pattern(s: &str) -> bool {
    s.contains('*')
}

/// The address with every instance key removed: `module.a["x"].t.n[0]` becomes `module.a.t.n`,
/// the form resource blocks have in configuration. Brackets inside quoted keys do not count.
pub fn strip_instance_keys(address: &str) -> String {
    let mut out = String::with_capacity(address.len());
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for c in address.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            '"' if depth > 0 => in_string = true,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// True when `pattern` matches the instance address, or the address without its instance keys:
/// `fakecloud_volume.data` covers every instance of that resource, `fakecloud_volume.data[0]`
/// only the first.
pub fn address_matches(pattern: &str, address: &str) -> bool {
    matches(pattern, address) || matches(pattern, &strip_instance_keys(address))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_wildcard_everything_else_literal() {
        assert!(matches("module.db.*", "module.db.aws_db_instance.main[0]"));
        assert!(matches("*", ""));
        assert!(matches("a*b*c", "aXXbYYc"));
        assert!(!matches("a*b*c", "aXXbYY"));
        assert!(matches("x[0]", "x[0]"));
        assert!(!matches("x[0]", "x0"));
        assert!(!matches("x[01]", "x1"));
        assert!(!matches("x?", "xy"));
        assert!(matches("x?", "x?"));
        assert!(!matches("{a,b}", "a"));
        assert!(matches("sandbox/*", "sandbox/a/b"));
        assert!(matches("sandbox/**", "sandbox/a/b"));
        assert!(matches(r#"t.n["a"]"#, r#"t.n["a"]"#));
        assert!(!matches(r#"t.n["a"]"#, r#"t.n["b"]"#));
        assert!(!matches("fakecloud_volume.data", "fakecloud_volume.data2"));
    }

    #[test]
    fn instance_keys() {
        assert_eq!(
            strip_instance_keys(r#"module.a["x.]y"].t.n[0]"#),
            "module.a.t.n"
        );
        assert!(address_matches(
            "fakecloud_volume.data",
            "fakecloud_volume.data[3]"
        ));
        assert!(address_matches(
            "fakecloud_volume.data[0]",
            "fakecloud_volume.data[0]"
        ));
        assert!(!address_matches(
            "fakecloud_volume.data[0]",
            "fakecloud_volume.data[1]"
        ));
        assert!(!address_matches(
            "fakecloud_volume.data",
            "fakecloud_volume.database"
        ));
    }
}
