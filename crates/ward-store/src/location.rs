//! Where the history lives: a SQLite file or a PostgreSQL database, and the PostgreSQL
//! password, which never comes from the command line.
//!
//! A PostgreSQL location is a URL (`postgres://ward@db.internal/ward`, or
//! `postgres://ward@/ward?host=/run/postgresql` for a Unix socket; the scheme in any case), or a
//! libpq connection string (`host=db.internal dbname=ward user=ward`). Anything else with a
//! `scheme://` is refused, and so is a URL with spaces around it: a mistyped URL is never taken
//! for the name of a SQLite file (that created directories named after the password and wrote
//! the history to a new file). A location that carries a
//! password is refused: a command line is visible to every user of the machine (`ps`), and a
//! `ward.hcl` is committed. The password comes, first found, from the file named by
//! `history { password_file }`, from `PGPASSWORD`, or from the password file PostgreSQL's own
//! tools read (`PGPASSFILE`, else `~/.pgpass`: `host:port:database:user:password` lines). This
//! crate reads no environment: the caller (ward-cli) reads those variables once and passes their
//! values ([`Location::parse_in`]).

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
    pub(crate) tls: crate::tls::TlsSettings,
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

/// Whether `text` names a PostgreSQL database rather than a file (a `postgres://` or
/// `postgresql://` URL in any case, or a libpq `key=value` string), as [`Location::parse`] reads
/// it.
pub fn is_postgres_url(text: &str) -> bool {
    matches!(kind(text), Ok(Kind::Url(_)) | Ok(Kind::Libpq))
}

/// The keywords of a libpq connection string (PostgreSQL's documentation, "Parameter Key
/// Words"): a first `word=` from this list makes the text a connection string, not a file name.
const LIBPQ_KEYS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "connect_timeout",
    "client_encoding",
    "options",
    "application_name",
    "fallback_application_name",
    "keepalives",
    "sslmode",
    "sslcert",
    "sslkey",
    "sslrootcert",
    "sslcrl",
    "target_session_attrs",
    "load_balance_hosts",
    "service",
    "channel_binding",
];

/// What the text of a location is.
#[derive(Debug, PartialEq, Eq)]
enum Kind {
    /// A PostgreSQL URL, its scheme in lower case.
    Url(String),
    /// A libpq `key=value` connection string.
    Libpq,
    /// A SQLite file.
    Sqlite,
}

fn kind(text: &str) -> Result<Kind, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("is empty: give a SQLite file path or a postgres:// URL".into());
    }
    if let Some((scheme, rest)) = t.split_once("://") {
        let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        if is_scheme {
            let lower = scheme.to_ascii_lowercase();
            if lower != "postgres" && lower != "postgresql" {
                return Err(format!(
                    "is a `{scheme}://` URL; the history is a SQLite file path or a postgres:// URL"
                ));
            }
            if t != text {
                return Err(
                    "has spaces around the URL: remove them (a URL is never taken for a file name)"
                        .into(),
                );
            }
            return Ok(Kind::Url(format!("{lower}://{rest}")));
        }
    }
    let first = t.split_whitespace().next().unwrap_or("");
    if let Some((key, _)) = first.split_once('=') {
        if LIBPQ_KEYS.contains(&key.trim().to_ascii_lowercase().as_str()) {
            return Ok(Kind::Libpq);
        }
    }
    Ok(Kind::Sqlite)
}

/// Takes `sslmode` and `sslrootcert` out of a URL's query or a libpq string: the text without
/// them, and the TLS settings they give.
fn take_tls(text: &str, libpq: bool) -> Result<(String, crate::tls::TlsSettings), String> {
    let mut tls = crate::tls::TlsSettings::default();
    let mut take = |k: &str, v: &str| -> Result<bool, String> {
        match k {
            "sslmode" => {
                tls.mode = crate::tls::SslMode::parse(v).ok_or_else(|| {
                    format!("sslmode={v}: give disable, allow, prefer, require, verify-ca or verify-full")
                })?;
                Ok(true)
            }
            "sslrootcert" => {
                tls.root_cert = Some(PathBuf::from(v));
                Ok(true)
            }
            _ => Ok(false),
        }
    };
    if libpq {
        let mut kept = Vec::new();
        for (k, v) in libpq_pairs(text)? {
            if !take(&k, &v)? {
                kept.push(format!(
                    "{k}='{}'",
                    v.replace('\\', "\\\\").replace('\'', "\\'")
                ));
            }
        }
        return Ok((kept.join(" "), tls));
    }
    let Some((base, query)) = text.split_once('?') else {
        return Ok((text.to_string(), tls));
    };
    let mut kept = form_urlencoded::Serializer::new(String::new());
    let mut any = false;
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        if !take(&k, &v)? {
            kept.append_pair(&k, &v);
            any = true;
        }
    }
    let kept = kept.finish();
    Ok((
        if any {
            format!("{base}?{kept}")
        } else {
            base.to_string()
        },
        tls,
    ))
}

