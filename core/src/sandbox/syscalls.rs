//! The seccomp filter of a sandboxed hook (compiled with `seccompiler`, installed in the hook's
//! process before `execve`): what hooks never need is refused with `EPERM` (debugging other
//! processes, mounting, kernel modules and keys, BPF, namespaces, io_uring, which would pass
//! socket operations by the filter, rebooting), and sockets: none at all without network (Unix
//! sockets included: an ssh-agent or a Docker socket reached by path is a way out), or only TCP
//! ones (Landlock then filters their ports), or, under an allow-list of hosts, TCP and UDP
//! ones whose every `connect` and addressed send goes to hookwire's supervisor (a third
//! program, answering `SECCOMP_RET_USER_NOTIF`). `clone3` answers `ENOSYS`, so that the C
//! library falls back to `clone`, whose flags the filter can read.

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

/// The programs a sandboxed hook installs: the kernel runs every installed filter and takes
/// the strictest answer (an `EPERM` wins over a notification).
pub struct Filters {
    /// `clone3` answers `ENOSYS`.
    pub clone3: BpfProgram,
    /// Everything else refused answers `EPERM`.
    pub refuse: BpfProgram,
    /// Under an allow-list of hosts: the calls the supervisor answers (installed with
    /// `SECCOMP_FILTER_FLAG_NEW_LISTENER`).
    pub notify: Option<BpfProgram>,
}

/// Which sockets a hook may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sockets {
    None,
    /// TCP ones (Landlock filters their ports).
    Tcp,
    /// TCP and UDP ones, every destination checked by the supervisor.
    Supervised,
}

/// `SECCOMP_RET_TRACE`, which seccompiler can emit, rewritten to `SECCOMP_RET_USER_NOTIF`,
/// which it cannot.
const RET_TRACE: u32 = 0x7ff0_0000;
/// `BPF_RET | BPF_K`.
const BPF_RET_K: u16 = 0x06;

/// The filters for `sockets`.
pub fn filters(sockets: Sockets) -> Result<Filters, String> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = REFUSED.iter().map(|n| (*n, Vec::new())).collect();
    let masked = SeccompCmpOp::MaskedEq;
    // A clone that makes any namespace; each flag its own rule (rules are or-ed).
    let mut clone_rules = Vec::new();
    for bit in (0..64).map(|b| 1u64 << b).filter(|b| NAMESPACE_FLAGS & b != 0) {
        clone_rules.push(rule(vec![cond(0, masked(bit), bit)?])?);
    }
    rules.insert(libc::SYS_clone, clone_rules);
    let socket = if sockets == Sockets::None {
        Vec::new()
    } else {
        // Anything but AF_INET / AF_INET6, or a type other than SOCK_STREAM (and SOCK_DGRAM
        // when supervised).
        let mut r = vec![rule(vec![
            cond(0, SeccompCmpOp::Ne, libc::AF_INET as u64)?,
            cond(0, SeccompCmpOp::Ne, libc::AF_INET6 as u64)?,
        ])?];
        for ty in [libc::SOCK_DGRAM, libc::SOCK_RAW, libc::SOCK_RDM, libc::SOCK_SEQPACKET, 6, 10] {
            if !(ty == libc::SOCK_DGRAM && sockets == Sockets::Supervised) {
                r.push(rule(vec![cond(1, masked(0xf), ty as u64)?])?);
            }
        }
        r
    };
    rules.insert(libc::SYS_socket, socket);
    if sockets == Sockets::Supervised {
        // TCP Fast Open connects from a send, to the send's address, which the supervisor
        // would not see: the flag and the socket option are refused.
        let fastopen = libc::MSG_FASTOPEN as u64;
        rules.insert(libc::SYS_sendto, vec![rule(vec![cond(3, masked(fastopen), fastopen)?])?]);
        rules.insert(libc::SYS_sendmsg, vec![rule(vec![cond(2, masked(fastopen), fastopen)?])?]);
        rules.insert(
            libc::SYS_setsockopt,
            vec![rule(vec![
                cond(1, SeccompCmpOp::Eq, libc::IPPROTO_TCP as u64)?,
                cond(2, SeccompCmpOp::Eq, libc::TCP_FASTOPEN_CONNECT as u64)?,
            ])?],
        );
    }
    let compile = |rules, action: SeccompAction| -> Result<BpfProgram, String> {
        let f = SeccompFilter::new(rules, SeccompAction::Allow, action, arch())
            .map_err(|e| format!("seccomp: {e}"))?;
        let program: BpfProgram =
            f.try_into().map_err(|e: seccompiler::BackendError| format!("seccomp: {e}"))?;
        Ok(refuse_x32(program))
    };
    let notify = match sockets {
        Sockets::Supervised => {
            // Every connect and every send that may carry an address (`sendto` with one;
            // `sendmsg` and `sendmmsg` keep theirs in memory the filter cannot read).
            let addressed = rule(vec![
                SeccompCondition::new(4, SeccompCmpArgLen::Qword, SeccompCmpOp::Ne, 0)
                    .map_err(|e| format!("seccomp: {e}"))?,
            ])?;
            let calls = BTreeMap::from([
                (libc::SYS_connect, Vec::new()),
                (libc::SYS_sendto, vec![addressed]),
                (libc::SYS_sendmsg, Vec::new()),
                (libc::SYS_sendmmsg, Vec::new()),
            ]);
            let mut program = compile(calls, SeccompAction::Trace(0))?;
            for i in program.iter_mut().filter(|i| i.code == BPF_RET_K && i.k == RET_TRACE) {
                i.k = libc::SECCOMP_RET_USER_NOTIF;
            }
            Some(program)
        }
        _ => None,
    };
    Ok(Filters {
        clone3: compile(
            BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
            SeccompAction::Errno(libc::ENOSYS as u32),
        )?,
        refuse: compile(rules, SeccompAction::Errno(libc::EPERM as u32))?,
        notify,
    })
}

