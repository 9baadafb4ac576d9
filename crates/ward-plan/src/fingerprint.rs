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
        let mut seen = crate::unique::Seen::default();
        while let Some(crate::unique::KeyText(k)) = map.next_key()? {
            let v = map.next_value_seed(FpSeed)?;
            let mut h = Sha256::new();
            h.update(leaf(b"k", k.as_bytes()));
            seen.check(k)?;
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

/// Keyed approvals bind to the content fingerprint: a change to how any kind of value is
/// hashed would void every approval recorded before it, so each kind's digest is pinned here
/// (and the visitor methods serde_json's streaming parser never calls are checked directly).
/// The digests were computed apart from this code, from the scheme as documented above
/// (`leaf`: SHA-256 of tag, big-endian length, bytes; arrays and objects as `visit_seq` and
/// `visit_map` say), and agree with it.
#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod pinned {
    use super::*;

    fn hex(fp: Fp) -> String {
        data_encoding::HEXLOWER.encode(&fp)
    }

    fn stream(s: &str) -> Fp {
        let mut d = serde_json::Deserializer::from_str(s);
        FpSeed.deserialize(&mut d).unwrap()
    }

    const PINNED: &[(&str, &str)] = &[
        (
            "true",
            "50388f516e5987e871e32528c09d8b55912781c5f22e71fd79a632c8ddadcce2",
        ),
        (
            "false",
            "50870ea2c0d82b5b575c8cd5d7956999f85a91f347caa4ab773de809eb0a0397",
        ),
        (
            "-3",
            "c39f2b6623e3b5073be92bb04886ba05acadce444d6d1d9186d8fd62f597af51",
        ),
        (
            "3",
            "5f5f76aa46d7fab52f609361b0d4f5942e989b2b465f0671c604b326dc00e4ef",
        ),
        (
            "2.5",
            "3d6c4d2454c6d3435837ef4fadaa2b387f0f3447976b4f6b9e725aa3c802175d",
        ),
        (
            "\"s\"",
            "049d515283eb0b23cf3655d0648d630d8ab01d1b0e324d17bd2ce85dbfbaabdd",
        ),
        (
            "null",
            "1e6612d36269933d8f2a6cb655e6a564404af22a66bc4347732f6f4471458f69",
        ),
        (
            "[]",
            "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
        ),
        (
            "[1,null]",
            "b086e3d9097c091f9063bde5b41b20e4d3f6180444bc4f7297e64c8c3f2394b7",
        ),
        (
            "{}",
            "65c74c15a686187bb6bbf9958f494fc6b80068034a659a9ad44991b08c58f2d2",
        ),
        (
            "{\"k\":1}",
            "8badff465106ce59cb9811459a3767f1a6b34a9633ff737af60f62721c867cd9",
        ),
    ];

    #[test]
    fn each_kind_of_value_has_its_pinned_fingerprint() {
        for (json, want) in PINNED {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            assert_eq!(hex(stream(json)), *want, "{json}");
            assert_eq!(hex(of_value(&v)), *want, "{json}");
        }
    }

    #[test]
    fn the_combined_fingerprint_is_pinned() {
        let one = Some(stream("1"));
        let got = combine(&[one, None, one, None, None]);
        assert_eq!(
            hex(got),
            "f77abbe7c385081629eff7697a0dd0d47ad801ebb8e4832e917075401a4dbb02"
        );
        assert_ne!(got, combine(&[None, one, one, None, None]));
    }

    #[test]
    fn an_optional_hashes_as_null_or_as_its_value() {
        let none = Visitor::visit_none::<serde_json::Error>(FpSeed).unwrap();
        assert_eq!(none, stream("null"));
        let some = Visitor::visit_some(FpSeed, serde_json::json!("x")).unwrap();
        assert_eq!(some, stream("\"x\""));
    }

    #[test]
    fn bytes_are_not_a_json_value() {
        let e = Visitor::visit_bytes::<serde_json::Error>(FpSeed, b"x").unwrap_err();
        assert!(e.to_string().contains("expected a JSON value"), "{e}");
    }
}
