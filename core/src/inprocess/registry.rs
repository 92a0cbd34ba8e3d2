//! What the host registers on a dispatcher after load (issue 8): callbacks for the delegated
//! handler types, and functions as hooks. The selector reads it with the configuration.

use super::{CallbackFn, HookFn};
use crate::catalog::{EventId, HandlerType};
use crate::config::Handler;
use crate::matcher::Matcher;
use std::collections::HashMap;

/// Host callbacks per delegated handler type, and function hooks.
#[derive(Default)]
pub struct Registry {
    pub callbacks: HashMap<HandlerType, CallbackFn>,
    pub functions: Vec<Registered>,
}

/// One function hook: where it runs, and the handler that stands for it in a fire.
pub struct Registered {
    pub event: EventId,
    pub matcher: Matcher,
    /// Runs before the configured hooks instead of after them.
    pub first: bool,
    pub handler: Handler,
    pub f: HookFn,
}
