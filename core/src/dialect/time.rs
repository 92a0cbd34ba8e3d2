//! The dates dialects write into payloads: one instant per fire (`FireEvent::at`), as
//! JavaScript's `toISOString` (Gemini, Copilot's PascalCase events) or as epoch milliseconds
//! (Copilot's camelCase events).

use std::time::{SystemTime, UNIX_EPOCH};

/// UTC ISO 8601 with milliseconds and `Z` (`2026-11-24T01:52:07.226Z`), as JavaScript's
/// `toISOString` writes it. Written by hand from the civil-from-days algorithm (Howard
/// Hinnant's): no date crate is in the tree, and this is the only date the engine writes.
pub fn timestamp(at: SystemTime) -> String {
    let since = at.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let millis = since.subsec_millis();
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, mo, d) = civil_from_days(days);
    format!("{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z", rem / 3600, (rem % 3600) / 60, rem % 60)
}

/// Year, month, day of the day `z` days after 1970-01-01 (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Milliseconds since the epoch, as JavaScript's `Date.now()`.
pub fn epoch_millis(at: SystemTime) -> u64 {
    at.duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
