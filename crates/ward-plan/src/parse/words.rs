//! The words of a plan the reader matches without copying them: object keys ([`Key`], and
//! [`Object`], the one loop every object seed shares), an entry's `mode` and its `actions`.

use super::*;

/// A map key, matched against the names the reader looks for without allocating; any other
/// key is `""`.
pub(crate) struct Key(pub &'static str);

/// Every key name the reader looks for, at any level: those of each resource change first,
/// in the order Terraform writes them, since they are looked up most.
pub(crate) const KNOWN_KEYS: &[&str] = &[
    // resource changes
    "address",
    "previous_address",
    "module_address",
    "mode",
    "type",
    "name",
    "index",
    "provider_name",
    "deposed",
    "action_reason",
    "change",
    "actions",
    "before",
    "after",
    "after_unknown",
    "before_sensitive",
    "after_sensitive",
    "replace_paths",
    "importing",
    // top level
    "format_version",
    "plan_format_version",
    "terraform_version",
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
    "@level",
    "@message",
    "@module",
    "@timestamp",
    // configuration and state
    "provider_config",
    "root_module",
    "module_calls",
    "module",
    "child_modules",
    "provider_config_key",
];

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        d.deserialize_identifier(KeyVisitor)
    }
}

pub(crate) struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
        Ok(Key(known_key(s)))
    }
}

/// Reads a [`Key`] and refuses it when the object already had it ([`Seen`]).
pub(crate) struct KeySeed<'a, 'de>(pub &'a mut Seen<'de>);

impl<'de> DeserializeSeed<'de> for KeySeed<'_, 'de> {
    type Value = Key;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        let KeyText(text) = KeyText::deserialize(d)?;
        let key = known_key(&text);
        // A known key is kept as the name it is, without a copy.
        self.0.check(if key.is_empty() {
            text
        } else {
            Cow::Borrowed(key)
        })?;
        Ok(Key(key))
    }
}

/// The name of [`KNOWN_KEYS`] that `s` is, or `""`.
pub(crate) fn known_key(s: &str) -> &'static str {
    // The length and the first byte first: most names differ there, without a `memcmp`.
    let first = s.as_bytes().first();
    KNOWN_KEYS
        .iter()
        .find(|k| k.len() == s.len() && k.as_bytes().first() == first && **k == s)
        .copied()
        .unwrap_or("")
}

/// What an object is read into, key by key: the one loop of [`Object`] calls `field` with
/// each key ([`Key`]'s name, `""` for one the reader does not know), which must read its
/// value, then `done`.
pub(crate) trait Fields<'de>: Sized {
    /// What the object gives.
    type Out;
    /// What a value of another type was expected to be (in serde's error).
    const WHAT: &'static str;
    /// Reads the value of `key`.
    fn field<A: MapAccess<'de>>(&mut self, key: &'static str, map: &mut A) -> Result<(), A::Error>;
    /// The object, once every key is read.
    fn done<E: de::Error>(self) -> Result<Self::Out, E>;
}

/// What a JSON array is read into, element by element: the one loop of [`List`] calls
/// `element` until it says the array ended.
pub(crate) trait Elements<'de>: Sized {
    /// What a value of another type was expected to be (in serde's error).
    const WHAT: &'static str;
    /// Reads the next element; `false` when there is none.
    fn element<A: SeqAccess<'de>>(&mut self, seq: &mut A) -> Result<bool, A::Error>;
}

/// Reads one JSON array into `E`.
pub(crate) struct List<E>(pub E);

impl<'de, E: Elements<'de>> DeserializeSeed<'de> for List<E> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, E: Elements<'de>> Visitor<'de> for List<E> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(E::WHAT)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut elements = self.0;
        while elements.element(&mut seq)? {}
        Ok(())
    }
}

/// Reads one JSON object into `F`, refusing a key it holds twice.
pub(crate) struct Object<F>(pub F);

