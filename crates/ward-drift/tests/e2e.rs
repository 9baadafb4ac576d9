//! End to end: `ward drift` against real Terraform and the fakecloud provider (through ward-rig).
//! Skipped (with a message) when the rig's tools are not installed, failed under CI.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use ward_drift::outcome::Outcome;
use ward_drift::{Options, Report};
use ward_rig::{Cloud, Rig};

mod common;

/// A repository of roots, each on its own local state file outside the repository, sharing one
/// fake cloud.
struct Repo {
    tmp: tempfile::TempDir,
    tf: PathBuf,
    tf_version: String,
    cli_config: PathBuf,
}

impl Repo {
    fn new(rig: &Rig) -> Repo {
        Repo::with(rig, rig.newest_terraform().expect("a Terraform binary"))
    }
    fn with(rig: &Rig, tf: &ward_rig::Terraform) -> Repo {
        let tmp = tempfile::tempdir().unwrap();
        for d in ["repo", "cloud", "state"] {
            std::fs::create_dir_all(tmp.path().join(d)).unwrap();
        }
        // What ward knows about fakecloud: its rule file, loaded by the repository's ward.hcl.
        std::fs::write(
            tmp.path().join("repo/ward.hcl"),
            ward_rig::rules::ward_hcl(""),
        )
        .unwrap();
        Repo {
            tmp,
            tf: tf.path.clone(),
            tf_version: tf.version.clone(),
            cli_config: rig.cli_config().to_path_buf(),
        }
    }
    fn repo(&self) -> PathBuf {
        self.tmp.path().join("repo")
    }
    fn cloud(&self) -> Cloud {
        Cloud::new(self.tmp.path().join("cloud"))
    }
    fn state(&self, name: &str) -> PathBuf {
        self.tmp
            .path()
            .join("state")
            .join(format!("{name}.tfstate"))
    }
    fn dir(&self, name: &str) -> PathBuf {
        self.repo().join("live").join(name)
    }
    /// Writes `live/<name>/main.tf`: the provider, a local backend outside the repository, and
    /// `body`.
    fn root(&self, name: &str, body: &str) {
        self.root_with(name, "", body);
    }
    fn root_with(&self, name: &str, terraform_extra: &str, body: &str) {
        let dir = self.dir(name);
        std::fs::create_dir_all(&dir).unwrap();
        let text = format!(
            "terraform {{\n  required_providers {{\n    fakecloud = {{ source = \"ward/fakecloud\" }}\n  }}\n  backend \"local\" {{\n    path = {:?}\n  }}\n{terraform_extra}}}\nprovider \"fakecloud\" {{\n  state_dir = {:?}\n}}\n{body}",
            self.state(name).display().to_string(),
            self.tmp.path().join("cloud").display().to_string(),
        );
        std::fs::write(dir.join("main.tf"), text).unwrap();
    }
    fn append(&self, name: &str, text: &str) {
        let p = self.dir(name).join("main.tf");
        let mut s = std::fs::read_to_string(&p).unwrap();
        s.push_str(text);
        std::fs::write(p, s).unwrap();
    }
    fn command(&self, name: &str, args: &[&str]) -> Command {
        let mut c = Command::new(&self.tf);
        c.args(args)
            .current_dir(self.dir(name))
            // The test below sets TF_CLI_ARGS_plan for the whole process; the helpers' own runs
            // must not see it.
            .env_remove("TF_CLI_ARGS_plan")
            .env("TF_CLI_CONFIG_FILE", &self.cli_config)
            .env("CHECKPOINT_DISABLE", "1")
            .env("TF_IN_AUTOMATION", "1");
        c
    }
    fn tf(&self, name: &str, args: &[&str]) -> i32 {
        let out = self
            .command(name, args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        out.status.code().unwrap_or(-1)
    }
    fn apply(&self, name: &str) {
        assert_eq!(
            self.tf(name, &["init", "-input=false", "-no-color"]),
            0,
            "init {name}"
        );
        assert_eq!(
            self.tf(
                name,
                &["apply", "-auto-approve", "-input=false", "-no-color"]
            ),
            0,
            "apply {name}"
        );
    }
    fn ward_hcl(&self, text: &str) {
        std::fs::write(
            self.repo().join("ward.hcl"),
            ward_rig::rules::ward_hcl(text),
        )
        .unwrap();
    }
    fn options(&self, db: &Path) -> common::Run {
        common::Run {
            opts: Options {
                repo: self.repo(),
                jobs: 2,
                timeout: Duration::from_secs(300),
                shard: None,
                pending: false,
                accept_state: vec![],
                progress: None,
                clock: ward_time::Clock::Fixed("2026-11-29T00:00:00Z".parse().unwrap()),
                env: vec![(
                    "TF_CLI_CONFIG_FILE".into(),
                    self.cli_config.display().to_string(),
                )],
                path: std::env::var_os("PATH"),
                allow_env: vec![],
                notify: None,
                notify_format: Default::default(),
            },
            config: None,
            terraform: Some(self.tf.clone()),
            db: db.to_path_buf(),
            torn_down: Default::default(),
        }
    }
}

fn outcomes(r: &Report) -> BTreeMap<String, Outcome> {
    r.roots
        .iter()
        .map(|x| (x.name.clone(), x.outcome))
        .collect()
}

fn root<'a>(r: &'a Report, name: &str) -> &'a ward_drift::RootResult {
    r.roots
        .iter()
        .find(|x| x.name == name)
        .unwrap_or_else(|| panic!("no root {name}"))
}

