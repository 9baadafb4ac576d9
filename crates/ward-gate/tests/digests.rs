//! Digests, bindings and signatures pinned to their values, and the approvals file at its
//! edges: what an approval is bound to must not drift, and every refusal must hold (docs/testing.md,
//! "Mutation testing").
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use ward_gate::approvals::{self, ApprovalsFile, SignatureState};
use ward_gate::digest::{
    self, content_binding, content_matches, hex, hmac_hex, is_deciding, material, plan_digest,
    record_digest, sha256_json, sign_without_signature, DecidingAttr, CONTENT_M_COST,
    CONTENT_SCHEME, CONTENT_T_COST,
};
use ward_gate::testkit::{approval_for, attr, now, verdict, volume};
use ward_model::{Action, HiddenDigest, Impact, Plan, ResourceChange};

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
    assert_eq!(hex(&[0, 15, 255]), "000fff");
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
    let mut c = ResourceChange {
        address: address.into(),
        previous_address: None,
        module_address: None,
        mode: ward_model::Mode::Managed,
        type_name: "fakecloud_volume".into(),
        name: "x".into(),
        index: None,
        provider_name: "p".into(),
        deposed: None,
        action: Action::Delete,
        action_reason: None,
        replace_paths: vec![],
        changed: vec![],
        importing: None,
        content: None,
        before_scalars: vec![],
    };
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
