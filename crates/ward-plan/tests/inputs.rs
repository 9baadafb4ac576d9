//! Every bad input gets its specific error (never a panic), and the shapes the corpus lacks
//! (forget, deposed, importing, unknown majors and actions...) are read right.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use std::io::{self, Read, Write};
use ward_model::{Action, InstanceKey, Mode, Product, Shown};
use ward_plan::{read_file, read_path_or_stdin, read_reader, PlanError, PlanErrorKind};

fn read(bytes: &[u8]) -> Result<ward_model::Plan, PlanError> {
    read_reader(bytes, "test.json")
}

fn err(bytes: &[u8]) -> PlanError {
    match read(bytes) {
        Ok(p) => panic!("expected an error, got a plan: {p:?}"),
        Err(e) => {
            let text = e.to_string();
            assert!(text.starts_with("cannot read plan `test.json`: "), "{text}");
            assert!(text.contains("\n  help: "), "{text}");
            e
        }
    }
}

fn plan_json(changes: serde_json::Value) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "format_version": "1.2",
        "terraform_version": "1.9.0",
        "planned_values": {"root_module": {}},
        "resource_changes": changes,
        "applyable": true,
        "complete": true,
        "errored": false
    }))
    .expect("json")
}

fn change(address: &str, actions: &[&str]) -> serde_json::Value {
    json!({
        "address": address,
        "mode": "managed",
        "type": "fake_thing",
        "name": "x",
        "provider_name": "registry.terraform.io/example/fake",
        "change": {"actions": actions, "before": null, "after": {}, "after_unknown": {}}
    })
}

#[test]
fn binary_plan() {
    let e = err(b"PK\x03\x04\x14\x00\x00\x00rest of a zip");
    assert_eq!(e.kind(), PlanErrorKind::BinaryPlan);
    assert!(e.to_string().contains("show -json"));
}

#[test]
fn empty_and_whitespace() {
    assert_eq!(err(b"").kind(), PlanErrorKind::Empty);
    assert_eq!(err(b" \n\t\r\n").kind(), PlanErrorKind::Empty);
    assert_eq!(err(b"\xEF\xBB\xBF").kind(), PlanErrorKind::Empty);
}

#[test]
fn truncated_json_names_the_offset() {
    let full = plan_json(json!([change("fake_thing.a", &["create"])]));
    let cut = &full[..full.len() / 2];
    let e = err(cut);
    assert_eq!(
        e.kind(),
        PlanErrorKind::Truncated {
            offset: cut.len() as u64
        }
    );
    assert!(e.to_string().contains(&format!("byte {}", cut.len())));
}

#[test]
fn invalid_json_names_the_offset() {
    let e = err(b"{\"format_version\": x}");
    assert_eq!(e.kind(), PlanErrorKind::InvalidJson { offset: 19 });
    let e = err(b"I am an invalid json");
    assert_eq!(e.kind(), PlanErrorKind::InvalidJson { offset: 0 });
    let mut trailing = plan_json(json!([]));
    trailing.extend_from_slice(b"\n}");
    assert!(matches!(
        err(&trailing).kind(),
        PlanErrorKind::InvalidJson { .. }
    ));
}

#[test]
fn absurd_nesting_is_too_deep_not_a_stack_overflow() {
    for depth in [200usize, 100_000] {
        let mut s = String::from("{\"format_version\":\"1.0\",\"planned_values\":");
        s.push_str(&"[".repeat(depth));
        s.push_str(&"]".repeat(depth));
        s.push('}');
        assert!(matches!(
            err(s.as_bytes()).kind(),
            PlanErrorKind::TooDeep { .. }
        ));
        // Inside a resource change too, where values are kept.
        let mut s = String::from(
            "{\"format_version\":\"1.0\",\"resource_changes\":[{\"address\":\"a.b\",\"type\":\"a\",\"name\":\"b\",\"change\":{\"actions\":[\"update\"],\"before\":",
        );
        s.push_str(&"{\"k\":".repeat(depth));
        assert!(matches!(
            err(s.as_bytes()).kind(),
            PlanErrorKind::TooDeep { .. }
        ));
    }
}

#[test]
fn brackets_inside_strings_do_not_count_as_nesting() {
    let deep_text = format!("\\\"{}\\\\{}", "[{".repeat(5000), "]".repeat(10));
    let doc = format!(
        r#"{{"format_version":"1.2","planned_values":{{"s":"{deep_text}"}},"variables":{{"v":{{"value":"{deep_text}"}}}}}}"#
    );
    let plan = read(doc.as_bytes()).expect("brackets in strings are text");
    assert!(plan.changes.is_empty());
    // Just under the limit is fine; at the limit it is not.
    let ok = format!(
        r#"{{"format_version":"1.2","planned_values":{}{}}}"#,
        "[".repeat(126),
        "]".repeat(126)
    );
    read(ok.as_bytes()).expect("126 levels inside the top object");
}

