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

#[derive(Default)]
pub(crate) struct RawStateResource {
    pub(crate) mode: Option<String>,
    pub(crate) type_name: Option<String>,
    pub(crate) provider_name: Option<String>,
}

impl<'de> Fields<'de> for RawStateResource {
    type Out = Self;
    const WHAT: &'static str = "struct RawStateResource";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
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
impl<'de> Deserialize<'de> for RawStateResource {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Object(RawStateResource::default()).deserialize(d)
    }
}

/// Keeps the type of one `prior_state` resource.
pub(crate) fn state_resource(acc: &mut Acc, r: RawStateResource) {
    let (Some(mode), Some(type_name)) = (r.mode, r.type_name) else {
        return;
    };
    let Some(mode) = parse_mode(&mode) else {
        return;
    };
    if let Some(p) = &r.provider_name {
        note_provider(acc, p);
    }
    acc.state_types.insert(TypeRef {
        mode,
        type_name,
        provider: r.provider_name,
    });
}
