//! The `if` filter of a handler (protocol.md §4.3): one permission rule, `Tool` or
//! `Tool(pattern)`, parsed once at load and tested against the tool call of a fire.
//!
//! Where a pattern cannot be evaluated (an unknown tool, a command that cannot be split) the
//! handler runs: the filter narrows, it never guards. It never runs anything itself.

use crate::lazy_regex::LazyRegex;
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
    /// Bash / PowerShell command glob, tested against each subcommand.
    Command(LazyRegex),
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
            Some(p) if tool == "Bash" || tool == "PowerShell" => Pattern::Command(command_glob(p)?),
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
        let yes = |b: bool| if b { IfMatch::Yes } else { IfMatch::No };
        let field = |k: &str| tool_input.and_then(|t| t.get(k)).and_then(|v| v.as_str());
        match &self.pattern {
            Pattern::Any | Pattern::Unknown => IfMatch::Yes,
            Pattern::Command(re) => {
                let Some(cmd) = field("command") else { return IfMatch::No };
                match split_command(cmd) {
                    Split::Parts(parts) if parts.iter().any(|p| re.is_match(p)) => IfMatch::Yes,
                    Split::Parts(parts) => match parts.iter().find(|p| !literal_command_word(p)) {
                        Some(p) => IfMatch::Undecided(format!(
                            "the command word of {:?} is not literal text",
                            p.chars().take(40).collect::<String>()
                        )),
                        None => IfMatch::No,
                    },
                    Split::Undecidable(why) => IfMatch::Undecided(why),
                }
            }
            Pattern::Path { re, base_only } => {
                let Some(path) =
                    field("file_path").or_else(|| field("notebook_path")).or_else(|| field("path"))
                else {
                    return IfMatch::No;
                };
                if *base_only {
                    yes(re.is_match(path.rsplit('/').next().unwrap_or(path)))
                } else {
                    yes(re.is_match(path))
                }
            }
            Pattern::Domain { host, sub } => {
                let Some(url) = field("url") else { return IfMatch::No };
                let Some(h) = url_host(url) else { return IfMatch::No };
                let h = h.trim_end_matches('.').to_ascii_lowercase();
                yes(if *sub { h.ends_with(&format!(".{host}")) || h == *host } else { h == *host })
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
    /// The rule cannot tell (a command that cannot be split within its bounds): the handler
    /// runs, because a guard errs toward running, and the fire says why.
    Undecided(String),
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

fn url_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit('@').next()?;
    if let Some(v6) = host_port.strip_prefix('[') {
        return v6.split(']').next();
    }
    host_port.split(':').next()
}

/// Deepest nesting of `$(...)` and backticks that a command may have and still be split; past
/// it the rule cannot decide and the handler runs. Each level re-scans its body once when the
/// subcommands are matched, so this bounds matching at (depth + 1) × the command's length.
pub const MAX_NESTING: usize = 32;

/// The subcommands of a command, or why they cannot be known (the handler then runs).
#[derive(Debug, PartialEq)]
pub enum Split<'a> {
    Parts(Vec<&'a str>),
    Undecidable(String),
}

/// One level of nesting being scanned: the whole command, a `$(...)` or a backtick body.
struct Level {
    backtick: bool,
    /// Where the current subcommand of this level starts.
    start: usize,
    single: bool,
    double: bool,
    /// Bare `(` still open inside a `$(...)` body.
    parens: usize,
}

/// Splits a shell command into subcommands on `&&`, `||`, `;`, `|`, `&` and newlines outside
/// quotes; `$(...)` and backtick bodies are subcommands too; leading `NAME=value` assignments
/// are stripped. Undecidable when quotes or parentheses do not balance, or past
/// [`MAX_NESTING`].
///
/// The command is model-written (a prompt injection controls it), so this is one pass over
/// its bytes with an explicit stack of levels: subcommands are slices of the command, never
/// copies, and nothing recurses. (An earlier version recursed per `$(` and copied the rest of
/// the command each time: 12,000 nested `$(` took seconds and a gigabyte.) Only ASCII bytes
/// are structural, so every slice boundary is a character boundary.
pub fn split_command(cmd: &str) -> Split<'_> {
    let b = cmd.as_bytes();
    let mut parts: Vec<&str> = Vec::new();
    let mut levels = vec![Level { backtick: false, start: 0, single: false, double: false, parens: 0 }];
    fn emit<'a>(cmd: &'a str, from: usize, to: usize, parts: &mut Vec<&'a str>) {
        let sub = strip_assignments(&cmd[from..to]);
        if !sub.is_empty() {
            parts.push(sub);
        }
    }
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let nested = levels.len() > 1;
        let Some(top) = levels.last_mut() else { break };
        if top.single {
            if c == b'\'' {
                top.single = false;
            } else if c == b'`' && top.backtick {
                return Split::Undecidable("a quote inside backticks does not close".into());
            }
            i += 1;
            continue;
        }
        match c {
            b'\\' => {
                i += 2;
                continue;
            }
            b'\'' if !top.double => top.single = true,
            b'"' => top.double = !top.double,
            b'$' if b.get(i + 1) == Some(&b'(') => {
                if levels.len() > MAX_NESTING {
                    return Split::Undecidable(format!("nested more than {MAX_NESTING} levels deep"));
                }
                levels.push(Level { backtick: false, start: i + 2, single: false, double: false, parens: 0 });
                i += 2;
                continue;
            }
            b'`' if top.backtick => {
                if top.double {
                    return Split::Undecidable("a quote inside backticks does not close".into());
                }
                emit(cmd, top.start, i, &mut parts);
                levels.pop();
            }
            b'`' => {
                if levels.len() > MAX_NESTING {
                    return Split::Undecidable(format!("nested more than {MAX_NESTING} levels deep"));
                }
                levels.push(Level { backtick: true, start: i + 1, single: false, double: false, parens: 0 });
            }
            b'(' if !top.double => top.parens += 1,
            b')' if !top.double && !top.backtick && nested => {
                if top.parens > 0 {
                    top.parens -= 1;
                } else {
                    emit(cmd, top.start, i, &mut parts);
                    levels.pop();
                }
            }
            b'&' | b'|' | b';' | b'\n' if !top.double => {
                emit(cmd, top.start, i, &mut parts);
                if (c == b'&' || c == b'|') && b.get(i + 1) == Some(&c) {
                    i += 1;
                }
                if let Some(top) = levels.last_mut() {
                    top.start = i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    match levels.as_slice() {
        [top] if !top.single && !top.double => {
            emit(cmd, top.start, b.len().max(top.start), &mut parts);
            Split::Parts(parts)
        }
        _ => Split::Undecidable("quotes or parentheses do not balance".into()),
    }
}

/// Whether a subcommand's first word is plain text. A word with quotes, escapes, expansions,
/// globs or a subshell/group opener (`"r"m`, `\\rm`, `$(x)rm`, `` `x`rm ``, `r*`, `( rm`) names a
/// program only the shell can tell, so a glob over the text cannot say the rule does not apply.
fn literal_command_word(sub: &str) -> bool {
    let word = sub.split(char::is_whitespace).next().unwrap_or("");
    !word.contains(|c| "\"'\\$`*?[{(".contains(c))
}

/// Length of the first shell word of `s`: up to whitespace outside quotes, `$(...)` and
/// backticks (`x=$(a b)` is one word).
fn word_end(s: &str) -> usize {
    let (mut single, mut double, mut back, mut parens) = (false, false, false, 0usize);
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\'' if !double && !back => single = !single,
            _ if single => {}
            '\\' => {
                chars.next();
            }
            '"' => double = !double,
            '`' => back = !back,
            '(' if !double => parens += 1,
            ')' if !double => parens = parens.saturating_sub(1),
            c if c.is_whitespace() && !double && !back && parens == 0 => return i,
            _ => {}
        }
    }
    s.len()
}

