//! The streaming parse of `show -json` output: one pass, keeping only what the model needs.
//!
//! The top-level object is visited key by key. `resource_changes` and `resource_drift` are read
//! one entry at a time (a `resource_drift` entry that cannot be read is skipped with a note:
//! drift is context, see [`Context`]) and reduced to [`ResourceChange`] at once; `configuration` and
//! `prior_state` are walked for resource types only; everything else (`planned_values`,
//! `variables`, `relevant_attributes`, `checks`, unknown keys...) is skipped without being
//! stored. Memory is bounded by the largest single entry plus the model itself.

use crate::diff::{self, Mask, Sides};
use crate::unique::valid::Member;
use crate::unique::{KeyText, Seen, UValue, Unique};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use ward_model::{
    Action, AttrPath, Importing, InstanceKey, Mode, OutputChange, PathStep, ResourceChange, Shown,
    TypeRef,
};

mod change;
mod config;
mod reduce;
mod state;
mod words;
pub(crate) use change::*;
pub(crate) use config::*;
pub(crate) use reduce::*;
pub(crate) use state::*;
pub(crate) use words::*;

/// A problem found in plan-shaped JSON, turned into a [`crate::PlanError`] by the caller.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Semantic {
    UiLog,
    UnsupportedFormatVersion(String),
    UnknownAction {
        address: String,
        actions: Vec<String>,
    },
    UnknownMode {
        address: String,
        mode: String,
    },
    Malformed(String),
    NotAnObject(&'static str),
}

/// Everything collected from the top-level object.
#[derive(Default)]
pub(crate) struct Acc {
    pub format_version: Option<String>,
    pub plan_format_version: Option<String>,
    pub terraform_version: Option<String>,
    pub changes: Vec<ResourceChange>,
    pub drift: Vec<ResourceChange>,
    pub outputs: Vec<OutputChange>,
    pub configured: BTreeSet<TypeRef>,
    pub state_types: BTreeSet<TypeRef>,
    pub errored: bool,
    pub complete: Option<bool>,
    /// Top-level keys seen that tell what kind of document this is.
    pub keys: BTreeSet<&'static str>,
    /// `registry.opentofu.org` seen in a provider address.
    pub opentofu_host: bool,
    /// `registry.terraform.io` seen in a provider address.
    pub terraform_host: bool,
    /// What was skipped or rebuilt in a context section, by section and reason; turned into
    /// reader notes by [`Acc::context_notes`].
    pub context: BTreeMap<(&'static str, String), Vec<String>>,
    /// The first semantic problem; parsing stops at once when `stop` is set.
    pub problem: Option<Semantic>,
    pub stop: bool,
    /// When set, no content fingerprint is computed ([`ResourceChange::content`] is `None`).
    pub skip_content: bool,
    /// When set, a delete's [`ResourceChange::changed`] is not built (see
    /// [`crate::ReadOptions::removed`]).
    pub skip_removed: bool,
    /// When set, a create's [`ResourceChange::changed`] is built only for the types it wants
    /// (see [`crate::ReadOptions::created`]).
    pub created: Option<crate::CreatedLeaves>,
    /// When set, the top-level `before` attributes of every object a `resource_changes` entry
    /// destroys (see [`crate::BeforeObjects`]) are collected here.
    pub objects: Option<crate::BeforeObjects>,
    /// The value budget ([`crate::VALUE_BUDGET`] when unset).
    pub budget: Option<usize>,
}

/// Marker message for an error raised only to stop the parser; the real problem is in
/// [`Acc::problem`].
pub(crate) const STOP: &str = "ward: stop reading";

/// Top-level keys that tell what kind of document this is.
pub(crate) const MARKER_KEYS: &[&str] = &[
    "format_version",
    "plan_format_version",
    "resource_changes",
    "resource_drift",
    "planned_values",
    "prior_state",
    "configuration",
    "output_changes",
    "values",
    "lineage",
    "serial",
    "version",
    "resources",
    "modules",
    "encrypted_data",
    "encryption_version",
    "provider_schemas",
    "applyable",
    "complete",
    "errored",
    "terraform_version",
];

/// Parses a `MAJOR.MINOR` version. `None` for anything else.
pub(crate) fn parse_version(s: &str) -> Option<(u64, u64)> {
    let (maj, min) = s.split_once('.')?;
    let ok = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    if !ok(maj) || !ok(min) {
        return None;
    }
    Some((maj.parse().ok()?, min.parse().ok()?))
}

/// The format majors ward reads.
pub(crate) fn supported_major(major: u64) -> bool {
    major == 0 || major == 1
}

/// The top-level document. The second field, when set, receives every `resource_changes`
/// entry as soon as it is read instead of [`Acc::changes`].
pub(crate) struct Top<'a>(
    pub &'a mut Acc,
    pub Option<&'a mut dyn FnMut(ResourceChange)>,
);

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object (terraform show -json output)")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        // `apply.json`-style arrays of UI messages.
        let first: Option<Value> = seq.next_element()?;
        let ui = match first {
            Some(Value::Object(m)) => m.contains_key("@level") || m.contains_key("@message"),
            _ => false,
        };
        self.0.problem = Some(if ui {
            Semantic::UiLog
        } else {
            Semantic::NotAnObject("an array")
        });
        self.0.stop = true;
        Err(de::Error::custom(STOP))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.not_object("a string")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.not_object("a boolean")
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.not_object("a number")
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.not_object("null")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let acc = self.0;
        let mut sink = self.1;
        let mut seen = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut seen))? {
            map.next_value_seed(TopValue {
                acc: &mut *acc,
                sink: sink
                    .as_mut()
                    .map(|s| &mut **s as &mut dyn FnMut(ResourceChange)),
                key: key.0,
            })?;
        }
        Ok(())
    }
}

