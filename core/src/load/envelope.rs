//! The top level of a configuration (protocol.md §2.1, §2.2): which shape it is, the envelope's
//! own keys (`rules`, `dialect`, `project_dir`, `env`, `limits`, `trust`, `http`), and the list
//! of sources handed to `source` for layering.

use super::source::{self, RawSource, TrustMode, parse_dialect};
use crate::catalog::{Dialect, Rules};
use crate::config::{Config, ConfigWarnings, Limits};
use crate::error::ConfigError;
use crate::group_index::GroupIndex;
use serde_json::{Map, Value};
use std::path::PathBuf;

/// Keys that make an object an envelope rather than plain CC settings.
const ENVELOPE_ONLY: &[&str] = &["sources", "dialect", "rules", "project_dir", "trust", "limits", "http"];
const ENVELOPE_KEYS: &[&str] = &[
    "hooks",
    "disableAllHooks",
    "allowManagedHooksOnly",
    "env",
    "sources",
    "dialect",
    "rules",
    "project_dir",
    "trust",
    "limits",
    "http",
    "strict_files",
    "sandbox",
];

pub(super) fn load(value: Value) -> Result<Config, ConfigError> {
    let Some(obj) = value.as_object() else {
        return Err(ConfigError::invalid("", "a configuration must be a JSON object"));
    };
    let mut warnings = ConfigWarnings::new();
    let is_envelope = ENVELOPE_ONLY.iter().any(|k| obj.contains_key(*k));

    let rules = match obj.get("rules") {
        None => Rules::Current,
        Some(Value::String(s)) if s == "current" => Rules::Current,
        Some(Value::String(s)) if s == "classic" => Rules::Classic,
        Some(_) => return Err(ConfigError::invalid("/rules", "`rules` must be \"current\" or \"classic\"")),
    };
    let dialect = parse_dialect(obj.get("dialect"), "/dialect")?.unwrap_or(Dialect::DEFAULT);
    let project_dir = match obj.get("project_dir") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() => Some(PathBuf::from(s)),
        Some(_) => {
            return Err(ConfigError::invalid("/project_dir", "`project_dir` must be a non-empty string"));
        }
    };
    let env = read_env(obj.get("env"))?;
    let strict_files = match obj.get("strict_files") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ConfigError::invalid("/strict_files", "`strict_files` must be true or false")),
    };
    // The host's sandbox for every project and local hook (`sandbox/`): a project file cannot
    // loosen it, so it replaces what such a hook says for itself.
    let sandbox = crate::config::sandbox_key::read_host(obj.get("sandbox"), "/sandbox")?;
    let limits = read_limits(obj.get("limits"), &mut warnings)?;
    let trust = read_trust(obj.get("trust"), &mut warnings)?;
    let (http_allowed_urls, http_allowed_env_vars) = read_http(obj, &mut warnings)?;
    if is_envelope {
        let own = dialect.rules().profile().document_keys;
        for key in obj.keys().filter(|k| !ENVELOPE_KEYS.contains(&k.as_str()) && !own.contains(&k.as_str())) {
            let at = format!("/{}", crate::config::escape(key));
            warnings.note(None, &at, format!("config: unknown envelope key \"{key}\" ignored"));
        }
    }

    let mut raws = Vec::new();
    if let Some(sources) = obj.get("sources") {
        let Some(list) = sources.as_array() else {
            return Err(ConfigError::invalid("/sources", "`sources` must be an array of source objects"));
        };
        for (i, s) in list.iter().enumerate() {
            if let Some(raw) =
                source::read_entry(s, i, project_dir.as_deref(), dialect, strict_files, &mut warnings)?
            {
                raws.push(raw);
            }
        }
    }
    // The inline part (the whole plain document, or the envelope's own `hooks` and switches)
    // is a session source, last in its scope.
    let own_keys = dialect.rules().profile().document_keys;
    if !is_envelope
        || obj.contains_key("hooks")
        || obj.contains_key("disableAllHooks")
        || obj.contains_key("allowManagedHooksOnly")
        || own_keys.iter().any(|k| obj.contains_key(*k))
    {
        raws.push(RawSource::inline_session(value, dialect));
    }

    let mut layered = source::assemble(raws, rules, dialect, &trust, project_dir.as_deref(), &mut warnings)?;
    // The host's sandboxes replace what hooks say for themselves: a source's own `sandbox`
    // first (the most specific choice), then the envelope's for project and local sources.
    let sources = &layered.sources;
    for h in layered.events.iter_mut().flatten().flat_map(|g| g.handlers.iter_mut()) {
        let Some(source) = sources.get(h.source) else { continue };
        let scoped = matches!(source.scope, crate::catalog::Scope::Project | crate::catalog::Scope::Local);
        let host = source.sandbox.as_ref().or(sandbox.as_ref().filter(|_| scoped));
        if let Some(policy) = host
            && matches!(h.action, crate::config::Action::Command(_))
        {
            h.sandbox = Some(policy.clone());
        }
    }
    let store = match &trust {
        TrustMode::Store(p) => Some(p.clone()),
        _ => None,
    };
    Ok(Config {
        rules,
        dialect,
        dialects: layered.dialects,
        env,
        project_dir,
        limits,
        sources: layered.sources,
        index: layered
            .events
            .iter()
            .map(|groups| GroupIndex::build(groups.iter().map(|g| (&g.matcher, !g.handlers.is_empty()))))
            .collect(),
        events: layered.events,
        warnings,
        trust: layered.trust,
        store,
        http_allowed_urls,
        http_allowed_env_vars,
    })
}

