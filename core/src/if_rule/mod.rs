//! The `if` filter of a handler (protocol.md §4.3): one permission rule, `Tool` or
//! `Tool(pattern)`, parsed once at load and tested against the tool call of a fire.
//!
//! A rule answers "no" (the handler does not run) only when it is sure: a command line that
//! `shell` reads completely and whose programs `programs` all knows, a path with nothing a
//! symlink could redirect, a URL whose host two parsers agree on. Anything else is undecided
//! and the handler runs, with a warning: users write `if` on guards, and a guard errs toward
//! running. The rule never runs anything itself.

mod path;
mod programs;
pub mod shell;

use crate::lazy_regex::LazyRegex;
use programs::CommandRule;
use std::path::Path;

/// regex's default compiled-size limit, which `if` patterns have always had.
const GLOB_SIZE_LIMIT: usize = 10 << 20;
/// Longest glob-made regex left to compile on first use. Globs become literals, `.*` and
/// `[^/]*`, which stay far below [`GLOB_SIZE_LIMIT`] at this length (a test pins it); longer
/// ones are compiled at load, so a refusal is still a load error.
const GLOB_DEFER_UP_TO_BYTES: usize = 1024;

fn glob_regex(src: &str) -> Result<LazyRegex, String> {
    LazyRegex::new(src, GLOB_SIZE_LIMIT, GLOB_DEFER_UP_TO_BYTES)
}

#[derive(Debug, Clone)]
pub struct IfRule {
    /// The rule as written, for warnings.
    raw: String,
    tool: String,
    pattern: Pattern,
}

#[derive(Debug, Clone)]
enum Pattern {
    /// `Tool`, `Tool()` or `Tool(*)`.
    Any,
    /// Bash command glob, tested against each program the command line starts.
    Command(CommandRule),
    /// PowerShell command glob: PowerShell is not read, so only a match of the whole text
    /// decides.
    PowerShell(LazyRegex),
    /// File tools: a path glob; `base_only` when the pattern has no `/`.
    Path { re: LazyRegex, base_only: bool },
    /// `WebFetch(domain:host)`; `sub` for `*.host`.
    Domain { host: String, sub: bool },
    /// A pattern hookwire cannot evaluate: the handler runs.
    Unknown,
}

const FILE_TOOLS: &[&str] = &["Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep"];

impl IfRule {
    /// Parses a rule. `project_dir` anchors relative path patterns; `home` anchors `~/`.
    /// Returns the rule and, for a pattern that cannot be evaluated, a warning text.
    pub fn parse(
        raw: &str,
        project_dir: &Path,
        home: Option<&Path>,
    ) -> Result<(IfRule, Option<String>), String> {
        let raw = raw.trim();
        let (tool, inner) = match raw.find('(') {
            None => (raw, None),
            Some(i) => {
                if !raw.ends_with(')') {
                    return Err(format!("`if` rule {raw:?} is not `Tool` or `Tool(pattern)`"));
                }
                (&raw[..i], Some(&raw[i + 1..raw.len() - 1]))
            }
        };
        if tool.is_empty() || tool.contains(char::is_whitespace) {
            return Err(format!("`if` rule {raw:?} does not name a tool"));
        }
        let mut warning = None;
        let pattern = match inner.map(str::trim) {
            None | Some("") | Some("*") => Pattern::Any,
            Some(p) if tool == "Bash" => Pattern::Command(command_rule(p)?),
            Some(p) if tool == "PowerShell" => Pattern::PowerShell(command_glob(p)?),
            Some(p) if FILE_TOOLS.contains(&tool) => path_pattern(p, project_dir, home)?,
            Some(p) if tool == "WebFetch" && p.starts_with("domain:") => {
                let host = p["domain:".len()..].trim().to_ascii_lowercase();
                match host.strip_prefix("*.") {
                    Some(rest) => Pattern::Domain { host: rest.to_string(), sub: true },
                    None => Pattern::Domain { host, sub: false },
                }
            }
            Some(p) => {
                warning = Some(format!(
                    "`if` pattern {p:?} for {tool} cannot be evaluated; the handler always runs"
                ));
                Pattern::Unknown
            }
        };
        Ok((IfRule { raw: raw.to_string(), tool: tool.to_string(), pattern }, warning))
    }

