//! The example deployment (`examples/deployment`) and the scripted changes that turn it into
//! each hazard ward must see. [`write_plans`] produces `examples/plans/<scenario>.json`; tests
//! can call [`plan`] to get the same real plan from any Terraform version.

use crate::{Plan, Rig, RigError, Root, Terraform};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The example every scenario starts from: `examples/deployment`.
pub const EXAMPLE: &str = "deployment";

/// The value `timestamp` is set to in written plans, so regenerating them is deterministic.
pub const FIXED_TIMESTAMP: &str = "2026-01-01T00:00:00Z";

/// The canary default of the sensitive `db_admin_password` variable: it must never appear in
/// any ward output.
pub const SENSITIVE_CANARY: &str = "WARD-CANARY-db-admin-password";

/// One scripted change of the example deployment.
#[derive(Debug, Clone, Copy)]
pub struct Scenario {
    /// The name, also the plan file name: `examples/plans/<name>.json`.
    pub name: &'static str,
    /// What the change is and what the plan shows.
    pub summary: &'static str,
    /// The oldest Terraform `(major, minor)` that can run it.
    pub min_version: (u64, u64),
    steps: fn(&Root) -> Result<Plan, RigError>,
}

impl Scenario {
    /// Runs the scenario's steps in an initialised root of the example and returns the plan.
    pub fn run(&self, root: &Root) -> Result<Plan, RigError> {
        (self.steps)(root)
    }

    /// True when `tf` is recent enough for this scenario.
    pub fn supports(&self, tf: &Terraform) -> bool {
        tf.at_least(self.min_version.0, self.min_version.1)
    }
}

/// Every scenario, in a stable order.
pub fn scenarios() -> &'static [Scenario] {
    SCENARIOS
}

/// The scenario called `name`.
pub fn scenario(name: &str) -> Option<&'static Scenario> {
    SCENARIOS.iter().find(|s| s.name == name)
}

static SCENARIOS: &[Scenario] = &[
    Scenario {
        name: "create",
        summary: "First apply: every resource created; the db carries a sensitive admin_password.",
        min_version: (1, 0),
        steps: |root| root.plan(),
    },
    Scenario {
        name: "tags-only",
        summary: "A tag added to the web instances: in-place updates that cost nothing.",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            root.replace_in_file(
                "main.tf",
                "role = \"web\"",
                "role = \"web\"\n    team = \"storefront\"",
            )?;
            root.plan()
        },
    },
    Scenario {
        name: "restart",
        summary: "The db resized medium -> large: an in-place update that restarts the instance.",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            root.replace_in_file("main.tf", "\"medium\"", "\"large\"")?;
            root.plan()
        },
    },
    Scenario {
        name: "replace",
        summary: "The web image changed: both web instances replaced (delete, then create), new ids, ips and macs; replace_paths [[\"image\"]].",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            root.replace_in_file("main.tf", "\"debian-12\"", "\"debian-13\"")?;
            root.plan()
        },
    },
    Scenario {
        name: "data-loss",
        summary: "storage.tf removed: the db data volume, its attachment and the backup bucket are deleted.",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            root.remove_file("storage.tf")?;
            root.plan()
        },
    },
    Scenario {
        name: "create-before-destroy",
        summary: "The db image changed with lifecycle create_before_destroy: replaced as [\"create\",\"delete\"].",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            root.replace_in_file("main.tf", "\"ubuntu-24.04\"", "\"ubuntu-22.04\"")?;
            root.replace_in_file(
                "main.tf",
                "admin_password = var.db_admin_password",
                "admin_password = var.db_admin_password\n\n  lifecycle {\n    create_before_destroy = true\n  }",
            )?;
            root.plan()
        },
    },
    Scenario {
        name: "hazards",
        summary: "One plan with every class: a network tag (free), a new logs bucket (free), the db resized (interrupt), the web image changed (replace), the db volume shrunk (forced replacement of an object holding data: data-loss).",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            root.replace_in_file(
                "main.tf",
                "cidr = \"10.20.0.0/16\"\n  tags = {",
                "cidr = \"10.20.0.0/16\"\n  tags = {\n    team = \"platform\"",
            )?;
            root.replace_in_file("main.tf", "\"medium\"", "\"large\"")?;
            root.replace_in_file("main.tf", "\"debian-12\"", "\"debian-13\"")?;
            root.replace_in_file("storage.tf", "size_gb = 50", "size_gb = 20")?;
            root.write_file(
                "logs.tf",
                "resource \"fakecloud_bucket\" \"logs\" {\n  name = \"logs\"\n  tags = {\n    env = \"prod\"\n  }\n}\n",
            )?;
            root.plan()
        },
    },
    Scenario {
        name: "drift",
        summary: "Changed behind Terraform's back (web-1 resized, a db tag added, the backup bucket deleted); plan -refresh-only shows resource_drift.",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            let cloud = root.cloud();
            let web1 = cloud.id_by_name("instance", "web-1")?;
            cloud.set("instance", &web1, "size", json!("large"))?;
            let db = cloud.id_by_name("instance", "db")?;
            cloud.update("instance", &db, |obj| {
                if let Some(Value::Object(tags)) = obj.get_mut("tags") {
                    tags.insert("patched".into(), json!("by-hand"));
                }
            })?;
            let backups = cloud.id_by_name("bucket", "backups")?;
            cloud.delete("bucket", &backups)?;
            root.refresh_only()
        },
    },
    Scenario {
        name: "vanished",
        summary: "web-0 deleted behind Terraform's back: a normal plan shows the deletion as drift and plans to create it again.",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            let cloud = root.cloud();
            let web0 = cloud.id_by_name("instance", "web-0")?;
            cloud.delete("instance", &web0)?;
            root.plan()
        },
    },
    Scenario {
        name: "import",
        summary: "A bucket made outside Terraform (holding one object) adopted with an import block (Terraform >= 1.5); the configuration adds a tag, so the import comes with an in-place update.",
        min_version: (1, 5),
        steps: |root| {
            root.apply()?;
            root.cloud().create(
                "bucket",
                "bkt-archive01",
                json!({"name": "archive", "force_destroy": null, "tags": null, "objects": ["2026-11-01.tar"]}),
            )?;
            root.write_file(
                "import.tf",
                "import {\n  to = fakecloud_bucket.archive\n  id = \"bkt-archive01\"\n}\n\nresource \"fakecloud_bucket\" \"archive\" {\n  name = \"archive\"\n  tags = {\n    env = \"prod\"\n  }\n}\n",
            )?;
            root.plan()
        },
    },
    Scenario {
        name: "destroy",
        summary: "Teardown: plan -destroy of the whole deployment.",
        min_version: (1, 0),
        steps: |root| {
            root.apply()?;
            root.plan_destroy()
        },
    },
];

