//! `fire` and `explain`: one dispatch, printed for a machine (the result JSON, and an exit code
//! that mirrors the decision) or for a person (each hook, how its output was read, how the
//! fold chose). The rendering only restates what the result says; it never re-decides.

use crate::Failure;
use crate::config::{Source, read_event};
use crate::oneshot::{self, Detached};
use crate::paint::Paint;
use crate::progress::Spinner;
use hookwire_core::{Decision, FireResult, Outcome, PlanEntry, Status, VerdictSource};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::Path;

/// The exit code of `fire` and `explain` (documented in `--help` and the README).
pub fn exit_code(result: &FireResult) -> u8 {
    match result.decision {
        Some(Decision::Deny | Decision::Block) => 2,
        _ => 0,
    }
}

fn event_name(event: &Value) -> String {
    event.get("hook_event_name").and_then(Value::as_str).unwrap_or("event").to_string()
}

fn event_file(path: Option<&Path>) -> Option<String> {
    match path {
        Some(p) if p != Path::new("-") => Some(p.display().to_string()),
        _ => Some("<stdin>".to_string()),
    }
}

/// One dispatch as `fire` and `explain` run it: the plan (for `explain`), then the fire, in a
/// detached child when it starts an async hook (`oneshot`).
struct Fired {
    loaded: crate::config::Loaded,
    event: Value,
    plan: Vec<PlanEntry>,
    result: FireResult,
    detached: Detached,
}

fn run(source: &Source, path: Option<&Path>, with_plan: bool) -> Result<Fired, Failure> {
    let loaded = source.load()?;
    let crate::config::Event { value: event, clipped } = read_event(path)?;
    let d = &loaded.dispatcher;
    // The plan is read before the fire, so `once` hooks are shown as they were when it started.
    let plan = if with_plan {
        d.plan(&event).map_err(|e| Failure::new(e.details(), event_file(path)))?
    } else {
        Vec::new()
    };
    let detached = oneshot::detach_if_async(d, &event);
    let spinner = Spinner::start(format!("running hooks for {}", event_name(&event)));
    let result = d.fire(&event);
    spinner.stop();
    let mut result = result.map_err(|e| Failure::new(e.details(), event_file(path)))?;
    result.warnings.extend(clipped);
    Ok(Fired { loaded, event, plan, result, detached })
}

/// `hookwire fire`: the result JSON on stdout.
pub fn fire(source: &Source, path: Option<&Path>, pretty: bool, _json: bool) -> Result<u8, Failure> {
    let Fired { loaded, result, detached, .. } = run(source, path, false)?;
    let text = if pretty { serde_json::to_string_pretty(&result) } else { serde_json::to_string(&result) };
    say!("{}", text.unwrap_or_else(|_| result.to_json()));
    let code = exit_code(&result);
    detached.finish(code, &loaded.dispatcher);
    Ok(code)
}

/// `hookwire explain`: the same dispatch, told step by step.
pub fn explain(source: &Source, path: Option<&Path>, json: bool) -> Result<u8, Failure> {
    let Fired { loaded, event, plan, result, detached } = run(source, path, true)?;
    if json {
        say!("{}", json!({"plan": plan, "result": result}));
    } else {
        say!("{}", render(&result, &plan, &loaded.dialect, &event, Paint::stdout()).trim_end());
    }
    let code = exit_code(&result);
    detached.finish(code, &loaded.dispatcher);
    Ok(code)
}

fn decision_str(d: Option<Decision>) -> &'static str {
    match d {
        None => "no decision",
        Some(Decision::Allow) => "allow",
        Some(Decision::Deny) => "deny",
        Some(Decision::Ask) => "ask",
        Some(Decision::Defer) => "defer",
        Some(Decision::Block) => "block",
    }
}

fn paint_decision(p: Paint, d: Option<Decision>) -> String {
    let s = decision_str(d);
    match d {
        Some(Decision::Deny | Decision::Block) => p.red(&p.bold(s)),
        Some(Decision::Ask | Decision::Defer) => p.yellow(&p.bold(s)),
        Some(Decision::Allow) => p.green(&p.bold(s)),
        None => p.bold(s),
    }
}

/// A value quoted on one line, cut to a readable length.
fn quote(s: &str) -> String {
    const MAX: usize = 160;
    let one_line = s.trim().replace('\n', "⏎");
    match one_line.char_indices().nth(MAX) {
        None => format!("{one_line:?}"),
        Some((cut, _)) => format!("{:?}…", &one_line[..cut]),
    }
}

/// Captured text indented under a label, at most a few lines.
fn said(out: &mut String, label: &str, text: &str, truncated: bool) {
    const LINES: usize = 6;
    let text = text.trim_end();
    if text.trim().is_empty() {
        return;
    }
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().take(LINES).enumerate() {
        let head = if i == 0 { label } else { "" };
        let _ = writeln!(out, "     {head:<9}| {line}");
    }
    if lines.len() > LINES {
        let _ = writeln!(out, "     {:<9}| … {} more lines", "", lines.len() - LINES);
    }
    if truncated {
        let _ = writeln!(out, "     {:<9}| … cut at max_output_bytes", "");
    }
}

