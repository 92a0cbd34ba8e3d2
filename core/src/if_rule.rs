//! The `if` filter of a handler (protocol.md §4.3): one permission rule, `Tool` or
//! `Tool(pattern)`, parsed once at load and tested against the tool call of a fire.
//!
//! Where a pattern cannot be evaluated (an unknown tool, a command that cannot be split) the
//! handler runs: the filter narrows, it never guards. It never runs anything itself.

use regex::Regex;
use std::path::Path;

#[derive(Debug, Clone)]
pub struct IfRule {
    tool: String,
    pattern: Pattern,
}

#[derive(Debug, Clone)]
enum Pattern {
    /// `Tool`, `Tool()` or `Tool(*)`.
    Any,
    /// Bash / PowerShell command glob, tested against each subcommand.
    Command(Regex),
    /// File tools: a path glob; `base_only` when the pattern has no `/`.
    Path { re: Regex, base_only: bool },
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
        Ok((IfRule { tool: tool.to_string(), pattern }, warning))
    }

    /// Whether the handler runs for this tool call.
    pub fn matches(&self, tool_name: &str, tool_input: Option<&serde_json::Value>) -> bool {
        if tool_name != self.tool {
            return false;
        }
        let field = |k: &str| tool_input.and_then(|t| t.get(k)).and_then(|v| v.as_str());
        match &self.pattern {
            Pattern::Any | Pattern::Unknown => true,
            Pattern::Command(re) => {
                let Some(cmd) = field("command") else { return false };
                match split_command(cmd) {
                    Some(parts) => parts.iter().any(|p| command_matches(re, p)),
                    None => true,
                }
            }
            Pattern::Path { re, base_only } => {
                let Some(path) =
                    field("file_path").or_else(|| field("notebook_path")).or_else(|| field("path"))
                else {
                    return false;
                };
                if *base_only {
                    re.is_match(path.rsplit('/').next().unwrap_or(path))
                } else {
                    re.is_match(path)
                }
            }
            Pattern::Domain { host, sub } => {
                let Some(url) = field("url") else { return false };
                let Some(h) = url_host(url) else { return false };
                let h = h.trim_end_matches('.').to_ascii_lowercase();
                if *sub { h.ends_with(&format!(".{host}")) || h == *host } else { h == *host }
            }
        }
    }
}

fn command_matches(re: &Regex, sub: &str) -> bool {
    re.is_match(sub.trim())
}

/// `*` = any run of characters; a trailing `:*` = the prefix alone or followed by a space.
fn command_glob(p: &str) -> Result<Regex, String> {
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
    Regex::new(&src).map_err(|e| format!("`if` pattern {p:?}: {e}"))
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
fn path_glob(p: &str) -> Result<Regex, String> {
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
    Regex::new(&src).map_err(|e| format!("`if` path pattern {p:?}: {e}"))
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

/// Splits a shell command into subcommands on `&&`, `||`, `;`, `|`, `&` and newlines outside
/// quotes; `$(...)` and backtick bodies are subcommands too; leading `NAME=value` assignments
/// are stripped. `None` when quotes or parentheses do not balance (the caller fails open).
pub fn split_command(cmd: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    split_into(cmd, &mut out)?;
    Some(out.into_iter().map(|s| strip_assignments(&s)).filter(|s| !s.is_empty()).collect())
}

fn split_into(cmd: &str, out: &mut Vec<String>) -> Option<()> {
    let chars: Vec<char> = cmd.chars().collect();
    let mut cur = String::new();
    let mut i = 0;
    let (mut single, mut double) = (false, false);
    while i < chars.len() {
        let c = chars[i];
        if single {
            cur.push(c);
            if c == '\'' {
                single = false;
            }
            i += 1;
            continue;
        }
        match c {
            '\\' => {
                cur.push(c);
                if let Some(&n) = chars.get(i + 1) {
                    cur.push(n);
                }
                i += 2;
                continue;
            }
            '\'' if !double => single = true,
            '"' => double = !double,
            '$' if chars.get(i + 1) == Some(&'(') => {
                let end = matching_paren(&chars, i + 1)?;
                let body: String = chars[i + 2..end].iter().collect();
                split_into(&body, out)?;
                cur.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
            '`' => {
                let end = chars[i + 1..].iter().position(|&x| x == '`')? + i + 1;
                let body: String = chars[i + 1..end].iter().collect();
                split_into(&body, out)?;
                cur.extend(&chars[i..=end]);
                i = end + 1;
                continue;
            }
            '&' | '|' | ';' | '\n' if !double => {
                out.push(std::mem::take(&mut cur));
                if (c == '&' || c == '|') && chars.get(i + 1) == Some(&c) {
                    i += 1;
                }
                i += 1;
                continue;
            }
            _ => {}
        }
        cur.push(c);
        i += 1;
    }
    if single || double {
        return None;
    }
    out.push(cur);
    Some(())
}

/// Index of the `)` closing the `(` at `open`, honouring quotes and nesting.
fn matching_paren(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let (mut single, mut double) = (false, false);
    let mut i = open;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' if !single => i += 1,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '(' if !single && !double => depth += 1,
            ')' if !single && !double => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn strip_assignments(sub: &str) -> String {
    let mut rest = sub.trim();
    loop {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..word_end];
        let is_assignment = word.find('=').is_some_and(|eq| {
            eq > 0
                && word[..eq]
                    .chars()
                    .enumerate()
                    .all(|(k, ch)| ch == '_' || ch.is_ascii_alphabetic() || (k > 0 && ch.is_ascii_digit()))
        });
        if !is_assignment || word_end == rest.len() {
            return if is_assignment { String::new() } else { rest.to_string() };
        }
        rest = rest[word_end..].trim_start();
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
    fn unknown_tool_patterns_run_and_warn() {
        let (r, w) = IfRule::parse("Task(foo)", Path::new("/p"), None).unwrap();
        assert!(w.is_some());
        assert!(r.matches("Task", None));
    }
}
