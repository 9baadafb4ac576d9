//! The managed ids a state holds, with the root they belong to and their index keys (two mutants
//! of `state::managed_ids` survived the crate's tests: docs/testing.md).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use ward_import::state::managed_ids;

#[test]
fn ids_are_kept_with_their_root_and_count_and_for_each_keys() {
    let state = json!({"version": 4, "resources": [
        {"mode": "managed", "type": "fakecloud_a", "name": "x", "module": "module.m",
         "instances": [{"index_key": 0, "attributes": {"id": "i-0"}},
                       {"index_key": "k", "attributes": {"id": "i-k"}}]}
    ]});
    let m = managed_ids("live/a", &state).unwrap();
    assert_eq!(m.root, "live/a");
    let addrs: Vec<&str> = m.ids.values().map(String::as_str).collect();
    assert_eq!(
        addrs,
        ["module.m.fakecloud_a.x[0]", "module.m.fakecloud_a.x[\"k\"]"]
    );
}
