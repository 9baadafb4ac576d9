//! End to end: `ward stack` on the three-layer, two-site example (`examples/stack`) against real
//! Terraform (1.0.3 and 1.15.5) and the fakecloud provider, through ward-rig. Skipped (with a
//! message) when the rig's tools are not installed, failed under CI.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use ward_model::Exit;
use ward_rig::{Cloud, Rig};
use ward_stack::report::{RootOutcome, StackReport};
use ward_stack::{ApproveArgs, Options};

/// A copy of the example in a scratch directory: `repo/` (the example, its own checkout),
/// with `cloud/`, `site-state/`, `site-backups/` beside it, as its ward.hcl expects.
struct Site {
    tmp: tempfile::TempDir,
    tf: ward_rig::Terraform,
    cli_config: PathBuf,
}

impl Site {
    fn new(rig: &Rig, tf: &ward_rig::Terraform) -> Site {
        let tmp = tempfile::tempdir().unwrap();
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/stack");
        ward_rig::copy_dir(&example, &tmp.path().join("site")).unwrap();
        // Its ward.hcl loads the fakecloud rule file from beside the copy, as docs/stack.md does.
        std::fs::create_dir_all(tmp.path().join("rules")).unwrap();
        std::fs::copy(
            ward_rig::rules::file(),
            tmp.path().join("rules/fakecloud.hcl"),
        )
        .unwrap();
        std::fs::create_dir_all(tmp.path().join("site/.git")).unwrap();
        std::fs::create_dir_all(tmp.path().join("cloud")).unwrap();
        Site {
            tmp,
            tf: tf.clone(),
            cli_config: rig.cli_config().to_path_buf(),
        }
    }
    fn repo(&self) -> PathBuf {
        self.tmp.path().join("site")
    }
    fn cloud(&self) -> Cloud {
        Cloud::new(self.tmp.path().join("cloud"))
    }
    fn opts(&self, site: Option<&str>, root: Option<&str>) -> Options {
        let path = self.repo().join("ward.hcl");
        let cfg = ward_config::Config::load(&path, "ward.hcl").unwrap();
        Options {
            knowledge: ward_config::knowledge(Some(&cfg)).unwrap(),
            approver: None,
            config: cfg,
            repo: self.repo(),
            site: site.map(str::to_string),
            root: root.map(str::to_string),
            binaries: vec![ward_terraform::binary::probe(
                &self.tf.path,
                Some(ward_terraform::Product::Terraform),
            )
            .unwrap()],
            db: ward_store::Location::Sqlite(self.tmp.path().join("history.sqlite")),
            clock: ward_time::Clock::System,
            progress: None,
            env: vec![
                (
                    "TF_CLI_CONFIG_FILE".into(),
                    self.cli_config.display().to_string(),
                ),
                (
                    "FAKECLOUD_DIR".into(),
                    self.tmp.path().join("cloud").display().to_string(),
                ),
            ],
            path: std::env::var_os("PATH"),
        }
    }
    fn state(&self, site: &str, root: &str) -> serde_json::Value {
        let p = self
            .tmp
            .path()
            .join("site-state")
            .join(site)
            .join(format!("{root}.tfstate"));
        serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap()
    }
    fn resources(&self, site: &str, root: &str) -> usize {
        // Managed resources (data sources are in the state too, until the destroy).
        self.state(site, root)["resources"]
            .as_array()
            .map_or(0, |a| a.iter().filter(|r| r["mode"] == "managed").count())
    }
}

/// The process environment as ward-cli gives it: without the test clock's variable.
fn env(name: &str) -> Option<String> {
    if name == ward_gate::run::NOW_VAR {
        return None;
    }
    std::env::var(name).ok()
}

fn root<'a>(r: &'a StackReport, id: &str) -> &'a ward_stack::report::RootReport {
    r.roots
        .iter()
        .find(|x| x.id() == id)
        .unwrap_or_else(|| panic!("{id} not in {}", ward_report::stack::text(r)))
}

fn approve_all(s: &Site, r: &StackReport) -> usize {
    approve_each(&|| s.opts(None, None), r)
}

