//! One generic Terraform resource implementation over the JSON-file cloud; each resource type
//! ([`crate::kinds`]) only says what differs: its schema, what forces replacement, what happens on
//! create, update and destroy.

use crate::cloud::{Allocated, Cloud, Object};
use async_trait::async_trait;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use tf_provider::schema::{Attribute, AttributeConstraint, AttributeType, Description, Schema};
use tf_provider::value::{Value, ValueEmpty};
use tf_provider::{AttributePath, Diagnostics, Resource};

/// A string attribute.
pub(crate) type Str = Value<String>;
/// A `map(string)` attribute such as `tags`.
pub(crate) type Tags = Value<BTreeMap<String, Value<String>>>;

/// The environment variable naming the cloud directory when the provider block has no
/// `state_dir`.
pub const ENV_DIR: &str = "FAKECLOUD_DIR";

/// Provider configuration shared by every resource: where the cloud is.
#[derive(Debug, Clone, Default)]
pub(crate) struct Config {
    dir: Arc<RwLock<Option<PathBuf>>>,
}

impl Config {
    pub(crate) fn set(&self, dir: PathBuf) {
        let mut guard = self.dir.write().unwrap_or_else(|p| p.into_inner());
        *guard = Some(dir);
    }

    /// The cloud: `state_dir` from the provider block, else `FAKECLOUD_DIR`.
    pub(crate) fn cloud(&self, diags: &mut Diagnostics) -> Option<Cloud> {
        let configured = self.dir.read().unwrap_or_else(|p| p.into_inner()).clone();
        let dir = match configured {
            Some(dir) => dir,
            None => match std::env::var_os(ENV_DIR) {
                Some(dir) if !dir.is_empty() => PathBuf::from(dir),
                _ => {
                    diags.root_error(
                        "fakecloud has no cloud directory",
                        format!("Set `state_dir` in the `provider \"fakecloud\"` block, or the environment variable {ENV_DIR}, to the directory that holds the fake cloud's JSON files."),
                    );
                    return None;
                }
            },
        };
        match Cloud::open(dir) {
            Ok(cloud) => Some(cloud),
            Err(e) => {
                diags.root_error("fakecloud cannot open its cloud directory", e);
                None
            }
        }
    }
}

/// What one resource type of fakecloud is.
pub(crate) trait Kind: Send + Sync + 'static {
    /// The type name without the provider prefix, also the cloud sub-directory: `instance`.
    const TYPE: &'static str;
    /// The start of every id of this type: `i`.
    const PREFIX: &'static str;
    /// The Terraform state of one object (every attribute of the schema).
    type State: Serialize + DeserializeOwned + Send + Sync + Clone + Default;

    /// The attributes of the type.
    fn attributes() -> Vec<(&'static str, Attribute)>;
    /// A one-line description of the type.
    fn description() -> &'static str;
    /// The object's id.
    fn id(state: &Self::State) -> &Str;
    /// Sets the object's id.
    fn set_id(state: &mut Self::State, id: Str);
    /// What identifies the object for id allocation (its name, usually).
    fn key(state: &Self::State) -> String;
    /// Marks the computed attributes unknown in a create plan (the id is done for you).
    fn mark_unknown(_state: &mut Self::State) {}
    /// The attributes whose change forces replacement.
    fn replace_paths(prior: &Self::State, proposed: &Self::State) -> Vec<AttributePath>;
    /// Checks a configuration.
    fn validate(_diags: &mut Diagnostics, _config: &Self::State) {}
    /// Fills computed attributes and cloud-only fields of a new object; an error refuses the
    /// create.
    fn on_create(
        _cloud: &Cloud,
        _alloc: &Allocated,
        _state: &mut Self::State,
        _extra: &mut Object,
    ) -> Result<(), String> {
        Ok(())
    }
    /// Records side effects of an in-place update in the cloud object.
    fn on_update(_prior: &Self::State, _planned: &Self::State, _obj: &mut Object) {}
    /// Refuses a destroy (e.g. a non-empty bucket).
    fn on_destroy(_obj: &Object) -> Result<(), String> {
        Ok(())
    }
}

/// Builds one attribute.
pub(crate) fn attr(
    attr_type: AttributeType,
    constraint: AttributeConstraint,
    description: &str,
) -> Attribute {
    Attribute {
        attr_type,
        description: Description::plain(description),
        constraint,
        sensitive: false,
        deprecated: false,
    }
}

/// A `map(string)` attribute type.
pub(crate) fn map_of_strings() -> AttributeType {
    AttributeType::Map(Box::new(AttributeType::String))
}

/// True when both values are known and differ, or exactly one is unknown (the new value will
/// only be known at apply, so Terraform must assume a change).
pub(crate) fn changed<T: PartialEq>(prior: &Value<T>, proposed: &Value<T>) -> bool {
    prior != proposed
}

