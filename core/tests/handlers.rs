//! Handlers beyond commands (issue 8): `http` against a server on 127.0.0.1, host callbacks
//! for `prompt`/`agent`/`mcp_tool`, and function hooks folded with command hooks.
#![allow(clippy::unwrap_used)]

use hookwire_core::{Dispatcher, FunctionHook};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request as the server saw it: path, header lines, body.
type Seen = (String, Vec<String>, String);

/// A tiny HTTP/1.1 server answering by path; it records each request's headers and body.
struct Server {
    port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

fn server() -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(64) {
            let Ok(mut stream) = stream else { continue };
            let log = log.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
                let mut headers = Vec::new();
                let mut len = 0;
                loop {
                    let mut h = String::new();
                    reader.read_line(&mut h).unwrap();
                    let h = h.trim_end().to_string();
                    if h.is_empty() {
                        break;
                    }
                    if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap();
                    }
                    headers.push(h);
                }
                let mut body = vec![0u8; len];
                reader.read_exact(&mut body).unwrap();
                log.lock().unwrap().push((
                    path.clone(),
                    headers,
                    String::from_utf8_lossy(&body).into_owned(),
                ));
                let (status, text) = match path.as_str() {
                    "/deny" => (
                        "200 OK",
                        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"http says no"}}"#,
                    ),
                    "/empty" => ("200 OK", ""),
                    "/text" => ("200 OK", "just text"),
                    "/fail" => ("500 Internal Server Error", "boom"),
                    "/redirect" => ("302 Found", ""),
                    "/slow" => {
                        std::thread::sleep(SLOW);
                        ("200 OK", "")
                    }
                    _ => ("404 Not Found", ""),
                };
                let extra = if path == "/redirect" { "Location: /deny\r\n" } else { "" };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n{text}",
                    text.len()
                );
            });
        }
    });
    Server { port, seen }
}

/// How long the slow server and callback take to answer: far beyond the handlers' 1 s timeout,
/// so that a fire returning within [`DEADLINE`] returned at the timeout, however loaded the
/// machine (the bound was 2.5 s: a race with the scheduler on 2 shared cores under CI's load).
const SLOW: Duration = Duration::from_secs(30);
const DEADLINE: Duration = Duration::from_secs(15);

const EVENT: &str = r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

fn fire(d: &Dispatcher) -> Value {
    serde_json::from_str(&d.fire_json(EVENT).unwrap()).unwrap()
}

fn http_config(port: u16, path: &str, extra: Value) -> Dispatcher {
    let mut handler = json!({"type": "http", "url": format!("http://127.0.0.1:{port}{path}"), "timeout": 1});
    for (k, v) in extra.as_object().unwrap() {
        handler[k] = v.clone();
    }
    Dispatcher::new(&json!({"hooks": {"PreToolUse": [{"hooks": [handler]}]}}).to_string()).unwrap()
}

#[test]
fn http_json_answer_decides_and_the_body_is_the_event() {
    let s = server();
    let r = fire(&http_config(s.port, "/deny", json!({})));
    assert_eq!(r["decision"], "deny");
    assert_eq!(r["reason"], "http says no");
    let o = &r["outcomes"][0];
    assert_eq!(o["type"], "http");
    assert_eq!(o["http_status"], 200);
    assert_eq!(o["command"], format!("POST http://127.0.0.1:{}/deny", s.port));
    let seen = s.seen.lock().unwrap();
    assert_eq!(seen[0].2, EVENT, "the body is the event text");
    assert!(seen[0].1.iter().any(|h| h.eq_ignore_ascii_case("content-type: application/json")));
}

