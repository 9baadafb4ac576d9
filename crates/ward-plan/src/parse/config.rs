//! `configuration`: resource types (mode, type, provider) across all module calls; expressions
//! and everything else skipped.

use super::*;

/// Seen in `configuration`: (mode, type, provider_config_key), resolved once
/// `provider_config` is known.
pub(crate) type ConfigSeen = BTreeSet<(Mode, String, Option<String>)>;

/// The `configuration` object: `provider_config` and the root module, read into
/// [`Acc::configured`] once both are known ([`Fields::done`]).
pub(crate) struct ConfigDoc<'a> {
    pub(crate) acc: &'a mut Acc,
    pub(crate) providers: BTreeMap<String, RawProviderConfig>,
    pub(crate) seen: ConfigSeen,
}

impl<'a> ConfigDoc<'a> {
    /// Reads into `acc`.
    pub(crate) fn new(acc: &'a mut Acc) -> Self {
        ConfigDoc {
            acc,
            providers: BTreeMap::new(),
            seen: ConfigSeen::new(),
        }
    }
}

#[derive(Deserialize)]
pub(crate) struct RawProviderConfig {
    name: Option<String>,
    full_name: Option<String>,
}

impl<'de> Fields<'de> for ConfigDoc<'_> {
    type Out = ();
    const WHAT: &'static str = "a configuration object";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "provider_config" => {
                // Built with every key checked, then read as the map it is.
                self.providers = match map.next_value::<Option<UValue>>()? {
                    Some(UValue(v)) => {
                        Option::<BTreeMap<String, RawProviderConfig>>::deserialize(v)
                            .map_err(de::Error::custom)?
                            .unwrap_or_default()
                    }
                    None => BTreeMap::new(),
                };
                Ok(())
            }
            "root_module" => map.next_value_seed(Opt(Object(ConfigModule {
                seen: &mut self.seen,
            }))),
            _ => map.next_value_seed(Unique),
        }
    }
    fn done<E: de::Error>(self) -> Result<(), E> {
        for p in self.providers.values() {
            if let Some(f) = &p.full_name {
                note_provider(self.acc, f);
            }
        }
        for (mode, type_name, key) in self.seen {
            let provider = key.map(|k| resolve_provider(&self.providers, &k));
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

impl<'de> Fields<'de> for ConfigModule<'_> {
    type Out = ();
    const WHAT: &'static str = "a configuration module object";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "resources" => map.next_value_seed(Opt(List(ConfigResources {
                seen: &mut *self.seen,
            }))),
            "module_calls" => map.next_value_seed(Opt(Object(ModuleCalls {
                seen: &mut *self.seen,
            }))),
            _ => map.next_value_seed(Unique),
        }
    }
    fn done<E: de::Error>(self) -> Result<(), E> {
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

/// `resources`: each one's mode, type and provider key.
pub(crate) struct ConfigResources<'a> {
    seen: &'a mut ConfigSeen,
}

impl<'de> Elements<'de> for ConfigResources<'_> {
    const WHAT: &'static str = "a list of configuration resources";
    fn element<A: SeqAccess<'de>>(&mut self, seq: &mut A) -> Result<bool, A::Error> {
        let Some(r) = seq.next_element_seed(Object(RawConfigResource::default()))? else {
            return Ok(false);
        };
        if let (Some(mode), Some(type_name)) = (r.mode, r.type_name) {
            if let Some(mode) = parse_mode(&mode) {
                self.seen.insert((mode, type_name, r.provider_config_key));
            }
        }
        Ok(true)
    }
}

/// `module_calls`: each call, whatever its name.
pub(crate) struct ModuleCalls<'a> {
    seen: &'a mut ConfigSeen,
}

impl<'de> Fields<'de> for ModuleCalls<'_> {
    type Out = ();
    const WHAT: &'static str = "a module_calls object";
    fn field<A: MapAccess<'de>>(&mut self, _: &'static str, map: &mut A) -> Result<(), A::Error> {
        map.next_value_seed(Opt(Object(ModuleCall {
            seen: &mut *self.seen,
        })))
    }
    fn done<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }
}

/// One module call: its `module`.
pub(crate) struct ModuleCall<'a> {
    seen: &'a mut ConfigSeen,
}

impl<'de> Fields<'de> for ModuleCall<'_> {
    type Out = ();
    const WHAT: &'static str = "a module call object";
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error> {
        match key {
            "module" => map.next_value_seed(Opt(Object(ConfigModule {
                seen: &mut *self.seen,
            }))),
            _ => map.next_value_seed(Unique),
        }
    }
    fn done<E: de::Error>(self) -> Result<(), E> {
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
