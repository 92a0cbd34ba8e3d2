//! One Gemini settings document (agents.md §3.1): `{"hooks": {Event: [group, ...]},
//! "hooksConfig"?: {...}}`, read by the shared settings shape (`dialect/settings/`) configured
//! here: groups are `{matcher, sequential, hooks}`, handlers `{type: "command", command, name,
//! description, timeout (ms), env}`. Every other settings key is Gemini's business and ignored
//! silently. The switches (`hooksConfig.enabled`, `hooksConfig.disabled`, and the older
//! spelling of both inside `hooks`) are read here too.

use super::GeminiRules;
use super::matcher::GeminiMatcher;
use crate::catalog::{EventId, EventSpec, HandlerType, Rules, Shell};
use crate::config::{ConfigWarnings, Fields, Handler, Knobs, Parse};
use crate::dialect::Switches;
use crate::dialect::settings::{HandlerKeys, ReadMatcher, SequentialEnv, SettingsShape, TimeUnit};
use crate::error::ConfigError;
use crate::matcher::GroupMatcher;
use serde_json::{Map, Value};

/// The switch keys; inside `hooks` they are the older spelling, never event names.
const SWITCH_KEYS: &[&str] = &["enabled", "disabled", "notifications"];

/// Gemini's settings: its event names, its matcher, `command` handlers only (run in bash, no
/// `if`, `async` or exec form), timeouts in milliseconds, and its own `name`, `env` and
/// `sequential` keys.
impl SettingsShape for GeminiRules {
    fn event_ids_of(&self, name: &str) -> Vec<EventId> {
        super::PROFILE.event_ids(name)
    }

    /// Gemini's words, with the Gemini name of a Claude Code event written by mistake.
    fn unknown_event(&self, name: &str) -> String {
        let hint = crate::catalog::lookup(name)
            .and_then(|id| super::PROFILE.native_name(crate::catalog::spec(id)))
            .map(|g| format!(" (Gemini calls it {g})"))
            .unwrap_or_default();
        format!("invalid hook event name \"{name}\"{hint}")
    }

    fn not_an_event(&self, name: &str) -> bool {
        SWITCH_KEYS.contains(&name)
    }

    fn group_keys(&self) -> &'static [&'static str] {
        &["sequential"]
    }

    fn group_matcher(&self, raw: Option<&str>, spec: &EventSpec, _rules: Rules) -> ReadMatcher {
        let (matcher, warning) = GeminiMatcher::compile(raw, spec.tool_event);
        Ok((GroupMatcher::new(matcher), warning))
    }

    fn handler_keys(&self) -> HandlerKeys {
        HandlerKeys {
            if_rule: false,
            run_modes: false,
            exec_form: false,
            shell: Shell::Bash,
            status_message: false,
        }
    }

    fn refuses(&self, ty: HandlerType) -> Option<String> {
        (ty != HandlerType::Command)
            .then(|| format!("handler type \"{}\" is not run by Gemini (only \"command\")", ty.as_str()))
    }

    fn timeout_unit(&self) -> TimeUnit {
        TimeUnit::Milliseconds
    }

    /// `name` (what `hooksConfig.disabled` lists), `env` (added to the hook's environment)
    /// and the group's `sequential`. `description` is tolerated whatever its type (Gemini
    /// only shows it).
    fn own_keys(&self, group: &Fields<'_>, f: &Fields<'_>, h: &mut Handler) -> Result<(), (String, String)> {
        let own = SequentialEnv::read(group, f)?;
        h.name = f.string("name")?;
        h.knobs = Knobs::new(own);
        Ok(())
    }
}

/// The document's switches: `hooksConfig.enabled` (`false` = disableAllHooks at this scope)
/// and `hooksConfig.disabled` (hook names); the same keys directly inside `hooks` are the older
/// spelling, read the same way with a warning. `hooksConfig.notifications` is display only.
pub(super) fn switches(
    doc: &Value,
    base: &str,
    p: &Parse,
    warnings: &mut ConfigWarnings,
) -> Result<Switches, ConfigError> {
    let mut out = Switches::default();
    let places = [
        (doc.get("hooksConfig"), format!("{base}/hooksConfig"), false),
        (doc.get("hooks").filter(|h| h.is_object()), format!("{base}/hooks"), true),
    ];
    for (value, ptr, older) in places {
        let Some(value) = value else { continue };
        let Some(obj) = value.as_object() else {
            p.fail::<()>(warnings, &ptr, "`hooksConfig` must be an object")?;
            continue;
        };
        if older && !SWITCH_KEYS.iter().any(|k| obj.contains_key(*k)) {
            continue;
        }
        read_switch_object(obj, &ptr, older, p, warnings, &mut out)?;
    }
    Ok(out)
}

fn read_switch_object(
    obj: &Map<String, Value>,
    ptr: &str,
    older: bool,
    p: &Parse,
    warnings: &mut ConfigWarnings,
    out: &mut Switches,
) -> Result<(), ConfigError> {
    let f = Fields { obj, hptr: ptr };
    if older {
        let keys: Vec<&str> = SWITCH_KEYS.iter().copied().filter(|k| obj.contains_key(*k)).collect();
        let why = format!(
            "{}: `{}` inside `hooks` is the older spelling of `hooksConfig`; read as switches, not events",
            p.label,
            keys.join("`, `")
        );
        warnings.note(None, ptr, why);
    }
    match f.boolean("enabled") {
        // `hooksConfig` wins over the older spelling when both set it.
        Ok(Some(on)) => {
            if out.disable_all.is_none() {
                out.disable_all = Some(!on);
                out.spelling = "hooksConfig.enabled: false";
            }
        }
        Ok(None) => {}
        Err((at, msg)) => {
            p.fail::<()>(warnings, &at, msg)?;
        }
    }
    match f.string_array("disabled") {
        Ok(names) => {
            for n in names.unwrap_or_default() {
                if !out.disabled_names.contains(&n) {
                    out.disabled_names.push(n);
                }
            }
        }
        Err((at, msg)) => {
            p.fail::<()>(warnings, &at, msg)?;
        }
    }
    Ok(())
}