#[test]
fn http_errors_never_block_unless_fail_closed() {
    let s = server();
    for (path, status) in [("/text", "error"), ("/fail", "error"), ("/redirect", "error"), ("/empty", "ok")] {
        let r = fire(&http_config(s.port, path, json!({})));
        assert_eq!(r["decision"], Value::Null, "{path}");
        assert_eq!(r["outcomes"][0]["status"], status, "{path}: {r}");
    }
    let r = fire(&http_config(s.port, "/fail", json!({"onFailure": "block"})));
    assert_eq!(r["decision"], "deny");
    assert!(r["reason"].as_str().unwrap().contains("HTTP 500"), "{r}");
}

#[test]
fn http_timeouts_refused_connections_and_blocked_urls_are_outcomes() {
    let s = server();
    let t = Instant::now();
    let r = fire(&http_config(s.port, "/slow", json!({})));
    assert_eq!(r["outcomes"][0]["status"], "timed_out", "{r}");
    assert!(t.elapsed() < DEADLINE, "{:?}: the fire waited for the answer, not its 1 s timeout", t.elapsed());
    let closed = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let r = fire(&http_config(closed, "/x", json!({})));
    assert_eq!(r["outcomes"][0]["status"], "spawn_failed", "{r}");
    let d = Dispatcher::new(
        &json!({"http": {"allowed_urls": ["https://hooks.example.com/*"]},
                "hooks": {"PreToolUse": [{"hooks": [{"type": "http", "url": format!("http://127.0.0.1:{}/deny", s.port)}]}]}})
        .to_string(),
    )
    .unwrap();
    let r = fire(&d);
    assert_eq!(r["outcomes"][0]["status"], "spawn_failed");
    assert!(r["outcomes"][0]["error"].as_str().unwrap().contains("URL not allowed"));
}

#[test]
fn header_variables_are_interpolated_only_when_allowed() {
    let s = server();
    // SAFETY: test-only; no other thread of this test binary reads this variable.
    unsafe { std::env::set_var("HOOKWIRE_TEST_TOKEN", "s3cret") };
    let d = http_config(
        s.port,
        "/empty",
        json!({"headers": {"Authorization": "Bearer $HOOKWIRE_TEST_TOKEN", "X-Home": "${HOME}"},
               "allowedEnvVars": ["HOOKWIRE_TEST_TOKEN"]}),
    );
    fire(&d);
    let seen = s.seen.lock().unwrap();
    let headers = &seen[0].1;
    assert!(
        headers.iter().any(|h| h == "authorization: Bearer s3cret" || h == "Authorization: Bearer s3cret"),
        "{headers:?}"
    );
    assert!(headers.iter().any(|h| h.trim().eq_ignore_ascii_case("x-home:")), "{headers:?}");
}

#[test]
fn delegated_handlers_go_to_the_host_callback_or_are_skipped() {
    let cfg = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "prompt", "prompt": "is this safe?", "timeout": 1},
        {"type": "mcp_tool", "server": "guard", "tool": "check"}
    ]}]}});
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    let r = fire(&d);
    assert_eq!(r["outcomes"].as_array().unwrap().len(), 0);
    assert!(
        r["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("no host callback"))
    );

    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    d.set_host_callback(
        "prompt",
        Arc::new(move |req: &Value| {
            log.lock().unwrap().push(req.clone());
            Ok(json!({"ok": false, "reason": "the model says no"}))
        }),
    )
    .unwrap();
    d.set_host_callback(
        "mcp_tool",
        Arc::new(|_req: &Value| Ok(json!({"text": "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"additionalContext\":\"mcp ok\"}}"}))),
    )
    .unwrap();
    let r = fire(&d);
    assert_eq!(r["decision"], "deny", "{r}");
    assert_eq!(r["reason"], "the model says no");
    assert_eq!(r["additional_context"], "mcp ok");
    assert_eq!(r["outcomes"][1]["command"], "mcp_tool guard/check");
    let req = &asked.lock().unwrap()[0];
    assert_eq!(req["type"], "prompt");
    assert_eq!(req["handler"]["prompt"], "is this safe?");
    assert_eq!(req["event"], EVENT);
    assert_eq!(req["timeout_s"], 1.0);
    assert!(d.set_host_callback("command", Arc::new(|_: &Value| Ok(json!({})))).is_err());
}

