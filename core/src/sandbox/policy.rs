//! What a sandboxed hook may do, as configured: a named profile and its overrides. A handler's
//! `"sandbox"` key, or the envelope's `sandbox` for every project and local hook, names one:
//! `"strict"`, or `{"profile": "strict", "network": [443] or ["api.example.com:443"], "writable": ["~/.cache/x"],
//! "deny_read": ["~/work/secrets"], "limits": {"cpu_s": 10}, "pass_env": ["GOPATH"],
//! "enforcement": "best-effort"}`. Pure data: nothing here touches the kernel.

use super::endpoint::Endpoint;
use serde_json::Value;

/// Whether a hook may run when the kernel cannot confine it as its profile asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enforcement {
    /// The hook does not run (a clear outcome and warning) when any part cannot be applied.
    Required,
    /// It runs with what the kernel can apply; the result's warnings name what was not.
    BestEffort,
}

/// Outbound network of a sandboxed hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Network {
    /// No socket at all (Unix sockets included: an ssh-agent or a Docker socket is a way out).
    None,
    /// TCP connections to these ports only (Landlock filters ports, not hosts).
    TcpPorts(Vec<u16>),
    /// TCP and UDP to these `host:port` pairs only: names resolved by hookwire before the hook
    /// starts, every `connect` and addressed send checked and performed by hookwire's
    /// supervisor (`supervisor.rs`).
    Hosts(Vec<Endpoint>),
}

/// Resource limits (rlimits) of a sandboxed hook; 0 = unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// CPU seconds (`RLIMIT_CPU`).
    pub cpu_s: u64,
    /// Address space in MiB (`RLIMIT_AS`): generous, since runtimes reserve much more than they use.
    pub memory_mb: u64,
    /// Processes the hook may add to its user's (`RLIMIT_NPROC`, counted over the user's
    /// processes when the hook starts).
    pub processes: u64,
    /// Largest file the hook may write, in MiB (`RLIMIT_FSIZE`).
    pub file_size_mb: u64,
    /// Open descriptors (`RLIMIT_NOFILE`).
    pub open_files: u64,
}

/// A sandbox as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    /// The profile it starts from.
    pub profile: &'static str,
    pub enforcement: Enforcement,
    pub network: Network,
    /// The project directory is writable (else read-only, like everything else).
    pub write_project: bool,
    /// More writable directories (`~` is the user's home).
    pub writable: Vec<String>,
    /// More unreadable locations, besides [`SECRETS`].
    pub deny_read: Vec<String>,
    pub limits: Limits,
    /// Host variables passed besides [`PASSED_ENV`].
    pub pass_env: Vec<String>,
}

/// The named profiles: `strict` (no network, writes only in the project and the hook's
/// temporary directory, secrets unreadable), `read-only` (the same, the project read-only too)
/// and `network` (strict, plus outbound TCP to ports 80 and 443).
pub const PROFILES: &[&str] = &["strict", "read-only", "network"];

/// Locations under the user's home no sandboxed hook reads: keys, cloud and registry
/// credentials, browser profiles, password stores, and the agents' own credential files.
pub const SECRETS: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".cargo/credentials.toml",
    ".config/gh",
    ".config/hub",
    ".password-store",
    ".local/share/keyrings",
    ".mozilla",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".config/github-copilot",
    ".copilot",
];

/// Host variables a sandboxed hook starts with (its configured and protocol variables are
/// added after): never the host's tokens.
pub const PASSED_ENV: &[&str] =
    &["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TZ", "TMPDIR", "LANG", "LANGUAGE"];

impl Policy {
    /// The named profile with its defaults.
    pub fn named(name: &str) -> Option<Policy> {
        let profile = PROFILES.iter().copied().find(|p| *p == name)?;
        Some(Policy {
            profile,
            enforcement: Enforcement::Required,
            network: match profile {
                "network" => Network::TcpPorts(vec![80, 443]),
                _ => Network::None,
            },
            write_project: profile != "read-only",
            writable: Vec::new(),
            deny_read: Vec::new(),
            limits: Limits {
                cpu_s: 120,
                memory_mb: 16 * 1024,
                processes: 256,
                file_size_mb: 1024,
                open_files: 1024,
            },
            pass_env: Vec::new(),
        })
    }

    /// Whether the host variable `name` reaches the hook (`LC_*` always does).
    pub fn passes(&self, name: &str) -> bool {
        name.starts_with("LC_") || PASSED_ENV.contains(&name) || self.pass_env.iter().any(|p| p == name)
    }
}

/// Most entries of a list a sandbox object may hold (paths, ports, variables).
const MAX_LIST: usize = 64;

/// Reads a `"sandbox"` value: a profile name, or an object of overrides. `Ok(None)` for
/// `false`/`null` (no sandbox).
pub fn parse(v: &Value) -> Result<Option<Policy>, String> {
    let unknown = |name: &str| format!("unknown sandbox profile {name:?} (known: {})", PROFILES.join(", "));
    match v {
        Value::Null | Value::Bool(false) => Ok(None),
        Value::Bool(true) => Ok(Policy::named("strict")),
        Value::String(name) => Policy::named(name).map(Some).ok_or_else(|| unknown(name)),
        Value::Object(m) => {
            let name = match m.get("profile") {
                None => "strict",
                Some(Value::String(s)) => s.as_str(),
                Some(_) => return Err("`profile` must be a string".into()),
            };
            let mut p = Policy::named(name).ok_or_else(|| unknown(name))?;
            for (key, value) in m {
                match key.as_str() {
                    "profile" => {}
                    "enforcement" => {
                        p.enforcement = match value.as_str() {
                            Some("required") => Enforcement::Required,
                            Some("best-effort") => Enforcement::BestEffort,
                            _ => return Err("`enforcement` must be \"required\" or \"best-effort\"".into()),
                        }
                    }
                    "network" => p.network = network(value)?,
                    "write_project" => {
                        p.write_project = value.as_bool().ok_or("`write_project` must be true or false")?
                    }
                    "writable" => p.writable = strings(value, key)?,
                    "deny_read" => p.deny_read = strings(value, key)?,
                    "pass_env" => p.pass_env = strings(value, key)?,
                    "limits" => limits(value, &mut p.limits)?,
                    other => return Err(format!("unknown sandbox key `{other}`")),
                }
            }
            Ok(Some(p))
        }
        _ => Err("`sandbox` must be a profile name, an object, or false".into()),
    }
}

