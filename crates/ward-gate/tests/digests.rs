//! Digests, bindings and signatures pinned to their values, the approvals file and the gate
//! record (what `ward verify` compares) at their edges: what an approval is bound to must not drift, and every refusal must hold (docs/testing.md,
//! "Mutation testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use ward_gate::approvals::{self, ApprovalsFile, SignatureState};
use ward_gate::digest::{
    self, content_binding, content_matches, hmac_hex, is_deciding, material, plan_digest,
    record_digest, sha256_json, sign_without_signature, DecidingAttr, CONTENT_M_COST,
    CONTENT_SCHEME, CONTENT_T_COST,
};
use ward_gate::testkit::{approval_for, attr, now, resource_change, verdict, volume};
use ward_gate::{record, verify, Outcome};
use ward_model::{Action, Exit, HiddenDigest, Impact, Plan, ResourceChange};

#[test]
fn the_canonical_hash_of_a_value_is_pinned() {
    // Keys sorted at every level, compact: sha256 of {"a":[{"c":2,"d":1}],"b":1}.
    let v = json!({"b": 1, "a": [{"d": 1, "c": 2}]});
    assert_eq!(
        sha256_json(&v),
        "sha256:af94ade43ccb3c3721fc7e9cbe535985701186147475d5874567a37d66a875a1"
    );
    assert_eq!(
        digest::canonical_bytes(&v),
        br#"{"a":[{"c":2,"d":1}],"b":1}"#.to_vec()
    );
}

#[test]
fn hmac_is_hmac_sha256() {
    // The RFC 2104 example every HMAC-SHA256 implementation reproduces.
    assert_eq!(
        hmac_hex(b"key", b"The quick brown fox jumps over the lazy dog").unwrap(),
        "hmac-sha256:f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
    );
    let h = HiddenDigest::new([3; 32]);
    assert_eq!(
        digest::bind(b"key", &h).unwrap(),
        hmac_hex(b"key", &[3; 32]).unwrap()
    );
}

