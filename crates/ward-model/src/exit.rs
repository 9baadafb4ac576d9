//! ward's exit codes: the one [`Exit`] type every command ends with.
//!
//! Every command's library (`ward-report` for `plan`, `ward-gate`, `ward-drift`, `ward-check`)
//! returns an [`Exit`]; `ward-cli` turns it into the process exit code in one place. The table in
//! `ward --help` ([`Exit::help_table`]) and the one in `docs/exit-codes.md`
//! ([`Exit::markdown_table`]) are generated from this type, and a test fails when the document
//! disagrees.

use serde::Serialize;
use std::fmt;

/// ward's exit codes, shared by every subcommand (documented in `docs/exit-codes.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Exit {
    /// 0: nothing failed.
    Pass,
    /// 1: a change at or above `--fail-on` (or another subcommand's policy failure).
    Fail,
    /// 2: usage error, or input that could not be read (an errored plan included, unless allowed).
    Usage,
    /// 3: coverage failure: a managed resource type no rule classifies.
    Coverage,
    /// 4: `ward gate`: a change needs an approval it does not have.
    ApprovalRequired,
    /// 5: `ward gate`: the change budget is exceeded.
    BudgetExceeded,
    /// 6: `ward gate`: a liveness guard refused (failed, timed out or could not start).
    GuardRefused,
    /// 7: `ward drift`: drift alert (a finding is new or escalated since the last run).
    DriftAlert,
    /// 8: `ward drift`: a root failed (missing or replaced state, error, mismatch) or no roots.
    RootFailed,
    /// 9: `ward stack`: a root's step failed (Terraform failed, a backup could not be taken or
    /// verified, a check after apply or destroy did not hold); the run stopped there and
    /// `ward stack resume` continues it.
    StackFailed,
    /// 10: `ward stack`: refused before anything was changed (a root that reads this one still
    /// holds resources, an upstream root has changes not yet applied, or a Terragrunt unit has
    /// no `terragrunt` to run it).
    StackRefused,
    /// 129 (128 + `SIGHUP`): ward was told to stop by `SIGHUP` and stopped what it ran.
    HungUp,
    /// 130 (128 + `SIGINT`): ward was interrupted (`SIGINT`, Ctrl-C) and stopped what it ran.
    Interrupted,
    /// 143 (128 + `SIGTERM`): ward was terminated (`SIGTERM`) and stopped what it ran.
    Terminated,
}

impl Exit {
    /// Every exit, by code.
    pub const ALL: [Exit; 14] = [
        Exit::Pass,
        Exit::Fail,
        Exit::Usage,
        Exit::Coverage,
        Exit::ApprovalRequired,
        Exit::BudgetExceeded,
        Exit::GuardRefused,
        Exit::DriftAlert,
        Exit::RootFailed,
        Exit::StackFailed,
        Exit::StackRefused,
        Exit::HungUp,
        Exit::Interrupted,
        Exit::Terminated,
    ];

    /// The signals ward stops on, with their exits: `SIGHUP`, `SIGINT`, `SIGTERM` (numbers as on
    /// Linux and the BSDs, where they are the same).
    pub const SIGNALS: [(i32, Exit); 3] = [
        (1, Exit::HungUp),
        (2, Exit::Interrupted),
        (15, Exit::Terminated),
    ];

    /// The exit for a termination signal ward handles (`SIGHUP` 1, `SIGINT` 2, `SIGTERM` 15).
    pub fn from_signal(signal: i32) -> Option<Exit> {
        Exit::SIGNALS
            .into_iter()
            .find(|(s, _)| *s == signal)
            .map(|(_, e)| e)
    }

    /// Whether this exit is ward stopping on a signal (128 + the signal's number) rather than a
    /// command's outcome.
    pub fn is_signal(self) -> bool {
        Exit::SIGNALS.iter().any(|(_, e)| *e == self)
    }