fn ended(o: &Outcome) -> String {
    let ms = format!("{:.1} ms", o.duration_ms);
    match o.status {
        Status::Ok => match o.exit_code {
            Some(c) => format!("exit {c} after {ms}"),
            None if o.http_status.is_some() => format!("HTTP {} after {ms}", o.http_status.unwrap_or(0)),
            None => format!("done after {ms}"),
        },
        Status::TimedOut => {
            format!("timed out after {ms}, its process group killed: {}", o.error.as_deref().unwrap_or(""))
        }
        Status::SpawnFailed => format!("could not start: {}", o.error.as_deref().unwrap_or("spawn failed")),
        Status::Async => format!("started in the background ({ms}); it runs to completion after this result"),
        Status::Error => format!("failed after {ms}: {}", o.error.as_deref().unwrap_or("error")),
        Status::Cancelled => format!("cancelled by the host after {ms}"),
        Status::Deferred => "deferred: it runs once at the session's turn end (its next Stop), with every event deferred to it".into(),
    }
}

fn source_str(s: VerdictSource) -> &'static str {
    match s {
        VerdictSource::Json => "its JSON output",
        VerdictSource::Text => "its plain-text stdout",
        VerdictSource::ExitCode => "its exit code",
        VerdictSource::Failure => "its failure (fail-closed)",
        VerdictSource::None => "nothing",
    }
}

/// How one verdict was read, as lines after `read as`.
fn reading(o: &Outcome, p: Paint) -> Vec<String> {
    let v = &o.verdict;
    if v.source == VerdictSource::None {
        let why = match o.status {
            Status::Ok => "no effect (nothing to read)",
            Status::Async => "no effect on this fire (async)",
            _ => "no effect: a failed hook does not decide (fail-open)",
        };
        return vec![why.to_string()];
    }
    let mut lines = Vec::new();
    let mut head = format!("{} → {}", source_str(v.source), paint_decision(p, v.decision));
    if let Some(r) = &v.reason {
        let _ = write!(head, ", reason {}", quote(r));
    }
    if v.blocking {
        head.push_str(" (blocking)");
    }
    lines.push(head);
    if !v.continue_ {
        let why = v.stop_reason.as_deref().map(quote).unwrap_or_else(|| "no reason".into());
        lines.push(format!("continue: false (stop the agent): {why}"));
    }
    if let Some(c) = &v.additional_context {
        lines.push(format!("additional context {}", quote(c)));
    }
    if let Some(m) = &v.system_message {
        lines.push(format!("system message {}", quote(m)));
    }
    if let Some(u) = &v.updated_input {
        lines.push(format!("updated input {}", quote(&u.to_string())));
    }
    if let Some(u) = &v.updated_tool_output {
        lines.push(format!("updated tool output {}", quote(&u.to_string())));
    }
    if v.suppress_output {
        lines.push("suppress output".to_string());
    }
    for (k, val) in &v.extra {
        lines.push(format!("extra {k} = {}", quote(&val.to_string())));
    }
    lines
}

fn precedence(event: &str) -> &'static str {
    match event {
        "PreToolUse" => "deny > defer > ask > allow",
        "PermissionRequest" => "deny > allow",
        _ => "block if any hook blocks",
    }
}

/// Which hooks (1-based positions) contributed a value, as `hook 1, hook 3`.
fn hooks_with(outcomes: &[Outcome], has: impl Fn(&Outcome) -> bool) -> String {
    let n: Vec<String> =
        outcomes.iter().enumerate().filter(|(_, o)| has(o)).map(|(i, _)| format!("hook {}", i + 1)).collect();
    if n.is_empty() { "the fold".to_string() } else { n.join(", ") }
}

