//! What the Ansible converge rules (WARD-ANS-003..006, `rules/ans_00N.rs`) share: the walk over
//! the plays and tasks [`ward_repo::playbook`] reads (conditions and tags inherited from blocks
//! and plays), the rules' settings in `ward.hcl`, and the secret words WARD-ANS-005 knows, as
//! data with their sources. No Ansible binary is run.

use crate::rules::RuleId;
use std::collections::BTreeSet;
use ward_config::RuleSetting;
use ward_repo::playbook::{Play, Playbook, Task};

pub(crate) fn setting(config: Option<&ward_config::Config>, id: RuleId) -> Option<&RuleSetting> {
    config.and_then(|c| c.check.rules.iter().find(|r| id == r.id))
}

/// A task with the `when` conditions and tags it inherits from its blocks and play.
#[derive(Debug, Clone)]
pub(crate) struct Flat<'a> {
    /// The task.
    pub(crate) task: &'a Task,
    /// Its conditions, inherited ones included.
    pub(crate) when: BTreeSet<String>,
    /// Its tags, inherited ones included.
    pub(crate) tags: BTreeSet<String>,
}

pub(crate) fn flatten<'a>(
    tasks: &'a [Task],
    when: &BTreeSet<String>,
    tags: &BTreeSet<String>,
    out: &mut Vec<Flat<'a>>,
) {
    for t in tasks {
        let mut w = when.clone();
        w.extend(t.when.iter().map(|c| c.trim().to_string()));
        let mut g = tags.clone();
        g.extend(t.tags.iter().cloned());
        if t.module.is_some() {
            out.push(Flat {
                task: t,
                when: w.clone(),
                tags: g.clone(),
            });
        }
        flatten(&t.children, &w, &g, out);
    }
}

/// The task lists of a file, each with the tags its play gives: one per play (pre_tasks, tasks,
/// post_tasks and handlers together), or the file's tasks.
pub(crate) fn scopes(p: &Playbook) -> Vec<(Option<&Play>, Vec<Flat<'_>>)> {
    let none = BTreeSet::new();
    if p.plays.is_empty() {
        let mut v = Vec::new();
        flatten(&p.tasks, &none, &none, &mut v);
        return vec![(None, v)];
    }
    p.plays
        .iter()
        .map(|play| {
            let tags: BTreeSet<String> = play.tags.iter().cloned().collect();
            let mut v = Vec::new();
            for list in [
                &play.pre_tasks,
                &play.tasks,
                &play.post_tasks,
                &play.handlers,
            ] {
                flatten(list, &none, &tags, &mut v);
            }
            (Some(play), v)
        })
        .collect()
}

pub(crate) fn label(t: &Task) -> String {
    match &t.name {
        Some(n) => format!("task \"{n}\""),
        None => format!("the {} task", t.module.as_deref().unwrap_or("")),
    }
}

/// What a task includes, when it includes a role or a task file: (`role`/`tasks`, name,
/// dynamic).
pub(crate) fn includes(t: &Task) -> Option<(&'static str, String, bool)> {
    let m = t.short_module()?;
    let (kind, dynamic) = match m {
        "include_role" => ("role", true),
        "import_role" => ("role", false),
        "include_tasks" | "include" => ("tasks", true),
        "import_tasks" => ("tasks", false),
        _ => return None,
    };
    let name = if kind == "role" {
        t.arg("name").cloned().flatten()?
    } else {
        t.arg("file")
            .cloned()
            .flatten()
            .or_else(|| t.arg("_raw_params").cloned().flatten())
            .or_else(|| t.args.first().map(|(k, _)| k.clone()))?
    };
    Some((kind, name, dynamic))
}

/// How a word of [`SECRET_WORDS`] is found among the words of a variable's name (the name split
/// at `_`, `-`, `.` and lower-to-upper case changes, lowercased).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordMatch {
    /// A whole word: `key` in `api_key`, not in `keyboard` or `monkey`.
    Whole,
    /// Anywhere in a word: `password` in `dbpassword`.
    Within,
}

/// A word that says a variable holds a secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretWord {
    /// The word, lowercase.
    pub word: &'static str,
    /// How it is found.
    pub how: WordMatch,
    /// Where the word comes from.
    pub source: &'static str,
}

const ANSIBLE_PASSWORD_MATCH: &str = "ansible-core lib/ansible/module_utils/basic.py PASSWORD_MATCH (`pass`, `password`, `passwd`, `passphrase`, `passwrd`, `passwd` as words of an option name)";
const ANSIBLE_NO_LOG: &str = "ansible-test validate-modules NO_LOG_REGEX (`pass`, `secret`, `token`, `key`: the option names Ansible requires `no_log` on)";

