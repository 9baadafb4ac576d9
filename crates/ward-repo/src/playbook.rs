//! Ansible plays and tasks, read without Ansible: playbooks (a YAML sequence of plays, each with
//! `hosts` or `import_playbook`) and task files (any YAML file under a `tasks/` or `handlers/`
//! directory, e.g. `roles/NAME/tasks/main.yml`). Only the shape ward's rules need is kept: each
//! task's module and arguments, its keywords (`when`, `tags`, `retries`...), its line, and the
//! tasks of its `block`/`rescue`/`always`; each play's roles, tasks and `module_defaults`.
//!
//! YAML is read with the same parser and the same depth cap as the version pins
//! ([`crate::ansible::MAX_YAML_DEPTH`]).

use crate::ansible::{check_depth, get, scalar_plain, Lines, YamlProblem};
use saphyr::{LoadableYamlNode, MarkedYamlOwned, YamlDataOwned};
use serde::Serialize;

/// Which kind of Ansible file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlaybookKind {
    /// A playbook: a list of plays.
    Playbook,
    /// A task file (a role's `tasks/` or `handlers/`, or an included task file).
    Tasks,
}

/// One Ansible YAML file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Playbook {
    /// Repository-relative file.
    pub file: String,
    /// Playbook or task file.
    pub kind: PlaybookKind,
    /// The role it belongs to (`roles/NAME/...`), if any.
    pub role: Option<String>,
    /// The plays (playbooks).
    pub plays: Vec<Play>,
    /// The tasks (task files).
    pub tasks: Vec<Task>,
}

/// One play.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Play {
    /// 1-based line of the play.
    pub line: usize,
    /// `name`.
    pub name: Option<String>,
    /// `import_playbook` (then the play has nothing else).
    pub import_playbook: Option<String>,
    /// The play's own `tags`.
    pub tags: Vec<String>,
    /// `pre_tasks`.
    pub pre_tasks: Vec<Task>,
    /// `roles`.
    pub roles: Vec<RoleRef>,
    /// `tasks`.
    pub tasks: Vec<Task>,
    /// `post_tasks`.
    pub post_tasks: Vec<Task>,
    /// `handlers`.
    pub handlers: Vec<Task>,
    /// `module_defaults`: module (or `group/...`) → the argument names it sets.
    pub module_defaults: Vec<(String, Vec<String>)>,
}

/// An entry of a play's `roles`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct RoleRef {
    /// The role's name (`role:`/`name:`, or the entry itself).
    pub name: String,
    /// 1-based line.
    pub line: usize,
    /// `tags` on the entry.
    pub tags: Vec<String>,
    /// `when` on the entry.
    pub when: Vec<String>,
}

/// One task (or block).
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Task {
    /// 1-based line of the task.
    pub line: usize,
    /// `name`.
    pub name: Option<String>,
    /// The module as written (`get_url`, `ansible.builtin.uri`, ...); `None` for a block.
    pub module: Option<String>,
    /// The module's arguments: name → scalar value as written (`None` when not a scalar).
    pub args: Vec<(String, Option<String>)>,
    /// Task keywords other than `name`, `when`, `tags` and the block lists: name → scalar value
    /// as written (`None` when not a scalar).
    pub keywords: Vec<(String, Option<String>)>,
    /// `when` conditions, each as written.
    pub when: Vec<String>,
    /// `tags`.
    pub tags: Vec<String>,
    /// `apply: { tags: [...] }` of `include_role`/`include_tasks`.
    pub apply_tags: Vec<String>,
    /// The tasks of `block`, `rescue` and `always`.
    pub children: Vec<Task>,
}

impl Task {
    /// The module without an `ansible.builtin.`/`ansible.legacy.` prefix.
    pub fn short_module(&self) -> Option<&str> {
        self.module.as_deref().map(|m| {
            m.strip_prefix("ansible.builtin.")
                .or_else(|| m.strip_prefix("ansible.legacy."))
                .unwrap_or(m)
        })
    }

