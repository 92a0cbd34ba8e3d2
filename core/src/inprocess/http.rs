//! `http` handlers (protocol.md §5.8): a POST of the payload with allowlisted header variables,
//! no redirects, everything inside the handler's deadline, and the response mapped onto what a
//! command would have done (2xx JSON = exit 0 stdout; anything else is an error, never a block).

use super::Answer;
use crate::runner::End;
use std::io::Read;
use std::time::Instant;

/// Replaces `$NAME` and `${NAME}` in a header value: from the hook environment when NAME is in
/// the handler's `allowedEnvVars` and, when a global list exists, in that too; else by "".
pub fn interpolate(
    value: &str,
    allowed: &[String],
    global: Option<&[String]>,
    env: &dyn Fn(&str) -> Option<String>,
) -> String {
    let ok =
        |name: &str| allowed.iter().any(|a| a == name) && global.is_none_or(|g| g.iter().any(|a| a == name));
    let chars: Vec<char> = value.chars().collect();
    let mut out = String::with_capacity(value.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '$' {
            let (name, used) = if chars.get(i + 1) == Some(&'{') {
                match chars[i + 2..].iter().position(|c| *c == '}') {
                    Some(end) => (chars[i + 2..i + 2 + end].iter().collect::<String>(), end + 3),
                    None => (String::new(), 0),
                }
            } else {
                let name: String =
                    chars[i + 1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == '_').collect();
                let n = name.chars().count();
                (name, n + 1)
            };
            if !name.is_empty() && used > 0 {
                if ok(&name) {
                    out.push_str(&env(&name).unwrap_or_default());
                }
                i += used;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// Whether `url` matches one of the patterns (`*` = any run of characters; the host is
/// compared case-insensitively with a trailing dot ignored). An empty list allows nothing.
pub fn url_allowed(url: &str, patterns: &[String]) -> bool {
    let norm = |u: &str| -> String {
        match u.split_once("://") {
            Some((scheme, rest)) => {
                let (host, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
                let host = host.to_ascii_lowercase();
                let host = host.strip_suffix('.').unwrap_or(&host).to_string();
                format!("{}://{host}{path}", scheme.to_ascii_lowercase())
            }
            None => u.to_string(),
        }
    };
    let url = norm(url);
    patterns.iter().any(|p| {
        let re = format!("^{}$", norm(p).split('*').map(regex::escape).collect::<Vec<_>>().join(".*"));
        regex::Regex::new(&re).is_ok_and(|r| r.is_match(&url))
    })
}

/// POSTs `body` to `url` and maps the response. Never follows redirects; connect, send and
/// receive all fit before `deadline`.
pub fn post(
    url: &str,
    headers: &[(String, String)],
    body: Vec<u8>,
    deadline: Instant,
    max_output: usize,
) -> Answer {
    let remaining = deadline.saturating_duration_since(Instant::now());
    if remaining.is_zero() {
        return Answer { end: End::TimedOut { started: false }, stdout: String::new(), http_status: None };
    }
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(remaining))
        .max_redirects(0)
        .http_status_as_error(false)
        .build()
        .into();
    let mut req = agent.post(url).header("Content-Type", "application/json");
    for (k, v) in headers {
        req = req.header(k.as_str(), v.as_str());
    }
    let mut resp = match req.send(&body[..]) {
        Ok(r) => r,
        Err(ureq::Error::Timeout(_)) => {
            return Answer { end: End::TimedOut { started: true }, stdout: String::new(), http_status: None };
        }
        Err(e) => {
            return Answer {
                end: End::SpawnFailed(format!("POST {url}: {e}")),
                stdout: String::new(),
                http_status: None,
            };
        }
    };
    let status = resp.status().as_u16();
    let mut bytes = Vec::new();
    let read = resp.body_mut().as_reader().take(max_output as u64 + 1).read_to_end(&mut bytes);
    if let Err(e) = read {
        let end = if Instant::now() >= deadline {
            End::TimedOut { started: true }
        } else {
            End::Failed(format!("reading the response: {e}"))
        };
        return Answer { end, stdout: String::new(), http_status: Some(status) };
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let trimmed = text.trim();
    let end = if !(200..300).contains(&status) {
        End::Failed(format!("HTTP {status}"))
    } else if trimmed.is_empty()
        || (trimmed.starts_with('{')
            && crate::json::from_str::<serde_json::Map<String, serde_json::Value>>(trimmed).is_ok())
    {
        End::Exited(0)
    } else {
        End::Failed(format!("HTTP {status}: the response body is not a JSON object"))
    };
    Answer { end, stdout: text, http_status: Some(status) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_allowlisted_variables_are_interpolated() {
        let env = |n: &str| Some(format!("<{n}>"));
        let allowed = vec!["TOKEN".to_string()];
        assert_eq!(interpolate("Bearer $TOKEN", &allowed, None, &env), "Bearer <TOKEN>");
        assert_eq!(interpolate("Bearer ${TOKEN}/$HOME", &allowed, None, &env), "Bearer <TOKEN>/");
        assert_eq!(interpolate("x ${TOKEN}", &allowed, Some(&[]), &env), "x ");
    }

    #[test]
    fn url_patterns_ignore_host_case_and_trailing_dots() {
        let p = vec!["https://hooks.example.com/*".to_string()];
        assert!(url_allowed("https://HOOKS.example.com./a/b", &p));
        assert!(!url_allowed("https://evil.com/https://hooks.example.com/", &p));
        assert!(!url_allowed("https://hooks.example.com/x", &[]));
    }
}
