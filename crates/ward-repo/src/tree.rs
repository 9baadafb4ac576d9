//! A small syntax tree shared by native HCL (`.tf`, `.tofu`) and JSON (`.tf.json`) files: blocks
//! with labels, attributes with simplified values, and 1-based line numbers.

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::{Body, Structure};
use hcl_edit::template::Element;
use hcl_edit::visit::{visit_traversal, Visit};
use hcl_edit::Span;
use serde::Serialize;

/// A value as far as ward needs to understand it without evaluating Terraform's language.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "kebab-case")]
pub enum Val {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as written.
    Number(String),
    /// A literal string (no interpolation).
    Str(String),
    /// A tuple/list of values.
    List(Vec<Val>),
    /// An object, in source order.
    Map(Vec<(String, Val)>),
    /// Anything that needs evaluation: references, function calls, templates with
    /// interpolation. `text` is the expression as written; `refs` the references it makes
    /// (`aws_instance.web`, `var.x`, `module.m`...).
    Expr {
        /// The expression's source text.
        text: String,
        /// References made by the expression, as `root.attr` pairs (first two steps).
        refs: Vec<String>,
    },
}

impl Val {
    /// The value as a literal string, if it is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a boolean, if it is a literal one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Val::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Looks a key up in an object value.
    pub fn get(&self, key: &str) -> Option<&Val> {
        match self {
            Val::Map(items) => items.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Every reference this value makes, including inside lists and objects.
    pub fn refs(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_refs(&mut out);
        out
    }

    fn collect_refs(&self, out: &mut Vec<String>) {
        match self {
            Val::Expr { refs, .. } => out.extend(refs.iter().cloned()),
            Val::List(items) => items.iter().for_each(|v| v.collect_refs(out)),
            Val::Map(items) => items.iter().for_each(|(_, v)| v.collect_refs(out)),
            _ => {}
        }
    }
}

/// An attribute: `key = value`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attr {
    pub key: String,
    pub value: Val,
    pub line: usize,
}

/// A block: `ident "label" ... { body }`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub ident: String,
    pub labels: Vec<String>,
    pub line: usize,
    pub attrs: Vec<Attr>,
    pub blocks: Vec<Node>,
}

impl Node {
    pub fn attr(&self, key: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.key == key)
    }

    /// Nested blocks named `ident`; for JSON files, also object-valued attributes of that name
    /// turned into blocks (JSON cannot tell them apart).
    pub fn blocks_named<'a>(&'a self, ident: &'a str) -> impl Iterator<Item = &'a Node> + 'a {
        self.blocks.iter().filter(move |b| b.ident == ident)
    }
}

