//! `hookwire install` and `hookwire uninstall`: the files around the core's document edit
//! (`hookwire_core::install`). It finds the agent's file in the scope, refuses a symlink that
//! leads out of the agent's directory and a file that is not a JSON object, keeps a backup
//! (`FILE.hookwire-bak`, the file as it was before hookwire first changed it) and writes
//! atomically (a temporary file in the same directory, renamed over the file). A run that
//! changes nothing writes nothing, so a second install leaves the file byte for byte.

use crate::Failure;
use hookwire_core::install::{Installer, Scope};
use hookwire_core::{ErrorDetails, ErrorKind};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The most bytes of an agent's configuration file install reads.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// The deepest nesting of an agent's hook file install edits (its files are a few levels deep;
/// a deeper one is refused and left as it is).
const MAX_FILE_DEPTH: usize = 64;

/// The suffix of the backup file.
pub const BACKUP_SUFFIX: &str = ".hookwire-bak";

/// What the command line says.
pub struct Args<'a> {
    pub agent: &'a str,
    pub scope: Scope,
    pub project_dir: Option<&'a Path>,
    pub events: &'a [String],
    pub program: Option<&'a str>,
    pub dry_run: bool,
    pub json: bool,
}

fn fail(message: String, file: Option<&Path>) -> Failure {
    Failure::new(ErrorDetails::new(ErrorKind::InvalidConfig, message), file.map(|f| f.display().to_string()))
}

/// The directory a scope's files are relative to: the home directory, or the project.
pub fn base(scope: Scope, project_dir: Option<&Path>) -> Result<PathBuf, String> {
    match scope {
        Scope::User => std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .ok_or_else(|| "HOME is not set: the user scope has no directory".to_string()),
        Scope::Project => match project_dir {
            Some(d) => Ok(d.to_path_buf()),
            None => std::env::current_dir().map_err(|e| format!("no current directory: {e}")),
        },
    }
}

/// The agent's file of a scope, and the agent's own directory it lies in (the first component
/// of its relative path: `~/.cursor`, a project's `.github`).
pub struct Target {
    pub file: PathBuf,
    pub agent_dir: PathBuf,
}

impl Target {
    pub fn of(base: &Path, relative: &str) -> Target {
        let first = Path::new(relative).components().next().map(|c| c.as_os_str().to_owned());
        Target { file: base.join(relative), agent_dir: base.join(first.unwrap_or_default()) }
    }

    /// The file to read and replace: the file itself, or where its symlink leads when that is
    /// inside the agent's directory; an error for a symlink leading out of it (or nowhere) and
    /// for anything but a regular file.
    pub fn resolve(&self) -> Result<PathBuf, String> {
        let meta = match std::fs::symlink_metadata(&self.file) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return self.inside(&self.file).map(|_| self.file.clone());
            }
            Err(e) => return Err(format!("cannot be examined: {e}")),
        };
        let real = if meta.file_type().is_symlink() {
            let real =
                self.file.canonicalize().map_err(|e| format!("is a symlink that leads nowhere ({e})"))?;
            self.inside(&real)?;
            real
        } else {
            self.inside(&self.file)?;
            self.file.clone()
        };
        match std::fs::metadata(&real) {
            Ok(m) if m.is_file() => Ok(real),
            Ok(_) => Err("is not a regular file".to_string()),
            Err(e) => Err(format!("cannot be examined: {e}")),
        }
    }

    /// `path` (or its nearest existing ancestor) lies inside the agent's directory, symlinks
    /// of the directories resolved (the agent's directory may itself be a link, to dotfiles).
    fn inside(&self, path: &Path) -> Result<(), String> {
        let Ok(dir) = self.agent_dir.canonicalize() else { return Ok(()) };
        let existing = path.ancestors().find(|a| a.exists()).unwrap_or(path);
        let real = existing.canonicalize().map_err(|e| format!("cannot be resolved: {e}"))?;
        match real.starts_with(&dir) {
            true => Ok(()),
            false => Err(format!(
                "leads to {} through a symlink, out of {}: hookwire does not follow it",
                real.display(),
                self.agent_dir.display()
            )),
        }
    }
}

