//! What git says about the tree: the state files it tracks (discovery's last step). Runs `git`
//! through ward-exec, with a timeout; no git, no work tree or no answer is `None`.

use std::path::Path;

/// How long each local `git` command of [`git_tracked_state`] may take.
const GIT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// The state files git tracks under `root`; `None` when `root` is not in a git work tree or git
/// cannot tell (not installed, timed out).
pub(crate) fn git_tracked_state(root: &Path) -> Option<Vec<String>> {
    let git = |args: &[&str]| {
        ward_exec::Command::new("git", GIT_TIMEOUT)
            .arg("-C")
            .arg(root)
            .args(args)
            .env("GIT_TERMINAL_PROMPT", "0")
            .run()
            .ok()
            .filter(ward_exec::Output::success)
    };
    git(&["rev-parse", "--is-inside-work-tree"])?;
    let out = git(&[
        "-c",
        "core.quotepath=off",
        "ls-files",
        "-z",
        "--",
        "*.tfstate",
        "*.tfstate.backup",
    ])?
    .require_whole()
    .ok()?;
    let mut v: Vec<String> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect();
    v.sort();
    Some(v)
}
