//! Reading a hook's `CLAUDE_ENV_FILE` (protocol.md §3.4): plain assignments only, expanded
//! from earlier assignments and the hook's environment. Anything a shell would have to run is
//! refused with a warning; hookwire never executes the file.

/// Parses the file's text. `lookup` resolves `$NAME` from the hook's environment; assignments
/// already made (in `merged`) win over it. Returns the new assignments in order, and warnings.
pub fn parse(
    text: &str,
    hook_id: &str,
    merged: &[(String, String)],
    lookup: &dyn Fn(&str) -> Option<String>,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut warnings = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let get = |name: &str| -> Option<String> {
            out.iter()
                .rev()
                .chain(merged.iter().rev())
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .or_else(|| lookup(name))
        };
        match assignment(line, &get) {
            Some((k, v)) => out.push((k, v)),
            None => {
                warnings.push(format!("hook {hook_id}: env file line {} is not a plain assignment", n + 1))
            }
        }
    }
    (out, warnings)
}

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn assignment(line: &str, get: &dyn Fn(&str) -> Option<String>) -> Option<(String, String)> {
    let line = line.strip_prefix("export ").map(str::trim_start).unwrap_or(line);
    let (name, value) = line.split_once('=')?;
    if !is_name(name) {
        return None;
    }
    let value = parse_value(value, get)?;
    Some((name.to_string(), value))
}

fn parse_value(v: &str, get: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    let chars: Vec<char> = v.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    if chars.first() == Some(&'\'') {
        let end = chars[1..].iter().position(|&c| c == '\'')? + 1;
        if !chars[end + 1..].iter().all(|c| c.is_whitespace()) && chars[end + 1..].first() != Some(&'#') {
            return None;
        }
        return Some(chars[1..end].iter().collect());
    }
    let quoted = chars.first() == Some(&'"');
    if quoted {
        i = 1;
    }
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' if quoted => {
                let rest: String = chars[i + 1..].iter().collect();
                let rest = rest.trim();
                return if rest.is_empty() || rest.starts_with('#') { Some(out) } else { None };
            }
            '\\' if quoted => {
                let n = *chars.get(i + 1)?;
                if matches!(n, '"' | '\\' | '$' | '`') {
                    out.push(n);
                } else {
                    out.push('\\');
                    out.push(n);
                }
                i += 2;
                continue;
            }
            '`' => return None,
            '$' => {
                let next = chars.get(i + 1).copied();
                if next == Some('(') {
                    return None; // command substitution
                }
                let (name, used) = if next == Some('{') {
                    let end = chars[i + 2..].iter().position(|&c| c == '}')? + i + 2;
                    let name: String = chars[i + 2..end].iter().collect();
                    (name, end + 1 - i)
                } else {
                    let name: String = chars[i + 1..]
                        .iter()
                        .take_while(|c| **c == '_' || c.is_ascii_alphanumeric())
                        .collect();
                    let len = name.chars().count();
                    (name, len + 1)
                };
                if name.is_empty() {
                    out.push('$');
                    i += 1;
                    continue;
                }
                if !is_name(&name) {
                    return None;
                }
                out.push_str(&get(&name).unwrap_or_default());
                i += used;
                continue;
            }
            c if !quoted && (c.is_whitespace() || ";&|<>()\\'\"".contains(c)) => {
                let rest: String = chars[i..].iter().collect();
                let rest = rest.trim();
                return if rest.is_empty() || rest.starts_with('#') { Some(out) } else { None };
            }
            c => out.push(c),
        }
        i += 1;
    }
    if quoted { None } else { Some(out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> (Vec<(String, String)>, Vec<String>) {
        parse(text, "h", &[], &|n| {
            if n == "HOME" {
                Some("/home/u".into())
            } else if n == "PATH" {
                Some("/bin".into())
            } else {
                None
            }
        })
    }

    #[test]
    fn plain_assignments_with_and_without_export() {
        let (a, w) = run("export A=1\nB='x y'\n# comment\n\nC=\"q\\\"z\"\n");
        assert!(w.is_empty());
        assert_eq!(
            a,
            vec![("A".into(), "1".into()), ("B".into(), "x y".into()), ("C".into(), "q\"z".into())]
        );
    }

    #[test]
    fn variables_expand_from_earlier_lines_then_the_environment() {
        let (a, _) = run("export PATH=\"$HOME/bin:$PATH\"\nX=${PATH}:more\nY='$HOME'");
        assert_eq!(a[0].1, "/home/u/bin:/bin");
        assert_eq!(a[1].1, "/home/u/bin:/bin:more");
        assert_eq!(a[2].1, "$HOME");
    }

    #[test]
    fn anything_a_shell_would_run_is_refused() {
        let (a, w) = run("A=$(whoami)\nB=`id`\nC=1; rm -rf /\nrm -rf /\n1X=2");
        assert!(a.is_empty(), "{a:?}");
        assert_eq!(w.len(), 5);
        assert!(w[2].contains("line 3"));
    }
}
