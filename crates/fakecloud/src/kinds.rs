//! fakecloud's resource types. Each reproduces a hazard ward must see in a real plan; the
//! schema is documented in this crate's README.md.

use crate::cloud::{Allocated, Cloud, Object};
use crate::generic::{attr, changed, map_of_strings, Kind, Str, Tags};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use tf_provider::schema::{Attribute, AttributeConstraint as C, AttributeType as T};
use tf_provider::value::Value;
use tf_provider::{AttributePath, Diagnostics};

/// The sizes an instance can have.
pub const SIZES: &[&str] = &["small", "medium", "large", "xlarge"];

fn replace_if(paths: &mut Vec<AttributePath>, name: &'static str, differs: bool) {
    if differs {
        paths.push(AttributePath::new(name));
    }
}

fn require_object(cloud: &Cloud, kind: &str, id: &Str, what: &str) -> Result<(), String> {
    if let Value::Value(id) = id {
        match cloud.get(kind, id)? {
            Some(_) => Ok(()),
            None => Err(format!(
                "{what} {id} does not exist in the cloud ({} is missing)",
                cloud.path(kind, id).display()
            )),
        }
    } else {
        Ok(())
    }
}

/// `fakecloud_network`: `cidr` forces replacement.
pub(crate) struct Network;

/// State of a `fakecloud_network`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct NetworkState {
    id: Str,
    name: Str,
    cidr: Str,
    tags: Tags,
}

/// Parses `a.b.c.d/n`.
fn valid_cidr(cidr: &str) -> bool {
    let Some((addr, len)) = cidr.split_once('/') else {
        return false;
    };
    addr.parse::<std::net::Ipv4Addr>().is_ok() && len.parse::<u8>().is_ok_and(|l| l <= 32)
}

impl Kind for Network {
    const TYPE: &'static str = "network";
    const PREFIX: &'static str = "net";
    type State = NetworkState;

    fn description() -> &'static str {
        "A network. Changing `cidr` forces replacement."
    }
    fn attributes() -> Vec<(&'static str, Attribute)> {
        vec![
            ("id", attr(T::String, C::Computed, "Network id (net-...).")),
            (
                "name",
                attr(T::String, C::Required, "Name; changes in place."),
            ),
            (
                "cidr",
                attr(
                    T::String,
                    C::Required,
                    "IPv4 range a.b.c.d/n; forces replacement.",
                ),
            ),
            (
                "tags",
                attr(
                    map_of_strings(),
                    C::Optional,
                    "Free-form tags; change in place.",
                ),
            ),
        ]
    }
    fn id(s: &NetworkState) -> &Str {
        &s.id
    }
    fn set_id(s: &mut NetworkState, id: Str) {
        s.id = id;
    }
    fn key(s: &NetworkState) -> String {
        s.name.as_ref_option().cloned().unwrap_or_default()
    }
    fn replace_paths(prior: &NetworkState, proposed: &NetworkState) -> Vec<AttributePath> {
        let mut paths = Vec::new();
        replace_if(&mut paths, "cidr", changed(&prior.cidr, &proposed.cidr));
        paths
    }
    fn validate(diags: &mut Diagnostics, config: &NetworkState) {
        if let Value::Value(cidr) = &config.cidr {
            if !valid_cidr(cidr) {
                diags.error(
                    "Invalid cidr",
                    format!(
                        "{cidr:?} is not an IPv4 range: write it as a.b.c.d/n, e.g. 10.0.0.0/16."
                    ),
                    AttributePath::new("cidr"),
                );
            }
        }
    }
}

/// `fakecloud_instance`: `image` and `network_id` force replacement; a `size` change is in
/// place but restarts the instance (the cloud counts `restarts`).
pub(crate) struct Instance;

/// State of a `fakecloud_instance`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct InstanceState {
    id: Str,
    name: Str,
    size: Str,
    image: Str,
    network_id: Str,
    tags: Tags,
    admin_password: Str,
    ip: Str,
    mac: Str,
}

