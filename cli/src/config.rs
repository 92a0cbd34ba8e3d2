//! Where a command's configuration and event come from: a `--config` file, or Claude Code's
//! default layering of a project directory; an event file or stdin. It reads files and builds
//! a `Dispatcher`; it never interprets a hook or a verdict.

use crate::locate;
use crate::{ConfigArgs, Failure};
use hookwire_core::sent::{MAX_READ, Unread, Unreadable};
use hookwire_core::{Dispatcher, ErrorDetails, ErrorKind};
use serde_json::Value;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Where the configuration comes from.
pub enum Source {
    File(PathBuf),
    /// Claude Code's user, project and local settings files of this project directory.
    Default {
        project: Option<PathBuf>,
    },
}

impl From<&ConfigArgs> for Source {
    fn from(a: &ConfigArgs) -> Source {
        match &a.config {
            Some(f) => Source::File(f.clone()),
            None => Source::Default { project: a.project.clone() },
        }
    }
}

/// A loaded configuration: the dispatcher and the JSON text it was built from.
pub struct Loaded {
    pub dispatcher: Dispatcher,
    pub text: String,
    /// The envelope's `dialect`: the fire's fold strategy (protocol.md §9.0).
    pub dialect: String,
}

fn internal(message: String, file: Option<String>) -> Failure {
    Failure::new(ErrorDetails::new(ErrorKind::Internal, message), file)
}

/// The most bytes of any file the command reads whole (the engine's own caps are smaller: a
/// settings file 4 MiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a file as UTF-8 text, at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> Result<String, Failure> {
    read_text_at_most(path, MAX_FILE_BYTES)
}

/// Reads a file as UTF-8 text, refusing one of more than `cap` bytes (user input such as a
/// case file must not exhaust memory), naming the file in the failure. Read as the engine reads
/// a settings file (`hookwire_core::files`): opened without blocking and read only when it is a
/// regular file, since a cloned repository's `--hooks` or `--config` file may be a FIFO or a
/// symlink to `/dev/zero` (each hung the command, the second growing memory without bound).
pub fn read_text_at_most(path: &Path, cap: u64) -> Result<String, Failure> {
    let bytes = read_bytes_at_most(path, cap)?;
    String::from_utf8(bytes).map_err(|e| {
        let shown = path.display().to_string();
        Failure::new(ErrorDetails::new(ErrorKind::InvalidUtf8, format!("not UTF-8: {e}")), Some(shown))
    })
}

/// [`read_text_at_most`]'s bytes, before they are taken as UTF-8.
pub fn read_bytes_at_most(path: &Path, cap: u64) -> Result<Vec<u8>, Failure> {
    let shown = path.display().to_string();
    let cannot = |why: String| internal(format!("cannot read: {why}"), Some(shown.clone()));
    match hookwire_core::files::read_capped(path, cap, hookwire_core::files::Symlinks::Follow) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(cannot(std::io::Error::from_raw_os_error(libc::ENOENT).to_string())),
        Err(why) if why.starts_with("it is larger than") => Err(internal(
            format!("larger than the {} MiB a file may hold here", cap >> 20),
            Some(shown.clone()),
        )),
        Err(why) => Err(cannot(why)),
    }
}

/// Parses JSON text, turning a syntax error into a failure with line and column.
pub fn parse_json(text: &str, file: Option<String>) -> Result<Value, Failure> {
    serde_json::from_str(text).map_err(|e| {
        let mut d = ErrorDetails::from_serde_json(&e);
        d.message = format!("not valid JSON: {}", d.message);
        Failure::new(d, file)
    })
}

impl Source {
    /// Reads and parses the configuration without building a dispatcher. A `--config` file is
    /// read and parsed once: an envelope is the configuration as it is, anything else (a
    /// settings file of any dialect, or text that is not JSON) becomes the one source of an
    /// envelope and is kept for the report of what the engine skipped.
    pub fn parse(&self) -> Result<Parsed, Failure> {
        let (value, file, settings) = match self {
            Source::File(p) => {
                let text = crate::validate::text_of(p)?;
                let file = Some(p.display().to_string());
                match serde_json::from_str::<Value>(&text) {
                    // An envelope: with sources, or naming its dialect (`{"dialect": ..., "hooks":
                    // ...}`), which no agent's own settings file does.
                    Ok(Value::Object(m)) if m.contains_key("sources") || m.contains_key("dialect") => {
                        return Ok(Parsed { value: Value::Object(m), text, file, settings: None });
                    }
                    parsed => (settings_file_envelope(p, &text, parsed.ok()), file, Some(text)),
                }
            }
            Source::Default { project } => (default_envelope(project.as_deref())?, None, None),
        };
        Ok(Parsed { text: value.to_string(), value, file, settings })
    }

    /// Builds the dispatcher.
    pub fn load(&self) -> Result<Loaded, Failure> {
        let Parsed { value, text, file, settings } = self.parse()?;
        let dialect = value.get("dialect").and_then(Value::as_str).unwrap_or("claude-code").to_string();
        let dispatcher = build(value, &text, file.as_ref())?;
        if let (Source::File(path), Some(settings)) = (self, &settings) {
            crate::validate::warn_skipped(&dispatcher, path, settings);
        }
        Ok(Loaded { dispatcher, text, dialect })
    }
}

