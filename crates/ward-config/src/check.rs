//! The `check { }` block: `ward check`'s floor version, protected addresses, rule tuning,
//! releases, excluded paths and generated files.

use crate::error::ConfigError;
use crate::read::Schema;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use ward_hcl::Reader;

/// A `release "NAME" { }` block: a release that Terraform refs and Ansible versions agree on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Release {
    /// The block's label.
    pub name: String,
    /// Patterns on module packages (`github.com/acme/*`, `acme/platform/aws`), in the one
    /// syntax of `ward_model::pattern`.
    pub module_sources: Vec<String>,
    /// Ansible collection names (`acme.platform`).
    pub collections: Vec<String>,
    /// Inventory variable names (`platform_version`).
    pub variables: Vec<String>,
    /// Line of the block.
    pub line: usize,
}

/// A `rule "ID" { }` block: tuning of one check rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSetting {
    /// Rule ID, e.g. `WARD-MOD-002`.
    pub id: String,
    /// A severity replacing the default (`error`, `warning`, `info`).
    pub severity: Option<String>,
    /// `false` turns the rule off.
    pub enabled: bool,
    /// Line of the block.
    pub line: usize,
    /// Settings only some rules take (thresholds such as `max_timeout`, lists such as
    /// `guard_roles`), in file order; `ward check` refuses one given to a rule that does not
    /// take it.
    pub options: Vec<RuleOption>,
}

/// One rule-specific setting of a `rule "ID" { }` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleOption {
    /// The key, one of [`RULE_OPTION_KEYS`].
    pub key: String,
    /// Its value.
    pub value: RuleValue,
    /// Line of the key.
    pub line: usize,
}

/// The value of a [`RuleOption`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum RuleValue {
    /// A whole number ≥ 0 (thresholds).
    Count(u64),
    /// A list of strings (names).
    Strings(Vec<String>),
}

/// The rule-specific keys a `rule "ID" { }` block takes, and whether each is a number
/// (`true`) or a list of strings (`false`). Which rule takes which is the catalog's to say.
pub const RULE_OPTION_KEYS: &[(&str, bool)] = &[
    ("max_timeout", true),
    ("min_retries", true),
    ("min_delay", true),
    ("guard_roles", false),
    ("guard_tasks", false),
];

/// A `generated "GENERATOR" { }` block: files a generator (atmos, Terragrunt...) writes at
/// plan time, so the rules that ask for them in the repository are not raised where it owns
/// them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Generated {
    /// The generator, the block's label (`atmos`): the reason reports give.
    pub by: String,
    /// `backend`: the generator writes the backend (WARD-STATE-002 is not raised).
    pub backend: bool,
    /// `lock_file`: the generator writes or manages `.terraform.lock.hcl` (WARD-VER-004 is not
    /// raised).
    pub lock_file: bool,
    /// `paths`: repository-relative path patterns ([`ward_model::pattern`], a pattern also
    /// covers what is below the directory it names) of the roots it owns; empty: every root.
    pub paths: Vec<String>,
    /// Line of the block.
    pub line: usize,
}

impl Generated {
    /// Whether the generator owns the root at the repository-relative `dir`.
    pub fn owns(&self, dir: &str) -> bool {
        self.paths.is_empty()
            || self.paths.iter().any(|p| {
                crate::drift::Exclude {
                    pattern: p.clone(),
                    reason: String::new(),
                    line: 0,
                }
                .covers(dir)
            })
    }
}

/// The `check` block (defaults when absent).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CheckSettings {
    /// `terraform_floor`: the oldest Terraform/OpenTofu version the team runs.
    pub terraform_floor: Option<String>,
    /// `fail_on`: the lowest severity that fails the run (default `error`).
    pub fail_on: Option<String>,
    /// `protected`: address patterns ward protects as if `prevent_destroy`
    /// ([`ward_model::pattern`]).
    pub protected: Vec<String>,
    /// `rule` blocks.
    pub rules: Vec<RuleSetting>,
    /// `release` blocks.
    pub releases: Vec<Release>,
    /// `exclude "PATH" { reason }` blocks: paths `ward check` does not read (a pattern also
    /// covers everything below the directory it names).
    pub excludes: Vec<crate::drift::Exclude>,
    /// `generated "GENERATOR" { }` blocks.
    pub generated: Vec<Generated>,
}

