//! hookwire-core: the lifecycle-hook engine shared by every hookwire binding.
//!
//! The engine reads top to bottom: configuration → event → matcher → runner → verdict →
//! fold → result. This file is the public Rust API and nothing else; the bindings (C, Python,
//! Node, Go) wrap only what is exported here.

mod config;
mod dialect;
mod dispatcher;
mod envfile;
pub mod error;
mod event;
mod files;
mod fold;
mod host;
mod if_rule;
mod inprocess;
mod inspect;
pub mod json;
mod matcher;
mod nomatch;
mod result;
mod runner;
mod session;
mod verdict;

pub use config::claude_code_defaults;
pub use dispatcher::{CancelToken, Dispatcher, FunctionHook};
pub use error::{ConfigError, ErrorDetails, ErrorKind, EventError};
pub use host::{config_text, event_text, record_trust_for_bytes};
pub use inprocess::{CallbackFn, HookFn};
pub use inspect::{HookInfo, PlanEntry, record_trust_for};
pub use result::{FireResult, Outcome};
pub use verdict::{Decision, Status, Verdict, VerdictSource};

/// The version of hookwire (`MAJOR.MINOR.PATCH`), the same for every crate and binding.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
