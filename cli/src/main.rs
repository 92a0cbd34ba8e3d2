//! `hookwire`: the command line for hook authors and for agents without a binding. It parses
//! arguments, loads a configuration through hookwire-core and prints what the engine says;
//! every rule of the protocol stays in the core, this crate only reads files and renders.

/// `println!` that ignores a closed stdout (`hookwire list | head`), where `println!` panics,
/// and shows rather than sends what a terminal would obey ([`visible`]).
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($t)*);
        let shown = $crate::visible::visible(&text, $crate::paint::Paint::stdout().is_on());
        let _ = writeln!(std::io::stdout().lock(), "{shown}");
    }};
}

/// `eprintln!` for text that quotes what others wrote (a configuration, a hook, a payload):
/// shown, not obeyed ([`visible`]); a closed stderr ignored.
macro_rules! tell {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let text = format!($($t)*);
        let shown = $crate::visible::visible(&text, $crate::paint::Paint::stderr().is_on());
        let _ = writeln!(std::io::stderr().lock(), "{shown}");
    }};
}

mod bridge;
mod config;
mod dialects;
mod doctor;
mod explain;
mod hooktest;
mod install;
mod list;
mod locate;
mod logs;
mod oneshot;
mod paint;
mod port;
mod progress;
mod stdin;
mod trust;
mod validate;
mod visible;
mod words;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use hookwire_core::ErrorDetails;
use std::path::PathBuf;
use std::process::ExitCode;

const EXIT_CODES: &str = "\
Exit codes of `fire` and `explain`:
  0  the decision is allow, ask, defer or none (read `decision` in the JSON for ask/defer)
  2  the decision is deny or block
  1  an error: unreadable or invalid configuration or event
`port --check` exits 3 when the port loses meaning.
Every other subcommand exits 0 on success and 1 on an error (`validate`: any invalid file;
`test`: any case that fails or cannot run).";

#[derive(Parser)]
#[command(
    name = "hookwire",
    version,
    about = "Validate, list, fire, explain and test lifecycle hooks of AI coding agents"
)]
#[command(after_help = EXIT_CODES)]
struct Cli {
    /// Print JSON for machines instead of text for people.
    #[arg(long, global = true)]
    json: bool,
    #[command(flatten)]
    log: logs::LogArgs,
    #[command(subcommand)]
    command: Command,
}

