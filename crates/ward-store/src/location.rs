//! Where the history lives: a SQLite file or a PostgreSQL database, and the PostgreSQL
//! password, which never comes from the command line.
//!
//! A PostgreSQL location is a URL (`postgres://ward@db.internal/ward`, or
//! `postgres://ward@/ward?host=/run/postgresql` for a Unix socket). A URL that carries a
//! password is refused: a command line is visible to every user of the machine (`ps`), and a
//! `ward.hcl` is committed. The password comes, first found, from the file named by
//! `history { password_file }`, from `PGPASSWORD`, or from the password file PostgreSQL's own
//! tools read (`PGPASSFILE`, else `~/.pgpass`: `host:port:database:user:password` lines).

use crate::StoreError;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where the history database is.
#[derive(Debug, Clone)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(Box<PgTarget>),
}

/// A PostgreSQL database to connect to, with its password resolved.
#[derive(Clone)]
pub struct PgTarget {
    pub(crate) config: postgres::Config,
    shown: String,
}

impl PgTarget {
    /// The URL as given (it never carries a password).
    pub fn shown(&self) -> &str {
        &self.shown
    }
}

impl std::fmt::Debug for PgTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the password.
        f.debug_struct("PgTarget")
            .field("url", &self.shown)
            .finish()
    }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Sqlite(p) => write!(f, "{}", p.display()),
            Location::Postgres(t) => f.write_str(&t.shown),
        }
    }
}

/// Whether `text` names a PostgreSQL database rather than a file.
pub fn is_postgres_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

impl Location {
    /// Reads a location as given to `--db` or `history { url }`: a `postgres://` or
    /// `postgresql://` URL, or else the path of a SQLite file. `password_file` is
    /// `history { password_file }`, when set; `where_from` names where the URL was given, for
    /// messages (`--db`, `ward.hcl:3:9`).
    pub fn parse(
        text: &str,
        password_file: Option<&Path>,
        where_from: &str,
    ) -> Result<Location, StoreError> {
        if !is_postgres_url(text) {
            return Ok(Location::Sqlite(PathBuf::from(text)));
        }
        let mut config = postgres::Config::from_str(text).map_err(|e| {
            StoreError::Location(format!(
                "{where_from}: `{}` is not a PostgreSQL URL ward can use: {e}; write it as postgres://USER@HOST:PORT/DATABASE (or postgres://USER@/DATABASE?host=/run/postgresql for a Unix socket)",
                redact(text)
            ))
        })?;
        if config.get_password().is_some() {
            return Err(StoreError::Location(format!(
                "{where_from}: the PostgreSQL URL carries a password; a command line is visible to every user (ps) and ward.hcl is committed, so ward refuses it. Remove the password from the URL and put it in PGPASSWORD, in a password file (PGPASSFILE or ~/.pgpass, as psql reads), or in a file named by `history {{ password_file = \"...\" }}` in ward.hcl"
            )));
        }
        let shown = redact(text);
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(15));
        }
        if config.get_application_name().is_none() {
            config.application_name("ward");
        }
        if let Some(password) = password(&config, password_file)? {
            config.password(password);
        }
        Ok(Location::Postgres(Box::new(PgTarget { config, shown })))
    }
}

/// The URL without anything after `://` up to the `@` that holds credentials: for messages.
fn redact(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else {
        return text.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split(':').next().unwrap_or("");
            let hidden = if userinfo.contains(':') { ":***" } else { "" };
            // A `password=` parameter is hidden too.
            let tail = hide_password_param(tail);
            format!("{scheme}://{user}{hidden}@{host}{tail}")
        }
        None => format!("{scheme}://{authority}{}", hide_password_param(tail)),
    }
}

fn hide_password_param(tail: &str) -> String {
    let Some((path, query)) = tail.split_once('?') else {
        return tail.to_string();
    };
    let query: Vec<String> = query
        .split('&')
        .map(|kv| match kv.split_once('=') {
            Some(("password", _)) => "password=***".to_string(),
            _ => kv.to_string(),
        })
        .collect();
    format!("{path}?{}", query.join("&"))
}