#[test]
fn a_callback_that_errs_or_overruns_is_an_outcome_not_an_error() {
    let cfg = json!({"hooks": {"Stop": [{"hooks": [{"type": "agent", "prompt": "p", "timeout": 1}]}]}});
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    d.set_host_callback("agent", Arc::new(|_: &Value| Err("model unavailable".into()))).unwrap();
    let r: Value = serde_json::from_str(&d.fire_json(r#"{"hook_event_name":"Stop"}"#).unwrap()).unwrap();
    assert_eq!(r["outcomes"][0]["status"], "error");
    assert!(r["outcomes"][0]["error"].as_str().unwrap().contains("model unavailable"));
    d.set_host_callback(
        "agent",
        Arc::new(|_: &Value| {
            std::thread::sleep(SLOW);
            Ok(json!({"ok": true}))
        }),
    )
    .unwrap();
    let t = Instant::now();
    let r: Value = serde_json::from_str(&d.fire_json(r#"{"hook_event_name":"Stop"}"#).unwrap()).unwrap();
    assert_eq!(r["outcomes"][0]["status"], "timed_out");
    assert!(t.elapsed() < DEADLINE, "{:?}: the fire waited for the answer, not its 1 s timeout", t.elapsed());
}

#[test]
fn a_function_deny_beats_a_command_allow_and_its_rewrite_is_taken() {
    let allow = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    let cfg = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": format!("echo '{allow}'")}]}]}});
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    let id = d
        .add_function_hook(
            FunctionHook { event: "PreToolUse".into(), matcher: Some("Bash".into()), name: Some("guard".into()), ..Default::default() },
            Arc::new(|event: &str| {
                let e: Value = serde_json::from_str(event).map_err(|e| e.to_string())?;
                let cmd = e["tool_input"]["command"].as_str().unwrap_or("").to_string();
                let decision = if cmd.contains("rm") { "deny" } else { "allow" };
                Ok(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision,
                          "permissionDecisionReason": "function", "updatedInput": {"command": format!("{cmd} -la")}}})
                .to_string())
            }),
        )
        .unwrap();
    assert_eq!(id, "function(guard):PreToolUse");
    let r = fire(&d);
    assert_eq!(r["decision"], "allow");
    assert_eq!(r["updated_input"], json!({"command": "ls -la"}));
    assert_eq!(r["outcomes"][1]["hook"], "function(guard):PreToolUse");
    assert_eq!(r["outcomes"][1]["type"], "function");
    let rm = r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;
    let r: Value = serde_json::from_str(&d.fire_json(rm).unwrap()).unwrap();
    assert_eq!(r["decision"], "deny");
    assert_eq!(r["updated_input"], Value::Null);
}

#[test]
fn a_failing_function_fails_open_unless_registered_fail_closed() {
    let d = Dispatcher::new("{}").unwrap();
    d.add_function_hook(
        FunctionHook { event: "PreToolUse".into(), ..Default::default() },
        Arc::new(|_: &str| Err("checker crashed".into())),
    )
    .unwrap();
    let r = fire(&d);
    assert_eq!(r["decision"], Value::Null);
    assert_eq!(r["outcomes"][0]["status"], "error");
    d.add_function_hook(
        FunctionHook { event: "PreToolUse".into(), fail_closed: true, first: true, ..Default::default() },
        Arc::new(|_: &str| Err("strict checker crashed".into())),
    )
    .unwrap();
    let r = fire(&d);
    assert_eq!(r["decision"], "deny");
    assert_eq!(r["outcomes"][0]["hook"], "function#1:PreToolUse", "first = before the others");
    assert!(
        d.add_function_hook(
            FunctionHook { event: "Nope".into(), ..Default::default() },
            Arc::new(|_: &str| Ok(String::new()))
        )
        .is_err()
    );
}