/// The value of one top-level key (`key`, as [`Key`] names it: `""` for a key the reader does
/// not know), read into [`Acc`]. Records the key when it tells what kind of document this is.
pub(crate) struct TopValue<'a> {
    pub acc: &'a mut Acc,
    pub sink: Option<&'a mut dyn FnMut(ResourceChange)>,
    pub key: &'static str,
}

impl<'de> DeserializeSeed<'de> for TopValue<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let TopValue { acc, sink, key } = self;
        if MARKER_KEYS.contains(&key) {
            acc.keys.insert(key);
        }
        match key {
            "@level" | "@message" | "@module" | "@timestamp" => {
                acc.problem = Some(Semantic::UiLog);
                acc.stop = true;
                Err(de::Error::custom(STOP))
            }
            "format_version" | "plan_format_version" => {
                let UValue(v) = UValue::deserialize(d)?;
                let s = match v {
                    Value::String(s) => s,
                    other => {
                        acc.problem = Some(Semantic::Malformed(format!(
                            "`{key}` is {other}, not a string: Terraform and OpenTofu write it as a string such as \"1.2\"; give ward the unedited output of `show -json`"
                        )));
                        acc.stop = true;
                        return Err(de::Error::custom(STOP));
                    }
                };
                match parse_version(&s) {
                    Some((major, _)) if supported_major(major) => {}
                    _ => {
                        acc.problem = Some(Semantic::UnsupportedFormatVersion(s));
                        acc.stop = true;
                        return Err(de::Error::custom(STOP));
                    }
                }
                if key == "format_version" {
                    acc.format_version = Some(s);
                } else {
                    acc.plan_format_version = Some(s);
                }
                Ok(())
            }
            "terraform_version" => {
                acc.terraform_version = Option::<String>::deserialize(d)?;
                Ok(())
            }
            "errored" => {
                acc.errored = Option::<bool>::deserialize(d)?.unwrap_or(false);
                Ok(())
            }
            "complete" => {
                acc.complete = Option::<bool>::deserialize(d)?;
                Ok(())
            }
            "resource_changes" => Changes { acc, sink }.deserialize(d),
            "resource_drift" => Context {
                acc,
                section: "resource_drift",
            }
            .deserialize(d),
            "output_changes" => Context {
                acc,
                section: "output_changes",
            }
            .deserialize(d),
            "configuration" => Opt(Object(ConfigDoc::new(acc))).deserialize(d),
            "prior_state" => Opt(Object(StateDoc { acc })).deserialize(d),
            _ => Unique.deserialize(d),
        }
    }
}

/// Adds one output change, or the problem with it.
fn add_output(acc: &mut Acc, name: String, o: RawOutput) {
    match Action::from_actions(&o.actions) {
        Some(action) => acc.outputs.push(OutputChange {
            name,
            action,
            sensitive: o.before_sensitive.as_ref().is_some_and(diff::contains_true)
                || o.after_sensitive.as_ref().is_some_and(diff::contains_true),
        }),
        None => {
            if acc.problem.is_none() {
                acc.problem = Some(Semantic::UnknownAction {
                    address: format!("output.{name}"),
                    actions: o.actions,
                });
            }
        }
    }
}

