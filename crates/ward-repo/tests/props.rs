//! The parsers never panic, whatever the input.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use ward_repo::ansible::{read_pins, AnsibleFileKind};
use ward_repo::source::{classify_ref_by_shape, named_version};
use ward_repo::{ModuleSource, WardConfig};

proptest! {
    #[test]
    fn module_sources(s in "\\PC*") {
        let m = ModuleSource::parse(&s);
        let _ = m.package();
        let _ = classify_ref_by_shape(&s);
        let _ = named_version(&s);
    }

    #[test]
    fn source_like(s in "(git::)?(https://|git@|ssh://)?[a-z.:/@_-]{0,30}(//[a-z/]{0,10})?(\\?ref=[a-z0-9./-]{0,12})?") {
        let _ = ModuleSource::parse(&s).package();
    }

    #[test]
    fn ward_hcl(s in "\\PC*") {
        let _ = WardConfig::parse(&s, "ward.hcl", std::path::Path::new("."));
    }

    #[test]
    fn yaml(s in "\\PC*") {
        for k in [AnsibleFileKind::Requirements, AnsibleFileKind::Galaxy, AnsibleFileKind::Vars, AnsibleFileKind::IniInventory] {
            let _ = read_pins(k, &s, "x.yml");
        }
    }
}

proptest! {
    #[test]
    fn terraform_files(s in "\\PC*") {
        let _ = ward_repo::parse_file_text("m/main.tf", &s);
        let _ = ward_repo::parse_file_text("m/main.tf.json", &s);
    }

    #[test]
    fn terraform_like(s in "(resource|module|terraform|provider|data) (\"[a-z_]{0,6}\" ){0,2}\\{[a-z_ =\"{}\\[\\]\n.$/:?0-9-]{0,60}\\}?") {
        let _ = ward_repo::parse_file_text("m/main.tf", &s);
    }
}
