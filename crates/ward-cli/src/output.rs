//! Where reports go (standard output or `--output FILE`), whether they are coloured, and the
//! one `--format` parser every command uses.

use crate::error::CliError;
use clap::ValueEnum;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use ward_report::format::Command;
use ward_report::Format;

/// `--format` of `command`: its possible values (and their help) are the formats
/// `ward_report::format` says it writes, so `--help` and a wrong value's error list exactly
/// those; the old spellings ([`Format::ALIASES`]) are accepted, hidden. The default is each
/// command's `default_value = "terminal"`.
pub fn format(command: Command) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(command.offers().iter().map(|o| {
        let aliases = Format::ALIASES
            .iter()
            .filter(|(_, f)| *f == o.format)
            .map(|(a, _)| *a);
        PossibleValue::new(o.format.as_str())
            .help(o.help)
            .aliases(aliases)
    }))
    .try_map(|s| Format::parse(&s).ok_or_else(|| format!("unknown format `{s}`")))
}

/// `-o FILE` and `--color WHEN`: where a report goes and whether its terminal form is
/// coloured (every command that writes a report takes both).
#[derive(Debug, Clone, clap::Args)]
pub struct Dest {
    /// Write the report to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Colour the terminal report: auto (a terminal, and NO_COLOR unset), always, never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

impl Dest {
    /// Whether a report in `format` is coloured: only the terminal report, as `--color` says.
    pub fn color(&self, format: Format) -> bool {
        format == Format::Terminal && self.color.enabled(self.output.is_some())
    }

    /// Writes `text` to `-o FILE`, or standard output ([`write`](fn@write)).
    pub fn write(&self, text: &str) -> Result<(), CliError> {
        write(text, self.output.as_deref())
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always colour (even into a file or a pipe).
    Always,
    /// Never colour.
    Never,
}

impl ColorChoice {
    /// Whether to colour output going to standard output (`to_file` false) or to a file.
    pub fn enabled(self, to_file: bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                !to_file && !no_color && std::io::stdout().is_terminal()
            }
        }
    }
}

/// The error for a report that could not be written to `path`.
fn cannot(p: &Path, e: ward_fs::FsError) -> CliError {
    CliError::new(format!("cannot write the report to `{}`: {e}", p.display()))
        .hint("give --output a path to a file (not a symlink) in a directory that is writable")
}

/// Writes `text` to `path`, or to standard output when `path` is `None`. A closed pipe on
/// standard output (`ward … | head`) is not an error; any other write error is (a full disk
/// must not pass for a written report).
pub fn write(text: &str, path: Option<&Path>) -> Result<(), CliError> {
    write_bytes(text.as_bytes(), path)
}

/// [`write`](fn@write) for bytes.
pub fn write_bytes(text: &[u8], path: Option<&Path>) -> Result<(), CliError> {
    match path {
        Some(p) => ward_fs::write_atomic(p, text, ward_fs::Mode::Public).map_err(|e| cannot(p, e)),
        None => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text).and_then(|()| out.flush()) {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(CliError::new(format!(
                    "cannot write the report to standard output: {e}"
                ))),
            }
        }
    }
}

/// Streams a report to `path`, or to standard output when `path` is `None`, through a buffer:
/// `emit` writes it piece by piece, so a large report is never held whole in memory. A closed
/// pipe on standard output (`ward … | head`) is not an error.
pub fn stream(
    path: Option<&Path>,
    emit: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), CliError> {
    match path {
        Some(p) => {
            ward_fs::write_atomic_with(p, ward_fs::Mode::Public, emit).map_err(|e| cannot(p, e))
        }
        None => {
            let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            let r = match emit(&mut out) {
                Ok(()) => out.flush(),
                Err(e) => {
                    // What is still buffered is not written: a report that failed part-way (an
                    // unreadable plan while the JSON report streams) shows no more of itself.
                    drop(out.into_parts());
                    Err(e)
                }
            };
            match r {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(CliError::new(format!(
                    "cannot write the report to standard output: {e}"
                ))),
            }
        }
    }
}