#[test]
fn a_signature_leaves_out_the_signature_member() {
    let with = json!({"a": 1, "signature": "hmac-sha256:00"});
    let without = json!({"a": 1});
    let s = sign_without_signature(with, b"k");
    assert_eq!(s, sign_without_signature(without.clone(), b"k"));
    assert_eq!(s, hmac_hex(b"k", br#"{"a":1}"#).unwrap());
    assert_ne!(s, sign_without_signature(without, b"other"));
}

#[test]
fn a_hidden_deciding_value_is_bound_only_under_a_key() {
    let mut v = volume(10);
    v.attributes[0].change.hidden = Some(HiddenDigest::new([9; 32]));
    let keyless = material(&v, None);
    assert_eq!(keyless.attributes.len(), 1);
    assert_eq!(keyless.attributes[0].binding, None);
    assert_eq!(keyless.attributes[0].path, "size_gb");
    assert_eq!(
        keyless.attributes[0].before,
        json!({"kind": "known", "value": 20})
    );
    assert_eq!(keyless.attributes[0].describe(), "size_gb: 20 → 10");
    assert_eq!(keyless.action, "delete,create");
    assert_eq!(keyless.object, None);
    let keyed = material(&v, Some(b"k"));
    assert_eq!(
        keyed.attributes[0].binding,
        Some(hmac_hex(b"k", &[9; 32]).unwrap())
    );
    assert_ne!(
        digest::digest_material(&keyless),
        digest::digest_material(&keyed)
    );
    assert_eq!(
        digest::approval_digest(&v, Some(b"k")),
        digest::digest_material(&keyed)
    );
}

#[test]
fn which_attributes_decide_a_class() {
    let forcing = attr("a", json!(1), json!(2), Impact::Free, true);
    let free = attr("a", json!(1), json!(2), Impact::Free, false);
    let costly = attr("a", json!(1), json!(2), Impact::Interrupt, false);
    for action in [Action::ReplaceDeleteFirst, Action::ReplaceCreateFirst] {
        assert!(is_deciding(action, Impact::Replace, &forcing));
        assert!(!is_deciding(action, Impact::Interrupt, &costly));
    }
    assert!(is_deciding(Action::Update, Impact::Interrupt, &costly));
    assert!(!is_deciding(Action::Update, Impact::InPlace, &costly));
    // A free update: nothing decides it, not even its free attributes.
    assert!(!is_deciding(Action::Update, Impact::Free, &free));
    assert!(!is_deciding(Action::Delete, Impact::Interrupt, &costly));
    assert!(!is_deciding(Action::Delete, Impact::Replace, &forcing));
}

#[test]
fn a_deciding_attribute_describes_each_kind_of_value() {
    let d = |before: serde_json::Value, after: serde_json::Value| DecidingAttr {
        path: "p".into(),
        before,
        after,
        binding: None,
    };
    let known = json!({"kind": "known", "value": "x"});
    let secret = json!({"kind": "sensitive"});
    assert_eq!(
        d(known.clone(), json!({"kind": "unknown"})).describe(),
        "p: \"x\" → (known after apply)"
    );
    assert_eq!(
        d(json!({"kind": "absent"}), secret.clone()).describe(),
        "p: null → (sensitive)"
    );
    assert_eq!(d(json!(7), known.clone()).describe(), "p: 7 → \"x\"");
    assert!(d(secret.clone(), known.clone()).is_sensitive());
    assert!(d(known.clone(), secret).is_sensitive());
    assert!(!d(known.clone(), known).is_sensitive());
    assert!(!d(json!({"kind": "unknown"}), json!({"kind": "absent"})).is_sensitive());
}

fn change(address: &str, content: Option<[u8; 32]>) -> ResourceChange {
    let mut c = resource_change(address, Action::Delete);
    c.content = content.map(HiddenDigest::new);
    c
}

#[test]
fn a_record_digest_binds_the_content_only_under_a_key() {
    let a = change("fakecloud_volume.a", Some([1; 32]));
    let b = change("fakecloud_volume.a", Some([2; 32]));
    // Without a key: the full digest, blind to the content.
    assert_eq!(record_digest(&a, None), digest::full_digest(&a));
    assert_eq!(record_digest(&a, None), record_digest(&b, None));
    // With a key: bound to it.
    assert_ne!(record_digest(&a, Some(b"k")), record_digest(&b, Some(b"k")));
    assert_ne!(record_digest(&a, Some(b"k")), digest::full_digest(&a));
    assert_ne!(record_digest(&a, Some(b"k")), record_digest(&a, Some(b"j")));
    // No content: the full digest, key or not.
    let c = change("fakecloud_volume.a", None);
    assert_eq!(record_digest(&c, Some(b"k")), digest::full_digest(&c));
}

#[test]
fn a_plan_digest_covers_every_change_in_any_order() {
    let a = change("fakecloud_volume.a", None);
    let b = change("fakecloud_volume.b", None);
    let p = |cs: Vec<ResourceChange>| Plan {
        changes: cs,
        ..Plan::default()
    };
    let ab = plan_digest(&p(vec![a.clone(), b.clone()]));
    assert!(ab.starts_with("sha256:") && ab.len() == 71, "{ab}");
    assert_eq!(ab, plan_digest(&p(vec![b.clone(), a.clone()])));
    assert_ne!(ab, plan_digest(&p(vec![a.clone()])));
    let mut b2 = b;
    b2.action = Action::ReplaceDeleteFirst;
    assert_ne!(ab, plan_digest(&p(vec![a, b2])));
}

#[test]
fn the_content_scheme_names_the_parameters_it_uses() {
    assert_eq!(
        CONTENT_SCHEME,
        format!("argon2id-v19-m{CONTENT_M_COST}-t{CONTENT_T_COST}-p1")
    );
    assert_eq!(CONTENT_M_COST, 65536);
}

#[test]
fn a_content_binding_matches_exactly_its_plan() {
    let p = |content: [u8; 32]| Plan {
        changes: vec![change("fakecloud_volume.a", Some(content))],
        ..Plan::default()
    };
    let binding = content_binding(&p([1; 32])).unwrap();
    let parts: Vec<&str> = binding.split(':').collect();
    assert_eq!(parts.len(), 3, "{binding}");
    assert_eq!(parts[0], CONTENT_SCHEME);
    assert_eq!(parts[1].len(), 32);
    assert_eq!(parts[2].len(), 64);
    assert!(parts[1..]
        .iter()
        .all(|h| h.bytes().all(|b| b.is_ascii_hexdigit())));
    assert_eq!(content_matches(&binding, &p([1; 32])), Ok(true));
    assert_eq!(content_matches(&binding, &p([2; 32])), Ok(false));
    // A fresh salt each time.
    assert_ne!(binding, content_binding(&p([1; 32])).unwrap());
    // A binding this ward did not write is refused.
    let salt = parts[1];
    let hash = parts[2];
    for bad in [
        format!("argon2id-v19-m1-t1-p1:{salt}:{hash}"),
        format!("{CONTENT_SCHEME}{salt}:{hash}"),
        format!("{CONTENT_SCHEME}:{salt}{hash}"),
        format!("{CONTENT_SCHEME}:{}:{hash}", &salt[1..]),
        format!("{CONTENT_SCHEME}:{}:{hash}", &salt[2..]),
        format!("{CONTENT_SCHEME}:{salt}00:{hash}"),
        format!("{CONTENT_SCHEME}:{salt}:{}", &hash[2..]),
        format!("{CONTENT_SCHEME}:zz{}:{hash}", &salt[2..]),
        // Two characters Rust's integer parser takes as a byte, `+` and a digit: not hex.
        format!("{CONTENT_SCHEME}:+{}:{hash}", &salt[1..]),
        format!("{CONTENT_SCHEME}:{salt}:+{}", &hash[1..]),
    ] {
        let e = content_matches(&bad, &p([1; 32])).unwrap_err();
        assert!(e.contains("not one this ward writes"), "{bad}: {e}");
    }
}

#[test]
fn a_signature_with_two_bytes_swapped_is_invalid() {
    let mut a = approval_for(&volume(10), None);
    a.sign(b"k");
    let sig = a.signature.clone().unwrap();
    assert_eq!(a.signature_state(Some(b"k")), SignatureState::Valid);
    // Find two adjacent different hex digits and swap them: the differences cancel in an XOR
    // of the bytes, not in an OR.
    let bytes = sig.as_bytes();
    let i = (12..bytes.len() - 1)
        .find(|&i| bytes[i] != bytes[i + 1])
        .unwrap();
    let mut swapped = bytes.to_vec();
    swapped.swap(i, i + 1);
    a.signature = Some(String::from_utf8(swapped).unwrap());
    assert_eq!(a.signature_state(Some(b"k")), SignatureState::Invalid);
    // Shorter: invalid.
    a.signature = Some(sig[..sig.len() - 1].to_string());
    assert_eq!(a.signature_state(Some(b"k")), SignatureState::Invalid);
}

#[test]
fn an_approval_dated_now_is_not_from_the_future() {
    let mut f = ApprovalsFile::default();
    let mut a = approval_for(&volume(10), None);
    a.approved_at = now().to_string();
    f.approvals.push(a);
    approvals::check_not_future(&f, now(), "f").unwrap();
    let mut later = f.clone();
    later.approvals[0].approved_at = "2026-11-29T18:00:01Z".into();
    let e = approvals::check_not_future(&later, now(), "f").unwrap_err();
    assert!(e.to_string().contains("from the future"), "{e}");
}

#[test]
fn approvals_are_saved_and_loaded_and_a_missing_file_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".ward/approvals.json");
    assert_eq!(
        approvals::load(&path).unwrap(),
        ApprovalsFile::default(),
        "a missing file is no approvals"
    );
    let mut f = ApprovalsFile::default();
    f.approvals.push(approval_for(&volume(10), None));
    f.approvals.push(approval_for(
        &verdict("a.b", Action::Delete, Impact::Replace),
        None,
    ));
    approvals::save(&path, &f).unwrap();
    let back = approvals::load(&path).unwrap();
    assert_eq!(back.approvals.len(), 2);
    assert_eq!(back.approvals[0].address, "a.b");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        approvals::render(&f)
    );
    // A path that is not a readable file is an error, not an empty set.
    let e = approvals::load(dir.path()).unwrap_err();
    assert!(e.to_string().contains("read the approvals file"), "{e}");
    // An expiry that does not parse is refused when the file is read.
    let mut bad = f.clone();
    bad.approvals[0].expires_at = Some("tomorrow".into());
    let e = approvals::parse(&approvals::render(&bad), "f").unwrap_err();
    assert!(e.to_string().contains("expires_at"), "{e}");
}

