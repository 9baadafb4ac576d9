//! How ward names a SHA-256 digest (`sha256:<hex>`): of outputs, state backups and saved
//! plans' JSON.

/// `sha256:<hex>` of `bytes`: how ward names the digest of outputs and state backups.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    digest_text(&Sha256::digest(bytes))
}

/// `sha256:` and the hex of a SHA-256 digest.
pub(crate) fn digest_text(d: &[u8]) -> String {
    let mut s = String::with_capacity(7 + 64);
    s.push_str("sha256:");
    for b in d.iter() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}
