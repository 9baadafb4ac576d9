//! WARD-ANS-003: Ansible fetch that fails the converge on one failed try.

use super::prelude::*;

/// WARD-ANS-003's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Ans003,
    name: "ansible-fetch-without-retry",
    title: "Ansible fetch that fails the converge on one failed try",
    severity: Severity::Error,
    category: Category::Ansible,
    needs_terraform: false,
    opt_in: None,
    options: &["max_timeout", "min_retries", "min_delay"],
    note: None,
    doc: "A `get_url` or `uri` task (also spelled `ansible.builtin.get_url`, `ansible.builtin.uri`) must retry: one fetch that fails on a slow mirror fails the whole converge, once behind an approval gate that then had to be passed again. The rule requires (1) a retry story: `until` or `retries` (Ansible's defaults then apply: 3 retries, 5 seconds apart; without `until`, `retries` retries until the task succeeds since ansible-core 2.16, and does nothing before), with `retries` at least `min_retries` and `delay` at least `min_delay` where they are written; (2) each try bounded: `timeout` (the module argument, the task keyword, or the play's `module_defaults` for the module) at most `max_timeout`; a task that sets none is bounded by the module's own default, 10 s for get_url and 30 s for uri (ansible-core's module documentation), which is within the default limit. A task whose failure does not fail the converge (`ignore_errors: true`, `failed_when: false`) and Molecule's verifier playbooks (`molecule/<scenario>/verify.yml`, tests run after the converge) are not checked. The thresholds are settings of the rule: `check { rule \"WARD-ANS-003\" { max_timeout = 60, min_retries = 3, min_delay = 1 } }` (seconds, tries, seconds; those are the defaults); a templated value (`{{ ... }}`) is accepted as set.",
    fix: "Add `until`/`retries`/`delay` to the task, and keep `timeout` within `max_timeout`.",
    waive: "A task whose failure must not fail the converge says so with `ignore_errors: true` or `failed_when: false`; the thresholds are the rule's settings.",
    fails: &[
        Example {
            path: "playbooks/site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/fail/playbooks/site.yml"),
        },
        Example {
            path: "roles/mirror/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/fail/roles/mirror/tasks/main.yml"),
        },
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/fail/ward.hcl"),
        },
    ],
    passes: &[
        Example {
            path: "playbooks/site.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/pass/playbooks/site.yml"),
        },
        Example {
            path: "roles/mirror/tasks/main.yml",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/pass/roles/mirror/tasks/main.yml"),
        },
        Example {
            path: "ward.hcl",
            text: include_str!("../../tests/fixtures/rules/WARD-ANS-003/pass/ward.hcl"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// A `get_url`/`uri` task without a retry story or with an unbounded try (the task walk and the
/// module defaults are in [`crate::ansible`]).
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    fetches(cx.repo, cx.config, &mut cx.out);
    Ok(())
}

use crate::ansible::{setting, scopes, label};
use ward_repo::Repo;
use ward_config::{RuleSetting, RuleValue};

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
pub fn fetches(repo: &Repo, config: Option<&ward_config::Config>, out: &mut Vec<Finding>) {
    let s = setting(config, RuleId::Ans003);
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