/// A context section (`resource_drift`, `output_changes`): what cannot be read in it is
/// skipped with a note instead of stopping the run, because the verdicts do not depend on it.
struct Context<'a> {
    acc: &'a mut Acc,
    section: &'static str,
}

impl Context<'_> {
    fn wrong_type<E>(self, what: &str) -> Result<(), E> {
        let expected = if self.section == "output_changes" {
            "an object"
        } else {
            "a list"
        };
        skip(
            self.acc,
            self.section,
            format!("it is {what}, not {expected}"),
            String::new(),
        );
        Ok(())
    }
}

/// Records a skipped part of a context section (`item` empty: the whole section).
fn skip(acc: &mut Acc, section: &'static str, reason: String, item: String) {
    acc.context.entry((section, reason)).or_default().push(item);
}

impl<'de> DeserializeSeed<'de> for Context<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Context<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "the `{}` section", self.section)
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.wrong_type("a boolean")
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.wrong_type("a number")
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.wrong_type("a number")
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.wrong_type("a number")
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.wrong_type("a string")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if self.section != "resource_drift" {
            while seq.next_element_seed(Unique)?.is_some() {}
            return self.wrong_type("a list");
        }
        let mut n = 0usize;
        // One entry at a time: memory stays bounded by the largest entry.
        while let Some(UValue(v)) = seq.next_element()? {
            n += 1;
            drift_entry(self.acc, n, v);
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        if self.section != "output_changes" {
            Unique.visit_map(map)?;
            return self.wrong_type("an object");
        }
        let mut seen = Seen::default();
        while let Some(KeyText(name)) = map.next_key()? {
            let name = name.into_owned();
            seen.check(Cow::Owned(name.clone()))?;
            let UValue(v) = map.next_value()?;
            match RawOutput::deserialize(v) {
                Ok(o) => add_output(self.acc, name, o),
                Err(e) => skip(
                    self.acc,
                    self.section,
                    e.to_string(),
                    format!("output.{name}"),
                ),
            }
        }
        Ok(())
    }
}

/// The address Terraform would have written for an entry: `module_address`, mode, `type`,
/// `name` and `index` (Terraform 0.15 to 1.0.0 left `address` out of `resource_drift`).
fn rebuilt_address(raw: &RawChange) -> Option<String> {
    let (t, n) = (raw.type_name.as_deref()?, raw.name.as_deref()?);
    let mut a = String::new();
    if let Some(m) = raw.module_address.as_deref().filter(|m| !m.is_empty()) {
        a.push_str(m);
        a.push('.');
    }
    match raw.mode {
        Some(ModeText::Known(Mode::Data)) => a.push_str("data."),
        Some(ModeText::Known(Mode::Ephemeral)) => a.push_str("ephemeral."),
        _ => {}
    }
    a.push_str(t);
    a.push('.');
    a.push_str(n);
    match &raw.index {
        None | Some(Value::Null) => {}
        Some(i @ (Value::Number(_) | Value::String(_))) => a.push_str(&format!("[{i}]")),
        Some(_) => return None,
    }
    Some(a)
}

/// Reads one `resource_drift` entry (the `n`th), skipping it with a note when it cannot be read.
pub(crate) fn drift_entry(acc: &mut Acc, n: usize, v: Value) {
    let section = "resource_drift";
    let mut raw = match (Entry {
        keep_before: false,
        content: !acc.skip_content,
        strict: false,
        lazy: false,
    })
    .deserialize(v)
    {
        Ok(raw) => raw,
        Err(e) => return skip(acc, section, e.to_string(), format!("entry {n}")),
    };
    if raw.address.is_none() {
        match rebuilt_address(&raw) {
            Some(a) => {
                skip(acc, section, REBUILT.to_string(), a.clone());
                raw.address = Some(a);
            }
            None => {
                return skip(
                    acc,
                    section,
                    "no `address`, and no `type` and `name` to rebuild it from".to_string(),
                    format!("entry {n}"),
                )
            }
        }
    }
    let label = raw.address.clone().unwrap_or_default();
    if let Some(field) = missing_field(&raw) {
        return skip(acc, section, format!("missing field `{field}`"), label);
    }
    match reduce(raw) {
        Ok(rc) => {
            note_provider(acc, &rc.provider_name);
            acc.drift.push(rc);
        }
        Err(problem) => skip(acc, section, problem.describe(), label),
    }
}

/// The reason recorded for a drift entry whose address was rebuilt (not skipped).
pub(crate) const REBUILT: &str = "rebuilt";

