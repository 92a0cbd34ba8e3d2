//! Which runner backend the engine starts hooks with, observed from a hook (docs/reliability.md,
//! "Runner backends"): the Linux backend watches each running hook through a pidfd, so the host
//! holds at least one while the hook runs; the portable backend (`portable-runner`, every other
//! Unix) never opens one. CI runs every core test file on each backend and names the one it means
//! in `HOOKWIRE_EXPECT_BACKEND`: a step that set the feature and the variable apart, or a build
//! whose feature did not reach the runner, fails here rather than testing one backend twice.
#![allow(clippy::unwrap_used)]

use hookwire_core::Dispatcher;
use serde_json::{Value, json};

/// The backend this build of the tests selects, by the same feature the runner reads.
fn built() -> &'static str {
    if cfg!(feature = "portable-runner") { "portable" } else { "linux" }
}

#[test]
fn hooks_run_on_the_backend_the_build_and_ci_name() {
    if let Ok(named) = std::env::var("HOOKWIRE_EXPECT_BACKEND") {
        assert_eq!(
            named,
            built(),
            "HOOKWIRE_EXPECT_BACKEND names another backend than this build's features select"
        );
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/hooks/parent-pidfds.sh");
    // Exec form: the hook's parent is this test process, not a shell in between.
    let handler = json!({"type": "command", "command": "/bin/sh", "args": [script], "timeout": 10});
    let d = Dispatcher::new(&json!({"hooks": {"Stop": [{"hooks": [handler]}]}}).to_string()).unwrap();
    let r: Value =
        serde_json::from_str(&d.fire_json(r#"{"hook_event_name":"Stop","cwd":"/"}"#).unwrap()).unwrap();
    let outcome = &r["outcomes"][0];
    assert_eq!(outcome["status"], "ok", "{r}");
    let pidfds: u32 = outcome["stdout"].as_str().unwrap().trim().parse().unwrap();
    match built() {
        "linux" => assert!(pidfds >= 1, "the Linux backend watches the hook through a pidfd: {r}"),
        _ => assert_eq!(pidfds, 0, "the portable backend opens no pidfd, the host holds {pidfds}: {r}"),
    }
}
