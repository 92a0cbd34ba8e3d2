//! One CC-shaped document (protocol.md §2.4): event names → matcher groups → handlers, read
//! into typed handlers with their hook ids, under the strictness of the document's origin
//! (inline content fails loudly, files degrade to warnings, §2.9).

use crate::catalog::{self, EventId, EventSpec, HandlerType, MatchOn, Rules, Shell};
use crate::config::{
    Action, CommandSpec, ConfigWarnings, DocContext, Fields, Group, Handler, HttpSpec, Parse, RunMode, escape,
};
use crate::error::ConfigError;
use crate::if_rule::IfRule;
use crate::matcher::{GroupMatcher, Matcher};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// What one document compiled, by its text: a matcher per event and matcher string, an `if`
/// rule per rule string. A file of 100,000 handlers whose groups all say `"matcher": "Bash"`
/// then holds one matcher, not 100,000 (issue 20). Bounded by the document's size.
#[derive(Default)]
struct Compiled<'d> {
    matchers: HashMap<(EventId, Option<&'d str>), Result<GroupMatcher, String>>,
    ifs: HashMap<&'d str, ParsedIf>,
}

/// An `if` rule and the warning its parse gave, or why it is refused.
type ParsedIf = Result<(Arc<IfRule>, Option<String>), String>;

/// What a dialect that writes its hooks in Claude Code's settings shape (event names → matcher
/// groups → handlers) decides differently while one document is read. The defaults are Claude
/// Code's; jcode overrides them in its own folder.
pub(crate) trait SettingsShape {
    /// The events a configured name stands for, the first deciding how its groups are read;
    /// empty = unknown (its hooks are skipped). Codex's `PostToolUse` stands for PostToolUse
    /// and PostToolUseFailure: its groups run on both.
    fn event_ids_of(&self, name: &str) -> Vec<EventId> {
        catalog::lookup(name).into_iter().collect()
    }

    /// A group's matcher from its `matcher` string; `Err(reason)` = the group never runs.
    fn group_matcher(
        &self,
        raw: Option<&str>,
        spec: &EventSpec,
        rules: Rules,
    ) -> Result<GroupMatcher, String> {
        if spec.match_on == MatchOn::Nothing {
            return Ok(GroupMatcher::new(Matcher::All));
        }
        Matcher::compile(raw, rules, spec.narrow_matcher).map(GroupMatcher::new)
    }

    /// Why a handler of type `ty` is skipped, when the dialect does not run it.
    fn refuses(&self, _ty: HandlerType) -> Option<String> {
        None
    }

    /// The handler's run mode and timeout as the dialect applies them, from what was
    /// configured; `warn` reports a change.
    fn timing(
        &self,
        _spec: &EventSpec,
        _rules: Rules,
        mode: RunMode,
        timeout: Option<f64>,
        _warn: &mut dyn FnMut(String),
    ) -> (RunMode, Option<f64>) {
        (mode, timeout)
    }
}

/// Keys a handler may carry with a fixed type; anything else is tolerated silently.
const TIMEOUT_WARN_S: f64 = 10_000.0;
const TIMEOUT_MAX_S: f64 = 86_400.0;

/// Reads one document in the settings shape: its `hooks` object, when it has one.
pub(crate) fn read_document(
    shape: &dyn SettingsShape,
    doc: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    match doc.get("hooks") {
        Some(hooks) => read_hooks(shape, hooks, cx, p, events, warnings),
        None => Ok(()),
    }
}

