//! The result of one fire (protocol.md §8): every key always present, in the documented
//! order, snake_case throughout, outcomes in configuration order.

use crate::config::Handler;
use crate::fold::Folded;
use crate::runner::{End, RunResult};
use crate::verdict::{Decision, Reading, Status, Verdict};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

/// The result JSON of one fire (protocol.md §8). Every key is always present (`null`, `false`,
/// `{}` or `[]` when empty), in this order. Newer libraries may add keys: readers ignore keys
/// they do not know.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "Result")]
pub struct FireResult {
    /// `hook_event_name` as fired.
    pub event: String,
    /// The folded decision (protocol.md §7); `null` when no hook decided. Which values an event
    /// can produce is in protocol.md §3.2.
    pub decision: Option<Decision>,
    /// The reason of the first hook, in configuration order, whose decision is the result's.
    pub reason: Option<String>,
    /// `false`: a hook asked to stop the agent. It beats every decision.
    #[serde(rename = "continue")]
    pub continue_: bool,
    /// For the user, with `continue: false`: the first hook's `stopReason`.
    pub stop_reason: Option<String>,
    /// The replacement tool input (PreToolUse, PermissionRequest), or `{"prompt": ...}` on
    /// UserPromptSubmit; `null` when the decision is deny or defer, or no hook rewrote it.
    #[schemars(with = "Option<Map<String, Value>>")]
    pub updated_input: Option<Value>,
    /// The replacement tool output (PostToolUse): any JSON value; `null` when none.
    pub updated_tool_output: Option<Value>,
    /// Text for the model: every hook's non-empty context, joined with a blank line.
    pub additional_context: Option<String>,
    /// Text for the user: every hook's non-empty message, joined with a newline.
    pub system_message: Option<String>,
    /// Whether any hook asked to hide the tool output (`suppressOutput`).
    pub suppress_output: bool,
    /// Variables the hooks wrote through `CLAUDE_ENV_FILE` (protocol.md §3.4), merged in
    /// configuration order.
    #[schemars(with = "std::collections::BTreeMap<String, String>")]
    pub env: Map<String, Value>,
    /// Event- and dialect-specific outputs (`sessionTitle`, `watchPaths`, `worktreePath`,
    /// ...; protocol.md §7, §9).
    pub extra: Map<String, Value>,
    /// The context of this session's async hooks that finished since its previous fire.
    pub pending_context: Option<String>,
    /// Load warnings, then per-hook warnings in configuration order, then fire notices.
    pub warnings: Vec<String>,
    /// One per hook run or attempted in this fire, in configuration order; `[]` when nothing
    /// matched.
    pub outcomes: Vec<Outcome>,
    /// The completed outcomes of this session's async hooks, in completion order.
    pub async_outcomes: Vec<Outcome>,
}

/// What happened to one hook in one fire (protocol.md §8, "Outcome keys"). A hook that fails,
/// hangs or floods its output is an outcome, never an error.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Outcome {
    /// The hook id (protocol.md §2.6), for example `user:PreToolUse[0].hooks[0]`.
    pub hook: String,
    /// The handler type: `command`, `http`, `prompt`, `agent`, `mcp_tool` or `function`.
    #[serde(rename = "type")]
    pub ty: String,
    /// Shell form: the string as configured; exec form: the program and arguments as run;
    /// http: `POST <url>`; delegated handlers: `prompt`, `agent`, `mcp_tool <server>/<tool>`.
    pub command: String,
    /// How the hook ended.
    pub status: Status,
    /// The exit code; `null` when killed by a signal, not started, http, or still running.
    pub exit_code: Option<i32>,
    /// The signal that ended the hook.
    pub signal: Option<i32>,
    /// The HTTP status code (http handlers only).
    pub http_status: Option<u16>,
    /// The hook reached its deadline (or never got a slot).
    pub timed_out: bool,
    /// From spawn to the end of the drain, in milliseconds at 0.1 ms resolution.
    pub duration_ms: f64,
    /// Captured stdout, at most `max_output_bytes`, lossily decoded.
    #[serde(serialize_with = "crate::json_escape::output")]
    pub stdout: String,
    /// Captured stderr, at most `max_output_bytes`, lossily decoded.
    #[serde(serialize_with = "crate::json_escape::output")]
    pub stderr: String,
    /// stdout hit the `max_output_bytes` cap.
    pub stdout_truncated: bool,
    /// stderr hit the `max_output_bytes` cap.
    pub stderr_truncated: bool,
    /// stdout held invalid UTF-8, replaced with U+FFFD.
    pub stdout_lossy: bool,
    /// stderr held invalid UTF-8, replaced with U+FFFD.
    pub stderr_lossy: bool,
    /// The handler's `statusMessage`.
    pub status_message: Option<String>,
    /// An `asyncRewake` hook that exited 2 (an async outcome only): the texts its handler
    /// configured for waking the agent, so that a host shows `summary` to the user; `null`
    /// otherwise.
    pub rewake: Option<crate::config::Rewake>,
    /// The hook's exit status and output read as a decision (protocol.md §6.7).
    pub verdict: Verdict,
    /// Why `status` is not `ok` (`exit 1: ...`, `timed out after 1 s`), or a JSON or schema
    /// problem in the hook's output.
    pub error: Option<String>,
}

