//! A port's model as a document of a Claude Code family member (`hookwire port`): one writer
//! for every member, parameterised by its [`Family`] value, since what differs between them is
//! data the settings writer already asks for (the event set, the matcher's anchoring, the
//! handler types, the timeout unit and default), plus where the events sit (Devin's
//! `hooks.v1.json` keeps them at the document's root, every other member under `hooks`) and
//! the handler keys a member drops a handler for (Muse Code's `if` and `once`: not written,
//! reported).

use super::Family;
use crate::dialect::porting::{Hook, LossKind, Model, Report};
use crate::dialect::settings::write;
use serde_json::{Map, Value, json};

/// The member's document: `{"hooks": …}`, or the events themselves for a member whose files
/// keep them at the root.
pub(crate) fn write(f: &'static Family, m: &Model, r: &mut Report) -> Value {
    let agent = f.profile.dialect.as_str();
    let entry = |h: &Hook, o: &mut Map<String, Value>, r: &mut Report| {
        for key in f.drops_handlers_with {
            let Some(was) = o.remove(*key) else { continue };
            let kind = match *key {
                "if" => LossKind::IfRuleLost,
                "once" | "async" | "asyncRewake" => LossKind::RunModeLost,
                _ => LossKind::FieldDropped,
            };
            let why = format!("{agent} drops a handler carrying `{key}`: not written (it was {was})");
            r.add(kind, &h.at, Some(h.event.name), why);
        }
        true
    };
    let target = write::Target { entry: &entry, ..write::Target::new(f, f.profile) };
    let hooks = write::hooks(&target, m, r);
    match f.root_events {
        true => hooks,
        false => json!({"hooks": hooks}),
    }
}
