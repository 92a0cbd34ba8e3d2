//! Claude Code's default sources for one project (protocol.md §2.3, §2.8), as the envelope a
//! host would write for them: the user file `~/.claude/settings.json`, then the project's
//! shared `.claude/settings.json` and local `.claude/settings.local.json`, the project ones
//! gated on the default trust store. This is what a host that does not manage its own
//! configuration loads (the `hookwire` command without `--config` does).
//!
//! It only writes the envelope; reading the files, trust and layering happen when a
//! dispatcher is built from it, like for any envelope.

use super::trust::default_store;
use serde_json::{Value, json};
use std::path::Path;

/// The envelope of Claude Code's default sources for the project at `project_dir`:
///
/// ```json
/// {"project_dir": "<project_dir, canonical>",
///  "sources": [{"scope": "user", "path": "~/.claude/settings.json"},
///              {"scope": "project", "path": ".claude/settings.json"},
///              {"scope": "local", "path": ".claude/settings.local.json"}],
///  "trust": {"store": "<default store>", "project": "store"}}
/// ```
///
/// `project_dir` is resolved to its canonical path (a relative one against the current
/// directory), so the trust keys of its files are those `hooks_trust_record` writes; the only
/// error is that it cannot be resolved. `trust` names the default store
/// (`$XDG_CONFIG_HOME/hookwire/trust.json`, else `~/.config/hookwire/trust.json`) and is left
/// out when neither variable is set, which leaves project and local files untrusted. `~`
/// stands for `$HOME` when the dispatcher reads the user file.
pub fn claude_code_defaults(project_dir: &Path) -> std::io::Result<Value> {
    let dir = project_dir.canonicalize()?;
    let mut envelope = json!({
        "project_dir": dir.to_string_lossy(),
        "sources": [
            {"scope": "user", "path": "~/.claude/settings.json"},
            {"scope": "project", "path": ".claude/settings.json"},
            {"scope": "local", "path": ".claude/settings.local.json"}
        ]
    });
    if let Some(store) = default_store() {
        envelope["trust"] = json!({"store": store.to_string_lossy(), "project": "store"});
    }
    Ok(envelope)
}