impl FireResult {
    /// A result with nothing in it, for `event`.
    pub fn empty(event: &str) -> FireResult {
        FireResult {
            event: event.to_string(),
            decision: None,
            reason: None,
            continue_: true,
            stop_reason: None,
            updated_input: None,
            updated_tool_output: None,
            additional_context: None,
            system_message: None,
            suppress_output: false,
            env: Map::new(),
            extra: Map::new(),
            pending_context: None,
            warnings: Vec::new(),
            outcomes: Vec::new(),
            async_outcomes: Vec::new(),
        }
    }

    /// The compact result JSON.
    pub fn to_json(&self) -> String {
        // Sized for the captured outputs up front: a hook echoing a 1 MiB event would otherwise
        // grow the text through eleven reallocations, each a copy and fresh pages (issue 20).
        let outputs: usize =
            self.outcomes.iter().chain(&self.async_outcomes).map(|o| o.stdout.len() + o.stderr.len()).sum();
        let written = crate::json_escape::to_string(self, 512 + outputs + outputs / 8);
        written.unwrap_or_else(|e| {
            // Serialising plain data with string keys cannot fail; keep a valid answer anyway.
            format!(
                "{{\"event\":{},\"warnings\":[{}]}}",
                Value::String(self.event.clone()),
                Value::String(format!("result could not be serialised: {e}"))
            )
        })
    }
}

impl FireResult {
    /// Takes the fold's decision block and warnings.
    pub fn apply(&mut self, f: Folded) {
        self.decision = f.decision;
        self.reason = f.reason;
        self.continue_ = f.continue_;
        self.stop_reason = f.stop_reason;
        self.updated_input = f.updated_input;
        self.updated_tool_output = f.updated_tool_output;
        self.additional_context = f.additional_context;
        self.system_message = f.system_message;
        self.suppress_output = f.suppress_output;
        self.extra = f.extra;
        self.warnings.extend(f.warnings);
    }
}

impl Outcome {
    /// The outcome of a hook that has not ended in this fire: an async hook's, or the template
    /// a finished one fills in.
    pub fn started(h: &Handler, command: String) -> Outcome {
        Outcome {
            hook: h.id.clone(),
            ty: h.ty.as_str().to_string(),
            command,
            status: Status::Async,
            exit_code: None,
            signal: None,
            http_status: None,
            timed_out: false,
            duration_ms: 0.0,
            stdout: String::new(),
            stderr: String::new(),
            stdout_truncated: false,
            stderr_truncated: false,
            stdout_lossy: false,
            stderr_lossy: false,
            status_message: h.status_message.clone(),
            rewake: None,
            verdict: Verdict::default(),
            error: None,
        }
    }

    /// The outcome of a hook deferred to the session's turn end (`RunMode::TurnEnd`).
    pub fn deferred(h: &Handler, command: String) -> Outcome {
        Outcome { status: Status::Deferred, ..Outcome::started(h, command) }
    }

    /// The outcome of a finished hook, as it ran and as its dialect read it.
    pub fn finished(h: &Handler, command: String, run: RunResult, reading: &Reading) -> Outcome {
        let mut o = Outcome::started(h, command);
        o.fill(run, reading);
        o
    }

