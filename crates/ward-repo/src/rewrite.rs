//! Rewriting module sources in a configuration file's text, for checks that run Terraform on a
//! copy of a directory away from its place (generated roots): local sources (`./x`, `../x`) are
//! relative to the place, so they must be made to point at the same directories from the copy.

use hcl_edit::expr::Expression;
use hcl_edit::structure::Structure;
use hcl_edit::Span;

/// `text` with the `source` of every `module` block that is a local path (`./`, `../`) replaced
/// by `to(source)`, when it returns `Some`; everything else byte for byte as it was. `Err` when
/// the text is not HCL (with the parser's message).
pub fn rewrite_local_sources(
    text: &str,
    to: impl Fn(&str) -> Option<String>,
) -> Result<String, String> {
    let body = crate::tree::parse_body(text)
        .map_err(|e| format!("not valid HCL at line {}: {}", e.line, e.message))?;
    let mut edits: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    for s in body.iter() {
        let Structure::Block(b) = s else { continue };
        if b.ident.as_str() != "module" {
            continue;
        }
        for inner in b.body.iter() {
            let Structure::Attribute(a) = inner else {
                continue;
            };
            if a.key.as_str() != "source" {
                continue;
            }
            let Expression::String(v) = &a.value else {
                continue;
            };
            let src = v.value().as_str();
            if !(src.starts_with("./") || src.starts_with("../")) {
                continue;
            }
            let (Some(span), Some(new)) = (a.value.span(), to(src)) else {
                continue;
            };
            let quoted = format!(
                "\"{}\"",
                new.replace('\\', "\\\\")
                    .replace('"', "\\\"")
                    .replace("${", "$${")
                    .replace("%{", "%%{")
            );
            edits.push((span, quoted));
        }
    }
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = text.to_string();
    for (r, new) in edits {
        if out.get(r.clone()).is_some() {
            out.replace_range(r, &new);
        }
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn local_sources_only() {
        let t = "module \"a\" {\n  source = \"../modules/net\" # the network\n  cidr   = \"10.0.0.0/16\"\n}\n\nmodule \"b\" {\n  source  = \"acme/vpc/aws\"\n  version = \"1.0.0\"\n}\nresource \"x\" \"y\" {\n  source = \"./not-a-module\"\n}\n";
        let got = rewrite_local_sources(t, |s| {
            Some(format!("/copy/{}", s.trim_start_matches("../")))
        })
        .unwrap();
        assert_eq!(
            got,
            t.replace("\"../modules/net\"", "\"/copy/modules/net\"")
        );
        assert_eq!(rewrite_local_sources(t, |_| None).unwrap(), t);
        assert!(rewrite_local_sources("module {", |_| None).is_err());
    }
}