    /// A module argument, when given.
    pub fn arg(&self, key: &str) -> Option<&Option<String>> {
        self.args.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A task keyword, when given.
    pub fn keyword(&self, key: &str) -> Option<&Option<String>> {
        self.keywords.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// Task keywords: every key of a task that is not its module.
const TASK_KEYWORDS: &[&str] = &[
    "action",
    "any_errors_fatal",
    "args",
    "async",
    "become",
    "become_exe",
    "become_flags",
    "become_method",
    "become_user",
    "changed_when",
    "check_mode",
    "collections",
    "connection",
    "debugger",
    "delay",
    "delegate_facts",
    "delegate_to",
    "diff",
    "environment",
    "failed_when",
    "ignore_errors",
    "ignore_unreachable",
    "listen",
    "local_action",
    "loop",
    "loop_control",
    "module_defaults",
    "no_log",
    "notify",
    "poll",
    "port",
    "register",
    "remote_user",
    "retries",
    "run_once",
    "throttle",
    "timeout",
    "until",
    "vars",
];

/// Whether a repository-relative YAML path may hold plays or tasks (ward reads it and keeps it
/// when its shape says so). The version-pin files and variable files are not.
pub fn is_candidate(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if !(name.ends_with(".yml") || name.ends_with(".yaml")) {
        return false;
    }
    if crate::ansible::ansible_kind(rel).is_some() {
        return false;
    }
    let dirs: Vec<&str> = rel.split('/').collect();
    let dirs = &dirs[..dirs.len().saturating_sub(1)];
    !dirs.iter().any(|d| {
        matches!(
            *d,
            ".github" | ".gitlab" | ".circleci" | "defaults" | "vars" | "meta" | "templates"
        )
    })
}

/// Whether the path is a task file by place (under `tasks/` or `handlers/`); a parse error in
/// one is reported, while other YAML that does not parse is simply not Ansible.
pub fn is_task_file(rel: &str) -> bool {
    let dirs: Vec<&str> = rel.split('/').collect();
    dirs[..dirs.len().saturating_sub(1)]
        .iter()
        .any(|d| *d == "tasks" || *d == "handlers")
}

/// Reads one candidate file: `Ok(None)` when it is not Ansible.
pub fn read_playbook(text: &str, file: &str) -> Result<Option<Playbook>, YamlProblem> {
    let task_file = is_task_file(file);
    let l = &Lines::new(text);
    let parsed = check_depth(text).and_then(|_| {
        MarkedYamlOwned::load_from_str(text).map_err(|e| YamlProblem {
            line: l.of(e.marker()),
            message: e.info().to_string(),
        })
    });
    let docs = match parsed {
        Ok(d) => d,
        Err(e) if task_file => return Err(e),
        Err(_) => return Ok(None),
    };
    let Some(doc) = docs.first() else {
        return Ok(None);
    };
    let YamlDataOwned::Sequence(items) = &doc.data else {
        return Ok(None);
    };
    let role = {
        let parts: Vec<&str> = file.split('/').collect();
        parts
            .iter()
            .position(|p| *p == "roles")
            .and_then(|i| parts.get(i + 1))
            .filter(|_| parts.len() > 3)
            .map(|s| s.to_string())
    };
    let is_play = |n: &MarkedYamlOwned| {
        get(n, "hosts").is_some()
            || get(n, "import_playbook").is_some()
            || get(n, "ansible.builtin.import_playbook").is_some()
    };
    if !task_file && !items.is_empty() && items.iter().all(is_play) {
        let plays = items.iter().map(|n| play(n, l)).collect();
        return Ok(Some(Playbook {
            file: file.to_string(),
            kind: PlaybookKind::Playbook,
            role,
            plays,
            tasks: Vec::new(),
        }));
    }
    if task_file {
        return Ok(Some(Playbook {
            file: file.to_string(),
            kind: PlaybookKind::Tasks,
            role,
            plays: Vec::new(),
            tasks: tasks(doc, l),
        }));
    }
    Ok(None)
}

fn line(n: &MarkedYamlOwned, l: &Lines) -> usize {
    l.of(&n.span.start)
}

/// A scalar's text, or each scalar of a list, or `a,b` split (tags).
fn words(n: Option<&MarkedYamlOwned>, split_commas: bool) -> Vec<String> {
    let Some(n) = n else { return Vec::new() };
    match &n.data {
        YamlDataOwned::Sequence(items) => items.iter().filter_map(scalar_plain).collect(),
        _ => match scalar_plain(n) {
            Some(s) if split_commas => s
                .split(',')
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty())
                .collect(),
            Some(s) => vec![s.trim().to_string()],
            None => Vec::new(),
        },
    }
}

fn play(n: &MarkedYamlOwned, l: &Lines) -> Play {
    let mut p = Play {
        line: line(n, l),
        name: get(n, "name").and_then(scalar_plain),
        import_playbook: get(n, "import_playbook")
            .or_else(|| get(n, "ansible.builtin.import_playbook"))
            .and_then(scalar_plain),
        tags: words(get(n, "tags"), true),
        pre_tasks: get(n, "pre_tasks").map(|t| tasks(t, l)).unwrap_or_default(),
        tasks: get(n, "tasks").map(|t| tasks(t, l)).unwrap_or_default(),
        post_tasks: get(n, "post_tasks")
            .map(|t| tasks(t, l))
            .unwrap_or_default(),
        handlers: get(n, "handlers").map(|t| tasks(t, l)).unwrap_or_default(),
        ..Play::default()
    };
    if let Some(YamlDataOwned::Sequence(items)) = get(n, "roles").map(|r| &r.data) {
        for it in items {
            let name = match &it.data {
                YamlDataOwned::Mapping(_) => get(it, "role")
                    .or_else(|| get(it, "name"))
                    .and_then(scalar_plain),
                _ => scalar_plain(it),
            };
            if let Some(name) = name {
                p.roles.push(RoleRef {
                    name,
                    line: line(it, l),
                    tags: words(get(it, "tags"), true),
                    when: words(get(it, "when"), false),
                });
            }
        }
    }
    if let Some(YamlDataOwned::Mapping(m)) = get(n, "module_defaults").map(|d| &d.data) {
        for (k, v) in m {
            if let Some(module) = scalar_plain(k) {
                let keys = match &v.data {
                    YamlDataOwned::Mapping(a) => {
                        a.iter().filter_map(|(k, _)| scalar_plain(k)).collect()
                    }
                    _ => Vec::new(),
                };
                p.module_defaults.push((module, keys));
            }
        }
    }
    p
}

fn tasks(n: &MarkedYamlOwned, l: &Lines) -> Vec<Task> {
    match &n.data {
        YamlDataOwned::Sequence(items) => items
            .iter()
            .filter(|i| matches!(i.data, YamlDataOwned::Mapping(_)))
            .map(|t| task(t, l))
            .collect(),
        _ => Vec::new(),
    }
}

/// `key=value key2="v w"` of a free-form argument string.
fn free_form(s: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        let (word, tail) = match rest.split_once(char::is_whitespace) {
            Some((w, t)) => (w, t),
            None => (rest, ""),
        };
        let Some((k, v)) = word.split_once('=') else {
            rest = tail.trim_start();
            continue;
        };
        if let Some(q @ ('"' | '\'')) = v.chars().next() {
            let after = &rest[k.len() + 2..];
            match after.find(q) {
                Some(end) => {
                    out.push((k.to_string(), Some(after[..end].to_string())));
                    rest = after[end + 1..].trim_start();
                }
                None => {
                    out.push((k.to_string(), Some(after.to_string())));
                    rest = "";
                }
            }
            continue;
        }
        out.push((k.to_string(), Some(v.to_string())));
        rest = tail.trim_start();
    }
    out
}

fn task(n: &MarkedYamlOwned, l: &Lines) -> Task {
    let mut t = Task {
        line: line(n, l),
        ..Task::default()
    };
    let YamlDataOwned::Mapping(m) = &n.data else {
        return t;
    };
    for (k, v) in m {
        let Some(key) = scalar_plain(k) else { continue };
        match key.as_str() {
            "name" => t.name = scalar_plain(v),
            "when" => t.when = words(Some(v), false),
            "tags" => t.tags = words(Some(v), true),
            "block" | "rescue" | "always" => t.children.extend(tasks(v, l)),
            k if TASK_KEYWORDS.contains(&k) || k.starts_with("with_") => {
                t.keywords.push((key.clone(), scalar_plain(v)));
                if (k == "action" || k == "local_action") && t.module.is_none() {
                    if let Some(s) = scalar_plain(v) {
                        let (m, a) = s
                            .trim()
                            .split_once(char::is_whitespace)
                            .unwrap_or((s.trim(), ""));
                        t.module = Some(m.to_string());
                        t.args.extend(free_form(a));
                    } else if let Some(m) = get(v, "module").and_then(scalar_plain) {
                        t.module = Some(m);
                        module_args(v, &mut t);
                    }
                }
                if k == "args" {
                    module_args(v, &mut t);
                }
            }
            _ if t.module.is_none() => {
                t.module = Some(key.clone());
                match &v.data {
                    YamlDataOwned::Mapping(_) => module_args(v, &mut t),
                    _ => {
                        if let Some(s) = scalar_plain(v) {
                            t.args.extend(free_form(&s));
                        }
                    }
                }
            }
            _ => t.keywords.push((key.clone(), scalar_plain(v))),
        }
    }
    t
}

fn module_args(v: &MarkedYamlOwned, t: &mut Task) {
    let YamlDataOwned::Mapping(a) = &v.data else {
        return;
    };
    for (ak, av) in a {
        let Some(name) = scalar_plain(ak) else {
            continue;
        };
        if name == "apply" {
            t.apply_tags = words(get(av, "tags"), true);
        }
        if name != "module" {
            t.args.push((name, scalar_plain(av)));
        }
    }
}

/// Discovery's reading of the files the walk found that may be playbooks or task files
/// (`files`, repository-relative): every play and task file, sorted; a task file that cannot be
/// read, or any of them that is not valid YAML, is a problem.
pub(crate) fn read_playbooks_in(
    root: &std::path::Path,
    files: Vec<String>,
    problems: &mut Vec<crate::FileProblem>,
) -> Vec<Playbook> {
    let mut playbooks = Vec::new();
    for rel in files {
        match std::fs::read_to_string(root.join(&rel)) {
            Ok(text) => match read_playbook(&text, &rel) {
                Ok(Some(p)) => playbooks.push(p),
                Ok(None) => {}
                Err(e) => problems.push(crate::ansible::yaml_problem(rel, e)),
            },
            Err(e) if is_task_file(&rel) => problems.push(crate::ansible::unreadable(rel, e)),
            Err(_) => {}
        }
    }
    playbooks.sort();
    playbooks
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Lines by line feeds, as in ansible.rs: a lone carriage return is no line break here.
    #[test]
    fn task_lines_are_counted_by_line_feeds() {
        let text = "- name: one\r\r\n  debug: {}\r\r\n- name: two\n  debug: {}\n";
        let t = read_playbook(text, "roles/r/tasks/main.yml")
            .unwrap()
            .unwrap();
        let lines: Vec<usize> = t.tasks.iter().map(|t| t.line).collect();
        assert_eq!(lines, [1, 3]);
    }

    #[test]
    fn reads_plays_roles_and_tasks() {
        let text = "- name: site\n  hosts: all\n  module_defaults:\n    ansible.builtin.get_url:\n      timeout: 30\n  roles:\n    - role: preflight\n      tags: [always]\n    - common\n  tasks:\n    - name: fetch\n      ansible.builtin.get_url:\n        url: https://example.invalid/x\n        dest: /tmp/x\n      retries: 3\n      until: r is succeeded\n      register: r\n    - get_url: url=https://example.invalid/y dest=\"/tmp/a b\" timeout=5\n    - block:\n        - command: /bin/true\n      when: x\n      tags: a,b\n";
        let p = read_playbook(text, "site.yml").unwrap().unwrap();
        assert_eq!(p.kind, PlaybookKind::Playbook);
        let play = &p.plays[0];
        assert_eq!(play.roles.len(), 2);
        assert_eq!(play.roles[0].tags, vec!["always"]);
        assert_eq!(play.roles[1].name, "common");
        assert_eq!(play.module_defaults[0].1, vec!["timeout"]);
        let t = &play.tasks[0];
        assert_eq!(t.line, 11);
        assert_eq!(t.short_module(), Some("get_url"));
        assert_eq!(t.keyword("retries"), Some(&Some("3".to_string())));
        assert!(t.arg("timeout").is_none());
        let t = &play.tasks[1];
        assert_eq!(t.arg("timeout"), Some(&Some("5".to_string())));
        assert_eq!(t.arg("dest"), Some(&Some("/tmp/a b".to_string())));
        let b = &play.tasks[2];
        assert_eq!(b.module, None);
        assert_eq!(b.tags, vec!["a", "b"]);
        assert_eq!(b.when, vec!["x"]);
        assert_eq!(b.children[0].short_module(), Some("command"));
    }

    #[test]
    fn task_files_and_other_yaml() {
        let t = read_playbook("- include_role:\n    name: preflight\n    apply:\n      tags: always\n  tags: always\n", "roles/site/tasks/main.yml").unwrap().unwrap();
        assert_eq!(t.kind, PlaybookKind::Tasks);
        assert_eq!(t.role.as_deref(), Some("site"));
        assert_eq!(t.tasks[0].apply_tags, vec!["always"]);
        assert_eq!(t.tasks[0].arg("name"), Some(&Some("preflight".to_string())));
        assert!(read_playbook("apiVersion: v1\nkind: Pod\n", "k8s/pod.yml")
            .unwrap()
            .is_none());
        assert!(read_playbook("- a\n- b\n", "list.yml").unwrap().is_none());
        assert!(read_playbook("- [\n", "x.yml").unwrap().is_none());
        assert!(read_playbook("- [\n", "roles/x/tasks/main.yml").is_err());
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(read_playbook(&deep, "tasks/deep.yml").is_err());
        assert!(is_candidate("playbooks/site.yml"));
        assert!(!is_candidate("requirements.yml"));
        assert!(!is_candidate(".github/workflows/ci.yml"));
        assert!(!is_candidate("group_vars/all.yml"));
    }
}
