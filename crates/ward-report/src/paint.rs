//! The one terminal styler of every command's report ([`Painter`]): styles applied only when
//! colour is on, each line escaped first.

use crate::escape::terminal;
use crate::group::Group;
use anstyle::{AnsiColor, Style};
use ward_model::Impact;

/// Applies styles only when colour is on (every command's terminal report).
pub(crate) struct Painter {
    pub(crate) color: bool,
}

impl Painter {
    pub(crate) fn paint(&self, style: Style, text: &str) -> String {
        if self.color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    pub(crate) fn group_style(g: Group) -> Style {
        let fg = |c: AnsiColor| Style::new().fg_color(Some(c.into()));
        match g {
            Group::Unknown => fg(AnsiColor::Magenta).bold(),
            Group::Class(Impact::DataLoss) => fg(AnsiColor::Red).bold(),
            Group::Class(Impact::Replace) => fg(AnsiColor::Red),
            Group::Class(Impact::Interrupt) => fg(AnsiColor::Yellow),
            Group::Class(Impact::InPlace) => fg(AnsiColor::Cyan),
            Group::Class(Impact::Free) => fg(AnsiColor::Green),
            Group::Class(Impact::None) => Style::new().dimmed(),
        }
    }

    /// Appends one terminal line, escaped like [`term_line!`](crate::term_line), then styled
    /// whole.
    pub(crate) fn line(&self, out: &mut String, style: Style, line: &str) {
        out.push_str(&self.paint(style, &terminal(line)));
        out.push('\n');
    }

    /// The style of a report's verdict: bold green when it passed, bold red when not.
    pub(crate) fn verdict_style(passed: bool) -> Style {
        let c = if passed {
            AnsiColor::Green
        } else {
            AnsiColor::Red
        };
        Style::new().fg_color(Some(c.into())).bold()
    }

    /// [`Painter::line`] in the [verdict style](Painter::verdict_style).
    pub(crate) fn verdict_line(&self, out: &mut String, passed: bool, line: &str) {
        self.line(out, Self::verdict_style(passed), line);
    }

    pub(crate) fn tag(&self, g: Group) -> String {
        self.paint(Self::group_style(g), &g.name().to_uppercase())
    }

    pub(crate) fn dim(&self, text: &str) -> String {
        self.paint(Style::new().dimmed(), text)
    }

    pub(crate) fn bold(&self, text: &str) -> String {
        self.paint(Style::new().bold(), text)
    }
}
