//! The objects the plan creates, by name, for the creates and updates that follow them.

use std::collections::HashMap;
use std::collections::HashSet;
use std::sync::Arc;
use ward_model::{ResourceChange, Shown};

/// The names of the objects the plan creates, read so far (changes are classified in plan
/// order, as the reader hands them over): for each created type, the planned values of its
/// name-like top-level attributes (`name`, `*_name`, `*_id` but `id`, and the attribute named
/// like the type's last word: `bucket` of `aws_s3_bucket`). A create of a type that overwrites
/// or changes an existing object, whose target names one of them (`bucket = "b"` after the plan
/// creates `google_storage_bucket` `b`), changes nothing that exists. Terraform writes
/// `resource_changes` sorted by address, so the root module's objects, and a type before the
/// longer types it prefixes (`aws_iam_role` before `aws_iam_role_policy_attachment`), come
/// first.
#[derive(Debug, Default)]
pub(crate) struct Created {
    names: HashMap<Arc<str>, HashSet<Box<str>>>,
}

impl Created {
    /// Records what a create names.
    pub(super) fn add(&mut self, type_name: &Arc<str>, c: &ResourceChange) {
        let last = type_name.rsplit('_').next().unwrap_or_default();
        for (k, shown) in &c.after_scalars {
            let name_like = k == "name"
                || k.ends_with("_name")
                || (k.ends_with("_id") && k != "id")
                || k == last;
            if let (true, Shown::Known(serde_json::Value::String(v))) = (name_like, shown) {
                if !v.is_empty() {
                    self.names
                        .entry(Arc::clone(type_name))
                        .or_default()
                        .insert(v.as_str().into());
                }
            }
        }
    }

    /// The type created earlier in the plan that a target of `type_name` names: one of the same
    /// provider prefix whose name ends with the target's stem (`bucket`, `role`, `function` of
    /// `function_name`, `dataset` of `dataset_id`) and that has `value` as a name.
    pub(super) fn named(&self, type_name: &str, target: &str, value: &str) -> Option<&str> {
        let prefix = type_name.split('_').next().unwrap_or_default();
        let stem = ["_id", "_name", "_arn"]
            .iter()
            .find_map(|s| target.strip_suffix(s))
            .unwrap_or(target);
        if stem.is_empty() || stem == "id" {
            return None;
        }
        let mut found: Vec<&str> = self
            .names
            .iter()
            .filter(|(t, values)| {
                t.strip_prefix(prefix)
                    .and_then(|rest| rest.strip_prefix('_'))
                    .is_some_and(|rest| rest == stem || rest.ends_with(&format!("_{stem}")))
                    && values.contains(value)
            })
            .map(|(t, _)| &**t)
            .collect();
        // Several types can match; the first by name keeps the explanation deterministic.
        found.sort_unstable();
        found.first().copied()
    }
}
