//! ward's one process runner. Every external program ward starts (Terraform, OpenTofu, git,
//! liveness guards) runs through [`Command`]:
//!
//! - **A deadline, always.** [`Command::new`] takes the timeout; there is no way to build a run
//!   without one. When it passes, the whole process group gets `SIGTERM`, then `SIGKILL` after a
//!   grace period ([`DEFAULT_GRACE`]), and the run is [`ExecError::TimedOut`], naming the command
//!   and the timeout.
//! - **Its own process group.** The program leads a new process group, so Terraform's provider
//!   plugins and a guard's background children are killed with it. When the program exits,
//!   whatever it left running in its group is killed too, so no pipe stays open behind it.
//! - **Bounded output.** Stdout and stderr are read as streams while the program runs; each keeps
//!   at most its bound ([`DEFAULT_STDOUT_CAP`], [`DEFAULT_STDERR_CAP`]) and counts the rest
//!   ([`Output::stdout_cut`], [`Output::stderr_cut`]), so a program that prints forever costs no
//!   more memory than the bound. Stdout can go to a file instead ([`Command::stdout_to_file`]),
//!   created readable by its owner only.
//! - **Stdin** is closed (`/dev/null`) unless bytes are given ([`Command::stdin_bytes`]).
//! - **Environment hygiene.** By default the environment is inherited without every `TF_*`
//!   variable (`TF_CLI_ARGS`, `TF_CLI_ARGS_plan`, `TF_WORKSPACE`, `TF_LOG`, ...) except those on
//!   the caller's allow-list ([`Command::allow_tf`]). For untrusted commands (guards, plugins)
//!   [`Command::env_allow_list`] passes only the named variables, so secrets such as
//!   `WARD_APPROVAL_KEY` are never inherited. [`Command::terraform`] sets Terraform's automation
//!   variables (`TF_IN_AUTOMATION=1`, `TF_INPUT=0`, `CHECKPOINT_DISABLE=1`). Variables set with
//!   [`Command::env`] are always passed.
//! - **One error-line extractor**: [`error_summary`] finds Terraform's first `Error:` line and
//!   what follows it.
//!
//! - **Scratch directories** ([`ScratchDir`]) are created readable by their owner only and removed
//!   when dropped, and also when ward itself is told to stop.
//! - **Termination.** [`handle_termination_signals`] (called first thing in `main`) makes
//!   `SIGTERM`, `SIGINT` and `SIGHUP` stop every run under way ([`interrupt`]: their process groups
//!   get `SIGTERM`, then `SIGKILL` after the grace period, so Terraform can release its state
//!   lock), remove every scratch directory, and end the process through the caller's exit
//!   function (ward's is `ward_model::Exit::from_signal`: 128 + the signal's number).
//!
//! Errors ([`ExecError`]) say what happened and what to do: not found, not executable, timed
//! out, killed by a signal, failed, output cut, interrupted.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a process group has between `SIGTERM` and `SIGKILL` after its deadline, unless
/// [`Command::grace`] says otherwise.
pub const DEFAULT_GRACE: Duration = Duration::from_secs(5);

/// The most stdout bytes kept in memory unless [`Command::stdout_cap`] says otherwise (64 MiB).
pub const DEFAULT_STDOUT_CAP: u64 = 64 << 20;

/// The most stderr bytes kept unless [`Command::stderr_cap`] says otherwise (1 MiB).
pub const DEFAULT_STDERR_CAP: u64 = 1 << 20;

/// How long the output readers are waited for once the process group is gone: a process that
/// left the group (`setsid`) may still hold a pipe open; its output is then given up.
const READER_WAIT: Duration = Duration::from_secs(2);

/// Variables [`Command::terraform`] sets: Terraform and OpenTofu run non-interactively, without
/// the update check.
pub const TERRAFORM_AUTOMATION: &[(&str, &str)] = &[
    ("TF_IN_AUTOMATION", "1"),
    ("TF_INPUT", "0"),
    ("CHECKPOINT_DISABLE", "1"),
];

/// Inherited `TF_*` variables a Terraform run keeps by default (pass it to
/// [`Command::allow_tf`]): inputs and credentials that do not change what a command does.
/// `TF_CLI_ARGS*`, `TF_WORKSPACE`, `TF_DATA_DIR`, `TF_LOG` and the rest are removed.
pub const TERRAFORM_ALLOWED_TF: &[&str] = &[
    "TF_VAR_*",
    "TF_TOKEN_*",
    "TF_PLUGIN_CACHE_DIR",
    "TF_CLI_CONFIG_FILE",
];

/// What an untrusted command (a guard) inherits in allow-list mode besides the names its caller
/// adds: the basics a shell script needs, no credentials.
pub const BASE_ALLOW_LIST: &[&str] = &[
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_*", "TMPDIR", "TERM",
];

/// Which inherited variables a run sees.
#[derive(Debug, Clone, PartialEq, Eq)]
enum EnvPolicy {
    /// Everything but `TF_*`, except the names (or `PREFIX*` patterns) given.
    ScrubTf(Vec<String>),
    /// Only the names (or `PREFIX*` patterns) given.
    Only(Vec<String>),
}

/// Where stdout goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum StdoutTo {
    Memory,
    File(PathBuf),
}

/// A program to run, with its deadline. Build it with [`Command::new`], adjust it, then
/// [`Command::run`] it.
#[derive(Debug, Clone)]
pub struct Command {
    program: PathBuf,
    args: Vec<OsString>,
    dir: Option<PathBuf>,
    timeout: Duration,
    grace: Duration,
    policy: EnvPolicy,
    set: Vec<(OsString, OsString)>,
    stdin: Option<Vec<u8>>,
    stdout_to: StdoutTo,
    stdout_cap: u64,
    stderr_cap: u64,
    stop_at_cap: bool,
    timeout_hint: Option<String>,
}

