//! Where `hookwire install` writes the bridge for Cline (docs/bridge.md): Cline has no
//! configuration file but a hooks directory of one file per event, named after it
//! (`~/.cline/hooks/`, where Cline CLI 3.0.65 was observed to read them, or a project's
//! `.clinerules/hooks/`). Install writes one script per event, `PreToolUse`, `PostToolUse` and
//! `UserPromptSubmit`, each `exec`ing the bridge with `--event` (Cline's payload names its
//! event only in Cline's internal words); `TaskStart` and `TaskComplete` are left out, since
//! Cline runs them detached and reads nothing they say.

use crate::dialect::installing::Install;

pub(super) static INSTALL: Install = Install {
    user: Some(".cline/hooks"),
    project: Some(".clinerules/hooks"),
    binaries: &["cline"],
    events: &["PreToolUse", "PostToolUse", "UserPromptSubmit"],
    names_event: true,
    scripts: true,
    reads: &["~/Documents/Cline/Hooks/", ".cline/hooks/"],
    ..Install::HOOKS
};
