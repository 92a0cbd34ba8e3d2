//! A network allow-list made concrete before the hook starts: each name resolved by hookwire
//! (the system resolver, in a thread of its own, waited for no later than the fire's deadline:
//! a resolver that hangs leaves its thread behind, never the fire), and, when the list names
//! hosts, the nameservers of `/etc/resolv.conf` on port 53 so that the hook can resolve them too.

use super::endpoint::{Endpoint, Host};
use std::collections::BTreeSet;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::Instant;

/// The resolver's configuration; its nameservers are the hook's way to DNS.
const RESOLV_CONF: &str = "/etc/resolv.conf";
/// glibc reads at most three nameservers (`MAXNS`).
const MAX_NAMESERVERS: usize = 3;
/// Most addresses one name may add (a name resolving to thousands is not an allow-list).
const MAX_PER_NAME: usize = 32;

/// The addresses and ports a hook may reach.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed {
    pairs: BTreeSet<(IpAddr, u16)>,
}

impl Allowed {
    /// Whether `to` is allowed; an IPv4-mapped IPv6 address counts as its IPv4 one.
    pub fn permits(&self, to: &SocketAddr) -> bool {
        self.pairs.contains(&(to.ip().to_canonical(), to.port()))
    }

    fn add(&mut self, ip: IpAddr, port: u16) {
        self.pairs.insert((ip.to_canonical(), port));
    }

    /// The ports of every allowed pair (Landlock's TCP rule, a second fence).
    pub fn ports(&self) -> Vec<u16> {
        let ports: BTreeSet<u16> = self.pairs.iter().map(|(_, p)| *p).collect();
        ports.into_iter().collect()
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.pairs.len()
    }
}

/// Resolves `list` by `deadline`: the allowed pairs, and a note for each name that gave no
/// address (the hook simply cannot reach it: nothing is allowed in its place).
pub fn resolve(list: &[Endpoint], deadline: Instant) -> (Allowed, Vec<String>) {
    resolve_with(list, deadline, &std::fs::read(RESOLV_CONF).unwrap_or_default(), system_lookup)
}

/// What one name resolves to.
type Lookup = fn(&str, u16) -> Result<Vec<SocketAddr>, String>;

/// The system resolver (`getaddrinfo`: files, then DNS, as `nsswitch.conf` says).
fn system_lookup(name: &str, port: u16) -> Result<Vec<SocketAddr>, String> {
    (name, port).to_socket_addrs().map(|a| a.take(MAX_PER_NAME).collect()).map_err(|e| e.to_string())
}

fn resolve_with(
    list: &[Endpoint],
    deadline: Instant,
    resolv_conf: &[u8],
    lookup: Lookup,
) -> (Allowed, Vec<String>) {
    let mut allowed = Allowed::default();
    let mut notes = Vec::new();
    let mut pending = Vec::new();
    for e in list {
        match &e.host {
            Host::Ip(ip) => allowed.add(*ip, e.port),
            Host::Name(name) => {
                let (tx, rx) = std::sync::mpsc::channel();
                let (name, port) = (name.clone(), e.port);
                let spawned = std::thread::Builder::new().name("hookwire-resolve".into()).spawn(move || {
                    let _ = tx.send(lookup(&name, port));
                });
                match spawned {
                    Ok(_) => pending.push((e, rx)),
                    Err(why) => {
                        notes.push(format!("{e}: cannot start its resolution ({why}); not reachable"))
                    }
                }
            }
        }
    }
    for (e, rx) in pending {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(Ok(addrs)) if !addrs.is_empty() => addrs.iter().for_each(|a| allowed.add(a.ip(), e.port)),
            Ok(Ok(_)) => notes.push(format!("{e}: the name has no address; not reachable")),
            Ok(Err(why)) => notes.push(format!("{e}: the name does not resolve ({why}); not reachable")),
            Err(_) => notes.push(format!("{e}: not resolved before the hook's deadline; not reachable")),
        }
    }
    if list.iter().any(|e| matches!(e.host, Host::Name(_))) {
        for ns in nameservers(resolv_conf) {
            allowed.add(ns, 53);
        }
    }
    (allowed, notes)
}

/// The `nameserver` addresses of a `resolv.conf` (the first 64 KiB, at most three, as glibc).
pub fn nameservers(text: &[u8]) -> Vec<IpAddr> {
    let text = String::from_utf8_lossy(&text[..text.len().min(64 * 1024)]);
    text.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("nameserver")).then(|| words.next()).flatten()
        })
        .filter_map(|a| a.split('%').next().and_then(|a| a.parse::<IpAddr>().ok()))
        .take(MAX_NAMESERVERS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    #[test]
    fn literals_names_and_the_nameservers_are_allowed_on_their_ports_only() {
        let list = [Endpoint::parse("10.0.0.1:443").unwrap(), Endpoint::parse("localhost:8080").unwrap()];
        let conf = b"# x\nnameserver 192.0.2.53\nsearch lan\nnameserver fe80::1%eth0\n";
        let (a, notes) = resolve_with(&list, Instant::now() + Duration::from_secs(5), conf, system_lookup);
        assert!(notes.is_empty(), "{notes:?}");
        assert!(a.permits(&at("10.0.0.1:443")) && !a.permits(&at("10.0.0.1:444")));
        assert!(a.permits(&at("127.0.0.1:8080")) && !a.permits(&at("127.0.0.2:8080")));
        assert!(a.permits(&at("[::ffff:127.0.0.1]:8080")), "a mapped address is its IPv4 one");
        assert!(a.permits(&at("192.0.2.53:53")) && a.permits(&at("[fe80::1]:53")));
        assert!(!a.permits(&at("192.0.2.53:54")));
    }

    #[test]
    fn literals_alone_open_no_way_to_dns() {
        let (a, _) = resolve_with(
            &[Endpoint::parse("10.0.0.1:443").unwrap()],
            Instant::now() + Duration::from_secs(5),
            b"nameserver 192.0.2.53\n",
            system_lookup,
        );
        assert_eq!(a.len(), 1);
    }

    #[test]
    fn a_resolver_that_hangs_is_left_behind_at_the_deadline_and_allows_nothing() {
        let hangs: Lookup = |_, _| {
            std::thread::sleep(Duration::from_secs(30));
            Ok(vec!["127.0.0.1:1".parse().expect("an address")])
        };
        let t = Instant::now();
        let list = [Endpoint::parse("slow.example:1").unwrap()];
        let (a, notes) =
            resolve_with(&list, t + Duration::from_millis(200), b"nameserver 192.0.2.53\n", hangs);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        assert!(!a.permits(&at("127.0.0.1:1")), "{a:?}");
        assert!(
            notes.len() == 1 && notes[0].contains("not resolved before the hook's deadline"),
            "{notes:?}"
        );
    }

    #[test]
    fn a_name_that_does_not_resolve_is_noted_and_allows_nothing() {
        let list = [Endpoint::parse("no-such-name.invalid:1").unwrap()];
        let (a, notes) = resolve_with(&list, Instant::now() + Duration::from_secs(5), b"", system_lookup);
        assert_eq!((a.len(), notes.len()), (0, 1), "{notes:?}");
    }

    #[test]
    fn at_most_three_nameservers_are_read() {
        let conf = b"nameserver 1.1.1.1\nnameserver 2.2.2.2\nnameserver junk\nnameserver 3.3.3.3\nnameserver 4.4.4.4\n";
        assert_eq!(nameservers(conf).len(), 3);
    }
}