/// Whether `name` matches `pattern`: equal, or `pattern` ends with `*` and `name` starts with the
/// rest.
pub fn name_matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == pattern,
    }
}

fn any_matches(patterns: &[String], name: &str) -> bool {
    patterns.iter().any(|p| name_matches(p, name))
}

impl Command {
    /// `program`, to be killed (with its process group) when it runs longer than `timeout`.
    /// `program` is looked up on `PATH` when it has no `/`.
    pub fn new(program: impl AsRef<OsStr>, timeout: Duration) -> Command {
        Command {
            program: PathBuf::from(program.as_ref()),
            args: Vec::new(),
            dir: None,
            timeout,
            grace: DEFAULT_GRACE,
            policy: EnvPolicy::ScrubTf(Vec::new()),
            set: Vec::new(),
            stdin: None,
            stdout_to: StdoutTo::Memory,
            stdout_cap: DEFAULT_STDOUT_CAP,
            stderr_cap: DEFAULT_STDERR_CAP,
            stop_at_cap: false,
            timeout_hint: None,
        }
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Command {
        self.args.push(arg.as_ref().to_os_string());
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    /// Runs in `dir` (default: the current directory).
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Command {
        self.dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Sets a variable; set variables are passed whatever the inherited-environment policy is.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Command {
        self.set
            .push((key.as_ref().to_os_string(), value.as_ref().to_os_string()));
        self
    }

    /// Sets variables (see [`Command::env`]).
    pub fn envs<I, K, V>(mut self, vars: I) -> Command
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<OsStr>,
        V: AsRef<OsStr>,
    {
        for (k, v) in vars {
            self = self.env(k, v);
        }
        self
    }

    /// Lets inherited `TF_*` variables with these names (or `PREFIX*` patterns, e.g. `TF_VAR_*`)
    /// through; every other `TF_*` variable is removed. No effect in allow-list mode.
    pub fn allow_tf<I, S>(mut self, names: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        if let EnvPolicy::ScrubTf(list) = &mut self.policy {
            list.extend(names.into_iter().map(|s| s.as_ref().to_string()));
        }
        self
    }

    /// Allow-list mode, for untrusted commands: of the inherited environment only the variables
    /// named here (or matching a `PREFIX*` pattern) are passed, nothing else (no credentials, no
    /// `WARD_*` secrets). [`BASE_ALLOW_LIST`] is a sensible start.
    pub fn env_allow_list<I, S>(mut self, names: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.policy = EnvPolicy::Only(names.into_iter().map(|s| s.as_ref().to_string()).collect());
        self
    }

    /// A Terraform or OpenTofu run: sets [`TERRAFORM_AUTOMATION`].
    pub fn terraform(self) -> Command {
        self.envs(TERRAFORM_AUTOMATION.iter().copied())
    }

    /// Gives the program these bytes on stdin (default: stdin is closed).
    pub fn stdin_bytes(mut self, bytes: impl Into<Vec<u8>>) -> Command {
        self.stdin = Some(bytes.into());
        self
    }

    /// Keeps at most `bytes` of stdout (the rest is read and counted, see
    /// [`Output::stdout_cut`]).
    pub fn stdout_cap(mut self, bytes: u64) -> Command {
        self.stdout_cap = bytes;
        self
    }

    /// Keeps at most `bytes` of stderr.
    pub fn stderr_cap(mut self, bytes: u64) -> Command {
        self.stderr_cap = bytes;
        self
    }

    /// Keeps at most `bytes` of each stream.
    pub fn output_cap(self, bytes: u64) -> Command {
        self.stdout_cap(bytes).stderr_cap(bytes)
    }

    /// Stops the program (its process group, as at the deadline) as soon as a stream passes its
    /// cap, instead of reading on to its end: for a program whose whole answer must fit (a
    /// version probe), not one whose work must finish. [`Output::require_whole`] then says how
    /// much was cut.
    pub fn stop_at_cap(mut self) -> Command {
        self.stop_at_cap = true;
        self
    }

    /// Writes stdout to `path` (created or truncated, mode 0600, at most the stdout cap) instead
    /// of keeping it in memory; [`Output::stdout`] is then empty.
    pub fn stdout_to_file(mut self, path: impl AsRef<Path>) -> Command {
        self.stdout_to = StdoutTo::File(path.as_ref().to_path_buf());
        self
    }

    /// Time between `SIGTERM` and `SIGKILL` once the deadline has passed.
    pub fn grace(mut self, grace: Duration) -> Command {
        self.grace = grace;
        self
    }

    /// What the timeout error tells the user to do, e.g. "raise it with --timeout SECONDS".
    pub fn timeout_hint(mut self, hint: impl Into<String>) -> Command {
        self.timeout_hint = Some(hint.into());
        self
    }

    /// The timeout.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The command line as shown in messages: the program and its arguments, space-separated.
    pub fn display(&self) -> String {
        let mut s = self.program.display().to_string();
        for a in &self.args {
            s.push(' ');
            s.push_str(&a.to_string_lossy());
        }
        s
    }

    /// The environment the program gets, given the parent's `vars`.
    pub fn environment<I>(&self, vars: I) -> BTreeMap<OsString, OsString>
    where
        I: IntoIterator<Item = (OsString, OsString)>,
    {
        let mut out = BTreeMap::new();
        for (k, v) in vars {
            let name = k.to_string_lossy();
            let keep = match &self.policy {
                EnvPolicy::ScrubTf(allow) => !name.starts_with("TF_") || any_matches(allow, &name),
                EnvPolicy::Only(allow) => any_matches(allow, &name),
            };
            if keep {
                out.insert(k, v);
            }
        }
        for (k, v) in &self.set {
            out.insert(k.clone(), v.clone());
        }
        out
    }

    /// Runs the program to its end or its deadline. `Ok` whatever the exit code or signal (see
    /// [`Output::success`] and [`Output::into_success`]); `Err` when it could not start or timed
    /// out.
    pub fn run(&self) -> Result<Output, ExecError> {
        let command = self.display();
        let start = Instant::now();
        let mut cmd = std::process::Command::new(&self.program);
        cmd.args(&self.args)
            .env_clear()
            .envs(self.environment(std::env::vars_os()))
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        if let Some(d) = &self.dir {
            cmd.current_dir(d);
        }
        let stdout_sink = match &self.stdout_to {
            StdoutTo::Memory => Sink::Memory(Vec::new()),
            StdoutTo::File(p) => Sink::File(create_private(p).map_err(|e| ExecError::Io {
                command: command.clone(),
                what: format!("cannot create {}", p.display()),
                message: e.to_string(),
            })?),
        };
        if INTERRUPTED.load(Ordering::SeqCst) {
            park_if_exiting();
            return Err(ExecError::Interrupted { command });
        }
        let mut child = spawn_when_not_busy(&mut cmd).map_err(|e| self.spawn_error(e))?;
        let pgid = child.id();
        let registered = Running::register(pgid);
        if INTERRUPTED.load(Ordering::SeqCst) {
            // Told to stop between the check above and the registration: stop it here.
            kill_group(pgid, nix::sys::signal::Signal::SIGTERM);
        }
        if let (Some(bytes), Some(mut w)) = (self.stdin.clone(), child.stdin.take()) {
            std::thread::spawn(move || {
                // A program that does not read its input closes the pipe: not an error.
                let _ = w.write_all(&bytes);
            });
        }
        let out = Reader::spawn(child.stdout.take(), stdout_sink, self.stdout_cap);
        let err = Reader::spawn(
            child.stderr.take(),
            Sink::Memory(Vec::new()),
            self.stderr_cap,
        );
        let deadline = start + self.timeout;
        let mut nap = Duration::from_millis(1);
        let mut timed_out = false;
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break Some(st),
                Ok(None) => {}
                Err(_) => break None,
            }
            let now = Instant::now();
            if now >= deadline {
                timed_out = true;
                break terminate(&mut child, pgid, self.grace);
            }
            if self.stop_at_cap && (out.cut() > 0 || err.cut() > 0) {
                break terminate(&mut child, pgid, self.grace);
            }
            std::thread::sleep(nap.min(deadline - now));
            nap = (nap * 2).min(Duration::from_millis(20));
        };
        // Whatever the program left running in its group goes with it, so the pipes close.
        kill_group(pgid, nix::sys::signal::Signal::SIGKILL);
        if EXITING.load(Ordering::SeqCst) {
            drop(registered);
            park_if_exiting();
        }
        let (stdout, stdout_cut) = out.finish();
        let (stderr, stderr_cut) = err.finish();
        let output = Output {
            command: command.clone(),
            code: status.and_then(|s| s.code()),
            signal: status.and_then(|s| s.signal()),
            stdout,
            stderr,
            stdout_cut,
            stderr_cut,
            elapsed: start.elapsed(),
        };
        if timed_out {
            return Err(ExecError::TimedOut {
                command,
                after: self.timeout,
                hint: self.timeout_hint.clone(),
                output: Box::new(output),
            });
        }
        Ok(output)
    }

    fn spawn_error(&self, e: std::io::Error) -> ExecError {
        let program = self.program.display().to_string();
        match e.kind() {
            std::io::ErrorKind::NotFound => ExecError::NotFound {
                program,
                on_path: !self.program.as_os_str().to_string_lossy().contains('/'),
            },
            std::io::ErrorKind::PermissionDenied => ExecError::NotExecutable { program },
            _ => ExecError::Spawn {
                program,
                message: e.to_string(),
            },
        }
    }
}

/// How long a spawn waits, in all, for an executable that is open for writing somewhere
/// (`ETXTBSY`) to be closed.
const BUSY_WAIT: Duration = Duration::from_millis(2_000);

/// Spawns `cmd`, trying again for up to [`BUSY_WAIT`] while the kernel says the executable is
/// open for writing (`ETXTBSY`, "Text file busy"). A file just written and closed by this
/// process can still be open in a child another thread forked in the meantime, until that
/// child's exec closes it (close-on-exec): a window of microseconds to milliseconds, seen in the
/// suite when one test wrote a stand-in Terraform while another started a process. Any other
/// error, or a file still busy after the wait, is returned as it is.
fn spawn_when_not_busy(cmd: &mut std::process::Command) -> std::io::Result<std::process::Child> {
    let start = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match cmd.spawn() {
            Err(e)
                if e.raw_os_error() == Some(nix::libc::ETXTBSY)
                    && start.elapsed() + pause < BUSY_WAIT =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            other => return other,
        }
    }
}