/// On x86_64, x32 system calls (numbers with bit 30 set, same audit arch) answer `EPERM`
/// before the rules, which name the 64-bit numbers only: an x32 `connect` would otherwise pass
/// every rule (on kernels built with `CONFIG_X86_X32_ABI`). Prepended: BPF jumps are relative,
/// so the program after it is unchanged.
fn refuse_x32(program: BpfProgram) -> BpfProgram {
    if !cfg!(target_arch = "x86_64") {
        return program;
    }
    let op = |code: u16, jt: u8, jf: u8, k: u32| seccompiler::sock_filter { code, jt, jf, k };
    let mut out = vec![
        // BPF_LD | BPF_W | BPF_ABS: the syscall number (offset 0 of `seccomp_data`).
        op(0x20, 0, 0, 0),
        // BPF_JMP | BPF_JGE | BPF_K: x32 → the next instruction, else skip it.
        op(0x35, 0, 1, 0x4000_0000),
        op(BPF_RET_K, 0, 0, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32),
    ];
    out.extend(program);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_supervised_profile_has_a_notifying_program_and_it_never_traces() {
        assert!(filters(Sockets::Tcp).unwrap().notify.is_none());
        let p = filters(Sockets::Supervised).unwrap().notify.unwrap();
        let rets: Vec<u32> = p.iter().filter(|i| i.code == BPF_RET_K).map(|i| i.k).collect();
        assert!(rets.contains(&libc::SECCOMP_RET_USER_NOTIF), "{rets:x?}");
        assert!(!rets.contains(&RET_TRACE), "{rets:x?}");
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn every_program_refuses_x32_calls_before_its_rules() {
        let f = filters(Sockets::Supervised).unwrap();
        for p in [&f.clone3, &f.refuse, f.notify.as_ref().unwrap()] {
            let head: Vec<(u16, u32)> = p.iter().take(3).map(|i| (i.code, i.k)).collect();
            assert_eq!(head, [(0x20, 0), (0x35, 0x4000_0000), (BPF_RET_K, 0x0005_0000 | libc::EPERM as u32)]);
        }
    }
}
