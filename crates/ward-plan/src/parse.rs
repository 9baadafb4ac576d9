//! The streaming parse of `show -json` output: one pass, keeping only what the model needs.
//!
//! The top-level object is visited key by key. `resource_changes` and `resource_drift` are read
//! one entry at a time (a `resource_drift` entry that cannot be read is skipped with a note:
//! drift is context, see [`Context`]) and reduced to [`ResourceChange`] at once; `configuration` and
//! `prior_state` are walked for resource types only; everything else (`planned_values`,
//! `variables`, `relevant_attributes`, `checks`, unknown keys...) is skipped without being
//! stored. Memory is bounded by the largest single entry plus the model itself.

use crate::diff::{self, Mask, Sides};
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

mod config;
mod state;
mod words;
pub(crate) use config::*;
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

// ---------------------------------------------------------------------------------------------
// resource_changes (the deciding section: every problem in it stops the run)

struct Changes<'a> {
    acc: &'a mut Acc,
    /// Receives each entry instead of `acc.changes`.
    sink: Option<&'a mut dyn FnMut(ResourceChange)>,
}

impl<'de> DeserializeSeed<'de> for Changes<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for Changes<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of resource changes")
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut sink = self.sink;
        let collect = self.acc.objects.is_some();
        let content = !self.acc.skip_content;
        while let Some(raw) = seq.next_element_seed(Entry {
            keep_before: collect,
            content,
            strict: true,
            lazy: false,
        })? {
            take_change(
                self.acc,
                sink.as_mut()
                    .map(|s| &mut **s as &mut dyn FnMut(ResourceChange)),
                raw,
            );
        }
        Ok(())
    }
}

/// Reduces one `resource_changes` entry to the model and keeps it (in `sink` when set, else in
/// [`Acc::changes`]), or records the problem with it.
pub(crate) fn take_change(
    acc: &mut Acc,
    sink: Option<&mut dyn FnMut(ResourceChange)>,
    mut raw: RawChange,
) {
    if acc.objects.is_some() {
        collect_object(acc, &mut raw);
    }
    match reduce(raw) {
        Ok(rc) => {
            note_provider(acc, &rc.provider_name);
            if let Some(sink) = sink {
                sink(rc);
            } else {
                acc.changes.push(rc);
            }
        }
        Err(problem) => {
            if acc.problem.is_none() {
                acc.problem = Some(problem);
            }
        }
    }
}

/// Keeps the top-level `before` attributes of an object the entry destroys: not nulls, nothing
/// `before_sensitive` marks (wholly or in part), nothing at all when the whole object is marked.
fn collect_object(acc: &mut Acc, raw: &mut RawChange) {
    let Some(objects) = acc.objects.as_mut() else {
        return;
    };
    let Some(change) = raw.change.as_mut() else {
        return;
    };
    let destroys = change
        .actions
        .as_ref()
        .and_then(Actions::action)
        .is_some_and(Action::destroys);
    if !destroys {
        return;
    }
    let mask = change.before_sensitive.as_ref();
    let mut attrs = BTreeMap::new();
    // A whole-object mark (`true`, or any mark that is not an object): keep nothing.
    if !mask.is_some_and(|m| !m.is_object() && diff::contains_true(m)) {
        if let Some(Value::Object(before)) = change.before.as_ref() {
            for (k, v) in before {
                let marked = mask.and_then(|m| m.get(k)).is_some_and(diff::contains_true);
                if !v.is_null() && !marked {
                    attrs.insert(k.clone(), v.clone());
                }
            }
        }
    }
    let key = (raw.address.clone().unwrap_or_default(), raw.deposed.clone());
    objects.insert(key, attrs);
}

fn note_provider(acc: &mut Acc, provider: &str) {
    if provider.contains("registry.opentofu.org/") {
        acc.opentofu_host = true;
    } else if provider.contains("registry.terraform.io/") {
        acc.terraform_host = true;
    }
}