impl CheckSettings {
    /// The exclusion covering a repository-relative path (or a directory above it).
    pub fn excluded(&self, path: &str) -> Option<&crate::drift::Exclude> {
        self.excludes.iter().find(|e| e.covers(path))
    }

    /// The generator that writes the backend of the root at `dir`, when one does.
    pub fn generated_backend(&self, dir: &str) -> Option<&Generated> {
        self.generated.iter().find(|g| g.backend && g.owns(dir))
    }

    /// The generator that writes the lock file of the root at `dir`, when one does.
    pub fn generated_lock_file(&self, dir: &str) -> Option<&Generated> {
        self.generated.iter().find(|g| g.lock_file && g.owns(dir))
    }
}

const SEVERITIES: &[&str] = &["error", "warning", "info"];
/// The `check` block's and its nested blocks' schemas (suggestions elsewhere).
pub(crate) const SCHEMAS: &[Schema] = &[
    Schema {
        place: "`check { }`",
        keys: CHECK_KEYS,
        blocks: CHECK_BLOCKS,
    },
    Schema {
        place: "`check { rule \"ID\" { } }`",
        keys: RULE_KEYS,
        blocks: &[],
    },
    Schema {
        place: "`check { release \"NAME\" { } }`",
        keys: RELEASE_KEYS,
        blocks: &[],
    },
];
pub(crate) const CHECK_KEYS: &[&str] = &["terraform_floor", "fail_on", "protected"];
pub(crate) const CHECK_BLOCKS: &[&str] = &["rule", "release", "exclude", "generated"];
pub(crate) const GENERATED_KEYS: &[&str] = &["backend", "lock_file", "paths"];
pub(crate) const RULE_KEYS: &[&str] = &[
    "severity",
    "enabled",
    "max_timeout",
    "min_retries",
    "min_delay",
    "guard_roles",
    "guard_tasks",
];
pub(crate) const RELEASE_KEYS: &[&str] = &["module_sources", "collections", "variables"];

fn severity(src: &Reader<'_>, a: &hcl_edit::structure::Attribute) -> Result<String, ConfigError> {
    let s = src.string(a)?;
    if SEVERITIES.contains(&s.as_str()) {
        return Ok(s);
    }
    let help = match ward_hcl::did_you_mean(&s, SEVERITIES) {
        Some(k) => format!("did you mean \"{k}\"? use \"error\", \"warning\" or \"info\""),
        None => "use \"error\", \"warning\" or \"info\"".to_string(),
    };
    Err(src
        .err(
            a.value.span(),
            format!("`{} = \"{s}\"` is not a severity", a.key.as_str()),
        )
        .help(help)
        .into())
}

/// One `rule "ID" { ... }` block of `check` (`rules`: those read before it).
fn rule(
    src: &Reader<'_>,
    nb: &Block,
    line: usize,
    rules: &[RuleSetting],
) -> Result<RuleSetting, ConfigError> {
    let id = src.one_label(nb, "its name", "rule \"WARD-MOD-004\" { enabled = false }")?;
    let place = format!("`check {{ rule \"{id}\" }}`");
    let rf = src.fields(&nb.body, &place, RULE_KEYS, &[])?;
    if let Some(first) = rules.iter().find(|r| r.id == id) {
        return Err(src
            .err(
                nb.ident.span(),
                format!("rule \"{id}\" is tuned twice in `check`"),
            )
            .help(format!(
                "the first is at line {}; merge the two",
                first.line
            ))
            .into());
    }
    let mut options = Vec::new();
    for (key, number) in RULE_OPTION_KEYS {
        if let Some(a) = rf.get(key) {
            options.push(RuleOption {
                key: key.to_string(),
                value: if *number {
                    RuleValue::Count(src.count(a)?)
                } else {
                    RuleValue::Strings(src.string_list(a)?)
                },
                line: src.line_of(a.key.span()),
            });
        }
    }
    options.sort_by_key(|o| o.line);
    Ok(RuleSetting {
        id,
        options,
        severity: rf.get("severity").map(|a| severity(src, a)).transpose()?,
        enabled: rf
            .get("enabled")
            .map(|a| src.boolean(a))
            .transpose()?
            .unwrap_or(true),
        line,
    })
}

