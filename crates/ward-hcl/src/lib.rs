//! ward's one way to parse native HCL text (`.tf`, `.tofu`, `terragrunt.hcl`, `ward.hcl`, rule
//! files): [`parse_body`] runs the lexical budget of [`budget`] first, then hcl-edit's parser.
//!
//! Every crate that reads HCL (ward-repo, ward-config, ward-rules) parses through here, so the
//! budget holds for every file ward reads, and a parse failure has one shape: [`ParseError`],
//! with a 1-based line and column and a message that says what was wrong.
//!
//! The parsed tree is then read through [`read`]: the one typed reader ([`Reader`]: keys checked
//! against what a body takes, strings, booleans, numbers, lists, labels, every error at
//! `file:line:column` with what to write instead) and the one [`did_you_mean`].

pub mod budget;
mod error;
pub mod read;

pub use error::ParseError;
pub use read::{did_you_mean, list, Fields, ReadError, Reader, Spanned};

pub use hcl_edit::expr::Expression;
pub use hcl_edit::structure::Body;

/// Parses native HCL text into hcl-edit's syntax tree, once it has passed [`budget::check`].
pub fn parse_body(text: &str) -> Result<Body, ParseError> {
    budget::check(text)?;
    hcl_edit::parser::parse_body(text).map_err(from_parser)
}

/// Parses one native HCL expression, once it has passed [`budget::check`].
pub fn parse_expr(text: &str) -> Result<Expression, ParseError> {
    budget::check(text)?;
    hcl_edit::parser::parse_expr(text).map_err(from_parser)
}

/// hcl-edit's error as a [`ParseError`].
fn from_parser(e: hcl_edit::parser::Error) -> ParseError {
    ParseError {
        line: e.location().line(),
        column: e.location().column(),
        message: e.message().to_string(),
        near: e.line().trim().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_body_parses() {
        let body = parse_body("a = 1\nb { c = [1, (2)] }\n");
        assert!(matches!(body, Ok(b) if b.blocks().count() == 1));
    }

    #[test]
    fn too_many_left_open_is_refused_by_the_budget_with_its_position() {
        let text = format!("a = {}\n", "1+(".repeat(budget::MAX_OPEN + 1));
        let e = parse_body(&text).err();
        assert!(
            matches!(&e, Some(e) if e.message.contains("still open") && e.line == 1
                && e.near == text.trim()),
            "{e:?}"
        );
    }

    #[test]
    fn an_expression_left_open_too_deep_is_refused_too() {
        let text = "f(".repeat(budget::MAX_OPEN + 1);
        assert!(matches!(parse_expr(&text), Err(e) if e.message.contains("still open")));
        assert!(parse_expr("module.m.a_b.c[\"k\"]").is_ok());
    }

    #[test]
    fn a_few_left_open_keep_the_parser_message() {
        let text = format!("a = {}\n", "1+(".repeat(2));
        let e = parse_body(&text).err();
        assert!(
            matches!(&e, Some(e) if !e.message.contains("still open")),
            "{e:?}"
        );
    }
}