const INSTANCE: &str = "resource \"fakecloud_instance\" \"web\" {\n  name  = \"NAME-web\"\n  size  = \"small\"\n  image = \"debian-12\"\n  tags  = { env = \"test\" }\n}\n";
const VOLUME: &str =
    "resource \"fakecloud_volume\" \"data\" {\n  name    = \"NAME-data\"\n  size_gb = 10\n}\n";

fn instance(name: &str) -> String {
    INSTANCE.replace("NAME", name)
}

/// Holds the state lock of a root the way a colleague does: `terraform apply` waiting at its
/// approval prompt.
fn hold_lock(repo: &Repo, name: &str) -> Child {
    let mut child = repo
        .command(name, &["apply", "-no-color"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let t0 = Instant::now();
    let mut seen = String::new();
    let mut buf = [0u8; 256];
    while !seen.contains("Enter a value") {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "apply never prompted: {seen}"
        );
        let n = out.get_mut().read(&mut buf).unwrap();
        assert!(n > 0, "apply ended before prompting: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    // Keep the pipe open: the prompt waits, the lock is held.
    std::mem::forget(out);
    child
}

#[test]
fn every_outcome_against_real_terraform() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    for name in ["clean", "drift", "outputs", "missing", "replaced", "locked"] {
        repo.root(name, &instance(name));
    }
    repo.root("deleted", &VOLUME.replace("NAME", "deleted"));
    repo.root_with(
        "reqver",
        "  required_version = \">= 99.0\"\n",
        &instance("reqver"),
    );
    repo.root("ondisk", &instance("ondisk"));
    repo.root("sandbox", &instance("sandbox"));
    repo.ward_hcl(
        r#"
root "clean"    { path = "live/clean" }
root "drift"    { path = "live/drift" }
root "deleted"  { path = "live/deleted" }
root "outputs"  { path = "live/outputs" }
root "missing"  { path = "live/missing" }
root "replaced" { path = "live/replaced" }
root "locked"   { path = "live/locked" }
root "reqver"   { path = "live/reqver" }
root "ghost"    { path = "live/ghost" }
drift {
  exclude "live/sandbox" { reason = "scratch space, recreated daily" }
}
"#,
    );
    for name in [
        "clean", "drift", "deleted", "outputs", "missing", "replaced", "locked",
    ] {
        repo.apply(name);
    }
    let db = repo.tmp.path().join("history.sqlite");

    // Run 1: the baseline (records every root's lineage and serial).
    let r1 = common::run(&repo.options(&db)).unwrap();
    let o = outcomes(&r1);
    for name in [
        "clean", "drift", "deleted", "outputs", "missing", "replaced", "locked",
    ] {
        assert_eq!(
            o[name],
            Outcome::Clean,
            "{name}: {:?}",
            root(&r1, name).detail
        );
    }
    assert_eq!(
        o["live/ondisk"],
        Outcome::Mismatch,
        "a root only on disk fails"
    );
    assert_eq!(
        o["ghost"],
        Outcome::Mismatch,
        "a root only in ward.hcl fails"
    );
    assert_eq!(o["live/sandbox"], Outcome::Excluded);
    assert_eq!(
        root(&r1, "live/sandbox").detail,
        vec!["scratch space, recreated daily".to_string()]
    );
    let rv = root(&r1, "reqver");
    assert_eq!(rv.outcome, Outcome::Error);
    let why = rv.detail.join(" ");
    assert!(
        why.contains(">= 99.0") && why.contains(&format!("terraform {}", repo.tf_version)),
        "{why}"
    );
    assert_eq!(r1.exit, ward_drift::Exit::RootFailed);
    assert_eq!(
        (r1.discovered, r1.checked, r1.excluded),
        (10, 9, 1),
        "{}",
        r1.invariant()
    );

    // Behind Terraform's back.
    let cloud = repo.cloud();
    let id = cloud.id_by_name("instance", "drift-web").unwrap();
    cloud.set("instance", &id, "size", "large".into()).unwrap();
    let vol = cloud.id_by_name("volume", "deleted-data").unwrap();
    cloud.delete("volume", &vol).unwrap();
    repo.append(
        "outputs",
        "output \"ip\" {\n  value = fakecloud_instance.web.ip\n}\n",
    );
    std::fs::remove_file(repo.state("missing")).unwrap();
    // Terraform's own exit code says nothing is wrong with the missing state.
    assert_eq!(
        repo.tf(
            "missing",
            &[
                "plan",
                "-refresh-only",
                "-detailed-exitcode",
                "-input=false",
                "-no-color"
            ]
        ),
        0
    );
    std::fs::copy(repo.state("clean"), repo.state("replaced")).unwrap();
    repo.append("locked", "output \"pending\" {\n  value = \"x\"\n}\n");
    let mut lock = hold_lock(&repo, "locked");

    // Run 2.
    let r2 = common::run(&repo.options(&db)).unwrap();
    let _ = lock.kill();
    let _ = lock.wait();
    let o = outcomes(&r2);
    assert_eq!(o["clean"], Outcome::Clean);
    let d = root(&r2, "drift");
    assert_eq!(d.outcome, Outcome::Drifted);
    assert_eq!(d.drift[0].address, "fakecloud_instance.web");
    assert_eq!(d.drift[0].attributes, vec!["size".to_string()]);
    assert_eq!(d.drift[0].impact, "interrupt");
    let del = root(&r2, "deleted");
    assert_eq!(del.outcome, Outcome::Drifted);
    assert_eq!(del.drift[0].attributes, vec!["(deleted)".to_string()]);
    assert_eq!(
        del.drift[0].impact, "data-loss",
        "a deleted volume holds data"
    );
    assert!(del.drift[0].holds_data);
    assert_eq!(o["outputs"], Outcome::OutputOnly);
    assert!(
        root(&r2, "outputs").transitions.is_empty(),
        "output-only is not alerted"
    );
    let m = root(&r2, "missing");
    assert_eq!(m.outcome, Outcome::MissingState, "{:?}", m.detail);
    assert!(m.detail[0].contains("0 bytes"), "{:?}", m.detail);
    let rep = root(&r2, "replaced");
    assert_eq!(rep.outcome, Outcome::StateReplaced, "{:?}", rep.detail);
    assert!(rep.detail[0].contains("lineage"), "{:?}", rep.detail);
    let l = root(&r2, "locked");
    assert_eq!(l.outcome, Outcome::Locked, "{:?}", l.detail);
    assert!(l.detail[0].contains("busy"), "{:?}", l.detail);
    let kinds: Vec<(String, String)> = r2
        .transitions
        .iter()
        .map(|t| (t.root.clone(), t.kind.as_str().to_string()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("deleted".into(), "new".into()),
            ("drift".into(), "new".into())
        ]
    );
    assert_eq!(r2.exit, ward_drift::Exit::RootFailed);
    assert_eq!(r2.discovered, r2.checked + r2.excluded);

    // Every report format carries the invariant.
    for f in [
        ward_report::Format::Terminal,
        ward_report::Format::Json,
        ward_report::Format::Markdown,
        ward_report::Format::Junit,
    ] {
        let text = ward_report::drift::render(&r2, f, false).unwrap();
        assert!(
            text.contains("discovered 10 = checked 9 + excluded 1"),
            "{f:?}: {text}"
        );
    }
    // Deterministic: no timestamps unless asked for.
    let json = ward_report::drift::render(&r2, ward_report::Format::Json, false).unwrap();
    assert!(
        !json.contains("started_at") && !json.contains("millis"),
        "{json}"
    );
}

/// A webhook receiver on 127.0.0.1: records request bodies; stops after `deadline`.
fn receiver() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/hook", listener.local_addr().unwrap());
    let bodies = Arc::new(Mutex::new(Vec::new()));
    let b = bodies.clone();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(600) {
            match listener.accept() {
                Ok((stream, _)) => {
                    stream.set_nonblocking(false).unwrap();
                    stream
                        .set_read_timeout(Some(Duration::from_secs(10)))
                        .unwrap();
                    let mut r = BufReader::new(stream);
                    let mut len = 0usize;
                    loop {
                        let mut line = String::new();
                        if r.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                            break;
                        }
                        let lower = line.to_ascii_lowercase();
                        if let Some(v) = lower.strip_prefix("content-length:") {
                            len = v.trim().parse().unwrap_or(0);
                        }
                    }
                    let mut body = vec![0u8; len];
                    let _ = r.read_exact(&mut body);
                    b.lock()
                        .unwrap()
                        .push(String::from_utf8_lossy(&body).into_owned());
                    let mut s = r.into_inner();
                    let _ = s.write_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                }
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    });
    (url, bodies)
}