/// One `resource_changes`/`resource_drift` entry, with only what the model needs.
#[derive(Default)]
pub(crate) struct RawChange {
    address: Option<String>,
    previous_address: Option<String>,
    module_address: Option<String>,
    mode: Option<ModeText>,
    type_name: Option<String>,
    name: Option<String>,
    index: Option<Value>,
    provider_name: Option<String>,
    deposed: Option<String>,
    action_reason: Option<String>,
    change: Option<RawInner>,
}

/// The `change` object. `before`/`after` and the masks are kept only when the action needs a
/// diff (`actions` comes first in everything Terraform and OpenTofu write; when it does not,
/// the values are kept to be safe).
#[derive(Default)]
struct RawInner {
    actions: Option<Actions>,
    before: Option<Value>,
    after: Option<Value>,
    after_unknown: Option<Value>,
    before_sensitive: Option<Value>,
    after_sensitive: Option<Value>,
    /// `before` and `after` as raw JSON, instead of `before`/`after`, when the entry was read
    /// lazily ([`Entry::lazy`]): only the attributes whose bytes differ are parsed.
    before_raw: Option<Box<RawValue>>,
    after_raw: Option<Box<RawValue>>,
    replace_paths: Option<Vec<Vec<Value>>>,
    importing: Option<RawImporting>,
    /// Fingerprints of before, after, after_unknown, before_sensitive, after_sensitive.
    fps: [Option<crate::fingerprint::Fp>; 5],
    /// Whether `fps` was computed.
    fingerprinted: bool,
}

/// Whether the action creates an object without diffing it against an old one.
fn creates(action: Action) -> bool {
    matches!(action, Action::Create | Action::CreateThenForget)
}

/// Whether a change with this action (`None`: one ward does not know) gets a per-attribute diff.
fn diffed(action: Option<Action>) -> bool {
    matches!(
        action,
        Some(Action::Update | Action::ReplaceDeleteFirst | Action::ReplaceCreateFirst)
    )
}

/// One entry.
pub(crate) struct Entry {
    /// Keep `before` and `before_sensitive` whatever the action.
    pub keep_before: bool,
    /// Compute the content fingerprint ([`ResourceChange::content`]).
    pub content: bool,
    /// Refuse an entry without `address`, `type`, `change` or `change.actions` (else the
    /// caller checks with [`missing_field`]).
    pub strict: bool,
    /// Keep an update's or replacement's `before` and `after` as raw JSON and parse only the
    /// top-level attributes whose bytes differ (when neither `keep_before` nor `content` is
    /// set). The model is the same as without it.
    pub lazy: bool,
}

/// The first required field an entry lacks.
fn missing_field(raw: &RawChange) -> Option<&'static str> {
    if raw.address.is_none() {
        return Some("address");
    }
    if raw.type_name.is_none() {
        return Some("type");
    }
    match &raw.change {
        None => Some("change"),
        Some(c) if c.actions.is_none() => Some("change.actions"),
        Some(_) => None,
    }
}

impl<'de> DeserializeSeed<'de> for Entry {
    type Value = RawChange;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RawChange, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Entry {
    type Value = RawChange;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a resource change object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawChange, A::Error> {
        let mut raw = RawChange::default();
        // A repeated key anywhere in the entry is told with its address, when it was read.
        if let Err(e) = self.fields(&mut map, &mut raw) {
            return Err(
                match crate::unique::within(&e.to_string(), raw.address.as_deref()) {
                    Some(message) => de::Error::custom(message),
                    None => e,
                },
            );
        }
        if self.strict {
            if let Some(field) = missing_field(&raw) {
                return Err(de::Error::missing_field(field));
            }
        }
        Ok(raw)
    }
}

impl Entry {
    /// Reads the entry's keys into `raw`.
    fn fields<'de, A: MapAccess<'de>>(
        &self,
        map: &mut A,
        raw: &mut RawChange,
    ) -> Result<(), A::Error> {
        let mut seen = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut seen))? {
            match key.0 {
                "address" => raw.address = map.next_value()?,
                "previous_address" => raw.previous_address = map.next_value()?,
                "module_address" => raw.module_address = map.next_value()?,
                "mode" => raw.mode = map.next_value()?,
                "type" => raw.type_name = map.next_value()?,
                "name" => raw.name = map.next_value()?,
                "index" => raw.index = map.next_value::<Option<UValue>>()?.map(|v| v.0),
                "provider_name" => raw.provider_name = map.next_value()?,
                "deposed" => raw.deposed = map.next_value()?,
                "action_reason" => raw.action_reason = map.next_value()?,
                "change" => {
                    raw.change = Some(map.next_value_seed(Body {
                        keep_before: self.keep_before,
                        content: self.content,
                        lazy: self.lazy && !self.keep_before && !self.content,
                    })?)
                }
                _ => map.next_value_seed(Unique)?,
            }
        }
        Ok(())
    }
}

