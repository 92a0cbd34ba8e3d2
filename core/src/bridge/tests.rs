//! The test that matters for the bridge: a round trip through the agent's own reading. For
//! every dialect with an answer form, every event it fires that has a canonical event, and
//! every kind of result, the answer's bytes and exit code are read back by the same dialect's
//! `read` as if one of its own hooks had answered: the verdict is the same, or the documented
//! nearest-safe one with a loss line, and never weaker (a deny never reads back as allow). The
//! dialects come from the one list, so a new answer form is covered without being added.

use super::*;
use crate::catalog::EventSpec;
use crate::catalog::{Decisions, Shell};
use crate::config::{CommandSpec, Handler};
use crate::dialect::{Finished, FireEvent};
use crate::runner::{End, Text};
use crate::verdict::{Decision, Status, Verdict};
use serde_json::json;

/// The events a dialect fires, as (its name, the canonical event) pairs.
fn events_of(d: Dialect) -> Vec<(&'static str, &'static EventSpec)> {
    match d.rules().profile().native_events {
        None => (0..catalog::count())
            .map(catalog::spec)
            .filter(|s| s.native_of.is_none())
            .map(|s| (s.name, s))
            .collect(),
        Some(list) => list
            .iter()
            .flat_map(|e| {
                e.canonical
                    .iter()
                    .filter_map(move |c| catalog::lookup(c).map(|id| (e.name, catalog::spec(id))))
            })
            .collect(),
    }
}

/// The canonical event the hooks ran on.
fn event_of(spec: &EventSpec) -> Value {
    json!({"session_id": "s", "transcript_path": "/t", "cwd": "/p", "hook_event_name": spec.name,
           "tool_name": "Bash", "tool_input": {"command": "rm -rf /tmp/x", "description": "d"},
           "tool_response": "out", "prompt": "hi", "stop_hook_active": false, "source": "startup"})
}

/// Every kind of result the brief names, for this event: (label, result).
fn results(spec: &EventSpec) -> Vec<(&'static str, FireResult)> {
    let base = || FireResult::empty(spec.name);
    let with = |f: &dyn Fn(&mut FireResult)| {
        let mut r = base();
        f(&mut r);
        r
    };
    let mut out = vec![
        ("no hook matched", base()),
        ("a hook error", with(&|r| r.warnings.push("hook user:X[0].hooks[0]: exit 1: boom".into()))),
        ("continue false", with(&|r| (r.continue_, r.stop_reason) = (false, Some("halt".into())))),
        ("added context", with(&|r| r.additional_context = Some("ctx".into()))),
        ("system message", with(&|r| r.system_message = Some("note".into()))),
    ];
    let block = crate::dialect::block_decision(spec);
    if spec.decisions != Decisions::None {
        out.push((
            "deny with reason",
            with(&|r| (r.decision, r.reason) = (Some(block), Some("no rm".into()))),
        ));
        out.push(("deny without reason", with(&|r| r.decision = Some(block))));
    }
    if matches!(spec.decisions, Decisions::Permission | Decisions::PermissionRequest) {
        out.push(("allow", with(&|r| r.decision = Some(Decision::Allow))));
        out.push((
            "allow with reason",
            with(&|r| (r.decision, r.reason) = (Some(Decision::Allow), Some("fine".into()))),
        ));
        out.push((
            "rewritten tool input",
            with(&|r| {
                r.decision = Some(Decision::Allow);
                r.updated_input = Some(json!({"command": "rm -ri /tmp/x", "description": "d"}));
            }),
        ));
    }
    if spec.decisions == Decisions::Permission {
        out.push(("ask", with(&|r| (r.decision, r.reason) = (Some(Decision::Ask), Some("sure?".into())))));
    }
    out
}

/// How safe a decision is for the user: allow < none < ask < deny/block.
fn safety(d: Option<Decision>) -> u8 {
    match d {
        Some(Decision::Allow) => 0,
        None | Some(Decision::Defer) => 1,
        Some(Decision::Ask) => 2,
        Some(Decision::Deny | Decision::Block) => 3,
    }
}

fn text(s: &str) -> Text {
    Text { text: s.to_string(), truncated: false, lossy: false }
}

