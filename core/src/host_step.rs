//! The host step: what an agent loop does next with the result of one fire, as Claude Code's own
//! loop does it (agents.md §5, "Applying a result in a host").
//!
//! The engine decides nothing about the loop (rule 1 there): a result says "deny", and it is
//! the host that must not run the tool and must give the model an error tool result carrying
//! the reason. Every framework adapter (LangChain, the OpenAI Agents SDK, the AI SDK, eino, in
//! three languages) needs that same translation, and its texts (`Stop hook feedback:`,
//! `Blocked by hook`) are what hooks in the wild were written against. So it lives here once,
//! as a pure function of the result, and the adapters only map each [`Action`] onto their
//! framework's own hooks.
//!
//! The loop is Claude Code's as of [`crate::CLAUDE_CODE_VERSION`] (2.1.332, agents.md §5.1),
//! with two deliberate differences: Claude Code echoes the hook's command line into the
//! model's context (rule 8), and since 2.1.332 prefixes a denial's tool result with
//! `PreToolUse:<tool> hook error: `; a step never echoes the command line (it can hold paths
//! and secrets) and gives the bare reason (a result does not name the tool; the adapter that
//! knows it may add the prefix).
//!
//! Every text of a step says who sees it ([`SeenBy`]): since 2.1.332 one text can reach both
//! the model and the user (an `ask` turned deny, a PermissionRequest deny), and an adapter
//! must not guess which.

use crate::error::EventError;
use crate::result::FireResult;
use crate::verdict::Decision;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The text a denial or Stop block carries when no hook gave a reason (protocol.md §6.4).
pub const NO_REASON: &str = "Blocked by hook";

/// What the loop does next. Each variant belongs to one point of the loop; the event decides
/// which variants can occur, so an adapter handles only the ones of the point it sits at.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "HostAction")]
pub enum Action {
    /// PreToolUse: run the tool, with `tool_input` when a hook rewrote it.
    RunTool,
    /// PreToolUse `deny`, or `ask` (a host with nobody to ask denies): do not run the tool; the
    /// model gets an error tool result whose text is `message`.
    DenyTool,
    /// PreToolUse `defer`: do not run the tool and give no tool result; the run ends and the
    /// pending call is handed back to the caller.
    DeferTool,
    /// PostToolUse, PostToolUseFailure: the model gets the real result, `feedback` beside it,
    /// and `tool_output` instead of it when that fits the tool's output.
    DeliverResult,
    /// UserPromptSubmit: call the model, with `prompt` when a hook rewrote it.
    CallModel,
    /// UserPromptSubmit `block` or `continue: false`: no model call; the prompt is dropped and
    /// `user_message` is shown to the user, never to the model.
    BlockPrompt,
    /// Stop, SubagentStop `block` (or additional context): one more model call with `message`
    /// as its user message; the next Stop event carries `stop_hook_active: true`.
    ContinueTurn,
    /// Stop, SubagentStop: let the turn end.
    EndTurn,
    /// PreModelSwitch `allow` or no decision: switch the model.
    SwitchModel,
    /// PreModelSwitch `deny`, or `ask` (nobody to ask): keep the current model; `user_message`
    /// says why.
    KeepModel,
    /// Any other event: go on; deliver `context` if there is any.
    Proceed,
}

/// Who sees a text of the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "Audience")]
pub enum Audience {
    /// The model only (a tool result, a system message, a user message of an extra call).
    Model,
    /// The user only, never the model.
    User,
    /// The model, as the step's slot says, and the user as well.
    Both,
}

/// For each text key of the step, who sees it: `null` exactly when the text is `null`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, JsonSchema)]
pub struct SeenBy {
    pub message: Option<Audience>,
    pub feedback: Option<Audience>,
    pub prompt: Option<Audience>,
    pub context: Option<Audience>,
    pub user_message: Option<Audience>,
}

