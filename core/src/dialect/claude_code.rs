//! The `claude-code` dialect at fire time: the host's bytes as the payload, and the reading
//! and fold of protocol.md §6–§7 (in `verdict` and `fold`), wrapped as a dialect step.

use super::{Finished, FireEvent, Step};
use crate::config::{CommandSpec, Handler};
use crate::verdict;

pub fn payload(ev: &FireEvent<'_>) -> Vec<u8> {
    match ev.raw {
        Some(text) => text.as_bytes().to_vec(),
        None => serde_json::to_vec(ev.current).unwrap_or_default(),
    }
}

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let reading = verdict::read(&verdict::Input {
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
