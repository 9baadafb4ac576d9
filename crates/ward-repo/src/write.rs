//! Writing Terraform configuration: HCL built as an hcl-edit syntax tree and printed by one
//! formatter, the way `terraform fmt` lays it out (two-space indents, a blank line around
//! blocks, objects and arrays one item a line), except that `=` signs are not aligned. Nothing is
//! pasted together as text: strings are escaped (quotes, control characters, `${` and `%{`) by
//! hcl-edit's encoder, and every expression is one hcl-edit parsed or built.
//!
//! ```
//! use ward_repo::write::{Attribute, Block, Body, Ident};
//! let mut body = Body::new();
//! body.push(
//!     Block::builder(Ident::new("import"))
//!         .attribute(Attribute::new(Ident::new("to"), ward_repo::write::expression("a_b.c")))
//!         .attribute(Attribute::new(Ident::new("id"), ward_repo::write::string("x-1")))
//!         .build(),
//! );
//! assert_eq!(ward_repo::write::format(&body), "import {\n  to = a_b.c\n  id = \"x-1\"\n}\n");
//! ```

use hcl_edit::expr::{Array, Object, ObjectKey, ObjectValue};
use hcl_edit::structure::{BlockLabel, Structure};
use hcl_edit::Number;

/// The syntax-tree types a configuration is built from (hcl-edit's), so a writer needs no HCL
/// library of its own.
pub use hcl_edit::expr::Expression;
pub use hcl_edit::structure::{Attribute, Block, Body};
pub use hcl_edit::Ident;
use serde_json::Value;
use std::fmt::Write as _;

const INDENT: &str = "  ";

/// `key = value`; a key that is not an identifier is sanitized into one.
pub fn attr(key: &str, value: Expression) -> Attribute {
    Attribute::new(Ident::new_sanitized(key), value)
}

/// Whether `k` is an HCL identifier (so `each.value.k` can name it).
pub fn is_identifier(k: &str) -> bool {
    Ident::try_new(k).is_ok()
}

/// `body` formatted: attributes one a line, a blank line between a block and what comes before
/// or after it, nested bodies, objects and arrays indented by two spaces.
pub fn format(body: &Body) -> String {
    let mut out = String::new();
    write_body(&mut out, body, 0);
    out
}

fn write_body(out: &mut String, body: &Body, depth: usize) {
    let mut previous: Option<bool> = None; // Some(is_block) of the last structure written
    for s in body.iter() {
        let is_block = matches!(s, Structure::Block(_));
        if previous.is_some_and(|was_block| was_block || is_block) {
            out.push('\n');
        }
        previous = Some(is_block);
        indent(out, depth);
        match s {
            Structure::Attribute(a) => {
                out.push_str(a.key.as_str());
                out.push_str(" = ");
                write_expr(out, &a.value, depth);
                out.push('\n');
            }
            Structure::Block(b) => {
                out.push_str(b.ident.as_str());
                for label in &b.labels {
                    match label {
                        BlockLabel::Ident(i) => {
                            let _ = write!(out, " {}", i.as_str());
                        }
                        BlockLabel::String(l) => {
                            out.push(' ');
                            out.push_str(&quoted(l.as_str()));
                        }
                    }
                }
                out.push_str(" {\n");
                write_body(out, &b.body, depth + 1);
                indent(out, depth);
                out.push_str("}\n");
            }
        }
    }
}

fn write_expr(out: &mut String, e: &Expression, depth: usize) {
    match e {
        Expression::Object(o) if !o.is_empty() => {
            out.push_str("{\n");
            for (k, v) in o.iter() {
                indent(out, depth + 1);
                match k {
                    ObjectKey::Ident(i) => out.push_str(i.as_str()),
                    ObjectKey::Expression(x) => write_expr(out, x, depth + 1),
                }
                out.push_str(" = ");
                write_expr(out, v.expr(), depth + 1);
                out.push('\n');
            }
            indent(out, depth);
            out.push('}');
        }
        Expression::Object(_) => out.push_str("{}"),
        Expression::Array(a) if !a.is_empty() => {
            out.push_str("[\n");
            for (i, v) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n");
                }
                indent(out, depth + 1);
                write_expr(out, v, depth + 1);
            }
            out.push('\n');
            indent(out, depth);
            out.push(']');
        }
        Expression::Array(_) => out.push_str("[]"),
        // Scalars, traversals, function calls: hcl-edit's own encoding (strings escaped).
        other => {
            let _ = write!(out, "{}", other.to_string().trim());
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str(INDENT);
    }
}

