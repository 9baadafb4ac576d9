//! The typed results of `ward_gate::run` rendered the way ward-cli prints them
//! (`ward_report::gate`), for the tests that read the output; and [`T`], a directory with a
//! `ward.hcl` to run the commands in on the example plans.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use ward_gate::run::{self, ApproveOptions, Approved, GateOptions, GateRun, Inputs, Verified};
use ward_model::Exit;
use ward_report::gate;
use ward_report::Format;

/// The run's values read the way `ward` reads them once (ward-cli's context): the `ward.hcl` of
/// `--config`, else the one found from the working directory, and its knowledge; the clock
/// `env` gives as `WARD_NOW` (tests only), else the system's; the approver `env` gives.
pub struct Ctx {
    pub config: Option<ward_config::Config>,
    pub knowledge: ward_rules::Knowledge,
    pub cwd: PathBuf,
    pub clock: ward_time::Clock,
    pub approver: Option<String>,
}

impl Ctx {
    pub fn read(inputs: &Inputs, env: run::Env<'_>) -> Result<Ctx, ward_gate::GateError> {
        let cwd = std::env::current_dir().unwrap();
        let found = ward_config::discover(inputs.config.as_deref(), &cwd)?;
        let config = found
            .as_ref()
            .map(ward_config::Config::load_found)
            .transpose()?;
        let knowledge = ward_config::knowledge(config.as_ref())
            .map_err(|e| ward_gate::GateError::Usage(e.to_string()))?;
        let clock = match env(run::NOW_VAR) {
            Some(s) => ward_time::Clock::Fixed(
                ward_time::parse_timestamp(&s)
                    .map_err(|e| ward_gate::GateError::Usage(format!("{}: {e}", run::NOW_VAR)))?,
            ),
            None => ward_time::Clock::System,
        };
        let approver = ["WARD_APPROVER", "USER", "LOGNAME"]
            .iter()
            .find_map(|v| env(v));
        Ok(Ctx {
            config,
            knowledge,
            cwd,
            clock,
            approver,
        })
    }

    pub fn setup(&self) -> run::Setup<'_> {
        run::Setup {
            config: self.config.as_ref(),
            knowledge: &self.knowledge,
            cwd: &self.cwd,
            clock: self.clock,
            approver: self.approver.clone(),
        }
    }
}

/// `ward_gate::run::gate` with the run's values read as `ward` reads them ([`Ctx`]).
pub fn run_gate(opts: &GateOptions, env: run::Env<'_>) -> Result<GateRun, ward_gate::GateError> {
    run::gate(opts, &Ctx::read(&opts.inputs, env)?.setup(), None, env)
}

/// `ward_gate::run::approve` with the run's values read as `ward` reads them ([`Ctx`]).
pub fn run_approve(
    opts: &ApproveOptions,
    env: run::Env<'_>,
) -> Result<Approved, ward_gate::GateError> {
    run::approve(opts, &Ctx::read(&opts.inputs, env)?.setup(), env)
}

/// The path of an example plan committed in `examples/plans` (real Terraform output).
pub fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/plans")
        .join(name)
        .display()
        .to_string()
}

/// A temporary directory with a `ward.hcl` (fakecloud's rules and `ward_hcl`), and the
/// environment the commands are given (a fixed clock and an approver).
pub struct T {
    pub dir: tempfile::TempDir,
    pub env: BTreeMap<String, String>,
}

impl T {
    pub fn new(ward_hcl: &str) -> T {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("ward.hcl"),
            ward_rig::rules::ward_hcl(ward_hcl),
        )
        .unwrap();
        let mut env = BTreeMap::new();
        env.insert("WARD_NOW".into(), "2026-11-29T18:00:00Z".into());
        env.insert("WARD_APPROVER".into(), "alice".into());
        T { dir, env }
    }
    pub fn set(&mut self, k: &str, v: &str) {
        self.env.insert(k.into(), v.into());
    }
    pub fn path(&self, n: &str) -> PathBuf {
        self.dir.path().join(n)
    }
    /// The inputs for an example plan, with this directory's `ward.hcl`.
    pub fn inputs(&self, plan: &str) -> Inputs {
        Inputs {
            plan: example(plan),
            config: Some(self.path("ward.hcl")),
            approvals: None,
            root: None,
            allow_unclassified: false,
            history: None,
        }
    }
    /// `ward gate` with these options, rendered as JSON.
    pub fn gate_opts(&self, opts: &GateOptions) -> Result<Out, String> {
        let env = self.env.clone();
        run_gate(opts, &move |k: &str| env.get(k).cloned())
            .map(|r| gate(r, Format::Json))
            .map_err(|e| e.to_string())
    }
    /// `ward gate --no-record-protection`, with a gate record when `record` is given.
    pub fn gate_with(&self, inputs: Inputs, record: Option<PathBuf>) -> Result<Out, String> {
        self.gate_opts(&GateOptions {
            inputs,
            record,
            no_record_protection: true,
            audit: None,
            binding: Default::default(),
        })
    }
    pub fn gate(&self, plan: &str) -> Result<Out, String> {
        self.gate_with(self.inputs(plan), None)
    }
    /// `ward approve` of `fakecloud_volume.db_data` in `plan`, as `f` changes the options.
    pub fn approve(&self, plan: &str, f: impl FnOnce(&mut ApproveOptions)) -> Result<Out, String> {
        let mut o = ApproveOptions {
            inputs: self.inputs(plan),
            address: "fakecloud_volume.db_data".into(),
            deposed: None,
            reason: "snapshot taken".into(),
            expires: None,
            by: None,
            audit: None,
            binding: Default::default(),
        };
        f(&mut o);
        let env = self.env.clone();
        run_approve(&o, &move |k: &str| env.get(k).cloned())
            .map(approve)
            .map_err(|e| e.to_string())
    }
}

/// The JSON report of a rendered `ward gate --format json`.
pub fn json(out: &Out) -> serde_json::Value {
    serde_json::from_str(&out.stdout).unwrap()
}

/// What the command would print and how it would end.
#[derive(Debug)]
pub struct Out {
    /// Standard output: the rendered report.
    pub stdout: String,
    /// Standard error: the notes, a line each.
    pub stderr: String,
    /// The exit.
    pub exit: Exit,
}

fn notes(n: &[String]) -> String {
    n.iter().map(|l| format!("{l}\n")).collect()
}

/// `ward gate --format F`.
pub fn gate(r: GateRun, format: Format) -> Out {
    Out {
        stdout: gate::render(&r.report, format).unwrap(),
        stderr: notes(&r.notes),
        exit: r.exit,
    }
}

/// `ward approve`.
pub fn approve(a: Approved) -> Out {
    Out {
        stdout: gate::approve_text(&a),
        stderr: notes(&a.notes),
        exit: a.exit,
    }
}

/// `ward verify` (`--format json` when `json`).
pub fn verify(v: Verified, json: bool) -> Out {
    Out {
        stdout: gate::verify(
            &v,
            if json { Format::Json } else { Format::Terminal },
            false,
        )
        .unwrap(),
        stderr: notes(&v.notes),
        exit: v.exit,
    }
}