#[test]
fn invalid_utf8() {
    // In the first bytes.
    let e = err(b"{\"format_version\": \"1.\xff\"}");
    assert_eq!(e.kind(), PlanErrorKind::InvalidUtf8 { offset: 22 });
    // Past the first bytes, inside a value the reader keeps.
    let mut big = plan_json(json!([{
        "address": "fake_thing.a", "mode": "managed", "type": "fake_thing", "name": "a",
        "provider_name": "p",
        "change": {"actions": ["update"], "before": {"s": "PLACEHOLDER"}, "after": {"s": "b"}},
    }]));
    let pad = "x".repeat(20_000);
    let text = String::from_utf8(big.clone()).expect("utf8");
    big = text
        .replacen("PLACEHOLDER", &format!("{pad}\u{1}"), 1)
        .into_bytes();
    let pos = big.iter().position(|b| *b == 1).expect("marker");
    big[pos] = 0xE9; // Latin-1 é
    assert!(matches!(
        err(&big).kind(),
        PlanErrorKind::InvalidUtf8 { .. }
    ));
}

#[test]
fn utf16_with_bom_is_decoded_and_read() {
    let text =
        String::from_utf8(plan_json(json!([change("fake_thing.a", &["create"])]))).expect("utf8");
    let mut le = vec![0xFF, 0xFE];
    let mut be = vec![0xFE, 0xFF];
    for u in text.encode_utf16() {
        le.extend_from_slice(&u.to_le_bytes());
        be.extend_from_slice(&u.to_be_bytes());
    }
    for bytes in [le, be] {
        let plan = read(&bytes).expect("utf-16 plan");
        assert_eq!(plan.changes.len(), 1);
        assert_eq!(plan.reader_notes.len(), 1);
    }
    let mut bom8 = vec![0xEF, 0xBB, 0xBF];
    bom8.extend_from_slice(text.as_bytes());
    let plan = read(&bom8).expect("utf-8 bom plan");
    assert!(plan.reader_notes.is_empty());
}

#[test]
fn directory_missing_and_unreadable() {
    let dir = tempfile::tempdir().expect("tempdir");
    let e = read_file(dir.path()).expect_err("a directory");
    assert_eq!(e.kind(), PlanErrorKind::IsDirectory);
    assert!(e.to_string().contains(&dir.path().display().to_string()));
    let e = read_file(&dir.path().join("nope.json")).expect_err("missing");
    assert_eq!(e.kind(), PlanErrorKind::NotFound);
    let e = read_path_or_stdin(&dir.path().join("nope.json").display().to_string())
        .expect_err("missing");
    assert_eq!(e.kind(), PlanErrorKind::NotFound);

    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let e = read_reader(Broken, "broken").expect_err("unreadable");
    assert_eq!(e.kind(), PlanErrorKind::Unreadable);
    assert!(e.to_string().contains("disk on fire"));

    // A reader that fails after the first bytes (mid-parse).
    struct Later(usize);
    impl Read for Later {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0 == 0 {
                return Err(io::Error::other("cable pulled"));
            }
            let n = buf.len().min(self.0);
            buf[..n].fill(b' ');
            self.0 -= n;
            Ok(n)
        }
    }
    let e = read_reader(Later(100_000), "later").expect_err("unreadable");
    assert_eq!(e.kind(), PlanErrorKind::Unreadable);
}

