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

/// The file's document: `None` when there is no file. A file that is not JSON is an error that
/// names it (never overwritten); a JSON file with comments (Gemini's) is refused too, because
/// rewriting it would drop them.
pub fn read_document(real: &Path) -> Result<Option<Value>, String> {
    let bytes = match std::fs::File::open(real) {
        Ok(f) => {
            let mut b = Vec::new();
            std::io::Read::read_to_end(&mut std::io::Read::take(f, MAX_FILE_BYTES + 1), &mut b)
                .map_err(|e| format!("cannot be read: {e}"))?;
            b
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("is larger than {} MiB", MAX_FILE_BYTES >> 20));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("is not UTF-8: {e}"))?;
    let value: Value = hookwire_core::json::value_exact(&text).map_err(|e| {
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

/// Keeps the file as it is now in its backup, unless a backup is there already (it holds the
/// file as it was before hookwire's first change, which later runs must not lose).
fn keep_backup(real: &Path) -> Result<Option<PathBuf>, String> {
    if !real.exists() {
        return Ok(None);
    }
    let backup = backup_of(real);
    if std::fs::symlink_metadata(&backup).is_ok() {
        return Ok(Some(backup));
    }
    let bytes = std::fs::read(real).map_err(|e| format!("cannot be read for its backup: {e}"))?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&backup)
        .map_err(|e| format!("its backup {} cannot be created: {e}", backup.display()))?;
    f.write_all(&bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("its backup cannot be written: {e}"))?;
    Ok(Some(backup))
}

/// Writes `doc` (pretty, 2 spaces, a final newline) over `real` through a temporary file in
/// the same directory and a rename, keeping the file's permissions.
fn write_atomically(real: &Path, doc: &Value) -> Result<(), String> {
    let dir = real.parent().ok_or("has no directory")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("its directory cannot be created: {e}"))?;
    let mut text = serde_json::to_string_pretty(doc).map_err(|e| format!("cannot be serialised: {e}"))?;
    text.push('\n');
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.hookwire-tmp-{}", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Ok(m) = std::fs::metadata(real) {
            f.set_permissions(m.permissions())?;
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

/// Where the agent's file is, resolved: (shown path, real path, document).
fn open(i: &Installer, a: &Args<'_>) -> Result<(PathBuf, PathBuf, Option<Value>), Failure> {
    let rel = i.file(a.scope).map_err(|e| fail(e, None))?;
    let base = base(a.scope, a.project_dir).map_err(|e| fail(e, None))?;
    let target = Target::of(&base, rel);
    let real = target.resolve().map_err(|e| fail(e, Some(&target.file)))?;
    let doc = read_document(&real).map_err(|e| fail(e, Some(&target.file)))?;
    Ok((target.file, real, doc))
}

pub fn install(a: &Args<'_>) -> Result<u8, Failure> {
    let i = Installer::for_agent(a.agent).map_err(|e| fail(e, None))?;
    let events = i.events(a.events).map_err(|e| fail(e, None))?;
    let program = program(a.program).map_err(|e| fail(e, None))?;
    let (shown, real, doc) = open(&i, a)?;
    let new = i.install(doc.as_ref(), &program, &events).map_err(|e| fail(e, Some(&shown)))?;
    let changed = doc.as_ref() != Some(&new);
    let mut backup = None;
    if changed && a.dry_run {
        say!("{}", serde_json::to_string_pretty(&new).unwrap_or_default());
    } else if changed {
        backup = keep_backup(&real).map_err(|e| fail(e, Some(&shown)))?;
        write_atomically(&real, &new).map_err(|e| fail(e, Some(&shown)))?;
    }
    report(a, "installed", &shown, changed, backup.as_deref(), &events);
    Ok(0)
}

pub fn uninstall(a: &Args<'_>) -> Result<u8, Failure> {
    let i = Installer::for_agent(a.agent).map_err(|e| fail(e, None))?;
    let (shown, real, doc) = open(&i, a)?;
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
    if changed && a.dry_run {
        say!("{}", serde_json::to_string_pretty(&removed.doc).unwrap_or_default());
    } else if changed && removed.only_skeleton && created {
        std::fs::remove_file(&real).map_err(|e| fail(format!("cannot be removed: {e}"), Some(&shown)))?;
    } else if changed {
        backup = keep_backup(&real).map_err(|e| fail(e, Some(&shown)))?;
        write_atomically(&real, &removed.doc).map_err(|e| fail(e, Some(&shown)))?;
    }
    report(a, "uninstalled", &shown, changed, backup.as_deref(), &events);
    Ok(0)
}
