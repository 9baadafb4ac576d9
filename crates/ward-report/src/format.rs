//! The report formats, and which of them each command writes: the one list every command's
//! `--format` is read from (ward-cli builds its one clap parser from [`Command::offers`], so
//! `--help` and a wrong value's error name exactly the formats a command writes).
//!
//! A renderer given a format its command does not write returns [`Unsupported`]; the command
//! line never lets one through.

use std::fmt;

/// A report format. Which commands write which is [`Command::offers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Format {
    /// For people at a terminal; coloured only when the caller says so.
    #[default]
    Terminal,
    /// For machines: each command's JSON has its own `schema_version`.
    Json,
    /// For a pull-request comment.
    Markdown,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// JUnit XML, for CI test reports.
    Junit,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 5] = [
        Format::Terminal,
        Format::Json,
        Format::Markdown,
        Format::Sarif,
        Format::Junit,
    ];

    /// Old spellings still accepted on the command line (hidden from `--help`): `text` was the
    /// name of `terminal` for `gate`, `verify` and `drift`.
    pub const ALIASES: &'static [(&'static str, Format)] = &[("text", Format::Terminal)];

    /// The format's name on the command line: `terminal`, `json`, `markdown`, `sarif`, `junit`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Terminal => "terminal",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Sarif => "sarif",
            Format::Junit => "junit",
        }
    }

    /// The format's name in a sentence ("wrote the JSON report to …").
    pub fn name(self) -> &'static str {
        match self {
            Format::Terminal => "terminal",
            Format::Json => "JSON",
            Format::Markdown => "Markdown",
            Format::Sarif => "SARIF",
            Format::Junit => "JUnit",
        }
    }

    /// The format named `s` on the command line (an [alias](Self::ALIASES) included).
    pub fn parse(s: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .or_else(|| {
                Format::ALIASES
                    .iter()
                    .find(|(a, _)| *a == s)
                    .map(|(_, f)| *f)
            })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A command that writes a report in a `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// `ward plan`.
    Plan,
    /// `ward rules list` and `ward rules show`.
    Rules,
    /// `ward gate`.
    Gate,
    /// `ward verify`.
    Verify,
    /// `ward drift`.
    Drift,
    /// `ward drift history`.
    DriftHistory,
    /// `ward check`.
    Check,
    /// `ward stack plan|apply|teardown|resume|status|approve`.
    Stack,
    /// `ward import check` and `ward import accept`.
    Import,
}

/// One format a command writes, with what `--help` says of it for that command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// The format.
    pub format: Format,
    /// One line for `--help`.
    pub help: &'static str,
}

const fn offer(format: Format, help: &'static str) -> Offer {
    Offer { format, help }
}

const TERMINAL_TEXT: &str = "For a terminal (`text` is still accepted, as a hidden alias)";

const PLAN: &[Offer] = &[
    offer(
        Format::Terminal,
        "For people: grouped by class, worst first",
    ),
    offer(
        Format::Json,
        "For machines: schema version 2 (`ward docs json-schema`)",
    ),
    offer(
        Format::Markdown,
        "For pull-request comments, within --markdown-limit",
    ),
];
const RULES: &[Offer] = &[
    offer(Format::Terminal, "For people"),
    offer(Format::Json, "For machines (`schema_version` 1)"),
];
const GATE: &[Offer] = &[
    offer(Format::Terminal, TERMINAL_TEXT),
    offer(Format::Json, "The gate report as JSON"),
    offer(
        Format::Markdown,
        "A pull-request comment telling a reviewer what to approve",
    ),
];
const VERIFY: &[Offer] = &[
    offer(Format::Terminal, TERMINAL_TEXT),
    offer(Format::Json, "JSON"),
];
const DRIFT: &[Offer] = &[
    offer(Format::Terminal, TERMINAL_TEXT),
    offer(Format::Json, "JSON (schema_version 1)"),
    offer(Format::Markdown, "Markdown"),
    offer(Format::Junit, "JUnit XML, one test case per root"),
];
const DRIFT_HISTORY: &[Offer] = &[
    offer(Format::Terminal, TERMINAL_TEXT),
    offer(Format::Json, "JSON (schema_version 1)"),
];
const CHECK: &[Offer] = &[
    offer(Format::Terminal, "Human-readable text"),
    offer(Format::Json, "The full report as JSON"),
    offer(Format::Sarif, "SARIF 2.1.0, for code scanning"),
    offer(Format::Junit, "JUnit XML, for CI test reports"),
];
const STACK: &[Offer] = &[
    offer(Format::Terminal, "For a terminal"),
    offer(
        Format::Json,
        "JSON (schema_version 1, docs/stack.schema.json)",
    ),
    offer(Format::Markdown, "Markdown"),
];
const IMPORT: &[Offer] = &[
    offer(Format::Terminal, "For a terminal"),
    offer(Format::Json, "JSON (schema_version 1)"),
    offer(Format::Markdown, "Markdown, for a pull-request comment"),
];

impl Command {
    /// Every command that writes a report in a `--format`.
    pub const ALL: [Command; 9] = [
        Command::Plan,
        Command::Rules,
        Command::Gate,
        Command::Verify,
        Command::Drift,
        Command::DriftHistory,
        Command::Check,
        Command::Stack,
        Command::Import,
    ];

    /// The formats the command writes, in `--help` order; the first is its default.
    pub const fn offers(self) -> &'static [Offer] {
        match self {
            Command::Plan => PLAN,
            Command::Rules => RULES,
            Command::Gate => GATE,
            Command::Verify => VERIFY,
            Command::Drift => DRIFT,
            Command::DriftHistory => DRIFT_HISTORY,
            Command::Check => CHECK,
            Command::Stack => STACK,
            Command::Import => IMPORT,
        }
    }

    /// The command as typed: `ward drift history`.
    pub fn name(self) -> &'static str {
        match self {
            Command::Plan => "ward plan",
            Command::Rules => "ward rules",
            Command::Gate => "ward gate",
            Command::Verify => "ward verify",
            Command::Drift => "ward drift",
            Command::DriftHistory => "ward drift history",
            Command::Check => "ward check",
            Command::Stack => "ward stack",
            Command::Import => "ward import",
        }
    }

    /// Whether the command writes `format`.
    pub fn writes(self, format: Format) -> bool {
        self.offers().iter().any(|o| o.format == format)
    }

    /// The error for `format`, which the command does not write.
    pub fn unsupported(self, format: Format) -> Unsupported {
        Unsupported {
            command: self,
            format,
        }
    }
}

/// A format asked of a command that does not write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsupported {
    /// The command.
    pub command: Command,
    /// The format it does not write.
    pub format: Format,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self
            .command
            .offers()
            .iter()
            .map(|o| o.format.as_str())
            .collect();
        write!(
            f,
            "{} writes no {} report; its formats are {}",
            self.command.name(),
            self.format.as_str(),
            names.join(", ")
        )
    }
}

impl std::error::Error for Unsupported {}

impl From<Unsupported> for std::io::Error {
    fn from(e: Unsupported) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_text_is_terminal() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.as_str()), Some(f));
        }
        assert_eq!(Format::parse("text"), Some(Format::Terminal));
        assert_eq!(Format::parse("html"), None);
    }

    #[test]
    fn every_command_writes_terminal_first_and_names_each_format_once() {
        for c in Command::ALL {
            let offers = c.offers();
            assert_eq!(offers.first().map(|o| o.format), Some(Format::Terminal));
            for (i, o) in offers.iter().enumerate() {
                assert!(!o.help.is_empty());
                assert!(offers[..i].iter().all(|p| p.format != o.format), "{c:?}");
            }
        }
    }

    #[test]
    fn unsupported_names_what_the_command_writes() {
        assert!(!Command::Plan.writes(Format::Sarif));
        assert_eq!(
            Command::Plan.unsupported(Format::Sarif).to_string(),
            "ward plan writes no sarif report; its formats are terminal, json, markdown"
        );
    }
}