/// Reads the `hooks` object of one document into groups per event, appended to `events`.
fn read_hooks(
    shape: &dyn SettingsShape,
    hooks: &Value,
    cx: &DocContext<'_>,
    p: &Parse,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
) -> Result<(), ConfigError> {
    let ptr = format!("{}/hooks", cx.base);
    let Some(map) = hooks.as_object() else {
        return p.fail::<()>(warnings, &ptr, "`hooks` must be an object of event names").map(|_| ());
    };
    let mut compiled = Compiled::default();
    for (name, groups) in map {
        let eptr = format!("{ptr}/{}", escape(name));
        let ids = shape.event_ids_of(name);
        let Some(&eid) = ids.first() else {
            warnings.never_runs(
                None,
                &eptr,
                format!("{}: unknown event \"{name}\"; its hooks are skipped", cx.info.label),
            );
            continue;
        };
        let Some(list) = groups.as_array() else {
            p.fail::<()>(
                warnings,
                &eptr,
                format!("the value of \"{name}\" must be an array of matcher groups"),
            )?;
            continue;
        };
        for (gi, g) in list.iter().enumerate() {
            let gptr = format!("{eptr}/{gi}");
            if let Some(group) = read_group(shape, g, eid, gi, &gptr, cx, p, warnings, &mut compiled)? {
                for &also in &ids[1..] {
                    let copy = Group { matcher: group.matcher.clone(), handlers: group.handlers.clone() };
                    events[also].push(copy);
                }
                events[eid].push(group);
            }
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn read_group<'d>(
    shape: &dyn SettingsShape,
    g: &'d Value,
    eid: catalog::EventId,
    gi: usize,
    gptr: &str,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
    compiled: &mut Compiled<'d>,
) -> Result<Option<Group>, ConfigError> {
    let spec = catalog::spec(eid);
    let Some(obj) = group_object(g, gptr, p, warnings)? else { return Ok(None) };
    let matcher_raw = match obj.get("matcher") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return p.fail(warnings, &format!("{gptr}/matcher"), "`matcher` must be a string"),
    };
    let Some(hooks) = obj.get("hooks") else {
        return p.fail(warnings, &format!("{gptr}/hooks"), "a matcher group needs a `hooks` array");
    };
    let Some(hooks) = hooks.as_array() else {
        return p.fail(warnings, &format!("{gptr}/hooks"), "`hooks` must be an array of handlers");
    };
    let group_id = format!("{}:{}[{gi}]", cx.info.id_label, spec.name);
    for key in obj.keys().filter(|k| *k != "matcher" && *k != "hooks") {
        let at = format!("{gptr}/{}", escape(key));
        let why = match key.as_str() {
            "if" => format!(
                "{group_id}: `if` belongs on a handler, not on its matcher group; ignored here, so the group's hooks run on every {} event",
                spec.name
            ),
            _ => format!("{group_id}: unknown group key \"{key}\" ignored"),
        };
        warnings.note(Some(eid), &at, why);
    }
    let at = format!("{gptr}/matcher");
    let compiled_matcher = compiled
        .matchers
        .entry((eid, matcher_raw))
        .or_insert_with(|| shape.group_matcher(matcher_raw, spec, cx.rules))
        .clone();
    let matcher = match compiled_matcher {
        Ok(m) => {
            if !m.can_match_any(spec.matcher_values) {
                // Kept as configured (a later Claude Code may send a new value); `validate`
                // says so.
                let why = closed_set_miss(spec, matcher_raw.unwrap_or(""));
                warnings.never_runs(Some(eid), &at, format!("{group_id}: {why}; this group never runs"));
            }
            m
        }
        Err(why) => {
            warnings.never_runs(Some(eid), &at, format!("{group_id}: {why}; this group never runs"));
            GroupMatcher::new(Matcher::Never)
        }
    };
    let mut handlers = Vec::new();
    for (hi, h) in hooks.iter().enumerate() {
        let id = format!("{group_id}.hooks[{hi}]");
        if let Some(handler) =
            read_handler(shape, h, eid, id, &format!("{gptr}/hooks/{hi}"), cx, p, warnings, compiled)?
        {
            handlers.push(handler);
        }
    }
    Ok(Some(Group { matcher, handlers }))
}

/// A matcher group as an object, or the problem with it: not an object, or a handler written
/// where its group should be. Shared by every dialect written in the settings shape.
pub(crate) fn group_object<'a>(
    g: &'a Value,
    gptr: &str,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Option<&'a serde_json::Map<String, Value>>, ConfigError> {
    let Some(obj) = g.as_object() else {
        return p.fail(
            warnings,
            gptr,
            "a matcher group must be an object {\"matcher\": ..., \"hooks\": [...]}",
        );
    };
    if !obj.contains_key("hooks") && (obj.contains_key("type") || obj.contains_key("command")) {
        return p.fail(
            warnings,
            gptr,
            "a handler must sit inside a matcher group: wrap it in {\"hooks\": [ ... ]}",
        );
    }
    Ok(Some(obj))
}

