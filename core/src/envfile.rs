//! Reading a hook's `CLAUDE_ENV_FILE` (protocol.md §3.4): plain assignments only, expanded
//! from earlier assignments and the hook's environment. Anything a shell would have to run is
//! refused with a warning; hookwire never executes the file.
//!
//! The file is the hook's to write, so it is hostile input: names are looked up in a map (not
//! by scanning earlier lines), and everything the file expands to, all lines together, is
//! bounded by a budget, so `A=$A$A` repeated cannot double its way to gigabytes and a million
//! `B=$A` lines cannot copy a large value a million times. Time is linear in the file plus the
//! budget.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The private directory of one fire's env files: mode 0700, an unpredictable name, made on
/// first use and removed with everything in it when the fire ends (drop). Each file in it has
/// an unpredictable name too, so no hook can pre-create the files of later hooks or fires
/// (names were once a per-dispatcher counter: a hook that made `env-N+1` broke the next hook).
#[derive(Default)]
pub struct FireDir {
    dir: std::sync::OnceLock<Result<PathBuf, String>>,
}

impl FireDir {
    /// A new empty private directory (0700) for one hook: a sandboxed hook's temporary
    /// directory, the only place besides its project where it may write.
    pub fn new_dir(&self) -> Result<PathBuf, String> {
        use std::os::unix::fs::DirBuilderExt;
        let dir = self.dir.get_or_init(make_private_dir).clone()?;
        let path = dir.join(format!("tmp-{}", random_hex()?));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }

    /// A new empty file (0600, created exclusively) for one hook.
    pub fn new_file(&self) -> Result<PathBuf, String> {
        use std::os::unix::fs::OpenOptionsExt;
        let dir = self.dir.get_or_init(make_private_dir).clone()?;
        let path = dir.join(format!("env-{}", random_hex()?));
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(path)
    }
}

impl Drop for FireDir {
    fn drop(&mut self) {
        // remove_dir_all does not follow a symlink a hook may have put in the directory.
        if let Some(Ok(dir)) = self.dir.get() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// 128 bits from the kernel's CSPRNG, as hex.
#[cfg(target_vendor = "apple")]
fn random_hex() -> Result<String, String> {
    let mut buf = [0u8; 16];
    // macOS has no `getrandom`; `getentropy` fills up to 256 bytes in one call.
    // SAFETY: the pointer and length describe `buf`, which lives for the call.
    if unsafe { libc::getentropy(buf.as_mut_ptr().cast(), buf.len()) } != 0 {
        return Err(format!("no random bytes for a private file name: {}", std::io::Error::last_os_error()));
    }
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// 128 bits from the kernel's CSPRNG, as hex.
#[cfg(not(target_vendor = "apple"))]
fn random_hex() -> Result<String, String> {
    let mut buf = [0u8; 16];
    let mut filled = 0;
    while filled < buf.len() {
        // SAFETY: the pointer and length describe the unfilled tail of `buf`, which lives for
        // the call; getrandom writes at most that many bytes.
        let n = unsafe { libc::getrandom(buf[filled..].as_mut_ptr().cast(), buf.len() - filled, 0) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(format!("no random bytes for a private file name: {e}"));
        }
        filled += n as usize;
    }
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

fn make_private_dir() -> Result<PathBuf, String> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::temp_dir();
    for _ in 0..8 {
        let dir = base.join(format!("hookwire-{}", random_hex()?));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("{}: {e}", dir.display())),
        }
    }
    Err("no unique private directory could be made".into())
}

/// Reads and deletes a hook's env file. The hook may have replaced it by anything: it is opened
/// without following a symlink and without blocking (a FIFO once hung the fire forever), read
/// only when it is a regular file, and only up to `cap` bytes. `Err(why)` for a file that is
/// not read; a missing file is an empty one.
pub fn read(path: &Path, cap: usize) -> Result<String, String> {
    let read = crate::files::read_capped(path, cap as u64, crate::files::Symlinks::Refuse);
    let _ = std::fs::remove_file(path);
    Ok(String::from_utf8_lossy(&read?.unwrap_or_default()).into_owned())
}

/// Parses the file's text. `lookup` resolves `$NAME` from the hook's environment; assignments
/// already made (in `merged`) win over it. `budget` bounds the bytes of all values produced.
/// Returns the new assignments in order, and warnings.
pub fn parse(
    text: &str,
    hook_id: &str,
    merged: &[(String, String)],
    lookup: &dyn Fn(&str) -> Option<String>,
    budget: usize,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut warnings = Vec::new();
    let mut known: HashMap<String, String> = merged.iter().cloned().collect();
    let mut left = budget;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let get = |name: &str| -> Option<String> { known.get(name).cloned().or_else(|| lookup(name)) };
        match assignment(line, &get, left) {
            Ok((k, v)) => {
                left -= v.len();
                known.insert(k.clone(), v.clone());
                out.push((k, v));
            }
            Err(Refused::NotPlain) => {
                warnings.push(format!("hook {hook_id}: env file line {} is not a plain assignment", n + 1))
            }
            Err(Refused::TooLarge) => {
                warnings.push(format!(
                    "hook {hook_id}: env file line {} expands past the {budget}-byte limit of the file's values; \
                     it and the rest of the file are ignored",
                    n + 1
                ));
                break;
            }
        }
    }
    (out, warnings)
}

