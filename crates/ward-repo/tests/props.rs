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
        let _ = WardConfig::parse(&s, "ward.hcl");
    }

    #[test]
    fn yaml(s in "\\PC*") {
        for k in [AnsibleFileKind::Requirements, AnsibleFileKind::Galaxy, AnsibleFileKind::Vars] {
            let _ = read_pins(k, &s, "x.yml");
        }
    }
}