/// Creates (or truncates) `path` readable and writable by its owner only, never following a
/// symlink at `path`.
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(path)
}

/// `SIGTERM` to the group, `grace` to exit, then `SIGKILL`; reaps the child.
fn terminate(
    child: &mut std::process::Child,
    pgid: u32,
    grace: Duration,
) -> Option<std::process::ExitStatus> {
    kill_group(pgid, nix::sys::signal::Signal::SIGTERM);
    let until = Instant::now() + grace;
    while Instant::now() < until {
        match child.try_wait() {
            Ok(Some(st)) => return Some(st),
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => break,
        }
    }
    kill_group(pgid, nix::sys::signal::Signal::SIGKILL);
    child.wait().ok()
}

fn kill_group(pgid: u32, signal: nix::sys::signal::Signal) {
    if let Ok(p) = i32::try_from(pgid) {
        // ESRCH (the group is already gone) is the usual answer and not an error.
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(p), signal);
    }
}

/// Process groups of runs under way, so [`interrupt`] can end them.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Registers a process group for the time of a run.
struct Running(u32);

impl Running {
    fn register(pgid: u32) -> Running {
        if let Ok(mut r) = RUNNING.lock() {
            r.push(pgid);
        }
        Running(pgid)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(mut r) = RUNNING.lock() {
            r.retain(|p| *p != self.0);
        }
    }
}

