//! How a plan report is asked for: its format and, for the terminal and Markdown reports, colour,
//! the Markdown limit and the classes listed with their attributes.

use crate::group::Group;
use crate::Format;
use ward_model::Impact;

/// The default limit, in characters (a pull-request comment holds 65,536).
pub const DEFAULT_MARKDOWN_LIMIT: usize = 65_000;

/// The smallest limit the CLI accepts. Below it the library still never exceeds the limit, but the
/// report may be only a cut-off notice.
pub const MIN_MARKDOWN_LIMIT: usize = 1_000;

/// Options for [`crate::render`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderOptions {
    /// The format.
    pub format: Format,
    /// Terminal format only: use ANSI colours.
    pub color: bool,
    /// Markdown format only: the most characters the report may have.
    pub markdown_limit: usize,
    /// Terminal and Markdown formats: the low classes whose changes are listed with their
    /// attributes (`--expand`). The JSON report always carries them.
    pub expand: Expand,
}

/// The low classes whose changes the terminal and Markdown reports list with their attributes
/// (`ward plan --expand free,none`). By default a `free` change is one row (address and action)
/// and the `none` changes are only counted; a change above `free` always shows its attributes,
/// a create above `free` what it sets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expand {
    /// Each `free` change is listed with its attributes (a create's: what it sets).
    pub free: bool,
    /// Each `none` change (no-op, read, forget) is listed, with its attributes if it has any.
    pub none: bool,
}

impl Expand {
    /// Every class expanded.
    pub const ALL: Expand = Expand {
        free: true,
        none: true,
    };

    /// Whether changes of `g` are expanded.
    pub(crate) fn expands(self, g: Group) -> bool {
        match g {
            Group::Class(Impact::Free) => self.free,
            Group::Class(Impact::None) => self.none,
            _ => false,
        }
    }
}

impl RenderOptions {
    /// Whether the report shows what a delete removes (the delete's attributes, every leaf of
    /// the object destroyed): the JSON report always; the terminal and Markdown reports only
    /// for the changes `--expand` lists with their attributes (a delete above `free` shows what
    /// it destroys and why, not each attribute), so only when they expand a class. A caller
    /// that reads the plan for this report alone need not build them
    /// (`ward_plan::ReadOptions::removed`).
    pub fn shows_removed(&self) -> bool {
        match self.format {
            Format::Terminal | Format::Markdown => self.expand.free || self.expand.none,
            Format::Json | Format::Sarif | Format::Junit => true,
        }
    }

    /// Whether the report lists what every create sets (its attributes): the JSON report
    /// always; the terminal and Markdown reports list a create's only when it costs more than
    /// free or overwrites what exists, which its type's rules decide (a caller asks the
    /// knowledge which types those may be), or when they expand a class. A caller that reads
    /// the plan for this report alone builds the others' only for those types
    /// (`ward_plan::ReadOptions::created`).
    pub fn shows_created(&self) -> bool {
        self.shows_removed()
    }
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            format: Format::Terminal,
            color: false,
            markdown_limit: DEFAULT_MARKDOWN_LIMIT,
            expand: Expand::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON report always shows what a delete removes; the terminal and Markdown reports
    /// only when they expand a class.
    #[test]
    fn what_a_delete_removes_is_shown_by_json_and_by_expanded_reports() {
        let with = |format, expand| RenderOptions {
            format,
            expand,
            ..RenderOptions::default()
        };
        let free = Expand {
            free: true,
            none: false,
        };
        let none = Expand {
            free: false,
            none: true,
        };
        assert!(with(Format::Json, Expand::default()).shows_removed());
        for format in [Format::Terminal, Format::Markdown] {
            assert!(
                !with(format, Expand::default()).shows_removed(),
                "{format:?}"
            );
            assert!(with(format, free).shows_removed(), "{format:?}");
            assert!(with(format, none).shows_removed(), "{format:?}");
        }
    }
}