/// Byte offset → 1-based line.
pub(crate) struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Lines { starts }
    }

    pub fn line(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

/// A parse failure with its position.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ParseFailure {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// Parses native HCL text through [`ward_hcl::parse_body`] (its budget first, then hcl-edit):
/// the one way ward-repo parses a `.tf`, `.tofu` or `terragrunt.hcl` file.
pub(crate) fn parse_body(text: &str) -> Result<Body, ParseFailure> {
    ward_hcl::parse_body(text).map_err(|e| ParseFailure {
        line: e.line,
        column: e.column,
        message: e.message,
    })
}

/// Parses native HCL into nodes.
pub(crate) fn parse_hcl(text: &str) -> Result<Vec<Node>, ParseFailure> {
    let body = parse_body(text)?;
    let lines = Lines::new(text);
    Ok(body_blocks(&body, &lines))
}

fn body_blocks(body: &Body, lines: &Lines) -> Vec<Node> {
    body.blocks()
        .map(|b| {
            let (attrs, blocks) = body_parts(&b.body, lines);
            Node {
                ident: b.ident.as_str().to_string(),
                labels: b.labels.iter().map(|l| l.as_str().to_string()).collect(),
                line: line_of(b.span(), lines),
                attrs,
                blocks,
            }
        })
        .collect()
}

fn body_parts(body: &Body, lines: &Lines) -> (Vec<Attr>, Vec<Node>) {
    let mut attrs = Vec::new();
    for s in body.iter() {
        if let Structure::Attribute(a) = s {
            attrs.push(Attr {
                key: a.key.as_str().to_string(),
                value: expr_val(&a.value),
                line: line_of(a.span().or_else(|| a.key.span()), lines),
            });
        }
    }
    (attrs, body_blocks(body, lines))
}

fn line_of(span: Option<std::ops::Range<usize>>, lines: &Lines) -> usize {
    span.map(|r| lines.line(r.start)).unwrap_or(0)
}

struct RefCollector(Vec<String>);

impl Visit for RefCollector {
    fn visit_traversal(&mut self, node: &hcl_edit::expr::Traversal) {
        if let Expression::Variable(root) = &node.expr {
            let mut r = root.as_str().to_string();
            if let Some(op) = node.operators.first() {
                if let TraversalOperator::GetAttr(attr) = op.value() {
                    r.push('.');
                    r.push_str(attr.as_str());
                }
            }
            self.0.push(r);
            for op in &node.operators {
                hcl_edit::visit::visit_traversal_operator(self, op.value());
            }
        } else {
            visit_traversal(self, node);
        }
    }

    fn visit_expr(&mut self, node: &Expression) {
        if let Expression::Variable(v) = node {
            self.0.push(v.as_str().to_string());
        }
        hcl_edit::visit::visit_expr(self, node);
    }
}

fn expr_val(e: &Expression) -> Val {
    match e {
        Expression::Null(_) => Val::Null,
        Expression::Bool(b) => Val::Bool(*b.value()),
        Expression::Number(n) => Val::Number(n.value().to_string()),
        Expression::String(s) => Val::Str(s.value().clone()),
        Expression::Array(a) => Val::List(a.iter().map(expr_val).collect()),
        Expression::Object(o) => Val::Map(
            o.iter()
                .map(|(k, v)| {
                    let key = match k {
                        ObjectKey::Ident(i) => i.as_str().to_string(),
                        ObjectKey::Expression(Expression::String(s)) => s.value().clone(),
                        ObjectKey::Expression(other) => other.to_string().trim().to_string(),
                    };
                    (key, expr_val(v.expr()))
                })
                .collect(),
        ),
        Expression::StringTemplate(t) => {
            if let Some(s) = literal_template(t.iter()) {
                return Val::Str(s);
            }
            expr_text(e)
        }
        Expression::HeredocTemplate(h) => {
            if let Some(s) = literal_template(h.template.iter()) {
                return Val::Str(s);
            }
            expr_text(e)
        }
        Expression::Parenthesis(p) => expr_val(p.inner()),
        _ => expr_text(e),
    }
}

fn literal_template<'a>(mut elems: impl Iterator<Item = &'a Element>) -> Option<String> {
    let mut out = String::new();
    elems.try_for_each(|el| match el {
        Element::Literal(l) => {
            out.push_str(l.value());
            Some(())
        }
        _ => None,
    })?;
    Some(out)
}

fn expr_text(e: &Expression) -> Val {
    let mut c = RefCollector(Vec::new());
    c.visit_expr(e);
    let mut refs = c.0;
    refs.sort();
    refs.dedup();
    Val::Expr {
        text: e.to_string().trim().to_string(),
        refs,
    }
}

// ---------------------------------------------------------------------------------------------
// JSON syntax

/// How many labels each top-level block type takes in the JSON syntax, and the nested block
/// types ward reads inside it.
fn json_schema(ident: &str) -> Option<(usize, &'static [(&'static str, usize)])> {
    Some(match ident {
        "terraform" => (
            0,
            &[
                ("backend", 1),
                ("cloud", 0),
                ("encryption", 0),
                ("required_providers", 0),
            ][..],
        ),
        "resource" | "data" | "ephemeral" => (2, &[("lifecycle", 0)][..]),
        "module" | "provider" | "variable" | "output" => (1, &[][..]),
        "locals" | "moved" | "import" | "removed" | "check" => (0, &[][..]),
        _ => return None,
    })
}

