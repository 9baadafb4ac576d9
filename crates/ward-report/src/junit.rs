//! The one JUnit XML writer, for every command that reports as test cases (`ward drift`: one
//! case per root; `ward check`: one suite per rule, one case per finding).
//!
//! The document is deterministic (cases in the order given) and always well-formed: every text
//! and attribute goes through [`xml`].

use crate::escape::is_unsafe;
use std::fmt::Write as _;

/// A whole document: `<testsuites>` with its suites.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    /// The `name` of `<testsuites>` (`ward drift`, `ward check`).
    pub name: String,
    /// The suites, in order.
    pub suites: Vec<Suite>,
}

/// One `<testsuite>`; its `tests`, `failures` and `skipped` are counted from its cases.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Suite {
    /// The suite's name.
    pub name: String,
    /// `<properties>`: name and value pairs, in order (none: no element).
    pub properties: Vec<(String, String)>,
    /// The cases, in order.
    pub cases: Vec<Case>,
}

/// One `<testcase>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// `classname`.
    pub classname: String,
    /// `name`.
    pub name: String,
    /// `time` in seconds (printed with three decimals), when the run measured it.
    pub time: Option<f64>,
    /// What happened.
    pub result: CaseResult,
}

/// What happened to a test case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaseResult {
    /// Passed, nothing to say: an empty `<testcase/>`.
    Passed,
    /// Passed, with something to say: `<system-out>`.
    Output(String),
    /// Failed: `<failure type=… message=…>text</failure>`.
    Failure {
        /// `type`, when there is one.
        kind: Option<String>,
        /// `message`.
        message: String,
        /// The element's text (may be empty).
        text: String,
    },
    /// Skipped: `<skipped message=…/>`.
    Skipped(String),
}

impl Suite {
    fn count(&self, f: impl Fn(&CaseResult) -> bool) -> usize {
        self.cases.iter().filter(|c| f(&c.result)).count()
    }

    fn failures(&self) -> usize {
        self.count(|r| matches!(r, CaseResult::Failure { .. }))
    }

    fn skipped(&self) -> usize {
        self.count(|r| matches!(r, CaseResult::Skipped(_)))
    }
}

/// Text for XML text and attribute values: `& < > " '` as entities; control characters (but
/// newline and tab) and bidi/line-separator characters shown as visible escapes (`\u{1b}`), since
/// most of them are not even allowed in XML 1.0.
pub fn xml(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            '\n' | '\t' => o.push(c),
            c if is_unsafe(c) => o.extend(c.escape_default()),
            c => o.push(c),
        }
    }
    o
}

/// Writes the document, ending with a newline.
pub fn render(doc: &Document) -> String {
    let tests: usize = doc.suites.iter().map(|s| s.cases.len()).sum();
    let failures: usize = doc.suites.iter().map(Suite::failures).sum();
    let skipped: usize = doc.suites.iter().map(Suite::skipped).sum();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" skipped=\"{skipped}\">",
        xml(&doc.name)
    );
    for suite in &doc.suites {
        let _ = writeln!(
            s,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">",
            xml(&suite.name),
            suite.cases.len(),
            suite.failures(),
            suite.skipped()
        );
        if !suite.properties.is_empty() {
            s.push_str("    <properties>");
            for (k, v) in &suite.properties {
                let _ = write!(s, "<property name=\"{}\" value=\"{}\"/>", xml(k), xml(v));
            }
            s.push_str("</properties>\n");
        }
        for c in &suite.cases {
            case(&mut s, c);
        }
        s.push_str("  </testsuite>\n");
    }
    s.push_str("</testsuites>\n");
    s
}

fn case(s: &mut String, c: &Case) {
    let _ = write!(
        s,
        "    <testcase classname=\"{}\" name=\"{}\"",
        xml(&c.classname),
        xml(&c.name)
    );
    if let Some(t) = c.time {
        let _ = write!(s, " time=\"{t:.3}\"");
    }
    match &c.result {
        CaseResult::Passed => s.push_str("/>\n"),
        CaseResult::Output(text) => {
            let _ = writeln!(s, "><system-out>{}</system-out></testcase>", xml(text));
        }
        CaseResult::Failure {
            kind,
            message,
            text,
        } => {
            s.push_str("><failure");
            if let Some(k) = kind {
                let _ = write!(s, " type=\"{}\"", xml(k));
            }
            let _ = writeln!(
                s,
                " message=\"{}\">{}</failure></testcase>",
                xml(message),
                xml(text)
            );
        }
        CaseResult::Skipped(message) => {
            let _ = writeln!(s, "><skipped message=\"{}\"/></testcase>", xml(message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document() {
        let doc = Document {
            name: "ward x".into(),
            suites: vec![Suite {
                name: "s <1>".into(),
                properties: vec![("k".into(), "v\"".into())],
                cases: vec![
                    Case {
                        classname: "c".into(),
                        name: "ok".into(),
                        time: Some(1.5),
                        result: CaseResult::Passed,
                    },
                    Case {
                        classname: "c".into(),
                        name: "bad\u{1b}[1A".into(),
                        time: None,
                        result: CaseResult::Failure {
                            kind: Some("error".into()),
                            message: "m & n".into(),
                            text: "line 1\nline 2".into(),
                        },
                    },
                    Case {
                        classname: "c".into(),
                        name: "skip".into(),
                        time: None,
                        result: CaseResult::Skipped("why".into()),
                    },
                ],
            }],
        };
        assert_eq!(
            render(&doc),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<testsuites name=\"ward x\" tests=\"3\" failures=\"1\" skipped=\"1\">\n  \
<testsuite name=\"s &lt;1&gt;\" tests=\"3\" failures=\"1\" skipped=\"1\">\n    \
<properties><property name=\"k\" value=\"v&quot;\"/></properties>\n    \
<testcase classname=\"c\" name=\"ok\" time=\"1.500\"/>\n    \
<testcase classname=\"c\" name=\"bad\\u{1b}[1A\"><failure type=\"error\" message=\"m &amp; n\">line 1\nline 2</failure></testcase>\n    \
<testcase classname=\"c\" name=\"skip\"><skipped message=\"why\"/></testcase>\n  \
</testsuite>\n</testsuites>\n"
        );
    }
}
