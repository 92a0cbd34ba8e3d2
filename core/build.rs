//! Sets `cfg(portable_runner)` when hooks run through the portable POSIX backend: on every
//! target but Linux, and on Linux with the `portable-runner` feature. One name, so that every
//! `cfg` in `src/runner/` says what it means rather than repeating the condition.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(portable_runner)");
    println!("cargo::rerun-if-changed=build.rs");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    let feature = std::env::var_os("CARGO_FEATURE_PORTABLE_RUNNER").is_some();
    if feature || !linux {
        println!("cargo::rustc-cfg=portable_runner");
    }
}
