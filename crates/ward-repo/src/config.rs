//! The `root`, `layer` and `check` blocks of `ward.hcl` (syntax in `docs/config.md`).
//!
//! Other top-level blocks (`resource`, `policy`, `guard`, `drift`) belong to other ward commands
//! and are skipped here; they validate their own blocks.

use crate::tree::{parse_hcl, Attr, Node, Val};
use serde::Serialize;
use std::path::Path;

/// A root declared in `ward.hcl`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeclaredRoot {
    /// The block's label: the root's name.
    pub name: String,
    /// Directory relative to the repository root, `/`-separated, no trailing `/`.
    pub path: String,
    /// The layer it belongs to, when layers are used.
    pub layer: Option<String>,
    /// Line of the block in `ward.hcl`.
    pub line: usize,
}

/// A layer declared in `ward.hcl`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layer {
    /// The block's label.
    pub name: String,
    /// Position in the stack: 0 is the bottom. A root may read the state of roots in lower
    /// layers only.
    pub level: i64,
    /// Line of the block.
    pub line: usize,
}

/// A release that Terraform refs and Ansible versions must agree on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Release {
    /// The block's label.
    pub name: String,
    /// Globs on module packages (`github.com/acme/platform-modules`,
    /// `acme/platform/aws`): their refs/versions name the release.
    pub module_sources: Vec<String>,
    /// Ansible collection names (`acme.platform`) in `requirements.yml` and `galaxy.yml`.
    pub collections: Vec<String>,
    /// Inventory variable names (`platform_version`) that name the release.
    pub variables: Vec<String>,
    /// Line of the block.
    pub line: usize,
}

/// Tuning of one rule.
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
}

/// The `check` block.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CheckSettings {
    /// `terraform_floor`: the oldest Terraform/OpenTofu version the team runs; every root's
    /// `required_version` must admit it.
    pub terraform_floor: Option<String>,
    /// `fail_on`: the lowest severity that fails the run (default `error`).
    pub fail_on: Option<String>,
    /// `protected`: resource address globs that ward protects (as if `prevent_destroy`).
    pub protected: Vec<String>,
    /// `rule` blocks.
    pub rules: Vec<RuleSetting>,
    /// `release` blocks.
    pub releases: Vec<Release>,
}

/// What ward check reads from `ward.hcl`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct WardConfig {
    /// The file, as given or found (repository-relative when inside it).
    pub file: String,
    /// `root` blocks, in file order.
    pub roots: Vec<DeclaredRoot>,
    /// `layer` blocks, in file order.
    pub layers: Vec<Layer>,
    /// The `check` block (defaults when absent).
    pub check: CheckSettings,
}

/// `ward.hcl` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {message}")]
pub struct ConfigError {
    /// The file.
    pub file: String,
    /// 1-based line (0 when the file could not be read at all).
    pub line: usize,
    /// What was wrong and what to do.
    pub message: String,
}

impl WardConfig {
    /// Reads the blocks ward check needs from a `ward.hcl` file. `display` is how the file is
    /// named in messages.
    pub fn load(path: &Path, display: &str) -> Result<WardConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: display.to_string(),
            line: 0,
            message: format!("cannot read the configuration: {e}"),
        })?;
        WardConfig::parse(&text, display)
    }

    /// Parses the text of a `ward.hcl` file.
    pub fn parse(text: &str, display: &str) -> Result<WardConfig, ConfigError> {
        let err = |line: usize, message: String| ConfigError {
            file: display.to_string(),
            line,
            message,
        };
        let nodes = parse_hcl(text).map_err(|f| {
            err(
                f.line,
                format!("not valid HCL: {} (column {})", f.message, f.column),
            )
        })?;
        let mut cfg = WardConfig {
            file: display.to_string(),
            ..WardConfig::default()
        };
        let mut seen_check = false;
        for n in &nodes {
            match n.ident.as_str() {
                "root" => {
                    let name = one_label(n).map_err(|m| err(n.line, m))?;
                    let path = req_str(n, "path").map_err(|(l, m)| err(l, m))?;
                    let path = normalize_dir(&path);
                    let layer = opt_str(n, "layer").map_err(|(l, m)| err(l, m))?;
                    cfg.roots.push(DeclaredRoot {
                        name,
                        path,
                        layer,
                        line: n.line,
                    });
                }
                "layer" => {
                    let name = one_label(n).map_err(|m| err(n.line, m))?;
                    let level = match n.attr("level") {
                        Some(Attr {
                            value: Val::Number(s),
                            line,
                            ..
                        }) => s.parse::<i64>().map_err(|_| {
                            err(*line, format!("layer \"{name}\": level must be a whole number, e.g. `level = 1`"))
                        })?,
                        Some(a) => {
                            return Err(err(
                                a.line,
                                format!("layer \"{name}\": level must be a whole number, e.g. `level = 1`"),
                            ))
                        }
                        None => {
                            return Err(err(
                                n.line,
                                format!("layer \"{name}\" needs `level = N` (0 is the bottom layer)"),
                            ))
                        }
                    };
                    cfg.layers.push(Layer {
                        name,
                        level,
                        line: n.line,
                    });
                }
                "check" => {
                    if seen_check {
                        return Err(err(n.line, "only one `check` block is allowed".to_string()));
                    }
                    seen_check = true;
                    cfg.check = parse_check(n).map_err(|(l, m)| err(l, m))?;
                }
                _ => {}
            }
        }
        for r in &cfg.roots {
            if let Some(l) = &r.layer {
                if !cfg.layers.iter().any(|x| &x.name == l) {
                    return Err(err(
                        r.line,
                        format!(
                            "root \"{}\" names layer \"{l}\", which no `layer` block declares",
                            r.name
                        ),
                    ));
                }
            }
        }
        Ok(cfg)
    }

    /// The layer of the declared root at `dir`, with its level.
    pub fn layer_of(&self, dir: &str) -> Option<&Layer> {
        let root = self.roots.iter().find(|r| r.path == dir)?;
        let name = root.layer.as_ref()?;
        self.layers.iter().find(|l| &l.name == name)
    }
}

