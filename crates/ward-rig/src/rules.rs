//! What ward knows about fakecloud, for tests: the user rule file `examples/rules/fakecloud.hcl`.
//!
//! fakecloud is ward's test provider, not a provider users run, so its rules are not a built-in
//! pack: they are a rule file, loaded the way a user loads theirs (`rules { files = [...] }` in
//! `ward.hcl`, see docs/config.md). Tests get that knowledge from here, and nowhere else:
//!
//! - [`knowledge`]: the built-in packs plus the rule file, for tests that classify in-process
//!   ([`knowledge_under`] with a `ward.hcl`'s own rules first);
//! - [`ward_hcl`]: a `ward.hcl` text that loads the rule file, for tests that run ward (the binary
//!   or a command's entry point) in a scratch root;
//! - [`CONFIG`]: `examples/ward.hcl`, which loads it for the example plans (`--config`).

use std::path::PathBuf;
use ward_rules::{Knowledge, RulesError};

/// The rule file as reports cite it when ward runs at the workspace root with
/// `--config examples/ward.hcl`, and as [`knowledge`] cites it.
pub const CITED: &str = "examples/rules/fakecloud.hcl";

/// The example configuration that loads the rule file, relative to the workspace root.
pub const CONFIG: &str = "examples/ward.hcl";

/// The rule file, as an absolute path.
pub fn file() -> PathBuf {
    crate::workspace_root().join(CITED)
}

/// Adds the fakecloud rule file (cited as [`CITED`]) to `k`, after the user rules it has: those
/// win over it, as a `ward.hcl`'s own `resource` blocks win over the files it loads.
pub fn add(k: &mut Knowledge) -> Result<(), RulesError> {
    k.add_user_rules(&ward_rules::UserRules::read(&file(), CITED)?);
    Ok(())
}

/// The built-in packs plus the fakecloud rule file (cited as [`CITED`]).
pub fn knowledge() -> Result<Knowledge, RulesError> {
    let mut k = Knowledge::builtin()?;
    add(&mut k)?;
    Ok(k)
}

/// The fakecloud rule file alone, without the built-in packs: for snapshots of whole
/// assessments that must not change when a pack does.
pub fn knowledge_alone() -> Result<Knowledge, RulesError> {
    let mut k = Knowledge::empty();
    add(&mut k)?;
    Ok(k)
}

/// The built-in packs, the rule file `text` (cited as `file`, e.g. a `ward.hcl`'s `resource`
/// blocks), then the fakecloud rule file: the precedence of a `ward.hcl` whose `rules` block
/// loads it, so `text` wins over it.
pub fn knowledge_under(file: &str, text: &str) -> Result<Knowledge, RulesError> {
    let mut k = Knowledge::builtin()?;
    k.load_user_str(file, text)?;
    add(&mut k)?;
    Ok(k)
}

/// `body` (the text of a `ward.hcl`, perhaps empty) followed by a `rules` block that loads the
/// fakecloud rule file by its absolute path. Appended, so the lines of `body` keep their numbers.
pub fn ward_hcl(body: &str) -> String {
    let path = file()
        .display()
        .to_string()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace("${", "$${")
        .replace("%{", "%%{");
    let sep = if body.is_empty() || body.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    format!("{body}{sep}\n# ward's test provider: its rules are a user rule file (ward_rig::rules).\nrules {{\n  files = [\"{path}\"]\n}}\n")
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_file_classifies_every_fakecloud_kind() {
        let k = knowledge().unwrap();
        assert_eq!(k.user_files(), [CITED]);
        for kind in crate::KINDS {
            let t = format!("fakecloud_{kind}");
            assert!(k.classifies_type(&t, None), "{t} is not classified");
        }
        // Not shipped: the built-in packs alone know nothing of fakecloud.
        let builtin = Knowledge::builtin().unwrap();
        assert!(!builtin.classifies_type("fakecloud_volume", None));
    }

    #[test]
    fn ward_hcl_keeps_the_body_and_loads_the_file() {
        let text = ward_hcl("plan {\n  fail_on = \"replace\"\n}");
        assert!(text.starts_with("plan {\n  fail_on = \"replace\"\n}\n"));
        assert!(text.contains(&file().display().to_string()));
        assert!(crate::workspace_root().join(CONFIG).is_file());
    }
}
