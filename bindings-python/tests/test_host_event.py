"""`hookwire.host_event(facts)` and `Dispatcher.tool_reach(name)`: the binding hands the
framework's facts to the core's one event builder and a tool name to the core's reach check
(the rules themselves are pinned in core/src/host_event.rs and core/src/inspect.rs)."""

from __future__ import annotations

import json

import pytest

import hookwire

from conftest import one_hook

FACTS = {"event": "PreToolUse", "session_id": "s", "cwd": "/p", "tool_name": "bash", "tool_names": {"bash": "Bash"},
         "tool_input": {"command": "ls"}, "tool_use_id": "t1"}


def test_the_event_has_claude_codes_keys_in_order_with_the_tool_name_mapped() -> None:
    event = hookwire.host_event(FACTS)
    assert list(event) == ["session_id", "cwd", "permission_mode", "hook_event_name", "tool_name", "tool_input", "tool_use_id"]
    assert (event["tool_name"], event["permission_mode"]) == ("Bash", "default")
    assert "transcript_path" not in event


def test_json_text_and_bytes_give_the_same_event_as_the_dict() -> None:
    text = json.dumps(FACTS)
    assert hookwire.host_event(FACTS) == hookwire.host_event(text) == hookwire.host_event(text.encode())


def test_the_built_event_fires() -> None:
    guard = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}
    result = hookwire.Dispatcher(guard).fire(hookwire.host_event(FACTS))
    assert result["decision"] == "deny"


def test_facts_that_miss_what_the_event_needs_raise_event_error_with_a_pointer() -> None:
    with pytest.raises(hookwire.EventError) as caught:
        hookwire.host_event({"event": "PreToolUse", "session_id": "s", "cwd": "/"})
    assert (caught.value.kind, caught.value.pointer) == ("invalid_event", "/tool_name")
    with pytest.raises(hookwire.EventError) as caught:
        hookwire.host_event({"event": "Stop", "session_id": "s", "cwd": "/", "tool_nmae": "x"})
    assert caught.value.kind == "invalid_event" and "tool_nmae" in str(caught.value)
    with pytest.raises(hookwire.EventError) as caught:
        hookwire.host_event(b"[")
    assert caught.value.kind == "invalid_json"
    with pytest.raises(TypeError):
        hookwire.host_event(42)  # type: ignore[arg-type]


def test_tool_reach_warns_for_a_name_no_matcher_can_match() -> None:
    d = hookwire.Dispatcher({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}})
    reach = d.tool_reach("bash")
    assert list(reach) == ["tool_name", "hooked", "reached", "warning"]
    assert (reach["hooked"], reach["reached"]) == (True, False)
    assert "bash" in reach["warning"] and "Bash" in reach["warning"]
    assert d.tool_reach("Bash") == {"tool_name": "Bash", "hooked": True, "reached": True, "warning": None}


def test_tool_reach_without_tool_hooks_is_silent() -> None:
    reach = hookwire.Dispatcher(one_hook("true", event="Stop")).tool_reach("anything")
    assert (reach["hooked"], reach["reached"], reach["warning"]) == (False, False, None)
    with pytest.raises(TypeError):
        hookwire.Dispatcher({}).tool_reach(7)  # type: ignore[arg-type]
