//! Step 2 of discovery: every directory's configuration files parsed (in parallel, one chunk
//! of directories per core) into its [`Module`], with OpenTofu's precedence (`name.tofu` hides
//! `name.tf`, override files last); and the same reading for one directory ([`read_module`]) or
//! one file's text ([`parse_file_text`]).

use super::Found;
use crate::tree::{self, Node, ParseFailure, Val};
use crate::{
    is_config_file, layout, Backend, FileProblem, Loc, Module, ModuleCall, ModuleSource,
    ProviderConfig, ProviderRequirement, RemoteState, RepoError, Resource,
};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One directory, parsed.
pub(crate) struct Parsed {
    /// Its module (kind not decided yet).
    pub module: Module,
    /// Files that could not be read or parsed.
    pub problems: Vec<FileProblem>,
    /// Files that are templates, not configuration.
    pub templates: Vec<layout::Template>,
    /// `.tf` files hidden by a `.tofu` file: (hidden, winner).
    pub shadowed: Vec<(String, String)>,
    /// How many files were read.
    pub files_parsed: usize,
}

/// Parses every directory the walk found (`tf_by_dir`: directory → configuration file names);
/// `problems` are the walk's, to which the parse adds its own.
pub(crate) fn parse_dirs(
    root: &Path,
    tf_by_dir: &BTreeMap<String, Vec<String>>,
    lock_dirs: &BTreeSet<String>,
    problems: Vec<FileProblem>,
) -> Found {
    let dirs: Vec<(String, Vec<String>)> = tf_by_dir
        .iter()
        .map(|(d, n)| (d.clone(), n.clone()))
        .collect();
    let mut found = Found {
        modules: Vec::new(),
        problems,
        template_files: Vec::new(),
        shadowed: Vec::new(),
        files_parsed: 0,
    };
    for p in parse_all(root, &dirs, lock_dirs) {
        found.shadowed.extend(p.shadowed);
        found.problems.extend(p.problems);
        found.template_files.extend(p.templates);
        found.files_parsed += p.files_parsed;
        found.modules.push(p.module);
    }
    if found.modules.len() != dirs.len() {
        found.problems.push(FileProblem {
            loc: Loc {
                file: ".".to_string(),
                line: 0,
            },
            column: 0,
            message: format!(
                "internal error: {} of {} directories were parsed",
                found.modules.len(),
                dirs.len()
            ),
        });
    }
    // A directory whose every file is a template holds no configuration.
    let templates = &found.template_files;
    found.modules.retain(|m| {
        !m.files.is_empty()
            || !templates
                .iter()
                .any(|t| t.path.rsplit_once('/').map_or(".", |(d, _)| d) == m.dir)
    });
    found
}