fn read_env(v: Option<&Value>) -> Result<Vec<(String, String)>, ConfigError> {
    let Some(v) = v else { return Ok(Vec::new()) };
    let Some(map) = v.as_object() else {
        return Err(ConfigError::invalid("/env", "`env` must be an object of strings"));
    };
    let mut out = Vec::with_capacity(map.len());
    for (k, val) in map {
        let Some(s) = val.as_str() else {
            return Err(ConfigError::invalid(
                format!("/env/{}", crate::config::escape(k)),
                "`env` values must be strings",
            ));
        };
        if k.is_empty() || k.contains('=') || k.contains('\0') || s.contains('\0') {
            return Err(ConfigError::invalid(
                format!("/env/{}", crate::config::escape(k)),
                "not a valid environment variable (empty name, `=` or NUL)",
            ));
        }
        out.push((k.clone(), s.to_string()));
    }
    Ok(out)
}

fn unknown_keys(map: &Map<String, Value>, known: &[&str], what: &str, warnings: &mut ConfigWarnings) {
    for key in map.keys().filter(|k| !known.contains(&k.as_str())) {
        warnings.note(None, "", format!("config: unknown {what} key \"{key}\" ignored"));
    }
}

fn read_limits(v: Option<&Value>, warnings: &mut ConfigWarnings) -> Result<Limits, ConfigError> {
    let mut limits = Limits::default();
    let Some(v) = v else { return Ok(limits) };
    let Some(map) = v.as_object() else {
        return Err(ConfigError::invalid("/limits", "`limits` must be an object"));
    };
    unknown_keys(
        map,
        &["default_timeout_s", "max_output_bytes", "max_parallel", "stop_block_cap"],
        "limits",
        warnings,
    );
    if let Some(t) = map.get("default_timeout_s") {
        match t.as_f64() {
            Some(t) if crate::config::timeout_ok(t) => limits.default_timeout_s = Some(t.min(86_400.0)),
            _ => {
                return Err(ConfigError::invalid(
                    "/limits/default_timeout_s",
                    "must be a number of seconds ≥ 0.001",
                ));
            }
        }
    }
    let int = |key: &str, min: u64| -> Result<Option<u64>, ConfigError> {
        match map.get(key) {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if n >= min => Ok(Some(n)),
                _ => {
                    Err(ConfigError::invalid(format!("/limits/{key}"), format!("must be an integer ≥ {min}")))
                }
            },
        }
    };
    if let Some(n) = int("max_output_bytes", 1024)? {
        limits.max_output_bytes = usize::try_from(n).unwrap_or(usize::MAX).min(1 << 30);
    }
    if let Some(n) = int("max_parallel", 1)? {
        limits.max_parallel = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(n) = int("stop_block_cap", 0)? {
        limits.stop_block_cap = u32::try_from(n).unwrap_or(u32::MAX);
    }
    Ok(limits)
}

