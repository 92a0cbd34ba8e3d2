//! Looking into a loaded configuration without running anything: the resolved hooks, what a
//! given event would run and why, and the trust state of project sources (protocol.md §2.8).
//! These feed `hookwire list` and hosts that show a trust prompt; they never spawn.

use crate::catalog;
use crate::config::{Action, CommandSpec, Config, TrustEntry};
use crate::dispatcher::Dispatcher;
use crate::error::{ConfigError, EventError};
use crate::event::Head;
use crate::load::{default_store, record_trust};
use crate::select::{self, Keep, Skip, Subject};
use serde::Serialize;
use serde_json::Value;

/// One resolved hook, as `hooks()` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct HookInfo {
    pub hook: String,
    pub event: String,
    /// The event name in the hook's own dialect.
    pub native_event: String,
    pub dialect: &'static str,
    pub scope: &'static str,
    pub source: String,
    #[serde(rename = "type")]
    pub ty: &'static str,
    pub command: String,
    pub matcher: String,
    pub timeout_s: Option<f64>,
    pub once: bool,
    #[serde(rename = "async")]
    pub is_async: bool,
    pub fail_closed: bool,
}

/// Whether one hook would run for an event, and why (not).
#[derive(Debug, Clone, Serialize)]
pub struct PlanEntry {
    #[serde(flatten)]
    pub hook: HookInfo,
    pub runs: bool,
    pub why: String,
}

fn action_text(a: &Action) -> String {
    match a {
        Action::Command(CommandSpec::Shell { script, .. }) => script.clone(),
        Action::Command(CommandSpec::Exec { program, args }) => {
            std::iter::once(program).chain(args).cloned().collect::<Vec<_>>().join(" ")
        }
        Action::Http(h) => format!("POST {}", h.url),
        Action::Delegated(v) => crate::inprocess::delegated_label(v),
        Action::Function(_) => "function".to_string(),
    }
}

fn infos(
    config: &Config,
    eid: usize,
) -> impl Iterator<Item = (HookInfo, &crate::config::Group, &crate::config::Handler)> {
    let spec = catalog::spec(eid);
    config.events[eid].iter().flat_map(move |g| {
        g.handlers.iter().map(move |h| {
            let src = &config.sources[h.source];
            let info = HookInfo {
                hook: h.id.clone(),
                event: spec.name.to_string(),
                native_event: h.native.clone(),
                dialect: h.dialect.as_str(),
                scope: src.scope.as_str(),
                source: src.label.clone(),
                ty: h.ty.as_str(),
                command: action_text(&h.action),
                matcher: g.matcher.describe(),
                timeout_s: h.timeout_s,
                once: h.once,
                is_async: h.mode.is_async(),
                fail_closed: h.fail_closed,
            };
            (info, g, h)
        })
    })
}

impl Dispatcher {
    /// The hooks that survived layering, trust and switches, per event in catalogue order and
    /// in configuration order within an event.
    pub fn hooks(&self) -> Vec<HookInfo> {
        let config = self.config();
        (0..catalog::count())
            .flat_map(|eid| infos(config, eid).map(|(i, _, _)| i).collect::<Vec<_>>())
            .collect()
    }

