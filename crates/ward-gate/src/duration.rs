//! Durations as people write them: `90s`, `30m`, `24h`, `7d`, `2w`, `1d12h`.

use std::time::Duration;

/// Parses a duration: one or more `<number><unit>` groups, unit one of `s`, `m`, `h`, `d`, `w`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let bad = || {
        format!(
            "invalid duration `{s}`: write a number and a unit (s, m, h, d, w), e.g. `90s`, `24h`, `7d`, `1d12h`"
        )
    };
    let s_trim = s.trim();
    if s_trim.is_empty() {
        return Err(bad());
    }
    let mut total: u64 = 0;
    let mut num = String::new();
    for c in s_trim.chars() {
        if c.is_ascii_digit() {
            num.push(c);
            continue;
        }
        let unit: u64 = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 604_800,
            _ => return Err(bad()),
        };
        if num.is_empty() {
            return Err(bad());
        }
        let n: u64 = num.parse().map_err(|_| bad())?;
        total = n
            .checked_mul(unit)
            .and_then(|x| total.checked_add(x))
            .ok_or_else(bad)?;
        num.clear();
    }
    if !num.is_empty() {
        return Err(bad());
    }
    Ok(Duration::from_secs(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("7d"), Ok(Duration::from_secs(604_800)));
        assert_eq!(parse_duration("1d12h"), Ok(Duration::from_secs(129_600)));
        for bad in ["", "h", "12", "3x", "-1h", "1.5h", "99999999999999999999w"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
    }
}
