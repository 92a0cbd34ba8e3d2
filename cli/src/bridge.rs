//! `hookwire bridge --agent NAME`: the one command a user adds to any agent's hook
//! configuration. The agent runs it with its own payload on stdin; it runs the user's Claude
//! Code hooks (or the files named with `--hooks`) on the canonical event and answers on stdout
//! and with the exit code as that agent reads a hook of its own. This file only reads, fires
//! and prints: what the payload means and how each agent is answered are the core's
//! (`hookwire_core::bridge`).

use hookwire_core::Dispatcher;
use hookwire_core::bridge::{Answer, Bridge};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What the command line says.
pub struct Args<'a> {
    pub agent: &'a str,
    pub hooks: &'a [PathBuf],
    pub project_dir: Option<&'a Path>,
    pub event: Option<&'a str>,
}

/// Warnings go to stderr, one line each, after what the agent itself reads there.
fn warn(line: &str) {
    tell!("hookwire bridge: {line}");
}

/// Set in the environment of the hooks a bridge runs: a bridge started by one of them (a
/// Claude Code settings file holding `hookwire bridge --agent claude-code`) would run the same
/// hooks again, without end.
const NESTED: &str = "HOOKWIRE_BRIDGE_ACTIVE";

pub fn run(a: &Args<'_>) -> u8 {
    let bridge = match Bridge::for_agent(a.agent) {
        Ok(b) => b,
        Err(why) => {
            warn(&why);
            return 1;
        }
    };
    if std::env::var_os(NESTED).is_some() {
        warn(
            "started by a hook that a bridge runs: nothing ran (the same hooks would run again, without end)",
        );
        return 0;
    }
    // SAFETY: the process has one thread here (before the fire, its spinner and any fork).
    unsafe { std::env::set_var(NESTED, "1") };
    let (native, unread) = match read_stdin().and_then(|bytes| bridge.read_payload(&bytes, a.event)) {
        Ok(read) => read,
        Err(why) => return print(&bridge.failed(a.event, &why), &[]),
    };
    let name = native.get("hook_event_name").and_then(Value::as_str).map(str::to_string);
    let canonical = match bridge.canonical(&native) {
        Ok(Some(c)) => c,
        Ok(None) => {
            let event = name.as_deref().unwrap_or("");
            warn(&format!(
                "{event} is {}'s own event: Claude Code has no hook for it, nothing ran",
                bridge.name()
            ));
            return 0;
        }
        Err(why) => return print(&bridge.failed(name.as_deref(), &why), &[]),
    };
    // Said once per fire: an agent's tool name with no Claude Code name, arguments not whole.
    let mut warnings = bridge.warnings(&canonical);
    let dispatcher = match configuration(a, &canonical)
        .and_then(|v| Dispatcher::from_value(v).map_err(|e| e.to_string()))
    {
        Ok(d) => d,
        Err(why) => {
            return print(&bridge.failed(name.as_deref(), &format!("configuration: {why}")), &warnings);
        }
    };
    let detached = crate::oneshot::detach_if_async(&dispatcher, &canonical);
    let code = match dispatcher.fire(&canonical) {
        Ok(mut result) => {
            unread.settle(&mut result);
            warnings.extend(result.warnings.iter().cloned());
            print(&bridge.answer(&native, &canonical, &result), &warnings)
        }
        Err(e) => print(&bridge.failed(name.as_deref(), &e.to_string()), &warnings),
    };
    detached.finish(code, &dispatcher);
    code
}

/// The payload's bytes, at most one more than the bridge reads (so that a larger one is said),
/// ended by EOF or by the payload's own closing brace (an agent may keep the pipe open).
fn read_stdin() -> Result<Vec<u8>, String> {
    crate::stdin::read_json(std::io::stdin().lock(), hookwire_core::bridge::MAX_PAYLOAD_READ)
        .map_err(|e| format!("cannot read the payload from stdin: {e}"))
}

