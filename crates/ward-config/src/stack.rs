//! `ward stack`'s configuration: the `stack { }` block, and in `root` blocks the roots a root
//! `reads`, its per-site instances (`site "NAME" { }`) and its `pre_destroy` commands (format in
//! `docs/config.md` and `docs/stack.md`).

use crate::error::ConfigError;
use crate::read::Schema;
use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::{Attribute, Block};
use hcl_edit::Span;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use ward_hcl::Reader;

/// How long one Terraform command of `ward stack` may take unless `stack { timeout }` says.
pub const DEFAULT_STACK_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// How long a `pre_destroy` command may take unless its `timeout` says.
pub const DEFAULT_PRE_DESTROY_TIMEOUT: Duration = crate::policy::DEFAULT_GUARD_TIMEOUT;

/// The `stack { }` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StackSettings {
    /// Where state backups go (`backup_dir`), resolved against the directory of `ward.hcl`;
    /// `ward stack` refuses one inside the repository. `None` when not set.
    pub backup_dir: Option<PathBuf>,
    /// The history database `ward stack` records its runs in (`history`), resolved like
    /// `backup_dir`; `None`: ward's default.
    pub history: Option<PathBuf>,
    /// The longest one Terraform command may take.
    pub timeout: Duration,
    /// Line of the block (0 when absent).
    pub line: usize,
}

impl Default for StackSettings {
    fn default() -> Self {
        StackSettings {
            backup_dir: None,
            history: None,
            timeout: DEFAULT_STACK_TIMEOUT,
            line: 0,
        }
    }
}

/// What a `root` block says for `ward stack`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RootStack {
    /// The roots whose outputs this root reads (`reads = ["network"]`), by name.
    pub reads: Vec<String>,
    /// Its per-site instances, in file order; empty: the root has one instance, site `default`.
    pub sites: Vec<Site>,
    /// Commands run before its destroy (`pre_destroy "NAME" { command = [...] }`), in order.
    pub pre_destroy: Vec<PreDestroy>,
}

/// The site name of a root without `site` blocks.
pub const DEFAULT_SITE: &str = "default";

/// A `site "NAME" { var_files = [...], backend_config = { ... } }` block in a root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Site {
    /// The label.
    pub name: String,
    /// `-var-file` arguments, relative to the root's directory.
    pub var_files: Vec<String>,
    /// `-backend-config=KEY=VALUE` arguments of `init`.
    pub backend_config: BTreeMap<String, String>,
    /// Line of the block.
    pub line: usize,
}

/// A `pre_destroy "NAME" { command = [...], timeout = "60s" }` block in a root: run under the
/// guard rules of `ward gate` before the root's destroy is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PreDestroy {
    /// The label (letters, digits, `_`, `-`): `WARD_BYPASS_GUARD_<NAME>` skips it.
    pub name: String,
    /// Program and arguments (no shell unless you call one).
    pub command: Vec<String>,
    /// Killed with its process group after this long.
    pub timeout: Duration,
    /// Line of the block.
    pub line: usize,
}

/// The `stack` block's and the stack blocks of `root`'s schemas (suggestions elsewhere).
pub(crate) const SCHEMAS: &[Schema] = &[
    Schema {
        place: "`root \"NAME\" { site \"NAME\" { } }`",
        keys: SITE_KEYS,
        blocks: &[],
    },
    Schema {
        place: "`root \"NAME\" { pre_destroy \"NAME\" { } }`",
        keys: PRE_DESTROY_KEYS,
        blocks: &[],
    },
    Schema {
        place: "`stack { }`",
        keys: STACK_KEYS,
        blocks: &[],
    },
];
pub(crate) const STACK_KEYS: &[&str] = &["backup_dir", "history", "timeout"];
pub(crate) const SITE_KEYS: &[&str] = &["var_files", "backend_config"];
pub(crate) const PRE_DESTROY_KEYS: &[&str] = &["command", "timeout"];
/// The blocks a `root` block takes.
pub(crate) const ROOT_BLOCKS: &[&str] = &["site", "pre_destroy"];

/// A path outside or inside the repository, resolved against the directory of `ward.hcl`.
fn path(src: &Reader<'_>, a: &Attribute, dir: &Path) -> Result<PathBuf, ConfigError> {
    let raw = src.nonempty(a)?;
    Ok(dir.join(raw))
}

