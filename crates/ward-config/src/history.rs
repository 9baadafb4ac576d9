//! The `history { }` block: where ward keeps its history (drift runs and findings, and the
//! records of gate, stack and import). Read by `ward drift`, `ward serve` and `ward report`
//! when `--db` is not given.
//!
//! ```hcl
//! history {
//!   url           = "postgres://ward@db.internal/ward"  # or a SQLite file
//!   password_file = "/etc/ward/pg-password"             # optional
//! }
//! ```
//!
//! The URL is kept as written; the store reads it (and refuses one that carries a password).

use crate::read::Src;
use crate::ConfigError;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The `history` block (empty when absent: the default SQLite file).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct HistorySettings {
    /// `url`: a `postgres://` URL, or a SQLite file (relative to the directory of `ward.hcl`,
    /// already resolved).
    pub url: Option<String>,
    /// Where `url` was written (`ward.hcl:3:9`), for messages about it.
    pub url_at: String,
    /// `password_file`: a file whose first line is the PostgreSQL password (relative to the
    /// directory of `ward.hcl`, already resolved).
    pub password_file: Option<PathBuf>,
}

pub(crate) const HISTORY_KEYS: &[&str] = &["url", "password_file"];

pub(crate) fn history(
    src: &Src<'_>,
    b: &Block,
    dir: &Path,
) -> Result<HistorySettings, ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`history`", HISTORY_KEYS, &[])?;
    let mut h = HistorySettings::default();
    if let Some(a) = f.get("url") {
        let url = src.nonempty(a)?;
        let (line, column) = src.pos(a.value.span());
        h.url_at = format!("{}:{line}:{column}", src.file);
        h.url = Some(if url.contains("://") {
            url
        } else {
            dir.join(url).display().to_string()
        });
    }
    if let Some(a) = f.get("password_file") {
        let p = src.nonempty(a)?;
        if h.url.is_none() {
            return Err(src.err(
                a.key.span(),
                "`history { password_file }` without a `url`",
                "set `url = \"postgres://USER@HOST/DATABASE\"` beside it, or remove it",
            ));
        }
        h.password_file = Some(dir.join(p));
    }
    Ok(h)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::Config;
    use std::path::Path;

    #[test]
    fn reads_url_and_password_file() {
        let c = Config::parse(
            "history {\n  url = \"postgres://ward@db/ward\"\n  password_file = \"pw\"\n}\n",
            "ward.hcl",
            Path::new("/etc/ward"),
        )
        .unwrap();
        assert_eq!(c.history.url.as_deref(), Some("postgres://ward@db/ward"));
        assert_eq!(c.history.url_at, "ward.hcl:2:9");
        assert_eq!(
            c.history.password_file.as_deref(),
            Some(Path::new("/etc/ward/pw"))
        );
    }

    #[test]
    fn a_file_is_relative_to_the_config() {
        let c = Config::parse(
            "history {\n  url = \"state/h.sqlite\"\n}\n",
            "ward.hcl",
            Path::new("/repo"),
        )
        .unwrap();
        assert_eq!(c.history.url.as_deref(), Some("/repo/state/h.sqlite"));
    }

    #[test]
    fn bad_blocks_are_refused_with_their_place() {
        for (text, want) in [
            (
                "history {\n  uri = \"x\"\n}\n",
                "ward.hcl:2:3: unknown key `uri`",
            ),
            (
                "history {\n  password_file = \"pw\"\n}\n",
                "ward.hcl:2:3: `history { password_file }` without a `url`",
            ),
            ("history {\n  url = \"\"\n}\n", "ward.hcl:2:"),
            ("history {}\nhistory {}\n", "a second `history` block"),
        ] {
            let e = Config::parse(text, "ward.hcl", Path::new("."))
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