/// The host step of one result: every key always present, as in the result JSON.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[schemars(rename = "HostStep")]
pub struct HostStep {
    /// The result's `event`.
    pub event: String,
    pub action: Action,
    /// `run_tool`: the replacement tool input; `null` runs the call as the model made it.
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    pub tool_input: Option<Value>,
    /// `deny_tool`: the error tool result's text; `continue_turn`: the extra call's user message.
    pub message: Option<String>,
    /// `deliver_result`: text for the model beside the real tool result (a PostToolUse block).
    pub feedback: Option<String>,
    /// `deliver_result`: the replacement tool output. Apply it only when it fits what the tool
    /// returns (Claude Code drops a string for Bash); otherwise keep the original.
    pub tool_output: Option<Value>,
    /// `call_model`: the rewritten prompt; `null` keeps the prompt as submitted.
    pub prompt: Option<String>,
    /// Text for the model, labelled with the event: beside the tool result (also on
    /// `deny_tool`), before the prompt, at session start. Includes the context of async hooks
    /// that finished since the session's previous fire.
    pub context: Option<String>,
    /// Text for the user and never the model: a blocked prompt's text, the stop reason, the
    /// hooks' system messages.
    pub user_message: Option<String>,
    /// End the run after this step: PreToolUse after the tool ran (it still runs), PostToolUse
    /// after this tool, UserPromptSubmit without a model call, Stop without another call.
    pub stop: bool,
    /// Who sees each text above. `message` can be `both` (an `ask` with nobody to ask, a
    /// PermissionRequest or PreSkillShellCommand denial): show it to the user too, once.
    pub seen_by: SeenBy,
    /// `run_tool` because a hook decided `allow` (PreToolUse, PermissionRequest): the host's own
    /// approval of the call is not asked, as Claude Code skips its permission prompt, and
    /// PermissionRequest is not fired. `false` on `run_tool` without a decision: the host's own
    /// approval (and PermissionRequest where it would ask someone) still stands.
    pub approved: bool,
}

/// The keys of a result the host step reads; the rest (outcomes, warnings) are the host's to
/// log. Read leniently so that a host may pass a result it re-serialised from its own types.
#[derive(Deserialize)]
struct ResultView {
    event: String,
    #[serde(default)]
    decision: Option<Decision>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default = "yes", rename = "continue")]
    continue_: bool,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    updated_input: Option<Value>,
    #[serde(default)]
    updated_tool_output: Option<Value>,
    #[serde(default)]
    additional_context: Option<String>,
    #[serde(default)]
    system_message: Option<String>,
    #[serde(default)]
    pending_context: Option<String>,
    #[serde(default)]
    extra: serde_json::Map<String, Value>,
    #[serde(default)]
    async_outcomes: Vec<AsyncView>,
}

/// The part of an async outcome the step reads: an `asyncRewake` hook that woke the agent.
#[derive(Deserialize)]
struct AsyncView {
    #[serde(default)]
    rewake: Option<RewakeView>,
}

#[derive(Deserialize)]
struct RewakeView {
    summary: String,
}

fn yes() -> bool {
    true
}

impl ResultView {
    /// The view of a result JSON: `invalid_json` for text that is not JSON, `invalid_event`
    /// for JSON that is not a result.
    fn of_json(result: &str) -> Result<ResultView, EventError> {
        let value = crate::json::value_from_str(result).map_err(|e| EventError::from_json(&e))?;
        serde_json::from_value(value)
            .map_err(|e| EventError::invalid("", format!("not a hookwire result: {e}")))
    }
}

impl From<&FireResult> for ResultView {
    fn from(r: &FireResult) -> Self {
        ResultView {
            event: r.event.clone(),
            decision: r.decision,
            reason: r.reason.clone(),
            continue_: r.continue_,
            stop_reason: r.stop_reason.clone(),
            updated_input: r.updated_input.clone(),
            updated_tool_output: r.updated_tool_output.clone(),
            additional_context: r.additional_context.clone(),
            system_message: r.system_message.clone(),
            pending_context: r.pending_context.clone(),
            extra: r.extra.clone(),
            async_outcomes: r
                .async_outcomes
                .iter()
                .map(|o| AsyncView {
                    rewake: o.rewake.as_ref().map(|w| RewakeView { summary: w.summary.clone() }),
                })
                .collect(),
        }
    }
}

impl HostStep {
    /// The host step of a result of this library's `fire`.
    pub fn of(result: &FireResult) -> HostStep {
        step(ResultView::from(result))
    }

    /// The host step of a result JSON (protocol.md §8), as the bindings pass it: the compact
    /// JSON the host step serialises to. Errors: `invalid_json` for text that is not JSON,
    /// `invalid_event` for JSON that is not a result (no string `event`, a key of the wrong
    /// type, a decision no event produces).
    pub fn of_json(result: &str) -> Result<String, EventError> {
        step(ResultView::of_json(result)?).to_json()
    }

    /// The compact step JSON the bindings pass on.
    fn to_json(&self) -> Result<String, EventError> {
        serde_json::to_string(self).map_err(|e| EventError::Internal(e.to_string()))
    }
}