/// A settings file given with `--config`, as the one `session` source of an envelope: read by
/// the file rules like every settings file (§2.9), so a broken group is a warning and the rest
/// runs, as in Claude Code; its dialect is detected as `validate` detects it.
///
/// The file's own top-level `env` (from `parsed`, the file's JSON when it is JSON) stays the
/// configuration's `env` (layer 2 of §3.4), as when the file was read inline: Claude Code
/// applies a settings file's `env` to the session its hooks run in.
fn settings_file_envelope(path: &Path, text: &str, parsed: Option<Value>) -> Value {
    let mut envelope = crate::validate::envelope(path, crate::validate::detect(path, text));
    if let Some(Value::Object(mut settings)) = parsed
        && let Some(env) = settings.remove("env")
    {
        envelope["env"] = env;
    }
    envelope
}

/// A configuration read and parsed, from which several dispatchers can be built (`hookwire
/// test` builds one per case, with the case's `env`).
pub struct Parsed {
    pub value: Value,
    /// The configuration's JSON text, in which errors are located.
    text: String,
    file: Option<String>,
    /// The `--config` settings file's own text, when the configuration wraps one.
    settings: Option<String>,
}

impl Parsed {
    /// Builds a dispatcher from `value`: this configuration, possibly with keys added.
    pub fn build(&self, value: Value) -> Result<Dispatcher, Failure> {
        build(value, &self.text, self.file.as_ref())
    }
}

/// Errors in a `--config` file carry its line and column, located from the JSON pointer the
/// engine reports when it gives none.
fn build(value: Value, text: &str, file: Option<&String>) -> Result<Dispatcher, Failure> {
    Dispatcher::from_value(value).map_err(|e| {
        let mut d = e.details();
        if d.line.is_none()
            && let Some((l, c)) = d.pointer.as_deref().and_then(|p| locate::pointer(text, p))
        {
            d.line = Some(l as u64);
            d.column = Some(c as u64);
        }
        Failure::new(d, file.cloned())
    })
}

/// Claude Code's layering for one project (protocol.md §2.3, §2.8), as the core writes it: the
/// user file, then the project's shared and local files, gated on the default trust store.
fn default_envelope(project: Option<&Path>) -> Result<Value, Failure> {
    let dir = match project {
        Some(p) => p.to_path_buf(),
        None => match std::env::current_dir() {
            Ok(dir) => dir,
            Err(e) => return deleted_cwd_envelope(e),
        },
    };
    hookwire_core::claude_code_defaults(&dir)
        .map_err(|e| internal(format!("project directory: {e}"), Some(dir.display().to_string())))
}

/// The layering when the current directory was deleted under the command (a tool ran
/// `rm -rf .` there): the project is the directory the shell still names in `PWD`, whose files
/// are gone, so the user's settings run alone. An error here (exit 1) ran none of the user's
/// guards. The envelope is the core's for the nearest directory still there, with that
/// directory replaced by the deleted one, so nothing of the parent's is read as the project's.
fn deleted_cwd_envelope(e: std::io::Error) -> Result<Value, Failure> {
    let gone = std::env::var_os("PWD").map(PathBuf::from).filter(|p| p.is_absolute() && !p.exists());
    let Some(gone) = gone else {
        return Err(internal(format!("no current directory: {e}"), None));
    };
    let there = gone.ancestors().find(|a| a.is_dir()).unwrap_or(Path::new("/"));
    let mut envelope = hookwire_core::claude_code_defaults(there)
        .map_err(|e| internal(format!("project directory: {e}"), Some(there.display().to_string())))?;
    envelope["project_dir"] = Value::String(gone.to_string_lossy().into_owned());
    Ok(envelope)
}

/// Reads the event JSON from a file, or from stdin for `-` or no file (ended by EOF or by the
/// event's own closing brace: a host may keep the pipe open), as the bridge reads a payload
/// (`sent`): bounded, with lone surrogates, numbers no double holds, parts nested too
/// deep and the rest of long strings of an event over 16 MiB left out, so that the hooks still
/// run, and said in the [`Unread`] the fire's result settles with. Refused, the event ran no
/// hook.
pub fn read_event(path: Option<&Path>) -> Result<(Value, Unread), Failure> {
    let (bytes, shown) = match path {
        Some(p) if p != Path::new("-") => (read_bytes_at_most(p, MAX_READ as u64)?, p.display().to_string()),
        _ => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                // Not silent: a person who forgot the event file sees what is awaited.
                eprintln!(
                    "hookwire: reading the event JSON from stdin (end with Ctrl-D; or pass an event file)"
                );
            }
            // More than MAX_READ is kept as MAX_READ + 1 bytes: `sent::read` says it is too large.
            let bytes = crate::stdin::read_json(stdin.lock(), MAX_READ)
                .map_err(|e| internal(format!("cannot read the event from stdin: {e}"), None))?;
            (bytes, "<stdin>".to_string())
        }
    };
    hookwire_core::sent::read(&bytes).map_err(|e| {
        let d = match e {
            Unreadable::Json(e) => {
                let mut d = ErrorDetails::from_serde_json(&e);
                d.message = format!("not valid JSON: {}", d.message);
                d
            }
            Unreadable::NotUtf8(e) => ErrorDetails::new(ErrorKind::InvalidUtf8, format!("not UTF-8: {e}")),
            Unreadable::Empty if shown == "<stdin>" => {
                ErrorDetails::new(ErrorKind::InvalidEvent, "no event JSON on stdin (it was empty)")
            }
            Unreadable::Empty => {
                ErrorDetails::new(ErrorKind::InvalidEvent, "no event JSON (the file is empty)")
            }
            Unreadable::TooLarge(why) => {
                ErrorDetails::new(ErrorKind::InvalidEvent, format!("the event is {why}"))
            }
        };
        Failure::new(d, Some(shown))
    })
}
