//! The reduction of a read entry ([`RawChange`]) to the model's [`ResourceChange`]: the action,
//! mode and index checked, the per-attribute changes, what a create sets or a delete removes,
//! the small values kept for explanations.

use super::*;
use std::borrow::Cow;

pub(crate) fn parse_mode(mode: &str) -> Option<Mode> {
    match mode {
        "managed" => Some(Mode::Managed),
        "data" => Some(Mode::Data),
        "ephemeral" => Some(Mode::Ephemeral),
        _ => None,
    }
}

/// The mode an address implies, for lookalike plans that omit `mode`.
pub(crate) fn mode_from_address(address: &str) -> Mode {
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

pub(crate) fn reduce(raw: RawChange) -> Result<ResourceChange, Semantic> {
    reduce_with(raw, true, None)
}

/// [`reduce`]; without `removed`, a delete's `changed` is left empty (see
/// [`crate::ReadOptions::removed`]), and a create's when `created` does not want its type (see
/// [`crate::ReadOptions::created`]; asked of creates alone).
pub(crate) fn reduce_with(
    raw: RawChange,
    removed: bool,
    created: Option<&crate::CreatedLeaves>,
) -> Result<ResourceChange, Semantic> {
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
    let action = action_of(&address, change.actions.take())?;
    let mode = match mode {
        Some(ModeText::Known(m)) => m,
        Some(ModeText::Other(mode)) => return Err(Semantic::UnknownMode { address, mode }),
        None => mode_from_address(&address),
    };
    let index = index_of(&address, index)?;
    let replace_paths = replace_paths_of(&address, change.replace_paths.take())?;

    let diff = diffed(Some(action));
    settle_sides(&address, &mut change, diff)?;
    let lazy = lazy_objects(&address, &change)?;
    let before_scalars = before_scalars_for(action, &change, &lazy);
    let after_scalars = after_scalars_for(action, &change, &lazy);
    let (changed, changed_left_out) = match action {
        Action::Delete if !removed => (Vec::new(), 0),
        Action::Create | Action::CreateThenForget
            if created.is_some_and(|wants| !wants.wants(&type_name)) =>
        {
            (Vec::new(), 0)
        }
        _ => changed_of(&address, action, &change, &lazy)?,
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

/// The entry's action, refused when ward does not know its list (or it has none).
fn action_of(address: &str, actions: Option<Actions>) -> Result<Action, Semantic> {
    match actions {
        Some(Actions::Known(a)) => Ok(a),
        Some(Actions::Unknown(actions)) => Err(Semantic::UnknownAction {
            address: address.to_string(),
            actions,
        }),
        None => Err(Semantic::UnknownAction {
            address: address.to_string(),
            actions: Vec::new(),
        }),
    }
}

/// The entry's instance key: an integer or a string, or none.
fn index_of(address: &str, index: Option<Value>) -> Result<Option<InstanceKey>, Semantic> {
    Ok(match index {
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
    })
}

/// The paths that force a replacement, each step a key or an index, sorted, each once.
fn replace_paths_of(
    address: &str,
    paths: Option<Vec<Vec<Value>>>,
) -> Result<Vec<AttrPath>, Semantic> {
    let mut replace_paths = Vec::new();
    for p in paths.unwrap_or_default() {
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
    Ok(replace_paths)
}

/// The small values kept for explanations of a destroyed object: its last ones.
fn before_scalars_for(
    action: Action,
    change: &RawInner,
    lazy: &LazyObjects<'_>,
) -> Vec<(String, Value)> {
    match lazy {
        _ if !action.destroys() => Vec::new(),
        (Some(before), _) => before_scalars_of(
            before.iter().map(|(k, raw)| (k.as_str(), Scalar::Raw(raw))),
            change.before_sensitive.as_ref(),
        ),
        (None, _) => before_scalars(change.before.as_ref(), change.before_sensitive.as_ref()),
    }
}

/// The small values kept for explanations of what a create or a diffed change plans.
fn after_scalars_for(
    action: Action,
    change: &RawInner,
    lazy: &LazyObjects<'_>,
) -> Vec<(String, Shown)> {
    match lazy {
        _ if !(creates(action) || diffed(Some(action))) => Vec::new(),
        (_, Some(after)) => after_scalars_of(
            after.iter().map(|(k, raw)| (k.as_str(), Scalar::Raw(raw))),
            change,
        ),
        (_, None) => match &change.after {
            Some(Value::Object(m)) => after_scalars_of(
                m.iter().map(|(k, v)| (k.as_str(), Scalar::Value(v))),
                change,
            ),
            _ => Vec::new(),
        },
    }
}

/// Per-attribute changes where an existing object changes in place or is replaced; for a
/// create or a delete the whole object is the change: what it sets or removes, bounded (with
/// how many were left out).
fn changed_of(
    address: &str,
    action: Action,
    change: &RawInner,
    lazy: &LazyObjects<'_>,
) -> Result<(Vec<ward_model::AttrChange>, usize), Semantic> {
    let masks = (
        Mask::of(change.after_unknown.as_ref()),
        Mask::of(change.before_sensitive.as_ref()),
        Mask::of(change.after_sensitive.as_ref()),
    );
    Ok(match lazy {
        _ if creates(action) || action == Action::Delete => {
            whole_object(address, action, change, lazy)?
        }
        _ if !diffed(Some(action)) => (Vec::new(), 0),
        (Some(before), Some(after)) => (
            diff::changed_lazy(before, after, masks.0, masks.1, masks.2)
                .map_err(|e| malformed_side(address, &e))?,
            0,
        ),
        _ => (
            diff::changed(&Sides {
                before: change.before.as_ref(),
                after: change.after.as_ref(),
                after_unknown: masks.0,
                before_sensitive: masks.1,
                after_sensitive: masks.2,
            }),
            0,
        ),
    })
}

/// What a create sets (its `after`) or a delete removes (its `before`), see
/// [`diff::object_values`]: each side parsed whole, or attribute by attribute when it was left
/// raw.
pub(crate) fn whole_object(
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
    let entries: Vec<(&str, Cow<'_, Value>)> = match (raw, value) {
        (Some(raw), _) => raw
            .iter()
            .map(|(k, r)| {
                crate::walk::value_of(r)
                    .map(|v| (k.as_str(), Cow::Owned(v)))
                    .map_err(|e| malformed_side(address, &e))
            })
            .collect::<Result<_, _>>()?,
        (None, Some(Value::Object(m))) => m
            .iter()
            .map(|(k, v)| (k.as_str(), Cow::Borrowed(v)))
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
pub(crate) fn after_scalars_of<'a>(
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
        let Some(v) = v.scalar(b"tf\"-0123456789") else {
            continue;
        };
        let small = match v.as_ref() {
            Value::Bool(_) | Value::Number(_) => true,
            Value::String(s) => s.chars().count() <= ward_model::MAX_KEPT_STRING,
            _ => false,
        };
        if marked(k) {
            // A long string is a value too, never shown; a null is no value (and the raw and the
            // parsed readings of one object agree on it).
            if small || matches!(v.as_ref(), Value::String(_)) {
                out.push((k.to_string(), Shown::Sensitive));
            }
        } else if small {
            // A raw value was parsed for this: it moves, a parsed one is copied.
            out.push((k.to_string(), Shown::Known(v.into_owned())));
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
pub(crate) fn before_scalars(before: Option<&Value>, mask: Option<&Value>) -> Vec<(String, Value)> {
    let Some(Value::Object(before)) = before else {
        return Vec::new();
    };
    before_scalars_of(
        before.iter().map(|(k, v)| (k.as_str(), Scalar::Value(v))),
        mask,
    )
}

/// A top-level value of a destroyed object, parsed or raw.
pub(crate) enum Scalar<'a> {
    Value(&'a Value),
    Raw(&'a str),
}

impl<'a> Scalar<'a> {
    /// The value, a raw one parsed (and then owned) only when its first byte is one of
    /// `starts` (the kinds of scalar wanted); `None` for a raw value of another kind or that
    /// does not parse.
    fn scalar(self, starts: &[u8]) -> Option<Cow<'a, Value>> {
        match self {
            Scalar::Value(v) => Some(Cow::Borrowed(v)),
            Scalar::Raw(raw) => {
                let first = raw.as_bytes().first()?;
                if !starts.contains(first) {
                    return None;
                }
                Some(Cow::Owned(crate::walk::value_of(raw).ok()?))
            }
        }
    }
}

/// [`before_scalars`] over an object's entries, parsed or raw (a raw one is parsed only when it
/// is a boolean or a string).
pub(crate) fn before_scalars_of<'a>(
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
        let Some(v) = v.scalar(b"tf\"") else {
            continue;
        };
        let small = match v.as_ref() {
            Value::Bool(_) => true,
            Value::String(s) => s.chars().count() <= ward_model::MAX_KEPT_STRING,
            _ => false,
        };
        if small {
            out.push((k.to_string(), v.into_owned()));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.shrink_to_fit();
    out
}

/// The top-level attributes of a lazily read side, sorted by name (each once): each value's
/// JSON text.
pub(crate) type RawObject<'a> = Vec<(diff::RawKey<'a>, &'a str)>;

/// For an entry read lazily ([`Entry::lazy`]): parses the raw sides into `change.before` and
/// `change.after` unless they can be read attribute by attribute: for a diffed change (`diff`),
/// both sides objects and neither the whole `after` unknown nor a whole side sensitive; for a
/// delete, `before` an object.
pub(crate) fn settle_sides(
    address: &str,
    change: &mut RawInner,
    diff: bool,
) -> Result<(), Semantic> {
    if change.before_raw.is_none() && change.after_raw.is_none() {
        return Ok(());
    }
    let whole = |m: Option<&Value>| matches!(Mask::of(m), Mask::All);
    let object = |r: &Option<Box<str>>| r.as_ref().is_some_and(|r| r.trim_start().starts_with('{'));
    let by_attribute = if diff {
        object(&change.before_raw)
            && object(&change.after_raw)
            && !whole(change.after_unknown.as_ref())
            && !whole(change.before_sensitive.as_ref())
            && !whole(change.after_sensitive.as_ref())
    } else {
        // A delete's last values, or what a create sets (read raw for a read that builds few
        // creates' leaves).
        (object(&change.before_raw) && change.after_raw.is_none())
            || (object(&change.after_raw) && change.before_raw.is_none())
    };
    if by_attribute {
        return Ok(());
    }
    let parse = |r: Option<Box<str>>| {
        r.map(|r| crate::walk::value_of(&r))
            .transpose()
            .map_err(|e| malformed_side(address, &e))
    };
    change.before = parse(change.before_raw.take())?;
    change.after = parse(change.after_raw.take())?;
    Ok(())
}

/// The top-level attributes of the sides [`settle_sides`] left raw.
pub(crate) type LazyObjects<'a> = (Option<RawObject<'a>>, Option<RawObject<'a>>);

/// See [`LazyObjects`].
pub(crate) fn lazy_objects<'a>(
    address: &str,
    change: &'a RawInner,
) -> Result<LazyObjects<'a>, Semantic> {
    let side = |r: Option<&'a str>, members: Option<&[Member]>| {
        let Some(r) = r else {
            return Ok(None);
        };
        if let Some(object) = members.and_then(|m| spanned(r, m)) {
            return Ok(Some(object));
        }
        raw_object(r)
            .map(Some)
            .map_err(|e| malformed_side(address, &e))
    };
    Ok((
        side(
            change.before_raw.as_deref(),
            change.before_members.as_deref(),
        )?,
        side(change.after_raw.as_deref(), change.after_members.as_deref())?,
    ))
}

/// The object `text`'s top-level members as serde_json reads them, sorted by name: the way a
/// side is read when the one pass handed over none.
pub(crate) fn raw_object(text: &str) -> Result<RawObject<'_>, serde_json::Error> {
    serde_json::from_str::<BTreeMap<diff::RawKey<'_>, &RawValue>>(text)
        .map(|m| m.into_iter().map(|(k, v)| (k, v.get())).collect())
}

/// The object `text` as its top-level `members` (spans in it, as the one pass found them,
/// each key once) give it, without parsing it again; `None` for a span out of it.
fn spanned<'a>(text: &'a str, members: &[Member]) -> Option<RawObject<'a>> {
    let span = |(a, b): (u32, u32)| text.get(a as usize..b as usize);
    let mut object = Vec::with_capacity(members.len());
    for m in members {
        object.push((diff::RawKey::borrowed(span(m.key)?), span(m.value)?));
    }
    // Terraform writes the attributes sorted: then this only checks it.
    object.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    Some(object)
}

/// A side that serde_json accepted as raw JSON but could not read again: not expected (the
/// bytes were checked when the entry was read), reported rather than ignored.
pub(crate) fn malformed_side(address: &str, e: &serde_json::Error) -> Semantic {
    Semantic::Malformed(format!(
        "`{address}` has a `before` or `after` value that cannot be read: {e}"
    ))
}
