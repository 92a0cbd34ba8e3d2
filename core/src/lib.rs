//! hookwire-core: the lifecycle-hook engine shared by every hookwire binding.
//!
//! The engine reads top to bottom: configuration → event → matcher → runner → verdict →
//! fold → result. This file is the public Rust API and nothing else; the bindings (C, Python,
//! Node, Go) wrap only what is exported here.

mod batches;
pub mod bridge;
pub mod buffer_pool;
mod catalog;
mod config;
mod dialect;
mod dispatcher;
mod envfile;
pub mod error;
mod event;

pub mod files;
mod fold;
mod group_index;
mod host;
mod host_event;
mod host_step;
mod if_rule;
mod inprocess;
mod inspect;
pub mod install;
pub mod json;
mod json_escape;
mod launch;
mod lazy_regex;
mod load;
mod logs;
mod matcher;
mod nomatch;
pub mod port;
mod result;
mod result_cache;
mod runner;
mod sandbox;
pub mod schema;
mod select;
pub mod sent;
mod session;
mod turn_end;
mod verdict;

/// The Claude Code release the event catalogue and the host step match (agents.md §5.1).
pub use catalog::CLAUDE_CODE_VERSION;
pub use config::{LoadProblem, Severity, TrustEntry};
pub use dialect::info::{DialectInfo, dialects};
pub use dispatcher::{CancelToken, Dispatcher, FunctionHook};
pub use error::{ConfigError, ErrorDetails, ErrorKind, EventError, config_text, event_text};
pub use host::record_trust_for_bytes;
pub use host_event::{DEFAULT_PERMISSION_MODE, HostFacts, MAX_STOP_CONTINUATIONS};
pub use host_step::{Action as HostAction, Audience, HostStep, SeenBy};
pub use inprocess::{CallbackFn, HookFn};
pub use inspect::{HookInfo, PlanEntry, ToolReach, TrustStatus, record_trust_for};
pub use load::claude_code_defaults;
pub use logs::sink::{LogLevel, LogRecord, LogSink, LogSinkError, log_level, set_log_sink};
pub use result::{FireResult, Outcome};
pub use runner::backend as runner_backend;
pub use sandbox::support as sandbox_support;
pub use verdict::{Decision, Status, Verdict, VerdictSource};

/// The version of hookwire (`MAJOR.MINOR.PATCH`), the same for every crate and binding.
/// The names of the dialects hookwire speaks (protocol.md §9, agents.md), in the order error
/// messages list them: what `dialect` accepts on an envelope and on a source.
pub fn dialect_names() -> Vec<&'static str> {
    catalog::ALL_DIALECTS.iter().map(|d| d.as_str()).collect()
}

/// The dialect a settings file is written in, from its path and content, when nobody named it:
/// the dialect whose claim is strongest (its directory, its syntax, its content; see
/// `dialect/claim.rs`), Claude Code when none claims it. `hookwire validate` and
/// `hookwire fire --config` use it.
pub fn detect_dialect(path: &std::path::Path, text: &str) -> &'static str {
    dialect::claim::detect(path, text).as_str()
}

/// The dialect of a settings file as the agent named `reader` reads it: the agent's own when
/// the file lies where it reads its hooks, its own way, though another agent claims the place
/// too (VS Code and Copilot CLI's `.github/hooks/`); else [`detect_dialect`]'s. `hookwire
/// bridge --hooks` uses it.
pub fn detect_dialect_for(path: &std::path::Path, text: &str, reader: &str) -> &'static str {
    match catalog::Dialect::parse(reader) {
        Some(r) => dialect::claim::detect_for(path, text, r).as_str(),
        None => detect_dialect(path, text),
    }
}

/// How a fire of an envelope of dialect `name` runs and folds its hooks, in one line for
/// people; `None` for an unknown name.
pub fn dialect_fold_summary(name: &str) -> Option<&'static str> {
    catalog::Dialect::parse(name).map(|d| d.rules().profile().fold_summary)
}

pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
