//! `hookwire doctor`: what hookwire sees of the agents on this machine. For Claude Code (whose
//! settings the bridge runs) and every agent `hookwire install` knows: its hook files under
//! HOME and the project, its program on `PATH`; for each file found, whether the bridge is in
//! it, and which hooks a sample `PreToolUse` of `Bash` (`rm -rf /tmp/x`) would run, planned
//! by each file's own dialect (nothing runs); where two agents' hooks disagree (by event,
//! matcher and command, an agent with the bridge counting Claude Code's hooks as its own);
//! the project's trust, what the sandbox can enforce here (the core's, as `validate` says) and
//! which runner backend starts hooks in this build.

use crate::Failure;
use crate::install::{Target, base, read_bytes, read_document};
use crate::paint::Paint;
use hookwire_core::install::{Installer, Scope};
use hookwire_core::{Dispatcher, ErrorDetails, ErrorKind, HookInfo};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The sample event's command.
const SAMPLE_COMMAND: &str = "rm -rf /tmp/x";

/// One hook file of an agent, as found.
struct FileFound {
    scope: &'static str,
    path: PathBuf,
    /// Its hooks, the bridge's own entries left out.
    hooks: Vec<HookInfo>,
    /// The agent's events that run the bridge here.
    bridge: Vec<String>,
    /// What the sample event would run: (hook id, command).
    sample: Vec<(String, String)>,
    problem: Option<String>,
}

/// One agent, as found.
struct AgentFound {
    name: &'static str,
    binaries: Vec<PathBuf>,
    files: Vec<FileFound>,
}

impl AgentFound {
    fn bridged(&self) -> bool {
        self.files.iter().any(|f| !f.bridge.is_empty())
    }
}

/// The sample event, Claude Code's canonical form (each dialect plans it under its own names).
fn sample(project: &Path) -> Value {
    json!({"hook_event_name": "PreToolUse", "session_id": "hookwire-doctor", "cwd": project.to_string_lossy(),
           "tool_name": "Bash", "tool_input": {"command": SAMPLE_COMMAND}})
}

/// The programs named `names` on `PATH`.
fn on_path(names: &[&str]) -> Vec<PathBuf> {
    let Some(path) = std::env::var_os("PATH") else { return Vec::new() };
    let mut found = Vec::new();
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() && !found.iter().any(|f: &PathBuf| f.file_name() == p.file_name()) {
                found.push(p);
            }
        }
    }
    found
}

/// Reads one file of `dialect` as `fire --config` would, and plans the sample on it.
fn look(
    scope: &'static str,
    path: PathBuf,
    dialect: &str,
    sample_event: &Value,
    inst: Option<&Installer>,
) -> FileFound {
    let mut f =
        FileFound { scope, path, hooks: Vec::new(), bridge: Vec::new(), sample: Vec::new(), problem: None };
    let mut scripts = Vec::new();
    if let Some(i) = inst.filter(|i| i.data().scripts) {
        // A hooks directory of scripts (Cline): the bridge is each script install wrote.
        for &event in i.data().events {
            let path = f.path.join(event);
            match read_bytes(&path) {
                Ok(Some(b)) => {
                    let text = String::from_utf8(b).unwrap_or_default();
                    if i.script_program(&text, event).is_some() {
                        f.bridge.push(event.to_string());
                        scripts.push(path.to_string_lossy().into_owned());
                    }
                }
                Ok(None) => {}
                Err(e) => f.problem = Some(format!("{}: {e}", path.display())),
            }
        }
    } else if let Some(i) = inst {
        match read_document(&f.path) {
            Ok(Some(doc)) => f.bridge = i.installed(&doc).into_iter().map(|(e, _)| e).collect(),
            Ok(None) => {}
            Err(e) => f.problem = Some(format!("its bridge entries cannot be read: the file {e}")),
        }
    }
    let envelope = crate::validate::envelope(&f.path, dialect);
    let d = match Dispatcher::from_value(envelope) {
        Ok(d) => d,
        Err(e) => {
            f.problem.get_or_insert(e.to_string());
            return f;
        }
    };
    let bridge = |command: &str| is_bridge(command) || scripts.iter().any(|s| command.contains(s.as_str()));
    f.hooks = d.hooks().into_iter().filter(|h| !bridge(&h.command)).collect();
    match d.plan(sample_event) {
        Ok(plan) => {
            f.sample = plan.into_iter().filter(|p| p.runs).map(|p| (p.hook.hook, p.hook.command)).collect()
        }
        Err(e) => f.problem = Some(format!("the sample event: {e}")),
    }
    f
}