/// The password for `config`: `password_file`, `PGPASSWORD`, then the password file.
fn password(
    config: &postgres::Config,
    password_file: Option<&Path>,
) -> Result<Option<String>, StoreError> {
    if let Some(path) = password_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            StoreError::Location(format!(
                "cannot read the PostgreSQL password file {} (`history {{ password_file }}` in ward.hcl): {e}; create it with the password on its first line, readable by this user only",
                path.display()
            ))
        })?;
        return Ok(Some(text.lines().next().unwrap_or("").to_string()));
    }
    if let Some(p) = std::env::var_os("PGPASSWORD").filter(|p| !p.is_empty()) {
        return Ok(Some(p.to_string_lossy().into_owned()));
    }
    let file = std::env::var_os("PGPASSFILE")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pgpass")));
    let Some(file) = file else { return Ok(None) };
    let Ok(text) = std::fs::read_to_string(&file) else {
        return Ok(None);
    };
    let host = match config.get_hosts().first() {
        Some(postgres::config::Host::Tcp(h)) => h.clone(),
        #[cfg(unix)]
        Some(postgres::config::Host::Unix(_)) | None => "localhost".to_string(),
        #[cfg(not(unix))]
        None => "localhost".to_string(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let user = config.get_user().unwrap_or("");
    let db = config.get_dbname().unwrap_or(user);
    Ok(pgpass_lookup(&text, &[&host, &port, db, user]))
}

/// The password of the first line of a `.pgpass` text whose four fields match `want`
/// (host, port, database, user; `*` matches anything; `\:` and `\\` are escapes).
pub(crate) fn pgpass_lookup(text: &str, want: &[&str; 4]) -> Option<String> {
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut fields = Vec::new();
        let mut cur = String::new();
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let Some(n) = chars.next() {
                        cur.push(n);
                    }
                }
                ':' if fields.len() < 4 => fields.push(std::mem::take(&mut cur)),
                c => cur.push(c),
            }
        }
        fields.push(cur);
        if fields.len() != 5 {
            continue;
        }
        if fields[..4]
            .iter()
            .zip(want.iter())
            .all(|(f, w)| f == "*" || f == w)
        {
            return fields.pop();
        }
    }
    None
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_sqlite_and_a_url_is_postgres() {
        assert!(matches!(
            Location::parse("drift.sqlite", None, "--db").unwrap(),
            Location::Sqlite(_)
        ));
        let l = Location::parse("postgres://ward@/ward?host=/tmp/pg", None, "--db").unwrap();
        assert!(matches!(l, Location::Postgres(_)));
        assert_eq!(l.to_string(), "postgres://ward@/ward?host=/tmp/pg");
    }

    #[test]
    fn a_url_with_a_password_is_refused_and_not_repeated() {
        for url in [
            "postgres://ward:hunter2@db/ward",
            "postgresql://ward:hunter2@db:5432/ward",
            "postgres://ward@db/ward?password=hunter2",
        ] {
            let e = Location::parse(url, None, "--db").unwrap_err().to_string();
            assert!(e.contains("carries a password"), "{e}");
            assert!(
                e.contains("PGPASSWORD") && e.contains("password_file"),
                "{e}"
            );
            assert!(!e.contains("hunter2"), "{e}");
        }
        let e = Location::parse(
            "postgres://ward:hunter2@db/ward?sslmode=banana",
            None,
            "--db",
        )
        .unwrap_err()
        .to_string();
        assert!(!e.contains("hunter2"), "{e}");
    }

    #[test]
    fn a_password_file_is_read_and_never_shown() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("pw");
        std::fs::write(&f, "s3cret\n").unwrap();
        let l = Location::parse("postgres://ward@db/ward", Some(&f), "ward.hcl:2:9").unwrap();
        let Location::Postgres(t) = &l else { panic!() };
        assert_eq!(t.config.get_password(), Some(&b"s3cret"[..]));
        assert!(!format!("{l} {t:?}").contains("s3cret"));
        let e = Location::parse(
            "postgres://ward@db/ward",
            Some(&dir.path().join("missing")),
            "x",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("cannot read the PostgreSQL password file"),
            "{e}"
        );
    }

    #[test]
    fn pgpass_lines_match_field_by_field() {
        let text =
            "# comment\nother:5432:*:ward:no\ndb:5432:ward:ward:yes\\:colon\n*:*:*:*:fallback\n";
        assert_eq!(
            pgpass_lookup(text, &["db", "5432", "ward", "ward"]).as_deref(),
            Some("yes:colon")
        );
        assert_eq!(
            pgpass_lookup(text, &["x", "1", "y", "z"]).as_deref(),
            Some("fallback")
        );
        assert_eq!(pgpass_lookup("a:b:c\n", &["a", "b", "c", "d"]), None);
    }
}