fn read_trust(v: Option<&Value>, warnings: &mut ConfigWarnings) -> Result<TrustMode, ConfigError> {
    let Some(v) = v else { return Ok(TrustMode::Untrusted) };
    let Some(map) = v.as_object() else {
        return Err(ConfigError::invalid("/trust", "`trust` must be an object"));
    };
    unknown_keys(map, &["store", "project"], "trust", warnings);
    let store = match map.get("store") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(PathBuf::from(s)),
        Some(_) => return Err(ConfigError::invalid("/trust/store", "`store` must be a path string")),
    };
    let project = match map.get("project") {
        None => None,
        Some(Value::String(s)) => Some(s.as_str()),
        Some(_) => return Err(ConfigError::invalid("/trust/project", "`project` must be a string")),
    };
    Ok(match (project, store) {
        (Some("trusted"), _) => TrustMode::Trusted,
        (Some("untrusted"), _) => TrustMode::Untrusted,
        (Some("store") | None, Some(store)) => TrustMode::Store(store),
        (Some("store"), None) => match super::trust::default_store() {
            Some(path) => TrustMode::Store(path),
            None => {
                warnings
                    .global
                    .push("config: trust.project is \"store\" but no store path is known (no HOME)".into());
                TrustMode::Untrusted
            }
        },
        (None, None) => TrustMode::Untrusted,
        (Some(other), _) => {
            return Err(ConfigError::invalid(
                "/trust/project",
                format!("`project` must be \"trusted\", \"untrusted\" or \"store\", not \"{other}\""),
            ));
        }
    })
}

type Lists = (Option<Vec<String>>, Option<Vec<String>>);

/// The http guards (§5.8): the envelope's `http`, else the CC setting names at the top level.
fn read_http(
    obj: &serde_json::Map<String, Value>,
    warnings: &mut ConfigWarnings,
) -> Result<Lists, ConfigError> {
    let list = |v: &Value, ptr: &str| -> Result<Vec<String>, ConfigError> {
        v.as_array()
            .filter(|a| a.iter().all(Value::is_string))
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .ok_or_else(|| ConfigError::invalid(ptr, "must be an array of strings"))
    };
    check_http(obj.get("http"), warnings)?;
    let http = obj.get("http");
    let urls = match (http.and_then(|h| h.get("allowed_urls")), obj.get("allowedHttpHookUrls")) {
        (Some(v), _) => Some(list(v, "/http/allowed_urls")?),
        (None, Some(v)) => Some(list(v, "/allowedHttpHookUrls")?),
        (None, None) => None,
    };
    let vars = match (http.and_then(|h| h.get("allowed_env_vars")), obj.get("httpHookAllowedEnvVars")) {
        (Some(v), _) => Some(list(v, "/http/allowed_env_vars")?),
        (None, Some(v)) => Some(list(v, "/httpHookAllowedEnvVars")?),
        (None, None) => None,
    };
    Ok((urls, vars))
}

fn check_http(v: Option<&Value>, warnings: &mut ConfigWarnings) -> Result<(), ConfigError> {
    let Some(v) = v else { return Ok(()) };
    let Some(map) = v.as_object() else {
        return Err(ConfigError::invalid("/http", "`http` must be an object"));
    };
    unknown_keys(map, &["allowed_urls", "allowed_env_vars"], "http", warnings);
    for key in ["allowed_urls", "allowed_env_vars"] {
        if let Some(list) = map.get(key) {
            let ok = list.as_array().is_some_and(|a| a.iter().all(Value::is_string));
            if !ok {
                return Err(ConfigError::invalid(format!("/http/{key}"), "must be an array of strings"));
            }
        }
    }
    Ok(())
}
