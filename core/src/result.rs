//! The result of one fire (protocol.md §8): every key always present, in the documented
//! order, snake_case throughout, outcomes in configuration order.

use crate::config::Handler;
use crate::fold::Folded;
use crate::runner::{End, RunResult};
use crate::verdict::{Decision, Reading, Status, Verdict};
use serde::Serialize;
use serde_json::{Map, Value};

/// The result JSON of one fire. Serialises to exactly the keys of protocol.md §8.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FireResult {
    pub event: String,
    pub decision: Option<Decision>,
    pub reason: Option<String>,
    #[serde(rename = "continue")]
    pub continue_: bool,
    pub stop_reason: Option<String>,
    pub updated_input: Option<Value>,
    pub updated_tool_output: Option<Value>,
    pub additional_context: Option<String>,
    pub system_message: Option<String>,
    pub suppress_output: bool,
    pub env: Map<String, Value>,
    pub extra: Map<String, Value>,
    pub pending_context: Option<String>,
    pub warnings: Vec<String>,
    pub outcomes: Vec<Outcome>,
    pub async_outcomes: Vec<Outcome>,
}

/// What happened to one hook in one fire.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub hook: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub command: String,
    pub status: Status,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub http_status: Option<u16>,
    pub timed_out: bool,
    pub duration_ms: f64,
    pub stdout: String,
    pub stderr: String,
    pub stdout_truncated: bool,
    pub stderr_truncated: bool,
    pub stdout_lossy: bool,
    pub stderr_lossy: bool,
    pub status_message: Option<String>,
    pub verdict: Verdict,
    pub error: Option<String>,
}

impl FireResult {
    /// A result with nothing in it, for `event`.
    pub fn empty(event: &str) -> FireResult {
        FireResult {
            event: event.to_string(),
            decision: None,
            reason: None,
            continue_: true,
            stop_reason: None,
            updated_input: None,
            updated_tool_output: None,
            additional_context: None,
            system_message: None,
            suppress_output: false,
            env: Map::new(),
            extra: Map::new(),
            pending_context: None,
            warnings: Vec::new(),
            outcomes: Vec::new(),
            async_outcomes: Vec::new(),
        }
    }

    /// The compact result JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            // Serialising plain data with string keys cannot fail; keep a valid answer anyway.
            format!(
                "{{\"event\":{},\"warnings\":[{}]}}",
                Value::String(self.event.clone()),
                Value::String(format!("result could not be serialised: {e}"))
            )
        })
    }
}

impl FireResult {
    /// Takes the fold's decision block and warnings.
    pub fn apply(&mut self, f: Folded) {
        self.decision = f.decision;
        self.reason = f.reason;
        self.continue_ = f.continue_;
        self.stop_reason = f.stop_reason;
        self.updated_input = f.updated_input;
        self.updated_tool_output = f.updated_tool_output;
        self.additional_context = f.additional_context;
        self.system_message = f.system_message;
        self.suppress_output = f.suppress_output;
        self.extra = f.extra;
        self.warnings.extend(f.warnings);
    }
}

impl Outcome {
    /// The outcome of a hook that has not ended in this fire: an async hook's, or the template
    /// a finished one fills in.
    pub fn started(h: &Handler, command: String) -> Outcome {
        Outcome {
            hook: h.id.clone(),
            ty: h.ty.as_str().to_string(),
            command,
            status: Status::Async,
            exit_code: None,
            signal: None,
            http_status: None,
            timed_out: false,
            duration_ms: 0.0,
            stdout: String::new(),
            stderr: String::new(),
            stdout_truncated: false,
            stderr_truncated: false,
            stdout_lossy: false,
            stderr_lossy: false,
            status_message: h.status_message.clone(),
            verdict: Verdict::default(),
            error: None,
        }
    }

    /// The outcome of a finished hook, as it ran and as its dialect read it.
    pub fn finished(h: &Handler, command: String, run: &RunResult, reading: &Reading) -> Outcome {
        let mut o = Outcome::started(h, command);
        o.fill(run, reading);
        o
    }

    /// Fills in how the hook ended and what it said.
    pub fn fill(&mut self, run: &RunResult, reading: &Reading) {
        self.status = reading.status;
        self.exit_code = match run.end {
            End::Exited(c) => Some(c),
            _ => None,
        };
        self.signal = match run.end {
            End::Signaled(s) => Some(s),
            _ => None,
        };
        self.timed_out = matches!(run.end, End::TimedOut { .. });
        self.http_status = run.http_status;
        self.duration_ms = millis(run.duration);
        self.stdout = run.stdout.text.clone();
        self.stderr = run.stderr.text.clone();
        self.stdout_truncated = run.stdout.truncated;
        self.stderr_truncated = run.stderr.truncated;
        self.stdout_lossy = run.stdout.lossy;
        self.stderr_lossy = run.stderr.lossy;
        self.verdict = reading.verdict.clone();
        self.error = reading.error.clone();
    }
}

/// Milliseconds at 0.1 ms resolution.
pub fn millis(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 10_000.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_present_in_the_documented_order() {
        let json = FireResult::empty("Stop").to_json();
        let keys = [
            "event",
            "decision",
            "reason",
            "continue",
            "stop_reason",
            "updated_input",
            "updated_tool_output",
            "additional_context",
            "system_message",
            "suppress_output",
            "env",
            "extra",
            "pending_context",
            "warnings",
            "outcomes",
            "async_outcomes",
        ];
        let mut last = 0;
        for k in keys {
            let at = json.find(&format!("\"{k}\":")).unwrap_or_else(|| panic!("{k} missing in {json}"));
            assert!(at >= last, "{k} out of order");
            last = at;
        }
    }
}
