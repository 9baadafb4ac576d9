//! Layouts `ward check` understands without configuration (#32 item 2): a module repository's
//! examples and tests, modules rendered from one template (`autogen/`), atmos components and
//! mixins, Terragrunt stacks (`terragrunt.stack.hcl`), template directories. Each layout has a
//! repository where the old behaviour was noise (now passes or warns) and one where a real
//! finding must still fail. Every fixture is written here, from scratch.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use ward_check::catalog::Severity;
use ward_check::finding::{Finding, Report};

mod common;
use common::run_check;

/// Writes `files` under `root/name` (a git work tree, so ward.hcl discovery stops there) and
/// runs `ward check` on it.
fn check_at(root: &Path, name: &str, files: &[(&str, &str)]) -> Report {
    let top = root.join(name);
    for (p, t) in files {
        let p = top.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, t).unwrap();
    }
    std::fs::create_dir_all(top.join(".git")).unwrap();
    run_check(&top, &[])
}

fn check(name: &str, files: &[(&str, &str)]) -> Report {
    let tmp = tempfile::tempdir().unwrap();
    check_at(tmp.path(), name, files)
}

fn of<'a>(r: &'a Report, rule: &str) -> Vec<&'a Finding> {
    r.findings.iter().filter(|f| f.rule == rule).collect()
}

fn kind_of<'a>(r: &'a Report, dir: &str) -> &'a str {
    r.directories
        .iter()
        .find(|d| d.dir == dir)
        .map(|d| d.kind.as_str())
        .unwrap_or_else(|| panic!("no directory {dir}: {:?}", r.directories))
}

fn not_raised(r: &Report, rule: &str) -> usize {
    r.not_raised
        .iter()
        .filter(|n| n.rule == rule)
        .map(|n| n.count)
        .sum()
}

const TOP_MODULE: &str = "terraform {\n  required_version = \">= 1.5\"\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \">= 5.0\"\n    }\n  }\n}\nresource \"aws_sqs_queue\" \"q\" {}\n";

/// An example as terraform-*-modules write them: the provider's version left to the module.
const EXAMPLE: &str = "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n  }\n}\nprovider \"aws\" {}\nmodule \"this\" {\n  source = \"../..\"\n}\n";

#[test]
fn module_repository_examples_inherit_from_the_called_module() {
    let r = check(
        "terraform-aws-queue",
        &[
            ("main.tf", TOP_MODULE),
            ("examples/simple/main.tf", EXAMPLE),
            // Called by its registry address, the repository's own (terraform-PROVIDER-NAME).
            (
                "examples/registry/main.tf",
                &EXAMPLE.replace(
                    "source = \"../..\"",
                    "source  = \"acme/queue/aws\"\n  version = \"1.2.3\"",
                ),
            ),
        ],
    );
    assert_eq!(r.repository_kind, "module");
    assert!(of(&r, "WARD-VER-003").is_empty(), "{:#?}", r.findings);
    assert!(of(&r, "WARD-VER-001").is_empty(), "{:#?}", r.findings);
    assert_eq!(not_raised(&r, "WARD-VER-003"), 2);
    assert_eq!(not_raised(&r, "WARD-VER-001"), 2);
    assert!(!r.summary.failed, "{:#?}", r.findings);
}

#[test]
fn module_repository_examples_still_report_what_a_copy_inherits() {
    let r = check(
        "terraform-aws-queue",
        &[
            (
                "main.tf",
                &format!(
                    "{TOP_MODULE}module \"x\" {{\n  source = \"git::https://example.invalid/x.git?ref=main\"\n}}\n"
                ),
            ),
            // A provider the module does not constrain, a branch source, key material.
            (
                "examples/simple/main.tf",
                &format!(
                    "{}\nterraform {{\n  required_providers {{\n    random = {{\n      source = \"hashicorp/random\"\n    }}\n  }}\n}}\nmodule \"y\" {{\n  source = \"git::https://example.invalid/y.git?ref=main\"\n}}\nlocals {{\n  k = \"{}\"\n}}\n",
                    EXAMPLE,
                    ["AKIA", "ABCDEFGHIJKLMNOP"].concat()
                ),
            ),
        ],
    );
    assert_eq!(r.repository_kind, "module");
    let ver3 = of(&r, "WARD-VER-003");
    assert_eq!(ver3.len(), 1, "{ver3:#?}");
    assert!(ver3[0].message.contains("random"), "{ver3:#?}");
    assert_eq!(ver3[0].severity, Severity::Warning);
    let mod1: Vec<(&str, Severity)> = of(&r, "WARD-MOD-001")
        .iter()
        .map(|f| (f.file.as_str(), f.severity))
        .collect();
    assert_eq!(
        mod1,
        [
            ("examples/simple/main.tf", Severity::Warning),
            ("main.tf", Severity::Error)
        ]
    );
    // Key material is an error wherever it lies.
    let keys = of(&r, "WARD-KEY-001");
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].severity, Severity::Error);
    assert!(r.summary.failed);
}

