//! The argument and environment arrays `execve` and `posix_spawn` take, built in the host before
//! the hook's process exists, so that nothing allocates between `fork`/`clone` and `execve`.

use super::Launch;
use std::io;
use std::os::unix::ffi::OsStrExt;

/// A launch as C strings: `argv` (whose first entry is the program path, which is also what
/// is executed), `envp`, and the working directory (one entry).
pub struct Exec {
    pub argv: Strings,
    pub envp: Strings,
    pub cwd: Strings,
}

impl Exec {
    pub fn new(l: &Launch) -> io::Result<Exec> {
        let program = l.program.as_os_str().as_bytes();
        let args = std::iter::once(program).chain(l.args.iter().map(|a| a.as_bytes()));
        let argv = Strings::new(args.map(|a| [a, &[][..], &[][..]]), "an argument")?;
        let env = l.env.iter().map(|(k, v)| [k.as_bytes(), &b"="[..], v.as_bytes()]);
        let envp = Strings::new(env, "the environment")?;
        let cwd = Strings::new(std::iter::once([l.cwd.as_os_str().as_bytes(), &[][..], &[][..]]), "the cwd")?;
        Ok(Exec { argv, envp, cwd })
    }
}

/// NUL-terminated strings in one allocation and the pointer array `execve` takes.
pub struct Strings {
    /// Owns what `ptrs` point into.
    _bytes: Vec<u8>,
    pub ptrs: Vec<*const libc::c_char>,
}

impl Strings {
    /// Each item's parts are concatenated into one C string; a NUL inside is refused with
    /// `what` in the message.
    pub fn new<'a, I>(items: I, what: &str) -> io::Result<Strings>
    where
        I: Iterator<Item = [&'a [u8]; 3]> + Clone,
    {
        let size: usize = items.clone().map(|parts| parts.iter().map(|p| p.len()).sum::<usize>() + 1).sum();
        let mut bytes = Vec::with_capacity(size);
        let mut starts = Vec::new();
        for parts in items {
            starts.push(bytes.len());
            for p in parts {
                if p.contains(&0) {
                    return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("nul byte in {what}")));
                }
                bytes.extend_from_slice(p);
            }
            bytes.push(0);
        }
        // `bytes` is never resized after this point, so the pointers stay valid.
        let base = bytes.as_ptr();
        let mut ptrs: Vec<*const libc::c_char> =
            starts.into_iter().map(|s| base.wrapping_add(s).cast::<libc::c_char>()).collect();
        ptrs.push(std::ptr::null());
        Ok(Strings { _bytes: bytes, ptrs })
    }
}
