//! Turning one chosen handler into something to run (protocol.md §3.4, §5.2, §5.8, §5.9): its
//! environment in five layers, its argv (a shell form through the resolved interpreter, an
//! argv form resolved on the hook's `PATH`, never through a shell), the `${CLAUDE_*}`
//! placeholders, its `CLAUDE_ENV_FILE`, or the in-process task of an http, delegated or
//! function handler. The event never reaches a command line: it goes to stdin only.

use crate::catalog::Shell;
use crate::config::{Action, CommandSpec, Config, Handler};
use crate::dialect::FireEvent;
use crate::envfile;
use crate::inprocess::{self, Registry, Task, tasks};
use crate::logs;
use crate::runner::{self, Job, Launch};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The shell-form interpreters, resolved once on the host's `PATH` at load.
pub struct Shells {
    sh: Option<PathBuf>,
    bash: Option<PathBuf>,
    pwsh: Option<PathBuf>,
    /// The host's `$SHELL` (an absolute path), else `/bin/sh`: [`Shell::Login`].
    login: PathBuf,
}

impl Shells {
    /// Looks up the shells that `config`'s handlers name. One nobody names is never looked
    /// up, since no fire can ask for it (handlers are fixed at load; function hooks run no
    /// shell): a lookup stats every `PATH` entry, twice for a shell that is absent, as `pwsh`
    /// usually is, and that was 7% of loading a 200-handler file (issue 20).
    pub fn resolve(config: &Config) -> Shells {
        let mut named = [false; 3];
        for h in config.events.iter().flatten().flat_map(|g| &g.handlers) {
            if let Action::Command(CommandSpec::Shell { shell, .. }) = &h.action {
                match shell {
                    Shell::Sh => named[0] = true,
                    Shell::Bash => named[1] = true,
                    Shell::Pwsh => named[2] = true,
                    Shell::Login => {}
                }
            }
        }
        let host_path = std::env::var_os("PATH");
        let find = |i: usize, name: &str| {
            named[i]
                .then(|| runner::resolve_program(name, host_path.as_deref(), Path::new("/")).ok())
                .flatten()
        };
        let login = std::env::var_os("SHELL")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .unwrap_or_else(|| PathBuf::from("/bin/sh"));
        Shells { sh: find(0, "sh"), bash: find(1, "bash"), pwsh: find(2, "pwsh"), login }
    }

    /// The interpreter and its arguments before the script, or what is missing.
    fn argv(&self, shell: Shell) -> Result<(PathBuf, &'static [&'static str]), String> {
        let (interp, pre, name): (&Option<PathBuf>, &'static [&'static str], &str) = match shell {
            Shell::Sh => (&self.sh, &["-c"], "sh"),
            Shell::Bash => (&self.bash, &["-c"], "bash"),
            Shell::Pwsh => (&self.pwsh, &["-NoProfile", "-NonInteractive", "-Command"], "pwsh"),
            Shell::Login => return Ok((self.login.clone(), &["-lc"])),
        };
        interp.clone().map(|p| (p, pre)).ok_or_else(|| format!("not found on PATH: {name}"))
    }
}

/// `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` for one handler:
/// the one substitution of placeholders, for every place that substitutes them (argv, http URLs,
/// the outcome's `command`, the dedup identity).
pub struct Placeholders<'a> {
    project: &'a str,
    root: Option<&'a str>,
    data: Option<&'a str>,
}