fn is_bridge(command: &str) -> bool {
    command.contains(" bridge --agent ")
}

/// Claude Code's settings files (the bridge's hooks): the sources of its default layering.
fn claude_code(home: Option<&Path>, project: &Path, sample_event: &Value) -> AgentFound {
    let sources = hookwire_core::claude_code_defaults(project)
        .ok()
        .and_then(|e| e.get("sources").and_then(Value::as_array).cloned())
        .unwrap_or_default();
    let mut files = Vec::new();
    for s in &sources {
        let (Some(scope), Some(rel)) = (s["scope"].as_str(), s["path"].as_str()) else { continue };
        let path = match rel.strip_prefix("~/") {
            Some(r) => match home {
                Some(h) => h.join(r),
                None => continue,
            },
            None => project.join(rel),
        };
        let scope = if scope == "user" { "user" } else { "project" };
        if path.is_file() {
            files.push(look(scope, path, "claude-code", sample_event, None));
        }
    }
    AgentFound { name: "claude-code", binaries: on_path(&["claude"]), files }
}

fn agents(project: &Path) -> Vec<AgentFound> {
    let home = base(Scope::User, None).ok();
    let sample_event = sample(project);
    let mut out = vec![claude_code(home.as_deref(), project, &sample_event)];
    for name in Installer::agents() {
        let Ok(i) = Installer::for_agent(name) else { continue };
        let mut files = Vec::new();
        for (scope, dir) in [(Scope::User, home.as_deref()), (Scope::Project, Some(project))] {
            let (Some(dir), Ok(rel)) = (dir, i.file(scope)) else { continue };
            let t = Target::of(dir, rel);
            if scope == Scope::Project
                && home.as_deref() == Some(project)
                && i.data().user == i.data().project
            {
                continue; // the project is the home directory: the same file
            }
            if t.file.is_file() || (i.data().scripts && t.file.is_dir()) {
                files.push(look(scope.as_str(), t.file, name, &sample_event, Some(&i)));
            }
        }
        // Every other file the agent reads (its own discovery), each once.
        for read in i.data().reads {
            for (scope, target) in read_targets(read, home.as_deref(), project, i.data().scripts) {
                if files.iter().any(|f| f.path == target.file) {
                    continue;
                }
                match target.resolve() {
                    Ok(_) => files.push(look(scope, target.file, name, &sample_event, Some(&i))),
                    Err(why) => files.push(FileFound {
                        scope,
                        path: target.file,
                        hooks: Vec::new(),
                        bridge: Vec::new(),
                        sample: Vec::new(),
                        problem: Some(format!("not read: it {why}")),
                    }),
                }
            }
        }
        let binaries = on_path(i.data().binaries);
        // Claude Code's own files that an agent also reads (VS Code's `.claude/settings.json`)
        // do not find the agent: they are Claude Code's, listed there.
        let claude_codes = |f: &FileFound| f.path.components().any(|c| c.as_os_str() == ".claude");
        if binaries.is_empty() && files.iter().all(claude_codes) {
            files.clear();
        }
        out.push(AgentFound { name, binaries, files });
    }
    out.retain(|a| !a.files.is_empty() || !a.binaries.is_empty());
    out
}

/// Entries of a hooks directory looked at; beyond, the rest are not (as the loader's listing).
const MAX_DIR_ENTRIES: usize = 256;

