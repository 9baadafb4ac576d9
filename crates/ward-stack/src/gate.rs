//! The one place ward stack calls ward-gate's library entry points (`ward_gate::run::gate` and
//! `ward_gate::run::approve`): what a stack needs from the gate, behind two small functions, so
//! a change of the gate's API touches only this file. The gate is given the stack's values
//! ([`ward_gate::run::Setup`]: its `ward.hcl`, knowledge and clock; the binding as options): it
//! reads no configuration of its own.

use crate::report::PendingApproval;
use crate::{Env, Options};
use std::path::Path;
use ward_gate::run::{ApproveOptions, Audit, GateOptions, Inputs, ReadPlan, Setup};
use ward_model::Exit;
use ward_store::{AuditSource, Location};

/// What the gate said about one saved plan.
#[derive(Debug, Clone)]
pub(crate) struct Gated {
    /// The gate's exit.
    pub exit: Exit,
    /// Changes needing an approval they do not have.
    pub pending: Vec<PendingApproval>,
    /// Why it refused otherwise (errors, guards, budgets, coverage), one line each.
    pub problems: Vec<String>,
}

/// How a plan is gated: the upstream context bound into every digest, and whether every change
/// needs its own approval (a teardown).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Binding<'a> {
    pub context: Option<&'a str>,
    pub every_change: bool,
}

impl Binding<'_> {
    fn value(&self) -> ward_gate::run::Binding {
        ward_gate::run::Binding {
            context: self.context.map(str::to_string),
            every_change: self.every_change,
        }
    }
}

/// The stack's values, as the gate takes them.
fn setup(opts: &Options) -> Setup<'_> {
    Setup {
        config: Some(&opts.config),
        knowledge: &opts.knowledge,
        cwd: &opts.repo,
        clock: opts.clock,
        approver: opts.approver.clone(),
    }
}

/// The stack's history and the instance a gate or an approval is recorded under there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Recorded<'a> {
    /// The stack's history.
    pub db: &'a Location,
    /// The root's name in `ward.hcl`.
    pub root: &'a str,
    /// The site.
    pub site: &'a str,
    /// The run.
    pub run: Option<&'a str>,
}

impl Recorded<'_> {
    /// The gate's audit trail: the stack's history, under the instance's root, site and run.
    fn audit(&self) -> Audit {
        Audit {
            history: self.db.clone(),
            source: AuditSource::Stack,
            root: Some(self.root.to_string()),
            site: Some(self.site.to_string()),
            run: self.run.map(str::to_string),
        }
    }
}

/// What the gate reads: the plan, the root, and the stack's own history (where `ward import`
/// records a root being adopted), never the default one.
fn inputs(plan_json: &Path, config: &Path, root_dir: &Path, db: &Location) -> Inputs {
    Inputs {
        plan: plan_json.display().to_string(),
        config: Some(config.to_path_buf()),
        approvals: None,
        root: Some(root_dir.to_path_buf()),
        allow_unclassified: false,
        history: Some(db.clone()),
    }
}

/// Gates one saved plan of the root in `root_dir`, with the stack's history, where the decision
/// is recorded. `json` names the plan's `show -json` output; `read` reads it for the gate, once,
/// as a stream (ward-terraform's `Workspace::show_read`): the gate holds no more of the plan than
/// `ward gate` does of a file, and reads the JSON for its guards' objects in the same pass.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gate(
    opts: &Options,
    json: &Path,
    read: ReadPlan<'_>,
    root_dir: &Path,
    rec: Recorded<'_>,
    b: Binding<'_>,
    env: Env<'_>,
    approve_command: &dyn Fn(&str) -> String,
) -> Result<Gated, String> {
    let g = GateOptions {
        inputs: inputs(json, &opts.config.path, root_dir, rec.db),
        record: None,
        no_record_protection: true,
        audit: Some(rec.audit()),
        binding: b.value(),
    };
    let out = ward_gate::run::gate(&g, &setup(opts), Some(read), env).map_err(|e| e.to_string())?;
    let rep = &out.report;
    let pending = rep
        .required
        .iter()
        .filter(|r| !r.approval.is_approved())
        .map(|r| PendingApproval {
            command: approve_command(&r.address),
            action: ward_gate::audit::action_name(r.action),
            impact: r.impact.as_str().to_string(),
            digest: r.digest.clone(),
            status: r.approval.name().to_string(),
            address: r.address.clone(),
        })
        .collect();
    let problems = ward_gate::audit::problems(rep);
    Ok(Gated {
        exit: out.exit,
        pending,
        problems,
    })
}

