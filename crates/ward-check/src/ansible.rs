//! The Ansible converge rules (WARD-ANS-003..006), over the plays and tasks
//! [`ward_repo::playbook`] reads and the command lines of scripts, Makefiles and CI files. No
//! Ansible binary is run.

use crate::finding::Finding;
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use ward_config::{RuleSetting, RuleValue};
use ward_repo::playbook::{Play, Playbook, Task};
use ward_repo::Repo;

/// WARD-ANS-003's thresholds (`check { rule "WARD-ANS-003" { ... } }`).
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

fn setting<'a>(repo: &'a Repo, id: &str) -> Option<&'a RuleSetting> {
    repo.config
        .as_ref()
        .and_then(|c| c.check.rules.iter().find(|r| r.id == id))
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

/// WARD-ANS-003: `get_url`/`uri` without `timeout`, `retries`, `until` and `delay`.
pub fn fetches(repo: &Repo, out: &mut Vec<Finding>) {
    let s = setting(repo, "WARD-ANS-003");
    let d = FetchLimits::default();
    let lim = FetchLimits {
        max_timeout: count(s, "max_timeout").unwrap_or(d.max_timeout),
        min_retries: count(s, "min_retries").unwrap_or(d.min_retries),
        min_delay: count(s, "min_delay").unwrap_or(d.min_delay),
    };
    for p in &repo.playbooks {
        for (play, flat) in scopes(p) {
            for f in flat {
                let t = f.task;
                let Some(module) = t.short_module() else {
                    continue;
                };
                if module != "get_url" && module != "uri" {
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
                let timeout = t.arg("timeout").or_else(|| t.keyword("timeout"));
                match timeout {
                    None if !defaults_timeout => problems.push("no timeout".to_string()),
                    Some(Some(v)) if !templated(v) => match v.trim().parse::<u64>() {
                        Ok(n) if n > lim.max_timeout => problems.push(format!(
                            "timeout {n}s is above the limit of {}s",
                            lim.max_timeout
                        )),
                        _ => {}
                    },
                    _ => {}
                }
                match t.keyword("retries") {
                    None => problems.push("no retries".to_string()),
                    Some(Some(v)) if !templated(v) => match v.trim().parse::<u64>() {
                        Ok(n) if n < lim.min_retries => problems.push(format!(
                            "retries {n} is below the minimum of {}",
                            lim.min_retries
                        )),
                        _ => {}
                    },
                    _ => {}
                }
                if t.keyword("until").is_none() {
                    problems.push("no until".to_string());
                }
                match t.keyword("delay") {
                    None => problems.push("no delay".to_string()),
                    Some(Some(v)) if !templated(v) => match v.trim().parse::<u64>() {
                        Ok(n) if n < lim.min_delay => problems.push(format!(
                            "delay {n}s is below the minimum of {}s",
                            lim.min_delay
                        )),
                        _ => {}
                    },
                    _ => {}
                }
                if problems.is_empty() {
                    continue;
                }
                out.push(Finding::new(
                    "WARD-ANS-003",
                    &p.file,
                    t.line,
                    format!(
                        "{} ({full}): {}; one stalled fetch fails the whole converge. Set timeout (at most {}s), retries (at least {}), delay (at least {}s) and until (e.g. `until: result is succeeded` with `register: result`)",
                        label(t),
                        problems.join(", "),
                        lim.max_timeout,
                        lim.min_retries,
                        lim.min_delay
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

/// WARD-ANS-004: a guard role or task (`check { rule "WARD-ANS-004" { guard_roles, guard_tasks } }`)
/// not tagged `always` where it is included, or not first in a play.
pub fn guards(repo: &Repo, out: &mut Vec<Finding>) {
    let s = setting(repo, "WARD-ANS-004");
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
                            "WARD-ANS-004",
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
                        "WARD-ANS-004",
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
                        "WARD-ANS-004",
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
                    "WARD-ANS-004",
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

fn secret_name() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    R.get_or_init(|| {
        #[allow(clippy::unwrap_used)]
        Regex::new(r"(?i)(passw(or)?d|passwd|token|secret|(^|[_\-.])key($|[_\-.])|(api|private|access|ssh)_?key)").unwrap()
    })
}

/// Why a value counts as a secret, when it does (never the value itself).
fn secret_value(v: &str) -> Option<&'static str> {
    static ENV: OnceLock<Regex> = OnceLock::new();
    #[allow(clippy::unwrap_used)]
    let env = ENV.get_or_init(|| {
        Regex::new(
            r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([A-Z_][A-Z0-9_]*\)|%[A-Za-z_][A-Za-z0-9_]*%",
        )
        .unwrap()
    });
    let l = v.to_ascii_lowercase();
    if l.contains("hashi_vault")
        || l.contains("$(vault ")
        || l.contains("`vault ")
        || l.contains("vault kv ")
        || l.contains("vault read ")
    {
        return Some("a vault lookup");
    }
    if v.contains("${{") && l.contains("secrets.") {
        return Some("a CI secret");
    }
    if env.is_match(v) {
        return Some("an environment variable");
    }
    None
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
                    let why = if secret_name().is_match(&k) {
                        Some("its name says it is a secret")
                    } else {
                        secret_value(&v).map(|w| match w {
                            "a vault lookup" => "its value comes from a vault lookup",
                            "a CI secret" => "its value is a CI secret",
                            _ => "its value comes from an environment variable",
                        })
                    };
                    let Some(why) = why else { continue };
                    if !seen.insert(k.clone()) {
                        continue;
                    }
                    out.push(Finding::new(
                        "WARD-ANS-005",
                        file,
                        line,
                        format!(
                            "`-e {k}=…` passes a secret on the command line ({why}; value not shown): every user of the host can read argv in `ps` and /proc; pass it in the environment and read it with `lookup('env', '{}')`, or from a vars file readable by its owner only (`-e @file`)",
                            k.to_ascii_uppercase()
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
                    "WARD-ANS-006",
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
            "passwd",
        ] {
            assert!(secret_name().is_match(n), "{n}");
        }
        for n in ["region", "keyboard", "monkey_count", "hosts"] {
            assert!(!secret_name().is_match(n), "{n}");
        }
        assert_eq!(secret_value("$DB"), Some("an environment variable"));
        assert_eq!(secret_value("${DB}"), Some("an environment variable"));
        assert_eq!(
            secret_value("$(vault kv get -field=x a)"),
            Some("a vault lookup")
        );
        assert_eq!(secret_value("${{ secrets.DEPLOY }}"), Some("a CI secret"));
        assert_eq!(secret_value("eu-west-1"), None);
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