#[test]
fn state_files_logs_and_other_json() {
    let e = err(br#"{"version": 4, "terraform_version": "1.5.0", "serial": 3, "lineage": "x", "resources": []}"#);
    assert_eq!(e.kind(), PlanErrorKind::StateFile);
    let e = err(br#"{"format_version": "1.0", "terraform_version": "1.5.0", "values": {"root_module": {}}}"#);
    assert_eq!(e.kind(), PlanErrorKind::StateFile);
    assert!(e.to_string().contains("state"));
    let log = b"{\"@level\":\"info\",\"@message\":\"Terraform 1.9.0\",\"type\":\"version\"}\n{\"@level\":\"info\"}\n";
    let e = err(log);
    assert_eq!(e.kind(), PlanErrorKind::UiLog);
    assert!(e.to_string().contains("show -json"));
    let e = err(br#"[{"@level":"info","@message":"x","type":"version"}]"#);
    assert_eq!(e.kind(), PlanErrorKind::UiLog);
    assert_eq!(err(b"{}").kind(), PlanErrorKind::NotAPlan);
    assert_eq!(err(b"[1,2]").kind(), PlanErrorKind::NotAPlan);
    assert_eq!(err(b"\"plan\"").kind(), PlanErrorKind::NotAPlan);
    assert_eq!(err(b"null").kind(), PlanErrorKind::NotAPlan);
    assert_eq!(
        err(br#"{"format_version":"1.0","provider_schemas":{}}"#).kind(),
        PlanErrorKind::NotAPlan
    );
    assert_eq!(err(&[0x1f, 0x8b, 8, 0]).kind(), PlanErrorKind::NotAPlan);
}

#[test]
fn fails_closed_on_unknown_major_and_action_and_mode() {
    for v in ["2.0", "10.1", "1", "one.two", ""] {
        let doc = format!(r#"{{"format_version":"{v}","planned_values":{{}}}}"#);
        let e = err(doc.as_bytes());
        assert_eq!(e.kind(), PlanErrorKind::UnsupportedFormatVersion, "{v}");
        assert!(e.to_string().contains(v), "{e}");
    }
    // Accepted: any minor of 0 and 1.
    for v in ["0.1", "0.2", "1.0", "1.1", "1.2", "1.99"] {
        let doc = format!(r#"{{"format_version":"{v}","planned_values":{{}}}}"#);
        read(doc.as_bytes()).expect(v);
    }
    let e = err(&plan_json(json!([
        change("fake_thing.a", &["create"]),
        change("fake_thing.b", &["explode"])
    ])));
    assert_eq!(e.kind(), PlanErrorKind::UnknownAction);
    assert!(e.to_string().contains("fake_thing.b"));
    assert!(e.to_string().contains("explode"));
    let e = err(&plan_json(json!([change("fake_thing.a", &[])])));
    assert_eq!(e.kind(), PlanErrorKind::UnknownAction);
    let e = err(&plan_json(json!([change(
        "fake_thing.a",
        &["delete", "read"]
    )])));
    assert_eq!(e.kind(), PlanErrorKind::UnknownAction);
    let mut c = change("fake_thing.a", &["create"]);
    c["mode"] = json!("list");
    assert_eq!(
        err(&plan_json(json!([c]))).kind(),
        PlanErrorKind::UnknownMode
    );
    // Unknown output action too.
    let doc = br#"{"format_version":"1.2","planned_values":{},"output_changes":{"o":{"actions":["teleport"],"before":null,"after":1}}}"#;
    assert_eq!(err(doc).kind(), PlanErrorKind::UnknownAction);
    // An unknown major stops before the rest is read.
    let doc = br#"{"format_version":"2.0","resource_changes":[{"oops"#;
    assert_eq!(err(doc).kind(), PlanErrorKind::UnsupportedFormatVersion);
}

#[test]
fn malformed_shapes() {
    let doc = br#"{"format_version":"1.2","resource_changes":"invalid"}"#;
    assert!(matches!(err(doc).kind(), PlanErrorKind::Malformed { .. }));
    let doc = br#"{"format_version":"1.2","resource_changes":[{"address":"a.b"}]}"#;
    assert!(matches!(err(doc).kind(), PlanErrorKind::Malformed { .. }));
    let mut c = change("fake_thing.a", &["create"]);
    c["index"] = json!(1.5);
    assert!(matches!(
        err(&plan_json(json!([c]))).kind(),
        PlanErrorKind::Malformed { .. }
    ));
}

#[test]
fn every_action_and_fact() {
    let mut changes = vec![];
    for (i, a) in [
        vec!["no-op"],
        vec!["create"],
        vec!["read"],
        vec!["update"],
        vec!["delete", "create"],
        vec!["create", "delete"],
        vec!["delete"],
        vec!["forget"],
        vec!["create", "forget"],
        vec!["open"],
    ]
    .iter()
    .enumerate()
    {
        changes.push(change(&format!("fake_thing.a{i}"), a));
    }
    let mut deposed = change("fake_thing.old", &["delete"]);
    deposed["deposed"] = json!("00000001");
    let mut imported = change("fake_thing.imp", &["no-op"]);
    imported["change"]["importing"] = json!({"id": "i-123"});
    let mut by_identity = change("fake_thing.idn", &["update"]);
    by_identity["change"]["importing"] = json!({"identity": {"email": "a@example.com"}});
    let mut moved = change("fake_thing.new", &["no-op"]);
    moved["previous_address"] = json!("fake_thing.old_name");
    let mut indexed = change("module.m[\"k\"].fake_thing.c[0]", &["update"]);
    indexed["index"] = json!(0);
    indexed["module_address"] = json!("module.m[\"k\"]");
    indexed["action_reason"] = json!("replace_because_cannot_update");
    indexed["change"]["replace_paths"] = json!([["size"], ["disk", 0, "type"]]);
    let mut keyed = change("fake_thing.d[\"x\"]", &["create"]);
    keyed["index"] = json!("x");
    let mut data = change("data.fake_thing.e", &["read"]);
    data["mode"] = json!("data");
    changes.extend([deposed, imported, by_identity, moved, indexed, keyed, data]);
    let plan = read(&plan_json(json!(changes))).expect("plan");
    let actions: Vec<Action> = plan.changes.iter().map(|c| c.action).collect();
    assert_eq!(&actions[..10], &Action::ALL);
    let c = &plan.changes[10];
    assert_eq!(c.deposed.as_deref(), Some("00000001"));
    assert_eq!(
        plan.changes[11]
            .importing
            .as_ref()
            .and_then(|i| i.id.as_deref()),
        Some("i-123")
    );
    assert!(plan.changes[12].importing.is_some());
    assert_eq!(
        plan.changes[13].previous_address.as_deref(),
        Some("fake_thing.old_name")
    );
    let c = &plan.changes[14];
    assert_eq!(c.index, Some(InstanceKey::Int(0)));
    assert_eq!(c.module_address.as_deref(), Some("module.m[\"k\"]"));
    assert_eq!(
        c.action_reason.as_deref(),
        Some("replace_because_cannot_update")
    );
    let paths: Vec<String> = c.replace_paths.iter().map(|p| p.to_string()).collect();
    assert_eq!(paths, vec!["disk[0].type", "size"]);
    assert_eq!(plan.changes[15].index, Some(InstanceKey::Str("x".into())));
    assert_eq!(plan.changes[16].mode, Mode::Data);
    assert_eq!(plan.product, Product::Terraform);
    assert_eq!(plan.complete, Some(true));
}

#[test]
fn context_types_outputs_drift_and_product() {
    let doc = json!({
        "format_version": "1.2",
        "planned_values": {"root_module": {"resources": [{"values": {"password": "SECRET"}}]}},
        "variables": {"pw": {"value": "SECRET"}},
        "resource_drift": [{
            "address": "fake_thing.a", "mode": "managed", "type": "fake_thing", "name": "a",
            "provider_name": "registry.opentofu.org/example/fake",
            "change": {"actions": ["update"], "before": {"size": 1}, "after": {"size": 2},
                        "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {}}
        }],
        "resource_changes": [],
        "output_changes": {
            "b": {"actions": ["update"], "before": "SECRET", "after": "SECRET2",
                  "before_sensitive": true, "after_sensitive": true},
            "a": {"actions": ["create"], "before": null, "after": 1, "after_unknown": false}
        },
        "prior_state": {"format_version": "1.0", "values": {"root_module": {
            "resources": [{"mode": "managed", "type": "fake_thing",
                           "provider_name": "registry.opentofu.org/example/fake",
                           "values": {"password": "SECRET"}}],
            "child_modules": [{"resources": [{"mode": "data", "type": "fake_src",
                                              "provider_name": "registry.opentofu.org/example/fake"}],
                               "child_modules": []}]
        }}},
        "configuration": {
            "provider_config": {"fake": {"name": "fake", "full_name": "registry.opentofu.org/example/fake"}},
            "root_module": {
                "resources": [{"mode": "managed", "type": "fake_thing", "provider_config_key": "fake",
                               "expressions": {"password": {"constant_value": "SECRET"}}}],
                "module_calls": {"m": {"module": {"resources": [
                    {"mode": "managed", "type": "fake_other", "provider_config_key": "m:other.alias"}
                ], "module_calls": {"n": {"module": {"resources": [
                    {"mode": "ephemeral", "type": "fake_eph", "provider_config_key": "fake"}
                ]}}}}}}
            }
        },
        "errored": true
    });
    let plan = read(&serde_json::to_vec(&doc).expect("json")).expect("plan");
    assert_eq!(plan.product, Product::OpenTofu);
    assert!(plan.errored);
    assert_eq!(plan.complete, None);
    assert_eq!(plan.drift.len(), 1);
    assert_eq!(plan.drift[0].changed.len(), 1);
    assert_eq!(plan.drift[0].changed[0].after, Shown::Known(json!(2)));
    let outs: Vec<(&str, Action, bool)> = plan
        .output_changes
        .iter()
        .map(|o| (o.name.as_str(), o.action, o.sensitive))
        .collect();
    assert_eq!(
        outs,
        vec![("a", Action::Create, false), ("b", Action::Update, true)]
    );
    let configured: Vec<String> = plan
        .configured_types
        .iter()
        .map(|t| format!("{:?} {} {:?}", t.mode, t.type_name, t.provider))
        .collect();
    assert_eq!(
        configured,
        vec![
            "Managed fake_other Some(\"other\")",
            "Managed fake_thing Some(\"registry.opentofu.org/example/fake\")",
            "Ephemeral fake_eph Some(\"registry.opentofu.org/example/fake\")",
        ]
    );
    let state: Vec<String> = plan
        .state_types
        .iter()
        .map(|t| format!("{:?} {}", t.mode, t.type_name))
        .collect();
    assert_eq!(state, vec!["Managed fake_thing", "Data fake_src"]);
    let model = serde_json::to_string(&plan).expect("json");
    assert!(!model.contains("SECRET"), "{model}");
}

#[test]
fn lookalike_without_mode_and_provider() {
    let doc = br#"{"format_version":"0.1","resource_changes":[
        {"address":"data.x_y.z","type":"x_y","name":"z","change":{"actions":["read"]}},
        {"address":"module.a.x_y.w","type":"x_y","name":"w","change":{"actions":["create"]}}]}"#;
    let plan = read(doc).expect("plan");
    assert_eq!(plan.changes[0].mode, Mode::Data);
    assert_eq!(plan.changes[1].mode, Mode::Managed);
    assert_eq!(plan.changes[1].provider_name, "");
}

#[test]
fn missing_format_version_is_read_when_clearly_a_plan() {
    let plan = read(br#"{"planned_values":{"root_module":{}}}"#).expect("plan");
    assert_eq!(plan.format_version.to_string(), "0.0");
    assert_eq!(plan.reader_notes.len(), 1);
    let plan = read(br#"{"plan_format_version":"1.1","resource_changes":[]}"#).expect("plan");
    assert_eq!(plan.format_version.to_string(), "1.1");
    assert!(plan.reader_notes[0].contains("redacted"));
}

/// `-` reads standard input: this test runs itself again as a child process with a plan on
/// its standard input.
#[test]
fn dash_reads_stdin() {
    if std::env::var_os("WARD_PLAN_STDIN_CHILD").is_some() {
        let plan = read_path_or_stdin("-").expect("plan from stdin");
        assert_eq!(plan.changes.len(), 1);
        return;
    }
    let exe = std::env::current_exe().expect("exe");
    let mut child = std::process::Command::new(exe)
        .args(["dash_reads_stdin", "--exact", "--test-threads=1"])
        .env("WARD_PLAN_STDIN_CHILD", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&plan_json(json!([change("fake_thing.a", &["create"])])))
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
}

/// Terraform 0.15 to 1.0.0 wrote `resource_drift` entries without `address` (fixed upstream
/// in 1.0.1): the plan is read, the addresses are rebuilt, and the notes say so.
#[test]
fn terraform_1_0_0_drift_without_address_is_read() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/terraform-1.0.0-drift.json");
    let plan = read_file(&path).expect("a plan whose deciding sections read is read");
    assert_eq!(plan.changes.len(), 1);
    assert_eq!(plan.changes[0].address, "aws_s3_bucket.logs");
    let drifted: Vec<&str> = plan.drift.iter().map(|d| d.address.as_str()).collect();
    assert_eq!(
        drifted,
        [
            "module.app.aws_instance.web[0]",
            r#"data.aws_ami.base["eu"]"#
        ]
    );
    assert_eq!(plan.product, Product::Terraform);
    let notes = plan.reader_notes.join("\n");
    assert!(notes.contains("rebuilt"), "{notes}");
    assert!(
        notes.contains("`module.app.aws_instance.web[0]`"),
        "{notes}"
    );
    assert!(notes.contains("entry 3"), "{notes}");
    assert!(notes.contains("resource_drift"), "{notes}");
}

#[test]
fn context_sections_of_the_wrong_shape_are_skipped_with_a_note() {
    for (section, value, says) in [
        ("resource_drift", json!("oops"), "a string, not a list"),
        ("resource_drift", json!({"a": 1}), "an object, not a list"),
        ("output_changes", json!([1, 2]), "a list, not an object"),
        ("output_changes", json!(7), "a number, not an object"),
        (
            "resource_drift",
            json!([{"address": "a.b", "type": "a", "change": {"actions": ["explode"]}}]),
            "unknown actions",
        ),
        (
            "resource_drift",
            json!([{"address": "a.b", "type": "a", "index": 1.5, "change": {"actions": ["update"]}}]),
            "`a.b`",
        ),
        ("output_changes", json!({"o": {"before": 1}}), "output.o"),
        ("checks", json!("not a list"), ""),
        ("deferred_changes", json!(false), ""),
        ("relevant_attributes", json!({"x": 1}), ""),
    ] {
        let mut doc: serde_json::Value =
            serde_json::from_slice(&plan_json(json!([change("fake_thing.a", &["create"])])))
                .unwrap();
        doc[section] = value;
        let plan = read(&serde_json::to_vec(&doc).unwrap()).expect(section);
        assert_eq!(plan.changes.len(), 1, "{section}");
        let notes = plan.reader_notes.join("\n");
        if says.is_empty() {
            assert!(notes.is_empty(), "{section}: {notes}");
        } else {
            assert!(
                notes.contains(section) && notes.contains(says),
                "{section}: {notes}"
            );
        }
    }
}

#[test]
fn a_resource_changes_entry_of_the_wrong_shape_still_fails_closed() {
    let mut c = change("fake_thing.a", &["create"]);
    c.as_object_mut().unwrap().remove("address");
    assert!(matches!(
        err(&plan_json(json!([c]))).kind(),
        PlanErrorKind::Malformed { .. }
    ));
    let e = err(&plan_json(json!(["not an object"])));
    assert!(matches!(e.kind(), PlanErrorKind::Malformed { .. }));
}

#[test]
fn the_product_is_terraform_below_1_6() {
    for (version, provider, product) in [
        ("0.12.31", "aws", Product::Terraform),
        ("0.15.5", "aws", Product::Terraform),
        (
            "1.5.7",
            "registry.opentofu.org/hashicorp/aws",
            Product::Terraform,
        ),
        (
            "1.6.0",
            "registry.opentofu.org/hashicorp/aws",
            Product::OpenTofu,
        ),
        ("1.9.0", "aws", Product::Unknown),
    ] {
        let doc = serde_json::to_vec(&json!({
            "format_version": "0.1",
            "terraform_version": version,
            "planned_values": {},
            "resource_changes": [{"address": "a.b", "type": "a", "name": "b", "provider_name": provider, "change": {"actions": ["create"]}}]
        }))
        .unwrap();
        assert_eq!(read(&doc).unwrap().product, product, "{version} {provider}");
    }
}

#[test]
fn a_numeric_format_version_is_refused() {
    let text = r#"{"format_version":1.2,"resource_changes":[]}"#;
    let e = ward_plan::read_reader(text.as_bytes(), "plan.json")
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a string"), "{e}");
}

#[test]
fn a_non_boolean_sensitivity_mark_hides_the_value() {
    let text = r#"{"format_version":"1.2","resource_changes":[{"address":"fakecloud_volume.v","mode":"managed","type":"fakecloud_volume","name":"v","provider_name":"registry.terraform.io/ward/fakecloud","change":{"actions":["update"],"before":{"size":"s3cret-old"},"after":{"size":"s3cret-new"},"after_unknown":{},"before_sensitive":{"size":"yes"},"after_sensitive":{"size":"yes"}}}]}"#;
    let plan = ward_plan::read_reader(text.as_bytes(), "plan.json").unwrap();
    let shown = serde_json::to_string(&plan).unwrap();
    assert!(!shown.contains("s3cret"), "{shown}");
    assert_eq!(plan.changes[0].changed.len(), 1);
    assert_eq!(
        plan.changes[0].changed[0].after,
        ward_model::Shown::Sensitive
    );
}

#[test]
fn invalid_utf8_in_a_skipped_change_value_is_refused() {
    let mut text = br#"{"format_version":"1.2","resource_changes":[{"address":"fakecloud_volume.v","mode":"managed","type":"fakecloud_volume","name":"v","provider_name":"registry.terraform.io/ward/fakecloud","change":{"actions":["delete"],"before":{"id":"vol-"#.to_vec();
    text.extend_from_slice(b"\xff\xfe");
    text.extend_from_slice(
        br#""},"after":null,"after_unknown":{},"before_sensitive":{},"after_sensitive":false}}]}"#,
    );
    assert!(read(&text).is_err());
}

/// Issue 11, item 17: invalid UTF-8 late in a section the reader skips (past the first bytes,
/// in `planned_values`) is refused, and the error says at which byte.
#[test]
fn invalid_utf8_late_in_a_skipped_section_names_the_offset() {
    let pad = "x".repeat(100_000);
    let mut text = format!(
        r#"{{"format_version":"1.2","planned_values":{{"root_module":{{"resources":[{{"values":{{"pad":"{pad}","s":"MARK"}}}}]}}}},"resource_changes":[]}}"#
    )
    .into_bytes();
    let pos = text.windows(4).position(|w| w == b"MARK").expect("marker");
    text[pos] = 0xC3; // a lead byte without its continuation
    text[pos + 1] = b'(';
    let e = err(&text);
    assert_eq!(e.kind(), PlanErrorKind::InvalidUtf8 { offset: pos as u64 });
    assert!(e.to_string().contains(&format!("offset {pos}")), "{e}");
}

/// Issue 11, item 17: a lone UTF-16 surrogate in a UTF-16 plan is refused with its byte
/// offset in the file, not silently replaced by U+FFFD.
#[test]
fn a_lone_utf16_surrogate_is_refused_with_its_offset() {
    let text = String::from_utf8(plan_json(json!([change("fake_thing.MARK", &["create"])])))
        .expect("utf8");
    for le in [true, false] {
        let mut bytes = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        let mut at = None;
        for (i, u) in text.encode_utf16().enumerate() {
            // The `M` of MARK becomes an unpaired high surrogate.
            let u = if text.as_bytes().get(i) == Some(&b'M') && text[i..].starts_with("MARK") {
                at = Some(bytes.len());
                0xD800
            } else {
                u
            };
            bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        let at = at.expect("marker");
        let e = read(&bytes).expect_err("a lone surrogate is refused");
        let text = e.to_string();
        assert!(text.contains("surrogate"), "{text}");
        assert!(text.contains(&format!("byte {at}")), "{text}");
        assert_eq!(e.kind(), PlanErrorKind::InvalidUtf16 { offset: at as u64 });
    }
}

/// A plan larger than the reader's blocks, with a skipped section larger than what it checks
/// as one slice: the walk refills, releases and descends, and still reads what one
/// whole-document pass reads; errors late in the big section keep their exact offsets.
#[test]
fn a_plan_larger_than_the_buffers_reads_as_a_whole_document_pass_does() {
    let changes: Vec<serde_json::Value> = (0..3000)
        .map(|i| {
            let mut c = change(&format!("fake_thing.r{i}"), &["update"]);
            c["change"]["before"] = json!({"size": i, "pad": "p".repeat(300)});
            c["change"]["after"] = json!({"size": i + 1, "pad": "p".repeat(300)});
            c
        })
        .collect();
    let resources: Vec<serde_json::Value> = (0..6000)
        .map(|i| json!({"address": format!("fake_thing.r{i}"), "values": {"v": "x".repeat(400), "n": [i, {"k": "\"]}"}]}}))
        .collect();
    let doc = json!({
        "format_version": "1.2",
        "resource_changes": changes,
        "planned_values": {"root_module": {"resources": resources}},
        "prior_state": {"values": {"root_module": {"resources": [{"mode": "managed", "type": "fake_thing", "provider_name": "p"}], "child_modules": [{"resources": [{"mode": "managed", "type": "fake_other", "provider_name": "p"}]}]}}},
    });
    let text = serde_json::to_vec(&doc).unwrap();
    assert!(text.len() > 4 << 20, "{}", text.len());
    let walked = read(&text).unwrap();
    assert_eq!(walked.changes.len(), 3000);
    assert_eq!(walked.state_types.len(), 2);
    assert_eq!(walked, ward_plan::fuzzing::read_whole(&text).unwrap());

    // Late in planned_values, past several blocks.
    let at = text.len() - 10_000;
    let at = at + text[at..].iter().position(|b| *b == b':').unwrap() + 1;
    let mut bad = text.clone();
    bad[at] = b'#';
    assert_eq!(
        err(&bad).kind(),
        PlanErrorKind::InvalidJson { offset: at as u64 }
    );

    let mut deep = text[..at].to_vec();
    deep.extend_from_slice(&b"[".repeat(200));
    // The depth at `at`, counted here: the bracket that passes 128 levels is named.
    let (mut depth, mut in_str, mut esc) = (0usize, false, false);
    for b in &text[..at] {
        match (in_str, esc, b) {
            (true, true, _) => esc = false,
            (true, false, b'\\') => esc = true,
            (true, false, b'"') => in_str = false,
            (false, _, b'"') => in_str = true,
            (false, _, b'[' | b'{') => depth += 1,
            (false, _, b']' | b'}') => depth -= 1,
            _ => {}
        }
    }
    assert!(depth > 4, "{depth}");
    let e = err(&deep);
    assert_eq!(
        e.kind(),
        PlanErrorKind::TooDeep {
            offset: (at + 128 - depth) as u64
        }
    );

    let cut = &text[..at + 3];
    assert_eq!(
        err(cut).kind(),
        PlanErrorKind::Truncated {
            offset: cut.len() as u64
        }
    );
}

/// A `resource_changes` entry is parsed in one pass and only its brackets are counted; when
/// there are more of them than levels left (in strings, or really nested), the scan decides:
/// an entry nested up to the limit is read, one level more names the bracket that passes it.
#[test]
fn an_entry_with_many_brackets_is_read_up_to_the_depth_limit() {
    // The entry's `after` lies at depth 4 (root, resource_changes, the entry, change).
    let doc = |levels: usize| {
        let text = "[{".repeat(200);
        format!(
            r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["update"],"before":{{"s":"{text}"}},"after":{}{}}}}}]}}"#,
            "[".repeat(levels),
            "]".repeat(levels)
        )
    };
    for levels in [1, 2, 124] {
        let plan = read(doc(levels).as_bytes()).expect("within the limit");
        assert_eq!(plan.changes.len(), 1, "{levels}");
        assert_eq!(plan.changes[0].action, Action::Update);
    }
    let deep = doc(125);
    let last = deep.find(&"[".repeat(125)).unwrap() + 124;
    assert_eq!(
        err(deep.as_bytes()).kind(),
        PlanErrorKind::TooDeep {
            offset: last as u64
        }
    );
}