/// Set once ward is told to stop: no new run starts.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Set when the signal thread is ending the process: runs never return, so no caller goes on to
/// report (or record) a run that was cut short.
static EXITING: AtomicBool = AtomicBool::new(false);

/// Waits for the signal thread to end the process, when it is doing so.
fn park_if_exiting() {
    while EXITING.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

fn running() -> Vec<u32> {
    RUNNING.lock().map(|r| r.clone()).unwrap_or_default()
}

/// Stops everything under way, for a program that is itself told to stop and must not leave
/// Terraform running, or its secrets on disk, behind it: no new run starts (each is
/// [`ExecError::Interrupted`]); every running process group gets `SIGTERM`, and `SIGKILL` when it
/// has not ended within [`DEFAULT_GRACE`]; then every [`ScratchDir`] is removed. The runs end as
/// killed by a signal.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    for g in running() {
        kill_group(g, nix::sys::signal::Signal::SIGTERM);
    }
    let until = Instant::now() + DEFAULT_GRACE;
    while !running().is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    for g in running() {
        kill_group(g, nix::sys::signal::Signal::SIGKILL);
    }
    let dirs: Vec<PathBuf> = SCRATCH.lock().map(|d| d.clone()).unwrap_or_default();
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Makes `SIGTERM`, `SIGINT` and `SIGHUP` [`interrupt`] everything and then call `exit` with the
/// signal's number, which ends the process (ward's exits with its documented code for that
/// signal, `ward_model::Exit::from_signal`). Call it first in `main`, before any thread starts:
/// the signals are blocked in the calling thread (and so in every thread it starts later) and
/// taken by a thread of their own. Programs started through [`Command`] begin with no signal
/// blocked.
pub fn handle_termination_signals(exit: fn(signal: i32) -> !) -> Result<(), String> {
    use nix::sys::signal::{SigSet, Signal};
    let mut set = SigSet::empty();
    for s in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        set.add(s);
    }
    set.thread_block()
        .map_err(|e| format!("cannot block termination signals: {e}"))?;
    std::thread::Builder::new()
        .name("ward-signals".into())
        .spawn(move || {
            if let Ok(sig) = set.wait() {
                EXITING.store(true, Ordering::SeqCst);
                interrupt();
                exit(sig as i32);
            }
        })
        .map_err(|e| format!("cannot start the signal thread: {e}"))?;
    Ok(())
}

/// Scratch directories in use, removed by [`interrupt`].
static SCRATCH: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary directory readable by its owner only (0700), removed when dropped and when ward
/// is interrupted ([`interrupt`]). Files ward writes into it should be 0600
/// ([`Command::stdout_to_file`] creates them so).
#[derive(Debug)]
pub struct ScratchDir {
    dir: tempfile::TempDir,
}

impl ScratchDir {
    /// A new directory under the system's temporary directory, its name starting with `prefix`.
    pub fn new(prefix: &str) -> std::io::Result<ScratchDir> {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::Builder::new()
            .prefix(prefix)
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir()?;
        if let Ok(mut s) = SCRATCH.lock() {
            s.push(dir.path().to_path_buf());
        }
        Ok(ScratchDir { dir })
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if let Ok(mut s) = SCRATCH.lock() {
            s.retain(|p| p != self.dir.path());
        }
    }
}

enum Sink {
    Memory(Vec<u8>),
    File(std::fs::File),
}

/// A stream read to its end on its own thread, keeping at most `cap` bytes.
struct Reader {
    state: Arc<Mutex<(Sink, u64, u64)>>,
    done: mpsc::Receiver<()>,
}

impl Reader {
    fn spawn<R: Read + Send + 'static>(r: Option<R>, sink: Sink, cap: u64) -> Reader {
        let state = Arc::new(Mutex::new((sink, 0u64, 0u64)));
        let (tx, done) = mpsc::channel();
        let shared = Arc::clone(&state);
        if let Some(mut r) = r {
            std::thread::spawn(move || {
                let mut buf = vec![0u8; 64 * 1024];
                loop {
                    let n = match r.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    let Ok(mut st) = shared.lock() else { break };
                    let (sink, kept, cut) = &mut *st;
                    let room = usize::try_from(cap.saturating_sub(*kept)).unwrap_or(usize::MAX);
                    let take = n.min(room);
                    let wrote = match sink {
                        Sink::Memory(v) => {
                            v.extend_from_slice(&buf[..take]);
                            true
                        }
                        Sink::File(f) => f.write_all(&buf[..take]).is_ok(),
                    };
                    let take = if wrote { take } else { 0 };
                    *kept += take as u64;
                    *cut += (n - take) as u64;
                }
                let _ = tx.send(());
            });
        } else {
            let _ = tx.send(());
        }
        Reader { state, done }
    }

    /// How many bytes were cut so far.
    fn cut(&self) -> u64 {
        self.state.lock().map_or(0, |st| st.2)
    }

    /// What was kept and how many bytes were cut.
    fn finish(self) -> (Vec<u8>, u64) {
        let _ = self.done.recv_timeout(READER_WAIT);
        let Ok(mut st) = self.state.lock() else {
            return (Vec::new(), 0);
        };
        let (sink, _, cut) = &mut *st;
        match sink {
            Sink::Memory(v) => (std::mem::take(v), *cut),
            Sink::File(f) => {
                let _ = f.flush();
                (Vec::new(), *cut)
            }
        }
    }
}

