//! Dialects (protocol.md §9): the hook systems hookwire speaks besides Claude Code's. A dialect
//! changes exactly four things: config parsing (in `config/`), payload shaping, verdict reading
//! and fold strategy (here, one file per dialect). The runner is shared and never changes.
//!
//! This module holds the dialects' data (names, native events, environment policy, strategy)
//! and dispatches to each dialect's file; it never runs a process.

pub mod claude_code;
pub mod jcli;
pub mod jcode;
pub mod neocode;
pub mod ok;
pub mod ub;

use crate::catalog::{self, Dialect, EventId, EventSpec, Rules};
use crate::config::Handler;
use crate::fold::Folded;
use crate::runner::Text;
use crate::verdict::{Decision, Reading};
use serde_json::{Map, Value};

/// How the hooks of one fire are run and folded (§9.0): the envelope's dialect decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// All at once; precedence fold in configuration order (claude-code).
    Parallel,
    /// One at a time; stop after the first blocking verdict (jcode, neocode, ok).
    SequentialStop,
    /// One at a time, each seeing the context rewritten by the ones before (j-cli).
    Chain,
    /// One at a time; every hook runs even after a block (ub).
    RunAll,
}

/// Where a hook's environment starts (§3.4 layer 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvPolicy {
    /// The host's environment at fire time.
    Inherit,
    /// Nothing but the dialect's own variables and the top-level `env`.
    Empty,
    /// Only the variables the handler names (ub).
    Whitelist,
}

/// A dialect's name for an event, and what it maps to.
#[derive(Debug)]
pub struct NativeEvent {
    pub name: &'static str,
    /// Canonical events this name stands for; empty for a native-only event (then
    /// `native_only` names its row in the event catalogue).
    pub canonical: &'static [&'static str],
    pub native_only: Option<&'static str>,
    /// Whether a hook can block here in this dialect.
    pub can_block: bool,
}

