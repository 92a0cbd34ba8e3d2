//! Building the task of one in-process handler: an http POST (§5.8), a host callback (§5.9) or
//! a registered function. The launcher decides what runs; these only package the work.

use super::{Answer, CallbackFn, HookFn, Task, callback_stdout, http};
use crate::catalog::HandlerType;
use serde_json::Value;
use std::time::Instant;

/// An http handler's POST of the payload.
pub fn http_post(
    url: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    deadline: Instant,
    max_output: usize,
) -> Task {
    let work = Box::new(move || http::post(&url, &headers, body, deadline, max_output));
    Task { work, deadline, max_output }
}

/// What a delegated handler's callback is asked.
pub struct Delegation<'a> {
    pub ty: HandlerType,
    /// The handler object as configured.
    pub handler: &'a Value,
    pub payload: &'a [u8],
    pub timeout_s: f64,
    /// For the blocking JSON a refusal turns into.
    pub event_name: &'static str,
    pub hook_id: String,
}

/// A delegated handler's call of the host's callback with `{type, handler, event, timeout_s}`.
pub fn callback(callback: CallbackFn, d: Delegation<'_>, deadline: Instant, max_output: usize) -> Task {
    let request = serde_json::json!({
        "type": d.ty.as_str(),
        "handler": d.handler,
        "event": String::from_utf8_lossy(d.payload),
        "timeout_s": d.timeout_s,
    });
    let (event_name, id) = (d.event_name, d.hook_id);
    let work = Box::new(move || match callback(&request) {
        Ok(reply) => match callback_stdout(&reply, event_name, &id) {
            Ok(text) => Answer::text(text),
            Err(why) => Answer::failed(why),
        },
        Err(why) => Answer::failed(format!("host callback failed: {why}")),
    });
    Task { work, deadline, max_output }
}

/// A registered function's call with the event text.
pub fn function(f: HookFn, payload: &[u8], deadline: Instant, max_output: usize) -> Task {
    let event_text = String::from_utf8_lossy(payload).into_owned();
    let work = Box::new(move || match f(&event_text) {
        Ok(text) => Answer::text(text),
        Err(why) => Answer::failed(format!("function hook failed: {why}")),
    });
    Task { work, deadline, max_output }
}