/// The configuration: the `--hooks` files, each read by its own dialect as `fire --config`
/// reads one; else Claude Code's user, project and local settings of the project (the
/// `--project-dir`, else the payload's `cwd`), the project's gated on the trust store.
fn configuration(a: &Args<'_>, event: &Value) -> Result<Value, String> {
    if !a.hooks.is_empty() {
        let mut sources = Vec::new();
        for path in a.hooks {
            if !path.exists() {
                return Err(format!("--hooks {}: no such file or directory", path.display()));
            }
            let text = crate::validate::text_of(path)
                .map_err(|f| format!("--hooks {}: {}", path.display(), f.details.message))?;
            let dialect = crate::validate::detect_for(path, &text, a.agent);
            // Absolute: the envelope resolves a relative source against its project directory
            // (the payload's `cwd`), where the file checked here may not be, and a source that
            // is missing there is skipped without a word: the guard would never run.
            let path = std::path::absolute(path).map_err(|e| format!("--hooks {}: {e}", path.display()))?;
            sources.push(json!({"scope": "session", "path": path.to_string_lossy(), "dialect": dialect}));
        }
        let dir = project_dir(a, event)?;
        return Ok(json!({"project_dir": dir.to_string_lossy(), "sources": sources}));
    }
    let dir = project_dir(a, event)?;
    hookwire_core::claude_code_defaults(&dir).map_err(|e| format!("project directory {}: {e}", dir.display()))
}

/// The project: `--project-dir`; else the project directory the agent gives its hooks
/// (`CLAUDE_PROJECT_DIR`, Gemini's `GEMINI_PROJECT_DIR`); else the nearest directory holding
/// a `.claude/` from the payload's `cwd` up (a tool's working directory may be below the
/// project root; the home directory's `.claude/` is the user's, never a project's); else the
/// payload's `cwd`; else the current directory.
fn project_dir(a: &Args<'_>, event: &Value) -> Result<PathBuf, String> {
    if let Some(d) = a.project_dir {
        return Ok(d.to_path_buf());
    }
    for var in ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"] {
        if let Some(d) = std::env::var_os(var).map(PathBuf::from).filter(|d| d.is_dir()) {
            return Ok(d);
        }
    }
    match event.get("cwd").and_then(Value::as_str).map(PathBuf::from) {
        Some(cwd) if cwd.is_dir() => Ok(nearest_project(&cwd).unwrap_or(cwd)),
        _ => std::env::current_dir().map_err(|e| format!("no current directory: {e}")),
    }
}

/// The nearest directory from `dir` up that holds a `.claude/` directory, the home directory
/// excluded.
fn nearest_project(dir: &Path) -> Option<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from).and_then(|h| h.canonicalize().ok());
    let start = dir.canonicalize().ok()?;
    start
        .ancestors()
        .take_while(|d| Some(*d) != home.as_deref())
        .find(|d| d.join(".claude").is_dir())
        .map(Path::to_path_buf)
}

/// Writes the answer: its stdout bytes, what the agent reads on stderr, then one line per
/// warning of the fire and per loss (none when stderr is the agent's reason of a blocking exit,
/// Windsurf's or Kiro's 2, Crush's halt 49, so that the reason stays the reason); returns its
/// exit code.
fn print(answer: &Answer, warnings: &[String]) -> u8 {
    let _ = std::io::stdout().lock().write_all(&answer.stdout);
    let _ = std::io::stdout().flush();
    if !answer.stderr.is_empty() {
        let _ = writeln!(std::io::stderr().lock(), "{}", answer.stderr);
    }
    let reason_on_stderr = answer.exit_code > 1 && !answer.stderr.is_empty();
    if !reason_on_stderr {
        for w in warnings {
            warn(&format!("warning: {w}"));
        }
        for l in &answer.losses {
            warn(&format!("warning: {l}"));
        }
    }
    u8::try_from(answer.exit_code).unwrap_or(1)
}