/// `mode` and `actions` are read without copying their words; what they spell, and every
/// error for a list or mode of the wrong shape, is what a list of strings gave.
#[test]
fn actions_and_modes_of_every_shape() {
    let doc = |mode: &str, actions: &str| {
        format!(
            r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":{mode},"type":"a","name":"b","change":{{"actions":{actions},"before":null,"after":{{}}}}}}]}}"#
        )
    };
    for (mode, actions, want) in [
        (r#""data""#, r#"["create"]"#, Ok(Action::Create)),
        (r#""d\u0061ta""#, r#"["cre\u0061te"]"#, Ok(Action::Create)),
        (
            "null",
            r#"["delete","create"]"#,
            Ok(Action::ReplaceDeleteFirst),
        ),
        (
            r#""managed""#,
            r#"["create","forget"]"#,
            Ok(Action::CreateThenForget),
        ),
        (
            r#""managed""#,
            r#"["create","delete","read"]"#,
            Err(r#"has actions ["create","delete","read"], which ward does not know"#),
        ),
        (
            r#""managed""#,
            r#"["create","bogus","x"]"#,
            Err(r#"has actions ["create","bogus","x"], which ward does not know"#),
        ),
        (
            r#""managed""#,
            "[]",
            Err("has actions [], which ward does not know"),
        ),
        (
            r#""managed""#,
            r#"["create",1]"#,
            Err("invalid type: integer `1`, expected a string"),
        ),
        (
            r#""managed""#,
            "null",
            Err("invalid type: null, expected a sequence"),
        ),
        (
            r#""managed""#,
            r#""create""#,
            Err(r#"invalid type: string "create", expected a sequence"#),
        ),
        (
            "1",
            r#"["create"]"#,
            Err("invalid type: integer `1`, expected a string"),
        ),
        (
            r#""weird""#,
            r#"["create"]"#,
            Err("has mode `weird`, which ward does not know"),
        ),
        // The action is checked before the mode.
        (
            r#""weird""#,
            r#"["bogus"]"#,
            Err(r#"has actions ["bogus"]"#),
        ),
    ] {
        let text = doc(mode, actions);
        match want {
            Ok(action) => {
                let plan = read(text.as_bytes()).unwrap();
                assert_eq!(plan.changes[0].action, action, "{text}");
                let m = if mode.starts_with("\"d") {
                    Mode::Data
                } else {
                    Mode::Managed
                };
                assert_eq!(plan.changes[0].mode, m, "{text}");
            }
            Err(what) => {
                let e = err(text.as_bytes()).to_string();
                assert!(e.contains(what), "{text}: {e}");
            }
        }
    }
}