/// One `generated "BY" { ... }` block of `check`.
fn generated(src: &Reader<'_>, nb: &Block, line: usize) -> Result<Generated, ConfigError> {
    let by = src.one_label(nb, "its name", "generated \"atmos\" { backend = true }")?;
    let place = format!("`check {{ generated \"{by}\" }}`");
    let gf = src.fields(&nb.body, &place, GENERATED_KEYS, &[])?;
    let flag = |k: &str| -> Result<bool, ConfigError> {
        Ok(gf
            .get(k)
            .map(|a| src.boolean(a))
            .transpose()?
            .unwrap_or(false))
    };
    let (backend, lock_file) = (flag("backend")?, flag("lock_file")?);
    if !backend && !lock_file {
        return Err(src
            .err(
                nb.ident.span(),
                format!("{place} says the generator writes nothing"),
            )
            .help("set `backend = true` and/or `lock_file = true`")
            .into());
    }
    let mut paths = Vec::new();
    if let Some(a) = gf.get("paths") {
        for (p, span) in src.strings(a)? {
            paths.push(crate::read::confined_rel(&p).ok_or_else(|| {
                src.err(
                    span,
                    format!("{place}: path \"{p}\" is outside the repository"),
                )
                .help("give paths relative to the repository root")
            })?);
        }
    }
    Ok(Generated {
        by,
        backend,
        lock_file,
        paths,
        line,
    })
}

pub(crate) fn check(src: &Reader<'_>, b: &Block) -> Result<CheckSettings, ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`check`", CHECK_KEYS, CHECK_BLOCKS)?;
    let mut c = CheckSettings {
        terraform_floor: f
            .get("terraform_floor")
            .map(|a| src.nonempty(a))
            .transpose()?,
        fail_on: f.get("fail_on").map(|a| severity(src, a)).transpose()?,
        protected: f
            .get("protected")
            .map(|a| crate::read::patterns(src, a))
            .transpose()?
            .unwrap_or_default(),
        ..CheckSettings::default()
    };
    for nb in &f.blocks {
        let line = src.line_of(nb.ident.span());
        match nb.ident.as_str() {
            "rule" => {
                let r = rule(src, nb, line, &c.rules)?;
                c.rules.push(r);
            }
            "exclude" => c
                .excludes
                .push(crate::drift::exclude(src, nb, "check", line)?),
            "generated" => c.generated.push(generated(src, nb, line)?),
            _ => {
                let name = src.one_label(nb, "its name", "release \"platform\" { ... }")?;
                let place = format!("`check {{ release \"{name}\" }}`");
                let rf = src.fields(&nb.body, &place, RELEASE_KEYS, &[])?;
                let list = |k: &str| -> Result<Vec<String>, ConfigError> {
                    Ok(rf
                        .get(k)
                        .map(|a| src.string_list(a))
                        .transpose()?
                        .unwrap_or_default())
                };
                c.releases.push(Release {
                    name,
                    module_sources: list("module_sources")?,
                    collections: list("collections")?,
                    variables: list("variables")?,
                    line,
                });
            }
        }
    }
    Ok(c)
}
