//! `hookwire port` (issue 34, point 1): a hook configuration translated from one dialect to
//! another, with a report of every change of meaning. The source is loaded by the engine with
//! its own dialect's reader (`dialect/porting/model.rs`), so the port starts from what the agent would run;
//! each target dialect writes its own file shape (`dialect/<name>/write.rs`, reached through
//! [`Profile::write`](crate::dialect::Profile)); matchers are checked by both dialects' own
//! rules (`dialect/porting/probe.rs`), answers by the bridge's answer forms (`answers.rs`). The written
//! document is read back by the target's loader before it is handed out.

mod answers;
mod fail_closed;
mod print;

pub use crate::dialect::porting::loss;
pub use crate::dialect::porting::{At, Hook, Loss, LossKind, Model, Report, WriteFn, events_of, native_name};

use crate::catalog::{self, Dialect};
use crate::dialect::Profile;
use crate::dialect::porting::exits;
use serde_json::{Value, json};
use std::path::Path;

/// Where the source configuration comes from.
pub enum Input<'a> {
    /// A file (or a hooks directory, for a dialect that reads one).
    File(&'a Path),
    /// A document, as a host or a test holds it.
    Document(&'a Value),
}

/// A finished port.
#[derive(Debug)]
pub struct Port {
    pub from: Dialect,
    pub to: Dialect,
    /// The target agent's document.
    pub document: Value,
    /// Every change, in the order found.
    pub losses: Vec<Loss>,
    /// What the engine said while loading the source (hooks of the source that never run).
    pub source_warnings: Vec<String>,
    /// What the target's own loader says about the written document: empty unless the source
    /// itself had problems that the target's reader reports too (a hook that never runs).
    pub readback_warnings: Vec<String>,
    /// `document` as printed for the target's file: printed once, read back (`reread`) and
    /// handed out by [`Port::text`] as it was checked.
    printed: String,
}

impl Port {
    /// Whether nothing of the meaning is lost (unit conversions and equivalent forms allowed),
    /// answers the target cannot express aside (they matter only if a hook gives them).
    pub fn exact(&self) -> bool {
        self.losses.iter().all(|l| !l.loses_meaning || l.conditional)
    }

    /// As [`Port::exact`], counting answers the target cannot express too.
    pub fn exact_strict(&self) -> bool {
        self.losses.iter().all(|l| !l.loses_meaning)
    }

    /// The document as the target agent's file holds it ([`print`]): TOML for a dialect
    /// whose files are TOML (Kimi's `config.toml`, Vibe's `hooks.toml`), JSON that YAML reads
    /// alike for a YAML dialect, else indented JSON; a final newline.
    pub fn text(&self) -> Result<String, String> {
        if self.needs_directory() {
            return Err(format!(
                "{} is written as several files (scripts beside the hooks they run): name a directory with -o DIR",
                self.to.as_str()
            ));
        }
        Ok(self.printed.clone())
    }
}

/// One file of a port written into a directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenFile {
    pub name: String,
    pub text: String,
    /// A script the agent runs: written with mode 0755.
    pub executable: bool,
}

impl Port {
    /// Whether the target is written only as files in a directory (Cline's scripts beside the
    /// settings file they run): its document lists them under `files`.
    pub fn needs_directory(&self) -> bool {
        self.document.get("files").is_some_and(Value::is_array)
    }

    /// The files to write into a directory: the target's `files` ([`Port::needs_directory`]);
    /// else, for a target that reads every file of a hooks directory and whose file holds a
    /// list of hooks (Kiro's `.kiro/hooks/`), one file per hook, each the document's other keys
    /// and one hook, named after the hook's `name` (letters, digits, `-` and `_`; another
    /// character becomes `-`), else `hook-N`, made unique. `None` for any other target: its
    /// document is one file.
    pub fn files(&self) -> Option<Vec<WrittenFile>> {
        if self.needs_directory() {
            return Some(self.listed_files());
        }
        self.to.rules().profile().directory?;
        let Value::Object(doc) = &self.document else { return None };
        let hooks = doc.get("hooks")?.as_array()?;
        let mut out: Vec<WrittenFile> = Vec::new();
        for (i, hook) in hooks.iter().enumerate() {
            let slug: String = hook
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .chars()
                .take(64)
                .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
                .collect();
            let stem = if slug.trim_matches('-').is_empty() { format!("hook-{i}") } else { slug };
            let name = (0..)
                .map(|n| if n == 0 { format!("{stem}.json") } else { format!("{stem}-{n}.json") })
                .find(|n| !out.iter().any(|o| o.name == *n))
                .unwrap_or_default();
            let mut one = doc.clone();
            one.insert("hooks".into(), Value::Array(vec![hook.clone()]));
            out.push(WrittenFile { name, text: pretty(&Value::Object(one)), executable: false });
        }
        Some(out)
    }

