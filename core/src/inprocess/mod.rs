//! Handlers that are not processes (protocol.md §5.8, §5.9; issue 8): http POSTs, the host's
//! callbacks for `prompt`, `agent` and `mcp_tool`, and functions the host registered as hooks.
//! Each runs on a thread of its own and is waited for against its deadline; its answer becomes
//! the same (end, stdout) a command gives, so reading and folding stay written once.
//!
//! A thread cannot be killed: one that overruns its deadline is reported `timed_out` and left
//! to finish on its own; its late answer is dropped.

mod function_hook;
pub mod http;
mod registry;
pub mod tasks;

pub use registry::{Registered, Registry};

pub use function_hook::FunctionHook;

use crate::runner::{Cancel, Capture, End, RunResult, Text};
use serde_json::Value;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A host function registered as a hook: gets the event JSON, answers what a command hook
/// would print on stdout (JSON or text), or an error.
pub type HookFn = Arc<dyn Fn(&str) -> Result<String, String> + Send + Sync>;

/// A host callback for delegated handlers: gets `{type, handler, event, timeout_s}` and answers
/// `{"text": ...}` (mcp_tool) or `{"ok": bool, "reason"?, "impossible"?}` (prompt, agent).
pub type CallbackFn = Arc<dyn Fn(&Value) -> Result<Value, String> + Send + Sync>;

/// What an in-process handler said.
pub struct Answer {
    pub end: End,
    pub stdout: String,
    pub http_status: Option<u16>,
}

impl Answer {
    pub fn text(stdout: String) -> Answer {
        Answer { end: End::Exited(0), stdout, http_status: None }
    }
    pub fn failed(why: impl Into<String>) -> Answer {
        Answer { end: End::Failed(why.into()), stdout: String::new(), http_status: None }
    }
}

/// One in-process handler to run.
pub struct Task {
    pub work: Box<dyn FnOnce() -> Answer + Send>,
    pub deadline: Instant,
    pub max_output: usize,
}

/// Answers handed from handler threads to the waiting fire. A mutex and a condvar rather than
/// a channel: an mpsc wait leaves a thread handle in the caller's thread-local storage, which
/// a C host's main thread never frees (valgrind reports it).
#[derive(Default)]
struct Inbox {
    answers: Mutex<Vec<(usize, Answer)>>,
    ready: Condvar,
}

/// In-process handlers started and not yet collected.
pub struct Pending {
    inbox: Arc<Inbox>,
    slots: Vec<Option<(Instant, Instant, usize)>>,
    results: Vec<Option<RunResult>>,
}

fn result_of(answer: Answer, started: Instant, max_output: usize) -> RunResult {
    let mut cap = Capture::new(max_output);
    cap.push(answer.stdout.as_bytes());
    RunResult {
        end: answer.end,
        stdout: cap.finish(),
        stderr: Text::default(),
        duration: started.elapsed(),
        http_status: answer.http_status,
    }
}

/// Starts every task on its own thread; collect with [`Pending::wait`].
pub fn start(tasks: Vec<Task>) -> Pending {
    let inbox = Arc::new(Inbox::default());
    let mut slots = Vec::with_capacity(tasks.len());
    let mut results = Vec::with_capacity(tasks.len());
    for (i, task) in tasks.into_iter().enumerate() {
        let inbox_for_thread = Arc::clone(&inbox);
        let started = Instant::now();
        let work = task.work;
        let spawned = std::thread::Builder::new().name("hookwire-handler".into()).spawn(move || {
            // A panicking host function must not leave the fire waiting out the deadline.
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
                .unwrap_or_else(|_| Answer::failed("the handler panicked"));
            let mut answers = inbox_for_thread.answers.lock().unwrap_or_else(|e| e.into_inner());
            answers.push((i, answer));
            inbox_for_thread.ready.notify_all();
        });
        match spawned {
            Ok(_) => {
                slots.push(Some((started, task.deadline, task.max_output)));
                results.push(None);
            }
            Err(e) => {
                slots.push(None);
                results.push(Some(result_of(
                    Answer {
                        end: End::SpawnFailed(format!("no thread: {e}")),
                        stdout: String::new(),
                        http_status: None,
                    },
                    started,
                    0,
                )));
            }
        }
    }
    Pending { inbox, slots, results }
}

