//! `ward import` records an adoption in the one history every command chooses the same way
//! (#33: "one history, chosen once per run, passed to gate, stack, import, drift, serve"):
//! `--db` read as a SQLite file or a PostgreSQL URL in any spelling, else `history { url }` in
//! ward.hcl, else the default file. Before, `ward import` took `--db` as a file path whatever it
//! said and never read `history { url }`: with a PostgreSQL history, `ward gate` read the
//! adoption from PostgreSQL while `ward import plan` wrote it to a SQLite file, so the adoption
//! lock did not hold. A stand-in `terraform` answers `version -json`, all `ward import plan`
//! asks of it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Repo {
    tmp: tempfile::TempDir,
}

impl Repo {
    /// A repository with one root, `live`, an inventory of one object, a stand-in `terraform`
    /// and `ward.hcl` holding `hcl`.
    fn new(hcl: &str) -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path().join("repo");
        std::fs::create_dir_all(top.join(".git")).unwrap();
        std::fs::create_dir_all(top.join("live")).unwrap();
        std::fs::write(
            top.join("live/main.tf"),
            "resource \"terraform_data\" \"main\" {}\n",
        )
        .unwrap();
        std::fs::write(top.join("ward.hcl"), hcl).unwrap();
        std::fs::write(
            top.join("inventory.json"),
            r#"{"objects": {"terraform_data.main": "net-1"}}"#,
        )
        .unwrap();
        let tf = tmp.path().join("terraform");
        std::fs::write(
            &tf,
            "#!/bin/sh\ncase \"$1\" in\n  version) echo '{\"terraform_version\":\"1.15.5\"}' ;;\n  *) exit 1 ;;\nesac\n",
        )
        .unwrap();
        std::fs::set_permissions(&tf, std::fs::Permissions::from_mode(0o755)).unwrap();
        Repo { tmp }
    }

    fn top(&self) -> PathBuf {
        self.tmp.path().join("repo")
    }

    /// `ward import plan live` in the repository, with `more` arguments; the state and home
    /// directories are the scratch directory's, so the default history is known.
    fn plan(&self, more: &[&str]) -> (i32, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_ward"))
            .args(["import", "plan", "live", "--inventory", "inventory.json"])
            .arg("--terraform")
            .arg(self.tmp.path().join("terraform"))
            .args(["-o", "imports.tf"])
            .args(more)
            .current_dir(self.top())
            .env("XDG_STATE_HOME", self.tmp.path().join("state"))
            .env("HOME", self.tmp.path().join("home"))
            .env_remove("PGPASSWORD")
            .env_remove("PGPASSFILE")
            .output()
            .expect("ward runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn default_history(&self) -> PathBuf {
        self.tmp.path().join("state/ward/drift.sqlite")
    }
}

/// The roots with an adoption recorded in the SQLite history at `db`.
fn adopted(db: &Path) -> Vec<String> {
    let store = ward_store::Store::open(db).unwrap();
    store
        .records(&ward_store::RecordQuery {
            kind: "import-plan",
            root: None,
            key: None,
            limit: 0,
        })
        .unwrap()
        .into_iter()
        .map(|r| r.root)
        .collect()
}

#[test]
fn the_adoption_goes_to_the_history_ward_hcl_names() {
    let r = Repo::new("history {\n  url = \"../adoptions.sqlite\"\n}\n");
    let (code, err) = r.plan(&[]);
    assert_eq!(code, 0, "{err}");
    let named = r.tmp.path().join("adoptions.sqlite");
    assert_eq!(adopted(&named).len(), 1, "{err}");
    assert!(
        !r.default_history().exists(),
        "written to the default history too"
    );
    // --db wins over ward.hcl, as for every command.
    let given = r.tmp.path().join("given.sqlite");
    let (code, err) = r.plan(&["--db", given.to_str().unwrap(), "--readopt"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(adopted(&given).len(), 1);
    assert_eq!(adopted(&named).len(), 1);
}

#[test]
fn a_postgresql_url_in_any_spelling_is_never_taken_for_a_file() {
    let r = Repo::new("");
    for url in [
        "postgres://ward@127.0.0.1:1/ward",
        "Postgres://ward@127.0.0.1:1/ward",
        "POSTGRESQL://ward@127.0.0.1:1/ward",
    ] {
        let (code, err) = r.plan(&["--db", url]);
        // Nothing listens on port 1: the connection is refused, and said so.
        assert_ne!(code, 0, "{url}: {err}");
        assert!(
            err.contains("cannot open the history database") && err.contains("127.0.0.1"),
            "{url}: {err}"
        );
        let made: Vec<_> = std::fs::read_dir(r.top())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.to_ascii_lowercase().starts_with("postgres"))
            .collect();
        assert!(made.is_empty(), "{url}: made {made:?}");
        assert!(!r.default_history().exists());
    }
    // A mistyped URL is refused, not made a file.
    let (code, err) = r.plan(&["--db", "postgress://ward@127.0.0.1:1/ward"]);
    assert_eq!(code, 2, "{err}");
    assert!(!r.top().join("postgress:").exists());
}