fn plan_of(changes: Vec<ResourceChange>) -> Plan {
    Plan {
        terraform_version: Some("1.15.5".into()),
        changes,
        ..Plan::default()
    }
}

fn two_changes() -> Vec<ResourceChange> {
    let mut dep = change("fakecloud_volume.b", Some([2; 32]));
    dep.deposed = Some("00ab".into());
    vec![change("fakecloud_volume.a", Some([1; 32])), dep]
}

#[test]
fn a_gate_record_verifies_exactly_its_plan() {
    let gated = plan_of(two_changes());
    let r = record::build(&gated, "plan.json", Outcome::Pass);
    assert_eq!(r.version, 1);
    assert_eq!(r.plan, "plan.json");
    assert_eq!(r.terraform_version.as_deref(), Some("1.15.5"));
    assert_eq!(r.changes.len(), 2);
    assert_eq!(r.changes, record::changes_of(&gated));
    assert!(r.content.is_some() && r.signature.is_none());
    let ok = verify::compare(&r, &gated);
    assert!(ok.ok, "{:?}", ok.differences);
    assert_eq!(ok.changes, 2);
    assert_eq!(ok.exit(), Exit::Pass);
    assert_eq!(verify::default_binary(&r), "terraform");

    // A change gone, one added, one acting otherwise, one changed in what it shows.
    let mut other = two_changes();
    other.remove(1);
    other[0].action = Action::ReplaceDeleteFirst;
    other.push(change("fakecloud_volume.c", None));
    let report = verify::compare(&r, &plan_of(other));
    assert!(!report.ok);
    assert_eq!(report.exit(), Exit::Fail);
    assert_eq!(
        report.differences,
        [
            "fakecloud_volume.a: gated as delete, the saved plan does delete,create",
            "fakecloud_volume.b (deposed 00ab): gated (delete), absent from the saved plan",
            "fakecloud_volume.c: in the saved plan (delete), never gated",
        ]
    );
    let mut shown = two_changes();
    shown[0].action_reason = Some("delete_because_no_resource_config".into());
    let report = verify::compare(&r, &plan_of(shown));
    assert_eq!(report.differences.len(), 1, "{:?}", report.differences);
    assert!(report.differences[0]
        .starts_with("fakecloud_volume.a: the change differs from the gated one (sha256:"));

    // Only a hidden value differs: the content binding tells.
    let mut hidden = two_changes();
    hidden[1].content = Some(HiddenDigest::new([3; 32]));
    let report = verify::compare(&r, &plan_of(hidden));
    assert_eq!(report.differences.len(), 1);
    assert!(report.differences[0].contains("values the report does not show"));
    // A record without a binding (an older ward) does not verify.
    let mut old = r.clone();
    old.content = None;
    let report = verify::compare(&old, &gated);
    assert!(report.differences[0].contains("written by an older ward"));
    let mut edited = r.clone();
    edited.content = Some("argon2id-v19-m1-t1-p1:00:00".into());
    assert!(verify::compare(&edited, &gated).differences[0].contains("not one this ward writes"));

    // Not passed, or another version.
    let blocked = record::build(&gated, "plan.json", Outcome::ApprovalRequired);
    let report = verify::compare(&blocked, &gated);
    assert_eq!(report.gated_outcome, Outcome::ApprovalRequired);
    assert_eq!(report.differences.len(), 1);
    assert!(report.differences[0].starts_with("the gate did not pass this plan"));
    let mut newer = gated.clone();
    newer.terraform_version = Some("1.16.0".into());
    assert_eq!(
        verify::compare(&r, &newer).differences,
        ["the gated plan was written by version 1.15.5, the saved plan by 1.16.0"]
    );
}