impl<'de, F: Fields<'de>> DeserializeSeed<'de> for Object<F> {
    type Value = F::Out;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<F::Out, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, F: Fields<'de>> Visitor<'de> for Object<F> {
    type Value = F::Out;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(F::WHAT)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<F::Out, A::Error> {
        let mut fields = self.0;
        let mut seen = Seen::default();
        while let Some(key) = map.next_key_seed(KeySeed(&mut seen))? {
            fields.field(key.0, &mut map)?;
        }
        fields.done()
    }
}

/// An entry's `mode`: the mode it names, read without keeping the text, or the text when it
/// names none (for the error).
pub(crate) enum ModeText {
    Known(Mode),
    Other(String),
}

impl<'de> Deserialize<'de> for ModeText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ModeText, D::Error> {
        d.deserialize_str(ModeVisitor)
    }
}

pub(crate) struct ModeVisitor;

impl<'de> Visitor<'de> for ModeVisitor {
    type Value = ModeText;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        // What a `String` expects: the same error as before for a mode of another type.
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<ModeText, E> {
        Ok(match parse_mode(s) {
            Some(m) => ModeText::Known(m),
            None => ModeText::Other(s.to_string()),
        })
    }
}

/// `change.actions`: the action the list spells, read without keeping its words, or the
/// words when they spell none ward knows (for the error).
pub(crate) enum Actions {
    Known(Action),
    Unknown(Vec<String>),
}

impl Actions {
    pub(crate) fn action(&self) -> Option<Action> {
        match self {
            Actions::Known(a) => Some(*a),
            Actions::Unknown(_) => None,
        }
    }
}

impl<'de> Deserialize<'de> for Actions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Actions, D::Error> {
        d.deserialize_seq(ActionsVisitor)
    }
}

pub(crate) struct ActionsVisitor;

impl<'de> Visitor<'de> for ActionsVisitor {
    type Value = Actions;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        // What a `Vec<String>` expects: the same error as before for a list of another type.
        f.write_str("a sequence")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Actions, A::Error> {
        // Terraform's lists have one or two words; a third (or an unknown word) spells no
        // action, and then every word is kept.
        let mut words: [&'static str; 2] = [""; 2];
        let mut n = 0usize;
        while let Some(w) = seq.next_element::<ActionWord>()? {
            match w {
                ActionWord::Known(k) if n < 2 => {
                    words[n] = k;
                    n += 1;
                }
                other => {
                    // Spells nothing ward knows: keep the words read so far, this one and the
                    // rest.
                    let mut all: Vec<String> = words[..n].iter().map(|w| w.to_string()).collect();
                    all.push(other.into_string());
                    while let Some(w) = seq.next_element::<String>()? {
                        all.push(w);
                    }
                    return Ok(Actions::Unknown(all));
                }
            }
        }
        Ok(match Action::from_actions(&words[..n]) {
            Some(a) => Actions::Known(a),
            None => Actions::Unknown(words[..n].iter().map(|w| w.to_string()).collect()),
        })
    }
}

/// One word of `change.actions`: a word of [`Action::WORDS`] (not copied), or any other string.
pub(crate) enum ActionWord {
    Known(&'static str),
    Other(String),
}

impl ActionWord {
    fn into_string(self) -> String {
        match self {
            ActionWord::Known(w) => w.to_string(),
            ActionWord::Other(w) => w,
        }
    }
}

impl<'de> Deserialize<'de> for ActionWord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ActionWord, D::Error> {
        d.deserialize_str(ActionWordVisitor)
    }
}

pub(crate) struct ActionWordVisitor;

impl<'de> Visitor<'de> for ActionWordVisitor {
    type Value = ActionWord;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<ActionWord, E> {
        Ok(match Action::word(s) {
            Some(w) => ActionWord::Known(w),
            None => ActionWord::Other(s.to_string()),
        })
    }
}
