//! `hookwire list`: the hooks a configuration resolves to (after layering, trust, switches and
//! dedup of sources), and for one event which of them would run and why. Nothing is run.

use crate::Failure;
use crate::config::{MAX_EVENT_BYTES, Source, parse_event, read_text_at_most};
use crate::paint::Paint;
use hookwire_core::{ErrorDetails, ErrorKind, HookInfo, PlanEntry};
use serde_json::{Value, json};
use std::path::Path;

/// The event to plan for: an event file, or a bare event name with an optional tool.
fn event_of(event: &str, tool: Option<&str>) -> Result<Value, Failure> {
    let path = Path::new(event);
    let mut v = if path.is_file() {
        parse_event(&read_text_at_most(path, MAX_EVENT_BYTES as u64)?, Some(event.to_string()))?.value
    } else {
        json!({"hook_event_name": event})
    };
    if let (Some(t), Some(obj)) = (tool, v.as_object_mut()) {
        obj.insert("tool_name".into(), json!(t));
        obj.entry("tool_input").or_insert_with(|| json!({}));
    }
    Ok(v)
}

/// A name no hook can be configured under (`PreTool`): an error, with the names it resembles.
fn unknown_event(name: &str, names: &[&str]) -> Failure {
    let lower = name.to_ascii_lowercase();
    let near: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| {
            let n = n.to_ascii_lowercase();
            !lower.is_empty() && (n.starts_with(&lower) || lower.starts_with(&n) || n.contains(&lower))
        })
        .take(5)
        .collect();
    let hint = if near.is_empty() {
        format!("; known events: {}", names.join(", "))
    } else {
        format!("; did you mean {}?", near.join(" or "))
    };
    let details = ErrorDetails::new(ErrorKind::InvalidEvent, format!("unknown event \"{name}\"{hint}"));
    Failure::new(details, None)
}

fn details(h: &HookInfo) -> String {
    let mut d = vec![h.ty.to_string(), h.dialect.to_string()];
    if let Some(t) = h.timeout_s {
        d.push(format!("timeout {t} s"));
    }
    for (on, what) in [(h.once, "once"), (h.is_async, "async"), (h.fail_closed, "fail-closed")] {
        if on {
            d.push(what.to_string());
        }
    }
    d.join(", ")
}

pub fn run(source: &Source, event: Option<&str>, tool: Option<&str>, json: bool) -> Result<u8, Failure> {
    let loaded = source.load()?;
    let d = &loaded.dispatcher;
    let p = Paint::stdout();
    match event {
        None => {
            let hooks = d.hooks();
            if json {
                say!("{}", json!({"hooks": hooks, "warnings": d.warnings()}));
                return Ok(0);
            }
            if hooks.is_empty() {
                say!("no hooks configured");
            }
            let mut last = "";
            for h in &hooks {
                if h.event != last {
                    let native = if h.native_event != h.event {
                        format!(" ({})", h.native_event)
                    } else {
                        String::new()
                    };
                    say!("{}{native}", p.bold(&h.event));
                    last = &h.event;
                }
                say!("  {}  {}", p.cyan(&h.hook), p.dim(&format!("from {}", h.source)));
                say!("      matcher  {}", h.matcher);
                say!("      command  {}", h.command);
                say!("      {}", p.dim(&details(h)));
            }
        }
        Some(e) => {
            let ev = event_of(e, tool)?;
            if let Some(name) = ev.get("hook_event_name").and_then(Value::as_str)
                && !d.knows_event(name)
            {
                return Err(unknown_event(name, &d.event_names()));
            }
            let plan: Vec<PlanEntry> = d.plan(&ev).map_err(|err| Failure::new(err.details(), None))?;
            if json {
                say!("{}", json!({"event": ev, "plan": plan, "warnings": d.warnings()}));
                return Ok(0);
            }
            let name = ev.get("hook_event_name").and_then(Value::as_str).unwrap_or(e);
            let tool = ev
                .get("tool_name")
                .and_then(Value::as_str)
                .map(|t| format!(" (tool {t})"))
                .unwrap_or_default();
            let runs = plan.iter().filter(|x| x.runs).count();
            say!("{}{tool}: {runs} of {} hooks would run", p.bold(name), plan.len());
            for x in &plan {
                let mark = if x.runs { p.green("runs   ") } else { p.dim("skipped") };
                say!("  {mark} {}  {}", p.cyan(&x.hook.hook), p.dim(&format!("from {}", x.hook.source)));
                say!("      command  {}", x.hook.command);
                say!("      why      {}", x.why);
            }
        }
    }
    if !d.warnings().is_empty() {
        say!("{}", p.bold("Warnings"));
        for w in d.warnings() {
            say!("  - {}", p.yellow(w));
        }
    }
    Ok(0)
}