/// The file's bytes, read once (the document and the backup are both made of them): `None` when
/// there is no file. Read by the core's capped reader: never blocking on a FIFO put in the
/// file's place, a regular file only (checked on the opened file), at most 16 MiB. `real` is
/// the file [`Target::resolve`] found, so a symlink there is refused.
pub fn read_bytes(real: &Path) -> Result<Option<Vec<u8>>, String> {
    hookwire_core::files::read_capped(real, MAX_FILE_BYTES, hookwire_core::files::Symlinks::Refuse)
}

/// The file's document (its bytes read by [`read_bytes`]): `None` when there is no file.
pub fn read_document(real: &Path) -> Result<Option<Value>, String> {
    match read_bytes(real)? {
        Some(bytes) => parse_document(real, &bytes),
        None => Ok(None),
    }
}

/// Whether the agent's file at `path` is TOML (Kimi's `config.toml`, Vibe's `hooks.toml`).
fn is_toml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("toml"))
}

/// The document of a file's bytes: `None` when they are blank. A file that is not JSON (or
/// TOML, for a `.toml` file) is an error that names it (never overwritten); a JSON file with
/// comments (Gemini's) is refused too, because rewriting it would drop them (a TOML file keeps
/// its comments: [`toml_edited`]).
pub fn parse_document(path: &Path, bytes: &[u8]) -> Result<Option<Value>, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| format!("is not UTF-8: {e}"))?;
    if is_toml(path) {
        let doc =
            hookwire_core::install::toml_document(text).map_err(|e| format!("{e}; nothing was changed"))?;
        return Ok(Some(doc));
    }
    let value: Value = hookwire_core::json::value_exact(text).map_err(|e| {
        let comments = text.contains("//") || text.contains("/*");
        let hint = if comments {
            " (if these are comments: hookwire install does not rewrite a file with comments, which it would drop; remove them, or add the lines of docs/bridge.md by hand)"
        } else {
            ""
        };
        format!("is not valid JSON: {e}{hint}; nothing was changed")
    })?;
    if hookwire_core::json::depth(&value) > MAX_FILE_DEPTH {
        return Err(format!("nests deeper than {MAX_FILE_DEPTH} levels"));
    }
    if !value.is_object() {
        return Err("is not a JSON object; nothing was changed".to_string());
    }
    Ok(Some(value))
}

/// The backup of `file`: `FILE.hookwire-bak`.
pub fn backup_of(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(BACKUP_SUFFIX);
    PathBuf::from(name)
}

/// Keeps the file as it was read (`bytes`; `None`: there was no file) in its backup, unless a
/// backup is there already (it holds the file as it was before hookwire's first change, which
/// later runs must not lose).
fn keep_backup(real: &Path, bytes: Option<&[u8]>) -> Result<Option<PathBuf>, String> {
    let Some(bytes) = bytes else { return Ok(None) };
    let backup = backup_of(real);
    if std::fs::symlink_metadata(&backup).is_ok() {
        return Ok(Some(backup));
    }
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&backup)
        .map_err(|e| format!("its backup {} cannot be created: {e}", backup.display()))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("its backup cannot be written: {e}"))?;
    Ok(Some(backup))
}

/// The text of the file at `real` holding the document `new`: JSON pretty-printed (2 spaces,
/// a final newline); for a TOML file, its text as read (`bytes`, the document `old`) edited
/// in place ([`toml_edited`]).
fn document_text(
    real: &Path,
    bytes: Option<&[u8]>,
    old: Option<&Value>,
    new: &Value,
    at: &str,
) -> Result<String, String> {
    if is_toml(real) {
        let text = bytes.map(String::from_utf8_lossy).unwrap_or_default();
        return toml_edited(&text, old, new, at);
    }
    let mut text = serde_json::to_string_pretty(new).map_err(|e| format!("cannot be serialised: {e}"))?;
    text.push('\n');
    Ok(text)
}

