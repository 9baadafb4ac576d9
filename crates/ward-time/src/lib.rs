//! Time, one owner: strict `YYYY-MM-DD` dates, durations as people write them (`90s`, `7d`,
//! `1d12h`), and "now" in UTC, behind one [`Clock`] that tests fix.
//!
//! Every ward command that reads a date (approval expiry, drift `ignore { expires }`, inline
//! suppression `until=`, `ward check --today`) parses it here, so `2026-02-31` is refused
//! everywhere. The only way to stop the clock is [`Clock::Fixed`], which code passes explicitly;
//! nothing here reads the environment.

use std::time::Duration;

pub use jiff::civil::Date;
pub use jiff::{SignedDuration, Timestamp};

/// Where "now" comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// The system clock, truncated to whole seconds.
    #[default]
    System,
    /// A fixed instant: the one test clock.
    Fixed(Timestamp),
}

impl Clock {
    /// Now, in whole seconds.
    pub fn now(&self) -> Timestamp {
        match self {
            Clock::Fixed(t) => *t,
            Clock::System => {
                let now = Timestamp::now();
                Timestamp::from_second(now.as_second()).unwrap_or(now)
            }
        }
    }

    /// Today's date in UTC.
    pub fn today(&self) -> Date {
        utc_date(self.now())
    }

    /// Now as RFC 3339 in UTC, whole seconds: `2026-12-01T09:30:00Z`.
    pub fn now_rfc3339(&self) -> String {
        rfc3339(self.now())
    }
}

/// A timestamp as RFC 3339 in UTC, whole seconds: `2026-12-01T09:30:00Z`.
pub fn rfc3339(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// The UTC calendar date of an instant.
pub fn utc_date(t: Timestamp) -> Date {
    t.to_zoned_datetime(jiff::tz::TimeZone::UTC).date()
}

/// Parses an RFC 3339 instant (`2026-11-29T18:00:00Z`).
pub fn parse_timestamp(s: &str) -> Result<Timestamp, String> {
    s.parse::<Timestamp>().map_err(|e| {
        format!("`{s}` is not an RFC 3339 time ({e}); write it like 2026-11-29T18:00:00Z")
    })
}

/// Parses a calendar date written exactly `YYYY-MM-DD`, refusing days that do not exist
/// (`2026-02-31`, `2026-13-01`) and every other spelling (`20260131`, `2026-1-31`).
pub fn parse_date(s: &str) -> Result<Date, String> {
    let shape = s.len() == 10
        && s.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if !shape {
        return Err(format!(
            "`{s}` is not a date: write it as YYYY-MM-DD, e.g. 2027-01-31"
        ));
    }
    s.parse::<Date>().map_err(|e| {
        format!("`{s}` is not a day of the calendar ({e}); write a real date as YYYY-MM-DD")
    })
}

/// Parses a duration in jiff's friendly format: one or more `<number><unit>` groups, largest unit
/// first (`90s`, `30m`, `24h`, `7d`, `2w`, `1d12h`, also `1.5h` or `2 hours 30 minutes`), a day
/// being 24 hours and a week 7 days. Refused: negative durations, months and years (their length
/// depends on the date), and parts of a second.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    static PARSER: jiff::fmt::friendly::SpanParser = jiff::fmt::friendly::SpanParser::new();
    let bad = |why: String| {
        format!(
            "invalid duration `{s}` ({why}): write numbers and units (s, m, h, d, w), largest first, e.g. `90s`, `24h`, `7d`, `1d12h`"
        )
    };
    let span = PARSER
        .parse_span(s.trim())
        .map_err(|e| bad(e.to_string()))?;
    if span.is_negative() {
        return Err(bad("it is negative".into()));
    }
    if span.get_years() != 0 || span.get_months() != 0 {
        return Err(bad("months and years have no fixed length".into()));
    }
    let d = span
        .to_duration(jiff::SpanRelativeTo::days_are_24_hours())
        .map_err(|e| bad(e.to_string()))?;
    if d.subsec_nanos() != 0 {
        return Err(bad("it has a part of a second".into()));
    }
    Duration::try_from(d).map_err(|e| bad(e.to_string()))
}

/// `t` plus a duration, or an error naming it when the result is out of range.
pub fn add(t: Timestamp, d: Duration) -> Result<Timestamp, String> {
    let secs = i64::try_from(d.as_secs()).map_err(|_| "the duration is too long".to_string())?;
    t.checked_add(SignedDuration::from_secs(secs))
        .map_err(|e| format!("the time is out of range: {e}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(604_800)));
        assert_eq!(parse_duration("1d12h"), Ok(Duration::from_secs(129_600)));
        // jiff's friendly format: fractions, spaces and unit names (#36 item 7).
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5_400)));
        assert_eq!(
            parse_duration("2 hours 30 minutes"),
            Ok(Duration::from_secs(9_000))
        );
        assert_eq!(parse_duration(" 2w "), Ok(Duration::from_secs(1_209_600)));
        for bad in [
            "",
            "h",
            "12",
            "3x",
            "-1h",
            "1.5s",
            "1mo",
            "1y",
            "30m1h",
            "99999999999999999999w",
        ] {
            let e = parse_duration(bad).unwrap_err();
            assert!(e.contains("e.g. `90s`"), "{bad}: {e}");
        }
    }

    #[test]
    fn dates_are_strict() {
        assert_eq!(
            parse_date("2026-02-28").unwrap(),
            Date::new(2026, 2, 28).unwrap()
        );
        assert!(parse_date("2028-02-29").is_ok());
        for bad in [
            "2026-02-31",
            "2026-02-29",
            "2026-04-31",
            "2026-13-01",
            "2026-00-10",
            "2026-01-00",
            "20260131",
            "2026-1-31",
            "2026-01-31T00:00:00Z",
            " 2026-01-31",
            "soon",
            "",
        ] {
            let e = parse_date(bad).unwrap_err();
            assert!(e.contains("YYYY-MM-DD"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_fixed_clock() {
        let c = Clock::Fixed(parse_timestamp("2026-11-29T23:59:59Z").unwrap());
        assert_eq!(c.today(), Date::new(2026, 11, 29).unwrap());
        assert_eq!(c.now_rfc3339(), "2026-11-29T23:59:59Z");
        assert!(parse_timestamp("yesterday").is_err());
        assert!(parse_timestamp("2026-02-31T00:00:00Z").is_err());
        let later = add(c.now(), Duration::from_secs(1)).unwrap();
        assert_eq!(utc_date(later), Date::new(2026, 11, 30).unwrap());
    }
}
