//! File safety for every file ward writes: the one atomic write and the one update lock.
//!
//! - [`write_atomic`] / [`write_atomic_with`]: the bytes go to a new temporary file with a random
//!   name in the target's directory (created exclusively, so a planted file or symlink at that
//!   name is never opened), are flushed to disk, and the file is renamed over the target; the
//!   directory is then flushed too. A target that is a symlink is refused: ward never writes
//!   through one. [`Mode::Private`] (0600) is for files holding approvals and records.
//! - [`lock`]: an exclusive advisory lock (`flock`) on a sibling lock file `<file>.lock`, held
//!   for a read-modify-write update of `<file>`, waited for at most a bounded time.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long [`lock`] waits for another ward process by default.
pub const DEFAULT_LOCK_WAIT: Duration = Duration::from_secs(30);

/// What went wrong writing or locking a file.
#[derive(Debug, thiserror::Error)]
pub enum FsError {
    /// The target path is a symlink: ward does not write through symlinks.
    #[error("{path}: is a symbolic link; ward does not write through symlinks: remove the link (or give the real path)")]
    Symlink {
        /// The target.
        path: String,
    },
    /// An I/O error while doing `action`.
    #[error("{path}: cannot {action}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What ward was doing.
        action: &'static str,
        /// The error.
        source: std::io::Error,
    },
    /// Another process held the lock for longer than the wait.
    #[error("{path}: another ward process has held the lock {lock} for more than {waited:?}; wait for it to finish and run again (remove {lock} only if no ward process is running)")]
    LockTimeout {
        /// The locked file.
        path: String,
        /// The lock file.
        lock: String,
        /// How long ward waited.
        waited: Duration,
    },
}

/// Who may read a written file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Owner read/write only (0600): approvals, gate and protection records.
    Private,
    /// 0644 before the umask: reports.
    Public,
}

impl Mode {
    fn bits(self) -> u32 {
        match self {
            Mode::Private => 0o600,
            Mode::Public => 0o644,
        }
    }
}

fn io<'a>(path: &'a Path, action: &'static str) -> impl Fn(std::io::Error) -> FsError + 'a {
    move |source| FsError::Io {
        path: path.display().to_string(),
        action,
        source,
    }
}

/// Refuses a path that is a symlink (a missing path is fine).
pub fn refuse_symlink(path: &Path) -> Result<(), FsError> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(FsError::Symlink {
            path: path.display().to_string(),
        }),
        _ => Ok(()),
    }
}

fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `path` atomically (see the crate documentation). The directory must exist
/// (callers that own their directory, like `.ward/`, create it first).
pub fn write_atomic(path: &Path, bytes: &[u8], mode: Mode) -> Result<(), FsError> {
    write_atomic_with(path, mode, |w| w.write_all(bytes))
}

/// [`write_atomic`] for output produced piece by piece: `emit` writes into a buffered
/// temporary file, which replaces `path` only when `emit` succeeded.
pub fn write_atomic_with(
    path: &Path,
    mode: Mode,
    emit: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), FsError> {
    refuse_symlink(path)?;
    let dir = parent_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "ward".into());
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(mode.bits()))
        .tempfile_in(&dir)
        .map_err(io(path, "create a temporary file beside it"))?;
    {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file());
        emit(&mut out)
            .and_then(|()| out.flush())
            .map_err(io(path, "write"))?;
    }
    tmp.as_file()
        .sync_all()
        .map_err(io(path, "flush to disk"))?;
    // Checked again just before the rename (the rename replaces a link, never follows it).
    refuse_symlink(path)?;
    tmp.persist(path)
        .map_err(|e| io(path, "rename the temporary file over it")(e.error))?;
    // The rename is durable once the directory is flushed.
    if let Ok(d) = std::fs::File::open(&dir) {
        d.sync_all().map_err(io(&dir, "flush the directory"))?;
    }
    Ok(())
}

/// An exclusive lock on a file's sibling `<file>.lock`, released when dropped.
#[derive(Debug)]
pub struct Lock {
    _held: nix::fcntl::Flock<std::fs::File>,
}

/// The lock file of `path`: `<path>.lock`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".lock");
    PathBuf::from(s)
}

/// Takes the exclusive update lock of `path` (creating its directory and `<path>.lock`, 0600,
/// never through a symlink), waiting at most `wait` for another holder.
pub fn lock(path: &Path, wait: Duration) -> Result<Lock, FsError> {
    let lp = lock_path(path);
    let dir = parent_of(path);
    std::fs::create_dir_all(&dir).map_err(io(&dir, "create the directory"))?;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
        .open(&lp)
        .map_err(|e| {
            if e.raw_os_error() == Some(nix::errno::Errno::ELOOP as i32) {
                FsError::Symlink {
                    path: lp.display().to_string(),
                }
            } else {
                io(&lp, "open the lock file")(e)
            }
        })?;
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        match nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock) {
            Ok(held) => return Ok(Lock { _held: held }),
            Err((f, nix::errno::Errno::EWOULDBLOCK)) | Err((f, nix::errno::Errno::EINTR)) => {
                if start.elapsed() >= wait {
                    return Err(FsError::LockTimeout {
                        path: path.display().to_string(),
                        lock: lp.display().to_string(),
                        waited: wait,
                    });
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
                file = f;
            }
            Err((_, e)) => return Err(io(&lp, "lock the lock file")(std::io::Error::from(e))),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn writes_replace_and_are_private() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("sub/approvals.json");
        assert!(write_atomic(&p, b"one", Mode::Private).is_err());
        std::fs::create_dir(d.path().join("sub")).unwrap();
        write_atomic(&p, b"one", Mode::Private).unwrap();
        write_atomic(&p, b"two", Mode::Private).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // No temporary file is left behind.
        let names: Vec<_> = std::fs::read_dir(d.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn a_planted_fixed_temporary_name_is_not_followed() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let p = d.path().join("approvals.json");
        std::os::unix::fs::symlink(&victim, d.path().join("approvals.json.tmp")).unwrap();
        write_atomic(&p, b"new", Mode::Private).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
    }

    #[test]
    fn a_symlink_target_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let victim = d.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let p = d.path().join("out.json");
        std::os::unix::fs::symlink(&victim, &p).unwrap();
        let e = write_atomic(&p, b"new", Mode::Public).unwrap_err();
        assert!(matches!(e, FsError::Symlink { .. }), "{e}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    }

    #[test]
    fn a_failed_emit_leaves_the_target() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.txt");
        write_atomic(&p, b"old", Mode::Public).unwrap();
        let e = write_atomic_with(&p, Mode::Public, |_| Err(std::io::Error::other("boom")));
        assert!(e.is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
    }

    #[test]
    fn the_lock_is_exclusive_and_bounded() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("approvals.json");
        let held = lock(&p, Duration::from_secs(1)).unwrap();
        let e = lock(&p, Duration::from_millis(50)).unwrap_err();
        assert!(matches!(e, FsError::LockTimeout { .. }), "{e}");
        assert!(e.to_string().contains("approvals.json.lock"), "{e}");
        drop(held);
        lock(&p, Duration::from_millis(50)).unwrap();
    }

    #[test]
    fn a_symlinked_lock_file_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("approvals.json");
        std::os::unix::fs::symlink(d.path().join("elsewhere"), lock_path(&p)).unwrap();
        let e = lock(&p, Duration::from_millis(50)).unwrap_err();
        assert!(matches!(e, FsError::Symlink { .. }), "{e}");
        assert!(!d.path().join("elsewhere").exists());
    }
}