/// Approves every change the instances of `r` wait on, one `ward stack approve` each.
fn approve_each(opts: &dyn Fn() -> Options, r: &StackReport) -> usize {
    let mut n = 0;
    for x in &r.roots {
        for a in &x.approvals {
            ward_stack::approve(
                &opts(),
                &ApproveArgs {
                    root: x.root.clone(),
                    site: Some(x.site.clone()),
                    address: a.address.clone(),
                    all: false,
                    reason: "teardown of the test site".into(),
                    expires: None,
                    by: Some("tester".into()),
                },
                &env,
            )
            .unwrap();
            n += 1;
        }
    }
    n
}

/// Approves the destroys each instance of `r` waits on with one `ward stack approve --all` per
/// instance; returns how many commands that took.
fn approve_all_at_once(s: &Site, r: &StackReport) -> usize {
    let mut n = 0;
    for x in r.roots.iter().filter(|x| !x.approvals.is_empty()) {
        let done = ward_stack::approve(
            &s.opts(None, None),
            &ApproveArgs {
                root: x.root.clone(),
                site: Some(x.site.clone()),
                address: String::new(),
                all: true,
                reason: "teardown of the test site".into(),
                expires: None,
                by: Some("tester".into()),
            },
            &env,
        )
        .unwrap();
        let (out, notes) = ward_report::stack::approved(&done);
        // Listed first, each with its digest; then each approved on its own.
        for a in &x.approvals {
            assert!(
                notes.contains(&format!(
                    "  {} ({}, {}) {}\n",
                    a.address, a.action, a.impact, a.digest
                )),
                "{notes}"
            );
            assert!(out.contains(&format!("approved {} (", a.address)), "{out}");
        }
        assert_eq!(out.matches("approved ").count(), x.approvals.len(), "{out}");
        n += 1;
    }
    n
}

/// The approvals the stack's history holds for `site`: (root, address, by), in the order given.
fn recorded_approvals(s: &Site, site: &str) -> Vec<(String, String, String)> {
    let store = ward_store::Store::open_location(&s.opts(None, None).db).unwrap();
    let mut v: Vec<_> = store
        .approvals(&ward_store::AuditQuery::default())
        .unwrap()
        .into_iter()
        .rev()
        .filter(|r| r.approval.site.as_deref() == Some(site))
        .map(|r| (r.approval.root, r.approval.address, r.approval.by))
        .collect();
    v.dedup();
    v
}

#[test]
fn apply_forward_teardown_in_reverse_with_approvals_backups_and_resume() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        scenario(&rig, tf);
    }
}