#[test]
fn history_across_three_runs_and_webhook_on_transitions_only() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    repo.root("net", &instance("net"));
    repo.ward_hcl("root \"net\" { path = \"live/net\" }\n");
    repo.apply("net");
    let db = repo.tmp.path().join("history.sqlite");
    let (url, bodies) = receiver();
    let cloud = repo.cloud();
    let id = cloud.id_by_name("instance", "net-web").unwrap();

    let run = |now: &str| {
        let mut o = repo.options(&db);
        o.clock = ward_time::Clock::Fixed(now.parse().unwrap());
        let r = common::run(&o).unwrap();
        let sent = ward_drift::notify::send(&url, &r).unwrap();
        (r, sent)
    };
    // 1: drift appears.
    cloud.set("instance", &id, "size", "large".into()).unwrap();
    let (r1, sent1) = run("2026-11-29T01:00:00Z");
    assert_eq!(root(&r1, "net").outcome, Outcome::Drifted);
    assert_eq!(r1.exit, ward_drift::Exit::DriftAlert);
    assert!(sent1);
    // 2: it persists: no alert, exit 0.
    let (r2, sent2) = run("2026-11-29T02:00:00Z");
    assert_eq!(root(&r2, "net").outcome, Outcome::Drifted);
    assert!(r2.transitions.is_empty());
    assert_eq!(r2.exit, ward_drift::Exit::Pass);
    assert!(!sent2);
    // 3: someone puts it back: resolved, alerted, exit 0.
    cloud.set("instance", &id, "size", "small".into()).unwrap();
    let (r3, sent3) = run("2026-11-29T03:00:00Z");
    assert_eq!(root(&r3, "net").outcome, Outcome::Clean);
    assert_eq!(r3.transitions[0].kind.as_str(), "resolved");
    assert_eq!(r3.exit, ward_drift::Exit::Pass);
    assert!(sent3);

    // The receiver got exactly two posts: new, then resolved.
    let t0 = Instant::now();
    while bodies.lock().unwrap().len() < 2 && t0.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let got = bodies.lock().unwrap().clone();
    assert_eq!(got.len(), 2, "{got:?}");
    let first: serde_json::Value = serde_json::from_str(&got[0]).unwrap();
    assert_eq!(first["transitions"][0]["kind"], "new");
    assert_eq!(first["transitions"][0]["attribute"], "size");
    let third: serde_json::Value = serde_json::from_str(&got[1]).unwrap();
    assert_eq!(third["transitions"][0]["kind"], "resolved");

    // History: first seen in run 1, last seen in run 2, resolved in run 3.
    let store = ward_drift::ward_store::Store::open(&db).unwrap();
    let f = store.findings(Some("net")).unwrap();
    assert_eq!(f.len(), 1);
    assert_eq!(
        f[0].first_seen,
        (r1.run_id, "2026-11-29T01:00:00Z".to_string())
    );
    assert_eq!(
        f[0].last_seen,
        (r2.run_id, "2026-11-29T02:00:00Z".to_string())
    );
    assert_eq!(
        f[0].resolved,
        Some((r3.run_id, "2026-11-29T03:00:00Z".to_string()))
    );
    let text = ward_report::drift::history_text(
        &ward_drift::history::read(&store, Some("net"), 10).unwrap(),
    );
    assert!(text.contains("resolved #"), "{text}");
    assert_eq!(store.root_runs("net", 10).unwrap().len(), 3);
}

