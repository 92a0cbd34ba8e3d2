//! The case file of `hookwire test`: its types, read strictly (an unknown key is an error, so a
//! misspelt expectation fails instead of passing unchecked), its reading with a size cap, its
//! writing back for `--record`, and its JSON Schema (`schema/hook-test.schema.json`). It
//! describes cases; it never runs one.

use crate::Failure;
use crate::config::{parse_json, read_text_at_most};
use crate::locate;
use hookwire_core::{ErrorDetails, ErrorKind, Status};
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

/// The most a case file or an event file may hold. A suite of thousands of cases with inline
/// files fits; a runaway file is refused before it is parsed.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Test cases for the hooks of one configuration, run by `hookwire test FILE`: each case fires
/// one event through the engine and compares the result with what it expects. Unknown keys
/// are errors, so a misspelt expectation can never pass unchecked.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "HookTests")]
pub struct Suite {
    /// The JSON Schema of this file, for editors; hookwire ignores it.
    #[serde(
        rename = "$schema",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "String")]
    pub schema: Option<String>,
    /// The configuration the cases run against: a settings file or an envelope, relative to
    /// this file. `--config` or `--project` on the command line replace it; with neither, the
    /// configuration is Claude Code's layering of the current directory's project.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "String")]
    pub config: Option<String>,
    /// The cases, run in order, each against a freshly loaded configuration (so `once` hooks
    /// and the Stop loop guard start afresh). Names are unique.
    pub cases: Vec<Case>,
}

/// One event, what it needs, and what its hooks must answer.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Printed after `PASS` or `FAIL`; unique within the file, not empty.
    pub name: String,
    /// The event to fire: the event JSON itself (an object with `hook_event_name`), or the
    /// path of an event file relative to the case file.
    pub event: EventSpec,
    /// Variables added to every hook's environment for this case. They act as the
    /// configuration's top-level `env` (protocol.md §3.4): they replace inherited variables
    /// and the configuration's own `env`, but not `CLAUDE_PROJECT_DIR` or a dialect's own.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Files for the hooks: relative path → text. The case then runs in a fresh temporary
    /// directory holding them (removed afterwards), which replaces the event's `cwd`: the
    /// hooks run there, and it is their `CLAUDE_PROJECT_DIR` unless the configuration names a
    /// `project_dir`. `{}` gives an empty directory. Without `files` the event is fired with
    /// its own `cwd`.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "BTreeMap<String, String>")]
    pub files: Option<BTreeMap<String, String>>,
    /// What the result must say. Only the keys given are checked, and at least one must be
    /// given; `hookwire test --record` writes them from the current results.
    #[serde(default, skip_serializing_if = "Expect::is_empty")]
    pub expect: Expect,
}

/// An event given inline or as the path of an event file.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, expecting = "an event object, or the path of an event file")]
pub enum EventSpec {
    /// The path of an event JSON file, relative to the case file.
    File(String),
    /// The event JSON.
    Inline(Map<String, Value>),
}

/// The expectations of one case, compared with the fire's result JSON (protocol.md §8).
/// Text keys match a substring; `null` in any key expects the result's `null`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The result's `decision`; `"none"` (or `null`) when no hook decided.
    #[serde(default, deserialize_with = "decision_or_null", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<ExpectedDecision>")]
    pub decision: Option<ExpectedDecision>,
    /// Text the result's `reason` contains.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub reason: Option<Option<String>>,
    /// Text the result's `additional_context` (the context for the model) contains.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub context: Option<Option<String>>,
    /// Text the result's `system_message` (the message for the user) contains.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub system_message: Option<Option<String>>,
    /// The result's `updated_input`, exactly (JSON equality).
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Map<String, Value>>")]
    pub updated_input: Option<Value>,
    /// The result's `continue`: `false` when a hook must stop the agent.
    #[serde(
        rename = "continue",
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    #[schemars(with = "bool")]
    pub continue_: Option<bool>,
    /// Text the result's `stop_reason` contains.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<Option<String>>,
    /// Every hook that ran, in configuration order, and how it ended: a hook that crashed is
    /// caught here even when the decision is the expected one.
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Vec<ExpectedOutcome>")]
    pub outcomes: Option<Vec<ExpectedOutcome>>,
}

impl Expect {
    /// Whether the case checks nothing (it would pass whatever the hooks do).
    pub fn is_empty(&self) -> bool {
        *self == Expect::default()
    }
}

/// A decision as the result JSON spells it, or `none` for its `null`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExpectedDecision {
    Allow,
    Deny,
    Ask,
    Defer,
    Block,
    /// No hook decided (the result's `decision` is `null`).
    None,
}

/// One entry of the result's `outcomes`, by its hook id and status.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectedOutcome {
    /// The hook id (protocol.md §2.6), such as `session:PreToolUse[0].hooks[0]`.
    pub hook: String,
    /// How the hook ended, as the outcome's `status` says.
    pub status: Status,
}

