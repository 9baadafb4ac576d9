//! `ward.hcl`, one owner: the file is found by one rule ([`discover`]), read once with one HCL
//! library (hcl-edit, which keeps spans), and turned into typed sections that each command takes
//! as it needs them. No command parses `ward.hcl` text itself.
//!
//! | block | section | read by |
//! |---|---|---|
//! | `resource "TYPE"` | [`Config::rules`] (parsed by ward-rules' rule reader) | every command |
//! | `rules` | [`Config::rule_files`] (rule files, read by ward-rules' rule reader) | every command |
//! | `root "NAME"` | [`Config::roots`] | `ward check`, `ward drift` |
//! | `layer "NAME"` | [`Config::layers`] | `ward check` |
//! | `check` | [`Config::check`] | `ward check` |
//! | `policy`, `guard "NAME"` | [`Config::policy`] | `ward gate`, `ward approve` |
//! | `drift` | [`Config::drift`] | `ward drift` |
//! | `stack` | [`Config::stack`] | `ward stack` |
//! | `render "NAME"` | [`Config::renders`] | `ward check` |
//! | `waiver` | [`Config::waivers`] | `ward check` |
//! | `reviewers` | [`Policy::reviewers`](policy::Policy::reviewers) | `ward gate --approvals-from` |
//!
//! Every error is `FILE:LINE:COLUMN: what was wrong` with a `help:` line saying what to do, and
//! every unknown block or key, at any depth, is an error with a did-you-mean. A new section is a
//! module with its reader, a field of [`Config`], and one entry in [`SECTIONS`].
//!
//! ```
//! let c = ward_config::Config::parse(
//!     "root \"net\" {\n  path = \"live/net\"\n}\n",
//!     "ward.hcl",
//!     std::path::Path::new("."),
//! ).unwrap();
//! assert_eq!(c.roots[0].path, "live/net");
//! let e = ward_config::Config::parse("check {\n  enabeld = false\n}\n", "ward.hcl", std::path::Path::new("."))
//!     .unwrap_err();
//! assert!(e.to_string().starts_with("ward.hcl:2:3: unknown key `enabeld`"));
//! ```

pub mod check;
mod discover;
pub mod drift;
mod error;
pub mod history;
pub mod plan;
pub mod policy;
mod read;
pub mod render;
pub mod repo;
pub mod review;
mod rules;
pub mod stack;
pub mod waiver;

pub use check::{CheckSettings, Generated, Release, RuleOption, RuleSetting, RuleValue};
pub use discover::{discover, relative_to, Found};
pub use drift::{DriftSettings, Exclude, IgnoreRule};
pub use error::ConfigError;
pub use history::HistorySettings;
pub use plan::PlanSettings;
pub use policy::{Budget, Budgets, Guard, GuardOn, Policy};
pub use render::Render;
pub use repo::{Layer, Pin, Root};
pub use stack::{PreDestroy, RootStack, Site, StackSettings};
pub use waiver::Waiver;

use hcl_edit::structure::{Block, Structure};
use hcl_edit::Span;
use serde::Serialize;
use std::path::{Path, PathBuf};
use ward_hcl::Reader;
use ward_rules::UserRules;

/// Every section's block schemas: where a key or block that is unknown where it was written
/// belongs instead ("did you mean `x`? it belongs in ..."). The sections own their schemas;
/// the reader's hook ([`read::elsewhere`]) is handed them here and imports no section.
const EVERYWHERE: &[&[read::Schema]] = &[
    repo::SCHEMAS,
    stack::SCHEMAS,
    check::SCHEMAS,
    policy::SCHEMAS,
    drift::SCHEMAS,
    render::SCHEMAS,
    waiver::SCHEMAS,
    review::SCHEMAS,
];

/// The top-level blocks `ward.hcl` takes, in the order docs/config.md lists them.
pub const SECTIONS: &[&str] = &[
    "resource",
    "root",
    "layer",
    "check",
    "policy",
    "guard",
    "drift",
    "plan",
    "stack",
    "render",
    "waiver",
    "history",
    "rules",
    "reviewers",
];

/// ward's knowledge under a configuration: the built-in packs, then the `resource` blocks of
/// `config`, then the rule files its `rules` block lists (user rules win over every pack; the
/// earlier over the later). Every command that classifies loads it here.
pub fn knowledge(config: Option<&Config>) -> Result<ward_rules::Knowledge, ward_rules::RulesError> {
    let mut k = ward_rules::Knowledge::builtin()?;
    if let Some(c) = config {
        k.add_user_rules(&c.rules);
        for file in &c.rule_files {
            k.add_user_rules(file);
        }
    }
    Ok(k)
}

