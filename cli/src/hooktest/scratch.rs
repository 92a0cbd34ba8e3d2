//! The temporary directory of one case with `files`: created fresh and private under the
//! system temporary directory, filled with the case's files, removed when dropped. A file path
//! that would leave the directory (absolute, or with `..`) is refused, never followed.

use std::collections::BTreeMap;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A case directory; removed with everything in it when dropped.
pub struct Scratch {
    dir: PathBuf,
}

/// Directories made by this process, so two cases never share one.
static MADE: AtomicU32 = AtomicU32::new(0);

impl Scratch {
    /// A new directory holding `files` (relative path → text).
    pub fn with_files(files: &BTreeMap<String, String>) -> Result<Scratch, String> {
        let scratch = Scratch::create()?;
        for (name, text) in files {
            let at = scratch.dir.join(inside(name)?);
            if let Some(parent) = at.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("files: {name:?}: {e}"))?;
            }
            std::fs::write(&at, text).map_err(|e| format!("files: {name:?}: {e}"))?;
        }
        Ok(scratch)
    }

    fn create() -> Result<Scratch, String> {
        let base = std::env::temp_dir();
        let mut last = None;
        for _ in 0..100 {
            let n = MADE.fetch_add(1, Ordering::Relaxed);
            let dir = base.join(format!("hookwire-test-{}-{n}", std::process::id()));
            // `create`, not `create_dir_all`: a directory left by an earlier process of the same
            // id is never reused (its contents are not this case's).
            match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
                // Canonical, so the hooks' `pwd -P` and `CLAUDE_PROJECT_DIR` agree.
                Ok(()) => return Ok(Scratch { dir: dir.canonicalize().unwrap_or(dir) }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(format!("cannot create a case directory in {}: {e}", base.display())),
            }
        }
        Err(format!("cannot create a case directory in {}: {last:?}", base.display()))
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `name` as a path inside the case directory: relative, with no `..`, not empty.
fn inside(name: &str) -> Result<&Path, String> {
    let path = Path::new(name);
    let plain = path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !plain || path.components().all(|c| c == Component::CurDir) {
        return Err(format!("files: {name:?} is not a relative path inside the case directory"));
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_written_under_a_fresh_directory_that_goes_away() {
        let files =
            BTreeMap::from([("a/b.txt".to_string(), "hi".to_string()), ("c".to_string(), String::new())]);
        let s = Scratch::with_files(&files).unwrap();
        let dir = s.path().to_path_buf();
        assert_eq!(std::fs::read_to_string(dir.join("a/b.txt")).unwrap(), "hi");
        let other = Scratch::with_files(&BTreeMap::new()).unwrap();
        assert_ne!(other.path(), dir);
        drop(s);
        assert!(!dir.exists());
    }

    #[test]
    fn a_path_leaving_the_directory_is_refused() {
        for bad in ["/etc/passwd", "../x", "a/../../x", "", ".", "./"] {
            let files = BTreeMap::from([(bad.to_string(), "x".to_string())]);
            let e = Scratch::with_files(&files).err().unwrap_or_else(|| panic!("{bad:?} was accepted"));
            assert!(e.contains("not a relative path"), "{e}");
        }
    }
}