fn duration(src: &Reader<'_>, a: &Attribute, place: &str) -> Result<Duration, ConfigError> {
    let t = src.string(a)?;
    let d = ward_time::parse_duration(&t).map_err(|m| {
        src.err(a.value.span(), format!("{place}: timeout: {m}"))
            .help("e.g. `timeout = \"30s\"`")
    })?;
    if d.is_zero() {
        return Err(src
            .err(
                a.value.span(),
                format!("{place}: timeout must be longer than 0s"),
            )
            .help("write e.g. `timeout = \"30s\"`")
            .into());
    }
    Ok(d)
}

pub(crate) fn stack(
    src: &Reader<'_>,
    b: &Block,
    dir: &Path,
    s: &mut StackSettings,
) -> Result<(), ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`stack`", STACK_KEYS, &[])?;
    s.line = src.line_of(b.ident.span());
    if let Some(a) = f.get("backup_dir") {
        s.backup_dir = Some(path(src, a, dir)?);
    }
    if let Some(a) = f.get("history") {
        s.history = Some(path(src, a, dir)?);
    }
    if let Some(a) = f.get("timeout") {
        s.timeout = duration(src, a, "`stack`")?;
    }
    Ok(())
}

/// The `reads` key and the `site` and `pre_destroy` blocks of a `root` block.
pub(crate) fn root_stack(
    src: &Reader<'_>,
    place: &str,
    reads: Option<&Attribute>,
    blocks: &[&Block],
) -> Result<RootStack, ConfigError> {
    let mut r = RootStack {
        reads: reads
            .map(|a| src.string_list(a))
            .transpose()?
            .unwrap_or_default(),
        ..RootStack::default()
    };
    for nb in blocks {
        let line = src.line_of(nb.ident.span());
        let label_span = nb.labels.first().and_then(|l| l.span());
        match nb.ident.as_str() {
            "site" => {
                let name = src.one_label(
                    nb,
                    "its name",
                    "site \"dc0\" { var_files = [\"dc0.tfvars\"] }",
                )?;
                if let Some(prev) = r.sites.iter().find(|s| s.name == name) {
                    return Err(src
                        .err(
                            label_span,
                            format!(
                                "{place}: site \"{name}\" is declared twice (first at line {})",
                                prev.line
                            ),
                        )
                        .help("give each site its own name")
                        .into());
                }
                let sp = format!("{place} `site \"{name}\"`");
                let f = src.fields(&nb.body, &sp, SITE_KEYS, &[])?;
                r.sites.push(Site {
                    var_files: f
                        .get("var_files")
                        .map(|a| src.string_list(a))
                        .transpose()?
                        .unwrap_or_default(),
                    backend_config: f
                        .get("backend_config")
                        .map(|a| string_map(src, a, &sp))
                        .transpose()?
                        .unwrap_or_default(),
                    name,
                    line,
                });
            }
            _ => {
                let name = src.one_label(
                    nb,
                    "its name",
                    "pre_destroy \"drain\" { command = [\"./drain.sh\"] }",
                )?;
                if name.is_empty()
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
                {
                    return Err(src.err(
                        label_span, format!("{place}: pre_destroy name `{name}` has characters other than letters, digits, `_` and `-`")).help("rename it: the name becomes part of an environment variable").into());
                }
                let pp = format!("{place} `pre_destroy \"{name}\"`");
                let f = src.fields(&nb.body, &pp, PRE_DESTROY_KEYS, &[])?;
                let command = f
                    .get("command")
                    .map(|a| src.string_list(a))
                    .transpose()?
                    .unwrap_or_default();
                if command.first().is_none_or(String::is_empty) {
                    return Err(src.err(
                        nb.ident.span(), format!("{pp}: `command` is required")).help("give a list, program first, e.g. `command = [\"sh\", \"-c\", \"...\"]`").into());
                }
                r.pre_destroy.push(PreDestroy {
                    name,
                    command,
                    timeout: f
                        .get("timeout")
                        .map(|a| duration(src, a, &pp))
                        .transpose()?
                        .unwrap_or(DEFAULT_PRE_DESTROY_TIMEOUT),
                    line,
                });
            }
        }
    }
    Ok(r)
}

