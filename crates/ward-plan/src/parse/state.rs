//! `prior_state`: resource types across `root_module` and `child_modules`, values skipped.

use super::*;

/// The `prior_state` object: its `values`.
pub(crate) struct StateDoc<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> Fields<'de> for StateDoc<'_> {
    type Out = ();
    const WHAT: &'static str = "a prior_state object";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "values" => map.next_value_seed(Opt(Object(StateValues {
                acc: &mut *self.acc,
            }))),
            _ => map.next_value_seed(Unique),
        }
    }
    fn done<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// `prior_state.values`: its `root_module`.
pub(crate) struct StateValues<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> Fields<'de> for StateValues<'_> {
    type Out = ();
    const WHAT: &'static str = "a prior_state.values object";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "root_module" => map.next_value_seed(Opt(Object(StateModule {
                acc: &mut *self.acc,
            }))),
            _ => map.next_value_seed(Unique),
        }
    }
    fn done<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// One state module: `resources` (types only) and `child_modules` (recursively; the depth is
/// bounded by the JSON parser's recursion limit).
pub(crate) struct StateModule<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> Fields<'de> for StateModule<'_> {
    type Out = ();
    const WHAT: &'static str = "a state module object";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "resources" => map.next_value_seed(Opt(List(StateResources {
                acc: &mut *self.acc,
            }))),
            "child_modules" => map.next_value_seed(Opt(List(StateChildren {
                acc: &mut *self.acc,
            }))),
            _ => map.next_value_seed(Unique),
        }
    }
    fn done<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// `child_modules`: state modules.
pub(crate) struct StateChildren<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> Elements<'de> for StateChildren<'_> {
    const WHAT: &'static str = "a list of child modules";
    fn element<A: SeqAccess<'de>>(&mut self, seq: &mut A) -> Result<bool, A::Error> {
        Ok(seq
            .next_element_seed(Object(StateModule {
                acc: &mut *self.acc,
            }))?
            .is_some())
    }
}

/// `resources`: each one's type.
pub(crate) struct StateResources<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> Elements<'de> for StateResources<'_> {
    const WHAT: &'static str = "a list of state resources";
    fn element<A: SeqAccess<'de>>(&mut self, seq: &mut A) -> Result<bool, A::Error> {
        match seq.next_element_seed(Object(RawStateResource::default()))? {
            Some(r) => {
                state_resource(self.acc, r);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// What the reader keeps of a `prior_state` resource: its mode, type and provider, borrowed
/// from the input where the one pass read them ([`crate::walk::entry::state_resource`]: most
/// are plain strings), else owned.
#[derive(Default)]
pub(crate) struct RawStateResource<'a> {
    pub(crate) mode: Option<Cow<'a, str>>,
    pub(crate) type_name: Option<Cow<'a, str>>,
    pub(crate) provider_name: Option<Cow<'a, str>>,
}

impl<'de> Fields<'de> for RawStateResource<'static> {
    type Out = Self;
    const WHAT: &'static str = "struct RawStateResource";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        // serde reads a `Cow` owned, as it reads a `String`.
        match key {
            "mode" => self.mode = map.next_value()?,
            "type" => self.type_name = map.next_value()?,
            "provider_name" => self.provider_name = map.next_value()?,
            _ => map.next_value_seed(Unique)?,
        }
        Ok(())
    }
    fn done<E: de::Error>(self) -> Result<Self, E> {
        Ok(self)
    }
}

/// Read as [`Object`] reads it (the walk needs a `Deserialize` type).
impl<'de> Deserialize<'de> for RawStateResource<'static> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Object(RawStateResource::default()).deserialize(d)
    }
}

/// A [`TypeRef`] by its parts, borrowed: so that the prior state's types (one for each of
/// its resources, most of them seen before) are looked up without building a `TypeRef`.
trait TypeKey {
    fn parts(&self) -> (Mode, &str, Option<&str>);
}