/// What `ward stack approve` passes on to `ward approve`.
#[derive(Debug, Clone, Default)]
pub struct ApproveArgs {
    /// The root.
    pub root: String,
    /// The site; needed when the root has several.
    pub site: Option<String>,
    /// The exact address (empty with `all`).
    pub address: String,
    /// Approve every change the instance's teardown waits on, each on its own.
    pub all: bool,
    /// Why it is safe.
    pub reason: String,
    /// How long it lasts.
    pub expires: Option<String>,
    /// Who approves.
    pub by: Option<String>,
}

/// Approves one change of a saved plan with the same binding the gate used, and records it in
/// the stack's history.
pub(crate) fn approve(
    opts: &Options,
    plan_json: &Path,
    root_dir: &Path,
    rec: Recorded<'_>,
    b: Binding<'_>,
    a: &ApproveArgs,
    env: Env<'_>,
) -> Result<ward_gate::run::Approved, String> {
    let o = ApproveOptions {
        inputs: inputs(plan_json, &opts.config.path, root_dir, rec.db),
        audit: Some(rec.audit()),
        address: a.address.clone(),
        deposed: None,
        reason: a.reason.clone(),
        expires: a.expires.clone(),
        by: a.by.clone(),
        binding: b.value(),
    };
    ward_gate::run::approve(&o, &setup(opts), env).map_err(|e| e.to_string())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// A stack's options in `dir`: its `ward.hcl` holds `hcl` and fakecloud's rules.
    fn options(dir: &Path, hcl: &str) -> Options {
        let mut config =
            ward_config::Config::parse(&ward_rig::rules::ward_hcl(hcl), "ward.hcl", dir).unwrap();
        config.path = dir.join("ward.hcl");
        Options {
            knowledge: ward_config::knowledge(Some(&config)).unwrap(),
            approver: None,
            config,
            repo: dir.to_path_buf(),
            site: None,
            root: None,
            binaries: vec![],
            db: Location::Sqlite(dir.join("unused.sqlite")),
            clock: ward_time::Clock::System,
            progress: None,
            env: vec![],
            path: None,
        }
    }

    /// A root recorded as being adopted in the stack's own history is gated as such: a managed
    /// create in it is refused, as plain `ward gate --root --db` refuses it; the default
    /// history, which the stack used to read, does not decide (#33 item 3).
    #[test]
    fn the_stacks_own_history_decides_an_adoption() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("live");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            root.join("main.tf"),
            "resource \"fakecloud_instance\" \"web\" {\n  image = \"debian-12\"\n}\n",
        )
        .unwrap();
        let opts = options(t.path(), "");
        let plan = t.path().join("plan.json");
        std::fs::write(
            &plan,
            r#"{"format_version":"1.2","terraform_version":"1.15.5","planned_values":{},
               "resource_changes":[{"address":"fakecloud_instance.web","mode":"managed",
               "type":"fakecloud_instance","name":"web",
               "provider_name":"registry.terraform.io/ward/fakecloud",
               "change":{"actions":["create"],"before":null,"after":{"image":"debian-12"},
               "after_unknown":{"id":true},"before_sensitive":false,"after_sensitive":{}}}]}"#,
        )
        .unwrap();
        // The plan as ward-terraform reads it for the gate; the file the gate is named is gone,
        // so the gate can have read the plan only through the reader it is given.
        let moved = t.path().join("shown.json").display().to_string();
        std::fs::rename(&plan, &moved).unwrap();
        let mut read = |o: ward_plan::ReadOptions,
                        f: &mut dyn FnMut(ward_model::ResourceChange)| {
            ward_plan::read_with(&moved, o, Some(f)).map_err(|e| e.to_string())
        };
        let db = t.path().join("stack.sqlite");
        let key = std::fs::canonicalize(&root).unwrap().display().to_string();
        let mut store = ward_store::Store::open(&db).unwrap();
        store
            .append_record(&ward_store::NewRecord {
                kind: "import-plan",
                root: &key,
                key: "",
                recorded_at: "2026-12-01T00:00:00Z",
                body: &serde_json::json!({"schema_version": 1, "root": key, "ids": {}}),
            })
            .unwrap();
        drop(store);
        let b = Binding {
            context: None,
            every_change: false,
        };
        let env = |_: &str| None;
        let cmd = |a: &str| a.to_string();
        let (at_db, at_other) = (
            Location::Sqlite(db.clone()),
            Location::Sqlite(t.path().join("other.sqlite")),
        );
        let rec = |db| Recorded {
            db,
            root: "live",
            site: "default",
            run: None,
        };
        let e = gate(
            &opts,
            &plan,
            ReadPlan { read: &mut read },
            &root,
            rec(&at_db),
            b,
            &env,
            &cmd,
        )
        .unwrap_err();
        assert!(e.contains("is being adopted with `ward import`"), "{e}");
        assert!(
            e.contains("refused: fakecloud_instance.web (create)"),
            "{e}"
        );
        let other = t.path().join("other.sqlite");
        let g = gate(
            &opts,
            &plan,
            ReadPlan { read: &mut read },
            &root,
            rec(&at_other),
            b,
            &env,
            &cmd,
        )
        .unwrap();
        assert_eq!(g.exit, Exit::Pass, "{:?}", g.problems);
        // Each decision is in the stack's history, under the instance (#33 item 8).
        let decided = |db: &Path| {
            ward_store::Store::open(db)
                .unwrap()
                .gate_outcomes(&ward_store::AuditQuery::default())
                .unwrap()
                .into_iter()
                .map(|r| {
                    let o = r.outcome;
                    (o.source, o.root, o.site, o.outcome, o.exit_code)
                })
                .collect::<Vec<_>>()
        };
        let row = |outcome: &str, code| {
            (
                AuditSource::Stack,
                "live".to_string(),
                Some("default".to_string()),
                outcome.to_string(),
                code,
            )
        };
        assert_eq!(decided(&db), [row("adoption-refused", 1)]);
        assert_eq!(decided(&other), [row("pass", 0)]);
    }

    /// The guards of a stack's gate are told the destroyed object's attributes from the objects
    /// ward-terraform read with the plan, in the same pass: the plan's JSON is removed before
    /// the gate, so a second read of it (as the gate did for its guards before #34) fails, and
    /// a guard not told the object refuses.
    #[test]
    fn the_guards_are_told_the_object_read_with_the_plan() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("live");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(
            root.join("main.tf"),
            "# the instance is gone from the code\n",
        )
        .unwrap();
        let hcl = r#"
