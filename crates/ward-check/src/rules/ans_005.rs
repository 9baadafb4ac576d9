//! WARD-ANS-005: Secret passed with -e on a command line.

use super::prelude::*;

/// WARD-ANS-005's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans005,
    name: "ansible-secret-in-argv",
    title: "Secret passed with -e on a command line",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(19),
    doc: "A secret passed to `ansible-playbook` or `ansible` with `-e`/`--extra-vars` in a script (`*.sh`, `*.bash`), a Makefile (`Makefile`, `*.mk`) or a CI file (`.gitlab-ci.yml`, `.github/workflows/*`, `Jenkinsfile`, `.circleci/`, `.ci/`, ...) sits in argv, which every user of the host can read (`ps`, `/proc/PID/cmdline`), and often in CI logs. A variable counts as a secret when its name says so, or where its value comes from does: (1) its name holds a secret word (data with its source in crates/ward-check/src/ansible.rs: `password`, `passwd`, `passphrase`, `secret`, `token`, `credential` anywhere in a word; `pass`, `pwd`, `key`, `apikey`, `privatekey`, `sshkey`, `accesskey`, `secretkey` as whole words, so `keyboard` and `monkey` are not keys), unless its last word names where or which secret it is (`ssh_key_path`, `vault_password_file`, `key_name`, `aws_access_key_id`); (2) its value is a CI secret (`${{ secrets.NAME }}`), the output of a secret store's command (`vault kv get`, `vault read`, `ansible-vault view`, `aws secretsmanager get-secret-value`, `gcloud secrets versions access`, `az keyvault secret show`, `op read`, `sops -d`, ...), or a variable whose own name says it is a secret (`$DB_PASSWORD`). A value from any other variable (`images_dir=$IMAGES_DIR`), a positional argument (`$1`) or a literal is not a secret by itself. A Jinja expression (`{{ lookup('hashi_vault', ...) }}`, `{{ lookup('env', 'X') }}`) is never flagged: Ansible evaluates it, argv holds only the expression. `-e @file` is not flagged. The finding names the variable and says truly where its value comes from (the variable `$NAME`, the script's positional argument `$1`, a literal written in the file, a CI secret, a secret store), never the value.",
    fix: "Pass the secret through a file (`-e @vars.yml` written with mode 0600, or Ansible Vault), the environment read with `lookup('env', ...)`, or a lookup of the secret store.",
    waive: "",
    fails: &[
        Example {
            path: ".github/workflows/converge.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/fail/.github/workflows/converge.yml"),
        },
        Example {
            path: "Makefile",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/fail/Makefile"),
        },
        Example {
            path: "scripts/converge.sh",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/fail/scripts/converge.sh"),
        },
    ],
    passes: &[
        Example {
            path: ".github/workflows/converge.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/pass/.github/workflows/converge.yml"),
        },
        Example {
            path: "Makefile",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/pass/Makefile"),
        },
        Example {
            path: "scripts/converge.sh",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-005/pass/scripts/converge.sh"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Secrets passed with `-e` on command lines of scripts, Makefiles and CI files (the shell
/// splitting and the secret words are in [`crate::ansible`]).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    extra_var_secrets(cx.repo, &mut cx.out);
    Ok(())
}

use crate::ansible::{PLACE_VARIABLES, SECRET_STORES, secret_word};
use std::collections::BTreeSet;
use ward_repo::Repo;
use regex::Regex;
use std::sync::OnceLock;

