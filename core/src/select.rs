//! Which handlers of a fire run, and why the others do not (protocol.md §5.1 steps 2–6): the
//! group's matcher, the handler's `if` rule, the host's function hooks and callbacks, dedup
//! (for dialects that dedup) and `once`.
//!
//! The fire, `Dispatcher::plan` and the no-match fast path all ask this module; the fast path
//! asks [`nothing_matches`], which reads the same matchers through the same [`Head`], and says
//! "cannot tell" where only the full event can answer.

use crate::catalog::{self, EventId, EventSpec, Scope};
use crate::config::{Action, CommandSpec, Config, Handler};
use crate::dialect::Dedup;
use crate::event::Head;
use crate::if_rule::IfMatch;
use crate::inprocess::Registry;
use crate::launch::Placeholders;
use crate::logs::{self, SkipReason};
use crate::matcher::GroupMatcher;
use crate::session::Sessions;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;

/// The event as selection sees it: its catalogue row, its head, and (on the full path) the
/// whole event for the matchers and rules that read more than the head.
pub struct Subject<'a> {
    pub eid: EventId,
    pub spec: &'static EventSpec,
    pub head: &'a Head<'a>,
    pub event: Option<&'a Value>,
}

/// Why a handler does not run.
#[derive(Debug, Clone, PartialEq)]
pub enum Skip {
    /// Its group's matcher does not match the event's matcher value.
    Matcher,
    /// It has an `if` rule on an event without tool calls, where `if` never runs (§4.3).
    IfNeverHere,
    /// Its `if` rule does not match this tool call.
    IfNo,
    /// `once`, and it already ran in this session.
    Once,
}

impl Skip {
    /// The log field `skip_reason`.
    pub fn reason(&self) -> SkipReason {
        SkipReason::Rule(match self {
            Skip::Matcher => "matcher",
            Skip::IfNeverHere => "if_not_on_this_event",
            Skip::IfNo => "if_no_match",
            Skip::Once => "once",
        })
    }
}

/// One handler considered for a fire.
pub struct Pick<'a> {
    pub h: Cow<'a, Handler>,
    /// Its group's matcher (`None` for a function hook), for `plan` to describe.
    pub matcher: Option<&'a GroupMatcher>,
    pub skip: Option<Skip>,
    /// Its `if` rule could not be decided: it runs, and the fire says why.
    pub undecided: Option<String>,
}

/// The event id a fired name stands for: a canonical name, or a native name of a dialect the
/// configuration uses (§3.1 "Names", §9.0).
pub fn event_id(config: &Config, name: &str) -> Option<EventId> {
    catalog::lookup(name).or_else(|| {
        config.all_dialects().find_map(|d| d.rules().profile().event_ids(name).into_iter().next())
    })
}

/// Whether a group's matcher matches; `None` when the head alone cannot tell.
fn group_matches(g: &GroupMatcher, s: &Subject<'_>, value: &str) -> Option<bool> {
    g.matches_value(s.spec, value).or_else(|| s.event.map(|e| g.matches(s.spec, value, e)))
}

/// Which handlers [`consider`] returns.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every handler, with why it does not run (`plan`).
    All,
    /// Those whose group matches (a fire: a group that does not match costs nothing more).
    Matching,
}