/// Where the configuration comes from.
#[derive(Args, Clone)]
struct ConfigArgs {
    /// A settings file (`{"hooks": ...}`) or an envelope (`{"sources": [...], ...}`), JSON.
    /// Relative source paths in an envelope resolve against its `project_dir`. Default: Claude
    /// Code's user, project and local settings files of the project directory, project ones
    /// gated on the trust store.
    #[arg(long, short = 'c', value_name = "FILE")]
    config: Option<PathBuf>,
    /// The project directory of the default configuration (default: the current directory).
    #[arg(long, value_name = "DIR", conflicts_with = "config")]
    project: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Every dialect hookwire speaks: its files, document shape, timeout unit, how a fire runs
    /// and folds, and its event names (a Markdown table; --json for the data).
    Dialects,
    /// Parse settings files of any dialect and print every error and warning with file, line,
    /// column and JSON pointer. Exits 1 when a file has errors.
    Validate {
        /// Settings files (JSON, YAML or TOML).
        #[arg(required = true, value_name = "FILES")]
        files: Vec<PathBuf>,
        /// The dialect of every file; by default detected from its name and content:
        /// claude-code, codex, gemini, cursor, jcode, neocode, ok, j-cli or ub.
        #[arg(long, value_name = "D")]
        dialect: Option<String>,
    },
    /// The resolved hooks after layering, trust and switches, with the source each comes from;
    /// with --event (and --tool), which would run for that event and why.
    List {
        #[command(flatten)]
        config: ConfigArgs,
        /// An event name (PreToolUse, Stop, ...) or a path to an event JSON file.
        #[arg(long, value_name = "E")]
        event: Option<String>,
        /// The tool name of a tool event (sets `tool_name`).
        #[arg(long, value_name = "T")]
        tool: Option<String>,
    },
    /// Dispatch one event (from a file, or stdin with `-` or nothing) and print the result JSON.
    #[command(after_help = EXIT_CODES)]
    Fire {
        #[command(flatten)]
        config: ConfigArgs,
        /// Indent the result JSON.
        #[arg(long)]
        pretty: bool,
        /// The event JSON file; `-` or nothing reads stdin.
        #[arg(value_name = "EVENT_FILE")]
        event: Option<PathBuf>,
    },
    /// Dispatch one event like `fire` and explain for a person what each hook did, how its
    /// output was read and how the fold chose the final decision.
    #[command(after_help = EXIT_CODES)]
    Explain {
        #[command(flatten)]
        config: ConfigArgs,
        /// The event JSON file; `-` or nothing reads stdin.
        #[arg(value_name = "EVENT_FILE")]
        event: Option<PathBuf>,
    },
    /// Show whether project and local settings files are trusted (and the sources of other
    /// scopes marked "trusted": false); with --record, trust the project and local files as they
    /// are now (their SHA-256 goes into the trust store).
    Trust {
        #[command(flatten)]
        config: ConfigArgs,
        /// Record trust for every project and local settings file of the configuration.
        #[arg(long)]
        record: bool,
    },
    /// The one command to add to any agent's hook configuration (`hookwire bridge --agent
    /// cursor`): reads the agent's own event from stdin, runs your Claude Code hooks (user and
    /// project settings, the project only when trusted; or the --hooks files) with Claude
    /// Code's semantics, and answers on stdout and with the exit code as that agent reads a
    /// hook's answer. What the agent cannot express is said on stderr (docs/bridge.md).
    Bridge {
        /// The agent running this command: claude-code, codex, gemini, cursor, copilot-cli,
        /// vs-code, cline, windsurf, kiro, antigravity or qwen-code.
        #[arg(long, value_name = "NAME")]
        agent: String,
        /// A hooks file of any dialect to run instead of Claude Code's settings (repeatable).
        #[arg(long = "hooks", value_name = "FILE")]
        hooks: Vec<PathBuf>,
        /// The project whose `.claude/` settings run (default: the payload's `cwd`).
        #[arg(long, value_name = "DIR")]
        project_dir: Option<PathBuf>,
        /// The agent's event name, for agents whose payload does not carry one.
        #[arg(long, value_name = "NAME")]
        event: Option<String>,
    },
    /// Write the bridge (`hookwire bridge --agent NAME`) into that agent's own configuration
    /// file for each event it answers, keeping every entry of yours and a backup
    /// (`FILE.hookwire-bak`); a second run changes nothing (docs/bridge.md).
    Install {
        #[command(flatten)]
        target: InstallArgs,
        /// Only these of the agent's events (its own names; repeatable). Default: all of them.
        #[arg(long = "events", value_name = "EVENT", num_args = 1.., value_delimiter = ',')]
        events: Vec<String>,
        /// The program the entries run. Default: the absolute path of this hookwire.
        #[arg(long, value_name = "PATH")]
        program: Option<String>,
        /// Print the file as it would be, write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Remove exactly the bridge entries `hookwire install` wrote for that agent (and the lists
    /// they leave empty); nothing else.
    Uninstall {
        #[command(flatten)]
        target: InstallArgs,
        /// Print the file as it would be, write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Every agent found here (its hook files under HOME and the project, its program on
    /// PATH): its hook files, whether the bridge is installed, which hooks a sample
    /// `PreToolUse` of `Bash` would run, where two agents' hooks disagree, the project's trust
    /// and what the sandbox can enforce.
    Doctor {
        /// The project to look at (default: the current directory).
        #[arg(long, value_name = "DIR")]
        project_dir: Option<PathBuf>,
    },
    /// Translate a hook file into another agent's file (`--to codex`), to stdout or -o, with a
    /// report on stderr of every change of meaning, each with its place in the source
    /// (docs/port.md). With --check nothing goes to stdout and the exit code is 3 when the
    /// port loses meaning (answers the target cannot express count with --strict).
    Port {
        /// The dialect of FILE; detected from its name and content when omitted.
        #[arg(long, value_name = "DIALECT")]
        from: Option<String>,
        /// The dialect to write: claude-code, codex, gemini, cursor, qwen-code or vs-code.
        #[arg(long, value_name = "DIALECT")]
        to: String,
        /// Write the target's file here instead of stdout.
        #[arg(short = 'o', value_name = "OUT")]
        out: Option<PathBuf>,
        /// Exit 3 when the port loses meaning, 0 when it is exact.
        #[arg(long)]
        check: bool,
        /// With --check: answers the target cannot express (ask, a rewrite, context) count too.
        #[arg(long)]
        strict: bool,
        /// The hook file to translate.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Run a file of test cases against the configuration: each fires an event (with the
    /// files and env it needs) and checks the decision, reason, context, updated input and
    /// outcomes. Prints PASS or FAIL per case, then `N passed, M failed`; exits 1 when any
    /// case fails. The format: docs/cli.md, `hookwire test --schema`.
    Test {
        #[command(flatten)]
        config: ConfigArgs,
        /// Write the current results into the case file as the expectations.
        #[arg(long)]
        record: bool,
        /// Print the JSON Schema of the case file.
        #[arg(long, conflicts_with = "record")]
        schema: bool,
        /// The case file (JSON); its `config` names the configuration unless --config or
        /// --project does.
        #[arg(value_name = "CASES", required_unless_present = "schema")]
        cases: Option<PathBuf>,
    },
}

/// The agent and the file of `install` and `uninstall`.
#[derive(Args, Clone)]
struct InstallArgs {
    /// The agent: codex, gemini, cursor, copilot-cli, vs-code, windsurf, kiro, antigravity or
    /// qwen-code.
    #[arg(long, value_name = "NAME")]
    agent: String,
    /// The agent's user configuration (under HOME) or the project's.
    #[arg(long, value_enum, default_value = "user")]
    scope: ScopeArg,
    /// The project of `--scope project` (default: the current directory).
    #[arg(long, value_name = "DIR")]
    project_dir: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy)]
enum ScopeArg {
    User,
    Project,
}

impl InstallArgs {
    fn args<'a>(
        &'a self,
        events: &'a [String],
        program: Option<&'a str>,
        dry_run: bool,
        json: bool,
    ) -> install::Args<'a> {
        let scope = match self.scope {
            ScopeArg::User => hookwire_core::install::Scope::User,
            ScopeArg::Project => hookwire_core::install::Scope::Project,
        };
        install::Args {
            agent: &self.agent,
            scope,
            project_dir: self.project_dir.as_deref(),
            events,
            program,
            dry_run,
            json,
        }
    }
}

