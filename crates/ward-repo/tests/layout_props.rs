//! The layout readers never panic, whatever the input: stack files (`terragrunt.stack.hcl`),
//! atmos manifests, rendered-file markers, template and symlink text.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use ward_repo::layout::{
    atmos_components, atmos_local_sources, generated_from, is_template_text, symlink_text,
    template_dir,
};

proptest! {
    #[test]
    fn layout_text(s in "\\PC*") {
        let _ = atmos_components(&s);
        let _ = atmos_local_sources(&s);
        let _ = generated_from(&s);
        let _ = is_template_text(&s);
        let _ = symlink_text(&s);
        let _ = template_dir(&s);
    }

    #[test]
    fn stack_files(s in "\\PC*") {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("live")).unwrap();
        std::fs::write(d.path().join("live/terragrunt.stack.hcl"), &s).unwrap();
        let _ = ward_repo::stack::read_stack(d.path(), "live/terragrunt.stack.hcl");
    }

    #[test]
    fn stack_like(
        blocks in proptest::collection::vec(
            ("(unit|stack|locals)", "[a-z_]{0,6}", "(\\.\\./|\\./|git::https://x\\.invalid/c\\.git//|)[a-z/.]{0,12}(\\?ref=[a-z0-9.]{0,5})?", "[a-z/.]{0,10}", any::<bool>()),
            0..6,
        )
    ) {
        let d = tempfile::tempdir().unwrap();
        let mut text = String::new();
        for (kind, name, source, path, no_dot) in &blocks {
            text.push_str(&format!(
                "{kind} \"{name}\" {{\n  source = \"{source}\"\n  path = \"{path}\"\n  no_dot_terragrunt_stack = {no_dot}\n  values = {{\n    v = \"{name}\"\n  }}\n}}\n"
            ));
        }
        std::fs::create_dir_all(d.path().join("live")).unwrap();
        std::fs::write(d.path().join("live/terragrunt.stack.hcl"), &text).unwrap();
        // A stack that nests itself stops at the depth bound.
        std::fs::write(
            d.path().join("terragrunt.stack.hcl"),
            "stack \"me\" {\n  source = \".\"\n  path = \"again\"\n}\n",
        )
        .unwrap();
        let _ = ward_repo::stack::read_stack(d.path(), "live/terragrunt.stack.hcl");
        let (g, _) = ward_repo::stack::read_stack(d.path(), "terragrunt.stack.hcl").unwrap();
        prop_assert_eq!(g.len(), ward_repo::stack::MAX_DEPTH + 1);
        let r = ward_repo::discover(d.path(), &ward_repo::Options::default()).unwrap();
        for m in &r.modules {
            prop_assert!(
                !m.dir.starts_with('/') && !m.dir.split('/').any(|c| c == ".."),
                "{}",
                m.dir
            );
        }
    }
}