#[test]
fn ignore_rules_suppress_until_they_expire_and_are_counted() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    repo.root("app", &instance("app"));
    repo.ward_hcl(
        r#"root "app" { path = "live/app" }
drift {
  ignore {
    address   = "fakecloud_instance.*"
    attribute = "tags.*"
    owner     = "team-app"
    expires   = "2026-12-31"
  }
}
"#,
    );
    repo.apply("app");
    let cloud = repo.cloud();
    let id = cloud.id_by_name("instance", "app-web").unwrap();
    cloud
        .set("instance", &id, "tags", serde_json::json!({"env": "prod"}))
        .unwrap();
    let db = repo.tmp.path().join("h.sqlite");
    let r = common::run(&repo.options(&db)).unwrap();
    let a = root(&r, "app");
    assert_eq!(a.outcome, Outcome::Clean, "{:?}", a.drift);
    assert_eq!((a.suppressed, r.suppressed), (1, 1));
    assert!(
        ward_report::drift::render(&r, ward_report::Format::Terminal, false)
            .unwrap()
            .contains("suppressed by ignore rules: 1")
    );
    // After the expiry the rule suppresses nothing and says so.
    let mut o = repo.options(&db);
    o.clock = ward_time::Clock::Fixed("2027-01-01T00:00:00Z".parse().unwrap());
    let r = common::run(&o).unwrap();
    assert_eq!(root(&r, "app").outcome, Outcome::Drifted);
    assert_eq!(r.suppressed, 0);
    assert_eq!(r.expired_ignores.len(), 1);
    assert_eq!(r.exit, ward_drift::Exit::DriftAlert);
}

