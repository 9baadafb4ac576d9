//! The base directories: each XDG variable first, else its place in `HOME`; an empty value is
//! unset; neither set, no default (the commands then say what to pass).

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