    /// Whether the handler runs for this tool call.
    pub fn matches(&self, tool_name: &str, tool_input: Option<&serde_json::Value>) -> bool {
        self.check(tool_name, tool_input) != IfMatch::No
    }

    /// Whether the handler runs for this tool call, and whether that was decided.
    pub fn check(&self, tool_name: &str, tool_input: Option<&serde_json::Value>) -> IfMatch {
        if tool_name != self.tool {
            return IfMatch::No;
        }
        let field = |k: &str| tool_input.and_then(|t| t.get(k)).and_then(|v| v.as_str());
        if let Some(why) = cut_field(tool_input) {
            return why;
        }
        match &self.pattern {
            Pattern::Any | Pattern::Unknown => IfMatch::Yes,
            Pattern::Command(rule) => match command(tool_input) {
                Ok(Some(cmd)) => rule.judge(cmd),
                Ok(None) => IfMatch::No,
                Err(why) => why,
            },
            Pattern::PowerShell(re) => match command(tool_input) {
                Ok(Some(cmd)) if re.is_match(cmd) => IfMatch::Yes,
                Ok(Some(_)) => {
                    IfMatch::Undecided("PowerShell commands are not read, only matched whole".into())
                }
                Ok(None) => IfMatch::No,
                Err(why) => why,
            },
            Pattern::Path { re, base_only } => {
                let keys = ["file_path", "notebook_path", "path"];
                if let Some(k) = keys.iter().find(|k| {
                    tool_input.and_then(|t| t.get(**k)).is_some_and(|v| !v.is_string() && !v.is_null())
                }) {
                    return IfMatch::Undecided(format!("`tool_input.{k}` is not a string"));
                }
                let Some(raw) =
                    field("file_path").or_else(|| field("notebook_path")).or_else(|| field("path"))
                else {
                    return IfMatch::No;
                };
                path::judge(
                    raw,
                    |p| {
                        if *base_only {
                            re.is_match(p.rsplit('/').next().unwrap_or(p))
                        } else {
                            re.is_match(p)
                        }
                    },
                    *base_only,
                )
            }
            Pattern::Domain { host, sub } => {
                match tool_input.and_then(|t| t.get("url")) {
                    Some(v) if !v.is_string() && !v.is_null() => {
                        return IfMatch::Undecided("`tool_input.url` is not a string".into());
                    }
                    _ => {}
                }
                let Some(url) = field("url") else { return IfMatch::No };
                path::judge_host(url, |h| {
                    if *sub { h.ends_with(&format!(".{host}")) || h == host } else { h == host }
                })
            }
        }
    }

    /// The rule as written.
    pub fn text(&self) -> &str {
        &self.raw
    }
}

/// What an `if` rule says of one tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum IfMatch {
    Yes,
    No,
    /// The rule cannot tell (a command it does not read completely, a path a symlink could
    /// redirect): the handler runs, because a guard errs toward running, and the fire says why.
    Undecided(String),
}

impl IfMatch {
    /// Several answers about one tool call as one: yes, else the first undecided, else no.
    fn merge(&mut self, other: IfMatch) {
        match (&*self, other) {
            (IfMatch::Yes, _) | (IfMatch::Undecided(_), IfMatch::No | IfMatch::Undecided(_)) => {}
            (_, other) => *self = other,
        }
    }
}

/// A field an `if` rule reads (the command, a path, the URL) that was cut from a payload too
/// large to read whole (`json::cut`): its end is unknown, so the rule cannot decide.
fn cut_field(tool_input: Option<&serde_json::Value>) -> Option<IfMatch> {
    let t = tool_input?;
    ["command", "file_path", "notebook_path", "path", "url"].iter().find_map(|k| {
        let s = t.get(*k)?.as_str()?;
        crate::json::cut::is_cut(s).then(|| {
            IfMatch::Undecided(format!(
                "`tool_input.{k}` was cut from a payload too large to read whole: the rest is unknown"
            ))
        })
    })
}

