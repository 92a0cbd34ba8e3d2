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
    Gemini,
}

/// Every dialect, in the order error messages list them.
pub const ALL: [Dialect; 7] = [
    Dialect::ClaudeCode,
    Dialect::Jcode,
    Dialect::Neocode,
    Dialect::Ok,
    Dialect::JCli,
    Dialect::Ub,
    Dialect::Gemini,
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
            Dialect::Gemini => "gemini",
        }
    }
}