/// The `key=value` pairs of a libpq connection string (values may be single-quoted, with `\'`
/// and `\\` escapes).
fn libpq_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(out);
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c.is_whitespace() {
                break;
            }
            key.push(c);
            chars.next();
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.next() != Some('=') {
            return Err(format!(
                "the connection string has `{key}` without `=`: write key=value pairs"
            ));
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let mut value = String::new();
        if chars.peek() == Some(&'\'') {
            chars.next();
            loop {
                match chars.next() {
                    None => return Err(format!("the value of `{key}` has no closing quote")),
                    Some('\'') => break,
                    Some('\\') => value.extend(chars.next()),
                    Some(c) => value.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                chars.next();
                if c == '\\' {
                    value.extend(chars.next());
                } else {
                    value.push(c);
                }
            }
        }
        out.push((key, value));
    }
}

/// A libpq string for messages: every keyword with its value, the password's hidden.
fn redact_libpq(config: &postgres::Config) -> String {
    let mut parts = Vec::new();
    for h in config.get_hosts() {
        match h {
            postgres::config::Host::Tcp(h) => parts.push(format!("host={h}")),
            #[cfg(unix)]
            postgres::config::Host::Unix(p) => parts.push(format!("host={}", p.display())),
        }
    }
    for p in config.get_ports() {
        parts.push(format!("port={p}"));
    }
    if let Some(d) = config.get_dbname() {
        parts.push(format!("dbname={d}"));
    }
    if let Some(u) = config.get_user() {
        parts.push(format!("user={u}"));
    }
    parts.join(" ")
}

impl Location {
    /// [`Location::parse_in`] with no password from the environment (`history { password_file
    /// }` only): for callers that have no environment to give, such as tests.
    pub fn parse(
        text: &str,
        password_file: Option<&Path>,
        where_from: &str,
    ) -> Result<Location, StoreError> {
        Location::parse_in(text, password_file, None, None, where_from)
    }

    /// Reads a location as given to `--db` or `history { url }`: a `postgres://` or
    /// `postgresql://` URL, or else the path of a SQLite file. `password_file` is
    /// `history { password_file }`, when set; `pgpassword` and `pgpass_file` are what the
    /// environment says of the password, as the caller read it (`PGPASSWORD`, non-empty; the
    /// password file: `PGPASSFILE`, else `~/.pgpass`), tried in that order after
    /// `password_file`; `where_from` names where the URL was given, for messages (`--db`,
    /// `ward.hcl:3:9`).
    pub fn parse_in(
        text: &str,
        password_file: Option<&Path>,
        pgpassword: Option<&str>,
        pgpass_file: Option<&Path>,
        where_from: &str,
    ) -> Result<Location, StoreError> {
        let kind = kind(text).map_err(|why| {
            StoreError::Location(format!("{where_from}: `{}` {why}", redact(text.trim())))
        })?;
        let (normal, libpq) = match kind {
            Kind::Sqlite => return Ok(Location::Sqlite(PathBuf::from(text))),
            Kind::Url(u) => (u, false),
            Kind::Libpq => (text.trim().to_string(), true),
        };
        // sslmode and sslrootcert are ward's to read (the client library knows only three
        // modes and no root certificate file): taken out before the rest is parsed.
        let (stripped, tls) = take_tls(&normal, libpq)
            .map_err(|why| StoreError::Location(format!("{where_from}: {why}")))?;
        let mut config = postgres::Config::from_str(&stripped).map_err(|e| {
            let shown = if libpq {
                "the libpq connection string".to_string()
            } else {
                format!("`{}`", redact(&normal))
            };
            StoreError::Location(format!(
                "{where_from}: {shown} is not a PostgreSQL location ward can use: {e}; write it as postgres://USER@HOST:PORT/DATABASE (or postgres://USER@/DATABASE?host=/run/postgresql for a Unix socket)"
            ))
        })?;
        if config.get_password().is_some() {
            return Err(StoreError::Location(format!(
                "{where_from}: the PostgreSQL URL carries a password; a command line is visible to every user (ps) and ward.hcl is committed, so ward refuses it. Remove the password from the URL and put it in PGPASSWORD, in a password file (PGPASSFILE or ~/.pgpass, as psql reads), or in a file named by `history {{ password_file = \"...\" }}` in ward.hcl"
            )));
        }
        let shown = if libpq {
            redact_libpq(&config)
        } else {
            redact(&normal)
        };
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(15));
        }
        if config.get_application_name().is_none() {
            config.application_name("ward");
        }
        if let Some(password) = password(&config, password_file, pgpassword, pgpass_file)? {
            config.password(password);
        }
        Ok(Location::Postgres(Box::new(PgTarget {
            config,
            tls,
            shown,
        })))
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

