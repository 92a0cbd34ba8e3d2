//! The sandbox where there is none to enter (every target but Linux: Landlock and seccomp are
//! Linux's, and the portable runner's `posix_spawn` runs no code before `execve`). A required
//! sandbox refuses to run, with the reason; a best-effort one runs the hook unconfined and
//! its warning says so. The same outcomes as on a Linux kernel without Landlock or seccomp.

use super::policy::{Enforcement, Policy};
use std::path::{Path, PathBuf};

/// Where a sandboxed hook would run (the Linux `Places`, for one call site on every target).
/// Nothing reads it: there is nothing to confine.
#[allow(dead_code)]
pub struct Places<'a> {
    pub project: &'a Path,
    pub tmp: Option<&'a Path>,
    pub env_file: Option<&'a Path>,
    pub homes: Vec<PathBuf>,
    pub deadline: std::time::Instant,
}

/// Nothing to apply: the runner has no step between spawn and `execve` for it.
#[derive(Debug)]
pub struct Confinement {
    /// What could not be applied: everything.
    pub not_applied: Vec<String>,
}

impl Confinement {
    pub fn build(p: &Policy, _places: &Places<'_>) -> Result<Confinement, String> {
        let what = format!("the hook sandbox is not available on this platform ({})", std::env::consts::OS);
        match p.enforcement {
            Enforcement::Required => Err(format!("sandbox {:?} is required but {what}", p.profile)),
            Enforcement::BestEffort => {
                Ok(Confinement { not_applied: vec![format!("{what}: the hook runs unconfined")] })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_required_sandbox_refuses_and_a_best_effort_one_runs_unconfined_and_says_so() {
        let places = Places {
            project: Path::new("/p"),
            tmp: None,
            env_file: None,
            homes: Vec::new(),
            deadline: std::time::Instant::now(),
        };
        let mut p = Policy::named("strict").expect("a named profile");
        p.enforcement = Enforcement::Required;
        let why = Confinement::build(&p, &places).unwrap_err();
        assert!(why.contains("required") && why.contains("not available on this platform"), "{why}");
        p.enforcement = Enforcement::BestEffort;
        let c = Confinement::build(&p, &places).unwrap();
        assert!(c.not_applied.len() == 1 && c.not_applied[0].contains("runs unconfined"), "{c:?}");
    }
}
