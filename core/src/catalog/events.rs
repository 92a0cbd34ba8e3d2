//! The event catalogue of protocol.md §3.2 as one table: for each canonical event, the field
//! its matchers test, what exit code 2 does, which decisions it can produce, which JSON output
//! fields it honours, and its timeout and environment-file rules.
//!
//! Every other stage asks this table instead of testing event names, so a new event is one row.
//! This module holds data only: it never reads a hook's output or runs anything.

use super::Rules;

/// Which event field a group's matcher is tested against (§4.1, §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchOn {
    /// Matchers are ignored; every group fires.
    Nothing,
    /// The named string field of the event.
    Field(&'static str),
    /// The last path component of the named field (`FileChanged`).
    Basename(&'static str),
}

/// What exit code 2 does on an event (§3.2, column "exit 2").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit2 {
    /// Deny the tool call; stderr is the reason.
    Deny,
    /// Block the action; stderr is the reason.
    Block,
    /// No decision; stderr goes to `system_message`.
    User,
    /// Exit 2 means nothing and stderr is dropped.
    Ignored,
    /// `PreCompact`: a block under `current`, shown to the user under `classic`.
    BlockCurrentUserClassic,
    /// `ConfigChange`: a block, except that a `policy_settings` change can never be blocked.
    BlockUnlessPolicy,
    /// `WorktreeCreate`: any non-zero exit blocks, whatever the JSON says.
    AnyNonZeroBlocks,
}

/// The decisions an event can produce (§3.2, column "decisions").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decisions {
    None,
    /// `PreToolUse`: allow, deny, ask, defer.
    Permission,
    /// `PermissionRequest`: allow, deny (through `decision.behavior`).
    PermissionRequest,
    /// Events that can block.
    Block,
}

/// Which handler types an event accepts (§2.4, last paragraph).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handlers {
    All,
    CommandMcp,
    CommandHttpMcp,
}

/// One row of the catalogue.
#[derive(Debug)]
pub struct EventSpec {
    pub name: &'static str,
    pub match_on: MatchOn,
    /// Exact-list matchers use the narrow character set in both rule sets (§4.1 rule 2).
    pub narrow_matcher: bool,
    pub exit2: Exit2,
    pub decisions: Decisions,
    /// Top-level `decision`/`reason` honoured ("top" in §3.2).
    pub top_decision: bool,
    /// `hookSpecificOutput` fields honoured beyond `hookEventName`.
    pub hso: &'static [&'static str],
    /// Plain stdout on exit 0 is context for the model.
    pub text_is_context: bool,
    pub discards_continue: bool,
    pub discards_system_message: bool,
    /// Every JSON field is discarded (SessionEnd, and everything but `terminalSequence` on
    /// StopFailure, which is handled by `only_terminal_sequence`).
    pub discards_all_json: bool,
    pub only_terminal_sequence: bool,
    /// The values Claude Code sends in the matcher field, when they are a closed set (§3.2);
    /// empty when any value may come. An exact-list matcher naming none of them never runs.
    pub matcher_values: &'static [&'static str],
    /// The `if` filter applies; elsewhere a handler with `if` never runs (§4.3).
    pub tool_event: bool,
    pub handlers: Handlers,
    /// Default timeout under `current`, when it differs from the generic default.
    pub current_timeout_s: Option<f64>,
    /// `CLAUDE_ENV_FILE` under `current` (`SessionStart` always has it, in both rule sets).
    pub env_file_current: bool,
    /// A Stop-like event: its continuations are counted by the loop guard (§5.11).
    pub stop_like: bool,
    /// Whether this event shows the turn made progress, restarting the Stop guard's count
    /// (§5.11).
    pub resets_stop_guard: GuardReset,
    /// For a native-only event (§9.0): the dialect that owns it.
    pub native_of: Option<&'static str>,
    /// `permissionDecision: "defer"` is refused: the event has no pending call to hand back
    /// (`PreModelSwitch`: allow, deny, ask only).
    pub refuses_defer: bool,
    /// A JSON block or deny without a reason reads `Blocked by hook` (§6.4): Claude Code shows
    /// those words, so a result that names no reason would make a host invent one.
    pub no_reason_is_blocked_by_hook: bool,
}

/// Which Stop-guard counts an event restarts (§5.11): a tool call restarts its agent's, a new
/// prompt restarts every agent's of the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardReset {
    No,
    Agent,
    Session,
}

