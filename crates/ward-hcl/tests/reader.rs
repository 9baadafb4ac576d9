//! The public edges of ward-hcl's typed reader and its did-you-mean, as the crates reading HCL
//! through it (ward-config, ward-rules) and the commands suggesting a word (ward-stack, ward-cli,
//! ward-check) call them. Moved from ward-rules' tests/edges.rs with the reader (written there
//! against cargo-mutants' missed mutants: docs/testing.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_hcl::{did_you_mean, list, Reader};

/// hcl-edit's parser gives a literal-only string as `Expression::String`; a caller of the
/// public reader may hand it a template built of literals, which is as plain.
#[test]
fn a_template_of_literals_only_is_a_plain_string() {
    use hcl_edit::expr::Expression;
    use hcl_edit::template::{Element, Interpolation, StringTemplate};
    let r = Reader::new("ward.hcl", "");
    let plain = Expression::StringTemplate(StringTemplate::from(vec![
        Element::from("costs "),
        Element::from("nothing"),
    ]));
    assert_eq!(r.string_expr(&plain, "summary").unwrap(), "costs nothing");
    let interpolated = Expression::StringTemplate(StringTemplate::from(vec![
        Element::from("costs "),
        Element::from(Interpolation::new(Expression::from("x"))),
    ]));
    let e = r.string_expr(&interpolated, "summary").unwrap_err();
    assert!(
        e.message.contains("`summary` must be a plain string"),
        "{e}"
    );
}

#[test]
fn suggestions_are_for_typos_and_prefixes_only() {
    let keys = ["holds_data", "on_update", "final_snapshot_skip", "warning"];
    assert_eq!(did_you_mean("holds_dta", &keys), Some("holds_data"));
    // A prefix of three letters or more names the word it starts.
    assert_eq!(did_you_mean("warn", &["warning"]), Some("warning"));
    assert_eq!(did_you_mean("war", &["warning"]), Some("warning"));
    assert_eq!(did_you_mean("wa", &["warning"]), None);
    // A word as far from every key as it is long is no typo of any.
    assert_eq!(did_you_mean("ab", &["xy"]), None);
    assert_eq!(did_you_mean("zzzzzzzzzzzz", &keys), None);
    assert_eq!(did_you_mean("qqqqqqqqq", &["holds_data"]), None);
    // Six edits from a 10-letter key is too many, however long the word.
    assert_eq!(did_you_mean("holds_XXXXXX", &["holds_data"]), None);
    assert_eq!(
        did_you_mean("holds_dXta", &["holds_data"]),
        Some("holds_data")
    );
    // A long key allows a quarter of its length in edits: 4 of final_snapshot_skip's 19.
    assert_eq!(
        did_you_mean("final_snapXXXX_skip", &keys),
        Some("final_snapshot_skip")
    );
    assert_eq!(did_you_mean("final_sXXXXXX_skip", &keys), None);
    // A 12-letter key allows 3, not 2.
    assert_eq!(
        did_you_mean("access_XXXes", &["access_rules"]),
        Some("access_rules")
    );
}

#[test]
fn a_list_of_words_is_quoted_and_comma_separated() {
    assert_eq!(list(&["free", "in-place"]), "`free`, `in-place`");
    assert_eq!(list(&["one"]), "`one`");
    assert_eq!(list(&[]), "");
}

#[test]
fn the_reader_cites_its_file_and_places_spans() {
    let text = "a = 1\nbb = 2\n  c = 3\n";
    let r = Reader::new("ward.hcl", text);
    assert_eq!(r.file(), "ward.hcl");
    assert_eq!(r.pos(Some(0..1)), Some((1, 1)));
    assert_eq!(r.pos(Some(8..9)), Some((2, 3)));
    assert_eq!(r.pos(Some(15..16)), Some((3, 3)));
    assert_eq!(r.pos(None), None);
    let e = r.err(Some(15..16), "bad");
    assert_eq!(
        (e.file.as_str(), e.line, e.column),
        ("ward.hcl", Some(3), Some(3))
    );
}
