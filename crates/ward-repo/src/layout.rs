//! Layouts ward understands without configuration: what a directory is from where it lies and
//! what lies beside it, not only from what it declares.
//!
//! - **Template directories** ([`template_dir`]): a Gruntwork `.boilerplate` directory, a
//!   cookiecutter or copier directory whose name holds `{{` (`{{cookiecutter.name}}`), are not
//!   Terraform until they are rendered; discovery does not enter them and lists them
//!   ([`crate::Repo::templates`]). A configuration file that does not parse and holds `{{ … }}`
//!   is a template file too ([`is_template_text`]), listed rather than reported as unparsable.
//! - **atmos components** ([`atmos_components`]): the directories under an `atmos.yaml`'s
//!   `components.terraform.base_path` (default `components/terraform`) are components that the
//!   stacks instantiate (atmos writes their backend and variables), not roots.
//! - **Mixins** ([`is_mixin_dir`]): a `mixins` directory, or one holding only `*.mixin.tf`
//!   files, is a set of files copied into components (atmos vendoring), not a root.
//! - **Rendered modules** ([`generated_from`]): a file that says it "was automatically generated
//!   from a template in ./autogen/main" (terraform-google-modules) belongs to the modules rendered
//!   from that template: ward reports one finding for what every rendering repeats.
//!
//! Each is data with its source, below.

use crate::ansible::{get, scalar_plain};
use saphyr::{LoadableYamlNode, MarkedYamlOwned};

/// A kind of template directory: how its name is recognised and what renders it.
pub struct TemplateDir {
    /// A directory name equal to this (`exact`) or containing it.
    pub name: &'static str,
    /// Whether the name must be equal (else: contain).
    pub exact: bool,
    /// What renders it, in words.
    pub what: &'static str,
}

/// The template directories discovery does not enter.
pub const TEMPLATE_DIRS: &[TemplateDir] = &[
    // gruntwork-io/boilerplate: a `.boilerplate` directory holds `boilerplate.yml` and Go
    // templates of the files it renders.
    TemplateDir {
        name: ".boilerplate",
        exact: true,
        what: "a boilerplate template directory (rendered by gruntwork-io/boilerplate)",
    },
    // cookiecutter and copier name their template directories with Jinja expressions:
    // `{{cookiecutter.project_slug}}`, `{{ project_name }}`.
    TemplateDir {
        name: "{{",
        exact: false,
        what: "a cookiecutter/copier template directory (its name is a Jinja expression)",
    },
];

/// What renders the directory `name`, when it is a template directory.
pub fn template_dir(name: &str) -> Option<&'static str> {
    TEMPLATE_DIRS
        .iter()
        .find(|t| {
            if t.exact {
                name == t.name
            } else {
                name.contains(t.name)
            }
        })
        .map(|t| t.what)
}

/// Whether a file that did not parse is a template: it holds a `{{ … }}` expression (Go,
/// Jinja, Handlebars templates), which HCL has no syntax for outside strings.
pub fn is_template_text(text: &str) -> bool {
    text.find("{{")
        .is_some_and(|i| text.get(i + 2..).is_some_and(|r| r.contains("}}")))
}

/// The target a configuration file names when its whole text is one path to another
/// configuration file (`../locals.tf`): a symlink that git checked out as a plain file
/// (`core.symlinks = false`, common on Windows) or that a copy turned into its target's path.
pub fn symlink_text(text: &str) -> Option<&str> {
    let t = text.trim();
    let plausible = !t.is_empty()
        && !t.contains(char::is_whitespace)
        && !t.contains(['{', '}', '=', '"'])
        && crate::is_config_file(t.rsplit('/').next().unwrap_or(t));
    plausible.then_some(t)
}

/// A template discovery did not parse as configuration.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Template {
    /// Repository-relative path (a directory or a file).
    pub path: String,
    /// What it is, in words.
    pub what: String,
}

/// The default `components.terraform.base_path` of atmos (atmos.tools, "CLI Configuration":
/// `components.terraform.base_path`, relative to `base_path`).
pub const ATMOS_COMPONENTS_DEFAULT: &str = "components/terraform";

/// The atmos CLI configuration file's name.
pub const ATMOS_CONFIG: &str = "atmos.yaml";

/// The components directory an `atmos.yaml` names, relative to the directory holding it
/// (`base_path` joined with `components.terraform.base_path`), `/`-separated without `./`;
/// `None` when the file is not YAML or names an absolute path or one leaving its directory.
pub fn atmos_components(text: &str) -> Option<String> {
    crate::ansible::check_depth(text).ok()?;
    let docs = MarkedYamlOwned::load_from_str(text).ok()?;
    let doc = docs.first()?;
    let base = get(doc, "base_path")
        .and_then(scalar_plain)
        .unwrap_or_default();
    let comps = get(doc, "components")
        .and_then(|c| get(c, "terraform"))
        .and_then(|t| get(t, "base_path"))
        .and_then(scalar_plain)
        .unwrap_or_else(|| ATMOS_COMPONENTS_DEFAULT.to_string());
    if base.starts_with('/') || comps.starts_with('/') {
        return None;
    }
    let joined = crate::join_rel(".", &format!("{base}/{comps}"))?;
    (joined != ".").then_some(joined)
}

