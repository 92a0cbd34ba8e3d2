//! One entry of a sandbox's network allow-list, `"host:port"`, read strictly: a host name
//! (letters, digits, `-` and `.`, labels of 1 to 63 characters, at most 253 in all), an IPv4
//! literal, or an IPv6 literal in brackets (`[::1]:443`); then one port from 1 to 65535. No
//! wildcard host or port, no scheme, no path, no zone index: an entry names exactly the
//! addresses one name resolves to, on one port. Pure data, on every target.

use std::net::{IpAddr, Ipv6Addr};

/// Where a hook may connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub host: Host,
    pub port: u16,
}

/// The host part of an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Host {
    /// Resolved by hookwire, on the host side, before the hook starts.
    Name(String),
    Ip(IpAddr),
}

/// Longest entry read (a 253-byte name, `:`, five digits).
const MAX_ENTRY: usize = 260;

impl Endpoint {
    /// Reads `"host:port"`; `Err` says what is wrong with it.
    pub fn parse(entry: &str) -> Result<Endpoint, String> {
        if entry.len() > MAX_ENTRY {
            return Err(format!("longer than {MAX_ENTRY} bytes"));
        }
        let (host, port) = if let Some(rest) = entry.strip_prefix('[') {
            let (v6, port) = rest.split_once("]:").ok_or("an IPv6 literal is written `[address]:port`")?;
            let ip: Ipv6Addr = v6.parse().map_err(|_| format!("{v6:?} is not an IPv6 address"))?;
            (Host::Ip(IpAddr::V6(ip)), port)
        } else {
            let (host, port) = entry.rsplit_once(':').ok_or("no `:port`")?;
            if host.contains(':') {
                return Err("an IPv6 literal goes in brackets: `[address]:port`".into());
            }
            match host.parse::<IpAddr>() {
                Ok(ip) => (Host::Ip(ip), port),
                Err(_) => (Host::Name(name(host)?), port),
            }
        };
        let port = port
            .parse::<u16>()
            .ok()
            .filter(|p| *p > 0 && port.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| format!("port {port:?} is not a number from 1 to 65535"))?;
        Ok(Endpoint { host, port })
    }
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.host {
            Host::Name(n) => write!(f, "{n}:{}", self.port),
            Host::Ip(IpAddr::V6(ip)) => write!(f, "[{ip}]:{}", self.port),
            Host::Ip(ip) => write!(f, "{ip}:{}", self.port),
        }
    }
}

/// A host name as DNS writes one (RFC 1123 labels), lower-cased; a trailing dot is kept off.
fn name(host: &str) -> Result<String, String> {
    let bad = || format!("{host:?} is not a host name, an IPv4 address or a bracketed IPv6 address");
    let h = host.strip_suffix('.').unwrap_or(host);
    if h.is_empty() || h.len() > 253 {
        return Err(bad());
    }
    for label in h.split('.') {
        let ok = (1..=63).contains(&label.len())
            && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-');
        if !ok {
            return Err(bad());
        }
    }
    // All digits and dots is a malformed address (`1.2.3`), not a name.
    if h.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Err(bad());
    }
    Ok(h.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_literals_with_a_port_are_read() {
        let e = Endpoint::parse("API.example.com:443").unwrap();
        assert_eq!(e, Endpoint { host: Host::Name("api.example.com".into()), port: 443 });
        assert_eq!(Endpoint::parse("127.0.0.1:8080").unwrap().to_string(), "127.0.0.1:8080");
        assert_eq!(Endpoint::parse("[::1]:80").unwrap().to_string(), "[::1]:80");
        assert_eq!(Endpoint::parse("localhost.:1").unwrap().to_string(), "localhost:1");
    }

    #[test]
    fn junk_wildcards_and_ambiguities_are_refused() {
        for bad in [
            "",
            "example.com",
            "example.com:",
            "example.com:0",
            "example.com:65536",
            "example.com:+80",
            "example.com:*",
            "*:443",
            "*.example.com:443",
            "::1:80",
            "[::1]80",
            "[127.0.0.1]:80",
            "[fe80::1%eth0]:80",
            "http://example.com:80",
            "exa mple.com:80",
            "-x.com:80",
            "a..b:80",
            "1.2.3:80",
            "256.1.1.1:80",
            "é.com:80",
        ] {
            assert!(Endpoint::parse(bad).is_err(), "{bad:?}");
        }
        assert!(Endpoint::parse(&format!("{}.com:1", "a".repeat(64))).is_err());
        assert!(Endpoint::parse(&"a.".repeat(200)).is_err());
    }
}