fn shell_split(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Where the value of a `-e NAME=VALUE` comes from, as the shell (or CI runner) gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueSource {
    /// A Jinja expression (`{{ lookup('env', 'X') }}`): Ansible evaluates it, argv holds only
    /// the expression.
    Template,
    /// A CI secret (`${{ secrets.NAME }}`).
    CiSecret(String),
    /// The output of a secret store's command ([`SECRET_STORES`]).
    SecretStore(&'static str),
    /// Another command's output (`$(...)`, backticks).
    Command,
    /// A positional argument of the script (`$1`, `$@`).
    Positional(String),
    /// A variable: shell `$NAME`/`${NAME}`, make `$(NAME)`, cmd `%NAME%`, CI `${{ env.NAME }}`.
    Variable(String),
    /// Written in the file.
    Literal,
}

impl ValueSource {
    /// Where the value comes from, in words.
    pub fn describe(&self) -> String {
        match self {
            ValueSource::Template => "a Jinja expression Ansible evaluates".to_string(),
            ValueSource::CiSecret(n) => format!("the CI secret {n}"),
            ValueSource::SecretStore(s) => format!("the output of {s}"),
            ValueSource::Command => "the output of a command".to_string(),
            ValueSource::Positional(p) => format!("the script's positional argument {p}"),
            ValueSource::Variable(v) => format!("the variable {v}"),
            ValueSource::Literal => "a literal written in this file".to_string(),
        }
    }
}

fn value_source(v: &str) -> ValueSource {
    static POSITIONAL: OnceLock<Regex> = OnceLock::new();
    static CI: OnceLock<Regex> = OnceLock::new();
    static VAR: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::unwrap_used)]
    let positional = POSITIONAL.get_or_init(|| Regex::new(r"\$(\{[0-9@*#]+\}|[0-9@*#])").unwrap());
    #[allow(clippy::unwrap_used)]
    let ci = CI.get_or_init(|| Regex::new(r"\$\{\{\s*([A-Za-z0-9_.\-\[\]'\x22]+)\s*\}\}").unwrap());
    #[allow(clippy::unwrap_used)]
    let var = VAR.get_or_init(|| {
        Regex::new(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?|\$\(([A-Za-z_][A-Za-z0-9_]*)\)|%([A-Za-z_][A-Za-z0-9_]*)%")
            .unwrap()
    });
    let t = v.trim().trim_matches(|c| c == '"' || c == '\'');
    if let Some(c) = ci.captures(t) {
        let expr = c.get(1).map(|m| m.as_str()).unwrap_or("");
        return if expr.starts_with("secrets.") {
            ValueSource::CiSecret(expr.to_string())
        } else {
            ValueSource::Variable(format!("${{{{ {expr} }}}}"))
        };
    }
    if t.contains("{{") && t.contains("}}") {
        return ValueSource::Template;
    }
    let lower = t.to_ascii_lowercase();
    let substitution = t.contains('`') || {
        // `$(` opening a command, not make's `$(NAME)`.
        let mut found = false;
        let mut rest = t;
        while let Some(i) = rest.find("$(") {
            let after = rest.get(i + 2..).unwrap_or("");
            let name_len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            if !after.get(name_len..).unwrap_or("").starts_with(')') || name_len == 0 {
                found = true;
                break;
            }
            rest = after;
        }
        found
    };
    if substitution {
        if let Some((_, _, what)) = SECRET_STORES
            .iter()
            .find(|(cmd, also, _)| lower.contains(cmd) && (also.is_empty() || lower.contains(also)))
        {
            return ValueSource::SecretStore(what);
        }
        return ValueSource::Command;
    }
    if let Some(m) = positional.find(t) {
        return ValueSource::Positional(m.as_str().to_string());
    }
    if let Some(c) = var.captures(t) {
        let whole = c.get(0).map(|m| m.as_str()).unwrap_or("");
        return ValueSource::Variable(whole.to_string());
    }
    ValueSource::Literal
}

/// Why a `-e NAME=VALUE` passes a secret, when it does (never the value itself).
fn secret_reason(name: &str, source: &ValueSource) -> Option<String> {
    if *source == ValueSource::Template {
        return None;
    }
    if let Some(w) = secret_word(name) {
        return Some(format!("its name says it is a secret (`{}`)", w.word));
    }
    match source {
        ValueSource::CiSecret(_) => Some("its value is a CI secret".to_string()),
        ValueSource::SecretStore(_) => Some("its value is read from a secret store".to_string()),
        ValueSource::Variable(v) => {
            let inner: String = v
                .trim_start_matches(['$', '{', '(', '%'])
                .trim_end_matches(['}', ')', '%'])
                .trim()
                .trim_start_matches("env.")
                .to_string();
            if PLACE_VARIABLES.iter().any(|(n, _)| *n == inner) {
                return None;
            }
            secret_word(&inner).map(|w| {
                format!(
                    "its value comes from {v}, whose name says it is a secret (`{}`)",
                    w.word
                )
            })
        }
        _ => None,
    }
}

/// What to do instead, for a value from `source`.
fn remedy(name: &str, source: &ValueSource) -> String {
    match source {
        ValueSource::Variable(v) if v.starts_with('$') && !v.starts_with("${{") => {
            let inner = v
                .trim_start_matches(['$', '{', '('])
                .trim_end_matches(['}', ')']);
            format!("export {inner} and read it in the playbook with `lookup('env', '{inner}')`")
        }
        ValueSource::CiSecret(_) => format!(
            "give it to the step as `env: {{ {}: ... }}` and read it with `lookup('env', '{}')`",
            name.to_ascii_uppercase(),
            name.to_ascii_uppercase()
        ),
        ValueSource::Literal => "a secret written in a script is in every clone too: move it to a vault or an owner-only vars file (`-e @file`), and rotate it".to_string(),
        ValueSource::SecretStore(_) => "let the playbook read it (a lookup plugin) or write it to an owner-only vars file and pass `-e @file`".to_string(),
        _ => "pass it in the environment and read it with `lookup('env', ...)`, or from an owner-only vars file (`-e @file`)".to_string(),
    }
}

/// The variables of one `-e` argument: `k=v k2=v2`, or a JSON/YAML mapping; `@file` is none.
fn extra_vars(arg: &str) -> Vec<(String, String)> {
    let a = arg.trim();
    if a.starts_with('@') {
        return Vec::new();
    }
    if a.starts_with('{') {
        static KV: OnceLock<Regex> = OnceLock::new();
        #[allow(clippy::unwrap_used)]
        let kv = KV.get_or_init(|| {
            Regex::new(r#"["']?([A-Za-z_][A-Za-z0-9_]*)["']?\s*:\s*("[^"]*"|'[^']*'|[^,}]*)"#)
                .unwrap()
        });
        return kv
            .captures_iter(a)
            .map(|c| (c[1].to_string(), c[2].trim().to_string()))
            .collect();
    }
    // `k=v k2=v2`: a value runs to the next ` NAME=` (so `$(vault kv get ...)` or
    // `${{ secrets.X }}` stays whole).
    static KEY: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::unwrap_used)]
    let key = KEY.get_or_init(|| Regex::new(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=").unwrap());
    let found: Vec<(String, usize, usize)> = key
        .captures_iter(a)
        .filter_map(|c| {
            let whole = c.get(0)?;
            Some((c[1].to_string(), whole.start(), whole.end()))
        })
        .collect();
    found
        .iter()
        .enumerate()
        .map(|(i, (k, _, end))| {
            let stop = found.get(i + 1).map(|n| n.1).unwrap_or(a.len());
            (
                k.clone(),
                a.get(*end..stop).unwrap_or("").trim().to_string(),
            )
        })
        .collect()
}

/// WARD-ANS-005: a secret passed with `-e`/`--extra-vars` on an `ansible`/`ansible-playbook`
/// command line in a script, Makefile or CI file.
pub fn extra_var_secrets(repo: &Repo, out: &mut Vec<Finding>) {
    for file in &repo.command_files {
        let Ok(bytes) = std::fs::read(repo.root.join(file)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        if !text.contains("ansible") {
            continue;
        }
        // Lines continued with a trailing backslash are one command line, at its first line.
        let mut logical: Vec<(usize, String)> = Vec::new();
        let mut pending: Option<(usize, String)> = None;
        for (i, raw) in text.lines().enumerate() {
            let (start, mut acc) = pending.take().unwrap_or((i + 1, String::new()));
            match raw.strip_suffix('\\') {
                Some(head) => {
                    acc.push_str(head);
                    acc.push(' ');
                    pending = Some((start, acc));
                }
                None => {
                    acc.push_str(raw);
                    logical.push((start, acc));
                }
            }
        }
        if let Some(p) = pending {
            logical.push(p);
        }
        for (line, l) in logical {
            if l.trim_start().starts_with('#') {
                continue;
            }
            let words = shell_split(&l);
            let Some(cmd) = words.iter().position(|w| {
                let base = w.rsplit('/').next().unwrap_or(w);
                base == "ansible-playbook" || base == "ansible"
            }) else {
                continue;
            };
            let mut i = cmd + 1;
            let mut seen = BTreeSet::new();
            while i < words.len() {
                let w = &words[i];
                let arg = if w == "-e" || w == "--extra-vars" {
                    i += 1;
                    words.get(i).cloned()
                } else {
                    w.strip_prefix("--extra-vars=")
                        .or_else(|| w.strip_prefix("-e").filter(|v| !v.is_empty()))
                        .map(str::to_string)
                };
                i += 1;
                let Some(arg) = arg else { continue };
                for (k, v) in extra_vars(&arg) {
                    let source = value_source(&v);
                    let Some(why) = secret_reason(&k, &source) else {
                        continue;
                    };
                    if !seen.insert(k.clone()) {
                        continue;
                    }
                    out.push(Finding::new(
                        RuleId::Ans005,
                        file,
                        line,
                        format!(
                            "`-e {k}=…` passes a secret on the command line: {why}, and the value is {} (not shown); every user of the host can read argv (`ps`, /proc/PID/cmdline), and CI logs often keep it: {}",
                            source.describe(),
                            remedy(&k, &source)
                        ),
                    ));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            shell_split(r#"ansible-playbook -e "a=1 b=$X" --extra-vars='{"t": "y"}' x\ y"#),
            vec![
                "ansible-playbook",
                "-e",
                "a=1 b=$X",
                "--extra-vars={\"t\": \"y\"}",
                "x y"
            ]
        );
    }

    #[test]
    fn secrets() {
        for n in [
            "db_password",
            "API_TOKEN",
            "vault_secret",
            "ssh_key",
            "key",
            "apikey",
            "apiKey",
            "passwd",
            "ansible_become_pass",
            "registry-credentials",
            "dbPassword",
        ] {
            assert!(secret_word(n).is_some(), "{n}");
        }
        for n in [
            "region",
            "keyboard",
            "monkey_count",
            "hosts",
            "images_dir",
            "azure_resource_group",
            "ssh_key_path",
            "vault_password_file",
            "key_name",
            "aws_access_key_id",
            "passive_mode",
            "bypass",
        ] {
            assert!(secret_word(n).is_none(), "{n}");
        }
        assert_eq!(value_source("$DB"), ValueSource::Variable("$DB".into()));
        assert_eq!(value_source("${DB}"), ValueSource::Variable("${DB}".into()));
        assert_eq!(value_source("$(DB)"), ValueSource::Variable("$(DB)".into()));
        assert_eq!(value_source("\"$1\""), ValueSource::Positional("$1".into()));
        assert_eq!(value_source("${2}"), ValueSource::Positional("${2}".into()));
        assert!(matches!(
            value_source("$(vault kv get -field=x a)"),
            ValueSource::SecretStore(_)
        ));
        assert_eq!(value_source("$(date +%s)"), ValueSource::Command);
        assert_eq!(
            value_source("${{ secrets.DEPLOY }}"),
            ValueSource::CiSecret("secrets.DEPLOY".into())
        );
        assert_eq!(
            value_source("{{ lookup('hashi_vault', 'secret=x') }}"),
            ValueSource::Template
        );
        assert_eq!(value_source("eu-west-1"), ValueSource::Literal);
        // The issue's cases: a directory from a variable, a resource group from $1.
        assert_eq!(
            secret_reason("images_dir", &value_source("$IMAGES_DIR")),
            None
        );
        assert_eq!(
            secret_reason("azure_resource_group", &value_source("\"$1\"")),
            None
        );
        assert!(secret_reason("db", &value_source("$DB_PASSWORD")).is_some());
        assert_eq!(
            secret_reason("local_release_dir", &value_source("${PWD}/downloads")),
            None,
            "the working directory is not a password"
        );
        assert!(secret_reason("x", &value_source("${{ secrets.X }}")).is_some());
        assert_eq!(
            secret_reason("db_password", &value_source("{{ lookup('env', 'PW') }}")),
            None,
            "argv holds the expression, not the secret"
        );
        assert_eq!(
            extra_vars(r#"{"db_user": "app", 'token': "$T"}"#),
            vec![
                ("db_user".to_string(), "\"app\"".to_string()),
                ("token".to_string(), "\"$T\"".to_string())
            ]
        );
        assert!(extra_vars("@secrets.yml").is_empty());
        assert_eq!(
            extra_vars("a=1 code=$(vault kv get -field=x s) b=2"),
            vec![
                ("a".to_string(), "1".to_string()),
                ("code".to_string(), "$(vault kv get -field=x s)".to_string()),
                ("b".to_string(), "2".to_string())
            ]
        );
    }
}

