//! `hookwire validate`: loads each settings file on its own, in its dialect, with
//! `strict_files` so the engine reports its first problem as an error, then without it so every
//! other problem shows too; each diagnostic names the file, line, column and JSON pointer.
//! The rules of what is wrong are the core's; this module detects dialects and locates text.

use crate::Failure;
use crate::config::read_text;
use crate::locate;
use crate::paint::Paint;
use hookwire_core::{Dispatcher, ErrorDetails};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const DIALECTS: &[&str] = &["claude-code", "jcode", "neocode", "ok", "j-cli", "ub"];
const UB_TRIGGERS: &[&str] = &["pre_tool_call", "post_tool_call", "pre_user_turn", "post_user_turn"];

/// The dialect of a settings file, from its path and content (the README documents the rule).
pub fn detect(path: &Path, text: &str) -> &'static str {
    let shown = path.to_string_lossy().replace('\\', "/");
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if ext == "yaml" || ext == "yml" {
        let keys = yaml_keys(text);
        let has = |k: &str| keys.iter().any(|(_, key)| key == k);
        let top = |k: &str| keys.iter().any(|(indent, key)| *indent == 0 && key == k);
        if top("items") || top("runtime") || has("items") {
            "neocode"
        } else if top("hooks") && UB_TRIGGERS.iter().any(|t| has(t)) {
            "ub"
        } else {
            "j-cli"
        }
    } else if shown.contains(".jcode/") {
        "jcode"
    } else if shown.contains(".ok/") {
        "ok"
    } else {
        "claude-code"
    }
}

/// The mapping keys of a YAML (or JSON) text with their indentation; a light scan that is
/// enough to tell the dialects apart, not a parser.
fn yaml_keys(text: &str) -> Vec<(usize, String)> {
    if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(text) {
        let mut out = Vec::new();
        for (k, v) in &m {
            out.push((0, k.clone()));
            if let Value::Object(inner) = v {
                out.extend(inner.keys().map(|k| (2, k.clone())));
            }
        }
        return out;
    }
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let indent = l.len() - l.trim_start().len();
            let body = l.trim_start().trim_start_matches("- ");
            let (key, _) = body.split_once(':')?;
            let key = key.trim().trim_matches(|c| c == '"' || c == '\'');
            (!key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
                .then(|| (indent, key.to_string()))
        })
        .collect()
}

/// One diagnostic of one file.
struct Diagnostic {
    error: bool,
    kind: String,
    message: String,
    line: Option<u64>,
    column: Option<u64>,
    pointer: Option<String>,
}

impl Diagnostic {
    fn json(&self) -> Value {
        json!({"kind": self.kind, "message": self.message, "line": self.line,
               "column": self.column, "pointer": self.pointer})
    }
}

/// `invalid JSON at 2:3: ...` / `invalid YAML at 2:3: ...` → (2, 3).
fn at_line_col(message: &str) -> Option<(u64, u64)> {
    let rest = &message[message.find(" at ")? + 4..];
    let (l, rest) = rest.split_once(':')?;
    let c: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((l.trim().parse().ok()?, c.parse().ok()?))
}

/// `invalid JSON at 3:20: expected value at line 3 column 20` → `invalid JSON: expected value`
/// (the position is printed in front already).
fn tidy(message: &str) -> String {
    let Some((l, c)) = at_line_col(message) else { return message.to_string() };
    let head = format!(" at {l}:{c}");
    let mut m = message.replacen(&head, "", 1);
    if let Some(i) = m.rfind(" at line ") {
        m.truncate(i);
    }
    m
}

fn envelope(path: &Path, dialect: &str, strict: bool) -> Value {
    json!({
        "dialect": dialect,
        "strict_files": strict,
        "sources": [{"scope": "user", "path": path.to_string_lossy(), "dialect": dialect}]
    })
}

/// The engine's error for a file, made relative to the file (not to the envelope around it).
fn from_error(d: &ErrorDetails, label: &str, text: &str, is_json: bool) -> Diagnostic {
    let mut message = d.message.clone();
    let mut pointer = d.pointer.clone();
    let (mut line, mut column) = (d.line, d.column);
    if pointer.as_deref() == Some("/sources/0/path") {
        // The file itself did not parse: the pointer is the envelope's, the position is in the
        // message (`/sources/0/path: user <file>: invalid JSON at 3:20: ...`).
        pointer = None;
        let rest = message.strip_prefix("/sources/0/path: ").unwrap_or(&message);
        message = tidy(rest.strip_prefix(label).unwrap_or(rest));
        if let Some((l, c)) = at_line_col(&d.message) {
            (line, column) = (Some(l), Some(c));
        }
    } else if let Some(ptr) = &pointer {
        if let Some(rest) = message.strip_prefix(&format!("{ptr}: ")) {
            message = rest.to_string();
        }
        if is_json && let Some((l, c)) = locate::pointer(text, ptr) {
            (line, column) = (Some(l as u64), Some(c as u64));
        }
    }
    Diagnostic { error: true, kind: d.kind.as_str().to_string(), message, line, column, pointer }
}

