//! How one Windsurf hook is read (agents-2.md §2.4): by its exit code alone. Exit 2 on one of
//! the five `pre_*` hooks blocks the action with stderr as the reason; exit 0 lets it go on;
//! any other code, exit 2 after the fact, a timeout or a spawn failure is an error that blocks
//! nothing (Windsurf fails open, and has no fail-closed setting). Windsurf reads no JSON answer:
//! stdout is shown to the user when the hook has `show_output: true` (hookwire's
//! `system_message`), and never reaches the model. Pure: no process, no I/O.

use super::WindsurfKnobs;
use super::kind::Kind;
use crate::config::Handler;
use crate::dialect::{Finished, Step};
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource, cap_text};

pub fn read(h: &Handler, kind: Kind, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let stderr = f.stderr.text.trim();
    match (f.end, kind.exit2_decision()) {
        (End::Exited(0), _) => {
            let out = f.stdout.text.trim();
            if h.knobs.get::<WindsurfKnobs>().is_some_and(|k| k.show_output) {
                r.verdict.system_message = cap_text(out);
                r.verdict.source = VerdictSource::Text;
            }
            if out.starts_with('{') && crate::json::from_output(out).is_ok_and(|v| v.is_object()) {
                r.warnings.push(format!("hook {}: Windsurf reads no JSON answer; stdout ignored", h.id));
            }
        }
        (End::Exited(2), Some(d)) => {
            let reason = match stderr {
                "" => format!("blocked by {} (exit 2)", h.id),
                s => s.to_string(),
            };
            r.verdict.decision = Some(d);
            r.verdict.reason = cap_text(&reason);
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
    // A block ends a one-at-a-time fire: the action it guarded will not happen.
    let halt = r.verdict.blocking;
    Step { halt, ..Step::of(r) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{Dialect, Shell};
    use crate::config::{CommandSpec, Knobs};
    use crate::runner::Text;
    use crate::verdict::Decision;

    fn hook(kind: Kind, show_output: bool) -> Handler {
        let cmd = CommandSpec::Shell { script: "x".into(), shell: Shell::Bash };
        let mut h = Handler::command("user:h[0]".into(), 0, cmd, Dialect::Windsurf, kind.name());
        h.knobs = Knobs::new(WindsurfKnobs { kind, show_output });
        h
    }

    fn run(kind: Kind, show: bool, end: End, out: &str, err: &str) -> Reading {
        let text = |t: &str| Text { text: t.to_string(), truncated: false, lossy: false };
        let (stdout, stderr) = (text(out), text(err));
        let f = Finished { end: &end, stdout: &stdout, stderr: &stderr, timeout_s: 1.0 };
        read(&hook(kind, show), kind, &f).reading
    }

    #[test]
    fn exit_2_blocks_only_before_the_action_with_stderr_as_the_reason() {
        let r = run(Kind::PreRunCommand, false, End::Exited(2), "", " no rm \n");
        assert!(r.verdict.blocking);
        assert_eq!((r.verdict.decision, r.verdict.reason.as_deref()), (Some(Decision::Deny), Some("no rm")));
        let r = run(Kind::PreUserPrompt, false, End::Exited(2), "", "");
        assert_eq!(r.verdict.decision, Some(Decision::Block));
        assert_eq!(r.verdict.reason.as_deref(), Some("blocked by user:h[0] (exit 2)"));
        let r = run(Kind::PostRunCommand, false, End::Exited(2), "", "late");
        assert_eq!((r.verdict.decision, r.status), (None, Status::Error));
    }

    #[test]
    fn json_on_stdout_decides_nothing_and_shown_output_is_for_the_user() {
        let deny = r#"{"decision":"block","hookSpecificOutput":{"permissionDecision":"deny"}}"#;
        let r = run(Kind::PreRunCommand, false, End::Exited(0), deny, "");
        assert_eq!((r.verdict.decision, r.verdict.system_message.as_deref()), (None, None));
        assert!(r.warnings[0].contains("no JSON answer"));
        let r = run(Kind::PostWriteCode, true, End::Exited(0), "formatted\n", "");
        assert_eq!(r.verdict.system_message.as_deref(), Some("formatted"));
        assert_eq!(r.verdict.additional_context, None);
    }

    #[test]
    fn other_codes_and_timeouts_fail_open() {
        let r = run(Kind::PreRunCommand, false, End::Exited(1), "", "boom");
        assert_eq!(
            (r.verdict.decision, r.status, r.error.as_deref()),
            (None, Status::Error, Some("exit 1: boom"))
        );
        let r = run(Kind::PreRunCommand, false, End::TimedOut { started: true }, "", "");
        assert_eq!((r.verdict.decision, r.status), (None, Status::TimedOut));
    }
}
