//! One block of an embedded pack read on its own ([`parse_pack_block`]): the errors the embedded
//! packs never reach (they are valid, and build.rs indexes them right), placed in the file.

use super::{parse_pack_block, OneBlock};
use crate::RuleOrigin;

fn origin() -> RuleOrigin {
    RuleOrigin::Pack {
        name: "a".into(),
        version: "1".into(),
    }
}

#[test]
fn a_syntax_error_in_a_block_is_placed_at_the_files_line() {
    let text = "resource \"a_vm\" {\n  holds_data = \n}\n";
    let at = |base: usize| match parse_pack_block("a.hcl", text, base, &origin()) {
        Err(e) => {
            assert!(e.message.starts_with("not valid HCL"), "{e}");
            assert!(e.help.is_some());
            e.line
        }
        Ok(_) => panic!("a block with a syntax error loads"),
    };
    let own = at(0).unwrap();
    assert!(own >= 2, "line {own}");
    assert_eq!(at(40), Some(own + 40));
    assert_eq!(at(1), Some(own + 1));
}

#[test]
fn a_block_that_is_neither_header_nor_entry_is_an_index_mismatch() {
    for text in [
        "locals {\n  a = 1\n}\n",
        "provider \"a_vm\" {\n}\n",
        "a = 1\n",
        "resource \"a_vm\" {\n}\nresource \"a_disk\" {\n}\n",
    ] {
        match parse_pack_block("a.hcl", text, 9, &origin()) {
            Err(e) => {
                assert!(e.message.contains("the pack index does not match"), "{e}");
                assert_eq!((e.line, e.column), (Some(10), Some(1)), "{e}");
            }
            Ok(OneBlock::Pack(_)) => panic!("{text:?} read as a header"),
            Ok(OneBlock::Resource(_)) => panic!("{text:?} read as an entry"),
        }
    }
}
