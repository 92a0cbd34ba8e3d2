//! Reads one finished hook of this dialect into a step: its exit, its output, its failure.

use super::{NeoStatus, PROFILE, item_id};
use crate::config::Handler;
use crate::dialect::{Finished, FireEvent, Step, block_decision};
use crate::runner::End;
use crate::verdict::{Reading, Status, Verdict, VerdictSource, cap_text, fmt_secs};
use serde_json::{Value, json};

pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    let mut r =
        Reading { verdict: Verdict::default(), status: Status::Ok, error: None, warnings: Vec::new() };
    let out = f.stdout.text.trim();
    let protocol = match crate::json::from_output(out) {
        Ok(Value::Object(m)) if !f.stdout.truncated => Some(m),
        _ => None,
    };
    let json_status =
        protocol.as_ref().map(|m| match m.get("status").and_then(Value::as_str).map(str::to_lowercase) {
            None => NeoStatus::Pass,
            Some(s) if s.is_empty() || s == "pass" => NeoStatus::Pass,
            Some(s) if s == "block" => NeoStatus::Block,
            Some(_) => NeoStatus::Failed,
        });
    let mut message = protocol
        .as_ref()
        .and_then(|m| m.get("message"))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    let (status, why) = match f.end {
        End::Exited(0) if f.stdout.truncated => {
            (NeoStatus::Failed, "stdout exceeded max_output_bytes".to_string())
        }
        End::Exited(0) => match json_status {
            Some(s) => (s, "status failed".to_string()),
            None => {
                if message.is_none() && !out.is_empty() {
                    message = Some(out.to_string());
                }
                (NeoStatus::Pass, String::new())
            }
        },
        End::Exited(1 | 2) => {
            // Plain stdout is the block's message, as in neocode's own exit-code fallback.
            if protocol.is_none() && message.is_none() && !out.is_empty() {
                message = cap_text(out);
            }
            (NeoStatus::Block, String::new())
        }
        End::Exited(code) => (NeoStatus::Failed, format!("exit {code}")),
        End::Signaled(sig) => (NeoStatus::Failed, format!("terminated by signal {sig}")),
        End::Failed(msg) | End::Lost(msg) => (NeoStatus::Failed, msg.clone()),
        End::TimedOut { .. } | End::Cancelled { .. } => {
            r.status = Status::TimedOut;
            (NeoStatus::Failed, format!("timed out after {} s", fmt_secs(f.timeout_s)))
        }
        End::SpawnFailed(msg) => {
            r.status = Status::SpawnFailed;
            (NeoStatus::Failed, msg.clone())
        }
    };
    if let Some(Value::Array(a)) = protocol.as_ref().and_then(|m| m.get("annotations")) {
        let notes: Vec<Value> = a.iter().filter(|x| x.is_string()).cloned().collect();
        if !notes.is_empty() {
            r.verdict.extra.insert("annotations".into(), Value::Array(notes));
        }
    }
    let blocks = status == NeoStatus::Block || (status == NeoStatus::Failed && h.fail_closed);
    if status == NeoStatus::Failed && !h.fail_closed {
        if r.status == Status::Ok {
            r.status = Status::Error;
        }
        r.error = Some(match &message {
            Some(m) if why.is_empty() => m.clone(),
            Some(m) => format!("{why}: {m}"),
            None => why.clone(),
        });
        r.warnings.push(format!("hook {}: {}", h.id, r.error.clone().unwrap_or_default()));
        r.verdict.system_message = message.as_deref().and_then(cap_text);
    } else if blocks {
        if PROFILE.can_block(ev.spec, ev.rules) {
            r.verdict.decision = Some(block_decision(ev.spec));
            r.verdict.reason = Some(message.clone().unwrap_or_else(|| format!("blocked by {}", item_id(h))));
            r.verdict.source = VerdictSource::ExitCode;
        } else {
            r.warnings.push(format!(
                "hook {}: block on point {}, which cannot block; downgraded to pass",
                h.id, h.native
            ));
            r.verdict.system_message = message.as_deref().and_then(cap_text);
        }
        if status == NeoStatus::Failed {
            r.error = Some(why.clone());
        }
    } else {
        r.verdict.system_message = message.as_deref().and_then(cap_text);
    }
    if let Some(text) = protocol
        .as_ref()
        .and_then(|m| m.get("update_input"))
        .and_then(|u| u.get("text"))
        .and_then(Value::as_str)
    {
        if h.native == "user_prompt_submit" {
            r.verdict.updated_input = Some(json!({"prompt": text}));
        } else {
            r.warnings
                .push(format!("hook {}: update_input is honoured on user_prompt_submit only; ignored", h.id));
        }
    }
    if r.verdict.source == VerdictSource::None {
        r.verdict.source = if protocol.is_some() { VerdictSource::Json } else { VerdictSource::ExitCode };
    }
    r.verdict.finish();
    let halt = r.verdict.blocking;
    Step { halt, ..Step::of(r) }
}
