//! The allocation-light answer to a fire that runs nothing (CONTRIBUTING.md "the hot path stays
//! light"): the event's head is read from its text into borrowed fields (`event::Head`), the
//! selector's matchers are tested against it (`select::nothing_matches`), and when no group
//! matches and the session has no state to update, a result prepared at load is returned as is.
//!
//! Anything this path cannot decide cheaply (a wrong field type, another dialect's matcher,
//! pending async output, Stop-guard state) falls back to the full fire, which gives the same
//! answer; this module only ever declines, it never decides differently. It also declines when
//! `hook.skipped` is logged (`logs::explains_skips`), so the full fire can say why each hook of
//! the event did not run; while nothing listens that check is one atomic load.

use crate::catalog::{self, EventId};
use crate::config::Config;
use crate::event::Head;
use crate::logs;
use crate::result::FireResult;
use crate::select;

/// Prepared empty results, one per event id, with that event's load warnings.
pub struct Prepared {
    empty: Vec<String>,
}

impl Prepared {
    pub fn new(config: &Config) -> Prepared {
        let empty = (0..catalog::count())
            .map(|eid| {
                let mut r = FireResult::empty(catalog::spec(eid).name);
                r.warnings.extend(config.warnings.global.iter().cloned());
                r.warnings.extend(config.warnings.per_event[eid].iter().cloned());
                r.to_json()
            })
            .collect();
        Prepared { empty }
    }
}

/// What the session state says about this fire.
pub trait SessionProbe {
    /// The session has async output waiting, Stop-guard counts that this event may touch, or
    /// the host registered functions on this event.
    fn has_state(&self, session: &str, eid: EventId) -> bool;
}

/// Events at least this long are parsed once, and the fast answer read from the parsed value
/// ([`try_answer_parsed`]): reading their head from the text first would scan the whole event
/// twice whenever a hook does run, a tenth of a 1 MiB fire (figure 4b, issue 20).
pub const TEXT_HEAD_MAX: usize = 64 * 1024;

/// `Some(result JSON)` when nothing runs and nothing changes; `None` to take the full path.
pub fn try_answer(
    config: &Config,
    prepared: &Prepared,
    text: &str,
    sessions: &dyn SessionProbe,
) -> Option<String> {
    answer(config, prepared, Head::from_text(text)?, sessions)
}

/// [`try_answer`] for an event already parsed; a malformed one is the full path's to report.
pub fn try_answer_parsed(
    config: &Config,
    prepared: &Prepared,
    event: &serde_json::Value,
    sessions: &dyn SessionProbe,
) -> Option<String> {
    answer(config, prepared, Head::from_value(event).ok()?, sessions)
}

fn answer(
    config: &Config,
    prepared: &Prepared,
    head: Head<'_>,
    sessions: &dyn SessionProbe,
) -> Option<String> {
    let logging = logs::active();
    if logging && logs::explains_skips() {
        return None;
    }
    // An agent's own payload is matched as the canonical event it stands for, which only the
    // full path builds (`DialectRules::canonical`): a configuration whose dialects take such
    // payloads answers every fire there.
    if crate::dialect::takes_native_payloads(config).next().is_some() {
        return None;
    }
    // Only canonical names: the result's `event` is the name as fired, which the prepared
    // result spells the canonical way.
    let eid = catalog::lookup(&head.name)?;
    let spec = catalog::spec(eid);
    if spec.name == "SessionEnd" || !select::nothing_matches(config, eid, spec, &head)? {
        return None;
    }
    if sessions.has_state(&head.session_id, eid) {
        return None;
    }
    let answer = prepared.empty.get(eid).cloned();
    if logging {
        logs::fire_done_fast(&head.name, &head.session_id);
    }
    answer
}

#[cfg(test)]
mod tests {
    use crate::Dispatcher;