/// The answer read back by the dialect as one of its own hooks' answers.
fn read_back(
    d: Dialect,
    native: &str,
    spec: &'static EventSpec,
    event: &Value,
    a: &Answer,
) -> crate::verdict::Reading {
    let cmd = CommandSpec::Shell { script: "hookwire bridge".into(), shell: Shell::Sh };
    let mut h = Handler::command(format!("user:{native}[0]"), 0, cmd, d, native);
    // The bridge's entry as docs/bridge.md writes it (ub's `on_failure: block`).
    h.fail_closed = d.rules().profile().bridge_fails_closed;
    let ev = FireEvent::plain(spec, event);
    let end = End::Exited(a.exit_code);
    let (stdout, stderr) = (text(&String::from_utf8_lossy(&a.stdout)), text(&a.stderr));
    let f = Finished { end: &end, stdout: &stdout, stderr: &stderr, timeout_s: 60.0 };
    d.rules().read(&h, &ev, &f).reading
}

/// Whether the read-back verdict keeps what the result said, or is its nearest safe form with a
/// loss said; the problems found otherwise.
/// `can_block`: the agent can block on this event (where it cannot, a block is a loss).
fn compare(r: &FireResult, v: &Verdict, a: &Answer, can_block: bool) -> Vec<String> {
    let mut bad = Vec::new();
    let lost = !a.losses.is_empty();
    let (want, got) = (r.decision, v.decision);
    let want_rank = if r.continue_ { safety(want) } else { safety(want).max(1) };
    if safety(got) < want_rank && (can_block || !lost) {
        bad.push(format!("weaker: {want:?} read back as {got:?}"));
    }
    let same_decision = match (want, got) {
        (Some(Decision::Deny | Decision::Block), Some(Decision::Deny | Decision::Block)) => true,
        (Some(Decision::Defer), None) => true,
        (w, g) => w == g,
    };
    if !same_decision && !lost && r.continue_ {
        bad.push(format!("{want:?} read back as {got:?} with no loss said"));
    }
    // The reason must reach the agent whole; an agent may frame it (ok's `hook [..] — block: R`).
    let reason_kept = v.reason.as_deref().is_some_and(|got| got.contains(block_reason(r).as_str()));
    if blocks(r) && !reason_kept && !lost {
        bad.push(format!("the reason {:?} read back as {:?}", r.reason, v.reason));
    }
    if let Some(u) = &r.updated_input {
        let kept = v
            .updated_input
            .as_ref()
            .is_some_and(|g| u.as_object().is_some_and(|m| m.iter().all(|(k, val)| g.get(k) == Some(val))));
        if !kept && !lost {
            bad.push(format!("the rewrite {u} read back as {:?} with no loss said", v.updated_input));
        }
        if !kept && v.decision == Some(Decision::Allow) {
            bad.push("a rewrite was dropped but the original input is allowed".into());
        }
    }
    if r.additional_context.is_some() && v.additional_context != r.additional_context && !lost {
        bad.push(format!("context read back as {:?} with no loss said", v.additional_context));
    }
    if r.system_message.is_some() && v.system_message != r.system_message && !lost {
        bad.push(format!("system message read back as {:?} with no loss said", v.system_message));
    }
    if !r.continue_ && v.continue_ && !lost {
        bad.push("continue: false read back as true with no loss said".into());
    }
    bad
}

