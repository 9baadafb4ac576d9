//! File safety for every file ward writes: the one atomic write and the one update lock.
//!
//! - [`write_atomic`] / [`write_atomic_with`]: the bytes go to a new temporary file with a random
//!   name in the target's directory (created exclusively, so a planted file or symlink at that
//!   name is never opened), are flushed to disk, and the file is renamed over the target; the
//!   directory is then flushed too. A target that is a symlink is refused: ward never writes
//!   through one. [`Mode::Private`] (0600) is for files holding approvals and records.
//!   Only a regular file (or a missing path) is ever replaced: a report given a character device,
//!   a named pipe or a socket (`-o /dev/null`, `-o /dev/stdout`, a pipe to a log shipper) is
//!   written in place, so the device or pipe stays what it was; a directory, a block device, or
//!   any special file where ward keeps state ([`Mode::Private`]) is refused ([`FsError::NotAFile`]).
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
    /// The target exists and is not something ward may write there: a directory, a block
    /// device, or (for files that hold ward's state, [`Mode::Private`]) any special file.
    #[error("{path}: is {what}; {help}")]
    NotAFile {
        /// The target.
        path: String,
        /// What it is (`a directory`, `a block device`, `a named pipe`...).
        what: &'static str,
        /// What to do instead.
        help: &'static str,
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
    match target_kind(path, mode)? {
        Target::Replace => {}
        Target::InPlace => return write_in_place(path, emit),
        Target::Socket => return write_to_socket(path, emit),
    }
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

/// How a target is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A regular file or a missing path: replaced atomically.
    Replace,
    /// A character device or a named pipe: opened and written in place.
    InPlace,
    /// A Unix socket: connected to and written.
    Socket,
}

/// What `path` is (never following a link: [`refuse_symlink`] ran first), and so how it may be
/// written; the one rule for every path ward writes.
fn target_kind(path: &Path, mode: Mode) -> Result<Target, FsError> {
    use std::os::unix::fs::FileTypeExt;
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::Replace),
        Err(e) => return Err(io(path, "inspect")(e)),
    };
    let t = meta.file_type();
    let refuse = |what: &'static str, help: &'static str| {
        Err(FsError::NotAFile {
            path: path.display().to_string(),
            what,
            help,
        })
    };
    if t.is_file() {
        return Ok(Target::Replace);
    }
    if t.is_dir() {
        return refuse("a directory", "give the path of a file inside it");
    }
    if t.is_block_device() {
        return refuse(
            "a block device",
            "ward writes reports to files, character devices (/dev/null, /dev/stdout), named pipes and sockets only",
        );
    }
    if mode == Mode::Private {
        let what = if t.is_char_device() {
            "a character device"
        } else if t.is_fifo() {
            "a named pipe"
        } else if t.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        return refuse(
            what,
            "this file holds ward's state (approvals, records) and must be a regular file: give a file path",
        );
    }
    if t.is_char_device() || t.is_fifo() {
        Ok(Target::InPlace)
    } else if t.is_socket() {
        Ok(Target::Socket)
    } else {
        refuse("not a regular file", "give the path of a regular file")
    }
}

/// Writes into an existing character device or named pipe, leaving it what it is.
fn write_in_place(
    path: &Path,
    emit: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), FsError> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(nix::fcntl::OFlag::O_NOFOLLOW.bits())
        .open(path)
        .map_err(io(path, "open"))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
    emit(&mut out)
        .and_then(|()| out.flush())
        .map_err(io(path, "write"))
}

