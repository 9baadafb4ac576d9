//! Discovery over small trees built in a temporary directory.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use ward_repo::{discover, ModuleKind, Options, SourceKind};

fn write(root: &Path, files: &[(&str, &str)]) {
    for (p, c) in files {
        let p = root.join(p);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, c).unwrap();
    }
}

#[test]
fn roots_modules_precedence_and_problems() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        &[
            // a root calling a local module
            ("live/app/main.tf", "module \"db\" {\n  source = \"../../modules/db\"\n}\n"),
            ("live/app/providers.tf", "provider \"aws\" {\n  region = \"eu-west-1\"\n}\n"),
            // the .tofu file hides the .tf file of the same name
            ("live/app/backend.tf", "terraform {\n  backend \"s3\" {}\n}\n"),
            ("live/app/backend.tofu", "terraform {\n  backend \"gcs\" {}\n}\n"),
            ("live/app/.terraform.lock.hcl", "# lock\n"),
            // an override file replaces the backend
            ("live/other/main.tf", "terraform {\n  backend \"s3\" {}\n}\n"),
            ("live/other/backend_override.tf", "terraform {\n  backend \"local\" {\n    path = \"x.tfstate\"\n  }\n}\n"),
            // a called module, even with a provider block, is a module
            ("modules/db/main.tf", "provider \"aws\" {}\nresource \"aws_db_instance\" \"main\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n"),
            // a JSON-only module
            ("modules/json/main.tf.json", "{\"variable\": {\"x\": {}}, \"module\": {\"m\": {\"source\": \"acme/m/aws\", \"version\": \"1.0.0\"}}}"),
            // unparsable
            ("broken/main.tf", "resource \"a\" \"b\" {\n  x = \n}\n"),
            // skipped caches
            ("live/app/.terraform/modules/x/main.tf", "this is not parsed {"),
            ("old/terraform.tfstate", "{}"),
            ("vars/prod.tfvars", "a = 1\n"),
        ],
    );
    let repo = discover(t.path(), &Options::default()).unwrap();
    let dirs: Vec<&str> = repo.modules.iter().map(|m| m.dir.as_str()).collect();
    assert_eq!(
        dirs,
        [
            "broken",
            "live/app",
            "live/other",
            "modules/db",
            "modules/json"
        ]
    );
    let app = repo.module("live/app").unwrap();
    assert_eq!(app.kind, ModuleKind::Root);
    assert_eq!(app.backend.as_ref().unwrap().kind, "gcs");
    assert!(app.lock_file);
    assert!(!app.files.iter().any(|f| f.ends_with("backend.tf")));
    assert_eq!(
        repo.shadowed,
        vec![(
            "live/app/backend.tf".to_string(),
            "live/app/backend.tofu".to_string()
        )]
    );
    let other = repo.module("live/other").unwrap();
    assert_eq!(other.backend.as_ref().unwrap().kind, "local");
    let db = repo.module("modules/db").unwrap();
    assert_eq!(db.kind, ModuleKind::Module);
    assert_eq!(db.callers, vec!["live/app"]);
    assert_eq!(db.resources[0].prevent_destroy, Some(true));
    let json = repo.module("modules/json").unwrap();
    assert!(matches!(
        json.module_calls[0].source.as_ref().unwrap().kind,
        SourceKind::Registry { .. }
    ));
    assert_eq!(json.module_calls[0].version.as_deref(), Some("1.0.0"));
    assert_eq!(repo.problems.len(), 1);
    assert_eq!(repo.problems[0].loc.file, "broken/main.tf");
    assert_eq!(repo.problems[0].loc.line, 2);
    assert_eq!(repo.state_files, vec!["old/terraform.tfstate"]);
    assert!(repo.text_files.iter().any(|f| f.path == "vars/prod.tfvars"));
    assert_eq!(repo.tracked_state_files, None);
}

#[test]
fn a_file_is_not_a_repository() {
    let t = tempfile::tempdir().unwrap();
    let f = t.path().join("main.tf");
    std::fs::write(&f, "").unwrap();
    let e = discover(&f, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("not a readable directory"), "{e}");
}

#[test]
fn every_root_signal_and_the_repository_kinds() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        &[
            ("state/main.tf", "resource \"a_b\" \"c\" {}\n"),
            ("state/terraform.tfstate", "{}"),
            ("vars/main.tf", "resource \"a_b\" \"c\" {}\n"),
            ("vars/terraform.tfvars", "x = 1\n"),
            ("auto/main.tf", "resource \"a_b\" \"c\" {}\n"),
            ("auto/prod.auto.tfvars", "x = 1\n"),
            ("plain/main.tf", "resource \"a_b\" \"c\" {}\n"),
            // A parent Terragrunt file included by a unit is not a unit.
            ("tg/terragrunt.hcl", "remote_state {\n  backend = \"gcs\"\n}\n"),
            (
                "tg/unit/terragrunt.hcl",
                "include \"root\" {\n  path = find_in_parent_folders()\n}\nterraform {\n  source = \"tfr:///acme/vpc/aws?version=1.2.3\"\n}\n",
            ),
            ("old/main.tf", "provider \"x\" {}\n"),
        ],
    );
    let exclude = vec![ward_repo::Exclude {
        pattern: "old".to_string(),
        reason: "gone".to_string(),
        line: 0,
    }];
    let r = discover(
        t.path(),
        &Options {
            declared_roots: Default::default(),
            exclude,
        },
    )
    .unwrap();
    let kind = |d: &str| r.module(d).map(|m| m.kind);
    assert_eq!(kind("state"), Some(ModuleKind::Root));
    assert_eq!(kind("vars"), Some(ModuleKind::Root));
    assert_eq!(kind("auto"), Some(ModuleKind::Root));
    assert_eq!(kind("plain"), Some(ModuleKind::Module));
    assert_eq!(kind("tg/unit"), Some(ModuleKind::Root));
    assert_eq!(kind("tg"), None, "the parent configuration is not a unit");
    assert_eq!(kind("old"), None, "excluded");
    assert_eq!(r.excluded.len(), 1);
    assert_eq!(r.excluded[0].path, "old");
    let unit = r.module("tg/unit").unwrap();
    assert_eq!(unit.backend.as_ref().map(|b| b.kind.as_str()), Some("gcs"));
    let call = &unit.module_calls[0];
    assert_eq!(call.version.as_deref(), Some("1.2.3"));
    assert!(matches!(
        call.source.as_ref().map(|s| &s.kind),
        Some(SourceKind::Registry { address }) if address == "acme/vpc/aws"
    ));
    assert_eq!(r.kind, ward_repo::RepoKind::Live);

    // A module at the top with examples: a module repository.
    let m = tempfile::tempdir().unwrap();
    write(
        m.path(),
        &[
            ("main.tf", "resource \"a_b\" \"c\" {}\n"),
            (
                "examples/simple/main.tf",
                "provider \"x\" {}\nmodule \"m\" {\n  source = \"../..\"\n}\n",
            ),
            ("modules/sub/main.tf", "resource \"a_b\" \"c\" {}\n"),
        ],
    );
    let r = discover(m.path(), &Options::default()).unwrap();
    assert_eq!(r.kind, ward_repo::RepoKind::Module);
    assert_eq!(
        r.module("examples/simple").map(|m| m.kind),
        Some(ModuleKind::Example)
    );
    assert_eq!(r.roots().count(), 0);
}