/// `{ key = "value", "other" = "value" }`: literal string values.
fn string_map(
    src: &Reader<'_>,
    a: &Attribute,
    place: &str,
) -> Result<BTreeMap<String, String>, ConfigError> {
    let key = a.key.as_str();
    let Expression::Object(o) = &a.value else {
        return Err(src
            .err(
                a.value.span(),
                format!("{place}: `{key}` must be an object of strings"),
            )
            .help(format!(
                "write e.g. `{key} = {{ path = \"/srv/state/dc0.tfstate\" }}`"
            ))
            .into());
    };
    let mut out = BTreeMap::new();
    for (k, v) in o.iter() {
        let name = match k {
            ObjectKey::Ident(i) => Some(i.as_str().to_string()),
            ObjectKey::Expression(Expression::String(s)) => Some(s.as_str().to_string()),
            ObjectKey::Expression(_) => None,
        };
        let value = match v.expr() {
            Expression::String(s) => Some(s.as_str().to_string()),
            _ => None,
        };
        match (name, value) {
            (Some(n), _) if hcl_edit::Ident::try_new(n.as_str()).is_err() => {
                return Err(src
                    .err(
                        k.span().or_else(|| v.expr().span()),
                        format!(
                            "{place}: `{key}` key {n:?} is not a backend setting's name (letters, digits, `_` and `-`, not starting with a digit)"
                        ),
                    )
                    .help("use the setting's name as the backend documents it, e.g. `path` or `bucket`")
                    .into())
            }
            (Some(n), Some(v)) => {
                out.insert(n, v);
            }
            _ => {
                return Err(src
                    .err(
                        v.expr().span(),
                        format!(
                            "{place}: every entry of `{key}` must be `name = \"literal string\"`"
                        ),
                    )
                    .help("write plain quoted strings, without `${...}`")
                    .into())
            }
        }
    }
    Ok(out)
}

impl Site {
    /// The instance of a root without `site` blocks.
    pub fn default_site() -> Site {
        Site {
            name: DEFAULT_SITE.to_string(),
            var_files: Vec::new(),
            backend_config: BTreeMap::new(),
            line: 0,
        }
    }
}