#[test]
fn a_keyed_record_is_signed_and_binds_every_value() {
    let gated = plan_of(two_changes());
    let r = record::build_keyed(&gated, "plan.json", Outcome::Pass, Some(b"k"));
    assert!(r.content.is_none());
    assert_eq!(r.signature, Some(r.compute_signature(b"k")));
    r.check_signature(b"k").unwrap();
    assert!(verify::compare_keyed(&r, &gated, Some(b"k")).ok);
    assert_eq!(
        r.changes,
        record::changes_of_keyed(&gated, Some(b"k")),
        "the record's digests are the keyed ones"
    );
    assert_ne!(r.changes, record::changes_of(&gated));
    // Another key, an edit, no signature: refused.
    assert!(r
        .check_signature(b"j")
        .unwrap_err()
        .contains("does not match"));
    let mut edited = r.clone();
    edited.plan = "other.json".into();
    assert!(!verify::compare_keyed(&edited, &gated, Some(b"k")).ok);
    let mut unsigned = r.clone();
    unsigned.signature = None;
    assert!(unsigned
        .check_signature(b"k")
        .unwrap_err()
        .contains("not signed"));
    // That is the one difference: with the key, the keyless content binding is not asked for.
    let report = verify::compare_keyed(&unsigned, &gated, Some(b"k"));
    assert_eq!(report.differences.len(), 1, "{:?}", report.differences);
    assert!(report.differences[0].contains("not signed"));
    // A hidden value changed: the keyed digest differs.
    let mut hidden = two_changes();
    hidden[0].content = Some(HiddenDigest::new([7; 32]));
    let report = verify::compare_keyed(&r, &plan_of(hidden), Some(b"k"));
    assert_eq!(report.differences.len(), 1, "{:?}", report.differences);
    assert!(report.differences[0].starts_with("fakecloud_volume.a: the change differs"));
}

