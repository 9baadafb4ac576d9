//! The `rules { }` block: rule files (`resource` blocks only, docs/rules.md) that `ward.hcl`
//! loads besides its own `resource` blocks, e.g. one file of rules for an in-house provider that
//! several repositories share.
//!
//! ```hcl
//! rules {
//!   files = ["rules/fakecloud.hcl"]   # relative to the directory of ward.hcl
//! }
//! ```
//!
//! Each file is read when `ward.hcl` is (a file that is missing or does not load stops every
//! command that reads the configuration) and cited relative to where `ward.hcl` is cited
//! (`examples/rules/fakecloud.hcl` for `--config examples/ward.hcl`). Precedence: the `resource`
//! blocks of `ward.hcl` first, then the files in the order listed, then the built-in packs.

use crate::error::ConfigError;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use std::path::{Component, Path, PathBuf};
use ward_hcl::Reader;
use ward_rules::UserRules;

pub(crate) const RULES_KEYS: &[&str] = &["files"];

/// Reads the `rules` block: every file it lists, loaded. `dir` is the directory of `ward.hcl`
/// on disk (paths are relative to it).
pub(crate) fn rules(
    src: &Reader<'_>,
    b: &Block,
    dir: &Path,
) -> Result<Vec<UserRules>, ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`rules`", RULES_KEYS, &[])?;
    let Some(a) = f.get("files") else {
        return Err(src.err(
            b.ident.span(), "a `rules` block without `files`").help("list the rule files to load, e.g. `files = [\"rules/inhouse.hcl\"]`, or remove the block").into());
    };
    let mut out: Vec<UserRules> = Vec::new();
    for (written, span) in src.strings(a)? {
        if written.trim().is_empty() {
            return Err(src
                .err(span, "an empty path in `rules { files }`")
                .help("write the rule file's path, relative to the directory of ward.hcl")
                .into());
        }
        let cited = cite(src.file(), &written);
        if out.iter().any(|u| u.file() == cited) {
            return Err(src
                .err(
                    span,
                    format!("`{written}` is listed twice in `rules {{ files }}`"),
                )
                .help("list each rule file once")
                .into());
        }
        let path = dir.join(&written);
        if !path.is_file() {
            let problem = if path.is_dir() {
                "is a directory, not a rule file"
            } else {
                "does not exist"
            };
            return Err(src.err(
                span, format!("rule file `{written}` {problem} (looked for {})", path.display())).help("paths in `rules { files }` are relative to the directory of ward.hcl; fix the path or remove the entry").into());
        }
        out.push(UserRules::read(&path, &cited)?);
    }
    Ok(out)
}

/// How reports cite a rule file written as `written` in the `ward.hcl` cited as `config`: joined
/// to that file's directory, `.` and `dir/..` folded away (`examples/ward.hcl` + `rules/x.hcl` →
/// `examples/rules/x.hcl`); an absolute path as written.
fn cite(config: &str, written: &str) -> String {
    let written = Path::new(written);
    if written.is_absolute() {
        return written.display().to_string();
    }
    let joined = Path::new(config)
        .parent()
        .unwrap_or(Path::new(""))
        .join(written);
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir
                if matches!(out.components().next_back(), Some(Component::Normal(_))) =>
            {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out.display().to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::cite;
    use crate::Config;
    use std::path::Path;

    const RULE: &str = "resource \"a_vm\" {\n  holds_data = true\n}\n";

    #[test]
    fn cites_rule_files_where_the_configuration_is_cited() {
        assert_eq!(cite("ward.hcl", "rules/x.hcl"), "rules/x.hcl");
        assert_eq!(cite("ward.hcl", "./rules/x.hcl"), "rules/x.hcl");
        assert_eq!(
            cite("examples/ward.hcl", "rules/x.hcl"),
            "examples/rules/x.hcl"
        );
        assert_eq!(
            cite("examples/stack/ward.hcl", "../rules/x.hcl"),
            "examples/rules/x.hcl"
        );
        assert_eq!(cite("../ward.hcl", "../rules/x.hcl"), "../../rules/x.hcl");
        assert_eq!(cite("ward.hcl", "/etc/ward/x.hcl"), "/etc/ward/x.hcl");
    }

    #[test]
    fn loads_the_files_after_the_resource_blocks_of_ward_hcl() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("rules")).unwrap();
        std::fs::write(dir.path().join("rules/a.hcl"), RULE).unwrap();
        std::fs::write(dir.path().join("b.hcl"), RULE.replace("a_vm", "b_vm")).unwrap();
        let c = Config::parse(
            "rules {\n  files = [\"rules/a.hcl\", \"b.hcl\"]\n}\nresource \"a_vm\" {\n  holds_data = false\n}\n",
            "sub/ward.hcl",
            dir.path(),
        )
        .unwrap();
        let k = crate::knowledge(Some(&c)).unwrap();
        assert_eq!(
            k.user_files(),
            ["sub/ward.hcl", "sub/rules/a.hcl", "sub/b.hcl"]
        );
        // ward.hcl's own block wins over the file it loads.
        let t = ward_rules::Target {
            type_name: "a_vm",
            address: "a_vm.x",
            module: None,
            provider: "registry.terraform.io/x/a",
        };
        let held = k.resolve(&t).holds_data();
        assert!(!held.value);
        assert_eq!(held.rule.unwrap().to_string(), "sub/ward.hcl:4:a_vm");
        let b = k.resolve(&ward_rules::Target {
            type_name: "b_vm",
            address: "b_vm.x",
            ..t
        });
        assert_eq!(b.holds_data().rule.unwrap().to_string(), "sub/b.hcl:1:b_vm");
    }

    #[test]
    fn refuses_what_it_cannot_load() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.hcl"), "policy {}\n").unwrap();
        let err = |text: &str| {
            Config::parse(text, "ward.hcl", dir.path())
                .unwrap_err()
                .to_string()
        };
        let e = err("rules {\n  files = [\"missing.hcl\"]\n}\n");
        assert!(
            e.starts_with("ward.hcl:2:12: rule file `missing.hcl` does not exist"),
            "{e}"
        );
        assert!(e.contains("relative to the directory of ward.hcl"), "{e}");
        let e = err("rules {\n  files = [\".\"]\n}\n");
        assert!(e.contains("is a directory"), "{e}");
        let e = err("rules {\n  files = [\"bad.hcl\"]\n}\n");
        assert!(e.starts_with("bad.hcl:1:1: unknown block `policy`"), "{e}");
        let e = err("rules {\n  fils = [\"bad.hcl\"]\n}\n");
        assert!(e.contains("unknown key `fils`"), "{e}");
        let e = err("rules {\n}\n");
        assert!(e.contains("a `rules` block without `files`"), "{e}");
        std::fs::write(dir.path().join("ok.hcl"), RULE).unwrap();
        let e = err("rules {\n  files = [\"ok.hcl\", \"./ok.hcl\"]\n}\n");
        assert!(e.contains("listed twice"), "{e}");
        let e = err("rules {\n  files = [\"ok.hcl\"]\n}\nrules {\n  files = [\"ok.hcl\"]\n}\n");
        assert!(e.contains("a second `rules` block"), "{e}");
    }

    #[test]
    fn no_rules_block_loads_no_file() {
        let c = Config::parse("", "ward.hcl", Path::new("/nonexistent")).unwrap();
        assert!(c.rule_files.is_empty());
    }
}