/// The configured handlers of the event, with their matcher and `if` verdicts; the host's
/// function hooks placed first or last when `registry` is given. Needs the full event.
pub fn consider<'a>(
    config: &'a Config,
    s: &Subject<'_>,
    registry: Option<&Registry>,
    keep: Keep,
) -> Vec<Pick<'a>> {
    let value = s.head.matcher_value(s.spec);
    let tool_name = s.event.and_then(|e| e.get("tool_name")).and_then(Value::as_str).unwrap_or("");
    let tool_input = s.event.and_then(|e| e.get("tool_input"));
    let mut picks = Vec::new();
    let groups = &config.events[s.eid];
    // A fire reads only the groups the index selects (exact names looked up, each other
    // matcher tested once); `plan` walks them all, to say why each handler does not run.
    let selected: Vec<usize> = match keep {
        Keep::Matching => {
            config.index[s.eid].matching(&value, |m| group_matches(m, s, &value).unwrap_or(true))
        }
        Keep::All => (0..groups.len()).collect(),
    };
    for g in selected.into_iter().map(|i| &groups[i]) {
        let matched = keep == Keep::Matching || group_matches(&g.matcher, s, &value).unwrap_or(true);
        for h in &g.handlers {
            let mut pick =
                Pick { h: Cow::Borrowed(h), matcher: Some(&g.matcher), skip: None, undecided: None };
            if !matched {
                pick.skip = Some(Skip::Matcher);
            } else if h.has_if && !s.spec.tool_event {
                pick.skip = Some(Skip::IfNeverHere);
            } else if let Some(rule) = h.if_rule.as_ref().filter(|_| h.has_if) {
                match rule.check(tool_name, tool_input) {
                    IfMatch::Yes => {}
                    IfMatch::No => pick.skip = Some(Skip::IfNo),
                    IfMatch::Undecided(why) => {
                        pick.undecided = Some(format!(
                            "hook {}: `if` rule {:?} cannot be decided for this command ({why}); the hook runs",
                            h.id,
                            rule.text()
                        ))
                    }
                }
            }
            picks.push(pick);
        }
    }
    if let Some(reg) = registry.filter(|r| !r.functions.is_empty()) {
        let mut first = Vec::new();
        for r in reg.functions.iter().filter(|r| r.event == s.eid && r.matcher.matches(&value)) {
            let pick = Pick { h: Cow::Owned(r.handler.clone()), matcher: None, skip: None, undecided: None };
            if r.first { first.push(pick) } else { picks.push(pick) }
        }
        first.append(&mut picks);
        picks = first;
    }
    picks
}

/// The fire's selection: [`consider`], then host callbacks, dedup and `once` (marking the
/// handlers that run as having run). Returns the handlers that run, in configuration order,
/// and the fire's warnings about the others. Each handler not chosen is logged with why
/// (`hook.skipped`); while that is listened to, handlers of groups that do not match are
/// considered too, only to be told.
pub fn for_fire<'a>(
    config: &'a Config,
    s: &Subject<'_>,
    registry: &Registry,
    sessions: &Sessions,
    project_dir: &dyn Fn() -> String,
    fire_id: u64,
) -> (Vec<Cow<'a, Handler>>, Vec<String>) {
    // The project directory only matters to dedup, and costs a lookup: made on first need.
    let dir = std::cell::OnceCell::new();
    let (mut warnings, mut callbacks) = (Vec::new(), Vec::new());
    let session = s.head.session_id.as_ref();
    let mut seen = HashSet::new();
    let mut run = Vec::new();
    let keep = if logs::active() && logs::explains_skips() { Keep::All } else { Keep::Matching };
    for pick in consider(config, s, Some(registry), keep) {
        if let Some(skip) = &pick.skip {
            logs::skipped(fire_id, config, &pick.h, skip.reason());
            continue;
        }
        warnings.extend(pick.undecided);
        let h = pick.h;
        if matches!(h.action, Action::Delegated(_)) && !registry.callbacks.contains_key(&h.ty) {
            callbacks.push(format!(
                "hook {}: {} handler skipped: no host callback is registered",
                h.id,
                h.ty.as_str()
            ));
            logs::skipped(fire_id, config, &h, SkipReason::NoCallback);
            continue;
        }
        let dedup = h.dialect.rules().profile().dedup;
        if dedup != Dedup::Never
            && !seen.insert(dedup_key(dedup, config, &h, || dir.get_or_init(project_dir)))
        {
            if dedup == Dedup::Name {
                let name = h.name.as_deref().unwrap_or("");
                warnings.push(format!("hook {}: skipped: an earlier hook is named {name:?} too", h.id));
            }
            logs::skipped(fire_id, config, &h, SkipReason::Duplicate);
            continue;
        }
        if h.once && sessions.ran_once(session, h.index) {
            logs::skipped(fire_id, config, &h, Skip::Once.reason());
            continue;
        }
        run.push(h);
    }
    for h in run.iter().filter(|h| h.once) {
        sessions.mark_once(session, h.index);
    }
    warnings.append(&mut callbacks);
    (run, warnings)
}

