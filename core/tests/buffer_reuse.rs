//! The process-wide buffer pool across whole fires. Its own test binary, and one test in it:
//! the pool is shared by every fire of the process, so counts are only exact when nothing
//! else fires at the same time.

use hookwire_core::{Dispatcher, buffer_pool};
use serde_json::{Value, json};

fn event(round: usize, len: usize) -> String {
    let content: String = (0..len).map(|i| char::from(b'a' + ((i + round) % 26) as u8)).collect();
    json!({"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"content": content}})
        .to_string()
}

/// A fire whose result is written as text gives its large output buffer back, and the next
/// fire's large output is read into it, and its result text written into another given back:
/// same bytes every round, and the pool never grows past what one fire uses (issue 20).
#[test]
fn large_buffers_are_kept_between_fires_and_every_output_is_intact() {
    let d = Dispatcher::new(
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/bin/cat","args":[]}]}]}}"#,
    )
    .unwrap();
    for round in 0..4 {
        let event = event(round, 300_000);
        let text = d.fire_json(&event).unwrap();
        let result: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(result["outcomes"][0]["stdout"].as_str(), Some(event.as_str()), "round {round}");
        // The output's buffer came back; the text's buffer is the caller's until given back.
        assert_eq!(buffer_pool::kept(), 1, "round {round}");
        buffer_pool::give(text.into_bytes());
        assert_eq!(buffer_pool::kept(), 2, "round {round}");
    }
    // A fire whose outcomes go to the caller takes a kept buffer and gives nothing back.
    let event: Value = serde_json::from_str(&event(9, 100_000)).unwrap();
    assert_eq!(d.fire(&event).unwrap().outcomes[0].stdout, event.to_string());
    assert_eq!(buffer_pool::kept(), 1);
}
