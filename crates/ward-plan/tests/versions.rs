//! `format_version` is `MAJOR.MINOR` in ASCII digits, major 0 or 1, and nothing else: a sign,
//! a third part, a space or an empty part is refused (ward fails closed rather than guess).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_plan::{read_reader, PlanErrorKind};

fn read_version(v: &str) -> Result<String, PlanErrorKind> {
    let text = format!(r#"{{"format_version": "{v}", "planned_values": {{}}}}"#);
    read_reader(text.as_bytes(), "plan.json")
        .map(|p| p.format_version.to_string())
        .map_err(|e| e.kind())
}

#[test]
fn only_major_dot_minor_in_ascii_digits_is_a_format_version() {
    for v in [
        "1.+2", "+1.2", "1.-2", "1.2.3", "1.", ".1", ".", " 1.2", "1.2 ", "1.x", "x.1", "1_0.1",
        "١.٢",
    ] {
        assert_eq!(
            read_version(v),
            Err(PlanErrorKind::UnsupportedFormatVersion),
            "{v}"
        );
    }
    for (v, read) in [
        ("0.0", "0.0"),
        ("0.2", "0.2"),
        ("1.0", "1.0"),
        ("1.15", "1.15"),
    ] {
        assert_eq!(read_version(v).as_deref(), Ok(read), "{v}");
    }
    for v in ["2.0", "3.1", "10.0", "99999999999999999999.0"] {
        assert_eq!(
            read_version(v),
            Err(PlanErrorKind::UnsupportedFormatVersion),
            "{v}"
        );
    }
}