const fn ev(name: &'static str, canonical: &'static [&'static str], can_block: bool) -> NativeEvent {
    NativeEvent { name, canonical, native_only: None, can_block }
}

const fn native(name: &'static str, can_block: bool) -> NativeEvent {
    NativeEvent { name, canonical: &[], native_only: Some(name), can_block }
}

static JCODE: &[NativeEvent] = &[
    ev("SessionStart", &["SessionStart"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("PostToolUseFailure", &["PostToolUseFailure"], false),
    ev("PreCompact", &["PreCompact"], false),
    ev("PostCompact", &["PostCompact"], false),
    ev("Stop", &["Stop"], true),
];

static NEOCODE: &[NativeEvent] = &[
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

static OK: &[NativeEvent] = &[
    ev("PreToolUse", &["PreToolUse"], true),
    ev("PostToolUse", &["PostToolUse"], false),
    ev("UserPromptSubmit", &["UserPromptSubmit"], true),
    ev("Stop", &["Stop"], false),
];

static JCLI: &[NativeEvent] = &[
    ev("pre_send_message", &["UserPromptSubmit"], true),
    ev("pre_tool_execution", &["PreToolUse"], true),
    ev("post_tool_execution", &["PostToolUse"], false),
    ev("post_tool_execution_failure", &["PostToolUseFailure"], false),
    ev("stop", &["Stop"], true),
    ev("session_start", &["SessionStart"], false),
    ev("session_end", &["SessionEnd"], false),
    ev("pre_auto_compact", &["PreCompact"], false),
    ev("post_auto_compact", &["PostCompact"], false),
    native("post_send_message", false),
    native("pre_llm_request", true),
    native("post_llm_response", false),
    native("pre_micro_compact", false),
    native("post_micro_compact", false),
];

static UB: &[NativeEvent] = &[
    ev("pre_tool_call", &["PreToolUse"], true),
    ev("post_tool_call", &["PostToolUse", "PostToolUseFailure"], false),
    ev("pre_user_turn", &["UserPromptSubmit"], false),
    ev("post_user_turn", &["Stop", "StopFailure"], false),
];

impl Dialect {
    pub fn strategy(self) -> Strategy {
        match self {
            Dialect::ClaudeCode => Strategy::Parallel,
            Dialect::Jcode | Dialect::Neocode | Dialect::Ok => Strategy::SequentialStop,
            Dialect::JCli => Strategy::Chain,
            Dialect::Ub => Strategy::RunAll,
        }
    }

    pub fn env_policy(self) -> EnvPolicy {
        match self {
            Dialect::Neocode => EnvPolicy::Empty,
            Dialect::Ub => EnvPolicy::Whitelist,
            _ => EnvPolicy::Inherit,
        }
    }

    /// Whether this dialect's hooks see rewrites made by earlier hooks of the same fire.
    pub fn chains(self) -> bool {
        matches!(self, Dialect::Jcode | Dialect::JCli)
    }

    /// The dialect's event names; `None` for claude-code, whose names are the catalogue's.
    pub fn events(self) -> Option<&'static [NativeEvent]> {
        match self {
            Dialect::ClaudeCode => None,
            Dialect::Jcode => Some(JCODE),
            Dialect::Neocode => Some(NEOCODE),
            Dialect::Ok => Some(OK),
            Dialect::JCli => Some(JCLI),
            Dialect::Ub => Some(UB),
        }
    }

    pub fn native_event(self, name: &str) -> Option<&'static NativeEvent> {
        self.events()?.iter().find(|e| e.name == name)
    }

    /// The event ids a configured native name registers under.
    pub fn event_ids(self, name: &str) -> Vec<EventId> {
        match self.native_event(name) {
            None => Vec::new(),
            Some(n) => match n.native_only {
                Some(row) => catalog::lookup_native(self.as_str(), row).into_iter().collect(),
                None => n.canonical.iter().filter_map(|c| catalog::lookup(c)).collect(),
            },
        }
    }

    /// The native name under which this dialect knows the canonical event `spec`.
    pub fn native_name(self, spec: &EventSpec) -> Option<&'static str> {
        if let Some(owner) = spec.native_of {
            return (owner == self.as_str()).then_some(spec.name);
        }
        self.events()?.iter().find(|e| e.canonical.contains(&spec.name)).map(|e| e.name)
    }

    /// Whether a hook of this dialect can block on this event.
    pub fn can_block(self, spec: &EventSpec, rules: Rules) -> bool {
        match self {
            Dialect::ClaudeCode => spec.can_block(rules),
            _ => self.native_name(spec).and_then(|n| self.native_event(n)).is_some_and(|n| n.can_block),
        }
    }
}

/// What one fire is about, as each dialect's payload and reading need it.
pub struct FireEvent<'a> {
    pub spec: &'static EventSpec,
    pub rules: Rules,
    /// The event as the host gave it.
    pub original: &'a Value,
    /// The event with the rewrites of earlier chaining hooks applied (== original otherwise).
    pub current: &'a Value,
    /// The host's exact text, when the host gave text and nothing was rewritten.
    pub raw: Option<&'a str>,
    /// Native fields set by earlier j-cli hooks (`messages`, `system_prompt`, ...).
    pub overrides: &'a Map<String, Value>,
}

/// One hook's reading inside a fire, with what the strategy needs beyond the verdict.
#[derive(Debug, Clone)]
pub struct Step {
    pub reading: Reading,
    /// Sequential strategies stop after this hook.
    pub halt: bool,
    /// Event fields to rewrite for the following hooks of chaining dialects
    /// (`tool_input`, `tool_response`, `prompt`).
    pub chain: Vec<(String, Value)>,
    /// Native fields to hand to the following j-cli hooks as they are.
    pub native: Map<String, Value>,
    /// The j-cli action that ended the chain, if any.
    pub action: Option<&'static str>,
    /// The hook's exit status was lost (`End::Lost`): the cause, for the fire's one warning.
    pub lost: Option<String>,
}

impl Step {
    pub fn of(reading: Reading) -> Step {
        Step { reading, halt: false, chain: Vec::new(), native: Map::new(), action: None, lost: None }
    }
}

/// The payload a hook of `h`'s dialect receives on stdin.
pub fn payload(h: &Handler, ev: &FireEvent<'_>) -> Vec<u8> {
    match h.dialect {
        Dialect::ClaudeCode => claude_code::payload(ev),
        Dialect::Jcode => claude_code::payload(ev),
        Dialect::Neocode => neocode::payload(h, ev),
        Dialect::Ok => ok::payload(h, ev),
        Dialect::JCli => jcli::payload(h, ev),
        Dialect::Ub => ub::payload(h, ev),
    }
}

