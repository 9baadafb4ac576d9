//! Version constraints: never a panic, whatever the bytes; what parses reads back the same.
#![no_main]
use libfuzzer_sys::fuzz_target;
use ward_version::{Constraint, Version};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = Version::parse(text);
        if let Ok(c) = Constraint::parse(text) {
            for v in [Version::new(0, 0, 0), Version::new(1, 2, 3), Version::new(u64::MAX, u64::MAX, u64::MAX)] {
                let _ = c.admits(&v);
            }
            let again = Constraint::parse(&c.to_string());
            assert_eq!(again.as_ref(), Ok(&c), "{text:?} does not read back");
        }
    }
});
