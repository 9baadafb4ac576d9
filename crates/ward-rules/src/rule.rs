//! The loaded form of the rule format: packs, resource entries and attribute entries.

use crate::pattern::{glob_matches, provider_matches, strip_instance_keys, Pattern};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use ward_model::{AttrPath, Impact};

/// A built-in pack, as its header describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pack {
    /// Pack name, e.g. `aws`: reports cite `name@version`.
    pub name: String,
    /// Pack version, bumped on every change to the pack.
    pub version: String,
    /// The provider source the pack describes, e.g. `hashicorp/aws`. Informational: pack entries
    /// match by resource type, whatever registry host or namespace the plan names.
    pub provider: String,
    /// `checked` when the entries were checked against the provider's real schema, or
    /// `unavailable: <why>`.
    pub schema: String,
    /// One line on what the pack covers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The pack file, e.g. `crates/ward-rules/packs/aws.hcl`.
    pub file: String,
    /// How many resource entries the pack holds.
    pub entries: usize,
}

/// Which instances of a type a rule applies to. All given selectors must match; none given means
/// every instance of the type.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Selector {
    /// Glob on the instance address: `*` matches any run of characters, all else is literal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// Module path: matches instances whose module address equals it, with or without instance
    /// keys (`module.db` matches `module.db` and `module.db["eu"]`, not `module.db.module.x`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// Provider: `hashicorp/aws`, `aws` or a full address; matches any registry host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Values of top-level string attributes (`when = { type = "Microsoft.Storage/*" }`): each
    /// attribute's value, on every side of the change where the object exists, must be known and
    /// match its glob (`*` matches any run of characters). An azapi resource's ARM `type`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub when: BTreeMap<String, String>,
}

impl Selector {
    /// 0 = address glob, 1 = module, 2 = attribute values (`when`), 3 = provider, 4 = type
    /// only: lower is more specific and comes first.
    pub fn specificity(&self) -> u8 {
        if self.address.is_some() {
            0
        } else if self.module.is_some() {
            1
        } else if !self.when.is_empty() {
            2
        } else if self.provider.is_some() {
            3
        } else {
            4
        }
    }

    /// True when the selector narrows a type to some instances (address, module or attribute
    /// values).
    pub fn narrows_instances(&self) -> bool {
        self.address.is_some() || self.module.is_some() || !self.when.is_empty()
    }
}

/// What a `when` selector reads of one change: for a top-level attribute, its value on each
/// side of the change where the object exists (the prior object of an update, delete or
/// replacement when known, the planned one of a create, update or replacement), each `None`
/// when not a known, non-sensitive string. No side at all: the value is not known.
pub type Values<'v> = &'v dyn Fn(&str) -> Vec<Option<String>>;

/// True when every side's value is a known string matching the glob, and there is a side.
fn value_matches(glob: &str, sides: &[Option<String>]) -> bool {
    !sides.is_empty()
        && sides
            .iter()
            .all(|v| v.as_deref().is_some_and(|v| glob_matches(glob, v)))
}

/// What a numeric attribute's change costs by its direction (`decrease`, `increase` and
/// `unbounded` in an `attribute` block): a shorter retention loses what the longer kept, a
/// larger volume grows in place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Direction {
    /// What a smaller value costs.
    pub decrease: Impact,
    /// What a larger value costs.
    pub increase: Impact,
    /// Values that mean "no limit" (`0` for a log group's retention: never expire; `null` for
    /// an absent value that means the same): larger than every number.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unbounded: Vec<Bound>,
}

/// One `unbounded` value: a number, or `null` (the attribute absent or null). Exported as the
/// rule wrote it: `0`, `-1`, `0.5` or `null`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// A number, e.g. `0`.
    Number(f64),
    /// `null`.
    Null,
}

// The numbers come from HCL number literals, which are never NaN: equality is total.
impl Eq for Bound {}

impl Serialize for Bound {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            // A whole number within i64 prints as one (`0`, not `0.0`).
            Bound::Number(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => s.serialize_i64(n as i64),
            Bound::Number(n) => s.serialize_f64(n),
            Bound::Null => s.serialize_none(),
        }
    }
}

