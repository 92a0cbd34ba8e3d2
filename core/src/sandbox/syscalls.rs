//! The seccomp filter of a sandboxed hook (compiled with `seccompiler`, installed in the hook's
//! process before `execve`): what hooks never need is refused with `EPERM` (debugging other
//! processes, mounting, kernel modules and keys, BPF, namespaces, io_uring, which would pass
//! socket operations by the filter, rebooting), and sockets: none at all without network (Unix
//! sockets included: an ssh-agent or a Docker socket reached by path is a way out), or only TCP
//! ones (Landlock then filters their ports). `clone3` answers `ENOSYS`, so that the C library
//! falls back to `clone`, whose flags the filter can read.

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule,
    TargetArch,
};
use std::collections::BTreeMap;

/// Refused outright.
const REFUSED: &[i64] = &[
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_kcmp,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_move_mount,
    libc::SYS_open_tree,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_unshare,
    libc::SYS_setns,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_syslog,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_adjtimex,
    libc::SYS_fanotify_init,
    libc::SYS_pidfd_getfd,
];

/// `clone` flags that make namespaces.
const NAMESPACE_FLAGS: u64 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWCGROUP) as u64;

fn arch() -> TargetArch {
    #[cfg(target_arch = "aarch64")]
    return TargetArch::aarch64;
    #[cfg(target_arch = "riscv64")]
    return TargetArch::riscv64;
    #[cfg(not(any(target_arch = "aarch64", target_arch = "riscv64")))]
    TargetArch::x86_64
}

fn cond(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, String> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).map_err(|e| format!("seccomp: {e}"))
}

fn rule(conds: Vec<SeccompCondition>) -> Result<SeccompRule, String> {
    SeccompRule::new(conds).map_err(|e| format!("seccomp: {e}"))
}

/// The two programs a sandboxed hook installs: the kernel runs every installed filter and takes
/// the strictest answer.
pub struct Filters {
    /// `clone3` answers `ENOSYS`.
    pub clone3: BpfProgram,
    /// Everything else refused answers `EPERM`.
    pub refuse: BpfProgram,
}

/// The filters: `tcp` lets TCP sockets be made (the profile allows some ports).
pub fn filters(tcp: bool) -> Result<Filters, String> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = REFUSED.iter().map(|n| (*n, Vec::new())).collect();
    let masked = SeccompCmpOp::MaskedEq;
    // A clone that makes any namespace; each flag its own rule (rules are or-ed).
    let mut clone_rules = Vec::new();
    for bit in (0..64).map(|b| 1u64 << b).filter(|b| NAMESPACE_FLAGS & b != 0) {
        clone_rules.push(rule(vec![cond(0, masked(bit), bit)?])?);
    }
    rules.insert(libc::SYS_clone, clone_rules);
    let socket = if tcp {
        // Anything but AF_INET / AF_INET6, or a type other than SOCK_STREAM.
        let mut r = vec![rule(vec![
            cond(0, SeccompCmpOp::Ne, libc::AF_INET as u64)?,
            cond(0, SeccompCmpOp::Ne, libc::AF_INET6 as u64)?,
        ])?];
        for ty in [libc::SOCK_DGRAM, libc::SOCK_RAW, libc::SOCK_RDM, libc::SOCK_SEQPACKET, 6, 10] {
            r.push(rule(vec![cond(1, masked(0xf), ty as u64)?])?);
        }
        r
    } else {
        Vec::new()
    };
    rules.insert(libc::SYS_socket, socket);
    let compile = |rules, answer: i32| -> Result<BpfProgram, String> {
        let f = SeccompFilter::new(rules, SeccompAction::Allow, SeccompAction::Errno(answer as u32), arch())
            .map_err(|e| format!("seccomp: {e}"))?;
        f.try_into().map_err(|e: seccompiler::BackendError| format!("seccomp: {e}"))
    };
    Ok(Filters {
        clone3: compile(BTreeMap::from([(libc::SYS_clone3, Vec::new())]), libc::ENOSYS)?,
        refuse: compile(rules, libc::EPERM)?,
    })
}