/// The files of one `reads` path of an agent (`Install::reads`) that are there, with their
/// scope: the file; for a hooks directory (`…/`) each `*.json` in it, in name order, at most
/// [`MAX_DIR_ENTRIES`] entries looked at, or the directory itself for an agent whose hooks
/// are scripts. Only what is there: a symlink counts (its target is checked by
/// [`Target::resolve`] before anything is read), a directory entry that is not a file does
/// not.
fn read_targets(
    read: &str,
    home: Option<&Path>,
    project: &Path,
    scripts: bool,
) -> Vec<(&'static str, Target)> {
    let (scope, base, rel) = match (read.strip_prefix("~/"), read.strip_prefix('/')) {
        (Some(rel), _) => match home {
            Some(h) => ("user", h, rel),
            None => return Vec::new(),
        },
        (None, Some(rel)) => ("managed", Path::new("/"), rel),
        (None, None) => ("project", project, read),
    };
    let there = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    let Some(dir) = rel.strip_suffix('/') else {
        let t = Target::of(base, rel);
        return if there(&t.file) { vec![(scope, t)] } else { Vec::new() };
    };
    let path = base.join(dir);
    if scripts {
        return if path.is_dir() { vec![(scope, Target::of(base, dir))] } else { Vec::new() };
    }
    let Ok(entries) = std::fs::read_dir(&path) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .take(MAX_DIR_ENTRIES)
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| !t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.to_ascii_lowercase().ends_with(".json"))
        .collect();
    names.sort();
    names.into_iter().map(|n| (scope, Target::of(base, &format!("{dir}/{n}")))).collect()
}

/// One disagreement: a hook (event, matcher, command) some agents with hook files run and
/// others do not.
struct Disagreement {
    event: String,
    matcher: String,
    command: String,
    present: Vec<&'static str>,
    missing: Vec<&'static str>,
}

fn disagreements(agents: &[AgentFound]) -> Vec<Disagreement> {
    let claude: Vec<&HookInfo> = agents
        .iter()
        .filter(|a| a.name == "claude-code")
        .flat_map(|a| a.files.iter().flat_map(|f| &f.hooks))
        .collect();
    let with_files: Vec<&AgentFound> = agents.iter().filter(|a| !a.files.is_empty()).collect();
    let mut has: BTreeMap<(String, String, String), Vec<&'static str>> = BTreeMap::new();
    for a in &with_files {
        let own = a.files.iter().flat_map(|f| &f.hooks);
        let through_bridge = if a.bridged() { claude.clone() } else { Vec::new() };
        for h in own.chain(through_bridge) {
            let names = has.entry((h.event.clone(), h.matcher.clone(), h.command.clone())).or_default();
            if !names.contains(&a.name) {
                names.push(a.name);
            }
        }
    }
    has.into_iter()
        .filter(|(_, p)| p.len() < with_files.len())
        .map(|((event, matcher, command), present)| Disagreement {
            missing: with_files.iter().map(|a| a.name).filter(|n| !present.contains(n)).collect(),
            event,
            matcher,
            command,
            present,
        })
        .collect()
}