/// Which way a numeric value moved ([`Direction::moved`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Moved {
    /// To a smaller value (or from unbounded to a bound).
    Decrease,
    /// To a larger value (or to unbounded).
    Increase,
    /// Unknown or not numeric on one side: the worse of the two costs applies.
    Unknown,
}

impl Direction {
    /// Which way a value moved from `before` to `after` (`None`: absent or null). Numbers and
    /// numeric strings (Kubernetes quantities such as `"10Gi"` included) compare as numbers; an `unbounded` value is larger than any number;
    /// anything else (unknown until apply, sensitive, not a number) is [`Moved::Unknown`].
    pub fn moved(
        &self,
        before: Option<&serde_json::Value>,
        after: Option<&serde_json::Value>,
    ) -> Moved {
        let (Some(b), Some(a)) = (self.level(before), self.level(after)) else {
            return Moved::Unknown;
        };
        match b.partial_cmp(&a) {
            Some(std::cmp::Ordering::Greater) => Moved::Decrease,
            Some(std::cmp::Ordering::Less) => Moved::Increase,
            // The same level (0 → null when both mean "no limit"): the cheaper cost.
            Some(std::cmp::Ordering::Equal) => {
                if self.decrease <= self.increase {
                    Moved::Decrease
                } else {
                    Moved::Increase
                }
            }
            None => Moved::Unknown,
        }
    }

    /// What a move costs: its direction's cost, the worse of the two when unknown.
    pub fn cost(&self, moved: Moved) -> Impact {
        match moved {
            Moved::Decrease => self.decrease,
            Moved::Increase => self.increase,
            Moved::Unknown => self.decrease.max(self.increase),
        }
    }

    /// A value's place on the number line: `f64::INFINITY` when unbounded, `None` when it is
    /// neither a number nor an `unbounded` value.
    fn level(&self, v: Option<&serde_json::Value>) -> Option<f64> {
        let n = match v {
            None | Some(serde_json::Value::Null) => {
                return self
                    .unbounded
                    .contains(&Bound::Null)
                    .then_some(f64::INFINITY)
            }
            Some(serde_json::Value::Number(n)) => n.as_f64()?,
            Some(serde_json::Value::String(s)) => quantity(s)?,
            Some(_) => return None,
        };
        if self.unbounded.contains(&Bound::Number(n)) {
            Some(f64::INFINITY)
        } else {
            Some(n)
        }
    }
}

/// A numeric string as a number: `"7"`, `" 30 "`, or a size with a binary or decimal suffix as
/// Kubernetes writes quantities (`"10Gi"`, `"500M"`, `"1.5Ti"`, `"2k"`). Anything else (`"600s"`,
/// `"P1M"`, `"10 Gi"`, a lowercase `m`) is not a number.
fn quantity(s: &str) -> Option<f64> {
    const SUFFIXES: &[(&str, f64)] = &[
        ("Ki", 1024.0),
        ("Mi", 1_048_576.0),
        ("Gi", 1_073_741_824.0),
        ("Ti", 1_099_511_627_776.0),
        ("Pi", 1_125_899_906_842_624.0),
        ("Ei", 1_152_921_504_606_846_976.0),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
        ("E", 1e18),
    ];
    let s = s.trim();
    let (digits, scale) = SUFFIXES
        .iter()
        .find_map(|(suffix, scale)| s.strip_suffix(suffix).map(|d| (d, *scale)))
        .unwrap_or((s, 1.0));
    // A suffix needs a plain number before it: "Gi" alone or "1e3Gi" is not a size.
    if scale != 1.0 && !digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let n = digits.parse::<f64>().ok()? * scale;
    n.is_finite().then_some(n)
}

/// A type is authoritative or adopting: creating it takes over state that already exists
/// outside this root (an organization's whole IAM policy, a VPC's default security group, a
/// subnet's association), and every update rewrites it again. The `overwrites` block; the
/// `modifies` block has the same fields for a type whose create changes an existing object
/// without taking it over (adds a rule to a security group, a grant to a project's policy).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Overwrites {
    /// The least a create (or a replacement) costs: never `none` or `free`.
    pub impact: Impact,
    /// What is overwritten, as a phrase: "replaces the whole IAM policy of the organization".
    pub what: String,
    /// What follows, when the rule says: "every grant not listed here is removed".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The top-level attributes whose planned values name the existing object (`org_id`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub target: Vec<String>,
    /// The top-level attributes whose planned values change the existing object: when given, a
    /// create that sets none of them (each absent, null, empty or known only after apply, which
    /// a create leaves to the existing object) changes nothing (`aws_default_subnet` with only
    /// its zone adopts the subnet as it is). Empty: every create changes it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub when_set: Vec<String>,
    /// 1-based line of the block in its file.
    pub line: usize,
}