#[test]
fn every_answer_reads_back_in_its_own_dialect_as_the_same_verdict_or_a_safer_one() {
    let mut bad = Vec::new();
    let mut checked = 0;
    for &d in catalog::ALL_DIALECTS {
        let Some(answer) = d.rules().profile().answer else { continue };
        for (native, spec) in events_of(d) {
            let event = event_of(spec);
            for (label, r) in results(spec) {
                let a =
                    answer(&Answering { native, spec: Some(spec), event: &event, fired: Fired::Result(&r) });
                let reading = read_back(d, native, spec, &event, &a);
                let at = format!("{} {native} ({}) {label}", d.as_str(), spec.name);
                // ub blocks only by a failure its entry makes blocking (`on_failure: block`):
                // there a failed hook that decides is the agent's own way to block.
                let blocks_by_failure = reading.verdict.source == crate::verdict::VerdictSource::Failure
                    && reading.verdict.decision.is_some();
                if reading.status != Status::Ok && !blocks_by_failure {
                    bad.push(format!("{at}: the agent rejects the answer: {:?}", reading.error));
                    continue;
                }
                let can_block = d.rules().profile().can_block(spec, crate::catalog::Rules::Current);
                bad.extend(
                    compare(&r, &reading.verdict, &a, can_block).into_iter().map(|p| format!("{at}: {p}")),
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} round trips");
    assert!(bad.is_empty(), "{} round trips broke:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_bridges_own_failure_reads_back_as_a_failed_hook_that_decides_nothing() {
    for &d in catalog::ALL_DIALECTS {
        let Some(answer) = d.rules().profile().answer else { continue };
        for (native, spec) in events_of(d) {
            let a = answer(&Answering {
                native,
                spec: None,
                event: &Value::Null,
                fired: Fired::Failed("bad payload"),
            });
            assert!(a.stderr.contains("bad payload"), "{}: {a:?}", d.as_str());
            // Exit 1, or the agent's own word for a failed hook on stdout (neocode, where exit 1
            // blocks).
            assert!(a.exit_code == 1 || !a.stdout.is_empty(), "{}: {a:?}", d.as_str());
            if spec.exit2 == crate::catalog::Exit2::AnyNonZeroBlocks {
                continue; // WorktreeCreate: any failure of a hook fails the creation.
            }
            let reading = read_back(d, native, spec, &event_of(spec), &a);
            // The agent's own rule for a failed hook: nothing decided, or its fail-closed deny
            // (Copilot CLI's preToolUse).
            let v = &reading.verdict;
            let fail_closed = v.source == crate::verdict::VerdictSource::Failure;
            assert!(v.decision.is_none() || fail_closed, "{} {native}: {v:?}", d.as_str());
        }
    }
}

#[test]
fn a_dialect_without_an_answer_form_cannot_be_bridged_and_says_so() {
    let without = catalog::ALL_DIALECTS.iter().find(|d| d.rules().profile().answer.is_none());
    if let Some(d) = without {
        let e = Bridge::for_agent(d.as_str()).unwrap_err();
        assert!(e.contains("cannot answer"), "{e}");
    }
    assert!(Bridge::for_agent("nonesuch").unwrap_err().contains("unknown agent"));
    assert!(
        Bridge::agents().starts_with(&["claude-code", "codex", "gemini", "cursor"])
            || Bridge::agents().contains(&"codex")
    );
}

#[test]
fn every_dialect_is_bridged() {
    assert_eq!(Bridge::agents().len(), catalog::ALL_DIALECTS.len(), "{:?}", Bridge::agents());
}

#[test]
fn a_payload_is_read_bounded_in_size_and_depth_and_must_be_an_object() {
    let b = Bridge::for_agent("codex").unwrap();
    assert!(b.read_payload(b"  ", None).unwrap_err().contains("empty"));
    assert!(b.read_payload(b"[1]", None).unwrap_err().contains("not a JSON object"));
    assert!(b.read_payload(b"{", None).unwrap_err().contains("not JSON"));
    // Too deep for the engine: read clipped, so the hooks still run (refused, it was exit 1).
    let deep = format!("{{\"a\":{}1{}}}", "[".repeat(5000), "]".repeat(5000));
    let (v, unread) = b.read_payload(deep.as_bytes(), Some("PreToolUse")).unwrap();
    assert_eq!((v["hook_event_name"].as_str(), unread.clip.map(|c| c.count)), (Some("PreToolUse"), Some(1)));
    assert!(b.read_payload(format!("{deep}]").as_bytes(), None).unwrap_err().contains("not JSON"));
    let mut big = vec![b' '; MAX_PAYLOAD_BYTES + 1];
    big.extend_from_slice(br#"{"hook_event_name":"Stop"}"#);
    assert!(b.read_payload(&big, None).unwrap_err().contains("no string longer than 1 MiB"));
    let huge = vec![b' '; MAX_PAYLOAD_READ + 1];
    assert!(b.read_payload(&huge, None).unwrap_err().contains("larger than 256 MiB"));
    let (named, _) = b.read_payload(br#"{"x":1}"#, Some("preToolUse")).unwrap();
    assert_eq!(named["hook_event_name"], "preToolUse");
    let (kept, _) = b.read_payload(br#"{"hook_event_name":"Stop"}"#, Some("preToolUse")).unwrap();
    assert_eq!(kept["hook_event_name"], "Stop");
}

#[test]
fn native_payloads_become_claude_codes_event_with_claude_codes_tool_names() {
    let gemini = Bridge::for_agent("gemini").unwrap();
    let p = json!({"session_id": "s", "cwd": "/p", "hook_event_name": "BeforeTool", "timestamp": "t",
                   "tool_name": "run_shell_command", "tool_input": {"command": "ls"}});
    let c = gemini.canonical(&p).unwrap().unwrap();
    assert_eq!((c["hook_event_name"].as_str(), c["tool_name"].as_str()), (Some("PreToolUse"), Some("Bash")));
    let failed = json!({"hook_event_name": "AfterTool", "tool_name": "read_file", "tool_input": {},
                        "tool_response": {"llmContent": "x", "error": "nope"}});
    let c = gemini.canonical(&failed).unwrap().unwrap();
    assert_eq!(
        (c["hook_event_name"].as_str(), c["error"].as_str()),
        (Some("PostToolUseFailure"), Some("nope"))
    );
    assert_eq!(gemini.canonical(&json!({"hook_event_name": "BeforeModel"})), Ok(None));

    let codex = Bridge::for_agent("codex").unwrap();
    let p = json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch"}});
    assert_eq!(codex.canonical(&p).unwrap().unwrap()["tool_name"], "Edit");
    let p = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    assert_eq!(codex.canonical(&p), Ok(Some(p.clone())));
    assert!(codex.canonical(&json!({"hook_event_name": "Notification"})).is_err());
    assert!(codex.canonical(&json!({"tool_name": "Bash"})).unwrap_err().contains("--event"));

    let cursor = Bridge::for_agent("cursor").unwrap();
    let p = json!({"conversation_id": "c", "generation_id": "g", "hook_event_name": "beforeShellExecution",
                   "workspace_roots": ["/w"], "command": "rm -rf /", "cwd": "/w/sub"});
    let c = cursor.canonical(&p).unwrap().unwrap();
    assert_eq!(c["hook_event_name"], "PreToolUse");
    assert_eq!(c["tool_name"], "Bash");
    assert_eq!(c["tool_input"], json!({"command": "rm -rf /"}));
    assert_eq!((c["session_id"].as_str(), c["cwd"].as_str()), (Some("c"), Some("/w/sub")));
    let p = json!({"conversation_id": "c", "hook_event_name": "preToolUse", "workspace_roots": ["/w"],
                   "tool_name": "Shell", "tool_input": {"command": "ls"}});
    let c = cursor.canonical(&p).unwrap().unwrap();
    assert_eq!((c["tool_name"].as_str(), c["cwd"].as_str()), (Some("Bash"), Some("/w")));

    // Agents naming Claude Code's tools their own way: a user's `Bash` guard must meet them.
    for (agent, native_tool, cc_tool) in [
        ("auggie", "launch-process", "Bash"),
        ("auggie", "view", "Read"),
        ("factory-droid", "Execute", "Bash"),
        ("factory-droid", "Create", "Write"),
        ("factory-droid", "Edit", "Edit"),
        ("kimi-cli", "Shell", "Bash"),
        ("jcode", "execute", "Bash"),
        ("jcode", "run_shell", "Bash"),
        ("jcode", "Bash", "Bash"),
        ("codebuddy", "Bash", "Bash"),
    ] {
        let b = Bridge::for_agent(agent).unwrap();
        let p = json!({"hook_event_name": "PreToolUse", "tool_name": native_tool, "tool_input": {"command": "ls"}});
        let c = b.canonical(&p).unwrap().unwrap();
        assert_eq!(
            (c["hook_event_name"].as_str(), c["tool_name"].as_str()),
            (Some("PreToolUse"), Some(cc_tool)),
            "{agent} {native_tool}"
        );
    }
    let auggie = Bridge::for_agent("auggie").unwrap();
    let p = json!({"hook_event_name": "PromptSubmit", "prompt": "hi"});
    assert_eq!(auggie.canonical(&p).unwrap().unwrap()["hook_event_name"], "UserPromptSubmit");

    // Crush's stdin names its event `event`, with no `hook_event_name`.
    let crush = Bridge::for_agent("crush").unwrap();
    let stdin = br#"{"event":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"bash","tool_input":{"command":"ls"}}"#;
    let (p, _) = crush.read_payload(stdin, None).unwrap();
    let c = crush.canonical(&p).unwrap().unwrap();
    assert_eq!((c["hook_event_name"].as_str(), c["tool_name"].as_str()), (Some("PreToolUse"), Some("Bash")));

    let cc = Bridge::for_agent("claude-code").unwrap();
    let p = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"});
    assert_eq!(cc.canonical(&p), Ok(Some(p.clone())));
}

#[test]
fn hostile_payloads_become_an_event_or_a_clear_error_for_every_bridged_agent() {
    let mut deep = json!("x");
    for _ in 0..60 {
        deep = json!([deep]);
    }
    let shapes = |name: &str| {
        vec![
            json!({"hook_event_name": name}),
            json!({"hook_event_name": name, "tool_name": 5, "tool_input": "x", "cwd": [], "session_id": {}}),
            json!({"hook_event_name": name, "tool_name": "run_shell_command", "tool_input": {"command": deep}}),
            json!({"hook_event_name": name, "toolName": 5, "toolArgs": "{{", "tool_info": "x", "toolCall": []}),
            json!({"hook_event_name": name, "hookName": {}, "tool_call": {"name": [], "input": 5}, "workspaceRoots": 1}),
            json!({"hook_event_name": name, "command": 5, "tool_input": "{\"a\":", "workspace_roots": "x",
                   "loop_count": "x", "tool_response": {"error": {}}}),
        ]
    };
    for agent in Bridge::agents() {
        let b = Bridge::for_agent(agent).unwrap();
        let names = Dialect::parse(agent)
            .unwrap()
            .rules()
            .profile()
            .native_events
            .map_or_else(|| vec!["PreToolUse", "Stop"], |list| list.iter().map(|e| e.name).collect());
        for name in names.into_iter().chain(["nonsense"]) {
            for payload in shapes(name) {
                let text = payload.to_string();
                let Ok((native, _)) = b.read_payload(text.as_bytes(), None) else { continue };
                if let Ok(Some(c)) = b.canonical(&native) {
                    let a = b.answer(&native, &c, &FireResult::empty(name));
                    assert_eq!(a.exit_code, 0, "{agent} {name}: {a:?}");
                }
            }
        }
    }
}

#[test]
fn the_last_five_agents_payloads_become_claude_codes_event() {
    let canonical = |agent: &str, stdin: &str| {
        let b = Bridge::for_agent(agent).unwrap();
        let (p, _) = b.read_payload(stdin.as_bytes(), None).unwrap();
        (b.canonical(&p).unwrap().unwrap(), b)
    };
    // ok: camelCase keys, `event` names the event.
    let (c, ok) = canonical(
        "ok",
        r#"{"event":"PreToolUse","cwd":"/w","toolName":"bash","toolArgs":{"command":"rm -rf x"}}"#,
    );
    assert_eq!(
        (c["hook_event_name"].as_str(), c["tool_name"].as_str(), c["cwd"].as_str()),
        (Some("PreToolUse"), Some("Bash"), Some("/w"))
    );
    assert_eq!(c["tool_input"]["command"], "rm -rf x");
    assert!(ok.warnings(&c).is_empty(), "{:?}", ok.warnings(&c));
    let (c, _) = canonical("ok", r#"{"event":"UserPromptSubmit","prompt":"hi"}"#);
    assert_eq!((c["hook_event_name"].as_str(), c["prompt"].as_str()), (Some("UserPromptSubmit"), Some("hi")));

    // Goose: its MCP names, and the specification's shell event as a Bash call.
    let (c, _) = canonical(
        "open-plugins",
        r#"{"event":"PreToolUse","session_id":"s","matcher_context":"developer__shell","tool_name":"developer__shell","tool_input":{"command":"ls"},"working_dir":"/w"}"#,
    );
    assert_eq!((c["tool_name"].as_str(), c["cwd"].as_str()), (Some("Bash"), Some("/w")));
    let (c, _) = canonical(
        "open-plugins",
        r#"{"event":"PreToolUse","tool_name":"developer__text_editor","tool_input":{"command":"write","path":"/w/a","file_text":"x"}}"#,
    );
    assert_eq!(
        (c["tool_name"].as_str(), c["tool_input"]["file_path"].as_str()),
        (Some("Write"), Some("/w/a"))
    );
    let (c, _) =
        canonical("open-plugins", r#"{"event":"BeforeShellExecution","matcher_context":"rm -rf x"}"#);
    assert_eq!(
        (c["hook_event_name"].as_str(), c["tool_name"].as_str(), c["tool_input"]["command"].as_str()),
        (Some("PreToolUse"), Some("Bash"), Some("rm -rf x"))
    );

    // j-cli: the arguments are a string of JSON.
    let (c, jcli) = canonical(
        "j-cli",
        r#"{"event":"pre_tool_execution","cwd":"/w","tool_name":"Bash","tool_arguments":"{\"command\":\"rm -rf x\"}"}"#,
    );
    assert_eq!(
        (c["hook_event_name"].as_str(), c["tool_input"]["command"].as_str()),
        (Some("PreToolUse"), Some("rm -rf x"))
    );
    assert!(jcli.warnings(&c).is_empty());
    let (c, _) = canonical(
        "j-cli",
        r#"{"event":"pre_tool_execution","tool_name":"shell","tool_arguments":"{\"command\":"}"#,
    );
    assert_eq!(c["tool_name"], "Bash");
    assert!(c["tool_input"]["command"].get(tool_names::UNREAD).is_some(), "{c}");
    assert!(jcli.warnings(&c).iter().any(|w| w.contains("did not arrive whole")), "{:?}", jcli.warnings(&c));

    // neocode: `point`, and a preview of the arguments that may be cut.
    let preview = json!({"command": "rm -rf x"}).to_string();
    let stdin = json!({"payload_version": "1", "hook_id": "h", "point": "before_tool_call", "run_id": "r", "session_id": "s",
                       "metadata": {"tool_call_id": "t1", "tool_name": "bash", "tool_arguments_preview": preview, "workdir": "/w"}});
    let (c, neocode) = canonical("neocode", &stdin.to_string());
    assert_eq!(
        (
            c["hook_event_name"].as_str(),
            c["tool_name"].as_str(),
            c["cwd"].as_str(),
            c["tool_use_id"].as_str()
        ),
        (Some("PreToolUse"), Some("Bash"), Some("/w"), Some("t1"))
    );
    assert_eq!(c["tool_input"], json!({"command": "rm -rf x"}));
    assert!(neocode.warnings(&c).is_empty());
    let long = json!({"description": "d".repeat(5000), "command": "rm -rf x"}).to_string();
    let cut = crate::matcher::arguments_preview(
        &json!({"tool_input": serde_json::from_str::<Value>(&long).unwrap()}),
    );
    let stdin = json!({"point": "before_tool_call", "metadata": {"tool_name": "bash", "tool_arguments_preview": cut}});
    let (c, _) = canonical("neocode", &stdin.to_string());
    assert!(c["tool_input"]["command"].get(tool_names::UNREAD).is_some(), "{c}");
    assert!(neocode.warnings(&c).iter().any(|w| w.contains("did not arrive whole")));

    // ub: nested tool and result; a failed result is PostToolUseFailure.
    let (c, _) = canonical(
        "ub",
        r#"{"event":"pre_tool_call","session_id":"s","turn":1,"tool":{"name":"bash","use_id":"u","args":{"command":"ls"}}}"#,
    );
    assert_eq!(
        (c["hook_event_name"].as_str(), c["tool_name"].as_str(), c["tool_use_id"].as_str()),
        (Some("PreToolUse"), Some("Bash"), Some("u"))
    );
    let (c, _) = canonical(
        "ub",
        r#"{"event":"post_tool_call","tool":{"name":"bash","args":{}},"result":{"content":"boom","is_error":true}}"#,
    );
    assert_eq!(
        (c["hook_event_name"].as_str(), c["error"].as_str()),
        (Some("PostToolUseFailure"), Some("boom"))
    );
}

#[test]
fn a_tool_name_with_no_claude_code_name_warns_once_and_claude_codes_own_never() {
    for agent in Bridge::agents() {
        let b = Bridge::for_agent(agent).unwrap();
        let c = json!({"hook_event_name": "PreToolUse", "tool_name": "frobnicate", "tool_input": {}});
        let w = b.warnings(&c);
        if agent == "claude-code" {
            assert!(w.is_empty(), "{w:?}");
        } else {
            assert_eq!(w.len(), 1, "{agent}: {w:?}");
            assert!(w[0].contains("\"frobnicate\"") && w[0].contains("Bash"), "{agent}: {w:?}");
        }
        for known in ["Bash", "mcp__github__create_issue"] {
            let c = json!({"hook_event_name": "PreToolUse", "tool_name": known, "tool_input": {}});
            assert!(b.warnings(&c).is_empty(), "{agent} {known}");
        }
    }
}