/// A string literal (escaped when printed: never a template).
pub fn string(s: &str) -> Expression {
    Expression::from(s)
}

/// `s` as the writer prints a string literal or a block label: quoted, with quotes,
/// backslashes, control characters, `${` and `%{` escaped, so it stays one string wherever the
/// text is pasted (ward-classify's paste-ready `resource` blocks label theirs with it).
pub fn quoted(s: &str) -> String {
    string(s).to_string()
}

/// The expression `text` (an address such as `module.m.a_b.c["k"]`, `each.value`, a function
/// call), parsed through ward-hcl (its budget first); a string literal of it when it is not an
/// HCL expression, so the output stays valid.
pub fn expression(text: &str) -> Expression {
    ward_hcl::parse_expr(text).unwrap_or_else(|_| string(text))
}

/// An object key: the bare name when it is an identifier without `-` (which Terraform would
/// read as subtraction in some places), else the quoted string.
pub fn key(k: &str) -> ObjectKey {
    match Ident::try_new(k) {
        Ok(i) if !k.contains('-') => ObjectKey::Ident(i.into()),
        _ => ObjectKey::Expression(string(k)),
    }
}

/// An object from `(key, value)` pairs, in the order given.
pub fn object(items: impl IntoIterator<Item = (String, Expression)>) -> Expression {
    let mut o = Object::new();
    for (k, v) in items {
        o.insert(key(&k), ObjectValue::new(v));
    }
    Expression::Object(o)
}

/// A JSON value as an HCL expression: objects with [`key`] keys in their order, arrays, strings
/// (literal), numbers, booleans and null.
pub fn json(v: &Value) -> Expression {
    match v {
        Value::Null => Expression::null(),
        Value::Bool(b) => Expression::from(*b),
        Value::Number(n) => n
            .as_i64()
            .map(Number::from)
            .or_else(|| n.as_u64().map(Number::from))
            .or_else(|| n.as_f64().and_then(Number::from_f64))
            .map_or(Expression::null(), Expression::from),
        Value::String(s) => string(s),
        Value::Array(a) => Expression::Array(a.iter().map(json).collect::<Array>()),
        Value::Object(m) => object(m.iter().map(|(k, v)| (k.clone(), json(v)))),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use hcl_edit::structure::{Attribute, Block};
    use serde_json::json as j;

    fn attr(k: &str, v: Expression) -> Attribute {
        Attribute::new(Ident::new(k), v)
    }

    #[test]
    fn blocks_objects_and_arrays_are_laid_out_like_terraform_fmt() {
        let mut body = Body::new();
        body.push(attr("top", string("x")));
        body.push(
            Block::builder(Ident::new("resource"))
                .label("a_b")
                .label("c")
                .attribute(attr(
                    "tags",
                    json(&j!({"b-c": "1", "a": {"x": [1, true, null]}, "e": {}, "f": []})),
                ))
                .attribute(attr("n", expression("lookup(each.value, \"n\", null)")))
                .build(),
        );
        body.push(attr("after", json(&j!(2.5))));
        let text = format(&body);
        assert_eq!(
            text,
            "top = \"x\"\n\nresource \"a_b\" \"c\" {\n  tags = {\n    a = {\n      x = [\n        1,\n        true,\n        null\n      ]\n    }\n    \"b-c\" = \"1\"\n    e = {}\n    f = []\n  }\n  n = lookup(each.value, \"n\", null)\n}\n\nafter = 2.5\n"
        );
        // What it writes, hcl-edit reads back.
        assert!(hcl_edit::parser::parse_body(&text).is_ok(), "{text}");
    }

    #[test]
    fn strings_are_literal_and_bad_expressions_become_strings() {
        let mut body = Body::new();
        body.push(attr("s", string("${evil} %{x} \"q\"\n")));
        body.push(attr("t", expression("not an ( expression")));
        let text = format(&body);
        assert_eq!(
            text,
            "s = \"$${evil} %%{x} \\\"q\\\"\\n\"\nt = \"not an ( expression\"\n"
        );
        assert!(hcl_edit::parser::parse_body(&text).is_ok(), "{text}");
    }
}
