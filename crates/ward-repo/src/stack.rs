//! Terragrunt stacks: the one reader of `terragrunt.stack.hcl`.
//!
//! A stack file (Terragrunt's explicit stacks, `terragrunt stack generate`) declares
//! `unit "NAME" { source, path, values }` and `stack "NAME" { source, path, values }` blocks.
//! Terragrunt copies each unit's `source` directory (a catalog unit holding a `terragrunt.hcl`)
//! to `.terragrunt-stack/PATH` beside the stack file (to `PATH` itself with
//! `no_dot_terragrunt_stack = true`), writes the block's `values` beside it, and does the same for
//! each nested `stack` (whose source holds a `terragrunt.stack.hcl`). The generated directories
//! are not committed; ward reads the stack file instead ([`read_stack`]) and gives discovery one
//! [`Generated`] unit per `unit` block, at the directory Terragrunt would generate:
//!
//! - its `source` is a module source like any other (`git::…?ref=`, a registry address, a local
//!   path), checked for pins;
//! - a local source inside the repository is read as the unit (`terragrunt::read_unit_at`), in
//!   the generated directory, with the block's literal `values` (`values.NAME` in the catalog
//!   unit's `terraform { source }` is evaluated);
//! - a nested `stack` with a local source is read the same way, below its own path (at most
//!   [`MAX_DEPTH`] levels); a remote one is a source to check, its units unread.
//!
//! Values are literal strings, numbers and booleans, and `local.NAME` of the stack file's literal
//! locals; anything else is left unknown.

use crate::tree::Val;
use crate::{join_rel, FileProblem, Loc, ModuleCall, ModuleSource};
use std::collections::BTreeMap;
use std::path::Path;

/// The file name of a stack.
pub const STACK_FILE: &str = "terragrunt.stack.hcl";

/// How deep nested local stacks are followed.
pub const MAX_DEPTH: usize = 8;

/// The directory Terragrunt generates a stack's units under.
pub const GENERATED_DIR: &str = ".terragrunt-stack";

/// A `unit` or `stack` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// `unit "NAME"`: one generated unit.
    Unit,
    /// `stack "NAME"`: a nested stack.
    Stack,
}

impl Entry {
    /// `unit` or `stack`.
    pub fn as_str(self) -> &'static str {
        match self {
            Entry::Unit => "unit",
            Entry::Stack => "stack",
        }
    }
}

/// One block a stack generates from.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    /// Unit or nested stack.
    pub entry: Entry,
    /// The block's label.
    pub name: String,
    /// Where Terragrunt generates it, repository-relative.
    pub dir: String,
    /// The block's `source` as a module call named `unit.NAME` / `stack.NAME` (its
    /// location is the `source` argument's); `None` when it is not a literal.
    pub source: Option<ModuleCall>,
    /// The local source directory inside the repository, when the source is local.
    pub local: Option<String>,
    /// The block's literal values (`values.NAME`).
    pub values: BTreeMap<String, String>,
    /// The stack file that declares it.
    pub stack_file: String,
    /// Where the block is.
    pub loc: Loc,
}

/// Reads the stack file at `rel` (repository-relative) and the local stacks it nests: every
/// `unit` and `stack` block, at the directory Terragrunt would generate it. Errors are the stack
/// file's own parse failure; a nested stack file that cannot be read is reported in the second
/// value and skipped.
pub fn read_stack(
    root: &Path,
    rel: &str,
) -> Result<(Vec<Generated>, Vec<FileProblem>), FileProblem> {
    let dir = rel.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let mut out = Vec::new();
    let mut problems = Vec::new();
    read_into(
        root,
        rel,
        &dir,
        &dir,
        &BTreeMap::new(),
        0,
        &mut out,
        &mut problems,
    )?;
    Ok((out, problems))
}

/// A literal value as text: strings, numbers, booleans; `local.NAME` and `values.NAME` of the
/// literal ones.
fn literal(
    v: &Val,
    locals: &BTreeMap<String, String>,
    values: &BTreeMap<String, String>,
) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::Number(n) => Some(n.clone()),
        Val::Bool(b) => Some(b.to_string()),
        Val::Expr { text, .. } => {
            let t = text.trim();
            t.strip_prefix("local.")
                .and_then(|n| locals.get(n))
                .or_else(|| t.strip_prefix("values.").and_then(|n| values.get(n)))
                .cloned()
        }
        _ => None,
    }
}