/// A load warning: problems the engine dropped (`... (at /ptr); dropped`) are errors of the
/// file; the rest (unknown events, ignored keys, ...) stay warnings.
fn from_warning(w: &str, label: &str, text: &str, is_json: bool) -> Diagnostic {
    let raw = w.strip_prefix(label).unwrap_or(w);
    let error = raw.ends_with("; dropped") || raw.ends_with("; source skipped");
    let at = raw.rfind(" (at /").or_else(|| raw.rfind(" (at )"));
    let pointer = at.and_then(|i| raw[i + 5..].split_once(')').map(|(p, _)| p.to_string()));
    let message = match at {
        Some(i) if error => raw[..i].to_string(),
        _ => tidy(raw.strip_suffix("; source skipped").unwrap_or(raw)),
    };
    let (mut line, mut column) = (None, None);
    if let Some((l, c)) = at_line_col(raw) {
        (line, column) = (Some(l), Some(c));
    } else if is_json && let Some((l, c)) = pointer.as_deref().and_then(|p| locate::pointer(text, p)) {
        (line, column) = (Some(l as u64), Some(c as u64));
    }
    let kind = if error { "invalid_config" } else { "warning" }.to_string();
    Diagnostic { error, kind, message, line, column, pointer }
}

/// Groups whose matcher can never match (an invalid regex). The engine keeps that warning for
/// the fires of its event; the resolved hooks show it as a `never (...)` matcher.
fn never_matching(d: &Dispatcher) -> Vec<Diagnostic> {
    d.hooks()
        .into_iter()
        .filter(|h| h.matcher.starts_with("never"))
        .map(|h| Diagnostic {
            error: false,
            kind: "warning".to_string(),
            message: format!("{}: matcher is {}: this hook never runs", h.hook, h.matcher),
            line: None,
            column: None,
            pointer: None,
        })
        .collect()
}

fn check(path: &Path, dialect: &str, text: &str) -> Vec<Diagnostic> {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let label = format!("user {}: ", abs.to_string_lossy());
    let is_json =
        serde_json::from_str::<Value>(text).is_ok() || !matches!(dialect, "neocode" | "j-cli" | "ub");
    let mut out = Vec::new();
    let first = match Dispatcher::from_value(envelope(&abs, dialect, true)) {
        Ok(d) => {
            out.extend(d.warnings().iter().map(|w| from_warning(w, &label, text, is_json)));
            out.extend(never_matching(&d));
            return out;
        }
        Err(e) => from_error(&e.details(), &label, text, is_json),
    };
    // The strict load stops at the first problem; the lenient one lists the others.
    if let Ok(d) = Dispatcher::from_value(envelope(&abs, dialect, false)) {
        for w in d.warnings() {
            let diag = from_warning(w, &label, text, is_json);
            let same = diag.error && (diag.pointer == first.pointer || diag.message.contains(&first.message));
            if !same {
                out.push(diag);
            }
        }
    }
    out.insert(0, first);
    out
}

pub fn run(files: &[PathBuf], dialect: Option<&str>, json: bool) -> Result<u8, Failure> {
    if let Some(d) = dialect
        && !DIALECTS.contains(&d)
    {
        return Err(Failure::new(
            ErrorDetails::new(
                hookwire_core::ErrorKind::InvalidConfig,
                format!("unknown dialect \"{d}\" (expected one of {})", DIALECTS.join(", ")),
            ),
            None,
        ));
    }
    let p = Paint::stdout();
    let mut reports = Vec::new();
    let mut any_error = false;
    for path in files {
        let shown = path.display().to_string();
        let (dialect, diags) = match read_text(path) {
            Ok(text) => {
                let d = dialect.unwrap_or_else(|| detect(path, &text));
                (d, check(path, d, &text))
            }
            Err(f) => {
                let d = f.details;
                let diag = Diagnostic {
                    error: true,
                    kind: d.kind.as_str().to_string(),
                    message: d.message,
                    line: None,
                    column: None,
                    pointer: None,
                };
                (dialect.unwrap_or("-"), vec![diag])
            }
        };
        let errors = diags.iter().filter(|d| d.error).count();
        any_error |= errors > 0;
        if json {
            reports.push(json!({
                "file": shown, "dialect": dialect, "valid": errors == 0,
                "errors": diags.iter().filter(|d| d.error).map(Diagnostic::json).collect::<Vec<_>>(),
                "warnings": diags.iter().filter(|d| !d.error).map(Diagnostic::json).collect::<Vec<_>>(),
            }));
            continue;
        }
        for d in &diags {
            let at = match (d.line, d.column) {
                (Some(l), Some(c)) => format!("{shown}:{l}:{c}"),
                _ => shown.clone(),
            };
            let what = if d.error { p.red("error") } else { p.yellow("warning") };
            let ptr =
                d.pointer.as_deref().map(|x| format!(" [pointer {}]", if x.is_empty() { "\"\"" } else { x }));
            say!("{at}: {what}: {}{}", d.message, p.dim(&ptr.unwrap_or_default()));
        }
        let warnings = diags.len() - errors;
        let verdict = if errors == 0 { p.green("ok") } else { p.red("invalid") };
        say!("{shown}: {verdict} ({dialect}; {errors} errors, {warnings} warnings)");
    }
    if json {
        say!("{}", json!({"valid": !any_error, "files": reports}));
    }
    Ok(u8::from(any_error))
}