impl HostStep {
    /// The host step of a result JSON for a tool whose output, as JSON text, was
    /// `tool_response`: as [`HostStep::of_json`], and a replacement output (`tool_output`) is
    /// kept only when it [fits](output_fits) what the tool returned; otherwise it is `null`
    /// and the host keeps the real output (a host tells a refused replacement by the result's
    /// `updated_tool_output` being set). Errors as `of_json`'s, and `invalid_json` for a
    /// `tool_response` that is not JSON.
    pub fn of_json_for(result: &str, tool_response: &str) -> Result<String, EventError> {
        let mut s = step(ResultView::of_json(result)?);
        let (original, _) =
            crate::json::event_from_str(tool_response).map_err(|e| EventError::from_json(&e))?;
        if s.tool_output.as_ref().is_some_and(|r| !output_fits(&original, r)) {
            s.tool_output = None;
        }
        s.to_json()
    }
}

/// Whether a hook's replacement tool output can stand in for what the tool returned: the same
/// JSON kind (a string for a string, an object for an object, a number for a number, …).
/// Claude Code drops a replacement that does not match the tool's output schema; a host knows
/// no more of a framework tool's output schema than the kind of what it returned. `null`
/// replaces nothing.
pub fn output_fits(original: &Value, replacement: &Value) -> bool {
    !replacement.is_null() && std::mem::discriminant(original) == std::mem::discriminant(replacement)
}

/// The error tool result's text when no hook allowed a PermissionRequest and none said why
/// (hookwire's words: Claude Code's own check denies without a hook reason).
pub const NOT_ALLOWED: &str = "Permission to use this tool was not granted by a hook";