/// The words that make a variable's name a secret's. `key` is a whole word only (ansible-test
/// matches it anywhere, which takes `keyboard` and `monkey` for keys).
pub const SECRET_WORDS: &[SecretWord] = &[
    SecretWord {
        word: "password",
        how: WordMatch::Within,
        source: ANSIBLE_PASSWORD_MATCH,
    },
    SecretWord {
        word: "passwd",
        how: WordMatch::Within,
        source: ANSIBLE_PASSWORD_MATCH,
    },
    SecretWord {
        word: "passphrase",
        how: WordMatch::Within,
        source: ANSIBLE_PASSWORD_MATCH,
    },
    SecretWord {
        word: "passwrd",
        how: WordMatch::Within,
        source: ANSIBLE_PASSWORD_MATCH,
    },
    SecretWord {
        word: "pass",
        how: WordMatch::Whole,
        source: ANSIBLE_PASSWORD_MATCH,
    },
    SecretWord {
        word: "pwd",
        how: WordMatch::Whole,
        source: "a common short form of password (`db_pwd`)",
    },
    SecretWord {
        word: "secret",
        how: WordMatch::Within,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "token",
        how: WordMatch::Within,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "key",
        how: WordMatch::Whole,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "apikey",
        how: WordMatch::Whole,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "privatekey",
        how: WordMatch::Whole,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "sshkey",
        how: WordMatch::Whole,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "accesskey",
        how: WordMatch::Whole,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "secretkey",
        how: WordMatch::Whole,
        source: ANSIBLE_NO_LOG,
    },
    SecretWord {
        word: "credential",
        how: WordMatch::Within,
        source: "issue #32: credentials (`aws_credentials`, `registry_credential`)",
    },
];

/// Last words of a name that say it names where a secret is, or which one, not the secret
/// itself (`ssh_key_path`, `password_file`, `key_name`, `token_url`, `aws_access_key_id`).
pub const NOT_SECRET_LAST: &[&str] = &[
    "path",
    "file",
    "files",
    "dir",
    "directory",
    "name",
    "names",
    "id",
    "ids",
    "url",
    "uri",
    "arn",
    "length",
    "size",
    "type",
    "format",
    "version",
    "location",
    "env",
    "ref",
];

/// Variables the shell or make sets to a place, whatever their name looks like: (name, source).
/// `${PWD}` is the working directory, not a password.
pub const PLACE_VARIABLES: &[(&str, &str)] = &[
    ("PWD", "POSIX sh: the current working directory"),
    ("OLDPWD", "POSIX sh: the previous working directory"),
    ("CURDIR", "GNU make: the current directory"),
];

/// A secret store read in a command substitution: (what the value's text holds, what else it
/// must hold, the tool's name).
pub const SECRET_STORES: &[(&str, &str, &str)] = &[
    ("vault kv get", "", "HashiCorp Vault (`vault kv get`)"),
    ("vault read", "", "HashiCorp Vault (`vault read`)"),
    (
        "ansible-vault view",
        "",
        "ansible-vault (`ansible-vault view`)",
    ),
    (
        "ansible-vault decrypt",
        "",
        "ansible-vault (`ansible-vault decrypt`)",
    ),
    (
        "aws secretsmanager get-secret-value",
        "",
        "AWS Secrets Manager (`aws secretsmanager get-secret-value`)",
    ),
    (
        "aws ssm get-parameter",
        "--with-decryption",
        "an AWS SSM SecureString (`aws ssm get-parameter --with-decryption`)",
    ),
    (
        "gcloud secrets versions access",
        "",
        "Google Secret Manager (`gcloud secrets versions access`)",
    ),
    (
        "az keyvault secret show",
        "",
        "Azure Key Vault (`az keyvault secret show`)",
    ),
    ("op read", "", "1Password (`op read`)"),
    ("op item get", "", "1Password (`op item get`)"),
    ("sops -d", "", "sops (`sops -d`)"),
    ("sops --decrypt", "", "sops (`sops --decrypt`)"),
    ("sops decrypt", "", "sops (`sops decrypt`)"),
    ("pass show", "", "pass (`pass show`)"),
];

/// The words of a name: split at non-alphanumerics and lower-to-upper case changes, lowercased.
pub(crate) fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// The secret word a variable's name holds, when it holds one (and does not name a place or an
/// identifier: [`NOT_SECRET_LAST`]).
pub fn secret_word(name: &str) -> Option<&'static SecretWord> {
    let words = name_words(name);
    if words
        .last()
        .is_some_and(|l| NOT_SECRET_LAST.contains(&l.as_str()))
    {
        return None;
    }
    SECRET_WORDS.iter().find(|sw| {
        words.iter().any(|w| match sw.how {
            WordMatch::Whole => w == sw.word,
            WordMatch::Within => w.contains(sw.word),
        })
    })
}
