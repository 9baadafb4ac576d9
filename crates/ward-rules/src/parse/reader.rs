//! The rule format's reader: ward-hcl's typed reader ([`ward_hcl::Reader`]: values, a body's keys
//! and blocks with the did-you-mean, labels, every error at `file:line:column`), to which the
//! other parse modules add the rule format's own values and blocks.

use crate::error::RulesError;
use hcl_edit::structure::{Attribute, Body};
use std::collections::BTreeMap;
use std::ops::Deref;

/// ward-hcl's [`ward_hcl::Reader`] of one rule file (or one block of a pack); the rule format's
/// readers (`impact`, `pattern`, `when`, `resource` ...) are methods of this type.
pub(crate) struct Reader<'a>(pub(super) ward_hcl::Reader<'a>);

impl<'a> Deref for Reader<'a> {
    type Target = ward_hcl::Reader<'a>;

    fn deref(&self) -> &ward_hcl::Reader<'a> {
        &self.0
    }
}

impl<'a> Reader<'a> {
    /// A reader of `text` (a byte order mark already stripped), citing it as `file`.
    pub(super) fn new(file: &'a str, text: &'a str) -> Self {
        Reader(ward_hcl::Reader::new(file, text))
    }

    /// The attributes of a body, by key, refusing unknown keys and nested blocks other than
    /// those in `blocks`.
    pub(super) fn attributes<'b>(
        &self,
        body: &'b Body,
        place: &str,
        keys: &[&str],
        blocks: &[&str],
    ) -> Result<BTreeMap<String, &'b Attribute>, RulesError> {
        Ok(self.fields(body, place, keys, blocks)?.attrs)
    }
}
