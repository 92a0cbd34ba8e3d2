//! What a Claude Code hook is given on stdin: the host's own bytes when it can be.

use crate::dialect::FireEvent;
use std::borrow::Cow;

/// The host's exact text when it gave text and nothing rewrote it, borrowed (a 1 MiB event is
/// not copied per hook); else the compact JSON of the current event (jcode hooks get the same).
pub fn payload<'e>(ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
    match ev.raw {
        Some(text) => Cow::Borrowed(text.as_bytes()),
        None => Cow::Owned(serde_json::to_vec(ev.current).unwrap_or_default()),
    }
}