#[test]
fn timeout_kills_the_root_and_shards_partition() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    for i in 0..6 {
        repo.root(&format!("r{i}"), &instance(&format!("r{i}")));
    }
    let decl: String = (0..6)
        .map(|i| format!("root \"r{i}\" {{ path = \"live/r{i}\" }}\n"))
        .collect();
    repo.ward_hcl(&decl);
    let db = repo.tmp.path().join("h.sqlite");
    // Shards: every root in exactly one of 3 shards (roots have no state: missing-state).
    let mut seen = Vec::new();
    for k in 1..=3 {
        let mut o = repo.options(&db);
        o.shard = Some((k, 3));
        o.timeout = Duration::from_millis(1);
        let r = common::run(&o).unwrap();
        assert_eq!(r.discovered, r.checked + r.excluded);
        for x in &r.roots {
            assert_eq!(x.outcome, Outcome::Error);
            assert!(x.detail[0].contains("timed out"), "{:?}", x.detail);
            seen.push(x.name.clone());
        }
    }
    seen.sort();
    assert_eq!(seen, (0..6).map(|i| format!("r{i}")).collect::<Vec<_>>());
}

#[test]
fn clean_drift_and_missing_state_on_every_installed_terraform() {
    let Some(rig) = Rig::for_tests() else { return };
    for tf in rig.terraform_versions() {
        let repo = Repo::with(&rig, tf);
        for name in ["clean", "drift", "missing"] {
            repo.root(name, &instance(name));
        }
        repo.ward_hcl(
            "root \"clean\" { path = \"live/clean\" }\nroot \"drift\" { path = \"live/drift\" }\nroot \"missing\" { path = \"live/missing\" }\n",
        );
        for name in ["clean", "drift", "missing"] {
            repo.apply(name);
        }
        let db = repo.tmp.path().join("h.sqlite");
        let r = common::run(&repo.options(&db)).unwrap();
        assert_eq!(
            r.exit,
            ward_drift::Exit::Pass,
            "{}: {:?}",
            tf.version,
            r.roots
        );
        let cloud = repo.cloud();
        let id = cloud.id_by_name("instance", "drift-web").unwrap();
        cloud.set("instance", &id, "size", "xlarge".into()).unwrap();
        std::fs::remove_file(repo.state("missing")).unwrap();
        let r = common::run(&repo.options(&db)).unwrap();
        let o = outcomes(&r);
        assert_eq!(o["clean"], Outcome::Clean, "{}", tf.version);
        assert_eq!(
            o["drift"],
            Outcome::Drifted,
            "{}: {:?}",
            tf.version,
            root(&r, "drift")
        );
        assert_eq!(
            root(&r, "drift").drift[0].attributes,
            vec!["size".to_string()]
        );
        assert_eq!(o["missing"], Outcome::MissingState, "{}", tf.version);
        let bin = root(&r, "clean").binary.clone().unwrap();
        assert_eq!(bin, format!("terraform {}", tf.version));
        assert_eq!(r.exit, ward_drift::Exit::RootFailed);
    }
}