/// `Some(true)` when no handler of the event can run, from the head alone; `Some(false)` when
/// one can; `None` when only the full event can tell (another dialect's matcher).
pub fn nothing_matches(
    config: &Config,
    eid: EventId,
    spec: &'static EventSpec,
    head: &Head<'_>,
) -> Option<bool> {
    let s = Subject { eid, spec, head, event: None };
    let value = head.matcher_value(spec);
    let any = config.index[eid].any_match(&value, |m| group_matches(m, &s, &value))?;
    Some(!any)
}

/// Dedup identity (§2.7): type + origin class + expanded command and args + shell.
/// The key under which `h` is the same hook as another of the fire (§2.7), by its dialect's
/// rule; a handler without a command string falls back to §2.7's identity.
fn dedup_key<'d>(
    dedup: Dedup,
    config: &Config,
    h: &Handler,
    project_dir: impl FnOnce() -> &'d String,
) -> String {
    if let (Dedup::Name, Some(name)) = (dedup, h.name.as_deref()) {
        return format!("{}\0{name}", h.dialect.as_str());
    }
    if let (Dedup::NameAndCommand, Action::Command(CommandSpec::Shell { script, .. })) = (dedup, &h.action) {
        let name = h.name.as_deref().unwrap_or("");
        return format!("{}\0{name}\0{script}", h.dialect.as_str());
    }
    identity(config, h, project_dir())
}

