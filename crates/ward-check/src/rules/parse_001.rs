//! WARD-PARSE-001: File cannot be parsed.

use super::prelude::*;

/// WARD-PARSE-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Parse001,
    name: "unparsable-file",
    title: "File cannot be parsed",
    severity: Severity::Error,
    category: Category::Discovery,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(5),
    doc: "A `.tf`, `.tofu`, `.tf.json` or Ansible YAML file cannot be parsed. Terraform would refuse it at `init`; ward reports the file and line instead of skipping the directory, because a skipped directory is a directory nothing checked.",
    fix: "Fix the syntax at the line reported (`terraform validate` shows the same error).",
    waive: "",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-PARSE-001/fail/main.tf"),
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-PARSE-001/pass/main.tf"),
        },
    ],
    in_examples: (InExample::Cap, ""),
    check: Check::Each(check),
};

/// Every file ward could not parse.
fn check(cx: &mut Cx<'_>) -> Result<(), String> {
    for p in &cx.repo.problems {
        let mut msg = p.message.lines().next().unwrap_or("").to_string();
        if p.column > 0 {
            msg = format!("column {}: {msg}", p.column);
        }
        cx.out.push(at(RuleId::Parse001, &p.loc, format!("cannot parse: {msg}")));
    }
    Ok(())
}
