//! The one list of dialects (protocol.md §9). Each line names a dialect's variant, its name in
//! configuration and events, and the unit holding its rules in its folder under `dialect/`.
//! The enum, [`ALL`] and the names are generated here; the registry (`Dialect::rules`) is
//! generated from the same list in `dialect/mod.rs`, so that adding a dialect is its folder
//! and one line here. The order is the order error messages and `hookwire dialects` list them,
//! and breaks ties between equal file claims (`dialect/claim.rs`).

/// Calls the macro `$then` with the list. The vocabulary imports nothing of the crate: the
/// units are named here as tokens, resolved where the registry is generated.
macro_rules! for_each_dialect {
    ($then:ident) => {
        $then! {
            ClaudeCode = "claude-code" => claude_code::ClaudeCodeRules,
            Jcode = "jcode" => jcode::JcodeRules,
            Neocode = "neocode" => neocode::NeocodeRules,
            Ok = "ok" => ok::OkRules,
            JCli = "j-cli" => jcli::JCliRules,
            Ub = "ub" => ub::UbRules,
            Codex = "codex" => codex::CodexRules,
            Gemini = "gemini" => gemini::GeminiRules,
            Cursor = "cursor" => cursor::CursorRules,
            FactoryDroid = "factory-droid" => factory_droid::FactoryDroidRules,
            QwenCode = "qwen-code" => qwen_code::QwenCodeRules,
            KimiCli = "kimi-cli" => kimi_cli::KimiCliRules,
            Codebuddy = "codebuddy" => codebuddy::CodebuddyRules,
            Auggie = "auggie" => auggie::AuggieRules,
            DevinCli = "devin-cli" => devin_cli::DevinCliRules,
            Iflow = "iflow" => iflow::IflowRules,
            Qoder = "qoder" => qoder::QoderRules,
            CortexCode = "cortex-code" => cortex_code::CortexCodeRules,
            MuseCode = "muse-code" => muse_code::MuseCodeRules,
            OpenPlugins = "open-plugins" => open_plugins::OpenPluginsRules,
            CopilotCli = "copilot-cli" => copilot_cli::CopilotCliRules,
            VsCode = "vs-code" => vs_code::VsCodeRules,
            Cline = "cline" => cline::ClineRules,
            Crush = "crush" => crush::CrushRules,
            MistralVibe = "mistral-vibe" => mistral_vibe::MistralVibeRules,
            Windsurf = "windsurf" => windsurf::WindsurfRules,
            Antigravity = "antigravity" => antigravity::AntigravityRules,
            Kiro = "kiro" => kiro::KiroRules,
        }
    };
}
pub(crate) use for_each_dialect;

macro_rules! dialect_names {
    ($($variant:ident = $name:literal => $module:ident :: $unit:ident,)*) => {
        /// A dialect's name. `Dialect::rules` (in `dialect/`) gives its rules.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Dialect {
            $($variant,)*
        }

        /// Every dialect, in the order of the list.
        pub const ALL: &[Dialect] = &[$(Dialect::$variant,)*];

        impl Dialect {
            /// The dialect's name, as configuration and events spell it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Dialect::$variant => $name,)*
                }
            }
        }
    };
}
for_each_dialect!(dialect_names);

impl Dialect {
    /// The dialect of an envelope or source that names none, and of functions the host
    /// registers: Claude Code's, the first line of the list.
    pub const DEFAULT: Dialect = ALL[0];

    /// The dialect of this name.
    pub fn parse(s: &str) -> Option<Dialect> {
        ALL.iter().copied().find(|d| d.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_back_to_its_dialect_and_names_are_unique() {
        for d in ALL {
            assert_eq!(Dialect::parse(d.as_str()), Some(*d));
        }
        let mut names: Vec<_> = ALL.iter().map(|d| d.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ALL.len());
        assert_eq!(Dialect::parse("claude"), None);
    }
}