impl TypeKey for TypeRef {
    fn parts(&self) -> (Mode, &str, Option<&str>) {
        (self.mode, &self.type_name, self.provider.as_deref())
    }
}

impl TypeKey for (Mode, &str, Option<&str>) {
    fn parts(&self) -> (Mode, &str, Option<&str>) {
        *self
    }
}

impl<'a> std::borrow::Borrow<dyn TypeKey + 'a> for TypeRef {
    fn borrow(&self) -> &(dyn TypeKey + 'a) {
        self
    }
}

/// Ordered as `TypeRef` derives its order (mode, type, provider), which the set's lookup by
/// [`TypeKey`] relies on.
impl Ord for dyn TypeKey + '_ {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.parts().cmp(&other.parts())
    }
}

impl PartialOrd for dyn TypeKey + '_ {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for dyn TypeKey + '_ {
    fn eq(&self, other: &Self) -> bool {
        self.parts() == other.parts()
    }
}

impl Eq for dyn TypeKey + '_ {}

/// Keeps the type of one `prior_state` resource: a type already kept costs a lookup, no
/// allocation.
pub(crate) fn state_resource(acc: &mut Acc, r: RawStateResource<'_>) {
    let (Some(mode), Some(type_name)) = (r.mode, r.type_name) else {
        return;
    };
    let Some(mode) = parse_mode(&mode) else {
        return;
    };
    let provider = r.provider_name;
    let key: &dyn TypeKey = &(mode, &*type_name, provider.as_deref());
    if acc.state_types.contains(key) {
        // Its provider was noted when it was kept.
        return;
    }
    if let Some(p) = &provider {
        note_provider(acc, p);
    }
    acc.state_types.insert(TypeRef {
        mode,
        type_name: type_name.into_owned(),
        provider: provider.map(Cow::into_owned),
    });
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Looked up by its borrowed parts, a type is found exactly when the set holds it: the
    /// parts order as `TypeRef` does (mode, then type, then provider, none first), pair by
    /// pair.
    #[test]
    fn a_type_is_found_by_its_borrowed_parts_exactly_when_kept() {
        let modes = [Mode::Managed, Mode::Data, Mode::Ephemeral];
        let types = ["a", "a_b", "ab", "b", ""];
        let providers = [None, Some("p"), Some("p/q"), Some("")];
        let mut all = Vec::new();
        for mode in modes {
            for t in types {
                for p in providers {
                    all.push(TypeRef {
                        mode,
                        type_name: t.to_string(),
                        provider: p.map(str::to_string),
                    });
                }
            }
        }
        for a in &all {
            for b in &all {
                let (x, y): (&dyn TypeKey, &dyn TypeKey) = (a, b);
                assert_eq!(x.cmp(y), a.cmp(b), "{a:?} {b:?}");
            }
        }
        // Every other one kept: each is found exactly when kept.
        let kept: BTreeSet<TypeRef> = all.iter().step_by(2).cloned().collect();
        for (i, t) in all.iter().enumerate() {
            let key: &dyn TypeKey = &(t.mode, t.type_name.as_str(), t.provider.as_deref());
            assert_eq!(kept.contains(key), i % 2 == 0, "{t:?}");
        }
        // Kept through the reader's path: a type seen again adds nothing, a new provider does.
        let mut acc = Acc::default();
        let raw = |t: &str, p: Option<&'static str>| RawStateResource {
            mode: Some(Cow::Borrowed("managed")),
            type_name: Some(Cow::Owned(t.to_string())),
            provider_name: p.map(Cow::Borrowed),
        };
        state_resource(&mut acc, raw("x", Some("registry.terraform.io/h/x")));
        state_resource(&mut acc, raw("x", Some("registry.terraform.io/h/x")));
        state_resource(&mut acc, raw("x", None));
        assert_eq!(acc.state_types.len(), 2);
        assert!(acc.terraform_host);
    }
}
