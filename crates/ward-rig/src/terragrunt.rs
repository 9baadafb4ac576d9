//! A stand-in for Terragrunt in ward's tests: no Terragrunt binary is installed where the suite
//! runs, so tests that run a Terragrunt unit through ward put this shell script first on the
//! `PATH` ward's commands run with ([`write_fake`]).
//!
//! It implements only what ward uses, `terragrunt run --non-interactive --tf-path TF -- ARGS...`
//! (`ward_repo::terragrunt::run_args`), started in a unit's directory:
//!
//! 1. it reads the unit's `terraform { source = "PATH" }` (a local path, relative to the unit);
//! 2. copies the module's files into the unit's `.terragrunt-cache/ward-fake/` (the `.tf` files of
//!    an earlier copy removed first; its `.terraform/` and any state kept), then the unit's own
//!    files except `terragrunt.hcl`, as Terragrunt copies a unit's files beside its module;
//! 3. runs `TF ARGS...` there, with `exec`, so Terraform's exit code and output are its own.
//!
//! Each call appends its arguments, one line, to `$WARD_FAKE_TERRAGRUNT_LOG` when that is set,
//! so a test can prove which commands went through it. Anything else (another subcommand, a
//! flag it does not know, a remote source, `include`, `dependency`, `generate`) exits 64 with a
//! message: the stand-in never pretends to support more than it does.

use crate::RigError;
use std::path::{Path, PathBuf};

/// The script (POSIX `sh`).
pub const SCRIPT: &str = r#"#!/bin/sh
# ward's test stand-in for Terragrunt (crates/ward-rig/src/terragrunt.rs): only
# `terragrunt run --non-interactive --tf-path TF -- ARGS...` on a unit with a local source.
set -eu
die() { echo "fake terragrunt: $*" >&2; exit 64; }
if [ -n "${WARD_FAKE_TERRAGRUNT_LOG:-}" ]; then
  printf '%s %s\n' "$(pwd)" "$*" >> "$WARD_FAKE_TERRAGRUNT_LOG"
fi
[ "${1:-}" = run ] || die "only 'run' is supported, not: $*"
shift
tf=
interactive=yes
while [ $# -gt 0 ]; do
  case "$1" in
    --non-interactive) interactive=no; shift ;;
    --tf-path) [ $# -ge 2 ] || die "--tf-path needs a value"; tf=$2; shift 2 ;;
    --) shift; break ;;
    *) die "unsupported flag: $1" ;;
  esac
done
[ "$interactive" = no ] || die "ward always passes --non-interactive"
[ -n "$tf" ] || die "--tf-path is required"
[ -f terragrunt.hcl ] || die "no terragrunt.hcl in $(pwd)"
for block in include dependency generate remote_state; do
  if grep -Eq "^[[:space:]]*$block([[:space:]]|\{)" terragrunt.hcl; then
    die "'$block' blocks are not supported by this stand-in"
  fi
done
src=$(sed -n 's/^[[:space:]]*source[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' terragrunt.hcl | head -n 1)
[ -n "$src" ] || die "terragrunt.hcl has no terraform { source = \"...\" }"
case "$src" in
  /*|./*|../*) ;;
  *) die "only local sources are supported, not: $src" ;;
esac
[ -d "$src" ] || die "the source $src is not a directory"
work=.terragrunt-cache/ward-fake
mkdir -p "$work"
for f in "$work"/*.tf; do
  [ -f "$f" ] && rm -f "$f"
done
for f in "$src"/* ./*; do
  [ -f "$f" ] || continue
  [ "$(basename "$f")" = terragrunt.hcl ] && continue
  cp "$f" "$work/"
done
cd "$work"
exec "$tf" "$@"
"#;

/// Writes the stand-in as `dir/terragrunt` (mode 0755) and returns its path; put `dir` first on
/// the `PATH` the commands under test run with.
pub fn write_fake(dir: &Path) -> Result<PathBuf, RigError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir)
        .map_err(|e| RigError::io(format!("create {}", dir.display()), e))?;
    let p = dir.join("terragrunt");
    let what = || format!("write {}", p.display());
    std::fs::write(&p, SCRIPT).map_err(|e| RigError::io(what(), e))?;
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| RigError::io(what(), e))?;
    Ok(p)
}

/// A `PATH` value with `dir` first, then ward's own `PATH`.
pub fn path_with(dir: &Path) -> String {
    let rest = std::env::var("PATH").unwrap_or_default();
    if rest.is_empty() {
        dir.display().to_string()
    } else {
        format!("{}:{rest}", dir.display())
    }
}