/// Reads one stack file: `file` is where it is, `from` the directory its relative sources are
/// taken from (its own), `gen` the directory it generates into (its own, or the path a parent
/// stack gave it), `values` what a parent stack passed.
#[allow(clippy::too_many_arguments)]
fn read_into(
    root: &Path,
    file: &str,
    from: &str,
    gen: &str,
    values: &BTreeMap<String, String>,
    depth: usize,
    out: &mut Vec<Generated>,
    problems: &mut Vec<FileProblem>,
) -> Result<(), FileProblem> {
    let nodes = crate::terragrunt::read_nodes(root, file)?;
    let mut locals = BTreeMap::new();
    for l in nodes.iter().filter(|n| n.ident == "locals") {
        for a in &l.attrs {
            if let Some(s) = literal(&a.value, &BTreeMap::new(), values) {
                locals.insert(a.key.clone(), s);
            }
        }
    }
    for n in &nodes {
        let entry = match n.ident.as_str() {
            "unit" => Entry::Unit,
            "stack" => Entry::Stack,
            _ => continue,
        };
        let name = n.labels.first().cloned().unwrap_or_default();
        let loc = Loc {
            file: file.to_string(),
            line: n.line,
        };
        let path = n
            .attr("path")
            .and_then(|a| literal(&a.value, &locals, values))
            .unwrap_or_else(|| name.clone());
        let no_dot = n
            .attr("no_dot_terragrunt_stack")
            .is_some_and(|a| matches!(a.value, Val::Bool(true)));
        let base = if no_dot {
            gen.to_string()
        } else {
            join_rel(gen, GENERATED_DIR).unwrap_or_else(|| gen.to_string())
        };
        let Some(dir) = join_rel(&base, &path) else {
            continue;
        };
        let own_values: BTreeMap<String, String> = match n.attr("values").map(|a| &a.value) {
            Some(Val::Map(items)) => items
                .iter()
                .filter_map(|(k, v)| literal(v, &locals, values).map(|s| (k.clone(), s)))
                .collect(),
            _ => BTreeMap::new(),
        };
        let src = n.attr("source");
        let raw = src.and_then(|a| literal(&a.value, &locals, values));
        let local = raw.as_deref().and_then(|r| local_dir(from, r));
        // A local source is written from the stack file's directory; as a call it is made
        // from the generated one.
        let shown = match &local {
            Some(l) => crate::terragrunt::relative_from(&dir, &format!("/{l}")),
            None => raw.clone().unwrap_or_default(),
        };
        let source = raw.as_ref().map(|_| ModuleCall {
            name: format!("{}.{name}", entry.as_str()),
            source: Some(ModuleSource::parse(&shown)),
            version: None,
            loc: Loc {
                file: file.to_string(),
                line: src.map_or(n.line, |a| a.line),
            },
        });
        if entry == Entry::Stack && depth < MAX_DEPTH {
            if let Some(l) = &local {
                let nested = if l == "." {
                    STACK_FILE.to_string()
                } else {
                    format!("{l}/{STACK_FILE}")
                };
                if root.join(&nested).is_file() {
                    if let Err(mut p) = read_into(
                        root,
                        &nested,
                        l,
                        &dir,
                        &own_values,
                        depth + 1,
                        out,
                        problems,
                    ) {
                        p.message = format!(
                            "nested by {file}:{} (stack \"{name}\"): {}",
                            n.line, p.message
                        );
                        problems.push(p);
                    }
                }
            }
        }
        out.push(Generated {
            entry,
            name,
            dir,
            source,
            local,
            values: own_values,
            stack_file: file.to_string(),
            loc,
        });
    }
    Ok(())
}