impl EventSpec {
    /// Whether a hook on this event gets `CLAUDE_ENV_FILE` (§3.4 layer 5).
    pub fn has_env_file(&self, rules: Rules) -> bool {
        match rules {
            Rules::Current => self.env_file_current,
            Rules::Classic => self.name == "SessionStart",
        }
    }

    /// What exit 2 means under the given rule set, for this occurrence.
    pub fn exit2_effect(&self, rules: Rules, event: &serde_json::Value) -> Exit2 {
        match self.exit2 {
            Exit2::BlockCurrentUserClassic => match rules {
                Rules::Current => Exit2::Block,
                Rules::Classic => Exit2::User,
            },
            Exit2::BlockUnlessPolicy => {
                if event.get("source").and_then(|s| s.as_str()) == Some("policy_settings") {
                    Exit2::Ignored
                } else {
                    Exit2::Block
                }
            }
            other => other,
        }
    }

    /// Whether a top-level `decision` is honoured under the given rule set for this occurrence.
    pub fn honours_top_decision(&self, rules: Rules, event: &serde_json::Value) -> bool {
        if !self.top_decision {
            return false;
        }
        match self.exit2 {
            Exit2::BlockCurrentUserClassic => rules == Rules::Current,
            Exit2::BlockUnlessPolicy => {
                event.get("source").and_then(|s| s.as_str()) != Some("policy_settings")
            }
            _ => true,
        }
    }

    /// Whether this event can produce a blocking verdict (used for fail-closed, §6.6).
    pub fn can_block(&self, rules: Rules) -> bool {
        match self.decisions {
            Decisions::Permission | Decisions::PermissionRequest => true,
            Decisions::Block => !(self.exit2 == Exit2::BlockCurrentUserClassic && rules == Rules::Classic),
            Decisions::None => false,
        }
    }

    pub fn accepts(&self, kind: super::HandlerType) -> bool {
        use super::HandlerType as T;
        match self.handlers {
            Handlers::All => true,
            Handlers::CommandMcp => matches!(kind, T::Command | T::McpTool),
            Handlers::CommandHttpMcp => matches!(kind, T::Command | T::Http | T::McpTool),
        }
    }
}

const fn row(name: &'static str, match_on: MatchOn, exit2: Exit2, decisions: Decisions) -> EventSpec {
    EventSpec {
        name,
        match_on,
        narrow_matcher: false,
        exit2,
        decisions,
        top_decision: false,
        hso: &[],
        text_is_context: false,
        discards_continue: false,
        discards_system_message: false,
        discards_all_json: false,
        only_terminal_sequence: false,
        tool_event: false,
        matcher_values: &[],
        handlers: Handlers::CommandHttpMcp,
        current_timeout_s: None,
        env_file_current: false,
        stop_like: false,
        resets_stop_guard: GuardReset::No,
        native_of: None,
        refuses_defer: false,
        no_reason_is_blocked_by_hook: false,
    }
}

const fn native_row(dialect: &'static str, name: &'static str, decisions: Decisions) -> EventSpec {
    let exit2 = if matches!(decisions, Decisions::Block) { Exit2::Block } else { Exit2::User };
    EventSpec {
        native_of: Some(dialect),
        handlers: Handlers::All,
        ..row(name, MatchOn::Nothing, exit2, decisions)
    }
}

use Decisions as D;
use Exit2 as X;
use MatchOn as M;

const TOOL: MatchOn = M::Field("tool_name");