/// Why a matcher names none of the values an event's matcher field takes (a closed set).
fn closed_set_miss(spec: &EventSpec, raw: &str) -> String {
    let field = match spec.match_on {
        MatchOn::Field(f) | MatchOn::Basename(f) => f,
        MatchOn::Nothing => "",
    };
    format!(
        "matcher {raw:?} matches none of the values Claude Code sends in `{field}` on {} ({})",
        spec.name,
        spec.matcher_values.join(", ")
    )
}

#[allow(clippy::too_many_arguments)]
fn read_handler<'d>(
    shape: &dyn SettingsShape,
    h: &'d Value,
    eid: catalog::EventId,
    id: String,
    hptr: &str,
    cx: &DocContext<'_>,
    p: &Parse,
    warnings: &mut ConfigWarnings,
    compiled: &mut Compiled<'d>,
) -> Result<Option<Handler>, ConfigError> {
    let spec = catalog::spec(eid);
    let Some(obj) = h.as_object() else {
        return p.fail(warnings, hptr, "a handler must be an object with a `type`");
    };
    let f = Fields { obj, hptr };
    let ty = match obj.get("type") {
        None => return p.fail(warnings, &format!("{hptr}/type"), "a handler needs a `type`"),
        Some(Value::String(t)) => match HandlerType::parse(t) {
            Some(t) => t,
            None => {
                let why = format!("{id}: unknown handler type \"{t}\"; skipped");
                warnings.never_runs(Some(eid), &format!("{hptr}/type"), why);
                return Ok(None);
            }
        },
        Some(_) => return p.fail(warnings, &format!("{hptr}/type"), "`type` must be a string"),
    };
    macro_rules! field {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err((ptr, msg)) => return p.fail(warnings, &ptr, msg),
            }
        };
    }
    let timeout = field!(f.number("timeout"));
    let timeout = match timeout {
        None => None,
        Some(t) if !crate::config::timeout_ok(t) => {
            return p.fail(
                warnings,
                &format!("{hptr}/timeout"),
                "`timeout` must be a number of seconds ≥ 0.001",
            );
        }
        Some(t) => {
            if t > TIMEOUT_MAX_S {
                warnings.note(Some(eid), &format!("{hptr}/timeout"), format!(
                    "{id}: timeout {t} s is over {TIMEOUT_MAX_S} s (the unit is seconds, not milliseconds); clamped"
                ));
                Some(TIMEOUT_MAX_S)
            } else {
                if t >= TIMEOUT_WARN_S {
                    warnings.note(
                        Some(eid),
                        &format!("{hptr}/timeout"),
                        format!(
                            "{id}: timeout {t} is in seconds, not milliseconds ({:.1} hours)",
                            t / 3600.0
                        ),
                    );
                }
                Some(t)
            }
        }
    };
    let is_async = field!(f.boolean("async")).unwrap_or(false);
    let async_rewake = field!(f.boolean("asyncRewake")).unwrap_or(false);
    let once = field!(f.boolean("once")).unwrap_or(false);
    // Read by Claude Code 2.1.332 with `asyncRewake` (the official security-guidance plugin
    // sets both); without it they mean nothing, which is said rather than kept silent.
    let mut rewake_texts = [None, None];
    for (slot, key) in rewake_texts.iter_mut().zip(["rewakeMessage", "rewakeSummary"]) {
        let Some(text) = field!(f.string(key)) else { continue };
        if !async_rewake {
            let why = format!("{id}: `{key}` is read only with `asyncRewake: true`; ignored");
            warnings.note(Some(eid), &format!("{hptr}/{key}"), why);
        } else if text.trim().is_empty() {
            let why = format!("{id}: `{key}` is empty; the default applies");
            warnings.note(Some(eid), &format!("{hptr}/{key}"), why);
        } else {
            *slot = Some(text.to_string());
        }
    }
    let [rewake_message, rewake_summary] = rewake_texts;
    // `commandWindows` replaces `command` on Windows only; here `command` runs.
    field!(f.string("commandWindows"));
    field!(f.string("if"));
    // Borrowed from the document (its type was just checked): the key of `compiled.ifs`.
    let if_raw = obj.get("if").and_then(Value::as_str);
    let on_failure = field!(f.string("onFailure"));
    let fail_closed_a = field!(f.boolean("failClosed"));
    let fail_closed_b = field!(f.boolean("fail_closed"));
    let status_message = field!(f.string("statusMessage"));
    let mut fail_closed = fail_closed_a.unwrap_or(false) || fail_closed_b.unwrap_or(false);
    if let Some(of) = &on_failure {
        match of.as_str() {
            "block" => fail_closed = true,
            "allow" | "continue" | "ignore" => {}
            other => {
                warnings.note(
                    Some(eid),
                    &format!("{hptr}/onFailure"),
                    format!("{id}: unknown onFailure value \"{other}\"; read as \"block\" (the safe side)"),
                );
                fail_closed = true;
            }
        }
    }

    let action = match ty {
        HandlerType::Command => {
            let command = match field!(f.string("command")) {
                Some(c) if !c.trim().is_empty() => c,
                _ => {
                    return p.fail(
                        warnings,
                        &format!("{hptr}/command"),
                        "a command handler needs a non-empty `command` string",
                    );
                }
            };
            let args = field!(f.string_array("args"));
            let shell = match field!(f.string("shell")) {
                None => None,
                Some(s) => match s.as_str() {
                    "sh" => Some(Shell::Sh),
                    "bash" => Some(Shell::Bash),
                    "powershell" => Some(Shell::Pwsh),
                    other => {
                        return p.fail(
                            warnings,
                            &format!("{hptr}/shell"),
                            format!("`shell` must be \"sh\", \"bash\" or \"powershell\", not \"{other}\""),
                        );
                    }
                },
            };
            Action::Command(match args {
                Some(args) => {
                    if shell.is_some() {
                        let why = format!("{id}: `shell` is ignored in exec form (with `args`)");
                        warnings.note(Some(eid), &format!("{hptr}/shell"), why);
                    }
                    if command.trim().contains(char::is_whitespace) {
                        warnings.note(Some(eid), &format!("{hptr}/command"), format!(
                            "{id}: with `args`, `command` names one program; {command:?} contains whitespace"
                        ));
                    }
                    CommandSpec::Exec { program: command, args }
                }
                None => CommandSpec::Shell { script: command, shell: shell.unwrap_or(Shell::Sh) },
            })
        }
        HandlerType::Http => {
            let Some(url) = field!(f.string("url")) else {
                return p.fail(warnings, &format!("{hptr}/url"), "an http handler needs a `url` string");
            };
            let headers = field!(f.string_pairs("headers")).unwrap_or_default();
            let allowed_env_vars = field!(f.string_array("allowedEnvVars")).unwrap_or_default();
            Action::Http(HttpSpec { url, headers, allowed_env_vars })
        }
        HandlerType::Prompt | HandlerType::Agent => {
            field!(f.string("prompt"));
            field!(f.string("model"));
            field!(f.boolean("continueOnBlock"));
            Action::Delegated(h.clone())
        }
        HandlerType::McpTool => {
            field!(f.string("server"));
            field!(f.string("tool"));
            Action::Delegated(h.clone())
        }
        // Functions are registered by the host, never configured (parse never yields this).
        HandlerType::Function => {
            let why = format!("{id}: unknown handler type \"function\"; skipped");
            warnings.never_runs(Some(eid), &format!("{hptr}/type"), why);
            return Ok(None);
        }
    };
    let mode = if ty == HandlerType::Command {
        if async_rewake {
            RunMode::AsyncRewake
        } else if is_async {
            RunMode::Async
        } else {
            RunMode::Sync
        }
    } else {
        RunMode::Sync
    };
    if let Some(why) = shape.refuses(ty) {
        warnings.never_runs(
            Some(eid),
            &format!("{hptr}/type"),
            format!("{id}: {why}; {} skipped", ty.as_str()),
        );
        return Ok(None);
    }
    if ty != HandlerType::Command && (is_async || async_rewake) {
        let why = format!("{id}: `async` applies to command handlers only; runs synchronously");
        warnings.note(Some(eid), &format!("{hptr}/async"), why);
    }
    if !spec.accepts(ty) {
        warnings.never_runs(
            Some(eid),
            &format!("{hptr}/type"),
            format!("{id}: {} handlers are not accepted on {}; dropped", ty.as_str(), spec.name),
        );
        return Ok(None);
    }
    let if_rule = match if_raw {
        None => None,
        Some(raw) => match compiled
            .ifs
            .entry(raw)
            .or_insert_with(|| IfRule::parse(raw, cx.project_dir, cx.home).map(|(r, w)| (Arc::new(r), w)))
            .clone()
        {
            Ok((rule, warn)) => {
                if let Some(w) = warn {
                    warnings.note(Some(eid), &format!("{hptr}/if"), format!("{id}: {w}"));
                }
                Some(rule)
            }
            Err(why) => return p.fail(warnings, &format!("{hptr}/if"), why),
        },
    };
    if if_rule.is_some() && !spec.tool_event {
        let why = format!(
            "{id}: `if` applies to tool events only; on {} this handler never runs (§4.3)",
            spec.name
        );
        warnings.never_runs(Some(eid), &format!("{hptr}/if"), why);
    }
    let (mode, timeout) = shape
        .timing(spec, cx.rules, mode, timeout, &mut |w| warnings.note(Some(eid), hptr, format!("{id}: {w}")));
    let mut handler = Handler::command(
        id,
        cx.source,
        CommandSpec::Shell { script: String::new(), shell: Shell::Sh },
        cx.dialect,
        spec.name,
    );
    handler.action = action;
    handler.ty = ty;
    handler.mode = mode;
    handler.timeout_s = timeout;
    handler.once = once;
    handler.has_if = if_rule.is_some();
    handler.if_rule = if_rule;
    handler.fail_closed = fail_closed;
    handler.status_message = status_message;
    if mode == RunMode::AsyncRewake {
        handler.rewake = Some(crate::config::Rewake {
            message: rewake_message,
            summary: rewake_summary.unwrap_or_else(|| crate::config::REWAKE_SUMMARY.to_string()),
        });
    }
    Ok(Some(handler))
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;
    use serde_json::json;

    #[test]
    fn groups_and_rules_with_the_same_text_share_one_compiled_matcher_and_rule() {
        let group = json!({"matcher": "^mcp__.*", "hooks": [
            {"type": "command", "command": "true", "if": "Bash(git push:*)"},
            {"type": "command", "command": "true", "if": "Bash(git push:*)"}]});
        let other = json!({"matcher": "^Bash$", "hooks": [{"type": "command", "command": "true"}]});
        let config = json!({"hooks": {
            "PreToolUse": [group.clone(), other.clone(), group.clone(), group],
            "PostToolUse": [other]}});
        let d = Dispatcher::new(&config.to_string()).unwrap();
        let pre = &d.config().events[crate::catalog::lookup("PreToolUse").unwrap()];
        let ids: Vec<_> = pre.iter().map(|g| g.matcher.identity()).collect();
        assert_eq!((ids[0], ids[0]), (ids[2], ids[3]));
        assert_ne!(ids[0], ids[1]);
        let rules: Vec<_> = pre.iter().flat_map(|g| &g.handlers).filter_map(|h| h.if_rule.clone()).collect();
        assert_eq!(rules.len(), 6);
        assert!(rules.iter().all(|r| std::sync::Arc::ptr_eq(r, &rules[0])));
        // Another event reads its matchers for itself (a dialect may read them differently).
        let post = &d.config().events[crate::catalog::lookup("PostToolUse").unwrap()];
        assert_ne!(post[0].matcher.identity(), ids[1]);
    }

    #[test]
    fn a_shared_rule_still_warns_for_each_handler_that_carries_it() {
        let h = json!({"type": "command", "command": "true", "if": "Task(foo)"});
        let config = json!({"hooks": {"PreToolUse": [{"matcher": "Task", "hooks": [h.clone(), h]}]}});
        let d = Dispatcher::new(&config.to_string()).unwrap();
        let warned = d.load_warnings().iter().filter(|w| w.contains("cannot be evaluated")).count();
        assert_eq!(warned, 2);
    }
}