    /// The process exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::Fail => 1,
            Exit::Usage => 2,
            Exit::Coverage => 3,
            Exit::ApprovalRequired => 4,
            Exit::BudgetExceeded => 5,
            Exit::GuardRefused => 6,
            Exit::DriftAlert => 7,
            Exit::RootFailed => 8,
            Exit::StackFailed => 9,
            Exit::StackRefused => 10,
            Exit::HungUp => 129,
            Exit::Interrupted => 130,
            Exit::Terminated => 143,
        }
    }

    /// Which exit wins when several apply: higher wins. The order is 2, 3, 8, 9, 10, 5, 4, 6, 7,
    /// 1: usage beats coverage, which beats drift's failed root, the stack's failed step and
    /// refusal, and the gate's codes (budget, then approval, then guard), which beat a drift
    /// alert, which beats a threshold failure. A signal
    /// exit ends the process at once, so it beats everything (it never meets another).
    pub fn priority(self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::Fail => 1,
            Exit::DriftAlert => 2,
            Exit::GuardRefused => 3,
            Exit::ApprovalRequired => 4,
            Exit::BudgetExceeded => 5,
            Exit::StackRefused => 6,
            Exit::StackFailed => 7,
            Exit::RootFailed => 8,
            Exit::Coverage => 9,
            Exit::Usage => 10,
            Exit::HungUp | Exit::Interrupted | Exit::Terminated => 11,
        }
    }

    /// The exit with this process exit code, if there is one.
    pub fn from_code(code: i32) -> Option<Exit> {
        Exit::ALL.into_iter().find(|e| i32::from(e.code()) == code)
    }

    /// The higher-priority of two exits.
    pub fn worst(self, other: Exit) -> Exit {
        if other.priority() > self.priority() {
            other
        } else {
            self
        }
    }

    /// A short name: `pass`, `fail`, `usage`, `coverage`, `approval-required`, `budget-exceeded`,
    /// `guard-refused`, `drift-alert`, `root-failed`, `stack-failed`, `stack-refused`, `hung-up`,
    /// `interrupted`, `terminated`.
    pub fn as_str(self) -> &'static str {
        match self {
            Exit::Pass => "pass",
            Exit::Fail => "fail",
            Exit::Usage => "usage",
            Exit::Coverage => "coverage",
            Exit::ApprovalRequired => "approval-required",
            Exit::BudgetExceeded => "budget-exceeded",
            Exit::GuardRefused => "guard-refused",
            Exit::DriftAlert => "drift-alert",
            Exit::RootFailed => "root-failed",
            Exit::StackFailed => "stack-failed",
            Exit::StackRefused => "stack-refused",
            Exit::HungUp => "hung-up",
            Exit::Interrupted => "interrupted",
            Exit::Terminated => "terminated",
        }
    }

    /// One line for `ward --help`.
    pub fn summary(self) -> &'static str {
        match self {
            Exit::Pass => "pass",
            Exit::Fail => "a change at or above --fail-on CLASS (or another policy failure)",
            Exit::Usage => "usage error, input that could not be read, or an errored plan (unless --allow-errored)",
            Exit::Coverage => "coverage failure: a managed resource type no rule classifies",
            Exit::ApprovalRequired => "ward gate: approval required",
            Exit::BudgetExceeded => "ward gate: budget exceeded",
            Exit::GuardRefused => "ward gate: a liveness guard refused",
            Exit::DriftAlert => "ward drift: drift alert (new or escalated drift)",
            Exit::RootFailed => "ward drift: a root failed (missing or replaced state, error) or no roots found",
            Exit::StackFailed => "ward stack: a root's step failed; the run stopped (ward stack resume continues it)",
            Exit::StackRefused => "ward stack: refused (a root reading this one holds resources, or upstream not applied)",
            Exit::HungUp => "stopped by SIGHUP (128 + 1)",
            Exit::Interrupted => "stopped by SIGINT, Ctrl-C (128 + 2)",
            Exit::Terminated => "stopped by SIGTERM (128 + 15)",
        }
    }

    /// The meaning column of the table in `docs/exit-codes.md` (Markdown).
    pub fn meaning(self) -> &'static str {
        match self {
            Exit::Pass => "Nothing failed.",
            Exit::Fail => "A change at or above `--fail-on CLASS` (and, for other subcommands, a policy failure).",
            Exit::Usage => "A usage error (unknown flag, bad value, missing argument), input that could not be read (missing file, a directory, not a plan, unknown format version or action, a broken `ward.hcl`), a report that could not be written, or an **errored plan** (see below).",
            Exit::Coverage => "The coverage gate failed: a change of the plan is to a managed resource type that no rule classifies.",
            Exit::ApprovalRequired => "`ward gate`: a change needs an approval it does not have (see [gate.md](gate.md)).",
            Exit::BudgetExceeded => "`ward gate`: the change budget is exceeded.",
            Exit::GuardRefused => "`ward gate`: a liveness guard refused (failed, timed out or could not start).",
            Exit::DriftAlert => "`ward drift`: at least one drift finding is new or escalated since the last run (see [drift.md](drift.md)).",
            Exit::RootFailed => "`ward drift`: a root failed (missing or replaced state, error, mismatch) or zero roots were found.",
            Exit::StackFailed => "`ward stack`: a root's step failed (Terraform failed, a state backup could not be written or verified, the state was not empty after a destroy, a plan after apply showed changes); the run stopped at that root and `ward stack resume` continues it (see [stack.md](stack.md)).",
            Exit::StackRefused => "`ward stack`: refused before changing anything: a root that reads the one to destroy still holds resources, a root's upstream has changes not yet applied, or a root is a Terragrunt unit and no `terragrunt` is on `PATH`.",
            Exit::HungUp => "`SIGHUP` (128 + 1): ward stopped every program it ran, removed its scratch files and recorded nothing (see [Stopping ward](#stopping-ward)).",
            Exit::Interrupted => "`SIGINT`, Ctrl-C (128 + 2): as for 129.",
            Exit::Terminated => "`SIGTERM` (128 + 15): as for 129.",
        }
    }

    /// Every command outcome except [`Exit::Pass`] (signal exits never meet another), highest
    /// priority first: the order in which they win.
    pub fn by_priority() -> Vec<Exit> {
        let mut v: Vec<Exit> = Exit::ALL
            .into_iter()
            .filter(|e| *e != Exit::Pass && !e.is_signal())
            .collect();
        v.sort_by_key(|e| std::cmp::Reverse(e.priority()));
        v
    }

    /// The exit-code table of `ward --help`, generated from this type.
    pub fn help_table() -> String {
        let mut s = String::from("Exit codes (every subcommand):\n");
        for e in Exit::ALL {
            s.push_str(&format!("  {}  {}\n", e.code(), e.summary()));
        }
        let order: Vec<String> = Exit::by_priority()
            .iter()
            .map(|e| e.code().to_string())
            .collect();
        s.push_str(&format!(
            "When several apply, ward exits with the first of {}.",
            order.join(", ")
        ));
        s
    }

    /// The `Exit codes:` line of a subcommand's `--help`, generated from this type: each exit
    /// of `exits` as `CODE WORDS`, where the words are `words(exit)` or, when that gives `None`,
    /// the exit's [`summary`](Exit::summary) without its `ward COMMAND: ` prefix. Ends with the signal
    /// codes, which every command that runs programs shares.
    pub fn help_line(exits: &[Exit], words: impl Fn(Exit) -> Option<&'static str>) -> String {
        let parts: Vec<String> = exits
            .iter()
            .map(|e| {
                let w = words(*e).unwrap_or_else(|| {
                    let s = e.summary();
                    s.strip_prefix("ward ")
                        .and_then(|r| r.split_once(": "))
                        .map_or(s, |(_, rest)| rest)
                });
                format!("{} {w}", e.code())
            })
            .collect();
        let signals: Vec<String> = Exit::SIGNALS
            .iter()
            .map(|(_, e)| e.code().to_string())
            .collect();
        format!(
            "Exit codes: {}; {} stopped by a signal.",
            parts.join("; "),
            signals.join("/")
        )
    }

    /// The exit-code table of `docs/exit-codes.md`, generated from this type.
    pub fn markdown_table() -> String {
        let mut s = String::from("| code | name | meaning |\n|---:|---|---|\n");
        for e in Exit::ALL {
            s.push_str(&format!(
                "| {} | {} | {} |\n",
                e.code(),
                e.as_str(),
                e.meaning()
            ));
        }
        s
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// For `#[serde(serialize_with = "ward_model::exit::serialize_code")]`: an exit as its number,
/// where a report's JSON carries `exit_code`.
pub fn serialize_code<S: serde::Serializer>(e: &Exit, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u8(e.code())
}

impl From<Exit> for std::process::ExitCode {
    fn from(e: Exit) -> Self {
        std::process::ExitCode::from(e.code())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn priorities() {
        assert_eq!(Exit::Fail.worst(Exit::Coverage), Exit::Coverage);
        assert_eq!(Exit::Coverage.worst(Exit::Usage), Exit::Usage);
        assert_eq!(Exit::Usage.worst(Exit::Fail), Exit::Usage);
        assert_eq!(Exit::Pass.worst(Exit::Pass), Exit::Pass);
        // The documented order: 2, 3, 8, 9, 10, 5, 4, 6, 7, 1, 0.
        let order = [2, 3, 8, 9, 10, 5, 4, 6, 7, 1, 0];
        for w in order.windows(2) {
            let (hi, lo) = (
                Exit::from_code(w[0]).unwrap(),
                Exit::from_code(w[1]).unwrap(),
            );
            assert_eq!(hi.worst(lo), hi, "{hi} over {lo}");
            assert_eq!(lo.worst(hi), hi, "{hi} over {lo}");
        }
        for (i, e) in Exit::ALL.iter().filter(|e| !e.is_signal()).enumerate() {
            assert_eq!(usize::from(e.code()), i);
        }
        for e in Exit::ALL {
            assert_eq!(Exit::from_code(i32::from(e.code())), Some(e));
        }
        for (sig, e) in Exit::SIGNALS {
            assert_eq!(i32::from(e.code()), 128 + sig, "{e}");
            assert_eq!(Exit::from_signal(sig), Some(e));
            assert!(e.is_signal());
            assert_eq!(e.worst(Exit::Usage), e, "a signal ends the process");
        }
        assert_eq!(Exit::from_signal(9), None);
        assert!(!Exit::Usage.is_signal());
        assert_eq!(Exit::from_code(11), None);
        assert_eq!(Exit::from_code(-1), None);
        let codes: Vec<u8> = Exit::by_priority().iter().map(|e| e.code()).collect();
        assert_eq!(codes, [2, 3, 8, 9, 10, 5, 4, 6, 7, 1]);
    }

    #[test]
    fn help_lines() {
        let line = Exit::help_line(&[Exit::Pass, Exit::Usage, Exit::ApprovalRequired], |e| {
            (e == Exit::Usage).then_some("error")
        });
        assert_eq!(
            line,
            "Exit codes: 0 pass; 2 error; 4 approval required; 129/130/143 stopped by a signal."
        );
    }

    /// docs/exit-codes.md carries exactly the table generated from [`Exit`], and its priority
    /// order.
    #[test]
    fn docs_agree_with_the_type() {
        let doc = include_str!("../../../docs/exit-codes.md");
        assert!(
            doc.contains(&Exit::markdown_table()),
            "docs/exit-codes.md disagrees with ward_model::Exit; its table must be:\n{}",
            Exit::markdown_table()
        );
        let order: Vec<String> = Exit::by_priority()
            .iter()
            .map(|e| e.code().to_string())
            .collect();
        assert!(
            doc.contains(&format!("**{}**", order.join(", "))),
            "docs/exit-codes.md does not give the priority order {order:?}"
        );
    }
}
