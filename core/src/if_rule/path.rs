//! Paths and URL hosts as a file or web rule tests them: normalised without touching the file
//! system, and undecided where the normal form may not be where the tool goes.
//!
//! `.` segments and repeated slashes are removed exactly (the kernel ignores them). A `..`
//! is resolved lexically, but through a symlink the kernel goes to the parent of the link's
//! target, not of the link: so a path with `..` that does not match is undecided. A relative
//! path or one starting `~` is matched as written and is undecided when it does not match:
//! the tool resolves it against a directory the rule does not see.

use super::IfMatch;

/// Whether `matches` holds for `raw` (a file tool's path), normalised.
pub fn judge(raw: &str, matches: impl Fn(&str) -> bool, base_only: bool) -> IfMatch {
    let (normal, climbs) = lexical(raw);
    if matches(&normal) || matches(raw) {
        return IfMatch::Yes;
    }
    if climbs {
        return IfMatch::Undecided(format!("{} holds `..`, which a symlink may lead elsewhere", short(raw)));
    }
    if !base_only && (!raw.starts_with('/') || raw.starts_with('~')) {
        return IfMatch::Undecided(format!(
            "{} is relative to a directory the rule does not see",
            short(raw)
        ));
    }
    IfMatch::No
}

/// `raw` with `.`, empty segments and `..` resolved; whether it had a `..`.
fn lexical(raw: &str) -> (String, bool) {
    let absolute = raw.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    let mut climbs = false;
    for seg in raw.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                climbs = true;
                match parts.last() {
                    Some(&p) if p != ".." => {
                        parts.pop();
                    }
                    // `/..` is `/`; a relative path keeps climbing.
                    _ if absolute => {}
                    _ => parts.push(".."),
                }
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    (if absolute { format!("/{joined}") } else { joined }, climbs)
}

/// Whether `matches` holds for the host of `url`, lowercased and without a trailing dot.
/// Decided only when hookwire's reading and the http client's parser agree on a host made
/// of letters, digits, dots and dashes that is not an IPv4 address in a non-canonical form
/// (a WHATWG parser, as WebFetch's is, reads `0x7f.1` as `127.0.0.1` and decodes `%41`).
pub fn judge_host(url: &str, matches: impl Fn(&str) -> bool) -> IfMatch {
    let ours = own_host(url).map(normal_host);
    let theirs = url.parse::<ureq::http::Uri>().ok().and_then(|u| u.host().map(normal_host));
    if ours.iter().chain(theirs.iter()).any(|h| matches(h)) {
        return IfMatch::Yes;
    }
    match (ours, theirs) {
        (Some(a), Some(b)) if a == b && plain_host(&a) => IfMatch::No,
        _ => IfMatch::Undecided(format!("the host of {} cannot be read with certainty", short(url))),
    }
}

fn own_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let authority = rest.split(['/', '?', '#', '\\']).next()?;
    let host_port = authority.rsplit('@').next()?;
    if let Some(v6) = host_port.strip_prefix('[') {
        return v6.split(']').next();
    }
    host_port.split(':').next()
}

fn normal_host(h: &str) -> String {
    h.trim_start_matches('[').trim_end_matches(']').trim_end_matches('.').to_ascii_lowercase()
}

fn plain_host(h: &str) -> bool {
    if h.is_empty() || !h.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'-') {
        return false;
    }
    let last = h.rsplit('.').next().unwrap_or(h);
    let numeric = last.bytes().all(|c| c.is_ascii_digit()) || last.starts_with("0x");
    !numeric || canonical_ipv4(h)
}

fn canonical_ipv4(h: &str) -> bool {
    let parts: Vec<&str> = h.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.len() <= 3
                && p.bytes().all(|c| c.is_ascii_digit())
                && (p.len() == 1 || !p.starts_with('0'))
                && p.parse::<u16>().is_ok_and(|n| n <= 255)
        })
}

fn short(s: &str) -> String {
    let cut: String = s.chars().take(60).collect();
    format!("{cut:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_and_slashes_normalise_exactly_and_dotdot_lexically() {
        assert_eq!(lexical("//etc/./passwd"), ("/etc/passwd".into(), false));
        assert_eq!(lexical("/tmp/../etc/passwd"), ("/etc/passwd".into(), true));
        assert_eq!(lexical("/../../etc"), ("/etc".into(), true));
        assert_eq!(lexical("a/../../b"), ("../b".into(), true));
    }

    #[test]
    fn a_path_that_climbs_and_does_not_match_is_undecided() {
        let etc = |p: &str| p.starts_with("/etc/");
        assert_eq!(judge("/tmp/../etc/passwd", etc, false), IfMatch::Yes);
        assert!(matches!(judge("/var/../tmp/x", etc, false), IfMatch::Undecided(_)));
        assert_eq!(judge("/tmp/x", etc, false), IfMatch::No);
        assert!(matches!(judge("x/y", etc, false), IfMatch::Undecided(_)));
    }

    #[test]
    fn hosts_are_decided_only_when_both_readings_agree_on_a_plain_name() {
        let ex = |h: &str| h == "example.com";
        assert_eq!(judge_host("https://Example.COM./x", ex), IfMatch::Yes);
        assert_eq!(judge_host("https://other.org/x", ex), IfMatch::No);
        for url in
            ["https://evil.com\\@example.org/", "https://%65vil.com/", "http://0x7f.1/", "http://[::1]/"]
        {
            assert!(matches!(judge_host(url, ex), IfMatch::Undecided(_)), "{url}");
        }
        assert_eq!(judge_host("http://127.0.0.1:8080/", |h| h == "127.0.0.1"), IfMatch::Yes);
        assert_eq!(judge_host("http://10.0.0.1/", |h| h == "127.0.0.1"), IfMatch::No);
    }
}