/// The placeholder names, in the order of [`Placeholders::values`].
const PLACEHOLDERS: [&str; 3] = ["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

impl<'a> Placeholders<'a> {
    pub fn of(config: &'a Config, h: &Handler, project_dir: &'a str) -> Placeholders<'a> {
        let source = config.sources.get(h.source);
        Placeholders {
            project: project_dir,
            root: source.and_then(|s| s.plugin_root.as_deref()),
            data: source.and_then(|s| s.plugin_data.as_deref()),
        }
    }

    /// Replaces the braced forms as plain strings (argv, URLs).
    pub fn expand(&self, t: &str) -> String {
        self.substitute(t, false)
    }

    /// Also the forms without braces (the dedup identity, §2.7).
    pub fn expand_bare(&self, t: &str) -> String {
        self.substitute(t, true)
    }

    fn values(&self) -> [Option<&'a str>; 3] {
        [Some(self.project), self.root, self.data]
    }

    /// One pass over the template: each placeholder is replaced by its value as written, and
    /// the scan goes on after the placeholder, so a value is never read for placeholders (a
    /// project directory named `a${CLAUDE_PLUGIN_ROOT}b` stays that). A placeholder without a
    /// value, and any other `$`, stay as written.
    fn substitute(&self, t: &str, bare: bool) -> String {
        if !t.contains('$') {
            return t.to_string();
        }
        let mut out = String::with_capacity(t.len());
        let mut rest = t;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            match self.placeholder(after, bare) {
                Some((value, len)) => {
                    out.push_str(value);
                    rest = &after[len..];
                }
                None => {
                    out.push('$');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// The value of the placeholder that `after` (the text after a `$`) starts with, and how
    /// many bytes of `after` it spans. No name is a prefix of another, so at most one matches.
    fn placeholder(&self, after: &str, bare: bool) -> Option<(&'a str, usize)> {
        PLACEHOLDERS.iter().zip(self.values()).find_map(|(name, value)| {
            let value = value?;
            let braced = after
                .strip_prefix('{')
                .and_then(|r| r.strip_prefix(name))
                .is_some_and(|r| r.starts_with('}'));
            if braced {
                Some((value, name.len() + 2))
            } else {
                (bare && after.starts_with(name)).then_some((value, name.len()))
            }
        })
    }
}

/// What every hook of one fire shares when it is prepared.
#[derive(Clone, Copy)]
pub struct FireContext<'a> {
    pub config: &'a Config,
    pub shells: &'a Shells,
    pub registry: &'a Registry,
    pub project_dir: &'a str,
    pub cwd: &'a Path,
    pub host_env: &'a [(OsString, OsString)],
    /// Where this fire's env files are made; removed when the fire ends.
    pub env_dir: &'a envfile::FireDir,
    /// The fire's number in log records (`logs::fire_id`).
    pub fire_id: u64,
    /// Results hooks may reuse (`Handler::cache_ttl`).
    pub cache: &'a crate::result_cache::ResultCache,
}

/// One hook's prepared run, or why it could not be prepared.
#[allow(clippy::large_enum_variant)]
pub enum Prepared<'e> {
    /// A process, and its `CLAUDE_ENV_FILE` when it has one.
    Run(Job<'e>, Option<PathBuf>),
    /// An http POST, a host callback or a registered function.
    InProcess(Task),
    Failed(String),
}

/// A hook ready to run, with the environment it was given (its env file's `$VAR`s expand
/// against it).
pub struct Launched<'e> {
    pub prepared: Prepared<'e>,
    pub env: Vec<(OsString, OsString)>,
    /// What was changed to start it (a variable too large for a process's environment).
    pub warnings: Vec<String>,
}

type Env = Vec<(OsString, OsString)>;

/// Linux refuses to start a program given one environment string (`NAME=value` and its NUL)
/// over `MAX_ARG_STRLEN`, 32 pages (131,072 bytes).
const MAX_ENV_ENTRY: usize = 32 * 4096;
/// Nor arguments and environment together over `ARG_MAX` (a quarter of the stack limit, 2 MiB
/// by default); the environment keeps under half of that, leaving the rest to the command.
const MAX_ENV_TOTAL: usize = 1024 * 1024;

/// Drops the variables a hook could not be started with: any one over [`MAX_ENV_ENTRY`], then
/// the largest until the whole fits [`MAX_ENV_TOTAL`]. Values come from the event
/// (`CLAUDE_PROJECT_DIR` from `cwd`, iFlow's `IFLOW_TOOL_ARGS` from `tool_input`), so a
/// hostile event could otherwise make the spawn fail (`E2BIG`) and keep a guard from running;
/// the hook runs without them, and a warning names each.
fn fit_env(env: &mut Env, hook_id: &str) -> Vec<String> {
    let size = |(k, v): &(OsString, OsString)| k.len() + v.len() + 2;
    let mut dropped = Vec::new();
    env.retain(|entry| {
        let keep = size(entry) <= MAX_ENV_ENTRY;
        if !keep {
            dropped.push((entry.0.to_string_lossy().into_owned(), size(entry)));
        }
        keep
    });
    // Each string also costs a pointer in the array the kernel copies.
    let mut total: usize = env.iter().map(|e| size(e) + 8).sum();
    while total > MAX_ENV_TOTAL {
        let Some(largest) = (0..env.len()).max_by_key(|&i| size(&env[i])) else { break };
        let entry = env.remove(largest);
        total -= size(&entry) + 8;
        dropped.push((entry.0.to_string_lossy().into_owned(), size(&entry)));
    }
    dropped
        .into_iter()
        .map(|(name, bytes)| {
            format!("hook {hook_id}: variable {name} ({bytes} bytes) is too large for a hook's environment; not set")
        })
        .collect()
}

fn set(env: &mut Env, k: &str, v: OsString) {
    env.retain(|(n, _)| n != k);
    env.push((OsString::from(k), v));
}

/// The sandbox of one command hook (`sandbox/`): its own temporary directory (`TMPDIR`), its
/// env file and the project writable, the secrets of the host's home and of the home its
/// environment names unreadable.
fn confinement(
    cx: &FireContext<'_>,
    p: &crate::sandbox::Policy,
    env: &mut Env,
    env_file: Option<&Path>,
    deadline: Instant,
) -> Result<crate::sandbox::Confinement, String> {
    let tmp = cx
        .env_dir
        .new_dir()
        .map_err(|why| format!("sandbox: cannot create the hook's temporary directory: {why}"))?;
    set(env, "TMPDIR", tmp.clone().into_os_string());
    let mut homes: Vec<PathBuf> = std::env::var_os("HOME").map(PathBuf::from).into_iter().collect();
    if let Some(h) = lookup(env, "HOME").map(PathBuf::from).filter(|h| !homes.contains(h)) {
        homes.push(h);
    }
    let places = crate::sandbox::Places {
        project: Path::new(cx.project_dir),
        tmp: Some(&tmp),
        env_file,
        homes,
        deadline,
    };
    crate::sandbox::Confinement::build(p, &places)
}

/// The instant `timeout_s` seconds after `start`. A timeout longer than an `Instant` can hold
/// (a dialect's file may say `1e20` or `u64::MAX`, and not every dialect has an upper bound)
/// is a deadline about a century away: the hook runs as if it had none, and the conversion
/// never panics (`Duration::from_secs_f64` and `Instant + Duration` both do past their range).
fn deadline_after(start: Instant, timeout_s: f64) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 86_400);
    let wanted = Duration::try_from_secs_f64(timeout_s).unwrap_or(CENTURY).min(CENTURY);
    start.checked_add(wanted).or_else(|| start.checked_add(Duration::from_secs(86_400))).unwrap_or(start)
}