/// A Terraform resource backed by the cloud, for the resource type `K`.
pub(crate) struct CloudResource<K: Kind> {
    config: Config,
    kind: PhantomData<fn() -> K>,
}

impl<K: Kind> CloudResource<K> {
    pub(crate) fn new(config: Config) -> Self {
        CloudResource {
            config,
            kind: PhantomData,
        }
    }

    fn type_name() -> String {
        format!("fakecloud_{}", K::TYPE)
    }

    fn known_id<'s>(diags: &mut Diagnostics, state: &'s K::State) -> Option<&'s str> {
        match K::id(state) {
            Value::Value(id) => Some(id.as_str()),
            _ => {
                diags.root_error(
                    format!("{} has no id in state", Self::type_name()),
                    "The state of this object has no `id`: remove it with `terraform state rm` and import it again.",
                );
                None
            }
        }
    }

    fn from_object(
        diags: &mut Diagnostics,
        cloud: &Cloud,
        id: &str,
        obj: Object,
    ) -> Option<K::State> {
        match serde_json::from_value::<K::State>(serde_json::Value::Object(obj)) {
            Ok(state) => Some(state),
            Err(e) => {
                diags.root_error(
                    format!(
                        "fakecloud object {id} does not match the {} schema",
                        Self::type_name()
                    ),
                    format!(
                        "{}: {e}. Fix or delete that file.",
                        cloud.path(K::TYPE, id).display()
                    ),
                );
                None
            }
        }
    }

    fn to_object(diags: &mut Diagnostics, state: &K::State) -> Option<Object> {
        match serde_json::to_value(state) {
            Ok(serde_json::Value::Object(obj)) => Some(obj),
            Ok(_) | Err(_) => {
                diags.root_error_short(format!(
                    "fakecloud cannot serialize a {} object",
                    Self::type_name()
                ));
                None
            }
        }
    }
}

#[async_trait]
impl<K: Kind> Resource for CloudResource<K> {
    type State<'a> = K::State;
    type PrivateState<'a> = ValueEmpty;
    type ProviderMetaState<'a> = ValueEmpty;

    fn schema(&self, _diags: &mut Diagnostics) -> Option<Schema> {
        let mut block = tf_provider::schema::Block {
            version: 1,
            description: Description::plain(K::description()),
            ..Default::default()
        };
        for (name, attribute) in K::attributes() {
            block.attributes.insert(name.to_string(), attribute);
        }
        Some(Schema { version: 1, block })
    }

