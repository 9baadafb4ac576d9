//! Which resource types hold data: the one question WARD-DATA-001 asks ward's knowledge.
//!
//! Behind a small trait so the rule is tested with a fake and the command uses
//! `ward_rules::Knowledge`.

/// Answers whether a resource type holds data.
pub trait DataHolding {
    /// `Some(true)` when destroying an object of this type loses data, `Some(false)` when it
    /// does not, `None` when the knowledge does not say.
    fn holds_data(&self, resource_type: &str) -> Option<bool>;
    /// Which rule said so, for the finding's message (e.g. `aws@2026.11.0:aws_db_instance`).
    fn source(&self, resource_type: &str) -> String;
}

/// Knowledge that knows nothing: the rule then finds nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoKnowledge;

impl DataHolding for NoKnowledge {
    fn holds_data(&self, _: &str) -> Option<bool> {
        None
    }
    fn source(&self, _: &str) -> String {
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
    fn holds_data(&self, t: &str) -> Option<bool> {
        Some(self.types.iter().any(|x| x == t))
    }
    fn source(&self, t: &str) -> String {
        format!("{}:{t}", self.origin)
    }
}