#[test]
fn a_collection_of_modules_with_examples_is_a_module_repository() {
    let files = [
        ("modules/queue/main.tf", TOP_MODULE),
        (
            "examples/queue/main.tf",
            "provider \"aws\" {}\nmodule \"q\" {\n  source = \"../../modules/queue\"\n}\n",
        ),
    ];
    let r = check("modules-collection", &files);
    assert_eq!(r.repository_kind, "module");
    assert_eq!(kind_of(&r, "examples/queue"), "example");
    assert!(of(&r, "WARD-VER-004").is_empty(), "{:#?}", r.findings);
    assert!(of(&r, "WARD-STATE-002").is_empty(), "{:#?}", r.findings);

    // A root outside the examples makes it a live repository: its lock file is required.
    let mut live = files.to_vec();
    live.push((
        "live/prod/main.tf",
        "terraform {\n  required_version = \">= 1.5\"\n  backend \"s3\" {}\n}\nprovider \"aws\" {}\nmodule \"q\" {\n  source = \"../../modules/queue\"\n}\n",
    ));
    let r = check("modules-collection", &live);
    assert_eq!(r.repository_kind, "live");
    let v4: Vec<&str> = of(&r, "WARD-VER-004")
        .iter()
        .map(|f| f.dir.as_deref().unwrap_or(""))
        .collect();
    assert!(v4.contains(&"live/prod"), "{:#?}", r.findings);
    assert!(r.summary.failed);
}

const RENDERED: &str = "// This file was automatically generated from a template in ./autogen/main\n\nterraform {\n  required_version = \">= 1.5\"\n}\nmodule \"net\" {\n  source = \"git::https://example.invalid/net.git?ref=main\"\n}\n";

#[test]
fn modules_rendered_from_one_template_are_reported_once() {
    let r = check(
        "terraform-google-cluster",
        &[
            ("autogen/main/main.tf.tmpl", "{% if beta %}\n"),
            ("main.tf", RENDERED),
            ("modules/beta/main.tf", RENDERED),
            ("modules/private/main.tf", RENDERED),
            // Written by hand: its own finding.
            (
                "modules/other/main.tf",
                "terraform {\n  required_version = \">= 1.5\"\n}\nmodule \"net\" {\n  source = \"git::https://example.invalid/net.git?ref=main\"\n}\n",
            ),
        ],
    );
    let mod1 = of(&r, "WARD-MOD-001");
    let at: Vec<&str> = mod1.iter().map(|f| f.file.as_str()).collect();
    assert_eq!(at, ["main.tf", "modules/other/main.tf"], "{mod1:#?}");
    assert!(mod1[0]
        .message
        .contains("2 other module(s) rendered from the template autogen/main"));
    assert_eq!(
        mod1[0].detail,
        [
            "also rendered at modules/beta/main.tf:7",
            "also rendered at modules/private/main.tf:7"
        ]
    );
    // Still an error: the template is wrong.
    assert_eq!(mod1[0].severity, Severity::Error);
    assert!(r.summary.failed);
}

const ATMOS_YAML: &str = "base_path: \"./\"\ncomponents:\n  terraform:\n    base_path: \"components/terraform\"\nstacks:\n  base_path: \"stacks\"\n";
const COMPONENT: &str = "terraform {\n  required_version = \">= 1.5\"\n  required_providers {\n    aws = {\n      source  = \"hashicorp/aws\"\n      version = \">= 5.0\"\n    }\n  }\n}\nprovider \"aws\" {\n  region = var.region\n}\nvariable \"region\" {}\n";

#[test]
fn atmos_components_and_mixins_are_not_roots() {
    let r = check(
        "infra",
        &[
            ("atmos.yaml", ATMOS_YAML),
            (
                "stacks/dev.yaml",
                "components:\n  terraform:\n    vpc: {}\n    weather:\n      source:\n        uri: \"./library/weather\"\n",
            ),
            ("components/terraform/vpc/main.tf", COMPONENT),
            // Outside components/terraform, but a stack names it as a component's source.
            ("library/weather/main.tf", COMPONENT),
            ("components/terraform/vpc/modules/subnet/main.tf", "variable \"a\" {}\n"),
            ("mixins/providers.mixin.tf", "provider \"aws\" {\n  region = var.region\n}\n"),
        ],
    );
    assert_eq!(kind_of(&r, "components/terraform/vpc"), "module");
    assert_eq!(kind_of(&r, "mixins"), "module");
    assert_eq!(kind_of(&r, "library/weather"), "module");
    for rule in ["WARD-VER-001", "WARD-VER-004", "WARD-STATE-002"] {
        assert!(of(&r, rule).is_empty(), "{rule}: {:#?}", r.findings);
    }
    assert_eq!(r.summary.roots, 0);
    assert!(!r.summary.failed, "{:#?}", r.findings);
}