/// The password for `config`: `password_file`, `pgpassword` (`PGPASSWORD`), then the entry of
/// `pgpass_file` (`PGPASSFILE` or `~/.pgpass`) that matches the connection.
fn password(
    config: &postgres::Config,
    password_file: Option<&Path>,
    pgpassword: Option<&str>,
    pgpass_file: Option<&Path>,
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
    if let Some(p) = pgpassword.filter(|p| !p.is_empty()) {
        return Ok(Some(p.to_string()));
    }
    let Some(file) = pgpass_file else {
        return Ok(None);
    };
    let Ok(text) = std::fs::read_to_string(file) else {
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
    fn a_url_is_read_by_its_scheme_in_any_case_and_never_taken_for_a_file() {
        for url in [
            "Postgres://ward@db/ward",
            "POSTGRESQL://ward@db:5432/ward",
            "postgres://ward@/ward?host=/tmp/pg",
        ] {
            let l = Location::parse(url, None, "--db").unwrap();
            assert!(matches!(l, Location::Postgres(_)), "{url}");
            assert!(l.to_string().starts_with("postgres"), "{l}");
            assert!(is_postgres_url(url), "{url}");
        }
        // A password in any spelling is refused, never made into directories.
        for url in [
            "Postgres://u:pw-s3cret@h/db",
            "host=h user=u password=pw-s3cret dbname=db",
            "  host=h password='pw s3cret'",
        ] {
            let e = Location::parse(url, None, "--db").unwrap_err().to_string();
            assert!(e.contains("carries a password"), "{url}: {e}");
            assert!(!e.contains("s3cret"), "{e}");
        }
        for (text, why) in [
            (" postgres://u@h/db", "spaces around"),
            ("postgres://u@h/db\n", "spaces around"),
            ("mysql://u@h/db", "`mysql://` URL"),
            ("sqlite:///var/lib/ward.db", "`sqlite://` URL"),
            ("   ", "is empty"),
        ] {
            let e = Location::parse(text, None, "--db").unwrap_err().to_string();
            assert!(e.contains(why), "{text:?}: {e}");
        }
        let l = Location::parse("host=/tmp/pg dbname=ward user=ward", None, "--db").unwrap();
        assert!(matches!(l, Location::Postgres(_)));
        assert_eq!(l.to_string(), "host=/tmp/pg dbname=ward user=ward");
        // File names stay file names, odd ones too.
        for path in [
            "drift.sqlite",
            "./a://b.sqlite",
            "hosts=x.db",
            "/var/lib/ward/h.db",
        ] {
            assert!(
                matches!(
                    Location::parse(path, None, "--db").unwrap(),
                    Location::Sqlite(_)
                ),
                "{path}"
            );
            assert!(!is_postgres_url(path), "{path}");
        }
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

/// What `sslmode` and `sslrootcert` become and what is kept of the rest, in a URL and in a libpq
/// string (mutants of `take_tls` survived the tests above: docs/testing.md).
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tls_parameters {
    use super::*;
    use crate::tls::SslMode;

    fn target(text: &str) -> PgTarget {
        match Location::parse(text, None, "--db").unwrap() {
            Location::Postgres(t) => *t,
            Location::Sqlite(p) => panic!("{text}: read as the file {}", p.display()),
        }
    }

    #[test]
    fn a_url_gives_its_tls_parameters_to_ward_and_keeps_the_others() {
        let t = target("postgres://ward@db/hist?sslmode=verify-full&sslrootcert=/etc/ca.pem&application_name=nightly");
        assert_eq!(t.tls.mode, SslMode::VerifyFull);
        assert_eq!(t.tls.root_cert.as_deref(), Some(Path::new("/etc/ca.pem")));
        assert_eq!(t.config.get_application_name(), Some("nightly"));
        assert_eq!(t.config.get_dbname(), Some("hist"));
        let t = target("postgres://ward@db/hist?sslmode=require");
        assert_eq!(t.tls.mode, SslMode::Require);
        assert_eq!(t.tls.root_cert, None);
        assert_eq!(t.config.get_application_name(), Some("ward"));
    }

    #[test]
    fn a_libpq_string_gives_its_tls_parameters_to_ward_and_keeps_the_others_quoted() {
        let t = target(
            r"host=db dbname=hist sslmode=verify-ca sslrootcert='/etc/my ca.pem' application_name='it\'s a\\b'",
        );
        assert_eq!(t.tls.mode, SslMode::VerifyCa);
        assert_eq!(
            t.tls.root_cert.as_deref(),
            Some(Path::new("/etc/my ca.pem"))
        );
        assert_eq!(t.config.get_application_name(), Some(r"it's a\b"));
        assert_eq!(t.config.get_dbname(), Some("hist"));
        assert_eq!(t.shown(), "host=db dbname=hist");
    }

    #[test]
    fn a_target_debugs_as_its_url() {
        let t = target("postgres://ward@db/hist?sslmode=require");
        let shown = format!("{t:?}");
        assert!(
            shown.contains("PgTarget") && shown.contains("postgres://ward@db/hist"),
            "{shown}"
        );
    }

    #[test]
    fn a_scheme_is_a_letter_then_letters_digits_plus_minus_or_dots() {
        // Not schemes: file names, whatever follows.
        for path in ["2024://x.db", "my_db://x.db", "+x://y.db"] {
            assert!(
                matches!(
                    Location::parse(path, None, "--db").unwrap(),
                    Location::Sqlite(_)
                ),
                "{path}"
            );
        }
        // Schemes: refused unless PostgreSQL's.
        for url in ["x+y-z.1://h/db", "s3://bucket/h.db"] {
            let e = Location::parse(url, None, "--db").unwrap_err().to_string();
            assert!(e.contains("URL"), "{url}: {e}");
        }
    }

    #[test]
    fn a_refused_url_is_shown_without_its_password_parameter() {
        let e = Location::parse("mysql://u@h/db?password=hunter2&x=1", None, "--db")
            .unwrap_err()
            .to_string();
        assert!(e.contains("password=***&x=1"), "{e}");
        assert!(!e.contains("hunter2"), "{e}");
    }

    #[test]
    fn a_pgpass_comment_is_never_an_entry_and_a_password_keeps_its_colons() {
        let text = "#db:5432:hist:ward:commented\n#db:*:*:*:pa:ss\n";
        assert_eq!(pgpass_lookup(text, &["#db", "5432", "hist", "ward"]), None);
        assert_eq!(
            pgpass_lookup("db:5432:hist:ward:pa:ss\n", &["db", "5432", "hist", "ward"]).as_deref(),
            Some("pa:ss")
        );
    }

    /// The password's sources from the environment, as the caller read and passes them:
    /// `PGPASSWORD`, then the password file; never an empty one; `history { password_file }`
    /// before both; none read from this process's environment.
    #[test]
    fn the_password_comes_from_pgpassword_then_pgpassfile_never_an_empty_one() {
        let dir = tempfile::tempdir().unwrap();
        let pass = dir.path().join("pgpass");
        std::fs::write(
            &pass,
            "db:5432:hist:ward:from-file\nother:5432:hist:ward:no\n",
        )
        .unwrap();
        let password = |file: Option<&Path>, pgpassword: Option<&str>, pgpass: Option<&Path>| {
            let url = "postgres://ward@db:5432/hist";
            match Location::parse_in(url, file, pgpassword, pgpass, "--db").unwrap() {
                Location::Postgres(t) => t
                    .config
                    .get_password()
                    .map(|p| String::from_utf8_lossy(p).into_owned()),
                Location::Sqlite(p) => panic!("read as the file {}", p.display()),
            }
        };
        let pass = Some(pass.as_path());
        let missing = dir.path().join("missing");
        for (pgpassword, pgpass, want) in [
            (Some("from-env"), pass, Some("from-env")),
            (Some(""), pass, Some("from-file")),
            (None, pass, Some("from-file")),
            (None, Some(missing.as_path()), None),
            (None, None, None),
        ] {
            assert_eq!(
                password(None, pgpassword, pgpass).as_deref(),
                want,
                "PGPASSWORD={pgpassword:?} file={pgpass:?}"
            );
        }
        // history { password_file } comes first.
        let first = dir.path().join("first");
        std::fs::write(&first, "from-config\n").unwrap();
        assert_eq!(
            password(Some(&first), Some("from-env"), pass).as_deref(),
            Some("from-config")
        );
        // Nothing given, nothing read: not this process's PGPASSWORD, PGPASSFILE or ~/.pgpass.
        assert_eq!(password(None, None, None), None);
        let l = Location::parse("postgres://ward@db:5432/hist", None, "--db").unwrap();
        assert!(matches!(l, Location::Postgres(t) if t.config.get_password().is_none()));
    }

    #[test]
    fn libpq_pairs_take_spaces_around_equals_and_escapes() {
        assert_eq!(
            libpq_pairs(r" host = db  dbname=a\ b user='x y'").unwrap(),
            [
                ("host".to_string(), "db".to_string()),
                ("dbname".to_string(), "a b".to_string()),
                ("user".to_string(), "x y".to_string()),
            ]
        );
        assert!(libpq_pairs("host").unwrap_err().contains("without `=`"));
        assert!(libpq_pairs("host='db")
            .unwrap_err()
            .contains("no closing quote"));
    }
}