/// The local component sources an atmos manifest names (`source: ../x`, `source: { uri: ../x }`
/// in a stack, `- source: ./x` in `vendor.yaml`), each as written with its 1-based line: a
/// directory named so is a component the stacks instantiate, not a root. A line scan, not a YAML
/// parse: only values that start with `./` or `../` are taken, without their `//subdir` or
/// `?query`.
pub fn atmos_local_sources(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start().trim_start_matches("- ").trim_start();
        let Some(v) = t
            .strip_prefix("uri:")
            .or_else(|| t.strip_prefix("source:"))
            .map(str::trim)
        else {
            continue;
        };
        let v = v.trim_matches(['"', '\'']);
        if !(v.starts_with("./") || v.starts_with("../")) {
            continue;
        }
        let v = v.split('?').next().unwrap_or(v);
        let v = match v.find("//") {
            Some(j) => &v[..j],
            None => v,
        };
        out.push((v.trim_end_matches('/').to_string(), i + 1));
    }
    out
}

/// The component paths an atmos vendoring manifest (`kind: AtmosVendorConfig`) pulls from a
/// remote repository's subdirectory with the component's name in it (`source:
/// "github.com/org/repo.git//lib/{{ .Component }}?ref=..."`, under `- component: "x/y"`), as
/// paths inside that repository (`lib/x/y`), each with its 1-based line. A directory of this
/// repository at the end of such a path (`x/y`, or `lib/x/y`; two components at least) is the
/// library the manifest vendors from: a component, not a root (atmos' own examples keep their
/// demo library so). A line scan, not a YAML parse.
pub fn atmos_vendored_components(text: &str) -> Vec<(String, usize)> {
    if !text.contains("AtmosVendorConfig") {
        return Vec::new();
    }
    let unquote = |v: &str| v.trim().trim_matches(['"', '\'']).to_string();
    let mut out = Vec::new();
    let mut component: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start().trim_start_matches("- ").trim_start();
        if let Some(v) = t.strip_prefix("component:") {
            component = Some(unquote(v));
            continue;
        }
        let Some(v) = t.strip_prefix("source:") else {
            continue;
        };
        let (Some(c), v) = (component.as_deref(), unquote(v)) else {
            continue;
        };
        let Some((_, sub)) = v
            .split_once("//")
            .filter(|(h, _)| !h.is_empty() && !h.ends_with(':'))
        else {
            continue;
        };
        let sub = sub.split('?').next().unwrap_or(sub);
        let mut path = String::new();
        let mut rest = sub;
        let mut named = false;
        while let Some(open) = rest.find("{{") {
            let Some(close) = rest[open..].find("}}") else {
                break;
            };
            let inner = rest[open + 2..open + close].trim();
            path.push_str(&rest[..open]);
            if inner == ".Component" {
                path.push_str(c);
                named = true;
            } else {
                // Another template value (a version): the path ends before it.
                rest = "";
                break;
            }
            rest = &rest[open + close + 2..];
        }
        path.push_str(rest);
        let path = path.trim_matches('/').to_string();
        if named && !path.is_empty() {
            out.push((path, i + 1));
        }
    }
    out
}

/// Whether `dir` (repository-relative) is at the end of one of the `vendored` paths
/// ([`atmos_vendored_components`]), with two components at least.
pub fn is_vendored_component(dir: &str, vendored: &str) -> bool {
    dir.split('/').count() >= 2 && (vendored == dir || vendored.ends_with(&format!("/{dir}")))
}

/// Whether a directory is a set of mixins: named `mixins` (or below one), or every configuration file in it
/// is a `*.mixin.tf` (cloudposse's components and atmos vendoring copy these into components).
pub fn is_mixin_dir(dir: &str, files: &[String]) -> bool {
    dir.split('/').any(|c| c == "mixins")
        || (!files.is_empty()
            && files.iter().all(|f| {
                let n = f.rsplit('/').next().unwrap_or(f);
                n.ends_with(".mixin.tf") || n.ends_with(".mixin.tf.json")
            }))
}

/// The marker a rendered file carries, and the template path after it
/// (terraform-google-modules' `autogen`: "This file was automatically generated from a template
/// in ./autogen/main").
pub const GENERATED_MARKER: &str = "generated from a template in ";

