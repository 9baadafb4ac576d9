//! Helpers several rules share: where a directory-level finding points, counting what a rule
//! did not raise, module call names, remote state targets.

use crate::finding::Finding;
use crate::rules::{RuleId, Skipped};
use std::collections::{BTreeMap, BTreeSet};
use ward_repo::{join_rel, Loc, Module, ModuleSource, Repo, SourceKind, Val};

/// Counts one finding `rule` did not raise, and why.
pub fn skip(skipped: &mut Skipped, rule: RuleId, why: impl Into<String>) {
    *skipped.entry((rule, why.into())).or_default() += 1;
}

/// Whether the directory's only configuration is a Terragrunt unit (no `.tf` files of its own:
/// the module it applies, and its `required_version`, live in the unit's source).
pub fn terragrunt_only(m: &Module) -> bool {
    m.terragrunt.is_some() && !m.files.iter().any(|f| ward_repo::is_config_file(f))
}

/// The file and line a directory-level finding points at: the `terraform` block's file when
/// there is one, else `versions.tf`, `terraform.tf`, `main.tf`, else the first file.
pub fn anchor(m: &Module) -> Loc {
    // A Terragrunt unit is its `terragrunt.hcl`, whatever its includes declare.
    if let Some(u) = &m.terragrunt {
        return Loc {
            file: u.file.clone(),
            line: 0,
        };
    }
    if let Some((_, l)) = m.required_version.first() {
        return Loc {
            file: l.file.clone(),
            line: 0,
        };
    }
    for pref in [
        "versions.tf",
        "terraform.tf",
        "main.tf",
        "versions.tofu",
        "main.tofu",
    ] {
        if let Some(f) = m.files.iter().find(|f| f.rsplit('/').next() == Some(pref)) {
            return Loc {
                file: f.clone(),
                line: 0,
            };
        }
    }
    Loc {
        file: m.files.first().cloned().unwrap_or_else(|| m.dir.clone()),
        line: 0,
    }
}

/// A finding of `rule` at `loc`.
pub fn at(rule: RuleId, loc: &Loc, msg: impl Into<String>) -> Finding {
    Finding::new(rule, &loc.file, loc.line, msg)
}

/// `file:line` split.
pub fn split_at(at: &str) -> (&str, usize) {
    match at.rsplit_once(':') {
        Some((f, l)) => (f, l.parse().unwrap_or(0)),
        None => (at, 0),
    }
}

/// Whether `package` (a module source's package, [`ward_repo::ModuleSource::package`]) is one of
/// a release's `module_sources`: patterns in ward's one syntax ([`ward_model::pattern`], as every
/// pattern of `ward.hcl`): `*` matches any run of characters, `/` included, every other character
/// only itself, over the whole package.
pub fn in_release(module_sources: &[String], package: &str) -> bool {
    module_sources
        .iter()
        .any(|p| ward_model::pattern::matches(p, package))
}

/// Local module call names by target directory, for `module.<name>.<type>.<name>` addresses.
pub fn local_call_names(repo: &Repo) -> BTreeMap<String, BTreeSet<String>> {
    let mut call_names: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for m in &repo.modules {
        for c in &m.module_calls {
            if let Some(ModuleSource {
                kind: SourceKind::Local { path },
                ..
            }) = &c.source
            {
                if let Some(t) = join_rel(&m.dir, path) {
                    call_names.entry(t).or_default().insert(c.name.clone());
                }
            }
        }
    }
    call_names
}

/// The first words of a reference that name no resource.
pub const NON_RESOURCE_ROOTS: &[&str] = &[
    "var",
    "local",
    "module",
    "data",
    "each",
    "count",
    "path",
    "terraform",
    "self",
    "ephemeral",
];

