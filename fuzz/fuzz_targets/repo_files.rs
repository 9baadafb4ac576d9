//! Fuzz target: the repository files ward-repo reads. The first byte picks the reader, the rest
//! is the file's text:
//! - 0: a `.tf` file (HCL), also read as `.tofu`; 1: a `.tf.json` file, also read as
//!   `.tofu.json`: both spellings must give the same module (only the file names differ);
//! - 2: `requirements.yml`, 3: `galaxy.yml`, 4: a YAML inventory or `group_vars` file,
//!   5: an INI inventory (Ansible pins).
//!
//! Any text gives a value or a located problem, never a panic or a stack overflow; every line a
//! result or a problem cites exists, and every place names the file that was read.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ward_repo::ansible::{read_pins, AnsibleFileKind};

/// Every `{"file": .., "line": ..}` place in a serialized value.
fn places(v: &serde_json::Value, out: &mut Vec<(String, u64)>) {
    match v {
        serde_json::Value::Object(m) => {
            if let (Some(serde_json::Value::String(f)), Some(serde_json::Value::Number(l))) =
                (m.get("file"), m.get("line"))
            {
                out.push((f.clone(), l.as_u64().unwrap_or(u64::MAX)));
            }
            m.values().for_each(|v| places(v, out));
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| places(v, out)),
        _ => {}
    }
}

fn module(path: &str, text: &str, lines: u64) -> Option<serde_json::Value> {
    match ward_repo::parse_file_text(path, text) {
        Ok(m) => {
            let v = match serde_json::to_value(&m) {
                Ok(v) => v,
                Err(e) => panic!("{path}: the module does not serialize: {e}"),
            };
            let mut found = Vec::new();
            places(&v, &mut found);
            for (file, line) in found {
                assert_eq!(file, path, "a place in {path} names {file}");
                assert!(line <= lines, "{path}: line {line} of {lines}");
            }
            Some(v)
        }
        Err(p) => {
            assert_eq!(p.loc.file, path, "a problem in {path} names {}", p.loc.file);
            assert!(
                p.loc.line as u64 <= lines,
                "{path}: a problem at line {} of {lines}",
                p.loc.line
            );
            None
        }
    }
}

/// Every file name of a serialized value (a place's `"file": from`, an entry `from` of a
/// module's `"files"`) spelled `to`; other strings (a module's `source`, say, which may hold the
/// file's name as text) are left as they are.
fn rename_files(v: &mut serde_json::Value, from: &str, to: &str) {
    let rename = |s: &mut String| {
        if s == from {
            *s = to.to_owned();
        }
    };
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m.iter_mut() {
                match (k.as_str(), v) {
                    ("file", serde_json::Value::String(s)) => rename(s),
                    ("files", serde_json::Value::Array(a)) => a.iter_mut().for_each(|f| match f {
                        serde_json::Value::String(s) => rename(s),
                        f => rename_files(f, from, to),
                    }),
                    (_, v) => rename_files(v, from, to),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|v| rename_files(v, from, to)),
        _ => {}
    }
}

/// The module with its file names (see [`rename_files`]) spelled `to`.
fn renamed(v: Option<serde_json::Value>, from: &str, to: &str) -> Option<String> {
    v.map(|mut v| {
        rename_files(&mut v, from, to);
        v.to_string()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let lines = text.split('\n').count() as u64;
    match pick % 6 {
        0 | 1 => {
            let (tf, tofu) = if pick % 6 == 0 {
                ("m/main.tf", "m/main.tofu")
            } else {
                ("m/main.tf.json", "m/main.tofu.json")
            };
            let a = module(tf, text, lines);
            let b = module(tofu, text, lines);
            assert_eq!(
                renamed(a, tf, "FILE"),
                renamed(b, tofu, "FILE"),
                "{tf} and {tofu} read the same text differently"
            );
        }
        n => {
            let (kind, file) = match n {
                2 => (AnsibleFileKind::Requirements, "requirements.yml"),
                3 => (AnsibleFileKind::Galaxy, "galaxy.yml"),
                4 => (AnsibleFileKind::Vars, "inventory/group_vars/all.yml"),
                _ => (AnsibleFileKind::IniInventory, "inventory/hosts"),
            };
            match read_pins(kind, text, file) {
                Ok(pins) => {
                    for p in pins {
                        assert_eq!(p.file, file);
                        assert!(
                            p.line >= 1 && p.line as u64 <= lines,
                            "{file}: a pin at line {} of {lines}",
                            p.line
                        );
                    }
                }
                Err(p) => assert!(
                    p.line as u64 <= lines + 1,
                    "{file}: a problem at line {} of {lines}",
                    p.line
                ),
            }
        }
    }
});
