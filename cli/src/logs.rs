//! `-v`, `--log-level` and `HOOKWIRE_LOG`: the engine's events (docs/logging.md) as lines on
//! stderr, through `tracing-subscriber`'s formatter. Stdout is never written here: it carries
//! the JSON. Without any of the three, no subscriber is installed and the engine's events cost
//! what they cost in a library, one atomic load each.

use clap::Args;
use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// The environment variable read when neither `-v` nor `--log-level` is given.
const ENV: &str = "HOOKWIRE_LOG";

#[derive(Args, Clone, Debug, Default)]
pub struct LogArgs {
    /// Log what the engine does, on stderr: -v info (one line per fire that ran hooks), -vv
    /// debug (why each hook runs or not, its process, its verdict), -vvv trace (also each
    /// hook's stdin, stdout and stderr, which may hold secrets).
    #[arg(short = 'v', long = "verbose", action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Log at LEVEL (off, error, warn, info, debug, trace), or by an env-filter such as
    /// `hookwire::hook=debug,hookwire::fire=info`. Wins over -v, which wins over $HOOKWIRE_LOG
    /// (same syntax).
    #[arg(long, value_name = "LEVEL", global = true, value_parser = parse_filter)]
    log_level: Option<String>,
}

/// A level alone stands for every hookwire target; anything else is an env-filter.
fn directives(text: &str) -> String {
    let t = text.trim();
    match hookwire_core::LogLevel::parse(t) {
        Some(level) => format!("hookwire={level}"),
        None => t.to_string(),
    }
}

fn parse_filter(text: &str) -> Result<String, String> {
    EnvFilter::try_new(directives(text)).map(|_| text.to_string()).map_err(|e| e.to_string())
}

/// Installs the stderr logger the arguments (or `HOOKWIRE_LOG`) ask for, if any. A bad
/// `HOOKWIRE_LOG` is reported on stderr and ignored: the command still runs.
pub fn init(args: &LogArgs) {
    let from_flags = match (&args.log_level, args.verbose) {
        (Some(text), _) => Some(text.clone()),
        (None, 0) => None,
        (None, 1) => Some("info".to_string()),
        (None, 2) => Some("debug".to_string()),
        (None, _) => Some("trace".to_string()),
    };
    let text = match from_flags.or_else(|| std::env::var(ENV).ok().filter(|t| !t.trim().is_empty())) {
        Some(t) => t,
        None => return,
    };
    let filter = match EnvFilter::try_new(directives(&text)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("hookwire: {ENV} ignored: {e}");
            return;
        }
    };
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none())
        .try_init();
}

/// Whether log lines may appear on stderr (then the spinner stays away from it).
pub fn active() -> bool {
    tracing::level_filters::LevelFilter::current() != tracing::level_filters::LevelFilter::OFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_stands_for_every_hookwire_target_and_a_filter_is_kept() {
        assert_eq!(directives("debug"), "hookwire=debug");
        assert_eq!(directives(" WARNING "), "hookwire=warn");
        assert_eq!(directives("hookwire::hook=trace"), "hookwire::hook=trace");
        assert!(parse_filter("hookwire::fire=info,hookwire::hook=debug").is_ok());
        assert!(parse_filter("hookwire=loud").is_err());
    }
}
