//! `configuration`: resource types (mode, type, provider) across all module calls; expressions
//! and everything else skipped.

use super::*;

/// Seen in `configuration`: (mode, type, provider_config_key), resolved once
/// `provider_config` is known.
pub(crate) type ConfigSeen = BTreeSet<(Mode, String, Option<String>)>;

pub(crate) struct ConfigDoc<'a> {
    pub(crate) acc: &'a mut Acc,
}

#[derive(Deserialize)]
pub(crate) struct RawProviderConfig {
    name: Option<String>,
    full_name: Option<String>,
}

impl<'de> DeserializeSeed<'de> for ConfigDoc<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ConfigDoc<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a configuration object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut providers: BTreeMap<String, RawProviderConfig> = BTreeMap::new();
        let mut seen = ConfigSeen::new();
        let mut keys = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut keys))? {
            match key.0 {
                "provider_config" => {
                    // Built with every key checked, then read as the map it is.
                    providers = match map.next_value::<Option<UValue>>()? {
                        Some(UValue(v)) => {
                            Option::<BTreeMap<String, RawProviderConfig>>::deserialize(v)
                                .map_err(de::Error::custom)?
                                .unwrap_or_default()
                        }
                        None => BTreeMap::new(),
                    };
                }
                "root_module" => map.next_value_seed(Opt(ConfigModule { seen: &mut seen }))?,
                _ => map.next_value_seed(Unique)?,
            }
        }
        for p in providers.values() {
            if let Some(f) = &p.full_name {
                note_provider(self.acc, f);
            }
        }
        for (mode, type_name, key) in seen {
            let provider = key.map(|k| resolve_provider(&providers, &k));
            self.acc.configured.insert(TypeRef {
                mode,
                type_name,
                provider,
            });
        }
        Ok(())
    }
}

/// One configuration module: `resources` (mode, type, provider key) and `module_calls`
/// (recursively; the depth is bounded by the JSON parser's recursion limit). Expressions and
/// everything else are skipped.
pub(crate) struct ConfigModule<'a> {
    seen: &'a mut ConfigSeen,
}

impl<'de> DeserializeSeed<'de> for ConfigModule<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ConfigModule<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a configuration module object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut keys))? {
            match key.0 {
                "resources" => map.next_value_seed(Opt(ConfigResources {
                    seen: &mut *self.seen,
                }))?,
                "module_calls" => map.next_value_seed(Opt(ModuleCalls {
                    seen: &mut *self.seen,
                }))?,
                _ => map.next_value_seed(Unique)?,
            }
        }
        Ok(())
    }
}

#[derive(Default)]
pub(crate) struct RawConfigResource {
    mode: Option<String>,
    type_name: Option<String>,
    provider_config_key: Option<String>,
}

impl<'de> Fields<'de> for RawConfigResource {
    type Out = Self;
    const WHAT: &'static str = "struct RawConfigResource";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "mode" => self.mode = map.next_value()?,
            "type" => self.type_name = map.next_value()?,
            "provider_config_key" => self.provider_config_key = map.next_value()?,
            _ => map.next_value_seed(Unique)?,
        }
        Ok(())
    }
    fn done<E: de::Error>(self) -> Result<Self, E> {
        Ok(self)
    }
}

pub(crate) struct ConfigResources<'a> {
    seen: &'a mut ConfigSeen,
}

impl<'de> DeserializeSeed<'de> for ConfigResources<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for ConfigResources<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of configuration resources")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(r) = seq.next_element_seed(Object(RawConfigResource::default()))? {
            let (Some(mode), Some(type_name)) = (r.mode, r.type_name) else {
                continue;
            };
            if let Some(mode) = parse_mode(&mode) {
                self.seen.insert((mode, type_name, r.provider_config_key));
            }
        }
        Ok(())
    }
}

pub(crate) struct ModuleCalls<'a> {
    seen: &'a mut ConfigSeen,
}

impl<'de> DeserializeSeed<'de> for ModuleCalls<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ModuleCalls<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a module_calls object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = Seen::default();
        while let Some(KeyText(name)) = map.next_key()? {
            keys.check(name)?;
            map.next_value_seed(Opt(ModuleCall {
                seen: &mut *self.seen,
            }))?;
        }
        Ok(())
    }
}

pub(crate) struct ModuleCall<'a> {
    seen: &'a mut ConfigSeen,
}

impl<'de> DeserializeSeed<'de> for ModuleCall<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ModuleCall<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a module call object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut keys))? {
            if key.0 == "module" {
                map.next_value_seed(Opt(ConfigModule {
                    seen: &mut *self.seen,
                }))?;
            } else {
                map.next_value_seed(Unique)?;
            }
        }
        Ok(())
    }
}

/// `provider_config_key` → the provider's full address when `provider_config` gives it, else
/// its local name (`module.x:aws.east` → `aws`).
pub(crate) fn resolve_provider(
    providers: &BTreeMap<String, RawProviderConfig>,
    key: &str,
) -> String {
    if let Some(p) = providers.get(key) {
        if let Some(f) = &p.full_name {
            return f.clone();
        }
        if let Some(n) = &p.name {
            return n.clone();
        }
    }
    let local = key.rsplit(':').next().unwrap_or(key);
    local.split('.').next().unwrap_or(local).to_string()
}