impl Kind for Instance {
    const TYPE: &'static str = "instance";
    const PREFIX: &'static str = "i";
    type State = InstanceState;

    fn description() -> &'static str {
        "A virtual machine. `image` and `network_id` force replacement; `size` changes in place with a restart."
    }
    fn attributes() -> Vec<(&'static str, Attribute)> {
        let mut password = attr(
            T::String,
            C::Optional,
            "Administrator password; sensitive; changes in place.",
        );
        password.sensitive = true;
        vec![
            ("id", attr(T::String, C::Computed, "Instance id (i-...).")),
            (
                "name",
                attr(T::String, C::Required, "Name; changes in place."),
            ),
            (
                "size",
                attr(
                    T::String,
                    C::Required,
                    "small, medium, large or xlarge; changes in place but restarts the instance.",
                ),
            ),
            (
                "image",
                attr(T::String, C::Required, "Boot image; forces replacement."),
            ),
            (
                "network_id",
                attr(
                    T::String,
                    C::Optional,
                    "Network to attach to; forces replacement.",
                ),
            ),
            (
                "tags",
                attr(
                    map_of_strings(),
                    C::Optional,
                    "Free-form tags; change in place.",
                ),
            ),
            ("admin_password", password),
            (
                "ip",
                attr(
                    T::String,
                    C::Computed,
                    "Private IPv4 address; new on replacement.",
                ),
            ),
            (
                "mac",
                attr(T::String, C::Computed, "MAC address; new on replacement."),
            ),
        ]
    }
    fn id(s: &InstanceState) -> &Str {
        &s.id
    }
    fn set_id(s: &mut InstanceState, id: Str) {
        s.id = id;
    }
    fn key(s: &InstanceState) -> String {
        s.name.as_ref_option().cloned().unwrap_or_default()
    }
    fn mark_unknown(s: &mut InstanceState) {
        s.ip = Value::Unknown;
        s.mac = Value::Unknown;
    }
    fn replace_paths(prior: &InstanceState, proposed: &InstanceState) -> Vec<AttributePath> {
        let mut paths = Vec::new();
        replace_if(&mut paths, "image", changed(&prior.image, &proposed.image));
        replace_if(
            &mut paths,
            "network_id",
            changed(&prior.network_id, &proposed.network_id),
        );
        paths
    }
    fn validate(diags: &mut Diagnostics, config: &InstanceState) {
        if let Value::Value(size) = &config.size {
            if !SIZES.contains(&size.as_str()) {
                diags.error(
                    "Invalid instance size",
                    format!(
                        "{size:?} is not a fakecloud size: use one of {}.",
                        SIZES.join(", ")
                    ),
                    AttributePath::new("size"),
                );
            }
        }
    }
    fn on_create(
        cloud: &Cloud,
        alloc: &Allocated,
        s: &mut InstanceState,
        extra: &mut Object,
    ) -> Result<(), String> {
        require_object(cloud, "network", &s.network_id, "network")?;
        s.ip = Value::Value(alloc.ip.clone());
        s.mac = Value::Value(alloc.mac.clone());
        extra.insert("restarts".into(), Json::from(0));
        Ok(())
    }
    fn on_update(prior: &InstanceState, planned: &InstanceState, obj: &mut Object) {
        if prior.size != planned.size {
            let restarts = obj.get("restarts").and_then(Json::as_u64).unwrap_or(0) + 1;
            obj.insert("restarts".into(), Json::from(restarts));
        }
    }
}

/// `fakecloud_volume`: holds data; `size_gb` grows in place, a shrink forces replacement.
pub(crate) struct Volume;

/// State of a `fakecloud_volume`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct VolumeState {
    id: Str,
    name: Str,
    size_gb: Value<i64>,
    tags: Tags,
}

