//! The content fingerprint of a change: SHA-256 over every value of its `change` object
//! (`before`, `after`, `after_unknown`, `before_sensitive`, `after_sensitive`), raw, whether the
//! model keeps the values or not. Skipped values are hashed as they stream by (never built), so
//! memory stays bounded. Object members are hashed independently of their order, so a plan
//! re-serialized with other key order has the same fingerprint. It is derived from secret values:
//! it only ever leaves the reader as a [`ward_model::HiddenDigest`].

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use sha2::{Digest, Sha256};
use std::fmt;

/// A SHA-256 digest.
pub(crate) type Fp = [u8; 32];

fn leaf(tag: &[u8], bytes: &[u8]) -> Fp {
    let mut h = Sha256::new();
    h.update(tag);
    h.update((bytes.len() as u64).to_be_bytes());
    h.update(bytes);
    h.finalize().into()
}

/// Hashes one JSON value as it is deserialized.
pub(crate) struct FpSeed;

impl<'de> DeserializeSeed<'de> for FpSeed {
    type Value = Fp;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Fp, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FpSeed {
    type Value = Fp;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Fp, E> {
        Ok(leaf(b"b", &[u8::from(v)]))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Fp, E> {
        Ok(leaf(b"n", v.to_string().as_bytes()))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Fp, E> {
        Ok(leaf(b"n", v.to_string().as_bytes()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Fp, E> {
        Ok(leaf(b"f", &v.to_bits().to_be_bytes()))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Fp, E> {
        Ok(leaf(b"s", v.as_bytes()))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Fp, E> {
        Ok(leaf(b"z", &[]))
    }
    fn visit_none<E: de::Error>(self) -> Result<Fp, E> {
        Ok(leaf(b"z", &[]))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Fp, D::Error> {
        FpSeed.deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Fp, A::Error> {
        let mut h = Sha256::new();
        h.update(b"a");
        while let Some(x) = seq.next_element_seed(FpSeed)? {
            h.update(x);
        }
        Ok(h.finalize().into())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fp, A::Error> {
        let mut members: Vec<Fp> = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            let v = map.next_value_seed(FpSeed)?;
            let mut h = Sha256::new();
            h.update(leaf(b"k", k.as_bytes()));
            h.update(v);
            members.push(h.finalize().into());
        }
        members.sort_unstable();
        let mut h = Sha256::new();
        h.update(b"o");
        for m in &members {
            h.update(m);
        }
        Ok(h.finalize().into())
    }
}

/// The fingerprint of a value already built.
pub(crate) fn of_value(v: &serde_json::Value) -> Fp {
    // A `Value` always deserializes; the fallback is unreachable but fails closed to a digest
    // no real value has.
    FpSeed.deserialize(v).unwrap_or([0xff; 32])
}

/// The content fingerprint of a change from the fingerprints of its five values (in the order
/// before, after, after_unknown, before_sensitive, after_sensitive; `None`: absent).
pub(crate) fn combine(parts: &[Option<Fp>; 5]) -> Fp {
    let mut h = Sha256::new();
    h.update(b"ward-change-content-v1");
    for p in parts {
        match p {
            Some(d) => {
                h.update([1]);
                h.update(d);
            }
            None => h.update([0]),
        }
    }
    h.finalize().into()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn stream(s: &str) -> Fp {
        let mut d = serde_json::Deserializer::from_str(s);
        FpSeed.deserialize(&mut d).unwrap()
    }

    #[test]
    fn streamed_and_built_agree_and_order_does_not_matter() {
        let a = r#"{"id":"vol-1","size":10,"tags":{"b":[1,2.5,null,true],"a":"x"}}"#;
        let b = r#"{"tags":{"a":"x","b":[1,2.5,null,true]},"size":10,"id":"vol-1"}"#;
        let v: serde_json::Value = serde_json::from_str(a).unwrap();
        assert_eq!(stream(a), of_value(&v));
        assert_eq!(stream(a), stream(b));
        assert_ne!(stream(a), stream(&a.replace("vol-1", "vol-2")));
        assert_ne!(stream("[1,2]"), stream("[2,1]"));
        assert_ne!(stream("\"1\""), stream("1"));
    }
}