/// The `change` object.
struct Body {
    /// Keep `before` and `before_sensitive` whatever the action.
    keep_before: bool,
    /// Fingerprint every value (see [`crate::fingerprint`]).
    content: bool,
    /// Keep `before` and `after` raw (see [`Entry::lazy`]).
    lazy: bool,
}

impl<'de> DeserializeSeed<'de> for Body {
    type Value = RawInner;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<RawInner, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Body {
    type Value = RawInner;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a change object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawInner, A::Error> {
        let mut inner = RawInner {
            fingerprinted: self.content,
            ..RawInner::default()
        };
        // The action, once `actions` is read (`Some(None)`: a list ward does not know).
        let mut action: Option<Option<Action>> = None;
        let mut seen = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut seen))? {
            let diff = action.is_none_or(diffed);
            // A destroyed object's last values are kept for the model's `before_scalars`.
            let destroys = action.flatten().is_some_and(Action::destroys);
            // A create's planned values are read for `after_scalars` and for what it sets
            // (`changed`), with the masks that say which are unknown or sensitive.
            let creates = action.flatten().is_some_and(creates);
            let keep = diff
                || ((self.keep_before || destroys)
                    && matches!(key.0, "before" | "before_sensitive"))
                || (creates && matches!(key.0, "after" | "after_unknown" | "after_sensitive"));
            let slot = match key.0 {
                "actions" => {
                    let actions: Actions = map.next_value()?;
                    action = Some(actions.action());
                    inner.actions = Some(actions);
                    continue;
                }
                "replace_paths" => {
                    inner.replace_paths =
                        map.next_value::<Option<Vec<Vec<UValue>>>>()?.map(|paths| {
                            paths
                                .into_iter()
                                .map(|p| p.into_iter().map(|s| s.0).collect())
                                .collect()
                        });
                    continue;
                }
                "importing" => {
                    inner.importing = match map.next_value::<Option<UValue>>()? {
                        Some(UValue(v)) => {
                            Some(RawImporting::deserialize(v).map_err(de::Error::custom)?)
                        }
                        None => None,
                    };
                    continue;
                }
                // Raw: an update's or replacement's sides, a delete's last values.
                "before" | "after"
                    if self.lazy
                        && action.is_some_and(|a| {
                            diffed(a) || (key.0 == "before" && a == Some(Action::Delete))
                        }) =>
                {
                    let raw: Option<Box<RawValue>> = map.next_value()?;
                    // Kept raw, looked into all the same: a repeated key at any depth.
                    if let Some((_, key)) = raw
                        .as_ref()
                        .and_then(|r| crate::unique::first_repeat(r.get().as_bytes()))
                    {
                        return Err(crate::unique::repeated(&key));
                    }
                    if key.0 == "before" {
                        inner.before_raw = raw;
                    } else {
                        inner.after_raw = raw;
                    }
                    continue;
                }
                "before" => (0, &mut inner.before),
                "after" => (1, &mut inner.after),
                "after_unknown" => (2, &mut inner.after_unknown),
                "before_sensitive" => (3, &mut inner.before_sensitive),
                "after_sensitive" => (4, &mut inner.after_sensitive),
                _ => {
                    map.next_value_seed(Unique)?;
                    continue;
                }
            };
            // Every value is fingerprinted (see crate::fingerprint); only kept ones are built.
            let (i, slot) = slot;
            if !self.content {
                if keep {
                    *slot = map.next_value::<Option<UValue>>()?.map(|v| v.0);
                } else if self.lazy {
                    // Read from the walk's slice: its bytes scanned for a repeated key, faster
                    // than looking into it as it is parsed.
                    skip_raw(&mut map)?;
                } else {
                    map.next_value_seed(Unique)?;
                }
                inner.fps[i] = None;
            } else if keep {
                let v = map.next_value::<Option<UValue>>()?.map(|v| v.0);
                inner.fps[i] = Some(match &v {
                    Some(v) => crate::fingerprint::of_value(v),
                    None => crate::fingerprint::of_value(&Value::Null),
                });
                *slot = v;
            } else {
                inner.fps[i] = Some(map.next_value_seed(crate::fingerprint::FpSeed)?);
            }
        }
        Ok(inner)
    }
}