impl Kind for Volume {
    const TYPE: &'static str = "volume";
    const PREFIX: &'static str = "vol";
    type State = VolumeState;

    fn description() -> &'static str {
        "A block volume holding data. `size_gb` grows in place; shrinking it forces replacement (the data is lost)."
    }
    fn attributes() -> Vec<(&'static str, Attribute)> {
        vec![
            ("id", attr(T::String, C::Computed, "Volume id (vol-...).")),
            (
                "name",
                attr(T::String, C::Required, "Name; changes in place."),
            ),
            (
                "size_gb",
                attr(
                    T::Number,
                    C::Required,
                    "Size in GiB; growing is in place, shrinking forces replacement.",
                ),
            ),
            (
                "tags",
                attr(
                    map_of_strings(),
                    C::Optional,
                    "Free-form tags; change in place.",
                ),
            ),
        ]
    }
    fn id(s: &VolumeState) -> &Str {
        &s.id
    }
    fn set_id(s: &mut VolumeState, id: Str) {
        s.id = id;
    }
    fn key(s: &VolumeState) -> String {
        s.name.as_ref_option().cloned().unwrap_or_default()
    }
    fn replace_paths(prior: &VolumeState, proposed: &VolumeState) -> Vec<AttributePath> {
        let mut paths = Vec::new();
        let shrink = match (&prior.size_gb, &proposed.size_gb) {
            (Value::Value(old), Value::Value(new)) => new < old,
            // Unknown new size: it may shrink.
            (Value::Value(_), Value::Unknown) => true,
            _ => false,
        };
        replace_if(&mut paths, "size_gb", shrink);
        paths
    }
    fn validate(diags: &mut Diagnostics, config: &VolumeState) {
        if let Value::Value(size) = config.size_gb {
            if size < 1 {
                diags.error(
                    "Invalid volume size",
                    format!("size_gb = {size}: a volume holds at least 1 GiB."),
                    AttributePath::new("size_gb"),
                );
            }
        }
    }
}

/// `fakecloud_attachment`: attaches a volume to an instance; both ids force replacement.
pub(crate) struct Attachment;

/// State of a `fakecloud_attachment`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct AttachmentState {
    id: Str,
    instance_id: Str,
    volume_id: Str,
}

impl Kind for Attachment {
    const TYPE: &'static str = "attachment";
    const PREFIX: &'static str = "att";
    type State = AttachmentState;

    fn description() -> &'static str {
        "Attaches a volume to an instance. Changing either id forces replacement."
    }
    fn attributes() -> Vec<(&'static str, Attribute)> {
        vec![
            (
                "id",
                attr(T::String, C::Computed, "Attachment id (att-...)."),
            ),
            (
                "instance_id",
                attr(T::String, C::Required, "Instance id; forces replacement."),
            ),
            (
                "volume_id",
                attr(T::String, C::Required, "Volume id; forces replacement."),
            ),
        ]
    }
    fn id(s: &AttachmentState) -> &Str {
        &s.id
    }
    fn set_id(s: &mut AttachmentState, id: Str) {
        s.id = id;
    }
    fn key(s: &AttachmentState) -> String {
        format!(
            "{}+{}",
            s.instance_id.as_ref_option().cloned().unwrap_or_default(),
            s.volume_id.as_ref_option().cloned().unwrap_or_default()
        )
    }
    fn replace_paths(prior: &AttachmentState, proposed: &AttachmentState) -> Vec<AttributePath> {
        let mut paths = Vec::new();
        replace_if(
            &mut paths,
            "instance_id",
            changed(&prior.instance_id, &proposed.instance_id),
        );
        replace_if(
            &mut paths,
            "volume_id",
            changed(&prior.volume_id, &proposed.volume_id),
        );
        paths
    }
    fn on_create(
        cloud: &Cloud,
        _alloc: &Allocated,
        s: &mut AttachmentState,
        _extra: &mut Object,
    ) -> Result<(), String> {
        require_object(cloud, "instance", &s.instance_id, "instance")?;
        require_object(cloud, "volume", &s.volume_id, "volume")
    }
}