/// What changing one attribute (pattern) costs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttrRule {
    /// The pattern, e.g. `root_block_device.volume_size`.
    pub pattern: String,
    /// What changing it costs (for a directional entry, the worse of its two directions: what an
    /// unknown direction costs).
    pub impact: Impact,
    /// What a decrease and an increase cost, for a directional entry.
    #[serde(skip_serializing_if = "Option::is_none", flatten)]
    pub direction: Option<Direction>,
    /// Why, in plain words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// 1-based line in the rule's file.
    pub line: usize,
    #[serde(skip)]
    pub(crate) compiled: Pattern,
    /// The reference decisions by this entry cite (the rule's, [`Rule::rule_ref`], with this
    /// pattern as its attribute), made once when the rule is read and shared by every decision.
    #[serde(skip)]
    pub(crate) reference: Arc<RuleRef>,
}

/// One `resource` block: what ward knows about a resource type (or some of its instances).
/// Every field but the type and origin is optional: a question the rule does not answer falls to
/// the next rule in precedence order, and then to the defaults (see `docs/rules.md`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rule {
    /// Where the rule comes from.
    pub origin: RuleOrigin,
    /// The resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// 1-based line of the `resource` block in its file.
    pub line: usize,
    /// Which instances it applies to.
    pub selector: Selector,
    /// One line on what the resource is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Where the knowledge comes from (provider docs URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Why the costs are what they are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rationale: Option<String>,
    /// The object holds data: destroying or replacing it is data-loss.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holds_data: Option<bool>,
    /// Identity attributes: new after a replacement, lost on destroy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity: Option<Vec<String>>,
    /// Cost of creating one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_create: Option<Impact>,
    /// Cost of a changed attribute that no attribute entry names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_update: Option<Impact>,
    /// Cost of destroying one (data-loss when it holds data).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_delete: Option<Impact>,
    /// Cost of replacing one (data-loss when it holds data).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_replace: Option<Impact>,
    /// The boolean attribute that, when true in the object's last known values, means no final
    /// snapshot is taken on destroy (`skip_final_snapshot`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_snapshot_skip: Option<String>,
    /// The attribute that names the final snapshot taken on destroy
    /// (`final_snapshot_identifier`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_snapshot_name: Option<String>,
    /// Attributes that are lists of access rules (`ingress`, `egress`): an entry removed from
    /// one removes access.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access_rules: Option<Vec<String>>,
    /// The object itself grants access (a security-group or firewall rule resource): destroying
    /// it removes access.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grants_access: Option<bool>,
    /// Creating it takes over state that exists outside this root (the `overwrites` block).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overwrites: Option<Overwrites>,
    /// Creating it changes an object that exists outside this root without taking it over (the
    /// `modifies` block): a rule added to a security group, a grant to a project's policy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modifies: Option<Overwrites>,
    /// Attribute entries (`attribute` blocks and `free` entries), in file order.
    pub attributes: Vec<AttrRule>,
    /// Sort key: (user 0 / pack 1, specificity, file index, line).
    #[serde(skip)]
    pub(crate) rank: (u8, u8, usize, usize),
    /// `identity` and `access_rules` as attribute paths, parsed once when the rule is read
    /// (the classifier asks for them on every change).
    #[serde(skip)]
    pub(crate) paths: RulePaths,
    /// The reference decisions by this rule cite ([`Rule::rule_ref`]), made once when the rule
    /// is read and shared by every decision: a decision clones the `Arc` instead of copying
    /// the origin and type.
    #[serde(skip)]
    pub(crate) reference: Arc<RuleRef>,
}

/// A rule's attribute-name lists as attribute paths (see [`Rule::identity`] and
/// [`Rule::access_rules`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct RulePaths {
    pub(crate) identity: Option<Vec<AttrPath>>,
    pub(crate) access_rules: Option<Vec<AttrPath>>,
}