/// A TOML file's `text` (whose document is `old`) with hookwire's entries made those of the
/// document `new`, everything else as the user wrote it (comments, order, spacing): `[[at]]`
/// tables (Kimi, Vibe), or for an agent whose entries sit in lists per event (`[[at.<Event>]]`,
/// Codex's `config.toml`) each event's list. The core's edit keeps the user's entries in order
/// and appends hookwire's (install) or only drops entries (uninstall), so each old entry is kept
/// when it is the next one of the new list, else removed, and the new list's rest is appended.
fn toml_edited(text: &str, old: Option<&Value>, new: &Value, at: &str) -> Result<String, String> {
    let mut doc: toml_edit::DocumentMut =
        text.parse().map_err(|e| format!("is not valid TOML: {e}; nothing was changed"))?;
    let refuse = |what: &str| {
        format!(
            "holds `{what}` in a form other than `[[{what}]]` tables; hookwire edits only those: add the entries of docs/bridge.md by hand; nothing was changed"
        )
    };
    let old_at = old.and_then(|d| d.get(at));
    match new.get(at) {
        None => drop(doc.remove(at)),
        Some(Value::Array(new_list)) => {
            let old_list = old_at.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            let item =
                doc.entry(at).or_insert(toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
            let tables = item.as_array_of_tables_mut().ok_or_else(|| refuse(at))?;
            edit_tables(tables, old_list, new_list).map_err(|()| refuse(at))?;
        }
        Some(Value::Object(new_map)) => {
            let old_map = old_at.and_then(Value::as_object).cloned().unwrap_or_default();
            let mut implicit = toml_edit::Table::new();
            implicit.set_implicit(true);
            let item = doc.entry(at).or_insert(toml_edit::Item::Table(implicit));
            let table = item.as_table_mut().ok_or_else(|| refuse(at))?;
            for event in old_map.keys().chain(new_map.keys().filter(|k| !old_map.contains_key(*k))) {
                let what = format!("{at}.{event}");
                let Some(new_list) = new_map.get(event).and_then(Value::as_array) else {
                    table.remove(event);
                    continue;
                };
                let old_list = old_map.get(event).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                let item = table
                    .entry(event)
                    .or_insert(toml_edit::Item::ArrayOfTables(toml_edit::ArrayOfTables::new()));
                let tables = item.as_array_of_tables_mut().ok_or_else(|| refuse(&what))?;
                edit_tables(tables, old_list, new_list).map_err(|()| refuse(&what))?;
            }
        }
        Some(other) => return Err(format!("hookwire's `{at}` is neither a list nor a map: {other}")),
    }
    Ok(doc.to_string())
}

/// `tables` (whose documents are `old`) made the list `new`: each old table kept when it is
/// the next one of `new`, else removed, and the rest of `new` appended. `Err` when the tables
/// are not the list `old` describes.
fn edit_tables(tables: &mut toml_edit::ArrayOfTables, old: &[Value], new: &[Value]) -> Result<(), ()> {
    if tables.len() != old.len() {
        return Err(());
    }
    let mut next = 0;
    let mut keep = old.iter().map(|entry| {
        let kept = new.get(next) == Some(entry);
        next += usize::from(kept);
        kept
    });
    tables.retain(|_| keep.next().unwrap_or(false));
    for entry in &new[next..] {
        tables.push(table_of(entry));
    }
    Ok(())
}

/// One of hookwire's entries as a TOML table: a list of objects is `[[…]]` tables (Codex's
/// handlers in a group), anything else a value.
fn table_of(entry: &Value) -> toml_edit::Table {
    let mut table = toml_edit::Table::new();
    for (k, v) in entry.as_object().into_iter().flatten() {
        let item = match v {
            Value::Array(list) if list.iter().all(Value::is_object) => {
                let mut tables = toml_edit::ArrayOfTables::new();
                list.iter().for_each(|x| tables.push(table_of(x)));
                toml_edit::Item::ArrayOfTables(tables)
            }
            Value::String(s) => toml_edit::value(s.as_str()),
            Value::Bool(b) => toml_edit::value(*b),
            Value::Number(n) => match n.as_i64() {
                Some(i) => toml_edit::value(i),
                None => toml_edit::value(n.as_f64().unwrap_or_default()),
            },
            other => toml_edit::value(other.to_string()),
        };
        table.insert(k, item);
    }
    table
}

/// Writes `text` over `real` through a temporary file in the same directory and a rename,
/// with the permissions `mode`, else the file's own.
fn write_text_atomically(real: &Path, text: &str, mode: Option<u32>) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let dir = real.parent().ok_or("has no directory")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("its directory cannot be created: {e}"))?;
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.hookwire-tmp-{}", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        match (mode, std::fs::metadata(real)) {
            (Some(mode), _) => f.set_permissions(std::fs::Permissions::from_mode(mode))?,
            (None, Ok(m)) => f.set_permissions(m.permissions())?,
            (None, Err(_)) => {}
        }
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, real)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot be written: {e}"));
    }
    Ok(())
}

