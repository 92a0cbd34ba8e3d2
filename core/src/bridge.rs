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

use crate::catalog::{self, Dialect};
use crate::dialect::tool_names;
use crate::result::FireResult;
use serde_json::Value;

pub use crate::dialect::answering::{Answer, AnswerFn, Answering, Fired, Losses, block_reason, blocks};

pub use crate::sent::{MAX_READ as MAX_PAYLOAD_READ, MAX_WHOLE as MAX_PAYLOAD_BYTES, Unread};

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

    /// The agent's dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Reads the agent's payload as `sent` reads an event (bounded, with what was nested
    /// too deep or too long to read said in [`Unread`]: the hooks still run), a JSON object.
    /// `event` names the
    /// event for agents whose payload carries no name (it is added as `hook_event_name` unless
    /// the payload has one); without it, a payload's string `event` key does (Crush's stdin),
    /// else its `point` (neocode's).
    pub fn read_payload(&self, bytes: &[u8], event: Option<&str>) -> Result<(Value, Unread), String> {
        use crate::sent::{self, Unreadable};
        let (value, unread) = sent::read(bytes).map_err(|e| match e {
            Unreadable::Empty => "no payload on stdin (it was empty)".to_string(),
            Unreadable::TooLarge(why) => format!("the payload is {why}"),
            e => format!("the payload is {e}"),
        })?;
        let Value::Object(mut m) = value else {
            return Err("the payload is not a JSON object".to_string());
        };
        if !matches!(m.get("hook_event_name"), Some(Value::String(_))) {
            // `--event`, else the payload's own `event` key (Crush, ok, j-cli, ub and Goose
            // name their event there), else its `point` (neocode's).
            let name = event.map(str::to_string).or_else(|| {
                ["event", "point"].iter().find_map(|k| m.get(*k).and_then(Value::as_str)).map(str::to_string)
            });
            if let Some(name) = name {
                m.insert("hook_event_name".to_string(), Value::String(name));
            }
        }
        Ok((Value::Object(m), unread))
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
            return match profile.canonical_spec(name) {
                Some(s) => {
                    let mut c = native.clone();
                    c["hook_event_name"] = Value::String(s.name.to_string());
                    Ok(Some(c))
                }
                None if !profile.event_ids(name).is_empty() => Ok(None),
                None => Err(format!("{name} is not an event of {}", self.name())),
            };
        }
        match catalog::lookup(name) {
            Some(_) => Ok(Some(native.clone())),
            None => Err(format!("{name} is not an event of {}", self.name())),
        }
    }

    /// The warnings of one fire about the canonical event itself, each said once on stderr
    /// beside the fire's own: a tool name that is not Claude Code's after the agent's
    /// translation (the user's `Bash` guard does not meet it), and a tool input the agent did
    /// not send whole (neocode's preview), whose unread arguments are placeholders that leave
    /// an `if` rule undecided, so its hook runs. None for the canonical dialect (Claude Code),
    /// whose tools are Claude Code's by definition.
    pub fn warnings(&self, canonical: &Value) -> Vec<String> {
        let mut out = Vec::new();
        if self.dialect == Dialect::DEFAULT {
            return out;
        }
        if let Some(tool) = canonical.get("tool_name").and_then(Value::as_str) {
            out.extend(tool_names::unknown_tool_warning(self.name(), tool));
        }
        if canonical.get("tool_input").is_some_and(tool_names::has_unread) {
            out.push(format!(
                "{}'s tool arguments did not arrive whole: the arguments not read are passed as {{\"{}\": <what arrived>}}; an `if` rule on them cannot decide and runs its hook",
                self.name(),
                tool_names::UNREAD
            ));
        }
        out
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