    /// Fills in how the hook ended and what it said. Takes the run, so the captured output
    /// (up to `max_output_bytes` each) moves into the outcome rather than being copied.
    pub fn fill(&mut self, run: RunResult, reading: &Reading) {
        self.status = reading.status;
        self.exit_code = match run.end {
            End::Exited(c) => Some(c),
            _ => None,
        };
        self.signal = match run.end {
            End::Signaled(s) => Some(s),
            _ => None,
        };
        self.timed_out = matches!(run.end, End::TimedOut { .. });
        self.http_status = run.http_status;
        self.duration_ms = millis(run.duration);
        self.stdout = run.stdout.text;
        self.stderr = run.stderr.text;
        self.stdout_truncated = run.stdout.truncated;
        self.stderr_truncated = run.stderr.truncated;
        self.stdout_lossy = run.stdout.lossy;
        self.stderr_lossy = run.stderr.lossy;
        self.verdict = reading.verdict.clone();
        self.error = reading.error.clone();
    }
}

impl Outcome {
    /// The bytes this outcome holds: the struct and every string and JSON value in it, its
    /// captured output included (what the async queue charges for it, §5.10).
    pub fn held_bytes(&self) -> usize {
        let texts = [&self.hook, &self.ty, &self.command, &self.stdout, &self.stderr];
        let rewake = self
            .rewake
            .as_ref()
            .map_or(0, |r| r.summary.capacity() + r.message.as_ref().map_or(0, String::capacity));
        let optional = [&self.status_message, &self.error];
        std::mem::size_of::<Outcome>()
            + texts.into_iter().map(String::capacity).sum::<usize>()
            + optional.into_iter().flatten().map(String::capacity).sum::<usize>()
            + self.verdict.held_bytes()
            + rewake
    }
}

impl Outcome {
    /// What the logs tell of this outcome (`hook.verdict`, `hook.output`).
    pub fn as_logged(&self) -> crate::logs::HookEnd<'_> {
        crate::logs::HookEnd {
            hook: &self.hook,
            ty: &self.ty,
            status: self.status,
            exit_code: self.exit_code,
            signal: self.signal,
            http_status: self.http_status,
            timed_out: self.timed_out,
            duration_ms: self.duration_ms,
            verdict: &self.verdict,
            stdout: &self.stdout,
            stderr: &self.stderr,
            error: self.error.as_deref(),
        }
    }
}

impl FireResult {
    /// What `fire.done` tells of this result.
    pub fn as_logged(&self) -> crate::logs::FireEnd<'_> {
        crate::logs::FireEnd {
            name: &self.event,
            decision: self.decision,
            continue_: self.continue_,
            hooks: self.outcomes.len(),
            warnings: self.warnings.len(),
        }
    }
}

#[cfg(test)]
impl Outcome {
    /// A finished command outcome with this output, for tests.
    pub(crate) fn sample(stdout: String, stderr: String) -> Outcome {
        Outcome {
            hook: "user:PreToolUse[0].hooks[0]".into(),
            ty: "command".into(),
            command: "cat".into(),
            status: Status::Ok,
            exit_code: Some(0),
            signal: None,
            http_status: None,
            timed_out: false,
            duration_ms: 1.5,
            stdout,
            stderr,
            stdout_truncated: false,
            stderr_truncated: false,
            stdout_lossy: false,
            stderr_lossy: false,
            status_message: None,
            rewake: None,
            verdict: Verdict::default(),
            error: Some("a \"quoted\" error".into()),
        }
    }
}

/// Milliseconds at 0.1 ms resolution.
pub fn millis(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 10_000.0).round() / 10.0
}