/// The program the entries run: `--program`, else the absolute path of this `hookwire` (an
/// agent started from a desktop launcher does not have the shell's `PATH`).
fn program(given: Option<&str>) -> Result<String, String> {
    if let Some(p) = given {
        return Ok(p.to_string());
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program's path: {e}"))?;
    let exe = exe.canonicalize().unwrap_or(exe);
    Ok(exe.to_string_lossy().into_owned())
}

/// What one run did, for people and for `--json`.
fn report(a: &Args<'_>, verb: &str, file: &Path, changed: bool, backup: Option<&Path>, events: &[&str]) {
    if a.json {
        say!(
            "{}",
            json!({"agent": a.agent, "scope": a.scope.as_str(), "file": file.to_string_lossy(),
                   "action": verb, "changed": changed, "dry_run": a.dry_run,
                   "backup": backup.map(|b| b.to_string_lossy().into_owned()), "events": events})
        );
        return;
    }
    let what = match (changed, a.dry_run) {
        (false, _) => "nothing to change".to_string(),
        (true, true) => format!("would be {verb} (dry run: nothing written)"),
        (true, false) => verb.to_string(),
    };
    let on = if events.is_empty() { String::new() } else { format!(" ({})", events.join(", ")) };
    say!("{}: {} bridge for {}{on}: {what}", file.display(), a.scope.as_str(), a.agent);
    if let Some(b) = backup.filter(|_| changed && !a.dry_run) {
        say!("backup: {}", b.display());
    }
}

/// The agent's file, resolved and read once.
struct Opened {
    /// The path as the agent names it.
    shown: PathBuf,
    /// Where it really is (a symlink inside the agent's directory followed).
    real: PathBuf,
    /// Its bytes as read; `None`: there is no file.
    bytes: Option<Vec<u8>>,
    /// Its document; `None`: no file, or a blank one.
    doc: Option<Value>,
}

/// Where the agent's file is, resolved, and what it holds: the scope's file, or the TOML file
/// beside it when that already holds the agent's hooks (`Install::toml_beside`, Codex's
/// `config.toml` with a `[hooks]` table), so that the scope keeps one file of hooks.
fn open(i: &Installer, a: &Args<'_>) -> Result<Opened, Failure> {
    let base = base(a.scope, a.project_dir).map_err(|e| fail(e, None))?;
    if let Some(beside) = i.data().toml_beside {
        let opened = open_at(&base, beside)?;
        if opened.doc.as_ref().is_some_and(|d| d.get(i.data().at).is_some()) {
            return Ok(opened);
        }
    }
    open_at(&base, i.file(a.scope).map_err(|e| fail(e, None))?)
}

/// The file `rel` under `base`, resolved, and what it holds.
fn open_at(base: &Path, rel: &str) -> Result<Opened, Failure> {
    let target = Target::of(base, rel);
    let real = target.resolve().map_err(|e| fail(e, Some(&target.file)))?;
    let bytes = read_bytes(&real).map_err(|e| fail(e, Some(&target.file)))?;
    let doc = match &bytes {
        Some(b) => parse_document(&real, b).map_err(|e| fail(e, Some(&target.file)))?,
        None => None,
    };
    Ok(Opened { shown: target.file, real, bytes, doc })
}

pub fn install(a: &Args<'_>) -> Result<u8, Failure> {
    let i = Installer::for_agent(a.agent).map_err(|e| fail(e, None))?;
    let events = i.events(a.events).map_err(|e| fail(e, None))?;
    let program = program(a.program).map_err(|e| fail(e, None))?;
    if i.data().scripts {
        return install_scripts(&i, a, &events, &program);
    }
    let Opened { shown, real, bytes, doc } = open(&i, a)?;
    let new = i.install(doc.as_ref(), &program, &events).map_err(|e| fail(e, Some(&shown)))?;
    let changed = doc.as_ref() != Some(&new);
    let mut backup = None;
    if changed {
        let text = document_text(&real, bytes.as_deref(), doc.as_ref(), &new, i.data().at)
            .map_err(|e| fail(e, Some(&shown)))?;
        if a.dry_run {
            say!("{}", text.trim_end());
        } else {
            backup = keep_backup(&real, bytes.as_deref()).map_err(|e| fail(e, Some(&shown)))?;
            write_text_atomically(&real, &text, None).map_err(|e| fail(e, Some(&shown)))?;
        }
    }
    report(a, "installed", &shown, changed, backup.as_deref(), &events);
    Ok(0)
}

pub fn uninstall(a: &Args<'_>) -> Result<u8, Failure> {
    let i = Installer::for_agent(a.agent).map_err(|e| fail(e, None))?;
    if i.data().scripts {
        return uninstall_scripts(&i, a);
    }
    let Opened { shown, real, bytes, doc } = open(&i, a)?;
    let Some(doc) = doc else {
        report(a, "uninstalled", &shown, false, None, &[]);
        return Ok(0);
    };
    let removed = i.uninstall(&doc).map_err(|e| fail(e, Some(&shown)))?;
    let installed = i.installed(&doc);
    let events: Vec<&str> =
        i.data().events.iter().copied().filter(|e| installed.iter().any(|(x, _)| x == e)).collect();
    let changed = removed.count > 0;
    // A file that install created (no backup: there was nothing to keep) and that holds nothing
    // else goes with the entries.
    let created = !backup_of(&real).exists();
    let mut backup = None;
    let text = || {
        document_text(&real, bytes.as_deref(), Some(&doc), &removed.doc, i.data().at)
            .map_err(|e| fail(e, Some(&shown)))
    };
    if changed && a.dry_run {
        say!("{}", text()?.trim_end());
    } else if changed && removed.only_skeleton && created {
        std::fs::remove_file(&real).map_err(|e| fail(format!("cannot be removed: {e}"), Some(&shown)))?;
    } else if changed {
        let text = text()?;
        backup = keep_backup(&real, bytes.as_deref()).map_err(|e| fail(e, Some(&shown)))?;
        write_text_atomically(&real, &text, None).map_err(|e| fail(e, Some(&shown)))?;
    }
    report(a, "uninstalled", &shown, changed, backup.as_deref(), &events);
    Ok(0)
}

/// The mode of a script install writes: executable, as an agent that runs its hook files
/// directly needs (Cline runs `sh <file>`, which needs only reading).
const SCRIPT_MODE: u32 = 0o755;

/// One event's script in an agent's hooks directory (an agent whose hooks are scripts: Cline).
pub struct Script {
    pub event: &'static str,
    /// The path as the agent names it.
    pub shown: PathBuf,
    /// Where it really is (a symlink inside the agent's directory followed).
    pub real: PathBuf,
    /// Its text as read; `None`: there is no file.
    pub text: Option<String>,
    /// The program of hookwire's script; `None`: no file, or not exactly a script install
    /// writes (the user's own, or hookwire's edited since).
    pub program: Option<String>,
}

/// The agent's hooks directory in the scope (as the agent names it), and each of its events'
/// scripts as they are now; an error naming the file for a symlink out of the agent's
/// directory, a file that is not a regular one or cannot be read.
pub fn scripts(
    i: &Installer,
    scope: Scope,
    project_dir: Option<&Path>,
) -> Result<(PathBuf, Vec<Script>), Failure> {
    let rel = i.file(scope).map_err(|e| fail(e, None))?;
    let base = base(scope, project_dir).map_err(|e| fail(e, None))?;
    let mut out = Vec::new();
    for &event in i.data().events {
        let target = Target::of(&base, &format!("{rel}/{event}"));
        let real = target.resolve().map_err(|e| fail(e, Some(&target.file)))?;
        // A file that is not UTF-8 is no script of hookwire's: it reads as empty, the user's.
        let text = read_bytes(&real)
            .map_err(|e| fail(e, Some(&target.file)))?
            .map(|b| String::from_utf8(b).unwrap_or_default());
        let program = text.as_deref().and_then(|t| i.script_program(t, event));
        out.push(Script { event, shown: target.file, real, text, program });
    }
    Ok((base.join(rel), out))
}

/// `install` for an agent whose hooks are scripts: one script per event that execs the
/// bridge, executable, written atomically. A file of the same name that is not a script
/// hookwire wrote is the user's: install refuses (before writing anything) rather than replace
/// it. hookwire's scripts of the events not asked for go, as entries do in a document.
fn install_scripts(i: &Installer, a: &Args<'_>, events: &[&str], program: &str) -> Result<u8, Failure> {
    let (dir, found) = scripts(i, a.scope, a.project_dir)?;
    if let Some(theirs) =
        found.iter().find(|s| events.contains(&s.event) && s.text.is_some() && s.program.is_none())
    {
        return Err(fail(
            format!(
                "is not a script hookwire wrote (yours, or hookwire's edited since): hookwire does not overwrite it; move it aside, or add `exec {}` to it by hand; nothing was changed",
                i.command(program, theirs.event)
            ),
            Some(&theirs.shown),
        ));
    }
    let mut changed = false;
    for s in &found {
        let wanted = events.contains(&s.event).then(|| i.script(program, s.event));
        if (wanted.is_none() && s.program.is_none()) || wanted == s.text {
            continue;
        }
        changed = true;
        match (&wanted, a.dry_run) {
            (Some(w), true) => say!("{}:\n{w}", s.shown.display()),
            (None, true) => say!("{}: would be removed", s.shown.display()),
            (Some(w), false) => {
                write_text_atomically(&s.real, w, Some(SCRIPT_MODE)).map_err(|e| fail(e, Some(&s.shown)))?
            }
            (None, false) => std::fs::remove_file(&s.real)
                .map_err(|e| fail(format!("cannot be removed: {e}"), Some(&s.shown)))?,
        }
    }
    report(a, "installed", &dir, changed, None, events);
    Ok(0)
}

/// `uninstall` for an agent whose hooks are scripts: removes each script that is exactly one
/// install writes, and nothing else (a script the user edited stays, as do their own).
fn uninstall_scripts(i: &Installer, a: &Args<'_>) -> Result<u8, Failure> {
    let (dir, found) = scripts(i, a.scope, a.project_dir)?;
    let ours: Vec<&Script> = found.iter().filter(|s| s.program.is_some()).collect();
    for s in &ours {
        match a.dry_run {
            true => say!("{}: would be removed", s.shown.display()),
            false => std::fs::remove_file(&s.real)
                .map_err(|e| fail(format!("cannot be removed: {e}"), Some(&s.shown)))?,
        }
    }
    let events: Vec<&str> = ours.iter().map(|s| s.event).collect();
    report(a, "uninstalled", &dir, !ours.is_empty(), None, &events);
    Ok(0)
}
