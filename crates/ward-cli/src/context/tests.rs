//! The base directories: each XDG variable first, else its place in `HOME`; an empty value is
//! unset; neither set, no default (the commands then say what to pass). And `ward.hcl` read in
//! one place.

use super::BaseDirs;
use std::path::PathBuf;

fn dirs(home: Option<&str>, state: Option<&str>, cache: Option<&str>) -> BaseDirs {
    BaseDirs {
        home: home.map(PathBuf::from),
        state_home: state.map(PathBuf::from),
        cache_home: cache.map(PathBuf::from),
    }
}

/// The state and cache directories, and the history file and `--resolve` cache in them.
fn all(d: &BaseDirs) -> [Option<String>; 4] {
    [
        d.state_dir(),
        d.cache_dir(),
        d.history(),
        d.ls_remote_cache(),
    ]
    .map(|p| p.map(|p| p.display().to_string()))
}

fn some(paths: [&str; 4]) -> [Option<String>; 4] {
    paths.map(|p| Some(p.to_string()))
}

#[test]
fn the_xdg_variable_comes_first() {
    assert_eq!(
        all(&dirs(Some("/h"), Some("/s"), Some("/c"))),
        some(["/s", "/c", "/s/ward/drift.sqlite", "/c/ward/ls-remote"])
    );
}

#[test]
fn without_it_the_directories_are_in_home() {
    assert_eq!(
        all(&dirs(Some("/h"), None, None)),
        some([
            "/h/.local/state",
            "/h/.cache",
            "/h/.local/state/ward/drift.sqlite",
            "/h/.cache/ward/ls-remote"
        ])
    );
}

#[test]
fn an_empty_xdg_variable_is_unset() {
    // Read as a relative path, an empty value would put the files in whatever directory ward
    // ran in.
    assert_eq!(
        all(&dirs(Some("/h"), Some(""), Some(""))),
        all(&dirs(Some("/h"), None, None))
    );
}

#[test]
fn home_unset_or_empty_and_no_xdg_variable_is_no_default() {
    for home in [None, Some("")] {
        for xdg in [None, Some("")] {
            let d = dirs(home, xdg, xdg);
            assert_eq!(
                all(&d),
                [None, None, None, None],
                "HOME {home:?}, XDG {xdg:?}"
            );
        }
    }
    // One XDG variable set is enough for its own directory only.
    assert_eq!(
        all(&dirs(None, Some("/s"), None)),
        [
            Some("/s".to_string()),
            None,
            Some("/s/ward/drift.sqlite".to_string()),
            None
        ]
    );
}

/// `ward.hcl` is found and read in one place of ward-cli, [`super::read_config`] (#34 item 1):
/// no other file of `src` calls ward-config's discovery or loading.
#[test]
fn ward_hcl_is_found_and_read_only_by_read_config() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // Every `.rs` file of `src`, through the one directory walker.
    let all: Vec<(String, PathBuf)> = ward_check::ward_repo::walk::Walk::new(&src)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.rel().ends_with(".rs"))
        .map(|e| (e.rel().to_string(), e.path().to_path_buf()))
        .collect();
    let mut callers = Vec::new();
    for (rel, f) in &all {
        if rel == "context/tests.rs" {
            continue;
        }
        for (i, line) in std::fs::read_to_string(f).unwrap().lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let calls = [
                "ward_config::discover(",
                "load_found",
                "Config::load(",
                "Config::parse(",
            ]
            .iter()
            .any(|n| code.contains(n));
            if calls {
                callers.push(format!("{rel}:{}", i + 1));
            }
        }
    }
    assert!(all.len() > 10, "{all:?}");
    assert!(
        !callers.is_empty(),
        "read_config no longer calls ward-config"
    );
    let elsewhere: Vec<&String> = callers
        .iter()
        .filter(|c| !c.starts_with("context.rs:"))
        .collect();
    assert!(
        elsewhere.is_empty(),
        "ward.hcl found or read outside context::read_config: {elsewhere:?}"
    );
}