fn strip_assignments(sub: &str) -> &str {
    let mut rest = sub.trim();
    loop {
        // `NAME=` first (a few bytes): only then is the word's end worth finding.
        let name = rest.bytes().take_while(|c| *c == b'_' || c.is_ascii_alphanumeric()).count();
        let is_assignment =
            name > 0 && !rest.as_bytes()[0].is_ascii_digit() && rest.as_bytes().get(name) == Some(&b'=');
        if !is_assignment {
            return rest;
        }
        let end = word_end(rest);
        if end == rest.len() {
            return "";
        }
        rest = rest[end..].trim_start();
    }
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
        assert!(!r.matches("Bash", Some(&json!({"command": "echo 'a; rm b'"}))));
    }

    #[test]
    fn a_command_word_only_the_shell_can_read_leaves_the_rule_undecided() {
        let r = rule("Bash(rm *)");
        for cmd in ["\"r\"m x", "\\rm x", "$(echo)rm x", "``rm x", "r* x", "( rm x )", "{ rm x; }", "$'rm' x"]
        {
            assert!(
                matches!(r.check("Bash", Some(&json!({"command": cmd}))), IfMatch::Undecided(_)),
                "{cmd}"
            );
        }
        assert_eq!(r.check("Bash", Some(&json!({"command": "echo \"$(date)\" | tee x"}))), IfMatch::No);
    }

    #[test]
    fn splitting_is_by_slices_and_bounded_in_nesting() {
        assert_eq!(
            split_command("A=1 git push && echo `id` ; x=$(b | c) d"),
            Split::Parts(vec!["git push", "id", "echo `id`", "b", "c", "d"])
        );
        let deep = "$(".repeat(MAX_NESTING) + "x" + &")".repeat(MAX_NESTING);
        assert!(matches!(split_command(&deep), Split::Parts(_)));
        let deeper = "$(".repeat(MAX_NESTING + 1) + "x" + &")".repeat(MAX_NESTING + 1);
        assert!(matches!(split_command(&deeper), Split::Undecidable(_)));
        for bad in ["echo $(x", "echo 'x", "echo \"x", "echo `x", "a ) b"] {
            let want_parts = bad == "a ) b";
            assert_eq!(matches!(split_command(bad), Split::Parts(_)), want_parts, "{bad}");
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
