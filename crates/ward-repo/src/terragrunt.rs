//! Terragrunt units: the one reader of `terragrunt.hcl` and the files it includes.
//!
//! A directory holding `terragrunt.hcl` is a **unit** (a root), unless another unit includes that
//! file (then it is a parent configuration, as the old top-level `terragrunt.hcl` layout has it).
//! [`read_unit`] reads what ward needs from a unit, following its `include` blocks:
//!
//! - `terraform { source = ... }`: the module the unit applies, as a [`ModuleSource`] (git,
//!   local, `tfr://` registry with `?version=`), checked like a `module` block's source;
//! - `dependency "NAME" { config_path = ... }`: the units it reads outputs from (the layer graph);
//! - `remote_state { backend = ... }`, or a `generate` block writing a `backend`: its backend;
//! - `terraform_version_constraint`: its `required_version`.
//!
//! The unit's own blocks win over included ones (Terragrunt's shallow merge). Expressions are not
//! evaluated in general: literal strings, `local.NAME` and `include.LABEL.locals.NAME` of
//! literal locals, `find_in_parent_folders([NAME])`, `dirname(...)`, `get_terragrunt_dir()`,
//! `get_repo_root()` and templates of those are; anything else leaves the value unknown (the
//! source is then not checked, and [`Unit::unresolved`] says so). No Terragrunt binary is needed.

use crate::tree::{self, Node, Val};
use crate::{join_rel, Backend, FileProblem, Loc, ModuleCall, ModuleSource, SourceKind};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The file name of a unit.
pub const UNIT_FILE: &str = "terragrunt.hcl";

/// A `dependency "NAME"` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dependency {
    /// The block's label.
    pub name: String,
    /// `config_path` as written (the expression's text when it is not a literal).
    pub config_path: String,
    /// The unit directory it names, repository-relative; `None` when it cannot be told.
    pub dir: Option<String>,
    /// Where the block is.
    pub loc: Loc,
}

/// What a `terragrunt.hcl` unit declares, includes followed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unit {
    /// The unit's file, repository-relative.
    pub file: String,
    /// The included files that were read, repository-relative, in order.
    pub includes: Vec<String>,
    /// `terraform { source }`, as a module call named `terragrunt`.
    pub source: Option<ModuleCall>,
    /// `dependency` blocks.
    pub dependencies: Vec<Dependency>,
    /// `remote_state`, or a `generate` block writing a backend.
    pub backend: Option<Backend>,
    /// `terraform_version_constraint`, with where it is.
    pub version_constraint: Option<(String, Loc)>,
    /// Whether a `generate` block writes a provider configuration.
    pub generates_provider: bool,
    /// Values ward could not tell without running Terragrunt, in words.
    pub unresolved: Vec<String>,
}

/// One parsed file: its blocks and its literal locals.
struct File {
    rel: String,
    nodes: Vec<Node>,
    locals: BTreeMap<String, String>,
}

/// The context expressions are evaluated in.
struct Ctx<'a> {
    root: &'a Path,
    unit_dir: &'a str,
    file: &'a File,
    includes: &'a BTreeMap<String, BTreeMap<String, String>>,
}

fn parse(root: &Path, rel: &str) -> Result<File, FileProblem> {
    let problem = |line: usize, column: usize, message: String| FileProblem {
        loc: Loc {
            file: rel.to_string(),
            line,
        },
        column,
        message,
    };
    let text = std::fs::read_to_string(root.join(rel))
        .map_err(|e| problem(0, 0, format!("cannot read: {e}")))?;
    let nodes = tree::parse_hcl(&text).map_err(|f| problem(f.line, f.column, f.message))?;
    let mut locals = BTreeMap::new();
    for l in nodes.iter().filter(|n| n.ident == "locals") {
        for a in &l.attrs {
            if let Val::Str(s) = &a.value {
                locals.insert(a.key.clone(), s.clone());
            }
        }
    }
    Ok(File {
        rel: rel.to_string(),
        nodes,
        locals,
    })
}

/// The text of a value: a literal, or the expression as written.
fn text_of(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::Expr { text, .. } => Some(text.clone()),
        _ => None,
    }
}

