//! What ward's knowledge says about a resource: whether it holds data (WARD-DATA-001) and
//! whether any rule classifies it (WARD-COV-001).
//!
//! Behind a small trait so the rule is tested with a fake and the command uses
//! `ward_rules::Knowledge`.

/// A resource as the knowledge is asked about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Subject<'a> {
    /// Resource type, e.g. `aws_db_instance`.
    pub resource_type: &'a str,
    /// Address as seen from a root, e.g. `aws_db_instance.main` or
    /// `module.db.aws_db_instance.main`.
    pub address: &'a str,
    /// Module path (`module.db`), `None` in a root module.
    pub module: Option<&'a str>,
}

/// Answers whether a resource holds data.
pub trait DataHolding {
    /// `Some(true)` when destroying the object loses data, `Some(false)` when it does not,
    /// `None` when the knowledge does not say.
    fn holds_data(&self, subject: &Subject<'_>) -> Option<bool>;
    /// Which rule said so, for the finding's message (e.g. `aws@2026.11.0:aws_db_instance`).
    fn source(&self, subject: &Subject<'_>) -> String;
    /// `Some(true)` when some rule classifies the resource, `Some(false)` when none does,
    /// `None` when this knowledge cannot tell (WARD-COV-001 then finds nothing).
    fn classified(&self, _subject: &Subject<'_>) -> Option<bool> {
        None
    }
}

/// Knowledge that knows nothing: the rule then finds nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoKnowledge;

impl DataHolding for NoKnowledge {
    fn holds_data(&self, _: &Subject<'_>) -> Option<bool> {
        None
    }
    fn source(&self, _: &Subject<'_>) -> String {
        String::new()
    }
}

/// A fixed list of data-holding types, for tests and for callers with their own list.
#[derive(Debug, Default, Clone)]
pub struct TypeList {
    /// The types that hold data.
    pub types: Vec<String>,
    /// What to cite as the source.
    pub origin: String,
}

impl DataHolding for TypeList {
    fn holds_data(&self, s: &Subject<'_>) -> Option<bool> {
        Some(self.types.iter().any(|x| x == s.resource_type))
    }
    fn source(&self, s: &Subject<'_>) -> String {
        format!("{}:{}", self.origin, s.resource_type)
    }
    /// The listed types are the classified ones.
    fn classified(&self, s: &Subject<'_>) -> Option<bool> {
        Some(self.types.iter().any(|x| x == s.resource_type))
    }
}

/// ward's knowledge (`ward_rules::Knowledge`: the built-in packs and `ward.hcl`'s `resource`
/// blocks) asked the data-holding question. The provider is unknown from configuration alone:
/// rules narrowed by provider do not apply.
pub struct RulesKnowledge(pub ward_rules::Knowledge);

impl RulesKnowledge {
    fn resolve(&self, s: &Subject<'_>) -> ward_rules::Resolved<'_> {
        self.0.resolve(&ward_rules::Target {
            type_name: s.resource_type,
            address: s.address,
            module: s.module,
            provider: "",
        })
    }
}

impl DataHolding for RulesKnowledge {
    fn holds_data(&self, s: &Subject<'_>) -> Option<bool> {
        let r = self.resolve(s);
        r.is_classified().then(|| r.holds_data().value)
    }

    fn classified(&self, s: &Subject<'_>) -> Option<bool> {
        Some(self.resolve(s).is_classified())
    }

    fn source(&self, s: &Subject<'_>) -> String {
        self.resolve(s)
            .holds_data()
            .rule
            .map(|x| x.to_string())
            .unwrap_or_default()
    }
}