    /// The document's `files`: each a `document` (written as indented JSON) or a `text`.
    fn listed_files(&self) -> Vec<WrittenFile> {
        let listed = self.document.get("files").and_then(Value::as_array).into_iter().flatten();
        listed
            .map(|f| WrittenFile {
                name: f.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                text: match f.get("document") {
                    Some(doc) => pretty(doc),
                    None => f.get("text").and_then(Value::as_str).unwrap_or_default().to_string(),
                },
                executable: f.get("executable").and_then(Value::as_bool).unwrap_or(false),
            })
            .collect()
    }
}

/// A document as indented JSON and a newline.
fn pretty(doc: &Value) -> String {
    let mut text = serde_json::to_string_pretty(doc).unwrap_or_default();
    text.push('\n');
    text
}

/// The names of the dialects a port can write, in the list's order.
pub fn writers() -> Vec<&'static str> {
    catalog::ALL_DIALECTS.iter().filter(|d| d.rules().profile().write.is_some()).map(|d| d.as_str()).collect()
}

/// The dialect named `name`, or why not.
fn dialect(name: &str) -> Result<Dialect, String> {
    Dialect::parse(name).ok_or_else(|| {
        let all: Vec<_> = catalog::ALL_DIALECTS.iter().map(|d| d.as_str()).collect();
        format!("unknown dialect \"{name}\" (one of {})", all.join(", "))
    })
}

/// Ports `input`, written in dialect `from`, to dialect `to`.
pub fn port(input: Input<'_>, from: &str, to: &str) -> Result<Port, String> {
    let (from, to) = (dialect(from)?, dialect(to)?);
    let Some(write) = to.rules().profile().write else {
        return Err(format!(
            "{} cannot be written: {}; dialects a port can write: {}",
            to.as_str(),
            to.rules().profile().cannot_write,
            writers().join(", ")
        ));
    };
    let (source, file) = match &input {
        Input::File(p) => {
            (json!({"scope": "user", "dialect": from.as_str(), "path": p}), Some(p.display().to_string()))
        }
        Input::Document(v) => (json!({"scope": "user", "dialect": from.as_str(), "settings": v}), None),
    };
    let config = crate::load::config(json!({"sources": [source]})).map_err(|e| e.to_string())?;
    // A file the loader could not read at all is skipped with a warning; a port of it is an error.
    let unread = config.warnings.problems.iter().find(|p| p.pointer.as_deref() == Some("/sources/0/path"));
    if let Some(p) = unread {
        return Err(p.message.clone());
    }
    let w = &config.warnings;
    let source_warnings = w.global.iter().chain(w.per_event.iter().flatten()).cloned().collect();
    let model = Model::of(&config, from, file.as_deref());
    let mut report = Report::default();
    settings_keys(&input, from, file.as_deref(), &mut report);
    let document = write(&model, &mut report);
    // Hooks run through the bridge are run by hookwire, which reads `failClosed`, and keep the
    // exit codes of the dialect they are written in.
    let through = to.rules().profile().ported_through;
    if through.is_none() {
        fail_closed::report(&model, &document, to, &mut report);
    }
    report_answers(&model, from.rules().profile(), to.rules().profile(), &mut report);
    let runs_as = through.unwrap_or(to);
    report_exits(&model, from.rules().profile(), runs_as.rules().profile(), &mut report);
    let (printed, read) = reread(to, &document)?;
    let readback_warnings = read_back(to, read)?;
    Ok(Port { from, to, document, losses: report.losses, source_warnings, readback_warnings, printed })
}

/// The written document printed as the target's file and parsed back by the target's syntax:
/// a value the text does not hold as written (a character a YAML reader folds) is a printer
/// bug, said as an error. The text and the value read are returned, so that the reader's check
/// below loads what the file holds and the file written is the text checked.
fn reread(to: Dialect, doc: &Value) -> Result<(String, Value), String> {
    let syntax = to.rules().profile().syntax;
    let text = print::text(syntax, doc).map_err(|e| format!("the written {} file {e}", to.as_str()))?;
    match crate::load::parse_text(syntax, text.as_bytes()) {
        Ok(back) if back == *doc => Ok((text, back)),
        Ok(_) => {
            Err(format!("the written {} file reads back as another document (a printer bug)", to.as_str()))
        }
        Err(e) => Err(format!("the written {} file does not parse back: {e}", to.as_str())),
    }
}

/// The written document loaded by the target's own reader, strictly (an inline source): an
/// error here is a bug of the writer, said as an error rather than handed out; the warnings are
/// returned.
fn read_back(to: Dialect, doc: Value) -> Result<Vec<String>, String> {
    let env = json!({"sources": [{"scope": "user", "dialect": to.as_str(), "settings": doc}]});
    let config = crate::load::config(env)
        .map_err(|e| format!("the written {} file does not read back: {e}", to.as_str()))?;
    Ok(config.warnings.problems.iter().map(|p| p.message.clone()).collect())
}

/// Top-level keys about hooks that a port does not carry (the switches of §2.5, Gemini's
/// `hooksConfig`, the http allow-lists): one loss each, when set to something other than off.
/// A file is looked into when it is JSON; other keys of a settings file are not about hooks.
const SETTINGS_KEYS: &[&str] = &[
    "disableAllHooks",
    "allowManagedHooksOnly",
    "hooksConfig",
    "allowedHttpHookUrls",
    "httpHookAllowedEnvVars",
    "features",
];