/// Writes to a listening Unix socket.
fn write_to_socket(
    path: &Path,
    emit: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), FsError> {
    let stream =
        std::os::unix::net::UnixStream::connect(path).map_err(io(path, "connect to the socket"))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stream);
    emit(&mut out)
        .and_then(|()| out.flush())
        .map_err(io(path, "write"))
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
    use std::os::unix::fs::FileTypeExt;

    /// Makes a device node in a temporary directory (`mknod` needs root: `None`, after saying
    /// the case was skipped, otherwise).
    fn device(dir: &Path, name: &str, kind: nix::sys::stat::SFlag) -> Option<PathBuf> {
        let p = dir.join(name);
        // 1:3 is the null device's number on Linux.
        match nix::sys::stat::mknod(
            &p,
            kind,
            nix::sys::stat::Mode::from_bits_truncate(0o666),
            nix::sys::stat::makedev(1, 3),
        ) {
            Ok(()) => Some(p),
            Err(e) => {
                eprintln!("skipped: mknod {} failed ({e}): not root", p.display());
                None
            }
        }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_character_device_is_written_in_place_never_replaced() {
        let d = tempfile::tempdir().unwrap();
        let Some(null) = device(d.path(), "null", nix::sys::stat::SFlag::S_IFCHR) else {
            return;
        };
        write_atomic(&null, b"a report", Mode::Public).unwrap();
        write_atomic_with(&null, Mode::Public, |w| w.write_all(b"streamed")).unwrap();
        let t = std::fs::symlink_metadata(&null).unwrap().file_type();
        assert!(t.is_char_device(), "the device was replaced: {t:?}");
        assert_eq!(names(d.path()), ["null"], "no temporary file is left");
        // A file holding ward's state is never a device.
        let e = write_atomic(&null, b"{}", Mode::Private).unwrap_err();
        assert!(matches!(e, FsError::NotAFile { .. }), "{e}");
        assert!(e.to_string().contains("character device"), "{e}");
    }

    #[test]
    fn a_block_device_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let Some(blk) = device(d.path(), "disk", nix::sys::stat::SFlag::S_IFBLK) else {
            return;
        };
        let e = write_atomic(&blk, b"a report", Mode::Public).unwrap_err();
        assert!(matches!(e, FsError::NotAFile { .. }), "{e}");
        assert!(std::fs::symlink_metadata(&blk)
            .unwrap()
            .file_type()
            .is_block_device());
    }

    #[test]
    fn a_named_pipe_is_written_in_place() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("shipper");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        // The reading end is opened first (without waiting for a writer), so a write that
        // replaced the pipe instead of writing into it reads back nothing rather than hanging.
        let mut reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
            .open(&fifo)
            .unwrap();
        nix::fcntl::fcntl(
            &reader,
            nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::empty()),
        )
        .unwrap();
        write_atomic(&fifo, b"line one\n", Mode::Public).unwrap();
        let mut got = Vec::new();
        std::io::Read::read_to_end(&mut reader, &mut got).unwrap();
        assert_eq!(got, b"line one\n");
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
        assert_eq!(names(d.path()), ["shipper"]);
        let e = write_atomic(&fifo, b"{}", Mode::Private).unwrap_err();
        assert!(e.to_string().contains("named pipe"), "{e}");
    }

    #[test]
    fn a_socket_is_written_to() {
        let d = tempfile::tempdir().unwrap();
        let sock = d.path().join("s");
        let listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        write_atomic(&sock, b"to the socket", Mode::Public).unwrap();
        // The write has connected (or has replaced the socket, and nothing is waiting).
        listener.set_nonblocking(true).unwrap();
        let (mut c, _) = listener.accept().expect("ward connected to the socket");
        c.set_nonblocking(false).unwrap();
        let mut got = Vec::new();
        std::io::Read::read_to_end(&mut c, &mut got).unwrap();
        assert_eq!(got, b"to the socket");
        assert!(std::fs::symlink_metadata(&sock)
            .unwrap()
            .file_type()
            .is_socket());
    }

    #[test]
    fn a_directory_is_refused_and_left_alone() {
        let d = tempfile::tempdir().unwrap();
        let sub = d.path().join("out");
        std::fs::create_dir(&sub).unwrap();
        for mode in [Mode::Public, Mode::Private] {
            let e = write_atomic(&sub, b"x", mode).unwrap_err();
            assert!(matches!(e, FsError::NotAFile { .. }), "{e}");
            assert!(e.to_string().contains("is a directory"), "{e}");
        }
        assert!(sub.is_dir());
        assert_eq!(names(d.path()), ["out"]);
    }
}
