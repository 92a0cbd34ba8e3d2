//! The `claude-code` dialect: Claude Code's settings files (the settings shape's defaults,
//! `dialect/settings/`), the host's bytes as the payload (`payload.rs`), the reading of
//! protocol.md §6 (`reading.rs`), the precedence fold of §7 (in `fold`), the default timeouts
//! of §5.6 (`timeouts.rs`), dedup of identical handlers (§2.7), `CLAUDE_PROJECT_DIR` and
//! `CLAUDE_ENV_FILE`.

pub(crate) mod answer;
mod payload;
mod reading;
pub mod timeouts;
mod write;

pub(crate) use payload::payload;

use super::claim::{Claim, FileHint};
use super::{DialectRules, Finished, FireEvent, Step};
use super::{Profile, settings};
use crate::catalog::Dialect;
use crate::config::{CommandSpec, ConfigWarnings, DocContext, Group, Handler, Parse};
use crate::error::ConfigError;
use serde_json::Value;
use std::borrow::Cow;
use timeouts::TimeoutContext;

/// The `claude-code` dialect.
pub struct ClaudeCodeRules;

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::ClaudeCode,
    files: "`~/.claude/settings.json`, `.claude/settings.json`, `.claude/settings.local.json`, managed settings, plugins' `hooks/hooks.json`",
    shape: "event → matcher groups → handlers",
    dedup: super::Dedup::Command,
    host_env: super::HostEnv::AllButExporters,
    sets_project_dir: true,
    env_file: true,
    context_continues_stop: true,
    answer: Some(answer::answer),
    write: Some(write::write),
    ..Profile::BASE
};

impl DialectRules for ClaudeCodeRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// Any JSON file no other dialect claims: Claude Code's settings are the common shape.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        if file.is_json_like() { Claim::Fallback } else { Claim::No }
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        settings::read_document(&settings::ClaudeCodeShape, doc, cx, p, events, warnings)
    }

    fn timeout_s(&self, h: &Handler, t: &TimeoutContext) -> f64 {
        t.claude_code(h)
    }

    fn payload<'e>(&self, _h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        payload(ev)
    }

    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        let reading = reading::read(&reading::Input {
            spec: ev.spec,
            rules: ev.rules,
            event: ev.original,
            hook_id: &h.id,
            fail_closed: h.fail_closed,
            shell_form: matches!(h.action.command(), Some(CommandSpec::Shell { .. })),
            end: f.end,
            stdout: f.stdout,
            stderr: f.stderr,
            timeout_s: f.timeout_s,
        });
        let halt = reading.verdict.blocking;
        Step { halt, ..Step::of(reading) }
    }
}
