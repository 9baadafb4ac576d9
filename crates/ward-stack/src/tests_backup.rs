//! The state backup and its directories, without Terraform (#33: `backup` and `private_dir`
//! were reached only by the Terraform teardown tests).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use crate::backup::{backup, private_dir_under};
use crate::order::{instances, Instance};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use ward_config::Config;
use ward_terraform::state::StateInfo;
use ward_terraform::PulledState;

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// The instance `live/net` at site `dc0`.
fn instance() -> Instance {
    let c = Config::parse(
        "layer \"l\" {\n  level = 0\n}\nroot \"live/net\" {\n  path = \"net\"\n  layer = \"l\"\n  site \"dc0\" {}\n}\n",
        "ward.hcl",
        Path::new("/repo"),
    )
    .unwrap();
    instances(&c, Path::new("/repo")).unwrap().remove(0)
}

fn pulled(bytes: &[u8]) -> PulledState {
    PulledState {
        bytes: bytes.to_vec(),
        sha256: ward_terraform::sha256(bytes),
        info: Some(StateInfo {
            lineage: "lin/eage".into(),
            serial: 7,
            terraform_version: None,
            resources: 1,
            provider_hosts: Default::default(),
        }),
    }
}

/// `stack.backup_dir` itself is made (owner-only, with its parents) when it is not there yet.
#[test]
fn a_backup_dir_not_yet_made_is_made_owner_only() {
    let t = tempfile::tempdir().unwrap();
    let base = t.path().join("a").join("backups");
    let d = private_dir_under(&base, &["r", "s"]).unwrap();
    assert_eq!(d, base.join("r").join("s"));
    for p in [&base, &base.join("r"), &d] {
        assert_eq!(mode(p), 0o700, "{}", p.display());
    }
}

/// The backup lands at `<root>/<site>/<serial>-<lineage>-<sha256>.tfstate`, owner-only, holds
/// exactly what `state pull` printed, and is read back and compared: a digest that does not
/// match what was written is a failure, and nothing is kept as the backup.
#[test]
fn a_backup_is_written_read_back_and_compared() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("backups");
    let bytes = br#"{"version":4,"serial":7,"lineage":"lin/eage","resources":[{}]}"#;
    let s = pulled(bytes);
    let b = backup(&dir, &instance(), &s).unwrap();
    let hex = s.sha256.trim_start_matches("sha256:");
    let p = dir
        .join("live_net")
        .join("dc0")
        .join(format!("7-lin_eage-{hex}.tfstate"));
    assert_eq!(b.path, p.display().to_string());
    assert_eq!(
        (b.sha256.as_str(), b.serial, b.lineage.as_str()),
        (s.sha256.as_str(), 7, "lin/eage")
    );
    assert_eq!(std::fs::read(&p).unwrap(), bytes);
    assert_eq!(mode(&p), 0o600);

    let mut wrong = pulled(bytes);
    wrong.sha256 = ward_terraform::sha256(b"other");
    let e = backup(&dir, &instance(), &wrong).unwrap_err();
    assert!(
        e.contains(&format!(
            "read back as {}, not the {}",
            s.sha256, wrong.sha256
        )) && e.contains("nothing was destroyed"),
        "{e}"
    );
    let mut empty = pulled(b"");
    let e = backup(&dir, &instance(), &empty).unwrap_err();
    assert!(e.contains("printed nothing"), "{e}");
    empty.info = None;
    let e = backup(&dir, &instance(), &empty).unwrap_err();
    assert!(e.contains("the state is empty"), "{e}");
}

/// A component that cannot even be looked at is an error saying so, and nothing is created
/// for it; a directory that cannot be made is an error saying that (here `/proc/self`, where
/// even root makes none), never taken as made.
#[test]
fn what_cannot_be_inspected_or_made_says_which() {
    let t = tempfile::tempdir().unwrap();
    let long = "x".repeat(300);
    let e = private_dir_under(t.path(), &[&long]).unwrap_err();
    assert!(
        e.starts_with(&format!(
            "cannot inspect {}",
            t.path().join(&long).display()
        )),
        "{e}"
    );
    let e = private_dir_under(Path::new("/proc/self"), &["ward-backups"]).unwrap_err();
    assert!(
        e.starts_with("cannot create /proc/self/ward-backups: "),
        "{e}"
    );
}

/// Several wards making the same directories at once all succeed: one makes each directory,
/// the others find it made.
#[test]
fn wards_making_the_same_directories_at_once_all_succeed() {
    let t = tempfile::tempdir().unwrap();
    for round in 0..100 {
        let round = round.to_string();
        let barrier = std::sync::Barrier::new(8);
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    s.spawn(|| {
                        barrier.wait();
                        private_dir_under(t.path(), &[&round, "site"])
                    })
                })
                .collect();
            for h in handles {
                let d = h.join().unwrap();
                assert_eq!(d, Ok(t.path().join(&round).join("site")));
            }
        });
    }
}