/// Parses the JSON syntax into nodes. serde_json values carry no positions, so a small scanner
/// records the line of every key by its path; a block's line is its last label's key.
pub(crate) fn parse_json(text: &str) -> Result<Vec<Node>, ParseFailure> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| ParseFailure {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let serde_json::Value::Object(top) = v else {
        return Err(ParseFailure {
            line: 1,
            column: 1,
            message: "a .tf.json file must hold a JSON object".to_string(),
        });
    };
    let lines = key_lines(text);
    let mut out = Vec::new();
    for (ident, value) in &top {
        let Some((nlabels, nested)) = json_schema(ident) else {
            continue;
        };
        json_blocks(
            ident,
            value,
            nlabels,
            nested,
            &lines,
            vec![ident.clone()],
            Vec::new(),
            &mut out,
        );
    }
    Ok(out)
}

/// The line of every object key in a (valid) JSON text, by its path from the top: object keys
/// as written, array elements as `[i]`, joined with NUL.
fn key_lines(text: &str) -> std::collections::HashMap<String, usize> {
    struct Frame {
        is_obj: bool,
        elem: String,
        idx: usize,
        expecting_key: bool,
    }
    let b = text.as_bytes();
    let mut out = std::collections::HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => line += 1,
            b'{' | b'[' => {
                let is_obj = b[i] == b'{';
                stack.push(Frame {
                    is_obj,
                    elem: if is_obj {
                        String::new()
                    } else {
                        "[0]".to_string()
                    },
                    idx: 0,
                    expecting_key: is_obj,
                });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(f) = stack.last_mut() {
                    if f.is_obj {
                        f.expecting_key = true;
                    } else {
                        f.idx += 1;
                        f.elem = format!("[{}]", f.idx);
                    }
                }
            }
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let raw = text
                    .get(start..=i.min(b.len().saturating_sub(1)))
                    .unwrap_or("");
                if let Some(f) = stack.last_mut() {
                    if f.is_obj && f.expecting_key {
                        f.elem = serde_json::from_str::<String>(raw)
                            .unwrap_or_else(|_| raw.trim_matches('"').to_string());
                        f.expecting_key = false;
                        let path: Vec<&str> = stack.iter().map(|f| f.elem.as_str()).collect();
                        out.entry(path.join("\u{0}")).or_insert(line);
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn json_blocks(
    ident: &str,
    value: &serde_json::Value,
    labels_left: usize,
    nested: &[(&str, usize)],
    lines: &std::collections::HashMap<String, usize>,
    path: Vec<String>,
    labels: Vec<String>,
    out: &mut Vec<Node>,
) {
    let line_of = |p: &[String]| lines.get(&p.join("\u{0}")).copied().unwrap_or(1);
    match value {
        serde_json::Value::Array(items) => {
            for (i, it) in items.iter().enumerate() {
                let mut p = path.clone();
                p.push(format!("[{i}]"));
                json_blocks(
                    ident,
                    it,
                    labels_left,
                    nested,
                    lines,
                    p,
                    labels.clone(),
                    out,
                );
            }
        }
        serde_json::Value::Object(map) if labels_left > 0 => {
            for (k, v) in map {
                let mut l = labels.clone();
                l.push(k.clone());
                let mut p = path.clone();
                p.push(k.clone());
                json_blocks(ident, v, labels_left - 1, nested, lines, p, l, out);
            }
        }
        serde_json::Value::Object(map) => {
            let mut node = Node {
                ident: ident.to_string(),
                labels,
                line: line_of(&path),
                attrs: Vec::new(),
                blocks: Vec::new(),
            };
            for (k, v) in map {
                let mut p = path.clone();
                p.push(k.clone());
                if let Some((_, n)) = nested.iter().find(|(name, _)| name == k) {
                    json_blocks(k, v, *n, &[], lines, p, Vec::new(), &mut node.blocks);
                } else {
                    node.attrs.push(Attr {
                        key: k.clone(),
                        value: json_val(v),
                        line: line_of(&p),
                    });
                }
            }
            out.push(node);
        }
        _ => {}
    }
}

fn json_val(v: &serde_json::Value) -> Val {
    match v {
        serde_json::Value::Null => Val::Null,
        serde_json::Value::Bool(b) => Val::Bool(*b),
        serde_json::Value::Number(n) => Val::Number(n.to_string()),
        serde_json::Value::String(s) if s.contains("${") || s.contains("%{") => Val::Expr {
            text: s.clone(),
            refs: Vec::new(),
        },
        serde_json::Value::String(s) => Val::Str(s.clone()),
        serde_json::Value::Array(a) => Val::List(a.iter().map(json_val).collect()),
        serde_json::Value::Object(o) => {
            Val::Map(o.iter().map(|(k, v)| (k.clone(), json_val(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_one_based() {
        let l = Lines::new("a\nb\n\nc");
        assert_eq!(l.line(0), 1);
        assert_eq!(l.line(2), 2);
        assert_eq!(l.line(4), 3);
        assert_eq!(l.line(5), 4);
    }

    #[test]
    fn hcl_blocks_attrs_and_lines() {
        let src = "# c\nmodule \"a\" {\n  source = \"git::https://x/y.git?ref=v1\"\n  n = var.x\n}\n\nresource \"t\" \"n\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n";
        let nodes = parse_hcl(src).unwrap();
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0].line, 2);
        assert_eq!(nodes[0].attrs[0].line, 3);
        assert_eq!(
            nodes[0].attrs[0].value.as_str(),
            Some("git::https://x/y.git?ref=v1")
        );
        assert_eq!(nodes[0].attrs[1].value.refs(), vec!["var.x".to_string()]);
        assert_eq!(nodes[1].line, 7);
        assert_eq!(nodes[1].blocks[0].attrs[0].line, 9);
    }

    #[test]
    fn hcl_error_has_line() {
        let e = parse_hcl("a = 1\nb = {\n").unwrap_err();
        assert!(e.line >= 2, "{e:?}");
    }

    #[test]
    fn json_blocks_with_labels() {
        let src = r#"{
  "module": {"m": {"source": "x/y/z", "version": "1.0.0"}},
  "resource": {"aws_s3_bucket": {"b": {"lifecycle": {"prevent_destroy": true}}}},
  "terraform": [{"backend": {"local": {"path": "s.tfstate"}}}]
}"#;
        let nodes = parse_json(src).unwrap();
        let m = nodes.iter().find(|n| n.ident == "module").unwrap();
        assert_eq!(m.labels, vec!["m"]);
        assert_eq!(m.line, 2);
        let r = nodes.iter().find(|n| n.ident == "resource").unwrap();
        assert_eq!(r.labels, vec!["aws_s3_bucket", "b"]);
        assert_eq!(r.blocks[0].ident, "lifecycle");
        let t = nodes.iter().find(|n| n.ident == "terraform").unwrap();
        assert_eq!(t.blocks[0].labels, vec!["local"]);
        assert_eq!(t.blocks[0].attrs[0].line, 4);
    }

    #[test]
    fn json_lines_follow_paths() {
        let src = "{\n \"module\": {\n  \"a\": {\"source\": \"x/a/b\"},\n  \"b\": {\n   \"source\": \"x/c/d\"\n  }\n },\n \"resource\": [{\"t\": {\"n\": {}}}, {\"t\": {\n \"m\": {}}}]\n}";
        let nodes = parse_json(src).unwrap();
        let lines: Vec<(String, usize, usize)> = nodes
            .iter()
            .map(|n| {
                (
                    n.labels.join("."),
                    n.line,
                    n.attrs.first().map(|a| a.line).unwrap_or(0),
                )
            })
            .collect();
        assert!(lines.contains(&("a".to_string(), 3, 3)), "{lines:?}");
        assert!(lines.contains(&("b".to_string(), 4, 5)), "{lines:?}");
        assert!(lines.contains(&("t.n".to_string(), 8, 0)), "{lines:?}");
        assert!(lines.contains(&("t.m".to_string(), 9, 0)), "{lines:?}");
    }
}
