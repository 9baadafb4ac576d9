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