/// Claude Code's loop, one result at a time (agents.md §5, rules 1–8, and §5.1).
fn step(r: ResultView) -> HostStep {
    let stops = !r.continue_;
    let mut s = HostStep {
        action: Action::Proceed,
        tool_input: None,
        message: None,
        feedback: None,
        tool_output: None,
        prompt: None,
        context: model_context(&r.event, r.additional_context.as_deref(), r.pending_context.as_deref()),
        user_message: None,
        stop: stops,
        seen_by: SeenBy::default(),
        approved: false,
        event: r.event,
    };
    // The audience of `message` when it is set: the model's unless a rule below says both.
    let mut message_to = Audience::Model;
    let reason = || r.reason.clone().filter(|t| !t.is_empty()).unwrap_or_else(|| NO_REASON.to_string());
    let mut user = Vec::new();
    match s.event.as_str() {
        // Rule 7: `continue: false` lets the tool run and then stops; rule 3: context is
        // delivered even beside a denial.
        "PreToolUse" => match r.decision {
            Some(Decision::Deny) => {
                s.action = Action::DenyTool;
                s.message = Some(reason());
            }
            // §5.1: with nobody to ask, a deny whose reason the user is shown too.
            Some(Decision::Ask) => {
                s.action = Action::DenyTool;
                s.message = Some(reason());
                message_to = Audience::Both;
            }
            Some(Decision::Defer) => {
                s.action = Action::DeferTool;
                s.stop = true;
            }
            decision => {
                s.action = Action::RunTool;
                s.approved = decision == Some(Decision::Allow);
                s.tool_input = r.updated_input.filter(Value::is_object);
            }
        },
        // §5.1: fired even with nobody to ask; only an allow runs the tool, and a denial's
        // message reaches the model (the error tool result) and the user.
        "PermissionRequest" => match r.decision {
            Some(Decision::Allow) => {
                s.action = Action::RunTool;
                s.approved = true;
                s.tool_input = r.updated_input.filter(Value::is_object);
            }
            decision => {
                s.action = Action::DenyTool;
                s.message = Some(match decision {
                    Some(_) => reason(),
                    None => NOT_ALLOWED.to_string(),
                });
                message_to = Audience::Both;
                if r.extra.get("interrupt") == Some(&Value::Bool(true)) {
                    s.stop = true;
                }
            }
        },
        // §3.2: a skill's inline command; what it would have printed is replaced in the skill
        // text by Claude Code's bracket, which the model and the user both read. A rewrite is
        // refused by the host (observed on 2.1.332), so it blocks too.
        "PreSkillShellCommand" => {
            let blocked = |why: &str| format!("[not run: blocked by hook: {why}]");
            match r.decision {
                Some(Decision::Deny | Decision::Ask) => {
                    s.action = Action::DenyTool;
                    s.message = Some(blocked(&reason()));
                    message_to = Audience::Both;
                }
                Some(Decision::Defer) => {
                    s.action = Action::DeferTool;
                    s.stop = true;
                }
                _ if r.updated_input.is_some() => {
                    s.action = Action::DenyTool;
                    s.message = Some(blocked("the hook changed the command, which isn't supported here"));
                    message_to = Audience::Both;
                }
                _ => s.action = Action::RunTool,
            }
        }
        // §3.2: a denied switch keeps the model; the reason is the user's (exit 2's stderr is
        // shown to the user), and an ask is refused with nobody to ask.
        "PreModelSwitch" => match r.decision {
            Some(Decision::Deny | Decision::Ask) => {
                s.action = Action::KeepModel;
                user.push(reason());
            }
            _ => s.action = Action::SwitchModel,
        },
        // Rule 4: a block is feedback beside the real result; it does not undo the tool.
        "PostToolUse" | "PostToolUseFailure" => {
            s.action = Action::DeliverResult;
            if r.decision == Some(Decision::Block) {
                s.feedback = Some(format!("{} hook blocking error: {}", s.event, reason()));
            }
            s.tool_output = r.updated_tool_output;
        }
        // Rule 6: no model call, and the reason is the user's, never the model's.
        "UserPromptSubmit" => {
            if stops {
                s.action = Action::BlockPrompt;
                user.push(match r.stop_reason.as_deref().filter(|t| !t.is_empty()) {
                    Some(why) => format!("Operation stopped by hook: {why}"),
                    None => "Operation stopped by hook".to_string(),
                });
            } else if r.decision == Some(Decision::Block) {
                s.action = Action::BlockPrompt;
                s.stop = true;
                user.push(format!("UserPromptSubmit operation blocked by hook:\n{}", reason()));
            } else {
                s.action = Action::CallModel;
                s.prompt = r
                    .updated_input
                    .as_ref()
                    .and_then(|v| v.get("prompt"))
                    .and_then(Value::as_str)
                    .map(str::to_string);
            }
            if s.action == Action::BlockPrompt {
                s.context = None; // no model call to carry it
            }
        }
        // Rule 5: a block, or context, is one more model call; `continue: false` wins.
        "Stop" | "SubagentStop" => {
            let context = r.additional_context.as_deref().filter(|t| !t.is_empty());
            if stops || (r.decision != Some(Decision::Block) && context.is_none()) {
                s.action = Action::EndTurn;
            } else {
                s.action = Action::ContinueTurn;
                let mut parts = Vec::new();
                if r.decision == Some(Decision::Block) {
                    parts.push(format!("{} hook feedback:\n{}", s.event, reason()));
                }
                if let Some(c) = context {
                    parts.push(format!("{} hook additional context: {c}", s.event));
                }
                s.message = Some(parts.join("\n\n"));
            }
            // The extra call carries the Stop context in its message; async context still goes
            // beside it.
            s.context = model_context(&s.event, None, r.pending_context.as_deref());
        }
        _ => {}
    }
    if s.action != Action::BlockPrompt
        && stops
        && let Some(why) = r.stop_reason.filter(|t| !t.is_empty())
    {
        user.push(why);
    }
    // §5.1: a PreToolUse system message is shown to the user (never the model), as every
    // event's is; an async hook that woke the agent shows its one-line summary.
    user.extend(r.system_message.filter(|t| !t.is_empty()));
    user.extend(r.async_outcomes.into_iter().filter_map(|o| o.rewake).map(|w| w.summary));
    s.user_message = (!user.is_empty()).then(|| user.join("\n"));
    let to = |text: &Option<_>, who| text.as_ref().map(|_| who);
    s.seen_by = SeenBy {
        message: to(&s.message, message_to),
        feedback: to(&s.feedback, Audience::Model),
        prompt: to(&s.prompt, Audience::Model),
        context: to(&s.context, Audience::Model),
        user_message: to(&s.user_message, Audience::User),
    };
    s
}

/// The text for the model: the hooks' context labelled with the event as Claude Code labels
/// it, then what async hooks left, each part only when non-empty.
fn model_context(event: &str, context: Option<&str>, pending: Option<&str>) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(c) = context.filter(|t| !t.is_empty()) {
        parts.push(format!("{event} hook additional context: {c}"));
    }
    if let Some(p) = pending.filter(|t| !t.is_empty()) {
        parts.push(format!("Async hook context: {p}"));
    }
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

#[cfg(test)]
mod tests;