/// A key that is given is read as `Some`: so `null` is an expectation of `null` (`Some(None)`)
/// where the value may be null, and an error elsewhere, never a key silently left unchecked.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// `"decision": null` is read as `"none"`, the result JSON's own spelling of no decision.
fn decision_or_null<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ExpectedDecision>, D::Error> {
    Ok(Some(Option::<ExpectedDecision>::deserialize(d)?.unwrap_or(ExpectedDecision::None)))
}

/// Reads and checks a case file: JSON of the case format, at most [`MAX_FILE_BYTES`], with
/// unique, non-empty case names. Every error names the file, line and column.
pub fn read(path: &Path) -> Result<Suite, Failure> {
    let shown = path.display().to_string();
    let text = read_text_at_most(path, MAX_FILE_BYTES)?;
    let at = |pointer: String, message: String| {
        let mut d = ErrorDetails::new(ErrorKind::InvalidJson, message);
        if let Some((l, c)) = locate::pointer(&text, &pointer) {
            (d.line, d.column) = (Some(l as u64), Some(c as u64));
        }
        d.pointer = Some(pointer);
        Failure::new(d, Some(shown.clone()))
    };
    // Syntax first, so a broken file reads "not valid JSON" rather than a case-format error.
    if !parse_json(&text, Some(shown.clone()))?.is_object() {
        return Err(at(
            String::new(),
            "a case file is an object: {\"config\": ..., \"cases\": [...]}".into(),
        ));
    }
    let suite: Suite = serde_json::from_str(&text).map_err(|e| {
        let mut d = ErrorDetails::from_serde_json(&e);
        d.message = format!("not a case file: {}", d.message);
        Failure::new(d, Some(shown.clone()))
    })?;
    if suite.cases.is_empty() {
        return Err(at("/cases".into(), "no cases: a suite that tests nothing cannot pass".into()));
    }
    let mut seen = HashSet::new();
    for (i, case) in suite.cases.iter().enumerate() {
        if case.name.trim().is_empty() {
            return Err(at(format!("/cases/{i}/name"), "a case needs a name".into()));
        }
        if !seen.insert(case.name.as_str()) {
            return Err(at(format!("/cases/{i}/name"), format!("two cases are named {:?}", case.name)));
        }
    }
    Ok(suite)
}

/// Writes the suite back as pretty JSON, through a file beside it renamed over it, so an
/// interrupted write never leaves half a case file.
pub fn write(path: &Path, suite: &Suite) -> Result<(), Failure> {
    let shown = path.display().to_string();
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        Failure::new(ErrorDetails::new(ErrorKind::Internal, format!("{what}: {e}")), Some(shown.clone()))
    };
    let mut text = serde_json::to_string_pretty(suite).map_err(|e| fail("cannot serialise the cases", &e))?;
    text.push('\n');
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temporary = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, text).map_err(|e| fail("cannot write", &e))?;
    std::fs::rename(&temporary, path).map_err(|e| {
        let _ = std::fs::remove_file(&temporary);
        fail("cannot replace", &e)
    })
}

/// The JSON Schema of the case file.
pub fn schema() -> String {
    hookwire_core::schema::input_schema_text::<Suite>()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expect(json: &str) -> Result<Expect, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn null_expects_null_and_an_absent_key_expects_nothing() {
        let e = expect(r#"{"reason": null, "decision": null, "updated_input": null}"#).unwrap();
        assert_eq!(e.reason, Some(None));
        assert_eq!(e.decision, Some(ExpectedDecision::None));
        assert_eq!(e.updated_input, Some(Value::Null));
        assert_eq!(e.context, None);
        assert!(expect("{}").unwrap().is_empty());
    }

    #[test]
    fn a_misspelt_expectation_is_an_error_not_a_passing_test() {
        let e = expect(r#"{"decison": "deny"}"#).unwrap_err().to_string();
        assert!(e.contains("unknown field `decison`"), "{e}");
        let e = expect(r#"{"decision": "dney"}"#).unwrap_err().to_string();
        assert!(e.contains("unknown variant `dney`"), "{e}");
        let e = expect(r#"{"outcomes": [{"hook": "h", "status": "okay"}]}"#).unwrap_err().to_string();
        assert!(e.contains("unknown variant `okay`"), "{e}");
        for unchecked in [r#"{"continue": null}"#, r#"{"outcomes": null}"#] {
            assert!(expect(unchecked).is_err(), "{unchecked} would check nothing");
        }
    }

    #[test]
    fn an_expectation_writes_back_as_it_was_read() {
        let text = r#"{"decision":"none","reason":null,"context":"ctx","updated_input":{"a":1},"continue":false,"outcomes":[{"hook":"h","status":"timed_out"}]}"#;
        assert_eq!(serde_json::to_string(&expect(text).unwrap()).unwrap(), text);
    }
}
