//! The Ansible converge rules (WARD-ANS-003..006), over the plays and tasks
//! [`ward_repo::playbook`] reads and the command lines of scripts, Makefiles and CI files. No
//! Ansible binary is run.

use crate::finding::Finding;
use crate::rules::RuleId;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use ward_config::{RuleSetting, RuleValue};
use ward_repo::playbook::{Play, Playbook, Task};
use ward_repo::Repo;

/// WARD-ANS-003's thresholds (`check { rule RuleId::Ans003 { ... } }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchLimits {
    /// The longest `timeout` (seconds) a fetch may wait.
    pub max_timeout: u64,
    /// The fewest `retries`.
    pub min_retries: u64,
    /// The shortest `delay` (seconds) between tries.
    pub min_delay: u64,
}

impl Default for FetchLimits {
    fn default() -> Self {
        FetchLimits {
            max_timeout: 60,
            min_retries: 3,
            min_delay: 1,
        }
    }
}

fn count(s: Option<&RuleSetting>, key: &str) -> Option<u64> {
    s?.options.iter().find_map(|o| match &o.value {
        RuleValue::Count(n) if o.key == key => Some(*n),
        _ => None,
    })
}

fn strings(s: Option<&RuleSetting>, key: &str) -> Vec<String> {
    s.into_iter()
        .flat_map(|s| &s.options)
        .filter(|o| o.key == key)
        .flat_map(|o| match &o.value {
            RuleValue::Strings(v) => v.clone(),
            RuleValue::Count(_) => Vec::new(),
        })
        .collect()
}

fn setting(repo: &Repo, id: RuleId) -> Option<&RuleSetting> {
    repo.config
        .as_ref()
        .and_then(|c| c.check.rules.iter().find(|r| id == r.id))
}

/// A task with the `when` conditions and tags it inherits from its blocks and play.
#[derive(Debug, Clone)]
struct Flat<'a> {
    task: &'a Task,
    when: BTreeSet<String>,
    tags: BTreeSet<String>,
}

fn flatten<'a>(
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
fn scopes(p: &Playbook) -> Vec<(Option<&Play>, Vec<Flat<'_>>)> {
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

fn label(t: &Task) -> String {
    match &t.name {
        Some(n) => format!("task \"{n}\""),
        None => format!("the {} task", t.module.as_deref().unwrap_or("")),
    }
}

fn templated(v: &str) -> bool {
    v.contains("{{")
}

/// A fetch module WARD-ANS-003 checks, and the timeout it applies to each try when the task
/// sets none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchModule {
    /// The module's short name.
    pub name: &'static str,
    /// Its own default `timeout`, in seconds.
    pub default_timeout: u64,
    /// Where that default is documented.
    pub source: &'static str,
}

/// The fetch modules and their documented default timeouts.
pub const FETCH_MODULES: &[FetchModule] = &[
    FetchModule {
        name: "get_url",
        default_timeout: 10,
        source: "ansible-core lib/ansible/modules/get_url.py, option `timeout` (\"Timeout in seconds for URL request\", default 10), the ansible.builtin.get_url documentation",
    },
    FetchModule {
        name: "uri",
        default_timeout: 30,
        source: "ansible-core lib/ansible/modules/uri.py, option `timeout` (\"The socket level timeout in seconds\", default 30), the ansible.builtin.uri documentation",
    },
];

/// What Ansible does with a task's retry keywords when they are left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryDefaults {
    /// `retries` when `until` is set without it.
    pub retries: u64,
    /// `delay` (seconds) when `until` or `retries` is set without it.
    pub delay: u64,
    /// Where it is documented.
    pub source: &'static str,
}

/// Ansible's retry defaults.
pub const RETRY_DEFAULTS: RetryDefaults = RetryDefaults {
    retries: 3,
    delay: 5,
    source: "ansible-documentation docs/docsite/rst/playbook_guide/playbooks_loops.rst, \"Retrying a task until a condition is met\": the default value for retries is 3 and delay is 5; without `until`, `retries` retries until the task succeeds (new in ansible-core 2.16)",
};

/// Playbooks that test rather than converge: a fetch there that fails is the test failing, not a
/// converge stopped halfway. (file name, a directory that must be among its parents, source)
pub const TEST_PLAYBOOKS: &[(&str, &str, &str)] = &[(
    "verify.yml",
    "molecule",
    "Molecule runs `molecule/<scenario>/verify.yml` as the scenario's verifier (ansible-compat, Molecule's \"Ansible verifier\"), after the converge",
)];