/// `fakecloud_bucket`: holds data (the cloud-only `objects` list); `name` forces replacement;
/// destroying a non-empty bucket fails unless `force_destroy` is true.
pub(crate) struct Bucket;

/// State of a `fakecloud_bucket`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct BucketState {
    id: Str,
    name: Str,
    force_destroy: Value<bool>,
    tags: Tags,
}

impl Kind for Bucket {
    const TYPE: &'static str = "bucket";
    const PREFIX: &'static str = "bkt";
    type State = BucketState;

    fn description() -> &'static str {
        "An object store bucket holding data. `name` forces replacement; a non-empty bucket is only destroyed with force_destroy = true."
    }
    fn attributes() -> Vec<(&'static str, Attribute)> {
        vec![
            ("id", attr(T::String, C::Computed, "Bucket id (bkt-...).")),
            (
                "name",
                attr(T::String, C::Required, "Bucket name; forces replacement."),
            ),
            (
                "force_destroy",
                attr(
                    T::Bool,
                    C::Optional,
                    "Destroy even when the bucket holds objects (default false); changes in place.",
                ),
            ),
            (
                "tags",
                attr(
                    map_of_strings(),
                    C::Optional,
                    "Free-form tags; change in place.",
                ),
            ),
        ]
    }
    fn id(s: &BucketState) -> &Str {
        &s.id
    }
    fn set_id(s: &mut BucketState, id: Str) {
        s.id = id;
    }
    fn key(s: &BucketState) -> String {
        s.name.as_ref_option().cloned().unwrap_or_default()
    }
    fn replace_paths(prior: &BucketState, proposed: &BucketState) -> Vec<AttributePath> {
        let mut paths = Vec::new();
        replace_if(&mut paths, "name", changed(&prior.name, &proposed.name));
        paths
    }
    fn on_create(
        _cloud: &Cloud,
        _alloc: &Allocated,
        _s: &mut BucketState,
        extra: &mut Object,
    ) -> Result<(), String> {
        extra.insert("objects".into(), Json::Array(Vec::new()));
        Ok(())
    }
    fn on_destroy(obj: &Object) -> Result<(), String> {
        let objects = obj
            .get("objects")
            .and_then(Json::as_array)
            .map_or(0, Vec::len);
        let force = obj
            .get("force_destroy")
            .and_then(Json::as_bool)
            .unwrap_or(false);
        if objects > 0 && !force {
            let name = obj.get("name").and_then(Json::as_str).unwrap_or("?");
            return Err(format!(
                "bucket {name:?} holds {objects} object(s). Set force_destroy = true and apply before destroying it, or empty it first."
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn cidr_validation() {
        assert!(valid_cidr("10.0.0.0/16"));
        assert!(!valid_cidr("10.0.0.0"));
        assert!(!valid_cidr("10.0.0.0/33"));
        assert!(!valid_cidr("ten/8"));
    }

    #[test]
    fn volume_shrink_forces_replacement_grow_does_not() {
        let at = |n| VolumeState {
            size_gb: Value::Value(n),
            ..Default::default()
        };
        assert!(Volume::replace_paths(&at(10), &at(20)).is_empty());
        assert_eq!(Volume::replace_paths(&at(20), &at(10)).len(), 1);
    }

    #[test]
    fn non_empty_bucket_refuses_destroy_without_force() {
        let mut obj = Object::new();
        obj.insert("name".into(), Json::from("ledger"));
        obj.insert("objects".into(), Json::from(vec!["a"]));
        assert!(Bucket::on_destroy(&obj)
            .unwrap_err()
            .contains("holds 1 object"));
        obj.insert("force_destroy".into(), Json::from(true));
        assert!(Bucket::on_destroy(&obj).is_ok());
    }
}
