//! Reading a file that someone else may have replaced: settings files (a cloned repository or a
//! hook can swap them), the trust store, a hook's env file. Opening never blocks (`O_NONBLOCK`:
//! a FIFO put in a file's place once hung a fire forever), only a regular file is read (checked
//! on the opened descriptor, so there is no window between the check and the read), and at
//! most `cap` bytes are read. Whether a symlink is followed is the caller's choice: settings
//! files are often symlinked by dotfile managers; a hook's env file never is.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Whether the last component of the path may be a symlink.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Symlinks {
    Follow,
    Refuse,
}

/// The file's bytes; `Ok(None)` when it does not exist; `Err(why)` when it is not a regular
/// file, is a symlink that was refused, is larger than `cap`, or cannot be read.
pub fn read_capped(path: &Path, cap: u64, symlinks: Symlinks) -> Result<Option<Vec<u8>>, String> {
    let mut flags = libc::O_NONBLOCK | libc::O_NOCTTY;
    if symlinks == Symlinks::Refuse {
        flags |= libc::O_NOFOLLOW;
    }
    let file = match std::fs::OpenOptions::new().read(true).custom_flags(flags).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) && symlinks == Symlinks::Refuse => {
            return Err("it is a symlink".into());
        }
        Err(e) => return Err(format!("cannot be opened: {e}")),
    };
    match file.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(_) => return Err("it is not a regular file".into()),
        Err(e) => return Err(format!("cannot be examined: {e}")),
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!("it is larger than {cap} bytes"));
    }
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifos_symlinks_directories_and_giants_are_refused_without_blocking() {
        let dir = std::env::temp_dir().join(format!("hookwire-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path for the duration of the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(read_capped(&fifo, 10, Symlinks::Follow).unwrap_err().contains("not a regular file"));
        std::fs::write(dir.join("big"), vec![b'x'; 11]).unwrap();
        assert!(read_capped(&dir.join("big"), 10, Symlinks::Follow).unwrap_err().contains("larger"));
        std::os::unix::fs::symlink(dir.join("big"), dir.join("link")).unwrap();
        assert!(read_capped(&dir.join("link"), 10, Symlinks::Refuse).unwrap_err().contains("symlink"));
        assert_eq!(read_capped(&dir.join("link"), 20, Symlinks::Follow).unwrap().map(|b| b.len()), Some(11));
        assert!(read_capped(&dir, 10, Symlinks::Follow).unwrap_err().contains("not a regular file"));
        assert_eq!(read_capped(&dir.join("missing"), 10, Symlinks::Follow).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
