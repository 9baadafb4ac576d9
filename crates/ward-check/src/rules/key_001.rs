//! WARD-KEY-001: Key material written in configuration.

use super::prelude::*;

/// WARD-KEY-001's metadata, documentation and check.
pub const RULE: Rule = Rule {
    id: RuleId::Key001,
    name: "key-material-committed",
    title: "Key material written in configuration",
    severity: Severity::Error,
    category: Category::Secrets,
    needs_terraform: false,
    opt_in: None,
    options: &[],
    note: Some(19),
    doc: "A private key (PEM/OpenSSH/PGP block) or a cloud or forge token (AWS access key id, GitHub, GitLab, Slack, Google API, DigitalOcean, Stripe live key...) is written literally in a `.tf`, `.tfvars` or template file. Anything in the repository reaches every clone, CI log and backup; an SSH private key was once found in a profile's cloud-init user-data. Move the secret to a secret store or a variable marked sensitive and rotate it: it has been exposed. ward never prints the value, only its kind and place.",
    fix: "Move the secret to a secret store or a variable marked sensitive, and rotate it: it has been exposed.",
    waive: "A documented placeholder (containing `EXAMPLE` or `XXXXXXXX`) is not reported.",
    fails: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-KEY-001/fail/main.tf"),
        },
        // The key material itself is elided here (the documentation would be one more copy of
        // it); the fixture holds it.
        Example {
            path: "prod.tfvars",
            text: "access_key = \"AKIA...\" # an AWS access key id: AKIA and 16 more characters (elided)\n",
        },
        Example {
            path: "templates/cloud-init.yaml.tftpl",
            text: "#cloud-config\nwrite_files:\n  - path: /root/.ssh/id_ed25519\n    content: |\n      (an OpenSSH private key block, BEGIN to END lines, elided)\n",
        },
    ],
    passes: &[
        Example {
            path: "main.tf",
            text: include_str!("../../tests/fixtures/rules/WARD-KEY-001/pass/main.tf"),
        },
        Example {
            path: "prod.tfvars",
            text: include_str!("../../tests/fixtures/rules/WARD-KEY-001/pass/prod.tfvars"),
        },
        Example {
            path: "templates/cloud-init.yaml.tftpl",
            text: include_str!("../../tests/fixtures/rules/WARD-KEY-001/pass/templates/cloud-init.yaml.tftpl"),
        },
    ],
    in_examples: (InExample::Keep, "key material committed is a leak wherever it lies"),
    check: Check::Pass("the text pass of `check()` (lib.rs): each text file is read once, for key material (`crate::scan::key_material`) and for suppressions"),
};
