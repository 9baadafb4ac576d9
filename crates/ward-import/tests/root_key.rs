//! The name a root's adoption records are kept under (`adoption::root_key`): its `root` block's
//! name in `ward.hcl`, else its canonical path.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_import::adoption::root_key;

#[test]
fn a_declared_root_is_kept_under_its_name_any_other_under_its_path() {
    let repo = tempfile::tempdir().unwrap();
    let repo = repo.path();
    for d in ["live/network", "live/app", "other"] {
        std::fs::create_dir_all(repo.join(d)).unwrap();
    }
    let config = ward_config::Config::parse(
        "root \"network\" {\n  path = \"live/network\"\n}\n",
        "ward.hcl",
        repo,
    )
    .unwrap();
    assert_eq!(
        root_key(Some(&config), &repo.join("live/network")),
        "network"
    );
    // Named however the directory is reached.
    assert_eq!(
        root_key(Some(&config), &repo.join("live/app/../network")),
        "network"
    );
    let canonical = |d: &str| {
        std::fs::canonicalize(repo.join(d))
            .unwrap()
            .display()
            .to_string()
    };
    // Not declared, or no configuration: the canonical path.
    assert_eq!(
        root_key(Some(&config), &repo.join("live/app")),
        canonical("live/app")
    );
    assert_eq!(
        root_key(None, &repo.join("live/network")),
        canonical("live/network")
    );
}