/// `network`: `false`, a list of TCP ports, or a list of `"host:port"` entries (not both).
fn network(value: &Value) -> Result<Network, String> {
    let shape = || {
        format!(
            "`network` must be false, or a list of at most {MAX_LIST} TCP ports or `\"host:port\"` entries"
        )
    };
    let list = match value {
        Value::Bool(false) | Value::Null => return Ok(Network::None),
        Value::Array(list) if list.len() <= MAX_LIST => list,
        _ => return Err(shape()),
    };
    if list.first().is_some_and(Value::is_string) {
        let entry = |(i, v): (usize, &Value)| match v.as_str() {
            Some(s) => Endpoint::parse(s).map_err(|why| format!("`network[{i}]` {s:?}: {why}")),
            None => Err(format!("`network[{i}]`: a list of `\"host:port\"` entries holds only strings")),
        };
        return list.iter().enumerate().map(entry).collect::<Result<_, _>>().map(Network::Hosts);
    }
    list.iter()
        .map(|n| n.as_u64().and_then(|n| u16::try_from(n).ok()).filter(|n| *n > 0))
        .collect::<Option<Vec<u16>>>()
        .map(Network::TcpPorts)
        .ok_or_else(|| "`network` ports must be numbers from 1 to 65535".into())
}

fn strings(v: &Value, key: &str) -> Result<Vec<String>, String> {
    let bad = || format!("`{key}` must be a list of at most {MAX_LIST} non-empty strings");
    let list = v.as_array().filter(|l| l.len() <= MAX_LIST).ok_or_else(bad)?;
    list.iter().map(|s| s.as_str().filter(|s| !s.is_empty()).map(str::to_string).ok_or_else(bad)).collect()
}

fn limits(v: &Value, l: &mut Limits) -> Result<(), String> {
    let m = v.as_object().ok_or("`limits` must be an object")?;
    for (key, value) in m {
        let n = value.as_u64().ok_or_else(|| format!("`limits.{key}` must be a whole number ≥ 0"))?;
        match key.as_str() {
            "cpu_s" => l.cpu_s = n,
            "memory_mb" => l.memory_mb = n,
            "processes" => l.processes = n,
            "file_size_mb" => l.file_size_mb = n,
            "open_files" => l.open_files = n,
            other => return Err(format!("unknown limit `{other}`")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_profile_name_or_an_object_of_overrides_is_read() {
        assert_eq!(parse(&json!("strict")).unwrap().unwrap().network, Network::None);
        assert!(!parse(&json!("read-only")).unwrap().unwrap().write_project);
        let p = parse(&json!({"network": [8080], "limits": {"cpu_s": 5}, "enforcement": "best-effort"}))
            .unwrap()
            .unwrap();
        assert_eq!((p.profile, p.network, p.limits.cpu_s), ("strict", Network::TcpPorts(vec![8080]), 5));
        assert_eq!(p.enforcement, Enforcement::BestEffort);
        assert_eq!(parse(&json!(false)).unwrap(), None);
        let p = parse(&json!({"network": ["localhost:8080", "[::1]:9"]})).unwrap().unwrap();
        let Network::Hosts(list) = p.network else { panic!("an allow-list: {:?}", p.network) };
        assert_eq!(list.iter().map(ToString::to_string).collect::<Vec<_>>(), ["localhost:8080", "[::1]:9"]);
    }

    #[test]
    fn a_bad_allow_list_entry_is_named_by_its_index() {
        let why = parse(&json!({"network": ["a.com:1", "b.com"]})).unwrap_err();
        assert!(why.contains("`network[1]` \"b.com\"") && why.contains("no `:port`"), "{why}");
    }

    #[test]
    fn unknown_profiles_keys_and_bad_values_are_errors() {
        for bad in [
            json!("lax"),
            json!({"profile": "lax"}),
            json!({"network": [0]}),
            json!({"network": ["x"]}),
            json!({"network": ["example.com:443", 80]}),
            json!({"network": [80, "example.com:443"]}),
            json!({"network": ["*:443"]}),
            json!({"network": "example.com:443"}),
            json!({"limits": {"cpu_s": -1}}),
            json!({"limits": {"gpu": 1}}),
            json!({"colour": 1}),
            json!({"writable": [""]}),
            json!({"writable": vec!["x"; 65]}),
            json!(5),
        ] {
            assert!(parse(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_the_listed_host_variables_pass() {
        let p = Policy::named("strict").unwrap();
        assert!(
            p.passes("PATH") && p.passes("LC_ALL") && !p.passes("GITHUB_TOKEN") && !p.passes("SSH_AUTH_SOCK")
        );
    }
}
