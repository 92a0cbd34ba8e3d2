//! The names of the dialects hookwire speaks (protocol.md §9). Each name's rules live in its
//! own folder under `dialect/`; this list is what configuration and events refer to.

/// A dialect's name. `dialect::unit` gives its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    ClaudeCode,
    Jcode,
    Neocode,
    Ok,
    JCli,
    Ub,
    Codex,
    Gemini,
    Cursor,
}

/// Every dialect, in the order error messages list them.
pub const ALL: [Dialect; 9] = [
    Dialect::ClaudeCode,
    Dialect::Jcode,
    Dialect::Neocode,
    Dialect::Ok,
    Dialect::JCli,
    Dialect::Ub,
    Dialect::Codex,
    Dialect::Gemini,
    Dialect::Cursor,
];

impl Dialect {
    pub fn parse(s: &str) -> Option<Dialect> {
        ALL.into_iter().find(|d| d.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::ClaudeCode => "claude-code",
            Dialect::Jcode => "jcode",
            Dialect::Neocode => "neocode",
            Dialect::Ok => "ok",
            Dialect::JCli => "j-cli",
            Dialect::Ub => "ub",
            Dialect::Codex => "codex",
            Dialect::Cursor => "cursor",
            Dialect::Gemini => "gemini",
        }
    }
}