/// A local source (`./units/x`, `../units/x`, `units/x`) as a repository-relative directory;
/// `None` for a remote one (`git::`, `github.com/…`, a registry address, a URL) or one leaving
/// the repository.
fn local_dir(from: &str, raw: &str) -> Option<String> {
    let remote = raw.contains("::")
        || raw.contains("://")
        || raw.starts_with("github.com/")
        || raw.starts_with("bitbucket.org/")
        || raw.starts_with("git@")
        || raw.starts_with('/');
    if remote {
        return None;
    }
    // `units/x` is local in a stack file (Terragrunt takes it from the stack's directory), so
    // only the shapes above are remote.
    join_rel(from, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes `text` at `rel` below `root`, making its directories.
    fn write(root: &Path, rel: &str, text: &[u8]) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn local_and_remote_sources() {
        assert_eq!(
            local_dir("live", "units/vpc").as_deref(),
            Some("live/units/vpc")
        );
        assert_eq!(
            local_dir("live/dev", "../../units/vpc").as_deref(),
            Some("units/vpc")
        );
        assert_eq!(
            local_dir("live", "git::https://x.invalid/c.git//units/vpc?ref=v1"),
            None
        );
        assert_eq!(
            local_dir("live", "github.com/acme/catalog//units/vpc"),
            None
        );
        assert_eq!(local_dir("live", "../../.."), None);
    }

    #[test]
    fn units_nested_stacks_and_values() {
        let d = tempfile::tempdir().unwrap();
        let w = |p: &str, t: &str| write(d.path(), p, t.as_bytes());
        w(
            "live/terragrunt.stack.hcl",
            "locals {\n  v = \"v1.2.0\"\n}\nunit \"vpc\" {\n  source = \"../catalog/units/vpc\"\n  path   = \"vpc\"\n  values = {\n    ref  = local.v\n    cidr = \"10.0.0.0/16\"\n  }\n}\nstack \"svc\" {\n  source = \"../catalog/stacks/svc\"\n  path   = \"svc\"\n  values = {\n    ref = \"main\"\n  }\n}\nunit \"db\" {\n  source = \"git::https://example.invalid/c.git//units/db?ref=main\"\n  path   = \"db\"\n  no_dot_terragrunt_stack = true\n}\n",
        );
        w(
            "catalog/stacks/svc/terragrunt.stack.hcl",
            "unit \"app\" {\n  source = \"../../units/app\"\n  path   = \"app\"\n  values = {\n    ref = values.ref\n  }\n}\n",
        );
        let (g, p) = read_stack(d.path(), "live/terragrunt.stack.hcl").unwrap();
        assert!(p.is_empty(), "{p:?}");
        let got: Vec<(&str, &str, Option<&str>)> = g
            .iter()
            .map(|g| (g.name.as_str(), g.dir.as_str(), g.local.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "vpc",
                    "live/.terragrunt-stack/vpc",
                    Some("catalog/units/vpc")
                ),
                (
                    "app",
                    "live/.terragrunt-stack/svc/.terragrunt-stack/app",
                    Some("catalog/units/app")
                ),
                (
                    "svc",
                    "live/.terragrunt-stack/svc",
                    Some("catalog/stacks/svc")
                ),
                ("db", "live/db", None),
            ]
        );
        assert_eq!(g[0].values.get("ref").map(String::as_str), Some("v1.2.0"));
        assert_eq!(g[1].values.get("ref").map(String::as_str), Some("main"));
        assert_eq!(g[3].source.as_ref().map(|c| c.loc.line), Some(20));
        assert!(read_stack(d.path(), "missing/terragrunt.stack.hcl").is_err());
    }

    #[test]
    fn a_stack_file_that_cannot_be_read_is_a_problem_where_it_fails() {
        let d = tempfile::tempdir().unwrap();
        let w = |p: &str, t: &str| write(d.path(), p, t.as_bytes());
        w(
            "live/terragrunt.stack.hcl",
            "unit \"a\" {\n  source = \"../u\"\n  path   = \"a\" = 1\n}\n",
        );
        let e = read_stack(d.path(), "live/terragrunt.stack.hcl").unwrap_err();
        assert_eq!(
            (e.loc.file.as_str(), e.loc.line, e.column),
            ("live/terragrunt.stack.hcl", 3, 16),
            "{e:?}"
        );
        // A nested stack that does not parse, or cannot be read (not UTF-8), is reported at its
        // file and skipped.
        write(d.path(), "latin1/terragrunt.stack.hcl", b"# caf\xe9\n");
        w(
            "top/terragrunt.stack.hcl",
            "stack \"bad\" {\n  source = \"../live\"\n  path   = \"bad\"\n}\nstack \"latin\" {\n  source = \"../latin1\"\n  path   = \"latin\"\n}\n",
        );
        let (_, p) = read_stack(d.path(), "top/terragrunt.stack.hcl").unwrap();
        let got: Vec<(&str, usize, bool)> = p
            .iter()
            .map(|p| {
                let unreadable = p.message.contains(": cannot read: ");
                (p.loc.file.as_str(), p.loc.line, unreadable)
            })
            .collect();
        assert_eq!(
            got,
            [
                ("live/terragrunt.stack.hcl", 3, false),
                ("latin1/terragrunt.stack.hcl", 0, true)
            ]
        );
    }
}