/// The catalogue, in the order of protocol.md §3.2.
pub static CATALOGUE: &[EventSpec] = &[
    EventSpec {
        top_decision: true,
        hso: &["permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
        tool_event: true,
        handlers: Handlers::All,
        resets_stop_guard: GuardReset::Agent,
        ..row("PreToolUse", TOOL, X::Deny, D::Permission)
    },
    EventSpec {
        hso: &["decision"],
        tool_event: true,
        handlers: Handlers::All,
        ..row("PermissionRequest", TOOL, X::Ignored, D::PermissionRequest)
    },
    EventSpec {
        hso: &["retry"],
        tool_event: true,
        handlers: Handlers::All,
        ..row("PermissionDenied", TOOL, X::Ignored, D::None)
    },
    EventSpec {
        top_decision: true,
        hso: &["additionalContext", "updatedToolOutput", "updatedMCPToolOutput", "classifierContext"],
        tool_event: true,
        handlers: Handlers::All,
        resets_stop_guard: GuardReset::Agent,
        ..row("PostToolUse", TOOL, X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        hso: &["additionalContext"],
        tool_event: true,
        handlers: Handlers::All,
        ..row("PostToolUseFailure", TOOL, X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        hso: &["additionalContext"],
        handlers: Handlers::All,
        ..row("PostToolBatch", M::Nothing, X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        hso: &["additionalContext", "sessionTitle", "suppressOriginalPrompt"],
        text_is_context: true,
        handlers: Handlers::All,
        current_timeout_s: Some(30.0),
        resets_stop_guard: GuardReset::Session,
        ..row("UserPromptSubmit", M::Nothing, X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        hso: &["additionalContext"],
        text_is_context: true,
        handlers: Handlers::All,
        ..row("UserPromptExpansion", M::Field("command_name"), X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        hso: &["additionalContext"],
        handlers: Handlers::All,
        stop_like: true,
        no_reason_is_blocked_by_hook: true,
        ..row("Stop", M::Nothing, X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        hso: &["additionalContext"],
        handlers: Handlers::All,
        stop_like: true,
        no_reason_is_blocked_by_hook: true,
        ..row("SubagentStop", M::Field("agent_type"), X::Block, D::Block)
    },
    EventSpec {
        hso: &["additionalContext"],
        ..row("SubagentStart", M::Field("agent_type"), X::User, D::None)
    },
    EventSpec {
        hso: &["additionalContext", "initialUserMessage", "sessionTitle", "watchPaths", "reloadSkills"],
        text_is_context: true,
        handlers: Handlers::CommandMcp,
        env_file_current: true,
        matcher_values: &["startup", "resume", "clear", "compact", "fork"],
        ..row("SessionStart", M::Field("source"), X::User, D::None)
    },
    EventSpec {
        hso: &["additionalContext"],
        handlers: Handlers::CommandMcp,
        env_file_current: true,
        matcher_values: &["init", "maintenance"],
        ..row("Setup", M::Field("trigger"), X::User, D::None)
    },
    EventSpec {
        discards_continue: true,
        discards_system_message: true,
        discards_all_json: true,
        matcher_values: &["clear", "resume", "logout", "prompt_input_exit", "other"],
        ..row("SessionEnd", M::Field("reason"), X::User, D::None)
    },
    EventSpec {
        discards_continue: true,
        discards_system_message: true,
        ..row("Notification", M::Field("notification_type"), X::Ignored, D::None)
    },
    EventSpec {
        top_decision: true,
        discards_continue: true,
        discards_system_message: true,
        matcher_values: &["manual", "auto"],
        ..row("PreCompact", M::Field("trigger"), X::BlockCurrentUserClassic, D::Block)
    },
    EventSpec {
        matcher_values: &["manual", "auto"],
        ..row("PostCompact", M::Field("trigger"), X::User, D::None)
    },
    row("InstructionsLoaded", M::Field("load_reason"), X::Ignored, D::None),
    EventSpec {
        top_decision: true,
        ..row("ConfigChange", M::Field("source"), X::BlockUnlessPolicy, D::Block)
    },
    EventSpec {
        hso: &["watchPaths"],
        env_file_current: true,
        ..row("CwdChanged", M::Nothing, X::User, D::None)
    },
    EventSpec {
        hso: &["watchPaths"],
        narrow_matcher: true,
        env_file_current: true,
        ..row("FileChanged", M::Basename("file_path"), X::User, D::None)
    },
    row("DirectoryAdded", M::Field("source"), X::User, D::None),
    EventSpec { hso: &["worktreePath"], ..row("WorktreeCreate", M::Nothing, X::AnyNonZeroBlocks, D::Block) },
    row("WorktreeRemove", M::Nothing, X::User, D::None),
    EventSpec {
        top_decision: true,
        discards_continue: true,
        handlers: Handlers::All,
        ..row("TaskCreated", M::Nothing, X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        handlers: Handlers::All,
        ..row("TaskCompleted", M::Nothing, X::Block, D::Block)
    },
    EventSpec {
        top_decision: true,
        handlers: Handlers::All,
        ..row("TeammateIdle", M::Nothing, X::Block, D::Block)
    },
    EventSpec {
        narrow_matcher: true,
        discards_continue: true,
        discards_system_message: true,
        only_terminal_sequence: true,
        ..row("StopFailure", M::Field("error"), X::Ignored, D::None)
    },
    EventSpec {
        hso: &["action", "content"],
        ..row("Elicitation", M::Field("mcp_server_name"), X::Block, D::Block)
    },
    EventSpec {
        hso: &["action", "content"],
        ..row("ElicitationResult", M::Field("mcp_server_name"), X::Block, D::Block)
    },
    EventSpec {
        hso: &["displayContent"],
        current_timeout_s: Some(10.0),
        ..row("MessageDisplay", M::Nothing, X::User, D::None)
    },
    // Added by Claude Code 2.1.251–2.1.332 (§3.2, last table).
    EventSpec {
        hso: &["permissionDecision", "permissionDecisionReason"],
        refuses_defer: true,
        no_reason_is_blocked_by_hook: true,
        ..row("PreModelSwitch", M::Field("to_model"), X::Deny, D::Permission)
    },
    // "—" in the exit-2 column, "other exits: stderr to the user": nothing blocks, and exit 2's
    // stderr is shown to the user like every other failing exit's (a choice: §3.2 does not say
    // that exit 2's stderr is dropped).
    EventSpec { text_is_context: true, ..row("PostModelSwitch", M::Field("to_model"), X::User, D::None) },
    // A skill's inline shell command is judged as a Bash (or PowerShell) call: `if` rules apply
    // to its `tool_input.command` exactly as to Bash's.
    EventSpec {
        hso: &["permissionDecision", "permissionDecisionReason", "updatedInput"],
        tool_event: true,
        matcher_values: &["Bash", "PowerShell"],
        ..row("PreSkillShellCommand", TOOL, X::Deny, D::Permission)
    },
];

/// The Claude Code release whose events [`CATALOGUE`] lists and whose loop the host step
/// reproduces (agents.md §5.1): one place, reported by `hookwire --version` and each binding's
/// version call, so that a host can tell which behaviour it gets.
pub const CLAUDE_CODE_VERSION: &str = "2.1.332";

/// Events that exist in one dialect only (§9.2, §9.4, agents.md §3.1). Firing one runs only that dialect's
/// handlers; their ids follow the catalogue's.
pub static NATIVE_ONLY: &[EventSpec] = &[
    native_row("neocode", "before_completion_decision", D::Block),
    native_row("j-cli", "post_send_message", D::None),
    native_row("j-cli", "pre_llm_request", D::Block),
    native_row("j-cli", "post_llm_response", D::None),
    native_row("j-cli", "pre_micro_compact", D::None),
    native_row("j-cli", "post_micro_compact", D::None),
    native_row("cursor", "afterAgentResponse", D::None),
    native_row("cursor", "afterAgentThought", D::None),
    native_row("cursor", "afterTabFileEdit", D::None),
    // Tab's file reads are permission decisions (deny, allow), as preToolUse's are.
    EventSpec { exit2: X::Deny, ..native_row("cursor", "beforeTabFileRead", D::Permission) },
    native_row("gemini", "BeforeModel", D::Block),
    native_row("gemini", "AfterModel", D::None),
    native_row("gemini", "BeforeToolSelection", D::None),
    // Open Plugins' file and shell events: matched on the path or the command (the
    // specification's "matcher context"); the `Before…` ones deny the read or the command.
    EventSpec {
        exit2: X::Deny,
        match_on: M::Field("file_path"),
        ..native_row("open-plugins", "BeforeReadFile", D::Permission)
    },
    EventSpec { match_on: M::Field("file_path"), ..native_row("open-plugins", "AfterFileEdit", D::None) },
    EventSpec {
        exit2: X::Deny,
        match_on: M::Field("command"),
        ..native_row("open-plugins", "BeforeShellExecution", D::Permission)
    },
    EventSpec { match_on: M::Field("command"), ..native_row("open-plugins", "AfterShellExecution", D::None) },
    // Goose tells other hooks a PreToolUse chain's final verdict.
    EventSpec { match_on: TOOL, ..native_row("open-plugins", "PreToolUseResult", D::None) },
    native_row("iflow", "SetUpEnvironment", D::None),
    native_row("muse-code", "PreLLMCall", D::Block),
    native_row("muse-code", "PostLLMCall", D::None),
    native_row("muse-code", "Interrupt", D::None),
    native_row("muse-code", "SessionFork", D::None),
    native_row("qwen-code", "SessionDelete", D::None),
    native_row("qwen-code", "TodoCreated", D::None),
    native_row("qwen-code", "TodoCompleted", D::None),
    // Copilot CLI: the prompt as rewritten for the model, and an error of the session.
    native_row("copilot-cli", "userPromptTransformed", D::None),
    native_row("copilot-cli", "errorOccurred", D::None),
    // Cline's hook files with no Claude Code event: TaskResume can cancel, TaskCancel cannot.
    native_row("cline", "TaskResume", D::Block),
    native_row("cline", "TaskCancel", D::None),
    // Windsurf's events with no canonical counterpart: after a response, its transcript, a
    // worktree set up. None blocks (only Windsurf's pre_ hooks do).
    native_row("windsurf", "post_cascade_response", D::None),
    native_row("windsurf", "post_cascade_response_with_transcript", D::None),
    native_row("windsurf", "post_setup_worktree", D::None),
    // Antigravity's events around a model call (Gemini's BeforeModel and AfterModel).
    native_row("antigravity", "PreInvocation", D::None),
    native_row("antigravity", "PostInvocation", D::None),
    // Kiro's spec-task and file triggers; exit 2 blocks a task about to run. File triggers
    // are matched on the file's path.
    EventSpec { exit2: X::Block, ..native_row("kiro", "PreTaskExec", D::Block) },
    native_row("kiro", "PostTaskExec", D::None),
    EventSpec { match_on: M::Field("file_path"), ..native_row("kiro", "PostFileCreate", D::None) },
    EventSpec { match_on: M::Field("file_path"), ..native_row("kiro", "PostFileSave", D::None) },
    EventSpec { match_on: M::Field("file_path"), ..native_row("kiro", "PostFileDelete", D::None) },
];

/// Index of an event in [`CATALOGUE`], then in [`NATIVE_ONLY`].
pub type EventId = usize;

/// How many event ids exist.
pub fn count() -> usize {
    CATALOGUE.len() + NATIVE_ONLY.len()
}

/// Looks up a canonical event name (case-sensitive, as CC is).
pub fn lookup(name: &str) -> Option<EventId> {
    CATALOGUE.iter().position(|e| e.name == name)
}

/// Looks up a native-only event of a dialect.
pub fn lookup_native(dialect: &str, name: &str) -> Option<EventId> {
    NATIVE_ONLY
        .iter()
        .position(|e| e.name == name && e.native_of == Some(dialect))
        .map(|i| i + CATALOGUE.len())
}

pub fn spec(id: EventId) -> &'static EventSpec {
    match CATALOGUE.get(id) {
        Some(s) => s,
        None => &NATIVE_ONLY[id - CATALOGUE.len()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_names_are_unique_and_cover_the_thirty_four_events_of_2_1_332() {
        let mut names: Vec<_> = CATALOGUE.iter().map(|e| e.name).collect();
        assert_eq!(names.len(), 34);
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 34);
        assert_eq!(CLAUDE_CODE_VERSION, "2.1.332");
    }

    #[test]
    fn a_skill_shell_command_is_a_tool_event_so_if_rules_apply_to_it() {
        let s = spec(lookup("PreSkillShellCommand").unwrap());
        assert!(s.tool_event);
        assert_eq!(s.match_on, MatchOn::Field("tool_name"));
        assert_eq!(s.decisions, Decisions::Permission);
        assert!(!s.refuses_defer);
    }

    #[test]
    fn a_model_switch_is_a_permission_without_defer_and_its_aftermath_never_blocks() {
        let pre = spec(lookup("PreModelSwitch").unwrap());
        assert_eq!(
            (pre.match_on, pre.exit2, pre.refuses_defer),
            (MatchOn::Field("to_model"), Exit2::Deny, true)
        );
        assert!(!pre.tool_event);
        let post = spec(lookup("PostModelSwitch").unwrap());
        assert!(!post.can_block(Rules::Current) && !post.can_block(Rules::Classic));
        assert!(post.text_is_context);
    }

    #[test]
    fn precompact_blocks_only_under_current() {
        let s = spec(lookup("PreCompact").unwrap());
        let ev = serde_json::json!({});
        assert_eq!(s.exit2_effect(Rules::Current, &ev), Exit2::Block);
        assert_eq!(s.exit2_effect(Rules::Classic, &ev), Exit2::User);
    }

    #[test]
    fn policy_settings_changes_cannot_be_blocked() {
        let s = spec(lookup("ConfigChange").unwrap());
        let ev = serde_json::json!({"source": "policy_settings"});
        assert_eq!(s.exit2_effect(Rules::Current, &ev), Exit2::Ignored);
        assert!(!s.honours_top_decision(Rules::Current, &ev));
    }
}
