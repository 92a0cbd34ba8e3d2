//! Cancelling a fire in flight (issue 8): running hooks' groups are killed, hooks not started
//! never start, outcomes say `cancelled`, and the fire still returns a result.
#![allow(clippy::unwrap_used)]

use hookwire_core::{CancelToken, Dispatcher};
use serde_json::Value;
use std::time::{Duration, Instant};

fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
}

#[test]
fn cancelling_kills_running_hooks_and_reports_cancelled() {
    let dir = std::env::temp_dir().join(format!("hookwire-cancel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pids = dir.join("pids");
    let cfg = serde_json::json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": format!("sleep 30 & echo $! >> {0}; echo $$ >> {0}; wait", pids.display())},
        {"type": "command", "command": "sleep 30"}
    ]}]}});
    let d = Dispatcher::new(&cfg.to_string()).unwrap();
    let token = CancelToken::new();
    let t2 = token.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(400));
        t2.cancel();
    });
    let t = Instant::now();
    let r: Value =
        serde_json::from_str(&d.fire_json_with(r#"{"hook_event_name":"Stop"}"#, &token).unwrap()).unwrap();
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    for o in r["outcomes"].as_array().unwrap() {
        assert_eq!(o["status"], "cancelled", "{o}");
        assert_eq!(o["timed_out"], false);
    }
    assert_eq!(r["decision"], Value::Null);
    std::thread::sleep(Duration::from_millis(500));
    let text = std::fs::read_to_string(&pids).unwrap();
    for pid in text.split_whitespace() {
        assert!(!alive(pid), "pid {pid} survived the cancel");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_sequential_fire_stops_at_the_cancel_and_starts_nothing_more() {
    let cfg =
        r#"{"dialect":"ub","hooks":{"post_user_turn":[{"command":["sleep","30"]},{"command":["true"]}]}}"#;
    let d = Dispatcher::new(cfg).unwrap();
    let token = CancelToken::new();
    let t2 = token.clone();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        t2.cancel();
    });
    let r: Value =
        serde_json::from_str(&d.fire_json_with(r#"{"hook_event_name":"Stop"}"#, &token).unwrap()).unwrap();
    let outcomes = r["outcomes"].as_array().unwrap();
    assert_eq!(outcomes.len(), 1, "{r}");
    assert_eq!(outcomes[0]["status"], "cancelled");
    assert!(r["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("cancelled")));
}

#[test]
fn a_token_cancelled_before_the_fire_starts_nothing_and_fails_nothing_closed() {
    let cfg =
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"exit 0","onFailure":"block"}]}]}}"#;
    let d = Dispatcher::new(cfg).unwrap();
    let token = CancelToken::new();
    token.cancel();
    let r: Value = serde_json::from_str(
        &d.fire_json_with(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#, &token).unwrap(),
    )
    .unwrap();
    assert_eq!(r["outcomes"][0]["status"], "cancelled");
    assert_eq!(r["decision"], Value::Null, "a cancelled hook never fails closed");
}