/// `tool_input.command`: absent (the tool runs nothing), or why it cannot be read.
fn command(tool_input: Option<&serde_json::Value>) -> Result<Option<&str>, IfMatch> {
    match tool_input.and_then(|t| t.get("command")) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(IfMatch::Undecided("`tool_input.command` is not a string".into())),
    }
}

/// A `Bash(…)` rule: its glob, and what the glob says of the program it names.
fn command_rule(p: &str) -> Result<CommandRule, String> {
    let body = p.strip_suffix(":*").unwrap_or(p);
    let first = body.split(' ').next().unwrap_or("");
    let program = (!first.is_empty() && !first.contains('*')).then(|| first.to_string());
    // Every text a glob matches starts with the glob's text up to its first `*`: checking that
    // first spares a regex call for nearly every command (most do not start with the program).
    let literal_head = |glob: &str| glob.split('*').next().unwrap_or("").to_string();
    let mut globs = vec![(literal_head(body), command_glob(p)?)];
    // `Bash(/bin/rm *)` names the program `rm` found anywhere on PATH, too.
    let base = program.as_deref().filter(|p| p.contains('/')).and_then(|p| p.rsplit('/').next());
    if let Some(base) = base.filter(|b| !b.is_empty()) {
        let glob = format!("{base}{}", &p[first.len()..]);
        let head = literal_head(glob.strip_suffix(":*").unwrap_or(&glob));
        globs.push((head, command_glob(&glob)?));
    }
    Ok(CommandRule { globs, program, names_redirection: p.contains(['<', '>']) })
}

/// `*` = any run of characters; a trailing `:*` = the prefix alone or followed by a space.
fn command_glob(p: &str) -> Result<LazyRegex, String> {
    let mut src = String::from("^");
    let (body, prefix) = match p.strip_suffix(":*") {
        Some(b) => (b, true),
        None => (p, false),
    };
    for part in body.split('*').enumerate() {
        if part.0 > 0 {
            src.push_str("(?s:.*)");
        }
        src.push_str(&regex::escape(part.1));
    }
    if prefix {
        src.push_str("(?s:(?: .*)?)");
    }
    src.push('$');
    glob_regex(&src).map_err(|e| format!("`if` pattern {p:?}: {e}"))
}

fn path_pattern(p: &str, project_dir: &Path, home: Option<&Path>) -> Result<Pattern, String> {
    if !p.contains('/') {
        return Ok(Pattern::Path { re: path_glob(p)?, base_only: true });
    }
    let full = if let Some(abs) = p.strip_prefix("//") {
        format!("/{abs}")
    } else if let Some(rest) = p.strip_prefix("~/") {
        match home {
            Some(h) => format!("{}/{rest}", h.display()),
            None => return Ok(Pattern::Unknown),
        }
    } else {
        let rel = p.strip_prefix("./").unwrap_or(p);
        let rel = rel.strip_prefix('/').unwrap_or(rel);
        format!("{}/{rel}", project_dir.display().to_string().trim_end_matches('/'))
    };
    Ok(Pattern::Path { re: path_glob(&full)?, base_only: false })
}