impl Pending {
    /// Waits for every answer, each no longer than its deadline; a cancel ends the wait at once.
    pub fn wait(mut self, cancel: Option<&Cancel>) -> Vec<RunResult> {
        loop {
            let now = Instant::now();
            for (i, slot) in self.slots.iter_mut().enumerate() {
                if let Some((started, deadline, _)) = *slot {
                    let cancelled = cancel.is_some_and(Cancel::is_cancelled);
                    if now >= deadline || cancelled {
                        let end = if cancelled && now < deadline {
                            End::Cancelled { started: true }
                        } else {
                            End::TimedOut { started: true }
                        };
                        self.results[i] = Some(result_of(
                            Answer { end, stdout: String::new(), http_status: None },
                            started,
                            0,
                        ));
                        *slot = None;
                    }
                }
            }
            let Some(next) = self.slots.iter().flatten().map(|(_, d, _)| *d).min() else { break };
            let mut wait = next.saturating_duration_since(now);
            if cancel.is_some() {
                wait = wait.min(Duration::from_millis(20));
            }
            let arrived: Vec<(usize, Answer)> = {
                let guard = self.inbox.answers.lock().unwrap_or_else(|e| e.into_inner());
                let (mut guard, _) = self
                    .inbox
                    .ready
                    .wait_timeout_while(guard, wait, |a| a.is_empty())
                    .unwrap_or_else(|e| e.into_inner());
                std::mem::take(&mut *guard)
            };
            for (i, answer) in arrived {
                if let Some((started, _, max_output)) = self.slots[i].take() {
                    self.results[i] = Some(result_of(answer, started, max_output));
                }
            }
        }
        self.results
            .into_iter()
            .map(|r| {
                r.unwrap_or_else(|| RunResult {
                    end: End::Failed("the handler ended without an answer".into()),
                    stdout: Text::default(),
                    stderr: Text::default(),
                    duration: Duration::ZERO,
                    http_status: None,
                })
            })
            .collect()
    }
}

/// The outcome's `command` text of a delegated handler: `prompt`, `agent`, `mcp_tool s/t`.
pub fn delegated_label(handler: &Value) -> String {
    let s = |k: &str| handler.get(k).and_then(Value::as_str).unwrap_or("");
    match s("type") {
        "mcp_tool" => format!("mcp_tool {}/{}", s("server"), s("tool")),
        other => other.to_string(),
    }
}

/// Turns a callback's reply into what a command would have printed (§5.9): `{"text"}` is
/// stdout as is; `{"ok": false}` becomes the event's blocking JSON; `{"ok": true}` is nothing.
pub fn callback_stdout(reply: &Value, event_name: &str, hook_id: &str) -> Result<String, String> {
    if let Some(text) = reply.get("text") {
        return match text {
            Value::String(s) => Ok(s.clone()),
            other => Ok(other.to_string()),
        };
    }
    let Some(ok) = reply.get("ok").and_then(Value::as_bool) else {
        return Err("the host callback answered neither {\"text\"} nor {\"ok\"}".into());
    };
    if ok {
        return Ok(String::new());
    }
    let reason = reply
        .get("reason")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map_or_else(|| format!("blocked by {hook_id}"), str::to_string);
    let impossible = reply.get("impossible").and_then(Value::as_bool) == Some(true);
    Ok(match event_name {
        "PreToolUse" => serde_json::json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})
        .to_string(),
        "Stop" | "SubagentStop" if impossible => String::new(),
        "Stop"
        | "SubagentStop"
        | "PostToolUse"
        | "PostToolUseFailure"
        | "PostToolBatch"
        | "UserPromptSubmit"
        | "UserPromptExpansion"
        | "TaskCreated" => serde_json::json!({"decision": "block", "reason": reason}).to_string(),
        _ => String::new(),
    })
}