/// The whole explanation of one fire, as text.
pub fn render(r: &FireResult, plan: &[PlanEntry], dialect: &str, event: &Value, p: Paint) -> String {
    let mut out = String::new();
    let tool =
        event.get("tool_name").and_then(Value::as_str).map(|t| format!(" (tool {t})")).unwrap_or_default();
    let _ = writeln!(out, "{}{tool} → {}", p.bold(&r.event), paint_decision(p, r.decision));
    if let Some(reason) = &r.reason {
        let _ = writeln!(out, "  reason: {reason}");
    }
    let _ = writeln!(out);

    let ran = r.outcomes.len();
    let _ =
        writeln!(out, "{} ({} configured for this event, {ran} ran)", p.bold("Hooks"), plan.len().max(ran));
    if plan.is_empty() && ran == 0 {
        let _ = writeln!(out, "  no hook is configured for {}", r.event);
    }
    for (i, o) in r.outcomes.iter().enumerate() {
        let entry = plan.iter().find(|e| e.hook.hook == o.hook);
        let from = entry.map(|e| format!(" ({}, {})", e.hook.source, e.hook.dialect)).unwrap_or_default();
        let _ = writeln!(out, "  {}. {}{}", i + 1, p.cyan(&o.hook), p.dim(&from));
        let _ = writeln!(out, "     command  | {}", o.command);
        if let Some(e) = entry {
            let _ = writeln!(out, "     matched  | {}", e.why);
        }
        let _ = writeln!(out, "     ran      | {}", ended(o));
        if o.stdout.trim().is_empty() && o.stderr.trim().is_empty() {
            let _ = writeln!(out, "     said     | nothing");
        }
        said(&mut out, "stdout", &o.stdout, o.stdout_truncated);
        said(&mut out, "stderr", &o.stderr, o.stderr_truncated);
        if let Some(e) = &o.error
            && o.status == Status::Ok
        {
            let _ = writeln!(out, "     problem  | {e}");
        }
        for (k, line) in reading(o, p).iter().enumerate() {
            let head = if k == 0 { "read as" } else { "" };
            let _ = writeln!(out, "     {head:<9}| {line}");
        }
    }
    let skipped: Vec<&PlanEntry> =
        plan.iter().filter(|e| !r.outcomes.iter().any(|o| o.hook == e.hook.hook)).collect();
    if !skipped.is_empty() {
        let _ = writeln!(out, "  not run:");
        for e in skipped {
            let why = if !e.runs {
                e.why.clone()
            } else if dialect == "claude-code" {
                "matched, but an identical command ran already (deduplicated)".to_string()
            } else {
                "matched, but not reached: the fold stopped earlier".to_string()
            };
            let _ = writeln!(out, "     - {} ({}): {why}", p.cyan(&e.hook.hook), e.hook.command);
        }
    }
    let _ = writeln!(out);

    let _ = writeln!(out, "{} ({dialect})", p.bold("Fold"));
    let _ = writeln!(out, "  strategy   {}", hookwire_core::dialect_fold_summary(dialect).unwrap_or("-"));
    let sync: Vec<(usize, &Outcome)> =
        r.outcomes.iter().enumerate().filter(|(_, o)| o.status != Status::Async).collect();
    let votes: Vec<String> =
        sync.iter().map(|(i, o)| format!("hook {} {}", i + 1, decision_str(o.verdict.decision))).collect();
    if !votes.is_empty() {
        let _ = writeln!(out, "  verdicts   {}", votes.join(", "));
    }
    match r.decision {
        None => {
            let _ = writeln!(out, "  decision   no decision: no hook allowed, denied, asked or blocked");
        }
        Some(d) => {
            let decider = sync.iter().find(|(_, o)| o.verdict.decision == Some(d));
            let by = match decider {
                Some((i, _)) => format!(
                    "hook {}, the first in configuration order that says {}",
                    i + 1,
                    decision_str(Some(d))
                ),
                None => "the fold".to_string(),
            };
            let rule =
                if dialect == "claude-code" { format!(" ({})", precedence(&r.event)) } else { String::new() };
            let _ = writeln!(out, "  decision   {}{rule}, decided by {by}", paint_decision(p, Some(d)));
        }
    }
    if !r.continue_ {
        let by = hooks_with(&r.outcomes, |o| !o.verdict.continue_);
        let why = r.stop_reason.as_deref().map(quote).unwrap_or_else(|| "no reason".into());
        let _ =
            writeln!(out, "  continue   false, from {by}: the agent stops ({why}); this beats any decision");
    }
    if let Some(u) = &r.updated_input {
        let by = r.outcomes.iter().rposition(|o| o.verdict.updated_input.as_ref() == Some(u));
        let by = by.map(|i| format!("hook {}", i + 1)).unwrap_or_else(|| "the fold".into());
        let _ = writeln!(out, "  input      rewritten to {}, from {by}", quote(&u.to_string()));
    }
    if let Some(u) = &r.updated_tool_output {
        let _ = writeln!(out, "  tool out   replaced by {}", quote(&u.to_string()));
    }
    if let Some(c) = &r.additional_context {
        let by = hooks_with(&r.outcomes, |o| o.verdict.additional_context.is_some());
        let _ = writeln!(out, "  context    {} (from {by}, joined in configuration order)", quote(c));
    }
    if let Some(m) = &r.system_message {
        let by = hooks_with(&r.outcomes, |o| o.verdict.system_message.is_some());
        let _ = writeln!(out, "  message    {} (from {by})", quote(m));
    }
    if r.suppress_output {
        let _ = writeln!(out, "  suppress   the tool output is hidden from the transcript");
    }
    for (k, v) in &r.extra {
        let _ = writeln!(out, "  extra      {k} = {}", quote(&v.to_string()));
    }
    for (k, v) in &r.env {
        let _ = writeln!(out, "  env        {k} = {}", quote(&v.to_string()));
    }
    if let Some(c) = &r.pending_context {
        let _ = writeln!(out, "  pending    {} (from async hooks of earlier fires)", quote(c));
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(out);
        let _ = writeln!(out, "{}", p.bold("Warnings"));
        for w in &r.warnings {
            let _ = writeln!(out, "  - {}", p.yellow(w));
        }
    }
    out
}
