//! hookwire-core: the lifecycle-hook engine shared by every hookwire binding.
//!
//! The engine reads top to bottom: configuration → event → matcher → runner → verdict →
//! fold → result. This file is the public Rust API and nothing else; the bindings (C, Python,
//! Node, Go) wrap only what is exported here.

mod dispatcher;
pub mod error;

pub use dispatcher::Dispatcher;
pub use error::{ConfigError, ErrorDetails, ErrorKind, EventError};

/// The version of hookwire (`MAJOR.MINOR.PATCH`), the same for every crate and binding.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