/// The whole of `ward.hcl`, typed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Config {
    /// The file as cited in messages and reports (relative to the directory the command works
    /// on when it lies there or above it).
    pub file: String,
    /// The file on disk.
    pub path: PathBuf,
    /// Its directory: relative paths in it (`policy.approvals`, guard working directory) are
    /// resolved against this.
    pub dir: PathBuf,
    /// `resource` blocks: user rules.
    #[serde(skip)]
    pub rules: UserRules,
    /// The rule files the `rules` block lists, read, in the order listed.
    #[serde(skip)]
    pub rule_files: Vec<UserRules>,
    /// `root` blocks, in file order.
    pub roots: Vec<Root>,
    /// `layer` blocks, in file order.
    pub layers: Vec<Layer>,
    /// The `check` block (defaults when absent).
    pub check: CheckSettings,
    /// The `policy` block and `guard` blocks (defaults when absent).
    #[serde(skip)]
    pub policy: Policy,
    /// The `drift` block (empty when absent).
    pub drift: DriftSettings,
    /// The `plan` block (defaults when absent).
    pub plan: PlanSettings,
    /// The `stack` block (defaults when absent).
    pub stack: StackSettings,
    /// `render` blocks, in file order (`ward check`'s rendered-equality gates).
    pub renders: Vec<Render>,
    /// `waiver` blocks, in file order.
    pub waivers: Vec<Waiver>,
    /// The `history` block (empty when absent).
    pub history: HistorySettings,
}

impl Config {
    /// No `ward.hcl`: every section at its default, files placed under `dir`.
    pub fn empty(dir: &Path) -> Config {
        Config {
            dir: dir.to_path_buf(),
            policy: Policy::defaults_in(dir),
            ..Config::default()
        }
    }

    /// Reads the file [`discover`] found.
    pub fn load_found(found: &Found) -> Result<Config, ConfigError> {
        Config::load(&found.path, &found.display)
    }

    /// Reads `ward.hcl` from `path`, citing it as `display`.
    pub fn load(path: &Path, display: &str) -> Result<Config, ConfigError> {
        let whole = |message: String, help: &str| ConfigError {
            file: display.to_string(),
            line: 0,
            column: 0,
            message,
            help: Some(help.to_string()),
        };
        let bytes = std::fs::read(path).map_err(|e| {
            whole(
                format!("cannot read the configuration: {e}"),
                "check the path given with --config, or create ward.hcl at the repository root",
            )
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            whole(
                format!(
                    "the file is not UTF-8 (byte {})",
                    e.utf8_error().valid_up_to()
                ),
                "save it as UTF-8",
            )
        })?;
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut c = Config::parse(&text, display, &dir)?;
        c.path = path.to_path_buf();
        Ok(c)
    }