fn scenario(rig: &Rig, tf: &ward_rig::Terraform) {
    let s = Site::new(rig, tf);
    let t = |r: &StackReport| format!("Terraform {}:\n{}", tf.version, ward_report::stack::text(r));

    // Plan before anything exists: L0 has changes, everything above is blocked, never planned
    // against missing outputs.
    let r = ward_stack::plan(&s.opts(None, None), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", t(&r));
    assert_eq!(
        root(&r, "network/dc0").outcome,
        RootOutcome::Changes,
        "{}",
        t(&r)
    );
    assert_eq!(
        root(&r, "instances/dc0").outcome,
        RootOutcome::BlockedByUpstream,
        "{}",
        t(&r)
    );
    assert_eq!(
        root(&r, "volumes/dc1").outcome,
        RootOutcome::BlockedByUpstream,
        "{}",
        t(&r)
    );

    // Apply forward: every root applied, layer by layer.
    let r = ward_stack::apply(&s.opts(None, None), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", t(&r));
    let order: Vec<String> = r.roots.iter().map(|x| x.id()).collect();
    assert_eq!(
        order,
        [
            "network/dc0",
            "network/dc1",
            "instances/dc0",
            "instances/dc1",
            "volumes/dc0",
            "volumes/dc1"
        ]
    );
    for x in &r.roots {
        assert_eq!(x.outcome, RootOutcome::Applied, "{}", t(&r));
        assert!(x.outputs_sha256.is_some() && x.state.is_some(), "{}", t(&r));
    }
    assert!(root(&r, "instances/dc0").upstream_sha256.is_some());
    assert_eq!(s.resources("dc0", "volumes"), 2);
    assert_eq!(s.cloud().ids("instance").unwrap().len(), 2);

    // A cidr change in L0: L1's dependent replacement shows only once L0 is applied.
    std::fs::write(
        s.repo().join("network/dc0.tfvars"),
        "site = \"dc0\"\ncidr = \"10.12.0.0/16\"\n",
    )
    .unwrap();
    let r = ward_stack::plan(&s.opts(Some("dc0"), None), &env).unwrap();
    assert_eq!(
        root(&r, "network/dc0").outcome,
        RootOutcome::Changes,
        "{}",
        t(&r)
    );
    assert_eq!(
        root(&r, "network/dc0").changes.unwrap().replace,
        1,
        "{}",
        t(&r)
    );
    assert_eq!(
        root(&r, "instances/dc0").outcome,
        RootOutcome::BlockedByUpstream,
        "{}",
        t(&r)
    );
    assert!(root(&r, "instances/dc0").changes.is_none());
    let before = root(
        &ward_stack::plan(&s.opts(Some("dc1"), None), &env).unwrap(),
        "instances/dc1",
    )
    .outcome;
    assert_eq!(before, RootOutcome::NoChanges);
    let r = ward_stack::apply(&s.opts(Some("dc0"), None), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", t(&r));
    let inst = root(&r, "instances/dc0");
    assert_eq!(inst.outcome, RootOutcome::Applied, "{}", t(&r));
    assert_eq!(
        inst.changes.unwrap().replace,
        1,
        "the new network replaces the instance: {}",
        t(&r)
    );
    assert_eq!(
        root(&r, "volumes/dc0").changes.unwrap().replace,
        1,
        "{}",
        t(&r)
    );

    // Tearing down L0 while L1 holds state is refused, and nothing changes.
    let r = ward_stack::teardown(&s.opts(Some("dc0"), Some("network")), &env).unwrap();
    assert_eq!(r.exit, Exit::StackRefused, "{}", t(&r));
    assert!(
        r.stopped
            .as_deref()
            .unwrap()
            .contains("instances/dc0 reads network/dc0 and still holds"),
        "{}",
        t(&r)
    );
    assert_eq!(s.resources("dc0", "network"), 1);

    // A backup that cannot be written stops the teardown before anything is destroyed.
    let mut o = s.opts(Some("dc0"), None);
    std::fs::write(s.tmp.path().join("not-a-dir"), "").unwrap();
    o.config.stack.backup_dir = Some(s.tmp.path().join("not-a-dir/backups"));
    let r = ward_stack::teardown(&o, &env).unwrap();
    assert_eq!(r.exit, Exit::StackFailed, "{}", t(&r));
    assert_eq!(
        root(&r, "volumes/dc0").outcome,
        RootOutcome::Failed,
        "{}",
        t(&r)
    );
    assert!(
        r.stopped
            .as_deref()
            .unwrap()
            .contains("cannot write the state backup"),
        "{}",
        t(&r)
    );
    assert_eq!(s.resources("dc0", "volumes"), 2);

    // Teardown in reverse: "approval required" until each destroy is approved on its own.
    let state_before = std::fs::read(s.tmp.path().join("site-state/dc0/volumes.tfstate")).unwrap();
    let r = ward_stack::teardown(&s.opts(Some("dc0"), None), &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", t(&r));
    let vol = root(&r, "volumes/dc0");
    assert_eq!(vol.outcome, RootOutcome::ApprovalRequired);
    assert_eq!(
        vol.approvals.len(),
        2,
        "every destroy needs its own approval: {}",
        t(&r)
    );
    assert!(vol
        .approvals
        .iter()
        .all(|a| a.command.starts_with("ward stack approve")));
    assert_eq!(root(&r, "instances/dc0").outcome, RootOutcome::NotReached);
    // The backup is the pulled state, byte for byte, and its name carries serial, lineage, sha.
    let b = vol.backup.clone().unwrap();
    let bytes = std::fs::read(&b.path).unwrap();
    assert_eq!(ward_terraform::sha256(&bytes), b.sha256);
    // `state pull` now (the directory was last initialised for dc0) prints exactly the backup.
    let pulled = ward_exec::Command::new(&tf.path, std::time::Duration::from_secs(120))
        .args(["state", "pull"])
        .current_dir(s.repo().join("volumes"))
        .env("TF_CLI_CONFIG_FILE", &s.cli_config)
        .run()
        .unwrap()
        .into_success()
        .unwrap();
    assert_eq!(
        ward_terraform::sha256(&pulled.stdout),
        b.sha256,
        "backup = state pull"
    );
    let on_disk: serde_json::Value = serde_json::from_slice(&state_before).unwrap();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&bytes).unwrap(),
        on_disk
    );
    assert!(
        b.path
            .contains(&format!("/volumes/dc0/{}-{}-", b.serial, b.lineage)),
        "{}",
        b.path
    );
    assert!(b.path.ends_with(&format!(
        "{}.tfstate",
        b.sha256.trim_start_matches("sha256:")
    )));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&b.path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(!Path::new(&b.path).starts_with(s.repo()));

    // Nobody to record as the approver (no --by, no WARD_APPROVER, USER or LOGNAME, as in most
    // containers): refused, saying what to set (#33 item 15).
    let e = ward_stack::approve(
        &s.opts(None, None),
        &ApproveArgs {
            root: "volumes".into(),
            site: Some("dc0".into()),
            address: vol.approvals[0].address.clone(),
            all: false,
            reason: "r".into(),
            expires: None,
            by: None,
        },
        &|_: &str| None,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("--by NAME") && e.contains("WARD_APPROVER"),
        "{e}"
    );
    // --all is for a teardown's destroys, and not beside --address.
    let e = ward_stack::approve(
        &s.opts(None, None),
        &ApproveArgs {
            root: "volumes".into(),
            site: Some("dc0".into()),
            address: vol.approvals[0].address.clone(),
            all: true,
            reason: "r".into(),
            expires: None,
            by: Some("tester".into()),
        },
        &env,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("not both"), "{e}");

    // One approval is not enough.
    let one = &vol.approvals[0];
    ward_stack::approve(
        &s.opts(None, None),
        &ApproveArgs {
            root: "volumes".into(),
            site: Some("dc0".into()),
            address: one.address.clone(),
            all: false,
            reason: "r".into(),
            expires: None,
            by: Some("tester".into()),
        },
        &env,
    )
    .unwrap();
    let r = ward_stack::resume(&s.opts(None, None), &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", t(&r));
    assert_eq!(root(&r, "volumes/dc0").approvals.len(), 1, "{}", t(&r));
    assert_eq!(s.resources("dc0", "volumes"), 2);
    assert_eq!(approve_all(&s, &r), 1);

    // A failing pre_destroy interrupts the teardown after the volumes went.
    std::fs::write(s.tmp.path().join("site-hold-dc0"), "").unwrap();
    let r = ward_stack::resume(&s.opts(None, None), &env).unwrap();
    assert_eq!(r.exit, Exit::GuardRefused, "{}", t(&r));
    assert_eq!(
        root(&r, "volumes/dc0").outcome,
        RootOutcome::Destroyed,
        "{}",
        t(&r)
    );
    assert_eq!(
        root(&r, "instances/dc0").outcome,
        RootOutcome::PreDestroyRefused,
        "{}",
        t(&r)
    );
    assert!(t(&r).contains("site dc0 is on hold"), "{}", t(&r));
    assert_eq!(s.resources("dc0", "volumes"), 0);
    assert_eq!(s.resources("dc0", "instances"), 1);
    let st = ward_stack::status(&s.opts(None, None)).unwrap();
    assert_eq!(
        root(&st, "instances/dc0").outcome,
        RootOutcome::PreDestroyRefused
    );
    assert!(st.resume.is_some());

    // Resume finishes it, approval by approval.
    std::fs::remove_file(s.tmp.path().join("site-hold-dc0")).unwrap();
    let mut last = ward_stack::resume(&s.opts(None, None), &env).unwrap();
    for _ in 0..4 {
        if last.exit != Exit::ApprovalRequired {
            break;
        }
        assert!(approve_all(&s, &last) > 0, "{}", t(&last));
        last = ward_stack::resume(&s.opts(None, None), &env).unwrap();
    }
    assert_eq!(last.exit, Exit::Pass, "{}", t(&last));
    assert_eq!(
        root(&last, "volumes/dc0").outcome,
        RootOutcome::AlreadyEmpty,
        "{}",
        t(&last)
    );
    assert_eq!(
        root(&last, "network/dc0").outcome,
        RootOutcome::Destroyed,
        "{}",
        t(&last)
    );
    // dc1 was left alone and still plans clean.
    assert_eq!(s.resources("dc1", "volumes"), 2);

    // The other site, through to the end: one `ward stack approve --all` per instance, each
    // destroy still approved and recorded on its own (#33 items 8 and 15).
    let mut last = ward_stack::teardown(&s.opts(Some("dc1"), None), &env).unwrap();
    let mut waited = Vec::new();
    for _ in 0..4 {
        if last.exit != Exit::ApprovalRequired {
            break;
        }
        for x in last.roots.iter().filter(|x| !x.approvals.is_empty()) {
            for a in &x.approvals {
                waited.push((x.root.clone(), a.address.clone(), "tester".to_string()));
            }
        }
        assert_eq!(approve_all_at_once(&s, &last), 1, "{}", t(&last));
        last = ward_stack::resume(&s.opts(None, None), &env).unwrap();
    }
    assert_eq!(last.exit, Exit::Pass, "{}", t(&last));
    assert!(waited.len() > 3, "{waited:?}");
    let mut recorded = recorded_approvals(&s, "dc1");
    recorded.sort();
    waited.sort();
    assert_eq!(recorded, waited);
    // Each gate of the run is in the history: the stops for approval and the passes after.
    let store = ward_store::Store::open_location(&s.opts(None, None).db).unwrap();
    let gates = store
        .gate_outcomes(&ward_store::AuditQuery::default())
        .unwrap();
    let dc1 = |outcome: &str| {
        gates
            .iter()
            .filter(|g| g.outcome.site.as_deref() == Some("dc1") && g.outcome.outcome == outcome)
            .count()
    };
    assert!(
        dc1("approval-required") >= 3 && dc1("pass") >= 3,
        "{gates:?}"
    );

    // Afterwards every state is empty, and so is the cloud.
    for site in ["dc0", "dc1"] {
        for r in ["network", "instances", "volumes"] {
            assert_eq!(s.resources(site, r), 0, "{r}/{site}");
        }
    }
    assert!(
        s.cloud().is_empty().unwrap(),
        "{:?}",
        s.cloud().all().unwrap()
    );
    let st = ward_stack::status(&s.opts(None, None)).unwrap();
    assert!(st.stopped.is_none(), "{}", ward_report::stack::text(&st));
}

/// A stack of a plain root (`network`, L0) and a Terragrunt unit (`instances`, L1: a
/// `terragrunt.hcl` whose `terraform { source }` is a local module, no `.tf` files of its own),
/// one site, run through ward-rig's stand-in `terragrunt` (no Terragrunt binary is installed
/// here: see `ward_rig::terragrunt`), which runs the real Terraform on the unit's module.
struct UnitStack {
    tmp: tempfile::TempDir,
    tf: ward_rig::Terraform,
    cli_config: PathBuf,
}

impl UnitStack {
    fn new(rig: &Rig, tf: &ward_rig::Terraform) -> UnitStack {
        let tmp = tempfile::tempdir().unwrap();
        let t = tmp.path();
        let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/stack");
        let repo = t.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        for d in ["cloud", "state", "empty"] {
            std::fs::create_dir_all(t.join(d)).unwrap();
        }
        std::fs::create_dir_all(repo.join("network")).unwrap();
        for f in ["main.tf", "dc0.tfvars"] {
            std::fs::copy(
                example.join("network").join(f),
                repo.join("network").join(f),
            )
            .unwrap();
        }
        std::fs::create_dir_all(repo.join("modules/instances")).unwrap();
        std::fs::copy(
            example.join("instances/main.tf"),
            repo.join("modules/instances/main.tf"),
        )
        .unwrap();
        std::fs::create_dir_all(repo.join("instances")).unwrap();
        std::fs::write(
            repo.join("instances/terragrunt.hcl"),
            "terraform {\n  source = \"../modules/instances\"\n}\n",
        )
        .unwrap();
        std::fs::write(repo.join("instances/dc0.tfvars"), "site = \"dc0\"\n").unwrap();
        let state = |r: &str| t.join("state").join(format!("{r}.tfstate"));
        std::fs::write(
            repo.join("ward.hcl"),
            ward_rig::rules::ward_hcl(&format!(
                r#"stack {{
  backup_dir = {backups:?}
}}
layer "substrate" {{
  level = 0
}}
layer "nodes" {{
  level = 1
}}
root "network" {{
  path  = "network"
  layer = "substrate"
  site "dc0" {{
    var_files      = ["dc0.tfvars"]
    backend_config = {{ path = {network:?} }}
  }}
}}
root "instances" {{
  path  = "instances"
  layer = "nodes"
  reads = ["network"]
  site "dc0" {{
    var_files      = ["dc0.tfvars"]
    backend_config = {{ path = {instances:?} }}
  }}
}}
"#,
                backups = t.join("backups").display().to_string(),
                network = state("network").display().to_string(),
                instances = state("instances").display().to_string(),
            )),
        )
        .unwrap();
        ward_rig::terragrunt::write_fake(&t.join("bin")).unwrap();
        UnitStack {
            tmp,
            tf: tf.clone(),
            cli_config: rig.cli_config().to_path_buf(),
        }
    }
    fn repo(&self) -> PathBuf {
        self.tmp.path().join("repo")
    }
    fn log(&self) -> PathBuf {
        self.tmp.path().join("terragrunt.log")
    }
    /// Options whose commands run with `path` as their PATH.
    fn opts_with_path(&self, path: String) -> Options {
        let cfg = ward_config::Config::load(&self.repo().join("ward.hcl"), "ward.hcl").unwrap();
        let t = self.tmp.path();
        Options {
            knowledge: ward_config::knowledge(Some(&cfg)).unwrap(),
            approver: None,
            config: cfg,
            repo: self.repo(),
            site: None,
            root: None,
            binaries: vec![ward_terraform::binary::probe(
                &self.tf.path,
                Some(ward_terraform::Product::Terraform),
            )
            .unwrap()],
            db: ward_store::Location::Sqlite(t.join("history.sqlite")),
            clock: ward_time::Clock::System,
            progress: None,
            env: vec![
                (
                    "TF_CLI_CONFIG_FILE".into(),
                    self.cli_config.display().to_string(),
                ),
                (
                    "FAKECLOUD_DIR".into(),
                    t.join("cloud").display().to_string(),
                ),
                (
                    "WARD_FAKE_TERRAGRUNT_LOG".into(),
                    self.log().display().to_string(),
                ),
                ("PATH".into(), path),
            ],
            path: std::env::var_os("PATH"),
        }
    }
    /// The stand-in first on PATH.
    fn opts(&self) -> Options {
        self.opts_with_path(ward_rig::terragrunt::path_with(
            &self.tmp.path().join("bin"),
        ))
    }
    /// No terragrunt on PATH.
    fn opts_without(&self) -> Options {
        self.opts_with_path(self.tmp.path().join("empty").display().to_string())
    }
    fn resources(&self, root: &str) -> usize {
        let p = self
            .tmp
            .path()
            .join("state")
            .join(format!("{root}.tfstate"));
        let Ok(bytes) = std::fs::read(&p) else {
            return 0;
        };
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        v["resources"]
            .as_array()
            .map_or(0, |a| a.iter().filter(|r| r["mode"] == "managed").count())
    }
    fn cloud(&self) -> Cloud {
        Cloud::new(self.tmp.path().join("cloud"))
    }
    fn approve_all(&self, r: &StackReport) -> usize {
        approve_each(&|| self.opts(), r)
    }
}

#[test]
fn a_terragrunt_unit_applies_forward_and_tears_down_in_reverse() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        unit_scenario(&rig, tf);
    }
}

