//! Measures ward drift's overhead: N fakecloud roots checked by `ward_drift::run` with `-j J`
//! against the same Terraform commands (init, state pull, plan -refresh-only -out, show -json)
//! run by a plain shell loop (`xargs -P J`), alternating, in one run.
//!
//! ```sh
//! WARD_FAKECLOUD=... cargo run -p ward-drift --example drift_overhead -- [ROOTS] [JOBS] [ROUNDS]
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
    let jobs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let rounds: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2);
    let rig = ward_rig::Rig::new().expect("the rig: run scripts/install-tools and build fakecloud");
    let tf = rig.newest_terraform().expect("a Terraform").clone();
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path();
    let (repo, cloud, state) = (base.join("repo"), base.join("cloud"), base.join("state"));
    for d in [&repo, &cloud, &state] {
        std::fs::create_dir_all(d).unwrap();
    }
    let cfg = rig.cli_config().display().to_string();
    let mut decl = String::new();
    let mut dirs = Vec::new();
    for i in 0..n {
        let name = format!("r{i:03}");
        let dir = repo.join("live").join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("main.tf"),
            format!(
                "terraform {{\n  required_providers {{\n    fakecloud = {{ source = \"ward/fakecloud\" }}\n  }}\n  backend \"local\" {{\n    path = {:?}\n  }}\n}}\nprovider \"fakecloud\" {{\n  state_dir = {:?}\n}}\nresource \"fakecloud_instance\" \"web\" {{\n  name  = \"{name}\"\n  size  = \"small\"\n  image = \"debian-12\"\n}}\n",
                state.join(format!("{name}.tfstate")).display().to_string(),
                cloud.display().to_string()
            ),
        )
        .unwrap();
        decl.push_str(&format!("root \"{name}\" {{ path = \"live/{name}\" }}\n"));
        dirs.push(dir);
    }
    std::fs::write(repo.join("ward.hcl"), decl).unwrap();
    eprintln!(
        "applying {n} roots with {} {}...",
        tf.path.display(),
        tf.version
    );
    let script = format!(
        "cd \"$1\" && {tf} init -input=false -no-color >/dev/null && {tf} apply -auto-approve -input=false -no-color >/dev/null",
        tf = tf.path.display()
    );
    xargs(&dirs, jobs, &script, &cfg);

    let shell = format!(
        "cd \"$1\" && {tf} init -input=false -no-color >/dev/null && {tf} state pull >/dev/null && {tf} plan -refresh-only -input=false -no-color -lock-timeout=0s -out=plan.tfplan >/dev/null && {tf} show -json -no-color plan.tfplan >/dev/null",
        tf = tf.path.display()
    );
    let (mut ward_t, mut shell_t, mut ward_cpu) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        // Alternate which goes first, so a trend in the machine's load hits both alike.
        let shell_first = round % 2 == 0;
        if shell_first {
            let t0 = Instant::now();
            xargs(&dirs, jobs, &shell, &cfg);
            shell_t.push(t0.elapsed());
        }
        let opts = ward_drift::Options {
            repo: repo.clone(),
            jobs,
            timeout: Duration::from_secs(600),
            shard: None,
            pending: false,
            accept_state: vec![],
            progress: None,
            // One second per round: every round is its own history row.
            clock: ward_time::Clock::Fixed(
                ward_time::add(
                    "2026-11-29T00:00:00Z".parse().unwrap(),
                    Duration::from_secs(round as u64),
                )
                .unwrap(),
            ),
            env: vec![("TF_CLI_CONFIG_FILE".into(), cfg.clone())],
            path: std::env::var_os("PATH"),
            allow_env: vec![],
            notify: None,
            notify_format: Default::default(),
        };
        let t0 = Instant::now();
        let c0 = own_cpu();
        // What ward-cli reads before the run, read here the same way (inside the timing).
        let config = ward_config::Config::load(&repo.join("ward.hcl"), "ward.hcl").unwrap();
        let knowledge = ward_config::knowledge(Some(&config)).unwrap();
        let binaries = ward_drift::binary::find_binaries(
            &[(tf.path.clone(), ward_drift::binary::Product::Terraform)],
            opts.path.as_deref(),
        )
        .unwrap();
        let mut store = ward_store::Store::open_location(&ward_store::Location::Sqlite(
            base.join("history.sqlite"),
        ))
        .unwrap();
        let inputs = ward_drift::Inputs {
            config: Some(&config),
            knowledge: &knowledge,
            binaries: &binaries,
            torn_down: &Default::default(),
        };
        let report = ward_drift::run(&opts, &inputs, &mut store).unwrap();
        ward_t.push(t0.elapsed());
        ward_cpu.push(own_cpu() - c0);
        if !shell_first {
            let t0 = Instant::now();
            xargs(&dirs, jobs, &shell, &cfg);
            shell_t.push(t0.elapsed());
        }
        let clean = report.counts.get("clean").copied().unwrap_or(0);
        assert_eq!(clean, n, "every root must be clean: {:?}", report.counts);
        eprintln!(
            "round {}: shell loop {:.2}s, ward drift {:.2}s ({:+.1}%; ward's own CPU {:.2}s)",
            round + 1,
            shell_t[round].as_secs_f64(),
            ward_t[round].as_secs_f64(),
            (ward_t[round].as_secs_f64() / shell_t[round].as_secs_f64() - 1.0) * 100.0,
            ward_cpu[round]
        );
    }
    let sum = |v: &[Duration]| v.iter().map(Duration::as_secs_f64).sum::<f64>();
    let (w, s) = (sum(&ward_t), sum(&shell_t));
    let mut ratios: Vec<f64> = ward_t
        .iter()
        .zip(&shell_t)
        .map(|(w, s)| (w.as_secs_f64() / s.as_secs_f64() - 1.0) * 100.0)
        .collect();
    ratios.sort_by(f64::total_cmp);
    let cpu: f64 = ward_cpu.iter().sum();
    println!(
        "{n} roots, -j {jobs}, {rounds} rounds, terraform {}: shell loop {:.2}s, ward drift {:.2}s, overhead {:+.1}% (median per round {:+.1}%); ward's own CPU {:.2}s = {:.1}% of the shell loop's wall time",
        tf.version,
        s,
        w,
        (w - s) / s * 100.0,
        ratios[ratios.len() / 2],
        cpu,
        cpu / s * 100.0
    );
}

fn xargs(dirs: &[std::path::PathBuf], jobs: usize, script: &str, cfg: &str) {
    let list: String = dirs.iter().map(|d| format!("{}\n", d.display())).collect();
    let mut child = Command::new("xargs")
        .args([
            "-P",
            &jobs.to_string(),
            "-I{}",
            "sh",
            "-c",
            script,
            "sh",
            "{}",
        ])
        .env("TF_CLI_CONFIG_FILE", cfg)
        .env("CHECKPOINT_DISABLE", "1")
        .env("TF_IN_AUTOMATION", "1")
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(list.as_bytes())
        .unwrap();
    let st = child.wait().unwrap();
    assert!(st.success(), "the shell loop failed");
}

/// This process's user + system CPU seconds (ward's own work: its threads, not its children).
fn own_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |x| x.1);
    let f: Vec<&str> = after.split_whitespace().collect();
    // After the command name: state is field 3, utime 14 and stime 15 (1-based) → 11 and 12.
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
