//! The event catalogue tables of `docs/protocol.md` §3.2, generated from [`super::events`]: the
//! test fails when the page and the catalogue disagree (an event added, a matcher field, what
//! exit 2 does, whether it can block, which dialect a native-only event belongs to...), and
//! `HOOKWIRE_BLESS=1` rewrites the tables in the page instead.

use super::Rules;
use super::events::{CATALOGUE, Decisions, EventSpec, Exit2, GuardReset, Handlers, MatchOn, NATIVE_ONLY};

const BLESS: &str = "HOOKWIRE_BLESS=1 cargo test -p hookwire-core --lib catalog::doc_table";
const BEGIN: &str = "<!-- catalogue: generated from core/src/catalog/events.rs; do not edit by hand -->\n";
const END: &str = "<!-- catalogue: end -->\n";

fn code(s: &str) -> String {
    format!("`{s}`")
}

fn codes(list: &[&str]) -> String {
    list.iter().map(|s| code(s)).collect::<Vec<_>>().join(", ")
}

fn matcher_on(e: &EventSpec) -> String {
    let mut s = match e.match_on {
        MatchOn::Nothing => "—".to_string(),
        MatchOn::Field(f) => code(f),
        MatchOn::Basename(f) => format!("basename of {}", code(f)),
    };
    if !e.matcher_values.is_empty() {
        s.push_str(&format!(" ({})", codes(e.matcher_values)));
    }
    if e.narrow_matcher {
        s.push_str(" (narrow)");
    }
    s
}

fn exit2(e: &EventSpec) -> &'static str {
    match e.exit2 {
        Exit2::Deny => "deny",
        Exit2::Block => "block",
        Exit2::User => "user",
        Exit2::Ignored => "ignored",
        Exit2::BlockCurrentUserClassic => "block (current), user (classic)",
        Exit2::BlockUnlessPolicy => "block, ignored when `source` is `policy_settings`",
        Exit2::AnyNonZeroBlocks => "any non-zero exit blocks",
    }
}

fn decisions(e: &EventSpec) -> &'static str {
    match e.decisions {
        Decisions::None => "—",
        Decisions::Permission if e.refuses_defer => "allow, deny, ask",
        Decisions::Permission => "allow, deny, ask, defer",
        Decisions::PermissionRequest => "allow, deny",
        Decisions::Block => "block",
    }
}

fn can_block(e: &EventSpec) -> &'static str {
    match (e.can_block(Rules::Current), e.can_block(Rules::Classic)) {
        (true, true) => "yes",
        (true, false) => "current only",
        (false, true) => "classic only",
        (false, false) => "no",
    }
}

fn output(e: &EventSpec) -> String {
    if e.discards_all_json {
        return "none: all JSON discarded".into();
    }
    if e.only_terminal_sequence {
        return "`terminalSequence` only".into();
    }
    let mut parts = Vec::new();
    if e.top_decision {
        parts.push("top `decision`/`reason`".to_string());
    }
    if !e.hso.is_empty() {
        parts.push(format!("hSO {}", codes(e.hso)));
    }
    if e.text_is_context {
        parts.push("plain stdout is context".into());
    }
    if parts.is_empty() { "—".into() } else { parts.join("; ") }
}

fn handlers(e: &EventSpec) -> &'static str {
    match e.handlers {
        Handlers::All => "all",
        Handlers::CommandMcp => "command, mcp_tool",
        Handlers::CommandHttpMcp => "command, http, mcp_tool",
    }
}

fn notes(e: &EventSpec) -> String {
    let mut n = Vec::new();
    if e.tool_event {
        n.push("`if` applies".to_string());
    }
    if let Some(t) = e.current_timeout_s {
        n.push(format!("default timeout {t} s (current)"));
    }
    match (e.has_env_file(Rules::Current), e.has_env_file(Rules::Classic)) {
        (true, true) => n.push("`CLAUDE_ENV_FILE`".into()),
        (true, false) => n.push("`CLAUDE_ENV_FILE` (current)".into()),
        _ => {}
    }
    if e.stop_like {
        n.push("Stop guard (§5.11)".into());
    }
    match e.resets_stop_guard {
        GuardReset::No => {}
        GuardReset::Agent => n.push("restarts its agent's Stop guard".into()),
        GuardReset::Session => n.push("restarts the session's Stop guard".into()),
    }
    if e.no_reason_is_blocked_by_hook {
        n.push("a block without a reason reads `Blocked by hook`".into());
    }
    let discards: Vec<&str> =
        [(e.discards_continue, "`continue`"), (e.discards_system_message, "`systemMessage`")]
            .into_iter()
            .filter_map(|(on, what)| on.then_some(what))
            .collect();
    if !discards.is_empty() {
        n.push(format!("discards {}", discards.join(", ")));
    }
    n.join("; ")
}

/// One Markdown table: the header row, its rule, then a row per entry.
fn table(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> String {
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let mut out = line(&header.iter().map(|h| h.to_string()).collect::<Vec<_>>());
    out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for cells in rows {
        out.push_str(&line(&cells));
    }
    out
}

/// The two tables, between their markers.
fn tables() -> String {
    let canonical = table(
        &["event", "matcher on", "exit 2", "decisions", "can block", "output", "handlers", "notes"],
        CATALOGUE.iter().map(|e| {
            vec![
                code(e.name),
                matcher_on(e),
                exit2(e).into(),
                decisions(e).into(),
                can_block(e).into(),
                output(e),
                handlers(e).into(),
                notes(e),
            ]
        }),
    );
    let native = table(
        &["event", "dialect", "matcher on", "exit 2", "decisions"],
        NATIVE_ONLY.iter().map(|e| {
            vec![
                code(e.name),
                code(e.native_of.unwrap_or("?")),
                matcher_on(e),
                exit2(e).into(),
                decisions(e).into(),
            ]
        }),
    );
    format!(
        "{BEGIN}{canonical}\nNative-only events (§9.0), each fired only to its own dialect's hooks:\n\n{native}{END}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/protocol.md")
    }

    #[test]
    fn the_catalogue_tables_in_docs_protocol_md_are_the_catalogue() {
        let text = std::fs::read_to_string(page()).unwrap();
        let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else {
            panic!("docs/protocol.md §3.2 lacks the catalogue markers `{}` … `{}`", BEGIN.trim(), END.trim());
        };
        let fresh = tables();
        let committed = &text[start..end + END.len()];
        if committed == fresh {
            return;
        }
        if std::env::var_os("HOOKWIRE_BLESS").is_some() {
            let rewritten = format!("{}{}{}", &text[..start], fresh, &text[end + END.len()..]);
            std::fs::write(page(), rewritten).unwrap();
            return;
        }
        let line = committed.lines().zip(fresh.lines()).position(|(a, b)| a != b).map_or_else(
            || "one is a prefix of the other".to_string(),
            |i| format!("table line {} differs", i + 1),
        );
        panic!(
            "docs/protocol.md §3.2 disagrees with core/src/catalog/events.rs ({line}).\n\
             Review the catalogue change, then regenerate the page's tables with:\n    {BLESS}"
        );
    }

    #[test]
    fn every_event_of_the_catalogue_has_a_row() {
        let t = tables();
        for e in CATALOGUE.iter().chain(NATIVE_ONLY) {
            assert!(t.contains(&format!("| `{}` |", e.name)), "{} has no row", e.name);
        }
        assert!(NATIVE_ONLY.iter().all(|e| e.native_of.is_some()));
    }
}
