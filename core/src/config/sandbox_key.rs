//! hookwire's own `sandbox` key on a hook entry (`sandbox/`), read the same way in every
//! dialect whose entries are objects: Claude Code's shape and its family through
//! `dialect/settings/`, the flat maps through `dialect/flat.rs`, and Kiro's, Vibe's and Crush's
//! own readers. One reader, so a hook's confinement never depends on which agent's file it
//! was written in.

use super::{ConfigWarnings, Fields, Severity};
use crate::catalog::{EventId, HandlerType};
use crate::error::ConfigError;
use crate::sandbox::Policy;
use serde_json::Value;
use std::sync::Arc;

/// The entry's `sandbox`, or `None` without one. A value hookwire cannot read confines the
/// hook under the strict profile, with a warning: the hook still runs (a guard is never
/// skipped) and is never less confined than its author asked. On a hook that runs no process
/// (http, prompt, a function) the key means nothing: a warning, and no sandbox.
pub(crate) fn read(
    f: &Fields<'_>,
    ty: HandlerType,
    id: &str,
    ids: &[EventId],
    warnings: &mut ConfigWarnings,
) -> Option<Arc<Policy>> {
    let v = f.obj.get("sandbox")?;
    let at = format!("{}/sandbox", f.hptr);
    if ty != HandlerType::Command && !matches!(v, Value::Null | Value::Bool(false)) {
        let why = format!(
            "{id}: `sandbox` confines command hooks only (a {} hook runs no process); ignored",
            ty.as_str()
        );
        warnings.add_for(Severity::Warning, ids, &at, why);
        return None;
    }
    match crate::sandbox::parse(v) {
        Ok(p) => p.map(Arc::new),
        Err(why) => {
            let why = format!("{id}: {why}; the hook runs under the strict sandbox");
            warnings.add_for(Severity::Warning, ids, &at, why);
            Policy::named("strict").map(Arc::new)
        }
    }
}

/// A host's `sandbox` key (the envelope's, at `/sandbox`, or a source entry's): the host's own
/// choice, so a value hookwire cannot read is its configuration error at `at`, not a warning.
pub(crate) fn read_host(v: Option<&Value>, at: &str) -> Result<Option<Arc<Policy>>, ConfigError> {
    match v {
        None => Ok(None),
        Some(v) => Ok(crate::sandbox::parse(v).map_err(|why| ConfigError::invalid(at, why))?.map(Arc::new)),
    }
}