/// Skips the next value, read as raw JSON (only the walk's slices are read so, see
/// [`Entry::lazy`]), refusing it when an object in it holds a key twice.
fn skip_raw<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    // Borrowed from the slice, not copied.
    let raw: &'de RawValue = map.next_value()?;
    match crate::unique::first_repeat(raw.get().as_bytes()) {
        Some((_, key)) => Err(crate::unique::repeated(&key)),
        None => Ok(()),
    }
}

#[derive(Deserialize)]
struct RawImporting {
    id: Option<String>,
}

#[derive(Deserialize)]
struct RawOutput {
    actions: Vec<String>,
    before_sensitive: Option<Value>,
    after_sensitive: Option<Value>,
}

pub(crate) fn parse_mode(mode: &str) -> Option<Mode> {
    match mode {
        "managed" => Some(Mode::Managed),
        "data" => Some(Mode::Data),
        "ephemeral" => Some(Mode::Ephemeral),
        _ => None,
    }
}

/// The mode an address implies, for lookalike plans that omit `mode`.
fn mode_from_address(address: &str) -> Mode {
    // Skip `module.NAME[KEY].` prefixes: the resource part is what follows the last of them.
    let mut rest = address;
    while let Some(r) = rest.strip_prefix("module.") {
        match r.find('.') {
            Some(i) => rest = &r[i + 1..],
            None => break,
        }
        // A bracketed key may itself hold dots; this is a best effort for lookalikes only.
    }
    if rest.starts_with("data.") {
        Mode::Data
    } else if rest.starts_with("ephemeral.") {
        Mode::Ephemeral
    } else {
        Mode::Managed
    }
}

