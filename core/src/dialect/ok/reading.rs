//! Reads one finished hook of this dialect into a step: its exit, its output, its failure.

use super::{OkKnobs, PROFILE};
use crate::config::{Action, CommandSpec, Handler};
use crate::dialect::{Finished, FireEvent, Step, block_decision};
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource, fmt_secs};

/// Characters kept of one line's detail.
const DETAIL_CAP: usize = 2_000;

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let gating = PROFILE.can_block(ev.spec, ev.rules);
    let layer = h.knobs.get::<OkKnobs>().map_or("global", |k| k.layer);
    let command = match &h.action {
        Action::Command(CommandSpec::Shell { script, .. }) => script.clone(),
        Action::Command(CommandSpec::Exec { program, .. }) => program.clone(),
        _ => h.id.clone(),
    };
    let detail = |fallback: String| {
        let d = [f.stderr.text.trim(), f.stdout.text.trim()]
            .into_iter()
            .find(|s| !s.is_empty())
            .map(str::to_string);
        let d = d.unwrap_or(fallback);
        d.chars().take(DETAIL_CAP).collect::<String>()
    };
    let line =
        |kind: &str, detail: String| format!("hook [{layer}/{}] {command} — {kind}: {detail}", h.native);
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let block = |r: &mut Reading, reason: String| {
        r.verdict.decision = Some(block_decision(ev.spec));
        r.verdict.reason = Some(reason);
        r.verdict.source = VerdictSource::ExitCode;
    };
    match f.end {
        End::Exited(0) => {}
        End::Exited(2) if gating => block(&mut r, line("block", detail("exit 2".into()))),
        End::Exited(code) => {
            let l = line("warn", detail(format!("exit {code}")));
            r.status = Status::Error;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
        End::Failed(msg) | End::Lost(msg) => {
            let l = line("warn", detail(msg.clone()));
            r.status = Status::Error;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
        End::Signaled(sig) => {
            let l = line("warn", detail(format!("terminated by signal {sig}")));
            r.status = Status::Error;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
        End::TimedOut { .. } | End::Cancelled { .. } => {
            let l = line(
                if gating { "block" } else { "warn" },
                format!("timed out after {} s", fmt_secs(f.timeout_s)),
            );
            r.status = Status::TimedOut;
            r.error = Some(l.clone());
            if gating {
                block(&mut r, l);
            } else {
                r.verdict.system_message = Some(l);
            }
        }
        End::SpawnFailed(msg) => {
            let l = line("error", msg.chars().take(DETAIL_CAP).collect());
            r.status = Status::SpawnFailed;
            r.error = Some(l.clone());
            r.verdict.system_message = Some(l);
        }
    }
    if r.verdict.system_message.is_some() {
        r.verdict.source = VerdictSource::ExitCode;
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    Step { halt, ..Step::of(r) }
}