fn unit_scenario(rig: &Rig, tf: &ward_rig::Terraform) {
    let s = UnitStack::new(rig, tf);
    let t = |r: &StackReport| format!("Terraform {}:\n{}", tf.version, ward_report::stack::text(r));

    // Without terragrunt every command refuses the unit before running anything, even the
    // plain root below it: exit 10, what to install, how to leave it out.
    for r in [
        ward_stack::plan(&s.opts_without(), &env).unwrap(),
        ward_stack::apply(&s.opts_without(), &env).unwrap(),
        ward_stack::teardown(&s.opts_without(), &env).unwrap(),
    ] {
        assert_eq!(r.exit, Exit::StackRefused, "{}", t(&r));
        let unit = root(&r, "instances/dc0");
        assert_eq!(unit.outcome, RootOutcome::Refused, "{}", t(&r));
        let why = unit.detail.join(" ");
        assert!(
            why.contains("is a Terragrunt unit")
                && why.contains("install Terragrunt")
                && why.contains("remove `layer` from root \"instances\""),
            "{}",
            t(&r)
        );
        assert_eq!(root(&r, "network/dc0").outcome, RootOutcome::NotReached);
        assert!(r.resume.is_none(), "{}", t(&r));
    }
    assert!(s.cloud().is_empty().unwrap());
    assert!(!s.tmp.path().join("state/network.tfstate").exists());
    assert!(!s.log().exists());

    // With the stand-in on PATH: plan, then apply forward.
    let r = ward_stack::plan(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", t(&r));
    assert_eq!(root(&r, "network/dc0").outcome, RootOutcome::Changes);
    assert_eq!(
        root(&r, "instances/dc0").outcome,
        RootOutcome::BlockedByUpstream
    );
    let r = ward_stack::apply(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::Pass, "{}", t(&r));
    let order: Vec<String> = r.roots.iter().map(|x| x.id()).collect();
    assert_eq!(order, ["network/dc0", "instances/dc0"]);
    for x in &r.roots {
        assert_eq!(x.outcome, RootOutcome::Applied, "{}", t(&r));
    }
    assert!(root(&r, "instances/dc0").upstream_sha256.is_some());
    assert_eq!(s.resources("network"), 1);
    assert_eq!(s.resources("instances"), 1);
    assert_eq!(s.cloud().ids("instance").unwrap().len(), 1);
    // Every command of the unit, and only the unit's, went through terragrunt.
    let log = std::fs::read_to_string(s.log()).unwrap();
    let unit_dir = std::fs::canonicalize(s.repo().join("instances")).unwrap();
    for l in log.lines() {
        assert!(
            l.starts_with(&format!(
                "{} run --non-interactive --tf-path ",
                unit_dir.display()
            )),
            "{l}"
        );
    }
    for sub in [
        "-- init",
        "-- plan",
        "-- show -json",
        "-- apply",
        "-- output -json",
        "-- state pull",
    ] {
        assert!(log.contains(sub), "{sub} not in\n{log}");
    }

    // Teardown in reverse: the unit first, backed up, each destroy approved on its own.
    let r = ward_stack::teardown(&s.opts(), &env).unwrap();
    assert_eq!(r.exit, Exit::ApprovalRequired, "{}", t(&r));
    let unit = root(&r, "instances/dc0");
    assert_eq!(unit.outcome, RootOutcome::ApprovalRequired, "{}", t(&r));
    assert_eq!(unit.approvals.len(), 1, "{}", t(&r));
    assert_eq!(root(&r, "network/dc0").outcome, RootOutcome::NotReached);
    let b = unit.backup.clone().unwrap();
    let bytes = std::fs::read(&b.path).unwrap();
    assert_eq!(ward_terraform::sha256(&bytes), b.sha256);
    let on_disk: serde_json::Value = serde_json::from_slice(
        &std::fs::read(s.tmp.path().join("state/instances.tfstate")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&bytes).unwrap(),
        on_disk
    );
    assert!(b.path.contains("/instances/dc0/"), "{}", b.path);
    assert_eq!(
        s.resources("instances"),
        1,
        "nothing destroyed before approval"
    );

    let mut last = r;
    for _ in 0..4 {
        if last.exit != Exit::ApprovalRequired {
            break;
        }
        assert!(s.approve_all(&last) > 0, "{}", t(&last));
        last = ward_stack::resume(&s.opts(), &env).unwrap();
    }
    assert_eq!(last.exit, Exit::Pass, "{}", t(&last));
    assert_eq!(
        root(&last, "network/dc0").outcome,
        RootOutcome::Destroyed,
        "{}",
        t(&last)
    );
    assert!(root(&last, "network/dc0").backup.is_some());
    // Proof: both states empty, the cloud empty.
    assert_eq!(s.resources("instances"), 0);
    assert_eq!(s.resources("network"), 0);
    assert!(
        s.cloud().is_empty().unwrap(),
        "{:?}",
        s.cloud().all().unwrap()
    );
    let st = ward_stack::status(&s.opts()).unwrap();
    assert!(st.stopped.is_none(), "{}", ward_report::stack::text(&st));
}