fn is_test_playbook(file: &str) -> bool {
    let mut parts: Vec<&str> = file.split('/').collect();
    let Some(name) = parts.pop() else {
        return false;
    };
    TEST_PLAYBOOKS
        .iter()
        .any(|(n, dir, _)| *n == name && parts.contains(dir))
}

/// Whether a keyword's value is a literal yes (`true`, `yes`, `on`, `1`, any case).
fn truthy(v: Option<&Option<String>>) -> bool {
    matches!(v, Some(Some(s)) if matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1"))
}

/// Whether a keyword's value is a literal no.
fn falsy(v: Option<&Option<String>>) -> bool {
    matches!(v, Some(Some(s)) if matches!(s.trim().to_ascii_lowercase().as_str(), "false" | "no" | "off" | "0"))
}

/// A count as written: `Some(n)` for a literal number, `None` for a template or anything else
/// (accepted as set).
fn literal_count(v: &Option<String>) -> Option<u64> {
    v.as_deref()
        .filter(|v| !templated(v))
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// WARD-ANS-003: a `get_url`/`uri` task that fails the converge on one failed try. A task
/// retries when it sets `until` or `retries` (Ansible's defaults: 3 retries, 5 s apart); each
/// try is bounded by its `timeout` (the argument, the task keyword, the play's
/// `module_defaults`, else the module's own default: [`FETCH_MODULES`]).
pub fn fetches(repo: &Repo, out: &mut Vec<Finding>) {
    let s = setting(repo, RuleId::Ans003);
    let d = FetchLimits::default();
    let lim = FetchLimits {
        max_timeout: count(s, "max_timeout").unwrap_or(d.max_timeout),
        min_retries: count(s, "min_retries").unwrap_or(d.min_retries),
        min_delay: count(s, "min_delay").unwrap_or(d.min_delay),
    };
    for p in &repo.playbooks {
        if is_test_playbook(&p.file) {
            continue;
        }
        for (play, flat) in scopes(p) {
            for f in flat {
                let t = f.task;
                let Some(module) = t.short_module() else {
                    continue;
                };
                let Some(fm) = FETCH_MODULES.iter().find(|m| m.name == module) else {
                    continue;
                };
                // A failure that does not fail the task does not stop the converge.
                if truthy(t.keyword("ignore_errors")) || falsy(t.keyword("failed_when")) {
                    continue;
                }
                let full = t.module.as_deref().unwrap_or(module);
                let defaults_timeout = play.is_some_and(|pl| {
                    pl.module_defaults.iter().any(|(m, keys)| {
                        (m == full || m == module || m == &format!("ansible.builtin.{module}"))
                            && keys.iter().any(|k| k == "timeout")
                    })
                });
                let mut problems = Vec::new();
                match t.arg("timeout").or_else(|| t.keyword("timeout")) {
                    Some(v) => {
                        if let Some(n) = literal_count(v) {
                            if n > lim.max_timeout {
                                problems.push(format!(
                                    "timeout {n}s is above the limit of {}s",
                                    lim.max_timeout
                                ));
                            }
                        }
                    }
                    None if defaults_timeout => {}
                    None if fm.default_timeout > lim.max_timeout => problems.push(format!(
                        "no timeout, and {}'s own default of {}s is above the limit of {}s",
                        fm.name, fm.default_timeout, lim.max_timeout
                    )),
                    None => {}
                }
                let until = t.keyword("until");
                let retries = t.keyword("retries");
                if until.is_none() && retries.is_none() {
                    problems.push(
                        "it does not retry (no `until` or `retries`), so one failed try fails the converge"
                            .to_string(),
                    );
                } else {
                    let low = [
                        (
                            "retries",
                            retries,
                            RETRY_DEFAULTS.retries,
                            lim.min_retries,
                            "",
                        ),
                        (
                            "delay",
                            t.keyword("delay"),
                            RETRY_DEFAULTS.delay,
                            lim.min_delay,
                            "s",
                        ),
                    ];
                    for (what, written, default, min, unit) in low {
                        match written {
                            Some(v) => {
                                if let Some(n) = literal_count(v).filter(|n| *n < min) {
                                    problems.push(format!(
                                        "{what} {n}{unit} is below the minimum of {min}{unit}"
                                    ));
                                }
                            }
                            None if default < min => problems.push(format!(
                                "no {what}, and Ansible's default of {default}{unit} is below the minimum of {min}{unit}"
                            )),
                            None => {}
                        }
                    }
                }
                if problems.is_empty() {
                    continue;
                }
                let bound = match t.arg("timeout").or_else(|| t.keyword("timeout")) {
                    Some(v @ Some(raw)) => match literal_count(v) {
                        Some(n) => format!("its timeout of {n}s"),
                        None => format!("its timeout ({raw})"),
                    },
                    _ if defaults_timeout => "the play's module_defaults timeout".to_string(),
                    _ => format!("{}'s default timeout of {}s", fm.name, fm.default_timeout),
                };
                out.push(Finding::new(
                    RuleId::Ans003,
                    &p.file,
                    t.line,
                    format!(
                        "{} ({full}): {}. Each try is bounded by {bound}; give it a retry story: `retries` (at least {}) and `until` (e.g. `until: result is succeeded` with `register: result`), `delay` at least {}s, a timeout at most {}s",
                        label(t),
                        problems.join("; "),
                        lim.min_retries,
                        lim.min_delay,
                        lim.max_timeout
                    ),
                ));
            }
        }
    }
}

/// What a task includes, when it includes a role or a task file: (`role`/`tasks`, name,
/// dynamic).
fn includes(t: &Task) -> Option<(&'static str, String, bool)> {
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

/// WARD-ANS-004: a guard role or task (`check { rule RuleId::Ans004 { guard_roles, guard_tasks } }`)
/// not tagged `always` where it is included, or not first in a play.
pub fn guards(repo: &Repo, out: &mut Vec<Finding>) {
    let s = setting(repo, RuleId::Ans004);
    let roles = strings(s, "guard_roles");
    let task_names = strings(s, "guard_tasks");
    if roles.is_empty() && task_names.is_empty() {
        return;
    }
    let declared = roles
        .iter()
        .map(|r| format!("role {r}"))
        .chain(task_names.iter().map(|t| format!("task \"{t}\"")))
        .collect::<Vec<_>>()
        .join(", ");
    let is_guard_task = |t: &Task| -> Option<String> {
        if let Some((kind, name, _)) = includes(t) {
            if kind == "role" && roles.contains(&name) {
                return Some(format!("role {name}"));
            }
        }
        t.name
            .as_ref()
            .filter(|n| task_names.contains(n))
            .map(|n| format!("task \"{n}\""))
    };
    let always = |tags: &BTreeSet<String>| tags.contains("always");
    for p in &repo.playbooks {
        // Tagged `always` where it is included.
        for (play, flat) in scopes(p) {
            if let Some(pl) = play {
                let play_tags: BTreeSet<String> = pl.tags.iter().cloned().collect();
                for r in &pl.roles {
                    if roles.contains(&r.name)
                        && !r.tags.iter().any(|t| t == "always")
                        && !always(&play_tags)
                    {
                        out.push(Finding::new(
                            RuleId::Ans004,
                            &p.file,
                            r.line,
                            format!(
                                "guard role {} is not tagged `always` here: `--tags` can skip it while the tasks it guards run; add `tags: [always]`",
                                r.name
                            ),
                        ));
                    }
                }
            }
            for f in &flat {
                let Some(what) = is_guard_task(f.task) else {
                    continue;
                };
                if !always(&f.tags) {
                    out.push(Finding::new(
                        RuleId::Ans004,
                        &p.file,
                        f.task.line,
                        format!(
                            "guard {what} is not tagged `always` here: `--tags` can skip it while the tasks it guards run; add `tags: [always]`"
                        ),
                    ));
                } else if matches!(includes(f.task), Some((_, _, true)))
                    && !f.task.apply_tags.iter().any(|t| t == "always")
                {
                    out.push(Finding::new(
                        RuleId::Ans004,
                        &p.file,
                        f.task.line,
                        format!(
                            "guard {what} is included with `tags: [always]`, but what it includes is not: a dynamic include's tags apply to the include only; add `apply: {{ tags: [always] }}`"
                        ),
                    ));
                }
            }
        }
        // First in each play.
        for pl in &p.plays {
            if pl.import_playbook.is_some() {
                continue;
            }
            let first_task = pl.pre_tasks.first().map(first_leaf);
            let first = match (first_task, pl.roles.first(), pl.tasks.first()) {
                (Some(t), _, _) => is_guard_task(t).map(|_| ()),
                (None, Some(r), _) => roles.contains(&r.name).then_some(()),
                (None, None, Some(t)) => is_guard_task(first_leaf(t)).map(|_| ()),
                (None, None, None) => Some(()),
            };
            if first.is_none() {
                out.push(Finding::new(
                    RuleId::Ans004,
                    &p.file,
                    pl.line,
                    format!(
                        "play{} does not start with a guard ({declared}): whatever runs before it runs unguarded; make the guard the first of pre_tasks, roles or tasks",
                        pl.name
                            .as_ref()
                            .map(|n| format!(" \"{n}\""))
                            .unwrap_or_default()
                    ),
                ));
            }
        }
    }
}

/// A block's first task (recursively), else the task itself.
fn first_leaf(t: &Task) -> &Task {
    match (t.module.is_none(), t.children.first()) {
        (true, Some(c)) => first_leaf(c),
        _ => t,
    }
}

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
fn name_words(name: &str) -> Vec<String> {
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

fn is_key_install(t: &Task) -> bool {
    let m = t.module.as_deref().unwrap_or("");
    let short = t.short_module().unwrap_or("");
    if short == "authorized_key" || m == "ansible.posix.authorized_key" {
        return true;
    }
    matches!(short, "copy" | "template")
        && ["dest", "path"].iter().any(|k| {
            t.arg(k)
                .cloned()
                .flatten()
                .is_some_and(|p| p.contains("authorized_keys"))
        })
}

fn is_sshd_hardening(t: &Task) -> bool {
    let short = t.short_module().unwrap_or("");
    if matches!(
        short,
        "lineinfile" | "blockinfile" | "template" | "copy" | "replace"
    ) {
        return ["dest", "path"].iter().any(|k| {
            t.arg(k)
                .cloned()
                .flatten()
                .is_some_and(|p| p.contains("sshd_config"))
        });
    }
    if let Some(("role", name, _)) = includes(t) {
        return name.contains("ssh_hardening") || name.contains("sshd");
    }
    false
}

/// Why `key` can be skipped while `hardening` runs, if it can.
fn skippable(key: &Flat<'_>, hardening: &Flat<'_>) -> Option<String> {
    let extra: Vec<&String> = key.when.difference(&hardening.when).collect();
    if !extra.is_empty() {
        return Some(format!(
            "its `when: {}` is not the hardening's",
            extra
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    if key.tags.contains("always") || key.tags == hardening.tags {
        return None;
    }
    let show = |t: &BTreeSet<String>| {
        if t.is_empty() {
            "none".to_string()
        } else {
            t.iter().cloned().collect::<Vec<_>>().join(", ")
        }
    };
    Some(format!(
        "its tags ({}) are not the hardening's ({}), so a `--tags`/`--skip-tags` selection runs one without the other",
        show(&key.tags),
        show(&hardening.tags)
    ))
}

/// WARD-ANS-006: an sshd hardening task whose key install (`authorized_key`) can be skipped by
/// a condition the hardening does not share.
pub fn ssh_lockout(repo: &Repo, out: &mut Vec<Finding>) {
    for p in &repo.playbooks {
        for (_, flat) in scopes(p) {
            let keys: Vec<&Flat<'_>> = flat.iter().filter(|f| is_key_install(f.task)).collect();
            if keys.is_empty() {
                continue;
            }
            for h in flat.iter().filter(|f| is_sshd_hardening(f.task)) {
                let reasons: Vec<(usize, String)> = keys
                    .iter()
                    .map(|k| (k.task.line, skippable(k, h)))
                    .filter_map(|(l, r)| r.map(|r| (l, r)))
                    .collect();
                if reasons.len() < keys.len() {
                    continue;
                }
                let Some((kl, why)) = reasons.first() else {
                    continue;
                };
                out.push(Finding::new(
                    RuleId::Ans006,
                    &p.file,
                    h.task.line,
                    format!(
                        "{} hardens sshd, but the key install at line {kl} can be skipped while it runs: {why}; a host hardened without its key locks everyone out. Give the key install the hardening's conditions and tags (or `tags: [always]`)",
                        label(h.task)
                    ),
                ));
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