/// `**` crosses segments, `*` stays within one, `?` is one character of a segment.
fn path_glob(p: &str) -> Result<LazyRegex, String> {
    let mut src = String::from("^");
    let chars: Vec<char> = p.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                if chars.get(i) == Some(&'/') {
                    i += 1;
                    src.push_str("(?:.*/)?");
                } else {
                    src.push_str(".*");
                }
                continue;
            }
            '*' => src.push_str("[^/]*"),
            '?' => src.push_str("[^/]"),
            c => src.push_str(&regex::escape(&c.to_string())),
        }
        i += 1;
    }
    src.push('$');
    glob_regex(&src).map_err(|e| format!("`if` path pattern {p:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(raw: &str) -> IfRule {
        IfRule::parse(raw, Path::new("/proj"), Some(Path::new("/home/u"))).unwrap().0
    }

    #[test]
    fn bash_glob_matches_any_subcommand() {
        let r = rule("Bash(git *)");
        assert!(r.matches("Bash", Some(&json!({"command": "npm test && git push"}))));
        assert!(!r.matches("Bash", Some(&json!({"command": "echo hi"}))));
        assert!(!r.matches("Read", Some(&json!({"command": "git push"}))));
    }

    #[test]
    fn command_substitutions_and_assignments_are_seen_through() {
        let r = rule("Bash(rm *)");
        assert!(r.matches("Bash", Some(&json!({"command": "echo $(rm -rf x)"}))));
        assert!(r.matches("Bash", Some(&json!({"command": "echo `rm y`"}))));
        assert!(r.matches("Bash", Some(&json!({"command": "FOO=1 BAR=2 rm z"}))));
        assert_eq!(check(&r, "echo 'a; rm b'"), IfMatch::No);
    }

    fn check(r: &IfRule, cmd: &str) -> IfMatch {
        r.check("Bash", Some(&json!({ "command": cmd })))
    }

    /// Issue 30's examples, and their kin: each is a command bash runs `rm` for.
    #[test]
    fn grammar_bash_runs_never_skips_the_guard() {
        let r = rule("Bash(rm *)");
        for cmd in [
            "if true; then rm -rf x; fi",
            "! rm -rf x",
            "time rm -rf x",
            "time -p rm -rf x",
            "case a in a) rm -rf x;; esac",
            ">/dev/null rm -rf x",
            "2>/dev/null rm -rf x",
            "{fd}>/dev/null rm -rf x",
            "cat <(rm -rf x)",
            "tee >(rm -rf x)",
            "rm\t-rf x",
            "r\\\nm -rf x",
            "\\rm -rf x",
            r#""r"m -rf x"#,
            "echo hi # comment\nrm -rf x",
            "cat <<EOF\n$(rm -rf x)\nEOF",
            "cat <<'EOF'\nbody\nEOF\nrm -rf x",
            "x=$(rm -rf y)",
            r#"echo "$(rm -rf x)""#,
            "while true; do rm -rf x; done",
            "f() { rm -rf x; }; f",
            "(rm -rf x)",
            "{ rm -rf x; }",
            "echo $((1+1)); rm -rf x",
            "[[ -e x ]] && rm -rf x",
            "coproc rm -rf x",
            r#"a=1; eval "rm -rf x""#,
            "echo ${x:-$(rm -rf y)}",
            "echo ok |& rm -rf x",
            "true &\nrm -rf x",
        ] {
            assert_ne!(check(&r, cmd), IfMatch::No, "{cmd:?}");
        }
    }

    /// Wrappers are looked through; a program named by a path matches by its last component.
    #[test]
    fn wrappers_and_paths_are_looked_through() {
        let r = rule("Bash(rm *)");
        for cmd in [
            "env rm -rf x",
            "env -i FOO=1 rm -rf x",
            "command rm -rf x",
            "exec rm -rf x",
            "nohup rm -rf x",
            "nice rm -rf x",
            "nice -n 5 rm -rf x",
            "timeout 5 rm -rf x",
            "timeout -s KILL 5 rm -rf x",
            "xargs rm",
            "xargs -0 -n 1 rm -f",
            "sudo rm -rf x",
            "sudo -u root -E rm -rf x",
            "bash -c 'rm -rf x'",
            "sh -c 'cd /tmp && rm -rf x'",
            r#"bash -lc "echo a; rm -rf x""#,
            "/bin/rm -rf x",
            "./rm -rf x",
            r"find . -name '*.o' -exec rm {} \;",
            "sudo env nice timeout 5 /usr/bin/rm -rf x",
            "busybox rm -rf x",
            "su -c 'rm -rf x' root",
            "watch -n 1 rm -rf x",
            "uv run rm -rf x",
            "strace -f -o /tmp/t rm -rf x",
            "time -- rm -rf x",
            "su - root -c 'rm -rf x'",
            "su -lc 'rm -rf x'",
            "timeout --signal KILL 5 rm -rf x",
            "env --unset HOME rm -rf x",
            "sudo --user root rm -rf x",
            "xargs --max-args 1 rm",
            "sudo --some-new-option value rm -rf x",
            "toybox rm -rf x",
            "pkexec --user root rm -rf x",
            "eatmydata rm -rf x",
            "setarch x86_64 rm -rf x",
            "tmux new-session -d 'rm -rf x'",
            "screen -dm rm -rf x",
            "jobs -x rm -rf x",
            "watch echo '$(rm -rf x)'",
            "watch -n 1 'echo `rm -rf x`'",
            "env -S'rm -rf x'",
            "env -i -S 'FOO=1 rm -rf x'",
            "env - rm -rf x",
            "xargs -I{} rm -rf {}",
            "eval -- rm -rf x",
        ] {
            assert_eq!(check(&r, cmd), IfMatch::Yes, "{cmd:?}");
        }
        for cmd in [
            "bash script.sh",
            "echo rm | sh",
            "source x.sh",
            "sudo $CMD",
            "zsh -c 'rm x'",
            "echo 'rm -rf x' | sudo -s",
            "echo 'rm -rf x' | su root",
            "chroot /",
            "unshare -r",
            "parallel < commands.txt",
            "parallel rm ::: x",
            "at now",
            "su -s /bin/rm root -c x",
            "xargs -I{} sh -c '{}'",
            "xargs -I{} {} x",
            "find . -exec {} \\;",
            "find . -exec sh -c 'echo {}' \\;",
            "find . $ARGS",
            "bash -O expand_aliases -c ls",
            "bash -k -c ls",
            "bash -o keyword -c ls",
            "env -S 'r\\_m x'",
            "env -S \"$X\"",
            "jobs -x $CMD",
        ] {
            assert!(matches!(check(&r, cmd), IfMatch::Undecided(_)), "{cmd:?}: {:?}", check(&r, cmd));
        }
        assert_eq!(check(&rule("Bash(/bin/rm *)"), "rm -rf x"), IfMatch::Yes);
    }

    /// What the reader understands completely it decides: no warning for ordinary commands.
    #[test]
    fn ordinary_commands_are_decided() {
        let r = rule("Bash(rm *)");
        for cmd in [
            "ls -la",
            "cd src && cargo test 2>&1 | tail -20",
            "git commit -m \"$(cat <<'EOF'\nfix: rm stale files\n\nbody\nEOF\n)\"",
            "echo \"$HOME\" > out.txt; cat out.txt",
            "npm test -- --watch=false &",
            "export FOO=bar && echo $FOO",
            "set -euo pipefail; make",
            "docker run \\\n  -v x:y \\\n  img",
            "grep -r 'rm -rf' . || true",
            "echo rm",
            "git log --format='%H %s' | head",
            "for_real=1 ls",
            "test -f x && cat x",
            "[ -d build ] || mkdir build",
            "python3 -c 'import os'",
            "echo a#b; echo c # rm -rf x",
            "find . -name '*.rs' -exec grep -l foo {} \\;",
            "find \"$DIR\" -name x -print",
            "find ~/src -name x",
            "ls | xargs -I{} cp {} /tmp/",
            "env -S 'ls -la'",
            "OPTIND=1",
            "RANDOM=42; echo $RANDOM",
            "read -r line < f",
            "printf '%s\\n' [a] [b]",
            "set -o pipefail",
            "bash -o pipefail -c 'ls'",
            "eval -- ls",
            "jobs -l",
            "strace -f ls -la",
        ] {
            assert_eq!(check(&r, cmd), IfMatch::No, "{cmd:?}");
        }
    }

    /// An argument only the shell knows leaves a rule about that program undecided, and
    /// no other.
    #[test]
    fn unknown_arguments_leave_only_their_program_undecided() {
        assert!(matches!(check(&rule("Bash(rm -rf *)"), "rm $FLAGS x"), IfMatch::Undecided(_)));
        assert_eq!(check(&rule("Bash(rm -rf *)"), "ls $DIR"), IfMatch::No);
        assert!(matches!(check(&rule("Bash(rm *)"), "$EDITOR x"), IfMatch::Undecided(_)));
        assert_eq!(check(&rule("Bash(rm *)"), "rm *.o"), IfMatch::Yes);
    }

    /// Builtins that change what bash runs later, and variables it runs as code.
    #[test]
    fn builtins_and_variables_that_run_code_are_undecided() {
        let r = rule("Bash(rm *)");
        for cmd in [
            "alias ls=rm; ls x",
            "shopt -s expand_aliases",
            "hash -p /bin/rm ls; ls x",
            "trap 'rm -rf x' EXIT",
            "unset 'a[$(rm -rf x)]'",
            "declare -i n; n='a[$(rm -rf x)]'",
            "test -v 'a[$(rm -rf x)]'",
            "printf -v 'a[$(rm x)]' %s 1",
            "PS4='$(rm -rf x)' bash -xc ls",
            "export BASH_ENV=/tmp/x; bash -c ls",
            "env 'BASH_FUNC_ls%%=() { rm -rf x; }' bash -c ls",
            "a[$(rm -rf x)]=1",
            "set -H",
            "set -k; touch A=1 -rf x",
            "enable -f ./x.so rm",
            "set -o keyword; nice A=1 rm x",
            "read PS4 <<< '$(rm x)'; set -x; ls",
            "printf -v PS4 '$(rm x)'; set -x; ls",
            "declare -n r=PS4; r='$(rm x)'; set -x; ls",
            "BASH_CMDS=/bin/rm; 0 -rf x",
            "declare BASH_CMDS=/bin/rm",
            "RANDOM='a[$(rm x)]'",
            "x='a[$(rm y)]'; OPTIND=x",
            "read HISTCMD",
            "PS\\\n4='$(rm x)' bash -xc ls",
        ] {
            assert!(
                matches!(check(&r, cmd), IfMatch::Undecided(_) | IfMatch::Yes),
                "{cmd:?}: {:?}",
                check(&r, cmd)
            );
        }
    }

    /// Judging is linear: whatever the command (nested 30 levels, or past the bound), the bytes
    /// read, matched and joined stay within 3 × (nesting + 2) × its length (each level's
    /// commands are matched as written, joined and matched again), and doubling the command
    /// doubles them. Counted, not timed: a loaded machine cannot break it.
    #[test]
    fn judging_work_grows_linearly_with_the_command() {
        let r = rule("Bash(rm *)");
        let balanced = "$(".repeat(30) + "a `b` \"c;d\" 'e|f' | g && h ; " + &")".repeat(30) + " ; ";
        for unit in [balanced.as_str(), "$(a `b` \"c;d\" 'e|f' | g && h ; "] {
            let mut work = Vec::new();
            for kib in [64usize, 128, 256] {
                let n = (kib << 10) / unit.len();
                let close = if unit.ends_with(" ; ") { String::new() } else { ")".repeat(n) };
                let cmd = unit.repeat(n) + &close;
                programs::work::take();
                assert_ne!(check(&r, &cmd), IfMatch::No, "{kib} KiB");
                let bytes = programs::work::take();
                assert!(
                    bytes <= 3 * (shell::MAX_NESTING + 2) * cmd.len(),
                    "{kib} KiB: {bytes} bytes of work"
                );
                work.push(bytes);
            }
            for w in work.windows(2) {
                assert!(w[1] <= w[0] * 21 / 10 + 4096, "{unit:?}: {work:?}");
            }
        }
    }

    /// Hostile shapes a megabyte long (or 10k `$(` deep, or 100k `;`) are answered, match or
    /// undecided, quickly. Before: many `<<E` then many `$(…)` looked at every open
    /// here-document per `)`, `printf [ [ …` searched all its words for `-v` per word, and
    /// `find -exec -exec …` each program's words for `{}`, all quadratic (the last took
    /// minutes); `eval eval …` read its code 32 times (14 s in a debug build); wrappers
    /// within wrappers judged the same code once per wrapper. The bound is wide, for a loaded
    /// debug build (3 s at most there; a release build well under a second).
    #[test]
    fn hostile_command_lines_are_answered_in_well_under_a_second() {
        let r = rule("Bash(rm *)");
        // Half of it in a debug build, which is ten times slower: `find -exec -exec …` took
        // minutes either way before.
        let mib = if cfg!(debug_assertions) { 512 << 10 } else { 1 << 20 };
        let fill = |unit: &str| unit.repeat(mib / unit.len());
        // Code three levels down, under 15 generic wrappers at each level.
        let wrappers = |code: &str| "strace ".repeat(15) + code;
        let l3 = wrappers("a\\\\\\ b");
        let l2 = wrappers(&format!("'{l3}'"));
        let nested = wrappers(&format!("\"{l2}\" ")).repeat(mib / (l2.len() + 200));
        let hostile = [
            ("many here-documents, then many `$(…)`", fill("cat <<E ") + &fill("$(a) ")),
            ("`printf [ [ …`", "printf ".to_string() + &fill("[ ")),
            ("10k nested `$(`", "$(".repeat(10_000) + "rm x" + &")".repeat(10_000)),
            ("100k `;`", "a; ".repeat(100_000)),
            ("100k `;` alone", ";".repeat(100_000)),
            ("a megabyte of one word", fill("a")),
            ("a megabyte of quotes", fill("'a'\"b\"")),
            ("`eval eval …`", fill("eval ")),
            ("`sudo sudo …`", fill("sudo ")),
            ("`strace strace …`", fill("strace ")),
            ("`find -exec -exec …`", "find ".to_string() + &fill("-exec ")),
            ("`xargs -I{} xargs -I{} …`", fill("xargs -I{} ") + "rm {}"),
            ("`env -S` within `env -S`", fill("env -S")),
            ("wrappers around code, three levels", nested),
            ("backticks", fill("`a` ")),
            ("`bash -c` within `bash -c`", fill("bash -c ")),
            ("a megabyte of `\\\\n`", fill("\\\n")),
            ("a megabyte of newlines", fill("\n")),
            ("here-document bodies", "cat <<E\n".to_string() + &fill("$(a)\n") + "E\n"),
        ];
        for (what, cmd) in hostile {
            let t = std::time::Instant::now();
            let v = check(&r, &cmd);
            let took = t.elapsed();
            assert!(took < std::time::Duration::from_secs(10), "{what}: {took:?} ({v:?})");
        }
    }

    #[test]
    fn a_command_that_is_not_a_string_is_undecided() {
        let r = rule("Bash(rm *)");
        assert!(matches!(r.check("Bash", Some(&json!({"command": ["rm", "x"]}))), IfMatch::Undecided(_)));
        assert_eq!(r.check("Bash", Some(&json!({}))), IfMatch::No);
    }

    /// A path or URL that is there but not a string (the bridge's placeholder for an argument
    /// an agent did not send whole) cannot be judged: the handler runs.
    #[test]
    fn a_path_or_url_that_is_not_a_string_is_undecided() {
        let cut = json!({"hookwire_unread": "src/ma"});
        let edit = rule("Edit(src/**)");
        assert!(matches!(edit.check("Edit", Some(&json!({"file_path": cut}))), IfMatch::Undecided(_)));
        assert_eq!(edit.check("Edit", Some(&json!({}))), IfMatch::No);
        let fetch = rule("WebFetch(domain:example.com)");
        assert!(matches!(fetch.check("WebFetch", Some(&json!({"url": cut}))), IfMatch::Undecided(_)));
    }

    #[test]
    fn reading_is_bounded_in_nesting() {
        let r = rule("Bash(rm *)");
        let nest = |n: usize| "echo $(".repeat(n) + "x" + &")".repeat(n);
        assert_eq!(check(&r, &nest(shell::MAX_NESTING)), IfMatch::No);
        let deeper = nest(shell::MAX_NESTING + 1);
        assert!(matches!(check(&r, &deeper), IfMatch::Undecided(_)));
        for bad in ["echo $(x", "echo 'x", "echo \"x", "echo `x", "a ) b", "a &&", "; a", "a ;; b"] {
            assert!(matches!(check(&r, bad), IfMatch::Undecided(_)), "{bad}");
        }
    }

    #[test]
    fn prefix_rule_matches_the_prefix_alone_or_with_arguments() {
        let r = rule("Bash(npm run:*)");
        assert!(r.matches("Bash", Some(&json!({"command": "npm run"}))));
        assert!(r.matches("Bash", Some(&json!({"command": "npm run build"}))));
        assert!(!r.matches("Bash", Some(&json!({"command": "npm running"}))));
    }

    #[test]
    fn unbalanced_commands_fail_open() {
        let r = rule("Bash(git *)");
        assert!(r.matches("Bash", Some(&json!({"command": "echo 'unterminated"}))));
    }

    #[test]
    fn bare_tool_and_star_match_any_input() {
        for raw in ["Bash", "Bash()", "Bash(*)"] {
            assert!(rule(raw).matches("Bash", Some(&json!({"command": "x"}))), "{raw}");
        }
        assert!(rule("mcp__memory__create").matches("mcp__memory__create", None));
    }

    #[test]
    fn path_globs_follow_segments() {
        assert!(rule("Edit(*.rs)").matches("Edit", Some(&json!({"file_path": "/proj/src/main.rs"}))));
        assert!(rule("Edit(src/**)").matches("Edit", Some(&json!({"file_path": "/proj/src/a/b.rs"}))));
        assert!(!rule("Edit(src/*)").matches("Edit", Some(&json!({"file_path": "/proj/src/a/b.rs"}))));
        assert!(rule("Read(//etc/*)").matches("Read", Some(&json!({"file_path": "/etc/passwd"}))));
        assert!(rule("Read(~/.ssh/**)").matches("Read", Some(&json!({"file_path": "/home/u/.ssh/id"}))));
    }

    /// Issue 30: `Read(//etc/**)` was skipped for these spellings of `/etc/passwd`.
    #[test]
    fn path_rules_see_through_dot_segments_and_climbs() {
        let r = rule("Read(//etc/**)");
        for p in ["/tmp/../etc/passwd", "//etc/passwd", "/./etc/passwd", "/etc//passwd"] {
            assert_eq!(r.check("Read", Some(&json!({"file_path": p}))), IfMatch::Yes, "{p}");
        }
        assert!(matches!(
            r.check("Read", Some(&json!({"file_path": "/proj/link/../passwd"}))),
            IfMatch::Undecided(_)
        ));
        assert_eq!(r.check("Read", Some(&json!({"file_path": "/proj/a.txt"}))), IfMatch::No);
    }

    #[test]
    fn webfetch_domains_and_subdomains() {
        let exact = rule("WebFetch(domain:example.com)");
        assert!(exact.matches("WebFetch", Some(&json!({"url": "https://example.com/x"}))));
        assert!(!exact.matches("WebFetch", Some(&json!({"url": "https://a.example.com/x"}))));
        let sub = rule("WebFetch(domain:*.example.com)");
        assert!(sub.matches("WebFetch", Some(&json!({"url": "https://a.example.com:8443/x"}))));
    }

    #[test]
    fn glob_regexes_left_for_later_compile_within_the_limit() {
        // Every construct a glob becomes, repeated up to the deferral bound.
        for unit in ["(?s:.*)", "[^/]*", "[^/]", "(?:.*/)?", ".*", r"\*", "é"] {
            let mut src = String::from("^");
            while src.len() + unit.len() < GLOB_DEFER_UP_TO_BYTES {
                src.push_str(unit);
            }
            src.push('$');
            let built = regex::RegexBuilder::new(&src).size_limit(GLOB_SIZE_LIMIT).build();
            assert!(built.is_ok(), "{unit}: {built:?}");
        }
    }

    #[test]
    fn unknown_tool_patterns_run_and_warn() {
        let (r, w) = IfRule::parse("Task(foo)", Path::new("/p"), None).unwrap();
        assert!(w.is_some());
        assert!(r.matches("Task", None));
    }
}
