//! `ward docs [TOPIC]`: the documents ward's messages point to, embedded in the binary, so every
//! pointer resolves wherever ward is installed (not only in its source tree).

use crate::error::CliError;
use ward_report::Exit;

/// Every embedded document: (topic, contents). Messages name them as `ward docs TOPIC`.
pub const TOPICS: &[(&str, &str)] = &[
    (
        "authoritative",
        include_str!("../../../docs/authoritative.md"),
    ),
    ("check-rules", include_str!("../../../docs/check-rules.md")),
    ("cli", include_str!("../../../docs/cli.md")),
    ("config", include_str!("../../../docs/config.md")),
    ("dashboard", include_str!("../../../docs/dashboard.md")),
    ("drift", include_str!("../../../docs/drift.md")),
    ("exit-codes", include_str!("../../../docs/exit-codes.md")),
    ("gate", include_str!("../../../docs/gate.md")),
    ("import", include_str!("../../../docs/import.md")),
    ("json-schema", include_str!("../../../docs/json-schema.md")),
    ("packs", include_str!("../../../docs/packs.md")),
    ("performance", include_str!("../../../docs/performance.md")),
    ("rules", include_str!("../../../docs/rules.md")),
    ("stack", include_str!("../../../docs/stack.md")),
];

/// Arguments of `ward docs`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The document to print; without one, the list of documents.
    #[arg(value_name = "TOPIC")]
    topic: Option<String>,
}

/// Runs `ward docs`.
pub fn run(args: &Args) -> Result<Exit, CliError> {
    let Some(topic) = args.topic.as_deref() else {
        println!("ward docs TOPIC prints one of:");
        for (name, text) in TOPICS {
            let title = text
                .lines()
                .find_map(|l| l.strip_prefix("# "))
                .unwrap_or("");
            println!("  {name:<12} {}", ward_report::escape::terminal(title));
        }
        return Ok(Exit::Pass);
    };
    let topic = topic.trim_start_matches("docs/").trim_end_matches(".md");
    match TOPICS.iter().find(|(n, _)| *n == topic) {
        Some((_, text)) => {
            print!("{text}");
            Ok(Exit::Pass)
        }
        None => {
            let names: Vec<&str> = TOPICS.iter().map(|(n, _)| *n).collect();
            let close = ward_rules::hcl::did_you_mean(topic, &names)
                .map(|n| format!("did you mean `{n}`? "))
                .unwrap_or_default();
            Err(
                CliError::new(format!("no document `{topic}`")).hint(format!(
                    "{close}`ward docs` lists them: {}",
                    names.join(", ")
                )),
            )
        }
    }
}