impl RulePaths {
    /// The paths of a rule's `identity` and `access_rules` lists.
    pub(crate) fn of(identity: Option<&[String]>, access_rules: Option<&[String]>) -> RulePaths {
        RulePaths {
            identity: identity.map(crate::pattern::names_as_paths),
            access_rules: access_rules.map(crate::pattern::names_as_paths),
        }
    }
}

/// The instance a lookup is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target<'a> {
    /// Resource type.
    pub type_name: &'a str,
    /// Instance address, e.g. `module.db.aws_db_instance.main[0]`.
    pub address: &'a str,
    /// Module address (`None` in the root module).
    pub module: Option<&'a str>,
    /// Provider address as the plan gives it.
    pub provider: &'a str,
}

impl Rule {
    /// The reference reports print for this rule, e.g. `aws@2026.11.0:aws_instance`.
    pub fn rule_ref(&self) -> RuleRef {
        RuleRef::clone(&self.reference)
    }

    /// True when the rule applies to this instance. A rule narrowed by `when` applies only
    /// through [`Rule::matches_values`], which is given the change's values.
    pub fn matches(&self, t: &Target<'_>) -> bool {
        self.matches_values(t, &|_| Vec::new())
    }

    /// True when the rule applies to this instance, whose attribute values `values` gives.
    pub fn matches_values(&self, t: &Target<'_>, values: Values<'_>) -> bool {
        if self.type_name != t.type_name {
            return false;
        }
        for (attribute, glob) in &self.selector.when {
            if !value_matches(glob, &values(attribute)) {
                return false;
            }
        }
        if let Some(glob) = &self.selector.address {
            if !glob_matches(glob, t.address) {
                return false;
            }
        }
        if let Some(module) = &self.selector.module {
            let Some(have) = t.module else {
                return false;
            };
            if module != have && *module != strip_instance_keys(have) {
                return false;
            }
        }
        if let Some(p) = &self.selector.provider {
            if !provider_matches(p, t.provider) {
                return false;
            }
        }
        true
    }

    /// True when the rule applies to every instance of the type from this provider (used for
    /// types seen only in configuration or state, where no instance address is known).
    pub fn covers_type(&self, type_name: &str, provider: Option<&str>) -> bool {
        if self.type_name != type_name || self.selector.narrows_instances() {
            return false;
        }
        match (&self.selector.provider, provider) {
            (None, _) => true,
            (Some(sel), Some(p)) => provider_matches(sel, p),
            (Some(_), None) => false,
        }
    }
}

/// Where a rule comes from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum RuleOrigin {
    /// A built-in pack, e.g. `aws` version `2026.11.0`.
    Pack {
        /// Pack name.
        name: String,
        /// Pack version.
        version: String,
    },
    /// A user rule: a `resource` block of `ward.hcl`, or of a rule file it names.
    User {
        /// The file, as given or found (relative to the repository root when found there).
        file: String,
        /// 1-based line of the `resource` block.
        line: usize,
    },
}

/// The rule that decided something: which pack or file, which resource type entry and, when the
/// decision came from an attribute entry, which attribute pattern.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct RuleRef {
    /// Pack or file.
    pub origin: RuleOrigin,
    /// The resource type entry.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The attribute pattern, for attribute-level decisions.
    pub attribute: Option<String>,
}

impl fmt::Display for RuleRef {
    /// `aws@2026.11.0:aws_instance[instance_type]` or `ward.hcl:12:fakecloud_volume`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

impl RuleRef {
    /// Writes what `Display` writes into any writer (a `Formatter`, or one that escapes as it
    /// goes), piece by piece through `write_str`: without a `Formatter` in between, a reference
    /// costs its pieces alone (ward-report's JSON record writes one for most changes).
    pub fn write_to<W: fmt::Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        match &self.origin {
            RuleOrigin::Pack { name, version } => {
                f.write_str(name)?;
                f.write_str("@")?;
                f.write_str(version)?;
            }
            RuleOrigin::User { file, line } => write!(f, "{file}:{line}")?,
        }
        f.write_str(":")?;
        f.write_str(&self.type_name)?;
        if let Some(a) = &self.attribute {
            f.write_str("[")?;
            f.write_str(a)?;
            f.write_str("]")?;
        }
        Ok(())
    }
}
