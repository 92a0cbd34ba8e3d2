//! An event as a one-shot process reads it: `hookwire bridge` from the agent's pipe, `hookwire
//! fire`, `explain` and `list` from a file or stdin. The host wrote it, the model wrote its tool
//! input, a tool wrote its output; whatever it holds, it must still meet the user's guards, since
//! a refusal is an exit 1 that most agents read as "go on". So it is bounded in size ([`MAX_READ`])
//! and read with what the engine cannot hold left out and said: parts nested too deep
//! (`json::clip`), the rest of long strings of a text over [`MAX_WHOLE`] (`json::cut`),
//! unpaired surrogate escapes read as U+FFFD and numbers no double holds as `null`
//! (`json::value_from_str`). Apart from `json/`, because what was not read settles a fire's
//! result (and `result` reads `json`).

use crate::json::clip::Clip;
use crate::json::cut::Cut;
use crate::result::FireResult;
use crate::verdict::Decision;
use serde_json::Value;
use std::borrow::Cow;

/// The most bytes of an event read whole (an event carries a tool's output, which the agent
/// may not have cut). A larger one is read with its long strings cut ([`CUT_KEEP`]).
pub const MAX_WHOLE: usize = 16 << 20;

/// The most bytes of an event taken at all: above it the event is refused. What is read
/// stays in memory once.
pub const MAX_READ: usize = 256 << 20;

/// Bytes kept of each string of an event larger than [`MAX_WHOLE`].
pub const CUT_KEEP: usize = 1 << 20;

/// What was not read of an event: parts nested too deep (`json::clip`), the rest of strings
/// of an event too large to read whole (`json::cut`). The hooks ran on the rest.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unread {
    pub clip: Option<Clip>,
    pub cut: Option<Cut>,
}

impl Unread {
    /// One warning per kind of part not read.
    pub fn warnings(&self) -> Vec<String> {
        // The hooks were given the event as read (the parsed value), markers included.
        self.cut.iter().map(Cut::warning).chain(self.clip.iter().map(Clip::warning_as_read)).collect()
    }

    /// A fire's result on an event not read whole, as the host may take it: a hook's `allow`
    /// approved what it was shown, not the tool call (an auto-approver of `ls *` shown `ls` and
    /// blanks cut before `; rm -rf ~`), so it is dropped with a warning and the host decides as
    /// it would without hooks; a deny, an ask and a block stand. The warnings of
    /// [`Unread::warnings`] are added too.
    pub fn settle(&self, result: &mut FireResult) {
        if (self.cut.is_some() || self.clip.is_some()) && result.decision == Some(Decision::Allow) {
            result.decision = None;
            result.reason = None;
            result.warnings.push(
                "a hook allowed a tool call hookwire did not read whole (the event was cut or nested too deep): the allow is dropped, the agent decides as without hooks"
                    .to_string(),
            );
        }
        result.warnings.extend(self.warnings());
    }
}

/// Why an event could not be read at all.
#[derive(Debug)]
pub enum Unreadable {
    /// Nothing but blanks.
    Empty,
    /// Too large even with its strings cut; the text says how.
    TooLarge(String),
    NotUtf8(std::str::Utf8Error),
    /// Not JSON (serde_json's error: its line and column).
    Json(serde_json::Error),
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::Empty => write!(f, "it was empty"),
            Unreadable::TooLarge(why) => write!(f, "{why}"),
            Unreadable::NotUtf8(e) => write!(f, "not JSON: not UTF-8: {e}"),
            Unreadable::Json(e) => write!(f, "not JSON: {e}"),
        }
    }
}