fn identity(config: &Config, h: &Handler, project_dir: &str) -> String {
    let plugin = config.sources.get(h.source).filter(|s| s.scope == Scope::Plugin);
    let origin = plugin.and_then(|s| s.plugin_root.clone()).unwrap_or_default();
    let p = Placeholders::of(config, h, project_dir);
    let expand = |t: &str| p.expand_bare(t);
    let cmd = match &h.action {
        Action::Command(CommandSpec::Shell { script, shell }) => {
            format!("shell:{shell:?}\0{}", expand(script))
        }
        Action::Command(CommandSpec::Exec { program, args }) => {
            let mut s = format!("exec\0{}", expand(program));
            for a in args {
                s.push('\0');
                s.push_str(&expand(a));
            }
            s
        }
        Action::Http(spec) => format!("http\0{}", expand(&spec.url)),
        Action::Delegated(v) => format!("delegated\0{v}"),
        Action::Function(slot) => format!("function\0{slot}"),
    };
    format!("{}\0{}\0{origin}\0{cmd}", h.ty.as_str(), plugin.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Dispatcher;
    use serde_json::json;

    /// The ids of the handlers a fire considers (through the group index) and of those the
    /// walk over every group (`plan`'s) finds matching, in the order each gives them.
    fn fire_and_walk(d: &Dispatcher, event: &Value) -> (Vec<String>, Vec<String>) {
        let config = d.config();
        let head = Head::from_value(event).unwrap();
        let eid = event_id(config, &head.name).unwrap();
        let s = Subject { eid, spec: catalog::spec(eid), head: &head, event: Some(event) };
        let ids = |keep| -> Vec<String> {
            let picks = consider(config, &s, None, keep).into_iter();
            picks.filter(|p| p.skip != Some(Skip::Matcher)).map(|p| p.h.id.clone()).collect()
        };
        (ids(Keep::Matching), ids(Keep::All))
    }

    fn groups(matchers: &[&str]) -> String {
        let groups: Vec<Value> = matchers
            .iter()
            .map(|m| json!({"matcher": m, "hooks": [{"type": "command", "command": "true"}]}))
            .collect();
        json!({"hooks": {"PreToolUse": groups, "FileChanged": [
            {"matcher": "env", "hooks": [{"type": "command", "command": "true"}]},
            {"matcher": "^\\.env$", "hooks": [{"type": "command", "command": "true"}]},
            {"matcher": "env|envrc", "hooks": [{"type": "command", "command": "true"}]}]}})
        .to_string()
    }

    #[test]
    fn exact_regex_and_star_groups_are_selected_in_configuration_order() {
        let d =
            Dispatcher::new(&groups(&["^Ba", "Bash", "*", "Edit|Bash", "Bash", "bash", "Bash||"])).unwrap();
        let (fire, walk) = fire_and_walk(&d, &json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"}));
        let at = |i: usize| format!("session:PreToolUse[{i}].hooks[0]");
        assert_eq!(fire, [0, 1, 2, 3, 4, 6].map(at));
        assert_eq!(fire, walk);
    }

    #[test]
    fn the_index_selects_what_testing_every_group_selects_for_every_name() {
        let matchers = [
            "^Ba",
            "Bash",
            "*",
            "Edit|Bash",
            "mcp__x__y",
            "",
            "bash",
            "Bash||",
            "Bash|mcp__.*",
            "Edit, Write",
            "code-reviewer",
            "Read",
            "^Read$",
            "(Read|Bash)",
            "Bash",
        ];
        let d = Dispatcher::new(&groups(&matchers)).unwrap();
        for tool in [
            "Bash",
            "bash",
            "BASH",
            "BashOutput",
            "Edit",
            "Write",
            "Edit, Write",
            "mcp__x__y",
            "mcp__q__r",
            "code-reviewer",
            "senior-code-reviewer",
            "Read",
            "",
            "Nope",
        ] {
            let (fire, walk) =
                fire_and_walk(&d, &json!({"hook_event_name": "PreToolUse", "tool_name": tool}));
            assert_eq!(fire, walk, "{tool:?}");
        }
        for path in ["/p/env", "/p/.env", "/p/envrc", "/p/env/", "/p/ENV", ""] {
            let event = json!({"hook_event_name": "FileChanged", "file_path": path});
            let (fire, walk) = fire_and_walk(&d, &event);
            assert_eq!(fire, walk, "{path:?}");
        }
    }

    #[test]
    fn only_claude_code_exact_lists_are_filed_by_name() {
        let cc = Dispatcher::new(&groups(&["Bash", "Edit|Write", "^Bash$"])).unwrap();
        let named: Vec<bool> =
            cc.config().events.iter().flatten().map(|g| g.matcher.exact_names().is_some()).collect();
        assert_eq!(named.iter().filter(|n| **n).count(), 4, "{named:?}"); // 2 here, 2 on FileChanged
        // Other dialects' matchers read aliases, anchors or more of the event: always scanned.
        let others = [
            r#"{"dialect":"codex","sources":[{"scope":"user","dialect":"codex","settings":{"hooks":{
               "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}}]}"#,
            r#"{"dialect":"gemini","sources":[{"scope":"user","settings":{"hooks":{
               "BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"true"}]}]}}}]}"#,
            r#"{"dialect":"jcode","hooks":{"PreToolUse":[{"matcher":"write","hooks":[{"type":"command","command":"true"}]}]}}"#,
            r#"{"dialect":"cursor","sources":[{"scope":"user","settings":{"version":1,"hooks":{
               "preToolUse":[{"command":"true","matcher":"Shell"}]}}}]}"#,
            r#"{"dialect":"ok","hooks":{"PreToolUse":[{"match":"Bash","command":"true"}]}}"#,
        ];
        for config in others {
            let d = Dispatcher::new(config).unwrap();
            let groups: Vec<_> = d.config().events.iter().flatten().collect();
            assert!(!groups.is_empty(), "{config}");
            assert!(groups.iter().all(|g| g.matcher.exact_names().is_none()), "{config}");
        }
    }
}
