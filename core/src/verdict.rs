//! What a hook's reading produces, in every dialect: the verdict (protocol.md §6.7), the
//! decision and status words of the result JSON, and the text cap of §6.5. Each dialect's
//! reader (`dialect/<name>/`) fills these in; Claude Code's reading of §6 is
//! `dialect/claude_code/verdict.rs`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Characters kept of one context or message value (§6.5).
pub const TEXT_CAP: usize = 10_000;

/// A hook's decision, or the folded decision of a fire (protocol.md §7): `deny` and `block`
/// stop the action, `ask` and `defer` hand it to the user or the host, `allow` lets it go on.
/// Which values an event can produce is in protocol.md §3.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Allow,
    Deny,
    Ask,
    Defer,
    Block,
}

impl Decision {
    /// Fold precedence (§7): deny/block > defer > ask > allow.
    pub fn rank(self) -> u8 {
        match self {
            Decision::Deny | Decision::Block => 4,
            Decision::Defer => 3,
            Decision::Ask => 2,
            Decision::Allow => 1,
        }
    }
    pub fn is_blocking(self) -> bool {
        matches!(self, Decision::Deny | Decision::Block)
    }
    /// The result JSON's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
            Decision::Ask => "ask",
            Decision::Defer => "defer",
            Decision::Block => "block",
        }
    }
}

/// Where a hook's verdict was read from (protocol.md §6.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerdictSource {
    /// A JSON object the hook printed on stdout.
    Json,
    /// Plain text on stdout.
    Text,
    /// The exit code (and stderr).
    ExitCode,
    /// A fail-closed block: the hook failed and its handler has `onFailure: "block"`.
    Failure,
    /// The hook contributed nothing.
    None,
}

impl VerdictSource {
    /// The result JSON's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictSource::Json => "json",
            VerdictSource::Text => "text",
            VerdictSource::ExitCode => "exit_code",
            VerdictSource::Failure => "failure",
            VerdictSource::None => "none",
        }
    }
}

/// How one hook ended, as the result JSON reports it (§8).
// Deserialize: `hookwire test` expectations name a status as the result JSON spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// The hook ran and its output was read (whatever it decided).
    Ok,
    /// The hook failed: a non-zero exit with no verdict, a signal, unreadable output.
    Error,
    /// The hook reached its deadline, or never got a slot.
    TimedOut,
    /// The hook's program could not be started.
    SpawnFailed,
    /// The hook runs in the background; its outcome comes in a later fire's `async_outcomes`.
    Async,
    /// The host cancelled the fire before this hook ended.
    Cancelled,
    /// The hook runs at the session's turn end (its next `Stop`), once, with this event and
    /// every other one deferred to it since (Kiro CLI's `only_when_turn_complete`); its outcome
    /// is that `Stop` fire's.
    Deferred,
}

impl Status {
    /// The result JSON's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Error => "error",
            Status::TimedOut => "timed_out",
            Status::SpawnFailed => "spawn_failed",
            Status::Async => "async",
            Status::Cancelled => "cancelled",
            Status::Deferred => "deferred",
        }
    }
}

/// One hook's exit status and output read as a decision (§6.7). An outcome that contributes
/// nothing has `source: "none"`, nulls, `continue: true`, `false` and `{}`.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Verdict {
    /// Where the verdict was read from.
    pub source: VerdictSource,
    /// The hook's decision; `null` when it expressed none.
    pub decision: Option<Decision>,
    /// Why, for the model or the user.
    pub reason: Option<String>,
    /// The decision is `deny` or `block`.
    pub blocking: bool,
    /// `false`: the hook asked to stop the agent.
    #[serde(rename = "continue")]
    pub continue_: bool,
    /// For the user, with `continue: false`.
    pub stop_reason: Option<String>,
    /// Text for the model.
    pub additional_context: Option<String>,
    /// Text for the user.
    pub system_message: Option<String>,
    /// The hook's replacement tool input (or `{"prompt": ...}`).
    #[schemars(with = "Option<Map<String, Value>>")]
    pub updated_input: Option<Value>,
    /// The hook's replacement tool output: any JSON value.
    pub updated_tool_output: Option<Value>,
    /// The hook asked to hide the tool output (`suppressOutput`).
    pub suppress_output: bool,
    /// Event- and dialect-specific outputs of this hook (protocol.md §7, §9).
    pub extra: Map<String, Value>,
}

impl Default for Verdict {
    fn default() -> Self {
        Verdict {
            source: VerdictSource::None,
            decision: None,
            reason: None,
            blocking: false,
            continue_: true,
            stop_reason: None,
            additional_context: None,
            system_message: None,
            updated_input: None,
            updated_tool_output: None,
            suppress_output: false,
            extra: Map::new(),
        }
    }
}

impl Verdict {
    /// Sets `blocking` from the decision, and the source to `none` when nothing was said: every
    /// dialect's reader ends with this.
    pub fn finish(&mut self) {
        self.blocking = self.decision.is_some_and(Decision::is_blocking);
        if self.is_empty() {
            self.source = VerdictSource::None;
        }
    }

    /// The bytes its texts and JSON values hold (the async queue's charge, §5.10).
    pub fn held_bytes(&self) -> usize {
        let texts = [&self.reason, &self.stop_reason, &self.additional_context, &self.system_message];
        let values = self.updated_input.iter().chain(&self.updated_tool_output);
        texts.into_iter().flatten().map(String::len).sum::<usize>()
            + values.map(crate::json::held_bytes).sum::<usize>()
            + self.extra.iter().map(|(k, v)| k.len() + crate::json::held_bytes(v)).sum::<usize>()
    }

    fn is_empty(&self) -> bool {
        self.decision.is_none()
            && self.reason.is_none()
            && self.continue_
            && self.stop_reason.is_none()
            && self.additional_context.is_none()
            && self.system_message.is_none()
            && self.updated_input.is_none()
            && self.updated_tool_output.is_none()
            && !self.suppress_output
            && self.extra.is_empty()
    }
}

/// One hook's reading: its verdict, status and error, and the warnings it adds to the fire.
#[derive(Debug, Clone)]
pub struct Reading {
    pub verdict: Verdict,
    pub status: Status,
    pub error: Option<String>,
    pub warnings: Vec<String>,
}

/// Caps a context or message value at [`TEXT_CAP`] characters with a visible marker (§6.5).
pub fn cap_text(s: &str) -> Option<String> {
    if s.is_empty() {
        return None;
    }
    match s.char_indices().nth(TEXT_CAP) {
        None => Some(s.to_string()),
        Some((cut, _)) => {
            let more = s[cut..].chars().count();
            Some(format!("{}\n[hookwire: {more} more characters truncated]", &s[..cut]))
        }
    }
}

/// Seconds as a message writes them: `30`, `0.5`.
pub fn fmt_secs(s: f64) -> String {
    if s.fract() == 0.0 { format!("{}", s as u64) } else { format!("{s}") }
}
