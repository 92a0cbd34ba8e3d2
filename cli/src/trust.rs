//! `hookwire trust`: which project and local settings files are trusted, and recording trust
//! for them as they are now. The store format and the hashing are the core's.

use crate::Failure;
use crate::config::Source;
use crate::paint::Paint;
use serde_json::Value;

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("-").to_string()
}

pub fn run(source: &Source, record: bool, json: bool) -> Result<u8, Failure> {
    let loaded = source.load()?;
    let status = if record {
        hookwire_core::record_trust_for(&loaded.text).map_err(|e| Failure::new(e.details(), None))?
    } else {
        loaded.dispatcher.trust_status()
    };
    if json {
        say!("{status}");
        return Ok(0);
    }
    let p = Paint::stdout();
    say!("project    {}", text(&status, "project_dir"));
    let store = status.get("store").and_then(Value::as_str);
    match store {
        Some(s) => say!("store      {s}"),
        None => say!("store      none (default would be {})", text(&status, "default_store")),
    }
    let sources = status.get("sources").and_then(Value::as_array).cloned().unwrap_or_default();
    if sources.is_empty() {
        say!("no project or local settings to trust");
    }
    for s in &sources {
        let trusted = s.get("trusted").and_then(Value::as_bool).unwrap_or(false);
        let mark = if trusted { p.green("trusted  ") } else { p.red("untrusted") };
        say!("{mark}  {} {}", text(s, "scope"), p.cyan(&text(s, "label")));
        say!("           file    {}", text(s, "resolved"));
        if let Some(d) = s.get("digest").and_then(Value::as_str) {
            say!("           digest  {d}");
        }
        say!("           why     {}", text(s, "why"));
    }
    if record {
        say!("recorded trust for the files above as they are now; any edit untrusts them");
    } else if sources.iter().any(|s| s.get("trusted") != Some(&Value::Bool(true))) {
        say!("{}", p.dim("run `hookwire trust --record` (same options) to trust these files as they are"));
    }
    Ok(0)
}
