//! `resource_changes` (the deciding section: every problem in it stops the run): each entry read
//! by the seeds [`Entry`] and [`Body`] into a [`RawChange`], keeping only what its action needs.

use super::*;

pub(crate) struct Changes<'a> {
    pub(crate) acc: &'a mut Acc,
    /// Receives each entry instead of `acc.changes`.
    pub(crate) sink: Option<&'a mut dyn FnMut(ResourceChange)>,
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
    match reduce_with(raw, !acc.skip_removed, acc.created.as_ref()) {
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
pub(crate) fn collect_object(acc: &mut Acc, raw: &mut RawChange) {
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

pub(crate) fn note_provider(acc: &mut Acc, provider: &str) {
    // Called for every change and state resource: once both hosts are noted nothing is
    // searched, and once Terraform's is, it is not searched again (an OpenTofu address is
    // still never taken for Terraform's).
    if acc.opentofu_host && acc.terraform_host {
        return;
    }
    if provider.contains("registry.opentofu.org/") {
        acc.opentofu_host = true;
    } else if !acc.terraform_host && provider.contains("registry.terraform.io/") {
        acc.terraform_host = true;
    }
}

/// One `resource_changes`/`resource_drift` entry, with only what the model needs.
#[derive(Default)]
pub(crate) struct RawChange {
    pub(crate) address: Option<String>,
    pub(crate) previous_address: Option<String>,
    pub(crate) module_address: Option<String>,
    pub(crate) mode: Option<ModeText>,
    pub(crate) type_name: Option<String>,
    pub(crate) name: Option<String>,
    pub(crate) index: Option<Value>,
    pub(crate) provider_name: Option<String>,
    pub(crate) deposed: Option<String>,
    pub(crate) action_reason: Option<String>,
    pub(crate) change: Option<RawInner>,
}

/// The `change` object. `before`/`after` and the masks are kept only when the action needs a
/// diff (`actions` comes first in everything Terraform and OpenTofu write; when it does not,
/// the values are kept to be safe).
#[derive(Default)]
pub(crate) struct RawInner {
    pub(crate) actions: Option<Actions>,
    pub(crate) before: Option<Value>,
    pub(crate) after: Option<Value>,
    pub(crate) after_unknown: Option<Value>,
    pub(crate) before_sensitive: Option<Value>,
    pub(crate) after_sensitive: Option<Value>,
    /// `before` and `after` as raw JSON, instead of `before`/`after`, when the entry was read
    /// lazily ([`Entry::lazy`]): only the attributes whose bytes differ are parsed.
    /// (Checked JSON: serde_json's raw value's text, or what [`crate::walk`] checked.)
    pub(crate) before_raw: Option<Box<str>>,
    pub(crate) after_raw: Option<Box<str>>,
    /// The top-level members of `before_raw` and `after_raw` (spans in their text) when the
    /// one pass ([`crate::walk`]) checked them as objects: [`super::reduce::lazy_objects`]
    /// reads them without parsing the sides again. `None` where the seeds read the entry.
    pub(crate) before_members: Option<Box<[Member]>>,
    pub(crate) after_members: Option<Box<[Member]>>,
    pub(crate) replace_paths: Option<Vec<Vec<Value>>>,
    pub(crate) importing: Option<RawImporting>,
    /// Fingerprints of before, after, after_unknown, before_sensitive, after_sensitive.
    pub(crate) fps: [Option<crate::fingerprint::Fp>; 5],
    /// Whether `fps` was computed.
    pub(crate) fingerprinted: bool,
}

/// Whether the action creates an object without diffing it against an old one.
pub(crate) fn creates(action: Action) -> bool {
    matches!(action, Action::Create | Action::CreateThenForget)
}

/// Whether a change with this action (`None`: one ward does not know) gets a per-attribute diff.
pub(crate) fn diffed(action: Option<Action>) -> bool {
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
pub(crate) fn missing_field(raw: &RawChange) -> Option<&'static str> {
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
pub(crate) struct Body {
    /// Keep `before` and `before_sensitive` whatever the action.
    pub(crate) keep_before: bool,
    /// Fingerprint every value (see [`crate::fingerprint`]).
    pub(crate) content: bool,
    /// Keep `before` and `after` raw (see [`Entry::lazy`]).
    pub(crate) lazy: bool,
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
                    let raw = raw.map(Box::<str>::from);
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
pub(crate) fn skip_raw<'de, A: MapAccess<'de>>(map: &mut A) -> Result<(), A::Error> {
    // Borrowed from the slice, not copied.
    let raw: &'de RawValue = map.next_value()?;
    match crate::unique::first_repeat(raw.get().as_bytes()) {
        Some((_, key)) => Err(crate::unique::repeated(&key)),
        None => Ok(()),
    }
}

#[derive(Deserialize)]
pub(crate) struct RawImporting {
    pub(crate) id: Option<String>,
}

#[derive(Deserialize)]
pub(crate) struct RawOutput {
    pub(crate) actions: Vec<String>,
    pub(crate) before_sensitive: Option<Value>,
    pub(crate) after_sensitive: Option<Value>,
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
            assert_eq!(i.before_raw.as_deref(), Some(r#"{"a": 1}"#));
            assert_eq!(i.after_raw.as_deref(), Some(r#"{"a": 2}"#));
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
