//! `hookwire dialects`: every dialect hookwire speaks, with its files, shape, fold, timeout
//! unit and events, as the core's profiles say (`hookwire_core::dialects`). The table in
//! docs/dialects.md is this command's output, checked by a test.

use crate::Failure;
use serde_json::json;

/// The Markdown table of every dialect (what docs/dialects.md shows).
pub fn table() -> String {
    let mut out = String::from(
        "| dialect | files | shape | timeout unit | strategy | events | differs from Claude Code |\n|---|---|---|---|---|---|---|\n",
    );
    for d in hookwire_core::dialects() {
        let strategy = d.strategy.split([':', ';']).next().unwrap_or(d.strategy);
        let events = if d.name == "claude-code" {
            format!("the catalogue's {} events", d.events.len())
        } else {
            d.events.iter().map(|e| format!("`{e}`")).collect::<Vec<_>>().join(", ")
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            d.name,
            d.files,
            d.shape,
            d.timeout_unit,
            strategy,
            events,
            if d.differs.is_empty() { "(it is Claude Code)" } else { d.differs }
        ));
    }
    out
}

pub fn run(json: bool) -> Result<u8, Failure> {
    if json {
        say!("{}", json!({ "dialects": hookwire_core::dialects() }));
    } else {
        print!("{}", table());
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_table_in_docs_dialects_md_is_the_commands_output() {
        let docs =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/dialects.md")).unwrap();
        let table = super::table();
        assert!(
            docs.contains(&table),
            "docs/dialects.md's table is stale; replace it with the output of `hookwire dialects`:\n{table}"
        );
    }
}