/// What a finished run left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The command line (see [`Command::display`]).
    pub command: String,
    /// Exit code; `None` when killed by a signal.
    pub code: Option<i32>,
    /// The signal that ended it, if one did.
    pub signal: Option<i32>,
    /// Stdout, at most its cap (empty when it went to a file).
    pub stdout: Vec<u8>,
    /// Stderr, at most its cap.
    pub stderr: Vec<u8>,
    /// Stdout bytes read past the cap and left out.
    pub stdout_cut: u64,
    /// Stderr bytes read past the cap and left out.
    pub stderr_cut: u64,
    /// How long it ran.
    pub elapsed: Duration,
}

impl Output {
    /// True on exit code 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// Stdout as text (invalid UTF-8 replaced).
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Stderr as text (invalid UTF-8 replaced).
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// [`error_summary`] of stderr.
    pub fn error_summary(&self, lines: usize) -> String {
        error_summary(&self.stderr_text(), lines)
    }

    /// `Ok` on exit code 0; otherwise [`ExecError::Killed`] or [`ExecError::Failed`] (with the
    /// first lines of the error).
    pub fn into_success(self) -> Result<Output, ExecError> {
        if self.success() {
            return Ok(self);
        }
        match (self.code, self.signal) {
            (_, Some(signal)) => Err(ExecError::Killed {
                command: self.command,
                signal,
            }),
            (code, None) => Err(ExecError::Failed {
                summary: self.error_summary(4),
                command: self.command,
                code,
            }),
        }
    }

    /// `Ok` when no output was cut; [`ExecError::OutputCut`] otherwise, for callers that need the
    /// whole output (JSON).
    pub fn require_whole(self) -> Result<Output, ExecError> {
        for (stream, cut, kept) in [
            ("stdout", self.stdout_cut, self.stdout.len()),
            ("stderr", self.stderr_cut, self.stderr.len()),
        ] {
            if cut > 0 {
                return Err(ExecError::OutputCut {
                    command: self.command,
                    stream,
                    cut,
                    kept: kept as u64,
                });
            }
        }
        Ok(self)
    }
}

/// What Terraform's error said, in at most `lines` non-empty lines joined by ` | `: from the first
/// line starting `Error:` (the cause) and what follows it; without one, the last `lines` lines.
/// The box-drawing frame Terraform draws around diagnostics is removed. Empty for empty text.
pub fn error_summary(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text
        .lines()
        .map(|l| l.trim_matches(|c: char| c.is_whitespace() || c == '│' || c == '╷' || c == '╵'))
        .filter(|l| !l.is_empty())
        .collect();
    let start = all
        .iter()
        .position(|l| l.starts_with("Error:"))
        .unwrap_or_else(|| all.len().saturating_sub(lines));
    let end = (start + lines).min(all.len());
    all[start..end].join(" | ")
}

/// Why a run did not give an [`Output`], or why its output is not usable.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// The program does not exist.
    #[error("cannot run `{program}`: {}", if *on_path { "it is not on PATH; install it or give its full path" } else { "no such file; check the path" })]
    NotFound {
        /// The program as given.
        program: String,
        /// True when it was looked up on `PATH` (no `/` in the name).
        on_path: bool,
    },
    /// The program exists but may not be executed.
    #[error("cannot run `{program}`: permission denied; make it executable (chmod +x) or give another program")]
    NotExecutable {
        /// The program.
        program: String,
    },
    /// Any other failure to start.
    #[error("cannot run `{program}`: {message}")]
    Spawn {
        /// The program.
        program: String,
        /// The operating system's error.
        message: String,
    },
    /// A file for the run could not be prepared.
    #[error("cannot run `{command}`: {what}: {message}")]
    Io {
        /// The command line.
        command: String,
        /// What was being done.
        what: String,
        /// The operating system's error.
        message: String,
    },
    /// The deadline passed; the process group was killed.
    #[error("`{command}` timed out after {}: it was still running, so its process group was killed{}", Secs(*after), hint.as_deref().map(|h| format!("; {h}")).unwrap_or_default())]
    TimedOut {
        /// The command line.
        command: String,
        /// The timeout.
        after: Duration,
        /// What to do about it, from the caller.
        hint: Option<String>,
        /// What it printed before it was killed.
        output: Box<Output>,
    },
    /// Ended by a signal (from [`Output::into_success`]).
    #[error("`{command}` was killed by signal {signal}{}", signal_name(*signal))]
    Killed {
        /// The command line.
        command: String,
        /// The signal number.
        signal: i32,
    },
    /// Exited non-zero (from [`Output::into_success`]).
    #[error("`{command}` failed (exit {}){}", code.map(|c| c.to_string()).unwrap_or_else(|| "unknown".into()), if summary.is_empty() { String::new() } else { format!(": {summary}") })]
    Failed {
        /// The command line.
        command: String,
        /// Exit code.
        code: Option<i32>,
        /// [`error_summary`] of its stderr.
        summary: String,
    },
    /// Not started: ward is stopping ([`interrupt`]).
    #[error("`{command}` was not started: ward is stopping (interrupted)")]
    Interrupted {
        /// The command line.
        command: String,
    },
    /// Output was longer than its cap (from [`Output::require_whole`]).
    #[error("`{command}` printed more than ward keeps: {cut} bytes of {stream} were cut after the first {kept}")]
    OutputCut {
        /// The command line.
        command: String,
        /// `stdout` or `stderr`.
        stream: &'static str,
        /// Bytes left out.
        cut: u64,
        /// Bytes kept.
        kept: u64,
    },
}

impl ExecError {
    /// The output of a run that timed out, if this is [`ExecError::TimedOut`].
    pub fn partial_output(&self) -> Option<&Output> {
        match self {
            ExecError::TimedOut { output, .. } => Some(output),
            _ => None,
        }
    }
}