fn reduce(raw: RawChange) -> Result<ResourceChange, Semantic> {
    let RawChange {
        address,
        previous_address,
        module_address,
        mode,
        type_name,
        name,
        index,
        provider_name,
        deposed,
        action_reason,
        change,
    } = raw;
    // Entry checked these are present.
    let address = address.unwrap_or_default();
    let type_name = type_name.unwrap_or_default();
    let mut change = change.unwrap_or_default();
    let action = match change.actions.take() {
        Some(Actions::Known(a)) => a,
        Some(Actions::Unknown(actions)) => {
            return Err(Semantic::UnknownAction { address, actions })
        }
        None => {
            return Err(Semantic::UnknownAction {
                address,
                actions: Vec::new(),
            })
        }
    };
    let mode = match mode {
        Some(ModeText::Known(m)) => m,
        Some(ModeText::Other(mode)) => return Err(Semantic::UnknownMode { address, mode }),
        None => mode_from_address(&address),
    };
    let index = match index {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(InstanceKey::Str(s)),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(i) => Some(InstanceKey::Int(i)),
            None => {
                return Err(Semantic::Malformed(format!(
                    "`{address}` has index {n}, which is neither an integer nor a string"
                )))
            }
        },
        Some(other) => {
            return Err(Semantic::Malformed(format!(
                "`{address}` has index {other}, which is neither an integer nor a string"
            )))
        }
    };
    let mut replace_paths = Vec::new();
    for p in change.replace_paths.take().unwrap_or_default() {
        let mut steps = Vec::with_capacity(p.len());
        for s in p {
            steps.push(match s {
                Value::String(k) => PathStep::Key(k),
                Value::Number(n) if n.as_u64().is_some() => PathStep::Index(n.as_u64().unwrap_or(0)),
                other => {
                    return Err(Semantic::Malformed(format!(
                        "`{address}` has a replace_paths step {other}, which is neither a key nor an index"
                    )))
                }
            });
        }
        replace_paths.push(AttrPath(steps));
    }
    replace_paths.sort();
    replace_paths.dedup();

    let diff = diffed(Some(action));
    settle_sides(&address, &mut change, diff)?;
    let lazy = lazy_objects(&address, &change)?;
    let masks = (
        Mask::of(change.after_unknown.as_ref()),
        Mask::of(change.before_sensitive.as_ref()),
        Mask::of(change.after_sensitive.as_ref()),
    );
    let before_scalars = match &lazy {
        _ if !action.destroys() => Vec::new(),
        (Some(before), _) => before_scalars_of(
            before.iter().map(|(k, raw)| (k.as_str(), Scalar::Raw(raw))),
            change.before_sensitive.as_ref(),
        ),
        (None, _) => before_scalars(change.before.as_ref(), change.before_sensitive.as_ref()),
    };
    let after_scalars = match &lazy {
        _ if !(creates(action) || diff) => Vec::new(),
        (_, Some(after)) => after_scalars_of(
            after.iter().map(|(k, raw)| (k.as_str(), Scalar::Raw(raw))),
            &change,
        ),
        (_, None) => match &change.after {
            Some(Value::Object(m)) => after_scalars_of(
                m.iter().map(|(k, v)| (k.as_str(), Scalar::Value(v))),
                &change,
            ),
            _ => Vec::new(),
        },
    };
    // Per-attribute changes where an existing object changes in place or is replaced; for a
    // create or a delete the whole object is the change: what it sets or removes, bounded.
    let mut changed_left_out = 0;
    let changed = match &lazy {
        _ if creates(action) || action == Action::Delete => {
            let (kept, more) = whole_object(&address, action, &change, &lazy)?;
            changed_left_out = more;
            kept
        }
        _ if !diff => Vec::new(),
        (Some(before), Some(after)) => diff::changed_lazy(before, after, masks.0, masks.1, masks.2)
            .map_err(|e| malformed_side(&address, &e))?,
        _ => diff::changed(&Sides {
            before: change.before.as_ref(),
            after: change.after.as_ref(),
            after_unknown: masks.0,
            before_sensitive: masks.1,
            after_sensitive: masks.2,
        }),
    };

    Ok(ResourceChange {
        address,
        previous_address,
        module_address,
        mode,
        type_name,
        name: name.unwrap_or_default(),
        index,
        provider_name: provider_name.unwrap_or_default(),
        deposed,
        action,
        action_reason,
        replace_paths,
        changed,
        importing: change.importing.map(|i| Importing { id: i.id }),
        content: change
            .fingerprinted
            .then(|| ward_model::HiddenDigest::new(crate::fingerprint::combine(&change.fps))),
        before_scalars,
        after_scalars,
        changed_left_out,
    })
}

/// What a create sets (its `after`) or a delete removes (its `before`), see
/// [`diff::object_values`]: each side parsed whole, or attribute by attribute when it was left
/// raw.
fn whole_object(
    address: &str,
    action: Action,
    change: &RawInner,
    lazy: &LazyObjects<'_>,
) -> Result<(Vec<ward_model::AttrChange>, usize), Semantic> {
    let creates = creates(action);
    let (value, raw, unknown, sensitive) = if creates {
        (
            change.after.as_ref(),
            lazy.1.as_ref(),
            Mask::of(change.after_unknown.as_ref()),
            Mask::of(change.after_sensitive.as_ref()),
        )
    } else {
        (
            change.before.as_ref(),
            lazy.0.as_ref(),
            Mask::Clear,
            Mask::of(change.before_sensitive.as_ref()),
        )
    };
    let entries: Vec<(&str, std::borrow::Cow<'_, Value>)> = match (raw, value) {
        (Some(raw), _) => raw
            .iter()
            .map(|(k, r)| {
                serde_json::from_str::<Value>(r.get())
                    .map(|v| (k.as_str(), std::borrow::Cow::Owned(v)))
                    .map_err(|e| malformed_side(address, &e))
            })
            .collect::<Result<_, _>>()?,
        (None, Some(Value::Object(m))) => m
            .iter()
            .map(|(k, v)| (k.as_str(), std::borrow::Cow::Borrowed(v)))
            .collect(),
        (None, _) => Vec::new(),
    };
    Ok(diff::object_values(
        &diff::Whole {
            entries,
            unknown,
            sensitive,
            creates,
        },
        ward_model::MAX_OBJECT_ATTRIBUTES,
    ))
}

