//! `ward serve` and `ward report --html` as the binary runs them: where it may listen, that a
//! URL with a password is refused without being repeated, that it serves and refuses writes,
//! and that the static report holds the history and is the same bytes twice.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn ward() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ward"));
    c.env_remove("WARD_SERVE_TOKEN").env_remove("PGPASSWORD");
    c
}

fn fixture(dir: &Path) -> PathBuf {
    let db = dir.join("h.sqlite");
    let mut s = ward_store::Store::open(&db).unwrap();
    ward_serve::fixture::write(&mut s, &ward_serve::fixture::root_names(5), 6).unwrap();
    db
}

fn fails(args: &[&str], dir: &Path) -> String {
    let out = ward().args(args).current_dir(dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_non_loopback_address_needs_the_flag_and_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = fixture(dir.path());
    let db = db.to_str().unwrap();
    let e = fails(&["serve", "--db", db, "--listen", "0.0.0.0:0"], dir.path());
    assert!(
        e.contains("refusing to listen on 0.0.0.0:0") && e.contains("--allow-remote"),
        "{e}"
    );
    let e = fails(
        &[
            "serve",
            "--db",
            db,
            "--listen",
            "0.0.0.0:0",
            "--allow-remote",
        ],
        dir.path(),
    );
    assert!(
        e.contains("--allow-remote needs a token") && e.contains("WARD_SERVE_TOKEN"),
        "{e}"
    );
    let short = dir.path().join("token");
    std::fs::write(&short, "abc\n").unwrap();
    // Owner-only, as a token file must be (checked first: see the test below).
    std::fs::set_permissions(&short, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let e = fails(
        &[
            "serve",
            "--db",
            db,
            "--listen",
            "0.0.0.0:0",
            "--allow-remote",
            "--token-file",
            short.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(e.contains("at least 16"), "{e}");
    // There is no way to give the token in argv.
    let out = ward()
        .args(["serve", "--db", db, "--token", "0123456789abcdef"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_url_with_a_password_is_refused_and_not_repeated() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in [
        vec!["serve", "--db", "postgres://ward:hunter2@db.invalid/ward"],
        vec![
            "report",
            "--html",
            "x.html",
            "--db",
            "postgres://ward:hunter2@db.invalid/ward",
        ],
        vec![
            "drift",
            "history",
            "--db",
            "postgres://ward:hunter2@db.invalid/ward",
        ],
    ] {
        let e = fails(&cmd, dir.path());
        assert!(
            e.contains("carries a password") && e.contains("PGPASSWORD"),
            "{e}"
        );
        assert!(!e.contains("hunter2"), "{e}");
    }
    std::fs::write(
        dir.path().join("ward.hcl"),
        "history {\n  url = \"postgresql://ward:hunter2@db.invalid/ward\"\n}\n",
    )
    .unwrap();
    let e = fails(&["report", "--html", "x.html"], dir.path());
    assert!(
        e.contains("ward.hcl:2:9") && e.contains("carries a password"),
        "{e}"
    );
    assert!(!e.contains("hunter2"), "{e}");
    assert!(!dir.path().join("x.html").exists());
}

/// The dashboard process, killed when dropped.
struct Serving(std::process::Child);
impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn http(port: u16, method: &str, path: &str) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out
}

#[test]
fn serves_the_history_from_ward_hcl_and_refuses_writes() {
    let dir = tempfile::tempdir().unwrap();
    let db = fixture(dir.path());
    // The database named by `history { url }`, relative to ward.hcl, and its layers.
    std::fs::write(
        dir.path().join("ward.hcl"),
        "history {\n  url = \"h.sqlite\"\n}\nlayer \"network\" {\n  level = 0\n}\nroot \"live/net\" {\n  path = \"live/net\"\n  layer = \"network\"\n}\n",
    )
    .unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _srv = Serving(
        ward()
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "ward serve did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let page = http(port, "GET", "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("Layer network"), "{page}");
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt;"),
        "{page}"
    );
    let before = std::fs::metadata(&db).unwrap().len();
    for m in ["POST", "PUT", "DELETE", "PATCH"] {
        let r = http(port, m, "/api/v1/overview");
        assert!(r.starts_with("HTTP/1.1 405"), "{m}: {r}");
    }
    assert_eq!(std::fs::metadata(&db).unwrap().len(), before);
}

#[test]
fn the_static_report_holds_the_history_and_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let db = fixture(dir.path());
    let report = |name: &str| {
        let out = dir.path().join(name);
        let o = ward()
            .args([
                "report",
                "--html",
                out.to_str().unwrap(),
                "--db",
                db.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
        std::fs::read_to_string(&out).unwrap()
    };
    let html = report("report.html");
    // Over an existing file (written atomically), and again elsewhere: the same bytes.
    assert_eq!(report("report.html"), html);
    assert_eq!(report("again.html"), html);
    for root in ["live/net", "live/app", "fleet/root0003", "fleet/root0004"] {
        assert!(
            html.contains(&format!(">{}</a>", root.replace('/', "&#x2f;"))),
            "{root}"
        );
    }
    assert!(html.contains("&lt;script&gt;alert(1)&lt;&#x2f;script&gt;"));
    assert!(!html.contains("<script"), "no script in the report");
    assert!(html.contains("<style>") && !html.contains("/static/"));
    assert_eq!(
        html.matches("<svg class=\"chart\"").count(),
        5,
        "one timeline per root"
    );
}

/// Staleness: `--stale-after`, else `history { stale_after }`, else 2 days (the fixture's runs
/// are in November 2026, long before the clock of any run of this test).
#[test]
fn the_report_marks_stale_roots_by_the_flag_or_ward_hcl() {
    let dir = tempfile::tempdir().unwrap();
    let db = fixture(dir.path());
    let write = |extra: &[&str]| {
        let out = dir.path().join("r.html");
        let o = ward()
            .args(["report", "--html", out.to_str().unwrap()])
            .args(extra)
            .current_dir(dir.path())
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).to_string(),
            std::fs::read_to_string(&out).unwrap_or_default(),
        )
    };
    let hcl = |stale: &str| {
        std::fs::write(
            dir.path().join("ward.hcl"),
            format!(
                "history {{\n  url = {:?}\n{stale}}}\n",
                db.display().to_string()
            ),
        )
        .unwrap();
    };
    hcl("");
    let (code, _, html) = write(&[]);
    assert_eq!(code, Some(0));
    assert!(
        html.contains("(no run for 2d)") && html.contains("stale · "),
        "default 2d"
    );
    hcl("  stale_after = \"5000w\"\n");
    let (_, _, html) = write(&[]);
    assert!(
        html.contains("(no run for 5000w)") && !html.contains("stale · "),
        "from ward.hcl"
    );
    let (_, _, html) = write(&["--stale-after", "1d"]);
    assert!(
        html.contains("(no run for 1d)") && html.contains("stale · "),
        "the flag wins"
    );
    hcl("  stale_after = \"soon\"\n");
    let (code, e, _) = write(&[]);
    assert_eq!(code, Some(2), "{e}");
    assert!(
        e.contains("ward.hcl:3:17") && e.contains("stale_after"),
        "{e}"
    );
}

/// A command that only reads the history never creates one: a mistyped `--db` is an error that
/// says so (exit 2), and no file appears (#33 item 11).
#[test]
fn reading_commands_never_create_a_history() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("typo.sqlite");
    let m = missing.to_str().unwrap();
    // serve first, on a deadline: before the fix it created the file and went on serving.
    let mut child = ward()
        .args(["serve", "--db", m, "--listen", "127.0.0.1:0"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("ward serve --db {m} is serving a history it created");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut e = String::new();
    child.stderr.take().unwrap().read_to_string(&mut e).unwrap();
    assert_eq!(status.code(), Some(2), "{e}");
    assert!(e.contains("no history database at"), "{e}");
    assert!(!missing.exists());
    for args in [
        vec!["report", "--html", "out.html", "--db", m],
        vec!["drift", "history", "--db", m],
    ] {
        let e = fails(&args, dir.path());
        assert!(e.contains("no history database at"), "{args:?}: {e}");
        assert!(!missing.exists(), "{args:?} created {m}");
        assert!(!dir.path().join("out.html").exists(), "{args:?}");
    }
}

/// `--allow-remote` needs a token on loopback too, and a token file others can read is refused
/// (#33 items 1 and 2).
#[test]
fn allow_remote_needs_a_token_and_the_token_file_must_be_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let db = fixture(dir.path());
    let db = db.to_str().unwrap();
    let e = fails(
        &[
            "serve",
            "--db",
            db,
            "--listen",
            "127.0.0.1:0",
            "--allow-remote",
        ],
        dir.path(),
    );
    assert!(e.contains("needs a token"), "{e}");
    let tf = dir.path().join("token");
    std::fs::write(&tf, "0123456789abcdef0123\n").unwrap();
    std::fs::set_permissions(&tf, std::fs::Permissions::from_mode(0o644)).unwrap();
    let e = fails(
        &[
            "serve",
            "--db",
            db,
            "--listen",
            "127.0.0.1:0",
            "--token-file",
            tf.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(
        e.contains("can be read by others") && e.contains("chmod 600"),
        "{e}"
    );
    assert!(!e.contains("0123456789abcdef0123"), "{e}");
}
