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

/// `${CLAUDE_PROJECT_DIR}`, `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PLUGIN_DATA}` for one handler.
pub struct Placeholders<'a> {
    project: &'a str,
    root: Option<&'a str>,
    data: Option<&'a str>,
}

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
        self.replace(t, false)
    }

    /// Also the forms without braces (the dedup identity, §2.7).
    pub fn expand_bare(&self, t: &str) -> String {
        self.replace(t, true)
    }

    fn replace(&self, t: &str, bare: bool) -> String {
        if !t.contains('$') {
            return t.to_string();
        }
        let mut s = t.to_string();
        for (name, value) in [
            ("CLAUDE_PROJECT_DIR", Some(self.project)),
            ("CLAUDE_PLUGIN_ROOT", self.root),
            ("CLAUDE_PLUGIN_DATA", self.data),
        ] {
            let Some(v) = value else { continue };
            s = s.replace(&format!("${{{name}}}"), v);
            if bare {
                s = s.replace(&format!("${name}"), v);
            }
        }
        s
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
}

type Env = Vec<(OsString, OsString)>;

fn set(env: &mut Env, k: &str, v: OsString) {
    env.retain(|(n, _)| n != k);
    env.push((OsString::from(k), v));
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
    let deadline = start + Duration::from_secs_f64(timeout_s);
    let rules = h.dialect.rules();
    let places = Placeholders::of(cx.config, h, cx.project_dir);
    // Layer 1: the base, by the dialect; 2: the top-level env; 3: the dialect's variables.
    let mut env = rules.base_env(h, cx.host_env);
    for (k, v) in &cx.config.env {
        set(&mut env, k, OsString::from(v));
    }
    for (k, v) in rules.vars(h, view) {
        set(&mut env, &k, OsString::from(v));
    }
    // Layer 4: CLAUDE_PROJECT_DIR and the plugin variables.
    if rules.sets_project_dir() {
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
                for name in rules.env_file_vars() {
                    set(&mut env, name, p.clone().into_os_string());
                }
                env_file = Some(p);
            }
            Err(why) => {
                let prepared = Prepared::Failed(format!("cannot create CLAUDE_ENV_FILE: {why}"));
                return Launched { prepared, env };
            }
        }
    }
    let payload = rules.payload(h, view);
    logs::input(cx.fire_id, &h.id, &payload);
    let max_output = cx.config.limits.max_output_bytes;
    let prepared = match &h.action {
        Action::Command(command) => {
            let cwd = rules.hook_cwd(h, cx.cwd);
            match argv(cx, command, &places, &env, &cwd) {
                Ok((program, args)) => {
                    let launch = Launch { program, args, env: env.clone(), cwd };
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
    Launched { prepared, env }
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
}
