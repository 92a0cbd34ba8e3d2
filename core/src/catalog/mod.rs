//! The vocabulary every stage shares, at the bottom of the crate: the event catalogue
//! (protocol.md §3.2), the dialects' names and the small enums of the configuration model.
//! It imports nothing else of the crate, so that every other module may import it.

mod dialects;
#[cfg(test)]
mod doc_table;
mod events;
mod kinds;
mod tools;

pub(crate) use dialects::for_each_dialect;
pub use dialects::{ALL as ALL_DIALECTS, Dialect};
pub use events::{
    CLAUDE_CODE_VERSION, Decisions, EventId, EventSpec, Exit2, GuardReset, MatchOn, count, lookup,
    lookup_native, spec,
};
pub use kinds::{HandlerType, Rules, Scope, Shell};
pub use tools::CLAUDE_CODE_TOOLS;