/// The template directory a file says it was rendered from (`autogen/main`), read from its
/// first lines.
pub fn generated_from(text: &str) -> Option<String> {
    let head: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
    let i = head.find(GENERATED_MARKER)?;
    let rest = &head[i + GENERATED_MARKER.len()..];
    let path: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '*' && *c != '"')
        .collect();
    let path = path.trim_end_matches(['.', ',', ';']);
    crate::join_rel(".", path).filter(|p| p != ".")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_dirs_and_text() {
        assert!(template_dir(".boilerplate").is_some());
        assert!(template_dir("{{cookiecutter.project_slug}}").is_some());
        assert!(template_dir("boilerplate").is_none());
        assert!(template_dir("modules").is_none());
        assert!(is_template_text("x = {{ .Name }}\n"));
        assert!(!is_template_text("x = \"${var.a}\"\n"));
        assert!(!is_template_text("x = {{\n"));
    }

    #[test]
    fn atmos_paths() {
        assert_eq!(
            atmos_components("base_path: \".\"\ncomponents:\n  terraform:\n    base_path: \"components/terraform\"\n").as_deref(),
            Some("components/terraform")
        );
        assert_eq!(
            atmos_components("stacks:\n  base_path: stacks\n").as_deref(),
            Some("components/terraform")
        );
        assert_eq!(
            atmos_components("base_path: ./infra\ncomponents:\n  terraform:\n    base_path: tf\n")
                .as_deref(),
            Some("infra/tf")
        );
        assert_eq!(
            atmos_components("components:\n  terraform:\n    base_path: /abs\n"),
            None
        );
        assert_eq!(atmos_components(": : :\n  - ["), None);
    }

    #[test]
    fn symlinks_checked_out_as_text() {
        assert_eq!(symlink_text("../locals.tf"), Some("../locals.tf"));
        assert_eq!(
            symlink_text("../../shared/providers.tf.json\n"),
            Some("../../shared/providers.tf.json")
        );
        assert_eq!(symlink_text("locals {\n}\n"), None);
        assert_eq!(symlink_text("x = \"a.tf\""), None);
        assert_eq!(symlink_text("README.md"), None);
    }

    #[test]
    fn atmos_sources() {
        let t = "components:\n  terraform:\n    weather:\n      source:\n        uri: \"../lib/weather\"\n    ip:\n      source:\n        uri: \"github.com/a/b//lib/ip\"\n    x:\n      source: ./local/x//sub?ref=1\n";
        assert_eq!(
            atmos_local_sources(t),
            [
                ("../lib/weather".to_string(), 5),
                ("./local/x".to_string(), 10)
            ]
        );
    }

    #[test]
    fn atmos_vendoring_from_a_library() {
        let t = "apiVersion: atmos/v1\nkind: AtmosVendorConfig\nspec:\n  sources:\n    - component: \"github/stargazers\"\n      source: \"github.com/cloudposse/atmos.git//examples/demo-library/{{ .Component }}?ref={{.Version}}\"\n      version: \"main\"\n    - component: \"vpc\"\n      source: \"github.com/cloudposse/terraform-aws-components.git//modules/{{.Component}}?ref={{.Version}}\"\n    - component: \"x\"\n      source: \"oci://public.ecr.aws/x:{{.Version}}\"\n";
        assert_eq!(
            atmos_vendored_components(t),
            [
                ("examples/demo-library/github/stargazers".to_string(), 6),
                ("modules/vpc".to_string(), 9)
            ]
        );
        assert!(is_vendored_component(
            "demo-library/github/stargazers",
            "examples/demo-library/github/stargazers"
        ));
        assert!(is_vendored_component("modules/vpc", "modules/vpc"));
        // One component is too little to tie a directory to another repository's path.
        assert!(!is_vendored_component("vpc", "modules/vpc"));
        assert!(!is_vendored_component(
            "other/stargazers",
            "examples/demo-library/github/stargazers"
        ));
        // Not a vendoring manifest: nothing.
        assert!(atmos_vendored_components("source: \"a.git//b/{{ .Component }}\"\n").is_empty());
    }

    #[test]
    fn mixins_and_markers() {
        assert!(is_mixin_dir("mixins", &["mixins/providers.tf".to_string()]));
        assert!(is_mixin_dir(
            "x",
            &["x/a.mixin.tf".to_string(), "x/b.mixin.tf".to_string()]
        ));
        assert!(!is_mixin_dir(
            "x",
            &["x/a.mixin.tf".to_string(), "x/main.tf".to_string()]
        ));
        assert_eq!(
            generated_from("/**\n * Licence\n */\n\n// This file was automatically generated from a template in ./autogen/main\n\nresource \"a\" \"b\" {}\n").as_deref(),
            Some("autogen/main")
        );
        assert_eq!(generated_from("resource \"a\" \"b\" {}\n"), None);
    }
}