    fn d() -> Dispatcher {
        Dispatcher::new(
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}],
                "Stop":[{"hooks":[{"type":"command","command":"exit 0"}]}]}}"#,
        )
        .unwrap()
    }

    fn same_as_full_path(event: &str) {
        let d = d();
        let fast = d.fire_json(event).unwrap();
        let full = d.fire(&serde_json::from_str(event).unwrap()).unwrap().to_json();
        assert_eq!(fast, full, "{event}");
    }

    #[test]
    fn a_fire_that_matches_nothing_answers_like_the_full_path() {
        same_as_full_path(
            r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"a":1},"x":[1,2]}"#,
        );
        same_as_full_path(r#"{"hook_event_name":"SessionStart","source":"startup"}"#);
        same_as_full_path(r#"{"hook_event_name":"Elicitation","mcp_server_name":7}"#);
    }

    #[test]
    fn the_public_answer_is_the_fire_result_and_declines_whatever_runs_a_hook() {
        let d = d();
        let miss = r#"{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}"#;
        assert_eq!(d.answer_without_running(miss), Some(d.fire_json(miss).unwrap()));
        for runs in [
            r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#,
            r#"{"hook_event_name":"Stop"}"#,
            r#"{"hook_event_name":"PreToolUse","tool_name":5}"#,
            "not json",
        ] {
            assert_eq!(d.answer_without_running(runs), None, "{runs}");
        }
    }

    #[test]
    fn wrong_types_and_non_objects_still_get_their_precise_errors() {
        let d = d();
        let pad = format!(r#","pad":"{}""#, "x".repeat(super::TEXT_HEAD_MAX));
        for (event, kind) in [
            (r#"["PreToolUse"]"#.to_string(), "invalid_event"),
            (r#"{"hook_event_name":"PreToolUse","tool_name":5}"#.into(), "invalid_event"),
            (r#"{"hook_event_name":"PreToolUse","tool_input":"x"}"#.into(), "invalid_event"),
            (r#"{"hook_event_name":"PreToolUse""#.into(), "invalid_json"),
            // Large events are parsed before the fast path looks at them: the same errors.
            (format!(r#"{{"hook_event_name":"PreToolUse","tool_name":5{pad}}}"#), "invalid_event"),
            (format!(r#"{{"hook_event_name":"PreToolUse","tool_input":"x"{pad}}}"#), "invalid_event"),
            (format!(r#"{{"hook_event_name":"PreToolUse"{pad}"#), "invalid_json"),
        ] {
            assert_eq!(d.fire_json(&event).unwrap_err().kind().as_str(), kind, "{event:.80}");
        }
    }

    #[test]
    fn a_large_event_is_answered_from_its_one_parse_as_the_full_path_would() {
        let d = d();
        let event = |tool: &str| {
            let content = "x".repeat(super::TEXT_HEAD_MAX);
            format!(
                r#"{{"hook_event_name":"PreToolUse","tool_name":"{tool}","tool_input":{{"content":"{content}"}}}}"#
            )
        };
        let miss = event("Read");
        let parsed = serde_json::from_str(&miss).unwrap();
        let answer = d.answer_parsed(&parsed).expect("a large event that matches nothing is answered");
        assert_eq!(answer, d.fire(&parsed).unwrap().to_json());
        assert_eq!(d.fire_json(&miss).unwrap(), answer);
        let hit: serde_json::Value = serde_json::from_str(&d.fire_json(&event("Bash")).unwrap()).unwrap();
        assert_eq!(hit["outcomes"].as_array().map(Vec::len), Some(1));
        assert_eq!(d.answer_parsed(&serde_json::from_str(&event("Bash")).unwrap()), None);
    }

    /// Every dialect's flavour of matcher, on a tool event and elsewhere; hooks that never
    /// match and hooks that do.
    fn configs() -> Vec<(&'static str, String)> {
        let cc_groups: Vec<String> = (0..crate::catalog::count())
            .map(crate::catalog::spec)
            .filter(|s| s.native_of.is_none())
            .map(|s| {
                format!(
                    r#""{}":[{{"matcher":"Zzz","hooks":[{{"type":"command","command":"exit 0"}}]}}]"#,
                    s.name
                )
            })
            .collect();
        vec![
            ("claude-code everywhere", format!(r#"{{"hooks":{{{}}}}}"#, cc_groups.join(","))),
            (
                "claude-code",
                r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}],
                   "FileChanged":[{"matcher":".env","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}]}}"#
                    .into(),
            ),
            (
                "jcode",
                r#"{"dialect":"jcode","hooks":{"PreToolUse":[{"matcher":"write","hooks":[{"type":"command","command":"exit 0"}]}],
                   "Stop":[{"hooks":[{"type":"command","command":"exit 0"}]}]}}"#
                    .into(),
            ),
            (
                "neocode",
                r#"{"dialect":"neocode","sources":[{"scope":"user","settings":{"items":[
                   {"id":"a","kind":"command","mode":"sync","point":"before_tool_call","params":{"command":["true"]}}]}}]}"#
                    .into(),
            ),
            ("ok", r#"{"dialect":"ok","hooks":{"PreToolUse":[{"match":"zzz","command":"true"}]}}"#.into()),
            (
                "j-cli",
                r#"{"dialect":"j-cli","sources":[{"scope":"user","settings":{"pre_tool_execution":[{"command":"exit 0"}],
                   "stop":[{"command":"exit 0"}]}}]}"#
                    .into(),
            ),
            (
                "codex",
                r#"{"dialect":"codex","sources":[{"scope":"user","dialect":"codex","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"exit 0"}]}],
                   "PostToolUse":[{"matcher":"^Ba","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SubagentStart":[{"matcher":"Zzz","hooks":[{"type":"command","command":"exit 0"}]}],
                   "UserPromptSubmit":[{"matcher":"Zzz","hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "ub",
                r#"{"dialect":"ub","sources":[{"scope":"user","settings":{"hooks":{"pre_tool_call":[{"command":["true"]}]}}}]}"#
                    .into(),
            ),
            (
                "cursor",
                r#"{"dialect":"cursor","sources":[{"scope":"user","settings":{"version":1,"hooks":{
                   "preToolUse":[{"command":"exit 0","matcher":"^Shell$"}],
                   "beforeShellExecution":[{"command":"exit 0","matcher":"zzz"}],
                   "beforeReadFile":[{"command":"exit 0"}],
                   "afterFileEdit":[{"command":"exit 0"}],
                   "subagentStop":[{"command":"exit 0","matcher":"resume"}],
                   "afterAgentResponse":[{"command":"exit 0"}]}}}]}"#
                    .into(),
            ),
            (
                "gemini",
                r#"{"dialect":"gemini","sources":[{"scope":"user","settings":{"hooks":{
                   "BeforeTool":[{"matcher":"run_shell","hooks":[{"type":"command","command":"exit 0"}]},
                                 {"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}],
                   "AfterTool":[{"matcher":"^write_file$","sequential":true,"hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}],
                   "AfterAgent":[{"matcher":"ignored","hooks":[{"type":"command","command":"exit 0"}]}],
                   "BeforeModel":[{"hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "auggie",
                r#"{"dialect":"auggie","sources":[{"scope":"user","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"launch-process","hooks":[{"type":"command","command":"exit 0","timeout":5000}]},
                                 {"matcher":"Wri","hooks":[{"type":"command","command":"exit 0"}]}],
                   "PostToolUse":[{"matcher":"^Zzz$","hooks":[{"type":"command","command":"exit 0"}]}],
                   "PromptSubmit":[{"hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "codebuddy",
                r#"{"dialect":"codebuddy","sources":[{"scope":"user","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"exit 0"}]}],
                   "PostToolUse":[{"matcher":"^Ba","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}],
                   "Stop":[{"hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "devin-cli",
                r#"{"dialect":"devin-cli","sources":[{"scope":"user","settings":{
                   "PreToolUse":[{"matcher":"exec","hooks":[{"type":"command","command":"exit 0"}]},
                                 {"matcher":"^edit$","hooks":[{"type":"command","command":"exit 0"}]}],
                   "PostToolUse":[{"matcher":"Zzz","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}]}}]}"#
                    .into(),
            ),
            (
                "open-plugins",
                r#"{"dialect":"open-plugins","sources":[{"scope":"plugin","root":"/p","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"Wri","hooks":[{"type":"command","command":"exit 0"}]}],
                   "BeforeShellExecution":[{"matcher":"rm -rf","hooks":[{"type":"command","command":"exit 0"}]}],
                   "BeforeReadFile":[{"matcher":"\\.env$","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "cline",
                r#"{"dialect":"cline","sources":[{"scope":"user","settings":{"hooks":{
                   "UserPromptSubmit":[{"file":"/dev/null"}],
                   "TaskResume":[{"file":"/dev/null"}]}}}]}"#
                    .into(),
            ),
            (
                "crush",
                r#"{"dialect":"crush","sources":[{"scope":"user","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"^bash$","command":"exit 0"},{"matcher":"edit|view","command":"exit 0"}]}}}]}"#
                    .into(),
            ),
            (
                "mistral-vibe",
                r#"{"dialect":"mistral-vibe","sources":[{"scope":"user","settings":{"hooks":[
                   {"name":"a","type":"pre_tool","match":"re:ba.*","command":"exit 0"},
                   {"name":"b","type":"post_tool","match":"read_file","command":"exit 0"},
                   {"name":"c","type":"post_agent","match":"reviewer","command":"exit 0"}]}}]}"#
                    .into(),
            ),
            (
                "copilot-cli",
                r#"{"dialect":"copilot-cli","sources":[{"scope":"user","settings":{"version":1,"hooks":{
                   "preToolUse":[{"bash":"exit 0","matcher":"bash"},{"bash":"exit 0","matcher":"Bash"}],
                   "PreToolUse":[{"bash":"exit 0","matcher":"Read"}],
                   "agentStop":[{"bash":"exit 0"}]}}}]}"#
                    .into(),
            ),
            (
                "vs-code",
                r#"{"dialect":"vs-code","sources":[{"scope":"user","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}],
                   "Stop":[{"type":"command","command":"exit 0"}]}}}]}"#
                    .into(),
            ),
            (
                "iflow",
                r#"{"dialect":"iflow","sources":[{"scope":"user","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SetUpEnvironment":[{"hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "qoder",
                r#"{"dialect":"qoder","sources":[{"scope":"user","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"Write|Edit","hooks":[{"type":"command","command":"exit 0"}]}],
                   "Notification":[{"matcher":"idle","hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "cortex-code",
                r#"{"dialect":"cortex-code","sources":[{"scope":"user","settings":{"hooks":{
                   "PostToolUseFailure":[{"matcher":"^Ba","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SubagentStart":[{"matcher":"Zzz","hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "muse-code",
                r#"{"dialect":"muse-code","sources":[{"scope":"user","settings":{"hooks":{
                   "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}],
                   "Stop":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]},
                           {"matcher":"*","hooks":[{"type":"command","command":"exit 0"}]}],
                   "UserPromptSubmit":[{"matcher":"Zzz","hooks":[{"type":"command","command":"exit 0"}]}],
                   "PreLLMCall":[{"hooks":[{"type":"command","command":"exit 0"}]}]}}}]}"#
                    .into(),
            ),
            (
                "factory-droid",
                r#"{"dialect":"factory-droid","hooks":{
                   "PreToolUse":[{"matcher":"^Execute$","hooks":[{"type":"command","command":"exit 0"}]},
                                 {"matcher":"Creat","hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resum","hooks":[{"type":"command","command":"exit 0"}]}],
                   "Stop":[{"matcher":"ignored","hooks":[{"type":"command","command":"exit 0"}]}]}}"#
                    .into(),
            ),
            (
                "qwen-code",
                r#"{"dialect":"qwen-code","hooks":{
                   "PreToolUse":[{"matcher":"Shell","sequential":true,"hooks":[{"type":"command","command":"exit 0","timeout":5000}]}],
                   "PostToolUse":[{"matcher":"write_f","hooks":[{"type":"command","command":"exit 0","env":{"A":"1"}}]}],
                   "TodoCreated":[{"hooks":[{"type":"command","command":"exit 0"}]}],
                   "SessionStart":[{"matcher":"resume","hooks":[{"type":"command","command":"exit 0"}]}]}}"#
                    .into(),
            ),
            (
                "windsurf",
                r#"{"dialect":"windsurf","sources":[{"scope":"user","settings":{"hooks":{
                   "pre_run_command":[{"command":"exit 0"}],
                   "post_write_code":[{"command":"exit 0","show_output":true}],
                   "pre_user_prompt":[{"command":"exit 0"}],
                   "post_cascade_response":[{"command":"exit 0"}]}}}]}"#
                    .into(),
            ),
            (
                "antigravity",
                r#"{"dialect":"antigravity","sources":[{"scope":"user","settings":{
                   "guard":{"PreToolUse":[{"matcher":"run_command","hooks":[{"type":"command","command":"exit 0"}]}],
                            "PostToolUse":[{"matcher":"Zzz","hooks":[{"type":"command","command":"exit 0"}]}],
                            "Stop":[{"type":"command","command":"exit 0"}]},
                   "off":{"enabled":false,"SessionStart":[{"type":"command","command":"exit 0"}]}}}]}"#
                    .into(),
            ),
            (
                "kiro",
                r#"{"dialect":"kiro","sources":[{"scope":"user","settings":{"version":"v1","hooks":[
                   {"trigger":"PreToolUse","matcher":"execute_bash","action":{"type":"command","command":"exit 0"}},
                   {"trigger":"PostToolUse","matcher":"@git","action":{"type":"command","command":"exit 0"}},
                   {"trigger":"PostFileSave","matcher":"\\.env$","action":{"type":"command","command":"exit 0"}},
                   {"trigger":"Stop","action":{"type":"command","command":"exit 0"}}]}}]}"#
                    .into(),
            ),
            (
                "kimi-cli",
                r#"{"dialect":"kimi-cli","hooks":[
                   {"event":"PreToolUse","matcher":"Bas","command":"exit 0"},
                   {"event":"PreToolUse","matcher":"*","command":"exit 0"},
                   {"event":"PostToolUse","matcher":"^Qqq$","command":"exit 0"},
                   {"event":"UserPromptSubmit","matcher":"^do","command":"exit 0"},
                   {"event":"SessionStart","matcher":"resume","command":"exit 0","timeout":5}]}"#
                    .into(),
            ),
        ]
    }

    fn without_durations(result: &str) -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(result).unwrap();
        for key in ["outcomes", "async_outcomes"] {
            for o in v[key].as_array_mut().into_iter().flatten() {
                o["duration_ms"] = serde_json::Value::Null;
            }
        }
        v
    }

    #[test]
    fn the_fast_path_and_the_full_fire_agree_for_every_event_and_dialect() {
        let names: Vec<&str> = (0..crate::catalog::count()).map(|id| crate::catalog::spec(id).name).collect();
        let mut fast_answers = 0;
        for (label, config) in configs() {
            let (fast, full) = (Dispatcher::new(&config).unwrap(), Dispatcher::new(&config).unwrap());
            for name in &names {
                for tool in ["Bash", "Write", "Zzz"] {
                    // The last one is large: its fire reads the fast answer from the parsed event.
                    let pad = format!(r#","pad":"{}""#, "x".repeat(super::TEXT_HEAD_MAX));
                    for extra in
                        ["", r#","source":"resume","file_path":"/p/.env""#, r#","tool_name":5"#, &pad]
                    {
                        let event = format!(
                            r#"{{"hook_event_name":"{name}","session_id":"s","tool_name":"{tool}","tool_input":{{"command":"ls"}}{extra}}}"#
                        );
                        fast_answers += usize::from(if event.len() < super::TEXT_HEAD_MAX {
                            fast.answers_fast(&event)
                        } else {
                            fast.answer_parsed(&serde_json::from_str(&event).unwrap()).is_some()
                        });
                        let a = fast.fire_json(&event);
                        let b = serde_json::from_str(&event)
                            .map_err(|_| ())
                            .and_then(|v| full.fire(&v).map_err(|_| ()));
                        match (a, b) {
                            (Ok(a), Ok(b)) => {
                                assert_eq!(
                                    without_durations(&a),
                                    without_durations(&b.to_json()),
                                    "{label}: {event}"
                                )
                            }
                            (Err(_), Err(())) => {}
                            (a, b) => panic!("{label}: {event}: fast {:?}, full {:?}", a.is_ok(), b.is_ok()),
                        }
                    }
                }
            }
        }
        // The property is not vacuous: most of these fires were answered without a hook.
        assert!(fast_answers > 1000, "the fast path answered only {fast_answers} fires");
    }
}
