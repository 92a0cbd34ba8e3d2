//! The README quick start: build a dispatcher from a settings file, fire a PreToolUse event,
//! print the result JSON.
//!
//! `cargo run --release -p hookwire-core --example quickstart [SETTINGS] [EVENT]`
//! (defaults: `examples/settings.json` and `examples/pre-tool-use.json` at the repo root).

use std::process::ExitCode;

fn main() -> ExitCode {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut args = std::env::args().skip(1);
    let settings = args.next().unwrap_or_else(|| format!("{root}/examples/settings.json"));
    let event = args.next().unwrap_or_else(|| format!("{root}/examples/pre-tool-use.json"));
    let read = |p: &str| std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"));
    let (settings, event) = match (read(&settings), read(&event)) {
        (Ok(s), Ok(e)) => (s, e),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("{e}");
            return ExitCode::from(64);
        }
    };
    let dispatcher = match hookwire_core::Dispatcher::new(&settings) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}", e.details().to_json());
            return ExitCode::from(1);
        }
    };
    match dispatcher.fire_json(&event) {
        Ok(result) => {
            println!("{result}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", e.details().to_json());
            ExitCode::from(1)
        }
    }
}
