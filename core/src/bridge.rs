//! The bridge (issue 34, point 2): an agent runs `hookwire bridge --agent <dialect>` as its hook
//! with its own payload on stdin; the payload becomes the canonical Claude Code event (the
//! dialect's [`DialectRules::canonical`](crate::dialect::DialectRules::canonical), or its native
//! event names), the user's Claude Code hooks run on it with Claude Code's semantics, and the
//! result goes back in the agent's own answer form: stdout bytes and an exit code exactly as
//! that agent reads a hook of its own. The answer is each dialect's `answer.rs`, reached through
//! [`Profile::answer`](crate::dialect::Profile); a dialect without one cannot be bridged.
//!
//! The rules of what an agent cannot express live with the dialect: a deny stays a deny, an
//! `ask` becomes a deny where the agent has no ask, a rewrite or a context the agent cannot
//! carry is dropped (the tool then goes through only if nothing blocked), and every such loss
//! is one line of [`Answer::losses`]. This module never runs a process; the CLI fires.

use crate::catalog::{self, Dialect, EventSpec};
use crate::result::FireResult;
use crate::verdict::Decision;
use serde_json::{Map, Value};

/// The most bytes of an agent's payload the bridge reads (a payload carries a tool's output,
/// which the agent may not have cut).
pub const MAX_PAYLOAD_BYTES: usize = 16 << 20;

/// The deepest nesting of a payload's JSON the bridge accepts.
pub const MAX_PAYLOAD_DEPTH: usize = 64;

/// What the bridge gives back to the agent: the bytes on stdout and the exit code the agent
/// reads, the text it reads on stderr (a reason, for agents that read one), and one line per
/// part of the result the agent cannot express.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    pub stdout: Vec<u8>,
    /// What the agent reads on stderr (Windsurf's and Kiro's reason of an exit 2); empty for
    /// agents that answer on stdout. Warnings are not part of it.
    pub stderr: String,
    pub exit_code: i32,
    /// One warning per loss: what the agent cannot express, and what it gets instead.
    pub losses: Vec<String>,
}

impl Answer {
    /// Nothing to say: the agent goes on as if no hook had answered.
    pub fn nothing(losses: Vec<String>) -> Answer {
        Answer { losses, ..Answer::default() }
    }

    /// A JSON object on stdout with exit 0; nothing at all when the object is empty.
    pub fn json(object: Map<String, Value>, losses: Vec<String>) -> Answer {
        if object.is_empty() {
            return Answer::nothing(losses);
        }
        let stdout = serde_json::to_vec(&Value::Object(object)).unwrap_or_default();
        Answer { stdout, losses, ..Answer::default() }
    }

    /// The agent's error: `why` on stderr and exit `code`, nothing on stdout.
    pub fn error(code: i32, why: &str) -> Answer {
        Answer { stderr: format!("hookwire bridge: {why}"), exit_code: code, ..Answer::default() }
    }
}

/// How the fire went, for a dialect's answer.
pub enum Fired<'a> {
    /// The user's hooks ran (or none matched): their folded result.
    Result(&'a FireResult),
    /// The bridge could not fire (a bad payload, an unreadable configuration): why.
    Failed(&'a str),
}

/// What a dialect's `answer.rs` is given.
pub struct Answering<'a> {
    /// The event name the agent fired (its own: `BeforeTool`, `preToolUse`); empty when the
    /// payload could not be read.
    pub native: &'a str,
    /// The canonical event the hooks ran on; `None` when the payload could not be read.
    pub spec: Option<&'static EventSpec>,
    /// The canonical event (its `tool_name`, `tool_input`); `Null` when there is none.
    pub event: &'a Value,
    pub fired: Fired<'a>,
}

impl Answering<'_> {
    /// The canonical event's name, or `""`.
    pub fn event_name(&self) -> &'static str {
        self.spec.map_or("", |s| s.name)
    }

    /// The tool input the agent gave (canonical keys), when the event has one.
    pub fn tool_input(&self) -> Option<&Map<String, Value>> {
        self.event.get("tool_input").and_then(Value::as_object)
    }
}

