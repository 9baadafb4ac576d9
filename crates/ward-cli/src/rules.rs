//! `ward rules`: what ward knows (built-in packs and ward.hcl), for people and for machines.

use crate::error::CliError;
use crate::output::Dest;
use clap::Subcommand;
use std::path::PathBuf;
use ward_report::format::Command as Report;
use ward_report::{Exit, Format};

/// `ward rules` subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the packs (name, version, provider) and every classified resource type.
    List(Common),
    /// Show every rule about one resource type, in precedence order.
    Show {
        /// The resource type, e.g. `aws_instance`.
        #[arg(value_name = "TYPE")]
        type_name: String,
        #[command(flatten)]
        common: Common,
    },
}

/// Options shared by `ward rules` subcommands.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Output format.
    #[arg(long, value_parser = crate::output::format(Report::Rules), default_value = "terminal")]
    format: Format,
    /// Rule file to use instead of the ward.hcl found at the repository root.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    #[command(flatten)]
    dest: Dest,
}

/// Runs `ward rules …`.
pub fn run(cmd: Command) -> Result<Exit, CliError> {
    let (text, dest) = match cmd {
        Command::List(c) => {
            let k = crate::knowledge::load_every_entry(c.config.as_deref())?;
            (
                ward_report::rules::list(&k, c.format, c.dest.color(c.format))?,
                c.dest,
            )
        }
        Command::Show { type_name, common } => {
            let k = crate::knowledge::load_every_entry(common.config.as_deref())?;
            let Some(entry) = k.show(&type_name) else {
                let names: Vec<String> = k.types().into_iter().map(|t| t.type_name).collect();
                let known: Vec<&str> = names.iter().map(String::as_str).collect();
                // Type names are lower case: `aws_Instance` is a typo for `aws_instance`.
                let close = known
                    .iter()
                    .find(|n| n.eq_ignore_ascii_case(&type_name))
                    .map(|n| n.to_string())
                    .or_else(|| ward_hcl::did_you_mean(&type_name, &known).map(str::to_string));
                let hint = match close {
                    Some(n) => format!("did you mean `{n}`? `ward rules show {n}` shows its rules; `ward rules list` shows every classified type"),
                    None => "`ward rules list` shows every classified type; classify this one with a `resource` block in ward.hcl (`ward docs rules`)".to_string(),
                };
                return Err(CliError::new(format!(
                    "no rule names the resource type `{type_name}`: it is unclassified"
                ))
                .hint(hint));
            };
            let color = common.dest.color(common.format);
            (
                ward_report::rules::show(&k, &entry.type_name, &entry.rules, common.format, color)?,
                common.dest,
            )
        }
    };
    dest.write(&text)?;
    Ok(Exit::Pass)
}
