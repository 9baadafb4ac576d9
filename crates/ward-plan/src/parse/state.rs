//! `prior_state`: resource types across `root_module` and `child_modules`, values skipped.

use super::*;

pub(crate) struct StateDoc<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> DeserializeSeed<'de> for StateDoc<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for StateDoc<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a prior_state object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut keys))? {
            if key.0 == "values" {
                map.next_value_seed(Opt(StateValues { acc: self.acc }))?;
            } else {
                map.next_value_seed(Unique)?;
            }
        }
        Ok(())
    }
}

pub(crate) struct StateValues<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> DeserializeSeed<'de> for StateValues<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for StateValues<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a prior_state.values object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut keys))? {
            if key.0 == "root_module" {
                map.next_value_seed(Opt(StateModule {
                    acc: &mut *self.acc,
                }))?;
            } else {
                map.next_value_seed(Unique)?;
            }
        }
        Ok(())
    }
}

/// One state module: `resources` (types only) and `child_modules` (recursively; the depth is
/// bounded by the JSON parser's recursion limit).
pub(crate) struct StateModule<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> DeserializeSeed<'de> for StateModule<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for StateModule<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a state module object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut keys))? {
            match key.0 {
                "resources" => map.next_value_seed(Opt(StateResources {
                    acc: &mut *self.acc,
                }))?,
                "child_modules" => map.next_value_seed(Opt(StateChildren {
                    acc: &mut *self.acc,
                }))?,
                _ => map.next_value_seed(Unique)?,
            }
        }
        Ok(())
    }
}

pub(crate) struct StateChildren<'a> {
    pub acc: &'a mut Acc,
}

impl<'de> DeserializeSeed<'de> for StateChildren<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for StateChildren<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of child modules")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(StateModule {
                acc: &mut *self.acc,
            })?
            .is_some()
        {}
        Ok(())
    }
}

pub(crate) struct StateResources<'a> {
    pub acc: &'a mut Acc,
}

#[derive(Default)]
pub(crate) struct RawStateResource {
    mode: Option<String>,
    type_name: Option<String>,
    provider_name: Option<String>,
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

impl<'de> DeserializeSeed<'de> for StateResources<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for StateResources<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of state resources")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(r) = seq.next_element_seed(Object(RawStateResource::default()))? {
            state_resource(self.acc, r);
        }
        Ok(())
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