fn settings_keys(input: &Input<'_>, from: Dialect, file: Option<&str>, report: &mut Report) {
    let read;
    let doc = match input {
        Input::Document(v) => *v,
        Input::File(p) => {
            // The same bounded read as the loader's (a regular file, the source cap).
            let bytes =
                crate::files::read_capped(p, crate::load::MAX_SOURCE_BYTES, crate::files::Symlinks::Follow);
            read = match bytes.ok().flatten() {
                Some(bytes) => crate::json::value_from_slice(&bytes).unwrap_or(Value::Null),
                None => Value::Null,
            };
            &read
        }
    };
    let Some(obj) = doc.as_object() else { return };
    per_os_commands(obj, file, report);
    for (k, v) in obj {
        let own = from.rules().profile().document_keys.contains(&k.as_str())
            && !["version", "$schema", "description"].contains(&k.as_str());
        if (SETTINGS_KEYS.contains(&k.as_str()) || own) && !matches!(v, Value::Null | Value::Bool(false)) {
            let at = At {
                file: file.map(str::to_string),
                pointer: format!("/{}", crate::config::escape(k)),
                hook: String::new(),
            };
            let why =
                format!("`{k}` is not ported: set it in the target agent's own settings if it still applies");
            report.add(LossKind::FieldDropped, &at, None, why);
        }
    }
}

/// Commands for another OS than this one (VS Code's `windows`, `linux`, `osx`; Copilot's
/// `powershell` beside `bash`): the source's reader keeps the one that runs here, so a port
/// carries that one; each entry holding others is one `field_dropped`.
fn per_os_commands(doc: &serde_json::Map<String, Value>, file: Option<&str>, report: &mut Report) {
    const OS_KEYS: &[&str] = &["windows", "linux", "osx", "powershell"];
    let Some(Value::Object(events)) = doc.get("hooks") else { return };
    let mut check = |pointer: String, entry: &Value| {
        let Some(o) = entry.as_object() else { return };
        let keys: Vec<&str> = OS_KEYS.iter().copied().filter(|k| o.contains_key(*k)).collect();
        let commands = ["command", "bash"].iter().filter(|k| o.contains_key(**k)).count() + keys.len();
        if keys.is_empty() || commands < 2 {
            return;
        }
        let at = At { file: file.map(str::to_string), pointer, hook: String::new() };
        let why = format!(
            "commands per OS ({}): only the one this machine runs is ported",
            keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
        );
        report.add(LossKind::FieldDropped, &at, None, why);
    };
    for (event, list) in events {
        let base = format!("/hooks/{}", crate::config::escape(event));
        for (i, item) in list.as_array().into_iter().flatten().enumerate().take(10_000) {
            match item.get("hooks").and_then(Value::as_array) {
                Some(handlers) => {
                    for (j, h) in handlers.iter().enumerate().take(10_000) {
                        check(format!("{base}/{i}/hooks/{j}"), h);
                    }
                }
                None => check(format!("{base}/{i}"), item),
            }
        }
    }
}

/// One loss per event and answer kind the target cannot express, at the first hook of the event.
fn report_answers(model: &Model, source: &Profile, target: &Profile, report: &mut Report) {
    let mut seen: Vec<&str> = Vec::new();
    for h in &model.hooks {
        if seen.contains(&h.event.name) || native_name(target, h.event).is_none() {
            continue;
        }
        seen.push(h.event.name);
        for line in answers::lost(h.event, source, target) {
            report.add(LossKind::AnswerLost, &h.at, Some(h.event.name), line);
        }
    }
}

/// One loss per command hook whose exit 1 or 2 blocks in one agent and not in the other.
fn report_exits(model: &Model, source: &Profile, target: &Profile, report: &mut Report) {
    for h in model.hooks.iter().filter(|h| h.handler.ty == catalog::HandlerType::Command) {
        for (code, from, to) in exits::differences(&h.handler, h.event, source, target) {
            let says = |b: bool| if b { "blocks" } else { "does not block" };
            let why = format!(
                "exit {code} on {}: {} in {}, {} in {}",
                h.event.name,
                says(from),
                source.dialect.as_str(),
                says(to),
                target.dialect.as_str()
            );
            report.add(LossKind::FailurePolicy, &h.at, Some(h.event.name), why);
        }
    }
}

/// The canonical events a name fired or configured in dialect `dialect` stands for (the name
/// itself when it is canonical); empty for an unknown dialect or name.
pub fn canonical_events(dialect: &str, name: &str) -> Vec<&'static str> {
    let Some(d) = Dialect::parse(dialect) else { return Vec::new() };
    let mut out: Vec<&'static str> = events_of(d.rules().profile(), name).iter().map(|s| s.name).collect();
    if let Some(id) = catalog::lookup(name) {
        out.push(catalog::spec(id).name);
    }
    out
}
