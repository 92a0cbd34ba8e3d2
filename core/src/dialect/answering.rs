//! What a dialect's `answer.rs` is given and gives back, for the bridge (`bridge.rs`): the
//! result of a fire in, the agent's stdout, stderr and exit code out, with one line per part of
//! the result the agent cannot express. Shared by every dialect's answer form; it runs nothing.

use crate::catalog::EventSpec;
use crate::result::FireResult;
use crate::verdict::Decision;
use serde_json::{Map, Value};

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
    /// The fire's result; or, when the bridge could not fire, the agent's error answer: `why`
    /// on stderr and exit 1, the code every agent bridged so far reads as a failed hook.
    pub fn result(&self) -> Result<&FireResult, Answer> {
        match self.fired {
            Fired::Result(r) => Ok(r),
            Fired::Failed(why) => Err(Answer::error(1, why)),
        }
    }

    /// How every answer form begins: the fire's result and an empty list of losses worded for
    /// `agent`; or, when the bridge could not fire, the agent's error answer to return as is.
    pub fn begin(&self, agent: &'static str) -> Result<(&FireResult, Losses), Answer> {
        Ok((self.result()?, Losses::new(agent)))
    }

    /// Whether the agent's hooks can block on the event it fired, by its own event names
    /// (`profile`, the agent's).
    pub fn can_block(&self, profile: &super::Profile) -> bool {
        profile.native_event(self.native).is_some_and(|e| e.can_block)
    }

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

    /// Each part of `r` named in `parts` that `r` holds, and every `extra` output, is lost on
    /// `event`: dropped.
    pub fn unread(&mut self, event: &str, r: &FireResult, parts: &[Part]) {
        for part in parts {
            let (held, what) = match part {
                Part::Context => (r.additional_context.is_some(), "added context"),
                Part::SystemMessage => (r.system_message.is_some(), "a system message"),
                Part::ToolOutput => (r.updated_tool_output.is_some(), "a rewritten tool output"),
                Part::SuppressOutput => (r.suppress_output, "suppressOutput"),
            };
            if held {
                self.lose(event, what, "dropped");
            }
        }
        for k in r.extra.keys() {
            self.lose(event, &format!("`{k}`"), "dropped");
        }
    }

    pub fn into_lines(self) -> Vec<String> {
        self.lines
    }
}

/// A part of a result an agent may not read ([`Losses::unread`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Context,
    SystemMessage,
    ToolOutput,
    SuppressOutput,
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

/// The answer of an agent that reads exit codes only (Windsurf, and Kimi's effective reading):
/// where its hooks can block (`can_block`), a block is exit 2 with the reason on
/// stderr; everything else is exit 0 and nothing. So `ask` (no ask there) and `continue: false`
/// become a block where the agent can block, the nearest safe answer; an allow, a defer, a
/// rewrite, context, a system message and a rewritten tool output cannot be said, each a loss.
/// On an exit 2 stderr is the reason, so no warning line is written beside it.
pub fn by_exit_code(agent: &'static str, a: &Answering<'_>, can_block: bool) -> Answer {
    let (r, mut l) = match a.begin(agent) {
        Ok(begun) => begun,
        Err(failed) => return failed,
    };
    let native = a.native;
    let block = |why: String| Answer { stderr: why, exit_code: 2, ..Answer::default() };
    if can_block {
        if blocks(r) {
            return block(block_reason(r));
        }
        if !r.continue_ {
            l.lose(native, "`continue: false`", "the action is blocked instead (the agent goes on)");
            return Answer {
                losses: l.into_lines(),
                ..block(r.stop_reason.clone().unwrap_or_else(|| "stopped by a hook".into()))
            };
        }
        if r.decision == Some(Decision::Ask) {
            l.lose(native, "ask", &format!("blocked instead ({agent} has no ask)"));
            let why = r.reason.clone().unwrap_or_else(|| "a hook asks for the user's approval".into());
            return Answer { losses: l.into_lines(), ..block(why) };
        }
        if r.updated_input.is_some() {
            l.lose(native, "a rewritten input", "dropped: the original action runs");
        }
        match r.decision {
            Some(Decision::Allow) => {
                l.lose(native, "an allow", &format!("nothing: the action runs as {agent} runs it"))
            }
            Some(Decision::Defer) => {
                l.lose(native, "defer", &format!("nothing: the action runs as {agent} runs it"))
            }
            _ => {}
        }
    } else {
        if r.decision.is_some() {
            l.lose(native, "a decision", "dropped");
        }
        if !r.continue_ {
            l.lose(native, "`continue: false`", "dropped (the agent goes on)");
        }
        if r.updated_input.is_some() {
            l.lose(native, "a rewritten input", "dropped");
        }
    }
    l.unread(native, r, &[Part::Context, Part::SystemMessage, Part::ToolOutput]);
    Answer::nothing(l.into_lines())
}
