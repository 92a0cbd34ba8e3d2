"""The dicts the binding returns against the JSON Schemas generated from the Rust types
(schema/ at the repository root, core/src/schema.rs): a real fire's result, its outcomes and
verdicts, a trust status, a host step and a tool reach have exactly the schemas' keys, in their
order, host facts with every key of their schema are accepted, and an engine error carries
every field of the error object. Skipped when the suite runs outside the
repository (against an installed wheel with no schema/ beside it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import hookwire

from conftest import one_hook, tool_event

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schema"

pytestmark = pytest.mark.skipif(
    not (SCHEMA_DIR / "result.schema.json").is_file(),
    reason=f"no schema/ at {SCHEMA_DIR}: the suite runs outside the repository",
)


def schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


def properties(s: dict[str, Any]) -> list[str]:
    return list(s["properties"])


def test_a_real_result_its_outcomes_and_verdicts_have_the_schemas_keys() -> None:
    result_schema = schema("result.schema.json")
    result = hookwire.Dispatcher(one_hook("exit 0")).fire(tool_event())
    assert len(result["outcomes"]) == 1
    assert list(result) == properties(result_schema)
    outcome = result["outcomes"][0]
    assert list(outcome) == properties(result_schema["$defs"]["Outcome"])
    assert list(outcome) == properties(schema("outcome.schema.json"))
    assert list(outcome["verdict"]) == properties(result_schema["$defs"]["Verdict"])
    assert list(outcome["verdict"]) == properties(schema("verdict.schema.json"))
    # Every key is always present: the required lists name every property.
    for s in (result_schema, result_schema["$defs"]["Outcome"], result_schema["$defs"]["Verdict"]):
        assert s["required"] == properties(s)


def test_a_trust_status_has_the_schemas_keys() -> None:
    status_schema = schema("trust-status.schema.json")
    config = {"project_dir": "/", "sources": [{"scope": "project", "settings": {"hooks": {}}}]}
    status = hookwire.Dispatcher(config).trust_status()
    assert list(status) == properties(status_schema)
    assert len(status["sources"]) == 1
    assert list(status["sources"][0]) == properties(status_schema["$defs"]["TrustSource"])


def test_an_engine_error_carries_every_field_of_the_error_object() -> None:
    fields = schema("error.schema.json")["$defs"]["ErrorDetails"]
    assert fields["required"] == ["kind", "message"]
    with pytest.raises(hookwire.ConfigError) as caught:
        hookwire.Dispatcher('{\n  "hooks": ,\n}')
    e = caught.value
    assert e.kind in [k["const"] for k in schema("error.schema.json")["$defs"]["ErrorKind"]["oneOf"]]
    # `message` is str(e); the other fields are attributes (None when absent).
    for name in properties(fields):
        if name != "message":
            assert hasattr(e, name), f"{name} of the error object is not an attribute of {type(e).__name__}"
    assert str(e)
    assert isinstance(e.line, int) and isinstance(e.column, int)


def test_a_host_step_has_the_schemas_keys_and_an_action_it_lists() -> None:
    step_schema = schema("host-step.schema.json")
    result = hookwire.Dispatcher(one_hook("echo no >&2; exit 2")).fire(tool_event())
    step = hookwire.host_step(result)
    assert list(step) == properties(step_schema)
    assert step["action"] in [v["const"] for v in step_schema["$defs"]["HostAction"]["oneOf"]]


def test_a_tool_reach_has_the_schemas_keys() -> None:
    reach_schema = schema("tool-reach.schema.json")
    reach = hookwire.Dispatcher(one_hook("true")).tool_reach("Bash")
    assert list(reach) == properties(reach_schema) == reach_schema["required"]


def test_host_facts_with_every_key_of_the_schema_build_an_event() -> None:
    facts_schema = schema("host-facts.schema.json")
    values = {"event": "PostToolUseFailure", "session_id": "s", "cwd": "/", "transcript_path": "/t.jsonl",
              "permission_mode": "plan", "tool_name": "bash", "tool_names": {"bash": "Bash"}, "tool_input": {},
              "tool_use_id": "t", "tool_response": None, "error": "boom", "error_type": "OSError", "is_interrupt": True,
              "prompt": "p", "source": "startup", "reason": "other", "stop_hook_active": False,
              "last_assistant_message": "m", "fields": {"agent_id": "a"}}
    assert list(values) == properties(facts_schema)
    event = hookwire.host_event(values)
    assert (event["tool_name"], event["error"], event["agent_id"]) == ("Bash", "OSError: boom", "a")
    with pytest.raises(hookwire.EventError):
        hookwire.host_event({**values, "not_a_fact": 1})  # additionalProperties: false