/// Why a line gives no assignment.
#[derive(Debug, PartialEq)]
enum Refused {
    NotPlain,
    TooLarge,
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn assignment(
    line: &str,
    get: &dyn Fn(&str) -> Option<String>,
    left: usize,
) -> Result<(String, String), Refused> {
    let line = line.strip_prefix("export ").map(str::trim_start).unwrap_or(line);
    let (name, value) = line.split_once('=').ok_or(Refused::NotPlain)?;
    if !is_name(name) {
        return Err(Refused::NotPlain);
    }
    let mut too_large = false;
    let value = parse_value(value, get, left, &mut too_large);
    match value {
        Some(v) => Ok((name.to_string(), v)),
        None if too_large => Err(Refused::TooLarge),
        None => Err(Refused::NotPlain),
    }
}

fn parse_value(
    v: &str,
    get: &dyn Fn(&str) -> Option<String>,
    left: usize,
    too_large: &mut bool,
) -> Option<String> {
    if v.len() > left {
        *too_large = true;
        return None;
    }
    let chars: Vec<char> = v.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    if chars.first() == Some(&'\'') {
        let end = chars[1..].iter().position(|&c| c == '\'')? + 1;
        if !chars[end + 1..].iter().all(|c| c.is_whitespace()) && chars[end + 1..].first() != Some(&'#') {
            return None;
        }
        return Some(chars[1..end].iter().collect());
    }
    let quoted = chars.first() == Some(&'"');
    if quoted {
        i = 1;
    }
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' if quoted => {
                let rest: String = chars[i + 1..].iter().collect();
                let rest = rest.trim();
                return if rest.is_empty() || rest.starts_with('#') { Some(out) } else { None };
            }
            '\\' if quoted => {
                let n = *chars.get(i + 1)?;
                if matches!(n, '"' | '\\' | '$' | '`') {
                    out.push(n);
                } else {
                    out.push('\\');
                    out.push(n);
                }
                i += 2;
                continue;
            }
            '`' => return None,
            '$' => {
                let next = chars.get(i + 1).copied();
                if next == Some('(') {
                    return None; // command substitution
                }
                let (name, used) = if next == Some('{') {
                    let end = chars[i + 2..].iter().position(|&c| c == '}')? + i + 2;
                    let name: String = chars[i + 2..end].iter().collect();
                    (name, end + 1 - i)
                } else {
                    let name: String = chars[i + 1..]
                        .iter()
                        .take_while(|c| **c == '_' || c.is_ascii_alphanumeric())
                        .collect();
                    let len = name.chars().count();
                    (name, len + 1)
                };
                if name.is_empty() {
                    out.push('$');
                    i += 1;
                    continue;
                }
                if !is_name(&name) {
                    return None;
                }
                let value = get(&name).unwrap_or_default();
                if out.len() + value.len() > left {
                    *too_large = true;
                    return None;
                }
                out.push_str(&value);
                i += used;
                continue;
            }
            c if !quoted && (c.is_whitespace() || ";&|<>()\\'\"".contains(c)) => {
                let rest: String = chars[i..].iter().collect();
                let rest = rest.trim();
                return if rest.is_empty() || rest.starts_with('#') { Some(out) } else { None };
            }
            c => out.push(c),
        }
        i += 1;
    }
    if quoted { None } else { Some(out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Vec<(String, String)>, Vec<String>) {
        parse(
            text,
            "h",
            &[],
            &|n| {
                if n == "HOME" {
                    Some("/home/u".into())
                } else if n == "PATH" {
                    Some("/bin".into())
                } else {
                    None
                }
            },
            1 << 20,
        )
    }

    #[test]
    fn plain_assignments_with_and_without_export() {
        let (a, w) = run("export A=1\nB='x y'\n# comment\n\nC=\"q\\\"z\"\n");
        assert!(w.is_empty());
        assert_eq!(
            a,
            vec![("A".into(), "1".into()), ("B".into(), "x y".into()), ("C".into(), "q\"z".into())]
        );
    }

    #[test]
    fn variables_expand_from_earlier_lines_then_the_environment() {
        let (a, _) = run("export PATH=\"$HOME/bin:$PATH\"\nX=${PATH}:more\nY='$HOME'");
        assert_eq!(a[0].1, "/home/u/bin:/bin");
        assert_eq!(a[1].1, "/home/u/bin:/bin:more");
        assert_eq!(a[2].1, "$HOME");
    }

    #[test]
    fn expansion_is_bounded_by_the_budget_for_the_whole_file() {
        let doubling = "A=xxxxxxxx\n".to_string() + &"A=$A$A\n".repeat(64);
        let (a, w) = parse(&doubling, "h", &[], &|_| None, 1 << 16);
        assert!(a.iter().map(|(_, v)| v.len()).sum::<usize>() <= 1 << 16);
        assert!(w.last().is_some_and(|w| w.contains("limit")), "{w:?}");
        let copies = "A=".to_string() + &"y".repeat(1000) + "\n" + &"B=$A\n".repeat(100_000);
        let t = std::time::Instant::now();
        let (a, _) = parse(&copies, "h", &[], &|_| None, 1 << 20);
        assert!(a.len() < 1100 && t.elapsed() < std::time::Duration::from_secs(1));
    }

    #[test]
    fn anything_a_shell_would_run_is_refused() {
        let (a, w) = run("A=$(whoami)\nB=`id`\nC=1; rm -rf /\nrm -rf /\n1X=2");
        assert!(a.is_empty(), "{a:?}");
        assert_eq!(w.len(), 5);
        assert!(w[2].contains("line 3"));
    }
}
