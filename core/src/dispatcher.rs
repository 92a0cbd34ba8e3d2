//! TEMPORARY scaffold so bindings compile while the engine lands.
use crate::error::{ConfigError, EventError};
use serde_json::Value;

/// A loaded configuration, ready to fire events. `Send + Sync`: many fires may run at once.
pub struct Dispatcher {
    warnings: Vec<String>,
}

impl Dispatcher {
    pub fn new(config_json: &str) -> Result<Self, ConfigError> {
        let v: Value = serde_json::from_str(config_json).map_err(|e| ConfigError::from_json(&e))?;
        Self::from_value(v)
    }
    pub fn from_bytes(config: &[u8]) -> Result<Self, ConfigError> {
        let s = std::str::from_utf8(config).map_err(|e| ConfigError::Utf8(e.to_string()))?;
        Self::new(s)
    }
    pub fn from_value(config: Value) -> Result<Self, ConfigError> {
        if !config.is_object() {
            return Err(ConfigError::invalid("", "configuration must be a JSON object"));
        }
        Ok(Dispatcher { warnings: Vec::new() })
    }
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
    pub fn fire_json(&self, event_json: &str) -> Result<String, EventError> {
        let v: Value = serde_json::from_str(event_json).map_err(|e| EventError::from_json(&e))?;
        let name = v.get("hook_event_name").and_then(Value::as_str).ok_or_else(|| {
            EventError::invalid("/hook_event_name", "event must be an object with a string hook_event_name")
        })?;
        if name == "__hookwire_test_panic__" && std::env::var_os("HOOKWIRE_TEST_PANIC").is_some() {
            panic!("test panic requested through HOOKWIRE_TEST_PANIC");
        }
        Ok(serde_json::json!({"event": name, "decision": null, "outcomes": []}).to_string())
    }
    pub fn fire_bytes(&self, event: &[u8]) -> Result<String, EventError> {
        let s = std::str::from_utf8(event).map_err(|e| EventError::Utf8(e.to_string()))?;
        self.fire_json(s)
    }
}
