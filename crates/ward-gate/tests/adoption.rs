//! A root being adopted with `ward import` takes only imports: what the gate keeps of the plan's
//! changes and when it refuses (docs/testing.md, "Mutation testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_gate::adoption::{refuse, Imports};
use ward_gate::testkit::resource_change;
use ward_model::{Action, Importing, ResourceChange};

fn importing(mut c: ResourceChange) -> ResourceChange {
    c.importing = Some(Importing {
        id: Some("vol-1".into()),
    });
    c
}

fn imports_of(changes: &[ResourceChange]) -> Imports {
    let mut i = Imports::default();
    for (n, c) in changes.iter().enumerate() {
        i.add(n, c);
    }
    i
}

#[test]
fn the_gate_keeps_whether_anything_imports_and_what_is_refused() {
    let changes = [
        importing(resource_change("fakecloud_volume.a", Action::NoOp)),
        resource_change("fakecloud_volume.b", Action::Delete),
        resource_change("fakecloud_volume.c", Action::NoOp),
        resource_change("fakecloud_volume.d", Action::Create),
    ];
    assert_eq!(
        imports_of(&changes),
        Imports {
            any: true,
            refused: vec![1, 3]
        }
    );
    // An import seen once stays seen.
    let mut later = changes.to_vec();
    later.rotate_left(1);
    assert!(imports_of(&later).any);
    assert_eq!(
        imports_of(&changes[1..]),
        Imports {
            any: false,
            refused: vec![0, 2]
        }
    );
}

fn refusal(imports: &Imports, cwd: &std::path::Path) -> Option<String> {
    let lines =
        |at: &[usize]| -> Vec<String> { at.iter().map(|i| format!("change {i}")).collect() };
    let history = ward_store::Location::Sqlite(cwd.join("no-history.db"));
    refuse(imports, &lines, None, Some(&history), None, cwd).unwrap()
}

#[test]
fn a_plan_that_imports_takes_nothing_else() {
    let cwd = tempfile::tempdir().unwrap();
    let mixed = imports_of(&[
        importing(resource_change("fakecloud_volume.a", Action::NoOp)),
        resource_change("fakecloud_volume.b", Action::Delete),
    ]);
    assert_eq!(
        refusal(&mixed, cwd.path()).unwrap(),
        "error: this root is being adopted with `ward import` and has no acceptance yet: the gate refuses every change other than an import\n  refused: change 1\n  help: plan only the imports, accept them with `ward import accept`, then plan the managed changes on their own (see `ward docs import`)\n"
    );
    // Only imports: nothing to refuse.
    let only = imports_of(&[importing(resource_change(
        "fakecloud_volume.a",
        Action::NoOp,
    ))]);
    assert_eq!(refusal(&only, cwd.path()), None);
    // No import, no adoption recorded: a managed root, nothing refused.
    let managed = imports_of(&[resource_change("fakecloud_volume.b", Action::Delete)]);
    assert_eq!(refusal(&managed, cwd.path()), None);
}