#[test]
fn digests_read_change_by_change_verify_as_the_whole_plan() {
    let gated = plan_of(two_changes());
    let r = record::build(&gated, "plan.json", Outcome::Pass);
    let mut d = record::Digests::new();
    assert!(d.is_empty());
    assert_eq!(d.len(), 0);
    for c in &gated.changes {
        d.add(c, None);
    }
    assert!(!d.is_empty());
    assert_eq!(d.len(), 2);
    let rest = plan_of(vec![]);
    let report = verify::compare_digests(&r, &rest, d, None);
    assert!(report.ok, "{:?}", report.differences);
    assert_eq!(report.changes, 2);
    let whole = record::Digests::of_plan(&gated, None);
    assert_eq!(whole.len(), 2);
    assert_eq!(whole.into_changes(), r.changes);
}

#[test]
fn a_gate_record_is_saved_and_loaded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gate.json");
    let mut r = record::build(&plan_of(two_changes()), "plan.json", Outcome::Pass);
    r.product = "opentofu".into();
    assert_eq!(verify::default_binary(&r), "tofu");
    record::save(&path, &r).unwrap();
    assert!(std::fs::read_to_string(&path).unwrap().ends_with("}\n"));
    assert_eq!(record::load(&path).unwrap(), r);
    let mut v2 = serde_json::to_value(&r).unwrap();
    v2["version"] = json!(2);
    std::fs::write(&path, v2.to_string()).unwrap();
    let e = record::load(&path).unwrap_err().to_string();
    assert!(e.contains("version 2"), "{e}");
    assert!(record::load(&dir.path().join("none.json")).is_err());
}