    /// For one event: every hook configured on it, whether it would run, and why. Nothing is
    /// run; `once` records are read, not written; dedup is not applied.
    pub fn plan(&self, event: &Value) -> Result<Vec<PlanEntry>, EventError> {
        let config = self.config();
        // An agent's own payload is planned as the canonical event a fire makes of it.
        let translated = crate::dialect::canonical_of(config, event);
        let event = translated.as_ref().map_or(event, |(_, canonical)| canonical);
        let head = Head::from_value(event)?;
        let Some(eid) = select::event_id(config, &head.name) else {
            return Ok(Vec::new());
        };
        let spec = catalog::spec(eid);
        let subject = Subject { eid, spec, head: &head, event: Some(event) };
        let infos = infos(config, eid).map(|(info, _, _)| info);
        let mut out = Vec::new();
        for (info, pick) in infos.zip(select::consider(config, &subject, None, Keep::All)) {
            let m = pick.matcher.map(|g| g.describe()).unwrap_or_default();
            let skip = pick.skip.or_else(|| {
                (pick.h.once && self.ran_once(&head.session_id, pick.h.index)).then_some(Skip::Once)
            });
            let (runs, why) = match skip {
                Some(Skip::Matcher) => {
                    (false, format!("matcher {m} does not match {:?}", head.matcher_value(spec)))
                }
                Some(Skip::IfNeverHere) => (false, format!("`if` never runs on {}", spec.name)),
                Some(Skip::IfNo) => (false, "its `if` rule does not match this tool call".to_string()),
                Some(Skip::Once) => (false, "`once`: already ran in this session".to_string()),
                None => match pick.undecided {
                    Some(why) => (true, format!("matcher {m} matches; {why}")),
                    None => (true, format!("matcher {m} matches")),
                },
            };
            out.push(PlanEntry { hook: info, runs, why });
        }
        Ok(out)
    }

    /// The trust state of every project and local source (§2.8).
    pub fn trust_status(&self) -> TrustStatus {
        TrustStatus::of(self.config())
    }
}

/// The trust state of a configuration's project and local sources, and of any other source
/// marked `"trusted": false` (protocol.md §2.8): what a host shows the user before it records
/// trust. Every key is always present, in this order.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TrustStatus {
    /// The configured `trust.store`; `null` when the configuration consults no store.
    pub store: Option<String>,
    /// Where trust is recorded when no `trust.store` is given:
    /// `$XDG_CONFIG_HOME/hookwire/trust.json`, else `~/.config/hookwire/trust.json`; `null`
    /// when neither `XDG_CONFIG_HOME` nor `HOME` is set.
    pub default_store: Option<String>,
    /// The configured `project_dir`, the project's key in the store; `null` when unset.
    pub project_dir: Option<String>,
    /// One entry per project or local source, and per other source marked `"trusted": false`,
    /// in configuration order.
    pub sources: Vec<TrustEntry>,
}

impl TrustStatus {
    fn of(config: &Config) -> TrustStatus {
        let text = |p: &std::path::Path| p.to_string_lossy().into_owned();
        TrustStatus {
            store: config.store.as_deref().map(text),
            default_store: default_store().as_deref().map(text),
            project_dir: config.project_dir.as_deref().map(text),
            sources: config.trust.clone(),
        }
    }

    /// The compact status JSON, as `hooks_trust_status` returns it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a trust status is plain strings and booleans")
    }
}

/// Records trust for every project and local **file** source of a configuration, as read now,
/// in its store (`trust.store`, else the default store), and returns the new trust status.
/// The host calls this after the user approved what [`Dispatcher::trust_status`] showed.
pub fn record_trust_for(config_json: &str) -> Result<TrustStatus, ConfigError> {
    let value = crate::json::value_from_str(config_json).map_err(|e| ConfigError::from_json(&e))?;
    let d = Dispatcher::from_value(value.clone())?;
    let config = d.config();
    let Some(project_dir) = config.project_dir.clone() else {
        return Err(ConfigError::invalid(
            "/project_dir",
            "recording trust needs `project_dir` (the project root)",
        ));
    };
    // Recording into a store this configuration never reads would report trust it does not
    // have: refuse, and say how to make it consult one.
    let Some(store) = config.store.clone() else {
        return Err(ConfigError::invalid(
            "/trust",
            format!(
                "this configuration consults no trust store; set trust.store, or trust.project to \"store\" to use {}",
                default_store().map_or_else(|| "the default store".to_string(), |p| p.display().to_string())
            ),
        ));
    };
    let entries: Vec<(String, String)> =
        config.trust.iter().filter_map(|e| Some((e.key.clone()?, e.digest.clone()?))).collect();
    record_trust(&store, &project_dir, &entries).map_err(ConfigError::Internal)?;
    // The status the same configuration gives now (a per-source `trusted: false` stays false).
    Ok(Dispatcher::from_value(value)?.trust_status())
}