impl Ctx<'_> {
    /// Evaluates the small subset of Terragrunt's expressions ward understands. Paths that
    /// functions produce start with `/` (repository-relative); other strings are as written.
    fn eval(&self, expr: &str) -> Option<String> {
        let e = expr.trim();
        if let Some(inner) = e.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            return self.template(inner);
        }
        if let Some(name) = e.strip_prefix("local.") {
            return self.file.locals.get(name).cloned();
        }
        if let Some(rest) = e.strip_prefix("include.") {
            let (label, rest) = rest.split_once('.')?;
            let name = rest.strip_prefix("locals.")?;
            return self.includes.get(label)?.get(name).cloned();
        }
        let (func, args) = e.strip_suffix(')')?.split_once('(')?;
        let args = args.trim();
        match func.trim() {
            "find_in_parent_folders" => {
                let names: Vec<String> = if args.is_empty() {
                    vec!["root.hcl".to_string(), UNIT_FILE.to_string()]
                } else {
                    vec![self.eval(args)?]
                };
                self.find_in_parents(&names)
            }
            "dirname" => {
                let p = self.eval(args)?;
                Some(match p.rsplit_once('/') {
                    Some(("", _)) | None => "/".to_string(),
                    Some((d, _)) => d.to_string(),
                })
            }
            "get_terragrunt_dir" | "get_original_terragrunt_dir" if args.is_empty() => {
                Some(format!("/{}", self.unit_dir))
            }
            "get_repo_root" if args.is_empty() => Some("/".to_string()),
            _ => None,
        }
    }

    /// A template's text with every `${...}` evaluated.
    fn template(&self, t: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = t;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let mut depth = 1usize;
            let mut end = None;
            for (i, c) in after.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = Some(i);
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let end = end?;
            out.push_str(&self.eval(&after[..end])?);
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Some(out)
    }

    /// The first of `names` in a directory above the unit's (nearest first), as `/dir/name`.
    fn find_in_parents(&self, names: &[String]) -> Option<String> {
        let mut dir = self.unit_dir.to_string();
        while dir != "." {
            dir = match dir.rsplit_once('/') {
                Some((d, _)) => d.to_string(),
                None => ".".to_string(),
            };
            for n in names {
                let rel = if dir == "." {
                    n.clone()
                } else {
                    format!("{dir}/{n}")
                };
                if self.root.join(&rel).is_file() {
                    return Some(format!("/{rel}"));
                }
            }
        }
        None
    }

    /// A path value made repository-relative: `/x` from the top, else from the unit's directory.
    fn path(&self, value: &str) -> Option<String> {
        match value.strip_prefix('/') {
            Some(top) => join_rel(".", top),
            None => join_rel(self.unit_dir, value),
        }
    }
}

/// `tfr:///ns/name/system?version=1.2.3` (or `tfr://host/...`): the registry address and version.
fn registry_source(s: &str) -> Option<(String, Option<String>)> {
    let rest = s.strip_prefix("tfr://")?;
    let (addr, query) = match rest.split_once('?') {
        Some((a, q)) => (a, Some(q)),
        None => (rest, None),
    };
    let addr = addr.trim_start_matches('/');
    let addr = addr.split_once("//").map(|(a, _)| a).unwrap_or(addr);
    let version = query.and_then(|q| {
        q.split('&')
            .find_map(|kv| kv.strip_prefix("version="))
            .map(str::to_string)
    });
    Some((addr.to_string(), version))
}

/// `/modules/x` (from the top) as a path relative to `dir`.
fn relative_from(dir: &str, top: &str) -> String {
    let ups = if dir == "." {
        0
    } else {
        dir.split('/').count()
    };
    let mut s = "../".repeat(ups);
    s.push_str(top.trim_start_matches('/'));
    if ups == 0 {
        s = format!("./{s}");
    }
    s
}

