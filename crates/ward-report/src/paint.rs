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

    /// [`Painter::paint`] appended to `out`, without a string of its own.
    pub(crate) fn push(&self, out: &mut String, style: Style, text: &str) {
        if self.color {
            use std::fmt::Write as _;
            let _ = write!(out, "{style}{text}{style:#}");
        } else {
            out.push_str(text);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Appending paints exactly what [`Painter::paint`] returns, colour on or off, after
    /// what `out` already holds.
    #[test]
    fn push_appends_what_paint_returns() {
        for color in [false, true] {
            let p = Painter { color };
            for style in [Style::new().bold(), Style::new().dimmed(), Style::new()] {
                let mut out = String::from("x ");
                p.push(&mut out, style, "decided by a@1:t");
                assert_eq!(out, format!("x {}", p.paint(style, "decided by a@1:t")));
            }
        }
        assert_eq!(
            Painter { color: true }.paint(Style::new().bold(), "a"),
            "\u{1b}[1ma\u{1b}[0m"
        );
    }
}
