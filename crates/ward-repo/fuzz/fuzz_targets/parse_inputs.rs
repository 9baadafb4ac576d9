//! ward.hcl, Ansible YAML and module sources: never a panic, whatever the bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ward_repo::ansible::{read_pins, AnsibleFileKind};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ward_config::Config::parse(text, "ward.hcl", std::path::Path::new("."));
        for k in [AnsibleFileKind::Requirements, AnsibleFileKind::Galaxy, AnsibleFileKind::Vars, AnsibleFileKind::IniInventory] {
            let _ = read_pins(k, text, "x.yml");
        }
        let _ = ward_repo::ModuleSource::parse(text).package();
    }
});
