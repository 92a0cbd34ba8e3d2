//! A handler's `timeout` in its dialect's unit (seconds for Claude Code, milliseconds for
//! Gemini), checked and clamped the same way in every dialect: a value under the smallest
//! timeout is refused, one over a day is clamped, and one that looks written in the other unit
//! is kept with a warning (copied configurations mix them up: agents-2.md §3).

use super::TimeUnit;

/// Longest timeout kept: one day.
const MAX_S: f64 = 86_400.0;
/// A timeout in seconds of this or more was probably meant in milliseconds.
const SECONDS_LOOK_LIKE_MS: f64 = 10_000.0;
/// A timeout in milliseconds below this was probably meant in seconds.
const MS_LOOK_LIKE_SECONDS: f64 = 1_000.0;

/// A configured timeout read: seconds, and the warning to give about it.
pub(super) struct Read {
    pub seconds: f64,
    pub warning: Option<String>,
}

/// Reads `t`, a timeout written in `unit`; `Err(message)` = refused.
pub(super) fn read(t: f64, unit: TimeUnit, id: &str) -> Result<Read, String> {
    match unit {
        TimeUnit::Seconds => {
            if !crate::config::timeout_ok(t) {
                return Err("`timeout` must be a number of seconds ≥ 0.001".to_string());
            }
            if t > MAX_S {
                let why = format!(
                    "{id}: timeout {t} s is over {MAX_S} s (the unit is seconds, not milliseconds); clamped"
                );
                return Ok(Read { seconds: MAX_S, warning: Some(why) });
            }
            let warning = (t >= SECONDS_LOOK_LIKE_MS).then(|| {
                format!("{id}: timeout {t} is in seconds, not milliseconds ({:.1} hours)", t / 3600.0)
            });
            Ok(Read { seconds: t, warning })
        }
        TimeUnit::SecondsBelow1000 if t >= MS_LOOK_LIKE_SECONDS => read(t, TimeUnit::Milliseconds, id),
        TimeUnit::SecondsBelow1000 => read(t, TimeUnit::Seconds, id),
        TimeUnit::Milliseconds => {
            if !(t.is_finite() && t >= 1.0) {
                return Err("`timeout` must be a number of milliseconds ≥ 1".to_string());
            }
            if t > MAX_S * 1000.0 {
                let why = format!("{id}: timeout {t} ms is over one day; clamped");
                return Ok(Read { seconds: MAX_S, warning: Some(why) });
            }
            let warning = (t < MS_LOOK_LIKE_SECONDS).then(|| {
                format!("{id}: timeout {t} is in milliseconds (this dialect's unit), not seconds; kept")
            });
            Ok(Read { seconds: t / 1000.0, warning })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_over_a_day_are_clamped_and_large_ones_warned_as_milliseconds() {
        assert_eq!(read(90_000.0, TimeUnit::Seconds, "h").unwrap().seconds, MAX_S);
        let r = read(20_000.0, TimeUnit::Seconds, "h").unwrap();
        assert_eq!(r.seconds, 20_000.0);
        assert!(r.warning.unwrap().contains("not milliseconds"));
        assert!(read(5.0, TimeUnit::Seconds, "h").unwrap().warning.is_none());
        assert!(read(0.0, TimeUnit::Seconds, "h").is_err());
    }

    #[test]
    fn milliseconds_are_converted_and_small_ones_warned_as_seconds() {
        let r = read(1500.0, TimeUnit::Milliseconds, "h").unwrap();
        assert_eq!((r.seconds, r.warning.is_none()), (1.5, true));
        assert!(read(30.0, TimeUnit::Milliseconds, "h").unwrap().warning.unwrap().contains("not seconds"));
        assert_eq!(read(1e12, TimeUnit::Milliseconds, "h").unwrap().seconds, MAX_S);
        assert!(read(0.5, TimeUnit::Milliseconds, "h").is_err());
        assert!(read(f64::NAN, TimeUnit::Milliseconds, "h").is_err());
    }
}
