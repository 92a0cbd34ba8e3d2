//! The JSON Schemas of the JSON hookwire hands to every language: the result of a fire, one
//! outcome, one verdict, the trust status and the error JSON. They are generated from the Rust
//! types that serialise that JSON (their doc comments become the descriptions), committed in
//! `schema/` at the repository root, and checked for freshness by `core/tests/schemas.rs`;
//! the Go, Node and Python suites compare their own types with those files.
//!
//! This module only describes; it never serialises a result and holds no rule of the engine.

use crate::error::ErrorDetails;
use crate::host_event::HostFacts;
use crate::host_step::HostStep;
use crate::inspect::{ToolReach, TrustStatus};
use crate::result::{FireResult, Outcome};
use crate::verdict::Verdict;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema};

/// The error JSON as it goes over the wire: the error object wrapped in `error`, which is what
/// [`ErrorDetails::to_json`] writes. Never built; it exists for its schema.
#[derive(JsonSchema)]
#[schemars(
    rename = "Error",
    description = "An engine error (abi.md §1): no dispatcher could be built, or an event could not be \
                   fired. A hook's own failure is never an error: it is an outcome inside a result."
)]
#[allow(dead_code)]
struct ErrorJson {
    error: ErrorDetails,
}

/// The schema of `T` as its JSON is *written* (draft 2020-12, shared types in `$defs`), as
/// pretty-printed text ending in a newline.
fn schema_text<T: JsonSchema>() -> String {
    text_of::<T>(SchemaSettings::draft2020_12().for_serialize())
}

/// The schema of `T` as a document hookwire *reads* (a key with a default is optional), in
/// the style of the schemas above: draft 2020-12, shared types in `$defs`, descriptions from
/// the doc comments as flowing text. The `hookwire` command uses it for its case file.
pub fn input_schema_text<T: JsonSchema>() -> String {
    text_of::<T>(SchemaSettings::draft2020_12().for_deserialize())
}

fn text_of<T: JsonSchema>(settings: SchemaSettings) -> String {
    let schema = settings
        .with_transform(RecursiveTransform(unwrap_description))
        .into_generator()
        .into_root_schema_for::<T>();
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema is plain JSON");
    text.push('\n');
    text
}

/// Doc comments are wrapped at 100 columns; a description is read as flowing text, so a single
/// line break becomes a space and only blank lines (paragraphs) stay.
fn unwrap_description(schema: &mut Schema) {
    if let Some(serde_json::Value::String(d)) = schema.get_mut("description") {
        *d = d.split("\n\n").map(|p| p.replace('\n', " ")).collect::<Vec<_>>().join("\n\n");
    }
}

/// Every published schema: its file name under `schema/` and its text.
pub fn schemas() -> Vec<(&'static str, String)> {
    vec![
        ("result.schema.json", schema_text::<FireResult>()),
        ("outcome.schema.json", schema_text::<Outcome>()),
        ("verdict.schema.json", schema_text::<Verdict>()),
        ("trust-status.schema.json", schema_text::<TrustStatus>()),
        ("error.schema.json", schema_text::<ErrorJson>()),
        ("host-step.schema.json", schema_text::<HostStep>()),
        ("host-facts.schema.json", input_schema_text::<HostFacts>()),
        ("tool-reach.schema.json", schema_text::<ToolReach>()),
    ]
}