    /// Parses the text of a `ward.hcl`; `display` names it in errors, `dir` anchors its paths.
    pub fn parse(text: &str, display: &str, dir: &Path) -> Result<Config, ConfigError> {
        // Some editors start UTF-8 files with a byte order mark; it is not HCL.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let body = ward_hcl::parse_body(text).map_err(|e| ConfigError {
            file: display.to_string(),
            line: e.line,
            column: e.column,
            message: format!("not valid HCL: {}", e.message),
            help: Some(format!("fix the syntax near `{}`", e.near)),
        })?;
        let elsewhere = |word: &str| read::elsewhere(EVERYWHERE, word);
        let src = Reader::new(display, text).suggesting(&elsewhere);
        let mut c = Config::empty(dir);
        c.file = display.to_string();
        let mut resources: Vec<&Block> = Vec::new();
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for s in body.iter() {
            let b = match s {
                Structure::Attribute(a) => {
                    return Err(src
                        .err(
                            a.key.span(),
                            format!("unexpected top-level key `{}`", a.key.as_str()),
                        )
                        .help(format!(
                            "ward.hcl holds blocks only: {}",
                            SECTIONS
                                .iter()
                                .map(|s| format!("`{s}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                        .into())
                }
                Structure::Block(b) => b,
            };
            let ident = b.ident.as_str();
            let line = src.line_of(b.ident.span());
            if [
                "check",
                "policy",
                "plan",
                "stack",
                "history",
                "rules",
                "reviewers",
            ]
            .contains(&ident)
            {
                if let Some((_, first)) = seen.iter().find(|(i, _)| *i == ident) {
                    return Err(src
                        .err(b.ident.span(), format!("a second `{ident}` block"))
                        .help(format!("the first is at line {first}; merge them into one"))
                        .into());
                }
                seen.push((ident, line));
            }
            match ident {
                "resource" => resources.push(b),
                "root" => c.roots.push(repo::root(&src, b)?),
                "layer" => c.layers.push(repo::layer(&src, b)?),
                "check" => c.check = check::check(&src, b)?,
                "policy" => policy::policy(&src, b, dir, &mut c.policy)?,
                "guard" => {
                    let g = policy::guard(&src, b, dir, &c.policy)?;
                    c.policy.guards.push(g);
                }
                "drift" => drift::drift(&src, b, &mut c.drift)?,
                "plan" => c.plan = plan::plan(&src, b)?,
                "stack" => stack::stack(&src, b, dir, &mut c.stack)?,
                "render" => {
                    let r = render::render(&src, b, &c.renders)?;
                    c.renders.push(r);
                }
                "waiver" => {
                    let n = c.waivers.len() + 1;
                    c.waivers.push(waiver::waiver(&src, b, n)?);
                }
                "history" => c.history = history::history(&src, b, dir)?,
                "reviewers" => c.policy.reviewers = review::reviewers(&src, b)?,
                "rules" => c.rule_files = rules::rules(&src, b, dir)?,
                "pack" => {
                    return Err(src.err(
                        b.ident.span(), "a `pack` header in ward.hcl").help("`pack` headers belong to the built-in packs; ward.hcl holds `resource` blocks without one").into())
                }
                other => {
                    let help = match ward_hcl::did_you_mean(other, SECTIONS) {
                        Some(k) => format!("did you mean `{k}`? ward.hcl takes"),
                        None => "ward.hcl takes".to_string(),
                    };
                    return Err(src.err(
                        b.ident.span(), format!("unknown block `{other}` in ward.hcl")).help(format!(
                            "{help} {} (see `ward docs config`)",
                            SECTIONS.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
                        )).into());
                }
            }
        }
        c.rules = UserRules::from_blocks(display, text, resources)?;
        c.validate(&src)?;
        Ok(c)
    }

    /// Checks across blocks: unique root names and paths, unique layers, layers that exist.
    fn validate(&self, src: &Reader<'_>) -> Result<(), ConfigError> {
        let at = |line: usize, message: String, help: &str| ConfigError {
            file: src.file().to_string(),
            line,
            column: 1,
            message,
            help: Some(help.to_string()),
        };
        for (i, r) in self.roots.iter().enumerate() {
            for prev in &self.roots[..i] {
                if prev.name == r.name {
                    return Err(at(
                        r.line,
                        format!(
                            "root \"{}\" is declared twice (first at line {})",
                            r.name, prev.line
                        ),
                        "give each root its own name",
                    ));
                }
                if prev.path == r.path {
                    return Err(at(
                        r.line,
                        format!(
                            "roots \"{}\" and \"{}\" both have path {}",
                            prev.name, r.name, r.path
                        ),
                        "declare each directory once",
                    ));
                }
            }
        }
        for (i, l) in self.layers.iter().enumerate() {
            if let Some(prev) = self.layers[..i].iter().find(|p| p.name == l.name) {
                return Err(at(
                    l.line,
                    format!(
                        "layer \"{}\" is declared twice (first at line {})",
                        l.name, prev.line
                    ),
                    "give each layer its own name",
                ));
            }
        }
        let names: Vec<&str> = self.layers.iter().map(|l| l.name.as_str()).collect();
        for r in &self.roots {
            if let Some(l) = &r.layer {
                if !names.contains(&l.as_str()) {
                    let help = match ward_hcl::did_you_mean(l, &names) {
                        Some(k) => format!(
                            "did you mean \"{k}\"? or declare `layer \"{l}\" {{ level = N }}`"
                        ),
                        None => format!("declare `layer \"{l}\" {{ level = N }}`, or fix the name"),
                    };
                    return Err(at(
                        r.line,
                        format!(
                            "root \"{}\" names layer \"{l}\", which no `layer` block declares",
                            r.name
                        ),
                        &help,
                    ));
                }
            }
        }
        self.validate_reads(src)
    }

    /// `reads` in root blocks: every name a declared root, read from the layer directly below.
    fn validate_reads(&self, src: &Reader<'_>) -> Result<(), ConfigError> {
        let at = |line: usize, message: String, help: String| ConfigError {
            file: src.file().to_string(),
            line,
            column: 1,
            message,
            help: Some(help),
        };
        let names: Vec<&str> = self.roots.iter().map(|r| r.name.as_str()).collect();
        let level = |r: &Root| {
            r.layer
                .as_ref()
                .and_then(|l| self.layers.iter().find(|x| &x.name == l))
        };
        for r in &self.roots {
            for read in &r.stack.reads {
                let Some(target) = self.roots.iter().find(|t| &t.name == read) else {
                    let help = match ward_hcl::did_you_mean(read, &names) {
                        Some(k) => format!("did you mean \"{k}\"? `reads` names declared roots"),
                        None => "`reads` names declared roots: declare it with `root \"NAME\" { path = ... }`, or fix the name".to_string(),
                    };
                    return Err(at(
                        r.line,
                        format!(
                            "root \"{}\" reads \"{read}\", which no `root` block declares",
                            r.name
                        ),
                        help,
                    ));
                };
                let (Some(my), Some(their)) = (level(r), level(target)) else {
                    return Err(at(
                        r.line,
                        format!(
                            "root \"{}\" reads \"{read}\", but {} no layer",
                            r.name,
                            if level(r).is_none() { format!("\"{}\" has", r.name) } else { format!("\"{read}\" has") }
                        ),
                        "give both roots a `layer`: ward stack orders roots by layer and a root reads only the layer directly below".to_string(),
                    ));
                };
                if their.level >= my.level {
                    return Err(at(
                        r.line,
                        format!(
                            "root \"{}\" (layer {}, level {}) reads \"{read}\" (layer {}, level {}): a root may read only the layer directly below, never its own or a higher one",
                            r.name, my.name, my.level, their.name, their.level
                        ),
                        "move what it needs into a lower layer and read its outputs from there".to_string(),
                    ));
                }
                if my.level - their.level > 1 {
                    return Err(at(
                        r.line,
                        format!(
                            "root \"{}\" (layer {}, level {}) reads \"{read}\" (layer {}, level {}), skipping the layers between",
                            r.name, my.name, my.level, their.name, their.level
                        ),
                        "read only the layer directly below, and have it re-export what this root needs".to_string(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The files the gate writes (`policy.approvals`, `policy.protection_record`), checked on
    /// disk: each must resolve inside the directory of `ward.hcl`. The text was already confined
    /// when it was read; this refuses a symlink on the way (a `.ward` linked elsewhere) that
    /// would make the gate write outside the repository. Nothing to check without a file.
    pub fn check_gate_files(&self) -> Result<(), ConfigError> {
        if self.path.as_os_str().is_empty() {
            return Ok(());
        }
        let Ok(base) = std::fs::canonicalize(&self.dir) else {
            return Ok(());
        };
        for (key, file) in [
            ("approvals", &self.policy.approvals_file),
            ("protection_record", &self.policy.protection_record),
        ] {
            if let Some(outside) = escapes(file, &base) {
                return Err(ConfigError {
                    file: self.file.clone(),
                    line: 0,
                    column: 0,
                    message: format!(
                        "policy.{key}: {} resolves to {}, outside the directory of ward.hcl",
                        file.display(),
                        outside.display()
                    ),
                    help: Some(
                        "the gate does not write outside the repository: remove the symlink (e.g. a linked .ward directory), or point the key at a real directory inside it".to_string(),
                    ),
                });
            }
        }
        Ok(())
    }

    /// The declared root at a repository-relative directory.
    pub fn root_at(&self, dir: &str) -> Option<&Root> {
        self.roots.iter().find(|r| r.path == dir)
    }

    /// The layer of the declared root at `dir`, with its level.
    pub fn layer_of(&self, dir: &str) -> Option<&Layer> {
        let name = self.root_at(dir)?.layer.as_ref()?;
        self.layers.iter().find(|l| &l.name == name)
    }
}

/// Discovery's options ([`ward_repo::discover`]) for `config`: the roots it declares (each a root
/// even when called as a module) and the paths not to enter.
pub fn repo_options(config: Option<&Config>, exclude: Vec<Exclude>) -> ward_repo::Options {
    ward_repo::Options {
        declared_roots: config
            .map(|c| c.roots.iter().map(|r| r.path.clone()).collect())
            .unwrap_or_default(),
        exclude,
    }
}

/// Where `file` really lands when that is outside `base` (canonical): the nearest part of it that
/// exists, resolved through symlinks. A dangling symlink counts as outside.
fn escapes(file: &Path, base: &Path) -> Option<PathBuf> {
    let mut p = file;
    loop {
        if std::fs::symlink_metadata(p).is_ok() {
            return match std::fs::canonicalize(p) {
                Ok(real) if real.starts_with(base) => None,
                Ok(real) => Some(real),
                Err(_) => Some(p.to_path_buf()),
            };
        }
        p = p.parent()?;
    }
}

/// `./live/net/` → `live/net`; `.` and `` → `.`; `a/../b` → `b`. The one normalization of
/// repository-relative directories (`root { path }`, discovered roots).
pub fn normalize_rel(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for c in p.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;