    async fn validate<'a>(&self, diags: &mut Diagnostics, config: Self::State<'a>) -> Option<()> {
        K::validate(diags, &config);
        Some(())
    }

    async fn read<'a>(
        &self,
        diags: &mut Diagnostics,
        state: Self::State<'a>,
        private_state: Self::PrivateState<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<(Self::State<'a>, Self::PrivateState<'a>)> {
        let Some(cloud) = self.config.cloud(diags) else {
            return Some((state, private_state));
        };
        let Some(id) = Self::known_id(diags, &state) else {
            return Some((state.clone(), private_state));
        };
        match cloud.get(K::TYPE, id) {
            // Gone behind Terraform's back: Terraform drops it from state and plans a create.
            Ok(None) => None,
            Ok(Some(obj)) => match Self::from_object(diags, &cloud, id, obj) {
                Some(fresh) => Some((fresh, private_state)),
                None => Some((state.clone(), private_state)),
            },
            Err(e) => {
                diags.root_error(format!("fakecloud cannot read {}", Self::type_name()), e);
                Some((state.clone(), private_state))
            }
        }
    }

    async fn plan_create<'a>(
        &self,
        _diags: &mut Diagnostics,
        proposed_state: Self::State<'a>,
        _config_state: Self::State<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<(Self::State<'a>, Self::PrivateState<'a>)> {
        let mut state = proposed_state;
        K::set_id(&mut state, Value::Unknown);
        K::mark_unknown(&mut state);
        Some((state, Value::Null))
    }

    async fn plan_update<'a>(
        &self,
        _diags: &mut Diagnostics,
        prior_state: Self::State<'a>,
        proposed_state: Self::State<'a>,
        _config_state: Self::State<'a>,
        prior_private_state: Self::PrivateState<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<(Self::State<'a>, Self::PrivateState<'a>, Vec<AttributePath>)> {
        let replace = K::replace_paths(&prior_state, &proposed_state);
        Some((proposed_state, prior_private_state, replace))
    }

    async fn plan_destroy<'a>(
        &self,
        _diags: &mut Diagnostics,
        _prior_state: Self::State<'a>,
        prior_private_state: Self::PrivateState<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<Self::PrivateState<'a>> {
        Some(prior_private_state)
    }

    async fn create<'a>(
        &self,
        diags: &mut Diagnostics,
        planned_state: Self::State<'a>,
        _config_state: Self::State<'a>,
        planned_private_state: Self::PrivateState<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<(Self::State<'a>, Self::PrivateState<'a>)> {
        let cloud = self.config.cloud(diags)?;
        let mut state = planned_state;
        let alloc = match cloud.allocate(K::TYPE, K::PREFIX, &K::key(&state)) {
            Ok(alloc) => alloc,
            Err(e) => {
                diags.root_error(format!("fakecloud cannot create {}", Self::type_name()), e);
                return None;
            }
        };
        K::set_id(&mut state, Value::Value(alloc.id.clone()));
        let mut extra = Object::new();
        if let Err(e) = K::on_create(&cloud, &alloc, &mut state, &mut extra) {
            diags.root_error(format!("fakecloud cannot create {}", Self::type_name()), e);
            return None;
        }
        let mut obj = Self::to_object(diags, &state)?;
        obj.extend(extra);
        if let Err(e) = cloud.put(K::TYPE, &alloc.id, &obj) {
            diags.root_error(format!("fakecloud cannot create {}", Self::type_name()), e);
            return None;
        }
        Some((state, planned_private_state))
    }

    async fn update<'a>(
        &self,
        diags: &mut Diagnostics,
        prior_state: Self::State<'a>,
        planned_state: Self::State<'a>,
        _config_state: Self::State<'a>,
        planned_private_state: Self::PrivateState<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<(Self::State<'a>, Self::PrivateState<'a>)> {
        let cloud = self.config.cloud(diags)?;
        let id = Self::known_id(diags, &planned_state)?.to_string();
        let mut obj = match cloud.get(K::TYPE, &id) {
            Ok(Some(obj)) => obj,
            Ok(None) => {
                diags.root_error(
                    format!("fakecloud cannot update {} {id}: it no longer exists", Self::type_name()),
                    format!("{} is gone. Run `terraform plan` again: the refresh will notice and plan to create it.", cloud.path(K::TYPE, &id).display()),
                );
                return None;
            }
            Err(e) => {
                diags.root_error(format!("fakecloud cannot update {}", Self::type_name()), e);
                return None;
            }
        };
        obj.extend(Self::to_object(diags, &planned_state)?);
        K::on_update(&prior_state, &planned_state, &mut obj);
        if let Err(e) = cloud.put(K::TYPE, &id, &obj) {
            diags.root_error(format!("fakecloud cannot update {}", Self::type_name()), e);
            return None;
        }
        Some((planned_state, planned_private_state))
    }

    async fn destroy<'a>(
        &self,
        diags: &mut Diagnostics,
        prior_state: Self::State<'a>,
        _planned_private_state: Self::PrivateState<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<()> {
        let cloud = self.config.cloud(diags)?;
        let id = Self::known_id(diags, &prior_state)?;
        let obj = match cloud.get(K::TYPE, id) {
            Ok(Some(obj)) => obj,
            Ok(None) => return Some(()),
            Err(e) => {
                diags.root_error(format!("fakecloud cannot destroy {}", Self::type_name()), e);
                return None;
            }
        };
        if let Err(e) = K::on_destroy(&obj) {
            diags.root_error(
                format!("fakecloud refuses to destroy {} {id}", Self::type_name()),
                e,
            );
            return None;
        }
        if let Err(e) = cloud.remove(K::TYPE, id) {
            diags.root_error(format!("fakecloud cannot destroy {}", Self::type_name()), e);
            return None;
        }
        Some(())
    }

    async fn import<'a>(
        &self,
        diags: &mut Diagnostics,
        id: String,
    ) -> Option<(Self::State<'a>, Self::PrivateState<'a>)> {
        let cloud = self.config.cloud(diags)?;
        match cloud.get(K::TYPE, &id) {
            Ok(Some(obj)) => {
                let state = Self::from_object(diags, &cloud, &id, obj)?;
                Some((state, Value::Null))
            }
            Ok(None) => {
                let existing: Vec<String> = cloud
                    .list(K::TYPE)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(id, _)| id)
                    .collect();
                let hint = if existing.is_empty() {
                    format!(
                        "The cloud ({}) holds no {} at all.",
                        cloud.dir().display(),
                        Self::type_name()
                    )
                } else {
                    format!(
                        "Existing {} ids: {}.",
                        Self::type_name(),
                        existing.join(", ")
                    )
                };
                diags.root_error(
                    format!(
                        "Cannot import {}: no object with id {id:?}",
                        Self::type_name()
                    ),
                    format!(
                        "fakecloud looked for {}. {hint} Ids look like {}-1a2b3c4d.",
                        cloud.path(K::TYPE, &id).display(),
                        K::PREFIX
                    ),
                );
                None
            }
            Err(e) => {
                diags.root_error(format!("Cannot import {}", Self::type_name()), e);
                None
            }
        }
    }
}