#[test]
fn atmos_components_are_still_checked_and_other_roots_still_roots() {
    let r = check(
        "infra",
        &[
            ("atmos.yaml", ATMOS_YAML),
            (
                "components/terraform/vpc/main.tf",
                &format!(
                    "{COMPONENT}module \"x\" {{\n  source = \"git::https://example.invalid/x.git?ref=main\"\n}}\n"
                ),
            ),
            ("bootstrap/main.tf", COMPONENT),
        ],
    );
    assert_eq!(kind_of(&r, "bootstrap"), "root");
    let mod1 = of(&r, "WARD-MOD-001");
    assert_eq!(mod1.len(), 1);
    assert_eq!(mod1[0].severity, Severity::Error);
    let v4: Vec<Option<&str>> = of(&r, "WARD-VER-004")
        .iter()
        .map(|f| f.dir.as_deref())
        .collect();
    assert_eq!(v4, [Some("bootstrap")]);
    assert!(r.summary.failed);
}

const STACK: &str = "locals {\n  catalog_ref = \"v1.4.0\"\n}\nunit \"vpc\" {\n  source = \"../../catalog/units/vpc\"\n  path   = \"vpc\"\n  values = {\n    ref  = local.catalog_ref\n    cidr = \"10.0.0.0/16\"\n  }\n}\nunit \"dns\" {\n  source = \"git::https://example.invalid/catalog.git//units/dns?ref=v2.0.1\"\n  path   = \"dns\"\n}\n";
const CATALOG_UNIT: &str = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\nterraform {\n  source = \"git::https://example.invalid/modules.git//vpc?ref=${values.ref}\"\n}\ninputs = {\n  cidr = values.cidr\n}\n";
const ROOT_HCL: &str =
    "remote_state {\n  backend = \"s3\"\n  config = {\n    bucket = \"state\"\n  }\n}\n";

#[test]
fn terragrunt_stacks_are_read() {
    let r = check(
        "live",
        &[
            ("root.hcl", ROOT_HCL),
            ("live/dev/terragrunt.stack.hcl", STACK),
            ("catalog/units/vpc/terragrunt.hcl", CATALOG_UNIT),
        ],
    );
    assert!(of(&r, "WARD-DISC-001").is_empty(), "{:#?}", r.findings);
    assert_eq!(kind_of(&r, "live/dev/.terragrunt-stack/vpc"), "root");
    assert_eq!(kind_of(&r, "live/dev/.terragrunt-stack/dns"), "root");
    // The catalog unit is instantiated by the stack, not applied itself.
    assert_eq!(kind_of(&r, "catalog/units/vpc"), "module");
    // Sources at tags (one through the values): nothing to say about them.
    for rule in ["WARD-MOD-001", "WARD-MOD-002", "WARD-VER-001"] {
        assert!(of(&r, rule).is_empty(), "{rule}: {:#?}", r.findings);
    }
    // The remote unit's terragrunt.hcl is not read: its backend and lock file are not known.
    assert!(of(&r, "WARD-STATE-002").is_empty(), "{:#?}", r.findings);
    assert_eq!(not_raised(&r, "WARD-STATE-002"), 1);
    // The local one's lock file would come from its catalog directory, which has none.
    let v4: Vec<Option<&str>> = of(&r, "WARD-VER-004")
        .iter()
        .map(|f| f.dir.as_deref())
        .collect();
    assert_eq!(v4, [Some("live/dev/.terragrunt-stack/vpc")]);
    assert_eq!(not_raised(&r, "WARD-VER-004"), 1);
    // The vpc unit's backend is root.hcl's, found from where Terragrunt generates the unit.
    let vpc = r
        .directories
        .iter()
        .find(|d| d.dir == "live/dev/.terragrunt-stack/vpc")
        .unwrap();
    assert_eq!(
        vpc.reasons,
        [
            "backend \"s3\"",
            "Terragrunt unit generated by live/dev/terragrunt.stack.hcl:4"
        ]
    );
    let matrix: Vec<(&str, &str, &str)> = r
        .matrix
        .iter()
        .map(|m| (m.dir.as_str(), m.reference.as_str(), m.class.as_str()))
        .collect();
    assert!(
        matrix.contains(&("live/dev/.terragrunt-stack/vpc", "v1.4.0", "tag")),
        "{matrix:?}"
    );
    assert!(
        matrix.contains(&("live/dev/.terragrunt-stack/dns", "v2.0.1", "tag")),
        "{matrix:?}"
    );
}

#[test]
fn terragrunt_stack_sources_on_branches_fail() {
    let r = check(
        "live",
        &[
            ("root.hcl", ROOT_HCL),
            (
                "live/dev/terragrunt.stack.hcl",
                &STACK
                    .replace("v1.4.0", "main")
                    .replace("?ref=v2.0.1", "?ref=develop"),
            ),
            ("catalog/units/vpc/terragrunt.hcl", CATALOG_UNIT),
        ],
    );
    let mod1: Vec<(&str, usize, Option<&str>)> = of(&r, "WARD-MOD-001")
        .iter()
        .map(|f| (f.file.as_str(), f.line, f.dir.as_deref()))
        .collect();
    assert_eq!(
        mod1,
        [
            (
                "catalog/units/vpc/terragrunt.hcl",
                5,
                Some("live/dev/.terragrunt-stack/vpc")
            ),
            (
                "live/dev/terragrunt.stack.hcl",
                13,
                Some("live/dev/.terragrunt-stack/dns")
            ),
        ],
        "{:#?}",
        r.findings
    );
    assert!(r.summary.failed);
}

#[test]
fn template_directories_are_skipped_and_counted() {
    let r = check(
        "tpl",
        &[
            ("modules/svc/main.tf", "variable \"a\" {}\n"),
            (
                "modules/svc/.boilerplate/terragrunt.hcl",
                "terraform {\n  source = \"{{ .SourceUrl }}\"\n}\ninputs = {\n  name = {{ .Name | quote }}\n}\n",
            ),
            ("modules/svc/.boilerplate/boilerplate.yml", "variables: []\n"),
            (
                "{{cookiecutter.project}}/main.tf",
                "provider \"aws\" {\n  region = {{ cookiecutter.region }}\n}\n",
            ),
            ("modules/db/main.tf", "variable \"a\" {}\n"),
            ("modules/db/generated.tf", "resource \"x\" \"y\" {\n  n = {{ .N }}\n}\n"),
        ],
    );
    assert!(of(&r, "WARD-PARSE-001").is_empty(), "{:#?}", r.findings);
    let skipped: Vec<&str> = r.excluded.iter().map(|x| x.path.as_str()).collect();
    assert_eq!(
        skipped,
        [
            "modules/db/generated.tf",
            "modules/svc/.boilerplate",
            "{{cookiecutter.project}}"
        ]
    );
    assert!(r
        .excluded
        .iter()
        .all(|x| x.reason.contains("not parsed as HCL")));
}

#[test]
fn a_file_that_is_not_hcl_and_no_template_still_fails() {
    let r = check(
        "tpl",
        &[
            ("modules/db/main.tf", "resource \"x\" \"y\" {\n  n = \n"),
            (
                "modules/svc/.boilerplate/main.tf",
                "resource \"x\" \"y\" {\n",
            ),
            // A symlink checked out as a plain file: still unreadable, and said so.
            ("modules/db/locals.tf", "../shared/locals.tf"),
        ],
    );
    let parse = of(&r, "WARD-PARSE-001");
    let at: Vec<&str> = parse.iter().map(|f| f.file.as_str()).collect();
    assert_eq!(
        at,
        ["modules/db/locals.tf", "modules/db/main.tf"],
        "{parse:#?}"
    );
    assert!(
        parse[0]
            .message
            .contains("a symlink checked out as a plain file"),
        "{parse:#?}"
    );
    assert!(r.summary.failed);
}

#[test]
fn a_branch_passed_as_a_remote_units_version_is_a_warning() {
    let stack = |v: &str| {
        format!(
            "unit \"app\" {{\n  source = \"git::https://example.invalid/catalog.git//units/app?ref=v1.0.0\"\n  path   = \"app\"\n  values = {{\n    version = \"{v}\"\n    name    = \"app\"\n  }}\n}}\n"
        )
    };
    let r = check("live", &[("dev/terragrunt.stack.hcl", &stack("main"))]);
    let mod1: Vec<(&str, usize, Severity)> = of(&r, "WARD-MOD-001")
        .iter()
        .map(|f| (f.file.as_str(), f.line, f.severity))
        .collect();
    assert_eq!(
        mod1,
        [("dev/terragrunt.stack.hcl", 1, Severity::Warning)],
        "{:#?}",
        r.findings
    );
    assert!(of(&r, "WARD-MOD-001")[0]
        .message
        .contains("unit.app passes version = \"main\", a branch"));
    // A tag passed: nothing to say.
    let r = check("live", &[("dev/terragrunt.stack.hcl", &stack("v1.4.2"))]);
    assert!(of(&r, "WARD-MOD-001").is_empty(), "{:#?}", r.findings);
    assert!(!r.summary.failed, "{:#?}", r.findings);
}