/// Parses every directory of `dirs` (directory → configuration file names), in parallel.
pub(crate) fn parse_all(
    root: &Path,
    dirs: &[(String, Vec<String>)],
    lock_dirs: &BTreeSet<String>,
) -> Vec<Parsed> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, 8);
    let chunk = dirs.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = dirs
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(dir, names)| parse_dir(root, dir, names.clone(), lock_dirs))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// The repository-relative path of `name` in `dir`.
fn in_dir(dir: &str, name: &str) -> String {
    if dir == "." {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The files of `names` a `.tofu` file of the same name hides, each with its winner
/// (repository-relative), and the rest in reading order (override files last).
fn precedence(dir: &str, mut names: Vec<String>) -> (Vec<(String, String)>, Vec<String>) {
    names.sort();
    let set: BTreeSet<String> = names.iter().cloned().collect();
    let hidden: BTreeSet<String> = names
        .iter()
        .filter_map(|n| shadowed_name(n))
        .filter(|h| set.contains(h))
        .collect();
    let shadowed = hidden
        .iter()
        .map(|h| {
            let winner = if h.ends_with(".json") {
                format!("{}.tofu.json", h.trim_end_matches(".tf.json"))
            } else {
                format!("{}.tofu", h.trim_end_matches(".tf"))
            };
            (in_dir(dir, h), in_dir(dir, &winner))
        })
        .collect();
    let mut ordered: Vec<String> = names.into_iter().filter(|n| !hidden.contains(n)).collect();
    ordered.sort_by_key(|n| (is_override(n), n.clone()));
    (shadowed, ordered)
}

/// A file's text; a problem when it cannot be read or is not UTF-8.
fn read_text(root: &Path, path: &str) -> Result<String, FileProblem> {
    let problem = |message: String| FileProblem {
        loc: Loc {
            file: path.to_string(),
            line: 0,
        },
        column: 0,
        message,
    };
    match std::fs::read(root.join(path)) {
        Ok(b) => String::from_utf8(b)
            .map_err(|_| problem("not UTF-8 text; Terraform reads only UTF-8".to_string())),
        Err(e) => Err(problem(format!("cannot read: {e}"))),
    }
}

/// Reads and parses one directory's configuration files (`names`).
fn parse_dir(root: &Path, dir: &str, names: Vec<String>, lock_dirs: &BTreeSet<String>) -> Parsed {
    let (shadowed, ordered) = precedence(dir, names);
    let mut p = Parsed {
        module: Module::new(dir.to_string()),
        problems: Vec::new(),
        templates: Vec::new(),
        shadowed,
        files_parsed: 0,
    };
    let m = &mut p.module;
    m.lock_file = lock_dirs.contains(dir);
    if m.lock_file {
        m.lock_providers = lock_providers(&root.join(in_dir(dir, ".terraform.lock.hcl")));
    }
    for name in ordered {
        let path = in_dir(dir, &name);
        p.module.files.push(path.clone());
        p.files_parsed += 1;
        match read_text(root, &path) {
            Ok(text) => parse_file(&mut p, &name, path, &text),
            Err(problem) => p.problems.push(problem),
        }
    }
    p.module.files.sort();
    p
}

/// Adds one file's text to its directory's [`Parsed`]: its blocks, or why it is not read (a
/// template, a symlink checked out as text, a parse error).
fn parse_file(p: &mut Parsed, name: &str, path: String, text: &str) {
    let parsed = if name.ends_with(".json") {
        tree::parse_json(text)
    } else {
        tree::parse_hcl(text)
    };
    match parsed {
        Ok(nodes) => {
            if p.module.generated_from.is_none() {
                p.module.generated_from = layout::generated_from(text);
            }
            absorb(&mut p.module, &nodes, &path, is_override(name))
        }
        Err(_) if layout::is_template_text(text) => {
            p.module.files.retain(|f| f != &path);
            p.templates.push(layout::Template {
                path,
                what: "a template file ({{ … }} expressions: not HCL until rendered)".to_string(),
            });
        }
        Err(_) if layout::symlink_text(text).is_some() => p.problems.push(FileProblem {
            loc: Loc {
                file: path,
                line: 1,
            },
            column: 0,
            message: format!(
                "holds only the path \"{}\": a symlink checked out as a plain file (git's core.symlinks is false here, or a copy lost the link); Terraform cannot read it either: check the repository out with symlinks, or put the target's text in it",
                layout::symlink_text(text).unwrap_or_default()
            ),
        }),
        Err(ParseFailure {
            line,
            column,
            message,
        }) => p.problems.push(FileProblem {
            loc: Loc { file: path, line },
            column,
            message,
        }),
    }
}

/// One directory read by [`read_module`].
#[derive(Debug, Clone, PartialEq)]
pub struct DirRead {
    /// The module, its files named relative to the directory (`main.tf`); its kind is not
    /// decided (that needs the whole repository) and stays [`ModuleKind::Module`](crate::ModuleKind::Module).
    pub module: Module,
    /// Files that could not be read or parsed, sorted.
    pub problems: Vec<FileProblem>,
    /// `.tf` files hidden by a `.tofu` file of the same name: (hidden, winner).
    pub shadowed: Vec<(String, String)>,
}

/// Reads the configuration files of one directory (not its subdirectories) with the same
/// precedence as [`discover`](crate::discover) (`.tofu` hides `.tf`, override files last), for callers that need
/// one root or module rather than a repository: the gate's `prevent_destroy`, drift's binary
/// evidence. Files are read through symlinks, as Terraform does. Fails only when the directory
/// cannot be listed.
pub fn read_module(dir: &Path) -> Result<DirRead, RepoError> {
    let not_dir = |reason: String| RepoError::NotADirectory {
        path: dir.display().to_string(),
        reason,
    };
    let rd = std::fs::read_dir(dir).map_err(|e| not_dir(e.to_string()))?;
    let mut names = Vec::new();
    let mut lock = BTreeSet::new();
    for entry in rd {
        let entry = entry.map_err(|e| not_dir(e.to_string()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().is_file() {
            continue;
        }
        if is_config_file(&name) {
            names.push(name);
        } else if name == ".terraform.lock.hcl" {
            lock.insert(".".to_string());
        }
    }
    let p = parse_dir(dir, ".", names, &lock);
    let mut problems = p.problems;
    problems.sort();
    Ok(DirRead {
        module: p.module,
        problems,
        shadowed: p.shadowed,
    })
}

/// Parses one configuration file's text (native syntax, or JSON when `path` ends with `.json`)
/// into the [`Module`] of its directory, as discovery would; `Err` carries the parse error with
/// its line. `path` is repository-relative.
pub fn parse_file_text(path: &str, text: &str) -> Result<Module, FileProblem> {
    let dir = path.rsplit_once('/').map(|(d, _)| d).unwrap_or(".");
    let name = path.rsplit('/').next().unwrap_or(path);
    let parsed = if name.ends_with(".json") {
        tree::parse_json(text)
    } else {
        tree::parse_hcl(text)
    };
    match parsed {
        Ok(nodes) => {
            let mut m = Module::new(dir.to_string());
            m.files.push(path.to_string());
            absorb(&mut m, &nodes, path, is_override(name));
            Ok(m)
        }
        Err(f) => Err(FileProblem {
            loc: Loc {
                file: path.to_string(),
                line: f.line,
            },
            column: f.column,
            message: f.message,
        }),
    }
}

/// `override.tf`, `x_override.tf` (any configuration extension): read after the others.
pub(crate) fn is_override(name: &str) -> bool {
    let stem = name
        .trim_end_matches(".json")
        .trim_end_matches(".tf")
        .trim_end_matches(".tofu");
    stem == "override" || stem.ends_with("_override")
}

/// `a.tofu` → `a.tf`, `a.tofu.json` → `a.tf.json`.
pub(crate) fn shadowed_name(name: &str) -> Option<String> {
    if let Some(s) = name.strip_suffix(".tofu") {
        Some(format!("{s}.tf"))
    } else {
        name.strip_suffix(".tofu.json")
            .map(|s| format!("{s}.tf.json"))
    }
}

/// [`lock_providers`] of the lock file in the repository-relative directory `dir`.
pub(crate) fn lock_providers_in(root: &Path, dir: &str) -> Vec<String> {
    lock_providers(&root.join(if dir == "." {
        ".terraform.lock.hcl".to_string()
    } else {
        format!("{dir}/.terraform.lock.hcl")
    }))
}

/// The `provider` block labels of a lock file, sorted; empty when it cannot be read or parsed
/// (Terraform itself then refuses to init, which says why).
fn lock_providers(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(nodes) = tree::parse_hcl(&text) else {
        return Vec::new();
    };
    let mut out: Vec<String> = nodes
        .iter()
        .filter(|n| n.ident == "provider")
        .filter_map(|n| n.labels.first().cloned())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The entries of an `ignore_changes` value as written: `[tags, image]` gives `tags` and
/// `image`, `all` gives `all`, a (legacy) quoted string its text.
fn ignored_attributes(v: &Val) -> Vec<String> {
    let one = |v: &Val| match v {
        Val::Str(s) => Some(s.clone()),
        // An entry's text keeps the comments written before it (`# why\n name`): not part of it.
        Val::Expr { text, .. } => Some(
            text.lines()
                .map(|l| {
                    let cut = [l.find('#'), l.find("//")].into_iter().flatten().min();
                    cut.map_or(l, |i| l.get(..i).unwrap_or(l)).trim()
                })
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" "),
        )
        .filter(|t| !t.is_empty()),
        Val::Null | Val::Bool(_) | Val::Number(_) | Val::List(_) | Val::Map(_) => None,
    };
    match v {
        Val::List(items) => items.iter().filter_map(one).collect(),
        other => one(other).into_iter().collect(),
    }
}

fn lit(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::Number(n) => Some(n.clone()),
        _ => None,
    }
}

fn collect_refs(n: &Node, out: &mut Vec<String>) {
    for a in &n.attrs {
        out.extend(a.value.refs());
    }
    for b in &n.blocks {
        collect_refs(b, out);
    }
}

/// Adds one file's blocks to its directory's module.
fn absorb(m: &mut Module, nodes: &[Node], file: &str, is_override: bool) {
    let loc = |line: usize| Loc {
        file: file.to_string(),
        line,
    };
    for n in nodes {
        match (n.ident.as_str(), n.labels.as_slice()) {
            ("terraform", _) => absorb_terraform(m, n, &loc, is_override),
            ("provider", [name, ..]) => absorb_provider(m, n, name, loc(n.line)),
            ("import", _) => m.imports.push(loc(n.line)),
            ("module", [name, ..]) => {
                let src = n.attr("source");
                m.module_calls.push(ModuleCall {
                    name: name.clone(),
                    source: src.and_then(|a| a.value.as_str()).map(ModuleSource::parse),
                    version: n.attr("version").and_then(|a| lit(&a.value)),
                    loc: loc(src.map(|a| a.line).unwrap_or(n.line)),
                });
            }
            (mode @ ("resource" | "data" | "ephemeral"), [t, name, ..]) => {
                absorb_resource(m, n, (mode, t, name), loc(n.line), is_override)
            }
            _ => {}
        }
    }
}

/// A `terraform` block: `required_version`, `required_providers`, `backend`, `cloud`,
/// `encryption`.
fn absorb_terraform(m: &mut Module, n: &Node, loc: &dyn Fn(usize) -> Loc, is_override: bool) {
    if let Some(a) = n.attr("required_version") {
        let text = match &a.value {
            Val::Str(s) => s.clone(),
            Val::Expr { text, .. } => text.clone(),
            other => format!("{other:?}"),
        };
        if is_override {
            m.required_version.clear();
        }
        m.required_version.push((text, loc(a.line)));
    }
    for rp in n.blocks_named("required_providers") {
        for a in &rp.attrs {
            let (source, version) = match &a.value {
                Val::Str(s) => (None, Some(s.clone())),
                Val::Map(_) => (
                    a.value.get("source").and_then(lit),
                    a.value.get("version").and_then(|v| match v {
                        Val::Str(s) => Some(s.clone()),
                        Val::Expr { text, .. } => Some(text.clone()),
                        _ => None,
                    }),
                ),
                _ => (None, None),
            };
            m.required_providers.push(ProviderRequirement {
                name: a.key.clone(),
                source,
                version,
                loc: loc(a.line),
            });
        }
    }
    for b in n.blocks_named("backend") {
        m.backend = Some(Backend {
            kind: b.labels.first().cloned().unwrap_or_default(),
            config: b
                .attrs
                .iter()
                .map(|a| (a.key.clone(), a.value.clone()))
                .collect(),
            loc: loc(b.line),
        });
    }
    if let Some(c) = n.blocks_named("cloud").next() {
        m.cloud = Some(loc(c.line));
    }
    if let Some(e) = n.blocks_named("encryption").next() {
        m.encryption = Some(loc(e.line));
    }
}

/// A `provider "NAME"` block: its configuration, and a legacy `version` as a requirement.
fn absorb_provider(m: &mut Module, n: &Node, name: &str, loc: Loc) {
    let mut refs = Vec::new();
    collect_refs(n, &mut refs);
    refs.sort();
    refs.dedup();
    let version = n.attr("version").and_then(|a| lit(&a.value));
    if let Some(v) = &version {
        m.required_providers.push(ProviderRequirement {
            name: name.to_string(),
            source: None,
            version: Some(v.clone()),
            loc: loc.clone(),
        });
    }
    m.provider_configs.push(ProviderConfig {
        name: name.to_string(),
        alias: n.attr("alias").and_then(|a| lit(&a.value)),
        refs,
        version,
        for_each: n.attr("for_each").is_some(),
        loc,
    });
}

/// A `resource`, `data` or `ephemeral` block (`mode`, type, name): its lifecycle protections,
/// merged into the block it overrides when the file is an override file; a
/// `terraform_remote_state` read.
fn absorb_resource(
    m: &mut Module,
    n: &Node,
    (mode, t, name): (&str, &String, &String),
    loc: Loc,
    is_override: bool,
) {
    let prevent_destroy = n
        .blocks_named("lifecycle")
        .find_map(|l| l.attr("prevent_destroy"))
        .map(|a| {
            !matches!(&a.value, Val::Bool(false) | Val::Null) && a.value.as_str() != Some("false")
        });
    let ignore_changes: Option<Vec<String>> = n
        .blocks_named("lifecycle")
        .find_map(|l| l.attr("ignore_changes"))
        .map(|a| ignored_attributes(&a.value));
    let mode = match mode {
        "resource" => "managed",
        other => other,
    };
    if mode == "data" && t == "terraform_remote_state" {
        m.remote_states.push(RemoteState {
            name: name.clone(),
            backend: n.attr("backend").and_then(|a| lit(&a.value)),
            config: n.attr("config").map(|a| a.value.clone()),
            loc: loc.clone(),
        });
    }
    // An override file merges into the block it overrides.
    let overridden = is_override
        .then(|| {
            m.resources
                .iter_mut()
                .find(|r| r.mode == mode && r.type_name == *t && r.name == *name)
        })
        .flatten();
    match overridden {
        Some(r) => {
            if prevent_destroy.is_some() {
                r.prevent_destroy = prevent_destroy;
            }
            if let Some(i) = ignore_changes {
                r.ignore_changes = i;
            }
        }
        None => m.resources.push(Resource {
            mode: mode.to_string(),
            type_name: t.clone(),
            name: name.clone(),
            prevent_destroy,
            ignore_changes: ignore_changes.unwrap_or_default(),
            loc,
        }),
    }
}