/// A duration in whole seconds (or milliseconds below one second), for messages.
struct Secs(Duration);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < Duration::from_secs(1) {
            write!(f, "{} ms", self.0.as_millis())
        } else {
            write!(f, "{} s", self.0.as_secs())
        }
    }
}

fn signal_name(n: i32) -> String {
    nix::sys::signal::Signal::try_from(n)
        .map(|s| format!(" ({})", s.as_str()))
        .unwrap_or_default()
}

/// This process as a later run can recognise it: its pid, the machine's host name, and the
/// process's start time (clock ticks after boot, from `/proc`), so that a pid reused by another
/// program is not taken for it. A record of a run that is "running" carries it; whoever reads the
/// record later asks [`ProcessMark::alive`] whether that run is still going or was killed.
///
/// It is what the journals record (ward-drift's `drift-run`, ward-stack's `stack-run`), as JSON
/// `{"pid":…,"host":…,"start":…}`: the fields' names and order are that record's, so they stay.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProcessMark {
    /// The process id.
    pub pid: u32,
    /// The machine's host name (`/proc/sys/kernel/hostname`), or `unknown`.
    pub host: String,
    /// The process's start time in clock ticks after boot; 0 when unknown.
    pub start: u64,
}

impl ProcessMark {
    /// This process.
    pub fn current() -> ProcessMark {
        let pid = std::process::id();
        ProcessMark {
            pid,
            host: host_name(),
            start: process_start(pid).unwrap_or(0),
        }
    }

