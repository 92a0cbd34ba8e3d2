//! The small enums of the configuration model, named once for every stage: the rule set, a
//! source's scope, a handler's type and a shell form's interpreter. Data only.

/// The two contracts of the `claude-code` dialect (protocol.md, introduction).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    Current,
    Classic,
}

/// Where a source comes from (§2.3). The declaration order is the configuration order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    Managed,
    User,
    Project,
    Local,
    Plugin,
    Session,
}

impl Scope {
    pub fn parse(s: &str) -> Option<Scope> {
        Some(match s {
            "managed" => Scope::Managed,
            "user" => Scope::User,
            "project" => Scope::Project,
            "local" => Scope::Local,
            "plugin" => Scope::Plugin,
            "session" => Scope::Session,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::Plugin => "plugin",
            Scope::Session => "session",
        }
    }
    /// Precedence of switches: managed > session > local > project > user (§2.5).
    pub fn switch_rank(self) -> u8 {
        match self {
            Scope::Managed => 5,
            Scope::Session => 4,
            Scope::Local => 3,
            Scope::Project => 2,
            Scope::User => 1,
            Scope::Plugin => 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HandlerType {
    Command,
    Http,
    Prompt,
    Agent,
    McpTool,
    /// A function the host registered (never from a configuration).
    Function,
}

impl HandlerType {
    pub fn parse(s: &str) -> Option<HandlerType> {
        Some(match s {
            "command" => HandlerType::Command,
            "http" => HandlerType::Http,
            "prompt" => HandlerType::Prompt,
            "agent" => HandlerType::Agent,
            "mcp_tool" => HandlerType::McpTool,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            HandlerType::Command => "command",
            HandlerType::Http => "http",
            HandlerType::Prompt => "prompt",
            HandlerType::Agent => "agent",
            HandlerType::McpTool => "mcp_tool",
            HandlerType::Function => "function",
        }
    }
}

/// The shell-form interpreter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shell {
    Sh,
    Bash,
    Pwsh,
    /// The user's login shell, `$SHELL -lc` (`SHELL` read from the host when the dispatcher is
    /// built; `/bin/sh` when unset or not absolute): Codex's.
    Login,
}