/// Reads the unit at `rel` (a `terragrunt.hcl`, repository-relative) under `root`, following its
/// includes. Errors are the unit file's own parse failure; an included file that cannot be read
/// is reported in the second value and skipped.
pub fn read_unit(root: &Path, rel: &str) -> Result<(Unit, Vec<FileProblem>), FileProblem> {
    let unit_dir = match rel.rsplit_once('/') {
        Some((d, _)) => d.to_string(),
        None => ".".to_string(),
    };
    let own = parse(root, rel)?;
    let mut problems = Vec::new();
    let mut unresolved = Vec::new();
    let no_includes = BTreeMap::new();
    // Includes, resolved in the unit's context.
    let mut included: Vec<(String, File)> = Vec::new();
    {
        let ctx = Ctx {
            root,
            unit_dir: &unit_dir,
            file: &own,
            includes: &no_includes,
        };
        for inc in own.nodes.iter().filter(|n| n.ident == "include") {
            let label = inc.labels.first().cloned().unwrap_or_default();
            let Some(path) = inc.attr("path") else {
                continue;
            };
            let written = text_of(&path.value).unwrap_or_default();
            let target = match &path.value {
                Val::Str(s) => ctx.path(s),
                _ => ctx.eval(&written).and_then(|p| ctx.path(&p)),
            };
            let Some(target) = target else {
                unresolved.push(format!(
                    "include \"{label}\" path {written} (not evaluated without Terragrunt)"
                ));
                continue;
            };
            match parse(root, &target) {
                Ok(f) => included.push((label, f)),
                Err(mut p) => {
                    p.message = format!(
                        "included by {rel}:{} (include \"{label}\"): {}",
                        inc.line, p.message
                    );
                    problems.push(p);
                }
            }
        }
    }
    let include_locals: BTreeMap<String, BTreeMap<String, String>> = included
        .iter()
        .map(|(l, f)| (l.clone(), f.locals.clone()))
        .collect();
    let mut unit = Unit {
        file: rel.to_string(),
        includes: included.iter().map(|(_, f)| f.rel.clone()).collect(),
        source: None,
        dependencies: Vec::new(),
        backend: None,
        version_constraint: None,
        generates_provider: false,
        unresolved,
    };
    // The unit first, then its includes: the first value found wins.
    let files: Vec<&File> = std::iter::once(&own)
        .chain(included.iter().map(|(_, f)| f))
        .collect();
    for file in files {
        let ctx = Ctx {
            root,
            unit_dir: &unit_dir,
            file,
            includes: &include_locals,
        };
        let loc = |line: usize| Loc {
            file: file.rel.clone(),
            line,
        };
        for n in &file.nodes {
            match n.ident.as_str() {
                "terraform" if unit.source.is_none() => {
                    let Some(a) = n.attr("source") else { continue };
                    let written = text_of(&a.value).unwrap_or_default();
                    let value = match &a.value {
                        Val::Str(s) => Some(s.clone()),
                        _ => ctx.eval(&written),
                    };
                    let Some(value) = value else {
                        unit.unresolved.push(format!(
                            "terraform source {written} at {}:{} (not evaluated without Terragrunt)",
                            file.rel, a.line
                        ));
                        continue;
                    };
                    let (source, version) = match registry_source(&value) {
                        Some((address, version)) => (
                            ModuleSource {
                                raw: value.clone(),
                                kind: SourceKind::Registry { address },
                                subdir: None,
                            },
                            version,
                        ),
                        None if value.starts_with('/') => {
                            (ModuleSource::parse(&relative_from(&unit_dir, &value)), None)
                        }
                        None => (ModuleSource::parse(&value), None),
                    };
                    unit.source = Some(ModuleCall {
                        name: "terragrunt".to_string(),
                        source: Some(source),
                        version,
                        loc: loc(a.line),
                    });
                }
                "dependency" => {
                    let name = n.labels.first().cloned().unwrap_or_default();
                    if unit.dependencies.iter().any(|d| d.name == name) {
                        continue;
                    }
                    let Some(a) = n.attr("config_path") else {
                        continue;
                    };
                    let written = text_of(&a.value).unwrap_or_default();
                    let dir = match &a.value {
                        Val::Str(s) => ctx.path(s),
                        _ => ctx.eval(&written).and_then(|p| ctx.path(&p)),
                    };
                    unit.dependencies.push(Dependency {
                        name,
                        config_path: written,
                        dir,
                        loc: loc(n.line),
                    });
                }
                "remote_state" if unit.backend.is_none() => {
                    let kind = n
                        .attr("backend")
                        .and_then(|a| a.value.as_str().map(str::to_string))
                        .unwrap_or_else(|| "remote_state".to_string());
                    let config = match n.attr("config").map(|a| &a.value) {
                        Some(Val::Map(items)) => items.clone(),
                        _ => Vec::new(),
                    };
                    unit.backend = Some(Backend {
                        kind,
                        config,
                        loc: loc(n.line),
                    });
                }
                "generate" => {
                    let contents = n.attr("contents").and_then(|a| text_of(&a.value));
                    let contents = contents.unwrap_or_default();
                    if contents.contains("provider \"") || contents.contains("provider \\\"") {
                        unit.generates_provider = true;
                    }
                    if unit.backend.is_none() {
                        if let Some(kind) = generated_backend(&contents) {
                            unit.backend = Some(Backend {
                                kind,
                                config: Vec::new(),
                                loc: loc(n.line),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
        // Top-level attributes are not blocks: `terraform_version_constraint = "..."`.
        if unit.version_constraint.is_none() {
            if let Some((t, line)) = top_attr(root, &file.rel, "terraform_version_constraint") {
                unit.version_constraint = Some((t, loc(line)));
            }
        }
    }
    Ok((unit, problems))
}

/// Whether `dir` is a Terragrunt unit with no Terraform files of its own: a command on it must go
/// through `terragrunt`, which fetches the unit's source and generates its backend.
pub fn is_unit_only(dir: &Path) -> bool {
    if !dir.join(UNIT_FILE).is_file() {
        return false;
    }
    let has_config = std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| crate::is_config_file(&e.file_name().to_string_lossy()))
    });
    !has_config
}

/// The arguments that make `terragrunt`, started in a unit's directory, run one Terraform or
/// OpenTofu command (`tf_args`, e.g. `["plan", "-refresh-only", "-detailed-exitcode"]`) with the
/// binary ward chose (`tf_path`): `run --non-interactive --tf-path TF_PATH -- TF_ARGS...`
/// (Terragrunt's `run` command and flags of its current CLI). Never prompts. ward's suite runs it
/// against a stand-in script (`ward_rig::terragrunt`), not a Terragrunt binary.
pub fn run_args(tf_path: &str, tf_args: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["run", "--non-interactive", "--tf-path", tf_path, "--"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    v.extend(tf_args.iter().map(|s| s.to_string()));
    v
}

/// `backend "TYPE"` in a generated file's contents.
fn generated_backend(contents: &str) -> Option<String> {
    let i = contents.find("backend ")?;
    let rest = contents[i + "backend ".len()..].trim_start();
    let rest = rest
        .strip_prefix("\\\"")
        .or_else(|| rest.strip_prefix('"'))?;
    let end = rest.find(['"', '\\'])?;
    let kind = &rest[..end];
    (!kind.is_empty()).then(|| kind.to_string())
}

/// A top-level literal attribute of an HCL file, with its line.
fn top_attr(root: &Path, rel: &str, key: &str) -> Option<(String, usize)> {
    let text = std::fs::read_to_string(root.join(rel)).ok()?;
    let body = tree::parse_body(&text).ok()?;
    let lines = tree::Lines::new(&text);
    let found = body.attributes().find_map(|a| {
        (a.key.as_str() == key).then(|| {
            let v = match &a.value {
                hcl_edit::expr::Expression::String(s) => s.value().clone(),
                other => other.to_string().trim().to_string(),
            };
            let line = hcl_edit::Span::span(a)
                .map(|r| lines.line(r.start))
                .unwrap_or(0);
            (v, line)
        })
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_sources() {
        assert_eq!(
            registry_source("tfr:///terraform-aws-modules/vpc/aws?version=3.5.0"),
            Some((
                "terraform-aws-modules/vpc/aws".to_string(),
                Some("3.5.0".to_string())
            ))
        );
        assert_eq!(
            registry_source("tfr://registry.example.com/acme/vpc/aws"),
            Some(("registry.example.com/acme/vpc/aws".to_string(), None))
        );
        assert_eq!(registry_source("git::x"), None);
    }

    #[test]
    fn generated_backends() {
        assert_eq!(
            generated_backend("terraform {\n  backend \"s3\" {}\n}").as_deref(),
            Some("s3")
        );
        assert_eq!(generated_backend("provider \"aws\" {}"), None);
    }

    #[test]
    fn terragrunt_command_construction() {
        assert_eq!(
            run_args("/opt/tofu", &["plan", "-detailed-exitcode", "-input=false"]),
            [
                "run",
                "--non-interactive",
                "--tf-path",
                "/opt/tofu",
                "--",
                "plan",
                "-detailed-exitcode",
                "-input=false"
            ]
        );
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join(UNIT_FILE), "terraform {}\n").unwrap();
        assert!(is_unit_only(d.path()));
        std::fs::write(d.path().join("main.tf"), "").unwrap();
        assert!(!is_unit_only(d.path()));
    }

    #[test]
    fn relative_paths_from_a_unit() {
        assert_eq!(relative_from("live/a", "/modules/x"), "../../modules/x");
        assert_eq!(relative_from(".", "/modules/x"), "./modules/x");
    }
}
