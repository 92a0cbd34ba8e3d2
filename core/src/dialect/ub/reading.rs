//! Reads one finished hook of this dialect into a step: its exit, its output, its failure.

use super::PROFILE;
use crate::config::{Action, CommandSpec, Handler};
use crate::dialect::{Finished, FireEvent, Step, block_decision};
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource};

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let (failed, code) = match f.end {
        End::Exited(0) => (false, 0),
        End::Exited(c) => (true, *c),
        End::Signaled(_)
        | End::TimedOut { .. }
        | End::Cancelled { .. }
        | End::SpawnFailed(_)
        | End::Failed(_)
        | End::Lost(_) => (true, -1),
    };
    if failed {
        let argv0 = match &h.action {
            Action::Command(CommandSpec::Exec { program, .. }) => program.clone(),
            Action::Command(CommandSpec::Shell { script, .. }) => script.clone(),
            _ => h.id.clone(),
        };
        let stderr = f.stderr.text.trim();
        let line = match f.end {
            _ if !stderr.is_empty() => stderr.to_string(),
            End::Lost(_) => format!("hook {argv0} ended"),
            _ => format!("hook {argv0} exit {code}"),
        };
        r.status = match f.end {
            End::TimedOut { .. } | End::Cancelled { .. } => Status::TimedOut,
            End::SpawnFailed(_) => Status::SpawnFailed,
            _ => Status::Error,
        };
        r.error = Some(match f.end {
            End::SpawnFailed(msg) | End::Lost(msg) => format!("{line}: {msg}"),
            _ => line.clone(),
        });
        if h.fail_closed && PROFILE.can_block(ev.spec, ev.rules) {
            r.verdict.decision = Some(block_decision(ev.spec));
            r.verdict.reason = Some(line);
            r.verdict.source = VerdictSource::Failure;
        } else {
            r.verdict.system_message = Some(line);
            r.verdict.source = VerdictSource::ExitCode;
            r.warnings.push(format!("hook {}: {}", h.id, r.error.clone().unwrap_or_default()));
        }
    }
    r.verdict.finish();
    Step::of(r)
}