/// The top-level small values of an object as planned ([`ResourceChange::after_scalars`]):
/// booleans, numbers and strings of at most [`ward_model::MAX_KEPT_STRING`] characters, each
/// [`Shown::Sensitive`] when `after_sensitive` marks it (wholly or in part), and every attribute
/// `after_unknown` marks as [`Shown::Unknown`]; sorted by name.
fn after_scalars_of<'a>(
    entries: impl Iterator<Item = (&'a str, Scalar<'a>)>,
    change: &RawInner,
) -> Vec<(String, Shown)> {
    let sensitive = change.after_sensitive.as_ref();
    let all_sensitive = sensitive.is_some_and(|m| !m.is_object() && diff::contains_true(m));
    let marked = |k: &str| {
        all_sensitive
            || sensitive
                .and_then(|m| m.get(k))
                .is_some_and(diff::contains_true)
    };
    let mut out: Vec<(String, Shown)> = Vec::new();
    for (k, v) in entries {
        let mut parsed = None;
        let Some(v) = v.scalar(b"tf\"-0123456789", &mut parsed) else {
            continue;
        };
        let small = match v {
            Value::Bool(_) | Value::Number(_) => true,
            Value::String(s) => s.chars().count() <= ward_model::MAX_KEPT_STRING,
            _ => false,
        };
        if marked(k) {
            // A long string is a value too, never shown; a null is no value (and the raw and the
            // parsed readings of one object agree on it).
            if small || matches!(v, Value::String(_)) {
                out.push((k.to_string(), Shown::Sensitive));
            }
        } else if small {
            out.push((k.to_string(), Shown::Known(v.clone())));
        }
    }
    if let Some(Value::Object(unknown)) = &change.after_unknown {
        for (k, m) in unknown {
            if matches!(m, Value::Bool(true)) && !out.iter().any(|(have, _)| have == k) {
                out.push((k.clone(), Shown::Unknown));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.shrink_to_fit();
    out
}

/// The top-level booleans and short strings of a destroyed object's last values, nothing
/// `before_sensitive` marks (nothing at all when the whole object is marked), sorted by name.
fn before_scalars(before: Option<&Value>, mask: Option<&Value>) -> Vec<(String, Value)> {
    let Some(Value::Object(before)) = before else {
        return Vec::new();
    };
    before_scalars_of(
        before.iter().map(|(k, v)| (k.as_str(), Scalar::Value(v))),
        mask,
    )
}

/// A top-level value of a destroyed object, parsed or raw.
enum Scalar<'a> {
    Value(&'a Value),
    Raw(&'a RawValue),
}

impl<'a> Scalar<'a> {
    /// The value, a raw one parsed into `slot` only when its first byte is one of `starts`
    /// (the kinds of scalar wanted); `None` for a raw value of another kind or that does not
    /// parse.
    fn scalar<'s>(self, starts: &[u8], slot: &'s mut Option<Value>) -> Option<&'s Value>
    where
        'a: 's,
    {
        match self {
            Scalar::Value(v) => Some(v),
            Scalar::Raw(raw) => {
                let first = raw.get().as_bytes().first()?;
                if !starts.contains(first) {
                    return None;
                }
                *slot = Some(serde_json::from_str::<Value>(raw.get()).ok()?);
                slot.as_ref()
            }
        }
    }
}

/// [`before_scalars`] over an object's entries, parsed or raw (a raw one is parsed only when it
/// is a boolean or a string).
fn before_scalars_of<'a>(
    entries: impl Iterator<Item = (&'a str, Scalar<'a>)>,
    mask: Option<&Value>,
) -> Vec<(String, Value)> {
    if matches!(mask, Some(Value::Bool(true))) {
        return Vec::new();
    }
    let mut out: Vec<(String, Value)> = Vec::new();
    for (k, v) in entries {
        let marked = mask.and_then(|m| m.get(k)).is_some_and(diff::contains_true);
        if marked {
            continue;
        }
        let mut parsed = None;
        let Some(v) = v.scalar(b"tf\"", &mut parsed) else {
            continue;
        };
        let small = match v {
            Value::Bool(_) => true,
            Value::String(s) => s.chars().count() <= ward_model::MAX_KEPT_STRING,
            _ => false,
        };
        if small {
            out.push((k.to_string(), v.clone()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.shrink_to_fit();
    out
}

/// The top-level attributes of a lazily read side, by name.
pub(crate) type RawObject<'a> = BTreeMap<diff::RawKey<'a>, &'a RawValue>;

/// For an entry read lazily ([`Entry::lazy`]): parses the raw sides into `change.before` and
/// `change.after` unless they can be read attribute by attribute: for a diffed change (`diff`),
/// both sides objects and neither the whole `after` unknown nor a whole side sensitive; for a
/// delete, `before` an object.
fn settle_sides(address: &str, change: &mut RawInner, diff: bool) -> Result<(), Semantic> {
    if change.before_raw.is_none() && change.after_raw.is_none() {
        return Ok(());
    }
    let whole = |m: Option<&Value>| matches!(Mask::of(m), Mask::All);
    let object = |r: &Option<Box<RawValue>>| {
        r.as_ref()
            .is_some_and(|r| r.get().trim_start().starts_with('{'))
    };
    let by_attribute = if diff {
        object(&change.before_raw)
            && object(&change.after_raw)
            && !whole(change.after_unknown.as_ref())
            && !whole(change.before_sensitive.as_ref())
            && !whole(change.after_sensitive.as_ref())
    } else {
        object(&change.before_raw) && change.after_raw.is_none()
    };
    if by_attribute {
        return Ok(());
    }
    let parse = |r: Option<Box<RawValue>>| {
        r.map(|r| serde_json::from_str::<Value>(r.get()))
            .transpose()
            .map_err(|e| malformed_side(address, &e))
    };
    change.before = parse(change.before_raw.take())?;
    change.after = parse(change.after_raw.take())?;
    Ok(())
}

/// The top-level attributes of the sides [`settle_sides`] left raw.
type LazyObjects<'a> = (Option<RawObject<'a>>, Option<RawObject<'a>>);

/// See [`LazyObjects`].
fn lazy_objects<'a>(address: &str, change: &'a RawInner) -> Result<LazyObjects<'a>, Semantic> {
    let side = |r: Option<&'a RawValue>| {
        r.map(|r| serde_json::from_str::<RawObject<'a>>(r.get()))
            .transpose()
            .map_err(|e| malformed_side(address, &e))
    };
    Ok((
        side(change.before_raw.as_deref())?,
        side(change.after_raw.as_deref())?,
    ))
}

/// A side that serde_json accepted as raw JSON but could not read again: not expected (the
/// bytes were checked when the entry was read), reported rather than ignored.
fn malformed_side(address: &str, e: &serde_json::Error) -> Semantic {
    Semantic::Malformed(format!(
        "`{address}` has a `before` or `after` value that cannot be read: {e}"
    ))
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

/// What one entry's reading keeps: the lazy reading holds an update's or replacement's sides
/// and a delete's last values as raw JSON, nothing else is built that the action does not
/// need, and fingerprints are computed exactly when asked for. The model is the same either
/// way (`tests/lazy.rs`); these look at what is held, which is what the lazy reading is for.
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod what_an_entry_keeps {
    use super::*;

    fn change(actions: &str) -> String {
        format!(
            r#"{{"actions": {actions}, "before": {{"a": 1}}, "after": {{"a": 2}},
                "after_unknown": {{}}, "before_sensitive": {{}}, "after_sensitive": {{}}}}"#
        )
    }

    fn body(actions: &str, keep_before: bool, content: bool, lazy: bool) -> RawInner {
        let text = change(actions);
        let mut d = serde_json::Deserializer::from_str(&text);
        Body {
            keep_before,
            content,
            lazy,
        }
        .deserialize(&mut d)
        .unwrap()
    }

    /// Which of before, after, before_raw, after_raw were kept.
    fn kept(i: &RawInner) -> [bool; 4] {
        [
            i.before.is_some(),
            i.after.is_some(),
            i.before_raw.is_some(),
            i.after_raw.is_some(),
        ]
    }

    #[test]
    fn the_lazy_reading_keeps_the_sides_a_diff_or_a_delete_needs_raw() {
        for actions in [
            r#"["update"]"#,
            r#"["delete","create"]"#,
            r#"["create","delete"]"#,
        ] {
            let i = body(actions, false, false, true);
            assert_eq!(kept(&i), [false, false, true, true], "{actions}");
            assert_eq!(i.before_raw.as_ref().map(|r| r.get()), Some(r#"{"a": 1}"#));
            assert_eq!(i.after_raw.as_ref().map(|r| r.get()), Some(r#"{"a": 2}"#));
        }
        // A delete keeps its last values (raw), never its absent after.
        assert_eq!(
            kept(&body(r#"["delete"]"#, false, false, true)),
            [false, false, true, false]
        );
        // A create keeps its planned values, built (what it sets is listed); a no-op and a
        // read keep nothing of their values: no diff is made.
        assert_eq!(
            kept(&body(r#"["create"]"#, false, false, true)),
            [false, true, false, false]
        );
        for actions in [r#"["no-op"]"#, r#"["read"]"#] {
            assert_eq!(
                kept(&body(actions, false, false, true)),
                [false; 4],
                "{actions}"
            );
        }
    }

    #[test]
    fn the_eager_reading_builds_what_the_lazy_one_keeps_raw() {
        assert_eq!(
            kept(&body(r#"["update"]"#, false, false, false)),
            [true, true, false, false]
        );
        assert_eq!(
            kept(&body(r#"["delete"]"#, false, false, false)),
            [true, false, false, false]
        );
        for actions in [r#"["create"]"#, r#"["no-op"]"#] {
            // A create keeps its planned values (what it sets), a no-op nothing.
            let create = actions.contains("create");
            assert_eq!(
                kept(&body(actions, false, false, false)),
                [false, create, false, false],
                "{actions}"
            );
            // Asked to keep before whatever the action: before and its mask, nothing else.
            let i = body(actions, true, false, false);
            assert_eq!(kept(&i), [true, create, false, false], "{actions}");
            // A create keeps its masks for `after_scalars` (what is unknown or sensitive of
            // the planned values); a no-op keeps neither.
            assert!(i.before_sensitive.is_some());
            assert_eq!(i.after_sensitive.is_some(), create, "{actions}");
            assert_eq!(i.after_unknown.is_some(), create, "{actions}");
        }
    }

    #[test]
    fn fingerprints_are_computed_exactly_when_asked_for() {
        for actions in [r#"["update"]"#, r#"["create"]"#, r#"["no-op"]"#] {
            let without = body(actions, false, false, false);
            assert!(!without.fingerprinted);
            assert_eq!(without.fps, [None; 5], "{actions}");
            let with = body(actions, false, true, false);
            assert!(with.fingerprinted);
            assert!(with.fps.iter().all(Option::is_some), "{actions}");
        }
    }

    fn entry(keep_before: bool, content: bool) -> RawInner {
        let text = format!(
            r#"{{"address": "a.b", "type": "a", "change": {}}}"#,
            change(r#"["update"]"#)
        );
        let mut d = serde_json::Deserializer::from_str(&text);
        Entry {
            keep_before,
            content,
            strict: true,
            lazy: true,
        }
        .deserialize(&mut d)
        .unwrap()
        .change
        .unwrap()
    }

    #[test]
    fn an_entry_is_read_lazily_only_when_nothing_needs_its_whole_values() {
        assert_eq!(kept(&entry(false, false)), [false, false, true, true]);
        assert_eq!(kept(&entry(true, false)), [true, true, false, false]);
        assert_eq!(kept(&entry(false, true)), [true, true, false, false]);
    }
}