/// Reads an event's bytes as the engine holds them, with what was not read said in [`Unread`].
/// Any JSON value: whether it is an object is the caller's to say.
pub fn read(bytes: &[u8]) -> Result<(Value, Unread), Unreadable> {
    if bytes.len() > MAX_READ {
        return Err(Unreadable::TooLarge(format!("larger than {} MiB", MAX_READ >> 20)));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Unreadable::Empty);
    }
    let mut text = Cow::Borrowed(std::str::from_utf8(bytes).map_err(Unreadable::NotUtf8)?);
    let mut unread = Unread::default();
    if text.len() > MAX_WHOLE {
        let whole = text.len();
        let Some((shorter, cut)) = crate::json::cut::cut(&text, CUT_KEEP) else {
            return Err(Unreadable::TooLarge(format!(
                "larger than {} MiB ({whole} bytes) with no string longer than {} MiB to cut",
                MAX_WHOLE >> 20,
                CUT_KEEP >> 20
            )));
        };
        if shorter.len() > MAX_WHOLE {
            return Err(Unreadable::TooLarge(format!(
                "larger than {} MiB even with its strings cut to {} MiB ({} of {whole} bytes)",
                MAX_WHOLE >> 20,
                CUT_KEEP >> 20,
                shorter.len()
            )));
        }
        text = Cow::Owned(shorter);
        unread.cut = Some(cut);
    }
    let (value, clip) = crate::json::event_from_str(&text).map_err(Unreadable::Json)?;
    unread.clip = clip;
    Ok((value, unread))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_read_with_lone_surrogates_deep_parts_and_long_strings_left_out_and_said() {
        let (v, u) = read(br#"{"tool_input":{"command":"rm -rf x \ud800"}}"#).unwrap();
        assert_eq!((v["tool_input"]["command"].as_str(), u), (Some("rm -rf x \u{fffd}"), Unread::default()));
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(300), "]".repeat(300));
        let (_, u) = read(deep.as_bytes()).unwrap();
        assert_eq!((u.clip.map(|c| c.count), u.cut), (Some(1), None));
        let long = format!("{{\"c\":\"{}\"}}", "x".repeat(MAX_WHOLE));
        let (v, u) = read(long.as_bytes()).unwrap();
        assert!(crate::json::cut::is_cut(v["c"].as_str().unwrap()));
        assert_eq!(u.cut.map(|c| (c.strings, c.bytes)), Some((1, MAX_WHOLE - CUT_KEEP)));
    }

    #[test]
    fn what_cannot_be_read_at_all_says_why() {
        assert!(matches!(read(b" \n "), Err(Unreadable::Empty)));
        assert!(matches!(read(b"{\xff}"), Err(Unreadable::NotUtf8(_))));
        assert!(matches!(read(b"{"), Err(Unreadable::Json(_))));
        let mut many = vec![b' '; MAX_WHOLE];
        many.extend_from_slice(b"[1]");
        assert!(read(&many).unwrap_err().to_string().contains("no string longer than 1 MiB"));
        let huge = vec![b' '; MAX_READ + 1];
        assert!(read(&huge).unwrap_err().to_string().contains("larger than 256 MiB"));
    }

    #[test]
    fn an_allow_of_an_event_not_read_whole_is_dropped_and_a_deny_stands() {
        let cut = Unread { clip: None, cut: Some(Cut { strings: 1, bytes: 9, keep: 4 }) };
        let mut r = FireResult { decision: Some(Decision::Allow), ..FireResult::empty("PreToolUse") };
        cut.settle(&mut r);
        assert_eq!(r.decision, None);
        assert!(r.warnings.iter().any(|w| w.contains("the allow is dropped")), "{:?}", r.warnings);
        let mut r = FireResult { decision: Some(Decision::Deny), ..FireResult::empty("PreToolUse") };
        cut.settle(&mut r);
        assert_eq!(r.decision, Some(Decision::Deny));
        let mut r = FireResult { decision: Some(Decision::Allow), ..FireResult::empty("PreToolUse") };
        Unread::default().settle(&mut r);
        assert_eq!((r.decision, r.warnings.len()), (Some(Decision::Allow), 0));
    }
}