impl RootStack {
    /// The sites this root is instantiated for: its `site` blocks, or the one default site.
    pub fn instances(&self) -> Vec<Site> {
        if self.sites.is_empty() {
            vec![Site::default_site()]
        } else {
            self.sites.clone()
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::Config;
    use std::path::Path;

    const LAYERS: &str = "layer \"substrate\" {\n  level = 0\n}\nlayer \"nodes\" {\n  level = 1\n}\nlayer \"resources\" {\n  level = 2\n}\n";

    fn parse(text: &str) -> Result<Config, String> {
        Config::parse(&format!("{LAYERS}{text}"), "ward.hcl", Path::new("/repo"))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn reads_the_stack_declaration() {
        let c = parse(
            r#"stack {
  backup_dir = "../backups"
  timeout = "10m"
}
root "network" {
  path = "net"
  layer = "substrate"
  site "dc0" {
    var_files = ["dc0.tfvars"]
    backend_config = { path = "/state/dc0.tfstate", "workspace_dir" = "x" }
  }
  site "dc1" {}
}
root "instances" {
  path = "inst"
  layer = "nodes"
  reads = ["network"]
  pre_destroy "drain" {
    command = ["sh", "-c", "true"]
    timeout = "5s"
  }
}
"#,
        )
        .unwrap();
        assert_eq!(
            c.stack.backup_dir.as_deref(),
            Some(Path::new("/repo/../backups"))
        );
        assert_eq!(c.stack.timeout.as_secs(), 600);
        let net = &c.roots[0].stack;
        assert_eq!(net.sites.len(), 2);
        assert_eq!(net.sites[0].var_files, vec!["dc0.tfvars".to_string()]);
        assert_eq!(net.sites[0].backend_config["path"], "/state/dc0.tfstate");
        assert_eq!(net.sites[0].backend_config["workspace_dir"], "x");
        let inst = &c.roots[1].stack;
        assert_eq!(inst.reads, vec!["network".to_string()]);
        assert_eq!(inst.pre_destroy[0].timeout.as_secs(), 5);
        assert_eq!(inst.instances()[0].name, super::DEFAULT_SITE);
    }

    #[test]
    fn refusals() {
        let base = "root \"network\" {\n  path = \"net\"\n  layer = \"substrate\"\n}\nroot \"top\" {\n  path = \"top\"\n  layer = \"resources\"\n}\n";
        // Upward.
        let e = parse(&format!(
            "{base}root \"inst\" {{\n  path = \"inst\"\n  layer = \"nodes\"\n  reads = [\"top\"]\n}}\n"
        ))
        .unwrap_err();
        assert!(e.contains("never its own or a higher one"), "{e}");
        // Skipping a layer.
        let e = parse(&format!(
            "{base}root \"inst\" {{\n  path = \"inst\"\n  layer = \"nodes\"\n}}\nroot \"x\" {{\n  path = \"x\"\n  layer = \"resources\"\n  reads = [\"network\"]\n}}\n"
        ))
        .unwrap_err();
        assert!(e.contains("skipping the layers between"), "{e}");
        // Unknown root, with a suggestion.
        let e = parse(&format!(
            "{base}root \"inst\" {{\n  path = \"inst\"\n  layer = \"nodes\"\n  reads = [\"netwrk\"]\n}}\n"
        ))
        .unwrap_err();
        assert!(
            e.contains("no `root` block declares") && e.contains("did you mean \"network\""),
            "{e}"
        );
        // Unknown keys, with did-you-mean.
        let e = parse("root \"n\" {\n  path = \"n\"\n  site \"a\" {\n    var_file = []\n  }\n}\n")
            .unwrap_err();
        assert!(
            e.contains("unknown key `var_file`") && e.contains("var_files"),
            "{e}"
        );
        let e = parse("stack {\n  backup_dri = \"/b\"\n}\n").unwrap_err();
        assert!(e.contains("backup_dir"), "{e}");
        let e = parse("root \"n\" {\n  path = \"n\"\n  pre_destroi \"a\" {}\n}\n").unwrap_err();
        assert!(e.contains("pre_destroy"), "{e}");
        // A second stack block, a site twice, a pre_destroy without command.
        let e = parse("stack {}\nstack {}\n").unwrap_err();
        assert!(e.contains("a second `stack` block"), "{e}");
        let e = parse("root \"n\" {\n  path = \"n\"\n  site \"a\" {}\n  site \"a\" {}\n}\n")
            .unwrap_err();
        assert!(e.contains("declared twice"), "{e}");
        let e = parse("root \"n\" {\n  path = \"n\"\n  pre_destroy \"a\" {}\n}\n").unwrap_err();
        assert!(e.contains("`command` is required"), "{e}");
        let e = parse(
            "root \"n\" {\n  path = \"n\"\n  site \"a\" {\n    backend_config = [\"x\"]\n  }\n}\n",
        )
        .unwrap_err();
        assert!(e.contains("must be an object of strings"), "{e}");
    }

    /// A backend setting's name is written as an HCL identifier into `backend.hcl`: a quoted
    /// key that is not one (a space, a newline, `=`) is refused at its place, not rewritten.
    #[test]
    fn a_backend_config_key_must_be_a_name() {
        for bad in ["a b", "x\\ny", "p = 1", "1st", ""] {
            let text = format!(
                "root \"n\" {{\n  path = \"n\"\n  site \"a\" {{\n    backend_config = {{ \"{bad}\" = \"v\" }}\n  }}\n}}\n"
            );
            let e = parse(&text).unwrap_err();
            assert!(
                e.contains("is not a backend setting's name"),
                "{bad:?}: {e}"
            );
            // LAYERS is 9 lines: the key is on line 13.
            assert!(e.contains(":13:"), "{bad:?}: the key's line: {e}");
        }
        let ok = "root \"n\" {\n  path = \"n\"\n  site \"a\" {\n    backend_config = { \"workspace-dir\" = \"v\", _x1 = \"w\" }\n  }\n}\n";
        let c = parse(ok).unwrap();
        let site = &c.roots[0].stack.sites[0];
        assert_eq!(site.backend_config["workspace-dir"], "v");
        assert_eq!(site.backend_config["_x1"], "w");
    }
}