/// Which root a `terraform_remote_state` reads: for `local`, the root whose state file the path
/// names (its local backend path, or the default `terraform.tfstate` in its directory); for other
/// backends, the root with the same backend type whose literal `bucket`/`key`/`prefix`/`path`/
/// `container_name`/`organization`/`name` arguments all equal the ones given.
pub fn remote_state_target<'r>(
    repo: &'r Repo,
    from: &Module,
    rs: &ward_repo::RemoteState,
) -> Option<&'r Module> {
    let backend = rs.backend.as_deref()?;
    let cfg = rs.config.as_ref()?;
    if backend == "local" {
        let p = path_literal(cfg.get("path")?)?;
        let file = join_rel(&from.dir, &p)?;
        return repo.roots().find(|r| {
            let own = match &r.backend {
                Some(b) if b.kind == "local" => b.get_str("path").unwrap_or("terraform.tfstate"),
                None => "terraform.tfstate",
                _ => return false,
            };
            join_rel(&r.dir, own).as_deref() == Some(file.as_str())
        });
    }
    const KEYS: &[&str] = &[
        "bucket",
        "key",
        "prefix",
        "path",
        "container_name",
        "organization",
        "name",
    ];
    let given: Vec<(&str, &str)> = KEYS
        .iter()
        .filter_map(|k| cfg.get(k).and_then(Val::as_str).map(|v| (*k, v)))
        .collect();
    if given.is_empty() {
        return None;
    }
    repo.roots().find(|r| match &r.backend {
        Some(b) if b.kind == backend => given.iter().all(|(k, v)| b.get_str(k) == Some(v)),
        _ => false,
    })
}

/// A literal path, or `"${path.module}/rest"` / `"${path.root}/rest"` (the only interpolation
/// that still names a fixed place relative to the directory).
pub fn path_literal(v: &Val) -> Option<String> {
    match v {
        Val::Str(s) => Some(s.clone()),
        Val::Expr { text, .. } => {
            let inner = text.strip_prefix('"')?.strip_suffix('"')?;
            let rest = inner
                .strip_prefix("${path.module}/")
                .or_else(|| inner.strip_prefix("${path.root}/"))?;
            (!rest.contains("${")).then(|| rest.to_string())
        }
        _ => None,
    }
}

/// The state files git tracks.
pub fn tracked_state_files(repo: &Repo) -> BTreeSet<&str> {
    repo.tracked_state_files
        .iter()
        .flatten()
        .map(String::as_str)
        .collect()
}

/// One root reading another's state or outputs, across declared layers.
pub struct LayerRead<'r> {
    /// Where the read is.
    pub loc: &'r Loc,
    /// The reading directory.
    pub dir: &'r str,
    /// Its layer.
    pub mine: &'r ward_config::Layer,
    /// The directory read.
    pub target: String,
    /// That one's layer.
    pub theirs: &'r ward_config::Layer,
    /// `root` or `unit`.
    pub who: &'static str,
    /// `the state` or `the outputs`.
    pub what: &'static str,
    /// How, for a message about skipping layers (empty for a remote state).
    pub via_skip: String,
    /// How.
    pub via: String,
}

