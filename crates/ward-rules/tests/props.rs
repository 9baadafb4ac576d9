//! The rule loader never panics and every refusal keeps its promises (file, line that exists,
//! help), on arbitrary text and on random edits of valid rule files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use ward_rules::fuzzing::load_bytes;

const VALID: &str = include_str!("../packs/libvirt.hcl");
const USER: &str = r#"
resource "fakecloud_volume" {
  address    = "module.ledger.*"
  module     = "module.ledger"
  provider   = "ward/fakecloud"
  holds_data = true
  identity   = ["id", "tags[\"k.v\"]"]
  free       = ["tags", "labels.*"]
  attribute "size_gb" {
    impact = "interrupt"
    why    = <<-EOT
      restarts
    EOT
  }
}
"#;

const TOKENS: &[&str] = &[
    "\"",
    "{",
    "}",
    "=",
    "[",
    "]",
    ".",
    "*",
    "\n",
    "#",
    "${x}",
    "holds_dta",
    "impact",
    "\"free\"",
    "\"data-loss\"",
    "true",
    "attribute",
    "resource",
    "pack",
    "\"a[0]\"",
    "\"\"",
    "<<EOT\n",
    "module",
    "\"module.m\"",
    "identity",
    "[\"id\"]",
    ",",
    "\u{e9}",
    "\r\n",
];

fn edit(base: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec(
        (any::<prop::sample::Index>(), 0..4usize, 0..TOKENS.len()),
        1..6,
    )
    .prop_map(move |edits| {
        let mut s = base.to_string();
        for (at, del, tok) in edits {
            let mut i = at.index(s.len() + 1);
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            let mut j = (i + del).min(s.len());
            while !s.is_char_boundary(j) {
                j += 1;
            }
            s.replace_range(i..j, TOKENS[tok]);
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text(text in ".{0,300}") {
        load_bytes(text.as_bytes()).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn edited_packs(text in edit(VALID)) {
        load_bytes(text.as_bytes()).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn edited_user_files(text in edit(USER)) {
        load_bytes(text.as_bytes()).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn the_unedited_inputs_load() {
    load_bytes(VALID.as_bytes()).unwrap();
    let mut k = ward_rules::Knowledge::empty();
    k.load_user_str("ward.hcl", USER).unwrap();
    assert!(ward_rules::Knowledge::from_pack_sources(&[("p.hcl", VALID)]).is_ok());
}
