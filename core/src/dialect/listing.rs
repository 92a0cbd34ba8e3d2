//! A hooks directory of JSON files, one source (`Profile::directory`): Copilot's
//! `.github/hooks/`, `~/.copilot/hooks/` and policy directory, Kiro's `.kiro/hooks/`. The
//! agents read every `*.json` file of the directory; hookwire lists them into one document
//! (`list`), which the trust digest covers byte for byte, and reads each file back as its own
//! document (`read_each`), so that a bad file costs only itself.

use crate::config::{ConfigWarnings, DocContext, Group, Parse};
use crate::error::ConfigError;
use serde_json::Value;

/// Files of one hooks directory read; beyond, a note.
pub const MAX_FILES: usize = 256;

/// Bytes of one hooks file, and of a directory's files together.
const MAX_FILE_BYTES: u64 = 1 << 20;
const MAX_DIR_BYTES: usize = 4 << 20;

/// Reads one file's document into groups, as a dialect reads a file it was given by name.
pub type ReadOne =
    fn(&Value, &DocContext<'_>, &Parse, &mut [Vec<Group>], &mut ConfigWarnings) -> Result<(), ConfigError>;

/// Lists a hooks directory (`Profile::directory`) as one document: each `*.json` file's text in
/// name order, `{"files": [{"path", "text"}], "notes": [...]}`. The text, not its parse, so that
/// a file nested deeper than the parser allows costs only itself, and the trust digest covers
/// every byte that will be read. Bounded: [`MAX_FILES`] entries, regular files only (a symlink
/// is not followed), 1 MiB a file, 4 MiB in all; each skipped file is a note.
pub fn list(dir: &std::path::Path) -> Result<Vec<u8>, String> {
    use crate::files::{Symlinks, read_capped};
    let root = std::fs::canonicalize(dir).map_err(|e| format!("cannot be resolved: {e}"))?;
    let entries = std::fs::read_dir(&root).map_err(|e| format!("cannot be listed: {e}"))?;
    let mut names = Vec::new();
    let mut notes = Vec::new();
    for (n, entry) in entries.enumerate() {
        if n == MAX_FILES {
            notes.push(format!("more than {MAX_FILES} entries in the directory; the rest are not read"));
            break;
        }
        let Ok(entry) = entry else { continue };
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.to_ascii_lowercase().ends_with(".json") {
            names.push(name);
        }
    }
    names.sort();
    let (mut files, mut total) = (Vec::new(), 0usize);
    for name in names {
        let path = root.join(&name);
        let text = match read_capped(&path, MAX_FILE_BYTES, Symlinks::Refuse) {
            Ok(Some(bytes)) if total + bytes.len() > MAX_DIR_BYTES => {
                notes.push(format!("{name}: the directory's files pass 4 MiB together; not read"));
                continue;
            }
            Ok(Some(bytes)) => match String::from_utf8(bytes) {
                Ok(text) => text,
                Err(_) => {
                    notes.push(format!("{name}: not UTF-8; not read"));
                    continue;
                }
            },
            Ok(None) => continue,
            Err(why) => {
                notes.push(format!("{name}: {why}; not read"));
                continue;
            }
        };
        total += text.len();
        files.push(serde_json::json!({"path": path.to_string_lossy(), "text": text}));
    }
    let doc = serde_json::json!({"files": files, "notes": notes});
    Ok(serde_json::to_vec(&doc).unwrap_or_default())
}

/// Whether `doc` is a listed directory (`list`) rather than one hooks file: its `files` list
/// and no `hooks`.
pub fn is_listing(doc: &Value) -> bool {
    doc.get("files").is_some_and(Value::is_array) && doc.get("hooks").is_none()
}

/// A listed directory (`list`): each file read by `read_one` as its own document, with its own
/// hook ids (`<scope>(<file>):…`) and its own path (a dialect's variables that name the file's
/// directory read it); a file that is not a JSON object is skipped with a warning.
pub fn read_each(
    doc: &Value,
    cx: &DocContext<'_>,
    events: &mut [Vec<Group>],
    warnings: &mut ConfigWarnings,
    read_one: ReadOne,
) -> Result<(), ConfigError> {
    for note in doc.get("notes").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        warnings.note(None, &format!("{}/notes", cx.base), format!("{}: {note}", cx.info.label));
    }
    let files = doc.get("files").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (i, f) in files.iter().enumerate() {
        let (Some(path), Some(text)) =
            (f.get("path").and_then(Value::as_str), f.get("text").and_then(Value::as_str))
        else {
            continue;
        };
        let path = std::path::Path::new(path);
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let info = crate::config::SourceInfo {
            id_label: format!("{}({name})", cx.info.id_label),
            label: format!("{} {}", cx.info.scope.as_str(), path.display()),
            ..cx.info.clone()
        };
        let at = format!("{}/files/{i}", cx.base);
        let parsed = match crate::json::value_from_str(text) {
            Ok(v @ Value::Object(_)) => v,
            Ok(_) => {
                warnings.never_runs(
                    None,
                    &at,
                    format!("{}: not a JSON object; its hooks are skipped", info.label),
                );
                continue;
            }
            Err(e) => {
                let why = format!("{}: invalid JSON ({e}); its hooks are skipped", info.label);
                warnings.never_runs(None, &at, why);
                continue;
            }
        };
        let file_cx = DocContext { base: String::new(), info: &info, file: Some(path), ..*cx };
        // Each file of a directory is read as a file is: a bad entry costs only itself.
        let p = Parse { strict: false, label: info.label.clone(), file: Some(path.to_path_buf()) };
        read_one(&parsed, &file_cx, &p, events, warnings)?;
    }
    Ok(())
}