/// A dialect's answer (`answer.rs`): a result in the agent's own answer form.
pub type AnswerFn = fn(&Answering<'_>) -> Answer;

/// The losses of one answer, worded the same way in every dialect.
pub struct Losses {
    agent: &'static str,
    lines: Vec<String>,
}

impl Losses {
    pub fn new(agent: &'static str) -> Losses {
        Losses { agent, lines: Vec::new() }
    }

    /// `what` the agent cannot express on `event`, and `instead` what it gets.
    pub fn lose(&mut self, event: &str, what: &str, instead: &str) {
        self.lines.push(format!("{} cannot express {what} on {event}: {instead}", self.agent));
    }

    pub fn into_lines(self) -> Vec<String> {
        self.lines
    }
}

/// Whether a result blocks (deny or block).
pub fn blocks(r: &FireResult) -> bool {
    matches!(r.decision, Some(Decision::Deny | Decision::Block))
}

/// The reason of a blocking result, never empty (agents that reject a block without a reason
/// would let the action through).
pub fn block_reason(r: &FireResult) -> String {
    match r.reason.as_deref().map(str::trim) {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => "Blocked by hook".to_string(),
    }
}

/// The bridge for one agent.
#[derive(Debug, Clone, Copy)]
pub struct Bridge {
    dialect: Dialect,
    answer: AnswerFn,
}

impl Bridge {
    /// The bridge for the dialect named `agent`; an error saying why when there is none (an
    /// unknown name, or a dialect without an answer form).
    pub fn for_agent(agent: &str) -> Result<Bridge, String> {
        let Some(dialect) = Dialect::parse(agent) else {
            return Err(format!(
                "unknown agent \"{agent}\"; agents the bridge answers: {}",
                Bridge::agents().join(", ")
            ));
        };
        match dialect.rules().profile().answer {
            Some(answer) => Ok(Bridge { dialect, answer }),
            None => Err(format!(
                "the bridge cannot answer {agent} yet (its dialect has no answer form); agents the bridge answers: {}",
                Bridge::agents().join(", ")
            )),
        }
    }

    /// The names of the agents the bridge answers, in the list's order.
    pub fn agents() -> Vec<&'static str> {
        catalog::ALL_DIALECTS
            .iter()
            .filter(|d| d.rules().profile().answer.is_some())
            .map(|d| d.as_str())
            .collect()
    }

    /// The agent's dialect name.
    pub fn name(&self) -> &'static str {
        self.dialect.as_str()
    }

    /// Reads the agent's payload: bounded in size and depth, a JSON object. `event` names the
    /// event for agents whose payload carries no name (it is added as `hook_event_name` unless
    /// the payload has one).
    pub fn read_payload(&self, bytes: &[u8], event: Option<&str>) -> Result<Value, String> {
        if bytes.len() > MAX_PAYLOAD_BYTES {
            return Err(format!("the payload is larger than {} MiB", MAX_PAYLOAD_BYTES >> 20));
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Err("no payload on stdin (it was empty)".to_string());
        }
        let value =
            crate::json::value_from_slice(bytes).map_err(|e| format!("the payload is not JSON: {e}"))?;
        if crate::json::depth(&value) > MAX_PAYLOAD_DEPTH {
            return Err(format!("the payload nests deeper than {MAX_PAYLOAD_DEPTH} levels"));
        }
        let Value::Object(mut m) = value else {
            return Err("the payload is not a JSON object".to_string());
        };
        if let Some(name) = event
            && !matches!(m.get("hook_event_name"), Some(Value::String(_)))
        {
            m.insert("hook_event_name".to_string(), Value::String(name.to_string()));
        }
        Ok(Value::Object(m))
    }

    /// The canonical event the agent's payload stands for: the dialect's own translation
    /// (`canonical`), else the payload with its native event name replaced by the canonical
    /// one (a Claude-Code-shaped payload), else the payload as it is when its name is Claude
    /// Code's. `Ok(None)`: an event of the agent's own that Claude Code has no hook for
    /// (Gemini's `BeforeModel`): nothing to run.
    pub fn canonical(&self, native: &Value) -> Result<Option<Value>, String> {
        let Some(name) = native.get("hook_event_name").and_then(Value::as_str) else {
            return Err(format!(
                "the payload names no event (no string `hook_event_name`); pass --event with {}'s name for it",
                self.name()
            ));
        };
        let rules = self.dialect.rules();
        if let Some(c) = rules.canonical(name, native) {
            return Ok(Some(c));
        }
        let profile = rules.profile();
        if profile.native_events.is_some() {
            let id = profile.event_ids(name).into_iter().next();
            let spec = id.map(catalog::spec).filter(|s| s.native_of.is_none());
            return match spec {
                Some(s) => {
                    let mut c = native.clone();
                    c["hook_event_name"] = Value::String(s.name.to_string());
                    Ok(Some(c))
                }
                None if id.is_some() => Ok(None),
                None => Err(format!("{name} is not an event of {}", self.name())),
            };
        }
        match catalog::lookup(name) {
            Some(_) => Ok(Some(native.clone())),
            None => Err(format!("{name} is not an event of {}", self.name())),
        }
    }

    /// The answer to the agent for `result`, a fire of `canonical` (from the agent's `native`
    /// payload).
    pub fn answer(&self, native: &Value, canonical: &Value, result: &FireResult) -> Answer {
        let spec = canonical.get("hook_event_name").and_then(Value::as_str).and_then(catalog::lookup);
        let name = native.get("hook_event_name").and_then(Value::as_str).unwrap_or("");
        (self.answer)(&Answering {
            native: name,
            spec: spec.map(catalog::spec),
            event: canonical,
            fired: Fired::Result(result),
        })
    }

    /// The answer when the bridge could not fire: the agent's own error, `why` on stderr.
    /// `native`: the agent's event name, when it is known.
    pub fn failed(&self, native: Option<&str>, why: &str) -> Answer {
        (self.answer)(&Answering {
            native: native.unwrap_or(""),
            spec: None,
            event: &Value::Null,
            fired: Fired::Failed(why),
        })
    }
}

#[cfg(test)]
mod tests;