#[test]
fn pending_code_changes_only_with_pending() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    repo.root("app", &instance("app"));
    repo.ward_hcl("root \"app\" { path = \"live/app\" }\n");
    repo.apply("app");
    // A code change not applied yet: not drift.
    let p = repo.dir("app").join("main.tf");
    let text = std::fs::read_to_string(&p)
        .unwrap()
        .replace("env = \"test\"", "env = \"staging\"");
    std::fs::write(&p, text).unwrap();
    let db = repo.tmp.path().join("h.sqlite");
    let r = common::run(&repo.options(&db)).unwrap();
    assert_eq!(
        root(&r, "app").outcome,
        Outcome::Clean,
        "refresh-only sees no drift"
    );
    let mut o = repo.options(&db);
    o.pending = true;
    let r = common::run(&o).unwrap();
    let a = root(&r, "app");
    assert_eq!(a.outcome, Outcome::PendingChange, "{:?}", a.detail);
    assert_eq!(
        a.pending,
        vec!["fakecloud_instance.web (update)".to_string()]
    );
    assert_eq!(r.exit, ward_drift::Exit::Pass);
}

#[test]
fn tf_cli_args_in_the_environment_do_not_reach_drifts_plans() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    repo.root("app", &instance("app"));
    repo.ward_hcl("root \"app\" { path = \"live/app\" }\n");
    repo.apply("app");
    let cloud = repo.cloud();
    let id = cloud.id_by_name("instance", "app-web").unwrap();
    cloud.set("instance", &id, "size", "xlarge".into()).unwrap();
    // A user's shell (or CI) with TF_CLI_ARGS_plan set: inherited, it would narrow every plan to
    // an object that does not exist, and the drift would be reported clean. (Every other run in
    // this test binary removes the variable, or goes through ward, which must.)
    std::env::set_var("TF_CLI_ARGS_plan", "-target=fakecloud_instance.nonexistent");
    let db = repo.tmp.path().join("h.sqlite");
    let r = common::run(&repo.options(&db)).unwrap();
    let a = root(&r, "app");
    assert_eq!(a.outcome, Outcome::Drifted, "{:?}", a);
    assert_eq!(a.drift[0].attributes, vec!["size".to_string()]);
}

