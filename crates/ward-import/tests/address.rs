//! Resource addresses as an inventory writes them: what a name may hold.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use ward_import::address::Address;

/// Terraform's names take a dash after their first character (`my-app`), in a resource's name
/// and in a module call's, and the address keeps it.
#[test]
fn a_name_holds_a_dash_after_its_first_character() {
    for a in [
        "fakecloud_instance.my-app",
        "fakecloud_instance.a-b-c[0]",
        "module.edge-eu.fakecloud_network.main",
        "module.edge-eu[\"k\"].fakecloud_instance.web-1",
    ] {
        let parsed = Address::parse(a).unwrap_or_else(|e| panic!("{a}: {e}"));
        assert_eq!(parsed.to_string(), a);
    }
    let parsed = Address::parse("module.edge-eu.fakecloud_instance.my-app").unwrap();
    assert_eq!(parsed.modules[0].0, "edge-eu");
    assert_eq!(parsed.name, "my-app");
}

/// A name never starts with a dash (nor does a module call's): the address is refused, saying
/// where.
#[test]
fn a_name_never_starts_with_a_dash() {
    for a in [
        "fakecloud_instance.-app",
        "module.-m.fakecloud_instance.app",
        "-fakecloud_instance.app",
    ] {
        let e = Address::parse(a).unwrap_err();
        assert!(e.contains("`-` where a name was expected"), "{a}: {e}");
    }
}
