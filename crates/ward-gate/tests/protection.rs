//! Protection at its edges: the three sources combined, the record read, written and merged,
//! and `prevent_destroy` found through nested local modules up to the depth limit
//! (docs/testing.md, "Mutation testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use ward_gate::protect::{
    add_to_record, has_terraform_files, load_record, parse_record, render_record, save_record,
    scan_root, CodeProtection, ProtectedBy, Protection, ProtectionRecord,
};

fn cp(address: &str, file: &str) -> CodeProtection {
    CodeProtection {
        address: address.into(),
        file: file.into(),
    }
}

#[test]
fn code_and_record_combine_into_what_is_protected() {
    let record = ProtectionRecord {
        version: 1,
        protected: vec![cp("a.kept", "old.tf"), cp("a.removed", "gone.tf")],
    };
    let (p, updated) = Protection::combine(
        vec!["b.*".into()],
        vec![cp("a.kept", "main.tf"), cp("a.new", "main.tf")],
        &record,
        Some(".".into()),
    );
    assert_eq!(p.removed_from_code, [cp("a.removed", "gone.tf")]);
    assert_eq!(p.newly_found, [cp("a.new", "main.tf")]);
    assert_eq!(p.config_patterns, ["b.*"]);
    assert_eq!(p.root_read.as_deref(), Some("."));
    assert_eq!(
        updated,
        ProtectionRecord {
            version: 1,
            protected: vec![
                cp("a.kept", "main.tf"),
                cp("a.new", "main.tf"),
                cp("a.removed", "gone.tf")
            ],
        }
    );
    // Every source that protects an address, sorted, once each.
    let p = Protection {
        config_patterns: vec!["a.*".into(), "a.removed".into(), "a.*".into()],
        in_code: vec![cp("a.new", "main.tf")],
        removed_from_code: vec![cp("a.removed", "gone.tf")],
        ..Protection::default()
    };
    assert_eq!(
        p.protects("a.removed"),
        [
            ProtectedBy::Config {
                pattern: "a.*".into()
            },
            ProtectedBy::Config {
                pattern: "a.removed".into()
            },
            ProtectedBy::Record {
                file: "gone.tf".into()
            },
        ]
    );
    assert_eq!(
        p.protects("a.new"),
        [
            ProtectedBy::Config {
                pattern: "a.*".into()
            },
            ProtectedBy::PreventDestroy {
                file: "main.tf".into()
            },
        ]
    );
    assert!(p.protects("c.x").is_empty());
}

#[test]
fn the_record_is_read_written_and_merged_under_its_lock() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".ward/protection.json");
    assert_eq!(
        load_record(&path).unwrap(),
        ProtectionRecord {
            version: 1,
            protected: vec![]
        }
    );
    let r = ProtectionRecord {
        version: 1,
        protected: vec![cp("b.x", "b.tf"), cp("a.x", "a.tf")],
    };
    save_record(&path, &r).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, render_record(&r));
    assert!(text.find("a.x").unwrap() < text.find("b.x").unwrap());
    assert!(text.ends_with("}\n"));
    add_to_record(&path, &[cp("c.x", "c.tf"), cp("a.x", "moved.tf")]).unwrap();
    assert_eq!(
        load_record(&path).unwrap().protected,
        [cp("a.x", "moved.tf"), cp("b.x", "b.tf"), cp("c.x", "c.tf")]
    );
    // Not a readable file: an error, not an empty record.
    let e = load_record(dir.path()).unwrap_err().to_string();
    assert!(e.contains("read the protection record"), "{e}");
    let e = parse_record("{\"version\":2,\"protected\":[]}", "p.json")
        .unwrap_err()
        .to_string();
    assert!(e.contains("version 2"), "{e}");
    parse_record("{\"version\":1,\"protected\":[]}", "p.json").unwrap();
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join(name), text).unwrap();
}

#[test]
fn prevent_destroy_is_found_through_local_modules_to_a_depth_of_32() {
    let root = tempfile::tempdir().unwrap();
    assert!(!has_terraform_files(root.path()));
    let mut dir = root.path().to_path_buf();
    for depth in 0..35 {
        write(
            &dir,
            "main.tf",
            "resource \"fakecloud_volume\" \"v\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n\nresource \"fakecloud_volume\" \"free\" {\n  lifecycle {\n    prevent_destroy = false\n  }\n}\n\nmodule \"m\" {\n  source = \"./m\"\n}\n",
        );
        if depth == 0 {
            assert!(has_terraform_files(root.path()));
        }
        dir = dir.join("m");
    }
    let found = scan_root(root.path()).unwrap();
    // The root and 32 nested modules: 33 in all; deeper ones are not read.
    assert_eq!(found.len(), 33, "{found:#?}");
    let deepest = format!("{}fakecloud_volume.v", "module.m.".repeat(32));
    assert!(found.iter().any(|c| c.address == deepest));
    let top = found
        .iter()
        .find(|c| c.address == "fakecloud_volume.v")
        .unwrap();
    assert_eq!(top.file, "main.tf");
    let one = found
        .iter()
        .find(|c| c.address == "module.m.fakecloud_volume.v")
        .unwrap();
    assert_eq!(Path::new(&one.file), Path::new("m/main.tf"));
    assert!(!found.iter().any(|c| c.address.ends_with(".free")));
}

#[test]
fn a_module_calling_itself_is_read_once() {
    let root = tempfile::tempdir().unwrap();
    write(
        root.path(),
        "main.tf",
        "resource \"fakecloud_volume\" \"v\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n\nmodule \"again\" {\n  source = \"./\"\n}\n",
    );
    let found = scan_root(root.path()).unwrap();
    assert_eq!(found, [cp("fakecloud_volume.v", "main.tf")]);
}