/// A Terragrunt unit (a `terragrunt.hcl` whose source is a local module, no `.tf` files of its
/// own) beside a plain root, run through ward-rig's stand-in `terragrunt` (no Terragrunt binary
/// is installed here: see `ward_rig::terragrunt`): clean, then drifted, and without terragrunt
/// on PATH an error saying what to install or how to exclude it.
#[test]
fn a_terragrunt_unit_through_terragrunt_on_path() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    let t = repo.tmp.path();
    repo.root("plain", &instance("plain"));
    // The unit's module, outside the repository (as a module repository would be).
    repo.root("unitmod", &instance("unit"));
    let module = t.join("modules/unit");
    std::fs::create_dir_all(t.join("modules")).unwrap();
    std::fs::rename(repo.dir("unitmod"), &module).unwrap();
    let unit = repo.dir("unit");
    std::fs::create_dir_all(&unit).unwrap();
    std::fs::write(
        unit.join("terragrunt.hcl"),
        format!(
            "terraform {{\n  source = {:?}\n}}\n",
            module.display().to_string()
        ),
    )
    .unwrap();
    repo.ward_hcl(
        "root \"plain\" { path = \"live/plain\" }\nroot \"unit\" { path = \"live/unit\" }\n",
    );
    repo.apply("plain");
    let bin = t.join("bin");
    let tg = ward_rig::terragrunt::write_fake(&bin).unwrap();
    let log = t.join("terragrunt.log");
    let path = ward_rig::terragrunt::path_with(&bin);
    for args in [
        &["init", "-input=false", "-no-color"][..],
        &["apply", "-auto-approve", "-input=false", "-no-color"][..],
    ] {
        let tf = repo.tf.display().to_string();
        let out = Command::new(&tg)
            .args(ward_repo::terragrunt::run_args(&tf, args))
            .current_dir(&unit)
            .env_remove("TF_CLI_ARGS_plan")
            .env("PATH", &path)
            .env("TF_CLI_CONFIG_FILE", &repo.cli_config)
            .env("CHECKPOINT_DISABLE", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let with = |db: &Path, path: &str| {
        let mut o = repo.options(db);
        o.env.push(("PATH".into(), path.to_string()));
        o.env
            .push(("WARD_FAKE_TERRAGRUNT_LOG".into(), log.display().to_string()));
        o
    };
    let db = t.join("h.sqlite");
    let r = common::run(&with(&db, &path)).unwrap();
    assert_eq!(r.exit, ward_drift::Exit::Pass, "{:?}", r.roots);
    assert_eq!(
        root(&r, "unit").outcome,
        Outcome::Clean,
        "{:?}",
        root(&r, "unit")
    );
    assert_eq!(root(&r, "plain").outcome, Outcome::Clean);
    // Only the unit's commands went through terragrunt, each as `run ... --tf-path TF -- ...`.
    let text = std::fs::read_to_string(&log).unwrap();
    let unit_real = std::fs::canonicalize(&unit).unwrap();
    for l in text.lines() {
        assert!(
            l.starts_with(&format!(
                "{} run --non-interactive --tf-path ",
                unit_real.display()
            )),
            "{l}"
        );
    }
    for sub in ["-- state pull", "-- plan -refresh-only", "-- show -json"] {
        assert!(text.contains(sub), "{sub} not in\n{text}");
    }

    let cloud = repo.cloud();
    let id = cloud.id_by_name("instance", "unit-web").unwrap();
    cloud.set("instance", &id, "size", "xlarge".into()).unwrap();
    let r = common::run(&with(&db, &path)).unwrap();
    let u = root(&r, "unit");
    assert_eq!(u.outcome, Outcome::Drifted, "{u:?}");
    assert_eq!(u.drift[0].attributes, vec!["size".to_string()]);
    assert_eq!(root(&r, "plain").outcome, Outcome::Clean);

    // No terragrunt on PATH (ward's own PATH, which Terraform's shim needs, has none): the unit
    // is an error that says what to do; the plain root runs.
    assert!(
        ward_terraform::binary::which_in(
            "terragrunt",
            &std::env::var_os("PATH").unwrap_or_default()
        )
        .is_none(),
        "this test expects no real terragrunt on PATH"
    );
    let r = common::run(&with(&db, &std::env::var("PATH").unwrap_or_default())).unwrap();
    let u = root(&r, "unit");
    assert_eq!(u.outcome, Outcome::Error, "{u:?}");
    let why = u.detail.join(" ");
    assert!(
        why.contains("is a Terragrunt unit")
            && why.contains("install Terragrunt")
            && why.contains("drift { exclude }"),
        "{why}"
    );
    assert_eq!(root(&r, "plain").outcome, Outcome::Clean);
    assert_eq!(r.exit, ward_drift::Exit::RootFailed);
}

/// A replaced state (another root's state file copied over this one's: a new lineage) stays
/// `state-replaced` on every run until `--accept-state` names the root: its new lineage is never
/// recorded as trusted by the run that found it, and accepting one root accepts no other.
#[test]
fn a_replaced_state_stays_replaced_until_accepted_by_name() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    for name in ["a", "b", "c"] {
        repo.root(name, &instance(name));
    }
    repo.ward_hcl(
        "root \"a\" { path = \"live/a\" }\nroot \"b\" { path = \"live/b\" }\nroot \"c\" { path = \"live/c\" }\n",
    );
    for name in ["a", "b", "c"] {
        repo.apply(name);
    }
    let db = repo.tmp.path().join("h.sqlite");
    let run = |accept: &[&str]| {
        let mut o = repo.options(&db);
        o.accept_state = accept.iter().map(|s| s.to_string()).collect();
        common::run(&o).unwrap()
    };
    let r = run(&[]);
    assert_eq!(r.exit, ward_drift::Exit::Pass, "{:?}", r.roots);
    for name in ["a", "b"] {
        std::fs::copy(repo.state("c"), repo.state(name)).unwrap();
    }
    // The run that finds the new lineage, and the one after it.
    for n in [2, 3] {
        let r = run(&[]);
        let o = outcomes(&r);
        for name in ["a", "b"] {
            assert_eq!(
                o[name],
                Outcome::StateReplaced,
                "run {n}, {name}: {:?}",
                root(&r, name).detail
            );
        }
        assert_eq!(o["c"], Outcome::Clean, "run {n}");
        assert_eq!(r.exit, ward_drift::Exit::RootFailed, "run {n}");
    }
    // Accepting `a` trusts a's new lineage, not b's.
    let r = run(&["a"]);
    let o = outcomes(&r);
    assert_eq!(o["a"], Outcome::Clean, "{:?}", root(&r, "a").detail);
    assert_eq!(o["b"], Outcome::StateReplaced, "{:?}", root(&r, "b").detail);
    // From then on `a` is clean without the flag.
    let r = run(&[]);
    let o = outcomes(&r);
    assert_eq!(o["a"], Outcome::Clean, "{:?}", root(&r, "a").detail);
    assert_eq!(o["b"], Outcome::StateReplaced);
}

