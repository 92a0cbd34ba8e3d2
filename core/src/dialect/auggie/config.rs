//! What Auggie reads differently in a settings document: a group whose matcher is `*` makes
//! the whole hooks configuration unusable (observed: `Some plugin hooks use unsupported
//! configuration.`, and no hook ran, not even one with a `""` matcher). hookwire drops the
//! whole document that holds one, with a warning that says why (inline content: an error).

use crate::config::{ConfigWarnings, DocContext, Parse, escape};
use crate::error::ConfigError;
use serde_json::Value;

/// Whether the document holds a `*` matcher, and so runs none of its hooks.
pub fn disabled_by_star(
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<bool, ConfigError> {
    let Some(events) = doc.get("hooks").and_then(Value::as_object) else { return Ok(false) };
    for (name, groups) in events {
        let Some(groups) = groups.as_array() else { continue };
        for (gi, g) in groups.iter().enumerate() {
            if g.get("matcher").and_then(Value::as_str).is_some_and(|m| m.trim() == "*") {
                let at = format!("{}/hooks/{}/{gi}/matcher", cx.base, escape(name));
                let why = "Auggie refuses the matcher \"*\" and then runs no hook of the whole file \
                           (use \"\" or leave `matcher` out to match every tool)";
                p.fail::<()>(warnings, &at, why)?;
                return Ok(true);
            }
        }
    }
    Ok(false)
}