/// Prepares one hook whose deadline runs `timeout_s` from `start`.
pub fn prepare<'e>(
    cx: &FireContext<'_>,
    h: &Handler,
    timeout_s: f64,
    start: Instant,
    view: &FireEvent<'e>,
    want_env_file: bool,
) -> Launched<'e> {
    let deadline = deadline_after(start, timeout_s);
    let rules = h.dialect.rules();
    let places = Placeholders::of(cx.config, h, cx.project_dir);
    // Layer 1: the base, by the dialect; 2: the top-level env; 3: the dialect's variables.
    let mut env = rules.profile().host_env.of(h, cx.host_env);
    if let Some(p) = &h.sandbox {
        // A sandboxed hook starts from a few of the host's variables, never its tokens.
        env.retain(|(k, _)| p.passes(&k.to_string_lossy()));
    }
    for (k, v) in &cx.config.env {
        set(&mut env, k, OsString::from(v));
    }
    for (k, v) in rules.vars(h, view) {
        set(&mut env, &k, OsString::from(v));
    }
    // Layer 4: CLAUDE_PROJECT_DIR and the plugin variables.
    if rules.profile().sets_project_dir {
        set(&mut env, "CLAUDE_PROJECT_DIR", OsString::from(cx.project_dir));
    }
    if let Some(r) = places.root {
        set(&mut env, "CLAUDE_PLUGIN_ROOT", OsString::from(r));
    }
    if let Some(d) = places.data {
        set(&mut env, "CLAUDE_PLUGIN_DATA", OsString::from(d));
    }
    // Layer 5: CLAUDE_ENV_FILE.
    let mut env_file = None;
    if want_env_file {
        match cx.env_dir.new_file() {
            Ok(p) => {
                for name in rules.profile().env_file_vars {
                    set(&mut env, name, p.clone().into_os_string());
                }
                env_file = Some(p);
            }
            Err(why) => {
                let prepared = Prepared::Failed(format!("cannot create CLAUDE_ENV_FILE: {why}"));
                return Launched { prepared, env, warnings: Vec::new() };
            }
        }
    }
    let mut warnings = fit_env(&mut env, &h.id);
    let confine = match (&h.sandbox, &h.action) {
        (Some(p), Action::Command(_)) => match confinement(cx, p, &mut env, env_file.as_deref(), deadline) {
            Ok(c) => {
                warnings.extend(c.not_applied.iter().map(|w| format!("hook {}: sandbox: {w}", h.id)));
                Some(std::sync::Arc::new(c))
            }
            Err(why) => return Launched { prepared: Prepared::Failed(why), env, warnings },
        },
        _ => None,
    };
    let payload = rules.payload(h, view);
    logs::input(cx.fire_id, &h.id, &payload);
    let max_output = cx.config.limits.max_output_bytes;
    let prepared = match &h.action {
        Action::Command(command) => {
            let cwd = h.cwd.as_ref().map_or_else(|| cx.cwd.to_path_buf(), |dir| cx.cwd.join(dir));
            match argv(cx, command, &places, &env, &cwd) {
                Ok((program, args)) => {
                    let launch = Launch { program, args, env: env.clone(), cwd, confine };
                    let tag = logs::Tag { fire_id: cx.fire_id, hook_id: h.id.clone() };
                    Prepared::Run(Job { launch, stdin: payload, deadline, max_output, tag }, env_file)
                }
                Err(why) => Prepared::Failed(why),
            }
        }
        Action::Http(spec) => {
            let url = places.expand(&spec.url);
            match &cx.config.http_allowed_urls {
                Some(list) if !inprocess::http::url_allowed(&url, list) => {
                    Prepared::Failed(format!("URL not allowed: {url}"))
                }
                _ => {
                    let lookup = |name: &str| lookup(&env, name);
                    let global = cx.config.http_allowed_env_vars.as_deref();
                    let headers = spec
                        .headers
                        .iter()
                        .map(|(k, v)| {
                            (
                                k.clone(),
                                inprocess::http::interpolate(v, &spec.allowed_env_vars, global, &lookup),
                            )
                        })
                        .collect();
                    Prepared::InProcess(tasks::http_post(
                        url,
                        headers,
                        payload.into_owned(),
                        deadline,
                        max_output,
                    ))
                }
            }
        }
        Action::Delegated(handler) => match cx.registry.callbacks.get(&h.ty) {
            Some(callback) => {
                let d = tasks::Delegation {
                    ty: h.ty,
                    handler,
                    payload: &payload,
                    timeout_s,
                    event_name: view.spec.name,
                    hook_id: h.id.clone(),
                };
                Prepared::InProcess(tasks::callback(callback.clone(), d, deadline, max_output))
            }
            None => {
                Prepared::Failed(format!("no host callback is registered for {} handlers", h.ty.as_str()))
            }
        },
        Action::Function(slot) => match cx.registry.functions.get(*slot) {
            Some(r) => Prepared::InProcess(tasks::function(r.f.clone(), &payload, deadline, max_output)),
            None => Prepared::Failed("the registered function is gone".into()),
        },
    };
    Launched { prepared, env, warnings }
}

