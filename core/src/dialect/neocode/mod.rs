//! The `neocode` dialect at fire time (protocol.md §9.2): a versioned one-line envelope with an
//! allowlisted `metadata`, an empty environment with `NEOCODE_HOOK_*`, the status protocol
//! where the exit code beats the JSON, failure policies, and a sequential fold where the first
//! input rewrite wins.

mod config;
mod matcher;

use super::Profile;
use super::claim::{Claim, FileHint};
use super::{DialectRules, NativeEvent, Strategy, Syntax, ev, native};
use super::{Finished, FireEvent, Step, block_decision};
use crate::catalog::Dialect;
use crate::catalog::EventSpec;
use crate::config::Handler;
use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use crate::fold::Folded;
use crate::matcher::arguments_preview;
use crate::runner::End;
use crate::verdict::{Decision, Reading, Status, Verdict, VerdictSource, cap_text, fmt_secs};
use serde_json::{Map, Value, json};
use std::borrow::Cow;

/// A hook's knobs: the item `id` (payload `hook_id`, `NEOCODE_HOOK_HOOK_ID`).
#[derive(Debug)]
pub(crate) struct ItemId(pub String);

/// The `neocode` dialect.
pub struct NeocodeRules;

/// Its event names and what they stand for.
static EVENTS: &[NativeEvent] = &[
    ev("before_tool_call", &["PreToolUse"], true),
    ev("after_tool_result", &["PostToolUse"], false),
    ev("after_tool_failure", &["PostToolUseFailure"], false),
    ev("user_prompt_submit", &["UserPromptSubmit"], true),
    ev("accept_gate", &["Stop"], true),
    native("before_completion_decision", true),
    ev("session_start", &["SessionStart"], false),
    ev("session_end", &["SessionEnd"], false),
    ev("post_compact", &["PostCompact"], false),
    ev("subagent_stop", &["SubagentStop"], false),
    ev("before_permission_decision", &["PermissionRequest"], true),
    ev("pre_compact", &["PreCompact"], false),
    ev("subagent_start", &["SubagentStart"], false),
];

/// What this dialect is, as data (`Profile`); its code is the `DialectRules` impl below.
pub(super) static PROFILE: Profile = Profile {
    dialect: Dialect::Neocode,
    files: "YAML with `items`",
    shape: "items with points",
    host_env: super::HostEnv::Nothing,
    syntax: Syntax::Yaml,
    differs: "YAML items with points, its own event names; one at a time, stopping at the first block",
    native_events: Some(EVENTS),
    strategy: Strategy::SequentialStop,
    fold_summary: super::SEQUENTIAL_STOP,
    ..Profile::BASE
};

impl DialectRules for NeocodeRules {
    fn profile(&self) -> &'static Profile {
        &PROFILE
    }

    /// YAML with neocode's `items` list or its `runtime` block.
    fn claims(&self, file: &FileHint<'_>) -> Claim {
        let own = file.yaml_has("items", false) || file.yaml_has("runtime", true);
        if file.is_yaml() && own { Claim::Content } else { Claim::No }
    }

    fn read_config(
        &self,
        doc: &Value,
        cx: &DocContext<'_>,
        p: &Parse,
        events: &mut [Vec<Group>],
        warnings: &mut ConfigWarnings,
    ) -> Result<(), ConfigError> {
        config::read(doc, cx, p, events, warnings)
    }
    fn fold(&self, _spec: &EventSpec, steps: &[&Step]) -> Folded {
        fold(steps)
    }
    fn vars(&self, h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
        vars(h, ev)
    }
    fn payload<'e>(&self, h: &Handler, ev: &FireEvent<'e>) -> Cow<'e, [u8]> {
        Cow::Owned(payload(h, ev))
    }
    fn read(&self, h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
        read(h, ev, f)
    }
}

fn item_id(h: &Handler) -> &str {
    h.knobs.get::<ItemId>().map_or(&h.id, |k| &k.0)
}

pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    let e = ev.current;
    let s = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut meta = Map::new();
    if ev.spec.tool_event {
        meta.insert("tool_call_id".into(), json!(s("tool_use_id")));
        meta.insert("tool_name".into(), json!(s("tool_name")));
        meta.insert("tool_arguments_preview".into(), json!(arguments_preview(e)));
    }
    meta.insert("workdir".into(), json!(s("cwd")));
    if h.native == "user_prompt_submit" {
        meta.insert("prompt".into(), json!(s("prompt")));
    }
    let payload = json!({
        "payload_version": "1",
        "hook_id": item_id(h),
        "point": h.native,
        "run_id": s("run_id"),
        "session_id": s("session_id"),
        "metadata": Value::Object(meta),
    });
    let mut out = serde_json::to_vec(&payload).unwrap_or_default();
    out.push(b'\n');
    out
}

pub fn vars(h: &Handler, _ev: &FireEvent<'_>) -> Vec<(String, String)> {
    vec![
        ("NEOCODE_HOOK_HOOK_ID".into(), item_id(h).to_string()),
        ("NEOCODE_HOOK_POINT".into(), h.native.clone()),
        ("NEOCODE_HOOK_PAYLOAD_VERSION".into(), "1".into()),
    ]
}

#[derive(PartialEq)]
enum NeoStatus {
    Pass,
    Block,
    Failed,
}

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

/// Sequential stop-at-first-block; no chaining; the first rewrite wins and is dropped when
/// the fire blocks; messages and annotations accumulate.
pub fn fold(steps: &[&Step]) -> Folded {
    let mut f = crate::fold::first_block(&super::verdicts(steps));
    let verdicts: Vec<&Verdict> = steps.iter().map(|s| &s.reading.verdict).collect();
    let blocked = f.decision.is_some_and(Decision::is_blocking);
    f.updated_input = if blocked { None } else { verdicts.iter().find_map(|v| v.updated_input.clone()) };
    let notes: Vec<Value> = verdicts
        .iter()
        .filter_map(|v| v.extra.get("annotations").and_then(Value::as_array))
        .flatten()
        .cloned()
        .collect();
    if notes.is_empty() {
        f.extra.remove("annotations");
    } else {
        f.extra.insert("annotations".into(), Value::Array(notes));
    }
    f
}