/// Runs scenario `name` on a fresh root of the example with `tf` (after `init`).
pub fn plan(rig: &Rig, tf: &Terraform, name: &str) -> Result<Plan, RigError> {
    let scenario = scenario(name).ok_or_else(|| {
        let names: Vec<&str> = SCENARIOS.iter().map(|s| s.name).collect();
        RigError::Usage(format!(
            "no scenario {name:?}: the scenarios are {}",
            names.join(", ")
        ))
    })?;
    if !scenario.supports(tf) {
        return Err(RigError::Usage(format!(
            "the scenario {name:?} needs Terraform >= {}.{} ({tf} is too old)",
            scenario.min_version.0, scenario.min_version.1
        )));
    }
    let root = Root::from_example(rig, tf, EXAMPLE)?;
    root.init()?;
    scenario.run(&root)
}

/// The plan JSON as committed. Two things vary between runs of the same Terraform and are
/// normalized: `timestamp` (Terraform >= 1.5 writes the current time) is set to
/// [`FIXED_TIMESTAMP`], and `relevant_attributes` (a set, written in a random order) is sorted.
/// Nothing else varies: fakecloud's ids depend on neither time nor apply order.
pub fn normalized(plan: &Plan) -> Value {
    let mut json = plan.json.clone();
    if let Some(obj) = json.as_object_mut() {
        if obj.contains_key("timestamp") {
            obj.insert("timestamp".into(), json!(FIXED_TIMESTAMP));
        }
        if let Some(Value::Array(relevant)) = obj.get_mut("relevant_attributes") {
            relevant.sort_by_key(|v| v.to_string());
            relevant.dedup();
        }
    }
    json
}

/// The text written for a plan: [`normalized`] JSON, pretty-printed with sorted keys, and a
/// final newline.
pub fn render(plan: &Plan) -> Result<String, RigError> {
    serde_json::to_string_pretty(&normalized(plan))
        .map(|s| s + "\n")
        .map_err(|e| RigError::Json {
            what: "a plan to write".into(),
            source: e,
        })
}

/// Generates every scenario `tf` supports (three at a time) and writes
/// `<out>/<scenario>.json`. Returns the files written, sorted.
pub fn write_plans(rig: &Rig, tf: &Terraform, out: &Path) -> Result<Vec<PathBuf>, RigError> {
    let rendered = render_all(rig, tf)?;
    fs::create_dir_all(out)
        .map_err(|e| RigError::io(format!("cannot create {}", out.display()), e))?;
    let mut written = Vec::new();
    for (name, text) in rendered {
        let path = out.join(format!("{name}.json"));
        fs::write(&path, text)
            .map_err(|e| RigError::io(format!("cannot write {}", path.display()), e))?;
        written.push(path);
    }
    Ok(written)
}

/// Generates every scenario `tf` supports and returns `(name, rendered text)`, sorted by name.
pub fn render_all(rig: &Rig, tf: &Terraform) -> Result<Vec<(String, String)>, RigError> {
    let todo: Vec<&Scenario> = SCENARIOS.iter().filter(|s| s.supports(tf)).collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(String, Result<String, RigError>)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(scenario) = todo.get(i) else { break };
                let result = plan(rig, tf, scenario.name).and_then(|p| render(&p));
                results
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push((scenario.name.to_string(), result));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = Vec::new();
    for (name, result) in results {
        match result {
            Ok(text) => out.push((name, text)),
            Err(e) => {
                return Err(RigError::Usage(format!(
                    "scenario {name:?} with {tf} failed: {e}"
                )))
            }
        }
    }
    Ok(out)
}