/// What went wrong in the command itself (not a hook's failure, which is an outcome).
pub struct Failure {
    pub details: ErrorDetails,
    /// The file the error is about, when there is one.
    pub file: Option<String>,
}

impl Failure {
    pub fn new(details: ErrorDetails, file: Option<String>) -> Failure {
        Failure { details, file }
    }

    fn report(&self, json: bool) {
        if json {
            say!("{}", self.details.to_json());
            return;
        }
        let p = paint::Paint::stderr();
        let at = match (&self.file, self.details.line, self.details.column) {
            (Some(f), Some(l), Some(c)) => format!("{f}:{l}:{c}: "),
            (Some(f), _, _) => format!("{f}: "),
            (None, Some(l), Some(c)) => format!("{l}:{c}: "),
            (None, _, _) => String::new(),
        };
        tell!("{}{at}{} ({})", p.red("error: "), self.details.message, self.details.kind);
    }
}

/// `hookwire --version`: the release, then the Claude Code release whose events and loop it
/// reproduces, so that a shell host can tell which behaviour it gets.
fn version_text() -> String {
    format!("{} (Claude Code {})", hookwire_core::version(), hookwire_core::CLAUDE_CODE_VERSION)
}

fn main() -> ExitCode {
    // clap keeps a `&'static str`; one string, once per process.
    let version: &'static str = version_text().leak();
    let matches = Cli::command().version(version).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    logs::init(&cli.log);
    let outcome = match cli.command {
        Command::Dialects => dialects::run(cli.json),
        Command::Validate { files, dialect } => validate::run(&files, dialect.as_deref(), cli.json),
        Command::List { config, event, tool } => {
            list::run(&config::Source::from(&config), event.as_deref(), tool.as_deref(), cli.json)
        }
        Command::Fire { config, pretty, event } => {
            explain::fire(&config::Source::from(&config), event.as_deref(), pretty, cli.json)
        }
        Command::Explain { config, event } => {
            explain::explain(&config::Source::from(&config), event.as_deref(), cli.json)
        }
        Command::Trust { config, record } => trust::run(&config::Source::from(&config), record, cli.json),
        Command::Bridge { agent, hooks, project_dir, event } => Ok(bridge::run(&bridge::Args {
            agent: &agent,
            hooks: &hooks,
            project_dir: project_dir.as_deref(),
            event: event.as_deref(),
        })),
        Command::Install { target, events, program, dry_run } => {
            install::install(&target.args(&events, program.as_deref(), dry_run, cli.json))
        }
        Command::Uninstall { target, dry_run } => {
            install::uninstall(&target.args(&[], None, dry_run, cli.json))
        }
        Command::Doctor { project_dir } => doctor::run(project_dir.as_deref(), cli.json),
        Command::Port { from, to, out, check, strict, file } => Ok(port::run(&port::Args {
            from: from.as_deref(),
            to: &to,
            file: &file,
            out: out.as_deref(),
            check,
            strict,
            json: cli.json,
        })),
        Command::Test { config, record, schema, cases } => {
            hooktest::run(cases.as_deref(), &config, record, schema, cli.json)
        }
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            f.report(cli.json);
            ExitCode::from(1)
        }
    }
}