/// A variable of a hook's environment.
pub fn lookup(env: &[(OsString, OsString)], name: &str) -> Option<String> {
    env.iter().find(|(n, _)| n == name).map(|(_, v)| v.to_string_lossy().into_owned())
}

/// The program and arguments of a command (§5.2).
fn argv(
    cx: &FireContext<'_>,
    command: &CommandSpec,
    places: &Placeholders<'_>,
    env: &Env,
    cwd: &Path,
) -> Result<(PathBuf, Vec<OsString>), String> {
    match command {
        CommandSpec::Shell { script, shell } => {
            let (interp, pre) = cx.shells.argv(*shell)?;
            let mut args: Vec<OsString> = pre.iter().map(OsString::from).collect();
            args.push(OsString::from(script));
            Ok((interp, args))
        }
        CommandSpec::Exec { program, args } => {
            let path_var = env.iter().find(|(k, _)| k == "PATH").map(|(_, v)| v.as_os_str());
            let program = runner::resolve_program(&places.expand(program), path_var, cwd)?;
            Ok((program, args.iter().map(|a| OsString::from(places.expand(a))).collect()))
        }
    }
}

/// The outcome's `command`: the script, the quoted argv with placeholders expanded, `POST
/// <url>`, the delegated handler's label or the function's id.
pub fn command_text(config: &Config, h: &Handler, project_dir: &str) -> String {
    match &h.action {
        Action::Http(spec) => format!("POST {}", spec.url),
        Action::Delegated(v) => inprocess::delegated_label(v),
        Action::Function(_) => format!("function {}", h.id),
        Action::Command(CommandSpec::Shell { script, .. }) => script.clone(),
        Action::Command(CommandSpec::Exec { program, args }) => {
            let places = Placeholders::of(config, h, project_dir);
            std::iter::once(program)
                .chain(args)
                .map(|a| shell_quote(&places.expand(a)))
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

fn shell_quote(a: &str) -> String {
    if !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c)) {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shells(config: &str) -> Shells {
        Shells::resolve(&crate::load::config(serde_json::from_str(config).unwrap()).unwrap())
    }

    #[test]
    fn a_timeout_past_what_an_instant_holds_is_a_far_deadline_never_a_panic() {
        let now = Instant::now();
        assert_eq!(deadline_after(now, 2.5), now + Duration::from_millis(2500));
        for t in [1e20, 1.8446744073709552e19, 9.3e18, f64::MAX, f64::INFINITY, f64::NAN] {
            let d = deadline_after(now, t);
            assert!(d >= now + Duration::from_secs(86_400), "{t}");
        }
    }

    #[test]
    fn an_environment_too_large_to_start_a_program_loses_its_largest_variables_with_a_warning() {
        let var = |k: &str, n: usize| (OsString::from(k), OsString::from("x".repeat(n)));
        let mut env = vec![var("PATH", 10), var("HUGE", MAX_ENV_ENTRY), var("SMALL", 5)];
        let warned = fit_env(&mut env, "h");
        assert_eq!(env.iter().map(|(k, _)| k.to_str().unwrap()).collect::<Vec<_>>(), ["PATH", "SMALL"]);
        assert!(warned[0].contains("HUGE") && warned[0].contains("not set"), "{warned:?}");
        // Each fits alone; together they pass the total, so the largest go first.
        let mut env: Vec<_> = (0..12).map(|i| var(&format!("V{i}"), 100_000 + i)).collect();
        env.push(var("PATH", 10));
        let warned = fit_env(&mut env, "h");
        assert_eq!(warned.len(), 2, "{warned:?}");
        assert!(warned[0].contains("V11") && warned[1].contains("V10"));
        assert!(env.iter().any(|(k, _)| k == "PATH"));
        assert!(fit_env(&mut env, "h").is_empty(), "what fits is left alone");
    }

    #[test]
    fn only_the_shells_a_handler_names_are_looked_up() {
        let sh_only = shells(r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}"#);
        assert!(sh_only.sh.is_some() && sh_only.bash.is_none() && sh_only.pwsh.is_none());
        let bash =
            shells(r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","shell":"bash"}]}]}}"#);
        assert_eq!(bash.bash.is_some(), which("bash"));
        assert!(bash.sh.is_none());
        // A shell that is named but absent still says so when its hook runs.
        let pwsh = shells(
            r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","shell":"powershell"}]}]}}"#,
        );
        if !which("pwsh") {
            assert_eq!(pwsh.argv(Shell::Pwsh).unwrap_err(), "not found on PATH: pwsh");
        }
    }

    fn which(name: &str) -> bool {
        runner::resolve_program(name, std::env::var_os("PATH").as_deref(), Path::new("/")).is_ok()
    }

    const NAMES: [&str; 3] = PLACEHOLDERS;

    /// Every spelling of every placeholder, as a value that holds them all would.
    fn every_spelling() -> String {
        NAMES.iter().map(|n| format!("${{{n}}}${n}")).collect()
    }

    fn places<'a>(values: &'a [String; 3]) -> Placeholders<'a> {
        Placeholders { project: &values[0], root: Some(&values[1]), data: Some(&values[2]) }
    }

    #[test]
    fn a_placeholders_value_is_inserted_verbatim_never_expanded_again() {
        let values = NAMES.map(|n| format!("<{n}>{}", every_spelling()));
        let p = places(&values);
        for (name, value) in NAMES.iter().zip(&values) {
            let braced = format!("a${{{name}}}b");
            let bare = format!("a${name}b");
            assert_eq!(p.expand(&braced), format!("a{value}b"), "{braced}");
            assert_eq!(p.expand_bare(&braced), format!("a{value}b"), "{braced}");
            assert_eq!(p.expand_bare(&bare), format!("a{value}b"), "{bare}");
            // Without braces, only the dedup identity expands it.
            assert_eq!(p.expand(&bare), bare);
        }
    }

    /// A piece of a template: text with no `$`, or one spelling of a placeholder.
    #[derive(Debug, Clone)]
    enum Piece {
        Text(String),
        Braced(usize),
        Bare(usize),
    }

    fn piece() -> impl proptest::strategy::Strategy<Value = Piece> {
        use proptest::prelude::*;
        prop_oneof![
            "[a-z{}/ _C]{0,6}".prop_map(Piece::Text),
            (0..3usize).prop_map(Piece::Braced),
            (0..3usize).prop_map(Piece::Bare),
        ]
    }

    /// Values built from the same pieces, with `$`s and an unknown placeholder besides.
    fn value() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let bit = prop_oneof![
            "[a-z{}/ _$]{0,4}",
            proptest::sample::select(NAMES.to_vec()).prop_map(|n| format!("${{{n}}}")),
            proptest::sample::select(NAMES.to_vec()).prop_map(|n| format!("${n}")),
            Just("${UNKNOWN}".to_string()),
        ];
        proptest::collection::vec(bit, 0..5).prop_map(|v| v.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

        /// Substitution is one pass over the template: each placeholder becomes its value as
        /// written, whatever the value holds, and the rest of the template stays as it is.
        #[test]
        fn substitution_is_one_pass_over_the_template(
            pieces in proptest::collection::vec(piece(), 0..8),
            project in value(),
            root in proptest::option::of(value()),
            data in proptest::option::of(value()),
        ) {
            let p = Placeholders { project: &project, root: root.as_deref(), data: data.as_deref() };
            let value = |i: usize| [Some(project.as_str()), root.as_deref(), data.as_deref()][i];
            let (mut template, mut braced, mut bare) = (String::new(), String::new(), String::new());
            for piece in &pieces {
                let (written, as_braced, as_bare) = match piece {
                    Piece::Text(t) => (t.clone(), t.clone(), t.clone()),
                    Piece::Braced(i) => {
                        let w = format!("${{{}}}", NAMES[*i]);
                        let v = value(*i).map_or_else(|| w.clone(), str::to_string);
                        (w, v.clone(), v)
                    }
                    Piece::Bare(i) => {
                        let w = format!("${}", NAMES[*i]);
                        let v = value(*i).map_or_else(|| w.clone(), str::to_string);
                        (w.clone(), w, v)
                    }
                };
                template.push_str(&written);
                braced.push_str(&as_braced);
                bare.push_str(&as_bare);
            }
            proptest::prop_assert_eq!(p.expand(&template), braced, "{}", template);
            proptest::prop_assert_eq!(p.expand_bare(&template), bare, "{}", template);
        }
    }

    /// A dispatcher whose plugin source has these directories and these Stop hooks.
    fn plugin(
        dirs: [&str; 3],
        hooks: serde_json::Value,
        allowed_urls: serde_json::Value,
    ) -> crate::Dispatcher {
        let config = serde_json::json!({
            "project_dir": dirs[0],
            "http": {"allowed_urls": allowed_urls},
            "sources": [{
                "scope": "plugin",
                "root": dirs[1],
                "data": dirs[2],
                "settings": {"hooks": {"Stop": [{"hooks": hooks}]}}
            }]
        });
        crate::Dispatcher::from_value(config).unwrap()
    }

    fn stop(d: &crate::Dispatcher) -> serde_json::Value {
        serde_json::from_str(
            &d.fire_json(r#"{"hook_event_name":"Stop","session_id":"s","cwd":"/"}"#).unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn exec_argv_outcome_command_and_http_url_take_each_value_verbatim() {
        let every = every_spelling();
        let (dir, root, data) =
            (format!("/tmp/cwd-a{every}b"), format!("/root-{every}"), format!("/data-{every}"));
        let d = plugin(
            [&dir, &root, &data],
            serde_json::json!([
                {"type": "command", "command": "printf",
                 "args": ["%s|", "${CLAUDE_PROJECT_DIR}", "${CLAUDE_PLUGIN_ROOT}", "${CLAUDE_PLUGIN_DATA}"]},
                {"type": "http", "url": "http://h.test/${CLAUDE_PROJECT_DIR}|${CLAUDE_PLUGIN_ROOT}|${CLAUDE_PLUGIN_DATA}"}
            ]),
            serde_json::json!([]),
        );
        let r = stop(&d);
        let exec = &r["outcomes"][0];
        assert_eq!(exec["stdout"], format!("{dir}|{root}|{data}|"));
        let quoted = [dir.as_str(), root.as_str(), data.as_str()].map(shell_quote).join(" ");
        assert_eq!(exec["command"], format!("printf '%s|' {quoted}"));
        let http = r["outcomes"][1]["error"].as_str().unwrap();
        assert_eq!(http, format!("URL not allowed: http://h.test/{dir}|{root}|{data}"));
    }

    #[test]
    fn the_dedup_identity_takes_each_value_verbatim() {
        // Expanded again, the project directory's value would read `/p/r/d`.
        let dir = "/p${CLAUDE_PLUGIN_ROOT}$CLAUDE_PLUGIN_DATA";
        let d = plugin(
            [dir, "/r", "/d"],
            serde_json::json!([
                {"type": "command", "command": "echo one $CLAUDE_PROJECT_DIR"},
                {"type": "command", "command": "echo one /p/r/d"},
                {"type": "command", "command": "printf", "args": ["two", "${CLAUDE_PROJECT_DIR}"]},
                {"type": "command", "command": "printf", "args": ["two", "/p/r/d"]},
                {"type": "command", "command": "echo three ${CLAUDE_PROJECT_DIR}"},
                {"type": "command", "command": "echo three $CLAUDE_PROJECT_DIR"}
            ]),
            serde_json::json!([]),
        );
        let stdouts: Vec<String> = stop(&d)["outcomes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["stdout"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(
            stdouts,
            [
                format!("one {dir}\n"),
                "one /p/r/d\n".into(),
                "two".into(),
                "two".into(),
                format!("three {dir}\n")
            ],
            "only the two spellings of one command are one hook"
        );
    }
}
