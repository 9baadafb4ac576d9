//! The `history { }` block: where ward keeps its history (drift runs and findings, and the
//! records of gate, stack and import). Read by `ward drift`, `ward serve` and `ward report`
//! when `--db` is not given.
//!
//! ```hcl
//! history {
//!   url           = "postgres://ward@db.internal/ward"  # or a SQLite file
//!   password_file = "/etc/ward/pg-password"             # optional
//!   stale_after   = "2d"                                # optional: the dashboard's staleness
//! }
//! ```
//!
//! The URL is kept as written; the store reads it (and refuses one that carries a password).

use crate::error::ConfigError;
use hcl_edit::structure::Block;
use hcl_edit::Span;
use serde::Serialize;
use std::path::{Path, PathBuf};
use ward_hcl::Reader;

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
    /// `stale_after`: how long after its newest run `ward serve` and `ward report --html` mark a
    /// root stale (a ward duration, checked here, kept as written); `--stale-after` overrides it.
    pub stale_after: Option<String>,
}

pub(crate) const HISTORY_KEYS: &[&str] = &["url", "password_file", "stale_after"];

pub(crate) fn history(
    src: &Reader<'_>,
    b: &Block,
    dir: &Path,
) -> Result<HistorySettings, ConfigError> {
    src.no_label(b)?;
    let f = src.fields(&b.body, "`history`", HISTORY_KEYS, &[])?;
    let mut h = HistorySettings::default();
    if let Some(a) = f.get("url") {
        let url = src.nonempty(a)?;
        let (line, column) = src.pos(a.value.span()).unwrap_or((0, 0));
        h.url_at = format!("{}:{line}:{column}", src.file());
        h.url = Some(if url.contains("://") {
            url
        } else {
            dir.join(url).display().to_string()
        });
    }
    if let Some(a) = f.get("password_file") {
        let p = src.nonempty(a)?;
        if h.url.is_none() {
            return Err(src
                .err(a.key.span(), "`history { password_file }` without a `url`")
                .help("set `url = \"postgres://USER@HOST/DATABASE\"` beside it, or remove it")
                .into());
        }
        h.password_file = Some(dir.join(p));
    }
    if let Some(a) = f.get("stale_after") {
        let t = src.string(a)?;
        let d = ward_time::parse_duration(&t).map_err(|m| {
            src.err(a.value.span(), format!("`history {{ stale_after }}`: {m}"))
                .help("e.g. `stale_after = \"2d\"`")
        })?;
        if d.is_zero() {
            return Err(src.err(
                a.value.span(), "`history { stale_after }` must be longer than 0s: it would mark every root stale").help("write e.g. `stale_after = \"2d\"`").into());
        }
        h.stale_after = Some(t.trim().to_string());
    }
    Ok(h)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::Config;
    use std::path::Path;

    #[test]
    fn reads_stale_after_and_refuses_a_bad_one() {
        let c = Config::parse(
            "history {\n  stale_after = \"36h\"\n}\n",
            "ward.hcl",
            Path::new("/etc/ward"),
        )
        .unwrap();
        assert_eq!(c.history.stale_after.as_deref(), Some("36h"));
        assert_eq!(c.history.url, None);
        for (bad, says) in [("two days", "invalid duration"), ("0s", "longer than 0s")] {
            let e = Config::parse(
                &format!("history {{\n  stale_after = \"{bad}\"\n}}\n"),
                "ward.hcl",
                Path::new("/etc/ward"),
            )
            .unwrap_err()
            .to_string();
            assert!(e.contains("ward.hcl:2:17") && e.contains(says), "{e}");
        }
    }

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