/// A root whose `init`, `state pull` or plan fails is an `error` whose detail names the
/// command that failed; a plan that fails for a reason other than a held lock is not `locked`.
#[test]
fn a_failed_init_state_pull_or_plan_is_an_error_naming_the_command() {
    let Some(rig) = Rig::for_tests() else { return };
    let repo = Repo::new(&rig);
    for name in ["ok", "noinit", "badplan"] {
        repo.root(name, &instance(name));
    }
    repo.ward_hcl(
        "root \"ok\" { path = \"live/ok\" }\nroot \"noinit\" { path = \"live/noinit\" }\nroot \"badplan\" { path = \"live/badplan\" }\n",
    );
    for name in ["ok", "badplan"] {
        repo.apply(name);
    }
    // init fails: a module whose directory does not exist.
    repo.append("noinit", "module \"gone\" {\n  source = \"./gone\"\n}\n");
    // init and state pull succeed, the plan fails: a variable nothing gives a value.
    repo.append("badplan", "variable \"needed\" {\n  type = string\n}\n");
    let db = repo.tmp.path().join("h.sqlite");
    let r = common::run(&repo.options(&db)).unwrap();
    let o = outcomes(&r);
    assert_eq!(o["ok"], Outcome::Clean, "{:?}", root(&r, "ok").detail);
    let why = root(&r, "noinit").detail.join(" ");
    assert_eq!(o["noinit"], Outcome::Error, "{why}");
    assert!(why.starts_with("terraform init failed: "), "{why}");
    let why = root(&r, "badplan").detail.join(" ");
    assert_eq!(o["badplan"], Outcome::Error, "{why}");
    assert!(
        why.starts_with("terraform plan -refresh-only failed: ") && why.contains("needed"),
        "{why}"
    );
    assert_eq!(r.exit, ward_drift::Exit::RootFailed);

    // `state pull` fails after `init` succeeded (here: Terraform is handed a flag `state pull`
    // does not take): an error, not a missing state read from its empty output.
    let mut opts = repo.options(&db);
    opts.env
        .push(("TF_CLI_ARGS_state_pull".into(), "-no-such-flag".into()));
    let r = common::run(&opts).unwrap();
    let why = root(&r, "ok").detail.join(" ");
    assert_eq!(root(&r, "ok").outcome, Outcome::Error, "{why}");
    assert!(why.starts_with("terraform state pull failed: "), "{why}");
    assert!(why.contains("no-such-flag"), "{why}");
    assert_eq!(r.exit, ward_drift::Exit::RootFailed);
}