type AttrErr = (usize, String);

fn parse_check(n: &Node) -> Result<CheckSettings, AttrErr> {
    let mut c = CheckSettings {
        terraform_floor: opt_str(n, "terraform_floor")?,
        fail_on: opt_str(n, "fail_on")?,
        protected: str_list(n, "protected")?,
        ..CheckSettings::default()
    };
    if let Some(f) = &c.fail_on {
        if !["error", "warning", "info"].contains(&f.as_str()) {
            let line = n.attr("fail_on").map(|a| a.line).unwrap_or(n.line);
            return Err((
                line,
                format!("fail_on = \"{f}\": use \"error\", \"warning\" or \"info\""),
            ));
        }
    }
    for b in &n.blocks {
        match b.ident.as_str() {
            "rule" => {
                let id = one_label(b).map_err(|m| (b.line, m))?;
                let severity = opt_str(b, "severity")?;
                if let Some(s) = &severity {
                    if !["error", "warning", "info"].contains(&s.as_str()) {
                        return Err((
                            b.line,
                            format!(
                                "rule \"{id}\": severity \"{s}\": use \"error\", \"warning\" or \"info\""
                            ),
                        ));
                    }
                }
                let enabled = match b.attr("enabled") {
                    None => true,
                    Some(a) => a.value.as_bool().ok_or((
                        a.line,
                        format!("rule \"{id}\": enabled must be true or false"),
                    ))?,
                };
                c.rules.push(RuleSetting {
                    id,
                    severity,
                    enabled,
                    line: b.line,
                });
            }
            "release" => {
                let name = one_label(b).map_err(|m| (b.line, m))?;
                c.releases.push(Release {
                    name,
                    module_sources: str_list(b, "module_sources")?,
                    collections: str_list(b, "collections")?,
                    variables: str_list(b, "variables")?,
                    line: b.line,
                });
            }
            other => {
                return Err((
                    b.line,
                    format!("unknown block `{other}` in `check` (expected `rule` or `release`)"),
                ))
            }
        }
    }
    Ok(c)
}

fn one_label(n: &Node) -> Result<String, String> {
    match n.labels.as_slice() {
        [l] => Ok(l.clone()),
        _ => Err(format!(
            "`{}` blocks take exactly one label, e.g. `{} \"name\" {{ ... }}`",
            n.ident, n.ident
        )),
    }
}

fn req_str(n: &Node, key: &str) -> Result<String, AttrErr> {
    opt_str(n, key)?.ok_or((
        n.line,
        format!(
            "`{} \"{}\"` needs `{key} = \"...\"`",
            n.ident,
            n.labels.first().map(String::as_str).unwrap_or("")
        ),
    ))
}

fn opt_str(n: &Node, key: &str) -> Result<Option<String>, AttrErr> {
    match n.attr(key) {
        None => Ok(None),
        Some(a) => match &a.value {
            Val::Str(s) => Ok(Some(s.clone())),
            _ => Err((a.line, format!("`{key}` must be a literal string"))),
        },
    }
}

fn str_list(n: &Node, key: &str) -> Result<Vec<String>, AttrErr> {
    match n.attr(key) {
        None => Ok(Vec::new()),
        Some(a) => match &a.value {
            Val::List(items) => items
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .ok_or((a.line, format!("`{key}` must be a list of literal strings")))
                })
                .collect(),
            _ => Err((
                a.line,
                format!("`{key}` must be a list of strings, e.g. [\"a\", \"b\"]"),
            )),
        },
    }
}

/// `./live/net/` → `live/net`; `.` and `` → `.`.
pub fn normalize_dir(p: &str) -> String {
    let parts: Vec<&str> = p
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_blocks() {
        let c = WardConfig::parse(
            r#"
resource "x" { holds_data = true }
layer "base" { level = 0 }
layer "apps" { level = 1 }
root "net" {
  path  = "./live/net/"
  layer = "base"
}
check {
  terraform_floor = "1.6.0"
  fail_on = "warning"
  protected = ["aws_db_instance.*"]
  rule "WARD-MOD-004" { severity = "info" }
  release "platform" {
    module_sources = ["github.com/acme/*"]
    collections = ["acme.platform"]
    variables = ["platform_version"]
  }
}
"#,
            "ward.hcl",
        )
        .unwrap();
        assert_eq!(c.roots[0].path, "live/net");
        assert_eq!(c.layer_of("live/net").unwrap().level, 0);
        assert_eq!(c.check.terraform_floor.as_deref(), Some("1.6.0"));
        assert_eq!(c.check.rules[0].severity.as_deref(), Some("info"));
        assert_eq!(c.check.releases[0].variables, vec!["platform_version"]);
    }

    #[test]
    fn errors_name_the_line() {
        let e = WardConfig::parse("root \"a\" {\n  layer = \"x\"\n}\n", "ward.hcl").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("path"), "{e}");
        let e = WardConfig::parse("check {\n fail_on = \"bad\"\n}\n", "ward.hcl").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
