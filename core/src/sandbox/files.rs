//! The file-system part of a sandbox, as a Landlock ruleset (Linux 5.13+). Landlock grants
//! access to whole hierarchies and never takes one back, so "everything readable except the
//! secrets" is built by granting read on every sibling along the way to each secret: for
//! `~/.ssh`, each entry of `/` but the one leading to the home, each entry of the home's parent
//! but the home, each entry of the home but `.ssh`. The directories on those ways stay
//! listable (their names are visible, not their files). Writes are granted on the project (when
//! the profile allows), the hook's temporary directory and `/dev/null`. Landlock resolves
//! symlinks before it checks, so a link planted in the project does not lead out; and no rule
//! is ever put on a symlink, whose target could be a way to a secret.
//!
//! `/proc` is not readable: `/proc/<pid>/environ` of the host (the same user) would hand the
//! host's tokens to the hook.

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, NetPort, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreatedAttr, Scope, path_beneath_rules,
};
use std::collections::BTreeSet;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};

/// Entries of one directory on the way to a secret that are granted; past it the rest of that
/// directory stays unreadable (a warning says so).
const MAX_SIBLINGS: usize = 4096;

/// What one ruleset is made of, paths resolved.
pub struct Plan<'a> {
    pub deny: &'a [PathBuf],
    pub writable: &'a [PathBuf],
    /// TCP ports the hook may connect to; `None`: no network rule (the seccomp filter refuses
    /// every socket).
    pub tcp_ports: Option<&'a [u16]>,
}

/// The kernel's Landlock ABI, 0 without Landlock.
pub fn abi() -> i32 {
    // SAFETY: the documented version query: no attribute, size 0, the VERSION flag.
    let v = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<u8>(), 0usize, 1u32) };
    i32::try_from(v).unwrap_or(0).max(0)
}

/// Builds the ruleset: its descriptor, to be enforced in the hook's process between `clone` and
/// `execve`, and the notes about what could not be granted or handled.
pub fn ruleset(plan: &Plan<'_>, abi: ABI) -> Result<(OwnedFd, Vec<String>), String> {
    let mut notes = Vec::new();
    let all = AccessFs::from_all(abi);
    let read = AccessFs::from_read(abi);
    let err = |e: &dyn std::fmt::Display| format!("Landlock: {e}");
    let mut rs = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(all)
        .map_err(|e| err(&e))?;
    if plan.tcp_ports.is_some() {
        // TCP ports need ABI 4; without it the seccomp filter still refuses other sockets.
        rs = rs
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(AccessNet::from_all(abi))
            .map_err(|e| err(&e))?;
    }
    // A hook may not signal the host or reach its abstract sockets (ABI 6).
    rs = rs.set_compatibility(CompatLevel::BestEffort).scope(Scope::from_all(abi)).map_err(|e| err(&e))?;
    let mut created = rs.create().map_err(|e| err(&e))?.set_compatibility(CompatLevel::BestEffort);

    let (granted, ways) = readable(plan.deny, &mut notes);
    created = created.add_rules(path_beneath_rules(&granted, read)).map_err(|e| err(&e))?;
    for way in &ways {
        if let Ok(fd) = PathFd::new(way) {
            created = created.add_rule(PathBeneath::new(fd, AccessFs::ReadDir)).map_err(|e| err(&e))?;
        }
    }
    created = created.add_rules(path_beneath_rules(plan.writable, all)).map_err(|e| err(&e))?;
    let devices: BitFlags<AccessFs> = AccessFs::ReadFile | AccessFs::WriteFile;
    created = created
        .add_rules(path_beneath_rules(
            ["/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/dev/random"],
            devices,
        ))
        .map_err(|e| err(&e))?;
    for port in plan.tcp_ports.into_iter().flatten() {
        created = created.add_rule(NetPort::new(*port, AccessNet::ConnectTcp)).map_err(|e| err(&e))?;
    }
    let fd: Option<OwnedFd> = created.into();
    fd.map(|fd| (fd, notes)).ok_or_else(|| "Landlock is not available in this kernel".to_string())
}

/// The hierarchies granted for reading, and the directories on the way to a secret (listable
/// only). Secrets that do not exist need no rule: nothing can be read there, and the hook cannot
/// create them (the home is not writable).
fn readable(deny: &[PathBuf], notes: &mut Vec<String>) -> (Vec<PathBuf>, BTreeSet<PathBuf>) {
    let deny: BTreeSet<PathBuf> =
        deny.iter().filter_map(|d| std::fs::canonicalize(d).ok()).chain([PathBuf::from("/proc")]).collect();
    let mut ways: BTreeSet<PathBuf> = BTreeSet::new();
    for d in &deny {
        let mut up = d.parent();
        while let Some(p) = up {
            ways.insert(p.to_path_buf());
            up = p.parent();
        }
    }
    let mut granted = Vec::new();
    for way in &ways {
        let Ok(entries) = std::fs::read_dir(way) else { continue };
        for (n, entry) in entries.flatten().enumerate() {
            if n == MAX_SIBLINGS {
                notes.push(format!(
                    "{}: more than {MAX_SIBLINGS} entries; the rest are unreadable",
                    way.display()
                ));
                break;
            }
            // A symlinked sibling is never granted: a rule on it would grant its target, which
            // may be a way to a secret (pytest's `pytest-current` points back up). What it leads
            // to stays reachable through the target's own rule, since Landlock checks resolved
            // paths.
            if entry.file_type().is_ok_and(|t| t.is_symlink()) {
                continue;
            }
            let p = entry.path();
            if !ways.contains(&p) && !deny.contains(&p) {
                granted.push(p);
            }
        }
    }
    (granted, ways)
}

/// `~/x` under `home`; an absolute path as it is; anything else is refused.
pub fn expand(path: &str, home: &Path) -> Option<PathBuf> {
    match path.strip_prefix("~/") {
        Some(rest) => Some(home.join(rest)),
        None if path == "~" => Some(home.to_path_buf()),
        None => Path::new(path).is_absolute().then(|| PathBuf::from(path)),
    }
}