/// Whether a framework's tool can reach the hooks configured for tool events, as a host asks
/// it the first time the tool is called: a user's `Bash` guard never runs on a framework tool
/// named `bash` unless the name is mapped, and nothing else would say so.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ToolReach {
    /// The tool name as the hooks would see it.
    pub tool_name: String,
    /// Hooks are configured on tool events (PreToolUse, PermissionRequest, PostToolUse, …).
    pub hooked: bool,
    /// The matcher of at least one of those hooks matches this name (its `if` rule aside).
    pub reached: bool,
    /// When hooks are configured on tool events and none can match this name: the text to
    /// show the user once, naming the matchers it missed. `null` otherwise.
    pub warning: Option<String>,
}

impl ToolReach {
    /// The compact JSON, as `hooks_tool_reach` returns it.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a tool reach is plain strings and booleans")
    }
}

impl Dispatcher {
    /// Whether any hook on a tool event can match the tool `tool_name` (see [`ToolReach`]).
    /// Nothing is run. PreSkillShellCommand is left out: its tool is a skill's shell, never a
    /// framework's.
    pub fn tool_reach(&self, tool_name: &str) -> ToolReach {
        let config = self.config();
        let mut matchers: Vec<String> = Vec::new();
        let mut hooked = false;
        let mut reached = false;
        for eid in 0..catalog::count() {
            let spec = catalog::spec(eid);
            if !spec.tool_event || spec.native_of.is_some() || spec.name == "PreSkillShellCommand" {
                continue;
            }
            if config.events[eid].iter().all(|g| g.handlers.is_empty()) {
                continue;
            }
            hooked = true;
            let event = serde_json::json!({
                "hook_event_name": spec.name, "session_id": "", "cwd": "/",
                "tool_name": tool_name, "tool_input": {},
            });
            let Ok(head) = Head::from_value(&event) else { continue };
            let subject = Subject { eid, spec, head: &head, event: Some(&event) };
            for pick in select::consider(config, &subject, None, Keep::All) {
                match pick.skip {
                    Some(Skip::Matcher) => {
                        let m = pick.matcher.map(|g| g.describe()).unwrap_or_default();
                        if !matchers.contains(&m) {
                            matchers.push(m);
                        }
                    }
                    _ => reached = true,
                }
            }
        }
        let warning = (hooked && !reached).then(|| {
            format!(
                "tool {tool_name:?} is matched by no hook on a tool event (their matchers: {}); if it is one of \
                 those tools, map its name with the adapter's tool names (for example {{{tool_name:?}: \"Bash\"}})",
                matchers.join(", ")
            )
        });
        ToolReach { tool_name: tool_name.to_string(), hooked, reached, warning }
    }
}

#[cfg(test)]
mod tool_reach_tests {
    use super::*;

    fn reach(config: &str, tool: &str) -> ToolReach {
        Dispatcher::new(config).unwrap().tool_reach(tool)
    }

    const BASH_GUARD: &str =
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2"}]}]}}"#;

    #[test]
    fn a_framework_name_no_matcher_reaches_gets_a_warning_naming_the_matchers() {
        let r = reach(BASH_GUARD, "bash");
        assert!(r.hooked && !r.reached);
        let w = r.warning.unwrap();
        assert!(w.contains("\"bash\"") && w.contains("Bash"), "{w}");
    }

    #[test]
    fn a_matched_name_a_wildcard_or_no_tool_hooks_give_no_warning() {
        assert_eq!(reach(BASH_GUARD, "Bash").warning, None);
        let any =
            r#"{"hooks":{"PostToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"true"}]}]}}"#;
        assert!(reach(any, "bash").reached);
        let none = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}"#;
        let r = reach(none, "bash");
        assert!(!r.hooked && !r.reached && r.warning.is_none());
    }

    #[test]
    fn an_if_rule_does_not_hide_a_matched_tool() {
        let c = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2","if":"Bash(rm *)"}]}]}}"#;
        assert!(reach(c, "Bash").reached);
    }
}