    /// `Some(true)` when the process is still running (same pid, same start time, on this
    /// machine), `Some(false)` when it is gone, `None` when this machine cannot tell (the mark
    /// was made on another host, or there is no `/proc`).
    pub fn alive(&self) -> Option<bool> {
        if self.host != host_name() || !std::path::Path::new("/proc/self/stat").exists() {
            return None;
        }
        match process_start(self.pid) {
            None => Some(false),
            Some(start) => Some(self.start == 0 || start == self.start),
        }
    }
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Field 22 of `/proc/PID/stat` (`starttime`); the command name before it may hold spaces and
/// parentheses, so the fields are counted after its last `)`.
fn process_start(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    // After the name: state is field 3, so starttime (22) is the 20th.
    rest.split_whitespace().nth(19)?.parse().ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn sh(script: &str, timeout: Duration) -> Command {
        Command::new("/bin/sh", timeout).args(["-c", script])
    }

    #[test]
    fn runs_and_reports_code_and_streams() {
        let o = sh("echo hi; echo err >&2; exit 3", Duration::from_secs(10))
            .run()
            .unwrap();
        assert_eq!(o.code, Some(3));
        assert_eq!(o.stdout, b"hi\n");
        assert_eq!(o.stderr_text(), "err\n");
        assert!(!o.success());
        let e = o.into_success().unwrap_err();
        assert!(matches!(e, ExecError::Failed { code: Some(3), .. }));
        assert_eq!(
            e.to_string(),
            "`/bin/sh -c echo hi; echo err >&2; exit 3` failed (exit 3): err"
        );
    }

    /// An executable still open for writing (here by this process; in the suite, by a child
    /// another thread forked before its exec) is waited for, not refused with "Text file busy";
    /// one that stays open is refused once the wait is over.
    #[test]
    fn an_executable_open_for_writing_is_run_once_it_is_closed() {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stand-in");
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o700)
            .open(&path)
            .unwrap();
        f.write_all(b"#!/bin/sh\necho ran\n").unwrap();
        f.flush().unwrap();
        // Held open past the whole wait: refused, as before.
        let e = Command::new(&path, Duration::from_secs(10))
            .run()
            .unwrap_err();
        assert!(e.to_string().contains("busy"), "{e}");
        // Closed 200 ms into the wait: run.
        let closer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            drop(f);
        });
        let o = Command::new(&path, Duration::from_secs(10)).run().unwrap();
        closer.join().unwrap();
        assert_eq!(o.stdout, b"ran\n");
    }

    #[test]
    fn a_sleep_past_its_deadline_is_killed_with_its_children() {
        let d = tempfile::tempdir().unwrap();
        let marker = d.path().join("survived");
        let script = format!("(sleep 2; touch {}) & sleep 30", marker.display());
        let t0 = Instant::now();
        let e = sh(&script, Duration::from_millis(300))
            .grace(Duration::from_millis(500))
            .timeout_hint("raise it with --timeout")
            .run()
            .unwrap_err();
        assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
        assert!(matches!(e, ExecError::TimedOut { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("timed out after 300 ms"), "{msg}");
        assert!(msg.contains("sleep 30"), "{msg}");
        assert!(msg.ends_with("; raise it with --timeout"), "{msg}");
        std::thread::sleep(Duration::from_millis(2500));
        assert!(!marker.exists(), "the background child outlived the kill");
    }

    #[test]
    fn sigterm_first_then_sigkill_after_the_grace() {
        // A program that traps SIGTERM ends cleanly in the grace period...
        let d = tempfile::tempdir().unwrap();
        let m = d.path().join("cleaned");
        let script = format!(
            "trap 'touch {}; exit 0' TERM; while :; do sleep 0.05; done",
            m.display()
        );
        let e = sh(&script, Duration::from_millis(200)).run().unwrap_err();
        assert!(matches!(e, ExecError::TimedOut { .. }));
        assert!(m.exists(), "SIGTERM was not sent first");
        // ...one that ignores it is killed when the grace is over.
        let t0 = Instant::now();
        let e = sh(
            "trap '' TERM; while :; do sleep 0.05; done",
            Duration::from_millis(200),
        )
        .grace(Duration::from_millis(300))
        .run()
        .unwrap_err();
        assert!(matches!(e, ExecError::TimedOut { .. }));
        assert!(t0.elapsed() < Duration::from_secs(3));
    }

    #[test]
    fn children_left_behind_after_a_normal_exit_are_killed() {
        let d = tempfile::tempdir().unwrap();
        let marker = d.path().join("survived");
        let script = format!("(sleep 1; touch {}) & exit 0", marker.display());
        let t0 = Instant::now();
        let o = sh(&script, Duration::from_secs(10)).run().unwrap();
        assert!(o.success());
        assert!(t0.elapsed() < Duration::from_secs(1));
        std::thread::sleep(Duration::from_millis(1500));
        assert!(!marker.exists());
    }

    #[test]
    fn output_is_bounded_while_streamed() {
        // 50 MB through a 1000-byte cap, in bounded memory and without blocking the writer.
        let o = sh(
            "head -c 50000000 /dev/zero; echo bad >&2",
            Duration::from_secs(30),
        )
        .stdout_cap(1000)
        .stderr_cap(2)
        .run()
        .unwrap();
        assert!(o.success());
        assert_eq!(o.stdout.len(), 1000);
        assert_eq!(o.stdout_cut, 50_000_000 - 1000);
        assert_eq!(o.stderr, b"ba");
        assert_eq!(o.stderr_cut, 2);
        let e = o.require_whole().unwrap_err();
        assert_eq!(
            e.to_string(),
            "`/bin/sh -c head -c 50000000 /dev/zero; echo bad >&2` printed more than ward keeps: 49999000 bytes of stdout were cut after the first 1000"
        );
        // A program printing forever ends at its deadline with its output still bounded.
        let e = sh("yes", Duration::from_millis(300))
            .output_cap(100)
            .run()
            .unwrap_err();
        let out = e.partial_output().unwrap();
        assert_eq!(out.stdout.len(), 100);
        assert!(out.stdout_cut > 0);
    }

    #[test]
    fn stop_at_cap_ends_a_program_past_its_cap_before_its_deadline() {
        // Printing forever on either stream, with a deadline far away: stopped at the cap.
        for script in ["yes", "yes >&2"] {
            let start = Instant::now();
            let o = sh(script, Duration::from_secs(120))
                .output_cap(100)
                .stop_at_cap()
                .run()
                .unwrap();
            assert!(start.elapsed() < Duration::from_secs(60), "{script}");
            assert_eq!(o.stdout.len() + o.stderr.len(), 100, "{script}");
            assert!(o.stdout_cut + o.stderr_cut > 0, "{script}");
            assert!(!o.success(), "{script}: killed");
            assert!(o.require_whole().is_err(), "{script}");
        }
        // Within the cap it runs to its end as ever.
        let o = sh("echo fits", Duration::from_secs(30))
            .output_cap(100)
            .stop_at_cap()
            .run()
            .unwrap();
        assert!(o.success());
        assert_eq!(o.stdout, b"fits\n");
    }

    #[test]
    fn stdout_to_a_private_file() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("out.json");
        let o = sh("printf '{}'", Duration::from_secs(10))
            .stdout_to_file(&f)
            .run()
            .unwrap();
        assert!(o.stdout.is_empty());
        assert_eq!(std::fs::read(&f).unwrap(), b"{}");
        let mode = std::fs::metadata(&f).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // Never through a symlink.
        let link = d.path().join("link");
        std::os::unix::fs::symlink(d.path().join("elsewhere"), &link).unwrap();
        let e = sh("true", Duration::from_secs(10))
            .stdout_to_file(&link)
            .run()
            .unwrap_err();
        assert!(matches!(e, ExecError::Io { .. }), "{e}");
        assert!(!d.path().join("elsewhere").exists());
    }

    #[test]
    fn stdin_closed_or_given() {
        let o = sh("cat", Duration::from_secs(10)).run().unwrap();
        assert_eq!(o.stdout, b"");
        let o = sh("cat", Duration::from_secs(10))
            .stdin_bytes(b"fed".to_vec())
            .run()
            .unwrap();
        assert_eq!(o.stdout, b"fed");
    }

    fn vars(v: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        v.iter().map(|(k, v)| (k.into(), v.into())).collect()
    }

    fn names(m: &BTreeMap<OsString, OsString>) -> Vec<String> {
        m.keys().map(|k| k.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn tf_variables_are_scrubbed_unless_allowed() {
        let parent = vars(&[
            ("PATH", "/bin"),
            ("TF_CLI_ARGS", "-x"),
            ("TF_CLI_ARGS_plan", "-target=nonexistent.x"),
            ("TF_WORKSPACE", "prod"),
            ("TF_VAR_region", "eu"),
            ("TF_PLUGIN_CACHE_DIR", "/c"),
            ("AWS_PROFILE", "p"),
        ]);
        let c = Command::new("terraform", Duration::from_secs(1))
            .allow_tf(["TF_VAR_*", "TF_PLUGIN_CACHE_DIR"])
            .terraform()
            .env("TF_DATA_DIR", "/d");
        let env = c.environment(parent);
        assert_eq!(
            names(&env),
            [
                "AWS_PROFILE",
                "CHECKPOINT_DISABLE",
                "PATH",
                "TF_DATA_DIR",
                "TF_INPUT",
                "TF_IN_AUTOMATION",
                "TF_PLUGIN_CACHE_DIR",
                "TF_VAR_region"
            ]
        );
        assert_eq!(env[OsStr::new("TF_IN_AUTOMATION")], "1");
        assert_eq!(env[OsStr::new("TF_INPUT")], "0");
        assert_eq!(env[OsStr::new("CHECKPOINT_DISABLE")], "1");
    }

    #[test]
    fn allow_list_mode_passes_only_the_names_given() {
        let parent = vars(&[
            ("PATH", "/bin"),
            ("LC_ALL", "C"),
            ("WARD_APPROVAL_KEY", "secret"),
            ("AWS_SECRET_ACCESS_KEY", "s"),
            ("TF_CLI_ARGS", "-x"),
        ]);
        let c = Command::new("guard", Duration::from_secs(1))
            .env_allow_list(BASE_ALLOW_LIST.iter().copied())
            .env("WARD_ADDRESS", "a.b");
        assert_eq!(
            names(&c.environment(parent)),
            ["LC_ALL", "PATH", "WARD_ADDRESS"]
        );
    }

    #[test]
    fn the_real_environment_is_scrubbed() {
        // Through a real spawn: the child sees no TF_* and, in allow-list mode, no secret.
        std::env::set_var("TF_CLI_ARGS_plan", "-target=nonexistent.x");
        std::env::set_var("WARD_APPROVAL_KEY", "k3y");
        let o = sh("env", Duration::from_secs(10)).run().unwrap();
        let text = o.stdout_text();
        assert!(!text.contains("TF_CLI_ARGS_plan"), "{text}");
        assert!(text.contains("WARD_APPROVAL_KEY"));
        let o = sh("env", Duration::from_secs(10))
            .env_allow_list(BASE_ALLOW_LIST.iter().copied())
            .run()
            .unwrap();
        assert!(!o.stdout_text().contains("k3y"));
    }

    #[test]
    fn start_errors_teach() {
        let e = Command::new("ward-no-such-program", Duration::from_secs(1))
            .run()
            .unwrap_err();
        assert!(matches!(e, ExecError::NotFound { on_path: true, .. }));
        assert_eq!(
            e.to_string(),
            "cannot run `ward-no-such-program`: it is not on PATH; install it or give its full path"
        );
        let e = Command::new("/nonexistent/tf", Duration::from_secs(1))
            .run()
            .unwrap_err();
        assert!(matches!(e, ExecError::NotFound { on_path: false, .. }));
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("not-exec");
        std::fs::write(&f, "#!/bin/sh\n").unwrap();
        let e = Command::new(&f, Duration::from_secs(1)).run().unwrap_err();
        assert!(matches!(e, ExecError::NotExecutable { .. }), "{e}");
        assert!(e.to_string().contains("chmod +x"));
    }

    #[test]
    fn killed_by_a_signal() {
        let o = sh("kill -9 $$", Duration::from_secs(10)).run().unwrap();
        assert_eq!(o.code, None);
        assert_eq!(o.signal, Some(9));
        let e = o.into_success().unwrap_err();
        assert_eq!(
            e.to_string(),
            "`/bin/sh -c kill -9 $$` was killed by signal 9 (SIGKILL)"
        );
    }

    #[test]
    fn children_start_with_no_signal_blocked() {
        // ward blocks SIGTERM/SIGINT/SIGHUP in its own threads (handle_termination_signals); the
        // programs it starts must still be stoppable by them.
        if !Path::new("/proc/self/status").exists() {
            return; // not Linux: no mask to read
        }
        let mut set = nix::sys::signal::SigSet::empty();
        set.add(nix::sys::signal::Signal::SIGTERM);
        set.thread_block().unwrap();
        // Both ways std may start a program: posix_spawn, and fork + exec (a working directory
        // forces the latter on some platforms).
        let d = tempfile::tempdir().unwrap();
        let plain = sh("grep SigBlk /proc/self/status", Duration::from_secs(10)).run();
        let in_dir = sh("grep SigBlk /proc/self/status", Duration::from_secs(10))
            .current_dir(d.path())
            .run();
        let still_blocked = nix::sys::signal::SigSet::thread_get_mask()
            .unwrap()
            .contains(nix::sys::signal::Signal::SIGTERM);
        set.thread_unblock().unwrap();
        assert!(still_blocked, "the caller's mask is restored");
        for o in [plain.unwrap(), in_dir.unwrap()] {
            let line = o.stdout_text();
            assert!(line.trim().ends_with("0000000000000000"), "{line}");
        }
    }

    #[test]
    fn scratch_dirs_are_private_and_removed() {
        use std::os::unix::fs::PermissionsExt;
        let d = ScratchDir::new("ward-exec-test-").unwrap();
        let p = d.path().to_path_buf();
        let mode = std::fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        assert!(SCRATCH.lock().unwrap().contains(&p));
        drop(d);
        assert!(!p.exists());
        assert!(!SCRATCH.lock().unwrap().contains(&p));
    }

    #[test]
    fn error_summary_starts_at_the_first_error() {
        let framed =
            "\n╷\n│ Error: Failed to install provider\n│\n│ the cause\n│ more\n│ and more\n╵\n";
        assert_eq!(
            error_summary(framed, 2),
            "Error: Failed to install provider | the cause"
        );
        assert_eq!(error_summary("a\nb\nc\n", 2), "b | c");
        assert_eq!(error_summary("", 2), "");
        assert!(name_matches("TF_VAR_*", "TF_VAR_x"));
        assert!(!name_matches("TF_VAR", "TF_VAR_x"));
    }

    #[test]
    fn a_process_mark_tells_a_live_process_from_a_gone_one() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            eprintln!("skipped: no /proc");
            return;
        }
        let me = ProcessMark::current();
        assert!(me.start > 0, "{me:?}");
        assert_eq!(me.alive(), Some(true));
        // A child that has exited (and was reaped) is gone.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        let theirs = ProcessMark {
            pid,
            host: me.host.clone(),
            start: process_start(pid).unwrap_or(1),
        };
        child.wait().unwrap();
        assert_eq!(theirs.alive(), Some(false));
        // The same pid with another start time is another process (a reused pid).
        let reused = ProcessMark {
            start: me.start + 1,
            ..me.clone()
        };
        assert_eq!(reused.alive(), Some(false));
        // Made on another machine: this one cannot tell.
        let elsewhere = ProcessMark {
            host: format!("{}-elsewhere", me.host),
            ..me.clone()
        };
        assert_eq!(elsewhere.alive(), None);
    }
}
