//! The shape ok, j-cli and ub share (protocol.md §9.3–§9.5): a map of the dialect's event
//! names to lists of hook objects, without matcher groups. This module walks it once — unknown
//! names, non-lists and non-objects reported by the document's strictness — and hands each
//! hook object to the dialect's own reader, with its pointer and hook id.

use crate::catalog::{Dialect, EventId};
use crate::config::{ConfigWarnings, Group, Handler, Parse};
use crate::config::{DocContext, Fields, escape};
use crate::dialect::NativeEvent;
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value};

/// One hook object of the map.
pub(crate) struct Entry<'v> {
    /// The event name as written, and what the dialect says of it.
    pub name: &'v str,
    pub native: &'static NativeEvent,
    /// The event ids it registers under (ub's `post_tool_call` has two).
    pub ids: Vec<EventId>,
    pub fields: Fields<'v>,
    pub ptr: &'v str,
    /// `<scope>:<name>[i]` (§2.6).
    pub id: String,
}

/// Reads a typed field of an entry; on a wrong type reports it (error or warning by the
/// document's strictness) and ends this entry's reader.
macro_rules! take {
    ($p:expr, $w:expr, $e:expr) => {
        match $e {
            Ok(v) => v,
            Err((at, msg)) => {
                $p.fail::<()>($w, &at, msg)?;
                return Ok(None);
            }
        }
    };
}
pub(crate) use take;

/// What a dialect's reader makes of one entry: the handler and its matcher, or nothing.
pub(crate) type Read = Option<(Handler, GroupMatcher)>;

/// Walks `map` (at pointer `base`), calling `read` for every hook object, and registers what
/// it returns under every event id of the entry's name. `unknown` words the warning for a
/// name the dialect does not know (`event`, `trigger kind`); `skip` lists keys that are not
/// event names.
#[allow(clippy::too_many_arguments)]
pub(crate) fn walk(
    map: &Map<String, Value>,
    base: &str,
    dialect: Dialect,
    unknown: &str,
    skip: &[&str],
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
    mut read: impl FnMut(Entry<'_>, &mut ConfigWarnings) -> Result<Read, ConfigError>,
) -> Result<(), ConfigError> {
    for (name, list) in map {
        if skip.contains(&name.as_str()) {
            continue;
        }
        let Some(native) = dialect.rules().profile().native_event(name) else {
            let at = format!("{base}/{}", escape(name));
            let why = format!("{}: unknown {unknown} \"{name}\"; its hooks are skipped", cx.info.label);
            warnings.never_runs(None, &at, why);
            continue;
        };
        let eptr = format!("{base}/{}", escape(name));
        let Some(list) = list.as_array() else {
            p.fail::<()>(warnings, &eptr, format!("the value of \"{name}\" must be a list of hooks"))?;
            continue;
        };
        let ids = dialect.rules().profile().event_ids(name);
        for (i, entry) in list.iter().enumerate() {
            let hptr = format!("{eptr}/{i}");
            let Some(obj) = entry.as_object() else {
                p.fail::<()>(warnings, &hptr, "a hook must be an object")?;
                continue;
            };
            let fields = Fields { obj, hptr: &hptr };
            let e = Entry {
                name,
                native,
                ids: ids.clone(),
                fields,
                ptr: &hptr,
                id: format!("{}:{name}[{i}]", cx.info.id_label),
            };
            if let Some((mut handler, matcher)) = read(e, warnings)? {
                // hookwire's own key, beside the dialect's: read here once for every flat map.
                let sandbox =
                    crate::config::sandbox_key::read(&fields, handler.ty, &handler.id, &ids, warnings);
                handler.sandbox = sandbox;
                for &eid in &ids {
                    events[eid].push(Group { matcher: matcher.clone(), handlers: vec![handler.clone()] });
                }
            }
        }
    }
    Ok(())
}