impl FireResult {
    /// A rewrite that holds [`clip::MARKER`] or a cut string would hand the agent an input
    /// nobody wrote: hookwire never read what the marker stands for (an event nested too deep,
    /// `json::clip`; the rest of a string of a payload too large, `json::cut`).
    /// A rewritten tool input is the only input its hook approved, so the fire denies rather
    /// than run either; a rewritten tool output is dropped (the agent keeps the output it had).
    /// Each with a warning.
    pub(crate) fn refuse_unread_rewrites(&mut self) {
        use crate::json::clip::{self, MARKER};
        use crate::json::cut::CUT;
        if self.updated_input.as_ref().is_some_and(clip::holds_marker) {
            self.updated_input = None;
            if self.decision != Some(Decision::Deny) {
                self.decision = Some(Decision::Deny);
                self.reason = Some(format!(
                    "hookwire: a hook rewrote the tool input, and the rewrite carries a part of the event that hookwire did not read (nested deeper than {} levels, or the rest of a string cut from a payload too large to read whole); denied rather than run an input no hook approved",
                    clip::DEPTH
                ));
            }
            self.warnings.push(format!(
                "a rewritten tool input held a part of the event hookwire did not read ({MARKER:?}, or a string ending in {CUT:?}): the rewrite is refused and the tool call denied"
            ));
        }
        if self.updated_tool_output.as_ref().is_some_and(clip::holds_marker) {
            self.updated_tool_output = None;
            self.warnings.push(format!(
                "a rewritten tool output held a part of the event hookwire did not read ({MARKER:?}, or a string ending in {CUT:?}): the rewrite is dropped"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rewrite_carrying_the_unread_marker_is_refused_and_denies() {
        use crate::json::clip::MARKER;
        use serde_json::json;
        let mut r = FireResult::empty("PreToolUse");
        r.decision = Some(Decision::Allow);
        r.updated_input = Some(json!({"command": "ls", "x": [MARKER]}));
        r.updated_tool_output = Some(json!(MARKER));
        r.refuse_unread_rewrites();
        assert_eq!(
            (r.decision, r.updated_input.is_none(), r.updated_tool_output.is_none()),
            (Some(Decision::Deny), true, true)
        );
        assert_eq!(r.warnings.len(), 2);
        let mut clean = FireResult::empty("PreToolUse");
        clean.updated_input = Some(json!({"command": "ls"}));
        clean.refuse_unread_rewrites();
        assert!(clean.updated_input.is_some() && clean.warnings.is_empty());
    }

    #[test]
    fn every_key_is_present_in_the_documented_order() {
        let json = FireResult::empty("Stop").to_json();
        let keys = [
            "event",
            "decision",
            "reason",
            "continue",
            "stop_reason",
            "updated_input",
            "updated_tool_output",
            "additional_context",
            "system_message",
            "suppress_output",
            "env",
            "extra",
            "pending_context",
            "warnings",
            "outcomes",
            "async_outcomes",
        ];
        let mut last = 0;
        for k in keys {
            let at = json.find(&format!("\"{k}\":")).unwrap_or_else(|| panic!("{k} missing in {json}"));
            assert!(at >= last, "{k} out of order");
            last = at;
        }
    }

    /// Large outputs are escaped straight into the result text (issue 20); the text must stay
    /// byte for byte what serde_json writes, whatever mix of large and small outputs it holds.
    #[test]
    fn the_result_text_is_serde_jsons_with_large_outputs_in_any_place() {
        let big = |seed: u32| -> String {
            (0..20_000u32)
                .map(|i| ['a', '"', '\n', 'é', '\u{1}', '😀', 'z'][((i ^ seed) % 7) as usize])
                .collect()
        };
        let mut r = FireResult::empty("PreToolUse");
        r.reason = Some(big(1));
        r.outcomes = vec![
            Outcome::sample(big(2), String::new()),
            Outcome::sample("small".into(), big(3)),
            Outcome::sample(big(4), big(5)),
            Outcome::sample(String::new(), "x".repeat(4096)),
        ];
        r.async_outcomes = vec![Outcome::sample(big(6), "tail".into())];
        r.extra.insert("k".into(), Value::String(big(7)));
        let ours = r.to_json();
        assert_eq!(ours, serde_json::to_string(&r).unwrap());
        assert_eq!(
            serde_json::from_str::<Value>(&ours).unwrap()["outcomes"][2]["stderr"],
            Value::String(big(5))
        );
        // Serialising elsewhere on this thread afterwards is untouched by the text just written.
        assert_eq!(
            serde_json::to_string(&r.outcomes[0]).unwrap(),
            serde_json::to_string(&serde_json::to_value(&r.outcomes[0]).unwrap()).unwrap()
        );
    }
}
