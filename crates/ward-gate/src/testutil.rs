//! Hand-built verdicts for unit tests.

use ward_classify::{AttrVerdict, Verdict};
use ward_model::{Action, AttrChange, AttrPath, Impact, Mode, PathStep, Shown};

pub fn verdict(address: &str, action: Action, impact: Impact) -> Verdict {
    let type_name = address.rsplit('.').nth(1).unwrap_or("t").into();
    Verdict {
        address: address.to_string(),
        deposed: None,
        mode: Mode::Managed,
        type_name,
        provider_name: "registry.terraform.io/example/fakecloud".into(),
        action,
        action_reason: None,
        impact,
        classified: true,
        decided_by: None,
        explanation: vec![],
        attributes: vec![],
        identity_changes: vec![],
        holds_data: false,
        facts: vec![],
        destroyed_object: None,
    }
}

pub fn attr(
    path: &str,
    before: serde_json::Value,
    after: serde_json::Value,
    impact: Impact,
    forces: bool,
) -> AttrVerdict {
    AttrVerdict {
        change: AttrChange {
            path: AttrPath(vec![PathStep::Key(path.into())]),
            before: Shown::Known(before),
            after: Shown::Known(after),
            hidden: None,
        },
        impact,
        rule: None,
        why: None,
        forces_replacement: forces,
    }
}
