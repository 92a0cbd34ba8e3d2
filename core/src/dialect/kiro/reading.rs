//! How one Kiro hook is read (agents-2.md §2.6; Kiro's hook docs): by its exit code. Exit 0: its
//! stdout is added to the agent's context; exit 2 blocks PreToolUse (the call is denied) and
//! PreTaskExec (the task is blocked), stderr the reason for the model; any other code, exit 2
//! elsewhere, a timeout or a spawn failure is a failure shown to the user that blocks nothing.
//! No JSON answer is read. Pure: no process, no I/O.

use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step};
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text};

pub fn read(h: &Handler, _ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let stderr = f.stderr.text.trim();
    let block = match h.native.as_str() {
        "PreToolUse" | "preToolUse" => Some(Decision::Deny),
        "PreTaskExec" => Some(Decision::Block),
        _ => None,
    };
    // Kiro CLI's agent hooks: stdout is context on agentSpawn and userPromptSubmit only, cut at
    // the hook's `max_output_size` (its docs: "captured but not shown" elsewhere).
    let agent = h.knobs.get::<super::KiroCliKnobs>();
    let context = agent.is_none_or(|_| matches!(h.native.as_str(), "agentSpawn" | "userPromptSubmit"));
    match (f.end, block) {
        (End::Exited(0), _) if context => {
            let out = f.stdout.text.trim();
            let out = match agent {
                Some(k) if out.len() > k.max_output => {
                    let mut end = k.max_output;
                    while !out.is_char_boundary(end) {
                        end -= 1;
                    }
                    &out[..end]
                }
                _ => out,
            };
            if !f.stdout.truncated || agent.is_some() {
                r.verdict.additional_context = cap_text(out);
                r.verdict.source = VerdictSource::Text;
            }
        }
        (End::Exited(0), _) => {}
        (End::Exited(2), Some(d)) => {
            r.verdict.decision = Some(d);
            r.verdict.reason = cap_text(stderr).or_else(|| Some(format!("blocked by {} (exit 2)", h.id)));
            r.verdict.source = VerdictSource::ExitCode;
        }
        (End::Exited(code), _) => {
            r.status = Status::Error;
            r.error = Some(crate::dialect::exit_error(*code, stderr));
        }
        (end, _) => {
            if let Some((status, why)) = crate::dialect::not_exited(end, f.timeout_s) {
                r.status = status;
                r.error = Some(why);
            }
        }
    }
    if r.status != Status::Ok && r.status != Status::Cancelled {
        r.warnings.push(format!("hook {}: {}", h.id, r.error.as_deref().unwrap_or_default()));
    }
    r.verdict.finish();
    Step::of(r)
}
