//! The trust store lookup (protocol.md §2.8): a project source file runs only if the store
//! records the SHA-256 of the exact bytes hookwire read, under the canonical project root.
//!
//! The store is refused unless it is a regular file, not world-writable, owned by the
//! effective user or root. This module only reads; recording trust is the host's (or the
//! CLI's) job.

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// `Ok(true)` when the store vouches for these bytes; `Ok(false)` when it does not;
/// `Err(why)` when the store itself cannot be used (the caller warns and treats the source as
/// untrusted).
pub(crate) fn lookup(
    store: &Path,
    project_dir: Option<&Path>,
    file: &Path,
    bytes: &[u8],
) -> Result<bool, String> {
    let Some(project_dir) = project_dir else {
        return Err("no project_dir is set, so the trust store cannot be consulted; untrusted".into());
    };
    let root = std::fs::canonicalize(project_dir)
        .map_err(|e| format!("project_dir {} cannot be resolved: {e}; untrusted", project_dir.display()))?;
    let text = match read_store(store) {
        Ok(Some(t)) => t,
        Ok(None) => return Ok(false),
        Err(why) => return Err(why),
    };
    let Ok(doc) = crate::json::value_from_str(&text) else {
        return Err(format!("trust store {} is not valid JSON; untrusted", store.display()));
    };
    if doc.get("version").and_then(Value::as_u64) != Some(1) {
        return Err(format!("trust store {} has an unknown version; untrusted", store.display()));
    }
    let key = key_under(&root, file);
    let want = format!("sha256:{}", hex(&Sha256::digest(bytes)));
    let recorded = doc
        .get("projects")
        .and_then(|p| p.get(root.to_string_lossy().as_ref()))
        .and_then(|p| p.get(&key))
        .and_then(Value::as_str);
    Ok(recorded == Some(want.as_str()))
}

/// The store key of a file: its path relative to the canonical project root with `/`
/// separators when inside it, else its canonical absolute path.
fn key_under(root: &Path, file: &Path) -> String {
    let canonical_file = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    match canonical_file.strip_prefix(root) {
        Ok(rel) => rel.to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/"),
        Err(_) => canonical_file.to_string_lossy().into_owned(),
    }
}

pub(crate) fn store_key(project_dir: &Path, file: &Path) -> Option<String> {
    let root = std::fs::canonicalize(project_dir).ok()?;
    Some(key_under(&root, file))
}

/// Where the store lives when the configuration names none:
/// `$XDG_CONFIG_HOME/hookwire/trust.json`, else `~/.config/hookwire/trust.json`.
pub fn default_store() -> Option<std::path::PathBuf> {
    let base = match std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
        Some(x) => std::path::PathBuf::from(x),
        None => std::path::PathBuf::from(std::env::var_os("HOME")?).join(".config"),
    };
    Some(base.join("hookwire").join("trust.json"))
}

/// Records the digests of `entries` (file sources) for the project in the store, creating it
/// (mode 0600, its directory 0700) when missing. The write is atomic: a temporary file in the
/// same directory, then a rename.
pub fn record(store: &Path, project_dir: &Path, entries: &[(String, String)]) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let root = std::fs::canonicalize(project_dir)
        .map_err(|e| format!("project_dir {} cannot be resolved: {e}", project_dir.display()))?;
    let mut doc = match read_store(store)? {
        Some(text) => crate::json::value_from_str(&text)
            .ok()
            .filter(|d| d.get("version").and_then(Value::as_u64) == Some(1))
            .ok_or_else(|| {
                format!("trust store {} is not a version 1 store; not overwritten", store.display())
            })?,
        None => serde_json::json!({"version": 1, "projects": {}}),
    };
    let root_key = root.to_string_lossy().into_owned();
    let Some(projects) = doc.get_mut("projects").and_then(Value::as_object_mut) else {
        return Err(format!("trust store {} has no projects object", store.display()));
    };
    let project = projects.entry(root_key).or_insert_with(|| serde_json::json!({}));
    let Some(project) = project.as_object_mut() else {
        return Err(format!("trust store {} holds a project that is not an object", store.display()));
    };
    for (key, digest) in entries {
        project.insert(key.clone(), Value::String(digest.clone()));
    }
    let dir = store.parent().unwrap_or(Path::new("."));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    let tmp = dir.join(format!(".trust.json.{}.tmp", std::process::id()));
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(&tmp)
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    f.write_all(text.as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, store).map_err(|e| format!("{}: {e}", store.display()))
}

/// The store's text, `None` when it does not exist, `Err` when it is refused.
/// Largest trust store read: far more projects than anyone trusts.
const MAX_STORE_BYTES: u64 = 16 << 20;

fn read_store(store: &Path) -> Result<Option<String>, String> {
    let meta = match std::fs::metadata(store) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("trust store {} cannot be read: {e}; untrusted", store.display())),
    };
    if !meta.is_file() {
        return Err(format!("trust store {} is not a regular file; refused", store.display()));
    }
    if meta.mode() & 0o002 != 0 {
        return Err(format!("trust store {} is world-writable; refused", store.display()));
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let euid = unsafe { libc::geteuid() };
    if meta.uid() != euid && meta.uid() != 0 {
        return Err(format!("trust store {} is owned by another user; refused", store.display()));
    }
    // Checked again on the opened descriptor: the file may be swapped after the stat above.
    let bytes = crate::files::read_capped(store, MAX_STORE_BYTES, crate::files::Symlinks::Follow)
        .map_err(|why| format!("trust store {} cannot be read: {why}; untrusted", store.display()))?;
    match bytes {
        None => Ok(None),
        Some(b) => String::from_utf8(b)
            .map(Some)
            .map_err(|_| format!("trust store {} is not UTF-8; untrusted", store.display())),
    }
}

/// The `sha256:<hex>` value a store records for these bytes.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("hookwire-trust-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join(".claude")).unwrap();
        d
    }

    #[test]
    fn recorded_hash_trusts_and_any_edit_untrusts() {
        let dir = scratch("edit");
        let file = dir.join(".claude/settings.json");
        std::fs::write(&file, b"{}").unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        let store = dir.join("store.json");
        let doc = serde_json::json!({"version": 1, "projects": {root.to_string_lossy(): {".claude/settings.json": digest(b"{}")}}});
        std::fs::write(&store, doc.to_string()).unwrap();
        std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(lookup(&store, Some(&dir), &file, b"{}"), Ok(true));
        assert_eq!(lookup(&store, Some(&dir), &file, b"{ }"), Ok(false));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn world_writable_store_is_refused() {
        let dir = scratch("ww");
        let store = dir.join("store.json");
        std::fs::write(&store, r#"{"version":1,"projects":{}}"#).unwrap();
        std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o666)).unwrap();
        let err = lookup(&store, Some(&dir), &dir.join(".claude/settings.json"), b"{}").unwrap_err();
        assert!(err.contains("world-writable"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_store_or_project_dir_means_untrusted() {
        let dir = scratch("missing");
        assert_eq!(lookup(&dir.join("nope.json"), Some(&dir), &dir.join("x"), b""), Ok(false));
        assert!(lookup(&dir.join("nope.json"), None, &dir.join("x"), b"").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