/// Every read of another root by a root with a declared layer, of a root with one
/// (`terraform_remote_state`, Terragrunt `dependency` blocks); empty without declared layers.
pub fn layer_reads<'a>(
    repo: &'a Repo,
    config: Option<&'a ward_config::Config>,
) -> Vec<LayerRead<'a>> {
    let mut out = Vec::new();
    let Some(cfg) = config else {
        return out;
    };
    if cfg.layers.is_empty() {
        return out;
    }
    for m in repo.roots() {
        let Some(mine) = cfg.layer_of(&m.dir) else {
            continue;
        };
        let mut reads: Vec<(&Loc, String, &'static str, &'static str, String, String)> = Vec::new();
        for rs in &m.remote_states {
            if let Some(target) = remote_state_target(repo, m, rs) {
                let via = format!(" through terraform_remote_state \"{}\"", rs.name);
                reads.push((
                    &rs.loc,
                    target.dir.clone(),
                    "root",
                    "the state",
                    String::new(),
                    via,
                ));
            }
        }
        // Terragrunt `dependency` blocks read the outputs of the unit they name.
        for d in m.terragrunt.iter().flat_map(|u| u.dependencies.iter()) {
            if let Some(dir) = &d.dir {
                let via = format!(" through dependency \"{}\"", d.name);
                reads.push((&d.loc, dir.clone(), "unit", "the outputs", via.clone(), via));
            }
        }
        for (loc, target, who, what, via_skip, via) in reads {
            let Some(theirs) = cfg.layer_of(&target) else {
                continue;
            };
            out.push(LayerRead {
                loc,
                dir: &m.dir,
                mine,
                target,
                theirs,
                who,
                what,
                via_skip,
                via,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_literals() {
        assert_eq!(
            path_literal(&Val::Str("../a/terraform.tfstate".into())).as_deref(),
            Some("../a/terraform.tfstate")
        );
        let e = |t: &str| Val::Expr {
            text: t.to_string(),
            refs: vec!["path.module".to_string()],
        };
        assert_eq!(
            path_literal(&e("\"${path.module}/../a/x.tfstate\"")).as_deref(),
            Some("../a/x.tfstate")
        );
        assert_eq!(path_literal(&e("\"${path.module}/${var.x}\"")), None);
        assert_eq!(path_literal(&e("var.x")), None);
    }

    /// `release { module_sources }` patterns on module packages, with the cases where a glob
    /// library and ward's one pattern syntax differ; the comments say what the `globset` glob
    /// ward-check matched them with before gave.
    #[test]
    fn module_sources_are_patterns_in_the_one_syntax() {
        let cases: &[(&str, &str, bool)] = &[
            // A package named in full; the pattern covers the whole package, not a prefix.
            ("github.com/acme/platform", "github.com/acme/platform", true),
            (
                "github.com/acme/platform",
                "github.com/acme/platform-modules",
                false,
            ),
            ("acme/platform", "acme/platform/aws", false),
            // `*` matches any run of characters, `/` included (the glob did too).
            (
                "github.com/acme/*",
                "github.com/acme/platform-modules",
                true,
            ),
            ("github.com/*", "github.com/acme/platform-modules", true),
            ("*/platform/aws", "app.terraform.io/acme/platform/aws", true),
            ("acme/*/aws", "acme/platform/aws", true),
            ("acme/*/aws", "acme/platform/google", false),
            ("*", "acme/platform/aws", true),
            // `**` means the same as `*` (the glob: same here) ...
            ("acme/**", "acme/platform/aws", true),
            (
                "git::ssh://**/modules.git",
                "git::ssh://git@example.com/acme/modules.git",
                true,
            ),
            // ... and it never matches zero directories (the glob: `acme/**/aws` was `acme/aws` too).
            ("acme/**/aws", "acme/aws", false),
            ("acme/**/aws", "acme/x/aws", true),
            // `?`, `[...]` and `{a,b}` are literal characters (the glob: wildcards).
            ("acme/?latform/aws", "acme/platform/aws", false),
            ("acme/[pq]latform/aws", "acme/platform/aws", false),
            ("acme/[!q]latform/aws", "acme/platform/aws", false),
            ("{acme,corp}/platform/aws", "acme/platform/aws", false),
            ("example.com/a?b", "example.com/a?b", true),
            // A pattern the glob refused (an unclosed class) is an ordinary pattern.
            ("acme/[platform", "acme/[platform", true),
            // Case counts (registry packages are lowercased before they are matched).
            ("Acme/*", "acme/platform/aws", false),
        ];
        for (pattern, package, want) in cases {
            assert_eq!(
                in_release(&[(*pattern).to_string()], package),
                *want,
                "{pattern} ~ {package}"
            );
        }
        // Any of the release's patterns.
        let two = ["corp/*".to_string(), "acme/platform/*".to_string()];
        assert!(in_release(&two, "acme/platform/aws"));
        assert!(!in_release(&two, "other/platform/aws"));
        assert!(!in_release(&[], "acme/platform/aws"));
    }
}
