//! One Qwen settings document: Claude Code's shape, read by the shared settings shape
//! (`dialect/settings/`) configured here: Qwen's events and matcher, a group's `sequential`
//! and a handler's `env` (its [`QwenKnobs`]), and its timeout rule: a command handler's
//! `timeout` of 1000 or more is milliseconds, below 1000 seconds (observed, and Qwen's
//! `readCommandHookTimeout`, the legacy reading kept for compatibility; the documentation says
//! milliseconds, default 60000). Other handler types' timeouts are seconds, as documented.

use super::QwenCodeRules;
use super::tools::TOOL_NAMES;
use crate::catalog::{EventId, EventSpec, HandlerType, Rules};
use crate::config::{Fields, Handler, Knobs};
use crate::dialect::family::FamilyMatcher;
use crate::dialect::settings::SequentialEnv;
use crate::dialect::settings::{ReadMatcher, SettingsShape, TimeUnit};
use crate::matcher::GroupMatcher;

impl SettingsShape for QwenCodeRules {
    fn event_ids_of(&self, name: &str) -> Vec<EventId> {
        super::PROFILE.event_ids(name)
    }

    fn group_keys(&self) -> &'static [&'static str] {
        &["sequential"]
    }

    fn group_matcher(&self, raw: Option<&str>, _spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        FamilyMatcher::unanchored(raw, TOOL_NAMES).map(|m| (GroupMatcher::new(m), None))
    }

    fn timeout_unit(&self) -> TimeUnit {
        TimeUnit::SecondsBelow1000
    }

    /// The group's `sequential` and the handler's `env`; and a non-command handler's timeout
    /// of 1000 or more taken back as seconds (the rule is the command hooks' only).
    fn own_keys(&self, group: &Fields<'_>, f: &Fields<'_>, h: &mut Handler) -> Result<(), (String, String)> {
        let own = SequentialEnv::read(group, f)?;
        if h.ty != HandlerType::Command
            && let Some(t) = f.number("timeout")?.filter(|t| *t >= 1000.0)
        {
            h.timeout_s = Some(t.min(86_400.0));
        }
        if own.sequential || !own.env.is_empty() {
            h.knobs = Knobs::new(own);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;
    use serde_json::json;

    fn timeouts(config: serde_json::Value) -> Vec<Option<f64>> {
        let d = Dispatcher::new(&config.to_string()).unwrap();
        let pre = &d.config().events[crate::catalog::lookup("PreToolUse").unwrap()];
        pre.iter().flat_map(|g| &g.handlers).map(|h| h.timeout_s).collect()
    }

    #[test]
    fn a_command_timeout_below_1000_is_seconds_and_from_1000_milliseconds() {
        let h = |t: f64| json!({"type": "command", "command": "true", "timeout": t});
        let http = json!({"type": "http", "url": "http://127.0.0.1:9/", "timeout": 1500});
        let config = json!({"dialect": "qwen-code", "hooks": {"PreToolUse": [
            {"hooks": [h(5.0), h(999.0), h(1000.0), h(60000.0), h(2500.0), http]}]}});
        assert_eq!(
            timeouts(config),
            [Some(5.0), Some(999.0), Some(1.0), Some(60.0), Some(2.5), Some(1500.0)]
        );
    }

    #[test]
    fn sequential_and_env_are_qwens_and_raise_no_unknown_key_warning() {
        let config = json!({"dialect": "qwen-code", "hooks": {"PreToolUse": [
            {"sequential": true, "hooks": [{"type": "command", "command": "true", "env": {"A": "1"}}]}]}});
        let d = Dispatcher::new(&config.to_string()).unwrap();
        assert!(d.load_warnings().is_empty(), "{:?}", d.load_warnings());
        let pre = &d.config().events[crate::catalog::lookup("PreToolUse").unwrap()];
        let k = pre[0].handlers[0].knobs.get::<crate::dialect::settings::SequentialEnv>().unwrap();
        assert!(k.sequential);
        assert_eq!(k.env, [("A".to_string(), "1".to_string())]);
    }
}