pub fn run(project_dir: Option<&Path>, json: bool) -> Result<u8, Failure> {
    let project = base(Scope::Project, project_dir)
        .and_then(|p| p.canonicalize().map_err(|e| format!("project {}: {e}", p.display())))
        .map_err(|e| Failure::new(ErrorDetails::new(ErrorKind::Internal, e), None))?;
    let agents = agents(&project);
    let disagree = disagreements(&agents);
    let trust = hookwire_core::claude_code_defaults(&project)
        .map_err(|e| e.to_string())
        .and_then(|v| Dispatcher::from_value(v).map_err(|e| e.to_string()))
        .map(|d| d.trust_status());
    let sandbox = hookwire_core::sandbox_support();
    let (backend, backend_how) = hookwire_core::runner_backend();
    if json {
        let agents: Vec<Value> = agents.iter().map(agent_json).collect();
        let disagree: Vec<Value> = disagree
            .iter()
            .map(|d| {
                json!({"event": d.event, "matcher": d.matcher, "command": d.command,
                            "present": d.present, "missing": d.missing})
            })
            .collect();
        let trust = match &trust {
            Ok(t) => serde_json::to_value(t).unwrap_or(Value::Null),
            Err(e) => json!({"error": e}),
        };
        say!(
            "{}",
            json!({"project": project.to_string_lossy(), "sample": sample(&project), "agents": agents,
                   "disagreements": disagree, "trust": trust, "sandbox": sandbox,
                   "runner": {"backend": backend, "uses": backend_how}})
        );
        return Ok(0);
    }
    let p = Paint::stdout();
    say!("{}", p.bold(&format!("project {}", project.display())));
    if agents.is_empty() {
        say!("no agent found (no hook file under HOME or the project, no agent program on PATH)");
    }
    for a in &agents {
        let bins: Vec<String> = a.binaries.iter().map(|b| b.display().to_string()).collect();
        let on =
            if bins.is_empty() { "not on PATH".to_string() } else { format!("on PATH: {}", bins.join(", ")) };
        say!("{}  {}", p.bold(a.name), p.dim(&on));
        if a.files.is_empty() {
            say!("  no hook file");
        }
        for f in &a.files {
            say!("  {} {}", f.scope, p.cyan(&f.path.display().to_string()));
            let bridge = match f.bridge.is_empty() {
                true => "not installed".to_string(),
                false => format!("installed on {}", f.bridge.join(", ")),
            };
            if a.name != "claude-code" {
                say!("      bridge   {bridge}");
            }
            say!("      hooks    {}", crate::words::count(f.hooks.len(), "hook"));
            if let Some(why) = &f.problem {
                say!("      {}  {why}", p.red("problem"));
            }
            // Claude Code's project files are what the bridge runs, and it runs them only once
            // trusted: say so rather than list them as running.
            let gated = a.name == "claude-code" && untrusted(&trust, &f.path);
            if gated && !f.sample.is_empty() {
                say!(
                    "      sample   {} through the bridge: this file is not trusted (read it, then `hookwire trust --record`); Claude Code itself would run:",
                    p.yellow("nothing")
                );
            }
            for (id, command) in &f.sample {
                let via = if is_bridge(command) { " (the bridge: Claude Code's hooks)" } else { "" };
                let runs = if gated { "would run" } else { "runs" };
                say!("      sample   {runs} {} {command}{via}", p.cyan(id));
            }
        }
    }
    say!("{}", p.bold(&format!("sample: PreToolUse of Bash `{SAMPLE_COMMAND}` (nothing ran)")));
    say!("{}", p.bold("disagreements"));
    if disagree.is_empty() {
        say!("  none (every agent with hook files runs the same hooks)");
    }
    for d in &disagree {
        say!(
            "  {} [{}] {}: in {}; {} in {}",
            d.event,
            d.matcher,
            d.command,
            d.present.join(", "),
            p.yellow("missing"),
            d.missing.join(", ")
        );
    }
    say!("{}", p.bold("trust"));
    match &trust {
        Ok(t) if t.sources.is_empty() => say!("  no project settings of Claude Code's to trust"),
        Ok(t) => {
            for s in &t.sources {
                let mark = if s.trusted { p.green("trusted") } else { p.red("untrusted") };
                say!("  {mark} {}: {}", s.label, s.why);
            }
        }
        Err(e) => say!("  {}: {e}", p.red("unknown")),
    }
    say!("{}", p.bold("sandbox"));
    for line in sandbox {
        say!("  {line}");
    }
    say!("{}", p.bold("runner"));
    say!("  {backend} backend: {backend_how}");
    Ok(0)
}

/// Whether the trust status names `path` as an untrusted source.
fn untrusted(trust: &Result<hookwire_core::TrustStatus, String>, path: &Path) -> bool {
    let Ok(t) = trust else { return false };
    t.sources.iter().any(|s| !s.trusted && s.resolved.as_deref().is_some_and(|r| Path::new(r) == path))
}

fn agent_json(a: &AgentFound) -> Value {
    let files: Vec<Value> = a
        .files
        .iter()
        .map(|f| {
            json!({"scope": f.scope, "path": f.path.to_string_lossy(), "bridge": f.bridge,
                   "hooks": f.hooks, "problem": f.problem,
                   "sample": f.sample.iter().map(|(id, c)| json!({"hook": id, "command": c})).collect::<Vec<_>>()})
        })
        .collect();
    json!({"agent": a.name, "binaries": a.binaries, "bridged": a.bridged(), "files": files})
}