policy {
  approve                 = []
  approve_destroy_of_data = false
}
guard "image-known" {
  types   = ["fakecloud_instance"]
  actions = ["delete"]
  command = ["sh", "-c", "test \"$WARD_ATTR_IMAGE\" = debian-12"]
  timeout = "20s"
}
"#;
        let opts = options(t.path(), hcl);
        let plan = t.path().join("plan.json");
        std::fs::write(
            &plan,
            r#"{"format_version":"1.2","terraform_version":"1.15.5","planned_values":{},
               "resource_changes":[{"address":"fakecloud_instance.web","mode":"managed",
               "type":"fakecloud_instance","name":"web",
               "provider_name":"registry.terraform.io/ward/fakecloud",
               "change":{"actions":["delete"],"before":{"id":"i-1","image":"debian-12"},
               "after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false}}]}"#,
        )
        .unwrap();
        // As Workspace::show_read reads it for the gate: the plan and its destroyed objects in
        // one pass, from a file other than the one the gate is named (which is gone).
        let moved = t.path().join("shown.json").display().to_string();
        std::fs::rename(&plan, &moved).unwrap();
        let mut asked = Vec::new();
        let mut read = |o: ward_plan::ReadOptions,
                        f: &mut dyn FnMut(ward_model::ResourceChange)| {
            asked.push(o.clone());
            ward_plan::read_with(&moved, o, Some(f)).map_err(|e| e.to_string())
        };
        let rec = Recorded {
            db: &Location::Sqlite(t.path().join("stack.sqlite")),
            root: "live",
            site: "default",
            run: None,
        };
        let b = Binding {
            context: None,
            every_change: false,
        };
        let g = gate(
            &opts,
            &plan,
            ReadPlan { read: &mut read },
            &root,
            rec,
            b,
            &|_: &str| None,
            &|a| a.to_string(),
        )
        .unwrap();
        assert_eq!(g.exit, Exit::Pass, "{:?}", g.problems);
        // One read, asking for the objects the guard is told.
        assert_eq!(asked.len(), 1);
        assert!(asked[0].objects);
    }
}
