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

/// Whether `url` matches one of the patterns. An empty list allows nothing.
///
/// The URL is parsed by the same parser the client connects with (`http::Uri`, through ureq),
/// and each pattern is matched part by part: scheme, host, port, then path and query. A `*` is
/// any run of characters *within its part*, so `http://*.allowed.test/*` never admits
/// `http://127.0.0.1:PORT/.allowed.test/` or `http://127.0.0.1:PORT#.allowed.test/` (a whole-
/// string glob did). Hosts compare case-insensitively with a trailing dot ignored; a pattern
/// without a port admits only the scheme's default port; user info is not part of the host;
/// the fragment is never sent, so it is never matched.
pub fn url_allowed(url: &str, patterns: &[String]) -> bool {
    let Ok(uri) = url.parse::<ureq::http::Uri>() else { return false };
    let (Some(scheme), Some(host)) = (uri.scheme_str(), uri.host()) else { return false };
    let scheme = scheme.to_ascii_lowercase();
    let host = host.to_ascii_lowercase();
    let host = host.strip_suffix('.').unwrap_or(&host);
    let default_port = match scheme.as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    };
    let port = uri.port_u16().or(default_port);
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    patterns.iter().any(|p| {
        let Some(pat) = UrlPattern::parse(p) else { return false };
        let port_ok = match pat.port {
            None => port == default_port,
            Some(pp) => glob(pp, &port.map(|n| n.to_string()).unwrap_or_default()),
        };
        glob(&pat.scheme.to_ascii_lowercase(), &scheme)
            && glob(pat.host.to_ascii_lowercase().trim_end_matches('.'), host)
            && port_ok
            && glob(pat.path, path)
    })
}

/// An allow-list pattern split into the parts a URL is compared by.
struct UrlPattern<'a> {
    scheme: &'a str,
    host: String,
    port: Option<&'a str>,
    path: &'a str,
}

impl<'a> UrlPattern<'a> {
    fn parse(p: &'a str) -> Option<UrlPattern<'a>> {
        let (scheme, rest) = p.split_once("://")?;
        let cut = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(cut);
        let authority = authority.rsplit('@').next().unwrap_or(authority);
        let (host, port) = match authority.rfind(':') {
            Some(i) if !authority[i..].contains(']') => (&authority[..i], Some(&authority[i + 1..])),
            _ => (authority, None),
        };
        Some(UrlPattern {
            scheme,
            host: host.to_string(),
            port,
            path: if path.is_empty() { "/" } else { path },
        })
    }
}

/// `*` = any run of characters of the text (which is one URL part, never the whole URL).
fn glob(pattern: &str, text: &str) -> bool {
    let re = format!("^{}$", pattern.split('*').map(regex::escape).collect::<Vec<_>>().join("(?s:.*)"));
    regex::Regex::new(&re).is_ok_and(|r| r.is_match(text))
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
        || (trimmed.starts_with('{') && crate::json::from_output(trimmed).is_ok_and(|v| v.is_object()))
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
    fn a_header_variables_value_is_inserted_verbatim_never_expanded_again() {
        let every = "${TOKEN}$TOKEN${CLAUDE_PROJECT_DIR}$CLAUDE_PROJECT_DIR";
        let env = |n: &str| Some(format!("<{n}>{every}"));
        let allowed = vec!["TOKEN".to_string(), "CLAUDE_PROJECT_DIR".to_string()];
        assert_eq!(
            interpolate("a ${CLAUDE_PROJECT_DIR} $TOKEN b", &allowed, None, &env),
            format!("a <CLAUDE_PROJECT_DIR>{every} <TOKEN>{every} b")
        );
    }

    #[test]
    fn url_patterns_ignore_host_case_and_trailing_dots() {
        let p = vec!["https://hooks.example.com/*".to_string()];
        assert!(url_allowed("https://HOOKS.example.com./a/b", &p));
        assert!(!url_allowed("https://evil.com/https://hooks.example.com/", &p));
        assert!(!url_allowed("https://hooks.example.com/x", &[]));
    }

    #[test]
    fn a_star_in_the_host_never_crosses_into_port_path_query_or_fragment() {
        let p = vec!["http://*.allowed.test/*".to_string()];
        assert!(url_allowed("http://hooks.allowed.test/x?y", &p));
        assert!(url_allowed("http://a.b.allowed.test:80/", &p));
        for bad in [
            "http://127.0.0.1:8080/.allowed.test/",
            "http://127.0.0.1:8080#.allowed.test/",
            "http://127.0.0.1:8080?.allowed.test/",
            "http://x.allowed.test@127.0.0.1/",
            "http://a.allowed.test:8080/",
            "https://a.allowed.test/",
            "http://allowed.test.evil/",
            "not a url",
        ] {
            assert!(!url_allowed(bad, &p), "{bad}");
        }
        let ports = vec!["http://localhost:*/hook".to_string(), "https://[::1]:8443/*".to_string()];
        assert!(url_allowed("http://localhost:9999/hook", &ports));
        assert!(!url_allowed("http://localhost:9999/hook/x", &ports));
        assert!(url_allowed("https://[::1]:8443/a", &ports));
    }
}