impl Acc {
    /// Nothing collected yet, for a read as `options` asks (the one place that turns read
    /// options into what the walk checks as it goes).
    pub(crate) fn for_options(options: crate::ReadOptions) -> Acc {
        Acc {
            objects: options.objects.then(crate::BeforeObjects::new),
            skip_content: !options.content,
            skip_removed: !options.removed,
            created: options.created,
            ..Acc::default()
        }
    }

    /// One note per (section, reason): what was skipped or rebuilt, naming at most five items.
    pub(crate) fn context_notes(&self) -> Vec<String> {
        self.context
            .iter()
            .map(|((section, reason), items)| {
                let named: Vec<&str> = items
                    .iter()
                    .filter(|i| !i.is_empty())
                    .map(String::as_str)
                    .collect();
                let mut list = named
                    .iter()
                    .take(5)
                    .map(|i| format!("`{i}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                if named.len() > 5 {
                    list.push_str(&format!(" and {} more", named.len() - 5));
                }
                if reason == REBUILT {
                    format!(
                        "{section}: {} entr{} had no `address` (Terraform 0.15 to 1.0.0 left it out); \
                         rebuilt from module_address, type, name and index: {list}",
                        named.len(),
                        if named.len() == 1 { "y" } else { "ies" }
                    )
                } else if named.is_empty() {
                    format!(
                        "{section} was skipped ({reason}); it is context only, every verdict was made without it"
                    )
                } else {
                    format!(
                        "{section}: skipped {} entr{} that could not be read ({reason}): {list}; \
                         they are context only, every verdict was made without them",
                        named.len(),
                        if named.len() == 1 { "y" } else { "ies" }
                    )
                }
            })
            .collect()
    }
}

impl Semantic {
    /// A one-line description, for notes about skipped context.
    fn describe(&self) -> String {
        match self {
            Semantic::UnknownAction { actions, .. } => format!("unknown actions {actions:?}"),
            Semantic::UnknownMode { mode, .. } => format!("unknown mode `{mode}`"),
            Semantic::Malformed(what) => what.clone(),
            Semantic::UiLog => "a UI log line".to_string(),
            Semantic::UnsupportedFormatVersion(v) => format!("format version {v}"),
            Semantic::NotAnObject(what) => format!("{what}, not an object"),
        }
    }
}

impl Top<'_> {
    fn not_object<E: de::Error>(self, what: &'static str) -> Result<(), E> {
        self.0.problem = Some(Semantic::NotAnObject(what));
        self.0.stop = true;
        Err(E::custom(STOP))
    }
}

/// `null` or the inner seed.
pub(crate) struct Opt<S>(pub S);

impl<'de, S: DeserializeSeed<'de, Value = ()>> DeserializeSeed<'de> for Opt<S> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de, Value = ()>> Visitor<'de> for Opt<S> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("null or a value")
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.0.deserialize(d)
    }
}

/// The visitor methods serde_json's parser never calls for these seeds (it reports every JSON
/// type through its own `visit_*`, and gives `visit_some` only to `deserialize_option`),
/// checked directly: what a seed says it expected, and a context section handed over as an
/// option is still read.
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod visitors {
    use super::*;

    fn expected<'de, V: Visitor<'de>>(v: V) -> String {
        v.visit_bytes::<serde_json::Error>(b"x")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn each_seed_says_what_it_expected() {
        let mut acc = Acc::default();
        assert_eq!(
            expected(Top(&mut acc, None)),
            "invalid type: byte array, expected a JSON object (terraform show -json output)"
        );
        let context = Context {
            acc: &mut acc,
            section: "resource_drift",
        };
        assert_eq!(
            expected(context),
            "invalid type: byte array, expected the `resource_drift` section"
        );
        let inner = Context {
            acc: &mut acc,
            section: "output_changes",
        };
        assert_eq!(
            expected(Opt(inner)),
            "invalid type: byte array, expected null or a value"
        );
        assert_eq!(
            expected(KeyVisitor),
            "invalid type: byte array, expected an object key"
        );
    }

    #[test]
    fn a_context_section_given_as_an_option_is_read() {
        let mut acc = Acc::default();
        let context = Context {
            acc: &mut acc,
            section: "output_changes",
        };
        context.visit_some(serde_json::json!(1)).unwrap();
        assert_eq!(
            acc.context_notes(),
            ["output_changes was skipped (it is a number, not an object); it is context only, every verdict was made without it"]
        );
    }
}