/// The dialect's own variables (§3.4 layer 3).
pub fn vars(h: &Handler, ev: &FireEvent<'_>) -> Vec<(String, String)> {
    match h.dialect {
        Dialect::ClaudeCode | Dialect::Ok => Vec::new(),
        Dialect::Jcode => jcode::vars(h, ev),
        Dialect::Neocode => neocode::vars(h, ev),
        Dialect::JCli => jcli::vars(h, ev),
        Dialect::Ub => ub::vars(h, ev),
    }
}

/// Everything a dialect's reader gets about one finished hook.
pub struct Finished<'a> {
    pub end: &'a crate::runner::End,
    pub stdout: &'a Text,
    pub stderr: &'a Text,
    pub timeout_s: f64,
}

/// Reads one hook's outcome in its own dialect.
pub fn read(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    if let crate::runner::End::Cancelled { .. } = f.end {
        // The host cancelled the fire: no dialect reads anything into it.
        let reading = Reading {
            verdict: crate::verdict::Verdict::default(),
            status: crate::verdict::Status::Cancelled,
            error: Some("cancelled by the host".to_string()),
            warnings: Vec::new(),
        };
        return Step { halt: true, ..Step::of(reading) };
    }
    if let crate::runner::End::Lost(why) = f.end {
        return read_lost(h, ev, f, why);
    }
    read_by_dialect(h, ev, f)
}

fn read_by_dialect(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>) -> Step {
    match h.dialect {
        Dialect::ClaudeCode => claude_code::read(h, ev, f),
        Dialect::Jcode => jcode::read(h, ev, f),
        Dialect::Neocode => neocode::read(h, ev, f),
        Dialect::Ok => ok::read(h, ev, f),
        Dialect::JCli => jcli::read(h, ev, f),
        Dialect::Ub => ub::read(h, ev, f),
    }
}

/// A hook whose exit status was lost (issue 14): read as a failure of the dialect, so its
/// failure policy applies (fail-closed blocks), with the text of the cause; and its stdout JSON,
/// when it holds a valid object, is still read as if the hook had exited 0. A fail-closed block
/// is not undone by a JSON that does not block. The status stays `error`, and the fire's one
/// warning about lost statuses comes from the dispatcher, so this hook adds no line of its own.
fn read_lost(h: &Handler, ev: &FireEvent<'_>, f: &Finished<'_>, why: &str) -> Step {
    use crate::runner::End;
    use crate::verdict::Status;
    let failed_end = End::Failed(why.to_string());
    let mut step = read_by_dialect(h, ev, &Finished { end: &failed_end, ..*f });
    let json = !f.stdout.truncated
        && f.stdout.text.trim_start().starts_with('{')
        && matches!(serde_json::from_str::<Value>(&f.stdout.text), Ok(Value::Object(_)));
    if json {
        let zero = End::Exited(0);
        let read = read_by_dialect(h, ev, &Finished { end: &zero, ..*f });
        if read.reading.status == Status::Ok {
            // A fail-closed block stands unless the JSON blocks too (then its reason is better).
            if !step.reading.verdict.blocking || read.reading.verdict.blocking {
                let failure = std::mem::replace(&mut step, read);
                step.halt |= failure.halt;
                step.reading.status = Status::Error;
                step.reading.error = failure.reading.error;
            }
        } else if let Some(e) = read.reading.error {
            step.reading.error = Some(format!("{why}; stdout JSON: {e}"));
        }
    }
    step.reading.warnings.retain(|w| !w.contains(why));
    step.lost = Some(why.to_string());
    step
}

/// Folds the steps of a sequential fire by the envelope dialect's rules.
pub fn fold(strategy_dialect: Dialect, steps: &[&Step]) -> Folded {
    match strategy_dialect {
        Dialect::ClaudeCode | Dialect::Ub => {
            crate::fold::fold(&steps.iter().map(|s| &s.reading.verdict).collect::<Vec<_>>())
        }
        Dialect::Jcode | Dialect::Ok => jcode::fold(steps),
        Dialect::Neocode => neocode::fold(steps),
        Dialect::JCli => jcli::fold(steps),
    }
}

/// The blocking decision of an event: deny on permission events, block elsewhere.
pub fn block_decision(spec: &EventSpec) -> Decision {
    match spec.decisions {
        catalog::Decisions::Permission | catalog::Decisions::PermissionRequest => Decision::Deny,
        _ => Decision::Block,
    }
}

/// Compact JSON of a value; a string stays as it is (`toolResult`, `tool_result`, ...).
pub fn text_or_json(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
